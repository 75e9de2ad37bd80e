"""The print guide: the first page of kit.pdf. It says what the kit is (game, seed, variant,
paper), how to print it (actual size, double-sided, long-edge flip), what each sheet holds and on
what stock, what to cut, fold and glue, the checklist of parts with counts and the assembly steps.

The words are the jinja2 template ``templates/guide/guide.<lang>.md.j2``, typeset like a booklet
on the whole sheet; this module only gathers the values from the definition and the print job.
"""

from __future__ import annotations

import math
import os
import re
from typing import Any

from generator.booklet.layout import BookStyle, page_geometry, typeset
from generator.booklet.markup import parse
from generator.booklet.template import render_template, shown_path
from generator.components.base import Context, title_of
from generator.components.inline import icons_of
from generator.components.kinds import find_kind
from generator.components.specs import CommonSpec, QuickReferenceSpec, TableSheetSpec
from generator.definitions.values import TEMPLATES_DIR, ComponentSpec
from generator.foundation.errors import DefinitionError
from generator.foundation.languages import MissingText, set_text, terms
from generator.model.page import Drawing, Page
from generator.printing.cut import REG_INSET, REG_LENGTH, REG_SQUARE, REG_WIDTH, has_parts_to_cut
from generator.printing.imposition import SCALE_BAR, footer, scale_bar
from generator.printing.job import Sheet, sheet_pages

GUIDE_DIR = os.path.join(TEMPLATES_DIR, "guide")
BOARD_KINDS = ("point-board", "grid-board", "hex-board", "track")
# what a kind's parts need once printed; boards need cutting and gluing only when tiled
HANDLING: dict[str, tuple[str, ...]] = {
    "counters": ("cut",),
    "cards": ("cut",),
    "standees": ("cut", "fold", "glue"),
    "dice-nets": ("cut", "fold", "glue"),
    "booklet": ("fold",),
    "quick-reference": ("cut",),
}
PAPER_NAMES = {"a4": "A4", "letter": "US Letter"}


def guide_languages() -> list[str]:
    """Return the languages the print guide is written in."""
    return sorted(
        n.split(".")[1] for n in os.listdir(GUIDE_DIR) if n.startswith("guide.") and n.endswith(".md.j2")
    )


def handling(spec: ComponentSpec, sheet_count: int, single_sided: bool = False) -> tuple[str, ...]:
    """Return what a component's printed sheets need: some of 'cut', 'fold', 'glue'."""
    if spec.kind == "booklet" and single_sided:
        return ("cut",)  # plain pages two to a sheet
    if spec.kind in BOARD_KINDS:
        return ("cut", "glue") if sheet_count > 1 else ()
    if spec.kind == "table-sheet":
        return ("cut",) if spec.typed(TableSheetSpec).copies > 1 else ()
    return HANDLING.get(spec.kind, ())


def most_players(players: str) -> int | None:
    """Return the largest number of players a game's ``players`` text names ('2-8' gives 8), or
    None when it names none."""
    numbers = [int(n) for n in re.findall(r"\d+", players)]
    return max(numbers) if numbers else None


def checklist(ctx: Context) -> list[dict[str, Any]]:
    """Return every printed component of the kit with its parts and their counts."""
    result = []
    for spec in ctx.definition.components:
        common = spec.typed(CommonSpec)
        if not common.output or not common.in_kit:
            continue
        title = common.title or spec.id
        items = find_kind(spec.kind).checklist(spec, ctx, title)
        result.append(
            {
                "id": spec.id,
                "kind": spec.kind,
                "title": title,
                "parts": [{"name": name, "count": count} for name, count in items],
                "total": sum(count for _, count in items),
            }
        )
    return result


