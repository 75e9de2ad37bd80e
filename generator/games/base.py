"""The game interface every rules module implements (OpenSpiel's shape, python-chess's manners).

A ``GameRules`` object describes a game and makes initial states. A ``State`` is one position:
whose turn it is, the legal moves, applying a move, whether the game is over and how it ended.
Moves are small frozen values that parse from and print to the game's notation. Dice are part of
the record: a move of a dice game carries the throw, so a recorded game replays exactly.
States never draw and never print.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar, Generic, TypeVar

from generator.foundation.errors import BoardError, IllegalMoveError
from generator.foundation.languages import Msg
from generator.foundation.numbers import is_ascii_digits
from generator.foundation.seeding import Rng


@dataclass(frozen=True)
class Outcome:
    """How a game stands: finished or not, the winner (a side name) or a draw, and a score."""

    finished: bool
    winner: str | None = None
    draw: bool = False
    score: Mapping[str, int] | None = None
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        """Return the outcome as the JSON object the referee prints."""
        data: dict[str, Any] = {"finished": self.finished, "winner": self.winner, "draw": self.draw}
        if self.score is not None:
            data["score"] = dict(self.score)
        if self.reason:
            data["reason"] = self.reason
        return data


M = TypeVar("M")  # a game's move: a frozen value its notation writes
_S = TypeVar("_S", bound="State[Any]")
_FLAT = (int, bool, str, type(None))


def _copied(value: Any, memo: dict[int, Any]) -> Any:
    """Return a deep copy of an attribute: a list or set of plain numbers (or strings) by a
    shallow copy, which is a full one and many times quicker than ``deepcopy`` (the search
    bots copy a position for every move they look at), anything else by ``deepcopy``."""
    kind = type(value)
    if kind is int or kind is bool or kind is str or value is None:
        return value
    if (kind is list or kind is set) and all(type(item) in _FLAT for item in value):
        return value.copy()
    return deepcopy(value, memo)


class State(ABC, Generic[M]):
    """One position of a game whose moves are of type ``M``. ``apply_move`` changes the state; ``copy`` makes an independent one.

    The base keeps what every game counts the same way: ``ply``, the moves played (including any
    before a position set up mid-game), ``limit``, the turn limit, and ``history``, the moves applied
    to this state in order. A game implements ``_apply`` (the position's change); ``apply_move``
    counts the ply and records the move first, so ``_apply`` sees ``ply`` including this move.
    """

    __slots__ = ("history", "limit", "ply")

    #: Attributes a copy shares with its original: values that are never changed in place
    #: (boards, maps, tables, caches that are replaced rather than edited). Everything else is
    #: copied deeply, so a new attribute is independent in copies unless it is listed here.
    SHARED: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, limit: int, ply: int = 0) -> None:
        self.limit = limit
        self.ply = ply
        self.history: list[M] = []

    @abstractmethod
    def current_player(self) -> str:
        """Return the side (or player) to move, e.g. 'white'; undefined once the game is over."""

    def playing_sides(self) -> tuple[str, ...] | None:
        """Return the sides taking part when the record sets how many play (the dice games'
        players p1, p2, ... named by the ``Players`` tag); None when every side of the rules plays."""
        return None

    @abstractmethod
    def legal_moves(self) -> list[M]:
        """Return every legal move in this position (empty when the game is over)."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Return the move written as text; raise NotationError when the text is not a move.

        Two ways of writing one move (aliases, such as dice in another order) parse to the same
        move, the one ``legal_moves`` lists."""

    @abstractmethod
    def move_str(self, move: M) -> str:
        """Return the move in the game's notation (``parse_move(move_str(m)) == m``)."""

    @abstractmethod
    def check_move(self, move: M) -> None:
        """Raise IllegalMoveError with a reason in a player's words if the move is not legal.

        It refuses exactly the moves ``legal_moves`` leaves out."""

    def apply_move(self, move: M) -> None:
        """Play a legal move (checked with ``check_move`` first by callers that need it): count the
        ply, record the move in ``history``, then change the position."""
        self.ply += 1
        self.history.append(move)
        self._apply(move)

    @abstractmethod
    def _apply(self, move: M) -> None:
        """Change the position by a legal move; ``ply`` and ``history`` already include it."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """Return True when the game is over."""

    @abstractmethod
    def outcome(self) -> Outcome:
        """Return how the game stands now."""

    @abstractmethod
    def text(self) -> str:
        """Return a plain-text picture of the position."""

    def copy(self: _S) -> _S:
        """Return an independent copy of this state: ``SHARED`` attributes are shared, the history
        list is copied (moves are frozen values), everything else is copied deeply."""
        cls = type(self)
        other = cls.__new__(cls)
        shared = cls.SHARED
        memo: dict[int, Any] = {}
        for name in _attribute_names(cls):
            try:
                value = getattr(self, name)
            except AttributeError:  # a slot never set
                continue
            if name == "history":
                value = value[:]
            elif name not in shared:
                value = _copied(value, memo)
            object.__setattr__(other, name, value)
        extra = getattr(self, "__dict__", None)
        if extra:
            for name, value in extra.items():
                other.__dict__[name] = value if name in shared else _copied(value, memo)
        return other

    def random_move(self, rng: Rng) -> M:
        """Return a legal move drawn uniformly by a ``seeding.Rng``; games may override with a
        faster draw that is still uniform over ``legal_moves()``."""
        moves = self.legal_moves()
        if not moves:
            raise IllegalMoveError("the game is over")
        return rng.choice(moves)

    def chance_of(self, move: M) -> Any:
        """Return the part of a move that dice decided (its throw), or None when no dice decided
        it (every move of a game without dice, a claim in Centennial)."""
        return None

    def random_chance(self, rng: Rng) -> Any:
        """Return a fair throw of the dice for the next move, drawn by a ``seeding.Rng``, or None
        when the next move throws no dice."""
        return None

    def chance_moves(self, outcome: Any) -> list[M]:
        """Return the legal moves a player may choose once the dice show ``outcome``: the moves
        carrying that throw and those no dice decide (every legal move when ``outcome`` is None)."""
        moves = self.legal_moves()
        if outcome is None:
            return moves
        return [m for m in moves if self.chance_of(m) in (None, outcome)]

    def random_chance_move(self, outcome: Any, rng: Rng) -> M:
        """Return ``rng.choice(self.chance_moves(outcome))``: a move drawn uniformly from those the
        dice allow; games may override with a faster way to the same draw."""
        return rng.choice(self.chance_moves(outcome))

    def deciders(self) -> tuple[str, ...]:
        """Return the sides that make the choices of the next move, in the order they make them:
        one side, the side to move, unless one move of the record holds another side's choice too
        (the other player's take in Verbal, the thrower's placement in Push!)."""
        return (self.current_player(),)

    def move_parts(self, move: M) -> tuple[Hashable, ...]:
        """Return a legal move as its choices, one for each of ``deciders()`` and in that order,
        each made knowing the dice and the choices before it: the move itself when one side
        makes it. Two moves with the same dice never have the same parts."""
        return (move,)

    def completions(self, move: M, made: int) -> list[M]:
        """Return the legal moves with the dice of ``move`` and its first ``made`` choices
        (``move_parts``): what the later deciders may still choose once those are made."""
        parts = self.move_parts(move)[:made]
        return [m for m in self.chance_moves(self.chance_of(move)) if self.move_parts(m)[:made] == parts]

    def part_names(self) -> tuple[str, ...]:
        """Return what each of ``deciders()`` does, as a verb a prompt can follow ('move'; Verbal's
        'offer' and 'take'), one for each decider."""
        return ("move",) * len(self.deciders())

    def part_str(self, move: M, stage: int) -> str:
        """Return choice ``stage`` of a move (``move_parts``) as its decider types it in live play:
        the whole move in notation when one side makes it."""
        return self.move_str(move)

    def parse_part(self, text: str, stage: int, among: Sequence[M] | None = None) -> list[M]:
        """Return the moves of ``among`` (those the dice and the earlier choices leave open; None:
        every legal move) whose choice ``stage`` is the one written; raise NotationError or
        IllegalMoveError in a player's words when the text is not a choice open now. By default
        (one side makes the move) the text is the whole move, parsed and checked."""
        move = self.parse_move(text)
        self.check_move(move)
        if among is not None and move not in among:
            raise IllegalMoveError(Msg("game.any.not_open", move=self.move_str(move)))
        return [move]

    def part_choices(self, stage: int, among: Sequence[M] | None = None) -> list[str]:
        """Return the choices open to the decider of ``stage`` (among ``among``, None: every legal
        move) as short texts for a player asking what they may play: each choice once, sorted."""
        moves = self.legal_moves() if among is None else among
        return sorted({self.part_str(m, stage) for m in moves})

    def text_during(self, move: M, made: int) -> str:
        """Return the table once the first ``made`` choices of ``move`` are made and before the
        rest (Push!'s neutral dice placed, waiting for the push): by default the position."""
        return self.text()

    def play(self, text: str) -> M:
        """Parse, check and apply one move written in notation; return the move."""
        move = self.parse_move(text)
        self.check_move(move)
        self.apply_move(move)
        return move


@dataclass(frozen=True)
class GameRules(ABC):
    """A game: its id, sides, variants, and how to set up a state (from a seed if seeded)."""

    id: str
    title: str
    sides: Sequence[str]
    variants: Sequence[str] = ()
    seeded: bool = False
    #: True when an unseeded game can also be played on a board drawn from a seed.
    seed_optional: bool = False
    default_turn_limit: int = 200
    #: what the turn limit counts, by its English name ('turn', 'throw', 'round'): the referee's
    #: messages and every text of the kit (``text_values``) name it from here
    turn_unit: str = "turn"
    extra_tags: Sequence[str] = field(default=())
    #: True when a move's notation contains spaces, so a record holds one move per line.
    move_per_line: bool = False

    @abstractmethod
    def new_state(
        self,
        seed: int | None = None,
        variants: frozenset[str] = frozenset(),
        tags: Mapping[str, str] | None = None,
    ) -> State[Any]:
        """Return the initial state; ``tags`` are the record's header tags (e.g. TurnLimit)."""

    def takes_seed(self) -> bool:
        """Return True when the game's board can come from a seed."""
        return self.seeded or self.seed_optional

    def check_variants(self, variants: frozenset[str]) -> frozenset[str]:
        """Return the variants if every one is known to this game; raise BoardError otherwise."""
        unknown = sorted(v for v in variants if v not in self.variants)
        if unknown:
            known = ", ".join(self.variants) if self.variants else Msg("record.variant.none")
            raise BoardError(
                Msg("record.variant.unknown", game=self.id, variant=repr(unknown[0]), known=known)
            )
        return variants

    def board_data(self, seed: int | None = None, variants: frozenset[str] = frozenset()) -> dict[str, Any]:
        """Return the board as plain JSON-ready data (``pnp board --json``); seeded games override."""
        raise BoardError(f"{self.id} has no board data")

    def board_text(self, seed: int | None = None, variants: frozenset[str] = frozenset()) -> str:
        """Return the board as a text picture for the terminal; seeded games override."""
        raise BoardError(f"{self.id} has no board picture")

    def layout_data(
        self, name: str, seed: int | None = None, variants: frozenset[str] = frozenset()
    ) -> dict[str, Any]:
        """Return data a drawing component asks for by name (e.g. 'board': cells and their marks).

        The data is plain values (square names, mark names, numbers), never shapes."""
        raise BoardError(f"{self.id} provides no layout data {name!r}")

    def template_values(self) -> dict[str, Any]:
        """Return values rule-text templates may use (piece counts, board size...)."""
        return {}

    def text_values(self) -> dict[str, Any]:
        """Return the values every text of a kit is written from (booklet, quick reference, record
        sheets): ``template_values()`` with the turn limit (``turn_limit``) and the unit it counts in
        (``turn_unit``), so each text states the limit the referee applies."""
        return {"turn_limit": self.default_turn_limit, "turn_unit": self.turn_unit, **self.template_values()}


@cache
def _attribute_names(cls: type) -> tuple[str, ...]:
    """Return the slot names a state class and its bases declare (instance dictionaries aside)."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and name not in names:
                names.append(name)
    return tuple(names)


def turn_limit(tags: Mapping[str, str] | None, default: int) -> int:
    """Return the turn limit from a record's TurnLimit tag, or the default."""
    if tags and "TurnLimit" in tags:
        text = str(tags["TurnLimit"]).strip()
        if not is_ascii_digits(text, 9):
            raise BoardError(Msg("record.turn_limit", text=repr(text)))
        value = int(text)
        if value <= 0:
            raise BoardError(Msg("record.turn_limit", text=value))
        return value
    return default
