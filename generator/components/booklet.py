"""The ``booklet`` component kind: the game's rule text as an A5 booklet (half the chosen paper).

Makes ``<id>`` (the pages in reading order, PDF and one SVG per page) and ``<id>-imposed`` (landscape
sheets in saddle-stitch order for double-sided printing, PDF). The text is the template
``templates/booklets/<template>.<lang>.md.j2``; the language is the build's ``--lang``.
"""

from __future__ import annotations

from typing import Any

from generator.booklet.layout import BookStyle, CoverInfo, Geometry, LaidPage, page_geometry, typeset
from generator.booklet.markup import parse, smarten
from generator.booklet.template import render_template, shown_path, template_path, template_values
from generator.components.base import Context, Output, component_drawing
from generator.errors import DefinitionError
from generator.imposition import impose_booklet
from generator.languages import DEFAULT_LANGUAGE, LANGUAGES
from generator.page import Drawing, Line, Page, Style
from generator.schema import Field

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
}


def build(spec: Any, ctx: Context) -> list[Output]:
    """Return the booklet in reading order (PDF, SVG) and imposed for saddle-stitch printing (PDF)."""
    pages = booklet_pages(spec, ctx)
    # kit.pdf imposes the pages in reading order itself, for the flip it is printed with
    # (the build leaves the booklet out when the definition says in_kit = false)
    return [
        Output(spec.id, pages, ("pdf", "svg"), booklet=True),
        Output(f"{spec.id}-imposed", impose_booklet(pages, ctx.paper), ("pdf",), in_kit=False),
    ]


def booklet_pages(spec: Any, ctx: Context) -> list[Page]:
    """Return the booklet's pages in reading order."""
    return [laid.page for laid in laid_pages(spec, ctx)]


def laid_pages(spec: Any, ctx: Context) -> list[LaidPage]:
    """Return the typeset pages with the kinds of flow items on each (see layout.LaidPage)."""
    definition = ctx.definition
    lang = ctx.options.lang
    template = spec.get("template") or definition.id
    path = template_path(definition, template, lang)
    rules_values = ctx.rules.template_values() if ctx.rules is not None else {}
    values = template_values(
        definition,
        rules_values,
        ctx.variants,
        lang,
        ctx.seed,
        ctx.layout_data if ctx.rules is not None else None,
    )
    document = parse(render_template(path, values), shown_path(path))
    half = ctx.paper.half()
    geo = page_geometry(half.width, half.height, ctx.paper.margin)
    style = BookStyle(
        body=spec.get("body_size", 9.5), accent=ctx.colour(spec.get("accent_colour", "#7a2e1d")) or "#7a2e1d"
    )

    def figure(component: str, overlay: str | None, type_floor: float = 0.0) -> Drawing:
        data = dict(ctx.layout_data(overlay)) if overlay else {}
        if type_floor:
            data["type_floor"] = type_floor  # the smallest type that prints readable at the figure's scale
        return component_drawing(ctx, component, data)

    meta = document.meta
    cover = _cover(spec, ctx, meta, lang) if spec.get("cover", True) else None
    title = smarten(meta.get("title") or definition.title)
    laid = typeset(document, geo, style, figure, cover, running_title=title)
    own = LANGUAGES[lang].cover if lang in LANGUAGES else {}
    return laid + _filling(ctx, len(laid), geo, style, title, {**LANGUAGES[DEFAULT_LANGUAGE].cover, **own})


def _filling(
    ctx: Context, count: int, geo: Geometry, style: BookStyle, title: str, labels: dict[str, str]
) -> list[LaidPage]:
    """Return the pages that bring a booklet of count pages to a multiple of four (saddle stitch
    needs it): notes pages, and the quick reference on the last page when the kit has one."""
    missing = -count % 4
    if not missing:
        return []
    aid = None
    spec = next((c for c in ctx.definition.components if c.kind == "quick-reference"), None)
    if spec is not None:
        aid = ctx.kind_of(spec).module.aid_page(spec, ctx, geo.width, geo.height, count + missing, style.body)
    pages: list[LaidPage] = []
    for number in range(count + 1, count + missing + (0 if aid is not None else 1)):
        laid = typeset(parse(f"# {labels['notes']}"), geo, style, _no_figure, None, title, number)
        page = laid[0].page
        top = geo.top + style.heading_size(1) * 25.4 / 72 * 2.2
        rows = int((geo.bottom - top) // 8.0)
        for row in range(1, rows + 1):
            page.add(
                Line(
                    geo.left, top + row * 8.0, geo.right, top + row * 8.0, Style(stroke="#b9aea3", width=0.2)
                )
            )
        pages.append(LaidPage(page, ["notes"]))
    if aid is not None:
        pages.append(LaidPage(aid, ["quick-reference"]))
    return pages


def _no_figure(component: str, overlay: str | None, type_floor: float = 0.0) -> Drawing:
    raise DefinitionError(f"a notes page has no figures ({component})")


def _cover(spec: Any, ctx: Context, meta: dict[str, str], lang: str) -> CoverInfo:
    game = ctx.definition.game
    own = LANGUAGES[lang].cover if lang in LANGUAGES else {}
    labels = {**LANGUAGES[DEFAULT_LANGUAGE].cover, **own, **meta}
    facts = []
    for key, field in (("players", "players"), ("time", "playing_time"), ("ages", "ages")):
        value = game.get(field) or ""
        if value:
            facts.append((labels[key], str(value).replace("-", "\u2013")))
    kit = []
    for other in ctx.definition.components:
        if not other.get("in_kit", True) or not other.get("output", True):
            continue
        name = other.get("title") or other.id.replace("-", " ").capitalize()
        kit.append(labels["booklet"].capitalize() if other.id == spec.id and not other.get("title") else name)
    figure = None
    choice = spec.get("cover_figure")
    if choice is None:
        drawable = [c.id for c in ctx.definition.components if c.id != spec.id and ctx.kind_of(c).can_draw]
        figure = (drawable[0], None) if drawable else None
    elif choice != "none":
        words = choice.split()
        figure = (words[0], words[1] if len(words) > 1 else None)
    return CoverInfo(
        title=meta.get("title") or game["title"],
        subtitle=meta.get("subtitle", game.get("subtitle", "")),
        facts=tuple(facts),
        summary=meta.get("summary", game.get("summary", "")),
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
