"""Barricades: rules, move notation and referee state (the battlefield comes from barricades_board).

Two sides, Red (north, ranks 9-10, moves first) and Blue (south, ranks 1-2), ten soldiers each.
A turn: one piece may move in a straight line and then may fire (at least one of the two).
The reading of the rules is the one in shared/rulings.md; the points it leaves open are settled
here and listed in the booklet's Clarifications:

* A move passes only through empty open squares and ends on an empty open square. MacGuffins do
  not block: a piece may pass over one, and captures it only by ending its move there.
* A pistol or rifle shot needs an enemy piece on the target square, within range, with a clear
  line of fire (see barricades_board for which squares the line crosses). Firing at an empty
  square or at one's own piece is not allowed.
* A grenade may be thrown at any square exactly 3 away (king steps), even an empty one; it kills
  every piece, of either side, on that square and the eight around it.
* A machine-gun burst hits every enemy within 3 that it has a clear line of fire to; a burst is
  allowed only when it would hit at least one enemy. It uses one round (of 12) whatever it hits.
* Each shot, grenade or burst uses one round of ammunition. Ending a move on an ammunition square
  refills the piece before it fires; ending a move on a medical square removes its pistol and rifle
  damage. Standing still on such a square does nothing.
* Machine-gun damage is kept apart from pistol and rifle damage and is never healed (a machine-gun
  hit does 4, so it always kills).
* At the end of a turn the mover wins with two MacGuffins, or when no enemy piece is left. (The
  mover always keeps a piece: a grenade lands 3 away, so its blast never reaches the thrower.)
  ``resign`` is always legal, so a side always has a move.
* Turn limit: 200 turns (one piece's move-and-fire is one turn), then a draw.

Notation: ``c2-c5`` (move), ``c2-c5xe7`` (move then fire at e7), ``c2xe7`` (fire without moving),
``resign``. A grenade names its target square. A machine gunner writes ``x*`` or any square; it is
stored as a burst and printed ``x*``.

A record may set either side's starting squares through tags (the default is
``DEFAULT_SETUP``): ``[RedSetup "P:a9,d9,g9,j9 R:c10,h10 G:b10,i10 M:e10,f10"]`` and
``[BlueSetup "P:a2,d2,g2,j2 R:c1,h1 G:b1,i1 M:e1,f1"]``. P pistoliers (4), R riflemen (2),
G grenadiers (2), M machine gunners (2); every square on that side's two home ranks, none twice.

For tests and booklet examples, ``position(...)`` builds a state from an explicit position.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from generator.foundation.errors import BoardError, IllegalMoveError, NotationError, RecordError
from generator.foundation.languages import Msg, counted, plural_form, reason_of, side_msg
from generator.foundation.seeding import check_seed
from generator.games import barricades_board as bb
from generator.games.barricades_board import Battlefield, distance, parse_square, square_name
from generator.games.base import GameRules, Outcome, State, turn_limit

#: what the turn limit counts (the rules' ``turn_unit``; the kit's texts name it from there)
TURN_UNIT = "turn"

SIDES = ("red", "blue")
KILL_DAMAGE = 4
MACGUFFINS_TO_WIN = 2
TURN_LIMIT = 200
NO_FIRE = -1
BURST = -2


@dataclass(frozen=True)
class PieceType:
    """One kind of soldier: how far it moves, how it fires, its ammunition and its damage."""

    name: str
    title: str
    initial: str
    count: int
    move: int
    min_range: int
    max_range: int
    ammo: int
    weapon: str
    damage: int


PIECE_TYPES = (
    PieceType("pistolier", "Pistolier", "P", 4, 4, 1, 3, 6, "pistol", 1),
    PieceType("rifleman", "Rifleman", "R", 2, 3, 1, 6, 8, "rifle", 2),
    PieceType("grenadier", "Grenadier", "G", 2, 4, 3, 3, 2, "grenade", KILL_DAMAGE),
    PieceType("machine-gunner", "Machine gunner", "M", 2, 2, 1, 3, 12, "machine gun", 4),
)
_TYPE_INDEX = {t.name: i for i, t in enumerate(PIECE_TYPES)}
_INITIAL_INDEX = {t.initial: i for i, t in enumerate(PIECE_TYPES)}
PISTOLIER, RIFLEMAN, GRENADIER, MACHINE_GUNNER = range(4)

# Spread out against grenades: no 3 by 3 blast can cover more than one front-rank soldier, or more
# than three soldiers at all.
_BLUE_SETUP = {
    "pistolier": ("a2", "d2", "g2", "j2"),
    "rifleman": ("c1", "h1"),
    "grenadier": ("b1", "i1"),
    "machine-gunner": ("e1", "f1"),
}
DEFAULT_SETUP: dict[str, dict[str, tuple[str, ...]]] = {
    "blue": _BLUE_SETUP,
    "red": {
        kind: tuple(sorted((square_name(bb.mirror(parse_square(s))) for s in squares), key=parse_square))
        for kind, squares in _BLUE_SETUP.items()
    },
}

_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _compute_rays(square: int) -> tuple[tuple[int, ...], ...]:
    f, r = square % bb.SIZE, square // bb.SIZE
    rays = []
    for df, dr in _DIRECTIONS:
        ray = []
        nf, nr = f + df, r + dr
        while 0 <= nf < bb.SIZE and 0 <= nr < bb.SIZE:
            ray.append(nr * bb.SIZE + nf)
            nf, nr = nf + df, nr + dr
        rays.append(tuple(ray))
    return tuple(rays)


_RAYS = [_compute_rays(s) for s in bb.SQUARES]
_RING3 = [tuple(t for t in bb.SQUARES if distance(s, t) == 3) for s in bb.SQUARES]
#: Distances in king steps from every square to every square (``_DISTANCE[a][b]``).
_DISTANCE = [tuple(distance(s, t) for t in bb.SQUARES) for s in bb.SQUARES]
_BURST_RANGE = PIECE_TYPES[MACHINE_GUNNER].max_range
_AREA = [tuple([s] + bb.neighbours(s)) for s in bb.SQUARES]


@dataclass(frozen=True)
class Move:
    """A turn: the piece on ``src`` moves to ``dst`` (== src when it stays) and fires at ``target``.

    ``target`` is a square, NO_FIRE or BURST (a machine-gun burst); ``resign`` gives up the game."""

    src: int = -1
    dst: int = -1
    target: int = NO_FIRE
    resign: bool = False


RESIGN = Move(resign=True)


def move_str(move: Move) -> str:
    """Return the move in Barricades notation, e.g. 'c2-c5xe7', 'c2x*' or 'resign'."""
    if move.resign:
        return "resign"
    text = square_name(move.src)
    if move.dst != move.src:
        text += "-" + square_name(move.dst)
    if move.target == BURST:
        text += "x*"
    elif move.target != NO_FIRE:
        text += "x" + square_name(move.target)
    return text


def parse_move_text(text: str) -> Move:
    """Return the move a token describes, without looking at a position; raise NotationError."""
    token = text.strip().lower()
    if token == "resign":
        return RESIGN
    head, _, fire = token.partition("x")
    src_text, dash, dst_text = head.partition("-")
    if (
        not src_text
        or (dash and not dst_text)
        or ("x" in token and not fire)
        or (not dash and "x" not in token)
    ):
        raise NotationError(Msg("game.barricades.notation", text=repr(text)))
    src = parse_square(src_text)
    dst = parse_square(dst_text) if dash else src
    if dash and dst == src:
        raise NotationError(Msg("game.barricades.no_move", text=repr(text), square=src_text))
    if not fire:
        target = NO_FIRE
    elif fire == "*":
        target = BURST
    else:
        target = parse_square(fire)
    return Move(src, dst, target)


def _kind_title(kind: int) -> Msg:
    """Return a kind of soldier as the referee names it ('rifleman', 'fusilier', 'fuciliere')."""
    return Msg(f"game.barricades.kind.{PIECE_TYPES[kind].name}")


def _kinds_title(kind: int) -> Msg:
    """Return a kind of soldier in the plural ('riflemen', 'fusiliers', 'fucilieri')."""
    return Msg(f"game.barricades.kinds.{PIECE_TYPES[kind].name}")


class BarricadesState(State[Move]):
    """One Barricades position: terrain, the soldiers with their damage and ammunition, the turn."""

    __slots__ = (
        "ammo",
        "board",
        "captured",
        "field",
        "hurt",
        "kind",
        "macguffins",
        "mg_hurt",
        "result",
        "side",
        "square",
        "to_move",
    )
    SHARED = frozenset({"field", "kind", "side", "result"})

    def __init__(
        self,
        field: Battlefield,
        pieces: Iterable[tuple[int, int, int, int, int, int]],
        to_move: int = 0,
        macguffins: Iterable[int] | None = None,
        captured: tuple[int, int] = (0, 0),
        turn: int = 0,
        limit: int = TURN_LIMIT,
    ) -> None:
        super().__init__(limit, turn)
        self.field = field
        self.kind: list[int] = []
        self.side: list[int] = []
        self.square: list[int] = []
        self.ammo: list[int] = []
        self.hurt: list[int] = []
        self.mg_hurt: list[int] = []
        self.board = [-1] * (bb.SIZE * bb.SIZE)
        for side, kind, square, ammo, hurt, mg_hurt in pieces:
            self.board[square] = len(self.kind)
            self.side.append(side)
            self.kind.append(kind)
            self.square.append(square)
            self.ammo.append(ammo)
            self.hurt.append(hurt)
            self.mg_hurt.append(mg_hurt)
        self.to_move = to_move
        self.macguffins = set(field.macguffins if macguffins is None else macguffins)
        self.captured = list(captured)
        self.result: Outcome | None = None

    # -- the State interface -------------------------------------------------------------------

    def current_player(self) -> str:
        """Return 'red' or 'blue', the side to move."""
        return SIDES[self.to_move]

    def legal_moves(self) -> list[Move]:
        """Return every legal move: each piece's moves, with and without each possible shot; resign last."""
        if self.is_terminal():
            return []
        moves: list[Move] = []
        me = self.to_move
        field = self.field
        enemies = [sq for p, sq in enumerate(self.square) if sq >= 0 and self.side[p] != me]
        for p, square in enumerate(self.square):
            if square < 0 or self.side[p] != me:
                continue
            kind = self.kind[p]
            for dst in [square] + self._slides(square, PIECE_TYPES[kind].move):
                if dst != square:
                    moves.append(Move(square, dst))
                ammo = PIECE_TYPES[kind].ammo if dst != square and dst in field.ammo else self.ammo[p]
                if ammo > 0:
                    for target in self._targets(kind, dst, enemies):
                        moves.append(Move(square, dst, target))
        moves.append(RESIGN)
        return moves

    def random_move(self, rng: Any) -> Move:
        """Return a legal move drawn uniformly from those other than resigning (resign if none)."""
        if self.is_terminal():
            raise IllegalMoveError(Msg("game.barricades.over", reason=self.outcome().reason))
        moves = self.legal_moves()
        if len(moves) == 1:
            return moves[0]
        return moves[rng.below(len(moves) - 1)]

    def parse_move(self, text: str) -> Move:
        """Return the move written as text; a machine gunner's target square becomes a burst."""
        move = parse_move_text(text)
        if move.target >= 0:
            p = self.board[move.src]
            if p >= 0 and self.kind[p] == MACHINE_GUNNER:
                return Move(move.src, move.dst, BURST)
        return move

    def move_str(self, move: Move) -> str:
        """Return the move in Barricades notation."""
        return move_str(move)

    def check_move(self, move: Move) -> None:
        """Raise IllegalMoveError, with the reason in a player's words, if the move is not legal."""
        if self.is_terminal():
            raise IllegalMoveError(Msg("game.barricades.over", reason=self.outcome().reason))
        if move.resign:
            return
        me = side_msg(SIDES[self.to_move])
        src, dst, target = move.src, move.dst, move.target
        if not (0 <= src < 100 and 0 <= dst < 100):
            raise IllegalMoveError(Msg("game.barricades.off_board"))
        p = self.board[src]
        if p < 0:
            raise IllegalMoveError(Msg("game.barricades.no_piece", square=square_name(src)))
        if self.side[p] != self.to_move:
            raise IllegalMoveError(
                Msg(
                    "game.barricades.not_yours",
                    square=square_name(src),
                    owner=side_msg(SIDES[self.side[p]]),
                    side=me,
                )
            )
        kind = self.kind[p]
        title = _kind_title(kind)
        if dst == src and target == NO_FIRE:
            raise IllegalMoveError(Msg("game.barricades.idle", kind=title, square=square_name(src)))
        if dst != src:
            self._check_path(kind, src, dst)
        if target == NO_FIRE:
            return
        ammo = PIECE_TYPES[kind].ammo if dst != src and dst in self.field.ammo else self.ammo[p]
        if ammo <= 0:
            raise IllegalMoveError(Msg("game.barricades.no_ammo", kind=title, square=square_name(src)))
        self._check_fire(kind, src, dst, target)

    def _apply(self, move: Move) -> None:
        """Play a legal move: move, refill or heal, fire, then settle captures, deaths and the result."""
        me = self.to_move
        if move.resign:
            self.result = Outcome(
                True,
                SIDES[1 - me],
                score=self._score(),
                reason=Msg("game.barricades.resigned", side=side_msg(SIDES[me])),
            )
            return
        p = self.board[move.src]
        dst = move.dst
        if dst != move.src:
            self.board[move.src] = -1
            self.board[dst] = p
            self.square[p] = dst
            if dst in self.macguffins:
                self.macguffins.discard(dst)
                self.captured[me] += 1
            if dst in self.field.ammo:
                self.ammo[p] = PIECE_TYPES[self.kind[p]].ammo
            if dst in self.field.medical:
                self.hurt[p] = 0
        if move.target != NO_FIRE:
            self.ammo[p] -= 1
            self._fire(self.kind[p], dst, move.target)
        self._settle(me)
        self.to_move = 1 - me

    def is_terminal(self) -> bool:
        """Return True once a side has won, the game is drawn, or the turn limit is reached."""
        return self.result is not None

    def outcome(self) -> Outcome:
        """Return the result so far; the score is the MacGuffins each side has captured."""
        return self.result if self.result is not None else Outcome(False, score=self._score())

    def text(self) -> str:
        """Return the position as text: the board, then each side's soldiers with damage and ammunition."""
        lines: list[str] = [
            Msg(
                "game.barricades.status",
                seed=self.field.seed,
                turn=self.ply,
                limit=self.limit,
                state=(
                    self.outcome().reason
                    if self.is_terminal()
                    else Msg("game.barricades.to_move", side=side_msg(self.current_player()))
                ),
            )
        ]
        pieces = {
            sq: (SIDES[self.side[p]], PIECE_TYPES[self.kind[p]].name)
            for p, sq in enumerate(self.square)
            if sq >= 0
        }
        lines.append(picture(self.field, pieces, self.macguffins))
        for s, side in enumerate(SIDES):
            items: list[str] = []
            for p in sorted(
                (p for p, sq in enumerate(self.square) if sq >= 0 and self.side[p] == s),
                key=lambda p: self.square[p],
            ):
                damage = self.hurt[p] + self.mg_hurt[p]
                piece = f"{PIECE_TYPES[self.kind[p]].initial}{square_name(self.square[p])}"
                ammo = counted(self.ammo[p], "ammo")
                items.append(
                    Msg(
                        "game.barricades.piece.hurt", piece=piece, ammo=ammo, damage=counted(damage, "damage")
                    )
                    if damage
                    else Msg("game.barricades.piece", piece=piece, ammo=ammo)
                )
            lines.append(
                Msg(
                    "game.barricades.roster",
                    side=side_msg(side),
                    macguffins=counted(self.captured[s], "macguffin"),
                    pieces=Msg.joined(" ", items) if items else Msg("game.barricades.none"),
                )
            )
        return Msg.joined("\n", lines)

    # -- queries for tests, booklets and the referee ---------------------------------------------

    def piece_at(self, square: str) -> dict[str, Any] | None:
        """Return the soldier on a square as {'side', 'type', 'ammo', 'damage', 'mg_damage'}, or None."""
        p = self.board[parse_square(square)]
        if p < 0:
            return None
        return {
            "side": SIDES[self.side[p]],
            "type": PIECE_TYPES[self.kind[p]].name,
            "ammo": self.ammo[p],
            "damage": self.hurt[p],
            "mg_damage": self.mg_hurt[p],
        }

    def pieces(self) -> dict[str, str]:
        """Return every living soldier as {square: 'side:type'}, in square order."""
        return {
            square_name(sq): f"{SIDES[self.side[p]]}:{PIECE_TYPES[self.kind[p]].name}"
            for sq, p in enumerate(self.board)
            if p >= 0
        }

    def remaining_macguffins(self) -> list[str]:
        """Return the squares of the MacGuffins not yet captured, in square order."""
        return bb.names(self.macguffins)

    def burst_victims(self, square: str) -> list[str]:
        """Return the enemy squares a machine-gun burst from this square would hit now."""
        at = parse_square(square)
        p = self.board[at]
        side = self.to_move if p < 0 else self.side[p]
        return bb.names(self._burst(side, at))

    # -- internals -------------------------------------------------------------------------------

    def _slides(self, square: int, reach: int) -> list[int]:
        board, barricades = self.board, self.field.barricades
        found = []
        for ray in _RAYS[square]:
            for step, s in enumerate(ray):
                if step == reach or board[s] >= 0 or s in barricades:
                    break
                found.append(s)
        return found

    def _targets(self, kind: int, dst: int, enemies: list[int] | None = None) -> list[int]:
        """Return what a piece of ``kind`` on ``dst`` may fire at (``enemies``: the squares of the
        enemy pieces, in piece order, when the caller has them)."""
        if kind == GRENADIER:
            return list(_RING3[dst])
        if kind == MACHINE_GUNNER:
            return [BURST] if self._burst(self.to_move, dst, enemies) else []
        if enemies is None:
            enemies = self._enemy_squares(self.to_move)
        reach = PIECE_TYPES[kind].max_range
        field = self.field
        near = _DISTANCE[dst]
        return [sq for sq in enemies if near[sq] <= reach and field.line_of_fire(dst, sq)[0] == "clear"]

    def _enemy_squares(self, side: int) -> list[int]:
        return [sq for p, sq in enumerate(self.square) if sq >= 0 and self.side[p] != side]

    def _burst(self, side: int, at: int, enemies: list[int] | None = None) -> list[int]:
        if enemies is None:
            enemies = self._enemy_squares(side)
        field = self.field
        near = _DISTANCE[at]
        return [sq for sq in enemies if near[sq] <= _BURST_RANGE and field.line_of_fire(at, sq)[0] == "clear"]

    def _check_path(self, kind: int, src: int, dst: int) -> None:
        df, dr = dst % 10 - src % 10, dst // 10 - src // 10
        if not (df == 0 or dr == 0 or abs(df) == abs(dr)):
            raise IllegalMoveError(
                Msg("game.barricades.crooked", origin=square_name(src), target=square_name(dst))
            )
        steps = max(abs(df), abs(dr))
        reach = PIECE_TYPES[kind].move
        if steps > reach:
            raise IllegalMoveError(
                Msg(
                    "game.barricades.too_far",
                    kind=_kind_title(kind),
                    reach=counted(reach, "square"),
                    origin=square_name(src),
                    target=square_name(dst),
                    steps=counted(steps, "square"),
                )
            )
        ray = _RAYS[src][_DIRECTIONS.index((_sign(df), _sign(dr)))]
        for s in ray[:steps]:
            if s in self.field.barricades:
                raise IllegalMoveError(Msg("game.barricades.barricade_in_way", square=square_name(s)))
            if self.board[s] >= 0:
                raise IllegalMoveError(Msg("game.barricades.piece_in_way", square=square_name(s)))

    def _check_fire(self, kind: int, src: int, dst: int, target: int) -> None:
        title = _kind_title(kind)
        at = square_name(dst)
        if kind == MACHINE_GUNNER:
            if target != BURST:
                raise IllegalMoveError(Msg("game.barricades.burst_only"))
            if not self._burst(self.to_move, dst):
                raise IllegalMoveError(Msg("game.barricades.burst_nobody", square=at, reach=_BURST_RANGE))
            return
        if target == BURST:
            raise IllegalMoveError(Msg("game.barricades.no_burst", kind=title))
        name = square_name(target)
        away = distance(dst, target)
        if kind == GRENADIER:
            if away != 3:
                raise IllegalMoveError(
                    Msg("game.barricades.grenade", target=name, away=counted(away, "square"), square=at)
                )
            return
        reach = PIECE_TYPES[kind].max_range
        if away == 0:
            raise IllegalMoveError(Msg("game.barricades.own_square", kind=title))
        if away > reach:
            raise IllegalMoveError(
                Msg(
                    "game.barricades.out_of_range",
                    kind=title,
                    reach=counted(reach, "square"),
                    target=name,
                    away=counted(away, "square"),
                    square=at,
                )
            )
        victim = self.board[target] if target != src else -1
        if victim < 0:
            raise IllegalMoveError(Msg("game.barricades.nobody_there", square=name))
        if self.side[victim] == self.to_move:
            raise IllegalMoveError(Msg("game.barricades.own_side", square=name))
        verdict, barricade = self.field.line_of_fire(dst, target)
        if verdict == "safe":
            raise IllegalMoveError(Msg("game.barricades.safe", target=name, barricade=square_name(barricade)))
        if verdict == "blocked":
            raise IllegalMoveError(
                Msg("game.barricades.blocked", barricade=square_name(barricade), square=at, target=name)
            )

    def _fire(self, kind: int, at: int, target: int) -> None:
        if kind == GRENADIER:
            for s in _AREA[target]:
                if self.board[s] >= 0:
                    self._kill(self.board[s])
        elif kind == MACHINE_GUNNER:
            for s in self._burst(self.to_move, at):
                victim = self.board[s]
                self.mg_hurt[victim] += PIECE_TYPES[MACHINE_GUNNER].damage
                self._kill(victim)
        else:
            victim = self.board[target]
            self.hurt[victim] += PIECE_TYPES[kind].damage
            if self.hurt[victim] + self.mg_hurt[victim] >= KILL_DAMAGE:
                self._kill(victim)

    def _kill(self, p: int) -> None:
        self.board[self.square[p]] = -1
        self.square[p] = -1

    def _score(self) -> dict[str, int]:
        return {"red": self.captured[0], "blue": self.captured[1]}

    def _settle(self, me: int) -> None:
        if self.captured[me] >= MACGUFFINS_TO_WIN:
            self.result = Outcome(
                True,
                SIDES[me],
                score=self._score(),
                reason=Msg(
                    "game.barricades.captured",
                    side=side_msg(SIDES[me]),
                    macguffins=counted(self.captured[me], "macguffin"),
                ),
            )
        elif all(side == me for side, sq in zip(self.side, self.square) if sq >= 0):
            self.result = Outcome(
                True,
                SIDES[me],
                score=self._score(),
                reason=Msg("game.barricades.killed", side=side_msg(SIDES[me]), other=side_msg(SIDES[1 - me])),
            )
        elif self.ply >= self.limit:
            self.result = Outcome(
                True,
                None,
                draw=True,
                score=self._score(),
                reason=Msg("game.any.limit", limit=counted(self.limit, TURN_UNIT)),
            )


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


