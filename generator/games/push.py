"""Push!: dice pushed across a 6 by 6 grid of numbers by pawns, on the throw of two neutral dice.

Board: cells a1 to f6, each showing a number 1 to 6. The board for a seed (default seed 1) is a
Latin square (each number once in every rank and every file) drawn from ``rng_for(seed,
"push/numbers")``: the cells are filled a1, b1, ... f1, a2, ... f6, each trying the numbers still
allowed in a shuffled order, backing up when a cell has none left.

Pieces: South's six dice start in a row just outside rank 1 (one per file, travelling north),
West's just outside file a (one per rank, travelling east); each die has its pawn right behind it.
A die's lane is its file (South: a to f) or its rank (West: 1 to 6). Starting orders come from the
tags ``[SouthOrder "314265"]`` (the values for files a to f) and ``[WestOrder "..."]`` (ranks 1 to
6); without a tag a side starts ``123456``. ``South`` and ``West`` hold the players' names, as the
side tags do in every game; records from before the order tags, which wrote the orders there,
still read: a ``South`` or ``West`` value made of digits is taken as that side's order when its
``...Order`` tag is absent.

A lane's progress counts the pushes its die has made: after p pushes the die is p cells in (off the
board from p = 7) and the pawn p - 1 cells in (off the board at p = 8, which is as far as it goes).

A turn (one move of the record, see rulings.md): the thrower throws the two neutral dice and places
each on an empty cell (no die or pawn) showing its number; a die must be placed when such a cell
exists. The pusher (``current_player``) then pushes a set of its dice whose values add up to the
throw's total, or one die equal to one of the thrown values; a chosen die must be able to move:
its next cell, if on the board, holds no die or pawn (neutral dice included). Dice off the board
still count (a virtual push), moving their pawn if it is still on the board. When a push is
possible the pusher must push; ``: -`` is only for a turn where nothing can move. South throws
first (West pushes), then the roles swap every turn. The first side with all six pawns off wins.

Notation: ``3@c4 5@e2 : 5 3``; ``3@-`` for a die that could not be placed; ``: -`` when nothing
moved. A pushed die is named by its value; when two of the pusher's dice show the same value (only
possible with the ``adjust`` variant) it is named with its lane, ``5/c`` or ``5/3``. Variant
``adjust``: a die that was already off the board before the push may be raised or lowered by one
after counting, written ``5+`` or ``5-`` (values stay within 1 to 6).

``legal_moves`` enumerates every turn: the 21 unordered throws (the placement tokens are written
lowest value first), every placement, every push. A turn holds two players' choices: ``deciders``
and ``move_parts`` split it into the thrower's placement and the pusher's push, so that a computer
player chooses only its own part.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from generator.foundation.errors import BoardError, IllegalMoveError, NotationError, RecordError
from generator.foundation.languages import Msg, counted, side_msg
from generator.foundation.numbers import is_ascii_digits
from generator.foundation.seeding import check_seed, rng_for
from generator.games.base import GameRules, Outcome, State, turn_limit

#: what the turn limit counts (the rules' ``turn_unit``; the kit's texts name it from there)
TURN_UNIT = "turn"

SIZE = 6
CELLS: tuple[str, ...] = tuple(f"{chr(97 + f)}{r + 1}" for r in range(SIZE) for f in range(SIZE))
CELL_INDEX = {name: i for i, name in enumerate(CELLS)}
SIDES = ("south", "west")
LANES: tuple[tuple[str, ...], tuple[str, ...]] = (tuple("abcdef"), tuple("123456"))
LANE_KIND = ("file", "rank")
NUMBER_STREAM = "push/numbers"
DEFAULT_SEED = 1
DEFAULT_ORDER = "123456"
DIE_OFF = SIZE + 1  # progress at which a die has left the board
PAWN_OFF = SIZE + 2  # progress at which its pawn has left too (the most a lane records)
THROWS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
VARIANTS = ("adjust",)


# --- boards ------------------------------------------------------------------------------------


def _latin(seed: int) -> tuple[int, ...]:
    rng = rng_for(seed, NUMBER_STREAM)
    grid = [0] * (SIZE * SIZE)
    options: list[list[int]] = [[] for _ in grid]

    def allowed(i: int) -> list[int]:
        r, f = divmod(i, SIZE)
        used = {grid[r * SIZE + k] for k in range(f)} | {grid[k * SIZE + f] for k in range(r)}
        values = [v for v in range(1, SIZE + 1) if v not in used]
        rng.shuffle(values)
        return values

    i = 0
    options[0] = allowed(0)
    while i < len(grid):
        if options[i]:
            grid[i] = options[i].pop()
            i += 1
            if i < len(grid):
                options[i] = allowed(i)
        else:
            grid[i] = 0
            i -= 1
    return tuple(grid)


@lru_cache(maxsize=512)
def _numbers(seed: int) -> tuple[int, ...]:
    return _latin(seed)


def board_numbers(seed: object = None) -> tuple[int, ...]:
    """Return the number on each cell (index rank * 6 + file) for a seed (None: the default seed)."""
    return _numbers(DEFAULT_SEED if seed is None else check_seed(seed))


def is_latin(numbers: tuple[int, ...]) -> bool:
    """Return True when every rank and every file shows each number 1 to 6 once."""
    full = set(range(1, SIZE + 1))
    rows = all(set(numbers[r * SIZE : (r + 1) * SIZE]) == full for r in range(SIZE))
    files = all(set(numbers[f::SIZE]) == full for f in range(SIZE))
    return rows and files


ORDER_TAGS = ("SouthOrder", "WestOrder")


def parse_order(text: str, side: str, tag: str = "") -> tuple[int, ...]:
    """Return a starting order (six distinct values 1-6) from a tag value; raise RecordError."""
    value = text.strip()
    if len(value) != SIZE or sorted(value) != list(DEFAULT_ORDER):
        where = "files a to f" if side == "south" else "ranks 1 to 6"
        name = tag or ORDER_TAGS[SIDES.index(side)]
        raise RecordError(
            f"the {name} tag must give the six values 1 to 6 once each, "
            f'for {where} (like "314265"), not {text!r}'
        )
    return tuple(int(ch) for ch in value)


def orders_from_tags(tags: Mapping[str, str]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return South's and West's starting orders from the SouthOrder and WestOrder tags (default
    123456), or from an old record's South or West tag when it holds digits rather than a name."""
    orders = []
    for side, tag in zip(SIDES, ORDER_TAGS):
        old = side.capitalize()
        if tag in tags:
            orders.append(parse_order(tags[tag], side, tag))
        elif is_ascii_digits(tags.get(old, "").strip()):
            orders.append(parse_order(tags[old], side, old))
        else:
            orders.append(parse_order(DEFAULT_ORDER, side, tag))
    return orders[0], orders[1]


