"""The hex map: flat-top or pointy-top hexes in a rectangle, a hexagon ("hexhex") or listed hexes,
each printed with its coordinate inside it (``0304``, ``c4`` or ``2,-1``) and with terrain marks
from the same ``marks`` table and mark strings as the grid board (fills, hatching, symbols, big
text, pointer arrows, dashed outlines).

The cell size is the distance across a hex's flats: neighbouring centres lie exactly that far
apart, and a counter of that diameter fits a hex. Coordinates and neighbours come from
``generator.games.hexes``, the same module a hex game's rules use, so the map and the referee
name every hex alike. Large maps are tiled over sheets like every board.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from generator.components import inline
from generator.components.base import Context, Output
from generator.components.grid_board import MARK_SCHEMA
from generator.components.look import (
    INK,
    TOKEN_SCHEMA,
    contrast_ink,
    draw_token,
    fill_names,
    fitted_text,
    format_parts,
    lookup,
    mark_colour,
    mark_look,
    move_arrow,
    outside_box,
    pointer_fan,
)
from generator.components.pictures import (
    BOARD_SCHEMA,
    MARK_PREFIX,
    check_board_pictures,
    face_picture,
    outline_of,
)
from generator.components.placed import placed
from generator.components.specs import HexBoardSpec
from generator.components.symbols import draw_symbol
from generator.definitions.schema import Field, Where, positive
from generator.definitions.values import ComponentSpec
from generator.foundation.errors import DefinitionError, NotationError
from generator.games.hexes import COORDINATES, DIRECTIONS, ORIENTATIONS, STAGGERS, Hex, HexGrid, parse_hex
from generator.model.colour import readable
from generator.model.fonts import text_width
from generator.model.page import (
    Command,
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

SCHEMA: dict[str, Field] = {
    "data": Field("str", default="", doc="layout data name from the rules module: its cells (and hexes)"),
    "shape": Field(
        "str",
        default="rectangle",
        choices=("rectangle", "hexhex", "cells"),
        doc="rectangle (columns x rows), hexhex (a hexagon of a radius) or cells (the hexes listed)",
    ),
    "columns": Field("int", default=None, min=1, max=40, doc="shape = rectangle: hexes across"),
    "rows": Field("int", default=None, min=1, max=40, doc="shape = rectangle: hexes down"),
    "radius": Field("int", default=None, min=0, max=19, doc="shape = hexhex: rings round the centre hex"),
    "hexes": Field("list:str", default=[], doc="shape = cells: the map's hexes (besides those in cells)"),
    "orientation": Field("str", default="flat", choices=ORIENTATIONS, doc="flat-top or pointy-top hexes"),
    "stagger": Field(
        "str", default="odd", choices=STAGGERS, doc="which columns (flat) or rows (pointy) sit half a hex on"
    ),
    "coordinates": Field(
        "str",
        default="numbers",
        choices=COORDINATES,
        doc="hex names, printed and in cells: numbers (0304), letters (c4) or axial (2,-1)",
    ),
    "cells": Field("map:list:str", default=None, doc="marks of hexes by name, as on a grid board"),
    "cell": Field("length", default=None, check=positive, doc="across the flats; default: fit one page"),
    "max_cell": Field(
        "length", default=30.0, check=positive, doc="the largest hex the default size may choose"
    ),
    "labels": Field("bool", default=True, doc="print every hex's name inside it, at the top"),
    "label_size": Field("float", default=7.0, min=6, max=24, doc="the hex names' size in points"),
    "line_colour": Field("str", default="#000000", doc="colour of the hex outlines"),
    "line_width": Field(
        "length",
        default=0.35,
        check=positive,
        doc="width of the hex outlines (the map's outline is 2.5 times it)",
    ),
    "background": Field("str", default="#ffffff", doc="the fill of hexes without a filled mark"),
    **BOARD_SCHEMA,
    "marks": Field(
        "map-table",
        default={},
        schema=MARK_SCHEMA,
        doc="the look of each mark name used in cells, as on a grid board",
    ),
    "tokens": Field(
        "map-table",
        default={},
        schema=TOKEN_SCHEMA,
        doc="the look of pieces in booklet figures, by piece name",
    ),
    "title_on_board": Field("bool", default=True, doc="print the component's title above the map"),
    "font": Field(
        "str",
        default="sans-bold",
        doc="the face of the map's title, hex names and marks: a shipped face or a name of [fonts]",
    ),
    "caption": Field("str", default="", doc="small text under the map (default: the seed and variants)"),
}
SQRT3 = math.sqrt(3.0)
MARGIN = 3.0  # mm round the hexes
LABEL_GAP = 0.6  # mm a label keeps from the hex's edges
PLATE_MARGIN = 0.45  # mm a name's plate reaches past its ink on a hatched hex
PLATE_LIGHTEN = 0.8  # how far a plate's colour goes from the hex's face towards white
NAME_CONTRAST = 4.5  # a hex name's contrast with what it sits on (WCAG 2.1 for small text)
OUTLINE_INSET = 0.07  # of the cell: where a mark's (dashed) outline runs inside the hex


def _rim(cell: float, line_w: float) -> float:
    """Return how far inside a hex's edge its texts start: clear of the edge and of an outline."""
    return max(LABEL_GAP + line_w / 2, cell * OUTLINE_INSET + 0.25 + LABEL_GAP)


