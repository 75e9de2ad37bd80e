"""The SVG writer's markup read back by an independent reader (tests/svg_reader.py): every SVG a
build of every kit writes (the parts, the home page's preview, the figures of every booklet.html)
paints the page model's shapes, in the model's order, with the model's paints and geometry to the
writer's grid (0.01 mm, 0.1 mm for previews and figures), however the shapes were merged."""

from __future__ import annotations

import base64
import io
import itertools
import math
import os

import pytest
import svgwrite
import svgwrite.base
import svgwrite.container

import generator.render.svg as svg_module
from generator.model.page import Circle, Image, Line, Page, Path, Polygon, Rect, Style, Text, iter_shapes
from generator.render import WRITERS
from tests.conftest import build
from tests.svg_reader import Painted, Subpath, apply, inline_svgs, painted, read_svg


def _paint(style: Style, filled: bool = True) -> dict[str, str]:
    found = {"fill": (style.fill if filled else None) or "none", "stroke": style.stroke or "none"}
    if style.stroke is not None:
        found["stroke-width"] = str(float(style.width))
        if style.dash:
            found["stroke-dasharray"] = " ".join(str(float(d)) for d in style.dash)
        found["stroke-linecap"] = style.cap
        found["stroke-linejoin"] = style.join
    return found


def _subpaths(commands) -> list[Subpath]:
    out: list[Subpath] = []
    segments: list = []
    start = cur = (0.0, 0.0)
    opened = closed = False
    for c in commands:
        if c[0] == "M":
            if opened:
                out.append(Subpath(start, tuple(segments), closed))
            start = cur = (c[1], c[2])
            segments, opened, closed = [], True, False
            continue
        if c[0] == "Z":
            if opened:
                out.append(Subpath(start, tuple(segments), True))
                segments, opened, closed = [], False, False
                cur = start
            continue
        if not opened:
            start, segments, opened, closed = cur, [], True, False
        if c[0] == "L":
            segments.append(("L", cur, (c[1], c[2])))
            cur = (c[1], c[2])
        elif c[0] == "C":
            segments.append(("C", cur, (c[1], c[2]), (c[3], c[4]), (c[5], c[6])))
            cur = (c[5], c[6])
    if opened:
        out.append(Subpath(start, tuple(segments), closed))
    return out


def expected(page: Page, with_text: bool = True) -> list[tuple[str, dict, tuple, float]]:
    """Return what the page model paints: (kind, paint, geometry in page mm, scale), in order."""
    out: list[tuple[str, dict, tuple, float]] = []
    for shape, m in iter_shapes(page.shapes):
        k = math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))

        def sub(points, closed, m=m) -> Subpath:
            pts = [apply(m, *p) for p in points]
            return Subpath(pts[0], tuple(("L", a, b) for a, b in itertools.pairwise(pts)), closed)

        if isinstance(shape, Line):
            if shape.style.stroke is not None:
                geometry = (sub([(shape.x1, shape.y1), (shape.x2, shape.y2)], False),)
                out.append(("subpath", _paint(shape.style, False), geometry, k))
        elif isinstance(shape, Rect):
            paint = _paint(shape.style)
            if paint["fill"] == paint["stroke"] == "none":
                continue
            x, y, w, h = shape.x, shape.y, shape.w, shape.h
            if shape.r or round(w, 2) <= 0 or round(h, 2) <= 0:
                corners = (apply(m, x, y), apply(m, x + w, y + h))
                out.append(("rect", paint, (corners, w * k, h * k, shape.r * k), k))
            else:
                out.append(
                    ("subpath", paint, (sub([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], True),), k)
                )
        elif isinstance(shape, Circle):
            paint = _paint(shape.style)
            if not paint["fill"] == paint["stroke"] == "none":
                out.append(("circle", paint, (apply(m, shape.cx, shape.cy), shape.r * k), k))
        elif isinstance(shape, Polygon):
            paint = _paint(shape.style, shape.closed)
            if shape.points and not paint["fill"] == paint["stroke"] == "none":
                out.append(("subpath", paint, (sub(shape.points, shape.closed),), k))
        elif isinstance(shape, Path):
            paint = _paint(shape.style)
            if not paint["fill"] == paint["stroke"] == "none":
                for s in _subpaths(shape.commands):
                    moved = Subpath(
                        apply(m, *s.start),
                        tuple((g[0],) + tuple(apply(m, *p) for p in g[1:]) for g in s.segments),
                        s.closed,
                    )
                    out.append(("subpath", paint, (moved,), k))
        elif isinstance(shape, Text):
            if with_text:
                size = shape.size * 25.4 / 72 * k
                where = apply(m, shape.x, shape.y)
                geometry = (shape.text, _FACES[shape.font], size, shape.anchor, where)
                out.append(("text", {"fill": shape.colour}, geometry, k))
        elif isinstance(shape, Image):
            data = base64.b64encode(shape.data).decode("ascii")
            corners = (apply(m, shape.x, shape.y), apply(m, shape.x + shape.w, shape.y + shape.h))
            out.append(("image", {}, (*corners, data), k))
    return out


