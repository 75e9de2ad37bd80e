"""The text of a game's rule booklet as printed: every line of every page, joined with single spaces."""

from __future__ import annotations

from generator.components import Context, Options
from generator.components.booklet import booklet_pages
from generator.definitions import load_all
from generator.imposition import find_paper
from generator.page import Text, iter_shapes


def booklet_text(game: str, lang: str = "en", variants: frozenset[str] = frozenset()) -> str:
    """Return the printed words of a game's booklet in one string (lines joined by spaces)."""
    definition = next(d for d in load_all(lang=lang) if d.id == game)
    ctx = Context(definition, find_paper("a4"), options=Options(lang=lang))
    if definition.game["seeded"]:
        ctx.seed = definition.game["default_seed"]
    if variants:
        ctx.variants = variants
    pages = booklet_pages(definition.component("booklet"), ctx)
    words = [s.text for page in pages for s, _ in iter_shapes(page.shapes) if isinstance(s, Text)]
    return " ".join(" ".join(words).split())
