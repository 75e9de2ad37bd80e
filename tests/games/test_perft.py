"""Perft-style tables: the number of legal move sequences of each length from fixed positions.

``perft(state, d)`` counts the move sequences of length ``d`` (``perft(state, 1)`` is the number of
legal moves). The positions are each game's start and the positions reached by random playouts
from fixed seeds (``rng_for(seed, "perft/<game>")``, a fixed number of plies). A change to move
generation that changes any count fails here, naming the game, the position and the depth; when a
rule change is meant, the counts are worked out again and the table updated in the same commit.

Some counts follow from the rules by hand, and the table starts with them: Nine Men's Morris opens
with 24 placements, then 24*23 and 24*23*22 (no mill can close in three plies); Verbal has 15 pairs
of numbers, each with two takes (30), and every round the same 30; Aggression's first claim puts 1
to 100 troops on one of 20 cities (2000).
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from generator.games import find_rules
from generator.games.base import State
from generator.seeding import rng_for

#: (game, tags, variants, plies played from the start by the perft playout, counts at depth 1, 2, ...).
TABLE: list[tuple[str, Mapping[str, str], frozenset[str], int, tuple[int, ...]]] = [
    ("nine-mens-morris", {}, frozenset(), 0, (24, 552, 12144)),
    ("nine-mens-morris", {}, frozenset(), 12, (22, 410, 7189)),
    ("nine-mens-morris", {}, frozenset(), 30, (6, 74, 466)),
    ("nine-mens-morris", {}, frozenset({"flying"}), 45, (51, 257, 13287)),
    ("verbal", {}, frozenset(), 0, (30, 900, 27000)),
    ("verbal", {"Reverses": "A"}, frozenset({"odds-evens"}), 4, (30, 900)),
    ("aggression", {"Seed": "7"}, frozenset(), 0, (2000, 3800000)),
    ("aggression", {"Seed": "7"}, frozenset(), 8, (156, 1716)),
    ("aggression", {"Seed": "7"}, frozenset({"connected"}), 14, (7, 28, 188)),
    ("take-the-brain", {}, frozenset(), 0, (12, 144, 1943)),
    ("take-the-brain", {}, frozenset(), 20, (16, 314, 5892)),
    ("take-the-brain", {"Seed": "5"}, frozenset(), 10, (15, 315)),
    ("barricades", {"Seed": "4"}, frozenset(), 0, (274, 76038)),
    ("barricades", {"Seed": "4"}, frozenset(), 12, (33, 5566)),
    ("push", {"Seed": "1"}, frozenset(), 0, (3170,)),
    ("push", {"Seed": "3"}, frozenset(), 12, (427,)),
    ("push", {"Seed": "3"}, frozenset({"adjust"}), 50, (10939,)),
    ("centennial", {}, frozenset(), 0, (108, 11685)),
    ("centennial", {"Players": "3"}, frozenset(), 9, (119, 13712)),
    ("everest", {}, frozenset(), 0, (650, 422500)),
    ("everest", {"Players": "3"}, frozenset(), 15, (273, 106743)),
]


def position(game: str, tags: Mapping[str, str], variants: frozenset[str], plies: int) -> State:
    """Return the position after ``plies`` random legal moves drawn from the game's perft stream."""
    rules = find_rules(game)
    seed = int(tags["Seed"]) if "Seed" in tags else None
    state = rules.new_state(seed, variants, dict(tags))
    rng = rng_for(seed or 0, f"perft/{game}")
    for _ in range(plies):
        moves = state.legal_moves()
        assert moves, f"{game} ended before ply {plies}"
        state.apply_move(moves[rng.below(len(moves))])
    return state


def perft(state: State, depth: int) -> int:
    """Return the number of legal move sequences of length ``depth`` from the state."""
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = state.copy()
        child.apply_move(move)
        total += perft(child, depth - 1)
    return total


@pytest.mark.parametrize(
    ("game", "tags", "variants", "plies", "counts"),
    TABLE,
    ids=[
        f"{g}-{'-'.join(sorted(v)) or 'plain'}-{'-'.join(t.values()) or 'default'}-ply{p}"
        for g, t, v, p, _ in TABLE
    ],
)
def test_move_counts_from_fixed_positions(
    game: str, tags: Mapping[str, str], variants: frozenset[str], plies: int, counts: tuple[int, ...]
) -> None:
    state = position(game, tags, variants, plies)
    assert state.ply == plies and len(state.history) == plies
    found = tuple(perft(state, depth) for depth in range(1, len(counts) + 1))
    assert found == counts, f"{game} after {plies} plies: perft 1..{len(counts)} is {found}, pinned {counts}"


def test_every_game_has_a_table_row_and_the_start_position() -> None:
    from generator.games import GAMES

    starts = {game for game, _, _, plies, _ in TABLE if plies == 0}
    assert starts == set(GAMES)
    assert all(sum(1 for row in TABLE if row[0] == game) >= 2 for game in GAMES)
