"""The ``booklet`` component kind: the game's rule text as an A5 booklet (half the chosen paper).

Makes ``<id>``: the pages in reading order as a PDF and as one SVG a page (``<id>-1.svg``, ...),
and the same text as one HTML page; kit.pdf
imposes the pages in saddle-stitch order for the flip the kit is printed with. The text is the template
``templates/booklets/<template>.<lang>.md.j2``; the language is the build's ``--lang``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from generator.booklet.html import FigurePage, HtmlBooklet, HtmlDocument
from generator.booklet.layout import (
    BookStyle,
    CoverInfo,
    FigureSource,
    Geometry,
    Item,
    LaidPage,
    Pagination,
    draw_pages,
    flow,
    page_fill,
    page_geometry,
    readable_figure,
    typeset,
)
from generator.booklet.markup import (
    Block,
    Document,
    Figure,
    FigureRow,
    Heading,
    ListBlock,
    ListItem,
    Run,
    parse,
    plain_text,
    smarten,
)
from generator.booklet.template import render_template, shown_path, template_path
from generator.components.base import Context, Output, component_drawing
from generator.components.inline import icons_of
from generator.components.specs import BookletSpec, CommonSpec, QuickReferenceSpec, TableSheetSpec
from generator.definitions.schema import Field
from generator.definitions.values import ComponentSpec
from generator.foundation.errors import DefinitionError, UsageError
from generator.foundation.languages import cover_words, spaced
from generator.model.page import Drawing, Line, Page, Rect, Style, iter_shapes
from generator.printing.layout_check import check_page

FACE_KEYS: dict[str, Field] = {
    "body_font": Field(
        "str", default="sans", doc="the body text's face: a shipped face or a name of [fonts]"
    ),
    "bold_font": Field("str", default="sans-bold", doc="bold runs' face (and code's)"),
    "italic_font": Field("str", default="sans-italic", doc="italic runs' face"),
    "heading_font": Field("str", default="sans-bold", doc="the headings' and the cover title's face"),
}
SCHEMA: dict[str, Field] = {
    "template": Field(
        "id", default=None, doc="template base name in templates/booklets (default: the game id)"
    ),
    "body_size": Field("float", default=9.5, min=7.0, max=13.0, doc="body text size in points"),
    "accent_colour": Field("str", default="#7a2e1d", doc="headings, rules and markers"),
    "cover_figure": Field(
        "str",
        default=None,
        doc='component drawn on the cover, optionally with a data name: "board" or '
        '"board position:start"; "none" for no figure (default: the first '
        "component that can be drawn)",
    ),
    "cover": Field("bool", default=True, doc="start with a cover page"),
    **FACE_KEYS,
    "fit": Field(
        "bool",
        default=True,
        doc="fit the pages to a multiple of four: the body may move within 9 to 10.5 pt, figures may "
        "shrink, the kit list with counts and blank records may follow the rules (false: body_size "
        "as given, notes pages fill up)",
    ),
}


def book_faces(faces: BookletSpec | QuickReferenceSpec, style: BookStyle) -> BookStyle:
    """Return the style with a booklet's or quick reference's faces (its font keys)."""
    return replace(
        style,
        body_font=faces.body_font or "sans",
        bold_font=faces.bold_font or "sans-bold",
        italic_font=faces.italic_font or "sans-italic",
        heading_font=faces.heading_font or "sans-bold",
    )


def shown_title(spec: ComponentSpec) -> str:
    """Return a component's title as the booklet names it: its title, or its id made a phrase."""
    return spec.typed(CommonSpec).title or spec.id.replace("-", " ").capitalize()


def in_kit(spec: ComponentSpec) -> bool:
    """Return True when a component is made and printed in kit.pdf (its output and in_kit keys)."""
    common = spec.typed(CommonSpec)
    return common.output and common.in_kit