# -- setups ----------------------------------------------------------------------------------------


def parse_setup(text: str, side: str, tag: str = "") -> dict[str, tuple[str, ...]]:
    """Return a side's setup {type: squares} from text like 'P:b2,d2,g2,i2 R:d1,g1 G:c1,h1 M:e2,f2'."""
    name = tag or side.capitalize() + "Setup"

    def bad(problem: str) -> RecordError:
        return RecordError(Msg("game.barricades.setup", tag=name, problem=problem))

    setup: dict[str, tuple[str, ...]] = {}
    seen: set[int] = set()
    home = set(bb.home_squares(side))
    for group in text.split():
        initial, colon, squares = group.partition(":")
        if not colon or initial.upper() not in _INITIAL_INDEX:
            raise bad(Msg("game.barricades.setup.group", group=repr(group)))
        index = _INITIAL_INDEX[initial.upper()]
        piece = PIECE_TYPES[index]
        if piece.name in setup:
            raise bad(Msg("game.barricades.setup.twice", kinds=_kinds_title(index)))
        names = tuple(n for n in squares.split(",") if n)
        for n in names:
            try:
                s = parse_square(n)
            except NotationError as exc:
                raise bad(reason_of(exc)) from None
            if s not in home:
                low, high = bb.HOME_RANKS[side]
                raise bad(
                    Msg("game.barricades.setup.home", square=n, side=side_msg(side), low=low, high=high)
                )
            if s in seen:
                raise bad(Msg("game.barricades.setup.square_twice", square=n))
            seen.add(s)
        if len(names) != piece.count:
            needed = Msg(f"game.n.{piece.name}.{plural_form(piece.count, 'en')}", n=piece.count)
            raise bad(Msg("game.barricades.setup.count", needed=needed, given=len(names)))
        setup[piece.name] = names
    for index, piece in enumerate(PIECE_TYPES):
        if piece.name not in setup:
            raise bad(Msg("game.barricades.setup.missing", kinds=_kinds_title(index), initial=piece.initial))
    return {t.name: setup[t.name] for t in PIECE_TYPES}


