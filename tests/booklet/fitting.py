"""The booklets the fit tests read (tests/booklet/test_booklet_fit.py on A4, test_booklet_fit_paper.py
on every paper and print setting), laid out once a test process for both files: a kit's booklet
as set to fit is the same whichever file asks for it."""

from __future__ import annotations

import functools

from generator.booklet.layout import LaidPage
from generator.components import booklet
from generator.components.base import Context, Options
from generator.components.kinds import context as kit_context
from generator.definitions.loader import load_all
from generator.printing.imposition import find_paper
from tests.booklet.conftest import pdf_bytes


@functools.cache
def booklet_case(
    game: str, lang: str, paper: str, ink: bool, variants: bool, other_seed: bool
) -> tuple[Context, list[LaidPage], bytes]:
    """Return the kit's context, its laid-out booklet pages and the booklet's PDF: the game in a
    language on a paper, with --ink-saver or not, with all its variants or none, on its default
    seed or another (a seeded game, or one whose seed is optional, asked for the other seed)."""
    definition = next(d for d in load_all(lang=lang) if d.id == game)
    seed = None
    if definition.game["seeded"] or (other_seed and definition.game.get("seed_optional", False)):
        seed = definition.game["default_seed"] + (4 if other_seed else 0)
    chosen = frozenset(definition.game["variants"]) if variants else frozenset()
    ctx = kit_context(definition, find_paper(paper), seed, chosen, Options(lang=lang, ink_saver=ink))
    laid = booklet.laid_pages(definition.component("booklet"), ctx)
    return ctx, laid, pdf_bytes([lp.page for lp in laid])