FIT_SIZES = (9.0, 10.5)  # pt: the readable range the body may be set in to fit the pages
FIT_STEP = 0.25  # pt
FIGURE_SCALES = (1.0, 0.9, 0.8)  # figures are drawn smaller only when no body size fits at full size
AID_BODY = 8.5  # pt: the quick reference's body size in the booklet (quick_reference.aid_page's)
MIN_FILL = 0.36  # no page but the last is filled less than this share of the text area (a third, and a line)
INK_SAVER_TINT = 0.12  # with --ink-saver no pale tint covers more of a page than this (as on every page)
RECORD_HEIGHT = 0.9  # a blank record follows the rules when it fits this share of a page at full width


def build(spec: ComponentSpec, ctx: Context) -> list[Output]:
    """Return the booklet in reading order (PDF, an SVG a page, and the same text as one HTML
    page); kit.pdf imposes it for saddle-stitch printing with the flip the kit is printed with."""
    source = booklet_source(spec, ctx)
    pages = [laid.page for laid in _typeset(source, ctx)]
    # kit.pdf imposes the pages in reading order itself, for the flip it is printed with
    # (the build leaves the booklet out when the definition says in_kit = false)
    return [
        Output(spec.id, tuple(pages), ("pdf", "svg"), booklet=True, html=html_booklet(source, spec, ctx)),
    ]


def reading_copy(spec: ComponentSpec, ctx: Context) -> Output:
    """Return the booklet as one HTML page only, with no pages laid out (the booklets of a kit's
    other languages: read on screens; a kit built with that --lang prints it)."""
    source = booklet_source(spec, ctx)
    return Output(spec.id, (), (), booklet=True, html=html_booklet(source, spec, ctx))


def booklet_pages(spec: ComponentSpec, ctx: Context) -> list[Page]:
    """Return the booklet's pages in reading order."""
    return [laid.page for laid in laid_pages(spec, ctx)]


@dataclass(frozen=True)
class BookletSource:
    """A booklet's parsed text and what both the PDF and the HTML page are made from."""

    document: Document
    geometry: Geometry
    style: BookStyle
    figures: FigureSource
    cover: CoverInfo | None
    title: str
    lang: str
    titles: dict[str, str]  # component titles by id, for the figures' text alternatives
    fit: bool = True  # set to fit (see the fit key); False: body_size as given, notes pages


def booklet_source(spec: ComponentSpec, ctx: Context) -> BookletSource:
    """Return the booklet's rendered and parsed text, page geometry, style, figures and cover."""
    definition = ctx.definition
    lang = ctx.options.lang
    booklet = spec.typed(BookletSpec)
    template = booklet.template or definition.id
    path = template_path(definition, template, lang)
    values = ctx.text_values()
    half = ctx.paper.half()
    geo = page_geometry(half.width, half.height, ctx.paper.margin)
    style = book_faces(
        booklet,
        BookStyle(
            body=booklet.body_size,
            accent=ctx.colour(booklet.accent_colour) or "#7a2e1d",
            icons=icons_of(ctx.definition),
            lang=lang,
        ),
    )
    document = parse(render_template(path, values), shown_path(path), style.icons, style.face)

    drawn: dict[tuple[str, str | None, float], Drawing] = {}  # the PDF and the HTML page share drawings

    def figure(component: str, overlay: str | None, type_floor: float = 0.0) -> Drawing:
        key = (component, overlay, type_floor)
        if key not in drawn:
            data = dict(ctx.layout_data(overlay)) if overlay else {}
            if type_floor:
                data["type_floor"] = (
                    type_floor  # the smallest type that prints readable at the figure's scale
                )
            drawn[key] = component_drawing(ctx, component, data)
        return drawn[key]

    meta = document.meta
    cover = _cover(spec, ctx, meta, lang) if booklet.cover else None
    title = smarten(meta.get("title") or definition.title)
    titles = {c.id: shown_title(c) for c in definition.components}
    return BookletSource(document, geo, style, figure, cover, title, lang, titles, booklet.fit)


