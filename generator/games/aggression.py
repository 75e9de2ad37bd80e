"""Aggression: a seeded map of 20 cities joined by random roads, claimed with troops, then attacked.

Map: cities A to T sit on a grid of 4 rows by 5 columns, named row by row from the top left.
Each of the 55 neighbour pairs (horizontal, vertical or diagonal) gets a road with probability
1/2. The pairs are decided one coin each, in alphabetical order of the pair (A-B, A-F, A-G, B-C,
B-F, ...; see ``NEIGHBOUR_PAIRS``), from ``rng_for(seed, "aggression/roads")``. The ``connected``
variant keeps that map when it is connected (every city reachable from every other, so every city
has a road); otherwise it draws again from the streams "aggression/roads/1", "aggression/roads/2",
... until a map is connected. Two diagonals crossing in one grid cell are two separate roads; in
drawings the one running down to the right (like ``\\``) passes over the other.

Play (see rulings.md): Black then White claim unclaimed cities with troops (``K=12``), a player
with no troops left passes (``pass``); then, from Black, each names an opposing city to attack
(``xK``), which falls when its troops are fewer than the attacker's troops in adjacent cities.
A successful attack is compulsory: a player who has one must make one (any of them), so a lost
game cannot be stalled by naming cities that hold; a player who has none passes (``pass``) or
names an opposing city, which fails and changes nothing. Either counts as that player's turn.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Union

from generator.foundation.errors import BoardError, IllegalMoveError, NotationError
from generator.foundation.languages import Msg, counted, plural_form, side_msg
from generator.foundation.seeding import Rng, check_seed, rng_for
from generator.games.base import GameRules, Outcome, State, turn_limit

ROWS = 4
COLUMNS = 5
CITY_COUNT = ROWS * COLUMNS
CITY_NAMES = tuple(chr(ord("A") + i) for i in range(CITY_COUNT))
CITY_INDEX = {name: i for i, name in enumerate(CITY_NAMES)}
TROOPS = 100
SIDES = ("black", "white")
ROAD_STREAM = "aggression/roads"
MAX_ATTEMPTS = 10_000
ROAD_PROBABILITY = (1, 2)


def city_position(index: int) -> tuple[int, int]:
    """Return the (row, column) of a city by index, both counted from 0 at the top left."""
    return divmod(index, COLUMNS)


def _neighbour_pairs() -> tuple[tuple[int, int], ...]:
    pairs = []
    for i in range(CITY_COUNT):
        r, c = city_position(i)
        for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < ROWS and 0 <= cc < COLUMNS:
                pairs.append((i, rr * COLUMNS + cc))
    return tuple(sorted(pairs))


NEIGHBOUR_PAIRS: tuple[tuple[int, int], ...] = _neighbour_pairs()


def pair_kind(pair: tuple[int, int]) -> str:
    """Return 'horizontal', 'vertical' or 'diagonal' for a neighbour pair of city indices."""
    (r1, c1), (r2, c2) = city_position(pair[0]), city_position(pair[1])
    if r1 == r2:
        return "horizontal"
    if c1 == c2:
        return "vertical"
    return "diagonal"


def _crossings() -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    # In the cell whose top-left city is (r, c): the "\" diagonal, then the "/" diagonal.
    cells = []
    for r in range(ROWS - 1):
        for c in range(COLUMNS - 1):
            top_left = r * COLUMNS + c
            cells.append(((top_left, top_left + COLUMNS + 1), (top_left + 1, top_left + COLUMNS)))
    return tuple(cells)


CROSSINGS = _crossings()


@dataclass(frozen=True)
class AggressionMap:
    """A generated map: its seed, whether it is the connected variant, and its roads."""

    seed: int
    connected_variant: bool
    roads: tuple[tuple[int, int], ...]
    attempt: int

    @property
    def adjacency(self) -> tuple[tuple[int, ...], ...]:
        """Return, for each city index, the sorted indices of the cities one road away."""
        return _adjacency(self.roads)

    def road_names(self) -> list[list[str]]:
        """Return the roads as sorted pairs of city names, the list sorted."""
        return sorted([CITY_NAMES[a], CITY_NAMES[b]] for a, b in self.roads)

    def bridges(self) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """Return each pair of crossing diagonal roads, the one drawn on top first."""
        present = set(self.roads)
        return [(over, under) for over, under in CROSSINGS if over in present and under in present]


@lru_cache(maxsize=64)
def _adjacency(roads: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    links: list[list[int]] = [[] for _ in range(CITY_COUNT)]
    for a, b in roads:
        links[a].append(b)
        links[b].append(a)
    return tuple(tuple(sorted(x)) for x in links)


def draw_roads(seed: int, stream: str = ROAD_STREAM) -> tuple[tuple[int, int], ...]:
    """Return the roads drawn from one stream: one coin per neighbour pair, in NEIGHBOUR_PAIRS order."""
    rng = rng_for(seed, stream)
    return tuple(pair for pair in NEIGHBOUR_PAIRS if rng.coin())


def is_connected(roads: Iterable[tuple[int, int]]) -> bool:
    """Return True when the roads join all 20 cities into one network."""
    links = _adjacency(tuple(roads))
    seen = {0}
    todo = [0]
    while todo:
        for other in links[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) == CITY_COUNT


@lru_cache(maxsize=64)
def _generate(seed: int, connected: bool) -> AggressionMap:
    roads = draw_roads(seed)
    if not connected:
        return AggressionMap(seed, False, roads, 0)
    for attempt in range(MAX_ATTEMPTS):
        if attempt:
            roads = draw_roads(seed, f"{ROAD_STREAM}/{attempt}")
        if is_connected(roads):
            return AggressionMap(seed, True, roads, attempt)
    raise BoardError(f"no connected map found for seed {seed} in {MAX_ATTEMPTS} draws")


def generate_map(seed: object, variants: Iterable[str] = frozenset()) -> AggressionMap:
    """Return the map for a seed (a non-negative integer) and variants; raise BoardError otherwise."""
    variants = RULES.check_variants(frozenset(variants))
    return _generate(check_seed(seed), "connected" in variants)


# --- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Claim:
    """Put ``troops`` of the mover's remaining troops into an unclaimed city (``K=12``)."""

    city: str
    troops: int


