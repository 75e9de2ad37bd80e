"""Everest: each player crosses off two columns of boxes 1 to 12 with totals made from three dice.

A sheet holds the numbers 1 to 12 twice (one column ascending, one descending): 24 boxes. A turn
is one throw of three dice; the thrower splits any of the dice into groups, each die in one group
at most, and each group's total crosses off one empty box of that number in either column. The
first player with all 24 boxes crossed wins. The turn limit counts throws with two players (or
one) and rounds with more, so that 200 means 200 throws each. The referee tracks how many boxes of each number a
player has crossed (0, 1 or 2), not which column: the two columns hold the same numbers.

Notation (one move per line): ``P1 2 3 5 : 5 2+3`` (threw 2 3 5; crossed a 5, and another 5 made
from 2+3); ``P1 6 6 6 : -`` crosses nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.foundation.errors import IllegalMoveError, NotationError
from generator.foundation.languages import Msg, counted
from generator.foundation.numbers import is_ascii_digits
from generator.games.base import GameRules, Outcome, State, turn_limit
from generator.games.dice import (
    ROUND_UNIT,
    TURN_UNIT,
    all_throws,
    fair_throw,
    groupings,
    label,
    limit_str,
    parse_die,
    players_from_tags,
    side_name,
    spelt_dice,
    throw_str,
    throws_per_turn,
    turn_str,
    uses_only,
)

HIGHEST = 12
COLUMNS = 2
BOXES = HIGHEST * COLUMNS
DICE = 3
MIN_PLAYERS = 1
MAX_PLAYERS = 20
DEFAULT_PLAYERS = 2


@dataclass(frozen=True)
class Cross:
    """A player's throw and the groups of dice whose totals they cross off (empty: nothing)."""

    player: str
    dice: tuple[int, ...]
    groups: tuple[tuple[int, ...], ...]


def group_str(group: tuple[int, ...]) -> str:
    """Return a group of dice as written, e.g. '2+3' or '5'."""
    return "+".join(str(value) for value in group)


def _options(dice: tuple[int, ...]) -> list[tuple[tuple[tuple[int, ...], ...], int, int]]:
    """Return each grouping of a throw that some sheet could take, with the bit masks of the
    numbers it crosses once and twice (bit t for number t)."""
    found = []
    for grouping in groupings(dice):
        totals = Counter(sum(group) for group in grouping)
        if all(total <= HIGHEST and count <= COLUMNS for total, count in totals.items()):
            once = sum(1 << t for t, count in totals.items() if count == 1)
            twice = sum(1 << t for t, count in totals.items() if count == 2)
            found.append((grouping, once, twice))
    return found


_OPTIONS = {dice: _options(dice) for dice in all_throws(DICE)}
_TABLES: dict[str, list[tuple[int, int, Cross]]] = {}
_THROW_TABLES: dict[str, dict[tuple[int, ...], list[tuple[int, int, Cross]]]] = {}


def _table(side: str) -> list[tuple[int, int, Cross]]:
    """Return every move a player could ever make, with its masks (built once per side)."""
    table = _TABLES.get(side)
    if table is None:
        table = [
            (once, twice, Cross(side, dice, grouping))
            for dice, options in _OPTIONS.items()
            for grouping, once, twice in options
        ]
        _TABLES[side] = table
    return table


def _throw_table(side: str) -> dict[tuple[int, ...], list[tuple[int, int, Cross]]]:
    """Return ``_table(side)`` split by throw, each throw's moves in the table's order."""
    tables = _THROW_TABLES.get(side)
    if tables is None:
        tables = {}
        for entry in _table(side):
            tables.setdefault(entry[2].dice, []).append(entry)
        _THROW_TABLES[side] = tables
    return tables