def _grid(values: HexBoardSpec, cells: Iterable[str] | None = None, extra: Iterable[str] = ()) -> HexGrid:
    """Return the map's grid from a component's typed keys, a listed map's hexes with ``cells``
    (default: its cells key's) and ``extra`` (raise NotationError for a bad hex name)."""
    style = (values.orientation, values.stagger, values.coordinates)
    if values.shape == "rectangle":
        assert values.columns is not None and values.rows is not None  # check_spec
        return HexGrid.rectangle(values.columns, values.rows, *style)
    if values.shape == "hexhex":
        assert values.radius is not None  # check_spec
        return HexGrid.hexhex(values.radius, *style)
    names = [*values.hexes, *(values.cells or {} if cells is None else cells), *extra]
    return HexGrid.listed(names, *style)


def check_spec(values: dict[str, Any], where: Where) -> None:
    """Check the map's size keys for its shape, and that every hex named lies on the map."""
    shape = values["shape"]
    if shape == "rectangle" and (values["columns"] is None or values["rows"] is None):
        raise where.child("columns").error("a rectangle of hexes needs columns and rows")
    if shape == "hexhex" and values["radius"] is None:
        raise where.child("radius").error("a hexhex map needs a radius (rings round the centre hex)")
    if shape == "cells" and not values["hexes"] and not values["cells"] and not values["data"]:
        raise where.child("hexes").error("list the map's hexes (or give cells, or data)")
    check_board_pictures(values, where)
    style = (values["coordinates"], values["orientation"], values["stagger"])
    named: dict[str, tuple[Any, Hex]] = {}
    for key in ("hexes", "cells"):
        for i, name in enumerate(values[key] or []):
            at = where.child(key).child(i if key == "hexes" else name)
            try:
                named[name] = (at, parse_hex(name, *style))
            except NotationError as exc:
                raise at.error(str(exc)) from None
    if shape != "cells":
        grid = _grid(HexBoardSpec.from_values(values))
        for at, h in named.values():
            if h not in grid:
                raise at.error(f"not a hex of this {shape} map")