def setup_str(setup: Mapping[str, Iterable[str]]) -> str:
    """Return a side's setup as tag text, e.g. 'P:b2,d2,g2,i2 R:d1,g1 G:c1,h1 M:e2,f2'."""
    return " ".join(f"{t.initial}:" + ",".join(setup[t.name]) for t in PIECE_TYPES)


@lru_cache(maxsize=64)
def _battlefield(seed: int) -> Battlefield:
    return bb.battlefield(seed)


def position(
    pieces: Mapping[str, str],
    *,
    barricades: Iterable[str] = (),
    ammo_squares: Iterable[str] = (),
    medical_squares: Iterable[str] = (),
    macguffins: Iterable[str] = (),
    to_move: str = "red",
    ammo_left: Mapping[str, int] | None = None,
    damage: Mapping[str, int] | None = None,
    mg_damage: Mapping[str, int] | None = None,
    captured: Mapping[str, int] | None = None,
    turn: int = 0,
    limit: int = TURN_LIMIT,
) -> BarricadesState:
    """Return a state built from an explicit position: pieces {square: 'side:type'}, terrain by name.

    Pieces start with full ammunition and no damage unless ``ammo_left``/``damage``/``mg_damage``
    (keyed by square) say otherwise. Raises BoardError on an impossible position."""

    def squares(items: Iterable[str]) -> frozenset[int]:
        return frozenset(parse_square(n) for n in items)

    field = Battlefield(
        None, squares(barricades), squares(ammo_squares), squares(medical_squares), squares(macguffins)
    )
    rows = []
    for name, what in sorted(pieces.items(), key=lambda item: parse_square(item[0])):
        side, _, kind = what.partition(":")
        if side not in SIDES or kind not in _TYPE_INDEX:
            raise BoardError(f"{what!r} is not a piece (e.g. 'red:rifleman')")
        sq = parse_square(name)
        if sq in field.barricades or sq in field.macguffins:
            raise BoardError(f"{name} cannot hold a piece")
        k = _TYPE_INDEX[kind]
        rows.append(
            (
                SIDES.index(side),
                k,
                sq,
                (ammo_left or {}).get(name, PIECE_TYPES[k].ammo),
                (damage or {}).get(name, 0),
                (mg_damage or {}).get(name, 0),
            )
        )
    got = captured or {}
    return BarricadesState(
        field, rows, SIDES.index(to_move), None, (got.get("red", 0), got.get("blue", 0)), turn, limit
    )


