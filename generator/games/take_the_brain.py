"""Take The Brain: a 7 by 8 board whose printed pointers say where a piece may go.

Board: files a to g, ranks 1 to 8; every square carries pointers (absolute directions N, NE, E, SE,
S, SW, W, NW, N toward rank 8). The published layout (``generator/data/take-the-brain-board.json``)
is the default board (seed None). A seed gives a variant board drawn from
``rng_for(seed, "take-the-brain/arrows")``: d4 and d5 keep all eight directions; each of the 27 other
squares of ranks 1 to 4, in order a1, b1, ... g1, a2, ... g4, draws a pointer count (1 to 4, weighted
like the published board: 1:2, 2:6, 3:13, 4:6, counts above the square's on-board directions left
out) and then that many distinct on-board directions; the square's mirror (rotated 180 degrees about
the centre) gets the same pointers turned round. A board is kept when every square can be reached
from every other by one-square steps along pointers; otherwise the same stream draws again, at most
``MAX_ATTEMPTS`` times.

Play (see rulings.md): Red (ranks 1-2) moves first, then Blue. A Ninny or the Brain steps one
square, a Numskull slides any distance, always in a pointer direction of the square it starts on,
never onto or over its own pieces nor over any piece; landing on an enemy captures it (``b1xb4``,
plain moves ``b1-b4``). A Ninny landing on one of the enemy's Numskull starting squares becomes a
Numskull when its side has fewer than four Numskulls (one was captured and can come back).
Capturing the Brain wins; only the two Brains left is a draw; a side with no legal move loses.

A record may set up a position with the tag ``[Setup "Bd1 Sc1 Na2 bd8 nc7; blue"]``: Red pieces in
capitals, Blue in lower case (B Brain, S Numskull, N Ninny), then optionally ``;`` and the side to
move (Red by default). Numskulls missing from a side count as captured.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from generator.foundation.errors import BoardError, IllegalMoveError, NotationError, RecordError
from generator.foundation.languages import Msg, counted, side_msg
from generator.foundation.seeding import check_seed, rng_for
from generator.games.base import GameRules, Outcome, State, turn_limit

#: what the turn limit counts (the rules' ``turn_unit``; the kit's texts name it from there)
TURN_UNIT = "turn"

FILES = 7
RANKS = 8
SQUARES: tuple[str, ...] = tuple(f"{chr(97 + f)}{r + 1}" for r in range(RANKS) for f in range(FILES))
INDEX = {name: i for i, name in enumerate(SQUARES)}
DIRECTIONS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
STEPS: dict[str, tuple[int, int]] = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
DIRECTION_NAMES = {
    "N": "north",
    "NE": "north-east",
    "E": "east",
    "SE": "south-east",
    "S": "south",
    "SW": "south-west",
    "W": "west",
    "NW": "north-west",
}
CENTRE = ("d4", "d5")
SIDES = ("red", "blue")
KINDS = ("brain", "numskull", "ninny")
KIND_LETTERS = ("B", "S", "N")
START: dict[str, dict[str, tuple[str, ...]]] = {
    "red": {
        "brain": ("d1",),
        "numskull": ("b1", "c1", "e1", "f1"),
        "ninny": ("a2", "b2", "c2", "d2", "e2", "f2", "g2"),
    },
    "blue": {
        "brain": ("d8",),
        "numskull": ("b8", "c8", "e8", "f8"),
        "ninny": ("a7", "b7", "c7", "d7", "e7", "f7", "g7"),
    },
}
NUMSKULLS = 4
PIECES_PER_SIDE = 12
ARROW_STREAM = "take-the-brain/arrows"
MAX_ATTEMPTS = 200
POINTER_WEIGHTS = ((1, 2), (2, 6), (3, 13), (4, 6))
DATA_FILE = "take-the-brain-board.json"

# Promotion squares: the enemy's Numskull starting squares, indexed by the promoting side.
PROMOTION = (
    frozenset(INDEX[s] for s in START["blue"]["numskull"]),
    frozenset(INDEX[s] for s in START["red"]["numskull"]),
)
EMPTY = 0
BRAIN, NUMSKULL, NINNY = 0, 1, 2


def square_xy(square: str) -> tuple[int, int]:
    """Return (file, rank) of a square, both counted from 0 (a1 is (0, 0))."""
    return divmod(INDEX[square], FILES)[::-1]


def mirror(square: str) -> str:
    """Return the square opposite through the board's centre (a1 <-> g8, d4 <-> d5)."""
    f, r = square_xy(square)
    return SQUARES[(RANKS - 1 - r) * FILES + (FILES - 1 - f)]


