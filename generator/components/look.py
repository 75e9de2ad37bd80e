"""Shared drawing helpers for component kinds: styles from definitions, legends, ink saving."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

from generator.components.symbols import draw_symbol
from generator.definitions.schema import Field
from generator.definitions.values import ComponentSpec
from generator.foundation.errors import DefinitionError
from generator.model.colour import readable
from generator.model.fonts import split_lines, text_width
from generator.model.page import (
    MIN_TYPE,
    Circle,
    Drawing,
    Group,
    Line,
    Path,
    Point,
    Polygon,
    Shape,
    Style,
    Text,
    arrow,
    bounds,
    iter_shapes,
)

if TYPE_CHECKING:
    from generator.components.base import Context

INK = "#000000"
KNOCKOUT = 0.8  # mm of white ground round a text or symbol on an ink-saver hatched face
Box = tuple[float, float, float, float]
Entry = TypeVar("Entry")  # a table's entry: a board's typed mark, a token


class TokenLook(Protocol):
    """A piece's look in booklet figures: an entry of a board's ``tokens`` table (TOKEN_SCHEMA),
    as each board kind's typed spec holds it."""

    @property
    def fill(self) -> str: ...
    @property
    def stroke(self) -> str: ...
    @property
    def symbol(self) -> str: ...
    @property
    def symbol_colour(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def text_colour(self) -> str: ...


def luminance(colour: str) -> float:
    """Return the relative luminance (0 dark .. 1 light) of a '#rrggbb' colour."""
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ink(background: str | None) -> str:
    """Return black or white, whichever reads better on a background colour."""
    if background is None:
        return INK
    return "#ffffff" if luminance(background) < 0.45 else INK


def hatch(
    x: float, y: float, w: float, h: float, colour: str, spacing: float = 2.5, width: float = 0.25
) -> list[Shape]:
    """Return diagonal hatching lines clipped to a rectangle (an ink-saving stand-in for a fill)."""
    lines: list[Shape] = []
    st = Style(stroke=colour, width=width)
    n = int((w + h) / spacing) + 1
    for i in range(1, n):
        d = i * spacing
        # line x + y' = d in local coordinates (y' measured from the top), clipped to the box
        x0, y0 = (d, 0.0) if d <= w else (w, d - w)
        x1, y1 = (0.0, d) if d <= h else (d - h, h)
        if (x0, y0) != (x1, y1):
            lines.append(Line(x + x0, y + y0, x + x1, y + y1, st))
    return lines


def fitted_text(
    x: float,
    y: float,
    text: str,
    max_width: float,
    size: float,
    font: str = "sans",
    anchor: str = "middle",
    colour: str = INK,
    min_size: float = 6.0,
) -> Text:
    """Return a text line shrunk (down to min_size pt) to fit max_width mm."""
    width = text_width(text, font, size)
    if width > max_width > 0:
        size = max(min_size, size * max_width / width)
    return Text(x, y, text, size, font, anchor, colour)  # type: ignore[arg-type]


def pt_from_mm(height_mm: float) -> float:
    """Return the font size in points whose cap height is roughly height_mm."""
    return height_mm / 0.73 * 72 / 25.4


_NAMED = re.compile(r"\{([a-z_]{1,20})\}")


def fill_names(text: str, **values: object) -> str:
    """Return a caption with each ``{name}`` of ``values`` (e.g. ``{seed}``) filled in; any other
    brace, matched or not, stays as written (no format mini-language reaches a user's text)."""
    return _NAMED.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), text)


def format_parts(text: str, parts: list[str]) -> str:
    """Return text with ``{n}``, ``{n!initial}`` and ``{n!title}`` replaced by parts of a mark name."""
    import re

    def sub(m: re.Match[str]) -> str:
        i = int(m.group(1))
        value = parts[i] if i < len(parts) else ""
        if m.group(2) == "initial":
            return value[:1].upper()
        if m.group(2) == "title":
            return value.replace("-", " ").title()
        return value

    return re.sub(r"\{([0-9]{1,9})(?:!(initial|title))?\}", sub, text)


