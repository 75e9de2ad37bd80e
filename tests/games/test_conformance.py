"""Every game with rules goes through the same checks (OpenSpiel-style conformance).

Random playouts from many seeds never crash and always end (the turn limit guarantees it); every
legal move passes ``check_move`` and applies; every printed move parses back to the same move and
no two legal moves print alike; a terminal state has no legal moves; ``copy()`` is independent; a
playout written as a record replays to the same outcome through the referee.

Both directions: at positions from playouts with fixed seeds, every text of the notation's space
(``notation_space``) that parses is accepted by ``check_move`` exactly when ``legal_moves`` holds
the move it names, so ``legal_moves`` and ``check_move``, the two places a game writes each rule,
cannot drift apart. Aliases (a burst written at a square, dice in another order) parse to the move
they name. A move splits into one choice for each side that decides part of it (``deciders``).
"""

from __future__ import annotations

from typing import Any

import pytest

from generator.foundation.errors import IllegalMoveError, NotationError
from generator.foundation.seeding import rng_for
from generator.games import GAMES as RULES_TABLE
from generator.games.base import GameRules, State
from generator.referee.record import record_str
from generator.referee.replay import replay, result_str
from tests.games.notation_space import candidates

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
    _check_decisions(rules, state, moves)
    throw = state.random_chance(rng_for(state.ply, "conformance/chance"))
    if throw is not None:  # a game's own chance_moves lists what the base's filter would
        allowed = state.chance_moves(throw)
        assert allowed == [m for m in moves if state.chance_of(m) in (None, throw)]
        for k in range(3):  # and its random_chance_move draws what a choice from that list would
            one, two = rng_for(k, "conformance/draw"), rng_for(k, "conformance/draw")
            assert state.random_chance_move(throw, one) == two.choice(allowed)
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


def _check_decisions(rules: GameRules, state: State, moves: list[Any]) -> None:
    """Every legal move splits into one choice per decider, and the dice and the choices name
    the move: no two moves with the same dice have the same choices."""
    deciders = state.deciders()
    assert deciders and all(side in rules.sides for side in deciders)
    assert state.current_player() in deciders
    seen: set[tuple[Any, ...]] = set()
    for move in moves:
        parts = state.move_parts(move)
        assert len(parts) == len(deciders), f"{state.move_str(move)!r} has {len(parts)} parts"
        key = (state.chance_of(move), *parts)
        assert key not in seen, f"{state.move_str(move)!r}: another move has the same dice and choices"
        seen.add(key)


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
            assert len(other.history) == len(state.history) + 1 and other.ply == state.ply + 1
        written.append(state.move_str(move))
        state.apply_move(move)
        # The base keeps the ply count and the history for every game.
        assert state.ply == len(written) == len(state.history) and state.history[-1] is move
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


TWO_WAY_SEEDS = (1, 2, 3)
TWO_WAY_POSITIONS = 4  # positions checked per playout, spread over the game


def _two_way_positions(rules: GameRules, seed: int, variants: frozenset[str]) -> list[State]:
    """Return positions of a random playout (fixed seed): the start for seed 1, then positions
    spread over the game at plies drawn from the seed."""
    rng = rng_for(seed, f"two-way/{rules.id}")
    state = _new(rules, seed, variants, None)
    seen: list[State] = [state.copy()]
    while not state.is_terminal() and state.ply < 160:
        moves = state.legal_moves()
        state.apply_move(moves[rng.below(len(moves))])
        if not state.is_terminal():
            seen.append(state.copy())
    picked = sorted({rng.below(len(seen)) for _ in range(TWO_WAY_POSITIONS * 3)})
    step = max(1, len(picked) // TWO_WAY_POSITIONS)
    chosen = [seen[i] for i in picked[::step][:TWO_WAY_POSITIONS]]
    return ([seen[0]] if seed == 1 else []) + chosen


def _accepts(state: State, move: Any) -> bool:
    try:
        state.check_move(move)
    except IllegalMoveError:
        return False
    return True


def _check_both_ways(game_id: str, state: State, rng: Any) -> tuple[int, int]:
    """Check one position both ways; return (texts accepted, texts refused)."""
    legal = state.legal_moves()
    legal_set = set(legal)
    legal_texts = {state.move_str(m) for m in legal}
    refused_legal = [state.move_str(m) for m in legal if not _accepts(state, m)]
    assert not refused_legal, f"check_move refuses legal moves: {refused_legal[:5]}\n{state.text()}"
    accepted = refused = 0
    for text in candidates(game_id, state, rng):
        try:
            move = state.parse_move(text)
        except (NotationError, IllegalMoveError):
            assert text not in legal_texts, f"{text!r} prints a legal move but does not parse"
            refused += 1
            continue
        ok = _accepts(state, move)
        assert ok == (move in legal_set), (
            f"{text!r} ({move!r}): check_move {'accepts' if ok else 'refuses'} it but legal_moves "
            f"{'leaves it out' if ok else 'lists it'}\n{state.text()}"
        )
        accepted += ok
        refused += not ok
    return accepted, refused


@pytest.mark.parametrize("game_id", GAMES)
def test_check_move_refuses_exactly_the_moves_legal_moves_leaves_out(game_id: str) -> None:
    rules = _rules(game_id)
    accepted = refused = positions = 0
    for variants in _variant_sets(rules):
        seeds = TWO_WAY_SEEDS if not variants else TWO_WAY_SEEDS[:1]
        for seed in seeds:
            rng = rng_for(seed, f"two-way-candidates/{rules.id}")
            for state in _two_way_positions(rules, seed, variants):
                a, r = _check_both_ways(game_id, state, rng)
                accepted, refused, positions = accepted + a, refused + r, positions + 1
    # The space reaches both sides of the line in every game, at many positions.
    assert positions >= 10 and accepted >= positions and refused >= positions
