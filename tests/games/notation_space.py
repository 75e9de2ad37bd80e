"""Candidate moves written in each game's notation, legal or not, for the two-way conformance check.

``candidates(game_id, state, rng)`` returns texts drawn from the whole space the notation can
write in a position (every from-to pair, every box and lane, every split of any dice), not only
variations of legal moves, so a rule that ``check_move`` forgets shows up as an accepted text that
``legal_moves`` leaves out. Small spaces are listed whole; large ones are sampled with the given
random generator, and every legal move's text is varied one part at a time (near misses).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Any

from generator.games import aggression, nine_mens_morris, push, take_the_brain
from generator.games.base import State

FILES_10 = "abcdefghij"
SQUARES_100 = [f"{f}{r}" for r in range(1, 11) for f in FILES_10]
SQUARES_TTB = list(take_the_brain.SQUARES)
POINTS = list(nine_mens_morris.POINTS)
CELLS = list(push.CELLS)


def _sample(rng: Any, items: list[str], limit: int) -> list[str]:
    if len(items) <= limit:
        return items
    picked = list(range(len(items)))
    rng.shuffle(picked)
    return [items[i] for i in picked[:limit]]


def _nine_mens_morris(state: State, rng: Any) -> Iterable[str]:
    heads = POINTS + [f"{a}-{b}" for a in POINTS for b in POINTS]
    yield from heads
    # Removals: every head with every point would be 14,000 texts; take all removals after the
    # heads that place or move a man (those are the ones that can close a mill) and a sample of the rest.
    legal_heads = {state.move_str(m).split("x")[0] for m in state.legal_moves()}
    for head in heads:
        if head in legal_heads:
            yield from (f"{head}x{p}" for p in POINTS)
    yield from _sample(rng, [f"{h}x{p}" for h in heads if h not in legal_heads for p in POINTS], 1500)


def _aggression(state: State, rng: Any) -> Iterable[str]:
    for city in aggression.CITY_NAMES:
        yield f"x{city}"
        yield from (f"{city}={n}" for n in range(aggression.TROOPS + 2))
    yield "pass"


def _barricades(state: State, rng: Any) -> Iterable[str]:
    fires = ["", "x*"] + [f"x{t}" for t in SQUARES_100]
    # Every from-to pair, without fire.
    yield from (f"{a}-{b}" for a in SQUARES_100 for b in SQUARES_100 if a != b)
    # Every square firing at every target (and a burst) without moving.
    yield from (f"{a}{fire}" for a in SQUARES_100 for fire in fires[1:])
    yield "resign"
    # Each legal move with its destination or its target replaced by every other one.
    legal = [m for m in state.legal_moves() if not m.resign]
    picked = list(range(len(legal)))
    rng.shuffle(picked)
    for i in picked[:25]:
        text = state.move_str(legal[i])
        head, _, _ = text.partition("x")
        src = head.split("-")[0]
        yield from (f"{head}{fire}" for fire in fires)
        yield from (
            f"{src}-{dst}{fire}" for dst in SQUARES_100 if dst != src for fire in ("", text[len(head) :])
        )


def _take_the_brain(state: State, rng: Any) -> Iterable[str]:
    return (f"{a}{sep}{b}" for a in SQUARES_TTB for b in SQUARES_TTB for sep in "-x")


def _verbal(state: State, rng: Any) -> Iterable[str]:
    return (f"{a}/{b}:{c}" for a in range(8) for b in range(8) for c in range(8))


def _push(state: State, rng: Any) -> Iterable[str]:
    places = [f"{v}@{c}" for v in range(1, 7) for c in ["-"] + CELLS]
    side = push.SIDES.index(state.current_player())
    lanes = push.LANES[side]
    dice = [
        f"{v}{lane}{sign}"
        for v in range(1, 7)
        for lane in [""] + [f"/{n}" for n in lanes]
        for sign in ("", "+", "-")
    ]

    def pushes() -> str:
        n = rng.below(4)
        return " ".join(dice[rng.below(len(dice))] for _ in range(n)) if n else "-"

    for _ in range(600):
        yield f"{places[rng.below(len(places))]} {places[rng.below(len(places))]} : {pushes()}"
    legal = state.legal_moves()
    for _ in range(8 if legal else 0):  # a finished game has no turn to vary
        text = state.move_str(legal[rng.below(len(legal))])
        left, _, right = text.partition(" : ")
        first, second = left.split()
        yield from (f"{p} {second} : {right}" for p in places)
        yield from (f"{first} {p} : {right}" for p in places)
        yield f"{left} : {pushes()}"
        yield f"{left} : -"
        tokens = right.split()
        if tokens != ["-"]:
            for k in range(len(tokens)):
                yield (
                    " ".join([left, ":"] + tokens[:k] + tokens[k + 1 :]) if len(tokens) > 1 else f"{left} : -"
                )
                yield from (" ".join([left, ":"] + tokens[:k] + [d] + tokens[k + 1 :]) for d in dice)


def _players(state: State) -> list[str]:
    return [f"P{i}" for i in range(1, len(state.sides) + 2)]  # type: ignore[attr-defined]


def _centennial(state: State, rng: Any) -> Iterable[str]:
    players = _players(state)
    ends = ["-"] + [f"{box}{lane}" for box in range(1, 13) for lane in ("", " out", " back")]
    throws = list(itertools.combinations_with_replacement(range(1, 7), 3))
    mover = players[_mover_index(state)]
    yield from (f"{mover} {a} {b} {c} -> {end}" for a, b, c in throws for end in ends)
    every = [
        f"{p} {a} {b} {c} -> {end}"
        for p in players
        for a, b, c in itertools.product(range(1, 7), repeat=3)
        for end in ends
    ]
    yield from _sample(rng, every, 2500)
    yield from (f"{p} claims {n}" for p in players for n in range(0, 14))


def _mover_index(state: State) -> int:
    """Return the index of the player to move in a dice game (p1 -> 0)."""
    return int(state.current_player()[1:]) - 1


def _everest(state: State, rng: Any) -> Iterable[str]:
    players = _players(state)
    mover = players[_mover_index(state)]
    for dice in itertools.combinations_with_replacement(range(1, 7), 3):
        head = f"{mover} {dice[0]} {dice[1]} {dice[2]}"
        yield f"{head} : -"
        # Every way to write groups of the thrown dice (order within and between groups included).
        for size in range(1, 4):
            for chosen in itertools.permutations(dice, size):
                for cuts in itertools.product((False, True), repeat=size - 1):
                    groups, group = [], [str(chosen[0])]
                    for value, cut in zip(chosen[1:], cuts):
                        if cut:
                            groups.append("+".join(group))
                            group = []
                        group.append(str(value))
                    groups.append("+".join(group))
                    yield f"{head} : {' '.join(groups)}"
    for _ in range(1500):  # any player, dice in any order, groups of any values
        dice = [1 + rng.below(6) for _ in range(3)]
        groups = [
            "+".join(str(1 + rng.below(6)) for _ in range(1 + rng.below(3))) for _ in range(1 + rng.below(3))
        ]
        yield f"{players[rng.below(len(players))]} {' '.join(map(str, dice))} : {' '.join(groups)}"


SPACES: dict[str, Callable[[State, Any], Iterable[str]]] = {
    "aggression": _aggression,
    "barricades": _barricades,
    "centennial": _centennial,
    "everest": _everest,
    "nine-mens-morris": _nine_mens_morris,
    "push": _push,
    "take-the-brain": _take_the_brain,
    "verbal": _verbal,
}


def candidates(game_id: str, state: State, rng: Any) -> list[str]:
    """Return the candidate texts for a position, each once, in a fixed order for a fixed rng."""
    return list(dict.fromkeys(SPACES[game_id](state, rng)))
