"""Every game's booklet, in every language it has, renders and ends with its Clarifications."""

from __future__ import annotations

import pytest

from generator.booklet.markup import Heading, plain_text
from generator.booklet.template import languages
from generator.components.base import Options
from generator.components.booklet import booklet_source, laid_pages
from generator.components.kinds import context
from generator.definitions.loader import load_all
from generator.model.page import Text, iter_shapes
from generator.printing.imposition import find_paper
from tests.languages_todo import UNFITTED_LATE, unfitted

HEADINGS = {"en": "Clarifications", "fr": "Précisions", "it": "Chiarimenti"}
CASES = [(d.id, lang) for d in load_all() for lang in languages(d)]


@pytest.mark.parametrize("game,lang", CASES)
def test_booklet_renders_and_ends_with_its_clarifications(request, game, lang):
    unfitted(request, game, lang, UNFITTED_LATE)
    definition = next(d for d in load_all(lang=lang) if d.id == game)
    ctx = context(definition, find_paper("a4"), options=Options(lang=lang))
    if definition.game["seeded"]:
        ctx.seed = definition.game["default_seed"]
    spec = definition.component("booklet")
    laid = laid_pages(spec, ctx)
    assert len(laid) % 4 == 0, "a saddle-stitched booklet has a multiple of four pages"
    # pages that fill the booklet up (notes, only when it cannot be set to fit) come last
    filling = [lp.kinds for lp in laid if lp.kinds in (["notes"], ["quick-reference"])]
    assert [lp.kinds for lp in laid[len(laid) - len(filling) :]] == filling
    assert filling.count(["quick-reference"]) <= 1
    texts = [[s.text for s, _ in iter_shapes(lp.page.shapes) if isinstance(s, Text)] for lp in laid]
    assert len(laid) >= 4
    # the rules' sections in the template's order, the Clarifications last of them
    document = booklet_source(spec, ctx).document
    sections = [plain_text(b.runs) for b in document.blocks if isinstance(b, Heading) and b.level == 1]
    assert sections[-1] == HEADINGS[lang]
    found = [next(i for i, page in enumerate(texts) if title in page) for title in sections]
    assert found == sorted(found)
    assert found[-1] >= len(laid) - 4, "the Clarifications close the rules, near the end"


def test_every_game_has_an_english_booklet_and_its_declared_languages():
    for definition in load_all():
        assert "en" in languages(definition)
        assert set(definition.game["languages"]) <= set(languages(definition)), definition.id
