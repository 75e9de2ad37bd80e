"""Records pnp writes number the moves by whose turn it was, in every game, and read back as played.

The rule (README, "Game records"): in a two-sided game whose moves have no spaces, a move of the
side that moved first starts a numbered line ``N. move``; the other side's move follows it on the
same line, or, when it does not follow a move of the first side, starts a line ``N... move``.
Numbers count up by one from 1. Games whose moves have spaces write one move a line, unnumbered.
The records here are random playouts written by live play's own writer (``LiveGame.record``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.bots import random_move
from generator.foundation.seeding import Rng
from generator.games import GAMES, find_rules
from generator.referee.live import LiveGame
from generator.referee.replay import setup
from tests.referee.test_referee_cli import invoke

_NUMBERED_LINE = re.compile(r"^([0-9]+)(\.\.\.|\.) (\S+)(?: (\S+))?$")


def _playout(game: str, seed: int) -> LiveGame:
    """Return a finished random game as live play keeps it: tags, moves, the side of each move."""
    rules = find_rules(game)
    tags = {"Game": game}
    if rules.takes_seed():
        tags["Seed"] = str(seed)
    state = rules.new_state(seed if rules.takes_seed() else None, frozenset(), tags)
    live = LiveGame(rules, tags, sides=state.playing_sides())
    rng = Rng(seed, f"tests/record-numbering/{game}")
    while not state.is_terminal():
        move = random_move(state, rng)
        live.moves.append(state.move_str(move))
        live.movers.append(state.current_player())
        state.apply_move(move)
    live.outcome = state.outcome()
    return live


def _sides_from_numbers(text: str, first: str, other: str) -> list[tuple[str, str]]:
    """Return (move, side) for each move of a numbered record, the side read from the numbering."""
    body = [line for line in text.splitlines() if line and not line.startswith("[")]
    found: list[tuple[str, str]] = []
    expected_number = 1
    for line in body:
        if line in ("1-0", "0-1", "1/2-1/2", "*"):
            continue
        match = _NUMBERED_LINE.match(line)
        assert match, f"not a numbered line: {line!r}"
        number, dots, one, two = match.groups()
        assert int(number) == expected_number, f"line {line!r}: expected number {expected_number}"
        expected_number += 1
        if dots == ".":
            found.append((one, first))
            if two is not None:
                found.append((two, other))
        else:
            assert two is None, f"{line!r}: a line N... holds one move"
            found.append((one, other))
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_playouts_read_back_as_played_with_numbers_following_the_turn(game: str) -> None:
    rules = find_rules(game)
    twice = 0
    for seed in range(8):
        live = _playout(game, seed)
        text = live.record()
        result = invoke("-", stdin=text.encode("utf-8"))
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith(f"all {len(live.moves)} move") and "agrees" in result.stdout
        # replayed move by move: the same moves, each made by the same side
        _, record, state, _, _ = setup(text)
        assert [t.text for t in record.moves] == live.moves
        for token, mover in zip(record.moves, live.movers):
            assert state.current_player() == mover
            state.play(token.text)
        if not rules.move_per_line and len(rules.sides) == 2:
            first = live.movers[0]
            other = next(s for s in rules.sides if s != first)
            assert _sides_from_numbers(text, first, other) == list(zip(live.moves, live.movers))
        else:
            body = [ln for ln in text.splitlines() if ln and not ln.startswith("[")]
            assert [ln for ln in body if ln not in ("1-0", "0-1", "1/2-1/2", "*")] == live.moves
        twice += sum(1 for a, b in zip(live.movers, live.movers[1:]) if a == b)
    if game == "aggression":
        assert twice, "no Aggression playout had a side moving twice in a row: the test shows nothing"


def test_black_claiming_last_and_attacking_first_starts_a_new_line(tmp_path: Path) -> None:
    # Seed 7: Black's M=55 ends claiming and Black attacks first (xG); White answers xM.
    target = tmp_path / "game.txt"
    moves = "A=20 G=50 C=25 H=50 M=55 xG xM xH".split()
    result = invoke(
        "--play", "aggression", "--seed", "7", "--save", str(target), stdin="\n".join(moves) + "\n"
    )
    assert result.exit_code == 0, result.output
    text = target.read_text()
    assert "1. A=20 G=50\n2. C=25 H=50\n3. M=55\n4. xG xM\n5. xH\n1-0\n" in text
    checked = invoke(str(target))
    assert checked.exit_code == 0 and "all 8 moves legal" in checked.stdout


def test_the_reader_accepts_a_continuation_numbered_with_dots() -> None:
    text = (
        '[Game "aggression"]\n[Seed "7"]\n1. A=20 G=50\n2. C=25 H=50\n3. M=55\n4. xG\n4... xM\n5. xH\n1-0\n'
    )
    result = invoke("-", stdin=text.encode("utf-8"))
    assert result.exit_code == 0, result.output
    assert "all 8 moves legal" in result.stdout and "claimed result 1-0: agrees" in result.stdout
