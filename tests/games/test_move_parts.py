"""A move typed part by part (live play) is the move: in every game, each legal move's parts
(``part_str``), typed one after the other through ``parse_part``, leave exactly that move, and
what ``?`` lists for a part (``part_choices``) is what the moves still open allow."""

from __future__ import annotations

import pytest

from generator.bots import random_move
from generator.foundation.errors import IllegalMoveError, NotationError
from generator.foundation.seeding import Rng
from generator.games import GAMES
from generator.games.base import State


def _positions(game: str) -> list[State]:
    rules = GAMES[game]
    found = []
    rng = Rng(2, f"tests/move-parts/{game}")
    for seed in range(3):
        state = rules.new_state(seed + 1 if rules.takes_seed() else None)
        for ply in range(40):
            if state.is_terminal():
                break
            if ply % 13 == 0:
                found.append(state.copy())
            state.apply_move(random_move(state, rng))
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_parts_typed_in_turn_leave_the_move(game: str) -> None:
    rng = Rng(3, f"tests/move-parts/sample/{game}")
    for state in _positions(game):
        throw = state.random_chance(rng)
        moves = state.chance_moves(throw)
        for move in [moves[rng.below(len(moves))] for _ in range(6)]:
            among = None
            for stage in range(len(state.deciders())):
                if among is not None:
                    assert set(state.part_choices(stage, among)) == {state.part_str(m, stage) for m in among}
                among = state.parse_part(state.part_str(move, stage), stage, among)
                assert among == state.completions(move, stage + 1)
            assert among == [move]


@pytest.mark.parametrize("game", ["verbal", "push"])
def test_a_whole_move_is_not_a_part(game: str) -> None:
    state = GAMES[game].new_state(1 if GAMES[game].takes_seed() else None)
    move = random_move(state, Rng(1, "tests/move-parts/whole"))
    with pytest.raises((NotationError, IllegalMoveError)):
        state.parse_part(state.move_str(move), 0)
