"""Paper handling: true-size placement, tiling with overlap, --fit, n-up sheets and duplex backs."""

from __future__ import annotations

import io

import pytest

from generator.model.page import Drawing, Rect, Style, bounds, fill
from generator.printing.imposition import SheetItem, booklet_order, find_paper, nup, place, tile
from generator.render import WRITERS
from tests.conftest import mm
from tests.pdf_reader import open_pdf

A4 = find_paper("a4")


def big(w: float, h: float) -> Drawing:
    return Drawing(w, h, (Rect(0, 0, w, h, Style(stroke="#000000", fill="#cccccc", width=0.5)),))


def test_a_drawing_that_fits_is_centred_at_true_size():
    pages = place(big(100, 50), A4)
    assert len(pages) == 1
    x0, y0, x1, y1 = bounds(pages[0].shapes[:1])
    assert (x1 - x0, y1 - y0) == pytest.approx((100, 50))
    assert x0 == pytest.approx((210 - 100) / 2)


def test_a_wide_drawing_turns_the_paper():
    pages = place(big(260, 150), A4)
    assert len(pages) == 1 and pages[0].width > pages[0].height


def test_a_large_drawing_is_tiled_with_overlap_and_stays_inside_the_margins():
    pages = tile(big(400, 400), A4, "test")
    assert len(pages) > 1
    for page in pages:
        pw, ph = page.width, page.height
        assert {pw, ph} == {210.0, 297.0}
        assert any("tile row" in getattr(s, "text", "") for s in page.shapes)
    # together the tiles cover the drawing: every point of it is on some tile
    covered = set()
    for page in pages:
        group = page.shapes[0]
        dx, dy = group.transform[4], group.transform[5]
        x, y, w, h = group.clip
        assert x + dx == pytest.approx(A4.margin) and y + dy == pytest.approx(A4.margin)
        assert w <= pw - 2 * A4.margin + 1e-6 and h <= ph - 2 * A4.margin + 1e-6
        for gx in range(0, 400, 10):
            for gy in range(0, 400, 10):
                if x <= gx + 5 <= x + w and y <= gy + 5 <= y + h:
                    covered.add((gx, gy))
    assert len(covered) == 40 * 40


def test_fit_scales_onto_one_sheet_and_says_so():
    pages = place(big(400, 400), A4, fit=True, label="board")
    assert len(pages) == 1
    texts = [s.text for s in pages[0].shapes if hasattr(s, "text")]
    assert any("scaled to" in t and "%" in t for t in texts)


def test_nup_backs_are_mirrored_and_offset():
    front = Drawing(30, 30, (Rect(0, 0, 30, 30, fill("#ff0000")),))
    back = Drawing(30, 30, (Rect(0, 0, 30, 30, fill("#0000ff")),))
    items = [SheetItem(front, back)] + [SheetItem(front)] * 2
    pages = nup(items, A4, "men", duplex_offset=(1.5, -0.5))
    assert len(pages) == 2
    buffer = io.BytesIO()
    WRITERS["pdf"](pages, buffer)
    doc = open_pdf(stream=buffer.getvalue())
    red = [d["rect"] for d in doc[0].get_drawings() if d.get("fill") == (1.0, 0.0, 0.0)]
    blue = [d["rect"] for d in doc[1].get_drawings() if d.get("fill") == (0.0, 0.0, 1.0)]
    first = min(red, key=lambda r: r.x0)
    assert len(blue) == 1
    # the back of the first item lies mirrored across the page's vertical axis, shifted by the offset
    assert mm(blue[0].x1) == pytest.approx(210 - mm(first.x0) + 1.5, abs=0.05)
    assert mm(blue[0].y0) == pytest.approx(mm(first.y0) - 0.5, abs=0.05)


@pytest.mark.parametrize(
    "pages,expected",
    [
        (4, [(4, 1), (2, 3)]),
        (8, [(8, 1), (2, 7), (6, 3), (4, 5)]),
        (12, [(12, 1), (2, 11), (10, 3), (4, 9), (8, 5), (6, 7)]),
        (6, [(None, 1), (2, None), (6, 3), (4, 5)]),
    ],
)
def test_saddle_stitch_order(pages, expected):
    assert booklet_order(pages) == expected


def test_margins_below_what_printers_can_print_are_refused():
    from generator.foundation.errors import UsageError

    with pytest.raises(UsageError):
        find_paper("a4", margin=3.0)
