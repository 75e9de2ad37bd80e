"""Notation examples for the rule texts, found by playing each game on the kit's own board.

A rule booklet, quick reference or record sheet that shows a move in notation shows one of these:
``notation(rules, seed, variants)`` returns, for each named example, the move's text and the
record (moves from the start, and header tags) that leads to a position where it is legal on that
board. The texts are written from the rules, never by hand, so they stay legal for every seed, and
a test replays each through the referee. Examples of a seeded board are found by deterministic
random playouts from its start (the same seed and variants always give the same examples); the
few positions a playout does not reach are set up with a record's setup tag.

Layers: this module knows rules only, like the game modules it reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from generator.foundation.errors import BoardError, PnpError
from generator.foundation.seeding import Rng
from generator.games import aggression, push
from generator.games import nine_mens_morris as nmm
from generator.games import take_the_brain as ttb
from generator.games.base import GameRules, State

#: A test on a legal move and the state it is legal in.
Test = Callable[[State, Any], bool]


@dataclass(frozen=True)
class Example:
    """A move in notation and the record leading to a position where it is legal."""

    move: str
    before: tuple[str, ...] = ()
    tags: Mapping[str, str] = field(default_factory=dict)
    #: the variants the record is played with (a variant's example is legal only with it)
    variants: frozenset[str] = frozenset()


#: The data name rule texts and record sheets ask for the examples by (``data("notation")``).
NOTATION = "notation"
PLAYOUTS = 60  # random games tried before an example is given up as not found
MAX_PLIES = 400


def search(
    rules: GameRules,
    seed: int | None,
    variants: frozenset[str],
    wanted: Sequence[tuple[str, Test | str]],
    tags: Mapping[str, str] | None = None,
) -> dict[str, Example]:
    """Return for each wanted name a legal move met in random playouts from the start, with the
    moves before it as its record: the first move passing its test among those the dice thrown
    allow, or the text itself (an exact text) once it is legal. Raise BoardError when one is never
    met."""
    rng = Rng(0 if seed is None else seed, f"notation-examples:{rules.id}:{','.join(sorted(variants))}")
    found: dict[str, Example] = {}
    tag_values = dict(tags or {})
    for _ in range(PLAYOUTS):
        state = rules.new_state(seed, variants, tag_values)
        before: list[str] = []
        while not state.is_terminal() and len(before) < MAX_PLIES:
            missing = [(name, test) for name, test in wanted if name not in found]
            if not missing:
                return found
            chance = state.random_chance(rng)
            moves = state.chance_moves(chance)
            for name, test in missing:
                if isinstance(test, str):
                    if _legal(state, test):
                        found[name] = Example(test, tuple(before), tag_values, variants)
                    continue
                hit = next((m for m in moves if test(state, m)), None)
                if hit is not None:
                    found[name] = Example(state.move_str(hit), tuple(before), tag_values, variants)
            move = state.random_move(rng) if chance is None else state.random_chance_move(chance, rng)
            before.append(state.move_str(move))
            state.apply_move(move)
        if all(name in found for name, _ in wanted):
            return found
    missing_names = ", ".join(name for name, _ in wanted if name not in found)
    raise BoardError(f"{rules.id}: no position found for the notation example(s) {missing_names}")


def _legal(state: State, text: str) -> bool:
    """Return True when the move written ``text`` is legal in the state."""
    try:
        state.check_move(state.parse_move(text))
    except PnpError:
        return False
    return True


def _text(pattern: str) -> Test:
    """Return a test passing a move whose whole text matches a regular expression."""
    compiled = re.compile(pattern)
    return lambda state, move: compiled.fullmatch(state.move_str(move)) is not None


# -- the games ---------------------------------------------------------------------------------


def _aggression(rules: GameRules, seed: int | None, variants: frozenset[str]) -> dict[str, Example]:
    def falls(state: State, move: Any) -> bool:
        text = state.move_str(move)
        if not text.startswith("x"):
            return False
        after = state.copy()
        after.apply_move(move)
        return after.city(text[1:])[0] is None  # type: ignore[attr-defined]

    found = search(
        rules,
        seed,
        variants,
        [("claim", _text(r"[A-Z]=12")), ("attack", falls), ("pass", "pass")],
    )
    # The booklet's worked game, told move by move: each move with the moves before it.
    game = aggression.example_game(aggression.generate_map(seed, variants))
    for number, move in enumerate(game["moves"]):
        found[f"game_{number}"] = Example(move, tuple(game["moves"][:number]), {}, variants)
    return found


def _barricades(rules: GameRules, seed: int | None, variants: frozenset[str]) -> dict[str, Example]:
    def kind(state: State, text: str) -> str:
        piece = state.piece_at(re.match(r"[a-j]\d+", text).group(0))  # type: ignore[attr-defined, union-attr]
        return str(piece["type"]) if piece else ""

    def shot(moving: bool, kinds: tuple[str, ...]) -> Test:
        pattern = re.compile(r"[a-j]\d+-[a-j]\d+x[a-j]\d+" if moving else r"[a-j]\d+x[a-j]\d+")

        def test(state: State, move: Any) -> bool:
            text = state.move_str(move)
            return bool(pattern.fullmatch(text)) and kind(state, text) in kinds

        return test

    shooters = ("pistolier", "rifleman")
    return search(
        rules,
        seed,
        variants,
        [
            ("move", _text(r"[a-j]\d+-[a-j]\d+")),
            ("move_fire", shot(True, shooters)),
            ("fire", shot(False, shooters)),
            ("grenade", shot(False, ("grenadier",))),
            ("burst", _text(r"[a-j]\d+-[a-j]\d+x\*")),
            ("resign", "resign"),
        ],
    )


#: Centennial's and Everest's examples: the booklets describe each in words, so they are fixed
#: texts; the playouts find where each is legal.
CENTENNIAL = {
    "enter": "P2 1 2 3 -> 6",
    "off": "P1 2 4 6 -> -",
    "claim": "P3 claims 4",
    "turn": "P1 6 6 5 -> 11 back",
}
EVEREST = {"cross": "P1 2 3 5 : 5 2+3", "cross_two": "P2 4 4 6 : 4+6 4", "none": "P3 6 6 6 : -"}
PLAYERS = {"Players": "3"}


def _centennial(rules: GameRules, seed: int | None, variants: frozenset[str]) -> dict[str, Example]:
    wanted: list[tuple[str, Test | str]] = list(CENTENNIAL.items())
    return search(rules, seed, variants, wanted, PLAYERS)


def _everest(rules: GameRules, seed: int | None, variants: frozenset[str]) -> dict[str, Example]:
    wanted: list[tuple[str, Test | str]] = list(EVEREST.items())
    return search(rules, seed, variants, wanted, PLAYERS)


def _nine_mens_morris(rules: GameRules, seed: int | None, variants: frozenset[str]) -> dict[str, Example]:
    adjacent = {frozenset(pair) for pair in nmm.board_lines()}
    wanted: list[tuple[str, Test | str]] = [
        ("place", _text(r"[a-g][1-7]")),
        ("move", _text(r"[a-g][1-7]-[a-g][1-7]")),
        ("place_take", _text(r"[a-g][1-7]x[a-g][1-7]")),
        ("move_take", _text(r"[a-g][1-7]-[a-g][1-7]x[a-g][1-7]")),
    ]

    def flies(state: State, move: Any) -> bool:
        parts = re.fullmatch(r"([a-g][1-7])-([a-g][1-7])", state.move_str(move))
        return parts is not None and frozenset(parts.groups()) not in adjacent

    # The booklet describes the flying variant in every kit, so its example is played with it.
    found = search(rules, seed, variants, wanted)
    found.update(search(rules, seed, variants | {"flying"}, [("fly", flies)]))
    return found


def _push(rules: GameRules, seed: int | None, variants: frozenset[str]) -> dict[str, Example]:
    def repeats(state: Any, move: push.PushTurn) -> bool:  # a pushed die whose number another shows
        values = state.values[state.pusher]
        return any(values.count(values[lane]) > 1 for lane, _ in move.pushes)

    wanted: list[tuple[str, Test | str]] = [
        ("no_cell", lambda state, move: None in move.cells and bool(move.pushes)),
        ("no_push", lambda state, move: not move.pushes),
    ]
    found = search(rules, seed, variants, wanted)
    # The booklet describes the adjust variant in every kit, so its examples are played with it.
    adjusted: list[tuple[str, Test | str]] = [
        ("adjust", lambda state, move: any(adjust for _, adjust in move.pushes)),
        ("lane", repeats),
    ]
    found.update(search(rules, seed, variants | {"adjust"}, adjusted))
    figure = push.example_push(push.DEFAULT_SEED if seed is None else seed)
    found["figure"] = Example(figure["turn"], tuple(figure["before"]), {}, variants)
    for i, other in enumerate(figure["alternatives"]):
        found[f"figure_other_{i}"] = Example(other, tuple(figure["before"]), {}, variants)
    return found


def _take_the_brain(rules: GameRules, seed: int | None, variants: frozenset[str]) -> dict[str, Example]:
    found = search(rules, seed, variants, [("move", _text(r"[a-g][1-8]-[a-g][1-8]"))])
    # An opening to show how moves are numbered: the first legal move, the first reply, and so on.
    state = rules.new_state(seed, variants)
    opening = [found["move"].move]
    state.play(opening[0])
    for name in ("reply", "second"):
        text = state.move_str(state.legal_moves()[0])
        found[name] = Example(text, tuple(opening), {}, variants)
        state.play(text)
        opening.append(text)
    # The booklet's figure: a Numskull's long slide, set up with a Setup tag (Brains out of its way).
    figure = ttb.example_numskull_move(ttb.make_board(seed))
    pieces = dict(figure["pieces"])
    for brain, squares in (("red:brain", ("a1", "b1", "c1")), ("blue:brain", ("g8", "f8", "e8"))):
        pieces[next(sq for sq in squares if sq not in pieces)] = brain
    letters = {"brain": "B", "numskull": "S", "ninny": "N"}
    setup = " ".join(
        letters[kind] + square if side == "red" else letters[kind].lower() + square
        for square, (side, kind) in ((sq, piece.split(":")) for sq, piece in sorted(pieces.items()))
    )
    found["figure"] = Example(figure["move"], (), {"Setup": f"{setup}; red"}, variants)
    return found


def _verbal(rules: GameRules, seed: int | None, variants: frozenset[str]) -> dict[str, Example]:
    return search(rules, seed, variants, [("round", "2/5:5")])


GAMES: dict[str, Callable[[GameRules, int | None, frozenset[str]], dict[str, Example]]] = {
    "aggression": _aggression,
    "barricades": _barricades,
    "centennial": _centennial,
    "everest": _everest,
    "nine-mens-morris": _nine_mens_morris,
    "push": _push,
    "take-the-brain": _take_the_brain,
    "verbal": _verbal,
}


def examples(
    rules: GameRules, seed: int | None, variants: frozenset[str] = frozenset()
) -> dict[str, Example]:
    """Return a game's notation examples on a board (seed) with variants, by name; a game without
    examples gives none."""
    maker = GAMES.get(rules.id)
    return dict(_cached(maker, rules, seed, frozenset(variants))) if maker else {}


@lru_cache(maxsize=64)
def _cached(
    maker: Callable[[GameRules, int | None, frozenset[str]], dict[str, Example]],
    rules: GameRules,
    seed: int | None,
    variants: frozenset[str],
) -> tuple[tuple[str, Example], ...]:
    return tuple(maker(rules, seed, variants).items())


def notation(rules: GameRules, seed: int | None, variants: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Return the examples as the plain data rule texts use (``data("notation")``): ``moves``
    (name -> text), ``before`` (name -> the moves leading to it), ``tags`` (name -> the record's
    header tags) and ``variants`` (name -> the variants it is played with)."""
    found = examples(rules, seed, variants)
    return {
        "moves": {name: ex.move for name, ex in found.items()},
        "before": {name: list(ex.before) for name, ex in found.items()},
        "tags": {name: dict(ex.tags) for name, ex in found.items()},
        "variants": {name: sorted(ex.variants) for name, ex in found.items()},
    }
