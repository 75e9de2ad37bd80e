"""The SVG writer's merged paths paint what one element per shape paints: every part SVG and
preview of every kit (and of the seeded Barricades kit), rasterized in headless Chromium next to
a plain rendering of the same page model written here (each shape its own element, absolute
coordinates), differ only where anti-aliasing meets a shared edge. Text is left out of both: it
is written the same way in both and would only measure the font engine."""

from __future__ import annotations

import io
import json
import math

import pytest

import generator.render.svg as svg_module
from generator.page import IDENTITY, Circle, Group, Image, Line, Page, Path, Polygon, Rect, Style, Text
from tests.browser.chromium import Browser, find_chromium
from tests.conftest import build

CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium on this machine (apt-get install -y chromium to run these tests)"
)
PX_PER_MM = 4.0

# Runs in the page: both SVGs drawn on white canvases of one size; the pixels that differ by more
# than a quarter of the colour range, and the pixels with ink.
COMPARE = r"""
(async (a, b, scale) => {
  const load = (text) => new Promise((ok, bad) => {
    const img = new Image();
    img.onload = () => ok(img); img.onerror = () => bad(new Error('an SVG does not load'));
    img.src = URL.createObjectURL(new Blob([text], {type: 'image/svg+xml'}));
  });
  const [ia, ib] = await Promise.all([load(a), load(b)]);
  const w = Math.round(ia.width * scale), h = Math.round(ia.height * scale);
  const pixels = (img) => {
    const c = document.createElement('canvas'); c.width = w; c.height = h;
    const g = c.getContext('2d'); g.fillStyle = '#fff'; g.fillRect(0, 0, w, h);
    g.drawImage(img, 0, 0, w, h); return g.getImageData(0, 0, w, h).data;
  };
  const pa = pixels(ia), pb = pixels(ib);
  let differ = 0, ink = 0;
  for (let i = 0; i < pa.length; i += 4) {
    const d = Math.max(Math.abs(pa[i] - pb[i]), Math.abs(pa[i + 1] - pb[i + 1]), Math.abs(pa[i + 2] - pb[i + 2]));
    if (d > 64) differ++;
    if (pb[i] + pb[i + 1] + pb[i + 2] < 700) ink++;
  }
  return {differ, ink, width: ia.width, height: ia.height};
})
"""


def _paint(style: Style, filled: bool, fmt) -> str:
    out = f' fill="{(style.fill if filled else None) or "none"}"'
    if style.stroke is not None:
        out += f' stroke="{style.stroke}" stroke-width="{fmt(style.width)}"'
        if style.dash:
            out += f' stroke-dasharray="{" ".join(fmt(d) for d in style.dash)}"'
        out += f' stroke-linecap="{style.cap}" stroke-linejoin="{style.join}"'
    return out


def plain_svg(page: Page, places: int = 2) -> str:
    """Return the page as an SVG of one element per shape, text left out, lengths to a number
    of decimals."""
    defs: list[str] = []

    def _f(v: float) -> str:
        return f"{v:.{places}f}"

    def shapes(items) -> str:
        out = []
        for s in items:
            if isinstance(s, Group):
                inner = shapes(s.children)
                if s.clip is not None:
                    x, y, w, h = s.clip
                    defs.append(
                        f'<clipPath id="c{len(defs)}"><rect x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" '
                        f'height="{_f(h)}"/></clipPath>'
                    )
                    inner = f'<g clip-path="url(#c{len(defs) - 1})">{inner}</g>'
                if s.transform != IDENTITY:
                    a, b, c, d, e, f = s.transform
                    inner = (
                        f'<g transform="matrix({a:.6f} {b:.6f} {c:.6f} {d:.6f} {_f(e)} {_f(f)})">{inner}</g>'
                    )
                out.append(inner)
            elif isinstance(s, Line):
                if s.style.stroke is not None:
                    out.append(
                        f'<line x1="{_f(s.x1)}" y1="{_f(s.y1)}" x2="{_f(s.x2)}" y2="{_f(s.y2)}"'
                        f"{_paint(s.style, False, _f)}/>"
                    )
            elif isinstance(s, Rect):
                rounding = f' rx="{_f(s.r)}"' if s.r else ""
                out.append(
                    f'<rect x="{_f(s.x)}" y="{_f(s.y)}" width="{_f(s.w)}" height="{_f(s.h)}"{rounding}'
                    f"{_paint(s.style, True, _f)}/>"
                )
            elif isinstance(s, Circle):
                out.append(
                    f'<circle cx="{_f(s.cx)}" cy="{_f(s.cy)}" r="{_f(s.r)}"{_paint(s.style, True, _f)}/>'
                )
            elif isinstance(s, Polygon):
                if s.points:
                    tag = "polygon" if s.closed else "polyline"
                    points = " ".join(f"{_f(x)},{_f(y)}" for x, y in s.points)
                    out.append(f'<{tag} points="{points}"{_paint(s.style, s.closed, _f)}/>')
            elif isinstance(s, Path):
                d = " ".join(c[0] + " ".join(_f(v) for v in c[1:]) for c in s.commands)
                out.append(f'<path d="{d}"{_paint(s.style, True, _f)}/>')
            elif isinstance(s, Image):
                raise AssertionError("no kit draws pictures; this check would need them")
            elif not isinstance(s, Text):
                raise AssertionError(f"unknown shape {type(s).__name__}")
        return "".join(out)

    body = shapes(page.shapes)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(page.width)}mm" height="{_f(page.height)}mm" '
        f'viewBox="0 0 {_f(page.width)} {_f(page.height)}"><defs>{"".join(defs)}</defs>{body}</svg>'
    )


