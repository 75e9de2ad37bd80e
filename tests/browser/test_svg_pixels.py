"""Every SVG the kits hold draws in Chromium as its PDF prints.

- Every part SVG and preview of every kit (the seeded Barricades kit too), rasterized in headless
  Chromium next to a plain rendering of the same page model written here (each shape its own
  element, absolute coordinates), differ only where anti-aliasing meets a shared edge: the merged
  paths and uses paint what one element per shape paints. Text is left out of both.
- Every figure of every ``booklet*.html`` (every kit, every language it has, a variant and a
  seeded batch) in the page as a reader sees it, and every part SVG and preview as a file, against
  the same drawing written by the PDF writer and rasterized by PDFium: region by region (about
  1 mm square), the mean colours agree within a stated tolerance (``REGION_STEP``, ``LOOSE_STEP``
  and ``LOOSE_SHARE`` below). A fill lost to a style rule that does not reach a ``<use>``, a mark
  drawn black, a face drawn in a bold the browser made up or text of the wrong size differ over
  whole regions; glyph edges that fall a fraction of a pixel apart do not.

A part that another seed or kit prints the same (the same SVG and the same page model: another
seed's pieces) is compared once: the comparison of the same two documents is the same.
"""

from __future__ import annotations

import base64
import glob
import io
import json
import math
import os
import re
import struct
import zlib
from dataclasses import dataclass

import pytest

import generator.render.svg as svg_module
from generator.model.page import (
    IDENTITY,
    Circle,
    Group,
    Image,
    Line,
    Page,
    Path,
    Polygon,
    Rect,
    Style,
    Text,
    translate,
)
from generator.render.pdf import write_pdf
from tests.browser.chromium import Browser, find_chromium
from tests.conftest import build

CHROMIUM = find_chromium()
if CHROMIUM is None and os.environ.get("CI"):
    raise RuntimeError(
        "CI must run the browser tests: .ci/run installs chromium (apt-get install -y chromium)"
    )
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium on this machine (apt-get install -y chromium to run these tests)"
)
PX_PER_MM = 4.0
SHOTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "screenshots")

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


@dataclass
class Built:
    """What the builds gave the SVG writer: every part SVG and preview (its title, page model, the
    document as written and whether it is a preview), every inline figure's markup with its page
    model, and the booklet pages that hold the figures."""

    svgs: list[tuple[str, Page, str, bool]]
    figures: dict[str, Page]
    booklets: list[str]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Built:
    """Build every kit (each booklet in every language it has), the seeded Barricades kit, a batch
    of seeds and a variant, keeping what the SVG writer was given and what it wrote."""
    out = str(tmp_path_factory.mktemp("svg-pixels"))
    svgs: list[tuple[str, Page, str, bool]] = []
    figures: dict[str, Page] = {}
    write_svg = svg_module.write_svg
    element = svg_module.InlineSvg.element

    def keep(page, target, title="", preview=False, author=""):
        buffer = io.BytesIO()
        write_svg(page, buffer, title, preview, author)
        svgs.append((f"{title}{' (preview)' if preview else ''}", page, buffer.getvalue().decode(), preview))
        target.write(buffer.getvalue())

    def keep_figure(self, page, alt):
        markup = element(self, page, alt)
        figures[markup] = page
        return markup

    patch = pytest.MonkeyPatch()
    patch.setattr(svg_module, "write_svg", keep)
    patch.setattr(svg_module.InlineSvg, "element", keep_figure)
    try:
        build(out, formats=["svg"], jobs=1)
        build(out, "barricades", seed=7, formats=["svg"], jobs=1)
        build(out, "aggression", seeds="3-5", formats=["svg"], jobs=1)
        build(out, "aggression", seed="7", variants=["connected"], formats=["svg"], jobs=1)
    finally:
        patch.undo()
    booklets = []
    for manifest_path in sorted(glob.glob(os.path.join(out, "*", "manifest.json"))):
        with open(manifest_path, encoding="utf-8") as handle:
            manifest = json.load(handle)
        for booklet in manifest["booklets"]:
            booklets.append(os.path.join(os.path.dirname(manifest_path), booklet["html"]))
    return Built(svgs, figures, booklets)


@pytest.fixture(scope="module")
def browser():
    chromium = Browser(CHROMIUM)  # type: ignore[arg-type]
    yield chromium
    chromium.close()