def _setup_rows(
    setups: Mapping[str, Mapping[str, Iterable[str]]],
) -> list[tuple[int, int, int, int, int, int]]:
    rows: list[tuple[int, int, int, int, int, int]] = []
    for s, side in enumerate(SIDES):
        for kind, squares in setups[side].items():
            k = _TYPE_INDEX[kind]
            rows.extend((s, k, parse_square(n), PIECE_TYPES[k].ammo, 0, 0) for n in squares)
    return rows


# -- pictures and data for components --------------------------------------------------------------


def picture(field: Battlefield, pieces: Mapping[int, tuple[str, str]], macguffins: Iterable[int]) -> str:
    """Return a text picture: '#' barricade, '=' ammunition, '+' medical, '@' MacGuffin,
    Red soldiers in capitals (P R G M), Blue in small letters."""
    guffins = set(macguffins)
    rows = []
    for rank in range(bb.SIZE, 0, -1):
        cells = []
        for f in range(bb.SIZE):
            s = f + bb.SIZE * (rank - 1)
            if s in pieces:
                side, kind = pieces[s]
                letter = PIECE_TYPES[_TYPE_INDEX[kind]].initial
                cells.append(letter if side == "red" else letter.lower())
            elif s in field.barricades:
                cells.append("#")
            elif s in guffins:
                cells.append("@")
            elif s in field.ammo:
                cells.append("=")
            elif s in field.medical:
                cells.append("+")
            else:
                cells.append(".")
        rows.append(f"{rank:>2}  " + " ".join(cells))
    rows.append("    " + " ".join(bb.FILES))
    return "\n".join(rows)


