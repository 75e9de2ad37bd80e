"""Dice nets: cross-shaped cube nets with glue tabs, fold lines and faces of pips or any text, to
cut out, fold and glue into dice. ``faces`` lists the six faces; faces 1 and 6, 2 and 5, 3 and 4
(by position in the list) end up on opposite sides of the cube."""

from __future__ import annotations

import os
from typing import Any

from generator.components.base import Context, Output
from generator.components.inline import icons_of
from generator.components.look import contrast_ink, fitted_text, knockout_boxes, knockout_hatch, luminance
from generator.components.pictures import MARK_PREFIX, check_picture, grown, load_picture, picture_shapes
from generator.components.specs import DiceNetsSpec, DiceNetsSpecDice
from generator.components.symbols import draw_symbol
from generator.definitions.schema import Field, Where, positive
from generator.definitions.values import ComponentSpec
from generator.model.colour import readable
from generator.model.page import Circle, Drawing, Group, Line, Polygon, Rect, Shape, Style
from generator.printing.imposition import SheetItem, nup

DIE_SCHEMA: dict[str, Field] = {
    "name": Field("str", required=True, doc="the die's name"),
    "count": Field("int", default=1, min=1, max=100, doc="how many nets of this die"),
    "faces": Field(
        "list:str",
        default=["pips:1", "pips:2", "pips:3", "pips:4", "pips:5", "pips:6"],
        doc="six faces: 'pips:N', 'symbol:NAME', 'image:FILE' (a PNG, JPEG or SVG over the whole face) or any short text",
    ),
    "fill": Field("str", default="#ffffff", doc="the faces' colour"),
    "ink": Field("str", default="", doc="pips, symbols and text colour (default: a contrast to the fill)"),
    "label": Field("str", default="", doc="small text on the glue tab, e.g. the die's owner"),
}
SCHEMA: dict[str, Field] = {
    "size": Field("length", default=16.0, check=positive, doc="edge of the folded cube"),
    "dice": Field("tables", required=True, schema=DIE_SCHEMA, doc="the dice, each a table"),
}

# face slots of the net: a column of four (top to bottom) and two wings beside the second
SLOTS = {"A": (1, 0), "B": (1, 1), "C": (1, 2), "D": (1, 3), "E": (0, 1), "F": (2, 1)}
# faces[i] goes to slot ORDER[i]: A-C, B-D and E-F are opposite on the cube
ORDER = ("A", "B", "E", "F", "D", "C")
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
TAB = 0.28  # depth of a glue tab as a share of the face
FRAME = 1.2  # mm, the coloured frame of an ink-saver face


def check_spec(values: dict[str, Any], where: Where) -> None:
    """Check that every die has six faces of valid kinds."""
    for i, die in enumerate(values["dice"]):
        faces = die["faces"]
        if len(faces) != 6:
            raise where.child("dice").child(i).child("faces").error(f"a die has six faces, got {len(faces)}")
        for j, face in enumerate(faces):
            if face.startswith("pips:") and face[5:] not in {"0", "1", "2", "3", "4", "5", "6"}:
                raise where.child("dice").child(i).child("faces").child(j).error("pips are 0 to 6")
            if face.startswith(MARK_PREFIX):
                at = where.child("dice").child(i).child("faces").child(j)
                check_picture(os.path.dirname(where.file), face[len(MARK_PREFIX) :], at)


def _face(x: float, y: float, s: float, face: str, ink: str) -> list[Shape]:
    cx, cy = x + s / 2, y + s / 2
    if face.startswith("pips:"):
        step = s * 0.27
        r = s * 0.09
        return [
            Circle(cx + dx * step, cy + dy * step, r, Style(stroke=None, fill=ink))
            for dx, dy in PIPS.get(int(face[5:]), [])
        ]
    if face.startswith("symbol:"):
        return draw_symbol(face[7:], cx, cy, s * 0.6, ink)
    pt = s * 0.5 * 72 / 25.4
    return [fitted_text(cx, cy + s * 0.5 * 0.36, face, s * 0.8, pt, "sans-bold", "middle", ink)]


def _tab(x1: float, y1: float, x2: float, y2: float, nx: float, ny: float, depth: float) -> Polygon:
    """Return a trapezoid glue tab on the edge (x1,y1)-(x2,y2), pointing along the normal (nx, ny)."""
    ex, ey = x2 - x1, y2 - y1
    k = 0.22
    return Polygon(
        (
            (x1, y1),
            (x1 + ex * k + nx * depth, y1 + ey * k + ny * depth),
            (x2 - ex * k + nx * depth, y2 - ey * k + ny * depth),
            (x2, y2),
        ),
        Style(stroke="#000000", fill="#eeeeee", width=0.3),
    )


