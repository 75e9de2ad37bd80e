"""The kits and booklets issue 33 has still to write, in one place: each entry makes its tests an
expected failure (``xfail(strict=True)``), so the entry must go the moment the text is written (a
test that passes while marked fails the suite). Empty sets: every kit in every language."""

from __future__ import annotations

import pytest

#: (game, language) kits with no booklet in that language yet
NOT_WRITTEN = {
    ("barricades", "fr"),
    ("push", "fr"),
}

#: (game, language) booklets whose Clarifications do not yet mark every point of rulings.md
UNMARKED: set[tuple[str, str]] = {
    ("aggression", "en"),
    ("barricades", "en"),
    ("centennial", "en"),
    ("centennial", "fr"),
    ("everest", "en"),
    ("everest", "fr"),
    ("nine-mens-morris", "en"),
    ("push", "en"),
    ("take-the-brain", "en"),
    ("verbal", "en"),
}


def param(game: str, lang: str, todo: set[tuple[str, str]], why: str) -> object:
    """Return a pytest parameter for a kit, an expected failure while it is in ``todo``."""
    marks = (
        [pytest.mark.xfail(strict=True, reason=f"{why}: {game} in {lang}")] if (game, lang) in todo else []
    )
    return pytest.param(game, lang, marks=marks, id=f"{game}-{lang}")