class EverestState(State[Cross]):
    """An Everest position: how many boxes of each number every player has crossed."""

    def __init__(self, players: int, limit: int) -> None:
        super().__init__(limit)
        self.players = players
        self.sides = [side_name(i) for i in range(players)]
        self.max_throws = limit * throws_per_turn(players)
        self.crossed = [[0] * (HIGHEST + 1) for _ in range(players)]  # [player][number] -> 0..2
        self.totals = [0] * players
        self.to_throw = 0
        self.throws = 0
        self.winner: int | None = None

    def playing_sides(self) -> tuple[str, ...]:
        """Return the players of this game, p1 to pN (the ``Players`` tag)."""
        return tuple(self.sides)

    def current_player(self) -> str:
        """Return the player whose throw is next."""
        return self.sides[self.to_throw]

    def legal_moves(self) -> list[Cross]:
        """Return every throw (56 sorted throws) with every split whose totals have empty boxes."""
        if self.is_terminal():
            return []
        return self._open(_table(self.sides[self.to_throw]))

    def _open(self, table: list[tuple[int, int, Cross]]) -> list[Cross]:
        """Return the moves of a table whose totals all have an empty box for the player to throw."""
        crossed = self.crossed[self.to_throw]
        used = full = 0
        for number in range(1, HIGHEST + 1):
            if crossed[number]:
                used |= 1 << number
                if crossed[number] >= COLUMNS:
                    full |= 1 << number
        return [move for once, twice, move in table if not (once & full or twice & used)]

    def chance_moves(self, outcome: Any) -> list[Cross]:
        """Return the legal moves with the throw ``outcome`` (every legal move when it is None),
        in the order ``legal_moves`` lists them, without listing the other throws' moves."""
        if outcome is None:
            return self.legal_moves()
        if self.is_terminal():
            return []
        return self._open(_throw_table(self.sides[self.to_throw]).get(tuple(outcome), []))

    def chance_of(self, move: Cross) -> tuple[int, ...]:
        """Return the dice a move carries (sorted)."""
        return move.dice

    def random_chance(self, rng: Any) -> tuple[int, ...] | None:
        """Return a fair throw of the three dice, sorted (None once the game is over)."""
        return None if self.is_terminal() else fair_throw(rng, DICE)

    def parse_move(self, text: str) -> Cross:
        """Return the move written as text, e.g. 'P1 2 3 5 : 5 2+3'; raise NotationError otherwise.

        Dice and groups are sorted as ``legal_moves`` lists them: 'P1 5 3 2 : 3+2 5' is the same move."""
        text = " ".join(text.split())
        head, colon, tail = text.partition(":")
        words = head.split()
        if (
            not colon
            or not words
            or words[0][:1] not in "Pp"
            or not is_ascii_digits(words[0][1:])
            or int(words[0][1:]) < 1
        ):
            raise NotationError(Msg("game.everest.notation", text=repr(text)))
        if len(words) != DICE + 1:
            raise NotationError(Msg("game.everest.dice_count", dice=DICE, got=repr(" ".join(words[1:]))))
        dice = tuple(sorted(parse_die(word) for word in words[1:]))
        tail = tail.strip()
        if tail == "-":
            return Cross(f"p{int(words[0][1:])}", dice, ())
        if not tail:
            raise NotationError(Msg("game.everest.after_colon"))
        groups = []
        for word in tail.split():
            parts = word.split("+")
            if any(not part for part in parts):
                raise NotationError(Msg("game.everest.not_group", word=repr(word)))
            groups.append(tuple(sorted(parse_die(part) for part in parts)))
        return Cross(f"p{int(words[0][1:])}", dice, tuple(sorted(groups)))

    def move_str(self, move: Cross) -> str:
        """Return the move in notation, e.g. 'P1 2 3 5 : 5 2+3'."""
        crossed = " ".join(group_str(g) for g in move.groups) or "-"
        return f"{label(move.player)} {throw_str(move.dice)} : {crossed}"

    def check_move(self, move: Cross) -> None:
        """Raise IllegalMoveError, in a player's words, unless the move is legal now."""
        if self.is_terminal():
            raise IllegalMoveError(Msg("game.any.over"))
        number = int(move.player[1:])
        name = label(move.player)
        if not 1 <= number <= self.players:
            raise IllegalMoveError(
                Msg("game.dice.no_player", name=name, players=counted(self.players, "player"))
            )
        if number - 1 != self.to_throw:
            raise IllegalMoveError(
                Msg("game.dice.not_turn", side=label(self.sides[self.to_throw]), name=name)
            )
        overused = uses_only(move.groups, move.dice)
        if overused is not None:
            shown = sum(1 for value in move.dice if value == overused)
            raise IllegalMoveError(
                Msg("game.everest.once", throw=throw_str(move.dice), shown=spelt_dice(shown, overused))
            )
        crossed = self.crossed[number - 1]
        wanted = Counter(sum(group) for group in move.groups)
        for total in sorted(wanted):
            if total > HIGHEST:
                made = next(group_str(g) for g in move.groups if sum(g) == total)
                raise IllegalMoveError(Msg("game.everest.no_box", made=made, total=total))
            left = COLUMNS - crossed[total]
            if wanted[total] > left:
                if left == 0:
                    raise IllegalMoveError(Msg("game.everest.both_crossed", name=name, total=total))
                raise IllegalMoveError(
                    Msg(
                        "game.everest.only_left",
                        name=name,
                        left=counted(left, "box"),
                        total=total,
                        wanted=wanted[total],
                    )
                )

    def _apply(self, move: Cross) -> None:
        """Cross off a box for every group's total and pass the dice on."""
        who = int(move.player[1:]) - 1
        crossed = self.crossed[who]
        for group in move.groups:
            crossed[sum(group)] += 1
        self.totals[who] += len(move.groups)
        self.throws += 1
        self.to_throw = (who + 1) % self.players
        if self.totals[who] == BOXES:
            self.winner = who

    def is_terminal(self) -> bool:
        """Return True once a player has crossed off all 24 boxes or the turn limit is reached."""
        return self.winner is not None or self.throws >= self.max_throws

    def outcome(self) -> Outcome:
        """Return the outcome; the score is the number of boxes each player has crossed off."""
        score = {side: total for side, total in zip(self.sides, self.totals)}
        if self.winner is not None:
            name = label(self.sides[self.winner])
            return Outcome(
                True, self.sides[self.winner], False, score, Msg("game.everest.won", name=name, boxes=BOXES)
            )
        if self.throws >= self.max_throws:
            return Outcome(
                True, None, True, score, Msg("game.dice.limit", limit=limit_str(self.limit, self.players))
            )
        return Outcome(False, None, False, score)

    def text(self) -> str:
        """Return every player's boxes (x crossed, . empty; up column, then down column) as text."""
        numbers = " ".join(f"{n:>2}" for n in range(1, HIGHEST + 1))
        lines = [
            Msg(
                "game.everest.status",
                players=counted(self.players, "player"),
                turn=turn_str(self.throws, self.limit, self.players),
            ),
            f"         {numbers}",
        ]
        for index, side in enumerate(self.sides):
            crossed = self.crossed[index]
            marker = "*" if index == self.to_throw and not self.is_terminal() else " "
            up = " ".join(f"{'x' if crossed[n] >= 1 else '.':>2}" for n in range(1, HIGHEST + 1))
            down = " ".join(f"{'x' if crossed[n] >= 2 else '.':>2}" for n in range(1, HIGHEST + 1))
            lines.append(f"{marker} {label(side):<3}    {up}   {self.totals[index]}/{BOXES}")
            lines.append(f"         {down}")
        return Msg.joined("\n", lines)