@dataclass(frozen=True, slots=True)
class Attack:
    """Attack an opposing city (``xK``)."""

    city: str


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass (``pass``): while claiming when the mover has no troops left; while attacking when
    the mover has no successful attack."""


Move = Union[Claim, Attack, Pass]

PASS = Pass()
_CLAIMS = tuple(tuple(Claim(name, n) for n in range(TROOPS + 1)) for name in CITY_NAMES)
_ATTACKS = tuple(Attack(name) for name in CITY_NAMES)
_CLAIM_RE = re.compile(r"^([A-Za-z])=([0-9]{1,9})$")
_ATTACK_RE = re.compile(r"^[xX]([A-Za-z])$")


def parse_move(text: str) -> Move:
    """Return the move written as ``K=12``, ``xK`` or ``pass``; raise NotationError otherwise."""
    token = text.strip()
    if token.lower() == "pass":
        return PASS
    m = _CLAIM_RE.match(token)
    if m:
        city = _city_name(m.group(1), token)
        troops = int(m.group(2))
        return _CLAIMS[CITY_INDEX[city]][troops] if troops <= TROOPS else Claim(city, troops)
    m = _ATTACK_RE.match(token)
    if m:
        return _ATTACKS[CITY_INDEX[_city_name(m.group(1), token)]]
    raise NotationError(Msg("game.aggression.notation", token=repr(token)))


def _city_name(letter: str, token: str) -> str:
    name = letter.upper()
    if name not in CITY_INDEX:
        raise NotationError(Msg("game.aggression.no_city", token=repr(token), name=name))
    return name


def move_str(move: Move) -> str:
    """Return the move in Aggression notation."""
    if isinstance(move, Claim):
        return f"{move.city}={move.troops}"
    if isinstance(move, Attack):
        return f"x{move.city}"
    if isinstance(move, Pass):
        return "pass"
    raise NotationError(Msg("game.aggression.not_move", move=repr(move)))


# --- state -------------------------------------------------------------------------------------


class AggressionState(State[Move]):
    """A position: the map, who holds each city with how many troops, troops in hand, the phase."""

    __slots__ = ("_over", "adjacency", "claiming", "hand", "map", "owner", "troops", "turn")
    SHARED = frozenset({"map", "adjacency", "_over"})

    def __init__(self, game_map: AggressionMap, limit: int) -> None:
        super().__init__(limit)
        self.map = game_map
        self.adjacency = game_map.adjacency
        self.owner: list[int] = [-1] * CITY_COUNT  # -1 nobody, 0 black, 1 white
        self.troops: list[int] = [0] * CITY_COUNT
        self.hand = [TROOPS, TROOPS]
        self.claiming = True
        self.turn = 0
        self._over: Outcome | None = None

    # -- queries --

    def current_player(self) -> str:
        """Return the side to move."""
        return SIDES[self.turn]

    def phase(self) -> str:
        """Return 'claiming', 'attacking' or 'over'."""
        if self.is_terminal():
            return "over"
        return "claiming" if self.claiming else "attacking"

    def city(self, name: str) -> tuple[str | None, int]:
        """Return (holder side or None, troops) for a city name."""
        i = CITY_INDEX[name]
        return (SIDES[self.owner[i]] if self.owner[i] >= 0 else None, self.troops[i])

    def troops_in_hand(self, side: str) -> int:
        """Return how many troops a side has not yet placed."""
        return self.hand[SIDES.index(side)]

    def attack_strength(self, name: str, side: str | None = None) -> int:
        """Return the troops of ``side`` (default: the side to move) in the cities adjacent to a city."""
        who = self.turn if side is None else SIDES.index(side)
        owner, troops = self.owner, self.troops
        return sum(troops[j] for j in self.adjacency[CITY_INDEX[name]] if owner[j] == who)

    def _can_take(self, i: int, who: int) -> bool:
        owner, troops = self.owner, self.troops
        if owner[i] != 1 - who:
            return False
        total = 0
        for j in self.adjacency[i]:
            if owner[j] == who:
                total += troops[j]
        return troops[i] < total

    def _has_success(self, who: int) -> bool:
        return any(self._can_take(i, who) for i in range(CITY_COUNT))

    def _on_board(self, who: int) -> int:
        return sum(t for o, t in zip(self.owner, self.troops) if o == who)

    def _cities(self, who: int) -> int:
        return sum(1 for o in self.owner if o == who)

    def _attack_options(self) -> tuple[list[int], list[int]]:
        """Return the opposing cities the side to move can take, and all opposing cities."""
        who = self.turn
        targets = [i for i in range(CITY_COUNT) if self.owner[i] == 1 - who]
        return [i for i in targets if self._can_take(i, who)], targets

    def legal_moves(self) -> list[Move]:
        """Return every legal move: while claiming, each claim (city x troop count) or a pass
        when out of troops; while attacking, the successful attacks, or, when there is none, a
        pass and an attack on each opposing city (all of which fail)."""
        if self.is_terminal():
            return []
        who = self.turn
        if self.claiming:
            n = self.hand[who]
            if n == 0:
                return [PASS]
            return [claim for i in range(CITY_COUNT) if self.owner[i] < 0 for claim in _CLAIMS[i][1 : n + 1]]
        winning, targets = self._attack_options()
        if winning:
            return [_ATTACKS[i] for i in winning]
        return [PASS, *(_ATTACKS[i] for i in targets)]

    def random_move(self, rng: Rng) -> Move:
        """Return a legal move drawn uniformly from ``legal_moves()`` without listing them all."""
        if self.is_terminal():
            raise IllegalMoveError(Msg("game.any.done"))
        who = self.turn
        if self.claiming:
            n = self.hand[who]
            if n == 0:
                return PASS
            free = [i for i in range(CITY_COUNT) if self.owner[i] < 0]
            pick = rng.below(len(free) * n)
            return _CLAIMS[free[pick // n]][pick % n + 1]
        winning, targets = self._attack_options()
        if winning:
            return _ATTACKS[winning[rng.below(len(winning))]]
        pick = rng.below(len(targets) + 1)
        return PASS if pick == 0 else _ATTACKS[targets[pick - 1]]

    def successful_attacks(self) -> list[Attack]:
        """Return the attacks the side to move could make that would succeed (none while claiming)."""
        if self.is_terminal() or self.claiming:
            return []
        return [_ATTACKS[i] for i in self._attack_options()[0]]

    def _must_attack(self, winning: list[int]) -> Msg:
        """Return the words naming the successful attacks a player must choose from."""
        names = [f"x{CITY_NAMES[i]}" for i in winning]
        shown: str = ", ".join(names[:5])
        if len(names) > 5:
            shown = Msg(
                f"game.aggression.and_more.{plural_form(len(names) - 5, 'en')}", some=shown, n=len(names) - 5
            )
        first = CITY_NAMES[winning[0]]
        return Msg(
            "game.aggression.must_attack",
            side=_side(self.turn),
            shown=shown,
            first=first,
            troops=counted(self.troops[winning[0]], "troop"),
            strength=self.attack_strength(first),
        )

    def parse_move(self, text: str) -> Move:
        """Return the move written as text."""
        return parse_move(text)

    def move_str(self, move: Move) -> str:
        """Return the move in notation."""
        return move_str(move)

    def check_move(self, move: Move) -> None:
        """Raise IllegalMoveError with the reason if the move is not legal now."""
        if self.is_terminal():
            raise IllegalMoveError(Msg("game.any.done"))
        side = _side(self.turn)
        if isinstance(move, Pass):
            if not self.claiming:
                winning = self._attack_options()[0]
                if winning:
                    raise IllegalMoveError(Msg("game.aggression.no_passing", must=self._must_attack(winning)))
                return
            if self.hand[self.turn]:
                raise IllegalMoveError(
                    Msg(
                        "game.aggression.cannot_pass",
                        side=side,
                        troops=counted(self.hand[self.turn], "troop"),
                    )
                )
            return
        if isinstance(move, Claim):
            if not self.claiming:
                raise IllegalMoveError(Msg("game.aggression.claiming_over"))
            i = CITY_INDEX[move.city]
            if self.owner[i] >= 0:
                raise IllegalMoveError(
                    Msg("game.aggression.claimed", city=move.city, side=_side(self.owner[i]))
                )
            if move.troops < 1:
                raise IllegalMoveError(Msg("game.aggression.one_troop"))
            left = self.hand[self.turn]
            if left == 0:
                raise IllegalMoveError(Msg("game.aggression.none_left", side=side))
            if move.troops > left:
                raise IllegalMoveError(
                    Msg(
                        "game.aggression.only_left",
                        side=side,
                        troops=counted(left, "troop"),
                        wanted=move.troops,
                    )
                )
            return
        if isinstance(move, Attack):
            if self.claiming:
                raise IllegalMoveError(Msg("game.aggression.not_yet"))
            i = CITY_INDEX[move.city]
            if self.owner[i] < 0:
                raise IllegalMoveError(Msg("game.aggression.empty", city=move.city))
            if self.owner[i] == self.turn:
                raise IllegalMoveError(Msg("game.aggression.own", city=move.city, side=side))
            if not self._can_take(i, self.turn):
                winning = self._attack_options()[0]
                if winning:
                    raise IllegalMoveError(
                        Msg(
                            "game.aggression.would_fail",
                            city=move.city,
                            troops=counted(self.troops[i], "troop"),
                            side=side,
                            strength=self.attack_strength(move.city),
                            must=self._must_attack(winning),
                        )
                    )
            return
        raise IllegalMoveError(Msg("game.aggression.not_move", move=repr(move)))

    def _apply(self, move: Move) -> None:
        """Play a legal move and pass the turn."""
        who = self.turn
        if isinstance(move, Claim):
            i = CITY_INDEX[move.city]
            self.owner[i] = who
            self.troops[i] = move.troops
            self.hand[who] -= move.troops
        elif isinstance(move, Attack):
            i = CITY_INDEX[move.city]
            if self._can_take(i, who):
                self.owner[i] = -1
                self.troops[i] = 0
        self.turn = 1 - who
        if self.claiming and (all(o >= 0 for o in self.owner) or not (self.hand[0] or self.hand[1])):
            self.claiming = False
            self.turn = 0
        if not self.claiming:
            self._over = self._natural_end()
        if self._over is None and self.ply >= self.limit:
            self._over = Outcome(
                True,
                None,
                True,
                self._score(),
                Msg("game.aggression.limit", limit=counted(self.limit, "turn")),
            )

    def _score(self) -> dict[str, int]:
        return {"black": self._cities(0), "white": self._cities(1)}

    def _natural_end(self) -> Outcome | None:
        on_board = (self._on_board(0), self._on_board(1))
        if on_board[0] and on_board[1]:
            if self._has_success(0) or self._has_success(1):
                return None
            why = Msg("game.aggression.stuck")
        else:
            why = Msg("game.aggression.wiped_out", side=_side(0 if not on_board[0] else 1))
        score = self._score()
        b, w = score["black"], score["white"]
        if b != w:
            winner = "black" if b > w else "white"
            reason = Msg(
                "game.aggression.more_cities",
                why=why,
                winner=_side(SIDES.index(winner)),
                high=max(b, w),
                low=min(b, w),
            )
            return Outcome(True, winner, False, score, reason)
        if on_board[0] != on_board[1]:
            winner = "black" if on_board[0] > on_board[1] else "white"
            return Outcome(
                True,
                winner,
                False,
                score,
                Msg(
                    "game.aggression.more_troops",
                    why=why,
                    cities=b,
                    winner=_side(SIDES.index(winner)),
                    high=max(on_board),
                    low=min(on_board),
                ),
            )
        return Outcome(
            True,
            None,
            True,
            score,
            Msg("game.aggression.drawn", why=why, cities=b, troops=on_board[0]),
        )

    def is_terminal(self) -> bool:
        """Return True when the game is over."""
        return self._over is not None

    def outcome(self) -> Outcome:
        """Return the result so far; the score is the number of cities each side holds."""
        if self._over is not None:
            return self._over
        return Outcome(False, None, False, self._score())

    def text(self) -> str:
        """Return the map followed by who holds which city and the troops in hand."""
        lines: list[str] = [_map_picture(self.map), ""]
        if self.is_terminal():
            lines.append(Msg("game.aggression.over", reason=self.outcome().reason))
        else:
            lines.append(Msg(f"game.aggression.to_move.{self.phase()}", side=_side(self.turn)))
        for who, side in enumerate(SIDES):
            held = [f"{CITY_NAMES[i]} {self.troops[i]}" for i in range(CITY_COUNT) if self.owner[i] == who]
            lines.append(
                Msg(
                    "game.aggression.holds",
                    side=side_msg(side),
                    held=", ".join(held) or Msg("game.aggression.no_cities"),
                    board=self._on_board(who),
                    hand=self.hand[who],
                )
            )
        return Msg.joined("\n", lines)


def _side(who: int) -> Msg:
    """Return a side as the rules' reasons name it mid-sentence ('black')."""
    return Msg(f"game.aggression.side.{SIDES[who]}")


