"""The page model's two writers: true size, PDF and SVG agreeing, embedded fonts, same bytes twice."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pypdf
import pytest

from generator.model.page import (
    Circle,
    Group,
    Line,
    Page,
    Rect,
    Style,
    Text,
    multiply,
    rotate,
    scale,
    translate,
)
from generator.render import WRITERS
from tests.conftest import SVG_NS, mm
from tests.pdf_reader import open_pdf
from tests.svg_reader import read_svg


def render(pages, fmt: str) -> bytes:
    buffer = io.BytesIO()
    WRITERS[fmt](pages, buffer)
    return buffer.getvalue()


def sample_page() -> Page:
    page = Page(210.0, 297.0)
    page = page.plus(Rect(20, 30, 25, 25, Style(stroke="#000000", fill="#ff0000", width=0.2)))
    page = page.plus(Group((Rect(0, 0, 40, 10, Style(stroke=None, fill="#00ff00")),), translate(100, 50)))
    page = page.plus(
        Group(
            (Rect(0, 0, 10, 20, Style(stroke=None, fill="#0000ff")),),
            multiply(translate(50, 200), scale(2.0)),
        )
    )
    page = page.plus(
        Group(
            (Rect(0, 0, 30, 12, Style(stroke=None, fill="#ffff00")),),
            multiply(translate(150, 220), rotate(90)),
        )
    )
    page = page.plus(Line(10, 280, 200, 280, Style(width=0.5)), Circle(150, 150, 10, Style(fill="#000000")))
    page = page.plus(Text(105, 100, "Été « ça » “quoted” — naïve", 12, "sans-bold", "middle"))
    return page


def pdf_rects(data: bytes) -> list[tuple[str, tuple[float, float, float, float]]]:
    doc = open_pdf(stream=data)
    out = []
    for d in doc[0].get_drawings():
        kinds = {item[0] for item in d["items"]}
        if d.get("fill") and kinds <= {"re", "qu", "l"} and "c" not in kinds:
            r = d["rect"]
            colour = "#{:02x}{:02x}{:02x}".format(*tuple(round(c * 255) for c in d["fill"]))
            out.append((colour, (mm(r.x0), mm(r.y0), mm(r.x1), mm(r.y1))))
    return out


def svg_rects(data: bytes) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Return the fill colour and page box of every filled outline of straight sides in an SVG."""
    out = []
    for item in read_svg(data):
        fill = dict(item.paint).get("fill", "none")
        if item.kind == "subpath" and fill != "none" and all(s[0] == "L" for s in item.geometry[0].segments):
            sub = item.geometry[0]
            xs = [sub.start[0]] + [s[2][0] for s in sub.segments]
            ys = [sub.start[1]] + [s[2][1] for s in sub.segments]
            out.append((fill, (min(xs), min(ys), max(xs), max(ys))))
    return out


def test_pdf_page_is_true_size_and_a_square_measures_25mm():
    doc = open_pdf(stream=render([sample_page()], "pdf"))
    page = doc[0]
    assert mm(page.rect.width) == pytest.approx(210.0, abs=0.05)
    assert mm(page.rect.height) == pytest.approx(297.0, abs=0.05)
    red = [r for c, r in pdf_rects(render([sample_page()], "pdf")) if c == "#ff0000"]
    x0, y0, x1, y1 = red[0]
    assert x1 - x0 == pytest.approx(25.0, abs=0.05)
    assert y1 - y0 == pytest.approx(25.0, abs=0.05)
    assert (x0, y0) == pytest.approx((20.0, 30.0), abs=0.05)


def test_svg_carries_its_real_size():
    root = ET.fromstring(render([sample_page()], "svg"))
    assert root.get("width") == "210mm" and root.get("height") == "297mm"
    assert [float(v) for v in root.get("viewBox").split()] == [0, 0, 210, 297]


def test_pdf_and_svg_agree_to_a_tenth_of_a_millimetre():
    page = sample_page()
    pdf = sorted(pdf_rects(render([page], "pdf")))
    svg = sorted(svg_rects(render([page], "svg")))
    assert [c for c, _ in pdf] == [c for c, _ in svg]
    for (_, a), (_, b) in zip(pdf, svg):
        assert a == pytest.approx(b, abs=0.1)


def test_fonts_are_embedded_in_both_formats():
    page = pypdf.PdfReader(io.BytesIO(render([sample_page()], "pdf"))).pages[0]
    fonts = [f.get_object() for f in page["/Resources"]["/Font"].values()]
    assert fonts and all(f["/Subtype"] in ("/TrueType", "/Type0") for f in fonts)
    descriptors = [
        d.get_object()["/FontDescriptor"].get_object() for f in fonts for d in f.get("/DescendantFonts", [f])
    ]
    assert all("/FontFile2" in d for d in descriptors)  # each face embedded, not named
    assert any("PnpSans-Bold" in str(f["/BaseFont"]) for f in fonts)
    text = open_pdf(stream=render([sample_page()], "pdf"))[0].get_text()
    assert "Été « ça » “quoted” — naïve" in text
    svg = render([sample_page()], "svg").decode()
    assert "@font-face" in svg and "data:font/woff;base64," in svg
    assert "Été « ça » “quoted” — naïve" in svg


def test_text_positions_agree_between_formats():
    page = Page(100, 100, [Text(10, 50, "Hello", 20, "sans", "start")])
    doc = open_pdf(stream=render([page], "pdf"))
    words = doc[0].get_text("words")
    assert mm(words[0][0]) == pytest.approx(10.0, abs=0.3)
    root = ET.fromstring(render([page], "svg"))
    text = root.find(f".//{SVG_NS}text")
    assert float(text.get("x")) == 10 and float(text.get("y")) == 50


def test_same_pages_give_the_same_bytes():
    for fmt in ("pdf", "svg"):
        assert render([sample_page()], fmt) == render([sample_page()], fmt)


def test_clipping_hides_what_lies_outside():
    page = Page(
        100, 100, [Group((Rect(0, 0, 50, 50, Style(stroke=None, fill="#000000")),), clip=(0, 0, 10, 10))]
    )
    pix = open_pdf(stream=render([page], "pdf"))[0].get_pixmap(dpi=72)
    assert pix.pixel(5, 5)[:3] == (0, 0, 0)
    assert pix.pixel(60, 60)[:3] == (255, 255, 255)


def test_long_documents_are_written_in_parts_and_joined(monkeypatch):
    import generator.render.pdf as pdf_writer

    monkeypatch.setattr(pdf_writer, "PART", 3)
    pages = [
        Page(100, 80, [Text(10, 40, f"page {n}", 12), Rect(10, 50, 25, 25, Style(fill="#ff0000"))])
        for n in range(1, 9)
    ]
    data = render(pages, "pdf")
    assert data == render(pages, "pdf")
    doc = open_pdf(stream=data)
    assert len(doc) == 8  # and pypdf reads it strictly, below
    for n, page in enumerate(doc, 1):
        assert page.get_text().strip() == f"page {n}"
        assert mm(page.rect.width) == pytest.approx(100, abs=0.05)
        red = [d["rect"] for d in page.get_drawings() if d.get("fill") == (1.0, 0.0, 0.0)]
        assert mm(red[0].width) == pytest.approx(25, abs=0.05)
    import pypdf

    assert len(pypdf.PdfReader(io.BytesIO(data), strict=True).pages) == 8
