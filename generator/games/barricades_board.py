"""Barricades battlefield: square names, seeded terrain generation and the line-of-fire geometry.

The board is 10 by 10 squares, files a to j (west to east) and ranks 1 to 10 (south to north).
Inside the program a square is a number 0..99: ``file + 10 * (rank - 1)``, so a1 is 0, j1 is 9
and j10 is 99. The point reflection about the board's centre, (f, r) <-> (j - f, 11 - r), is
simply ``99 - square``.

Generation (all randomness from ``rng_for(seed, "barricades/...")``):

* Barricades are straight rows of 1 to 4 squares, horizontal or vertical, lying wholly in ranks 3
  to 8, mostly 2 to 4 long. Each row is placed together with its mirror image. A row may not touch
  another row, not even at a corner, so every connected group of barricade squares is one straight
  row and the field reads as a maze of walls with gaps between them.
* Ammunition and medical squares are open squares in ranks 3 to 8, placed in mirrored pairs.
* Three MacGuffins lie on distinct open squares in files c to h, ranks 4 to 7 that are neither
  ammunition nor medical squares. They cannot be mirrored (there are three), so to keep the race
  for them even, one lies in ranks 4-5 (Blue's half), one in ranks 6-7 (Red's half), the third
  anywhere in the area, and no two are adjacent.
* Every open square must be reachable by king steps through open squares from both home zones.

An attempt that breaks a requirement is thrown away and the next attempt continues drawing from the
same stream; after ``MAX_ATTEMPTS`` attempts a fixed, always-valid terrain is used instead.

Line of fire: the straight segment between the centres of the shooter's and the target's squares.
The squares *on the line* are those whose interior the segment crosses, other than the two end
squares. A segment that passes exactly through a corner point where four squares meet touches the
two squares beside that point only at the corner, so they are not on the line (a diagonal shot runs
from centre to centre through the diagonal squares only). A segment between centres can never run
along a square's edge. A barricade square on the line blocks the shot unless it is adjacent to the
shooter; a target adjacent to a barricade square on the line cannot be hit at all.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import combinations

from generator.foundation.errors import NotationError
from generator.foundation.languages import Msg
from generator.foundation.numbers import is_ascii_digits
from generator.foundation.seeding import Rng, rng_for

SIZE = 10
FILES = "abcdefghij"
SQUARES = range(SIZE * SIZE)
BARRICADE_RANKS = (3, 8)
MACGUFFIN_FILES = ("c", "h")
MACGUFFIN_RANKS = (4, 7)
MACGUFFINS = 3
AMMO_PAIRS = 2
MEDICAL_PAIRS = 1
MAX_ATTEMPTS = 40
HOME_RANKS = {"red": (9, 10), "blue": (1, 2)}

# Row lengths are drawn from this bag: mostly 2 to 4 long, now and then a single block.
_LENGTHS = (1, 2, 2, 3, 3, 3, 4, 4, 4)
_ROW_PAIRS = (5, 7)
_MIN_ROW_PAIRS = 4
_MIN_LONG_PAIRS = 3
_MIN_BARRICADES = 14


def square_name(square: int) -> str:
    """Return the name of a square number, e.g. 0 -> 'a1', 99 -> 'j10'."""
    return FILES[square % SIZE] + str(square // SIZE + 1)


def parse_square(text: str) -> int:
    """Return the square number of a name such as 'c5'; raise NotationError for anything else."""
    if len(text) >= 2 and text[0] in FILES and is_ascii_digits(text[1:]) and text[1] != "0":
        rank = int(text[1:])
        if 1 <= rank <= SIZE:
            return FILES.index(text[0]) + SIZE * (rank - 1)
    raise NotationError(Msg("game.barricades.no_square", text=repr(text)))


def file_of(square: int) -> int:
    """Return the file index 0..9 (a..j) of a square."""
    return square % SIZE


def rank_of(square: int) -> int:
    """Return the rank 1..10 of a square."""
    return square // SIZE + 1


def mirror(square: int) -> int:
    """Return the square's image under the point reflection about the board's centre."""
    return SIZE * SIZE - 1 - square


def distance(a: int, b: int) -> int:
    """Return the distance between two squares in king steps."""
    return max(abs(a % SIZE - b % SIZE), abs(a // SIZE - b // SIZE))


def neighbours(square: int) -> list[int]:
    """Return the up to eight squares a king step away, in square order."""
    return _NEIGHBOURS[square]


def _compute_neighbours(square: int) -> list[int]:
    f, r = square % SIZE, square // SIZE
    return [
        nr * SIZE + nf
        for nr in range(r - 1, r + 2)
        for nf in range(f - 1, f + 2)
        if (nf, nr) != (f, r) and 0 <= nf < SIZE and 0 <= nr < SIZE
    ]


_NEIGHBOURS = [_compute_neighbours(s) for s in SQUARES]


def names(squares: Iterable[int]) -> list[str]:
    """Return the names of squares, in square order (rank by rank from a1)."""
    return [square_name(s) for s in sorted(squares)]


def home_squares(side: str) -> list[int]:
    """Return the squares of a side's two home ranks."""
    low, high = HOME_RANKS[side]
    return [s for s in SQUARES if low <= rank_of(s) <= high]