def test_merged_paths_paint_what_one_element_per_shape_paints(built, browser):
    assert len(built.svgs) > 40
    compared: set[tuple[str, str]] = set()
    with browser.page("about:blank", 800) as tab:
        for title, page, _, _ in built.svgs:
            bare = _without_text(page)
            buffer = io.BytesIO()
            svg_module.write_svg(bare, buffer, title, preview="(preview)" in title)
            ours = buffer.getvalue().decode("utf-8")
            plain = plain_svg(bare, 1 if "(preview)" in title else 2)
            if (plain, ours) in compared:  # the same two documents as another part's (a seed's pieces)
                continue
            compared.add((plain, ours))
            scale = PX_PER_MM * 25.4 / 96  # an image sizes an SVG in CSS px, 96 an inch
            found = tab.evaluate(f"({COMPARE})({json.dumps(plain)}, {json.dumps(ours)}, {scale})")
            assert math.isclose(found["width"], page.width * 96 / 25.4, abs_tol=1), title
            # anti-aliasing where outlines meet differs by a few pixels a junction; a shape
            # painted out of order would differ along a whole edge or over an area
            assert found["differ"] <= max(100, found["ink"] // 500), (title, found)


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


# --- against the PDF

DPI = 192  # two pixels a CSS px: glyph edges agree to a fraction of a region, and it runs in seconds
REGION = 8  # pixels a side of a compared region: about 1 mm
REGION_STEP = 64  # no region's mean colour may move by more than a quarter of the range (of 255)...
LOOSE_STEP = 40  # ...and few by more than a sixth of it: where glyph edges fall a fraction of a
# pixel apart, and where PDFium starts the dashes of a rectangle's outline elsewhere along it than
# the PDF's path (Chromium and MuPDF start them where the path starts)
LOOSE_SHARE = 1 / 500  # one region in 500, or 8 in any drawing
LOOSE_LEAST = 8

# Runs in the page: two pictures, each a PNG (base64) or an SVG document drawn at a size in CSS px,
# on white canvases of w x h pixels, compared region by region (mean colour, the largest change of
# a channel): how many regions change by more than each step, and the worst of them.
REGIONS = r"""
(async (a, b, w, h, size, steps) => {
  const load = (src) => new Promise((ok, bad) => {
    const img = new Image();
    img.onload = () => ok(img); img.onerror = () => bad(new Error('a picture does not load'));
    img.src = src.png ? 'data:image/png;base64,' + src.png
      : URL.createObjectURL(new Blob([src.svg], {type: 'image/svg+xml'}));
  });
  const pixels = async (src) => {
    const img = await load(src);
    const c = document.createElement('canvas'); c.width = w; c.height = h;
    const g = c.getContext('2d'); g.fillStyle = '#fff'; g.fillRect(0, 0, w, h);
    if (src.png) g.drawImage(img, 0, 0); else g.drawImage(img, 0, 0, src.width, src.height);
    return g.getImageData(0, 0, w, h).data;
  };
  const [pa, pb] = await Promise.all([pixels(a), pixels(b)]);
  const across = Math.floor(w / size), down = Math.floor(h / size), n = size * size;
  const over = steps.map(() => 0), worst = [];
  for (let ry = 0; ry < down; ry++) for (let rx = 0; rx < across; rx++) {
    let a0 = 0, a1 = 0, a2 = 0, b0 = 0, b1 = 0, b2 = 0;  // the sums in locals: a third faster
    for (let y = ry * size; y < (ry + 1) * size; y++) {
      for (let i = (y * w + rx * size) * 4, end = i + size * 4; i < end; i += 4) {
        a0 += pa[i]; a1 += pa[i + 1]; a2 += pa[i + 2];
        b0 += pb[i]; b1 += pb[i + 1]; b2 += pb[i + 2];
      }
    }
    const change = Math.max(Math.abs(a0 - b0), Math.abs(a1 - b1), Math.abs(a2 - b2)) / n;
    steps.forEach((step, k) => { if (change > step) over[k]++; });
    if (change > steps[0]) worst.push([Math.round(change), rx * size, ry * size]);
  }
  worst.sort((p, q) => q[0] - p[0]);
  return {regions: across * down, over, worst: worst.slice(0, 8)};
})
"""


def pdf_picture(page: Page, box: tuple[float, float, float, float]) -> str:
    """Return what the PDF writer draws of a page inside box (x, y, w, h in mm), rasterized by
    PDFium at DPI, as a base64 PNG (the box padded to whole pixels, so the scale is exactly DPI)."""
    import pypdfium2

    x0, y0, w, h = box
    cols, rows = math.ceil(w * DPI / 25.4 - 1e-6), math.ceil(h * DPI / 25.4 - 1e-6)
    framed = Page(cols * 25.4 / DPI, rows * 25.4 / DPI, [Group(tuple(page.shapes), translate(-x0, -y0))])
    buffer = io.BytesIO()
    write_pdf([framed], buffer, "")
    document = pypdfium2.PdfDocument(buffer.getvalue())
    try:
        pdf_page = document[0]
        bitmap = pdf_page.render(
            scale=DPI / 72, fill_color=(255, 255, 255, 255), rev_byteorder=True, may_draw_forms=False
        )
        raw, stride, channels = bytes(bitmap.buffer), bitmap.stride, bitmap.n_channels
        size = (bitmap.width, bitmap.height)
        bitmap.close()
        pdf_page.close()
    finally:
        document.close()
    assert channels == 3 and size == (cols, rows), (channels, size, cols, rows)
    lines = b"".join(b"\0" + raw[y * stride : y * stride + 3 * cols] for y in range(rows))
    return base64.b64encode(_png(cols, rows, lines)).decode("ascii")


def _png(cols: int, rows: int, lines: bytes) -> bytes:
    """Return a PNG of 8-bit RGB scanlines, compressed fast (it only travels to the browser)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", cols, rows, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(lines, 1))
        + chunk(b"IEND", b"")
    )


def _judge(found: dict, name: str, keep: dict[str, bytes] | None = None) -> str:
    """Return "" when a comparison is within the tolerance, else what differs (and keep the files
    given, by the ending of their names, in tests/browser/screenshots/pixels/ to look at)."""
    regions, (loose, strong) = found["regions"], found["over"]
    if strong == 0 and loose <= max(LOOSE_LEAST, regions * LOOSE_SHARE):
        return ""
    if keep:
        folder = os.path.join(SHOTS, "pixels")
        os.makedirs(folder, exist_ok=True)
        stem = re.sub(r"[^\w.-]+", "-", name)
        for ending, data in keep.items():
            with open(os.path.join(folder, f"{stem}-{ending}"), "wb") as handle:
                handle.write(data)
    mm = 25.4 / DPI
    where = ", ".join(f"{c} at ({x * mm:.0f}, {y * mm:.0f}) mm" for c, x, y in found["worst"][:4])
    return (
        f"{name}: {strong} regions of {regions} change colour by more than {REGION_STEP}, "
        f"{loose} by more than {LOOSE_STEP} (worst: {where})"
    )


def _compare(tab, a: dict, b: dict, w: int, h: int) -> dict:
    return tab.evaluate(
        f"({REGIONS})({json.dumps(a)}, {json.dumps(b)}, {w}, {h}, {REGION}, {[LOOSE_STEP, REGION_STEP]})"
    )


TOP_LEVEL = "[...document.querySelectorAll('svg')].filter((s) => !s.parentElement.closest('svg'))"


def _figures(built: Built, path: str) -> list[tuple[Page, tuple[float, float, float, float]]]:
    """Return the figures of a booklet page in document order: each one's page model and viewBox."""
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    out = []
    for markup in re.findall(r"<svg\b.*?</svg>", source, re.S):
        assert markup in built.figures, f"{path}: an <svg> the figure writer did not make"
        x, y, w, h = (float(v) for v in re.search(r'viewBox="([^"]+)"', markup).group(1).split())
        out.append((built.figures[markup], (x, y, w, h)))
    return out


def test_every_booklet_figure_draws_in_chromium_as_the_pdf_draws_it(built, browser):
    langs = {os.path.basename(p) for p in built.booklets}
    assert len(built.booklets) >= 8 + 3 + 3 and {"booklet.fr.html", "booklet.it.html"} <= langs
    assert any("-connected" in p for p in built.booklets) and any(
        "aggression-seed3" in p for p in built.booklets
    )
    failures, drawn = [], 0
    for path in built.booklets:
        figures = _figures(built, path)
        assert figures, f"{path}: no figure"
        name = os.path.relpath(path, os.path.dirname(os.path.dirname(path)))
        with browser.page("file://" + path, 1280) as tab:
            assert tab.evaluate(f"{TOP_LEVEL}.length") == len(figures), name
            sizes = [(w * DPI / 25.4, h * DPI / 25.4) for _, (_, _, w, h) in figures]
            browser.send(
                "Emulation.setDeviceMetricsOverride",
                tab.session,
                width=math.ceil(max(w for w, _ in sizes)),
                height=math.ceil(max(h for _, h in sizes)),
                deviceScaleFactor=1,
                mobile=False,
            )
            for n, ((page, box), (w, h)) in enumerate(zip(figures, sizes)):
                # the figure itself, alone at the top left of the window at DPI (the page's style
                # sheet still styles it); then back in its place
                tab.evaluate(
                    f"{TOP_LEVEL}[{n}].style.cssText = 'position:fixed;left:0;top:0;margin:0;"
                    f"max-width:none;border-radius:0;z-index:2147483647;width:{w}px;height:{h}px'"
                )
                cols, rows = int(w), int(h)
                clip = {"x": 0, "y": 0, "width": cols, "height": rows, "scale": 1}
                # a PNG still (lossless), compressed fast: it only travels back to the browser
                shot = browser.send(
                    "Page.captureScreenshot", tab.session, format="png", clip=clip, optimizeForSpeed=True
                )["data"]
                tab.evaluate(f"{TOP_LEVEL}[{n}].style.cssText = ''")
                pdf = pdf_picture(page, box)
                found = _compare(tab, {"png": shot}, {"png": pdf}, cols, rows)
                keep = {"chromium.png": base64.b64decode(shot), "pdf.png": base64.b64decode(pdf)}
                failures.append(_judge(found, f"{name} figure {n + 1}", keep))
                drawn += 1
    assert drawn > 40
    failures = [f for f in failures if f]
    assert failures == [], "\n".join(failures)


def test_every_part_svg_draws_in_chromium_as_its_pdf_page(built, browser):
    assert sum(not preview for _, _, _, preview in built.svgs) > 40
    failures = []
    compared: set[tuple[str, Page]] = set()
    with browser.page("about:blank", 800) as tab:
        for title, page, document, preview in built.svgs:
            # a preview leaves its text out: it is held against the page without text
            drawn = _without_text(page) if preview else page
            if (document, drawn) in compared:  # the same SVG and page as another part's (a seed's pieces)
                continue
            compared.add((document, drawn))
            w, h = page.width * DPI / 25.4, page.height * DPI / 25.4
            pdf = pdf_picture(drawn, (0, 0, page.width, page.height))
            found = _compare(tab, {"svg": document, "width": w, "height": h}, {"png": pdf}, int(w), int(h))
            keep = {"chromium.svg": document.encode(), "pdf.png": base64.b64decode(pdf)}
            failures.append(_judge(found, title, keep))
    failures = [f for f in failures if f]
    assert failures == [], "\n".join(failures)


def test_the_pdf_comparison_sees_a_fill_painted_black_and_a_mark_left_out(browser):
    pale = Style(stroke="#333333", fill="#dde6f2", width=0.3)
    mark = Style(stroke="#000000", width=0.3)
    shapes = [Rect(5, 5, 30, 20, pale), Line(40, 10, 55, 10, mark), Text(8, 35, "Figure 1", size=9)]
    page = Page(60, 40, shapes)
    black = Page(
        60, 40, [Rect(5, 5, 30, 20, Style(stroke="#333333", fill="#000000", width=0.3)), *shapes[1:]]
    )
    unmarked = Page(60, 40, [shapes[0], shapes[2]])
    pdf = pdf_picture(page, (0, 0, 60, 40))
    w, h = 60 * DPI / 25.4, 40 * DPI / 25.4
    verdicts = {}
    with browser.page("about:blank", 800) as tab:
        for name, drawn in (("same", page), ("black", black), ("unmarked", unmarked)):
            svg = {"svg": svg_module.svg_document(drawn), "width": w, "height": h}
            verdicts[name] = _judge(_compare(tab, svg, {"png": pdf}, int(w), int(h)), name)
    assert verdicts["same"] == ""
    assert verdicts["black"].startswith("black: ") and verdicts["unmarked"].startswith("unmarked: "), verdicts
