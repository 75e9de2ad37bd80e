"""Hex grids for rules modules and hex boards: axial coordinates, offset coordinates and the names
printed on a map; neighbours, distance, rings, ranges and lines; and a board's set of hexes (a
rectangle, a hexagon of a given radius, or listed hexes) whose neighbours stay on the board.

A hex is an axial pair ``(q, r)`` (the third cube coordinate is ``-q - r``). Flat-top hexes stand
in columns, pointy-top hexes in rows; an offset coordinate ``(col, row)`` counts columns and rows
from 0 at the top left, and ``stagger`` says which of them are pushed half a hex down (flat-top:
odd or even columns) or right (pointy-top: odd or even rows). A map prints offset coordinates as
``0304`` (column 3, row 4, counted from 1; "numbers") or ``c4`` ("letters"), or axial ones as
``2,-1`` ("axial"). A rules module for a hex game needs only ``HexGrid``:

    grid = HexGrid.rectangle(8, 6)                  # flat-top, columns 01-08, rows 01-06
    here = grid.parse("0304")
    grid.neighbours(here), grid.distance(here, grid.parse("0606")), grid.name(here)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from generator.foundation.errors import NotationError

Hex = tuple[int, int]  # axial (q, r)

ORIENTATIONS = ("flat", "pointy")
STAGGERS = ("odd", "even")
COORDINATES = ("numbers", "letters", "axial")
MAX_SIDE = 99  # columns, rows or 2 x radius + 1 a named grid may have ("numbers" print two digits)

# the six neighbours in axial steps, clockwise from the top (flat) or from the right (pointy)
AXIAL_STEPS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
DIRECTIONS: dict[str, dict[str, Hex]] = {
    "flat": {"N": (0, -1), "NE": (1, -1), "SE": (1, 0), "S": (0, 1), "SW": (-1, 1), "NW": (-1, 0)},
    "pointy": {"NE": (1, -1), "E": (1, 0), "SE": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (0, -1)},
}

_NUMBERS = re.compile(r"^([0-9]{2})([0-9]{2})$")
_LETTERS = re.compile(r"^([a-z]{1,2})([0-9]{1,2})$")
_AXIAL = re.compile(r"^(-?[0-9]{1,3}),(-?[0-9]{1,3})$")


def neighbours(h: Hex) -> list[Hex]:
    """Return the six hexes around a hex, clockwise from the one above (flat) or up-right."""
    q, r = h
    return [(q + dq, r + dr) for dq, dr in AXIAL_STEPS]


def distance(a: Hex, b: Hex) -> int:
    """Return the number of steps from hex a to hex b."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def within(h: Hex, n: int) -> list[Hex]:
    """Return every hex at most n steps from a hex (itself included), sorted."""
    q, r = h
    return sorted(
        (q + dq, r + dr) for dq in range(-n, n + 1) for dr in range(max(-n, -dq - n), min(n, -dq + n) + 1)
    )


def ring(h: Hex, n: int) -> list[Hex]:
    """Return the hexes exactly n steps from a hex, sorted (the hex itself when n is 0)."""
    return [x for x in within(h, n) if distance(h, x) == n]


def _round(fq: float, fr: float) -> Hex:
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return (q, r)