def lookup(table: Mapping[str, Entry], name: str) -> tuple[Entry | None, list[str]]:
    """Return the entry for a name with colons, falling back to its prefixes, and the name's parts."""
    parts = name.split(":")
    for n in range(len(parts), 0, -1):
        key = ":".join(parts[:n])
        if key in table:
            return table[key], parts
    return None, parts


def mark_look(
    spec: ComponentSpec, ctx: Context, mark: str, marks: Mapping[str, Entry]
) -> tuple[Entry, list[str]]:
    """Return a board mark's look from the component's ``marks`` table (its typed values) and the
    mark's parts; a mark the table does not know is a DefinitionError naming the file and the key."""
    look, parts = lookup(marks, mark)
    if look is None:
        raise DefinitionError(
            f"{ctx.definition.path}: components.{spec.id}.marks: no mark {mark!r} "
            f"(marks: {', '.join(sorted(marks)) or 'none'})"
        )
    return look, parts


def mark_colour(ctx: Context, own: str, face: str, ink: str) -> str:
    """Return a mark's own colour (``own``, else ``ink``), darkened under the ink saver until it
    reads on the mark's face."""
    colour = ctx.colour(own) or ink
    return readable(colour, face) if ctx.options.ink_saver else colour


def pointer_fan(
    cx: float,
    cy: float,
    s: float,
    dirs: list[str],
    ray: Callable[[str], tuple[float, float, float]],
    opposite: Callable[[str], str],
    style: Style,
    head: float,
) -> list[Shape]:
    """Return pointers from a cell's centre (cx, cy) along the named directions, and a dot at the
    centre. ``ray(d)`` gives a direction's unit vector and reach; a direction named together
    with ``opposite(d)`` makes one double-headed pointer."""
    shapes: list[Shape] = []
    done: set[str] = set()
    for d in dirs:
        if d in done:
            continue
        ux, uy, reach = ray(d)
        tip = (cx + ux * reach, cy + uy * reach)
        if opposite(d) in dirs:
            done.update((d, opposite(d)))
            shapes.append(arrow(cx - ux * reach, cy - uy * reach, *tip, style, head, both=True))
        else:
            done.add(d)
            shapes.append(arrow(cx + ux * s * 0.08, cy + uy * s * 0.08, *tip, style, head))
    shapes.append(Circle(cx, cy, s * 0.05, Style(stroke=None, fill="#000000")))
    return shapes


def move_arrow(a: Point, b: Point, gap: float, colour: str, head: float) -> Shape:
    """Return a figure's arrow from point a to point b, stopping ``gap`` mm short of each."""
    (x1, y1), (x2, y2) = a, b
    k = gap / (math.hypot(x2 - x1, y2 - y1) or 1.0)
    return arrow(
        x1 + (x2 - x1) * k,
        y1 + (y2 - y1) * k,
        x2 - (x2 - x1) * k,
        y2 - (y2 - y1) * k,
        Style(stroke=colour, width=1.0),
        head=head,
    )


TOKEN_SCHEMA: dict[str, Field] = {
    "fill": Field("str", default="#ffffff", doc="the piece's fill colour"),
    "stroke": Field("str", default="#000000", doc="the piece's outline colour"),
    "symbol": Field("str", default="", doc="a symbol drawn on the piece"),
    "symbol_colour": Field("str", default="", doc="the symbol's colour (default: a contrast to the fill)"),
    "text": Field("str", default="", doc="short text on the piece"),
    "text_colour": Field("str", default="", doc="the text's colour (default: a contrast to the fill)"),
}


