"""The point-and-line board: named points joined by lines, optional bridges where one line passes
over another, labels, and tokens for example positions (Nine Men's Morris, Aggression).

Geometry comes from the definition (``points``, ``lines``, ``bridges``) or, with ``data``, from the
game's rules module (``ctx.layout_data(data)``: the same three keys, plain values). Point positions
are in grid units; ``spacing`` or ``size`` sets the scale.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from generator.components.base import Context, Output
from generator.components.inline import set_line
from generator.components.look import (
    TOKEN_SCHEMA,
    contrast_ink,
    draw_token,
    fill_names,
    move_arrow,
)
from generator.components.pictures import BOARD_SCHEMA, check_board_pictures, face_picture, outline_of
from generator.components.placed import placed
from generator.components.specs import PointBoardSpec
from generator.definitions.schema import Field, Where, positive
from generator.definitions.values import ComponentSpec
from generator.foundation.errors import DefinitionError
from generator.model.page import Circle, Drawing, Line, Point, Rect, Shape, Style, Text

SCHEMA: dict[str, Field] = {
    "data": Field("str", default="", doc="layout data name from the rules module, e.g. 'board'"),
    "points": Field("map:list:float", default=None, doc="inline points: name = [x, y] in grid units, y down"),
    "lines": Field("list:list:str", default=None, doc="inline lines: pairs of point names"),
    "bridges": Field(
        "list:list:list:str", default=None, doc="pairs of crossing lines; the first passes over the second"
    ),
    "spacing": Field("length", default=None, check=positive, doc="distance of one grid unit"),
    "size": Field("length", default=None, check=positive, doc="overall board size (the longer side)"),
    "margin": Field("length", default=14.0, min=0, doc="space round the outermost points"),
    "point_radius": Field("length", default=3.0, check=positive, doc="radius of a point's circle"),
    "point_fill": Field("str", default="#000000", doc="fill of the points"),
    "point_stroke": Field("str", default="#000000", doc="outline of the points"),
    "line_width": Field("length", default=1.2, check=positive, doc="width of the lines"),
    "line_colour": Field("str", default="#000000", doc="colour of the lines"),
    "background": Field("str", default="#ffffff", doc="the board's fill"),
    "border": Field("bool", default=True, doc="a frame round the board"),
    **BOARD_SCHEMA,
    "labels": Field(
        "str",
        default="edges",
        choices=("edges", "inside", "beside", "none"),
        doc="point names at the edges, inside large circles, beside the points, or none",
    ),
    "label_size": Field("float", default=11.0, min=4, max=72, doc="the names' size in points"),
    "title_on_board": Field("bool", default=True, doc="print the component's title above the board"),
    "caption": Field("str", default="", doc="small text under the board (default: the seed and variants)"),
    "tokens": Field(
        "map-table", default={}, schema=TOKEN_SCHEMA, doc="the look of pieces in booklet figures, by side"
    ),
    "token_radius": Field(
        "length",
        default=None,
        check=positive,
        doc="radius of a piece in figures (default: from the point radius)",
    ),
}


def check_spec(values: dict[str, Any], where: Where) -> None:
    """Check that the board has geometry and a scale, and that its picture reads."""
    check_board_pictures(values, where)
    if not values["data"] and values["points"] is None:
        raise where.child("points").error('give points (and lines) or data = "board"')
    if values["spacing"] is None and values["size"] is None:
        raise where.child("size").error("give size or spacing")
    if values["points"] is not None:
        if not values["points"]:
            raise where.child("points").error('give at least one point: name = [x, y] (or data = "board")')
        for name, xy in values["points"].items():
            if len(xy) != 2:
                raise where.child("points").child(name).error("expected [x, y]")
        names = set(values["points"])
        for i, line in enumerate(values["lines"] or []):
            if len(line) < 2 or any(p not in names for p in line):
                raise where.child("lines").child(i).error(f"expected two or more point names, got {line}")
        for i, bridge in enumerate(values["bridges"] or []):
            bw = where.child("bridges").child(i)
            if len(bridge) != 2 or any(
                len(line) != 2 or any(p not in names for p in line) for line in bridge
            ):
                raise bw.error(
                    f'expected two lines of two point names, [["A", "D"], ["B", "C"]], got {bridge}'
                )


def geometry(spec: ComponentSpec, ctx: Context) -> dict[str, Any]:
    """Return the board's points, lines and bridges from the definition or the rules module."""
    values = spec.typed(PointBoardSpec)
    if values.data:
        data = ctx.layout_data(values.data)
        return {"points": data["points"], "lines": data.get("lines", []), "bridges": data.get("bridges", [])}
    return {"points": values.points, "lines": values.lines or [], "bridges": values.bridges or []}


