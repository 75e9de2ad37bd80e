"""Named symbols drawn in a square box: shapes for counters, board marks and legends.

Every symbol is a function ``(cx, cy, size, colour) -> list of shapes`` centred on (cx, cy) and
fitting a size x size box. ``SYMBOLS`` is the table of them by name (the soldier silhouettes
come from ``silhouettes``); a new symbol is a function here and a line in the table.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from generator.components import silhouettes
from generator.foundation.errors import DefinitionError
from generator.model.page import Circle, Line, Path, Polygon, Rect, Shape, Style, arc_path, fill, stroke

SymbolFn = Callable[[float, float, float, str], list[Shape]]


def draw_symbol(name: str, cx: float, cy: float, size: float, colour: str) -> list[Shape]:
    """Return the shapes of a named symbol; raise DefinitionError naming the known symbols."""
    try:
        fn = SYMBOLS[name]
    except KeyError:
        raise DefinitionError(f"unknown symbol {name!r} (symbols: {', '.join(sorted(SYMBOLS))})") from None
    return fn(cx, cy, size, colour)


def _regular(cx: float, cy: float, r: float, n: int, start: float = -90.0) -> tuple[tuple[float, float], ...]:
    return tuple(
        (
            cx + r * math.cos(math.radians(start + 360 * i / n)),
            cy + r * math.sin(math.radians(start + 360 * i / n)),
        )
        for i in range(n)
    )


def _disc(cx, cy, s, c):
    return [Circle(cx, cy, s * 0.45, fill(c))]


def _ring(cx, cy, s, c):
    return [Circle(cx, cy, s * 0.4, stroke(c, s * 0.1))]


def _dot(cx, cy, s, c):
    return [Circle(cx, cy, s * 0.15, fill(c))]


def _square(cx, cy, s, c):
    return [Rect(cx - s * 0.38, cy - s * 0.38, s * 0.76, s * 0.76, fill(c))]


def _diamond(cx, cy, s, c):
    return [Polygon(_regular(cx, cy, s * 0.47, 4), fill(c))]


def _triangle(cx, cy, s, c):
    return [Polygon(_regular(cx, cy + s * 0.08, s * 0.5, 3), fill(c))]


def _hexagon(cx, cy, s, c):
    return [Polygon(_regular(cx, cy, s * 0.46, 6, 0), fill(c))]


def _star(cx, cy, s, c):
    outer = _regular(cx, cy + s * 0.04, s * 0.5, 5)
    inner = _regular(cx, cy + s * 0.04, s * 0.2, 5, -54)
    pts = tuple(p for pair in zip(outer, inner) for p in pair)
    return [Polygon(pts, fill(c))]


def _cross(cx, cy, s, c):
    a, b = s * 0.42, s * 0.14
    return [
        Polygon(
            (
                (cx - b, cy - a),
                (cx + b, cy - a),
                (cx + b, cy - b),
                (cx + a, cy - b),
                (cx + a, cy + b),
                (cx + b, cy + b),
                (cx + b, cy + a),
                (cx - b, cy + a),
                (cx - b, cy + b),
                (cx - a, cy + b),
                (cx - a, cy - b),
                (cx - b, cy - b),
            ),
            fill(c),
        )
    ]


def _x(cx, cy, s, c):
    a = s * 0.35
    st = stroke(c, s * 0.12, cap="round")
    return [Line(cx - a, cy - a, cx + a, cy + a, st), Line(cx - a, cy + a, cx + a, cy - a, st)]


def _plus(cx, cy, s, c):
    a = s * 0.38
    st = stroke(c, s * 0.12, cap="round")
    return [Line(cx - a, cy, cx + a, cy, st), Line(cx, cy - a, cx, cy + a, st)]


def _bullet(cx, cy, s, c):
    """A cartridge standing upright: a case and a rounded bullet tip."""
    w = s * 0.26
    top = cy - s * 0.42
    case_top = cy - s * 0.05
    bottom = cy + s * 0.42
    k = 0.5522847498
    tip = Path(
        (
            ("M", cx - w / 2, case_top),
            ("L", cx - w / 2, top + w * 0.9),
            ("C", cx - w / 2, top + w * 0.9 * (1 - k), cx - w / 2 * k, top, cx, top),
            ("C", cx + w / 2 * k, top, cx + w / 2, top + w * 0.9 * (1 - k), cx + w / 2, top + w * 0.9),
            ("L", cx + w / 2, case_top),
            ("Z",),
        ),
        fill(c),
    )
    case = Rect(
        cx - w / 2 - s * 0.02, case_top + s * 0.03, w + s * 0.04, bottom - case_top - s * 0.03, fill(c)
    )
    rim = Rect(cx - w / 2 - s * 0.06, bottom - s * 0.06, w + s * 0.12, s * 0.06, fill(c))
    return [tip, case, rim]


def _crown(cx, cy, s, c):
    a = s * 0.42
    pts = (
        (cx - a, cy + a * 0.6),
        (cx - a, cy - a * 0.5),
        (cx - a * 0.5, cy),
        (cx, cy - a * 0.8),
        (cx + a * 0.5, cy),
        (cx + a, cy - a * 0.5),
        (cx + a, cy + a * 0.6),
    )
    return [Polygon(pts, fill(c))]


def _pawn(cx, cy, s, c):
    head = Circle(cx, cy - s * 0.24, s * 0.15, fill(c))
    body = Polygon(
        (
            (cx - s * 0.1, cy - s * 0.1),
            (cx + s * 0.1, cy - s * 0.1),
            (cx + s * 0.22, cy + s * 0.3),
            (cx - s * 0.22, cy + s * 0.3),
        ),
        fill(c),
    )
    base = Rect(cx - s * 0.3, cy + s * 0.3, s * 0.6, s * 0.12, fill(c), r=s * 0.03)
    return [head, body, base]


def _flag(cx, cy, s, c):
    return [
        Line(cx - s * 0.25, cy - s * 0.42, cx - s * 0.25, cy + s * 0.42, stroke(c, s * 0.07)),
        Polygon(
            ((cx - s * 0.25, cy - s * 0.42), (cx + s * 0.35, cy - s * 0.25), (cx - s * 0.25, cy - s * 0.05)),
            fill(c),
        ),
    ]


def _heart(cx, cy, s, c):
    a = s * 0.45
    return [
        Path(
            (
                ("M", cx, cy + a * 0.9),
                ("C", cx - a * 1.4, cy, cx - a * 0.6, cy - a * 1.1, cx, cy - a * 0.4),
                ("C", cx + a * 0.6, cy - a * 1.1, cx + a * 1.4, cy, cx, cy + a * 0.9),
                ("Z",),
            ),
            fill(c),
        )
    ]


def _moon(cx, cy, s, c):
    r = s * 0.42
    return [
        Path(
            arc_path(cx, cy, r, 60, 300)
            + (
                (
                    "C",
                    cx + r * 0.1,
                    cy - r * 0.6,
                    cx + r * 0.1,
                    cy + r * 0.6,
                    cx + r * math.cos(math.radians(60)),
                    cy + r * math.sin(math.radians(60)),
                ),
                ("Z",),
            ),
            fill(c),
        )
    ]


def _brain(cx, cy, s, c):
    """A stylised brain: two lobes with folds."""
    r = s * 0.22
    shapes: list[Shape] = []
    for dx, dy in ((-0.2, -0.12), (0.2, -0.12), (-0.24, 0.14), (0.24, 0.14), (0, -0.26), (0, 0.2)):
        shapes.append(Circle(cx + dx * s, cy + dy * s, r, fill(c)))
    fold = stroke("#ffffff", s * 0.04, cap="round")
    shapes.append(Line(cx, cy - s * 0.42, cx, cy + s * 0.36, fold))
    shapes.append(Path(arc_path(cx - s * 0.2, cy, s * 0.12, 200, 340), fold))
    shapes.append(Path(arc_path(cx + s * 0.2, cy, s * 0.12, 200, 340), fold))
    return shapes


def _skull(cx, cy, s, c):
    return [
        Circle(cx, cy - s * 0.08, s * 0.33, fill(c)),
        Rect(cx - s * 0.18, cy + s * 0.12, s * 0.36, s * 0.25, fill(c), r=s * 0.04),
        Circle(cx - s * 0.12, cy - s * 0.06, s * 0.08, fill("#ffffff")),
        Circle(cx + s * 0.12, cy - s * 0.06, s * 0.08, fill("#ffffff")),
        Line(cx - s * 0.06, cy + s * 0.2, cx - s * 0.06, cy + s * 0.36, stroke("#ffffff", s * 0.03)),
        Line(cx + s * 0.06, cy + s * 0.2, cx + s * 0.06, cy + s * 0.36, stroke("#ffffff", s * 0.03)),
    ]


def _question(cx, cy, s, c):
    r = s * 0.18
    st = Style(stroke=c, fill=None, width=s * 0.1, cap="round")
    return [
        Path(arc_path(cx, cy - s * 0.18, r, 180, 450) + (("L", cx, cy + s * 0.12),), st),
        Circle(cx, cy + s * 0.32, s * 0.06, fill(c)),
    ]


SYMBOLS: dict[str, SymbolFn] = {
    "disc": _disc,
    "ring": _ring,
    "dot": _dot,
    "square": _square,
    "diamond": _diamond,
    "triangle": _triangle,
    "hexagon": _hexagon,
    "star": _star,
    "cross": _cross,
    "x": _x,
    "plus": _plus,
    "bullet": _bullet,
    "crown": _crown,
    "pawn": _pawn,
    "flag": _flag,
    "heart": _heart,
    "moon": _moon,
    "brain": _brain,
    "skull": _skull,
    "question": _question,
    "pistolier": silhouettes.pistolier,
    "rifleman": silhouettes.rifleman,
    "grenadier": silhouettes.grenadier,
    "machine-gunner": silhouettes.machine_gunner,
}