def board_grid(spec: ComponentSpec, ctx: Context) -> tuple[HexGrid, dict[str, list[str]]]:
    """Return the map's grid and the marks of its hexes by name (from the rules module or the
    definition)."""
    values = spec.typed(HexBoardSpec)
    cells = {name: list(marks) for name, marks in (values.cells or {}).items()}
    extra: list[str] = []
    if values.data:
        data = ctx.layout_data(values.data)
        for name, marks in data.get("cells", {}).items():
            cells[name] = cells.get(name, []) + list(marks)
        extra = list(data.get("hexes", []))
    try:
        grid = _grid(values, cells, extra)
        for name in cells:
            grid.parse(name)
    except NotationError as exc:
        raise DefinitionError(f"{ctx.definition.path}: components.{spec.id}.cells: {exc}") from None
    return grid, cells


def centre_of(h: Hex, orientation: str, cell: float) -> Point:
    """Return the centre of an axial hex on a map whose hexes measure ``cell`` across the flats
    (hex 0,0 at the origin, y down)."""
    q, r = h
    if orientation == "flat":
        return (cell * SQRT3 / 2 * q, cell * (r + q / 2))
    return (cell * (q + r / 2), cell * SQRT3 / 2 * r)


def corners(cx: float, cy: float, orientation: str, cell: float, inset: float = 0.0) -> tuple[Point, ...]:
    """Return the six corners of a hex of ``cell`` across the flats, shrunk by ``inset`` mm."""
    radius = (cell / 2 - inset) * 2 / SQRT3
    start = 0.0 if orientation == "flat" else 30.0
    return tuple(
        (
            cx + radius * math.cos(math.radians(start + 60 * i)),
            cy + radius * math.sin(math.radians(start + 60 * i)),
        )
        for i in range(6)
    )


def half_width(orientation: str, cell: float, dy: float) -> float:
    """Return the half width of a hex of ``cell`` across the flats at dy mm from its centre."""
    radius = cell / SQRT3
    dy = abs(dy)
    if orientation == "flat":
        return max(0.0, radius - dy / SQRT3) if dy <= cell / 2 else 0.0
    if dy <= radius / 2:
        return cell / 2
    return max(0.0, (radius - dy) * SQRT3)


def _label_place(
    orientation: str, cell: float, names: list[str], size: float, line_w: float, font: str = "sans-bold"
) -> tuple[float, float]:
    """Return (point size, baseline below the centre, negative: above) of the hex names: as large
    as asked (down to 6 pt) and as high in the hex as the widest name fits with a gap all round."""
    widest = max(names, key=lambda n: text_width(n, font, 10.0))
    gap = _rim(cell, line_w)
    pt = size
    while pt >= 6.0 - 1e-9:
        em = pt * 25.4 / 72
        w = text_width(widest, font, pt)
        top = -cell / 2 + gap
        while top + em < -cell * 0.12:
            base = top + 0.73 * em
            if (
                half_width(orientation, cell, top) >= w / 2 + gap
                and half_width(orientation, cell, base + 0.24 * em) >= w / 2 + gap
            ):
                return pt, base
            top += 0.1
        pt -= 0.25
    raise ValueError("labels")