def _extent(spec: ComponentSpec, ctx: Context) -> tuple[float, float]:
    points = geometry(spec, ctx)["points"]
    xs = [float(v[0]) for v in points.values()]
    ys = [float(v[1]) for v in points.values()]
    return (max(xs) - min(xs) or 1.0, max(ys) - min(ys) or 1.0)


def _unit(spec: ComponentSpec, ctx: Context, extent_x: float, extent_y: float) -> float:
    """Return the length of one grid unit: --cell-size, the spacing, or what the size allows."""
    values = spec.typed(PointBoardSpec)
    if ctx.options.cell_size:
        return ctx.options.cell_size
    if values.spacing is not None:
        return values.spacing
    assert values.size is not None  # check_spec: size or spacing
    return (values.size - 2 * values.margin - 2 * values.point_radius) / max(extent_x, extent_y)


def square_size(spec: ComponentSpec, ctx: Context) -> float:
    """Return the room in mm a piece has on a point: one grid unit (--cell-size sets it)."""
    return _unit(spec, ctx, *_extent(spec, ctx))


def smallest_square(spec: ComponentSpec) -> float:
    """Return the shortest grid unit at which neighbouring points stay apart."""
    values = spec.typed(PointBoardSpec)
    return 2 * values.point_radius + 1.0