def _without_text(page: Page) -> Page:
    def strip(items):
        out = []
        for s in items:
            if isinstance(s, Group):
                out.append(Group(tuple(strip(s.children)), s.transform, s.clip))
            elif not isinstance(s, Text):
                out.append(s)
        return out

    return Page(page.width, page.height, strip(page.shapes))


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> list[tuple[str, Page]]:
    """Return every page a build of every kit and of the seeded Barricades kit gives the SVG
    writer (parts and previews), with its title."""
    out = str(tmp_path_factory.mktemp("svg-pixels"))
    kept: list[tuple[str, Page]] = []
    write_svg = svg_module.write_svg

    def keep(page, target, title="", preview=False, author=""):
        kept.append((f"{title}{' (preview)' if preview else ''}", page))
        write_svg(page, target, title, preview, author)

    patch = pytest.MonkeyPatch()
    patch.setattr(svg_module, "write_svg", keep)
    try:
        build(out, formats=["svg"], jobs=1)
        build(out, "barricades", seed=7, formats=["svg"], jobs=1)
    finally:
        patch.undo()
    return kept


def test_merged_paths_paint_what_one_element_per_shape_paints(pages):
    assert len(pages) > 40
    browser = Browser(CHROMIUM)  # type: ignore[arg-type]
    try:
        with browser.page("about:blank", 800) as tab:
            for title, page in pages:
                bare = _without_text(page)
                buffer = io.BytesIO()
                svg_module.write_svg(bare, buffer, title, preview="(preview)" in title)
                ours = buffer.getvalue().decode("utf-8")
                plain = plain_svg(bare, 1 if "(preview)" in title else 2)
                scale = PX_PER_MM * 25.4 / 96  # an image sizes an SVG in CSS px, 96 an inch
                found = tab.evaluate(f"({COMPARE})({json.dumps(plain)}, {json.dumps(ours)}, {scale})")
                assert math.isclose(found["width"], page.width * 96 / 25.4, abs_tol=1), title
                # anti-aliasing where outlines meet differs by a few pixels a junction; a shape
                # painted out of order would differ along a whole edge or over an area
                assert found["differ"] <= max(100, found["ink"] // 500), (title, found)
    finally:
        browser.close()


def test_the_comparison_sees_a_change_of_painting_order():
    outlined = Style(stroke="#000000", fill="#ff0000", width=1)
    page = Page(100, 100, [Rect(10, 10, 40, 40, outlined), Rect(30, 30, 40, 40, outlined)])
    swapped = Page(100, 100, [page.shapes[1], page.shapes[0]])
    browser = Browser(CHROMIUM)  # type: ignore[arg-type]
    try:
        with browser.page("about:blank", 800) as tab:
            scale = PX_PER_MM * 25.4 / 96
            same = tab.evaluate(
                f"({COMPARE})({json.dumps(plain_svg(page))}, {json.dumps(plain_svg(page))}, {scale})"
            )
            moved = tab.evaluate(
                f"({COMPARE})({json.dumps(plain_svg(page))}, {json.dumps(plain_svg(swapped))}, {scale})"
            )
    finally:
        browser.close()
    assert same["differ"] == 0
    assert moved["differ"] > 400, moved
