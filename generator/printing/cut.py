"""Print then cut: the registration marks a cutting machine (Silhouette, Cricut) reads on a printed
sheet, and the sheets of a print job that carry parts to cut.

The marks follow the three-corner convention of Silhouette Studio's print and cut (its "Type 1"
marks, which the inkscape-silhouette extension draws too): a filled square at the top left and an
L at the top right and at the bottom left, each ``REG_INSET`` mm from the page's edges (Studio's
smallest inset). The machine finds the three marks, and from them where the page lies on its mat;
a cut file (``generator.render.cut``) places every part's outline in the same page millimetres.
A sheet with marks keeps its parts ``CUT_MARGIN`` mm from the edges, clear of the marks, and its
footer clear of them too (see docs/print-shop.md for the sources of the figures).
"""

from __future__ import annotations

from dataclasses import replace

from generator.model.page import Group, Line, Page, Point, Polygon, Rect, Shape, Style, Text
from generator.printing.imposition import MARK, Paper, SheetItem, parts_bottom
from generator.printing.job import Sheet

REG_INSET = 10.0  # mm from the page's edge to the outer edge of every mark (Silhouette Studio's least)
REG_SQUARE = 5.0  # mm, the side of the filled square at the top left
REG_LENGTH = 20.0  # mm, the length of each arm of the two L marks
REG_WIDTH = 0.5  # mm, the thickness of an L's arms
REG_CLEAR = 2.0  # mm the parts keep from the marks
CUT_MARGIN = REG_INSET + REG_SQUARE + REG_CLEAR  # the least margin of a sheet of parts to cut
CUT_STOCK = "card"  # the stock of the parts a machine cuts (a record sheet's copies: one straight cut)
INK = Style(stroke=None, fill="#000000")
FOOT_CLEAR = 1.0  # mm a crop mark below the parts stops above the footer's text
MIN_CROP = 2.0  # mm, the shortest crop mark worth printing
CAP = 0.76 * 25.4 / 72  # mm a text's capitals rise above its baseline, per point of its size


def mark_shapes(width: float, height: float) -> tuple[tuple[Point, ...], ...]:
    """Return the three registration marks of a page of width x height mm as closed polygons in
    page mm: the square at the top left, then the L at the top right and the L at the bottom left
    (their corners pointing to the page's corners)."""
    d, s, n, w = REG_INSET, REG_SQUARE, REG_LENGTH, REG_WIDTH
    square = ((d, d), (d + s, d), (d + s, d + s), (d, d + s))
    right = width - d
    top_right = (
        (right - n, d),
        (right, d),
        (right, d + n),
        (right - w, d + n),
        (right - w, d + w),
        (right - n, d + w),
    )
    bottom = height - d
    bottom_left = (
        (d, bottom - n),
        (d + w, bottom - n),
        (d + w, bottom - w),
        (d + n, bottom - w),
        (d + n, bottom),
        (d, bottom),
    )
    return (square, top_right, bottom_left)


def registration_marks(width: float, height: float) -> Group:
    """Return the registration marks of a page of width x height mm, filled black, as one group."""
    d, s = REG_INSET, REG_SQUARE
    _, top_right, bottom_left = mark_shapes(width, height)
    return Group((Rect(d, d, s, s, INK), Polygon(top_right, INK), Polygon(bottom_left, INK)))


def mark_boxes(width: float, height: float) -> tuple[tuple[float, float, float, float], ...]:
    """Return the ink of the registration marks of a page of width x height mm as boxes (x0, y0,
    x1, y1): the square, then the two arms of each L."""
    d, s, n, w = REG_INSET, REG_SQUARE, REG_LENGTH, REG_WIDTH
    right, bottom = width - d, height - d
    return (
        (d, d, d + s, d + s),
        (right - n, d, right, d + w),
        (right - w, d, right, d + n),
        (d, bottom - w, d + n, bottom),
        (d, bottom - n, d + w, bottom),
    )