def line(a: Hex, b: Hex) -> list[Hex]:
    """Return the hexes a straight line from the centre of a to the centre of b passes through,
    from a to b (a line along the edge between two hexes takes the one clockwise of it)."""
    n = distance(a, b)
    if n == 0:
        return [a]
    eps = 1e-6
    aq, ar = a[0] + eps, a[1] + eps
    bq, br = b[0] + eps, b[1] + eps
    return [_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def to_offset(h: Hex, orientation: str = "flat", stagger: str = "odd") -> tuple[int, int]:
    """Return the offset (column, row) of an axial hex."""
    q, r = h
    sign = 1 if stagger == "even" else -1
    if orientation == "flat":
        return (q, r + (q + sign * (q & 1)) // 2)
    return (q + (r + sign * (r & 1)) // 2, r)


def from_offset(col: int, row: int, orientation: str = "flat", stagger: str = "odd") -> Hex:
    """Return the axial hex of an offset (column, row)."""
    sign = 1 if stagger == "even" else -1
    if orientation == "flat":
        return (col, row - (col + sign * (col & 1)) // 2)
    return (col - (row + sign * (row & 1)) // 2, row)


def _letters(n: int) -> str:
    """Return 0 -> a, 25 -> z, 26 -> aa, ... (columns as a spreadsheet names them)."""
    if n < 26:
        return chr(ord("a") + n)
    return chr(ord("a") + n // 26 - 1) + chr(ord("a") + n % 26)


def _from_letters(text: str) -> int:
    if len(text) == 1:
        return ord(text) - ord("a")
    return (ord(text[0]) - ord("a") + 1) * 26 + ord(text[1]) - ord("a")


def hex_name(h: Hex, coordinates: str = "numbers", orientation: str = "flat", stagger: str = "odd") -> str:
    """Return a hex's printed name: ``0304``, ``c4`` (offset, counted from 1) or ``2,-1`` (axial)."""
    if coordinates == "axial":
        return f"{h[0]},{h[1]}"
    col, row = to_offset(h, orientation, stagger)
    if not (0 <= col < MAX_SIDE and 0 <= row < MAX_SIDE):
        raise ValueError(f"hex {h} lies outside the columns and rows a map names")
    if coordinates == "letters":
        return f"{_letters(col)}{row + 1}"
    return f"{col + 1:02d}{row + 1:02d}"


def parse_hex(
    text: str, coordinates: str = "numbers", orientation: str = "flat", stagger: str = "odd"
) -> Hex:
    """Return the axial hex a printed name stands for; raise NotationError for a malformed name."""
    if coordinates == "axial":
        m = _AXIAL.match(text)
        if m:
            return (int(m.group(1)), int(m.group(2)))
        raise NotationError(f"{text!r} is not a hex: write axial coordinates q,r")
    if coordinates == "letters":
        m = _LETTERS.match(text)
        if m and int(m.group(2)) >= 1:
            return from_offset(_from_letters(m.group(1)), int(m.group(2)) - 1, orientation, stagger)
        raise NotationError(f"{text!r} is not a hex: write a column letter then a row number")
    m = _NUMBERS.match(text)
    if m and int(m.group(1)) >= 1 and int(m.group(2)) >= 1:
        return from_offset(int(m.group(1)) - 1, int(m.group(2)) - 1, orientation, stagger)
    raise NotationError(f"{text!r} is not a hex: write column and row as two digits each")


def _check_style(orientation: str, stagger: str, coordinates: str) -> None:
    if orientation not in ORIENTATIONS:
        raise ValueError(f"orientation is one of {', '.join(ORIENTATIONS)}, got {orientation!r}")
    if stagger not in STAGGERS:
        raise ValueError(f"stagger is one of {', '.join(STAGGERS)}, got {stagger!r}")
    if coordinates not in COORDINATES:
        raise ValueError(f"coordinates are one of {', '.join(COORDINATES)}, got {coordinates!r}")


@dataclass(frozen=True)
class HexGrid:
    """The hexes of a board and how they are named; neighbours, ranges and lines stay on it."""

    hexes: frozenset[Hex]
    orientation: str = "flat"
    stagger: str = "odd"
    coordinates: str = "numbers"

    @classmethod
    def rectangle(
        cls,
        cols: int,
        rows: int,
        orientation: str = "flat",
        stagger: str = "odd",
        coordinates: str = "numbers",
    ) -> HexGrid:
        """Return a map of cols x rows hexes (offset columns and rows from the top left)."""
        _check_style(orientation, stagger, coordinates)
        if not (1 <= cols <= MAX_SIDE and 1 <= rows <= MAX_SIDE):
            raise ValueError(f"columns and rows are 1 to {MAX_SIDE}, got {cols} x {rows}")
        cells = frozenset(from_offset(c, r, orientation, stagger) for c in range(cols) for r in range(rows))
        return cls(cells, orientation, stagger, coordinates)

    @classmethod
    def hexhex(
        cls, radius: int, orientation: str = "flat", stagger: str = "odd", coordinates: str = "numbers"
    ) -> HexGrid:
        """Return a hexagon of hexes: a centre hex and ``radius`` rings around it. With axial
        coordinates the centre is 0,0; with offset ones the hexagon starts at column and row 1."""
        _check_style(orientation, stagger, coordinates)
        if not 0 <= radius <= (MAX_SIDE - 1) // 2:
            raise ValueError(f"a radius is 0 to {(MAX_SIDE - 1) // 2}, got {radius}")
        cells = within((0, 0), radius)
        if coordinates != "axial":
            # move the hexagon so its offset columns and rows start at 0: along q (or r) first to
            # make the first column (row) 0, then along the other axis, which moves rows (columns)
            first = (radius, 0) if orientation == "flat" else (0, radius)
            cells = [(q + first[0], r + first[1]) for q, r in cells]
            offsets = [to_offset(h, orientation, stagger) for h in cells]
            if orientation == "flat":
                least = min(row for _, row in offsets)
                cells = [(q, r - least) for q, r in cells]
            else:
                least = min(col for col, _ in offsets)
                cells = [(q - least, r) for q, r in cells]
        return cls(frozenset(cells), orientation, stagger, coordinates)

    @classmethod
    def listed(
        cls,
        names: Iterable[str],
        orientation: str = "flat",
        stagger: str = "odd",
        coordinates: str = "numbers",
    ) -> HexGrid:
        """Return a map of exactly the hexes named (raise NotationError for a malformed name)."""
        _check_style(orientation, stagger, coordinates)
        cells = frozenset(parse_hex(n, coordinates, orientation, stagger) for n in names)
        return cls(cells, orientation, stagger, coordinates)

    def __contains__(self, h: object) -> bool:
        return h in self.hexes

    def __len__(self) -> int:
        return len(self.hexes)

    def sorted(self) -> list[Hex]:
        """Return the board's hexes in reading order: by row, then column (offset coordinates)."""
        return sorted(self.hexes, key=lambda h: to_offset(h, self.orientation, self.stagger)[::-1])

    def name(self, h: Hex) -> str:
        """Return the printed name of a hex (``0304``, ``c4`` or ``2,-1``)."""
        return hex_name(h, self.coordinates, self.orientation, self.stagger)

    def parse(self, text: str) -> Hex:
        """Return the hex of a printed name; raise NotationError for a malformed name or a hex
        that is not on the board."""
        h = parse_hex(text.strip(), self.coordinates, self.orientation, self.stagger)
        if h not in self.hexes:
            raise NotationError(f"{text.strip()!r} is not a hex of this board")
        return h

    def offset(self, h: Hex) -> tuple[int, int]:
        """Return the offset (column, row) of a hex, counted from 0."""
        return to_offset(h, self.orientation, self.stagger)

    def neighbours(self, h: Hex) -> list[Hex]:
        """Return the hexes next to a hex that are on the board, clockwise."""
        return [n for n in neighbours(h) if n in self.hexes]

    def step(self, h: Hex, direction: str) -> Hex | None:
        """Return the hex one step from h in a compass direction (flat: N, NE, SE, S, SW, NW;
        pointy: NE, E, SE, SW, W, NW), or None when it is off the board."""
        table = DIRECTIONS[self.orientation]
        if direction not in table:
            raise NotationError(
                f"{direction!r} is not a direction of {self.orientation}-top hexes ({', '.join(table)})"
            )
        dq, dr = table[direction]
        n = (h[0] + dq, h[1] + dr)
        return n if n in self.hexes else None

    def distance(self, a: Hex, b: Hex) -> int:
        """Return the steps from a to b counted over all hexes (holes in the map are not detours)."""
        return distance(a, b)

    def within(self, h: Hex, n: int) -> list[Hex]:
        """Return the board's hexes at most n steps from h, sorted."""
        return [x for x in within(h, n) if x in self.hexes]

    def line(self, a: Hex, b: Hex) -> list[Hex]:
        """Return the hexes a straight line from a to b passes through (see ``line``)."""
        return line(a, b)
