"""Counter sheets: round, square or hexagonal counters laid out n-up with cut lines, each type with
a fill, a symbol and/or text, and an optional back printed on the next page for duplex printing."""

from __future__ import annotations

import math
from typing import Any

from generator.components.base import Context, Output, nup_output
from generator.components.hex_board import corners
from generator.components.hex_board import half_width as hex_half_width
from generator.components.look import (
    TOKEN_SCHEMA,
    contrast_ink,
    figure_grid,
    fitted_text,
    knockout_boxes,
    knockout_hatch,
    luminance,
)
from generator.components.rows import data_fields, expand_templates, template_fields
from generator.components.specs import CountersSpec, CountersSpecCounters, CountersSpecCountersBack
from generator.components.symbols import draw_symbol
from generator.definitions.schema import Field, positive
from generator.definitions.values import ComponentSpec
from generator.foundation.errors import DefinitionError
from generator.model.colour import readable
from generator.model.fonts import text_width
from generator.model.page import Circle, Drawing, Group, Polygon, Rect, Shape, Style, Text
from generator.printing.imposition import SheetItem

MAX_COUNT = 1000  # counters of one type
FACE_SCHEMA: dict[str, Field] = {
    **TOKEN_SCHEMA,  # a counter's face has a token's keys, and these:
    "label": Field("str", default="", doc="small text under the symbol or main text"),
    "ring": Field("bool", default=False, doc="an inner ring, to tell sides apart in black and white"),
}
COUNTER_SCHEMA: dict[str, Field] = {
    "name": Field("str", required=True, doc="the counter type's name (a PNG's file name under --png)"),
    "count": Field(
        "int", default=1, min=1, max=MAX_COUNT, doc="how many counters of this type (with data: per row)"
    ),
    "shape": Field(
        "str",
        default="circle",
        choices=("circle", "square", "rounded", "hexagon", "hex"),
        doc="hexagon: size corner to corner; hex: size across the flats, to fit a hex-board's hexes",
    ),
    "orientation": Field(
        "str", default="flat", choices=("flat", "pointy"), doc="hex: flat-top or pointy-top"
    ),
    "size": Field(
        "length", default=None, check=positive, doc="this type's size (default: the component's size)"
    ),
    **FACE_SCHEMA,
    "back": Field(
        "table",
        default=None,
        schema=FACE_SCHEMA,
        doc="the back face, printed behind the front for long-edge duplex (none: blank)",
    ),
    **template_fields("row"),
}
MIN_LABEL = 6.0  # pt, the smallest label a counter prints
SCHEMA: dict[str, Field] = {
    "size": Field("length", default=20.0, check=positive, doc="default counter size (diameter or side)"),
    "padding": Field("length", default=1.5, min=0, doc="space between a round counter and its cut lines"),
    "board": Field("str", default="", doc="the board the counters stand on: they must fit its squares"),
    "counters": Field(
        "tables",
        required=True,
        schema=COUNTER_SCHEMA,
        doc="the counter types, each a table (with data: templates, made once per row)",
    ),
    **data_fields("counter type"),
}


def check_spec(values: dict[str, Any], where) -> None:
    """Check that at least one counter type is listed; with data (``csv`` or inline ``rows``),
    make the counter types from its rows, one per row and template."""
    if not values["counters"]:
        raise where.child("counters").error("list at least one counter type")
    expand_templates(values, where, "counters", COUNTER_SCHEMA, "counter", MAX_COUNT)


def hex_cell(size: float, pad: float, orientation: str) -> tuple[float, float]:
    """Return the width and height of the cell of a hex counter ``size`` across the flats."""
    across = size * 2 / math.sqrt(3) + 2 * pad
    return (across, size + 2 * pad) if orientation == "flat" else (size + 2 * pad, across)


Face = CountersSpecCounters | CountersSpecCountersBack  # a counter's front (its type) or its back


