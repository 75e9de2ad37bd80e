"""The packer (printing.packing.pack): every block placed once, inside the printable area, none
overlapping, and a deck of one card size on as few sheets as a card grid allows."""

from __future__ import annotations

import math
import random

import pytest

from generator.model.page import Drawing
from generator.printing.imposition import SheetItem
from generator.printing.packing import Block, pack

EPS = 1e-6


def block(w: float, h: float, back: bool, part: str = "p") -> Block:
    """Return a block of w x h mm (with a back: never turned)."""
    face = Drawing(w, h, ())
    return Block(SheetItem(face, Drawing(w, h, ()) if back else None), part)


def check(blocks: list[Block], width: float, height: float) -> list[list[tuple[float, float, Block]]]:
    """Pack the blocks; check each lies inside the area and apart from the others; return the sheets."""
    sheets = pack(blocks, width, height)
    placed = [entry for sheet in sheets for row in sheet for entry in row]
    assert len(placed) == len(blocks)
    for sheet in sheets:
        boxes = [(x, y, x + b.item.front.width, y + b.item.front.height) for row in sheet for x, y, b in row]
        for x0, y0, x1, y1 in boxes:
            assert -EPS <= x0 and x1 <= width + EPS and -EPS <= y0 and y1 <= height + EPS
        for a, b in ((a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]):
            overlap_w = min(a[2], b[2]) - max(a[0], b[0])
            overlap_h = min(a[3], b[3]) - max(a[1], b[1])
            assert overlap_w <= 1e-5 or overlap_h <= 1e-5, (a, b)
    return sheets


@pytest.mark.parametrize("cards", [1, 9, 10, 100, 1000])
def test_a_deck_of_one_card_size_takes_as_few_sheets_as_its_grid(cards):
    width, height = 190.0, 277.0  # a grid of 3 x 3 poker cards
    sheets = check([block(63.5, 88.9, True) for _ in range(cards)], width, height)
    per_sheet = math.floor(width / 63.5) * math.floor(height / 88.9)
    assert len(sheets) == math.ceil(cards / per_sheet)


@pytest.mark.parametrize("seed", range(6))
def test_mixed_blocks_are_each_placed_once_and_never_overlap(seed):
    rnd = random.Random(seed)
    blocks = [block(63.5, 88.9, True, "deck") for _ in range(rnd.randint(0, 40))]
    blocks += [
        block(rnd.choice([20, 25, 40]), rnd.choice([20, 30, 60]), rnd.random() < 0.5) for _ in range(60)
    ]
    rnd.shuffle(blocks)
    sheets = check(blocks, 190.0, 277.0)
    area = sum(b.item.front.width * b.item.front.height for b in blocks) / (190.0 * 277.0)
    assert len(sheets) >= math.ceil(area - EPS)
