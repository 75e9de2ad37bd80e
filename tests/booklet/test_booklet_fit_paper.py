"""Booklets set to fit on every paper and print setting: over every kit, every language it has, A4
and Letter, with and without --ink-saver (and a variant with another seed), the booklet comes to a
multiple of four pages with no notes page padding it, and every page but the last is at least a
third full, measured from the ink of its PDF (read back with PDFium)."""

from __future__ import annotations

import pypdfium2
import pytest

from generator.booklet.layout import page_geometry
from generator.booklet.template import languages
from generator.components import booklet
from generator.components.base import Options
from generator.components.kinds import context as kit_context
from generator.definitions.loader import load_all
from generator.foundation.languages import LANGUAGES
from generator.printing.imposition import booklet_order, find_paper
from tests.booklet.fitting import booklet_case

MIN_FILL = 1 / 3
PAPERS = ("a4", "letter")
# Cases still padded by a notes page, each marked as expected to fail (none left).
PADDED: set[tuple[str, str, str, bool]] = set()


def _cases(padding: bool = False) -> list:
    """Return the cases; padding: those still padded are marked as expected to fail."""
    cases = []
    for definition in load_all():
        seeded = definition.game["seeded"] or definition.game.get("seed_optional", False)
        for lang in languages(definition):
            for paper in PAPERS:
                for ink in (False, True):
                    for other in (False, True) if lang == "en" else (False,):
                        if other and not (definition.game["variants"] or seeded):
                            continue
                        marks = []
                        if padding and (definition.id, lang, paper, other) in PADDED:
                            marks = [
                                pytest.mark.xfail(strict=True, reason="a notes page pads it (left to do)")
                            ]
                        name = f"{definition.id}-{lang}-{paper}{'-ink' if ink else ''}{'-variant' if other else ''}"
                        cases.append(
                            pytest.param(definition.id, lang, paper, ink, other, id=name, marks=marks)
                        )
    return cases


def _booklet(game: str, lang: str, paper: str, ink: bool, other: bool):
    """Return the kit's context, its laid-out booklet pages and the booklet's PDF (the variant
    case: all variants and another seed; laid out once for this file and test_booklet_fit.py)."""
    return booklet_case(game, lang, paper, ink, other, other)


def ink_fills(data: bytes, ctx) -> list[float]:
    """Return per PDF page how far down its text area the ink reaches (0 to 1), from the pixels."""
    half = ctx.paper.half()
    geo = page_geometry(half.width, half.height, ctx.paper.margin)
    dpi = 50
    per_mm = dpi / 25.4
    fills = []
    pdf = pypdfium2.PdfDocument(data)
    for index in range(len(pdf)):
        image = pdf[index].render(scale=dpi / 72).to_pil().convert("L")
        top, bottom = int(geo.top * per_mm), int(geo.bottom * per_mm)
        left, right = int(geo.left * per_mm), int(geo.right * per_mm)
        low = top
        for row in range(top, min(bottom, image.height)):
            if image.crop((left, row, right, row + 1)).getextrema()[0] < 235:
                low = row
        fills.append((low - top) / (bottom - top))
    pdf.close()
    return fills


CASES = _cases()


@pytest.mark.parametrize("game,lang,paper,ink,other", _cases(padding=True))
def test_the_booklet_fills_a_multiple_of_four_pages_with_no_padding_page(game, lang, paper, ink, other):
    _, laid, data = _booklet(game, lang, paper, ink, other)
    pdf = pypdfium2.PdfDocument(data)
    count = len(pdf)
    texts = [pdf[n].get_textpage().get_text_range() for n in range(count)]
    pdf.close()
    assert count == len(laid) and count % 4 == 0, f"{count} pages"
    assert all(pair is not None for side in booklet_order(count) for pair in side)
    assert not [lp for lp in laid if lp.kinds == ["notes"]], "a notes page pads the booklet"
    notes = LANGUAGES[lang].cover["notes"]
    for number, text in enumerate(texts, 1):
        assert text.split()[:1] != [notes], f"page {number} is a notes page"
        assert len(text.split()) >= 10, f"page {number} is (nearly) blank"


@pytest.mark.parametrize("game,lang,paper,ink,other", CASES)
def test_no_page_but_the_last_is_under_a_third_full(game, lang, paper, ink, other):
    ctx, laid, data = _booklet(game, lang, paper, ink, other)
    fills = ink_fills(data, ctx)
    for number, fill in enumerate(fills[:-1], 1):
        assert fill >= MIN_FILL, f"page {number} is {fill:.0%} full"
    for number, (lp, fill) in enumerate(zip(laid, fills), 1):
        if lp.kinds not in (["cover"], ["quick-reference"], ["notes"]):
            assert abs(lp.fill - fill) < 0.05, f"page {number}: laid {lp.fill:.2f}, ink {fill:.2f}"


def test_the_ink_saver_booklet_keeps_its_blank_record_within_the_tint_a_page_allows():
    """Everest's player sheet follows its rules with --ink-saver too (drawn narrower, never
    narrower than a copy on its own sheet), and no tint on a booklet page covers more than
    INK_SAVER_TINT of it."""
    from generator.model.page import Rect, iter_shapes

    for paper in PAPERS:
        _, laid, _ = _booklet("everest", "en", paper, True, False)
        assert any("figure" in lp.kinds and lp.kinds[0] == "heading" for lp in laid[-3:-1]), paper
        for lp in laid:
            page = lp.page
            for shape, m in iter_shapes(page.shapes):
                if isinstance(shape, Rect) and shape.style.fill not in (None, "#ffffff"):
                    area = shape.w * shape.h * abs(m[0] * m[3] - m[1] * m[2])
                    assert area <= booklet.INK_SAVER_TINT * page.width * page.height, (paper, page.label)


SEEDS = range(1, 17)  # a seeded booklet's text follows its board (its worked examples): a spread of seeds


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_no_seed_of_a_seeded_kit_pads_its_booklet(lang, paper):
    for definition in load_all(lang=lang):
        if not definition.game["seeded"]:
            continue
        for seed in SEEDS:
            ctx = kit_context(definition, find_paper(paper), seed, frozenset(), Options(lang=lang))
            laid = booklet.laid_pages(definition.component("booklet"), ctx)
            assert len(laid) % 4 == 0
            assert not [lp for lp in laid if lp.kinds == ["notes"]], (
                f"{definition.id} seed {seed}: a notes page"
            )
