"""Counter sheets: round, square or hexagonal counters laid out n-up with cut lines, each type with
a fill, a symbol and/or text, and an optional back printed on the next page for duplex printing."""

from __future__ import annotations

import math
import os
from dataclasses import replace
from typing import Any

from generator.components import inline
from generator.components.base import Context, Output, nup_output
from generator.components.hex_board import corners
from generator.components.hex_board import half_width as hex_half_width
from generator.components.inline import has_icons, icons_of
from generator.components.look import (
    TOKEN_SCHEMA,
    contrast_ink,
    figure_grid,
    fitted_text,
    knockout_boxes,
    knockout_hatch,
    luminance,
)
from generator.components.pictures import (
    check_picture,
    fit_field,
    grown,
    image_field,
    load_picture,
    outline_of,
    picture_shapes,
)
from generator.components.rows import data_fields, expand_templates, template_fields
from generator.components.specs import CountersSpec, CountersSpecCounters, CountersSpecCountersBack
from generator.components.symbols import draw_symbol
from generator.definitions.schema import Field, Where, positive
from generator.definitions.values import ComponentSpec
from generator.foundation.errors import DefinitionError
from generator.model.colour import readable
from generator.model.page import (
    Circle,
    Drawing,
    Group,
    Line,
    Point,
    Polygon,
    Rect,
    Shape,
    Style,
    Text,
    bounds,
)
from generator.printing.imposition import CUT, SAFE_AREA, SheetItem, parts_bottom

