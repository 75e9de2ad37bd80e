"""Nine Men's Morris: board geometry, rules and notation, read as in rulings.md.

Points are numbered 0..23 in the order of ``POINTS``; a side's men are a 24-bit mask. Adjacency,
mills and "which points would close a mill" are precomputed tables, so legal-move generation and
random playouts stay fast in pure Python.

Rulings in force: White moves first, 9 men each; placing until both have placed all nine, then
moving along lines (or, with the ``flying`` variant, to any empty point once a player who has
placed everything is down to three men). Closing one or two mills with a move removes exactly one
opposing man, chosen among those not in a mill unless all are. A player with fewer than three men
(men still in hand count) or no legal move on their turn loses. A turn is one placement or move with
its removal; the game is drawn once the turn limit (200 unless a ``TurnLimit`` tag says otherwise)
is reached and nobody has lost by then.

Notation: placement ``d2``, move ``d2-d3``, removal after the move that earned it: ``b4xd7``,
``d2-d3xa1``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from generator.foundation.errors import BoardError, IllegalMoveError, NotationError
from generator.foundation.languages import Msg, counted, side_msg
from generator.games.base import GameRules, Outcome, State, turn_limit
from generator.games.words import count

#: what the turn limit counts (the rules' ``turn_unit``; the kit's texts name it from there)
TURN_UNIT = "turn"

MEN = 9
SIDES = ("white", "black")
_SIDE_WORD = ("White", "Black")
POINTS: tuple[str, ...] = (
    "a1",
    "d1",
    "g1",
    "b2",
    "d2",
    "f2",
    "c3",
    "d3",
    "e3",
    "a4",
    "b4",
    "c4",
    "e4",
    "f4",
    "g4",
    "c5",
    "d5",
    "e5",
    "b6",
    "d6",
    "f6",
    "a7",
    "d7",
    "g7",
)
INDEX: dict[str, int] = {name: i for i, name in enumerate(POINTS)}
_MILL_NAMES = (
    "a1 d1 g1",
    "b2 d2 f2",
    "c3 d3 e3",
    "a4 b4 c4",
    "e4 f4 g4",
    "c5 d5 e5",
    "b6 d6 f6",
    "a7 d7 g7",
    "a1 a4 a7",
    "b2 b4 b6",
    "c3 c4 c5",
    "d1 d2 d3",
    "d5 d6 d7",
    "e3 e4 e5",
    "f2 f4 f6",
    "g1 g4 g7",
)


#: The 16 mills, each as a tuple of three point indices in line order.
def _mill(names: str) -> tuple[int, int, int]:
    a, b, c = (INDEX[n] for n in names.split())
    return (a, b, c)


MILLS: tuple[tuple[int, int, int], ...] = tuple(_mill(names) for names in _MILL_NAMES)
_MILL_MASKS: tuple[int, ...] = tuple((1 << a) | (1 << b) | (1 << c) for a, b, c in MILLS)
_FULL = (1 << 24) - 1
_NONE = 31
_PLACING = _NONE << 5
_NO_TAKE = [_NONE]


def _build_adjacency() -> list[int]:
    adj = [0] * 24
    for a, b, c in MILLS:
        for x, y in ((a, b), (b, c)):
            adj[x] |= 1 << y
            adj[y] |= 1 << x
    return adj


_ADJ: list[int] = _build_adjacency()
#: For each point, the two masks "the other two points of a mill through it".
_PAIRS: list[tuple[int, int]] = [tuple(m & ~(1 << p) for m in _MILL_MASKS if m >> p & 1) for p in range(24)]  # type: ignore[misc]
_PAIR_A = [pa for pa, _ in _PAIRS]
_PAIR_B = [pb for _, pb in _PAIRS]
_BIT: dict[str, int] = {name: 1 << i for i, name in enumerate(POINTS)}
_BITS_LO: list[list[int]] = [[i for i in range(12) if x >> i & 1] for x in range(4096)]
_BITS_HI: list[list[int]] = [[i + 12 for i in range(12) if x >> i & 1] for x in range(4096)]
_ADJ_LO: list[int] = [0] * 4096
_ADJ_HI: list[int] = [0] * 4096
for _x in range(1, 4096):
    _low = _x & -_x
    _i = _low.bit_length() - 1
    _ADJ_LO[_x] = _ADJ_LO[_x ^ _low] | _ADJ[_i]
    _ADJ_HI[_x] = _ADJ_HI[_x ^ _low] | _ADJ[_i + 12]
del _x, _low, _i
_MOVE_RE = re.compile(r"^([a-g][1-7])(?:-([a-g][1-7]))?(?:x([a-g][1-7]))?$")


def _bits(mask: int) -> list[int]:
    """Return the point indices set in a mask, ascending."""
    return _BITS_LO[mask & 4095] + _BITS_HI[mask >> 12]


def _in_mills(mask: int) -> int:
    """Return the mask of men in ``mask`` that stand in a mill of their own colour."""
    found = 0
    for m in _MILL_MASKS:
        if mask & m == m:
            found |= m
    return found


def _removable(opp: int) -> int:
    """Return the opposing men that may be removed: those outside mills, or all if none are."""
    free = opp & ~_in_mills(opp)
    return free if free else opp


@dataclass(frozen=True, slots=True)
class Move:
    """One turn: a placement (``frm`` is None) or a move, and the man it removes, if any."""

    frm: str | None
    to: str
    take: str | None = None


_MOVE_CACHE: dict[int, Move] = {}


def _move(key: int) -> Move:
    """Return the (shared) Move for a key ``from << 10 | to << 5 | take`` of point indices (31: none)."""
    move = _MOVE_CACHE.get(key)
    if move is None:
        frm, to, take = key >> 10, key >> 5 & 31, key & 31
        move = Move(
            None if frm == _NONE else POINTS[frm], POINTS[to], None if take == _NONE else POINTS[take]
        )
        _MOVE_CACHE[key] = move
    return move


def move_str(move: Move) -> str:
    """Return a move in notation: ``d2``, ``d2-d3``, ``b4xd7``, ``d2-d3xa1``."""
    text = move.to if move.frm is None else f"{move.frm}-{move.to}"
    return text if move.take is None else f"{text}x{move.take}"


def parse_move(text: str) -> Move:
    """Return the move written as text; raise NotationError when it is not a move."""
    cleaned = text.strip().lower()
    match = _MOVE_RE.match(cleaned)
    if not match:
        raise NotationError(Msg("game.nmm.notation", text=repr(text.strip())))
    first, second, take = match.groups()
    for name in (first, second, take):
        if name is not None and name not in INDEX:
            raise NotationError(Msg("game.nmm.no_point", point=name))
    if second is None:
        return Move(None, first, take)
    return Move(first, second, take)


class _Rng(Protocol):
    def below(self, n: int) -> int: ...


class NineMensMorrisState(State[Move]):
    """A Nine Men's Morris position: men on the board, men in hand, side to move, turns played."""

    __slots__ = ("_flying", "_hand", "_men", "_over", "_reason", "_side", "_winner")

    def __init__(self, flying: bool = False, limit: int = 200) -> None:
        super().__init__(limit)
        self._men = [0, 0]
        self._hand = [MEN, MEN]
        self._side = 0
        self._flying = flying
        self._over = False
        self._winner = -1
        self._reason = ""

    @classmethod
    def from_position(
        cls,
        pieces: Mapping[str, str],
        to_move: str = "white",
        in_hand: Mapping[str, int] | None = None,
        turns: int = 0,
        variants: Iterable[str] = (),
        limit: int = 200,
    ) -> NineMensMorrisState:
        """Return a state set up from ``{"d2": "white", ...}``, men in hand (default none) and turns played."""
        state = cls("flying" in set(variants), limit)
        hand = dict(in_hand or {})
        for name, side in sorted(pieces.items()):
            if name not in INDEX:
                raise BoardError(f"{name} is not a point of the board")
            if side not in SIDES:
                raise BoardError(f"unknown side {side!r} (sides: white, black)")
            state._men[SIDES.index(side)] |= _BIT[name]
        for i, side in enumerate(SIDES):
            men = hand.get(side, 0)
            if men < 0 or men + state._men[i].bit_count() > MEN:
                raise BoardError(
                    f"{_SIDE_WORD[i]} cannot have {count(men, 'man')} in hand with "
                    f"{state._men[i].bit_count()} on the board"
                )
            state._hand[i] = men
        if to_move not in SIDES:
            raise BoardError(f"unknown side {to_move!r} (sides: white, black)")
        state._side = SIDES.index(to_move)
        state.ply = turns
        state._update_status()
        return state

    # -- the State interface -------------------------------------------------------------

    def current_player(self) -> str:
        """Return 'white' or 'black'."""
        return SIDES[self._side]

    def legal_moves(self) -> list[Move]:
        """Return every legal move, removals spelled out, in board order."""
        if self._over:
            return []
        plain, mills = self._actions()
        moves = [_move(a << 5 | _NONE) for a in plain]
        if mills:
            opp = self._men[self._side ^ 1]
            takes = _bits(_removable(opp)) if opp else [_NONE]
            moves.extend(_move(a << 5 | x) for a in mills for x in takes)
        return moves

    def random_move(self, rng: _Rng) -> Move:
        """Return a legal move drawn uniformly from ``legal_moves()`` without listing them all."""
        if self._over:
            raise IllegalMoveError(Msg("game.any.over"))
        plain, mills = self._actions()
        if mills:
            opp = self._men[self._side ^ 1]
            takes = _bits(_removable(opp)) if opp else _NO_TAKE
            k = len(takes)
            r = rng.below(len(plain) + k * len(mills))
            if r >= len(plain):
                r -= len(plain)
                key = mills[r // k] << 5 | takes[r % k]
                return _MOVE_CACHE.get(key) or _move(key)
        else:
            r = rng.below(len(plain))
        key = plain[r] << 5 | _NONE
        return _MOVE_CACHE.get(key) or _move(key)

    def _actions(self) -> tuple[list[int], list[int]]:
        """Return the side to move's (from, to) pairs as ``from << 5 | to`` (from 31: a placement),
        split into plain ones and mill-closing ones, in board order."""
        side = self._side
        mine = self._men[side]
        empty = _FULL ^ mine ^ self._men[side ^ 1]
        plain: list[int] = []
        mills: list[int] = []
        pair_a, pair_b = _PAIR_A, _PAIR_B
        if self._hand[side]:
            for t in _BITS_LO[empty & 4095] + _BITS_HI[empty >> 12]:
                pa = pair_a[t]
                pb = pair_b[t]
                if mine & pa == pa or mine & pb == pb:
                    mills.append(_PLACING | t)
                else:
                    plain.append(_PLACING | t)
            return plain, mills
        flying = self._flying and mine.bit_count() == 3
        adj = _ADJ
        for f in _BITS_LO[mine & 4095] + _BITS_HI[mine >> 12]:
            targets = empty if flying else adj[f] & empty
            if not targets:
                continue
            rest = mine ^ (1 << f)
            fk = f << 5
            for t in _BITS_LO[targets & 4095] + _BITS_HI[targets >> 12]:
                pa = pair_a[t]
                pb = pair_b[t]
                if rest & pa == pa or rest & pb == pb:
                    mills.append(fk | t)
                else:
                    plain.append(fk | t)
        return plain, mills

    def parse_move(self, text: str) -> Move:
        """Return the move written as text; raise NotationError when it is not a move."""
        return parse_move(text)

    def move_str(self, move: Move) -> str:
        """Return the move in notation."""
        return move_str(move)

    def check_move(self, move: Any) -> None:
        """Raise IllegalMoveError with the reason, in a player's words, when the move is not legal."""
        if not isinstance(move, Move):
            raise IllegalMoveError(Msg("game.nmm.not_move", move=repr(move)))
        for name in (move.frm, move.to, move.take):
            if name is not None and name not in INDEX:
                raise NotationError(Msg("game.nmm.no_point", point=name))
        if self._over:
            raise IllegalMoveError(Msg("game.any.already_over", reason=self._reason))
        side = self._side
        me, them = side_msg(SIDES[side]), side_msg(SIDES[side ^ 1])
        mine, opp = self._men[side], self._men[side ^ 1]
        to = _BIT[move.to]
        written = move_str(move)
        if move.frm is None:
            if not self._hand[side]:
                how = "fly" if self._flying and mine.bit_count() == 3 else "slide"
                slide = next((move_str(m) for m in self.legal_moves() if m.frm is not None), None)
                key = f"game.nmm.placed_all.{how}" + (".eg" if slide else "")
                raise IllegalMoveError(Msg(key, side=me, men=MEN, example=slide or ""))
            if (mine | opp) & to:
                raise IllegalMoveError(Msg("game.nmm.taken", point=move.to, man=self._owner_man(move.to)))
            rest = mine
        else:
            if self._hand[side]:
                count = self._hand[side]
                raise IllegalMoveError(Msg("game.nmm.still_to_place", side=me, men=counted(count, "man")))
            frm = _BIT[move.frm]
            if not mine & frm:
                raise IllegalMoveError(Msg("game.nmm.no_man_on", side=me, point=move.frm))
            if move.frm == move.to:
                raise IllegalMoveError(Msg("game.nmm.stay", point=move.frm))
            if (mine | opp) & to:
                raise IllegalMoveError(Msg("game.nmm.taken", point=move.to, man=self._owner_man(move.to)))
            flying = self._flying and mine.bit_count() == 3
            if not flying and not _ADJ[INDEX[move.frm]] & to:
                raise IllegalMoveError(Msg("game.nmm.not_adjacent", to=move.to, frm=move.frm))
            rest = mine ^ frm
        t = INDEX[move.to]
        closes = rest & _PAIR_A[t] == _PAIR_A[t] or rest & _PAIR_B[t] == _PAIR_B[t]
        if not closes:
            if move.take is not None:
                raise IllegalMoveError(Msg("game.nmm.no_mill", move=written))
            return
        if move.take is None:
            if opp:
                raise IllegalMoveError(
                    Msg("game.nmm.must_remove", move=written, side=me, man=_man_of(SIDES[side ^ 1]))
                )
            return
        take = _BIT[move.take]
        if not opp & take:
            raise IllegalMoveError(
                Msg("game.nmm.none_to_remove", man=_man_of(SIDES[side ^ 1]), point=move.take)
            )
        if not _removable(opp) & take:
            raise IllegalMoveError(Msg("game.nmm.in_mill", side=them, point=move.take))

    def _apply(self, move: Move) -> None:
        """Play a legal move (check it first with ``check_move`` when it comes from a player)."""
        side = self._side
        men = self._men
        if move.frm is None:
            self._hand[side] -= 1
            men[side] |= _BIT[move.to]
        else:
            men[side] ^= _BIT[move.frm] | _BIT[move.to]
        if move.take is not None:
            men[side ^ 1] &= ~_BIT[move.take]
        self._side = side ^ 1
        self._update_status()

    def _update_status(self) -> None:
        """Decide whether the side now to move has lost, or the turn limit has drawn the game.

        A loss comes first: when the last turn before the limit leaves the opponent down to two
        men or with no move, that turn wins the game instead of the limit drawing it."""
        s = self._side
        mine = self._men[s]
        if mine.bit_count() + self._hand[s] < 3:
            self._finish(s ^ 1, Msg("game.nmm.two_men", side=side_msg(SIDES[s])))
        elif (
            not self._hand[s]
            and not (self._flying and mine.bit_count() == 3)
            and not (_ADJ_LO[mine & 4095] | _ADJ_HI[mine >> 12]) & (_FULL ^ mine ^ self._men[s ^ 1])
        ):
            self._finish(s ^ 1, Msg("game.nmm.blocked", side=side_msg(SIDES[s])))
        elif self.ply >= self.limit:
            self._finish(-1, Msg("game.any.limit", limit=counted(self.limit, TURN_UNIT)))
        else:
            self._over = False

    def _finish(self, winner: int, reason: str) -> None:
        self._over = True
        self._winner = winner
        self._reason = reason

    def is_terminal(self) -> bool:
        """Return True when the game is over."""
        return self._over

    def outcome(self) -> Outcome:
        """Return how the game stands: the winner and why, a draw at the turn limit, or unfinished."""
        if not self._over:
            return Outcome(False)
        if self._winner < 0:
            return Outcome(True, None, True, None, self._reason)
        return Outcome(True, SIDES[self._winner], False, None, self._reason)

    def text(self) -> str:
        """Return the board as text (W white, B black, + empty) with men in hand and the turn count."""
        return Msg.joined("\n", [*_picture(self.pieces()), self._status_line()])

    def _status_line(self) -> Msg:
        hands = Msg("game.nmm.hands", white=self._hand[0], black=self._hand[1])
        if self._over:
            return Msg("game.nmm.over", turns=counted(self.ply, "turn"), reason=self._reason, hands=hands)
        return Msg(
            "game.nmm.to_move",
            side=side_msg(SIDES[self._side]),
            turn=self.ply + 1,
            limit=self.limit,
            hands=hands,
        )

    # -- extra queries -------------------------------------------------------------------

    def pieces(self) -> dict[str, str]:
        """Return the men on the board as ``{point: side}``, sorted by point order."""
        return {POINTS[i]: SIDES[s] for s in (0, 1) for i in _bits(self._men[s])}

    def in_hand(self) -> dict[str, int]:
        """Return how many men each side has still to place."""
        return {SIDES[0]: self._hand[0], SIDES[1]: self._hand[1]}

    def turns_played(self) -> int:
        """Return the number of turns played so far."""
        return self.ply

    def removable(self) -> list[str]:
        """Return the opposing men the side to move could remove if it closed a mill now."""
        return [POINTS[i] for i in _bits(_removable(self._men[self._side ^ 1]))]

    def mills_of(self, side: str) -> list[list[str]]:
        """Return the mills a side has on the board, each as three point names in line order."""
        mask = self._men[SIDES.index(side)]
        return [[POINTS[i] for i in mill] for mill, m in zip(MILLS, _MILL_MASKS) if mask & m == m]

    def _owner_man(self, name: str) -> Msg:
        return _man_of("white" if self._men[0] & _BIT[name] else "black")


def _man_of(side: str) -> Msg:
    """Return 'a White man' ('un pion blanc', 'una pedina bianca') for a side id."""
    return Msg(f"game.nmm.man_of.{side}")


def _picture(pieces: Mapping[str, str]) -> list[str]:
    """Return the board as lines of text, rank 7 at the top."""
    rows = [[" "] * 25 for _ in range(13)]
    for a, b in board_lines():
        (xa, ya), (xb, yb) = _XY[a], _XY[b]
        for x in range(min(xa, xb) * 4, max(xa, xb) * 4 + 1):
            for y in range(min(ya, yb) * 2, max(ya, yb) * 2 + 1):
                rows[y][x] = "-" if ya == yb else "|"
    for name in POINTS:
        x, y = _XY[name]
        side = pieces.get(name)
        rows[y * 2][x * 4] = "W" if side == "white" else "B" if side == "black" else "+"
    lines = [
        (str(7 - y // 2) if y % 2 == 0 else " ") + " " + "".join(row).rstrip() for y, row in enumerate(rows)
    ]
    lines.append("  a   b   c   d   e   f   g")
    return lines


_XY: dict[str, tuple[int, int]] = {name: ("abcdefg".index(name[0]), 7 - int(name[1])) for name in POINTS}


def board_lines() -> list[tuple[str, str]]:
    """Return every adjacency once as a pair of point names, each pair and the list sorted."""
    pairs = {tuple(sorted((POINTS[i], POINTS[j]))) for i in range(24) for j in _bits(_ADJ[i])}
    return sorted(pairs)  # type: ignore[arg-type]


# -- example positions for the booklet ---------------------------------------------------

# The mill figure and the removal figure after it show one position: White's d2-d1 closes the mill
# a1-d1-g1, and Black's own mill a7-d7-g7 keeps three of Black's men safe.
_MILL_EXAMPLE = {
    "pieces": {
        "a1": "white",
        "d1": "white",
        "g1": "white",
        "b4": "white",
        "e3": "white",
        "a7": "black",
        "d7": "black",
        "g7": "black",
        "c5": "black",
        "f2": "black",
        "d6": "black",
    },
    "move": ("d2", "d1"),
    "mill": ["a1", "d1", "g1"],
}
_REMOVAL_EXAMPLE = _MILL_EXAMPLE
_FLYING_EXAMPLE = {
    "pieces": {
        "a1": "white",
        "d1": "white",
        "g7": "white",
        "d2": "black",
        "d3": "black",
        "b6": "black",
        "f4": "black",
        "e5": "black",
    },
    "move": ("c4", "d1"),
}
_BLOCKED_EXAMPLE = {
    "pieces": {
        "a4": "white",
        "d2": "white",
        "g4": "white",
        "b4": "white",
        "f6": "white",
        "a1": "black",
        "d1": "black",
        "g1": "black",
        "b2": "black",
    },
    "move": ("c4", "b4"),
}


def _example_data(example: Mapping[str, Any]) -> dict[str, Any]:
    """Return a booklet position after White's move: pieces, highlighted mill and the move's arrow."""
    frm, to = example["move"]
    pieces = dict(sorted(example["pieces"].items(), key=lambda kv: INDEX[kv[0]]))
    return {
        "pieces": pieces,
        "highlight": list(example.get("mill", [])),
        "arrows": [[frm, to]],
        "mover": "white",
    }


def example_before(name: str) -> NineMensMorrisState:
    """Return the position just before White's move in a booklet example ('position:...'), White to move."""
    example: Mapping[str, Any] | None = {
        "position:mill": _MILL_EXAMPLE,
        "position:removal": _REMOVAL_EXAMPLE,
        "position:flying": _FLYING_EXAMPLE,
        "position:blocked": _BLOCKED_EXAMPLE,
    }.get(name)
    if example is None:
        raise BoardError(f"nine-mens-morris has no example position {name!r}")
    frm, to = example["move"]
    before = dict(example["pieces"])
    before[frm] = before.pop(to)
    variants = ("flying",) if example is _FLYING_EXAMPLE else ()
    return NineMensMorrisState.from_position(before, "white", variants=variants)


class NineMensMorrisRules(GameRules):
    """The rules of Nine Men's Morris as read in rulings.md."""

    def new_state(
        self,
        seed: int | None = None,
        variants: frozenset[str] = frozenset(),
        tags: Mapping[str, str] | None = None,
    ) -> NineMensMorrisState:
        """Return the empty board with White to move."""
        variants = self.check_variants(frozenset(variants))
        return NineMensMorrisState("flying" in variants, turn_limit(tags, self.default_turn_limit))

    def board_data(self, seed: int | None = None, variants: frozenset[str] = frozenset()) -> dict[str, Any]:
        """Return the board geometry (the board is fixed; seed and variants change nothing)."""
        self.check_variants(frozenset(variants))
        data = self.layout_data("board")
        data["mills"] = [[POINTS[i] for i in mill] for mill in MILLS]
        return data

    def board_text(self, seed: int | None = None, variants: frozenset[str] = frozenset()) -> str:
        """Return the empty board as a text picture."""
        self.check_variants(frozenset(variants))
        return "\n".join(_picture({}))

    def layout_data(
        self, name: str, seed: int | None = None, variants: frozenset[str] = frozenset()
    ) -> dict[str, Any]:
        """Return 'board' geometry or an example position ('position:mill', 'position:removal',
        'position:flying', 'position:blocked') as plain data."""
        if name == "board":
            return {
                "points": {p: list(_XY[p]) for p in POINTS},
                "lines": [list(pair) for pair in board_lines()],
                "labels": True,
            }
        if name in ("position:mill", "position:flying", "position:blocked"):
            data = _example_data(
                {
                    "position:mill": _MILL_EXAMPLE,
                    "position:flying": _FLYING_EXAMPLE,
                    "position:blocked": _BLOCKED_EXAMPLE,
                }[name]
            )
            if name == "position:flying":
                data["variant"] = "flying"
            return data
        if name == "position:removal":
            data = _example_data(_REMOVAL_EXAMPLE)
            data["removable"] = example_before(name).removable()
            data["protected"] = [
                p for p, side in data["pieces"].items() if side == "black" and p not in data["removable"]
            ]
            return data
        names = "board, position:mill, position:removal, position:flying, position:blocked"
        raise BoardError(f"nine-mens-morris provides no layout data {name!r} (available: {names})")

    def template_values(self) -> dict[str, Any]:
        """Return the numbers the rule booklet quotes."""
        return {
            "men_per_side": MEN,
            "points": len(POINTS),
            "mills": len(MILLS),
            "lines": len(board_lines()),
            "turn_limit": self.default_turn_limit,
            "lose_below": 3,
            "flying_men": 3,
            "sides": list(self.sides),
            "first_side": self.sides[0],
        }


RULES = NineMensMorrisRules(
    turn_unit=TURN_UNIT, id="nine-mens-morris", title="Nine Men's Morris", sides=SIDES, variants=("flying",)
)