def _clip_segment(p: Point, q: Point, poly: tuple[Point, ...]) -> tuple[Point, Point] | None:
    """Return the part of segment pq inside a convex polygon (corners clockwise on the page)."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = len(poly)
    cx = sum(x for x, _ in poly) / n
    cy = sum(y for _, y in poly) / n
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        nx, ny = by - ay, ax - bx  # a normal of the edge
        if nx * (cx - ax) + ny * (cy - ay) < 0:
            nx, ny = -nx, -ny  # pointing inwards
        num = nx * (p[0] - ax) + ny * (p[1] - ay)
        den = nx * dx + ny * dy
        if abs(den) < 1e-12:
            if num < 0:
                return None
            continue
        t = -num / den
        if den > 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return (p[0] + dx * t0, p[1] + dy * t0), (p[0] + dx * t1, p[1] + dy * t1)


def hex_hatch(
    poly: tuple[Point, ...],
    colour: str,
    spacing: float,
    width: float = 0.25,
    holes: list[tuple[float, float, float, float]] | None = None,
) -> list[Shape]:
    """Return diagonal hatching lines clipped to a convex polygon, leaving out boxes (x0, y0, x1,
    y1) where texts stand."""
    xs = [x for x, _ in poly]
    ys = [y for _, y in poly]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    style = Style(stroke=colour, width=width)
    lines: list[Shape] = []
    d = spacing
    while d < (x1 - x0) + (y1 - y0):
        seg = _clip_segment((x0 + d, y0), (x0 + d - (y1 - y0), y1), poly)
        parts = [seg] if seg is not None and math.dist(*seg) > 0.2 else []
        for box in holes or []:
            parts = [piece for a, b in parts for piece in outside_box(a, b, box, speck=0.2)]
        lines.extend(Line(a[0], a[1], b[0], b[1], style) for a, b in parts)
        d += spacing
    return lines


@dataclass
class _Map:
    """The map's hexes placed on the drawing: centres, cell size, label size and place."""

    grid: HexGrid
    cells: dict[str, list[str]]
    cell: float
    centres: dict[Hex, Point]
    width: float
    height: float
    label_pt: float
    label_dy: float
    title_h: float


def _extent(grid: HexGrid, orientation: str, cell: float) -> tuple[float, float, float, float]:
    pts = [p for h in grid.hexes for p in corners(*centre_of(h, orientation, cell), orientation, cell)]
    return (min(x for x, _ in pts), min(y for _, y in pts), max(x for x, _ in pts), max(y for _, y in pts))


def _layout(spec: ComponentSpec, ctx: Context, overlay: dict[str, Any] | None) -> _Map:
    values = spec.typed(HexBoardSpec)
    grid, cells = board_grid(spec, ctx)
    for name, marks in (overlay or {}).get("cells", {}).items():
        cells[name] = list(marks)
    orientation = values.orientation
    show_title = values.title_on_board and overlay is None
    title_h = 11.0 if show_title else 0.0
    caption_h = 6.0
    cell = ctx.options.cell_size or values.cell
    if cell is None:
        x0, y0, x1, y1 = _extent(grid, orientation, 1.0)
        fits = []
        for sheet in (ctx.paper.portrait(), ctx.paper.landscape()):
            pw, ph = sheet.printable
            fits.append(
                min(
                    (pw - 2 * MARGIN - 1.0) / (x1 - x0),
                    (ph - 2 * MARGIN - title_h - caption_h - 6.0) / (y1 - y0),
                )
            )
        cell = math.floor(min(values.max_cell, max(fits)) * 2) / 2
    x0, y0, x1, y1 = _extent(grid, orientation, cell)
    dx, dy = MARGIN - x0, MARGIN + title_h - y0
    centres = {
        h: (x + dx, y + dy) for h, (x, y) in ((h, centre_of(h, orientation, cell)) for h in grid.hexes)
    }
    label_pt, label_dy = 0.0, 0.0
    floor = (overlay or {}).get("type_floor", 0.0)
    if values.labels:
        try:
            label_pt, label_dy = _label_place(
                orientation,
                cell,
                [grid.name(h) for h in grid.hexes],
                max(values.label_size, floor),
                values.line_width,
                values.font,
            )
            if label_pt < floor:
                label_pt = 0.0  # a figure shown small leaves out names it cannot print readable
        except ValueError:
            if overlay is not None:
                label_pt = 0.0
            else:
                raise DefinitionError(
                    f"{ctx.definition.path}: components.{spec.id}: the hex names do not fit hexes of "
                    f"{cell:g} mm at 6 pt; make the cell larger or set labels = false"
                ) from None
    width = x1 - x0 + 2 * MARGIN
    height = y1 - y0 + 2 * MARGIN + title_h + caption_h
    return _Map(grid, cells, cell, centres, width, height, label_pt, label_dy, title_h)