def turned(direction: str) -> str:
    """Return the direction turned round by 180 degrees (N -> S, NE -> SW)."""
    return DIRECTIONS[(DIRECTIONS.index(direction) + 4) % 8]


def _target(square: str, direction: str) -> str | None:
    f, r = square_xy(square)
    df, dr = STEPS[direction]
    f, r = f + df, r + dr
    return SQUARES[r * FILES + f] if 0 <= f < FILES and 0 <= r < RANKS else None


_ORDER = {d: i for i, d in enumerate(DIRECTIONS)}


def compass_sorted(directions: Any) -> tuple[str, ...]:
    """Return the directions in compass order N, NE, E, SE, S, SW, W, NW."""
    return tuple(sorted(set(directions), key=_ORDER.__getitem__))


# --- boards ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BrainBoard:
    """A pointer board: its seed (None for the published board) and each square's directions."""

    seed: int | None
    arrows: tuple[tuple[str, ...], ...]  # per square index, compass order
    attempt: int = 0

    def pointers(self, square: str) -> tuple[str, ...]:
        """Return a square's pointer directions in compass order."""
        return self.arrows[INDEX[square]]

    def arrow_map(self) -> dict[str, list[str]]:
        """Return square -> sorted list of directions, for JSON (``pnp board --json``)."""
        return {s: sorted(self.arrows[INDEX[s]]) for s in sorted(SQUARES)}

    @property
    def rays(self) -> tuple[tuple[tuple[str, tuple[int, ...]], ...], ...]:
        """Return, per square index, each pointer direction with the squares along it to the edge."""
        return _rays(self.arrows)


@lru_cache(maxsize=256)
def _rays(arrows: tuple[tuple[str, ...], ...]) -> tuple[tuple[tuple[str, tuple[int, ...]], ...], ...]:
    out = []
    for i, dirs in enumerate(arrows):
        per = []
        for d in dirs:
            ray = []
            square: str | None = SQUARES[i]
            while square is not None and (square := _target(square, d)) is not None:
                ray.append(INDEX[square])
            per.append((d, tuple(ray)))
        out.append(tuple(per))
    return tuple(out)


@lru_cache(maxsize=1)
def published_data() -> dict[str, Any]:
    """Return the published board file (arrows and setup) shipped in the package."""
    text = resources.files("generator").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def published_board() -> BrainBoard:
    """Return the published board (the default, seed None)."""
    arrows = published_data()["arrows"]
    return BrainBoard(None, tuple(compass_sorted(arrows[s]) for s in SQUARES))


def is_strongly_connected(arrows: tuple[tuple[str, ...], ...]) -> bool:
    """Return True when every square can reach every other by one-square pointer steps."""
    forward: list[list[int]] = [[] for _ in SQUARES]
    backward: list[list[int]] = [[] for _ in SQUARES]
    for i, dirs in enumerate(arrows):
        steps = _NEXT[i]
        for d in dirs:
            t = steps[d]
            if t is None:
                return False
            forward[i].append(t)
            backward[t].append(i)
    for links in (forward, backward):
        seen = {0}
        todo = [0]
        while todo:
            for j in links[todo.pop()]:
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        if len(seen) != len(SQUARES):
            return False
    return True


