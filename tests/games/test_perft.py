"""Perft-style tables: the number of legal move sequences of each length from fixed positions.

``perft(state, d)`` counts the move sequences of length ``d`` (``perft(state, 1)`` is the number of
legal moves). The positions are each game's start and the positions reached by random playouts
from fixed seeds (``rng_for(seed, "perft/<game>")``, a fixed number of plies). A change to move
generation that changes any count fails here, naming the game, the position and the depth; when a
rule change is meant, the counts are worked out again and the table updated in the same commit.

Some counts follow from the rules by hand, and the table starts with them: Nine Men's Morris opens
with 24 placements, then 24*23 and 24*23*22 (no mill can close in three plies); Verbal has 15 pairs
of numbers, each with two takes (30), and every round the same 30; Aggression's first claim puts 1
to 100 troops on one of 20 cities (2000). Aggression's counts are also worked out by a second
count written from the rules alone (``aggression_perft``: claims, passes and compulsory successful
attacks, from the cities' holders and troops and the map's roads), which must agree with the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import pytest

from generator.foundation.seeding import rng_for
from generator.games import find_rules
from generator.games.base import State

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
    ("aggression", {"Seed": "7"}, frozenset({"connected"}), 14, (2, 4, 4)),
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


# --- Aggression counted again from the rules (rulings.md), without the rules module's moves ------


@dataclass(frozen=True)
class _Aggression:
    """An Aggression position as the rulings describe it: holder and troops per city, troops in hand."""

    roads: frozenset[frozenset[str]]
    holder: Mapping[str, str | None]
    troops: Mapping[str, int]
    hand: Mapping[str, int]
    claiming: bool
    mover: str
    ply: int
    limit: int
    over: bool = False


def _other(side: str) -> str:
    return "white" if side == "black" else "black"


def _takes(p: _Aggression, city: str, side: str) -> bool:
    """An attack succeeds when the city's troops are fewer than the attacker's in the cities adjacent to it."""
    near = sum(p.troops[c] for c in p.holder if frozenset((c, city)) in p.roads and p.holder[c] == side)
    return p.holder[city] == _other(side) and p.troops[city] < near


def _moves(p: _Aggression) -> list[tuple[str, str, int]]:
    if p.over:
        return []
    if p.claiming:
        left = p.hand[p.mover]
        if not left:
            return [("pass", "", 0)]
        free = [c for c, h in p.holder.items() if h is None]
        return [("claim", c, n) for c in free for n in range(1, left + 1)]
    targets = [c for c, h in p.holder.items() if h == _other(p.mover)]
    winning = [c for c in targets if _takes(p, c, p.mover)]
    if winning:
        return [("attack", c, 0) for c in winning]
    return [("pass", "", 0)] + [("attack", c, 0) for c in targets]


def _after(p: _Aggression, move: tuple[str, str, int]) -> _Aggression:
    kind, city, n = move
    holder, troops, hand = dict(p.holder), dict(p.troops), dict(p.hand)
    if kind == "claim":
        holder[city], troops[city] = p.mover, n
        hand[p.mover] -= n
    elif kind == "attack" and _takes(p, city, p.mover):
        holder[city], troops[city] = None, 0
    q = replace(p, holder=holder, troops=troops, hand=hand, mover=_other(p.mover), ply=p.ply + 1)
    if q.claiming and (None not in holder.values() or not any(hand.values())):
        q = replace(q, claiming=False, mover="black")
    if not q.claiming:
        on_board = [sum(t for c, t in troops.items() if holder[c] == side) for side in ("black", "white")]
        stuck = not any(_takes(q, c, side) for c in holder for side in ("black", "white"))
        if not all(on_board) or stuck:
            q = replace(q, over=True)
    return replace(q, over=True) if q.ply >= q.limit else q


def aggression_perft(state: State, depth: int) -> int:
    """Return the number of move sequences of length ``depth``, counted from the rules alone."""
    from generator.games.aggression import CITY_NAMES, AggressionState

    assert isinstance(state, AggressionState)
    names = CITY_NAMES
    position = _Aggression(
        roads=frozenset(frozenset(pair) for pair in state.map.road_names()),
        holder={c: state.city(c)[0] for c in names},
        troops={c: state.city(c)[1] for c in names},
        hand={s: state.troops_in_hand(s) for s in ("black", "white")},
        claiming=state.phase() == "claiming",
        mover=state.current_player(),
        ply=state.ply,
        limit=state.limit,
        over=state.is_terminal(),
    )

    def count(p: _Aggression, d: int) -> int:
        moves = _moves(p)
        return len(moves) if d == 1 else sum(count(_after(p, m), d - 1) for m in moves)

    return count(position, depth)


@pytest.mark.parametrize(
    ("tags", "variants", "plies", "counts"),
    [(t, v, p, c) for g, t, v, p, c in TABLE if g == "aggression"],
    ids=lambda x: str(x),
)
def test_aggression_counts_agree_with_a_count_from_the_rules(
    tags: Mapping[str, str], variants: frozenset[str], plies: int, counts: tuple[int, ...]
) -> None:
    state = position("aggression", tags, variants, plies)
    found = tuple(aggression_perft(state, depth) for depth in range(1, len(counts) + 1))
    assert found == counts


def test_the_aggression_count_knows_a_compulsory_attack() -> None:
    # Black can take G (50 < 20 + 25 + 55) and H (50 < 55): only those two are legal; after xG,
    # White (H 50) cannot take M (55), so White passes or names M or one of Black's other cities.
    state = find_rules("aggression").new_state(7)
    for text in "A=20 G=50 C=25 H=50 M=55".split():
        state.play(text)
    assert aggression_perft(state, 1) == 2
    assert aggression_perft(state, 2) == perft(state, 2)
