"""The page model: pages of shapes measured in millimetres, origin at the top left, y downwards.

Every component draws into this model; the writers in ``generator.render`` turn it into PDF or SVG.
Shapes are small frozen values. Text is positioned by its baseline; font sizes are in points.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Union, overload

from generator.model.fonts import text_extent, text_width

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x0 y0 x1 y1
Matrix = tuple[float, float, float, float, float, float]  # a b c d e f, as in SVG and PDF
# a path command: its letter, then its coordinates (("M", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",))
Command = tuple[Any, ...]

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Style:
    """How a shape is painted: stroke and fill colours ('#rrggbb' or None), line width in mm."""

    stroke: str | None = "#000000"
    fill: str | None = None
    width: float = 0.3
    dash: tuple[float, ...] | None = None
    cap: Literal["butt", "round", "square"] = "butt"
    join: Literal["miter", "round", "bevel"] = "miter"


def stroke(
    colour: str = "#000000",
    width: float = 0.3,
    dash: tuple[float, ...] | None = None,
    cap: Literal["butt", "round", "square"] = "butt",
) -> Style:
    """Return a stroke-only style."""
    return Style(stroke=colour, fill=None, width=width, dash=dash, cap=cap)


def fill(colour: str, outline: str | None = None, width: float = 0.3) -> Style:
    """Return a filled style, optionally outlined."""
    return Style(stroke=outline, fill=colour, width=width)


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle; ``r`` rounds its corners."""

    x: float
    y: float
    w: float
    h: float
    style: Style = Style()
    r: float = 0.0


@dataclass(frozen=True, slots=True)
class Line:
    """A straight segment."""

    x1: float
    y1: float
    x2: float
    y2: float
    style: Style = Style()


@dataclass(frozen=True, slots=True)
class Polygon:
    """A polyline, closed into a polygon when ``closed`` is true."""

    points: tuple[Point, ...]
    style: Style = Style()
    closed: bool = True


@dataclass(frozen=True, slots=True)
class Circle:
    """A circle of radius r centred on (cx, cy)."""

    cx: float
    cy: float
    r: float
    style: Style = Style()


