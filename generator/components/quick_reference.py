"""The ``quick-reference`` component kind: a player aid card with the turn in a few lines, the
notation and the piece table, from ``templates/quickref/<template>.<lang>.md.j2`` filled with the
same values as the rule booklet (so a change of the layout or the rules changes the card too).

The card is a quarter of the printable area (95 x 138.5 mm on A4), printed on card and cut out, ``copies`` of it
(two by default; the print guide states the number); it is packed with the kit's other card parts.
The booklet ends with the same text, on a page of its own (``aid_page``) or after the rules
(``document``).
"""

from __future__ import annotations

import math
import os

from generator.booklet.layout import BookStyle, Geometry, page_geometry, typeset
from generator.booklet.markup import Document, parse
from generator.booklet.template import render_template, shown_path
from generator.components.base import Context, Output, title_of
from generator.components.booklet import FACE_KEYS, book_faces
from generator.components.inline import icons_of
from generator.components.specs import QuickReferenceSpec
from generator.definitions.schema import Field
from generator.definitions.values import ComponentSpec
from generator.foundation.errors import TemplateError, UsageError
from generator.model.page import Drawing, Page, bounds
from generator.printing.imposition import SheetItem, nup

SCHEMA: dict[str, Field] = {
    "template": Field(
        "id", default=None, doc="template base name in templates/quickref (default: the game id)"
    ),
    "copies": Field(
        "int",
        default=2,
        min=1,
        max=12,
        doc="cards printed (the print guide says how many, and whether one per player)",
    ),
    "body_size": Field("float", default=7.0, min=6.0, max=10.0, doc="text size in points"),
    "accent_colour": Field("str", default="#7a2e1d", doc="headings and rules"),
    **FACE_KEYS,
}
MARGIN = 6.0  # mm of card round the text
AID_BODY = 8.5  # pt: the largest body size of the card's text in a booklet


def template_file(spec: ComponentSpec, ctx: Context) -> str:
    """Return the path of the card's template in the build's language; raise when there is none."""
    name = spec.typed(QuickReferenceSpec).template or ctx.definition.id
    folder = os.path.join(ctx.definition.templates_dir, "quickref")
    path = os.path.join(folder, f"{name}.{ctx.options.lang}.md.j2")
    if not os.path.isfile(path):
        english = os.path.join(folder, f"{name}.en.md.j2")
        if ctx.options.lang != "en" and os.path.isfile(english):
            raise UsageError(f"{ctx.definition.id} has no quick reference in {ctx.options.lang!r}")
        raise TemplateError(f"{ctx.definition.path}: no quick-reference template {shown_path(path)}")
    return path


def document(spec: ComponentSpec, ctx: Context) -> Document:
    """Return the card's text, rendered and parsed (the HTML booklet shows it first)."""
    path = template_file(spec, ctx)
    values = ctx.text_values()
    faces = book_faces(
        spec.typed(QuickReferenceSpec), BookStyle()
    )  # each text is checked in the face it is set in
    return parse(render_template(path, values), shown_path(path), icons_of(ctx.definition), faces.face)


def _pages(
    spec: ComponentSpec, ctx: Context, geo: Geometry, numbered_from: int | None, body: float | None = None
) -> list[Page]:
    path = template_file(spec, ctx)
    values = spec.typed(QuickReferenceSpec)
    style = book_faces(
        values,
        BookStyle(
            body=body or values.body_size,
            accent=ctx.colour(values.accent_colour) or "#7a2e1d",
            icons=icons_of(ctx.definition),
            lang=ctx.options.lang,
        ),
    )

    def no_figures(component: str, overlay: str | None, type_floor: float = 0.0) -> Drawing:
        raise TemplateError(f"{shown_path(path)}: a quick reference has no figures ({component})")

    laid = typeset(document(spec, ctx), geo, style, no_figures, None, numbered_from=numbered_from)
    return [item.page for item in laid]


def card_size(ctx: Context) -> tuple[float, float]:
    """Return the card's width and height: a quarter of the printable area (4 cards a sheet, with
    their gutters of twice the bleed under --bleed)."""
    pw, ph = ctx.paper.portrait().printable
    gutter = 2 * ctx.options.bleed
    return (pw / 2 - gutter, ph / 2 - gutter)


def card(spec: ComponentSpec, ctx: Context) -> Drawing:
    """Return the card at true size; raise TemplateError when its text needs more than one card."""
    w, h = card_size(ctx)
    geo = Geometry(w, h, MARGIN, MARGIN + 1.0, w - MARGIN, h - MARGIN, h - MARGIN / 2)
    pages = _pages(spec, ctx, geo, None)
    if len(pages) != 1:
        raise TemplateError(
            f"{shown_path(template_file(spec, ctx))}: the quick reference needs {len(pages)} cards; "
            "it must fit one (shorten it or lower body_size)"
        )
    box = bounds(pages[0].shapes)
    used = h if box is None else min(h, math.ceil((box[3] + MARGIN) / 5.0) * 5.0)  # trimmed to its text
    return Drawing(w, used, tuple(pages[0].shapes), title_of(spec))


def aid_page(
    spec: ComponentSpec, ctx: Context, width: float, height: float, number: int, body: float
) -> Page | None:
    """Return the quick reference as a numbered booklet page of a size at a body size (points), or
    None when it needs more than one page."""
    geo = page_geometry(width, height, ctx.paper.margin)
    pages = _pages(spec, ctx, geo, number, min(body, AID_BODY))
    return pages[0] if len(pages) == 1 else None


def contents(spec: ComponentSpec, ctx: Context) -> list[tuple[str, int]]:
    """Return the card and how many copies the kit prints, for the print guide's checklist."""
    return [(title_of(spec), spec.typed(QuickReferenceSpec).copies)]


def build(spec: ComponentSpec, ctx: Context) -> list[Output]:
    """Return the cards on sheets with cut lines; the print job packs them with other card parts."""
    label = f"{ctx.definition.title}: {title_of(spec)}"
    items = [SheetItem(card(spec, ctx))] * spec.typed(QuickReferenceSpec).copies
    # no file of its own: the cards print in kit.pdf (and on the booklet's last page)
    return [
        Output(
            spec.id,
            tuple(
                nup(
                    items,
                    ctx.paper,
                    label,
                    bleed=ctx.options.bleed,
                    lang=ctx.options.lang,
                    icons=icons_of(ctx.definition),
                )
            ),
            (),
            items=tuple(items),
        )
    ]