def draw_token(
    spec: ComponentSpec,
    ctx: Context,
    name: str,
    cx: float,
    cy: float,
    r: float,
    label: str = "",
    *,
    tokens: Mapping[str, TokenLook],
) -> list[Shape]:
    """Return a round token (a piece in a figure) from the component's ``tokens`` table (its typed
    values).

    ``name`` may have colons (``red:rifleman``) and falls back to its prefixes; the token's symbol
    and text may quote the parts. ``label`` (e.g. a troop count) replaces the token's own text."""
    token, parts = lookup(tokens, name)
    if token is None:
        raise DefinitionError(
            f"{ctx.definition.path}: components.{spec.id}.tokens: no token {name!r} "
            f"for the figure (tokens: {', '.join(sorted(tokens)) or 'none'})"
        )
    face = ctx.colour(token.fill)
    stroke = ctx.colour(token.stroke)
    width = 0.5
    saver = ctx.options.ink_saver
    saved = saver and face is not None and luminance(face) < 0.9
    ink = contrast_ink(face)
    if saved:  # the ink saver: a white face ringed in the token's colour, as on the counters
        ink = readable(face or "#ffffff", "#ffffff", 3.5)
        face, stroke, width = "#ffffff", ink, 0.9
    if saver and stroke is not None:  # the ring stands out from white and from tinted squares
        stroke = readable(stroke, "#ffffff", 6.0)

    def own(colour: str | None) -> str | None:
        """Return a token's own colour; under the ink saver one that stands out from white."""
        if colour is None or not saver or face not in (None, "#ffffff"):
            return colour
        return ink if luminance(colour) > 0.75 else readable(colour, "#ffffff", 3.5)

    shapes: list[Shape] = [Circle(cx, cy, r, Style(stroke=stroke, fill=face, width=width))]
    if token.symbol:
        shapes.extend(
            draw_symbol(
                format_parts(token.symbol, parts),
                cx,
                cy,
                r * 1.25,
                own(ctx.colour(token.symbol_colour)) or ink,
            )
        )
    text = label or format_parts(token.text, parts)
    if text:
        shapes.append(
            fitted_text(
                cx,
                cy + r * 0.35,
                text,
                r * 1.6,
                r * 2.5,
                "sans-bold",
                "middle",
                own(ctx.colour(token.text_colour)) or ink,
            )
        )
    return shapes