MAX_COUNT = 1000  # counters of one type
FACE_SCHEMA: dict[str, Field] = {
    **TOKEN_SCHEMA,  # a counter's face has a token's keys, and these:
    "label": Field("str", default="", doc="small text under the symbol or main text"),
    "ring": Field("bool", default=False, doc="an inner ring, to tell sides apart in black and white"),
    "font": Field("str", default="sans-bold", doc="the text's face: a shipped face or a name of [fonts]"),
    "label_font": Field("str", default="sans", doc="the label's face: a shipped face or a name of [fonts]"),
    "image": image_field("a picture over the whole face, under its symbol and texts, cut to its shape"),
    "fit": fit_field(),
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
RING = 0.40  # a face's inner ring: its radius over the counter's size
RING_WIDTH = 0.5  # mm
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


def check_spec(values: dict[str, Any], where: Where) -> None:
    """Check that at least one counter type is listed; with data (``csv`` or inline ``rows``),
    make the counter types from its rows, one per row and template; then that every face's
    picture reads (after the rows have filled in its ``{column}``)."""
    if not values["counters"]:
        raise where.child("counters").error("list at least one counter type")
    expand_templates(values, where, "counters", COUNTER_SCHEMA, "counter", MAX_COUNT)
    folder = os.path.dirname(where.file)
    for i, counter in enumerate(values["counters"]):
        at = where.child("counters").child(i)
        check_picture(folder, counter.get("image") or "", at.child("image"))
        if counter.get("back"):
            check_picture(folder, counter["back"].get("image") or "", at.child("back").child("image"))


def hex_cell(size: float, pad: float, orientation: str) -> tuple[float, float]:
    """Return the width and height of the cell of a hex counter ``size`` across the flats."""
    across = size * 2 / math.sqrt(3) + 2 * pad
    return (across, size + 2 * pad) if orientation == "flat" else (size + 2 * pad, across)


Face = CountersSpecCounters | CountersSpecCountersBack  # a counter's front (its type) or its back


def _face(
    shape: str,
    size: float,
    pad: float,
    face: Face,
    ctx: Context,
    orientation: str = "flat",
    where: str = "",
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
    if face.image:
        body_shape = shapes[0]
        assert isinstance(body_shape, (Circle, Rect, Polygon))
        found = bounds((body_shape,))
        assert found is not None
        x0, y0, x1, y1 = found
        picture = load_picture(os.path.dirname(ctx.definition.path), face.image, f"{where}.image")
        box = (x0, y0, x1 - x0, y1 - y0)
        bleed = ctx.options.bleed
        if shape == "square":  # the face is the part: its picture runs into the bleed
            part = (size + 2 * pad, size + 2 * pad)
            shapes.extend(picture_shapes(picture, grown(box, part, bleed), face.fit))
        elif shape == "circle" and bleed and face.fit != "contain":
            # a picture filling a round face runs into a circle the bleed wider, for a round die-cut
            # (a contained one, whole inside the face, stays as it is)
            assert isinstance(body_shape, Circle)
            wider = Circle(body_shape.cx, body_shape.cy, body_shape.r + bleed, body_shape.style)
            box = (x0 - bleed, y0 - bleed, x1 - x0 + 2 * bleed, y1 - y0 + 2 * bleed)
            shapes.extend(picture_shapes(picture, box, face.fit, outline_of(wider)))
        elif shape == "rounded" and bleed and face.fit != "contain":
            # a picture filling a rounded square runs into one the bleed wider, its corners rounded
            # about the same centres, for a die-cut with rounded corners
            assert isinstance(body_shape, Rect)
            wider_rect = replace(
                body_shape,
                x=body_shape.x - bleed,
                y=body_shape.y - bleed,
                w=body_shape.w + 2 * bleed,
                h=body_shape.h + 2 * bleed,
                r=body_shape.r + bleed,
            )
            box = (wider_rect.x, wider_rect.y, wider_rect.w, wider_rect.h)
            shapes.extend(picture_shapes(picture, box, face.fit, outline_of(wider_rect)))
        elif shape in ("hex", "hexagon") and bleed and face.fit != "contain":
            # a print shop's hex is cut on its own edges: the picture runs into a hex the bleed wider
            across, turn = (size, orientation) if shape == "hex" else (size * SQRT3 / 2, "flat")
            wider_hex = Polygon(corners(cx, cy, turn, across + 2 * bleed), body_shape.style)
            grown_box = bounds((wider_hex,))
            assert grown_box is not None
            gx0, gy0, gx1, gy1 = grown_box
            box = (gx0, gy0, gx1 - gx0, gy1 - gy0)
            shapes.extend(picture_shapes(picture, box, face.fit, outline_of(wider_hex)))
        else:
            shapes.extend(picture_shapes(picture, box, face.fit, outline_of(body_shape)))
        if body_shape.style.stroke is not None:  # the outline drawn again over the picture
            shapes.append(replace(body_shape, style=Style(stroke=outline, fill=None, width=width)))
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

    ring = size * RING if face.ring else 0.0
    if ring:
        shapes.append(Circle(cx, cy, ring, Style(stroke=ink, fill=None, width=RING_WIDTH)))
    body = len(shapes)  # the glyphs start here: with hatching, each sits on a knocked-out ground
    glyphs: list[list[Shape]] = []
    label = face.label
    label_text: Text | None = None
    bottom = top_y + size * 0.9
    if label:
        label_text = _label(
            shape,
            size,
            top_y,
            width,
            label,
            own(face.text_colour),
            ctx,
            cx,
            orientation,
            ring,
            SAFE_AREA if ctx.options.bleed and shape in ("hex", "hexagon") else 0.0,
            face.label_font,
        )
        bottom = label_text.y - 0.73 * label_text.size * 25.4 / 72 - 0.6
    top = top_y + size * (0.08 if label else 0.1)
    if ctx.options.bleed and shape in ("hex", "hexagon"):  # a print shop's hex is cut on its edges
        across, turn = (size, orientation) if shape == "hex" else (size * SQRT3 / 2, "flat")
        top = max(top, cy - hex_box(across, turn)[1] / 2 + SAFE_AREA)
        bottom = min(bottom, cy + hex_box(across, turn)[1] / 2 - SAFE_AREA)
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
        base = top + main_h * 0.5 + main_h * 0.62 * 0.36
        if has_icons(face.text):
            fitted_pt = inline.fitted_size(face.text, size * 0.78, pt, face.font)
            line = Text(cx, base, face.text, fitted_pt, face.font, "middle", colour)
        else:
            line = fitted_text(cx, base, face.text, size * 0.78, pt, face.font, "middle", colour)
        glyphs.append(inline.set_line(line, ctx.definition))
    if label_text is not None:
        glyphs.append(inline.set_line(label_text, ctx.definition))
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
    ring: float = 0.0,
    safe: float = 0.0,
    font: str = "sans",
) -> Text:
    """Return the label at the foot of a face: as low as it fits inside the shape at 6 pt or more
    (``pad``: the top of the face's size box; ``cx``: its centre across, by default pad + size / 2),
    and inside the face's ring of radius ``ring`` (0: none), clear of its line; ``safe``: the mm
    it keeps above the foot of the cut (a print shop's hex, cut on its own edges)."""
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
        if safe and half_width(shape, size, depth - c + safe, orientation) <= 0:
            room = 0.0  # too near the foot of the cut
        if ring:
            inner = ring - RING_WIDTH / 2 - 0.6
            room = min(
                room,
                2 * min(half_width("circle", 2 * inner, top - c), half_width("circle", 2 * inner, depth - c)),
            )
        if has_icons(label):
            fitted_pt = inline.fitted_size(label, room, pt, font, MIN_LABEL)
            fitted = Text(x, base, label, fitted_pt, font, "middle", colour)
        else:
            fitted = fitted_text(x, base, label, room, pt, font, "middle", colour, min_size=MIN_LABEL)
        if inline.line_width(label, font, fitted.size) <= room:
            return fitted
        base -= 0.25
    raise DefinitionError(
        f"{ctx.definition.path}: counter label {label!r} does not fit a {size:g} mm {shape}{' inside its ring' if ring else ''} at "
        f"{MIN_LABEL:g} pt; shorten it or make the counter larger"
    )


def _check_icons(spec: ComponentSpec, ctx: Context, i: int, counter: CountersSpecCounters) -> None:
    """Raise a one-line error naming the key of a counter's text or label whose icons are wrong."""
    faces: list[tuple[str, Face]] = [("", counter)]
    if counter.back is not None:
        faces.append(("back.", counter.back))
    for prefix, face in faces:
        for key in ("text", "label"):
            text = getattr(face, key)
            if has_icons(text):
                where = f"{ctx.definition.path}: components.{spec.id}.counters[{i}].{prefix}{key}"
                icons_of(ctx.definition).check(text, where)


def items(spec: ComponentSpec, ctx: Context) -> list[SheetItem]:
    """Return the sheet items of the counters, in the order listed: one per round or square
    counter; hex counters (``hex`` and ``hexagon``) tessellated on their edges, in patches that
    share their cut lines (see ``tessellate``), or under --bleed one hex a piece, each with its own
    bleed and cut."""
    listed: list[SheetItem | tuple[float, str]] = []  # items, and where each group of hexes goes
    hexes: dict[tuple[float, str], list[SheetItem]] = {}  # pieces by (across the flats, orientation)
    values = spec.typed(CountersSpec)
    pad = values.padding
    bleed = ctx.options.bleed
    for index, counter in enumerate(values.counters):
        _check_icons(spec, ctx, index, counter)
        size = counter.size or values.size
        shape = counter.shape
        p = pad if shape in ("circle", "hexagon", "rounded", "hex") else 0.0
        cell = size + 2 * p
        w, h = hex_cell(size, p, counter.orientation) if shape == "hex" else (cell, cell)
        turn = counter.orientation
        where = f"{ctx.definition.path}: components.{spec.id}.counters[{index}]"
        front = Drawing(w, h, _face(shape, size, p, counter, ctx, turn, where), counter.name)
        back = None
        if counter.back is not None:
            back_face = _face(shape, size, p, counter.back, ctx, turn, where + ".back")
            back = Drawing(w, h, back_face, counter.name + " back")
        if shape not in ("hex", "hexagon"):
            listed.extend([SheetItem(front, back)] * counter.count)
            continue
        # a hexagon measures its size corner to corner, with flat top and bottom
        across, turn = (size, turn) if shape == "hex" else (size * SQRT3 / 2, "flat")
        hw, hh = hex_box(across, turn)
        piece = SheetItem(
            _hex_piece(front, across, turn, bleed),
            back and _hex_piece(back, across, turn, bleed),
            outline=corners(hw / 2, hh / 2, turn, across),  # the hex is cut, not its box
        )
        key = (round(across, 6), turn)
        if key not in hexes:
            hexes[key] = []
            listed.append(key)
        hexes[key].extend([piece] * counter.count)
    pw, ph = ctx.paper.printable
    ph = min(ph, parts_bottom(ctx.paper) - ctx.paper.margin)  # clear of the sheet's footer
    out: list[SheetItem] = []
    for item in listed:
        if isinstance(item, SheetItem):
            out.append(item)
            continue
        group = hexes[item]
        if bleed:  # a print shop's hexes lie apart, each with its own bleed and cut
            out.extend(SheetItem(p.front, p.back, ((0.0, 0.0, p),)) for p in group)
        else:
            out.extend(tessellate(group, item[0], item[1], pw, ph))
    return out


SQRT3 = math.sqrt(3)


def hex_box(across: float, orientation: str) -> tuple[float, float]:
    """Return the width and height of the box of a hex ``across`` mm across the flats."""
    corner = across * 2 / SQRT3
    return (corner, across) if orientation == "flat" else (across, corner)


def _hex_piece(face: Drawing, across: float, orientation: str, bleed: float) -> Drawing:
    """Return a hex counter's face cut to the hex's own box (the face's cell has its padding round
    it); with a ``bleed``, the hex's fill runs that far past its edges, under the art, and its cut
    line is the hex's outline."""
    hw, hh = hex_box(across, orientation)
    dx, dy = (face.width - hw) / 2, (face.height - hh) / 2
    shapes: list[Shape] = [Group(face.shapes, (1.0, 0.0, 0.0, 1.0, -dx, -dy))]
    if bleed:
        body = face.shapes[0]
        fill = body.style.fill if isinstance(body, Polygon) else None
        under: list[Shape] = [Polygon(corners(hw / 2, hh / 2, orientation, across), CUT)]
        if fill is not None and fill != "#ffffff":
            grown = corners(hw / 2, hh / 2, orientation, across + 2 * bleed)
            under.insert(0, Polygon(grown, Style(stroke=None, fill=fill)))
        shapes = under + shapes
    return Drawing(hw, hh, tuple(shapes), face.label)


def tessellate(
    pieces: list[SheetItem], across: float, orientation: str, width: float, height: float
) -> list[SheetItem]:
    """Return hex pieces (``across`` mm across the flats) laid edge to edge in patches no larger
    than width x height mm: flat-top hexes in columns, every other column half a hex lower;
    pointy-top hexes in rows, every other row half a hex to the right. Each patch draws every
    cut line once (an edge two hexes share is one cut) and holds its pieces' backs mirrored
    inside it, so that after a long-edge flip each back lies behind its front."""
    hw, hh = hex_box(across, orientation)
    flat = orientation == "flat"
    # columns across the width, rows down it: flat-top columns 3/4 of a hex apart (every other
    # one half a hex lower), pointy-top rows 3/4 of a hex apart (every other one half a hex right)
    if flat:
        most_cols = max(1, math.floor((width - hw) / (0.75 * hw) + 1e-9) + 1)
        most_rows = max(1, math.floor((height - hh / 2) / hh + 1e-9))
    else:
        most_cols = max(1, math.floor((width - hw / 2) / hw + 1e-9))
        most_rows = max(1, math.floor((height - hh) / (0.75 * hh) + 1e-9) + 1)
    patches: list[SheetItem] = []
    for start in range(0, len(pieces), most_cols * most_rows):
        group = pieces[start : start + most_cols * most_rows]
        cols = min(most_cols, len(group))  # a patch fills the sheet's width first
        placed: list[tuple[float, float, SheetItem]] = []
        for i, piece in enumerate(group):
            row, col = divmod(i, cols)
            if flat:
                x, y = col * 0.75 * hw, row * hh + (hh / 2 if col % 2 else 0.0)
            else:
                x, y = col * hw + (hw / 2 if row % 2 else 0.0), row * 0.75 * hh
            placed.append((x, y, piece))
        pw = max(x + p.front.width for x, _, p in placed)
        ph = max(y + p.front.height for _, y, p in placed)
        edges: dict[tuple[Point, Point], None] = {}
        for x, y, _ in placed:
            poly = corners(x + hw / 2, y + hh / 2, orientation, across)
            for a, b in zip(poly, poly[1:] + poly[:1]):
                ra, rb = (round(a[0], 3), round(a[1], 3)), (round(b[0], 3), round(b[1], 3))
                edges[(min(ra, rb), max(ra, rb))] = None
        cuts = tuple(Line(a[0], a[1], b[0], b[1], CUT) for a, b in edges)
        faces = tuple(p.front.placed(x, y) for x, y, p in placed)
        front = Drawing(pw, ph, cuts + faces, f"{len(placed)} hex counters")
        backs = tuple(p.back.placed(pw - x - hw, y) for x, y, p in placed if p.back is not None)
        back = Drawing(pw, ph, backs, f"{len(placed)} hex counters back") if backs else None
        patches.append(SheetItem(front, back, tuple(placed)))
    return patches


def drawing(spec: ComponentSpec, ctx: Context, overlay: dict[str, Any] | None = None) -> Drawing:
    """Return one of each counter type in a row (rows for a small figure), named underneath."""
    arts: list[Drawing] = []
    for item in items(spec, ctx):
        for piece in [p for _, _, p in item.pieces] or [item]:  # a patch's hexes one by one
            if piece.front.label not in {a.label for a in arts}:
                arts.append(piece.front)
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