# --- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PushTurn:
    """One turn: the throw (lowest first), where each neutral die went (cell index or None), and
    the pusher's dice as (lane, adjustment -1/0/+1), sorted by lane; no pushes means ``: -``."""

    throw: tuple[int, int]
    cells: tuple[int | None, int | None]
    pushes: tuple[tuple[int, int], ...]


_PLACE = re.compile(r"^([1-6])@([a-f][1-6]|-)$")
_DIE = re.compile(r"^([1-6])(?:/([a-f1-6]))?([+-]?)$")


def _canonical_cells(
    throw: tuple[int, int], cells: tuple[int | None, int | None]
) -> tuple[tuple[int, int], tuple[int | None, int | None]]:
    pairs = sorted(zip(throw, cells), key=lambda p: (p[0], p[1] is None, p[1] or 0))
    return (pairs[0][0], pairs[1][0]), (pairs[0][1], pairs[1][1])


# --- state -------------------------------------------------------------------------------------


class PushState(State[PushTurn]):
    """A Push! position: the numbers, each lane's progress and die value, and who pushes next."""

    SHARED = frozenset({"numbers", "cells_of", "_over", "_moves"})

    def __init__(
        self,
        seed: int,
        numbers: tuple[int, ...],
        orders: tuple[tuple[int, ...], tuple[int, ...]],
        adjust: bool,
        limit: int,
    ) -> None:
        super().__init__(limit)
        self.seed = seed
        self.numbers = numbers
        self.cells_of = tuple(tuple(i for i, n in enumerate(numbers) if n == v) for v in range(SIZE + 1))
        self.values = [list(orders[0]), list(orders[1])]
        self.progress = [[0] * SIZE, [0] * SIZE]
        self.adjust = adjust
        self.pusher = 1
        self._over: Outcome | None = None
        self._moves: list[PushTurn] | None = None

    # -- geometry --

    def _occupied(self) -> int:
        mask = 0
        for lane, p in enumerate(self.progress[0]):
            if 1 <= p <= SIZE:
                mask |= 1 << ((p - 1) * SIZE + lane)
            if 2 <= p <= SIZE + 1:
                mask |= 1 << ((p - 2) * SIZE + lane)
        for lane, p in enumerate(self.progress[1]):
            if 1 <= p <= SIZE:
                mask |= 1 << (lane * SIZE + p - 1)
            if 2 <= p <= SIZE + 1:
                mask |= 1 << (lane * SIZE + p - 2)
        return mask

    def _target(self, side: int, lane: int) -> int | None:
        """Return the cell a lane's die enters when pushed, or None when it needs no free cell."""
        p = self.progress[side][lane]
        if p >= SIZE:
            return None
        return p * SIZE + lane if side == 0 else lane * SIZE + p

    def _blocked(self, side: int, occupied: int) -> int:
        mask = 0
        for lane in range(SIZE):
            target = self._target(side, lane)
            if target is not None and occupied >> target & 1:
                mask |= 1 << lane
        return mask

    # -- queries --

    def current_player(self) -> str:
        """Return the side that pushes this turn ('south' or 'west'); the other side throws."""
        return SIDES[self.pusher]

    def thrower(self) -> str:
        """Return the side that throws and places the neutral dice this turn."""
        return SIDES[1 - self.pusher]

    def deciders(self) -> tuple[str, ...]:
        """Return who chooses the parts of a turn, once the dice are thrown: the thrower places the
        neutral dice, then the pusher pushes."""
        return (SIDES[1 - self.pusher], SIDES[self.pusher])

    def move_parts(self, move: PushTurn) -> tuple[tuple[int | None, int | None], tuple[tuple[int, int], ...]]:
        """Return a turn as the thrower's choice (the neutral dice's cells) and the pusher's (the push)."""
        return (move.cells, move.pushes)

    def die_value(self, side: str, lane: str) -> int:
        """Return the value a side's die in a lane (file or rank name) shows."""
        s = SIDES.index(side)
        return self.values[s][LANES[s].index(lane)]

    def lane_progress(self, side: str, lane: str) -> int:
        """Return how many pushes a lane's die has made (7: die off the board, 8: pawn off too)."""
        s = SIDES.index(side)
        return self.progress[s][LANES[s].index(lane)]

    def pawns_off(self, side: str) -> int:
        """Return how many of a side's pawns have left the board."""
        return sum(1 for p in self.progress[SIDES.index(side)] if p >= PAWN_OFF)

    def _free_cells(self, occupied: int, value: int) -> list[int]:
        return [c for c in self.cells_of[value] if not occupied >> c & 1]

    def _placements(self, throw: tuple[int, int], occupied: int) -> list[tuple[int | None, int | None]]:
        a, b = throw
        free_a = self._free_cells(occupied, a)
        if a != b:
            cells_a: list[int | None] = [*free_a] or [None]
            cells_b: list[int | None] = [*self._free_cells(occupied, b)] or [None]
            return [(ca, cb) for ca in cells_a for cb in cells_b]
        if len(free_a) >= 2:
            return list(itertools.combinations(free_a, 2))
        return [(free_a[0], None)] if free_a else [(None, None)]

    def _candidates(self, throw: tuple[int, int]) -> list[int]:
        """Return the lane masks whose dice add up to the total, or a single die of a thrown value."""
        by_sum, singles = _subsets(tuple(self.values[self.pusher]))
        masks = set(by_sum.get(throw[0] + throw[1], ()))
        masks.update(singles.get(throw[0], ()))
        masks.update(singles.get(throw[1], ()))
        return sorted(masks)

    def _expand(self, mask: int) -> list[tuple[tuple[int, int], ...]]:
        lanes = [lane for lane in range(SIZE) if mask >> lane & 1]
        if not self.adjust:
            return [tuple((lane, 0) for lane in lanes)]
        values = self.values[self.pusher]
        progress = self.progress[self.pusher]
        choices = []
        for lane in lanes:
            if progress[lane] >= DIE_OFF:
                choices.append([(lane, d) for d in (0, 1, -1) if 1 <= values[lane] + d <= SIZE])
            else:
                choices.append([(lane, 0)])
        return [tuple(combo) for combo in itertools.product(*choices)]

    def _blocked_with(self, occupied: int, cells: tuple[int | None, int | None]) -> int:
        """Return the pusher's lanes that cannot move, with the neutral dice on ``cells``."""
        side = self.pusher
        blocked = self._blocked(side, occupied)
        for lane in range(SIZE):
            target = self._target(side, lane)
            if target is not None and target in cells:
                blocked |= 1 << lane
        return blocked

    def random_move(self, rng: Any) -> PushTurn:
        """Return a legal turn as played: a fair throw, a random placement, a random push."""
        if self._over is not None:
            raise IllegalMoveError(Msg("game.any.over"))
        a, b = rng.randint(1, SIZE), rng.randint(1, SIZE)
        throw = (min(a, b), max(a, b))
        occupied = self._occupied()
        cells = rng.choice(self._placements(throw, occupied))
        blocked = self._blocked_with(occupied, cells)
        options = [p for m in self._candidates(throw) if not m & blocked for p in self._expand(m)] or [()]
        return PushTurn(throw, cells, rng.choice(options))

    def chance_of(self, move: PushTurn) -> tuple[int, int]:
        """Return the throw a turn carries (lowest die first)."""
        return move.throw

    def random_chance(self, rng: Any) -> tuple[int, int] | None:
        """Return a fair throw of the two neutral dice, lowest first (None once the game is over)."""
        if self._over is not None:
            return None
        a, b = rng.randint(1, SIZE), rng.randint(1, SIZE)
        return (min(a, b), max(a, b))

    def chance_moves(self, outcome: Any) -> list[PushTurn]:
        """Return every turn with the throw ``outcome``: each placement, each push (or ``: -``)."""
        if outcome is None:
            return self.legal_moves()
        return [m for m in self._generate((outcome,))] if self._over is None else []

    def legal_moves(self) -> list[PushTurn]:
        """Return every turn: each unordered throw, each placement, each push (or ``: -``)."""
        if self._over is not None:
            return []
        if self._moves is None:
            self._moves = self._generate()
        return list(self._moves)

    def _generate(self, throws: tuple[tuple[int, int], ...] = THROWS) -> list[PushTurn]:
        moves: list[PushTurn] = []
        for throw in throws:
            for cells, options in self._turn_options(throw):
                moves.extend(PushTurn(throw, cells, pushes) for pushes in options)
        return moves

    def _turn_options(
        self, throw: tuple[int, int]
    ) -> list[tuple[tuple[int | None, int | None], list[tuple[tuple[int, int], ...]]]]:
        """Return each placement of a throw with the pushes it leaves (``()`` alone: ``: -``)."""
        occupied = self._occupied()
        base = self._blocked(self.pusher, occupied)
        targets = [self._target(self.pusher, lane) for lane in range(SIZE)]
        candidates = self._candidates(throw)
        by_blocked: dict[int, list[tuple[tuple[int, int], ...]]] = {}
        found = []
        for cells in self._placements(throw, occupied):
            blocked = base
            for lane, target in enumerate(targets):
                if target is not None and target in cells:
                    blocked |= 1 << lane
            options = by_blocked.get(blocked)
            if options is None:
                options = [p for m in candidates if not m & blocked for p in self._expand(m)] or [()]
                by_blocked[blocked] = options
            found.append((cells, options))
        return found

    def random_chance_move(self, outcome: Any, rng: Any) -> PushTurn:
        """Return the turn ``rng.choice(self.chance_moves(outcome))`` would, without listing the turns."""
        if outcome is None or self._over is not None:
            return super().random_chance_move(outcome, rng)
        found = self._turn_options(outcome)
        index = rng.below(sum(len(options) for _, options in found))
        for cells, options in found:
            if index < len(options):
                return PushTurn(outcome, cells, options[index])
            index -= len(options)
        raise AssertionError("the index lies within the turns counted")

    # -- a turn's two parts, as the thrower and the pusher type them in live play --

    def part_names(self) -> tuple[str, ...]:
        """Return what the two players do in a turn: the thrower places, the pusher pushes."""
        return ("place the neutral dice", "push")

    def part_str(self, move: PushTurn, stage: int) -> str:
        """Return the thrower's part of a turn (``3@c4 5@e2``) or the pusher's (``5 3``, ``-``)."""
        places, _, pushes = self.move_str(move).partition(" : ")
        return places if stage == 0 else pushes

    def parse_part(self, text: str, stage: int, among: Sequence[PushTurn] | None = None) -> list[PushTurn]:
        """Return the turns of ``among`` (None: every turn of the throw written) with the placement
        written (``3@c4 5@e2``, stage 0: the throw is the two values) or, once the neutral dice are
        placed, the push written (``5 3`` or ``-``, stage 1)."""
        if self._over is not None:
            raise IllegalMoveError(Msg("game.push.over", reason=self._over.reason))
        line = " ".join(text.split())
        if stage == 0:
            if ":" in line:
                raise NotationError(Msg("game.push.thrower_only", line=repr(line)))
            places = line.split()
            if len(places) != 2:
                raise NotationError(Msg("game.push.place_two", line=repr(line)))
            throw: list[int] = []
            cells: list[int | None] = []
            for token in places:
                match = _PLACE.match(token)
                if not match:
                    raise NotationError(Msg("game.push.not_neutral", token=repr(token)))
                throw.append(int(match.group(1)))
                cells.append(None if match.group(2) == "-" else CELL_INDEX[match.group(2)])
            canon_throw, canon_cells = _canonical_cells((throw[0], throw[1]), (cells[0], cells[1]))
            placed = PushTurn(canon_throw, canon_cells, ())
            self._check_placements(placed, self._occupied())
            pool = self.chance_moves(canon_throw) if among is None else list(among)
            found = [m for m in pool if m.throw == canon_throw and m.cells == canon_cells]
            if not found:
                shown = sorted({m.throw for m in pool})
                raise IllegalMoveError(
                    Msg(
                        "game.push.dice_show",
                        shown=_either([Msg("game.push.pair", a=a, b=b) for a, b in shown]),
                        a=canon_throw[0],
                        b=canon_throw[1],
                    )
                )
            return found
        pool = list(among or ())
        if not pool:
            raise IllegalMoveError(Msg("game.push.place_first"))
        move = self.parse_move(f"{self.part_str(pool[0], 0)} : {line}")
        self.check_move(move)
        if move not in pool:
            raise IllegalMoveError(Msg("game.push.not_open", line=line))
        return [move]

    def part_choices(self, stage: int, among: Sequence[PushTurn] | None = None) -> list[str]:
        """Return the thrower's choices grouped by die value (``3 on c4 e2``: the empty cells
        showing it) when the throw is not known, each placement of a known throw, or each push."""
        if stage == 0 and among is None:
            occupied = self._occupied()
            choices: list[str] = []
            for value in range(1, SIZE + 1):
                free = sorted(CELLS[c] for c in self._free_cells(occupied, value))
                choices.append(
                    Msg("game.push.choice", value=value, cells=" ".join(free))
                    if free
                    else Msg("game.push.choice.none", value=value)
                )
            return choices
        moves = self.legal_moves() if among is None else list(among)
        return sorted({self.part_str(m, stage) for m in moves}, key=lambda t: (len(t.split()), t))

    def text_during(self, move: PushTurn, made: int) -> str:
        """Return the grid with the neutral dice of ``move`` on their cells, marked (3), once placed."""
        if made < 1:
            return self.text()
        return self._picture({c: v for v, c in zip(move.throw, move.cells) if c is not None})

    # -- notation --

    def parse_move(self, text: str) -> PushTurn:
        """Return the turn written like ``3@c4 5@e2 : 5 3`` (dice named by value, for this position)."""
        line = " ".join(text.split())
        left, colon, right = line.partition(":")
        if not colon:
            raise NotationError(Msg("game.push.not_turn", line=repr(line)))
        places = left.split()
        if len(places) != 2:
            raise NotationError(Msg("game.push.starts_with", line=repr(line)))
        throw: list[int] = []
        cells: list[int | None] = []
        for token in places:
            match = _PLACE.match(token)
            if not match:
                raise NotationError(Msg("game.push.not_neutral", token=repr(token)))
            throw.append(int(match.group(1)))
            cells.append(None if match.group(2) == "-" else CELL_INDEX[match.group(2)])
        canon_throw, canon_cells = _canonical_cells((throw[0], throw[1]), (cells[0], cells[1]))
        tokens = right.split()
        if tokens == ["-"]:
            return PushTurn(canon_throw, canon_cells, ())
        if not tokens:
            raise NotationError(Msg("game.push.after_colon", line=repr(line)))
        side = self.pusher
        values = self.values[side]
        pushes: dict[int, int] = {}
        for token in tokens:
            match = _DIE.match(token)
            if not match:
                raise NotationError(Msg("game.push.not_pushed", token=repr(token)))
            value = int(match.group(1))
            lane_name, sign = match.group(2), match.group(3)
            if lane_name is not None:
                if lane_name not in LANES[side]:
                    raise NotationError(Msg(f"game.push.lanes_are.{SIDES[side]}", token=repr(token)))
                lane = LANES[side].index(lane_name)
                if values[lane] != value:
                    raise IllegalMoveError(
                        Msg(
                            f"game.push.lane_shows.{SIDES[side]}",
                            lane=lane_name,
                            shown=values[lane],
                            value=value,
                        )
                    )
            else:
                lanes = [k for k, v in enumerate(values) if v == value]
                if not lanes:
                    raise IllegalMoveError(Msg("game.push.no_die", side=_side(side), value=value))
                if len(lanes) > 1:
                    named = _either([f"{value}/{LANES[side][k]}" for k in lanes])
                    raise IllegalMoveError(
                        Msg("game.push.two_dice", side=_side(side), value=value, named=named)
                    )
                lane = lanes[0]
            if lane in pushes:
                raise IllegalMoveError(Msg("game.push.twice", token=token))
            pushes[lane] = {"": 0, "+": 1, "-": -1}[sign]
        return PushTurn(canon_throw, canon_cells, tuple(sorted(pushes.items())))

    def move_str(self, move: PushTurn) -> str:
        """Return the turn in notation, e.g. ``3@c4 5@e2 : 5 3``."""
        places = " ".join(f"{v}@{CELLS[c] if c is not None else '-'}" for v, c in zip(move.throw, move.cells))
        if not move.pushes:
            return f"{places} : -"
        side = self.pusher
        values = self.values[side]
        tokens = []
        for lane, adjust in sorted(move.pushes, key=lambda p: (-values[p[0]], p[0])):
            value = values[lane]
            name = f"/{LANES[side][lane]}" if values.count(value) > 1 else ""
            tokens.append(f"{value}{name}{'+' if adjust > 0 else '-' if adjust < 0 else ''}")
        return f"{places} : {' '.join(tokens)}"

    # -- rules --

    def check_move(self, move: PushTurn) -> None:
        """Raise IllegalMoveError with the reason when the turn breaks a rule."""
        if self._over is not None:
            raise IllegalMoveError(Msg("game.push.over", reason=self._over.reason))
        occupied = self._occupied()
        self._check_placements(move, occupied)
        side = self.pusher
        blocked = self._blocked_with(occupied, move.cells)
        if not move.pushes:
            for mask in self._candidates(move.throw):
                if not mask & blocked:
                    example = self.move_str(PushTurn(move.throw, move.cells, self._expand(mask)[0]))
                    raise IllegalMoveError(
                        Msg("game.push.can_push", side=_side(side), example=example.split(":")[1].strip())
                    )
            return
        self._check_pushes(move, occupied, blocked)

    def _check_placements(self, move: PushTurn, occupied: int) -> None:
        taken: set[int] = set()
        for value, cell in zip(move.throw, move.cells):
            if cell is None:
                continue
            name = CELLS[cell]
            if self.numbers[cell] != value:
                raise IllegalMoveError(
                    Msg("game.push.cell_shows", name=name, number=self.numbers[cell], value=value)
                )
            if occupied >> cell & 1:
                raise IllegalMoveError(Msg("game.push.not_empty", name=name))
            if cell in taken:
                raise IllegalMoveError(Msg("game.push.both_on", name=name))
            taken.add(cell)
        for value, cell in zip(move.throw, move.cells):
            if cell is None:
                free = [c for c in self._free_cells(occupied, value) if c not in taken]
                if free:
                    raise IllegalMoveError(Msg("game.push.must_place", value=value, cell=CELLS[free[0]]))

    def _check_pushes(self, move: PushTurn, occupied: int, blocked: int) -> None:
        side = self.pusher
        values = self.values[side]
        lanes_named = [lane for lane, _ in move.pushes]
        if len(set(lanes_named)) != len(lanes_named) or any(not 0 <= k < SIZE for k in lanes_named):
            raise IllegalMoveError(Msg("game.push.once"))
        chosen = [values[lane] for lane in lanes_named]
        total = move.throw[0] + move.throw[1]
        if not (sum(chosen) == total or (len(chosen) == 1 and chosen[0] in move.throw)):
            written = " + ".join(str(v) for v in sorted(chosen, reverse=True))
            said = (
                Msg("game.push.not_sum", written=written, sum=sum(chosen))
                if len(chosen) > 1
                else Msg("game.push.not_alone", written=written)
            )
            raise IllegalMoveError(
                Msg("game.push.add_up", total=total, a=move.throw[0], b=move.throw[1], said=said)
            )
        for lane, adjust in move.pushes:
            label = Msg(f"game.push.label.{SIDES[side]}", value=values[lane], lane=LANES[side][lane])
            if blocked >> lane & 1:
                target = self._target(side, lane)
                assert target is not None
                raise IllegalMoveError(Msg("game.push.blocked", label=label, cell=CELLS[target]))
            if adjust:
                sign = "+" if adjust > 0 else "-"
                if not self.adjust:
                    raise IllegalMoveError(Msg("game.push.no_adjust", die=f"{values[lane]}{sign}"))
                if self.progress[side][lane] < DIE_OFF:
                    raise IllegalMoveError(Msg("game.push.still_on", label=label))
                if not 1 <= values[lane] + adjust <= SIZE:
                    raise IllegalMoveError(
                        Msg(f"game.push.{'raised' if adjust > 0 else 'lowered'}", label=label)
                    )

    def _apply(self, move: PushTurn) -> None:
        """Play a legal turn: push the chosen dice and pawns, adjust, then swap the roles."""
        side = self.pusher
        progress = self.progress[side]
        for lane, adjust in move.pushes:
            if progress[lane] < PAWN_OFF:
                progress[lane] += 1
            if adjust:
                self.values[side][lane] += adjust
        self.pusher = 1 - side
        self._moves = None
        if all(p >= PAWN_OFF for p in progress):
            self._over = Outcome(
                True, SIDES[side], False, self._score(), Msg("game.push.won", side=_side(side))
            )
        elif self.ply >= self.limit:
            self._over = Outcome(
                True,
                None,
                True,
                self._score(),
                Msg("game.any.limit", limit=counted(self.limit, TURN_UNIT)),
            )

    def _score(self) -> dict[str, int]:
        return {name: self.pawns_off(name) for name in SIDES}

    def is_terminal(self) -> bool:
        """Return True when the game is over."""
        return self._over is not None

    def outcome(self) -> Outcome:
        """Return the result so far; the score is each side's pawns off the board."""
        return self._over if self._over is not None else Outcome(False, None, False, self._score())

    def text(self) -> str:
        """Return the grid with the start rows: ^5 a South die, >5 a West die, s/w pawns."""
        return self._picture({})

    def _picture(self, neutral: Mapping[int, int]) -> str:
        """Return the grid (with neutral dice, cell -> value, shown as (3)), the dice off, whose turn."""
        grid: dict[tuple[int, int], str] = {}
        for f in range(SIZE):
            for r in range(SIZE):
                grid[(f, r)] = f" {self.numbers[r * SIZE + f]} "
        for lane, p in enumerate(self.progress[0]):
            if p < DIE_OFF:
                grid[(lane, p - 1)] = f"^{self.values[0][lane]} "
            if p < PAWN_OFF:
                grid[(lane, p - 2)] = " s "
        for lane, p in enumerate(self.progress[1]):
            if p < DIE_OFF:
                grid[(p - 1, lane)] = f">{self.values[1][lane]} "
            if p < PAWN_OFF:
                grid[(p - 2, lane)] = " w "
        for cell, value in neutral.items():
            grid[(cell % SIZE, cell // SIZE)] = f"({value})"
        lines: list[str] = []
        for r in range(SIZE - 1, -3, -1):
            label = f"{r + 1} " if r >= 0 else "  "
            row = "".join(grid.get((f, r), "   ") for f in range(-2, SIZE))
            lines.append((label + row).rstrip())
        lines.append(("  " + "      " + "".join(f" {chr(97 + f)} " for f in range(SIZE))).rstrip())
        lines.append("")
        for s, name in enumerate(SIDES):
            off = [f"{self.values[s][k]}" for k in range(SIZE) if self.progress[s][k] >= DIE_OFF]
            lines.append(
                Msg(
                    "game.push.off",
                    side=side_msg(name),
                    dice=", ".join(off) or Msg("game.push.none"),
                    pawns=self.pawns_off(name),
                )
            )
        if self._over is not None:
            lines.append(Msg("game.push.game_over", reason=self._over.reason))
        elif neutral:
            placed = Msg.joined(
                ", ",
                [
                    Msg("game.push.on", value=v, cell=CELLS[c])
                    for c, v in sorted(neutral.items(), key=lambda p: CELLS[p[0]])
                ],
            )
            lines.append(Msg("game.push.placed", turn=self.ply + 1, placed=placed, side=_side(self.pusher)))
        else:
            lines.append(
                Msg(
                    "game.push.turn",
                    turn=self.ply + 1,
                    thrower=_side(1 - self.pusher),
                    side=_side(self.pusher),
                )
            )
        return Msg.joined("\n", lines)


@lru_cache(maxsize=4096)
def _subsets(values: tuple[int, ...]) -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]]:
    """Return lane masks by the sum of their dice, and single-die masks by value."""
    by_sum: dict[int, list[int]] = {}
    for mask in range(1, 1 << SIZE):
        total = sum(values[k] for k in range(SIZE) if mask >> k & 1)
        if total <= 12:
            by_sum.setdefault(total, []).append(mask)
    singles: dict[int, list[int]] = {}
    for k, v in enumerate(values):
        singles.setdefault(v, []).append(1 << k)
    return ({t: tuple(m) for t, m in by_sum.items()}, {v: tuple(m) for v, m in singles.items()})