# --- pictures and layout data ------------------------------------------------------------------

_CELL = 4  # characters between cities in the text picture, across and down


def _map_picture(game_map: AggressionMap) -> str:
    width = (COLUMNS - 1) * _CELL + 1
    grid = [[" "] * width for _ in range((ROWS - 1) * _CELL + 1)]
    for i, name in enumerate(CITY_NAMES):
        r, c = city_position(i)
        grid[r * _CELL][c * _CELL] = name
    present = set(game_map.roads)
    for a, b in game_map.roads:
        (r1, c1), (r2, c2) = city_position(a), city_position(b)
        y, x = r1 * _CELL, c1 * _CELL
        if r1 == r2:
            for k in range(1, _CELL):
                grid[y][x + k] = "-"
        elif c1 == c2:
            for k in range(1, _CELL):
                grid[y + k][x] = "|"
        elif c2 > c1:
            for k in range(1, _CELL):
                grid[y + k][x + k] = "\\"
        else:
            for k in range(1, _CELL):
                grid[y + k][x - k] = "/"
    for over, under in CROSSINGS:
        if over in present and under in present:
            r, c = city_position(over[0])
            grid[r * _CELL + _CELL // 2][c * _CELL + _CELL // 2] = "X"
    return "\n".join("".join(row).rstrip() for row in grid)


def _variant_label(game_map: AggressionMap) -> str | None:
    return "connected" if game_map.connected_variant else None


def _grid_neighbours(index: int) -> list[int]:
    return sorted(b if a == index else a for a, b in NEIGHBOUR_PAIRS if index in (a, b))


def _example_attack(game_map: AggressionMap) -> dict[str, Any]:
    """Return a mid-game position in which Black attacks the busiest white city and succeeds."""
    adjacency = game_map.adjacency
    target = max(range(CITY_COUNT), key=lambda i: (len(adjacency[i]), -i))
    near = adjacency[target]
    defence = 20
    attackers = dict(zip(near[:2], (12, 15) if len(near) >= 2 else (25,)))
    pieces: dict[str, dict[str, Any]] = {CITY_NAMES[target]: {"side": "white", "troops": defence}}
    for i, n in attackers.items():
        pieces[CITY_NAMES[i]] = {"side": "black", "troops": n}
    helper = near[2] if len(near) >= 3 else None
    if helper is not None:
        pieces[CITY_NAMES[helper]] = {"side": "white", "troops": 9}
    # a black city beside the target on the grid but with no road to it (else any distant city)
    far = [i for i in range(CITY_COUNT) if i != target and i not in near]
    beside = [i for i in _grid_neighbours(target) if i not in near]
    bystander = (beside or far)[0] if beside or far else None
    if bystander is not None:
        pieces[CITY_NAMES[bystander]] = {"side": "black", "troops": 30}
    others = [i for i in far if i != bystander]
    if others:
        pieces[CITY_NAMES[others[-1]]] = {"side": "white", "troops": 25}
    return {
        "pieces": dict(sorted(pieces.items())),
        "attack": CITY_NAMES[target],
        "attacker": "black",
        "attackers": sorted(CITY_NAMES[i] for i in attackers),
        "arrows": sorted([CITY_NAMES[i], CITY_NAMES[target]] for i in attackers),
        "highlight": [CITY_NAMES[target]],
        "attack_total": sum(attackers.values()),
        "defence": defence,
        "defender_neighbour": CITY_NAMES[helper] if helper is not None else None,
        "bystander": CITY_NAMES[bystander] if bystander is not None else None,
        "bystander_beside": bool(beside),
    }


#: The worked example game's troops: Black's two claims, then White's three (see example_game).
EXAMPLE_BLACK = (55, 45)
EXAMPLE_WHITE = (20, 15, 65)


def example_game(game_map: AggressionMap) -> dict[str, Any]:
    """Return a short game on the map, its moves and what each shows (see _example_game)."""
    return copy.deepcopy(_example_game(game_map))


@lru_cache(maxsize=64)
def _example_game(game_map: AggressionMap) -> dict[str, Any]:
    """Return a short game on the map, its moves and what each shows, as JSON-ready data.

    The line of play is fixed and its cities are found on the map: Black claims two cities
    (EXAMPLE_BLACK troops), White three (EXAMPLE_WHITE), the first next to Black's first, the last
    out of reach of both black cities; Black, out of troops, passes once. Then Black takes the
    first white city (``attack``), White, with no attack that would succeed, names a black city
    anyway and fails (``failing``), Black must make its remaining successful attack (``must``),
    and the game is over: Black wins by two cities to one (``end``). Every move is played through
    the rules here, and the cities are the first (busiest black city first) with which each move
    does what the booklet says of it; raise BoardError when the map allows none."""
    adjacency = game_map.adjacency
    order = sorted(range(CITY_COUNT), key=lambda i: (-len(adjacency[i]), i))
    for x1 in order:
        for x2 in order:
            if x2 == x1:
                continue
            near_black = set(adjacency[x1]) | set(adjacency[x2])
            for y1 in adjacency[x1]:
                if y1 == x2:
                    continue
                for y2 in sorted(near_black - {x1, x2, y1}):
                    far = [i for i in range(CITY_COUNT) if i not in near_black | {x1, x2, y1, y2}]
                    # White's last city: one joined to White's second if any, else any out of reach
                    for y3 in sorted(far, key=lambda i: (i not in adjacency[y2], i)):
                        game = _example_line(game_map, (x1, x2), (y1, y2, y3))
                        if game is not None:
                            return game
    raise BoardError(f"aggression: no example game found on the map of seed {game_map.seed}")


def _example_line(
    game_map: AggressionMap, black: tuple[int, int], white: tuple[int, int, int]
) -> dict[str, Any] | None:
    """Return the example game with these cities, or None when a move would not do what it shows."""
    state = AggressionState(game_map, RULES.default_turn_limit)
    (x1, x2), (y1, y2, y3) = black, white
    b1, b2 = EXAMPLE_BLACK
    w1, w2, w3 = EXAMPLE_WHITE
    names = CITY_NAMES
    claims = [(x1, b1), (y1, w1), (x2, b2), (y2, w2), None, (y3, w3)]
    moves: list[str] = []

    def play(move: Move) -> bool:
        try:
            state.check_move(move)
        except IllegalMoveError:
            return False
        state.apply_move(move)
        moves.append(move_str(move))
        return True

    for claim in claims:
        if not play(PASS if claim is None else Claim(names[claim[0]], claim[1])):
            return None
    if state.phase() != "attacking" or state.current_player() != "black":
        return None
    position = {
        names[i]: {"side": state.city(names[i])[0], "troops": state.troops[i]}
        for i in sorted((x1, x2, y1, y2, y3))
    }
    choices = [a.city for a in state.successful_attacks()]
    if sorted(choices) != sorted([names[y1], names[y2]]):
        return None
    attackers = [names[i] for i in game_map.adjacency[y1] if state.owner[i] == 0]
    attack = {
        "city": names[y1],
        "defence": w1,
        "attackers": attackers,
        "total": state.attack_strength(names[y1]),
        "other": names[y2],
    }
    if not play(Attack(names[y1])) or state.city(names[y1])[0] is not None or state.successful_attacks():
        return None
    # White names the black city its own troops come nearest to taking (the first if equal)
    target = max((x1, x2), key=lambda i: (state.attack_strength(names[i]), -i))
    helpers = [names[i] for i in game_map.adjacency[target] if state.owner[i] == 1]
    failing = {
        "city": names[target],
        "defence": state.troops[target],
        "total": state.attack_strength(names[target]),
        "helpers": helpers,
    }
    if not helpers or not play(Attack(names[target])) or state.city(names[target])[0] != "black":
        return None
    if [a.city for a in state.successful_attacks()] != [names[y2]]:
        return None
    must = {
        "city": names[y2],
        "defence": w2,
        "attackers": [names[i] for i in game_map.adjacency[y2] if state.owner[i] == 0],
        "total": state.attack_strength(names[y2]),
        "holds": names[y3],
    }
    if not play(Attack(names[y2])):
        return None
    outcome = state.outcome()
    if not state.is_terminal() or outcome.winner != "black" or outcome.score != {"black": 2, "white": 1}:
        return None
    pairs = [moves[n : n + 2] for n in range(0, len(moves), 2)]  # Black's turn, White's reply
    return {
        "moves": moves,
        "pairs": pairs,
        "record": " ".join(f"{n}. {' '.join(pair)}" for n, pair in enumerate(pairs, 1)),
        "black": [names[x1], names[x2]],
        "white": [names[y1], names[y2], names[y3]],
        "troops": {"black": list(EXAMPLE_BLACK), "white": list(EXAMPLE_WHITE)},
        "empty": CITY_COUNT - len(position),
        "position": position,
        "attack": attack,
        "failing": failing,
        "must": must,
        "end": {
            "score": dict(outcome.score),
            "on_map": {"black": state._on_board(0), "white": state._on_board(1)},
            "winner": outcome.winner,
        },
    }


def _example_figure(game: dict[str, Any]) -> dict[str, Any]:
    """Return the example game after claiming as a figure: the pieces and Black's first attack."""
    attack = game["attack"]
    return {
        "pieces": game["position"],
        "arrows": sorted([name, attack["city"]] for name in attack["attackers"]),
        "highlight": [attack["city"]],
    }


@dataclass(frozen=True)
class AggressionRules(GameRules):
    """The rules of Aggression and its seeded map."""

    def new_state(
        self,
        seed: int | None = None,
        variants: frozenset[str] = frozenset(),
        tags: Mapping[str, str] | None = None,
    ) -> AggressionState:
        """Return the opening position on the map for the seed: no city claimed, Black to move."""
        if seed is None:
            raise BoardError("aggression needs a seed to build its map (a Seed tag or --seed)")
        return AggressionState(generate_map(seed, variants), turn_limit(tags, self.default_turn_limit))

    def board_data(self, seed: int | None = None, variants: frozenset[str] = frozenset()) -> dict[str, Any]:
        """Return the map as JSON-ready data: game, seed, variant, cities and roads."""
        game_map = generate_map(seed, variants)
        return {
            "game": self.id,
            "seed": game_map.seed,
            "variant": _variant_label(game_map),
            "cities": [
                {"name": name, "row": city_position(i)[0], "column": city_position(i)[1]}
                for i, name in enumerate(CITY_NAMES)
            ],
            "roads": game_map.road_names(),
        }

    def board_text(self, seed: int | None = None, variants: frozenset[str] = frozenset()) -> str:
        """Return the map as a text picture with a title line naming the seed and variant."""
        game_map = generate_map(seed, variants)
        variant = _variant_label(game_map)
        title = f"Aggression, seed {game_map.seed}" + (f", variant {variant}" if variant else "")
        return f"{title}\n\n{_map_picture(game_map)}\n"

    def layout_data(
        self, name: str, seed: int | None = None, variants: frozenset[str] = frozenset()
    ) -> dict[str, Any]:
        """Return 'board' (points, lines, bridges), 'position:attack' (an example attack), 'game'
        (the worked example game, see example_game) or 'position:game' (that game after claiming)."""
        known = ("board", "position:attack", "game", "position:game")
        if name not in known:
            raise BoardError(f"aggression provides no layout data {name!r} (known: {', '.join(known)})")
        game_map = generate_map(seed, variants)
        if name == "position:attack":
            return _example_attack(game_map)
        if name == "game":
            return example_game(game_map)
        if name == "position:game":
            return _example_figure(example_game(game_map))
        return {
            "points": {n: [city_position(i)[1], city_position(i)[0]] for i, n in enumerate(CITY_NAMES)},
            "lines": game_map.road_names(),
            "bridges": [
                [sorted([CITY_NAMES[a] for a in over]), sorted([CITY_NAMES[b] for b in under])]
                for over, under in game_map.bridges()
            ],
            "seed": game_map.seed,
            "variant": _variant_label(game_map),
        }

    def template_values(self) -> dict[str, Any]:
        """Return troops per side, cities, rows, columns, road probability and the turn limit."""
        return {
            "troops": TROOPS,
            "cities": CITY_COUNT,
            "rows": ROWS,
            "columns": COLUMNS,
            "first_city": CITY_NAMES[0],
            "last_city": CITY_NAMES[-1],
            "neighbour_pairs": len(NEIGHBOUR_PAIRS),
            "road_probability": f"{ROAD_PROBABILITY[0]}/{ROAD_PROBABILITY[1]}",
            "road_percent": 100 * ROAD_PROBABILITY[0] // ROAD_PROBABILITY[1],
            "sides": list(SIDES),
            "first_side": SIDES[0],
            "turn_limit": self.default_turn_limit,
        }


RULES = AggressionRules(
    id="aggression", title="Aggression", sides=SIDES, variants=("connected",), seeded=True
)