def drawing(
    spec: ComponentSpec,
    ctx: Context,
    overlay: dict[str, Any] | None = None,
    picture_bleed: float | None = None,
) -> Drawing:
    """Return the board at true size, with an optional overlay of pieces, highlights and arrows.
    As printed (no overlay), a background picture filling the board runs ``picture_bleed`` mm
    past its edges (default: the --bleed; a board scaled down by ``--fit`` takes the bleed over
    the scale, so the bleed prints true)."""
    values = spec.typed(PointBoardSpec)
    geo = geometry(spec, ctx)
    points: dict[str, tuple[float, float]] = {k: (float(v[0]), float(v[1])) for k, v in geo["points"].items()}
    xs = [p[0] for p in points.values()]
    ys = [p[1] for p in points.values()]
    extent_x = max(xs) - min(xs) or 1.0
    extent_y = max(ys) - min(ys) or 1.0
    margin = values.margin
    r = values.point_radius
    label_size = max(values.label_size, (overlay or {}).get("type_floor", 0.0))
    # edge labels stay clear of a figure's highlight rings: they start beyond the widest ring
    clear = 0.0
    if overlay is not None and values.labels == "edges":
        ring = (values.token_radius or r * 2.2) * 1.35 + 0.45
        clear = max(0.0, ring - r) + 0.6
        em = label_size * 25.4 / 72
        margin = max(margin, clear + em * 1.2)
    unit = _unit(spec, ctx, extent_x, extent_y)
    show_title = values.title_on_board and overlay is None  # figures have captions instead
    title_h = 12.0 if show_title else 0.0
    width = extent_x * unit + 2 * margin + 2 * r
    height = extent_y * unit + 2 * margin + 2 * r + title_h
    ox = margin + r - min(xs) * unit
    oy = margin + r + title_h - min(ys) * unit

    def at(name: str) -> tuple[float, float]:
        try:
            x, y = points[name]
        except KeyError:
            raise DefinitionError(
                f"{ctx.definition.path}: components.{spec.id}: no point named {name!r}"
            ) from None
        return (ox + x * unit, oy + y * unit)

    ink_saver = ctx.options.ink_saver
    # a name inside a point sits in its upper half, above a figure's token and its descenders
    em = label_size * 25.4 / 72
    token = values.token_radius or r * 2.2
    lift = max(r * 0.45, token + 0.5 + 0.24 * em) if overlay is not None else r * 0.45
    shapes: list[Shape] = []
    bg = ctx.colour(values.background)
    frame = Style(
        stroke="#000000" if values.border else None,
        fill=None if ink_saver or bg in (None, "#ffffff") else bg,
        width=0.6,
    )
    if values.background_image:  # behind the whole board, cut to its rounded frame
        if frame.fill:
            shapes.append(Rect(0, 0, width, height, replace(frame, stroke=None), r=3.0))
        key = f"components.{spec.id}.background_image"
        board = Rect(0, 0, width, height, frame, r=3.0)
        bleed = ctx.options.bleed if picture_bleed is None else picture_bleed
        if overlay is None and bleed > 0 and values.background_fit != "contain":
            # a picture filling the board runs into a frame the bleed wider, its corners rounded
            # about the same centres (as a fill's straight sides run past the cut)
            board = Rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed, frame, r=3.0 + bleed)
        area = (board.x, board.y, board.w, board.h)
        shapes.extend(
            face_picture(
                ctx.definition.path,
                values.background_image,
                key,
                area,
                values.background_fit,
                outline_of(board),
            )
        )
        if frame.stroke:
            shapes.append(Rect(0, 0, width, height, replace(frame, fill=None), r=3.0))
    elif frame.stroke or frame.fill:
        shapes.append(Rect(0, 0, width, height, frame, r=3.0))
    if show_title:
        shapes.extend(
            set_line(Text(width / 2, 10.0, ctx.definition.title, 14, "sans-bold", "middle"), ctx.definition)
        )
    line_style = Style(stroke=ctx.colour(values.line_colour), width=values.line_width, cap="round")
    over_lines = {tuple(b[0]) for b in geo["bridges"]}
    for line in geo["lines"]:
        if tuple(line) in over_lines:
            continue
        pts = [at(p) for p in line]
        for (x1, y1), (x2, y2) in itertools.pairwise(pts):
            shapes.append(Line(x1, y1, x2, y2, line_style))
    for over, under in geo["bridges"]:
        shapes.extend(
            _bridge(
                at(over[0]),
                at(over[1]),
                at(under[0]),
                at(under[1]),
                line_style,
                bg if bg and not ink_saver else "#ffffff",
            )
        )
    point_style = Style(stroke=ctx.colour(values.point_stroke), fill=ctx.colour(values.point_fill), width=0.5)
    labels = values.labels
    for name in sorted(points):
        x, y = at(name)
        shapes.append(Circle(x, y, r, point_style))
        if labels == "inside":
            shapes.append(
                Text(
                    x,
                    y - lift,
                    name,
                    label_size,
                    "sans-bold",
                    "middle",
                    contrast_ink(point_style.fill),
                )
            )
        elif labels == "beside":
            shapes.append(Text(x + r + 1.0, y - r - 0.8, name, values.label_size, "sans", "start"))
    if labels == "edges":
        shapes.extend(_edge_labels(points, at, label_size, margin, r, clear))
    caption = values.caption or ctx.seed_label()
    if caption and overlay is None:
        shapes.append(
            Text(width - 4.0, height - 3.0, fill_names(caption, seed=ctx.seed), 8, "sans", "end", "#444444")
        )
    if overlay:
        shapes.extend(_overlay(spec, ctx, overlay, at, r))
    return Drawing(width, height, tuple(shapes), values.title or "board")


def _bridge(o1: Point, o2: Point, u1: Point, u2: Point, style: Style, background: str) -> list[Shape]:
    """Return the under line, then the over line with a gap-casing and bridge rails at the crossing."""
    shapes: list[Shape] = [Line(*u1, *u2, style)]
    (x1, y1), (x2, y2) = o1, o2
    (x3, y3), (x4, y4) = u1, u2
    den = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    if abs(den) < 1e-9:
        return shapes + [Line(x1, y1, x2, y2, style)]
    t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / den
    cx, cy = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    half = style.width * 3.5
    casing = Style(stroke=background, width=style.width * 4.0, cap="butt")
    shapes.append(Line(cx - ux * half, cy - uy * half, cx + ux * half, cy + uy * half, casing))
    shapes.append(Line(x1, y1, x2, y2, style))
    # rails on both sides of the crossing, flared at the ends like a bridge on a map
    nx, ny = -uy, ux
    off = style.width * 1.6
    rail = Style(stroke=style.stroke, width=style.width * 0.45, cap="round")
    for sgn in (1, -1):
        ax, ay = cx + sgn * nx * off, cy + sgn * ny * off
        shapes.append(Line(ax - ux * half, ay - uy * half, ax + ux * half, ay + uy * half, rail))
        for end in (1, -1):
            ex, ey = ax + end * ux * half, ay + end * uy * half
            shapes.append(
                Line(
                    ex,
                    ey,
                    ex + end * ux * off * 0.8 + sgn * nx * off * 0.8,
                    ey + end * uy * off * 0.8 + sgn * ny * off * 0.8,
                    rail,
                )
            )
    return shapes