def sheet_rows(ctx: Context, sheets: list[Sheet], single_sided: bool, start: int) -> list[dict[str, Any]]:
    """Return the guide's table of sheets: runs of sheets holding the same parts, with their pages,
    titles, stock and what to do with them."""
    definition = ctx.definition
    counts: dict[str, int] = {}
    for sheet in sheets:
        for part in sheet.parts:
            counts[part] = counts.get(part, 0) + 1
    rows: list[dict[str, Any]] = []
    for sheet, (first, last) in zip(sheets, sheet_pages(sheets, single_sided, start)):
        fold = sheet.fold.edge if sheet.fold is not None else None
        if (
            rows
            and rows[-1]["parts"] == sheet.parts
            and rows[-1]["stock"] == sheet.stock
            and rows[-1]["gutter"] == fold
        ):
            rows[-1]["last"] = last
            rows[-1]["sheets"] += 1
            continue
        specs = [definition.component(p) for p in sheet.parts]
        # a record whose rows go on on the back of its sheet: that back is printed, not blank
        continued = sheet.is_duplex and any(spec.kind == "table-sheet" for spec in specs)
        needs = {need for spec in specs for need in handling(spec, counts[spec.id], single_sided)}
        if fold is not None:  # a gutter-fold sheet: folded and glued before its parts are cut
            needs |= {"cut", "fold", "glue"}
        rows.append(
            {
                "parts": sheet.parts,
                "first": first,
                "last": last,
                "sheets": 1,
                "what": [title_of(spec) for spec in specs],
                "kinds": [spec.kind for spec in specs],
                "stock": sheet.stock,
                "cut": "cut" in needs,
                "fold": "fold" in needs,
                "glue": "glue" in needs,
                "continued": continued,
                "gutter": fold,  # the fold of a gutter-fold sheet ('long' or 'short'), else None
            }
        )
    for row in rows:
        row["pages"] = (
            f"{row['first']}" if row["first"] == row["last"] else f"{row['first']}\u2013{row['last']}"
        )
    return rows


def card_sheets(sheets: list[Sheet], single_sided: bool, start: int) -> dict[str, list[str]]:
    """Return the pages that go on card: ``card_fronts``, the fronts of card sheets whose backs are
    blank (printed single-sided: a double-sided pass on card jams home printers), and
    ``card_both``, the pages of card sheets printed on both sides ('7–8')."""
    fronts, both = [], []
    for sheet, (first, last) in zip(sheets, sheet_pages(sheets, single_sided, start)):
        if sheet.stock != "card":
            continue
        if sheet.is_duplex:
            both.append(f"{first}–{last}")
        else:
            fronts.append(str(first))
    return {"card_fronts": fronts, "card_both": both}


