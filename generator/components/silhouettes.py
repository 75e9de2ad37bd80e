"""Soldier silhouettes (pistolier, rifleman, grenadier, machine gunner): symbol functions that
``symbols.SYMBOLS`` lists, so standees, counters and board marks can all draw them. Each differs
in outline, not only in colour."""

from __future__ import annotations

from generator.model.page import Circle, Line, Path, Polygon, Rect, Shape, Style, arc_path, fill


def _soldier(cx: float, cy: float, s: float, c: str, legs: float = 0.09) -> list[Shape]:
    """Head, helmet, torso and legs of a soldier facing right, in a box of size s."""

    def p(x: float, y: float) -> tuple[float, float]:
        return (cx + x * s, cy + y * s)

    limb = Style(stroke=c, fill=None, width=0.075 * s, cap="round")
    hx, hy = p(0.0, -0.315)
    helmet = Path(arc_path(hx, hy - 0.02 * s, 0.1 * s, 180, 360) + (("Z",),), fill(c))
    return [
        Circle(hx, hy, 0.075 * s, fill(c)),
        helmet,
        Rect(*p(-0.125, -0.345), 0.25 * s, 0.025 * s, fill(c)),
        Polygon((p(-0.075, -0.245), p(0.075, -0.245), p(0.085, 0.06), p(-0.085, 0.06)), fill(c)),
        Line(*p(-0.04, 0.04), *p(-legs, 0.41), limb),
        Line(*p(0.04, 0.04), *p(legs, 0.41), limb),
        Rect(*p(-legs - 0.035, 0.395), 0.1 * s, 0.05 * s, fill(c), r=0.015 * s),
        Rect(*p(legs - 0.035, 0.395), 0.1 * s, 0.05 * s, fill(c), r=0.015 * s),
    ]


def _arm(cx: float, cy: float, s: float, c: str, *points: tuple[float, float]) -> Shape:
    style = Style(stroke=c, fill=None, width=0.06 * s, cap="round", join="round")
    return Polygon(tuple((cx + x * s, cy + y * s) for x, y in points), style, closed=False)


def pistolier(cx: float, cy: float, s: float, c: str) -> list[Shape]:
    """A soldier holding a pistol out at arm's length."""

    def p(x: float, y: float) -> tuple[float, float]:
        return (cx + x * s, cy + y * s)

    return _soldier(cx, cy, s, c) + [
        _arm(cx, cy, s, c, (-0.05, -0.21), (-0.1, -0.08), (-0.11, 0.02)),
        _arm(cx, cy, s, c, (0.04, -0.21), (0.3, -0.21)),
        Rect(*p(0.27, -0.25), 0.16 * s, 0.045 * s, fill(c)),
        Polygon((p(0.28, -0.21), p(0.335, -0.21), p(0.325, -0.12), p(0.275, -0.12)), fill(c)),
    ]


def rifleman(cx: float, cy: float, s: float, c: str) -> list[Shape]:
    """A soldier aiming a long rifle."""

    def p(x: float, y: float) -> tuple[float, float]:
        return (cx + x * s, cy + y * s)

    return _soldier(cx, cy, s, c) + [
        Polygon((p(-0.16, -0.215), p(0.0, -0.245), p(0.02, -0.2), p(-0.16, -0.135)), fill(c)),
        Line(*p(0.0, -0.222), *p(0.46, -0.236), Style(stroke=c, width=0.035 * s, cap="butt")),
        _arm(cx, cy, s, c, (-0.02, -0.21), (0.06, -0.14), (0.1, -0.2)),
        _arm(cx, cy, s, c, (0.05, -0.21), (0.27, -0.225)),
    ]


def grenadier(cx: float, cy: float, s: float, c: str) -> list[Shape]:
    """A soldier with an arm raised behind the head, about to throw a grenade."""

    def p(x: float, y: float) -> tuple[float, float]:
        return (cx + x * s, cy + y * s)

    gx, gy = p(-0.2, -0.4)
    return _soldier(cx, cy, s, c) + [
        _arm(cx, cy, s, c, (-0.04, -0.22), (-0.2, -0.28), (-0.2, -0.37)),
        _arm(cx, cy, s, c, (0.05, -0.21), (0.2, -0.26), (0.3, -0.33)),
        Circle(gx, gy - 0.02 * s, 0.075 * s, fill(c)),
        Rect(gx - 0.025 * s, gy - 0.125 * s, 0.05 * s, 0.04 * s, fill(c)),
        Circle(*p(-0.055, 0.02), 0.035 * s, fill(c)),
        Circle(*p(0.055, 0.02), 0.035 * s, fill(c)),
    ]


def machine_gunner(cx: float, cy: float, s: float, c: str) -> list[Shape]:
    """A soldier braced with a heavy gun at the hip: a drum on top, a belt hanging down."""

    def p(x: float, y: float) -> tuple[float, float]:
        return (cx + x * s, cy + y * s)

    belt = Style(stroke=c, fill=None, width=0.06 * s, dash=(0.025 * s, 0.018 * s))
    return _soldier(cx, cy, s, c, legs=0.16) + [
        _arm(cx, cy, s, c, (-0.04, -0.21), (-0.03, -0.07)),
        _arm(cx, cy, s, c, (0.05, -0.21), (0.1, -0.13), (0.12, -0.07)),
        Rect(*p(-0.12, -0.1), 0.36 * s, 0.1 * s, fill(c), r=0.02 * s),
        Rect(*p(0.22, -0.09), 0.19 * s, 0.08 * s, fill(c)),
        Line(*p(0.4, -0.05), *p(0.47, -0.05), Style(stroke=c, width=0.035 * s)),
        Circle(*p(0.19, -0.145), 0.07 * s, fill(c)),
        Line(*p(0.34, -0.03), *p(0.28, 0.12), Style(stroke=c, width=0.025 * s, cap="round")),
        Line(*p(0.34, -0.03), *p(0.42, 0.12), Style(stroke=c, width=0.025 * s, cap="round")),
        Polygon((p(-0.08, 0.0), p(-0.12, 0.1), p(-0.2, 0.17), p(-0.3, 0.15)), belt, closed=False),
    ]