def net(die: DiceNetsSpecDice, s: float, ctx: Context, spec_id: str = "") -> Drawing:
    """Return the net of one die: 3 faces wide, 4 faces tall, plus a tab below."""
    fill = ctx.colour(die.fill) or "#ffffff"
    ink = ctx.colour(die.ink) or contrast_ink(fill)
    # the ink saver: a coloured face becomes white with a thick frame in its colour, and a dark
    # one is hatched round its pips too (so a light die and a dark die still differ)
    shade = fill if ctx.options.ink_saver and luminance(fill) < 0.9 else None
    frame = readable(shade, "#ffffff") if shade is not None else None
    hatched = shade is not None and contrast_ink(shade) == "#ffffff"
    if shade is not None:
        fill = "#ffffff"
        if frame is not None and luminance(ink) > luminance(shade):
            ink = frame  # a light ink meant for the dark face: the die's own colour on white
    if ctx.options.ink_saver:
        ink = readable(ink, fill)  # a light ink meant for a dark face would vanish on white
    depth = s * TAB
    shapes: list[Shape] = []
    b = ctx.options.bleed
    if b and fill != "#ffffff":
        # --bleed: the face colour runs past the net's outer edges that carry no glue tab (the
        # top of A, three sides of each wing); the tabs are drawn over it
        shapes += [
            Rect(s - b, -b, s + 2 * b, b, Style(stroke=None, fill=fill)),
            Rect(-b, s - b, s + b, s + 2 * b, Style(stroke=None, fill=fill)),
            Rect(2 * s, s - b, s + b, s + 2 * b, Style(stroke=None, fill=fill)),
        ]
    # tabs: A left/right, C left/right, D left/right/bottom (seven edges glue to seven)
    for slot, sides in (("A", "lr"), ("C", "lr"), ("D", "lrb")):
        col, row = SLOTS[slot]
        x, y = col * s, row * s
        if "l" in sides:
            shapes.append(_tab(x, y, x, y + s, -1, 0, depth))
        if "r" in sides:
            shapes.append(_tab(x + s, y, x + s, y + s, 1, 0, depth))
        if "b" in sides:
            shapes.append(_tab(x, y + s, x + s, y + s, 0, 1, depth))
    fold = Style(stroke="#888888", width=0.2, dash=(1.0, 0.8))
    for col, row in SLOTS.values():
        shapes.append(Rect(col * s, row * s, s, s, Style(stroke=None, fill=fill)))
    for slot, face in zip(ORDER, die.faces):
        col, row = SLOTS[slot]
        x, y = col * s, row * s
        if face.startswith(MARK_PREFIX):  # a picture over the whole face, into the bleed at the net's edge
            where = f"{ctx.definition.path}: components.{spec_id}.dice: {die.name}: {face!r}"
            picture = load_picture(os.path.dirname(ctx.definition.path), face[len(MARK_PREFIX) :], where)
            box = grown((x, y, s, s), (3 * s, 4 * s + depth), b)
            shapes.extend(picture_shapes(picture, box, "cover"))
            marks = []
        else:
            marks = _face(x, y, s, face, ink)
        if frame is not None:
            shapes.append(
                Rect(x + FRAME / 2, y + FRAME / 2, s - FRAME, s - FRAME, Style(stroke=frame, width=FRAME))
            )
        if hatched and frame is not None:
            inside = (
                (x + FRAME + 0.6, y + FRAME + 0.6),
                (x + s - FRAME - 0.6, y + FRAME + 0.6),
                (x + s - FRAME - 0.6, y + s - FRAME - 0.6),
                (x + FRAME + 0.6, y + s - FRAME - 0.6),
            )
            glyphs = [[m] for m in marks] if face.startswith("pips:") else [marks]
            shapes.append(Group(tuple(knockout_hatch(inside, frame, knockout_boxes(glyphs), 2.2, 0.2))))
        shapes.extend(marks)
    # fold lines between joined faces, cut outline around the net
    for x1, y1, x2, y2 in (
        (s, s, s, 2 * s),
        (2 * s, s, 2 * s, 2 * s),
        (s, s, 2 * s, s),
        (s, 2 * s, 2 * s, 2 * s),
        (s, 3 * s, 2 * s, 3 * s),
    ):
        shapes.append(Line(x1, y1, x2, y2, fold))
    outline = (
        (s, 0),
        (2 * s, 0),
        (2 * s, s),
        (3 * s, s),
        (3 * s, 2 * s),
        (2 * s, 2 * s),
        (2 * s, 4 * s),
        (s, 4 * s),
        (s, 2 * s),
        (0, 2 * s),
        (0, s),
        (s, s),
    )
    shapes.append(Polygon(outline, Style(stroke="#000000", fill=None, width=0.35)))
    if die.label:
        # centred in the bottom tab, as wide as the tapering tab allows at the foot of the letters
        cap = 0.73 * 7.0 * 25.4 / 72
        base = 4 * s + depth / 2 + cap / 2
        room = s * (1 - 2 * 0.22 * (base - 4 * s) / depth) - 1.2
        shapes.append(fitted_text(1.5 * s, base, die.label, room, 7.0, "sans", "middle", "#555555"))
    return Drawing(3 * s, 4 * s + depth, tuple(shapes), die.name)


