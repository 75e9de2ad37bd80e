"""The hex helpers a hex game's rules use: offset and axial coordinates, names, neighbours,
distance, ranges, rings and lines, over every orientation, stagger and naming."""

from __future__ import annotations

import itertools

import pytest

from generator.foundation.errors import NotationError
from generator.games.hexes import (
    COORDINATES,
    DIRECTIONS,
    ORIENTATIONS,
    STAGGERS,
    HexGrid,
    distance,
    from_offset,
    line,
    neighbours,
    ring,
    to_offset,
    within,
)

STYLES = list(itertools.product(ORIENTATIONS, STAGGERS))


@pytest.mark.parametrize(("orientation", "stagger"), STYLES)
def test_offset_and_axial_convert_both_ways(orientation, stagger):
    for col in range(-7, 8):
        for row in range(-7, 8):
            h = from_offset(col, row, orientation, stagger)
            assert to_offset(h, orientation, stagger) == (col, row)


@pytest.mark.parametrize(("orientation", "stagger"), STYLES)
def test_a_rectangle_is_columns_by_rows_and_its_offsets_cover_it(orientation, stagger):
    grid = HexGrid.rectangle(7, 5, orientation, stagger)
    assert len(grid) == 35
    assert sorted(grid.offset(h) for h in grid.hexes) == sorted(itertools.product(range(7), range(5)))


def test_the_staggered_columns_follow_the_stagger():
    # flat-top, odd stagger: column 2 (index 1) sits half a hex lower, so 0101's neighbours are
    # 0201 (below right) and 0102 (below); with even stagger column 1 is the low one
    odd = HexGrid.rectangle(4, 4, "flat", "odd")
    assert sorted(odd.name(h) for h in odd.neighbours(odd.parse("0101"))) == ["0102", "0201"]
    assert sorted(odd.name(h) for h in odd.neighbours(odd.parse("0304"))) == [
        "0203",
        "0204",
        "0303",
        "0403",
        "0404",
    ]
    even = HexGrid.rectangle(4, 4, "flat", "even")
    assert sorted(even.name(h) for h in even.neighbours(even.parse("0101"))) == ["0102", "0201", "0202"]
    pointy = HexGrid.rectangle(4, 4, "pointy", "odd", "letters")
    assert sorted(pointy.name(h) for h in pointy.neighbours(pointy.parse("b2"))) == [
        "a2",
        "b1",
        "b3",
        "c1",
        "c2",
        "c3",
    ]


@pytest.mark.parametrize("radius", [0, 1, 2, 5])
@pytest.mark.parametrize(("orientation", "stagger"), STYLES)
def test_a_hexhex_has_its_rings_and_offset_names_from_one(radius, orientation, stagger):
    grid = HexGrid.hexhex(radius, orientation, stagger)
    assert len(grid) == 3 * radius * (radius + 1) + 1
    offsets = [grid.offset(h) for h in grid.hexes]
    assert min(c for c, _ in offsets) == 0 and min(r for _, r in offsets) == 0
    assert max(c for c, _ in offsets) == 2 * radius and max(r for _, r in offsets) == 2 * radius
    centre = [h for h in grid.hexes if len(grid.within(h, radius)) == len(grid)]
    assert len(centre) == 1
    axial = HexGrid.hexhex(radius, orientation, stagger, "axial")
    assert axial.parse("0,0") in axial and len(axial.within((0, 0), radius)) == len(axial)


@pytest.mark.parametrize("coordinates", COORDINATES)
@pytest.mark.parametrize(("orientation", "stagger"), STYLES)
def test_every_hex_name_parses_back_to_its_hex(coordinates, orientation, stagger):
    for grid in (
        HexGrid.rectangle(30, 12, orientation, stagger, coordinates),
        HexGrid.hexhex(4, orientation, stagger, coordinates),
    ):
        names = [grid.name(h) for h in grid.hexes]
        assert len(set(names)) == len(names)
        assert all(grid.parse(grid.name(h)) == h for h in grid.hexes)
        assert HexGrid.listed(names, orientation, stagger, coordinates).hexes == grid.hexes


def test_names_read_like_a_map():
    grid = HexGrid.rectangle(30, 9, coordinates="letters")
    assert grid.name(from_offset(2, 3)) == "c4" and grid.name(from_offset(27, 0)) == "ab1"
    assert HexGrid.rectangle(12, 12).name(from_offset(10, 11)) == "1112"


@pytest.mark.parametrize("text", ["", "304", "0004", "0300", "c0", "C4", "c 4", "1,", "x", "03045"])
def test_a_malformed_or_missing_hex_is_a_notation_error(text):
    grid = HexGrid.rectangle(5, 5)
    with pytest.raises(NotationError):
        grid.parse(text)
    with pytest.raises(NotationError):
        grid.parse("0906")  # well-formed, off the board


def test_neighbours_distance_rings_and_ranges_agree():
    origin = (0, 0)
    assert all(distance(origin, n) == 1 for n in neighbours(origin))
    for n in range(6):
        assert len(within(origin, n)) == 3 * n * (n + 1) + 1
        assert len(ring(origin, n)) == (6 * n if n else 1)
    points = within((2, -1), 4)
    for a, b in itertools.combinations(points[::3], 2):
        assert distance(a, b) == distance(b, a)
        assert distance(a, b) <= distance(a, origin) + distance(origin, b)


def test_a_line_steps_one_hex_at_a_time_from_end_to_end():
    for a, b in itertools.product(within((0, 0), 3), within((1, 2), 2)):
        hexes = line(a, b)
        assert hexes[0] == a and hexes[-1] == b and len(hexes) == distance(a, b) + 1
        assert all(distance(x, y) == 1 for x, y in itertools.pairwise(hexes))


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_neighbours_and_steps_stay_on_the_board(orientation):
    grid = HexGrid.rectangle(6, 4, orientation)
    for h in grid.hexes:
        near = grid.neighbours(h)
        assert all(n in grid and distance(h, n) == 1 for n in near)
        steps = [grid.step(h, d) for d in DIRECTIONS[orientation]]
        assert sorted(s for s in steps if s is not None) == sorted(near)
    corner = grid.parse("0101")
    assert len(grid.neighbours(corner)) in (2, 3)
    assert len(grid.within(corner, 1)) == len(grid.neighbours(corner)) + 1
    with pytest.raises(NotationError):
        grid.step(corner, "E" if orientation == "flat" else "N")