def figure_grid(
    arts: list[Drawing], names: list[str], floor: float, gap: float
) -> tuple[tuple[Shape, ...], float, float]:
    """Return pieces laid out for a booklet figure, each named underneath: (shapes, width, height).

    Without a type floor the pieces stand in one row. With one (the size in points a text needs
    at true size to print readable at the figure's scale) they wrap into as many rows as keep the
    pieces' own smallest type readable, and the names grow to the floor (wrapping at spaces)."""

    smallest = min(
        (s.size for art in arts for s, _ in iter_shapes(art.shapes) if isinstance(s, Text)), default=MIN_TYPE
    )
    per_row = len(arts)
    if floor > 0:
        width = sum(a.width for a in arts) + gap * (len(arts) - 1)
        allowed = width * smallest / floor
        step = max(a.width for a in arts) + gap
        per_row = max(1, min(len(arts), int((allowed + gap) // step)))
    name_pt = max(7.0, floor)
    lead = name_pt * 25.4 / 72 * 1.2
    shapes: list[Shape] = []
    x = y = 0.0
    row_h = 0.0
    total_w = 0.0
    for i, (art, name) in enumerate(zip(arts, names)):
        if i and i % per_row == 0:
            x = 0.0
            y += row_h + gap
            row_h = 0.0
        shapes.append(art.placed(x, y))
        lines = split_lines(name, "sans", name_pt, art.width + gap * 0.8)
        for j, line in enumerate(lines):
            shapes.append(
                Text(
                    x + art.width / 2,
                    y + art.height + 1.0 + lead * (j + 0.8),
                    line,
                    name_pt,
                    "sans",
                    "middle",
                )
            )
        row_h = max(row_h, art.height + 1.5 + lead * len(lines))
        total_w = max(total_w, x + art.width)
        x += art.width + gap
    return (Group(tuple(shapes)),), total_w, y + row_h


def _clip_to_convex(p: Point, q: Point, poly: Sequence[Point]) -> tuple[Point, Point] | None:
    """Return the part of segment pq inside a convex polygon (either winding), or None."""
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, [*poly[1:], poly[0]]))
    sign = 1.0 if area > 0 else -1.0
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for (ax, ay), (bx, by) in zip(poly, [*poly[1:], poly[0]]):
        # inside when sign * cross(edge, point - a) >= 0
        ex, ey = bx - ax, by - ay
        num = sign * (ex * (p[1] - ay) - ey * (p[0] - ax))
        den = sign * (ex * dy - ey * dx)
        if abs(den) < 1e-12:
            if num < 0:
                return None
            continue
        t = -num / den
        if den > 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 >= t1:
            return None
    return (p[0] + dx * t0, p[1] + dy * t0), (p[0] + dx * t1, p[1] + dy * t1)


def outside_box(p: Point, q: Point, box: Box, speck: float = 0.8) -> list[tuple[Point, Point]]:
    """Return the parts of segment pq outside a box (x0, y0, x1, y1), leaving out pieces no longer
    than ``speck`` mm (specks beside a knocked-out box)."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for d, lo, hi, start in ((dx, box[0], box[2], p[0]), (dy, box[1], box[3], p[1])):
        if abs(d) < 1e-12:
            if not lo <= start <= hi:
                return [(p, q)]
            continue
        a, b = (lo - start) / d, (hi - start) / d
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
    if t0 >= t1:
        return [(p, q)]
    return [
        seg
        for seg in (
            (p, (p[0] + dx * t0, p[1] + dy * t0)),
            ((p[0] + dx * t1, p[1] + dy * t1), q),
        )
        if math.dist(*seg) > speck
    ]


def knockout_boxes(marks: Iterable[Sequence[Shape]], margin: float = KNOCKOUT) -> list[Box]:
    """Return the box round each mark (a text, a symbol's shapes, a pip), grown by ``margin`` mm:
    the ground that ink-saver hatching leaves white so that no line crosses a glyph."""
    boxes: list[Box] = []
    for shapes in marks:
        box = bounds(shapes)
        if box is None:
            continue
        if any(isinstance(s, Text) for s, _ in iter_shapes(shapes)):
            box = _text_ink(shapes, box)
        boxes.append((box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin))
    return boxes


def mark_holes(shapes: Sequence[Shape], margin: float = KNOCKOUT) -> list[Box]:
    """Return the knock-out boxes (see ``knockout_boxes``) of the texts and symbols among shapes:
    every text, and every filled shape without an outline of its own that is not a rectangle
    (pips, silhouettes, arrowheads); lines and outlined faces leave no hole."""
    marks: list[list[Shape]] = []
    for shape, m in iter_shapes(shapes):
        if isinstance(shape, Text) or (
            isinstance(shape, (Polygon, Circle, Path))
            and shape.style.fill is not None
            and shape.style.stroke is None
        ):
            marks.append([Group((shape,), m)])
    return knockout_boxes(marks, margin)


def _text_ink(shapes: Sequence[Shape], box: Box) -> Box:
    """Return a box that also holds the ascenders and descenders of the texts among shapes."""
    x0, y0, x1, y1 = box
    for s, m in iter_shapes(shapes):
        if isinstance(s, Text):
            em = s.size * 25.4 / 72 * math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
            y = m[1] * s.x + m[3] * s.y + m[5]
            top = 0.95 if any(ord(ch) > 127 for ch in s.text) else 0.78  # accents stand taller
            y0, y1 = min(y0, y - top * em), max(y1, y + 0.26 * em)
    return (x0, y0, x1, y1)


def knockout_hatch(
    outline: Sequence[Point],
    colour: str,
    holes: Iterable[Box] = (),
    spacing: float = 2.2,
    width: float = 0.2,
) -> list[Shape]:
    """Return diagonal hatching lines (as ``hatch`` draws them) inside a convex outline, leaving
    every box of ``holes`` unhatched: the knocked-out ground of the texts and symbols on an
    ink-saver face (see ``knockout_boxes``)."""
    holes = list(holes)
    sums = [x + y for x, y in outline]
    xs = [x for x, _ in outline]
    lo, hi = min(sums), max(sums)
    left, right = min(xs) - 1.0, max(xs) + 1.0
    style = Style(stroke=colour, width=width)
    lines: list[Shape] = []
    n = int((hi - lo) / spacing) + 1
    for i in range(1, n):
        d = lo + i * spacing
        seg = _clip_to_convex((left, d - left), (right, d - right), outline)
        if seg is None or math.dist(*seg) <= 0.3:
            continue
        parts = [seg]
        for box in holes:
            parts = [piece for a, b in parts for piece in outside_box(a, b, box)]
        # drawn from top right to bottom left, as ``hatch`` draws them
        lines.extend(Line(b[0], b[1], a[0], a[1], style) for a, b in parts)
    return lines
