"""Centennial: a race of counters along a strip of boxes 1 to 12 and back, driven by three dice.

A counter makes 23 steps: boxes 1, 2, ..., 12, then 11, ..., 1. Each step's number must be shown
by one die or made by adding two or three of them; one throw may chain several steps and a die may
serve again in a later step. Numbers the thrower could have used next but did not may be claimed,
before the next throw, by another player who needs exactly that number; the claimer moves one step,
and may then claim the next left-over number if their counter now needs it.

The turn limit (``TurnLimit``, 200 by default) counts throws in a game of two players and rounds
(every player has thrown once) in a game of more, so that 200 means 200 throws each.

Notation (one move per line): a throw ``P2 1 2 3 -> 6`` (player 2 threw 1 2 3 and ends on box 6;
``-> -`` keeps a counter that has not entered off the strip). Near the turn a box number may be
reachable on the way out and on the way back: a plain number means the further one, ``-> 11 out``
or ``-> 11 back`` says which. A claim is ``P3 claims 4``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union

from generator.foundation.errors import BoardError, IllegalMoveError, NotationError
from generator.foundation.languages import Msg, counted
from generator.foundation.numbers import is_ascii_digits
from generator.games.base import GameRules, Outcome, State, turn_limit
from generator.games.dice import (
    ROUND_UNIT,
    TURN_UNIT,
    all_throws,
    fair_throw,
    label,
    limit_str,
    parse_die,
    players_from_tags,
    side_name,
    sums,
    throw_str,
    throws_per_turn,
    turn_str,
)

BOXES = 12
STEPS = 2 * BOXES - 1
MIN_PLAYERS = 2
MAX_PLAYERS = 8
DEFAULT_PLAYERS = 2
DICE = 3

#: NEED[k] is the number that step k (1..23) needs; NEED[0] is unused.
NEED = (0,) + tuple(k if k <= BOXES else 2 * BOXES - k for k in range(1, STEPS + 1))


def box_of(step: int) -> int:
    """Return the box a counter stands on after ``step`` steps (0 = not yet on the strip)."""
    return step if step <= BOXES else 2 * BOXES - step


def need_of(step: int) -> int:
    """Return the number a counter that has made ``step`` steps needs next (0 once home)."""
    return NEED[step + 1] if step < STEPS else 0


def chain_end(step: int, dice: tuple[int, ...]) -> int:
    """Return the furthest step a throw can carry a counter to from ``step``."""
    made = sums(dice)
    while step < STEPS and NEED[step + 1] in made:
        step += 1
    return step


@dataclass(frozen=True)
class Throw:
    """A player's throw and the box their counter ends on (0: still off the strip)."""

    player: str
    dice: tuple[int, ...]
    box: int
    lane: str = ""  # "", "out" or "back": which pass through the box, when the number alone is unclear


@dataclass(frozen=True)
class Claim:
    """A player claims a number the last thrower needed but left unused, and moves one step."""

    player: str
    number: int


Move = Union[Throw, Claim]

_THROW = re.compile(r"^[Pp](\S*)\s+(.*?)\s*(?:->|→)\s*(\S+)(?:\s+(\S+))?$")
_CLAIM = re.compile(r"^[Pp](\S*)\s+claims\s+(\S+)$", re.IGNORECASE)


def _step_for(box: int, lane: str, low: int, high: int) -> int | None:
    """Return the step written as box (and lane) that lies in low..high, the furthest if two do."""
    if box == 0:
        candidates = [0]
    elif box == BOXES:
        candidates = [BOXES]
    elif lane == "out":
        candidates = [box]
    elif lane == "back":
        candidates = [2 * BOXES - box]
    else:
        candidates = [box, 2 * BOXES - box]
    inside = [s for s in candidates if low <= s <= high]
    return max(inside) if inside else None