_FACES = {"sans": "f0", "sans-bold": "f1", "sans-italic": "f2", "sans-bolditalic": "f3"}


def _near(a, b, tol: float) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_near(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, Subpath) and isinstance(b, Subpath):
        return a.closed == b.closed and _near((a.start, a.segments), (b.start, b.segments), tol)
    if isinstance(a, float | int) and isinstance(b, float | int):
        return abs(a - b) <= tol
    return a == b


def assert_paints_the_model(
    page: Page, found: list[Painted], step: float, with_text: bool, what: str
) -> None:
    """Assert that what an SVG paints is what the page model paints, one to one and in order."""
    wanted = expected(page, with_text)
    assert len(found) == len(wanted), f"{what}: {len(found)} things painted, the model has {len(wanted)}"
    for n, (kind, paint, geometry, k) in enumerate(wanted):
        got = found[n]
        tol = step * (2 + k)
        assert got.kind == kind, f"{what}, item {n}: {got.kind} painted where the model has a {kind}"
        have = dict(got.paint)
        if kind == "image":
            assert _near(got.geometry[:2], geometry[:2], tol) and got.geometry[2].endswith(geometry[2])
            continue
        for key, value in paint.items():
            if key in ("stroke-width", "stroke-dasharray"):
                assert _near(tuple(map(float, have[key].split())), tuple(map(float, value.split())), step), (
                    f"{what}, item {n}: {key} {have[key]} for {value}"
                )
            else:
                assert have.get(key) == value, f"{what}, item {n}: {key} {have.get(key)} for {value}"
        assert _near(got.geometry, geometry, tol), f"{what}, item {n}: {got.geometry} for {geometry}"


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, list]:
    """Build every kit and the seeded Barricades kit in this process, keeping every page given to
    the SVG writer with the markup it made: parts, previews and booklet figures."""
    out = str(tmp_path_factory.mktemp("svg-markup"))
    kept: dict[str, list] = {"documents": [], "figures": [], "authors": []}
    write_svg, element = svg_module.write_svg, svg_module.InlineSvg.element

    def keep_document(page, target, title="", preview=False, author=""):
        buffer = io.BytesIO()
        write_svg(page, buffer, title, preview, author)
        kept["documents"].append((page, preview, buffer.getvalue(), title))
        kept["authors"].append(author)
        target.write(buffer.getvalue())

    def keep_figure(self, page, alt):
        markup = element(self, page, alt)
        kept["figures"].append((page, markup, self))
        return markup

    patch = pytest.MonkeyPatch()
    patch.setattr(svg_module, "write_svg", keep_document)
    patch.setattr(svg_module.InlineSvg, "element", keep_figure)
    try:
        build(out, formats=["svg"], jobs=1)
        build(out, "barricades", seed=7, formats=["svg"], jobs=1)
    finally:
        patch.undo()
    kept["out"] = [out]  # type: ignore[list-item]
    return kept