def guide_values(ctx: Context, sheets: list[Sheet], single_sided: bool, start: int) -> dict[str, Any]:
    """Return the values the guide template sees."""
    definition = ctx.definition
    rows = sheet_rows(ctx, sheets, single_sided, start)
    counts: dict[str, int] = {}
    for sheet in sheets:
        for part in sheet.parts:
            counts[part] = counts.get(part, 0) + 1
    kinds = sorted({definition.component(p).kind for p in counts})
    aids = [
        spec.typed(QuickReferenceSpec)
        for spec in definition.components
        if spec.kind == "quick-reference" and spec.typed(CommonSpec).output
    ]
    return {
        "game": dict(definition.game),
        "seed": ctx.seed,
        "variants": sorted(ctx.variants),
        "paper": PAPER_NAMES.get(ctx.paper.name, ctx.paper.name),
        "single_sided": single_sided,
        "scale_bar": f"{SCALE_BAR:g}",
        "rows": rows,
        **card_sheets(sheets, single_sided, start),
        "checklist": checklist(ctx),
        "kinds": kinds,
        "tiled": any(definition.component(p).kind in BOARD_KINDS and n > 1 for p, n in counts.items()),
        "sheet_count": len(sheets) + (start - 1 if single_sided else (start - 1) // 2),
        # the quick-reference cards printed, and the most players the game takes
        "aid_cards": sum(aid.copies for aid in aids),
        "most_players": most_players(definition.game_spec.players),
        "continued": [" ".join(row["what"]) for row in rows if row["continued"]],
        # the gutter-fold sheets (--gutter-fold) by fold, 'long' or 'short': their pages ('3–5')
        "gutter": [
            {"fold": fold, "pages": [row["pages"] for row in rows if row["gutter"] == fold]}
            for fold in dict.fromkeys(row["gutter"] for row in rows if row["gutter"])
        ],
        "lang": ctx.options.lang,
        "terms": terms(ctx.options.lang, definition.id),
    }


def export_values(
    sheets: list[Sheet],
    single_sided: bool,
    start: int,
    cut: bool = False,
    service: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """Return what the guide says of the files built beside kit.pdf: ``cut`` (None without
    ``--export cut``), the sheets whose fronts carry registration marks, each with its number
    in kit.pdf (the n of cut/sheet-<n>.svg: the guide's own sheets come first) and the page of
    its front, and the marks' figures in mm; ``service`` (None without ``--service``), the
    service's folder (service/<key>) and name, as given."""
    before = start - 1 if single_sided else (start - 1) // 2  # the guide's sheets
    marked = [
        {"number": before + n, "page": first, "file": f"cut/sheet-{before + n}.svg"}
        for n, (sheet, (first, _)) in enumerate(zip(sheets, sheet_pages(sheets, single_sided, start)), 1)
        if cut and has_parts_to_cut(sheet)  # (a sheet is drawn to know: only under --export cut)
    ]
    marks = {"inset": REG_INSET, "square": REG_SQUARE, "length": REG_LENGTH, "width": REG_WIDTH}
    return {
        "cut": {"sheets": marked, **{k: f"{v:g}" for k, v in marks.items()}} if cut else None,
        "service": {"folder": service[0], "title": service[1]} if service is not None else None,
    }


def _typeset(
    ctx: Context,
    sheets: list[Sheet],
    single_sided: bool,
    start: int,
    cut: bool = False,
    service: tuple[str, str] | None = None,
) -> list[Page]:
    lang = ctx.options.lang
    if lang not in guide_languages():  # never an English guide in a kit of another language
        raise MissingText(f"no {lang!r} print guide ({shown_path(GUIDE_DIR)}/guide.{lang}.md.j2)")
    path = os.path.join(GUIDE_DIR, f"guide.{lang}.md.j2")
    values = {
        **guide_values(ctx, sheets, single_sided, start),
        **export_values(sheets, single_sided, start, cut, service),
    }
    document = parse(render_template(path, values), shown_path(path))
    paper = ctx.paper.portrait()
    geo = page_geometry(paper.width, paper.height, paper.margin, side=paper.margin + 6.0)

    def no_figures(component: str, overlay: str | None, scale: float) -> Drawing:
        raise DefinitionError(f"{shown_path(path)}: the print guide has no figures ({component})")

    # the parts' titles it names may set the definition's icons (":coin:"), as the booklet does
    style = BookStyle(body=9.0, icons=icons_of(ctx.definition), lang=lang)
    laid = typeset(document, geo, style, no_figures, None, running_title="")
    name = document.meta.get("title", "print guide")
    text = set_text(f"{ctx.definition.title}: {name}", lang)
    return [scale_bar(footer(item.page, paper, text, style.icons), paper, lang) for item in laid]


def guide_pages(
    ctx: Context,
    sheets: list[Sheet],
    single_sided: bool,
    cut: bool = False,
    service: tuple[str, str] | None = None,
) -> list[Page]:
    """Return the print guide's pages for a kit whose sheets follow it in kit.pdf; with ``cut``
    (--export cut) and ``service`` (--service: its folder, service/<key>, and its name) it also
    says what the kit's cut/ and service folders hold."""
    count = 1
    pages: list[Page] = []
    for _ in range(3):  # the page numbers in the table depend on the guide's own length
        start = 1 + (count if single_sided else 2 * math.ceil(count / 2))
        pages = _typeset(ctx, sheets, single_sided, start, cut, service)
        if len(pages) == count:
            break
        count = len(pages)
    return pages
