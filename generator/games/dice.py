"""Dice helpers shared by the dice games (Centennial, Everest): every throw of a few six-sided
dice, the totals a throw can make, the ways to split a throw into groups, reading dice from
notation, the players p1, p2, ... named by the ``Players`` tag, and how their turn limit counts
(throws with two players, rounds with more). A helper module, not a game: it defines no ``RULES``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Any

from generator.foundation.errors import NotationError, RecordError
from generator.foundation.languages import Msg, counted
from generator.foundation.numbers import is_ascii_digits

FACES = 6

Throw = tuple[int, ...]
Group = tuple[int, ...]
Grouping = tuple[Group, ...]


@cache
def all_throws(count: int = 3) -> tuple[Throw, ...]:
    """Return every distinct throw of ``count`` dice, each sorted ascending, in ascending order."""
    return tuple(combinations_with_replacement(range(1, FACES + 1), count))


@cache
def _sums_sorted(dice: Throw) -> frozenset[int]:
    totals: set[int] = set()
    for size in range(1, len(dice) + 1):
        for picked in combinations(dice, size):
            totals.add(sum(picked))
    return frozenset(totals)


def fair_throw(rng: Any, count: int = 3) -> Throw:
    """Return ``count`` fair dice thrown by a ``seeding.Rng``, sorted ascending (as moves carry them)."""
    return tuple(sorted(rng.randint(1, FACES) for _ in range(count)))


def sums(dice: Sequence[int]) -> frozenset[int]:
    """Return the totals shown by one die or made by adding two or more of the dice (each die once)."""
    return _sums_sorted(tuple(sorted(dice)))


@cache
def _groupings_sorted(dice: Throw) -> tuple[Grouping, ...]:
    found: set[Grouping] = set()

    def place(index: int, groups: list[list[int]]) -> None:
        if index == len(dice):
            found.add(tuple(sorted(tuple(sorted(g)) for g in groups)))
            return
        die = dice[index]
        place(index + 1, groups)
        for group in groups:
            group.append(die)
            place(index + 1, groups)
            group.pop()
        groups.append([die])
        place(index + 1, groups)
        groups.pop()

    place(0, [])
    return tuple(sorted(found, key=lambda g: (len(g), g)))


def groupings(dice: Sequence[int]) -> tuple[Grouping, ...]:
    """Return every way to put some (or none) of the dice into groups, each die in one group at most.

    Each group is a sorted tuple of die values and each grouping a sorted tuple of groups, so two
    splits that use the same values the same way appear once."""
    return _groupings_sorted(tuple(sorted(dice)))


def uses_only(groups: Iterable[Sequence[int]], dice: Sequence[int]) -> int | None:
    """Return a die value the groups use more often than the throw shows it, or None if they fit."""
    thrown = Counter(dice)
    used = Counter(value for group in groups for value in group)
    for value in sorted(used):
        if used[value] > thrown[value]:
            return value
    return None


def parse_die(text: str) -> int:
    """Return the face written as text; raise NotationError unless it is a number from 1 to 6."""
    if not is_ascii_digits(text):
        raise NotationError(Msg("game.dice.not_die", text=repr(text), faces=FACES))
    value = int(text)
    if not 1 <= value <= FACES:
        raise NotationError(Msg("game.dice.not_face", value=value, faces=FACES))
    return value


def parse_throw(tokens: Sequence[str], count: int = 3) -> Throw:
    """Return the dice written as ``count`` separate tokens; raise NotationError otherwise."""
    if len(tokens) != count:
        shown = " ".join(tokens) or "nothing"
        raise NotationError(Msg("game.everest.dice_count", dice=count, got=repr(shown)))
    return tuple(parse_die(token) for token in tokens)


def throw_str(dice: Sequence[int]) -> str:
    """Return the dice as written in a record: values separated by spaces, e.g. '1 2 3'."""
    return " ".join(str(value) for value in dice)


# -- players of the dice games: 'p1', 'p2', ... written P1, P2, ... ------------------------


def side_name(index: int) -> str:
    """Return the side name of the player at ``index`` (0 -> 'p1')."""
    return f"p{index + 1}"


def label(side: str) -> str:
    """Return how a side is written in notation ('p2' -> 'P2')."""
    return side.upper()


def players_from_tags(tags: Mapping[str, str] | None, low: int, high: int | None, default: int) -> int:
    """Return the number of players named by the ``Players`` tag; raise RecordError when it is bad."""
    if not tags or "Players" not in tags:
        return default
    text = str(tags["Players"]).strip()
    span = Msg("game.dice.span", low=low, high=high) if high else Msg("game.dice.span.open", low=low)
    if not is_ascii_digits(text) or not (low <= int(text) and (high is None or int(text) <= high)):
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise RecordError(Msg("game.dice.players", span=span, shown=repr(shown)))
    return int(text)


# -- the turn limit of the dice games: throws with two players, rounds with more ------------

#: what the turn limit counts with one or two players, and with more (every player throws once a round)
TURN_UNIT = "throw"
ROUND_UNIT = "round"


def throws_per_turn(players: int) -> int:
    """Return how many throws one turn of the turn limit counts: 1 with two players, a round with more."""
    return players if players > 2 else 1


def limit_str(limit: int, players: int) -> Msg:
    """Return the turn limit in words, e.g. '200 throws' or '200 rounds (200 throws each)'."""
    if players > 2:
        return Msg(
            "game.dice.limit_many", rounds=counted(limit, "dice_round"), throws=counted(limit, TURN_UNIT)
        )
    return counted(limit, TURN_UNIT)


def spelt_dice(number: int, value: int) -> Msg:
    """Return how many dice show a value, spelt out: 'one 3', 'two 6s' ('deux 6', 'due 6')."""
    return Msg(f"game.dice.spelt.{number}" if 0 <= number <= 6 else "game.dice.spelt.many", n=number, d=value)


def turn_str(throws: int, limit: int, players: int) -> Msg:
    """Return where the game stands against the limit, e.g. 'throw 3 of 200' or 'round 2 of 200'."""
    if players > 2:
        return Msg("game.dice.turn_round", n=min(throws // players + 1, limit), limit=limit)
    return Msg("game.dice.turn_throw", n=min(throws + 1, limit), limit=limit)