def _terrain_cells(field: Battlefield, window: Iterable[int] = bb.SQUARES) -> dict[str, list[str]]:
    cells: dict[str, list[str]] = {}
    for s in window:
        marks = []
        if s in field.barricades:
            marks.append("barricade")
        if s in field.ammo:
            marks.append("ammo")
        if s in field.medical:
            marks.append("medical")
        if s in field.macguffins:
            marks.append("macguffin")
        if marks:
            cells[square_name(s)] = marks
    return cells


@dataclass(frozen=True)
class Diagram:
    """A booklet position on files a-f, ranks 1-6: the pieces by square, the barricades, the side
    to move, the shot (``move``, None when it is refused) from ``shooter`` at ``target`` (empty for
    a burst) past ``barricade``, its lines of fire, and the squares hit and unhurt."""

    pieces: Mapping[str, str]
    barricades: tuple[str, ...]
    move: str | None
    to_move: str
    lines: tuple[tuple[str, str], ...]
    hit: tuple[str, ...]
    unhurt: tuple[str, ...]
    shooter: str
    target: str
    barricade: str


def _diagrams() -> dict[str, Diagram]:
    """Booklet positions, each shown on files a-f, ranks 1-6: the pieces, the terrain, the shot
    (``move``, None when the shot is refused), its lines of fire, and who is hit or unhurt."""
    return {
        "cover": Diagram(
            pieces={"c2": "blue:rifleman", "c5": "red:pistolier"},
            barricades=("b3", "c3", "d3"),
            move="c2xc5",
            to_move="blue",
            lines=(("c2", "c5"),),
            hit=("c5",),
            unhurt=(),
            shooter="c2",
            target="c5",
            barricade="c3",
        ),
        "safe": Diagram(
            pieces={"c2": "blue:rifleman", "c5": "red:pistolier"},
            barricades=("b3", "c3", "d3"),
            move=None,
            to_move="red",
            lines=(("c5", "c2"),),
            hit=(),
            unhurt=("c2",),
            shooter="c5",
            target="c2",
            barricade="c3",
        ),
        "blocked": Diagram(
            pieces={"a6": "red:rifleman", "e2": "blue:pistolier"},
            barricades=("b4", "c4", "d4"),
            move=None,
            to_move="red",
            lines=(("a6", "e2"),),
            hit=(),
            unhurt=("e2",),
            shooter="a6",
            target="e2",
            barricade="c4",
        ),
        "corner": Diagram(
            pieces={"a1": "red:rifleman", "e5": "blue:pistolier"},
            barricades=("b3", "c2", "d5"),
            move="a1xe5",
            to_move="red",
            lines=(("a1", "e5"),),
            hit=("e5",),
            unhurt=(),
            shooter="a1",
            target="e5",
            barricade="c2",
        ),
        "blast": Diagram(
            pieces={
                "b2": "red:grenadier",
                "e6": "blue:rifleman",
                "f5": "blue:pistolier",
                "d6": "red:pistolier",
                "f2": "blue:machine-gunner",
            },
            barricades=("c4", "d4", "e4"),
            move="b2xe5",
            to_move="red",
            lines=(("b2", "e5"),),
            hit=("d6", "e6", "f5"),
            unhurt=("f2",),
            shooter="b2",
            target="e5",
            barricade="d4",
        ),
        "burst": Diagram(
            pieces={
                "b3": "red:machine-gunner",
                "d5": "blue:pistolier",
                "a1": "blue:rifleman",
                "e3": "blue:grenadier",
                "f4": "blue:pistolier",
                "c2": "red:pistolier",
            },
            barricades=("d2", "d3"),
            move="b3x*",
            to_move="red",
            lines=(("b3", "d5"), ("b3", "a1"), ("b3", "e3")),
            hit=("a1", "d5"),
            unhurt=("e3", "f4"),
            shooter="b3",
            target="",
            barricade="d3",
        ),
    }