def square_size(spec: ComponentSpec, ctx: Context) -> float:
    """Return the hexes' size across the flats in mm as printed (--cell-size sets it): the widest
    round counter that fits a hex."""
    return _layout(spec, ctx, None).cell


def _mark_shapes(
    cx: float,
    cy: float,
    m: _Map,
    marks: list[str],
    spec: ComponentSpec,
    ctx: Context,
    layer: str,
    words: bool = True,
    holes: list[tuple[float, float, float, float]] | None = None,
) -> list[Shape]:
    """Return a hex's marks of one layer ('base' fills, 'top' ink); ``words`` False leaves out its
    texts (a piece stands on it in a figure); hatching leaves out the ``holes`` (the texts' boxes)."""
    values = spec.typed(HexBoardSpec)
    shapes: list[Shape] = []
    s = m.cell
    orientation = values.orientation
    poly = corners(cx, cy, orientation, s)
    ink_saver = ctx.options.ink_saver
    rim = _rim(s, values.line_width)
    # the room between the hex's name at the top and a mark's small text at the bottom
    corner_pt = s * 0.11 * 72 / 25.4
    corner_em = corner_pt * 25.4 / 72
    corner_base = cy + s / 2 - rim - 0.24 * corner_em
    has_corner = words and any((entry := lookup(values.marks, k)[0]) and entry.corner for k in marks)
    top_lim = cy + m.label_dy + 0.24 * m.label_pt * 25.4 / 72 + 0.6 if m.label_pt else cy - s / 2 + rim
    bottom_lim = corner_base - 0.73 * corner_em - 0.6 if has_corner else cy + s / 2 - rim
    room = bottom_lim - top_lim
    middle = (top_lim + bottom_lim) / 2
    for mark in marks:
        if mark.startswith("text:"):
            if layer == "top" and words:
                h = min(s * 0.42, room / 0.73 * 0.9)
                key = f"components.{spec.id}.cells: {mark!r}"
                pt = h * 72 / 25.4
                shapes.append(
                    _mark_text(ctx, key, cx, middle + h * 0.36, mark[5:], s * 0.62, pt, values.font)
                )
            continue
        if mark.startswith("symbol:"):
            if layer == "top":
                shapes.extend(draw_symbol(mark[7:], cx, middle, min(s * 0.5, room * 0.9), "#000000"))
            continue
        if mark.startswith("arrows:"):
            if layer == "top":
                shapes.extend(
                    _arrows(cx, middle, s, [d.strip() for d in mark[7:].split(",") if d.strip()], spec, ctx)
                )
            continue
        if mark.startswith(MARK_PREFIX):
            if layer == "base":
                key = f"components.{spec.id}.cells: {mark!r}"
                shapes.extend(_hex_picture(ctx, mark[6:], key, poly, "cover"))
            continue
        look, parts = mark_look(spec, ctx, mark, values.marks)
        fill = ctx.colour(look.fill)
        dark = fill is not None and contrast_ink(fill) == "#ffffff"
        if layer == "base":
            if fill and not (ink_saver and dark):
                shapes.append(Polygon(poly, Style(stroke=None, fill=fill)))
            if look.image:
                key = f"components.{spec.id}.marks: {mark!r}: image"
                shapes.extend(_hex_picture(ctx, look.image, key, poly, look.fit))
            if look.hatch or (ink_saver and dark):
                shapes.append(Group(tuple(hex_hatch(poly, "#000000", max(1.6, s / 9), 0.3, holes))))
            continue
        kept = fill is not None and not (ink_saver and dark)
        face = fill if kept and fill else "#ffffff"
        ink = contrast_ink(None if ink_saver else fill)

        def own(colour: str, face: str = face, ink: str = ink) -> str:
            return mark_colour(ctx, colour, face, ink)

        if look.outline or look.dashed:
            colour = ctx.colour(look.outline) or "#000000"
            style = Style(stroke=colour, fill=None, width=0.5, dash=(1.5, 1.0) if look.dashed else None)
            shapes.append(Polygon(corners(cx, cy, orientation, s, s * OUTLINE_INSET), style))
        size = min(s * look.symbol_scale * 0.85, room * 0.9)
        h = min(s * look.text_scale * 0.75, room / 0.73 * 0.9)
        tall = max(size if look.symbol else 0.0, 0.73 * h if look.text else 0.0)
        y = {"centre": middle, "top": top_lim + tall / 2, "bottom": bottom_lim - tall / 2}[look.position]
        if look.symbol:
            shapes.extend(draw_symbol(format_parts(look.symbol, parts), cx, y, size, own(look.symbol_colour)))
        if look.text and words:
            key = f"components.{spec.id}.marks: {mark!r}: text"
            text = format_parts(look.text, parts)
            pt = h * 72 / 25.4
            shapes.append(
                _mark_text(ctx, key, cx, y + h * 0.36, text, s * 0.62, pt, values.font, own(look.text_colour))
            )
        if look.corner and words:
            # a hex has no corner to spare: the small text goes to the bottom of the hex
            across = 2 * (half_width(orientation, s, corner_base + 0.24 * corner_em - cy) - rim)
            text = format_parts(look.corner, parts)
            ink_ = own(look.text_colour)
            key = f"components.{spec.id}.marks: {mark!r}: corner"
            shapes.append(_mark_text(ctx, key, cx, corner_base, text, across, corner_pt, values.font, ink_))
    return shapes


