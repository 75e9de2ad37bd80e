"""No bot plays for the turn limit: in Aggression a successful attack is compulsory (rulings.md),
so the computer never attacks in vain while it has a successful attack, its games end on the board
rather than at the turn limit, and its search scores a game drawn at the turn limit for the side
ahead on the board, so that neither side gains by letting the clock run."""

from __future__ import annotations

from typing import Any

import pytest

from generator.bots import SearchBot, choose_move
from generator.bots.tactics import GreedyBot, playout_reward
from generator.foundation.seeding import Rng
from generator.games import GAMES
from generator.games.nine_mens_morris import NineMensMorrisState


@pytest.mark.parametrize("seed", [3, 6, 7, 9])
@pytest.mark.parametrize("other", ["search", "greedy"])
def test_aggression_is_played_out_on_the_board_not_to_the_turn_limit(seed: int, other: str) -> None:
    state = GAMES["aggression"].new_state(seed)
    search = SearchBot()
    bots: dict[str, Any] = {"black": search, "white": search if other == "search" else GreedyBot()}
    rng = Rng(seed, "stall")
    while not state.is_terminal():
        move = choose_move(state, bots, rng)
        if not state.claiming:
            successful = state.successful_attacks()
            assert not successful or move in successful, (
                f"{state.current_player()} attacked {state.move_str(move)} in vain with "
                f"{[state.move_str(m) for m in successful]} open\n{state.text()}"
            )
        state.apply_move(move)
    assert "turn limit" not in state.outcome().reason
    assert state.ply < state.limit


def test_a_draw_at_the_turn_limit_counts_for_the_side_ahead_on_the_board() -> None:
    state = NineMensMorrisState.from_position(
        {
            "a1": "white",
            "d1": "white",
            "g4": "white",
            "b4": "white",
            "a7": "black",
            "d7": "black",
            "f6": "black",
        },
        to_move="white",
        turns=9,
        limit=10,
    )
    state.play("g4-g7")
    outcome = state.outcome()
    assert outcome.finished and outcome.draw and "turn limit" in outcome.reason
    assert playout_reward(state, "white") == 1.0 and playout_reward(state, "black") == 0.0
