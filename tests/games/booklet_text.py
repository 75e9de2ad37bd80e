"""The text of a game's rule booklet as printed: every line of every page, joined with single spaces."""

from __future__ import annotations

from generator.components.base import Options
from generator.components.booklet import booklet_pages
from generator.components.kinds import context
from generator.definitions.loader import find_definition
from generator.model.page import Text, iter_shapes
from generator.printing.imposition import find_paper


def booklet_text(game: str, lang: str = "en", variants: frozenset[str] = frozenset()) -> str:
    """Return the printed words of a game's booklet in one string (lines joined by spaces)."""
    definition = find_definition(game, lang=lang)
    seed = definition.game["default_seed"] if definition.game["seeded"] else None
    ctx = context(definition, find_paper("a4"), seed, variants, Options(lang=lang))
    pages = booklet_pages(definition.component("booklet"), ctx)
    words = [s.text for page in pages for s, _ in iter_shapes(page.shapes) if isinstance(s, Text)]
    return " ".join(" ".join(words).split())