@dataclass(frozen=True)
class Battlefield:
    """The terrain of one game: barricade, ammunition and medical squares and the MacGuffins."""

    seed: int | None
    barricades: frozenset[int]
    ammo: frozenset[int]
    medical: frozenset[int]
    macguffins: frozenset[int]
    fallback: bool = False
    _fire: dict[tuple[int, int], tuple[str, int]] = field(
        default_factory=dict, compare=False, repr=False, hash=False
    )

    def is_open(self, square: int) -> bool:
        """Return True when the square is not a barricade."""
        return square not in self.barricades

    def line_of_fire(self, shooter: int, target: int) -> tuple[str, int]:
        """Return ('clear', -1), ('blocked', barricade) or ('safe', barricade) for a shot.

        'blocked': a barricade on the line, not adjacent to the shooter, stops the shot;
        'safe': the target is adjacent to a barricade on the line and cannot be hit."""
        key = (shooter, target)
        verdict = self._fire.get(key)
        if verdict is None:
            verdict = _judge_line(self.barricades, shooter, target)
            self._fire[key] = verdict
        return verdict


def _judge_line(barricades: frozenset[int], shooter: int, target: int) -> tuple[str, int]:
    on_line = [s for s in line_squares(shooter, target) if s in barricades]
    for s in on_line:
        if distance(s, target) == 1:
            return ("safe", s)
    for s in on_line:
        if distance(s, shooter) > 1:
            return ("blocked", s)
    return ("clear", -1)


