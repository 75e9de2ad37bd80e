"""Every game with rules goes through the same checks (OpenSpiel-style conformance).

Random playouts from many seeds never crash and always end (the turn limit guarantees it); every
legal move passes ``check_move`` and applies; every printed move parses back to the same move and
no two legal moves print alike; a terminal state has no legal moves; ``copy()`` is independent; a
playout written as a record replays to the same outcome through the referee.
"""

from __future__ import annotations

from typing import Any

import pytest

from generator.games import GAMES as RULES_TABLE
from generator.games.base import GameRules, State
from generator.referee.record import record_str
from generator.referee.replay import replay, result_str
from generator.seeding import rng_for

SHORT_LIMIT = 24  # turn limit of most playouts, to keep the suite fast
SHORT_PLAYOUTS = 10
CHECKED_MOVES_PER_PLY = 40


GAMES = sorted(RULES_TABLE)


def _rules(game_id: str) -> GameRules:
    return RULES_TABLE[game_id]


def _variant_sets(rules: GameRules) -> list[frozenset[str]]:
    return [frozenset()] + [frozenset({v}) for v in rules.variants]


def _new(rules: GameRules, seed: int, variants: frozenset[str], limit: int | None) -> State:
    tags = {"TurnLimit": str(limit)} if limit else {}
    return rules.new_state(seed if rules.seeded else None, variants, tags)


def _snapshot(state: State) -> tuple[Any, ...]:
    terminal = state.is_terminal()
    return (
        state.text(),
        terminal,
        None if terminal else state.current_player(),
        sorted(state.move_str(m) for m in state.legal_moves()),
        state.outcome(),
    )


def _check_position(rules: GameRules, state: State, deep: bool, rng: Any) -> None:
    """Check one position: outcome consistency, unique printable moves, check/parse/apply of moves."""
    moves = state.legal_moves()
    outcome = state.outcome()
    assert isinstance(state.text(), str) and state.text()
    if state.is_terminal():
        assert moves == [], "a terminal state has legal moves"
        assert outcome.finished
        assert outcome.winner is None or outcome.winner in rules.sides
        assert not (outcome.draw and outcome.winner)
        return
    assert moves, "a state that is not terminal has no legal moves"
    assert not outcome.finished
    assert state.current_player() in rules.sides
    texts = [state.move_str(m) for m in moves]
    assert len(set(texts)) == len(texts), "two legal moves print alike"
    if not deep:
        return
    sample = list(range(len(moves)))
    if len(sample) > CHECKED_MOVES_PER_PLY:
        rng.shuffle(sample)
        sample = sample[:CHECKED_MOVES_PER_PLY]
    for i in sample:
        move, text = moves[i], texts[i]
        assert state.parse_move(text) == move, f"{text!r} does not parse back to the same move"
        state.check_move(move)
        other = state.copy()
        other.apply_move(move)


def _playout(
    rules: GameRules, seed: int, variants: frozenset[str], limit: int | None, deep: bool, deep_every: int = 1
) -> tuple[State, list[str]]:
    """Play random legal moves to the end; return the final state and the moves as written.

    With ``deep``, every ``deep_every``-th position also checks, parses and applies its moves."""
    rng = rng_for(seed, f"conformance/{rules.id}")
    state = _new(rules, seed, variants, limit)
    written: list[str] = []
    bound = 50 * (limit or rules.default_turn_limit) * max(2, len(rules.sides)) + 1000
    for ply in range(bound):
        _check_position(rules, state, deep and ply % deep_every == 0, rng)
        if state.is_terminal():
            return state, written
        moves = state.legal_moves()
        move = moves[rng.below(len(moves))]
        if ply % 7 == 3:  # copy() must be independent of the original
            before = _snapshot(state)
            other = state.copy()
            other.apply_move(move)
            assert _snapshot(state) == before, "applying a move to a copy changed the original"
        written.append(state.move_str(move))
        state.apply_move(move)
    raise AssertionError(f"no end after {bound} moves (seed {seed}, variants {sorted(variants)})")


@pytest.mark.parametrize("game_id", GAMES)
def test_random_playouts_end_and_every_move_is_consistent(game_id: str) -> None:
    rules = _rules(game_id)
    for variants in _variant_sets(rules):
        for seed in range(SHORT_PLAYOUTS):
            _playout(rules, seed, variants, SHORT_LIMIT, deep=seed < 2)


@pytest.mark.parametrize("game_id", GAMES)
def test_full_length_playouts_end_and_replay_through_the_referee(game_id: str) -> None:
    rules = _rules(game_id)
    for seed in (11, 12):
        variants = frozenset(rules.variants[:1]) if seed == 12 else frozenset()
        state, written = _playout(rules, seed, variants, None, deep=seed == 11, deep_every=5)
        assert state.outcome().finished
        tags = {"Game": rules.id}
        if variants:
            tags["Variant"] = ",".join(sorted(variants))
        if rules.seeded:
            tags["Seed"] = str(seed)
        result = result_str(rules, state.outcome())
        text = record_str(tags, written, result, rules.move_per_line, len(rules.sides))
        verdict = replay(text)
        assert verdict.error is None, f"replay of a random playout failed: {verdict.error}"
        assert verdict.ok and verdict.moves_checked == len(written)
        assert verdict.outcome == state.outcome() and verdict.position == state.text()


@pytest.mark.parametrize("game_id", GAMES)
def test_playouts_are_reproducible_from_the_seed(game_id: str) -> None:
    rules = _rules(game_id)
    first = _playout(rules, 5, frozenset(), SHORT_LIMIT, deep=False)[1]
    second = _playout(rules, 5, frozenset(), SHORT_LIMIT, deep=False)[1]
    assert first == second


@pytest.mark.parametrize("game_id", GAMES)
def test_random_move_when_offered_is_a_legal_move(game_id: str) -> None:
    rules = _rules(game_id)
    state = _new(rules, 3, frozenset(), SHORT_LIMIT)
    if not hasattr(state, "random_move"):
        pytest.skip("no random_move")
    rng = rng_for(3, "conformance/random_move")
    while not state.is_terminal():
        move = state.random_move(rng)
        assert move in state.legal_moves()
        state.apply_move(move)