@dataclass(frozen=True, slots=True)
class Path:
    """A path of commands: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",)."""

    commands: tuple[Command, ...]
    style: Style = Style()


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text; (x, y) is the anchor point on the baseline; size in points."""

    x: float
    y: float
    text: str
    size: float = 10.0
    font: str = "sans"
    anchor: Literal["start", "middle", "end"] = "start"
    colour: str = "#000000"


@dataclass(frozen=True, slots=True)
class Group:
    """Shapes drawn under one transform, optionally clipped to a rectangle in the group's units
    and to an outline (path commands in the group's units: a round counter's circle, a hex)."""

    children: tuple[Shape, ...]
    transform: Matrix = IDENTITY
    clip: tuple[float, float, float, float] | None = None
    outline: tuple[Command, ...] | None = None
    picture: bool = (
        False  # the designer's art drawn as shapes (an SVG file): checks measure nothing against it
    )


@dataclass(frozen=True, slots=True)
class Image:
    """A picture (the bytes of a PNG or JPEG file) stretched over the box at (x, y), w x h mm."""

    x: float
    y: float
    w: float
    h: float
    data: bytes = field(repr=False)


Shape = Union[Rect, Line, Polygon, Circle, Path, Text, Image, Group]


@dataclass(frozen=True, slots=True)
class Page:
    """A page of a given size in mm holding shapes in drawing order: a value, never changed once
    made (``plus`` and ``dataclasses.replace`` make new pages)."""

    width: float
    height: float
    shapes: tuple[Shape, ...] = ()
    label: str = ""
    is_back: bool = False  # printed on the reverse of the page before it (duplex)
    # the trim of every cut-out part on the page (x0, y0, x1, y1 in mm), and how far their art
    # runs beyond it (--bleed): the PDF's TrimBox and BleedBox, and the layout check's safe area
    cuts: tuple[Box, ...] = ()
    bleed: float = 0.0
    # the cut outline of every cut-out part of a sheet of parts, a closed polygon in page mm each
    # (the order of ``cuts``): what ``--export cut`` hands a cutting machine; no writer draws it
    outlines: tuple[tuple[Point, ...], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.shapes, tuple):  # a list handed in is kept as a tuple of its own
            object.__setattr__(self, "shapes", tuple(self.shapes))

    def plus(self, *shapes: Shape) -> Page:
        """Return a new page: this one with shapes drawn over it."""
        return replace(self, shapes=self.shapes + shapes)


@dataclass(frozen=True, slots=True)
class Drawing:
    """A finished piece of artwork with its size in mm, ready to be placed on pages."""

    width: float
    height: float
    shapes: tuple[Shape, ...]
    label: str = ""

    def placed(self, x: float, y: float, scale_by: float = 1.0) -> Group:
        """Return the drawing as a group with its top left corner at (x, y)."""
        if scale_by == 1.0:
            return Group(self.shapes, translate(x, y))
        return Group(self.shapes, multiply(translate(x, y), scale(scale_by)))


MIN_TYPE = 6.0  # pt, the smallest type a printed page carries


def readable_at(drawing: Drawing, k: float, min_pt: float = MIN_TYPE) -> Drawing:
    """Return the drawing with every text that would print below min_pt at scale k enlarged to it
    (about its anchor), so a figure scaled down to fit a page keeps readable type."""

    def walk(shapes: tuple[Shape, ...], factor: float) -> tuple[Shape, ...]:
        out: list[Shape] = []
        for s in shapes:
            if isinstance(s, Group):
                a, b, c, d = s.transform[:4]
                inner = factor * math.sqrt(abs(a * d - b * c))
                out.append(replace(s, children=walk(s.children, inner)))
            elif isinstance(s, Text) and s.size * factor < min_pt:
                out.append(Text(s.x, s.y, s.text, min_pt / factor, s.font, s.anchor, s.colour))
            else:
                out.append(s)
        return tuple(out)

    return Drawing(drawing.width, drawing.height, walk(drawing.shapes, k), drawing.label)


def translate(dx: float, dy: float) -> Matrix:
    """Return a translation matrix."""
    return (1.0, 0.0, 0.0, 1.0, dx, dy)


def scale(sx: float, sy: float | None = None) -> Matrix:
    """Return a scaling matrix (uniform when sy is omitted)."""
    return (sx, 0.0, 0.0, sx if sy is None else sy, 0.0, 0.0)


def rotate(degrees: float, cx: float = 0.0, cy: float = 0.0) -> Matrix:
    """Return a rotation matrix (clockwise on the page, since y points down) about (cx, cy)."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    if abs(c) < 1e-12:
        c = 0.0
    if abs(s) < 1e-12:
        s = 0.0
    m = (c, s, -s, c, 0.0, 0.0)
    if cx or cy:
        return multiply(translate(cx, cy), multiply(m, translate(-cx, -cy)))
    return m


def multiply(m1: Matrix, m2: Matrix) -> Matrix:
    """Return m1 x m2: apply m2 first, then m1."""
    a1, b1, c1, d1, e1, f1 = m1
    a2, b2, c2, d2, e2, f2 = m2
    return (
        a1 * a2 + c1 * b2,
        b1 * a2 + d1 * b2,
        a1 * c2 + c1 * d2,
        b1 * c2 + d1 * d2,
        a1 * e2 + c1 * f2 + e1,
        b1 * e2 + d1 * f2 + f1,
    )


def apply(m: Matrix, x: float, y: float) -> Point:
    """Return the point (x, y) transformed by m."""
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def arrow(
    x1: float, y1: float, x2: float, y2: float, style: Style, head: float = 2.0, both: bool = False
) -> Group:
    """Return an arrow from (x1, y1) to (x2, y2) with a filled head (two heads when ``both``)."""
    shapes: list[Shape] = []
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0:
        return Group(())
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head = min(head, length / (2.2 if both else 1.2))
    colour = style.stroke or "#000000"
    head_style = Style(stroke=None, fill=colour)
    sx, sy = (x1 + ux * head * 0.8, y1 + uy * head * 0.8) if both else (x1, y1)
    ex, ey = x2 - ux * head * 0.8, y2 - uy * head * 0.8
    shapes.append(Line(sx, sy, ex, ey, style))

    def tip(tx: float, ty: float, dx: float, dy: float) -> Polygon:
        bx, by = tx - dx * head, ty - dy * head
        w = head * 0.45
        return Polygon(((tx, ty), (bx - dy * w, by + dx * w), (bx + dy * w, by - dx * w)), head_style)

    shapes.append(tip(x2, y2, ux, uy))
    if both:
        shapes.append(tip(x1, y1, -ux, -uy))
    return Group(tuple(shapes))