def diagram_state(name: str) -> BarricadesState:
    """Return the position of a booklet diagram ('cover', 'safe', 'blocked', 'corner', 'blast', 'burst')."""
    spec = _diagrams().get(name)
    if spec is None:
        raise BoardError(f"barricades has no diagram {name!r} (diagrams: {', '.join(sorted(_diagrams()))})")
    return position(spec.pieces, barricades=spec.barricades, to_move=spec.to_move)


def _diagram_data(name: str) -> dict[str, Any]:
    spec = _diagrams().get(name)
    if spec is None:
        raise BoardError(
            f"barricades provides no layout data 'position:{name}' "
            f"(positions: {', '.join(sorted(_diagrams()))})"
        )
    window = [f + bb.SIZE * r for r in range(6) for f in range(6)]
    state = diagram_state(name)
    highlight: list[str] = []
    if name == "blast":
        highlight = bb.names(_AREA[parse_square("e5")])
    else:
        for a, b in spec.lines:
            highlight.extend(square_name(s) for s in bb.line_squares(parse_square(a), parse_square(b)))
    cells = _terrain_cells(state.field, window)
    for mark in ("hit", "unhurt"):
        for square in spec.hit if mark == "hit" else spec.unhurt:
            cells.setdefault(square, []).append(mark)
    return {
        "files": 6,
        "ranks": 6,
        "cells": {n: cells[n] for n in sorted(cells, key=parse_square)},
        "pieces": state.pieces(),
        "lines": [list(line) for line in spec.lines],
        "highlight": sorted(set(highlight), key=parse_square),
        "hit": list(spec.hit),
        "unhurt": list(spec.unhurt),
        "move": spec.move,
        "shooter": spec.shooter,
        "target": spec.target,
        "barricade": spec.barricade,
    }


