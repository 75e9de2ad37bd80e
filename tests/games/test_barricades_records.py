"""Barricades game records with known verdicts, replayed through the State API and through the
referee (tests/games/records/barricades-*.txt; each says what to expect in a '# expect:' line)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.games import find_rules
from tests.games.record_files import check_referee_verdict, play_record, read_record

RULES = find_rules("barricades")
RECORD_FILES = sorted((Path(__file__).parent / "records").glob("barricades-*.txt"))
_EXPECT = re.compile(r"(red wins|blue wins|draw), MacGuffins (\d+) to (\d+)$")


def test_there_are_records_of_every_kind() -> None:
    expects = [read_record(p)[2] for p in RECORD_FILES]
    for kind in ("red wins", "blue wins", "draw", "illegal move"):
        assert any(e.startswith(kind) for e in expects), kind


@pytest.mark.parametrize("path", RECORD_FILES, ids=lambda p: p.stem)
def test_record_replays_to_its_known_verdict(path: Path) -> None:
    _, outcome, expect = play_record(RULES, path)
    if outcome is None:
        return
    verdict, red, blue = _EXPECT.fullmatch(expect).groups()
    assert outcome.score == {"red": int(red), "blue": int(blue)}
    assert (outcome.draw and verdict == "draw") or verdict == f"{outcome.winner} wins"


@pytest.mark.parametrize("path", RECORD_FILES, ids=lambda p: p.stem)
def test_record_through_the_referee(path: Path) -> None:
    check_referee_verdict(path, full_reason=False)


def test_the_first_grenade_of_the_grenade_record_kills_red_soldiers() -> None:
    tags, tokens, _ = read_record(next(p for p in RECORD_FILES if p.stem == "barricades-grenades"))
    state = RULES.new_state(int(tags["Seed"]), frozenset(), tags)
    state.play(tokens[0])
    assert [state.piece_at(s) for s in ("d9", "e10", "f10")] == [None, None, None]
    assert len(state.pieces()) == 17