def _typeset(source: BookletSource, ctx: Context) -> list[LaidPage]:
    """Return the typeset pages: the cover, the rules, what follows them, the quick reference.

    Saddle stitch needs a multiple of four pages. The booklet is set to fit it: at each body size
    of the readable range (FIT_SIZES, nearest the definition's first), with each choice of the
    matter that may follow the rules (the kit list with counts, blank records that fit a page),
    the quick reference closes the booklet on a page of its own or, kept whole, after the rest.
    The layout kept is the first of: no page but the last filled under MIN_FILL and no page to
    add; of layouts as far from that, fewer pages to add (a short page of rules rather than a
    notes page); fewest pages; the body size nearest the definition's; least added matter; the quick
    reference on its own page. Only when none comes out right are notes pages added before the
    quick reference."""
    lang = source.lang
    labels = {**cover_words(lang), **source.document.meta}
    geo = source.geometry
    card = next((c for c in ctx.definition.components if c.kind == "quick-reference"), None)
    quick: Document | None = None
    if card is not None:
        try:
            quick = ctx.kind_of(card).text_of(card, ctx)
        except UsageError:  # the card is not translated into the booklet's language
            card = None
    base = source.style.body
    sizes = [base]
    matter: list[tuple[Block, ...]] = []
    if source.fit:
        if FIT_SIZES[0] <= base <= FIT_SIZES[1]:
            steps = round((FIT_SIZES[1] - FIT_SIZES[0]) / FIT_STEP)
            grid = [FIT_SIZES[0] + k * FIT_STEP for k in range(steps + 1)]
            sizes = sorted(grid, key=lambda size: (abs(size - base), -size))
        matter = _matter(ctx, source, labels)
    masks = sorted(range(2 ** len(matter)), key=lambda m: (bin(m).count("1"), m))
    # (key, style, pages placed, the quick reference on a page of its own)
    best: tuple[tuple[float, ...], BookStyle, list[list[tuple[Item, float]]], bool] | None = None
    aids: dict[float, bool] = {}  # the quick reference fits one page, by its body size
    # measured once: what has no figure lays out the same at every figure scale (the kit list,
    # the quick reference at its own body size, which most body sizes share)
    plain = [not any(isinstance(block, FigureRow) for block in blocks) for blocks in matter]
    flowed: dict[tuple[int, float], list[Item]] = {}
    tails: dict[float, list[Item]] = {}
    measured: dict[tuple[int, float], list[Item]] = {}  # the rules' blocks with no figure

    def evaluate(scale: float, size: float) -> int:
        """Lay the booklet out at a figure scale and body size in every way; keep the best in
        best; return the fewest pages a layout at this size comes to."""
        nonlocal best
        style = replace(source.style, body=size, figures=scale)
        rules = flow(source.document, geo, style, source.figures, check=check, reuse=measured)
        count = len(source.document.blocks)
        pieces = []
        for k, blocks in enumerate(matter):
            if not plain[k]:
                pieces.append(flow(Document(blocks), geo, style, source.figures, count, check=check))
            else:
                if (k, size) not in flowed:
                    flowed[k, size] = flow(Document(blocks), geo, style, source.figures, count, check=check)
                pieces.append(flowed[k, size])
            count += len(blocks)
        aid_body = min(size, AID_BODY)
        if card is not None and aid_body not in aids:
            aids[aid_body] = _aid(ctx, card, geo, 1, size) is not None
        ends: list[tuple[bool, list[Item]]] = [(card is not None and aids[aid_body], [])]
        if quick is not None and source.fit:
            if aid_body not in tails:
                small = replace(style, body=aid_body)  # the size of the card's own page
                tails[aid_body] = flow(quick, geo, small, _no_figure, count, whole=True)
            ends.append((False, tails[aid_body]))
        fewest = 10**6
        placing = Pagination(rules, geo)  # the rules are placed once for every ending tried
        for mask in masks:
            items = [item for k, piece in enumerate(pieces) if mask >> k & 1 for item in piece]
            for on_page, tail in ends:
                placed = placing.then(items + tail)
                total = len(placed) + (1 if source.cover is not None else 0) + (1 if on_page else 0)
                fewest = min(fewest, total)
                missing = -total % 4
                if tail and missing:
                    continue  # notes pages would follow the quick reference
                judged = placed if on_page or tail else placed[:-1]  # the last page may be short
                thin = sum(
                    1 for page in judged if page_fill(page, geo) < MIN_FILL and page[-1][0].kind != "break"
                )
                # a short page of rules reads better than a notes page: of two layouts as far from
                # right, the one with fewer padding pages wins
                key = (
                    missing + thin,
                    missing,
                    total + missing,
                    abs(size - base),
                    bin(mask).count("1"),
                    bool(tail),
                )
                if best is None or key < best[0]:
                    best = (key, style, placed, on_page)
        return fewest

    drawn = any(isinstance(block, FigureRow) for block in source.document.blocks) or not all(plain)
    # a booklet with no figure lays out the same at every figure scale: one is enough
    for scale in FIGURE_SCALES if source.fit and drawn else (1.0,):
        floor: int | None = None  # the fewest pages at the smallest size
        for size in sizes:
            if best is not None and best[0][0] == 0:
                # a layout that fits is known: larger type cannot take fewer pages than it does,
                # nor smaller type fewer than the smallest size takes
                if size > best[1].body:
                    continue
                if floor is None:
                    floor = evaluate(scale, min(sizes))
                if floor >= best[0][1] or size == min(sizes):
                    continue
            fewest = evaluate(scale, size)
            if size == min(sizes):
                floor = fewest
        if best is not None and best[0][0] == 0:
            break  # figures at this scale fit: no need to draw them smaller
    assert best is not None
    _, style, placed, on_page = best
    laid = draw_pages(placed, geo, style, source.figures, source.cover, source.title)
    return laid + _filling(ctx, len(laid), geo, style, source.title, labels, card if on_page else None)


