"""Memory flat in the card count: a deck's fronts are not held drawn while its sheets are packed
and kit.pdf is written (bench/bench_cards.py measures the resident memory of whole builds)."""

from __future__ import annotations

import gc
import os
import tracemalloc

import pytest

from generator.definitions.loader import load_definition
from generator.definitions.values import templates_for
from generator.kits.kit import build_kit
from generator.kits.plan import kit_plan
from tests.foundation.test_cards import write_deck
from tests.pdf_reader import open_pdf

# a front drawn and held costs about 5 KB more than a card costs now (its band, title, symbol and
# wrapped text lines as shapes, on its sheet of the deck's own pages and again on its packed
# sheet); what a card may still cost is its row of the CSV, its front kept packed (under 1 KB) and
# its share of the part of kit.pdf being written (reportlab holds up to 250 pages till the part is
# saved: about 2 KB a card, a copy too). Measured: 4.7 KB a distinct card and 2.0 KB a copy, where
# holding the fronts drawn took 9.6 KB and 5.6 KB.
PER_CARD = 7_000  # bytes, a distinct card
PER_COPY = 3_500  # bytes, one more copy of a card


def deck_csv(rows: int, copies: int) -> str:
    """Return a deck's CSV of ``rows`` distinct cards, ``copies`` of each, every text its own."""
    lines = ["name,type,quantity,colour,symbol,text"]
    for n in range(rows):
        kind, colour, symbol = [("move", "gold", "star"), ("event", "blue", "moon")][n % 2]
        text = f"Card {n} moves one runner {n % 7 + 1} squares forward and draws a card if it can."
        lines.append(f"Card {n},{kind},{copies},{colour},{symbol},{text}")
    return "\n".join(lines) + "\n"


def build_peak(root, rows: int, copies: int, trace: bool = True) -> int:
    """Build the deck's kit.pdf in this process; return the peak of memory traced while building
    (0 untraced: a build that only loads what every build loads once)."""
    path = write_deck(root, deck_csv(rows, copies))
    definition = load_definition(path, templates_for(os.path.dirname(path)))
    kit = kit_plan(definition, out=str(root / "out"), formats=("pdf",))
    gc.collect()
    peak = 0
    if trace:
        tracemalloc.start()
    try:
        build_kit(kit)
        if trace:
            peak = tracemalloc.get_traced_memory()[1]
    finally:
        if trace:
            tracemalloc.stop()
    # every card was written: nine poker cards to a sheet, each sheet with its backs page
    assert len(open_pdf(str(root / "out" / "deck" / "kit.pdf"))) >= 2 * (rows * copies) // 9
    return peak


@pytest.mark.slow
def test_a_decks_build_does_not_hold_its_cards_drawn(tmp_path):
    for name in ("warm", "small", "large", "copies"):
        (tmp_path / name).mkdir()
    # what a first build loads once (fonts, caches) is not counted: loaded untraced (tracing
    # makes a build several times slower)
    build_peak(tmp_path / "warm", 200, 1, trace=False)
    small = build_peak(tmp_path / "small", 200, 1)
    large = build_peak(tmp_path / "large", 800, 1)
    copies = build_peak(tmp_path / "copies", 200, 4)
    # 600 more distinct cards: each may cost its row and its packed front, never its drawing
    assert large - small < 600 * PER_CARD, (small, large)
    # 600 more copies of the same cards: a copy costs its share of the PDF being written alone
    assert copies - small < 600 * PER_COPY, (small, copies)


@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_a_decks_pages_are_counted_as_drawn_without_unpacking_its_fronts(tmp_path, bleed):
    from generator.components.base import Options
    from generator.kits.kit import component_outputs
    from generator.model.stored import count_shapes
    from generator.printing.imposition import SheetPages

    path = write_deck(tmp_path, deck_csv(40, 2))
    definition = load_definition(path, templates_for(os.path.dirname(path)))
    kit = kit_plan(definition, out=str(tmp_path / "out"), formats=("pdf",), options=Options(bleed=bleed))
    decks = [output.pages for _, output in component_outputs(definition, kit.context(), None)]
    decks = [pages for pages in decks if isinstance(pages, SheetPages)]
    assert decks
    for pages in decks:
        assert len(pages) >= 2 * 80 // 9  # nine poker cards a sheet, each sheet with its backs page
        for index in range(len(pages)):
            page, packed = pages.counted(index)
            # the budget's count (the page with its packed fronts empty, and their counts) is the
            # count of the page drawn, fronts and all; a backs page has no packed front
            assert count_shapes(page.shapes) + packed == count_shapes(pages[index].shapes)
            # without bleed a sheet's fronts are counted as packed; with bleed each front is drawn
            assert packed == 0 if bleed or pages.slots[index][1] else packed > 0