KAPPA = 4 * (math.sqrt(2) - 1) / 3  # control point distance of a quarter circle as one Bezier


def rounded_rect(
    x: float, y: float, w: float, h: float, rx: float, ry: float | None = None
) -> tuple[Command, ...]:
    """Return a rectangle with corners rounded by rx across and ry (default rx) down as path
    commands, each corner one Bezier (rx = w/2 and ry = h/2: an ellipse); a square one when
    either radius is 0."""
    ry = rx if ry is None else ry
    if rx <= 0 or ry <= 0:
        return (("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",))
    kx, ky = rx * (1 - KAPPA), ry * (1 - KAPPA)
    x1, y1 = x + w, y + h
    return (
        ("M", x + rx, y),
        ("L", x1 - rx, y),
        ("C", x1 - kx, y, x1, y + ky, x1, y + ry),
        ("L", x1, y1 - ry),
        ("C", x1, y1 - ky, x1 - kx, y1, x1 - rx, y1),
        ("L", x + rx, y1),
        ("C", x + kx, y1, x, y1 - ky, x, y1 - ry),
        ("L", x, y + ry),
        ("C", x, y + ky, x + kx, y, x + rx, y),
        ("Z",),
    )


def shape_commands(shape: Line | Rect | Circle | Polygon) -> tuple[Command, ...]:
    """Return a shape's outline as path commands (M, L, C, Z), in the shape's own units."""
    if isinstance(shape, Line):
        return (("M", shape.x1, shape.y1), ("L", shape.x2, shape.y2))
    if isinstance(shape, Polygon):
        if not shape.points:
            return ()
        (x0, y0), rest = shape.points[0], shape.points[1:]
        end: tuple[Command, ...] = (("Z",),) if shape.closed else ()
        return (("M", x0, y0),) + tuple(("L", x, y) for x, y in rest) + end
    if isinstance(shape, Circle):
        return rounded_rect(shape.cx - shape.r, shape.cy - shape.r, 2 * shape.r, 2 * shape.r, shape.r)
    if isinstance(shape, Rect):
        r = min(shape.r, shape.w / 2, shape.h / 2)
        return rounded_rect(shape.x, shape.y, shape.w, shape.h, r)
    raise TypeError(f"no outline for {type(shape).__name__}")


def arc_path(cx: float, cy: float, r: float, start: float, end: float) -> tuple[Command, ...]:
    """Return path commands for an arc of a circle from angle start to end (degrees, clockwise)."""
    segments = max(1, math.ceil(abs(end - start) / 90.0))
    step = math.radians((end - start) / segments)
    a = math.radians(start)
    k = 4.0 / 3.0 * math.tan(step / 4.0) * r
    commands: list[Command] = [("M", cx + r * math.cos(a), cy + r * math.sin(a))]
    for _ in range(segments):
        b = a + step
        commands.append(
            (
                "C",
                cx + r * math.cos(a) - k * math.sin(a),
                cy + r * math.sin(a) + k * math.cos(a),
                cx + r * math.cos(b) + k * math.sin(b),
                cy + r * math.sin(b) - k * math.cos(b),
                cx + r * math.cos(b),
                cy + r * math.sin(b),
            )
        )
        a = b
    return tuple(commands)


def iter_shapes(shapes: Iterable[Shape], m: Matrix = IDENTITY) -> Iterator[tuple[Shape, Matrix]]:
    """Yield (shape, matrix) for every leaf shape under the given shapes, groups flattened."""
    for shape in shapes:
        if isinstance(shape, Group):
            yield from iter_shapes(shape.children, multiply(m, shape.transform))
        else:
            yield shape, m