# --- pictures and layout data ------------------------------------------------------------------


def board_picture(numbers: tuple[int, ...]) -> str:
    """Return the numbers as a text grid, rank 6 at the top, with file and rank labels."""
    lines = []
    for r in range(SIZE - 1, -1, -1):
        lines.append(f"{r + 1}  " + "  ".join(str(numbers[r * SIZE + f]) for f in range(SIZE)))
    lines.append("   " + "  ".join(chr(97 + f) for f in range(SIZE)))
    return "\n".join(lines) + "\n"


def square_name(fx: int, ry: int) -> str:
    """Return a cell's name (``c4``), or ``@x,y`` (file and rank index from 0) outside the grid."""
    if 0 <= fx < SIZE and 0 <= ry < SIZE:
        return CELLS[ry * SIZE + fx]
    return f"@{fx},{ry}"


def _lane_square(side: int, lane: int, step: int) -> str:
    """Return where a lane's piece stands ``step`` cells in (0: the start slot just outside)."""
    return square_name(lane, step - 1) if side == 0 else square_name(step - 1, lane)


def _outside() -> dict[str, list[str]]:
    """Return the start slots outside the grid: square -> [slot mark], in grid-board form."""
    slots: dict[str, list[str]] = {}
    for side, name in enumerate(SIDES):
        for lane in range(SIZE):
            slots[_lane_square(side, lane, 0)] = [f"slot:{name}:die"]
            slots[_lane_square(side, lane, -1)] = [f"slot:{name}:pawn"]
    return dict(sorted(slots.items()))