def test_every_svg_of_every_kit_paints_its_page_model(written):
    documents = written["documents"]
    assert sum(1 for _, preview, _, _ in documents if preview) >= 9  # every kit and the seeded one
    assert sum(1 for _, preview, _, _ in documents if not preview) > 30
    for page, preview, data, title in documents:
        found = read_svg(data)
        what = f"{title}{' (preview)' if preview else ''}"
        assert_paints_the_model(page, found, 0.1 if preview else 0.01, not preview, what)


def _elements(element) -> list:
    """Return an svgwrite element and every element inside it."""
    found = [element]
    for child in getattr(element, "elements", []):
        found += _elements(child)
    return found


def test_every_svg_is_the_document_svgwrite_writes(written):
    # the writer builds an svgwrite drawing and writes it as svgwrite's own tostring() does
    for (page, preview, data, title), author in zip(written["documents"], written["authors"]):
        drawing = svg_module.svg_drawing(page, title, preview, author)
        assert isinstance(drawing, svgwrite.Drawing)
        assert all(isinstance(e, svgwrite.base.BaseElement | svgwrite.base.Title) for e in _elements(drawing))
        assert drawing.tostring().encode("utf-8") == data, title
    for page, _, _ in written["figures"]:
        figure = svg_module.InlineSvg().drawing(page, "a figure")
        assert isinstance(figure, svgwrite.container.SVG)
        assert figure.tostring() == svg_module.markup(figure)
    assert len(written["documents"]) > 40


def test_every_figure_of_every_booklet_paints_its_page_model(written):
    figures = written["figures"]
    assert len(figures) > 40
    for n, (page, markup, booklet) in enumerate(figures):
        (root,) = inline_svgs(f"<style>{booklet.css()}</style>{markup}")
        assert_paints_the_model(page, painted(root), 0.1, True, f"figure {n} {root.get('aria-label')}")


def test_the_written_booklets_hold_those_figures(written):
    (out,) = written["out"]
    markups = [m for _, m, _ in written["figures"]]
    seen = 0
    for base, _, names in os.walk(out):
        for name in names:
            if name.startswith("booklet") and name.endswith(".html"):
                with open(os.path.join(base, name), encoding="utf-8") as handle:
                    source = handle.read()
                roots = inline_svgs(source)
                assert roots, name
                for root in roots:
                    assert painted(root), f"{name}: a figure that paints nothing"
                seen += sum(1 for m in markups if m in source)
    assert seen >= len(markups)


def test_merged_shapes_are_fewer_elements_and_smaller(written):
    documents = written["documents"]
    board = next(d for p, preview, d, t in documents if t == "Barricades: Battlefield" and not preview)
    found = read_svg(board)
    text = board.decode("utf-8")
    assert "<line" not in text and "<polyline" not in text and "<polygon" not in text
    assert text.count("<path") < len([p for p in found if p.kind == "subpath"]) / 2
    # the hatching of the barricades, the same lines from square to square, is written once
    assert text.count("<use") > 10 and text.count("<path") + text.count("<use") < 300


def test_a_path_drawn_again_elsewhere_is_written_once_and_used():
    hatch = Style(stroke="#000000", width=0.2)
    lines = [Line(x + d, 0, x, d, hatch) for x in (0, 20, 40) for d in range(1, 15)]
    marked = [Rect(x, 0, 15, 15, Style(fill="#ff0000")) for x in (0, 20, 40)]
    page = _page(*[s for x in range(3) for s in (marked[x], *lines[14 * x : 14 * x + 14])])
    text = _svg(page)
    assert text.count("<use") == 3 and text.count('id="u1"') == 1
    assert_paints_the_model(page, read_svg(text), 0.01, True, "hatched squares")


