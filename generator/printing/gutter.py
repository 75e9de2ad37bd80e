"""Gutter-fold sheets (``--gutter-fold``): the parts with a back printed on one side of one sheet,
fronts on one half and their backs on the other, for a printer without duplex.

The sheet is folded on a dashed line through its middle, printed side out, and glued flat; then
the parts are cut out through both layers along the grey lines of the fronts' half. A back lies
mirrored about the fold line from its front, so after the fold it is exactly behind it:

- folded along the **long** middle (the line runs down the portrait page, x = width / 2), the
  fronts are on the left half, their backs on the right, each back drawn upright (the same
  relation as a duplex sheet flipped on its long edge: the backs page's mirror about the middle);
- folded along the **short** middle (the line runs across, y = height / 2), the fronts are on the
  top half, their backs below, each back turned half a turn, so a cut part still shows its back
  upright when turned over on its long side, as it does printed duplex.

Each pool of parts is laid out for both folds and takes the fold that needs fewer sheets (the long
one when they tie): poker cards go four to an A4 sheet either way, turned a quarter turn, and a
tile wider than half the sheet only across. A part turned on the sheet has its back turned a
quarter turn the other way (``packing.turned``), which the mirror about the fold makes right.
Parts keep ``FOLD_GAP`` mm (outside their bleed) from the fold, so the fold never runs through a
part and the glue's edge is cut away; the footer stays below both halves. A part larger than half a
sheet either way cannot be gutter-folded: ``plan_gutter`` refuses it in one line.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.foundation.errors import UsageError
from generator.foundation.languages import DEFAULT_LANGUAGE
from generator.foundation.languages import text as catalogue_text
from generator.model.inline import Icons
from generator.model.page import Box, Group, Line, Page, Shape, Style, Text
from generator.printing.imposition import (
    SAFE,
    Paper,
    SheetItem,
    _cut_lines,
    footer,
    parts_bottom,
    with_bleed,
)
from generator.printing.packing import Block, Placement, pack

FOLD_GAP = 5.0  # mm from the fold line to the nearest part's bleed, on either half
FOLD = Style(stroke="#555555", fill=None, width=0.3, dash=(3.0, 2.0))  # the dashed fold line
FOLD_TEXT = 6.5  # pt, the fold line's label
FOLDS = ("long", "short")  # the fold along the page's long middle, or across its short middle


@dataclass(frozen=True)
class Fold:
    """Where a gutter-fold sheet folds and what lies behind what: ``edge`` 'long' (the line
    x = ``at`` runs down the page) or 'short' (the line y = ``at`` runs across it), and for every
    part with a back its front's cut box and its back's (x0, y0, x1, y1 in page mm)."""

    edge: str
    at: float
    pairs: tuple[tuple[Box, Box], ...]

    def mirror(self, box: Box) -> Box:
        """Return a box of the page mirrored about the fold line: where it lies after the fold."""
        x0, y0, x1, y1 = box
        if self.edge == "long":
            return (2 * self.at - x1, y0, 2 * self.at - x0, y1)
        return (x0, 2 * self.at - y1, x1, 2 * self.at - y0)


@dataclass(frozen=True)
class GutterSheet:
    """A gutter-fold sheet: its one printed page, the parts (component ids) on it and its fold."""

    page: Page
    parts: tuple[str, ...]
    fold: Fold


def fronts_room(paper: Paper, edge: str) -> Box:
    """Return the area (x0, y0, x1, y1) of a portrait sheet of the paper that the fronts, with
    their bleed, may take when the sheet folds on ``edge``: inside the margins, ``FOLD_GAP`` short
    of the fold, and (folded across) high enough that the backs mirrored below stay above the
    footer."""
    width, height, margin = paper.width, paper.height, paper.margin
    bottom = parts_bottom(paper)
    if edge == "long":
        return (margin, margin, width / 2 - FOLD_GAP, bottom)
    return (margin, max(margin, height - bottom), width - margin, height / 2 - FOLD_GAP)


def _fits(block: Block, room: Box, bleed: float) -> bool:
    x0, y0, x1, y1 = room
    front = block.item.front
    return front.width + 2 * bleed <= x1 - x0 + 1e-6 and front.height + 2 * bleed <= y1 - y0 + 1e-6


def plan_gutter(blocks: list[Block], paper: Paper, bleed: float = 0.0) -> list[tuple[str, Placement]]:
    """Return the gutter-fold sheets of the blocks (every one with a back) on the paper as (fold,
    placement): the blocks packed on the fronts' half for the fold that needs fewer sheets (the
    long fold when both need as many); blocks that fit only one fold's half go on sheets of that
    fold. Raise UsageError, in one line, for a block larger than half the sheet either way."""
    paper = paper.portrait()
    rooms = {edge: fronts_room(paper, edge) for edge in FOLDS}
    for block in blocks:
        if not any(_fits(block, room, bleed) for room in rooms.values()):
            front = block.item.front
            sizes = " or ".join(f"{r[2] - r[0]:.1f} x {r[3] - r[1]:.1f}" for r in rooms.values())
            raise UsageError(
                f"--gutter-fold: a part of {block.part} of {front.width:g} x {front.height:g} mm"
                + (f" with its bleed of {bleed:g} mm" if bleed else "")
                + f" is larger than half a sheet of {paper.name} ({sizes} mm): build without --gutter-fold"
            )

    def packed(edge: str, group: list[Block]) -> list[tuple[str, Placement]]:
        x0, y0, x1, y1 = rooms[edge]
        sheets = pack(group, x1 - x0, y1 - y0, 2 * bleed, turn_backs=True) if group else []
        return [(edge, sheet) for sheet in sheets]

    both = [edge for edge in FOLDS if all(_fits(b, rooms[edge], bleed) for b in blocks)]
    if both:
        return min((packed(edge, blocks) for edge in both), key=len)
    first = {
        edge: [b for b in blocks if next(e for e in FOLDS if _fits(b, rooms[e], bleed)) == edge]
        for edge in FOLDS
    }
    return [sheet for edge in FOLDS for sheet in packed(edge, first[edge])]


def _turned_box(box: Box, cx: float, cy: float) -> Box:
    """Return a box turned half a turn about (cx, cy)."""
    x0, y0, x1, y1 = box
    return (2 * cx - x1, 2 * cy - y1, 2 * cx - x0, 2 * cy - y0)


def gutter_sheet(
    edge: str,
    placement: Placement,
    paper: Paper,
    label: str,
    number: int,
    total: int,
    bleed: float = 0.0,
    lang: str = DEFAULT_LANGUAGE,
    icons: Icons | None = None,
) -> GutterSheet:
    """Return one gutter-fold sheet of a placement from ``plan_gutter``: the fronts centred on
    their half with their cut lines and crop marks (none towards the fold), every back mirrored
    about the fold on the other half, the dashed fold line with its label, and the footer (sheet
    ``number`` of ``total``). The page's cuts are the fronts' boxes, then the backs'."""
    paper = paper.portrait()
    width, height = paper.width, paper.height
    x0, y0, x1, y1 = fronts_room(paper, edge)
    rows = [[(x + bleed, y + bleed, b.item) for x, y, b in row] for row in placement]
    used_w = max(px + it.front.width for row in rows for px, _, it in row) + bleed
    used_h = max(py + it.front.height for row in rows for _, py, it in row) + bleed
    ox = x0 + (x1 - x0 - used_w) / 2
    oy = y0 + (y1 - y0 - used_h) / 2
    at = width / 2 if edge == "long" else height / 2
    # the crop marks stop 1 mm short of the fold: the cut lines are drawn as if the page ended there
    if edge == "long":
        marks_on = Paper(paper.name, at - 1.0 + SAFE, height, paper.margin)
    else:
        marks_on = Paper(paper.name, width, at - 1.0 + SAFE + 3.5, paper.margin)
    shapes: list[Shape] = _cut_lines(marks_on, rows, ox, oy, bleed)
    fronts: list[Box] = []
    backs: list[Shape] = []
    back_boxes: list[Box] = []
    pairs: list[tuple[Box, Box]] = []
    outlines = []
    for row in rows:
        for px, py, it in row:
            fx, fy = ox + px, oy + py
            w, h = it.front.width, it.front.height
            shapes.append((with_bleed(it.front, bleed) if bleed else it.front).placed(fx, fy))
            boxes = it.cut_boxes(fx, fy)
            fronts.extend(boxes)
            outlines.extend(it.cut_outlines(fx, fy))
            if it.back is None:
                continue
            art = with_bleed(it.back, bleed) if bleed else it.back
            if edge == "long":
                bx, by = width - fx - w, fy
                backs.append(art.placed(bx, by))
                placed = it.back_boxes(bx, by)
            else:
                bx, by = fx, height - fy - h
                backs.append(Group(art.shapes, (-1.0, 0.0, 0.0, -1.0, bx + w, by + h)))
                placed = [_turned_box(b, bx + w / 2, by + h / 2) for b in it.back_boxes(bx, by)]
            with_back = [box for box, piece in zip(boxes, _pieces(it)) if piece.back is not None]
            back_boxes.extend(placed)
            pairs.extend(zip(with_back, placed))
    fold_text = catalogue_text("fold.line", lang)
    if edge == "long":
        line = Line(at, SAFE, at, parts_bottom(paper), FOLD)
        note = Text(at + 1.0, paper.margin - 1.2, fold_text, FOLD_TEXT, "sans", "start", "#555555")
    else:
        line = Line(SAFE, at, width - SAFE, at, FOLD)
        note = Text(paper.margin, at + 3.0, fold_text, FOLD_TEXT, "sans", "start", "#555555")
    page = Page(
        width,
        height,
        (*shapes, *backs, line, note),
        label=f"{label} sheet {number} gutter fold",
        cuts=(*fronts, *back_boxes),
        bleed=bleed,
        outlines=tuple(outlines),
    )
    page = footer(
        page, paper, catalogue_text("footer.gutter", lang, label=label, number=number, total=total), icons
    )
    parts = tuple(dict.fromkeys(b.part for row in placement for _, _, b in row))
    return GutterSheet(page, parts, Fold(edge, at, tuple(pairs)))


def _pieces(item: SheetItem) -> list[SheetItem]:
    """Return the pieces of an item in the order of its cut boxes (itself when it has none)."""
    return [p for _, _, p in item.pieces] or [item]