# id of a drawing -> (the drawing, kept so its id stays its own; findings by scale)
_CHECKED: dict[int, tuple[Drawing, dict[float, int]]] = {}


def check(drawing: Drawing, scale: float) -> int:
    """Return the layout findings of a figure shown at a scale (a figure drawn smaller than planned
    must not collide where it did not)."""
    if id(drawing) not in _CHECKED:
        if len(_CHECKED) > 256:
            _CHECKED.clear()
        _CHECKED[id(drawing)] = (drawing, {})
    found = _CHECKED[id(drawing)][1]
    if scale not in found:
        page = Page(
            drawing.width * scale + 2.0, drawing.height * scale + 2.0, (drawing.placed(1.0, 1.0, scale),)
        )
        found[scale] = len(check_page(page))
    return found[scale]


def _matter(ctx: Context, source: BookletSource, labels: dict[str, str]) -> list[tuple[Block, ...]]:
    """Return what may follow the rules to fill the booklet, each as blocks: the kit list with
    the count of every part (from the definition), then a blank copy of each record sheet that
    fits a page at full width (with --ink-saver, drawn narrower where that keeps each tint within
    INK_SAVER_TINT of a page, down to the width of a copy on the record's own sheet)."""
    sep = spaced(": ", source.lang)
    entries = []
    for spec in ctx.definition.components:
        if spec.kind == "booklet" or not in_kit(spec):
            continue
        title = shown_title(spec)
        parts = ctx.kind_of(spec).checklist(spec, ctx, title)
        if len(parts) == 1:
            counts = str(parts[0][1])
        else:
            counts = ", ".join(f"{count}\u00a0\u00d7 {name}" for name, count in parts)
        entries.append(ListItem((Run(title, bold=True), Run(sep + counts))))
    matter: list[tuple[Block, ...]] = []
    if entries:
        matter.append((Heading(1, (Run(labels["kit"]),)), ListBlock(False, tuple(entries))))
    geo = source.geometry
    for spec in ctx.definition.components:
        if spec.kind != "table-sheet" or not in_kit(spec):
            continue
        share = 1.0  # of the text width
        # never narrower than a copy on the sheet the kit prints
        narrowest = min(
            1.0, ctx.paper.printable[0] / spec.typed(TableSheetSpec).columns_per_page / geo.text_width
        )
        while True:
            width = geo.text_width * share

            def fit(d: Drawing, width: float = width) -> float:
                return width / d.width

            drawing, scale = readable_figure(source.figures, spec.id, None, fit)
            if not ctx.options.ink_saver:
                break
            if _largest_tint(drawing) * scale**2 <= INK_SAVER_TINT * geo.width * geo.height:
                break
            # a page-wide record would print a larger tint than the ink saver allows on a page:
            # narrower, its tints are within it (a record narrower than its own sheet's is left out)
            share = round(share - 0.05, 2)
            if share < narrowest - 1e-9:
                break
        if share < narrowest - 1e-9:
            continue
        if drawing.height * scale <= geo.text_height * RECORD_HEIGHT - 12.0:
            title = shown_title(spec)
            figure = Figure(spec.id, width=(100.0 * share, "%"))
            matter.append((Heading(1, (Run(title),)), FigureRow((figure,))))
    return matter