class CentennialState(State[Move]):
    """A Centennial position: every counter's steps, whose throw is next, and the open claims."""

    def __init__(self, players: int, limit: int) -> None:
        super().__init__(limit)
        self.players = players
        self.sides = [side_name(i) for i in range(players)]
        self.max_throws = limit * throws_per_turn(players)
        self.steps = [0] * players
        self.to_throw = 0
        self.throws = 0
        self.winner: int | None = None
        self.last: tuple[int, tuple[int, ...], int] | None = None  # thrower, dice, step reached
        self.unused: tuple[int, ...] = ()  # numbers the last thrower needed and left, in order
        self.claimed: dict[int, int] = {}  # position in ``unused`` -> claimer index
        self.stale: tuple[int, ...] = ()  # numbers left unused by the throw before the last

    # -- the State interface -------------------------------------------------------------

    def playing_sides(self) -> tuple[str, ...]:
        """Return the players of this game, p1 to pN (the ``Players`` tag)."""
        return tuple(self.sides)

    def current_player(self) -> str:
        """Return the player whose throw is next (other players may claim before it)."""
        return self.sides[self.to_throw]

    def legal_moves(self) -> list[Move]:
        """Return the open claims, then every throw (56 sorted throws) with each end it can reach."""
        if self.is_terminal():
            return []
        moves: list[Move] = list(self._claims())
        moves.extend(_throw_moves(self.to_throw, self.steps[self.to_throw]))
        return moves

    def chance_of(self, move: Move) -> tuple[int, ...] | None:
        """Return the dice a throw carries (sorted); None for a claim, which no dice decide."""
        return move.dice if isinstance(move, Throw) else None

    def random_chance(self, rng: Any) -> tuple[int, ...] | None:
        """Return a fair throw of the three dice, sorted (None once the game is over)."""
        return None if self.is_terminal() else fair_throw(rng, DICE)

    def parse_move(self, text: str) -> Move:
        """Return the throw or claim written as text; raise NotationError when it is neither.

        Dice are sorted and the lane written as ``legal_moves`` lists the throw, so every way of
        writing one throw parses to the same move."""
        text = " ".join(text.split())
        match = _CLAIM.match(text)
        if match:
            number = match.group(2)
            if not is_ascii_digits(number):
                raise NotationError(Msg("game.centennial.claim_number", text=repr(number)))
            return Claim(self._side(match.group(1), text), int(number))
        match = _THROW.match(text)
        if not match:
            raise NotationError(Msg("game.centennial.notation", text=repr(text)))
        side = self._side(match.group(1), text)
        tokens = match.group(2).split()
        if len(tokens) != DICE:
            raise NotationError(Msg("game.everest.dice_count", dice=DICE, got=repr(match.group(2))))
        dice = tuple(sorted(parse_die(t) for t in tokens))
        box_text, lane = match.group(3), (match.group(4) or "").lower()
        if box_text == "-":
            box = 0
        elif is_ascii_digits(box_text) and 1 <= int(box_text) <= BOXES:
            box = int(box_text)
        else:
            raise NotationError(Msg("game.centennial.no_box", text=repr(box_text), boxes=BOXES))
        if lane not in ("", "out", "back"):
            raise NotationError(Msg("game.centennial.lane", text=repr(match.group(4))))
        if lane and box in (0, BOXES):
            lane = ""
        return self._as_listed(Throw(side, dice, box, lane))

    def _as_listed(self, move: Throw) -> Throw:
        """Return the throw as ``legal_moves`` writes it: a lane only where the box alone would name
        the other pass (so '-> 3 out' on the way out is '-> 3', and '-> 11 back' is '-> 11')."""
        who = int(move.player[1:]) - 1
        if who != self.to_throw or self.is_terminal():
            return move
        start = self.steps[who]
        furthest = chain_end(start, move.dice)
        end = _step_for(move.box, move.lane, start, furthest)
        if end is None:
            return move
        lane = "" if _step_for(move.box, "", start, furthest) == end else "out"
        return Throw(move.player, move.dice, move.box, lane)

    def move_str(self, move: Move) -> str:
        """Return the move in notation, e.g. 'P2 1 2 3 -> 6' or 'P3 claims 4'."""
        if isinstance(move, Claim):
            return f"{label(move.player)} claims {move.number}"
        box = str(move.box) if move.box else "-"
        lane = f" {move.lane}" if move.lane else ""
        return f"{label(move.player)} {throw_str(move.dice)} -> {box}{lane}"

    def check_move(self, move: Move) -> None:
        """Raise IllegalMoveError, in a player's words, unless the move is legal now."""
        if self.is_terminal():
            raise IllegalMoveError(Msg("game.any.over"))
        who = self._index(move.player)
        if isinstance(move, Claim):
            self._check_claim(who, move.number)
        else:
            self._end_step(who, move)

    def _apply(self, move: Move) -> None:
        """Play a throw (the counter moves, claims open) or a claim (the claimer moves one step)."""
        who = self._index(move.player)
        if isinstance(move, Claim):
            place = self._open_place(move.number)
            if place is None:
                raise IllegalMoveError(Msg("game.centennial.left", number=move.number))
            self.steps[who] += 1
            self.claimed[place] = who
            if self.steps[who] == STEPS:
                self.winner = who
            return
        start = self.steps[who]
        end = self._end_step(who, move)
        furthest = chain_end(start, move.dice)
        self.steps[who] = end
        self.stale = self.unused
        self.unused = tuple(NEED[k] for k in range(end + 1, furthest + 1))
        self.claimed = {}
        self.last = (who, move.dice, end)
        self.throws += 1
        self.to_throw = (who + 1) % self.players
        if end == STEPS:
            self.winner = who

    def is_terminal(self) -> bool:
        """Return True once a counter is home or the turn limit is reached."""
        return self.winner is not None or self.throws >= self.max_throws

    def outcome(self) -> Outcome:
        """Return the outcome; the score is the box each counter stands on (0: not on the strip)."""
        score = {side: box_of(step) for side, step in zip(self.sides, self.steps)}
        if self.winner is not None:
            who = label(self.sides[self.winner])
            return Outcome(True, self.sides[self.winner], False, score, Msg("game.centennial.won", name=who))
        if self.throws >= self.max_throws:
            return Outcome(
                True, None, True, score, Msg("game.dice.limit", limit=limit_str(self.limit, self.players))
            )
        return Outcome(False, None, False, score)

    def text(self) -> str:
        """Return the counters, whose throw is next and the numbers open to claims, as text."""
        status = Msg(
            "game.centennial.status",
            players=counted(self.players, "player"),
            turn=turn_str(self.throws, self.limit, self.players),
        )
        rows: list[list[str]] = []
        for index, side in enumerate(self.sides):
            step = self.steps[index]
            if step == 0:
                where = Msg("game.centennial.where.off")
            elif step == STEPS:
                where = Msg("game.centennial.where.home")
            else:
                lane = "out" if step < BOXES else ("turn" if step == BOXES else "back")
                where = Msg(f"game.centennial.where.{lane}", box=box_of(step))
            needs: str = Msg("game.centennial.needs", n=need_of(step)) if step < STEPS else ""
            marker = "*" if index == self.to_throw and not self.is_terminal() else " "
            steps = Msg("game.centennial.step", step=f"{step:>2}", steps=STEPS)
            rows.append([marker, label(side), where, steps, "", needs])
        # the columns as wide as the English always set them, wider where a language's words are
        lines: list[str] = [status, Msg.columns(rows, (1, 3, 15))]
        if self.last is not None:
            who, dice, end = self.last
            open_numbers = [str(n) for i, n in enumerate(self.unused) if i not in self.claimed]
            throw = f"{label(self.sides[who])} {throw_str(dice)} -> {box_of(end) or '-'}"
            lines.append(
                Msg(
                    "game.centennial.last",
                    throw=throw,
                    open=" ".join(open_numbers) if open_numbers else Msg("game.centennial.none"),
                )
            )
        return Msg.joined("\n", lines)

    # -- helpers ---------------------------------------------------------------------------

    def _side(self, number: str, text: str) -> str:
        if not is_ascii_digits(number) or int(number) < 1:
            raise NotationError(Msg("game.centennial.player", text=repr(text)))
        return f"p{int(number)}"

    def _index(self, side: str) -> int:
        number = int(side[1:])
        if not 1 <= number <= self.players:
            raise IllegalMoveError(
                Msg("game.dice.no_player", name=label(side), players=counted(self.players, "player"))
            )
        return number - 1

    def _end_step(self, who: int, move: Throw) -> int:
        """Return the step the throw ends on; raise IllegalMoveError when it cannot."""
        if who != self.to_throw:
            raise IllegalMoveError(
                Msg("game.dice.not_turn", side=label(self.sides[self.to_throw]), name=label(move.player))
            )
        start = self.steps[who]
        furthest = chain_end(start, move.dice)
        end = _step_for(move.box, move.lane, start, furthest)
        if end is not None:
            return end
        name, dice = label(move.player), throw_str(move.dice)
        here = (
            Msg("game.centennial.here.off") if start == 0 else Msg("game.centennial.here", box=box_of(start))
        )
        if move.box == 0:
            raise IllegalMoveError(Msg("game.centennial.back_off", name=name, here=here))
        if furthest == start:
            raise IllegalMoveError(
                Msg("game.centennial.stays", dice=dice, need=need_of(start), name=name, here=here)
            )
        origin = (
            Msg("game.centennial.from.off") if start == 0 else Msg("game.centennial.from", box=box_of(start))
        )
        target = Msg(f"game.centennial.to{'.' + move.lane if move.lane else ''}", box=move.box)
        raise IllegalMoveError(
            Msg(
                "game.centennial.too_far",
                dice=dice,
                name=name,
                origin=origin,
                furthest=box_of(furthest),
                target=target,
            )
        )

    def _open_place(self, number: int) -> int | None:
        """Return the position in ``unused`` of the first unclaimed ``number``, or None."""
        for place, left in enumerate(self.unused):
            if left == number and place not in self.claimed:
                return place
        return None

    def _claims(self) -> list[Claim]:
        if self.last is None:
            return []
        thrower = self.last[0]
        moves = []
        for number in dict.fromkeys(n for i, n in enumerate(self.unused) if i not in self.claimed):
            for index in range(self.players):
                if index != thrower and need_of(self.steps[index]) == number:
                    moves.append(Claim(self.sides[index], number))
        return moves

    def _check_claim(self, who: int, number: int) -> None:
        name = label(self.sides[who])
        if self.last is None:
            raise IllegalMoveError(Msg("game.centennial.claim.none_thrown", name=name, number=number))
        thrower, dice, _ = self.last
        thrower_name = label(self.sides[thrower])
        if number in self.stale and number not in self.unused:
            raise IllegalMoveError(Msg("game.centennial.claim.late", number=number))
        if who == thrower:
            raise IllegalMoveError(Msg("game.centennial.claim.own", name=name))
        if number in self.unused and self._open_place(number) is None:
            place = max(i for i, n in enumerate(self.unused) if n == number)
            raise IllegalMoveError(
                Msg(
                    "game.centennial.claim.taken",
                    number=number,
                    claimer=label(self.sides[self.claimed[place]]),
                )
            )
        if number not in self.unused:
            if number in sums(dice):
                raise IllegalMoveError(
                    Msg("game.centennial.claim.not_left", thrower=thrower_name, number=number)
                )
            raise IllegalMoveError(
                Msg(
                    "game.centennial.claim.not_made",
                    thrower=thrower_name,
                    dice=throw_str(dice),
                    number=number,
                )
            )
        needed = need_of(self.steps[who])
        if needed != number:
            raise IllegalMoveError(
                Msg("game.centennial.claim.not_needed", name=name, needed=needed, number=number)
            )


