"""A hex game's rules module is as short as a square one: a whole game (two scouts race across a
7 x 5 map of flat-top hexes, lakes are closed) written on the game interface with
``generator.games.hexes`` doing every coordinate, and played through it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from generator.foundation.errors import IllegalMoveError, NotationError
from generator.games.base import GameRules, Outcome, State
from generator.games.hexes import HexGrid

GRID = HexGrid.rectangle(7, 5)  # names 0101 to 0705, as the map prints them
LAKES = frozenset(GRID.parse(n) for n in ("0303", "0403", "0304"))
HOMES = {"gold": GRID.parse("0101"), "blue": GRID.parse("0705")}
GOALS = {"gold": HOMES["blue"], "blue": HOMES["gold"]}


@dataclass(frozen=True)
class Step:
    """A scout's step to a neighbouring hex, written as the hex's name."""

    to: tuple[int, int]


class ScoutState(State):
    def __init__(self) -> None:
        super().__init__(limit=200)
        self.at = dict(HOMES)
        self.turn = "gold"

    def current_player(self) -> str:
        return self.turn

    def legal_moves(self) -> list[Step]:
        if self.is_terminal():
            return []
        taken = set(self.at.values()) | LAKES
        return [Step(h) for h in GRID.neighbours(self.at[self.turn]) if h not in taken]

    def parse_move(self, text: str) -> Step:
        return Step(GRID.parse(text))

    def move_str(self, move: Step) -> str:
        return GRID.name(move.to)

    def check_move(self, move: Step) -> None:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{GRID.name(move.to)} is not a free hex next to the {self.turn} scout")

    def _apply(self, move: Step) -> None:
        self.at[self.turn] = move.to
        self.turn = "blue" if self.turn == "gold" else "gold"

    def is_terminal(self) -> bool:
        return any(self.at[side] == GOALS[side] for side in self.at)

    def outcome(self) -> Outcome:
        winners = [side for side in self.at if self.at[side] == GOALS[side]]
        return Outcome(bool(winners), winners[0] if winners else None)

    def text(self) -> str:
        return " ".join(f"{side}:{GRID.name(h)}" for side, h in sorted(self.at.items()))


@dataclass(frozen=True)
class ScoutRules(GameRules):
    def new_state(self, seed=None, variants=frozenset(), tags=None) -> ScoutState:
        return ScoutState()


RULES = ScoutRules("scouts", "Scouts", ("gold", "blue"))


def test_a_hex_game_plays_through_the_game_interface():
    state = RULES.new_state()
    assert sorted(state.move_str(m) for m in state.legal_moves()) == ["0102", "0201"]
    for text in ("0201", "0605", "0302", "0604"):
        state.play(text)
    assert state.text() == "blue:0604 gold:0302"
    with pytest.raises(IllegalMoveError):
        state.play("0303")  # a lake
    with pytest.raises(NotationError):
        state.play("0903")  # off the map
    for text in ("0402", "0605", "0503", "0604", "0603", "0605", "0704"):
        state.play(text)
    assert not state.is_terminal()
    state.play("0604")
    state.play("0705")  # gold reaches blue's home
    assert state.is_terminal() and state.outcome().winner == "gold"
    assert state.legal_moves() == []


def test_every_legal_step_goes_to_a_free_neighbour_over_random_games():
    from generator.foundation.seeding import rng_for

    for seed in range(20):
        rng = rng_for(seed, "scouts")
        state = RULES.new_state()
        for _ in range(200):
            moves = state.legal_moves()
            if not moves:
                break
            here = state.at[state.current_player()]
            move = rng.choice(moves)
            assert GRID.distance(here, move.to) == 1 and move.to not in LAKES
            assert state.parse_move(state.move_str(move)) == move
            state.apply_move(move)