@dataclass(frozen=True)
class EverestRules(GameRules):
    """Everest for any number of players (tag ``Players``, 1 to 20)."""

    def new_state(
        self,
        seed: int | None = None,
        variants: frozenset[str] = frozenset(),
        tags: Mapping[str, str] | None = None,
    ) -> EverestState:
        """Return the start: every sheet empty, P1 to throw."""
        self.check_variants(variants)
        players = players_from_tags(tags, MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS)
        return EverestState(players, turn_limit(tags, self.default_turn_limit))

    def template_values(self) -> dict[str, Any]:
        """Return the sheet, dice and player counts for the rule booklet."""
        return {
            "highest": HIGHEST,
            "columns": COLUMNS,
            "boxes": BOXES,
            "dice": DICE,
            "min_players": MIN_PLAYERS,
            "max_players": MAX_PLAYERS,
            "default_players": DEFAULT_PLAYERS,
            "column_up": list(range(1, HIGHEST + 1)),
            "column_down": list(range(HIGHEST, 0, -1)),
            "turn_limit": self.default_turn_limit,
            "round_unit": ROUND_UNIT,
        }


RULES = EverestRules(
    turn_unit=TURN_UNIT,
    id="everest",
    title="Everest",
    sides=tuple(side_name(i) for i in range(MAX_PLAYERS)),
    extra_tags=("Players",),
    move_per_line=True,
)