def _face(
    shape: str, size: float, pad: float, face: Face, ctx: Context, orientation: str = "flat"
) -> tuple[Shape, ...]:
    cell = size + 2 * pad
    c = cell / 2
    cx = cy = c
    top_y = pad
    if shape == "hex":
        w, h = hex_cell(size, pad, orientation)
        cx, cy = w / 2, h / 2
        top_y = cy - size / 2
    colour = ctx.colour(face.fill)
    outline = ctx.colour(face.stroke) or "#000000"
    width = 0.4
    body_fill = colour
    # ink saver: a white face with a thick outline in the counter's colour; dark sides hatched
    shade = colour if ctx.options.ink_saver and colour is not None and luminance(colour) < 0.9 else None
    saved = shade is not None
    if shade is not None:
        body_fill, outline, width = "#ffffff", readable(shade, "#ffffff"), 1.2
    style = Style(stroke=outline, fill=body_fill, width=width)
    shapes: list[Shape] = []
    if shape == "circle":
        shapes.append(Circle(c, c, size / 2 - (width / 2 if saved else 0), style))
    elif shape == "square":
        shapes.append(Rect(pad, pad, size, size, style))
    elif shape == "rounded":
        shapes.append(Rect(pad, pad, size, size, style, r=size * 0.12))
    elif shape == "hex":
        inset = width / 2 if saved else 0.0
        shapes.append(Polygon(corners(cx, cy, orientation, size, inset), style))
    else:
        r = size / 2
        shapes.append(
            Polygon(
                tuple(
                    (c + r * math.cos(math.radians(60 * i)), c + r * math.sin(math.radians(60 * i)))
                    for i in range(6)
                ),
                style,
            )
        )
    hatched = shade is not None and contrast_ink(shade) == "#ffffff"
    ink = (
        readable(shade, "#ffffff")
        if shade is not None and luminance(shade) < 0.6
        else contrast_ink(body_fill)
    )

    def own(wanted: str) -> str:
        """Return a face's own ink colour (``wanted``, as the definition names it), unless the ink
        saver whitened the face under a pale one."""
        chosen = ctx.colour(wanted)
        if chosen is None or (saved and luminance(chosen) > 0.75):
            return ink
        if hatched and shade is not None and luminance(chosen) > luminance(shade):
            return ink  # a light ink meant for the dark face: the face's own colour on white
        return readable(chosen, "#ffffff") if saved else chosen

    if face.ring:
        shapes.append(Circle(cx, cy, size * 0.40, Style(stroke=ink, fill=None, width=0.5)))
    body = len(shapes)  # the glyphs start here: with hatching, each sits on a knocked-out ground
    glyphs: list[list[Shape]] = []
    label = face.label
    label_text: Text | None = None
    bottom = top_y + size * 0.9
    if label:
        label_text = _label(shape, size, top_y, width, label, own(face.text_colour), ctx, cx, orientation)
        bottom = label_text.y - 0.73 * label_text.size * 25.4 / 72 - 0.6
    top = top_y + size * (0.08 if label else 0.1)
    main_h = bottom - top
    if face.symbol:
        glyphs.append(
            draw_symbol(
                face.symbol, cx, top + main_h / 2 + size * 0.02, main_h * 0.8, own(face.symbol_colour)
            )
        )
    if face.text:
        colour = own(face.text_colour)
        pt = main_h * 0.62 * 72 / 25.4
        glyphs.append(
            [
                fitted_text(
                    cx,
                    top + main_h * 0.5 + main_h * 0.62 * 0.36,
                    face.text,
                    size * 0.78,
                    pt,
                    "sans-bold",
                    "middle",
                    colour,
                )
            ]
        )
    if label_text is not None:
        glyphs.append([label_text])
    if hatched and shade is not None:
        room = _outline(shape, size, cx, cy, width + 0.6, orientation)
        lines = knockout_hatch(room, shade, knockout_boxes(glyphs), 2.2, 0.2)
        shapes.insert(body, Group(tuple(lines)))
    return tuple(shapes) + tuple(s for glyph in glyphs for s in glyph)


def _outline(
    shape: str, size: float, cx: float, cy: float, inset: float, orientation: str
) -> tuple[tuple[float, float], ...]:
    """Return a convex polygon ``inset`` mm inside a counter's edge (round corners and circles
    as many-sided polygons): the room its ink-saver hatching fills."""
    r = size / 2 - inset
    if shape == "circle":
        return tuple(
            (cx + r * math.cos(2 * math.pi * i / 48), cy + r * math.sin(2 * math.pi * i / 48))
            for i in range(48)
        )
    if shape == "hex":
        return tuple(corners(cx, cy, orientation, size, inset))
    if shape == "hexagon":
        return tuple(
            (cx + r * math.cos(math.radians(60 * i)), cy + r * math.sin(math.radians(60 * i)))
            for i in range(6)
        )
    if shape != "rounded":  # a square
        return ((cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r))
    k = max(size * 0.12 - inset, 0.0)  # the corners' radius, inset
    pts: list[tuple[float, float]] = []
    for qx, qy, start in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        ox, oy = cx + qx * (r - k), cy + qy * (r - k)
        pts.extend(
            (
                ox + k * math.cos(math.radians(start + 22.5 * j)),
                oy + k * math.sin(math.radians(start + 22.5 * j)),
            )
            for j in range(5)
        )
    return tuple(pts)