def _pieces(state: PushState) -> dict[str, str]:
    pieces: dict[str, str] = {}
    for side, name in enumerate(SIDES):
        for lane, p in enumerate(state.progress[side]):
            if p < DIE_OFF:
                pieces[_lane_square(side, lane, p)] = f"{name}:die:{state.values[side][lane]}"
            if p < PAWN_OFF:
                pieces[_lane_square(side, lane, p - 1)] = f"{name}:pawn"
    return pieces


# Turns leading to the booklet's example: (throw, pushes wanted), then the example turn itself.
_EXAMPLE_SCRIPT = (((3, 5), "5 3"), ((2, 4), "4 2"), ((1, 6), "6 1"), ((2, 3), "3 2"))
_EXAMPLE_TURN = ((3, 5), "5 3")


def _scripted(state: PushState, throw: tuple[int, int], wanted: str) -> PushTurn:
    """Return the first legal turn with this throw pushing ``wanted``, else the one pushing most."""
    moves = state.chance_moves(throw)  # the turns of this throw only, in legal_moves' order
    for m in moves:
        if state.move_str(m).split(":")[1].strip() == wanted:
            return m
    return max(moves, key=lambda m: len(m.pushes))


def example_push(seed: int) -> dict[str, Any]:
    """Return a booklet overlay: a few opening turns on this board, then South pushing 5 and 3.

    Keys: pieces (square -> 'south:die:5', 'west:pawn', 'neutral:3'), arrows (each pushed die),
    highlight (the cells the pushed dice move into),
    and for the words: turn, throw, total, pusher, placements, pushed, alternatives (the other
    turns allowed with the same placements); before: the
    record of the opening turns that lead to the position."""
    state = RULES.new_state(seed)
    for throw, wanted in _EXAMPLE_SCRIPT:
        state.apply_move(_scripted(state, throw, wanted))
    occupied = state._occupied()
    base = state._blocked(state.pusher, occupied)
    candidates = [
        m
        for m in state.chance_moves(_EXAMPLE_TURN[0])
        if state.move_str(m).split(":")[1].strip() == _EXAMPLE_TURN[1]
    ]
    # Prefer a placement where a neutral die stands in front of one of the pusher's dice.
    move = max(
        candidates, key=lambda m: bin(state._blocked_with(occupied, m.cells) & ~base).count("1"), default=None
    ) or _scripted(state, *_EXAMPLE_TURN)
    blocked_mask = state._blocked_with(occupied, move.cells)
    pieces = _pieces(state)
    for value, cell in zip(move.throw, move.cells):
        if cell is not None:
            pieces[CELLS[cell]] = f"neutral:{value}"
    side = state.pusher
    blocked = []
    for lane in range(SIZE):
        target = state._target(side, lane)
        if blocked_mask >> lane & 1 and target is not None:
            by = "neutral" if target in move.cells else "piece"
            blocked.append({"die": state.values[side][lane], "cell": CELLS[target], "by": by})
    arrows = []
    for lane, _ in move.pushes:
        p = state.progress[side][lane]
        arrows.append([_lane_square(side, lane, p), _lane_square(side, lane, p + 1)])
    others = sorted(
        {state.move_str(m) for m in state.chance_moves(move.throw) if m.cells == move.cells and m != move},
        key=lambda t: (-len(t.split(":")[1].split()), t),
    )
    return {
        "pieces": dict(sorted(pieces.items())),
        "arrows": sorted(arrows),
        "highlight": sorted({end for _, end in arrows if not end.startswith("@")}),
        "turn": state.move_str(move),
        "throw": list(move.throw),
        "total": sum(move.throw),
        "thrower": state.thrower(),
        "pusher": state.current_player(),
        "placements": {str(v): (CELLS[c] if c is not None else "-") for v, c in zip(move.throw, move.cells)},
        "pushed": [state.values[side][lane] for lane, _ in move.pushes][::-1],
        "alternatives": others,
        "blocked": blocked,
        "seed": seed,
        "before": [state.move_str(m) for m in state.history],
    }