def _mark_text(
    ctx: Context,
    key: str,
    x: float,
    y: float,
    text: str,
    room: float,
    pt: float,
    font: str,
    colour: str = INK,
) -> Shape:
    """Return a mark's line of text centred on x, shrunk to ``room`` mm (down to 6 pt), its icons
    (``:name:``) set in it as one Group; an unknown icon is an error naming the definition and
    ``key``."""
    if not inline.has_icons(text):
        return fitted_text(x, y, text, room, pt, font, "middle", colour)
    inline.icons_of(ctx.definition).check(text, f"{ctx.definition.path}: {key}")
    return Group(tuple(inline.fitted_line(ctx.definition, x, y, text, room, pt, font, "middle", colour)))


def _hex_picture(ctx: Context, name: str, key: str, poly: tuple[Point, ...], fit: str) -> list[Shape]:
    """Return a picture filling a hex's box by ``fit``, cut to the hex."""
    x0, y0, x1, y1 = _box_of(poly)
    outline = outline_of(Polygon(poly))
    return face_picture(ctx.definition.path, name, key, (x0, y0, x1 - x0, y1 - y0), fit, outline)


def _box_of(points: Iterable[Point]) -> tuple[float, float, float, float]:
    xs, ys = zip(*points)
    return (min(xs), min(ys), max(xs), max(ys))


def _arrows(
    cx: float, cy: float, s: float, dirs: list[str], spec: ComponentSpec, ctx: Context
) -> list[Shape]:
    """Return pointers from a hex's centre towards the named neighbours (a direction and its
    opposite together make one double-headed pointer)."""
    values = spec.typed(HexBoardSpec)
    table = DIRECTIONS[values.orientation]
    for d in dirs:
        if d not in table:
            raise DefinitionError(
                f"{ctx.definition.path}: components.{spec.id}: unknown arrow direction {d!r} for "
                f"{values.orientation}-top hexes (directions: {', '.join(table)})"
            )
    style = Style(stroke="#000000", width=max(0.45, s * 0.028), cap="round")
    names = list(table)

    def ray(d: str) -> tuple[float, float, float]:
        ux, uy = centre_of(table[d], values.orientation, 1.0)
        return ux, uy, s * 0.36

    def opposite(d: str) -> str:
        return names[(names.index(d) + 3) % 6]

    return pointer_fan(cx, cy, s, dirs, ray, opposite, style, s * 0.13)