_NAME = re.compile(r"^([a-z])([0-9]{1,9})$")


def _edge_labels(
    points: dict[str, tuple[float, float]],
    at: Callable[[str], tuple[float, float]],
    size: float,
    margin: float,
    r: float,
    clear: float = 0.0,
) -> list[Shape]:
    """Return file letters along the bottom and top and rank numbers along the sides, centred in
    the margin beyond ``clear`` mm from the outermost points."""
    files: dict[str, float] = {}
    ranks: dict[str, float] = {}
    for name in points:
        m = _NAME.match(name)
        if m:
            files[m.group(1)] = at(name)[0]
            ranks[m.group(2)] = at(name)[1]
    shapes: list[Shape] = []
    top = min(at(n)[1] for n in points) - r
    bottom = max(at(n)[1] for n in points) + r
    left = min(at(n)[0] for n in points) - r
    right = max(at(n)[0] for n in points) + r
    cap = size * 25.4 / 72 * 0.72
    mid = clear + (margin - clear) / 2
    for letter, x in files.items():
        shapes.append(Text(x, bottom + mid + cap / 2, letter, size, "sans-bold", "middle", "#333333"))
        shapes.append(Text(x, top - mid + cap / 2, letter, size, "sans-bold", "middle", "#333333"))
    for number, y in ranks.items():
        shapes.append(Text(left - mid, y + cap / 2, number, size, "sans-bold", "middle", "#333333"))
        shapes.append(Text(right + mid, y + cap / 2, number, size, "sans-bold", "middle", "#333333"))
    return shapes


def _overlay(
    spec: ComponentSpec,
    ctx: Context,
    overlay: dict[str, Any],
    at: Callable[[str], tuple[float, float]],
    r: float,
) -> list[Shape]:
    """Return shapes for pieces on points, highlighted points and move arrows."""
    values = spec.typed(PointBoardSpec)
    shapes: list[Shape] = []
    tr = values.token_radius or r * 2.2
    # rings go round the whole point when its name is printed inside it
    outside = r + 0.9 if values.labels == "inside" else 0.0
    for name in overlay.get("highlight", []):
        x, y = at(name)
        ring = max(tr * 1.35, outside)
        shapes.append(Circle(x, y, ring, Style(stroke="#d62728", fill=None, width=0.9, dash=(1.6, 1.0))))
    for name, piece in sorted(overlay.get("pieces", {}).items()):
        side = piece if isinstance(piece, str) else piece.get("side", "")
        label = "" if isinstance(piece, str) else str(piece.get("troops", piece.get("label", "")))
        x, y = at(name)
        shapes.extend(draw_token(spec, ctx, side, x, y, tr, label, tokens=values.tokens))
    for name in overlay.get("removable", []):
        x, y = at(name)
        shapes.append(
            Circle(
                x, y, max(tr * 1.3, outside), Style(stroke="#d62728", fill=None, width=0.9, dash=(1.6, 1.0))
            )
        )
    for name in overlay.get("protected", []):
        x, y = at(name)
        shapes.append(Circle(x, y, max(tr * 1.25, outside), Style(stroke="#2a7a2a", fill=None, width=0.9)))
    for a, b in overlay.get("arrows", []):
        shapes.append(move_arrow(at(a), at(b), max(tr, outside) + 0.8, "#d62728", 3.5))
    return shapes


def build(spec: ComponentSpec, ctx: Context) -> list[Output]:
    """Return the board placed on paper (tiled, or scaled with --fit, when it does not fit)."""
    values = spec.typed(PointBoardSpec)
    art = drawing(spec, ctx)
    redrawn = (lambda b: drawing(spec, ctx, picture_bleed=b)) if values.background_image else None
    return [
        Output(
            spec.id,
            placed(art, ctx, values.title or spec.id, picture_bleed=redrawn),
            art=art,
        )
    ]
