"""The kits and booklets issue 33 has still to write, in one place: each entry makes its tests an
expected failure (``xfail(strict=True)``), so the entry must go the moment the text is written (a
test that passes while marked fails the suite). Empty sets: every kit in every language."""

from __future__ import annotations

import pytest

#: (game, language) kits with no booklet in that language yet
NOT_WRITTEN: set[tuple[str, str]] = set()

#: (game, language) booklets whose Clarifications do not yet mark every point of rulings.md
UNMARKED: set[tuple[str, str]] = set()


#: (game, language) booklets whose text does not yet fill a whole number of sheets (notes pages
#: pad it); their page-count checks are expected failures
UNFITTED: set[tuple[str, str]] = set()
#: of those, the booklets whose padding puts their Clarifications more than four pages from the back
UNFITTED_LATE: set[tuple[str, str]] = set()


def unfitted(request: pytest.FixtureRequest, game: str, lang: str, todo: set[tuple[str, str]]) -> None:
    """Mark a running test an expected failure (strict) while its booklet is in ``todo``."""
    if (game, lang) in todo:
        request.applymarker(pytest.mark.xfail(strict=True, reason=f"not fitted yet: {game} in {lang}"))


def param(game: str, lang: str, todo: set[tuple[str, str]], why: str) -> object:
    """Return a pytest parameter for a kit, an expected failure while it is in ``todo``."""
    marks = (
        [pytest.mark.xfail(strict=True, reason=f"{why}: {game} in {lang}")] if (game, lang) in todo else []
    )
    return pytest.param(game, lang, marks=marks, id=f"{game}-{lang}")