def _edges(m: _Map, orientation: str) -> tuple[list[tuple[Point, Point]], list[tuple[Point, Point]]]:
    """Return the map's inner edges and its outline edges, each once, in a stable order."""
    count: dict[tuple[Point, Point], int] = {}
    for h in m.grid.sorted():
        poly = corners(*m.centres[h], orientation, m.cell)
        for i in range(6):
            a = (round(poly[i][0], 4), round(poly[i][1], 4))
            b = (round(poly[(i + 1) % 6][0], 4), round(poly[(i + 1) % 6][1], 4))
            key = (min(a, b), max(a, b))
            count[key] = count.get(key, 0) + 1
    inner = [e for e, n in count.items() if n > 1]
    outline = [e for e, n in count.items() if n == 1]
    return inner, outline


def drawing(spec: ComponentSpec, ctx: Context, overlay: dict[str, Any] | None = None) -> Drawing:
    """Return the map at true size, with an optional overlay (pieces, highlights, arrows)."""
    values = spec.typed(HexBoardSpec)
    m = _layout(spec, ctx, overlay)
    orientation = values.orientation
    grid = m.grid
    shapes: list[Shape] = []
    if m.title_h:
        shapes.extend(
            inline.set_line(
                Text(m.width / 2, 8.0, ctx.definition.title, 14, values.font, "middle"), ctx.definition
            )
        )
    bg = ctx.colour(values.background)
    order = grid.sorted()
    if bg and bg != "#ffffff" and not ctx.options.ink_saver:
        for h in order:
            shapes.append(Polygon(corners(*m.centres[h], orientation, m.cell), Style(stroke=None, fill=bg)))
    if values.background_image:  # one picture behind the whole map, cut to its hexes
        hexes = [corners(*m.centres[h], orientation, m.cell) for h in order]
        clip: tuple[Command, ...] = tuple(
            c for poly in hexes for c in (("M", *poly[0]), *(("L", *p) for p in poly[1:]), ("Z",))
        )
        x0, y0, x1, y1 = _box_of(p for poly in hexes for p in poly)
        key = f"components.{spec.id}.background_image"
        area = (x0, y0, x1 - x0, y1 - y0)
        shapes.extend(
            face_picture(ctx.definition.path, values.background_image, key, area, values.background_fit, clip)
        )
    named = {grid.parse(name): name for name in m.cells}
    occupied = {grid.parse(n) for n in (overlay or {}).get("pieces", {})}
    tops: list[Shape] = []
    for h in order:
        cx, cy = m.centres[h]
        top: list[Shape] = []
        if h in named:
            top.extend(_mark_shapes(cx, cy, m, m.cells[named[h]], spec, ctx, "top", h not in occupied))
        if m.label_pt and h not in occupied:
            face = _face(m, named.get(h), spec, ctx)
            name = Text(cx, cy + m.label_dy, grid.name(h), m.label_pt, values.font, "middle", "#333333")
            if _hatched(m, named.get(h), spec, ctx):
                # over hatched terrain the name sits on a light plate of the hex's own colour
                face = _plate_colour(face)
                x0, y0, x1, y1 = _grow(bounds((name,)), PLATE_MARGIN)
                top.append(Rect(x0, y0, x1 - x0, y1 - y0, Style(stroke=None, fill=face), r=0.6))
            ink = readable("#333333", face, NAME_CONTRAST)
            top.append(Text(name.x, name.y, name.text, name.size, name.font, name.anchor, ink))
        if h in named:
            holes = [_grow(bounds((t,)), 0.7) for t in top if _is_text(t)]
            shapes.extend(_mark_shapes(cx, cy, m, m.cells[named[h]], spec, ctx, "base", holes=holes))
        tops.extend(top)
    inner, outline = _edges(m, orientation)
    thin = Style(stroke=ctx.colour(values.line_colour), width=values.line_width, cap="round")
    thick = Style(stroke="#000000", width=values.line_width * 2.5, cap="round")
    shapes.extend(Line(a[0], a[1], b[0], b[1], thin) for a, b in inner)
    shapes.extend(Line(a[0], a[1], b[0], b[1], thick) for a, b in outline)
    shapes.extend(tops)
    caption = values.caption or ctx.seed_label()
    if caption and overlay is None:
        shapes.append(
            Text(
                m.width - 2.0, m.height - 1.5, fill_names(caption, seed=ctx.seed), 8, "sans", "end", "#444444"
            )
        )
    shapes.extend(_overlay(spec, ctx, overlay or {}, m))
    return Drawing(m.width, m.height, tuple(shapes), values.title or spec.id)