def _largest_tint(drawing: Drawing) -> float:
    """Return the area in mm² of a drawing's largest filled rectangle (white ones aside): the
    ink saver lets no tint cover more than INK_SAVER_TINT of a page, on every page of a kit."""
    area = 0.0
    for shape, m in iter_shapes(drawing.shapes):
        if isinstance(shape, Rect) and shape.style.fill not in (None, "#ffffff"):
            area = max(area, shape.w * shape.h * abs(m[0] * m[3] - m[1] * m[2]))
    return area


def _aid(ctx: Context, card: ComponentSpec, geo: Geometry, number: int, body: float) -> Page | None:
    """Return the quick reference as a booklet page numbered number, or None when it needs two."""
    return ctx.kind_of(card).aid(card, ctx, geo.width, geo.height, number, body)


def laid_pages(spec: ComponentSpec, ctx: Context) -> list[LaidPage]:
    """Return the typeset pages with the kinds of flow items on each (see layout.LaidPage)."""
    return _typeset(booklet_source(spec, ctx), ctx)


def figure_alt(title: str, caption: str, component: str) -> str:
    """Return a figure's text alternative: what it shows (the component's title) and its caption."""
    if caption:
        return f"{title}: {caption}" if title.lower() not in caption.lower() else caption
    return title or component


def html_booklet(source: BookletSource, spec: ComponentSpec, ctx: Context) -> HtmlDocument:
    """Return the booklet as the HTML writer takes it, from the same text and drawings as the PDF:
    the parsed text, the cover and quick reference (the kit's card, when it has one, comes first)
    and each figure drawn as the PDF draws it."""
    width = source.geometry.text_width

    def drawn(component: str, overlay: str | None, caption: str, limit: float) -> FigurePage:
        # drawn as the PDF draws it at the size the PDF shows it, so type stays readable on a phone
        drawing, _ = readable_figure(source.figures, component, overlay, lambda d: min(1.0, limit / d.width))
        page = Page(drawing.width, drawing.height, drawing.shapes, drawing.label)
        return page, figure_alt(source.titles.get(component, component), caption, component)

    def figure(fig: Figure) -> FigurePage:
        return drawn(fig.component, fig.overlay, plain_text(fig.caption), width)

    cover: FigurePage | None = None
    if source.cover is not None and source.cover.figure is not None:
        component, overlay = source.cover.figure
        cover = drawn(component, overlay, "", width * 0.8)
    card = next((c for c in ctx.definition.components if c.kind == "quick-reference"), None)
    quick: tuple[Block, ...] = ()
    if card is not None:
        try:
            quick = ctx.kind_of(card).text_of(card, ctx).blocks
        except UsageError:  # the card is not translated into the booklet's language
            quick = ()
    info = HtmlBooklet(source.title, source.lang, source.cover, "", tuple(quick))
    return HtmlDocument(source.document, info, source.style, cover, figure)