def half_width(shape: str, size: float, dy: float, orientation: str = "flat") -> float:
    """Return the half width of a counter's face at dy mm above or below its centre."""
    if shape == "hex":
        return hex_half_width(orientation, size, dy)
    r = size / 2
    dy = abs(dy)
    if dy >= r:
        return 0.0
    if shape == "circle":
        return math.sqrt(r * r - dy * dy)
    if shape == "hexagon":
        return max(0.0, r - dy / math.sqrt(3)) if dy <= r * math.sqrt(3) / 2 else 0.0
    if shape == "rounded":
        k = size * 0.12
        if dy <= r - k:
            return r
        return r - k + math.sqrt(max(0.0, k * k - (dy - (r - k)) ** 2))
    return r


def _label(
    shape: str,
    size: float,
    pad: float,
    stroke_w: float,
    label: str,
    colour: str,
    ctx: Context,
    cx: float | None = None,
    orientation: str = "flat",
) -> Text:
    """Return the label at the foot of a face: as low as it fits inside the shape at 6 pt or more
    (``pad``: the top of the face's size box; ``cx``: its centre across, by default pad + size / 2)."""
    c = pad + size / 2
    x = c if cx is None else cx
    pt = size * 0.16 * 72 / 25.4
    em = pt * 25.4 / 72
    margin = stroke_w / 2 + 0.6
    base = pad + size * 0.86
    while base > c + size * 0.15:  # the upper part holds the symbol
        top, depth = base - 0.73 * em, base + 0.24 * em
        room = 2 * (
            min(
                half_width(shape, size, top - c, orientation), half_width(shape, size, depth - c, orientation)
            )
            - margin
        )
        fitted = fitted_text(x, base, label, room, pt, "sans", "middle", colour, min_size=MIN_LABEL)
        if text_width(label, "sans", fitted.size) <= room:
            return fitted
        base -= 0.25
    raise DefinitionError(
        f"{ctx.definition.path}: counter label {label!r} does not fit a {size:g} mm {shape} at "
        f"{MIN_LABEL:g} pt; shorten it or make the counter larger"
    )


def items(spec: ComponentSpec, ctx: Context) -> list[SheetItem]:
    """Return one sheet item per counter, in the order listed."""
    result: list[SheetItem] = []
    values = spec.typed(CountersSpec)
    pad = values.padding
    for counter in values.counters:
        size = counter.size or values.size
        shape = counter.shape
        p = pad if shape in ("circle", "hexagon", "rounded", "hex") else 0.0
        cell = size + 2 * p
        w, h = hex_cell(size, p, counter.orientation) if shape == "hex" else (cell, cell)
        turn = counter.orientation
        front = Drawing(w, h, _face(shape, size, p, counter, ctx, turn), counter.name)
        back = None
        if counter.back is not None:
            back = Drawing(w, h, _face(shape, size, p, counter.back, ctx, turn), counter.name + " back")
        result.extend([SheetItem(front, back)] * counter.count)
    return result


def drawing(spec: ComponentSpec, ctx: Context, overlay: dict[str, Any] | None = None) -> Drawing:
    """Return one of each counter type in a row (rows for a small figure), named underneath."""
    arts: list[Drawing] = []
    for item in items(spec, ctx):
        if item.front.label not in {a.label for a in arts}:
            arts.append(item.front)
    if not arts:
        raise DefinitionError(f"{ctx.definition.path}: components.{spec.id}: no counters")
    shapes, width, height = figure_grid(
        arts, [a.label for a in arts], (overlay or {}).get("type_floor", 0.0), 3.0
    )
    return Drawing(width, height, shapes, spec.typed(CountersSpec).title or spec.id)


def footprint(spec: ComponentSpec) -> float:
    """Return the size in mm of the largest counter (what a square must hold)."""
    values = spec.typed(CountersSpec)
    return max(c.size or values.size for c in values.counters)


def contents(spec: ComponentSpec, ctx: Context) -> list[tuple[str, int]]:
    """Return (name, count) of every counter type, for the print guide's checklist."""
    return [(counter.name, counter.count) for counter in spec.typed(CountersSpec).counters]


def build(spec: ComponentSpec, ctx: Context) -> list[Output]:
    """Return the counter sheets (and backs pages where counters have backs)."""
    return nup_output(spec, ctx, items(spec, ctx))