def test_a_group_drawn_again_elsewhere_is_written_once_and_used():
    from generator.model.page import Group, translate

    piece = (
        Rect(0, 0, 15, 24, Style(fill="#f5d5d0", stroke="#b03a2e", width=0.3)),
        Circle(7.5, 9, 1.1, Style(fill="#b03a2e", stroke=None)),
        Path(
            (("M", 6, 8.6), ("C", 6, 7.8, 6.7, 7.1, 7.5, 7.1), ("L", 9, 8.6), ("Z",)), Style(fill="#b03a2e")
        ),
        Text(1.2, 5.3, "P", 12, "sans-bold", colour="#b03a2e"),
    )
    page = _page(
        *[Group(piece, translate(10 + 16 * n, 20)) for n in range(4)], Group(piece[:1], translate(5, 5))
    )
    text = _svg(page)
    assert text.count("<use") == 4 and text.count("<text") == 1
    assert_paints_the_model(page, read_svg(text), 0.01, True, "four pieces")


def _page(*shapes) -> Page:
    return Page(100, 100, list(shapes))


def _svg(page: Page) -> str:
    buffer = io.BytesIO()
    WRITERS["svg"]([page], buffer)
    return buffer.getvalue().decode("utf-8")


def test_outlined_fills_merge_only_where_no_outline_meets_a_later_inside():
    outlined = Style(stroke="#000000", fill="#ff0000", width=1)
    side_by_side = _page(Rect(10, 10, 20, 20, outlined), Rect(30, 10, 20, 20, outlined))
    overlapping = _page(Rect(10, 10, 20, 20, outlined), Rect(25, 10, 20, 20, outlined))
    assert _svg(side_by_side).count("<path") == 1
    assert _svg(overlapping).count("<path") == 2  # the second square's fill covers the first's edge
    for page in (side_by_side, overlapping):
        assert_paints_the_model(page, read_svg(_svg(page)), 0.01, True, "squares")


def test_only_neighbours_of_one_paint_share_a_path_and_order_is_kept():
    red, blue = Style(stroke="#ff0000"), Style(stroke="#0000ff")
    dashed = Style(stroke="#ff0000", dash=(1.0, 1.0))
    page = _page(
        Line(0, 0, 10, 0, red),
        Line(0, 5, 10, 5, red),
        Line(0, 10, 10, 10, blue),
        Line(0, 15, 10, 15, red),
        Line(0, 20, 10, 20, dashed),
        Line(0, 25, 10, 25, dashed),
        Polygon(((0, 30), (5, 35), (10, 30)), Style(stroke="#ff0000", fill="#00ff00"), closed=False),
        Polygon(((0, 40), (5, 45), (10, 40)), Style(stroke="#ff0000", fill="#00ff00")),
        Polygon(((0, 50), (5, 55), (10, 50)), Style(stroke="#ff0000", fill="#00ff00")),
        Path((("M", 1.005, 2.004), ("C", 3.3333, 4, 5, 6, -7.125, 8.5), ("Z",), ("L", 0.5, 0.25)), red),
        Circle(50, 50, 3, red),
        Rect(60, 60, 0, 10, red),
        Rect(60, 60, 10, 10, red, r=2),
        Text(10, 90, "a < b & c", 10),
    )
    text = _svg(page)
    # paths: red, red | blue | red | dashed | dashed | the open polyline (stroke-only: its fill
    # is left out) | filled polygon | filled polygon | red path; then the circle, the empty and
    # the rounded rect as elements of their own, and the text
    assert text.count("<path") == 9
    assert "a &lt; b &amp; c" in text
    assert_paints_the_model(page, read_svg(text), 0.01, True, "shapes")


def test_the_same_page_gives_the_same_bytes_and_a_preview_leaves_text_out():
    page = _page(Rect(1, 2, 3, 4, Style(fill="#123456")), Text(5, 6, "seed 7"))
    assert _svg(page) == _svg(page)
    buffer = io.BytesIO()
    svg_module.write_svg(page, buffer, "t", preview=True)
    assert b"<text" not in buffer.getvalue() and b"@font-face" not in buffer.getvalue()
