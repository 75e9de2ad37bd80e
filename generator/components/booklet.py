"""The ``booklet`` component kind: the game's rule text as an A5 booklet (half the chosen paper).

Makes ``<id>``: the pages in reading order as a PDF, and the same text as one HTML page; kit.pdf
imposes the pages in saddle-stitch order for the flip the kit is printed with. The text is the template
``templates/booklets/<template>.<lang>.md.j2``; the language is the build's ``--lang``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.booklet.html import HtmlBooklet, booklet_html
from generator.booklet.layout import (
    BookStyle,
    CoverInfo,
    FigureSource,
    Geometry,
    LaidPage,
    page_geometry,
    readable_figure,
    typeset,
)
from generator.booklet.markup import Document, Figure, parse, plain_text, smarten
from generator.booklet.template import render_template, shown_path, template_path, template_values
from generator.components.base import Context, Output, component_drawing
from generator.errors import DefinitionError, UsageError
from generator.languages import cover_words
from generator.page import Drawing, Line, Page, Style
from generator.render.svg import InlineSvg
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
    """Return the booklet in reading order (PDF, and the same text as one HTML page); kit.pdf
    imposes it for saddle-stitch printing with the flip the kit is printed with."""
    source = booklet_source(spec, ctx)
    pages = [laid.page for laid in _typeset(source, ctx)]
    # kit.pdf imposes the pages in reading order itself, for the flip it is printed with
    # (the build leaves the booklet out when the definition says in_kit = false)
    return [
        # on screens the booklet reads as one HTML page, so its pages need no SVG files
        Output(spec.id, pages, ("pdf",), booklet=True, html=html_booklet(source, spec, ctx)),
    ]


def booklet_pages(spec: Any, ctx: Context) -> list[Page]:
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


def booklet_source(spec: Any, ctx: Context) -> BookletSource:
    """Return the booklet's rendered and parsed text, page geometry, style, figures and cover."""
    definition = ctx.definition
    lang = ctx.options.lang
    template = spec.get("template") or definition.id
    path = template_path(definition, template, lang)
    rules_values = ctx.rules.text_values() if ctx.rules is not None else {}
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
    cover = _cover(spec, ctx, meta, lang) if spec.get("cover", True) else None
    title = smarten(meta.get("title") or definition.title)
    titles = {c.id: c.get("title") or c.id.replace("-", " ").capitalize() for c in definition.components}
    return BookletSource(document, geo, style, figure, cover, title, lang, titles)


def _typeset(source: BookletSource, ctx: Context) -> list[LaidPage]:
    """Return the typeset pages, filled to a multiple of four (notes, the quick reference)."""
    laid = typeset(
        source.document,
        source.geometry,
        source.style,
        source.figures,
        source.cover,
        running_title=source.title,
    )
    lang = source.lang
    labels = cover_words(lang)
    return laid + _filling(ctx, len(laid), source.geometry, source.style, source.title, labels)


def laid_pages(spec: Any, ctx: Context) -> list[LaidPage]:
    """Return the typeset pages with the kinds of flow items on each (see layout.LaidPage)."""
    return _typeset(booklet_source(spec, ctx), ctx)


def figure_alt(title: str, caption: str, component: str) -> str:
    """Return a figure's text alternative: what it shows (the component's title) and its caption."""
    if caption:
        return f"{title}: {caption}" if title.lower() not in caption.lower() else caption
    return title or component


def html_booklet(source: BookletSource, spec: Any, ctx: Context) -> str:
    """Return the booklet as one self-contained HTML page, from the same text and drawings as the
    PDF; the kit's quick-reference card, when it has one, comes first."""
    width = source.geometry.text_width
    figures = InlineSvg()

    def svg(component: str, overlay: str | None, caption: str, limit: float) -> str:
        # drawn as the PDF draws it at the size the PDF shows it, so type stays readable on a phone
        drawing, _ = readable_figure(source.figures, component, overlay, lambda d: min(1.0, limit / d.width))
        page = Page(drawing.width, drawing.height, list(drawing.shapes), drawing.label)
        return figures.element(page, figure_alt(source.titles.get(component, component), caption, component))

    def figure(fig: Figure) -> str:
        return svg(fig.component, fig.overlay, plain_text(fig.caption), width)

    cover_svg = ""
    if source.cover is not None and source.cover.figure is not None:
        component, overlay = source.cover.figure
        cover_svg = svg(component, overlay, "", width * 0.8)
    card = next((c for c in ctx.definition.components if c.kind == "quick-reference"), None)
    quick: tuple = ()
    if card is not None:
        try:
            quick = ctx.kind_of(card).module.document(card, ctx).blocks
        except UsageError:  # the card is not translated into the booklet's language
            quick = ()
    info = HtmlBooklet(source.title, source.lang, source.cover, cover_svg, tuple(quick))
    return booklet_html(source.document, info, source.style, figure, figures.css)


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
    labels = {**cover_words(lang), **meta}
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