_THROW_MOVES: dict[tuple[int, int], tuple[Throw, ...]] = {}


def _throw_moves(player: int, start: int) -> tuple[Throw, ...]:
    """Return every throw the player may record from ``start``: each sorted throw with each end."""
    key = (player, start)
    cached = _THROW_MOVES.get(key)
    if cached is not None:
        return cached
    side = side_name(player)
    moves = []
    for dice in all_throws(DICE):
        furthest = chain_end(start, dice)
        for end in range(start, furthest + 1):
            box = box_of(end)
            lane = "" if _step_for(box, "", start, furthest) == end else "out"
            moves.append(Throw(side, dice, box, lane))
    _THROW_MOVES[key] = result = tuple(moves)
    return result


#: Example positions for booklet figures: players, moves played from the start, steps highlighted.
_EXAMPLES: dict[str, tuple[int, tuple[str, ...], tuple[int, ...]]] = {
    "chain": (2, ("P1 1 2 3 -> 6",), (1, 2, 3, 4, 5, 6)),
    "turn": (
        2,
        (
            "P1 1 2 3 -> 6",
            "P2 6 6 6 -> -",
            "P1 3 4 5 -> 9",
            "P2 6 6 6 -> -",
            "P1 1 4 6 -> 11",
            "P2 6 6 6 -> -",
            "P1 5 6 6 -> 11",
        ),
        (12, 13),
    ),
    "claim": (2, ("P1 1 4 5 -> 1", "P2 1 4 5 -> 1", "P1 1 1 5 -> 1", "P2 claims 2"), (2,)),
}


