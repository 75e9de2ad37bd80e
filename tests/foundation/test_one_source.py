"""A rule fact the kit states in several places comes from one value: change the turn limit, or
the unit it counts in, in the rules module and every text of every kit (booklet, quick reference,
record sheets, print guide, in each language) states the new one and none the old one; the
referee's message at the limit names the same unit."""

from __future__ import annotations

import atexit
import dataclasses
import functools
import json
import os
import re
import shutil
import tempfile

import pytest

from generator.booklet.template import languages
from generator.components.base import Options
from generator.definitions.loader import find_definition
from generator.definitions.values import BUILTIN_GAMES, LAYOUTS_DIR
from generator.foundation.languages import LANGUAGES
from generator.foundation.seeding import rng_for
from generator.games import GAMES
from generator.kits.kit import build_kit
from generator.kits.plan import kit_plan
from tests.pdf_reader import open_pdf

CHANGED = 173  # a turn limit no kit prints otherwise


def kit_texts(game: str, lang: str, out: str) -> dict[str, str]:
    """Return the text of every component of a built kit, read back from kit.pdf by the pages the
    manifest gives each, white space run together."""
    definition = find_definition(game, LAYOUTS_DIR, lang)
    kit = kit_plan(definition, out, formats=("pdf",), options=Options(lang=lang))
    build_kit(kit)
    folder = os.path.join(out, os.listdir(out)[0])
    manifest = json.load(open(os.path.join(folder, "manifest.json"), encoding="utf-8"))
    doc = open_pdf(os.path.join(folder, "kit.pdf"))
    texts: dict[str, str] = {}
    for component in manifest["kit"]["components"]:
        first, last = component["pages"]
        text = " ".join(doc[n - 1].get_text() for n in range(first, last + 1))
        texts[component["id"]] = re.sub(r"\s+", " ", text)
    return texts


@functools.cache
def texts_as_built(game: str, lang: str) -> dict[str, str]:
    """Return kit_texts of a kit built as the definition and rules module stand (once a process: both
    tests compare a changed build against it)."""
    out = tempfile.mkdtemp(prefix="pnp-one-source-")
    atexit.register(shutil.rmtree, out, True)
    return kit_texts(game, lang, out)


def stated(text: str, limit: int, units: list[str]) -> int:
    """Return how often a text states a number of the given unit words ('200 turns'); a no-break
    space counts as a space (French keeps "tours de table" on one line with them)."""
    text = re.sub(r"[\s\u00a0]+", " ", text)
    words = [w.replace("\u00a0", " ") for w in units]
    return sum(len(re.findall(rf"\b{limit} {re.escape(word)}\b(?! de table)", text)) for word in words)


def unit_words(unit: str) -> list[str]:
    """Return the words of a unit in every language, singular and plural."""
    return sorted({w for lang in LANGUAGES.values() for w in lang.units[unit]}, key=len, reverse=True)


def kit_cases() -> list[tuple[str, str]]:
    return [(g, lang) for g in BUILTIN_GAMES for lang in languages(find_definition(g, LAYOUTS_DIR, "en"))]


def limit_units(rules) -> list[str]:
    values = rules.text_values()
    return [values["turn_unit"]] + ([values["round_unit"]] if "round_unit" in values else [])


def _stating_ids(game: str, lang: str) -> list[str]:
    """Return the components that must state the turn limit: the booklet and the move records."""
    definition = find_definition(game, LAYOUTS_DIR, lang)
    ids = []
    for spec in definition.components:
        if spec.kind == "booklet" and game != "verbal":  # Verbal always ends after six rounds
            ids.append(spec.id)
        if spec.kind == "table-sheet" and any(b["turns_per_row"] for b in spec["blocks"]):
            ids.append(spec.id)
    return ids


@pytest.mark.parametrize("game,lang", kit_cases())
def test_every_text_of_the_kit_states_the_turn_limit_of_the_rules_module(game, lang, tmp_path, monkeypatch):
    definition = find_definition(game, LAYOUTS_DIR, lang)
    rules = GAMES[definition.rules_id]
    default = rules.default_turn_limit
    words = [w for unit in limit_units(rules) for w in unit_words(unit)]
    before = texts_as_built(game, lang)
    monkeypatch.setitem(GAMES, rules.id, dataclasses.replace(rules, default_turn_limit=CHANGED))
    after = kit_texts(game, lang, str(tmp_path / "after"))
    assert sorted(before) == sorted(after)
    for component in _stating_ids(game, lang):
        assert stated(before[component], default, words), (component, "states no turn limit")
    for component, text in after.items():
        assert stated(text, default, words) == 0, (component, "still states the old limit")
        assert stated(text, CHANGED, words) == stated(before[component], default, words), component


@pytest.mark.parametrize("game,lang", kit_cases())
def test_every_text_of_the_kit_names_the_unit_the_limit_counts_in(game, lang, tmp_path, monkeypatch):
    definition = find_definition(game, LAYOUTS_DIR, lang)
    rules = GAMES[definition.rules_id]
    limit = rules.default_turn_limit
    old = rules.turn_unit
    new = "round" if old != "round" else "turn"
    if "round_unit" in rules.text_values():
        new = "turn"  # the dice games' round unit stays; their two-player unit changes
    before = texts_as_built(game, lang)
    monkeypatch.setitem(GAMES, rules.id, dataclasses.replace(rules, turn_unit=new))
    after = kit_texts(game, lang, str(tmp_path / "after"))
    for component, text in after.items():
        was = stated(before[component], limit, unit_words(old))
        assert stated(text, limit, unit_words(old)) == 0, component
        assert stated(text, limit, unit_words(new)) >= was, (component, was)
    for component in _stating_ids(game, lang):
        assert stated(after[component], limit, unit_words(new)), component


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_referee_names_the_same_unit_when_the_limit_ends_a_game(game):
    rules = GAMES[game]
    tags = {"TurnLimit": "3"}
    if "Players" in rules.extra_tags:
        tags["Players"] = "2"
    state = rules.new_state(seed=1 if rules.takes_seed() else None, tags=tags)
    rng = rng_for(7, f"one-source/{game}")
    for _ in range(200):
        if state.is_terminal():
            break
        chance = state.random_chance(rng)
        state.apply_move(
            state.random_chance_move(chance, rng) if chance is not None else state.random_move(rng)
        )
    outcome = state.outcome()
    assert outcome.finished and outcome.draw  # three turns win no game: the limit ends it
    many = LANGUAGES["en"].units[rules.turn_unit][1]
    assert "limit" in outcome.reason and f"3 {many}" in outcome.reason, outcome.reason