@dataclass(frozen=True)
class PushRules(GameRules):
    """The rules of Push! and its numbered grid."""

    def new_state(
        self,
        seed: int | None = None,
        variants: frozenset[str] = frozenset(),
        tags: Mapping[str, str] | None = None,
    ) -> PushState:
        """Return the opening: dice and pawns outside the grid, South to throw, West to push."""
        variants = self.check_variants(variants)
        seed_value = DEFAULT_SEED if seed is None else check_seed(seed)
        return PushState(
            seed_value,
            board_numbers(seed_value),
            orders_from_tags(tags or {}),
            "adjust" in variants,
            turn_limit(tags, self.default_turn_limit),
        )

    def board_data(self, seed: int | None = None, variants: frozenset[str] = frozenset()) -> dict[str, Any]:
        """Return game, seed and numbers: cell -> number."""
        self.check_variants(variants)
        seed_value = DEFAULT_SEED if seed is None else check_seed(seed)
        numbers = board_numbers(seed_value)
        return {
            "game": self.id,
            "seed": seed_value,
            "numbers": {name: numbers[i] for i, name in sorted(enumerate(CELLS), key=lambda p: p[1])},
        }

    def board_text(self, seed: int | None = None, variants: frozenset[str] = frozenset()) -> str:
        """Return the numbers as a text grid with a title naming the seed."""
        self.check_variants(variants)
        seed_value = DEFAULT_SEED if seed is None else check_seed(seed)
        return f"Push!, seed {seed_value}\n\n{board_picture(board_numbers(seed_value))}"

    def layout_data(
        self, name: str, seed: int | None = None, variants: frozenset[str] = frozenset()
    ) -> dict[str, Any]:
        """Return 'board' (numbers, seed, start slots outside, exit edges) or 'position:push'."""
        self.check_variants(variants)
        seed_value = DEFAULT_SEED if seed is None else check_seed(seed)
        if name == "position:push":
            return example_push(seed_value)
        if name != "board":
            raise BoardError(f"push provides no layout data {name!r} (known: board, position:push)")
        numbers = board_numbers(seed_value)
        return {
            "files": SIZE,
            "ranks": SIZE,
            "seed": seed_value,
            "cells": {
                name: [f"text:{numbers[i]}"] for i, name in sorted(enumerate(CELLS), key=lambda p: p[1])
            },
            "outside": _outside(),
            "exits": {"south": "north", "west": "east"},
        }

    def template_values(self) -> dict[str, Any]:
        """Return grid size, dice and pawns per side, default seed and orders, and the turn limit."""
        return {
            "size": SIZE,
            "files": SIZE,
            "ranks": SIZE,
            "dice_per_side": SIZE,
            "pawns_per_side": SIZE,
            "neutral_dice": 2,
            "sides": list(SIDES),
            "first_thrower": SIDES[0],
            "first_pusher": SIDES[1],
            "default_seed": DEFAULT_SEED,
            "default_order": DEFAULT_ORDER,
            "example_order": "314265",
            "throw_count": len(THROWS),
            "turn_limit": self.default_turn_limit,
        }


RULES = PushRules(
    turn_unit=TURN_UNIT,
    id="push",
    title="Push!",
    sides=SIDES,
    variants=VARIANTS,
    seeded=True,
    extra_tags=ORDER_TAGS,
    move_per_line=True,
)


def _side(who: int) -> Msg:
    """Return a side as the rules' reasons name it mid-sentence ('south')."""
    return Msg(f"game.push.side.{SIDES[who]}")


def _either(choices: Sequence[str]) -> str:
    """Return choices joined by 'or' in the referee's language ('2 and 5 or 3 and 4')."""
    joined = choices[0]
    for choice in choices[1:]:
        joined = Msg("game.push.or", some=joined, last=choice)
    return joined
