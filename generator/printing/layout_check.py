"""Layout checks over the page model: collisions, labels that leave their shapes, small type, cuts
and low contrast, found on the Pages the components and imposition make (before any writer runs).

``check_page(page)`` returns a list of ``Finding``s, each naming the page, the shape and what is
wrong, so a failing test says where to look. The checks:

- **type**: no text prints smaller than ``MIN_TYPE`` points after every transform (scaled figures
  included);
- **text on text**: the ink boxes of two texts do not overlap;
- **text on line ink**: no stroke (lines, arrows, outlines, grid lines, marks) and no small filled
  mark (arrowheads, pips, symbols; rectangles are faces) runs through a text, and nothing drawn
  later covers it; a hairline thinner than the tolerance (hatching, thin rules) counts when its
  middle runs through the text's ink box, and a 45-degree hairline (hatching) that runs across a
  symbol drawn over it counts too (ink-saver hatching sits on a knocked-out ground);
- **holder**: a text stays inside the smallest closed shape its centre lies in (a label on a token
  stays on the token);
- **cuts**: a text or small mark under a clip (a tile of a large board) is not cut by the clip,
  except along an edge that a glue strip hides under the neighbouring tile;
- **contrast**: every text and every stroke or small filled mark differs enough in luminance from
  the face it sits on (the topmost fill under it, or the white paper);
- **clear of cuts**: a text off every cut-out part of the page (a footer) keeps ``CUT_CLEAR`` mm
  from each part's cut (``Page.cuts``), so the scissors never run along it;
- **safe area** (with ``safe``, for a print shop's builds): every text and every symbol (a small
  filled mark without an outline of its own: pips, silhouettes; outlined shapes are faces and
  tabs) on a cut-out part of the page (``Page.cuts``) stays ``safe`` mm inside that part's cut, so
  a cut that drifts never clips it.

Text extents come from the font metrics the writers use (``generator.model.fonts.text_width``) and the
Vera glyph heights: capitals and figures 0.73 em, ascenders 0.76 em, x-height 0.55 em,
descenders 0.24 em.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.model.colour import contrast_ratio
from generator.model.page import (
    IDENTITY,
    Circle,
    Group,
    Image,
    Line,
    Matrix,
    Page,
    Path,
    Point,
    Polygon,
    Rect,
    Shape,
    Text,
    apply,
    multiply,
    text_ink_quad,
)

MIN_TYPE = 6.0  # pt, the smallest type a kit prints
TOLERANCE = 0.12  # mm two inks may touch by before they count as overlapping
MARK_AREA = 150.0  # mm², filled shapes up to this size are marks (pips, symbols, arrowheads)
CUT_CLEAR = 1.0  # mm a text off the cut-out parts (a footer) keeps from their cuts
MIN_CONTRAST = 3.0  # of a mark against its face: the WCAG 2.1 ratio for graphics and large text
GLUE_FILL = "#f1f1f1"  # the fill of imposition's glue strips (kept in step by a test)
PAPER = "#ffffff"


@dataclass(frozen=True)
class Finding:
    """One problem on a page: where (page), what (shape) and why (problem)."""

    page: str
    shape: str
    problem: str

    def __str__(self) -> str:
        return f"{self.page}: {self.shape}: {self.problem}"


Box = tuple[float, float, float, float]


@dataclass
class _Item:
    order: int
    kind: str  # "text", "stroke" or "fill"
    shape: Shape
    box: Box
    poly: tuple[Point, ...] = ()  # text quad or fill outline (page mm)
    segments: tuple[tuple[Point, Point], ...] = ()
    half: float = 0.0  # half stroke width (page mm)
    colour: str = "#000000"
    outline: str | None = None  # a fill's own stroke colour, if any
    area: float = 0.0
    size: float = 0.0  # text size after transforms (pt)
    clip: Box | None = None
    whole: Box | None = None  # the box before clipping, where the clip cut the shape
    whole_area: float = 0.0  # a fill's area before clipping (a face cut by a tile is still a face)

    def describe(self) -> str:
        s = self.shape
        x0, y0, x1, y1 = self.box
        at = f"at {x0:.1f},{y0:.1f}-{x1:.1f},{y1:.1f} mm"
        if isinstance(s, Text):
            return f"text {s.text!r} ({self.size:.1f} pt) {at}"
        name = type(s).__name__.lower()
        return f"{name} {self.kind} {self.colour} {at}"


def _circle_points(cx: float, cy: float, r: float, n: int = 32) -> list[Point]:
    return [
        (cx + r * math.cos(2 * math.pi * i / n), cy + r * math.sin(2 * math.pi * i / n)) for i in range(n)
    ]


def _flatten_path(commands: tuple[tuple, ...]) -> list[list[Point]]:
    subpaths: list[list[Point]] = []
    current: list[Point] = []
    for c in commands:
        op = c[0]
        if op == "M":
            if len(current) > 1:
                subpaths.append(current)
            current = [(c[1], c[2])]
        elif op == "L":
            current.append((c[1], c[2]))
        elif op == "C" and current:
            (x0, y0), (x1, y1), (x2, y2), (x3, y3) = current[-1], (c[1], c[2]), (c[3], c[4]), (c[5], c[6])
            for i in range(1, 9):
                t = i / 8
                u = 1 - t
                current.append(
                    (
                        u**3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t**3 * x3,
                        u**3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t**3 * y3,
                    )
                )
        elif op == "Z" and current:
            current.append(current[0])
            subpaths.append(current)
            current = [current[0]]
    if len(current) > 1:
        subpaths.append(current)
    return subpaths


def _bbox(points: Iterable[Point]) -> Box:
    xs, ys = zip(*points)
    return (min(xs), min(ys), max(xs), max(ys))


def _area(poly: tuple[Point, ...]) -> float:
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]))) / 2


def _clip_box(clip: Box | None, box: Box) -> Box | None:
    return (
        box
        if clip is None
        else (max(clip[0], box[0]), max(clip[1], box[1]), min(clip[2], box[2]), min(clip[3], box[3]))
    )


def _inside_box(inner: Box, outer: Box, tol: float = 1e-6) -> bool:
    return (
        inner[0] >= outer[0] - tol
        and inner[1] >= outer[1] - tol
        and inner[2] <= outer[2] + tol
        and inner[3] <= outer[3] + tol
    )


_Leaf = Rect | Line | Polygon | Circle | Path | Text | Image  # every shape but a group


def _flatten(
    shapes: Iterable[Shape], m: Matrix, clip: Box | None
) -> Iterator[tuple[_Leaf, Matrix, Box | None]]:
    for s in shapes:
        if isinstance(s, Group):
            if s.picture:
                continue  # a picture's content is the designer's, drawn as shapes or as an image
            mm = multiply(m, s.transform)
            inner = clip
            if s.clip is not None:
                x, y, w, h = s.clip
                box = _bbox([apply(mm, x, y), apply(mm, x + w, y + h)])
                inner = box if clip is None else _clip_box(clip, box)
            if s.outline is not None:  # a clip outline counts as its bounding box
                points = [apply(mm, c[i], c[i + 1]) for c in s.outline for i in range(1, len(c) - 1, 2)]
                if points:
                    box = _bbox(points)
                    inner = box if inner is None else _clip_box(inner, box)
            yield from _flatten(s.children, mm, inner)
        else:
            yield s, m, clip


def _items(page: Page) -> list[_Item]:
    items: list[_Item] = []
    for order, (s, m, clip) in enumerate(_flatten(page.shapes, IDENTITY, None)):
        k = math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
        if isinstance(s, Text):
            if not s.text.strip():
                continue
            quad, size = text_ink_quad(s, m)
            items.append(_Item(order, "text", s, _bbox(quad), quad, colour=s.colour, size=size, clip=clip))
            continue
        if isinstance(s, Image):
            continue  # a picture's content is the designer's: nothing to measure against it
        style = s.style
        outlines: list[list[Point]]
        closed = True
        if isinstance(s, Rect):
            outlines = [[(s.x, s.y), (s.x + s.w, s.y), (s.x + s.w, s.y + s.h), (s.x, s.y + s.h)]]
        elif isinstance(s, Circle):
            outlines = [_circle_points(s.cx, s.cy, s.r)]
        elif isinstance(s, Polygon):
            if not s.points:
                continue
            outlines = [list(s.points)]
            closed = s.closed
        elif isinstance(s, Path):
            outlines = _flatten_path(s.commands)
            closed = False
        elif isinstance(s, Line):
            outlines = [[(s.x1, s.y1), (s.x2, s.y2)]]
            closed = False
        else:
            continue
        pages = [[apply(m, x, y) for x, y in pts] for pts in outlines if pts]
        if not pages:
            continue
        if style.fill is not None and not isinstance(s, Line):
            for pts in pages:
                poly = tuple(pts[:-1] if len(pts) > 2 and pts[0] == pts[-1] else pts)
                if len(poly) < 3:
                    continue
                whole = _bbox(poly)
                whole_area = _area(poly)
                if clip is not None:
                    poly = _clip_poly(poly, clip)
                    if len(poly) < 3:
                        continue
                items.append(
                    _Item(
                        order,
                        "fill",
                        s,
                        _bbox(poly),
                        poly,
                        colour=style.fill,
                        outline=style.stroke,
                        area=_area(poly),
                        clip=clip,
                        whole=whole,
                        whole_area=whole_area,
                    )
                )
        if style.stroke is not None and style.width > 0:
            segments: list[tuple[Point, Point]] = []
            for pts in pages:
                segments.extend(itertools.pairwise(pts))
                if closed and len(pts) > 2:
                    segments.append((pts[-1], pts[0]))
            segments = [seg for seg in segments if seg[0] != seg[1]] or segments[:1]
            half = style.width * k / 2
            box = _bbox([p for seg in segments for p in seg])
            box = (box[0] - half, box[1] - half, box[2] + half, box[3] + half)
            items.append(
                _Item(
                    order,
                    "stroke",
                    s,
                    box,
                    segments=tuple(segments),
                    half=half,
                    colour=style.stroke,
                    clip=clip,
                )
            )
    return items


# --- geometry ---------------------------------------------------------------------------------


def _overlap(a: Box, b: Box, tol: float = 0.0) -> bool:
    return a[0] < b[2] - tol and b[0] < a[2] - tol and a[1] < b[3] - tol and b[1] < a[3] - tol


def _point_in_poly(x: float, y: float, poly: tuple[Point, ...]) -> bool:
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _seg_dist(p: Point, q: Point, r: Point, s: Point) -> float:
    """Distance between segments pq and rs."""
    if _segments_cross(p, q, r, s):
        return 0.0
    return min(_pt_seg(p, r, s), _pt_seg(q, r, s), _pt_seg(r, p, q), _pt_seg(s, p, q))


def _pt_seg(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    d2 = dx * dx + dy * dy
    t = 0.0 if d2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / d2))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _orient(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _segments_cross(p: Point, q: Point, r: Point, s: Point) -> bool:
    d1, d2 = _orient(r, s, p), _orient(r, s, q)
    d3, d4 = _orient(p, q, r), _orient(p, q, s)
    return ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 != 0 and d2 != 0 and d3 != 0 and d4 != 0


def _edges(poly: tuple[Point, ...]) -> Iterator[tuple[Point, Point]]:
    n = len(poly)
    for i in range(n):
        yield poly[i], poly[(i + 1) % n]


def _seg_poly_dist(a: Point, b: Point, poly: tuple[Point, ...]) -> float:
    """Distance from a segment to a convex polygon (0 when they meet)."""
    if _point_in_poly(a[0], a[1], poly) or _point_in_poly(b[0], b[1], poly):
        return 0.0
    return min(_seg_dist(a, b, p, q) for p, q in _edges(poly))


def _shrink(quad: tuple[Point, ...], by: float) -> tuple[Point, ...]:
    cx = sum(x for x, _ in quad) / len(quad)
    cy = sum(y for _, y in quad) / len(quad)
    out = []
    for x, y in quad:
        d = math.hypot(x - cx, y - cy) or 1.0
        k = max(0.0, 1 - by * math.sqrt(2) / d)
        out.append((cx + (x - cx) * k, cy + (y - cy) * k))
    return tuple(out)


def _polys_meet(a: tuple[Point, ...], b: tuple[Point, ...]) -> bool:
    if any(_point_in_poly(x, y, b) for x, y in a) or any(_point_in_poly(x, y, a) for x, y in b):
        return True
    return any(_segments_cross(p, q, r, s) for p, q in _edges(a) for r, s in _edges(b))


def _centre(poly: tuple[Point, ...]) -> Point:
    return (sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly))


# --- the check --------------------------------------------------------------------------------


class _Index:
    """A grid of item boxes, to find the items near a box quickly."""

    def __init__(self, items: list[_Item], cell: float = 10.0) -> None:
        self.cell = cell
        self.buckets: dict[tuple[int, int], list[_Item]] = {}
        for it in items:
            for key in self._keys(it.box):
                self.buckets.setdefault(key, []).append(it)

    def _keys(self, box: Box) -> Iterator[tuple[int, int]]:
        c = self.cell
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                yield (i, j)

    def near(self, box: Box) -> list[_Item]:
        seen: dict[int, _Item] = {}
        for key in self._keys(box):
            for it in self.buckets.get(key, ()):
                seen[id(it)] = it
        return sorted(seen.values(), key=lambda it: it.order)


def _visible_segments(it: _Item) -> list[tuple[Point, Point]]:
    if it.clip is None:
        return list(it.segments)
    out = []
    for p, q in it.segments:
        seg = _clip_segment(p, q, it.clip)
        if seg is not None:
            out.append(seg)
    return out


def _clip_segment(p: Point, q: Point, box: Box) -> tuple[Point, Point] | None:
    """Liang-Barsky clipping of a segment to a box."""
    x0, y0 = p
    dx, dy = q[0] - x0, q[1] - y0
    t0, t1 = 0.0, 1.0
    for pp, qq in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if pp == 0:
            if qq < 0:
                return None
        else:
            t = qq / pp
            if pp < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
    if t0 > t1:
        return None
    return ((x0 + t0 * dx, y0 + t0 * dy), (x0 + t1 * dx, y0 + t1 * dy))


def _area_of(box: Box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def _clip_poly(poly: tuple[Point, ...], box: Box) -> tuple[Point, ...]:
    """Sutherland-Hodgman clipping of a polygon to a box."""
    pts = list(poly)
    for axis, bound, keep_above in (
        (0, box[0], True),
        (0, box[2], False),
        (1, box[1], True),
        (1, box[3], False),
    ):
        if not pts:
            break
        out: list[Point] = []
        for i, cur in enumerate(pts):
            prev = pts[i - 1]
            cin = cur[axis] >= bound if keep_above else cur[axis] <= bound
            pin = prev[axis] >= bound if keep_above else prev[axis] <= bound
            if cin != pin:
                t = (bound - prev[axis]) / (cur[axis] - prev[axis])
                out.append((prev[0] + t * (cur[0] - prev[0]), prev[1] + t * (cur[1] - prev[1])))
            if cin:
                out.append(cur)
        pts = out
    return tuple(pts)


def _glue_edges(items: list[_Item]) -> list[Box]:
    """Return the glue strips on the page (rectangles filled in the glue strips' fill)."""
    return [
        it.box for it in items if it.kind == "fill" and it.colour == GLUE_FILL and isinstance(it.shape, Rect)
    ]


def _hidden_cut(box: Box, clip: Box, glue: list[Box]) -> bool:
    """True when every clip edge that cuts the box lies along a glue strip (hidden when assembled)."""
    cut_edges = []
    if box[0] < clip[0] < box[2]:
        cut_edges.append(("x", clip[0]))
    if box[0] < clip[2] < box[2]:
        cut_edges.append(("x", clip[2]))
    if box[1] < clip[1] < box[3]:
        cut_edges.append(("y", clip[1]))
    if box[1] < clip[3] < box[3]:
        cut_edges.append(("y", clip[3]))
    for axis, v in cut_edges:
        hidden = False
        for g in glue:
            if axis == "x" and abs(g[0] - v) < 0.2 and g[1] <= box[3] and g[3] >= box[1]:
                hidden = box[2] <= g[2] + TOLERANCE
            elif axis == "y" and abs(g[1] - v) < 0.2 and g[0] <= box[2] and g[2] >= box[0]:
                hidden = box[3] <= g[3] + TOLERANCE
            if hidden:
                break
        if not hidden:
            return False
    return bool(cut_edges)


def check_page(page: Page, where: str = "", contrast: bool = False, safe: float = 0.0) -> list[Finding]:
    """Return the layout findings on one page (empty when the page is clean); with ``contrast``
    the contrast findings too (see check_contrast), with ``safe`` the safe-area findings (see
    check_safe_area)."""
    name = where or page.label or "page"
    items = _items(page)
    if page.bleed and page.cuts:
        # a tile's art runs past its cut into the bleed, which is cut away: judge what the cut cuts
        trim = _bbox([(c[0], c[1]) for c in page.cuts] + [(c[2], c[3]) for c in page.cuts])
        for it in items:
            if it.clip is not None:
                it.clip = _clip_box(it.clip, trim)
    findings = _check_items(items, name) + (_contrast(items, name, MIN_CONTRAST) if contrast else [])
    if page.cuts:
        findings += _clear_of_cuts(items, page.cuts, name)
    if safe > 0 and page.cuts:
        findings += _safe_area(items, page.cuts, safe, name)
    return findings


def check_safe_area(page: Page, where: str = "", safe: float = 2.0) -> list[Finding]:
    """Return the findings of texts and symbols closer than ``safe`` mm to the cut of the part
    they lie on (the page's ``cuts``)."""
    return _safe_area(_items(page), page.cuts, safe, where or page.label or "page")


def _clear_of_cuts(items: list[_Item], cuts: Iterable[Box], name: str) -> list[Finding]:
    """Return the findings of texts lying on no cut-out part yet closer than CUT_CLEAR to a cut (a
    tile's art under its clip is judged by the cuts check instead)."""
    findings: list[Finding] = []
    cuts = list(cuts)
    for it in items:
        if it.kind != "text" or it.clip is not None:
            continue
        x0, y0, x1, y1 = it.box
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if any(c[0] <= cx <= c[2] and c[1] <= cy <= c[3] for c in cuts):
            continue
        for c in cuts:
            dx, dy = max(c[0] - x1, x0 - c[2], 0.0), max(c[1] - y1, y0 - c[3], 0.0)
            room = math.hypot(dx, dy)
            if room < CUT_CLEAR - TOLERANCE:
                findings.append(
                    Finding(
                        name,
                        it.describe(),
                        f"{room:.1f} mm from the cut of a part (text off the parts keeps {CUT_CLEAR:g} mm clear)",
                    )
                )
                break
    return findings


def _safe_area(items: list[_Item], cuts: Iterable[Box], safe: float, name: str) -> list[Finding]:
    findings: list[Finding] = []
    cuts = list(cuts)
    for it in items:
        is_symbol = (
            it.kind == "fill"
            and it.outline is None
            and it.area <= MARK_AREA
            and not isinstance(it.shape, Rect)
        )
        if it.kind != "text" and not is_symbol:
            continue
        x0, y0, x1, y1 = it.box
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        for c in cuts:
            if c[0] <= cx <= c[2] and c[1] <= cy <= c[3]:
                room = min(x0 - c[0], y0 - c[1], c[2] - x1, c[3] - y1)
                if room < safe - TOLERANCE:
                    findings.append(
                        Finding(
                            name,
                            it.describe(),
                            f"{max(room, 0.0):.1f} mm from the cut of its part (the safe area is {safe:g} mm)",
                        )
                    )
                break
    return findings


def _check_items(items: list[_Item], name: str) -> list[Finding]:
    texts = [it for it in items if it.kind == "text"]
    findings: list[Finding] = []

    def add(it: _Item, problem: str) -> None:
        findings.append(Finding(name, it.describe(), problem))

    # drop what the clip hides entirely; note what it cuts
    glue = _glue_edges(items)
    visible: list[_Item] = []
    for it in items:
        if it.clip is not None:
            whole = it.whole or it.box
            if not _overlap(whole, it.clip):
                continue
            if not _inside_box(whole, it.clip, TOLERANCE):
                cuttable = it.kind == "text" or (it.kind == "fill" and _area_of(whole) <= MARK_AREA)
                if cuttable and not _hidden_cut(whole, it.clip, glue):
                    add(it, "cut by the edge of its tile outside the glue strip")
        visible.append(it)
    texts = [it for it in visible if it.kind == "text"]
    index = _Index(visible)

    for t in texts:
        if t.size < MIN_TYPE - 1e-6:
            add(t, f"type of {t.size:.1f} pt is below the {MIN_TYPE:g} pt minimum")
        quad = _shrink(t.poly, TOLERANCE)
        qbox = _bbox(quad)
        holder: _Item | None = None
        tarea = _area(t.poly)
        cx, cy = _centre(t.poly)
        crossed: set[int] = set()
        near = index.near(t.box)
        # the text's face: the topmost fill drawn before it that holds all of it hides what lies beneath
        face_order = max(
            (
                o.order
                for o in near
                if o.kind == "fill"
                and o.order < t.order
                and all(_point_in_poly(x, y, o.poly) for x, y in quad)
            ),
            default=-1,
        )
        for other in near:
            if other is t or (other.kind != "text" and other.order < face_order):
                continue
            if other.kind == "text":
                if (
                    other.order > t.order
                    and _overlap(qbox, other.box)
                    and _polys_meet(quad, _shrink(other.poly, TOLERANCE))
                ):
                    add(t, f"overlaps {other.describe()}")
                continue
            if other.kind == "stroke":
                if not _overlap(t.box, other.box):
                    continue
                reach = other.half - TOLERANCE
                if reach > 0:
                    grown = (t.box[0] - reach, t.box[1] - reach, t.box[2] + reach, t.box[3] + reach)
                    for a, b in _visible_segments(other):
                        if _clip_segment(a, b, grown) is None:
                            continue  # the segment passes farther away than its ink reaches
                        if _seg_poly_dist(a, b, t.poly) < reach:
                            add(t, f"runs into line ink: {other.describe()}")
                            crossed.add(id(other.shape))
                            break
                    continue
                # a hairline (a hatch line, a thin rule) thinner than the tolerance still crosses
                # the text when its middle runs through the text's ink (a text its tile cuts is
                # judged as a cut: the cut lines run along the cut)
                if t.clip is not None and not _inside_box(t.box, t.clip, TOLERANCE):
                    continue
                for a, b in _visible_segments(other):
                    if _clip_segment(a, b, qbox) is not None and _seg_poly_dist(a, b, quad) <= 0.0:
                        add(t, f"crossed by a thin line: {other.describe()}")
                        crossed.add(id(other.shape))
                        break
                continue
            # fills
            if not _overlap(qbox, other.box):
                if other.order < t.order and other.area >= tarea and _point_in_poly(cx, cy, other.poly):
                    pass
                else:
                    continue
            contains = all(_point_in_poly(x, y, other.poly) for x, y in quad)
            if other.order < t.order:
                if other.area >= tarea and _point_in_poly(cx, cy, other.poly):
                    if holder is None or other.area < holder.area:
                        holder = other
                if (
                    not contains
                    and other.area <= MARK_AREA
                    and not isinstance(other.shape, Rect)
                    and _polys_meet(quad, other.poly)
                ):
                    add(t, f"runs into a mark: {other.describe()}")
                    crossed.add(id(other.shape))
            elif other.colour != GLUE_FILL and _polys_meet(quad, other.poly):
                add(t, f"covered by {other.describe()}")
        cut = t.clip is not None and not _inside_box(t.box, t.clip, TOLERANCE)  # judged as a cut above
        if holder is not None and id(holder.shape) not in crossed and not cut:
            if not all(_point_in_poly(x, y, holder.poly) for x, y in quad):
                add(t, f"runs past the edge of the shape that holds it: {holder.describe()}")
    for mark in visible:
        if not _is_symbol(mark):
            continue
        inner = _shrink(mark.poly, TOLERANCE) if len(mark.poly) > 2 else mark.poly
        for other in index.near(mark.box):
            if (
                other.kind != "stroke"
                or other.order > mark.order  # a symbol's own details are drawn over it
                or other.half > TOLERANCE
                or not _overlap(mark.box, other.box)
            ):
                continue
            # hatching: a 45-degree hairline running across the symbol (a line that starts or
            # ends on it points at it: a line of fire, an arrow)
            if any(
                abs(abs(b[0] - a[0]) - abs(b[1] - a[1])) < 0.01 * math.dist(a, b)
                and not _inside_box((*a, *a), mark.box, TOLERANCE)
                and not _inside_box((*b, *b), mark.box, TOLERANCE)
                and _clip_segment(a, b, mark.box) is not None
                and _seg_poly_dist(a, b, inner) <= 0.0
                for a, b in _visible_segments(other)
            ):
                add(mark, f"crossed by a thin line: {other.describe()}")
                break
    return findings


def _is_symbol(it: _Item) -> bool:
    """True for a symbol: a small filled mark without an outline of its own (pips, silhouettes,
    a symbol's parts; rectangles and outlined shapes are faces and tabs)."""
    return (
        it.kind == "fill" and it.outline is None and it.area <= MARK_AREA and not isinstance(it.shape, Rect)
    )


def check_contrast(page: Page, where: str = "", minimum: float = MIN_CONTRAST) -> list[Finding]:
    """Return findings for marks (texts, pips, symbols) too close in luminance to their face.

    A mark is a text or a filled circle, polygon or path of at most MARK_AREA (rectangles are
    faces and tints, not marks); its face is the topmost shape drawn
    before it, at least twice its size, that holds the whole mark (else the white paper)."""
    return _contrast(_items(page), where or page.label or "page", minimum)


def _contrast(items: list[_Item], name: str, minimum: float) -> list[Finding]:
    fills = [it for it in items if it.kind == "fill"]
    index = _Index(fills)
    findings: list[Finding] = []
    for it in items:
        if it.kind == "stroke" or (
            it.kind == "fill" and (max(it.area, it.whole_area) > MARK_AREA or isinstance(it.shape, Rect))
        ):
            continue
        if it.clip is not None and not _overlap(it.box, it.clip):
            continue
        area = it.area if it.kind == "fill" else _area(it.poly)
        corners = (
            it.poly
            if it.kind == "text"
            else (
                (it.box[0], it.box[1]),
                (it.box[2], it.box[3]),
                (it.box[0], it.box[3]),
                (it.box[2], it.box[1]),
            )
        )
        face = PAPER
        face_item = None
        for f in index.near(it.box):
            if f.order >= it.order or f.area < 2 * area:
                continue
            if f.colour == it.colour and f.area <= MARK_AREA and not isinstance(f.shape, Rect):
                continue  # another part of the same symbol
            if all(_point_in_poly(x, y, f.poly) for x, y in _shrink(corners, TOLERANCE)):
                face, face_item = f.colour, f
        colours = [it.colour] + ([it.outline] if it.kind == "fill" and it.outline else [])
        best = max(contrast_ratio(c, face) for c in colours)
        if best < minimum:
            on = face_item.describe() if face_item else "the white paper"
            findings.append(
                Finding(name, it.describe(), f"contrast {best:.1f}:1 against {on} (needs {minimum:g}:1)")
            )
    return findings


def check_clearance(page: Page, margin: float, min_size: float, where: str = "") -> list[Finding]:
    """Return findings for large texts (``min_size`` points or more after transforms: a board's
    box numbers, big marks) whose ink comes closer than ``margin`` mm to the ink of a line, of a
    small filled mark (arrowheads, symbols) or of another text drawn with it (a box's step
    number), each with the room it has."""
    name = where or page.label or "page"
    items = _items(page)
    index = _Index(items)
    findings: list[Finding] = []
    for t in items:
        if t.kind != "text" or t.size < min_size - 1e-6:
            continue
        if t.clip is not None and not _inside_box(t.box, t.clip, TOLERANCE):
            continue  # a text its tile cuts is judged by the cuts check
        grown = (t.box[0] - margin, t.box[1] - margin, t.box[2] + margin, t.box[3] + margin)
        room = math.inf
        nearest: _Item | None = None
        for other in index.near(grown):
            if isinstance(other.shape, Rect) and other.shape.style.fill == GLUE_FILL:
                continue  # a tiled board's glue strip lies under the next tile, no box edge
            if other.clip != t.clip:
                continue  # a tile's frame and marks, not the art the text belongs to
            if other.kind == "stroke":
                gap = (
                    min((_seg_poly_dist(a, b, t.poly) for a, b in _visible_segments(other)), default=math.inf)
                    - other.half
                )
            elif other.kind == "text":
                if other is t:
                    continue
                gap = min(_seg_poly_dist(a, b, t.poly) for a, b in _edges(other.poly))
            elif other.kind == "fill" and _is_symbol(other):
                if all(_point_in_poly(x, y, other.poly) for x, y in t.poly):
                    continue  # the text's own face
                gap = min((_seg_poly_dist(a, b, t.poly) for a, b in _edges(other.poly)), default=math.inf)
            else:
                continue
            if gap < room:
                room, nearest = gap, other
        if nearest is not None and room < margin - 1e-6:
            findings.append(
                Finding(
                    name,
                    t.describe(),
                    f"{max(room, 0.0):.2f} mm from {nearest.describe()} (keeps {margin:g} mm clear)",
                )
            )
    return findings


def check_pages(
    pages: Iterable[Page], where: str = "", contrast: bool = True, safe: float = 0.0
) -> list[Finding]:
    """Return every finding on a sequence of pages, each named 'where page N (label)'; with
    ``safe`` the safe-area findings too."""
    findings: list[Finding] = []
    for number, page in enumerate(pages, 1):
        name = f"{where} page {number}" + (f" ({page.label})" if page.label else "")
        findings.extend(check_page(page, name, contrast, safe))
    return findings