@dataclass(frozen=True)
class CentennialRules(GameRules):
    """Centennial for 2 to 8 players (tag ``Players``)."""

    def new_state(
        self,
        seed: int | None = None,
        variants: frozenset[str] = frozenset(),
        tags: Mapping[str, str] | None = None,
    ) -> CentennialState:
        """Return the start: every counter off the strip, P1 to throw."""
        self.check_variants(variants)
        players = players_from_tags(tags, MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS)
        return CentennialState(players, turn_limit(tags, self.default_turn_limit))

    def layout_data(
        self, name: str, seed: int | None = None, variants: frozenset[str] = frozenset()
    ) -> dict[str, Any]:
        """Return the strip ('track': box labels in path order) or an example position for a figure.

        Positions ('position:chain', 'position:turn', 'position:claim') come from playing the example
        moves through the rules: counters by step number (1 = box 1 out), the boxes passed, the moves."""
        if name == "track":
            return {"path": [str(box_of(step)) for step in range(1, STEPS + 1)], "lane_length": BOXES}
        if name.startswith("position:") and name[9:] in _EXAMPLES:
            players, moves, highlight = _EXAMPLES[name[9:]]
            state = self.new_state(tags={"Players": str(players)})
            for move in moves:
                state.play(move)
            pieces: dict[str, list[str]] = {}
            for side, step in zip(state.sides, state.steps):
                if step:
                    pieces.setdefault(str(step), []).append(side)
            return {
                "pieces": {
                    k: v[0] if len(v) == 1 else v
                    for k, v in sorted(pieces.items(), key=lambda kv: int(kv[0]))
                },
                "highlight": [str(h) for h in highlight],
                "moves": list(moves),
                "boxes": {side: box_of(step) for side, step in zip(state.sides, state.steps)},
            }
        raise BoardError(
            f"centennial provides no layout data {name!r} "
            f"(known: track, {', '.join('position:' + k for k in sorted(_EXAMPLES))})"
        )

    def template_values(self) -> dict[str, Any]:
        """Return the strip, dice and player counts for the rule booklet."""
        return {
            "boxes": BOXES,
            "steps": STEPS,
            "dice": DICE,
            "min_players": MIN_PLAYERS,
            "max_players": MAX_PLAYERS,
            "default_players": DEFAULT_PLAYERS,
            "path_out": list(range(1, BOXES + 1)),
            "path_back": list(range(BOXES - 1, 0, -1)),
            "turn_limit": self.default_turn_limit,
            "round_unit": ROUND_UNIT,
            # a claim is a record line of its own: every claim moves its claimer one step and no
            # step is made twice, so a game of two holds at most the winner's steps and all but
            # the last of the other's (record sheets are sized for the turn limit and these)
            "claim_limit": 2 * STEPS - 1,
        }


RULES = CentennialRules(
    turn_unit=TURN_UNIT,
    id="centennial",
    title="Centennial",
    sides=tuple(side_name(i) for i in range(MAX_PLAYERS)),
    extra_tags=("Players",),
    move_per_line=True,
)