def net_outline(s: float) -> tuple[tuple[float, float], ...]:
    """Return the cut outline of a net of faces of ``s`` mm (as ``net`` draws it): the cross of
    six faces with its seven glue tabs, one closed polygon clockwise from the top left of face A
    (the edges a tab or a face joins are folds, not cuts)."""
    depth = s * TAB
    # the cross's edges clockwise, with the tab each carries (its outward normal), or none
    edges = (
        ((s, 0), (2 * s, 0), None),
        ((2 * s, 0), (2 * s, s), (1, 0)),
        ((2 * s, s), (3 * s, s), None),
        ((3 * s, s), (3 * s, 2 * s), None),
        ((3 * s, 2 * s), (2 * s, 2 * s), None),
        ((2 * s, 2 * s), (2 * s, 3 * s), (1, 0)),
        ((2 * s, 3 * s), (2 * s, 4 * s), (1, 0)),
        ((2 * s, 4 * s), (s, 4 * s), (0, 1)),
        ((s, 4 * s), (s, 3 * s), (-1, 0)),
        ((s, 3 * s), (s, 2 * s), (-1, 0)),
        ((s, 2 * s), (0, 2 * s), None),
        ((0, 2 * s), (0, s), None),
        ((0, s), (s, s), None),
        ((s, s), (s, 0), (-1, 0)),
    )
    points: list[tuple[float, float]] = []
    for (x1, y1), (x2, y2), normal in edges:
        points.append((float(x1), float(y1)))
        if normal is not None:  # the tab's two outer corners, as _tab draws them
            tab = _tab(x1, y1, x2, y2, normal[0], normal[1], depth).points
            points.extend(tab[1:3])
    return tuple(points)


def drawing(spec: ComponentSpec, ctx: Context, overlay: dict[str, Any] | None = None) -> Drawing:
    """Return the first die's net at true size (for booklet figures)."""
    values = spec.typed(DiceNetsSpec)
    return net(values.dice[0], values.size, ctx, spec.id)


def contents(spec: ComponentSpec, ctx: Context) -> list[tuple[str, int]]:
    """Return (name, count) of every die, for the print guide's checklist."""
    return [(die.name, die.count) for die in spec.typed(DiceNetsSpec).dice]


def _pad(s: float) -> float:
    """Return the room left of and right of a net in its sheet item (a tab's depth and 1 mm)."""
    return s * TAB + 1.0


def face_origins(s: float) -> list[tuple[float, float]]:
    """Return the top left corner of each of the six faces (in the order ``faces`` lists them)
    inside a net's sheet item of faces s mm wide: where the Tabletop Simulator export cuts a
    die's faces out of its net."""
    return [(_pad(s) + SLOTS[slot][0] * s, 1.0 + SLOTS[slot][1] * s) for slot in ORDER]


def build(spec: ComponentSpec, ctx: Context) -> list[Output]:
    """Return sheets of dice nets with room to cut round each net."""
    values = spec.typed(DiceNetsSpec)
    s = values.size
    items: list[SheetItem] = []
    for die in values.dice:
        art = net(die, s, ctx, spec.id)
        pad = _pad(s)
        cell = Drawing(art.width + 2 * pad, art.height + pad + 1.0, (art.placed(pad, 1.0),), art.label)
        outline = tuple((pad + x, 1.0 + y) for x, y in net_outline(s))
        items.extend([SheetItem(cell, outline=outline)] * die.count)
    label = f"{ctx.definition.title}: {values.title or spec.id}"
    return [
        Output(
            spec.id,
            tuple(
                nup(
                    items,
                    ctx.paper,
                    label,
                    gap=0.0,
                    bleed=ctx.options.bleed,
                    lang=ctx.options.lang,
                    icons=icons_of(ctx.definition),
                )
            ),
            items=tuple(items),
        )
    ]
