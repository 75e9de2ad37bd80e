"""The base State: ply count, turn limit, history and the generic copy every game uses."""

from __future__ import annotations

from typing import Any

import pytest

from generator.games import GAMES
from generator.games.base import Outcome, State


class Counter(State):
    """A toy game: each move adds a number to a row; the board is shared, never changed."""

    __slots__ = ("board", "rows", "seen")
    SHARED = frozenset({"board"})

    def __init__(self, limit: int = 3) -> None:
        super().__init__(limit)
        self.board = [1, 2, 3]
        self.rows: dict[str, list[int]] = {"a": []}
        self.seen = {0}

    def current_player(self) -> str:
        return "a"

    def legal_moves(self) -> list[Any]:
        return [] if self.is_terminal() else [1, 2]

    def parse_move(self, text: str) -> Any:
        return int(text)

    def move_str(self, move: Any) -> str:
        return str(move)

    def check_move(self, move: Any) -> None:
        return None

    def _apply(self, move: Any) -> None:
        self.rows["a"].append(move * self.ply)
        self.seen.add(self.ply)

    def is_terminal(self) -> bool:
        return self.ply >= self.limit

    def outcome(self) -> Outcome:
        return Outcome(self.is_terminal())

    def text(self) -> str:
        return repr(self.rows)


def test_apply_move_counts_the_ply_and_records_the_history_before_the_game_sees_it() -> None:
    state = Counter()
    state.play("2")
    state.apply_move(1)
    assert state.ply == 2 and state.history == [2, 1] and state.rows["a"] == [2, 2]
    state.apply_move(1)
    assert state.is_terminal() and state.legal_moves() == []


def test_copy_shares_only_the_shared_attributes_and_copies_the_rest_deeply() -> None:
    state = Counter()
    state.apply_move(2)
    other = state.copy()
    assert type(other) is Counter and other.limit == 3 and other.ply == 1
    assert other.board is state.board
    assert other.rows == state.rows and other.rows["a"] is not state.rows["a"]
    other.apply_move(1)
    assert state.rows == {"a": [2]} and state.seen == {0, 1} and state.history == [2] and state.ply == 1
    assert other.rows == {"a": [2, 2]} and other.seen == {0, 1, 2} and other.history == [2, 1]


def test_by_default_the_side_to_move_makes_the_whole_move() -> None:
    state = Counter()
    assert state.deciders() == ("a",)
    assert [state.move_parts(m) for m in state.legal_moves()] == [(1,), (2,)]


def test_a_verbal_round_and_a_push_turn_are_two_players_choices() -> None:
    verbal = GAMES["verbal"].new_state()
    assert verbal.deciders() == ("a", "b")
    assert verbal.move_parts(verbal.parse_move("2/5:5")) == ((2, 5), 5)
    verbal.play("2/5:5")
    assert verbal.deciders() == ("b", "a")
    push = GAMES["push"].new_state()
    assert push.deciders() == ("south", "west") and push.current_player() == "west"
    turn = next(m for m in push.legal_moves() if m.pushes)
    assert push.move_parts(turn) == (turn.cells, turn.pushes)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_starts_at_ply_0_with_its_turn_limit(game_id: str) -> None:
    rules = GAMES[game_id]
    state = rules.new_state(3 if rules.seeded else None, frozenset(), {"TurnLimit": "17"})
    assert state.ply == 0 and state.history == [] and state.limit == 17
    default = rules.new_state(3 if rules.seeded else None)
    assert default.limit == rules.default_turn_limit
    assert "copy" not in type(state).__dict__, "games use the base State's copy()"