def _filling(
    ctx: Context,
    count: int,
    geo: Geometry,
    style: BookStyle,
    title: str,
    labels: dict[str, str],
    card: ComponentSpec | None,
) -> list[LaidPage]:
    """Return the pages that follow a booklet of count pages: the quick-reference card's page
    last (when given), and before it, only when the booklet could not be set to fit, the notes
    pages that bring it to a multiple of four (saddle stitch needs it)."""
    missing = -(count + (1 if card is not None else 0)) % 4
    aid = _aid(ctx, card, geo, count + missing + 1, style.body) if card is not None else None
    pages: list[LaidPage] = []
    for number in range(count + 1, count + missing + 1):
        laid = typeset(parse(f"# {labels['notes']}"), geo, style, _no_figure, None, title, number)
        top = geo.top + style.heading_size(1) * 25.4 / 72 * 2.2
        rows = int((geo.bottom - top) // 8.0)
        ruled = Style(stroke="#b9aea3", width=0.2)
        page = laid[0].page.plus(
            *(
                Line(geo.left, top + row * 8.0, geo.right, top + row * 8.0, ruled)
                for row in range(1, rows + 1)
            )
        )
        pages.append(LaidPage(page, ["notes"]))
    if aid is not None:
        pages.append(LaidPage(aid, ["quick-reference"]))
    return pages


def _no_figure(component: str, overlay: str | None, type_floor: float = 0.0) -> Drawing:
    raise DefinitionError(f"a notes page or the quick reference has no figures ({component})")


def _cover(spec: ComponentSpec, ctx: Context, meta: dict[str, str], lang: str) -> CoverInfo:
    game = ctx.definition.game_spec
    labels = {**cover_words(lang), **meta}
    facts = []
    for key, value in (("players", game.players), ("time", game.playing_time), ("ages", game.ages)):
        if value:
            facts.append((labels[key], str(value).replace("-", "\u2013")))
    kit = []
    for other in ctx.definition.components:
        if not in_kit(other):
            continue
        name = shown_title(other)
        untitled = not other.typed(CommonSpec).title
        kit.append(labels["booklet"].capitalize() if other.id == spec.id and untitled else name)
    figure: tuple[str, str | None] | None = None
    choice = spec.typed(BookletSpec).cover_figure
    if choice is None:
        drawable = [c.id for c in ctx.definition.components if c.id != spec.id and ctx.kind_of(c).can_draw]
        figure = (drawable[0], None) if drawable else None
    elif choice != "none":
        words = choice.split()
        figure = (words[0], words[1] if len(words) > 1 else None)
    return CoverInfo(
        title=meta.get("title") or game.title,
        subtitle=meta.get("subtitle", game.subtitle),
        facts=tuple(facts),
        summary=meta.get("summary", game.summary),
        kit_title=labels["kit"],
        kit=tuple(kit),
        kicker=labels["rules"],
        figure=figure,
        footer=ctx.seed_label(),
    )


def check_spec(values: dict[str, Any], where: Any) -> None:
    """Check the cover figure's form (component id, optional data name)."""
    figure = values.get("cover_figure")
    if figure is not None and not 1 <= len(figure.split()) <= 2:
        raise where.child("cover_figure").error(
            f'expected a component id and an optional data name, e.g. "board position:start", got {figure!r}'
        )
