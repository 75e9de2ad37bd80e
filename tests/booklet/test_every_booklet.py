"""Every game's booklet, in every language it has, renders and ends with its Clarifications."""

from __future__ import annotations

import pytest

from generator.booklet.template import languages
from generator.components.base import Options
from generator.components.booklet import laid_pages
from generator.components.kinds import context
from generator.imposition import find_paper
from generator.loader import load_all
from generator.page import Text, iter_shapes

HEADINGS = {"en": "Clarifications", "fr": "Précisions", "it": "Chiarimenti"}
CASES = [(d.id, lang) for d in load_all() for lang in languages(d)]


@pytest.mark.parametrize("game,lang", CASES)
def test_booklet_renders_and_ends_with_its_clarifications(game, lang):
    definition = next(d for d in load_all(lang=lang) if d.id == game)
    ctx = context(definition, find_paper("a4"), options=Options(lang=lang))
    if definition.game["seeded"]:
        ctx.seed = definition.game["default_seed"]
    laid = laid_pages(definition.component("booklet"), ctx)
    assert len(laid) % 4 == 0, "a saddle-stitched booklet has a multiple of four pages"
    # the pages that fill the booklet up come last: notes, then the quick reference
    filling = [lp.kinds for lp in laid if lp.kinds in (["notes"], ["quick-reference"])]
    assert [lp.kinds for lp in laid[len(laid) - len(filling) :]] == filling
    assert filling.count(["quick-reference"]) == (1 if filling else 0)
    pages = [lp.page for lp in laid[: len(laid) - len(filling)]]
    texts = [[s.text for s, _ in iter_shapes(p.shapes) if isinstance(s, Text)] for p in pages]
    assert len(pages) >= 4
    headings = [i for i, page in enumerate(texts) if HEADINGS[lang] in page]
    assert headings and headings[-1] >= len(pages) - 2, "the Clarifications close the booklet"


def test_every_game_has_an_english_booklet_and_its_declared_languages():
    for definition in load_all():
        assert "en" in languages(definition)
        assert set(definition.game["languages"]) <= set(languages(definition)), definition.id