def near_marks(box: tuple[float, float, float, float], width: float, height: float) -> bool:
    """Return True when a box on a page of width x height mm comes within REG_CLEAR mm of the ink
    of a registration mark."""
    x0, y0, x1, y1 = box
    c = REG_CLEAR
    return any(
        x0 < mx1 + c and mx0 - c < x1 and y0 < my1 + c and my0 - c < y1
        for mx0, my0, mx1, my1 in mark_boxes(width, height)
    )


def fits_sheet(item: SheetItem, paper: Paper, bleed: float = 0.0) -> bool:
    """Return True when a cut-out part, as drawn (the packer tries every part as drawn), with its
    bleed round it, fits the printable area of a sheet of parts on the paper, above its footer."""
    pw, ph = paper.printable
    ph = min(ph, parts_bottom(paper) - paper.margin)
    w, h = item.front.width + 2 * bleed, item.front.height + 2 * bleed
    return w <= pw + 1e-6 and h <= ph + 1e-6


def has_parts_to_cut(sheet: Sheet) -> bool:
    """Return True when a sheet's front carries parts for a cutting machine: a packed sheet of
    card parts (cards, counters, tiles, hexes, standees, dice nets, quick-reference cards), each
    with its outline. Copies of a record sheet, on paper, are parted with a straight cut or two
    and get no marks."""
    return sheet.is_packed and sheet.stock == CUT_STOCK and bool(sheet.front.outlines)


def cut_numbers(sheets: list[Sheet]) -> list[int]:
    """Return the numbers (from 1, in kit.pdf's order) of the sheets with parts to cut."""
    return [n for n, sheet in enumerate(sheets, 1) if has_parts_to_cut(sheet)]


def with_marks(sheets: list[Sheet]) -> list[Sheet]:
    """Return the sheets with the registration marks printed on the front of every sheet with
    parts to cut (the backs stay as they are: the machine cuts from the front). The crop marks
    make room: one that would run within REG_CLEAR mm of a registration mark is left out (the
    machine's sensor must see nothing but the mark there, and the cut file cuts along that line
    anyway), and one below the parts stops FOOT_CLEAR mm above the footer's text (the wider
    margin of a sheet for cutting leaves it room to run down to the footer)."""
    out: list[Sheet] = []
    for sheet in sheets:
        if has_parts_to_cut(sheet):
            front = sheet.front
            w, h = front.width, front.height
            bottom = max(y for outline in front.outlines for _, y in outline)
            texts = [t.y - t.size * CAP for t in front.shapes if isinstance(t, Text) and t.y > bottom]
            foot = min(texts, default=h) - FOOT_CLEAR
            kept: list[Shape] = []
            for shape in front.shapes:
                if isinstance(shape, Line) and shape.style == MARK:
                    x0, x1 = sorted((shape.x1, shape.x2))
                    y0, y1 = sorted((shape.y1, shape.y2))
                    if x0 == x1 and y0 >= bottom and y1 > foot:
                        if foot - y0 < MIN_CROP:
                            continue
                        shape = Line(x0, y0, x0, foot, shape.style)
                        y1 = foot
                    if near_marks((x0, y0, x1, y1), w, h):
                        continue
                kept.append(shape)
            sheet = replace(sheet, front=replace(front, shapes=(*kept, registration_marks(w, h))))
        out.append(sheet)
    return out


def check_clear(page: Page) -> list[str]:
    """Return what on a page of parts lies too near its registration marks: every part whose
    outline's box comes within REG_CLEAR mm of a mark's ink (none on a page built for cutting)."""
    return [
        f"{page.label}: part {index} lies within {REG_CLEAR:g} mm of a registration mark"
        for index, outline in enumerate(page.outlines, 1)
        if near_marks(_box(outline), page.width, page.height)
    ]


def _box(points: tuple[Point, ...]) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)