def _is_text(shape: Shape) -> bool:
    """True for a text, or a line of text set with its icons (a Group holding texts)."""
    return isinstance(shape, Text) or (
        isinstance(shape, Group) and any(isinstance(s, Text) for s in shape.children)
    )


def _grow(box: tuple[float, float, float, float] | None, by: float) -> tuple[float, float, float, float]:
    assert box is not None
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _hatched(m: _Map, name: str | None, spec: ComponentSpec, ctx: Context) -> bool:
    """True when a hex's marks hatch it (a mark's ``hatch``, or a dark fill under the ink saver)."""
    values = spec.typed(HexBoardSpec)
    for mark in m.cells.get(name, []) if name else []:
        look, _ = lookup(values.marks, mark)
        if look is None:
            continue
        fill = ctx.colour(look.fill)
        if look.hatch or (ctx.options.ink_saver and fill is not None and contrast_ink(fill) == "#ffffff"):
            return True
    return False


def _plate_colour(face: str) -> str:
    """Return the colour of a name's plate on a hatched hex: its face lightened most of the way
    to white, so the hex keeps its hue and the name its contrast."""
    rgb = [int(face[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * PLATE_LIGHTEN):02x}" for c in rgb)


def _face(m: _Map, name: str | None, spec: ComponentSpec, ctx: Context) -> str:
    """Return the colour under a hex's name: its last filled mark's, or the map's background."""
    values = spec.typed(HexBoardSpec)
    face = ctx.colour(values.background) if not ctx.options.ink_saver else None
    for mark in m.cells.get(name, []) if name else []:
        look, _ = lookup(values.marks, mark)
        fill = ctx.colour(look.fill) if look is not None else None
        if fill and not (ctx.options.ink_saver and contrast_ink(fill) == "#ffffff"):
            face = fill
    return face or "#ffffff"


def _overlay(spec: ComponentSpec, ctx: Context, overlay: dict[str, Any], m: _Map) -> list[Shape]:
    values = spec.typed(HexBoardSpec)
    shapes: list[Shape] = []
    red = "#d62728"
    orientation = values.orientation

    def at(name: str) -> Point:
        try:
            return m.centres[m.grid.parse(name)]
        except NotationError as exc:
            raise DefinitionError(f"{ctx.definition.path}: components.{spec.id}: figure: {exc}") from None

    for name in overlay.get("highlight", []):
        style = Style(stroke=red, fill=None, width=0.9, dash=(1.6, 1.0))
        shapes.append(Polygon(corners(*at(name), orientation, m.cell, 0.8), style))
    for name, piece in sorted(overlay.get("pieces", {}).items()):
        shapes.extend(draw_token(spec, ctx, piece, *at(name), m.cell * 0.34, tokens=values.tokens))
    for a, b in overlay.get("arrows", []):
        shapes.append(move_arrow(at(a), at(b), m.cell * 0.38, red, 3.0))
    return shapes


def build(spec: ComponentSpec, ctx: Context) -> list[Output]:
    """Return the map on paper (tiled over several sheets when it is large)."""
    values = spec.typed(HexBoardSpec)
    art = drawing(spec, ctx)
    return [
        Output(
            spec.id,
            placed(art, ctx, values.title or spec.id),
            art=art,
        )
    ]
