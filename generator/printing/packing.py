"""Packing: the cut-out parts of a kit that share a stock (card: counters, tokens, standees, dice
nets; paper: records and sheets printed several to a page) placed together onto as few sheets as
possible, each with its cut lines.

The packer is a guillotine packer over the sheets in turn (see ``pack``). Its sheet count is measured against the lower bound, the blocks' total
area over the printable area (``lower_bound``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.foundation.languages import DEFAULT_LANGUAGE
from generator.model.inline import Icons
from generator.model.page import Drawing, Group, Page
from generator.printing.imposition import Paper, SheetItem, SheetPages

EPS = 1e-6


@dataclass(frozen=True)
class Block:
    """A piece to pack and the part (component id) it belongs to."""

    item: SheetItem
    part: str


@dataclass
class _Free:
    x: float
    y: float
    w: float
    h: float


Placement = list[list[tuple[float, float, Block]]]


def turned(block: Block) -> Block:
    """Return a block turned a quarter turn clockwise; its back, if it has one, a quarter turn the
    other way, so the back still lies behind the front once mirrored onto the backs' side (the
    packer turns blocks with a back only for gutter-fold sheets, see ``pack``)."""
    front = block.item.front
    shapes = (Group(front.shapes, (0.0, 1.0, -1.0, 0.0, front.height, 0.0)),)
    outline = tuple((front.height - y, x) for x, y in block.item.outline)  # turned with the drawing
    back = block.item.back
    if back is not None:
        back = Drawing(
            back.height, back.width, (Group(back.shapes, (0.0, -1.0, 1.0, 0.0, 0.0, back.width)),), back.label
        )
    return Block(
        SheetItem(Drawing(front.height, front.width, shapes, front.label), back, outline=outline), block.part
    )


def _sort_keys():
    def size(b: Block) -> tuple[float, float]:
        # the order is the same with or without a gutter: every block grows by the same
        return (round(b.item.front.width, 3), round(b.item.front.height, 3))

    yield lambda b: (-size(b)[1], -size(b)[0])  # tallest first
    yield lambda b: (-size(b)[0], -size(b)[1])  # widest first
    yield lambda b: (-size(b)[0] * size(b)[1],)  # largest first
    yield lambda b: (-max(size(b)), -min(size(b)))  # longest side first


def pack(
    blocks: list[Block], width: float, height: float, pad: float = 0.0, turn_backs: bool = False
) -> list[Placement]:
    """Return the blocks placed on sheets of a printable width x height: for every sheet a list of
    rows of (x, y, block) (here one row), x and y measured from the printable area's top left.
    Each block takes ``pad`` mm more than its size each way (x, y: the corner of that room).

    Tries each block order (tallest, widest, largest, longest side first) with the blocks as drawn,
    turned to lie flat and turned to stand up, and keeps the packing with the fewest sheets (the
    first found among equals, so the result is deterministic). A block with a back is turned only
    with ``turn_backs`` (a gutter-fold sheet, whose backs are mirrored from the fronts as placed;
    a duplex backs page keeps the backs as drawn); a patch never is."""
    best: list[Placement] | None = None
    enough = max(
        math.ceil(lower_bound_of(blocks, width, height, pad) - EPS),
        _fixed_bound(blocks, width, height, pad, turn_backs),
    )
    tried: set[tuple[str, tuple[int, ...], tuple[bool, ...]]] = set()
    for turn in (None, "flat", "upright"):
        candidates = []
        turns = []
        for b in blocks:
            w, h = b.item.front.width, b.item.front.height
            wrong = (turn == "flat" and h > w) or (turn == "upright" and w > h)
            fits_turned = h + pad <= width + EPS and w + pad <= height + EPS
            # a patch's cuts stay as drawn
            keep = (b.item.back is not None and not turn_backs) or b.item.pieces
            turns.append(bool(wrong and not keep and fits_turned))
            candidates.append(turned(b) if turns[-1] else b)
        for key in _sort_keys():
            order = sorted(range(len(candidates)), key=lambda i: (*key(candidates[i]), i))
            for split in ("shorter", "down", "across"):
                # the same blocks in the same order pack the same (a deck of one card size sorts
                # alike by every key): such a try cannot find fewer sheets and is passed over
                tries = (split, tuple(order), tuple(turns))
                if tries in tried:
                    continue
                tried.add(tries)
                sheets = _guillotine([candidates[i] for i in order], width, height, split, pad)
                if best is None or len(sheets) < len(best):
                    best = sheets
                if len(best) <= enough:
                    return best
    return best or []


def _fixed_bound(
    blocks: list[Block], width: float, height: float, pad: float, turn_backs: bool = False
) -> int:
    """Return the fewest sheets that can hold the blocks of any one size that are never turned
    (those with a back, and patches): a line across a sheet meets at most floor(W / w) blocks of
    width w, so a sheet holds at most floor(floor(W / w) * H / h) of them, and as many the other
    way round (W and H a hair larger, for the packer's tolerance)."""
    counts: dict[tuple[float, float], int] = {}
    for b in blocks:
        if (b.item.back is not None and not turn_backs) or b.item.pieces:
            size = (b.item.front.width + pad, b.item.front.height + pad)
            counts[size] = counts.get(size, 0) + 1
    most = 0
    room_w, room_h = width + 1e-3, height + 1e-3
    for (w, h), count in counts.items():
        if w <= 0 or h <= 0 or w > room_w or h > room_h:
            continue
        per_sheet = min(
            math.floor(math.floor(room_w / w) * room_h / h), math.floor(math.floor(room_h / h) * room_w / w)
        )
        most = max(most, math.ceil(count / per_sheet))
    return most


def lower_bound_of(blocks: list[Block], width: float, height: float, pad: float = 0.0) -> float:
    """Return the blocks' total area (each ``pad`` mm larger each way) over a printable area of
    width x height."""
    return sum((b.item.front.width + pad) * (b.item.front.height + pad) for b in blocks) / (width * height)


def _guillotine(
    blocks: list[Block], width: float, height: float, split: str, pad: float = 0.0
) -> list[Placement]:
    """Return the blocks, in the order given, placed by guillotine packing: each goes into the free
    rectangle that fits it best on the first sheet with room; the rest of that rectangle is split
    in two: the part beside the block runs down the whole rectangle ("down"), the part below it
    across the whole rectangle ("across"), or whichever keeps the larger leftover whole
    ("shorter")."""
    sheets: list[tuple[list[_Free], list[tuple[float, float, Block]]]] = []
    # A sheet's free room only shrinks (a free rectangle is only ever replaced by parts of it), so
    # a sheet with no room for w x h never has room again for a block that large or larger:
    # ``first`` holds, for each size placed so far, the first sheet that may still have room for
    # it, and the search for a block starts after every sheet known to be too full for it.
    first: dict[tuple[float, float], int] = {}
    for block in blocks:
        w, h = block.item.front.width + pad, block.item.front.height + pad
        if w > width + EPS or h > height + EPS:
            raise ValueError(
                f"a block of {w:g} x {h:g} mm does not fit a printable area of {width:g} x {height:g} mm"
            )
        start = 0
        for (fw, fh), index in first.items():
            if index > start and w >= fw and h >= fh:
                start = index
        for number in range(start, len(sheets)):
            free, placed = sheets[number]
            fits = [f for f in free if w <= f.w + EPS and h <= f.h + EPS]
            if fits:
                break
        else:
            number = len(sheets)
            free, placed = [_Free(0.0, 0.0, width, height)], []
            sheets.append((free, placed))
            fits = free[:]
        first[(w, h)] = number
        spot = min(fits, key=lambda f: (min(f.w - w, f.h - h), f.y, f.x))
        free.remove(spot)
        placed.append((spot.x, spot.y, block))
        right_w, below_h = spot.w - w, spot.h - h
        if split == "across" or (split == "shorter" and right_w < below_h):
            parts = [_Free(spot.x + w, spot.y, right_w, h), _Free(spot.x, spot.y + h, spot.w, below_h)]
        else:
            parts = [_Free(spot.x + w, spot.y, right_w, spot.h), _Free(spot.x, spot.y + h, w, below_h)]
        free.extend(f for f in parts if f.w > EPS and f.h > EPS)
    return [[placed] for _, placed in sheets]


def lower_bound(blocks: list[Block], paper: Paper, bleed: float = 0.0) -> float:
    """Return the blocks' total area (with their gutters of twice the bleed) divided by the
    printable area: no packing needs fewer sheets."""
    return lower_bound_of(blocks, *paper.printable, 2 * bleed)


@dataclass(frozen=True)
class PackedSheet:
    """A packed sheet: its pages among the packing's ``SheetPages`` (front, and the backs page or
    None when no block on it has a back), and the parts on it. Its pages are drawn when read."""

    pages: SheetPages
    number: int  # the sheet's index in pages.sheet_rows
    has_back: bool
    parts: tuple[str, ...]

    @property
    def front(self) -> Page:
        """Return the sheet's front page, drawn now."""
        return self.pages.sheet(self.number)[0]

    @property
    def back(self) -> Page | None:
        """Return the sheet's backs page (drawn now), None when no block on it has a back."""
        return self.pages.sheet(self.number)[1] if self.has_back else None


def packed_sheets(
    blocks: list[Block],
    paper: Paper,
    label: str,
    duplex_offset: tuple[float, float] = (0.0, 0.0),
    bleed: float = 0.0,
    lang: str = DEFAULT_LANGUAGE,
    more: int = 0,
    icons: Icons | None = None,
) -> list[PackedSheet]:
    """Return the packed sheets of the blocks, drawn with their cut lines (and backs pages) when
    read. With a ``bleed`` every block's art runs that far beyond its cut and blocks lie twice
    that apart. ``more``: sheets of the same label that follow (numbered after these: 'sheet 2 of
    5'). The footers' icons are drawn from ``icons``. The packing reads the blocks' sizes alone:
    nothing is drawn here."""
    pw, ph = paper.printable
    sheets = pack(blocks, pw, ph, 2 * bleed)
    item_rows = [[[(x + bleed, y + bleed, b.item) for x, y, b in row] for row in rows] for rows in sheets]
    pages = SheetPages(item_rows, paper, label, duplex_offset, 1, len(sheets) + more, bleed, lang, icons)
    out: list[PackedSheet] = []
    for number, rows in enumerate(sheets):
        parts = tuple(dict.fromkeys(b.part for row in rows for _, _, b in row))
        has_back = any(b.item.back is not None for row in rows for _, _, b in row)
        out.append(PackedSheet(pages, number, has_back, parts))
    return out