class BarricadesRules(GameRules):
    """The Barricades game: seeded battlefield, ten soldiers a side, Red first."""

    def new_state(
        self,
        seed: int | None = None,
        variants: frozenset[str] = frozenset(),
        tags: Mapping[str, str] | None = None,
    ) -> BarricadesState:
        """Return the opening position of the seed's battlefield (setups from RedSetup/BlueSetup tags)."""
        self.check_variants(variants)
        if seed is None:
            raise BoardError("Barricades needs a seed: the battlefield is made from it")
        field = _battlefield(check_seed(seed))
        tags = tags or {}
        setups = {
            side: parse_setup(tags[tag], side, tag) if tag in tags else DEFAULT_SETUP[side]
            for side, tag in (("red", "RedSetup"), ("blue", "BlueSetup"))
        }
        return BarricadesState(
            field, _setup_rows(setups), 0, None, (0, 0), 0, turn_limit(tags, self.default_turn_limit)
        )

    def board_data(self, seed: int | None = None, variants: frozenset[str] = frozenset()) -> dict[str, Any]:
        """Return the battlefield as JSON-ready data: terrain squares (sorted) and the default setup."""
        field = self._field(seed, variants)
        return {
            "game": self.id,
            "seed": field.seed,
            "barricades": bb.names(field.barricades),
            "ammo": bb.names(field.ammo),
            "medical": bb.names(field.medical),
            "macguffins": bb.names(field.macguffins),
            "setup": {
                side: {kind: list(squares) for kind, squares in DEFAULT_SETUP[side].items()} for side in SIDES
            },
        }

    def board_text(self, seed: int | None = None, variants: frozenset[str] = frozenset()) -> str:
        """Return the battlefield with the default setup as a text picture, with a legend."""
        field = self._field(seed, variants)
        pieces = {
            parse_square(n): (side, kind)
            for side in SIDES
            for kind, squares in DEFAULT_SETUP[side].items()
            for n in squares
        }
        return (
            f"Barricades, seed {field.seed} (Red north, moves first; Blue south)\n"
            + picture(field, pieces, field.macguffins)
            + "\n# barricade  = ammunition  + medical  @ MacGuffin  "
            "P pistolier  R rifleman  G grenadier  M machine gunner (Red capitals, Blue small)"
        )

    def layout_data(
        self, name: str, seed: int | None = None, variants: frozenset[str] = frozenset()
    ) -> dict[str, Any]:
        """Return component data: 'board' (cells and their marks, a soldier's starting square
        marked ``piece:<side>:<type>:<number>``) or 'position:<diagram>'."""
        if name.startswith("position:"):
            return _diagram_data(name.partition(":")[2])
        if name != "board":
            raise BoardError(
                f"barricades provides no layout data {name!r} "
                f"(known: board, {', '.join('position:' + d for d in sorted(_diagrams()))})"
            )
        field = self._field(seed, variants)
        cells = _terrain_cells(field)
        for side in SIDES:
            for s in bb.home_squares(side):
                cells.setdefault(square_name(s), []).append(f"{side}-home")
            for kind, squares in DEFAULT_SETUP[side].items():
                # soldier k of a type (the roster's "Pistolier k", the standee numbered k)
                # starts on the type's k-th square of the default setup
                for k, n in enumerate(squares, 1):
                    cells[n].append(f"piece:{side}:{kind}:{k}")
        ordered = {n: cells[n] for n in sorted(cells, key=parse_square)}
        return {
            "game": self.id,
            "seed": field.seed,
            "files": bb.SIZE,
            "ranks": bb.SIZE,
            "file_names": list(bb.FILES),
            "rank_names": [str(r) for r in range(1, bb.SIZE + 1)],
            "cells": ordered,
        }

    def template_values(self) -> dict[str, Any]:
        """Return the piece table, board size and counts the booklet quotes."""
        return {
            "board_files": bb.SIZE,
            "board_ranks": bb.SIZE,
            "pieces": [
                {
                    "type": t.name,
                    "name": t.title,
                    "initial": t.initial,
                    "count": t.count,
                    "move": t.move,
                    "min_range": t.min_range,
                    "range": t.max_range,
                    "ammo": t.ammo,
                    "weapon": t.weapon,
                    "damage": t.damage,
                }
                for t in PIECE_TYPES
            ],
            "pieces_per_side": sum(t.count for t in PIECE_TYPES),
            "kill_damage": KILL_DAMAGE,
            "macguffins": bb.MACGUFFINS,
            "macguffins_to_win": MACGUFFINS_TO_WIN,
            "ammo_squares": 2 * bb.AMMO_PAIRS,
            "medical_squares": 2 * bb.MEDICAL_PAIRS,
            "barricade_ranks": list(bb.BARRICADE_RANKS),
            "home_ranks": {s: list(r) for s, r in bb.HOME_RANKS.items()},
            "macguffin_files": list(bb.MACGUFFIN_FILES),
            "macguffin_ranks": list(bb.MACGUFFIN_RANKS),
            "turn_limit": self.default_turn_limit,
            "first_side": "red",
            "setup": {side: {kind: list(sq) for kind, sq in DEFAULT_SETUP[side].items()} for side in SIDES},
            "setup_tags": {side: setup_str(DEFAULT_SETUP[side]) for side in SIDES},
        }

    def _field(self, seed: int | None, variants: frozenset[str]) -> Battlefield:
        self.check_variants(variants)
        if seed is None:
            raise BoardError("Barricades needs a seed: the battlefield is made from it")
        return _battlefield(check_seed(seed))


RULES = BarricadesRules(
    turn_unit=TURN_UNIT,
    id="barricades",
    title="Barricades",
    sides=SIDES,
    seeded=True,
    default_turn_limit=TURN_LIMIT,
    extra_tags=("RedSetup", "BlueSetup"),
)
