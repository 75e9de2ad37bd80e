"""What Aggression's printed aids say agrees with the referee (rulings.md, Aggression), read back
from the built kit with and without the ``connected`` variant:

- claiming ends when every city is claimed or *both* players have placed all their troops;
- a player who has a successful attack must make one; only without one does a player pass;
- every city held counts in the final tally, whatever the variant (the referee counts them all)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import build
from tests.pdf_reader import open_pdf


def _pages(folder: Path) -> list[str]:
    kit = next(folder.glob("aggression*/kit.pdf"))
    with open_pdf(kit) as pdf:
        return [" ".join(page.get_text().split()) for page in pdf]


@pytest.fixture(scope="module", params=[[], ["connected"]], ids=["plain", "connected"])
def kit(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[list[str], list[str]]:
    """Return the variants a kit is built with and the text of its kit.pdf, page by page."""
    out = tmp_path_factory.mktemp("aggression")
    build(str(out), "aggression", variants=request.param, formats=["pdf"], parts=False)  # kit.pdf alone
    return request.param, _pages(out)


@pytest.fixture
def kit_text(kit: tuple[list[str], list[str]]) -> list[str]:
    return kit[1]


def test_the_quick_reference_says_when_attacks_begin_and_that_attacking_is_compulsory(
    kit_text: list[str],
) -> None:
    card = next(page for page in kit_text if "Aggression: quick reference" in page)
    assert re.search(r"every city is claimed, or both players have placed all their troops", card)
    assert "all troops placed" not in card
    assert re.search(r"If an attack of yours would succeed, you must make one", card)


def test_no_aid_says_that_only_connected_cities_count(kit_text: list[str]) -> None:
    for page in kit_text:
        assert not re.search(r"only cities joined[^.]*count", page), page[:200]
    card = next(page for page in kit_text if "Aggression: quick reference" in page)
    if "Connected:" in card:
        assert "every city you hold counts at the end" in card


def test_the_booklet_clarifies_the_compulsory_attack(kit_text: list[str]) -> None:
    text = " ".join(kit_text)
    clarifications = text[text.index("Clarifications") :]
    assert "Attacking is compulsory." in clarifications
    assert "nobody passes" not in text


def test_the_card_notes_the_connected_variant_only_in_a_kit_built_with_it(
    kit: tuple[list[str], list[str]],
) -> None:
    variants, pages = kit
    cards = [page for page in pages if "Aggression: quick reference" in page]
    assert cards
    for card in cards:
        assert ("Connected:" in card) == ("connected" in variants), card[-300:]
    # the booklet documents the variant in every kit, built with it or not
    assert any("Variant: connected" in page for page in pages)