def line_squares(a: int, b: int) -> list[int]:
    """Return the squares strictly between a and b whose interior the centre-to-centre line crosses."""
    fa, ra = a % SIZE, a // SIZE
    return [(ra + dr) * SIZE + fa + df for df, dr in _line_offsets(b % SIZE - fa, b // SIZE - ra)]


@cache
def _line_offsets(dx: int, dy: int) -> tuple[tuple[int, int], ...]:
    """Cells (relative to the shooter) crossed by the open segment from (0, 0) to (dx, dy)."""
    cells = []
    for i in range(min(0, dx), max(0, dx) + 1):
        for j in range(min(0, dy), max(0, dy) + 1):
            if (i, j) in ((0, 0), (dx, dy)):
                continue
            low, high = Fraction(0), Fraction(1)
            for d, c in ((dx, i), (dy, j)):
                if d == 0:
                    if c != 0:
                        low, high = Fraction(1), Fraction(0)
                    continue
                t1, t2 = Fraction(2 * c - 1, 2 * d), Fraction(2 * c + 1, 2 * d)
                low, high = max(low, min(t1, t2)), min(high, max(t1, t2))
            if low < high:
                cells.append((i, j))
    cells.sort(key=lambda c: abs(c[0]) + abs(c[1]))
    return tuple(cells)


def reachable(open_squares: Iterable[int], start: Iterable[int]) -> set[int]:
    """Return the open squares reachable by king steps through open squares from the start squares."""
    allowed = set(open_squares)
    seen = {s for s in start if s in allowed}
    queue = deque(seen)
    while queue:
        s = queue.popleft()
        for n in _NEIGHBOURS[s]:
            if n in allowed and n not in seen:
                seen.add(n)
                queue.append(n)
    return seen


def battlefield(seed: int, max_attempts: int = MAX_ATTEMPTS) -> Battlefield:
    """Return the battlefield of a seed (deterministic; the fixed fallback after max_attempts)."""
    rng = rng_for(seed, "barricades/terrain")
    terrain = None
    for _ in range(max_attempts):
        terrain = _try_terrain(rng)
        if terrain is not None:
            break
    fallback = terrain is None
    barricades, ammo, medical = _fallback_terrain() if terrain is None else terrain
    guffins = _place_macguffins(rng_for(seed, "barricades/macguffins"), barricades, ammo | medical)
    return Battlefield(seed, barricades, ammo, medical, guffins, fallback)


def _in_band(square: int) -> bool:
    return BARRICADE_RANKS[0] <= rank_of(square) <= BARRICADE_RANKS[1]


def _mask(squares: Iterable[int]) -> int:
    bits = 0
    for s in squares:
        bits |= 1 << s
    return bits


def _halo(squares: Iterable[int]) -> set[int]:
    area = set(squares)
    for s in list(area):
        area.update(_NEIGHBOURS[s])
    return area


def _candidate_rows() -> dict[int, list[tuple[tuple[int, ...], int, int]]]:
    """Every row that may be placed with its mirror image, by length: (squares, mask, halo mask)."""
    low, high = BARRICADE_RANKS[0] - 1, BARRICADE_RANKS[1] - 1
    rows: dict[int, list[tuple[tuple[int, ...], int, int]]] = {}
    for length in sorted(set(_LENGTHS)):
        shapes = {
            tuple(r * SIZE + f + k for k in range(length))
            for r in range(low, high + 1)
            for f in range(SIZE - length + 1)
        }
        shapes |= {
            tuple((r + k) * SIZE + f for k in range(length))
            for r in range(low, high - length + 2)
            for f in range(SIZE)
        }
        found = []
        for row in sorted(shapes):
            image = [mirror(s) for s in row]
            if _halo(row) & set(image):
                continue
            found.append((row, _mask(row + tuple(image)), _mask(_halo(row) | _halo(image))))
        rows[length] = found
    return rows


_ROWS = _candidate_rows()


def _try_terrain(rng: Rng) -> tuple[frozenset[int], frozenset[int], frozenset[int]] | None:
    wanted = rng.randint(*_ROW_PAIRS)
    taken = 0
    pairs = long_pairs = 0
    while pairs < wanted:
        fits = []
        for length in range(rng.choice(_LENGTHS), 0, -1):
            fits = [row for row in _ROWS[length] if not row[2] & taken]
            if fits:
                break
        if not fits:
            break
        taken |= rng.choice(fits)[1]
        pairs += 1
        long_pairs += length > 1
    barricades = {s for s in SQUARES if taken >> s & 1}
    if pairs < _MIN_ROW_PAIRS or long_pairs < _MIN_LONG_PAIRS or len(barricades) < _MIN_BARRICADES:
        return None
    open_squares = [s for s in SQUARES if s not in barricades]
    for side in HOME_RANKS:
        if len(reachable(open_squares, home_squares(side))) != len(open_squares):
            return None
    candidates = [s for s in open_squares if _in_band(s)]
    specials: set[int] = set()
    found = []
    for count in (AMMO_PAIRS, MEDICAL_PAIRS):
        chosen: set[int] = set()
        pool = [s for s in candidates if s not in specials and mirror(s) not in specials]
        rng.shuffle(pool)
        for s in pool:
            if len(chosen) == 2 * count:
                break
            pair = {s, mirror(s)}
            if not _halo(pair) & (specials | chosen):
                chosen |= pair
        if len(chosen) != 2 * count:
            return None
        specials |= chosen
        found.append(frozenset(chosen))
    return frozenset(barricades), found[0], found[1]


def _fallback_terrain() -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
    def half(text: str) -> frozenset[int]:
        squares = {parse_square(n) for n in text.split()}
        return frozenset(squares | {mirror(s) for s in squares})

    return half("a3 b3 d4 e4 b6 c6 a8 b8 c8 d8"), half("g4 i6"), half("i4")


def _place_macguffins(rng: Rng, barricades: frozenset[int], specials: frozenset[int]) -> frozenset[int]:
    """Three MacGuffins, one in each half of the central area and the third anywhere in it, no two
    adjacent: the first such triple in a shuffled order of the open central squares (if no triple
    can meet that, adjacency is allowed; failing that, any three)."""
    low_file, high_file = FILES.index(MACGUFFIN_FILES[0]), FILES.index(MACGUFFIN_FILES[1])
    pool = [
        s
        for s in SQUARES
        if low_file <= file_of(s) <= high_file
        and MACGUFFIN_RANKS[0] <= rank_of(s) <= MACGUFFIN_RANKS[1]
        and s not in barricades
        and s not in specials
    ]
    rng.shuffle(pool)
    middle = (MACGUFFIN_RANKS[0] + MACGUFFIN_RANKS[1]) / 2
    for apart in (2, 1):
        for trio in combinations(pool, MACGUFFINS):
            halves = {rank_of(s) > middle for s in trio}
            if halves == {False, True} and all(distance(a, b) >= apart for a, b in combinations(trio, 2)):
                return frozenset(trio)
    return frozenset(pool[:MACGUFFINS])