def text_ink_quad(s: Text, m: Matrix = IDENTITY) -> tuple[tuple[Point, ...], float]:
    """Return the four corners (page mm) of a text's ink drawn with the matrix m (its advance less
    the side bearings, from its tallest letter's top to its lowest descender: how the layout check
    measures a text, and where the tiler's seams keep off it) and its size in points as drawn."""
    w = text_width(s.text, s.font, s.size)
    x0 = s.x - (w if s.anchor == "end" else w / 2 if s.anchor == "middle" else 0.0)
    top, bottom = text_extent(s.text, s.size)
    inset = min(0.05 * s.size * 25.4 / 72.0, w / 4)  # side bearings hold no ink
    corners = (
        (x0 + inset, s.y - top),
        (x0 + w - inset, s.y - top),
        (x0 + w - inset, s.y + bottom),
        (x0 + inset, s.y + bottom),
    )
    k = math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
    return tuple(apply(m, x, y) for x, y in corners), s.size * k


def text_ink_box(s: Text, m: Matrix = IDENTITY) -> tuple[float, float, float, float]:
    """Return the box (x0, y0, x1, y1 in mm) of a text's ink drawn with the matrix m
    (``text_ink_quad``'s corners)."""
    quad, _ = text_ink_quad(s, m)
    xs, ys = [p[0] for p in quad], [p[1] for p in quad]
    return (min(xs), min(ys), max(xs), max(ys))


def bounds(shapes: Iterable[Shape], m: Matrix = IDENTITY) -> tuple[float, float, float, float] | None:
    """Return (x0, y0, x1, y1) enclosing the shapes' geometry (text counted as its anchor box)."""
    xs: list[float] = []
    ys: list[float] = []
    for shape, mm in iter_shapes(shapes, m):
        pts: list[Point]
        if isinstance(shape, (Rect, Image)):
            pts = [
                (shape.x, shape.y),
                (shape.x + shape.w, shape.y + shape.h),
                (shape.x + shape.w, shape.y),
                (shape.x, shape.y + shape.h),
            ]
        elif isinstance(shape, Line):
            pts = [(shape.x1, shape.y1), (shape.x2, shape.y2)]
        elif isinstance(shape, Polygon):
            pts = list(shape.points)
        elif isinstance(shape, Circle):
            pts = [
                (shape.cx - shape.r, shape.cy - shape.r),
                (shape.cx + shape.r, shape.cy + shape.r),
                (shape.cx - shape.r, shape.cy + shape.r),
                (shape.cx + shape.r, shape.cy - shape.r),
            ]
        elif isinstance(shape, Path):
            pts = [(c[i], c[i + 1]) for c in shape.commands for i in range(1, len(c), 2)]
        elif isinstance(shape, Text):
            w = text_width(shape.text, shape.font, shape.size)
            x0 = shape.x - (w if shape.anchor == "end" else w / 2 if shape.anchor == "middle" else 0)
            h = shape.size * 25.4 / 72
            pts = [(x0, shape.y - 0.75 * h), (x0 + w, shape.y + 0.25 * h)]
        else:
            continue
        for x, y in pts:
            tx, ty = apply(mm, x, y)
            xs.append(tx)
            ys.append(ty)
    if not xs:
        return None
    return (min(xs), min(ys), max(xs), max(ys))


class DrawnPages(Sequence["Page"]):
    """Pages drawn when they are read, not kept (a thousand-card deck is never held drawn): a
    subclass says how many there are (``__len__``) and draws one (``page``). A slice is a list of
    pages, and two sequences of pages are equal when their pages are, as two tuples are."""

    def page(self, index: int) -> Page:
        """Return page ``index`` (0 to len - 1), drawn now."""
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> Page: ...

    @overload
    def __getitem__(self, index: slice) -> list[Page]: ...

    def __getitem__(self, index: int | slice) -> Page | list[Page]:
        if isinstance(index, slice):
            return [self.page(i) for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return self.page(index % len(self))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]
