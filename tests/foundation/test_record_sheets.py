"""Record sheets agree with the referee: a move record's numbered rows (front and the back it goes
on to) hold the whole game up to the rules' turn limit; a back a sheet sends the player to is
printed, and the print guide and manifest.json say it is not blank; sheet notes are typeset rule
text, never markup or template code printed as it stands."""

from __future__ import annotations

import json
import os
import re

import pytest

from generator.components.kinds import context
from generator.components.specs import TableSheetSpec, TableSheetSpecBlocks
from generator.components.table_sheet import note_text
from generator.definitions.loader import find_definition
from generator.definitions.values import BUILTIN_GAMES, LAYOUTS_DIR
from generator.games import GAMES
from generator.model.page import Text, iter_shapes
from generator.printing.imposition import find_paper
from tests.conftest import build
from tests.pdf_reader import Page, open_pdf


def records(game: str, lang: str = "en") -> list[tuple[str, TableSheetSpecBlocks, int]]:
    """Return (component id, block, rows a whole game needs) of every move record of a game: a
    line for every turn up to the limit and for every claim the rules allow (a claim is a line of
    its own)."""
    definition = find_definition(game, LAYOUTS_DIR, lang)
    values = GAMES[definition.rules_id].text_values()
    lines = values["turn_limit"] + values.get("claim_limit", 0)
    found = []
    for spec in definition.components:
        if spec.kind != "table-sheet":
            continue
        for block in spec.typed(TableSheetSpec).blocks:
            if block.turns_per_row:
                found.append((spec.id, block, -(-lines // block.turns_per_row)))
    return found


def kit_folder(out: str, game: str) -> str:
    return os.path.join(out, next(f for f in os.listdir(out) if f.split("-seed")[0] == game))


def component_pages(folder: str, component: str) -> tuple[list[Page], dict]:
    """Return the kit.pdf pages of a component and the manifest."""
    manifest = json.load(open(os.path.join(folder, "manifest.json"), encoding="utf-8"))
    first, last = next(c["pages"] for c in manifest["kit"]["components"] if c["id"] == component)
    doc = open_pdf(os.path.join(folder, "kit.pdf"))
    return [doc[n - 1] for n in range(first, last + 1)], manifest


def test_every_game_with_a_referee_keeps_a_move_record():
    with_records = {g for g in BUILTIN_GAMES if records(g)}
    assert with_records == set(BUILTIN_GAMES) - {"verbal"}  # Verbal's six rounds are pre-printed


@pytest.mark.parametrize("game", sorted(g for g in BUILTIN_GAMES if g != "verbal"))
def test_the_rows_of_a_move_record_hold_the_whole_game(game, every_kit):
    out, paper = every_kit
    folder = kit_folder(out, game)
    for component, block, needed in records(game):
        pages, manifest = component_pages(folder, component)
        words = {w[4] for page in pages for w in page.get_text("words")}
        numbers = {int(w) for w in words if w.isdigit()}
        assert set(range(1, needed + 1)) <= numbers, (game, paper, max(numbers))
        front_rows = block.rows
        assert front_rows is not None
        front = pages[0].get_text()
        if front_rows < needed:
            # the front says where to go on, and the back is printed with the rows it lacks
            assert f"from {front_rows + 1}" in re.sub(r"\s+", " ", front), game
            assert len(pages) == 2 and pages[1].get_text("words"), (game, "back not printed")
            back = {int(w[4]) for w in pages[1].get_text("words") if w[4].isdigit()}
            assert set(range(front_rows + 1, needed + 1)) <= back, game
            sheet = next(s for s in manifest["kit"]["sheets"] if component in s["parts"])
            assert sheet["sides"] == "duplex", game
            guide = re.sub(r"\s+", " ", open_pdf(os.path.join(folder, "kit.pdf"))[0].get_text())
            title = next(c["title"] for c in manifest["kit"]["components"] if c["id"] == component)
            assert f"{title} (goes on on the back)" in guide, game
            assert f"The back of the {title} sheet is printed, not blank" in guide, game
        else:
            assert "Go on" not in front, game


def test_a_single_sided_kit_prints_the_rest_of_the_record_on_the_next_page(tmp_path):
    build(str(tmp_path), "centennial", formats=["pdf"], single_sided=True)
    folder = kit_folder(str(tmp_path), "centennial")
    ((component, block, needed),) = records("centennial")
    pages, _ = component_pages(folder, component)
    front = re.sub(r"\s+", " ", pages[0].get_text())
    assert f"Go on on the next page, numbering on from {(block.rows or 0) + 1}" in front
    assert len(pages) == 2 and str(needed) in pages[1].get_text().split()
    guide = re.sub(r"\s+", " ", open_pdf(os.path.join(folder, "kit.pdf"))[0].get_text())
    assert "(goes on on the next page)" in guide and "takes two pages" in guide


def test_the_centennial_record_writes_a_claim_on_a_line_of_its_own():
    # the notation makes a claim its own record line (P3 claims 4), so no column holds claims
    definition = find_definition("centennial", LAYOUTS_DIR, "en")
    ((_, block, _),) = records("centennial")
    headers = [c.header.lower() for c in block.columns]
    assert not any("claim" in h for h in headers)
    notes = " ".join(definition.component("record")["notes"])
    assert "claim gets its own line" in notes
    state = GAMES["centennial"].new_state(tags={"Players": "3"})
    assert GAMES["centennial"].move_per_line and state.parse_move("P3 claims 4") is not None


def test_a_two_player_centennial_record_has_a_line_for_every_throw_and_every_claim():
    # the rules: every claim moves its claimer one step and a counter makes each of its steps
    # once; the game ends when a counter has made them all, so the other has one to go at most
    rules = GAMES["centennial"]
    values = rules.text_values()
    assert values["claim_limit"] == values["steps"] + values["steps"] - 1
    ((_, block, needed),) = records("centennial")
    assert needed == values["turn_limit"] + values["claim_limit"]  # one line each, two players
    definition = find_definition("centennial", LAYOUTS_DIR, "en")
    ctx = context(definition, find_paper("a4"))
    from generator.components.table_sheet import back_drawing, rows_needed

    assert rows_needed(block, ctx) == needed
    back = back_drawing(definition.component("record"), ctx, 180.0, 260.0)
    assert back is not None
    numbers = {int(s.text) for s, _ in iter_shapes(back.shapes) if isinstance(s, Text) and s.text.isdigit()}
    assert set(range((block.rows or 0) + 1, needed + 1)) <= numbers


def test_no_two_player_centennial_game_makes_more_claims_than_the_record_budgets():
    """Random two-player games to their end (or the throw limit), claiming whenever a claim is
    open: the claims made never pass the rules' bound, and each moves its claimer one step."""
    from generator.foundation.seeding import Rng
    from generator.games.centennial import Claim

    rules = GAMES["centennial"]
    bound = rules.text_values()["claim_limit"]
    most = 0
    for game in range(40):
        rng = Rng(game, "centennial-claims")
        state = rules.new_state(tags={"Players": "2"})
        claims = throws = 0
        while not state.is_terminal():
            moves = state.legal_moves()
            claim = [m for m in moves if isinstance(m, Claim)]
            if claim:
                before = list(state.steps)
                state.apply_move(claim[0])
                who = rules.sides.index(claim[0].player)
                assert state.steps[who] == before[who] + 1
                claims += 1
            else:
                state.apply_move(state.random_move(rng))
                throws += 1
        assert claims <= sum(state.steps) <= bound
        assert throws <= rules.text_values()["turn_limit"]
        most = max(most, claims)
    assert most > 0, "no game made a claim: the test shows nothing"


MARKUP = re.compile(r"`|\*\*|\{\{|\{%|\}\}")


@pytest.mark.parametrize("game", sorted(BUILTIN_GAMES))
def test_sheet_notes_are_typeset_never_printed_as_markup(game, every_kit):
    out, paper = every_kit
    folder = kit_folder(out, game)
    definition = find_definition(game, LAYOUTS_DIR, "en")
    sheets = [s.id for s in definition.components if s.kind == "table-sheet"]
    assert sheets
    for component in sheets:
        pages, _ = component_pages(folder, component)
        text = " ".join(p.get_text() for p in pages)
        assert not MARKUP.search(text), (game, component, MARKUP.search(text))
        with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as handle:
            seed = json.load(handle)["seed"]
        ctx = context(definition, find_paper(paper), seed)
        spec = definition.component(component)
        notes = [note_text(spec, note, ctx, f"notes.{i}") for i, note in enumerate(spec["notes"])]
        codes = re.findall(r"`([^`]+)`", " ".join(notes))  # the notes' markup with its values filled in
        spans = [
            span
            for page in pages
            for block in page.get_text("dict")["blocks"]
            for line in block.get("lines", [])
            for span in line["spans"]
        ]
        for code in codes:  # code is set in the bold face, as in a booklet
            assert any(code in s["text"].replace("\u00a0", " ") and "Bold" in s["font"] for s in spans), code