_NEXT: tuple[dict[str, int | None], ...] = tuple(
    {d: (INDEX[t] if (t := _target(s, d)) is not None else None) for d in DIRECTIONS} for s in SQUARES
)
_LOWER_HALF = tuple(s for s in SQUARES[: FILES * RANKS // 2] if s not in CENTRE)
# Per lower-half square: (its index, its mirror's index, on-board directions, pointer-count pool).
_DRAW_PLAN = tuple(
    (
        INDEX[s],
        INDEX[mirror(s)],
        cands,
        tuple(k for k, weight in POINTER_WEIGHTS for _ in range(weight) if k <= len(cands)),
    )
    for s in _LOWER_HALF
    for cands in [tuple(d for d in DIRECTIONS if _target(s, d) is not None)]
)
_TURNED = {d: turned(d) for d in DIRECTIONS}


def _draw(rng: Any) -> tuple[tuple[str, ...], ...]:
    arrows: list[tuple[str, ...]] = [DIRECTIONS] * len(SQUARES)
    for index, opposite, candidates, pool in _DRAW_PLAN:
        chosen = compass_sorted(rng.sample(candidates, rng.choice(pool)))
        arrows[index] = chosen
        arrows[opposite] = compass_sorted(_TURNED[d] for d in chosen)
    return tuple(arrows)


@lru_cache(maxsize=512)
def _variant_board(seed: int) -> BrainBoard:
    rng = rng_for(seed, ARROW_STREAM)
    for attempt in range(MAX_ATTEMPTS):
        arrows = _draw(rng)
        if is_strongly_connected(arrows):
            return BrainBoard(seed, arrows, attempt)
    raise BoardError(f"no take-the-brain board found for seed {seed} in {MAX_ATTEMPTS} draws")


def make_board(seed: object = None) -> BrainBoard:
    """Return the published board for seed None, else the seeded variant board."""
    if seed is None:
        return published_board()
    return _variant_board(check_seed(seed))


# --- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BrainMove:
    """A piece moves from ``origin`` to ``target`` (square indices); ``capture`` marks ``x``."""

    origin: int
    target: int
    capture: bool

    def __str__(self) -> str:
        return f"{SQUARES[self.origin]}{'x' if self.capture else '-'}{SQUARES[self.target]}"


_MOVE = re.compile(r"^([a-g][1-8])([-x])([a-g][1-8])$")


def parse_move(text: str) -> BrainMove:
    """Return the move written ``b1-b4`` or ``b1xb4``; raise NotationError otherwise."""
    match = _MOVE.match(text.strip())
    if not match:
        raise NotationError(Msg("game.ttb.notation", text=repr(text.strip())))
    return BrainMove(INDEX[match.group(1)], INDEX[match.group(3)], match.group(2) == "x")


def move_str(move: BrainMove) -> str:
    """Return the move in notation (``b1-b4``, ``b1xb4``)."""
    return str(move)


def piece_name(code: int) -> str:
    """Return a piece code in words, e.g. 'blue Ninny'."""
    side, kind = divmod(code - 1, 3)
    return f"{SIDES[side]} {('Brain', 'Numskull', 'Ninny')[kind]}"


KIND_KEYS = ("brain", "numskull", "ninny")


def _a_piece(code: int) -> Msg:
    """Return a piece code as the reasons name it, with its article: 'a blue Ninny'."""
    side, kind = divmod(code - 1, 3)
    return Msg(f"game.ttb.a_piece.{SIDES[side]}.{KIND_KEYS[kind]}")


def _side(who: int) -> Msg:
    """Return a side as the rules' reasons name it mid-sentence ('red')."""
    return Msg(f"game.ttb.side.{SIDES[who]}")


# --- positions ---------------------------------------------------------------------------------


def _code(side: int, kind: int) -> int:
    return 1 + side * 3 + kind


def _start_cells() -> list[int]:
    cells = [EMPTY] * len(SQUARES)
    for side, name in enumerate(SIDES):
        for kind, kind_name in enumerate(KINDS):
            for square in START[name][kind_name]:
                cells[INDEX[square]] = _code(side, kind)
    return cells


_SETUP_PIECE = re.compile(r"^([BSNbsn])([a-g][1-8])$")


def parse_setup(text: str) -> tuple[list[int], int]:
    """Return (cells, side to move) from a Setup tag such as ``"Bd1 Sc1 Na2 bd8; blue"``."""
    body, _, turn_text = text.partition(";")
    turn_text = turn_text.strip().lower() or "red"
    if turn_text not in SIDES:
        raise RecordError(f"Setup: the side to move must be red or blue, not {turn_text!r}")
    cells = [EMPTY] * len(SQUARES)
    counts = [[0, 0, 0], [0, 0, 0]]
    for token in body.split():
        match = _SETUP_PIECE.match(token)
        if not match:
            raise RecordError(
                f"Setup: {token!r} is not a piece (write e.g. Bd1 for a red Brain on d1, "
                "nc7 for a blue Ninny on c7)"
            )
        letter, square = match.groups()
        side = 0 if letter.isupper() else 1
        kind = KIND_LETTERS.index(letter.upper())
        if cells[INDEX[square]]:
            raise RecordError(f"Setup: two pieces on {square}")
        cells[INDEX[square]] = _code(side, kind)
        counts[side][kind] += 1
    for side, name in enumerate(SIDES):
        brains, numskulls, ninnies = counts[side]
        if brains != 1:
            raise RecordError(f"Setup: {name} needs exactly one Brain, not {brains}")
        if numskulls > NUMSKULLS or numskulls + ninnies > PIECES_PER_SIDE - 1:
            raise RecordError(
                f"Setup: {name} has more pieces than a side owns "
                f"({NUMSKULLS} Numskulls, {PIECES_PER_SIDE} pieces)"
            )
    return cells, SIDES.index(turn_text)


class BrainState(State[BrainMove]):
    """A Take The Brain position: the pieces, whose turn it is, and how the game stands."""

    SHARED = frozenset({"board", "rays", "_over", "_moves"})

    def __init__(self, board: BrainBoard, limit: int, cells: list[int] | None = None, turn: int = 0) -> None:
        super().__init__(limit)
        self.board = board
        self.rays = board.rays
        self.cells = cells if cells is not None else _start_cells()
        self.turn = turn
        self._over: Outcome | None = None
        self._moves: list[BrainMove] | None = None
        self._settle()

    # -- queries --

    def current_player(self) -> str:
        """Return 'red' or 'blue'."""
        return SIDES[self.turn]

    def piece_at(self, square: str) -> tuple[str, str] | None:
        """Return (side, kind) of the piece on a square, e.g. ('red', 'numskull'), or None."""
        code = self.cells[INDEX[square]]
        if not code:
            return None
        side, kind = divmod(code - 1, 3)
        return SIDES[side], KINDS[kind]

    def numskulls_to_bring_back(self, side: str) -> int:
        """Return how many captured Numskulls a side could bring back by promotion."""
        s = SIDES.index(side)
        return NUMSKULLS - sum(1 for c in self.cells if c == _code(s, NUMSKULL))

    def _generate(self, side: int) -> list[BrainMove]:
        cells = self.cells
        rays = self.rays
        moves: list[BrainMove] = []
        low = 1 + side * 3
        for origin, code in enumerate(cells):
            if not low <= code < low + 3:
                continue
            slide = code == low + NUMSKULL
            for _, ray in rays[origin]:
                for target in ray:
                    there = cells[target]
                    if not there:
                        moves.append(BrainMove(origin, target, False))
                    else:
                        if not low <= there < low + 3:
                            moves.append(BrainMove(origin, target, True))
                        break
                    if not slide:
                        break
        return moves

    def legal_moves(self) -> list[BrainMove]:
        """Return every legal move of the side to move (none once the game is over)."""
        if self._over is not None:
            return []
        if self._moves is None:
            self._moves = self._generate(self.turn)
        return list(self._moves)

    def parse_move(self, text: str) -> BrainMove:
        """Return the move written ``b1-b4`` or ``b1xb4``."""
        return parse_move(text)

    def move_str(self, move: BrainMove) -> str:
        """Return the move in notation."""
        return move_str(move)

    def check_move(self, move: BrainMove) -> None:
        """Raise IllegalMoveError with the reason when the move breaks a rule."""
        if self._over is not None:
            raise IllegalMoveError(Msg("game.ttb.over", reason=self._over.reason))
        origin, target = SQUARES[move.origin], SQUARES[move.target]
        code = self.cells[move.origin]
        side = _side(self.turn)
        if not code:
            raise IllegalMoveError(Msg("game.ttb.no_piece", origin=origin))
        if (code - 1) // 3 != self.turn:
            raise IllegalMoveError(Msg("game.ttb.not_yours", origin=origin, piece=_a_piece(code), side=side))
        kind = KIND_KEYS[(code - 1) % 3]
        if move.origin == move.target:
            raise IllegalMoveError(Msg("game.ttb.must_move", the=Msg(f"game.ttb.the.{kind}"), origin=origin))
        (f1, r1), (f2, r2) = square_xy(origin), square_xy(target)
        df, dr = f2 - f1, r2 - r1
        distance = max(abs(df), abs(dr))
        if df and dr and abs(df) != abs(dr):
            raise IllegalMoveError(Msg("game.ttb.not_straight", target=target, origin=origin))
        step = (df // distance if df else 0, dr // distance if dr else 0)
        direction = next(d for d, s in STEPS.items() if s == step)
        if direction not in self.board.arrows[move.origin]:
            shown = ", ".join(self.board.arrows[move.origin])
            raise IllegalMoveError(
                Msg("game.ttb.no_pointer", origin=origin, to=Msg(f"game.ttb.to.{direction}"), shown=shown)
            )
        if (code - 1) % 3 != NUMSKULL and distance > 1:
            raise IllegalMoveError(
                Msg(
                    "game.ttb.one_square",
                    a=Msg(f"game.ttb.a.{kind}"),
                    origin=origin,
                    target=target,
                    squares=counted(distance, "square"),
                )
            )
        for k in range(1, distance):
            between = SQUARES[move.origin + k * (step[0] + step[1] * FILES)]
            if self.cells[INDEX[between]]:
                raise IllegalMoveError(
                    Msg("game.ttb.over_piece", the=Msg(f"game.ttb.the.{kind}"), between=between)
                )
        there = self.cells[move.target]
        if there and (there - 1) // 3 == self.turn:
            raise IllegalMoveError(Msg("game.ttb.own", target=target, side=side))
        if move.capture and not there:
            raise IllegalMoveError(Msg("game.ttb.nothing", origin=origin, target=target))
        if not move.capture and there:
            raise IllegalMoveError(
                Msg("game.ttb.capture", target=target, piece=_a_piece(there), origin=origin)
            )

    def _apply(self, move: BrainMove) -> None:
        """Play a legal move: capture, promote, then pass the turn and see whether the game ended."""
        cells = self.cells
        code = cells[move.origin]
        captured = cells[move.target]
        cells[move.origin] = EMPTY
        side = self.turn
        if (
            code == _code(side, NINNY)
            and move.target in PROMOTION[side]
            and sum(1 for c in cells if c == _code(side, NUMSKULL)) < NUMSKULLS
        ):
            code = _code(side, NUMSKULL)
        cells[move.target] = code
        self.turn = 1 - side
        self._moves = None
        if captured == _code(1 - side, BRAIN):
            self._over = Outcome(
                True,
                SIDES[side],
                False,
                None,
                Msg(f"game.ttb.won.{SIDES[side]}", square=SQUARES[move.target]),
            )
            return
        self._settle()

    def _settle(self) -> None:
        if sum(1 for c in self.cells if c) == 2:
            self._over = Outcome(True, None, True, None, Msg("game.ttb.brains"))
        elif self.ply >= self.limit:
            self._over = Outcome(
                True, None, True, None, Msg("game.any.limit", limit=counted(self.limit, TURN_UNIT))
            )
        else:
            self._moves = self._generate(self.turn)
            if not self._moves:
                winner = SIDES[1 - self.turn]
                self._over = Outcome(True, winner, False, None, Msg("game.ttb.stuck", side=_side(self.turn)))

    def is_terminal(self) -> bool:
        """Return True when the game is over."""
        return self._over is not None

    def outcome(self) -> Outcome:
        """Return the result so far."""
        return self._over if self._over is not None else Outcome(False)

    def text(self) -> str:
        """Return the position: Red in capitals, Blue in lower case (B Brain, S Numskull, N Ninny)."""
        lines: list[str] = ["   " + " ".join(chr(97 + f) for f in range(FILES))]
        for r in range(RANKS - 1, -1, -1):
            row = []
            for f in range(FILES):
                code = self.cells[r * FILES + f]
                if not code:
                    row.append(".")
                else:
                    side, kind = divmod(code - 1, 3)
                    row.append(KIND_LETTERS[kind] if side == 0 else KIND_LETTERS[kind].lower())
            lines.append(f"{r + 1}  " + " ".join(row))
        lines.append("")
        if self._over is not None:
            lines.append(Msg("game.ttb.game_over", reason=self._over.reason))
        else:
            lines.append(Msg("game.ttb.to_move", side=side_msg(SIDES[self.turn]), turn=self.ply + 1))
        return Msg.joined("\n", lines)


# --- pictures and layout data ------------------------------------------------------------------

_ARROW_CHARS = {
    "NW": (0, 0, "\\"),
    "N": (0, 1, "|"),
    "NE": (0, 2, "/"),
    "W": (1, 0, "-"),
    "E": (1, 2, "-"),
    "SW": (2, 0, "/"),
    "S": (2, 1, "|"),
    "SE": (2, 2, "\\"),
}


def board_picture(board: BrainBoard) -> str:
    """Return the pointers as text: each square is 3 by 3 characters around its centre 'o'."""
    lines = ["    " + "   ".join(f" {chr(97 + f)}" for f in range(FILES))]
    for r in range(RANKS - 1, -1, -1):
        rows: list[list[str]] = [[], [], []]
        for f in range(FILES):
            grid = [[" "] * 3 for _ in range(3)]
            grid[1][1] = "*" if SQUARES[r * FILES + f] in CENTRE else "o"
            for d in board.arrows[r * FILES + f]:
                y, x, ch = _ARROW_CHARS[d]
                grid[y][x] = ch
            for y in range(3):
                rows[y].append("".join(grid[y]))
        for y in range(3):
            label = f"{r + 1:>2}  " if y == 1 else "    "
            lines.append((label + "   ".join(rows[y])).rstrip())
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _start_marks() -> dict[str, str]:
    return {sq: f"start:{side}:{kind}" for side in SIDES for kind in KINDS for sq in START[side][kind]}


def _board_layout(board: BrainBoard) -> dict[str, Any]:
    starts = _start_marks()
    cells: dict[str, list[str]] = {}
    for i, square in enumerate(SQUARES):
        marks = ["arrows:" + ",".join(board.arrows[i])]
        if square in starts:
            marks.append(starts[square])
        cells[square] = marks
    return {"files": FILES, "ranks": RANKS, "seed": board.seed, "cells": dict(sorted(cells.items()))}


def example_numskull_move(board: BrainBoard) -> dict[str, Any]:
    """Return a booklet overlay: a red Numskull sliding several squares to capture a blue Ninny.

    The Numskull stands on the first square (ranks 3 to 6, a to g) with the longest pointer ray
    (at most 4 squares, d4/d5 left out); a red Ninny blocks another of its pointers when it has one.
    Overlay keys (grid-board): cells (arrows only, no start marks), pieces (square -> 'side:kind'),
    arrows ([from, to]), highlight (the squares passed over); the rest is for the booklet's words."""
    rays = board.rays
    best: tuple[int, int, str, tuple[int, ...]] | None = None
    for i, square in enumerate(SQUARES):
        if not 2 <= i // FILES <= 5 or square in CENTRE:
            continue
        for direction, ray in rays[i]:
            length = min(len(ray), 4)
            if best is None or length > best[1]:
                best = (i, length, direction, ray[:length])
    assert best is not None
    origin, _, direction, path = best
    target = path[-1]
    pieces = {SQUARES[origin]: "red:numskull", SQUARES[target]: "blue:ninny"}
    blocked = None
    for other, ray in rays[origin]:
        if other != direction and len(ray) >= 2 and SQUARES[ray[1]] not in pieces:
            pieces[SQUARES[ray[1]]] = "red:ninny"
            blocked = {
                "direction": other,
                "direction_name": DIRECTION_NAMES[other],
                "by": SQUARES[ray[1]],
                "reachable": [SQUARES[ray[0]]],
            }
            break
    cells = {
        square: [m for m in marks if not m.startswith("start:")]
        for square, marks in _board_layout(board)["cells"].items()
    }
    origin_name, target_name = SQUARES[origin], SQUARES[target]
    passed = [SQUARES[p] for p in path[:-1]]
    return {
        "files": FILES,
        "ranks": RANKS,
        "seed": board.seed,
        "cells": cells,
        "pieces": dict(sorted(pieces.items())),
        "arrows": [[origin_name, target_name]],
        "highlight": passed,
        "move": f"{origin_name}x{target_name}",
        "origin": origin_name,
        "target": target_name,
        "direction": direction,
        "direction_name": DIRECTION_NAMES[direction],
        "passed": passed,
        "blocked": blocked,
    }


def start_position() -> dict[str, Any]:
    """Return a booklet overlay of the starting position: pieces as square -> 'side:kind'."""
    pieces = {sq: f"{side}:{kind}" for side in SIDES for kind in KINDS for sq in START[side][kind]}
    return {"pieces": dict(sorted(pieces.items()))}


@dataclass(frozen=True)
class TakeTheBrainRules(GameRules):
    """The rules of Take The Brain and its pointer boards."""

    def new_state(
        self,
        seed: int | None = None,
        variants: frozenset[str] = frozenset(),
        tags: Mapping[str, str] | None = None,
    ) -> BrainState:
        """Return the starting position (or the Setup tag's) on the published or seeded board."""
        self.check_variants(variants)
        board = make_board(seed)
        limit = turn_limit(tags, self.default_turn_limit)
        if tags and tags.get("Setup"):
            cells, turn = parse_setup(tags["Setup"])
            return BrainState(board, limit, cells, turn)
        return BrainState(board, limit)

    def board_data(self, seed: int | None = None, variants: frozenset[str] = frozenset()) -> dict[str, Any]:
        """Return game, seed (None for the published board) and arrows: square -> sorted directions."""
        self.check_variants(variants)
        board = make_board(seed)
        return {"game": self.id, "seed": board.seed, "arrows": board.arrow_map()}

    def board_text(self, seed: int | None = None, variants: frozenset[str] = frozenset()) -> str:
        """Return the pointers as a text picture with a title naming the board."""
        self.check_variants(variants)
        board = make_board(seed)
        title = (
            "Take The Brain, published board" if board.seed is None else f"Take The Brain, seed {board.seed}"
        )
        return f"{title}\n\n{board_picture(board)}"

    def layout_data(
        self, name: str, seed: int | None = None, variants: frozenset[str] = frozenset()
    ) -> dict[str, Any]:
        """Return 'board' (squares with arrows and start marks), 'position:numskull' or 'position:start'."""
        self.check_variants(variants)
        board = make_board(seed)
        if name == "board":
            return _board_layout(board)
        if name == "position:numskull":
            return example_numskull_move(board)
        if name == "position:start":
            return start_position()
        raise BoardError(
            f"take-the-brain provides no layout data {name!r} "
            "(known: board, position:numskull, position:start)"
        )

    def template_values(self) -> dict[str, Any]:
        """Return board size, piece counts, starting and promotion squares, and the turn limit."""
        example = example_numskull_move(published_board())
        return {
            "files": FILES,
            "ranks": RANKS,
            "first_file": "a",
            "last_file": chr(96 + FILES),
            "sides": list(SIDES),
            "first_side": SIDES[0],
            "pieces_per_side": PIECES_PER_SIDE,
            "brains": 1,
            "numskulls": NUMSKULLS,
            "ninnies": PIECES_PER_SIDE - 1 - NUMSKULLS,
            "start": {
                side: {kind: list(squares) for kind, squares in kinds.items()}
                for side, kinds in START.items()
            },
            "promotion_squares": {
                "red": list(START["blue"]["numskull"]),
                "blue": list(START["red"]["numskull"]),
            },
            "centre_squares": list(CENTRE),
            "example_move": example["move"],
            "example_direction": example["direction_name"],
            "turn_limit": self.default_turn_limit,
        }


# seeded=False: the published board needs no seed; a Seed tag or --seed picks a variant board.
RULES = TakeTheBrainRules(
    turn_unit=TURN_UNIT,
    id="take-the-brain",
    title="Take The Brain",
    sides=SIDES,
    seeded=False,
    seed_optional=True,
    extra_tags=("Setup",),
)
