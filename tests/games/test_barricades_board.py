"""Barricades battlefields: invariants over thousands of seeds, pinned boards, the line-of-fire
geometry, and the data handed to the CLI, the drawing components and the booklet."""

from __future__ import annotations

import json
from collections import deque
from fractions import Fraction

import pytest

from generator.foundation.errors import BoardError
from generator.games import barricades_board as bb
from generator.games import find_rules

RULES = find_rules("barricades")
SEEDS = range(2000)
FILES = "abcdefghij"


def fr(name: str) -> tuple[int, int]:
    """Return (file 0-9, rank 1-10) of a square name."""
    return FILES.index(name[0]), int(name[1:])


def name(f: int, r: int) -> str:
    return f"{FILES[f]}{r}"


def image(square: str) -> str:
    """The square's partner under the point reflection (f, r) <-> (j - f, 11 - r)."""
    f, r = fr(square)
    return name(9 - f, 11 - r)


def king_groups(squares: set[str]) -> list[set[str]]:
    left, groups = set(squares), []
    while left:
        start = left.pop()
        group, queue = {start}, [start]
        while queue:
            f, r = fr(queue.pop())
            for df in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    n = name(f + df, r + dr) if 0 <= f + df < 10 and 1 <= r + dr <= 10 else None
                    if n in left:
                        left.discard(n)
                        group.add(n)
                        queue.append(n)
        groups.append(group)
    return groups


def is_straight_row(group: set[str]) -> bool:
    cells = sorted(fr(s) for s in group)
    files, ranks = {f for f, _ in cells}, {r for _, r in cells}
    if len(ranks) == 1:
        return max(files) - min(files) == len(cells) - 1
    return len(files) == 1 and max(ranks) - min(ranks) == len(cells) - 1


def reached_from(home_ranks: tuple[int, int], barricades: set[str]) -> set[str]:
    open_squares = {name(f, r) for f in range(10) for r in range(1, 11)} - barricades
    seen = {s for s in open_squares if fr(s)[1] in home_ranks}
    queue = deque(seen)
    while queue:
        f, r = fr(queue.popleft())
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                n = name(f + df, r + dr) if 0 <= f + df < 10 and 1 <= r + dr <= 10 else None
                if n in open_squares and n not in seen:
                    seen.add(n)
                    queue.append(n)
    return seen


def check_board(data: dict) -> None:
    """Assert every promise about a battlefield, from its JSON data alone."""
    barricades, ammo, medical = set(data["barricades"]), set(data["ammo"]), set(data["medical"])
    guffins = data["macguffins"]
    for key in ("barricades", "ammo", "medical", "macguffins"):
        assert data[key] == sorted(data[key], key=lambda s: (fr(s)[1], fr(s)[0])), key
    assert all(3 <= fr(s)[1] <= 8 for s in barricades)
    for group in king_groups(barricades):
        assert is_straight_row(group) and 1 <= len(group) <= 4, sorted(group)
    for squares in (barricades, ammo, medical):
        assert {image(s) for s in squares} == squares
    assert len(ammo) == 4 and len(medical) == 2
    assert not (ammo | medical) & barricades and not ammo & medical
    assert all(3 <= fr(s)[1] <= 8 for s in ammo | medical)
    assert len(guffins) == len(set(guffins)) == 3
    for s in guffins:
        f, r = fr(s)
        assert 2 <= f <= 7 and 4 <= r <= 7 and s not in barricades | ammo | medical
    assert {fr(s)[1] >= 6 for s in guffins} == {True, False}  # at least one in each half
    every_open = {name(f, r) for f in range(10) for r in range(1, 11)} - barricades
    assert reached_from((1, 2), barricades) == every_open
    assert reached_from((9, 10), barricades) == every_open


def test_invariants_over_thousands_of_seeds() -> None:
    for seed in SEEDS:
        check_board(RULES.board_data(seed))


def test_barricades_form_a_maze_of_rows_not_a_scatter_of_blocks() -> None:
    single = squares = 0
    for seed in SEEDS:
        field = bb.battlefield(seed)
        names = set(bb.names(field.barricades))
        rows = king_groups(names)
        assert len(names) >= 14 and sum(len(r) >= 2 for r in rows) >= 6, seed
        single += sum(len(r) == 1 for r in rows)
        squares += len(names)
        assert not field.fallback
    assert single / squares < 0.1


def test_macguffins_are_almost_never_adjacent() -> None:
    adjacent = 0
    for seed in SEEDS:
        guffins = [fr(s) for s in RULES.board_data(seed)["macguffins"]]
        adjacent += any(
            max(abs(a[0] - b[0]), abs(a[1] - b[1])) < 2 for a in guffins for b in guffins if a != b
        )
    assert adjacent <= len(SEEDS) // 200


def test_rows_lie_both_ways_across_seeds() -> None:
    ways = set()
    for seed in range(50):
        for row in king_groups(set(bb.names(bb.battlefield(seed).barricades))):
            if len(row) > 1:
                ways.add("h" if len({fr(s)[1] for s in row}) == 1 else "v")
    assert ways == {"h", "v"}


def test_generation_is_deterministic_and_seeds_differ() -> None:
    boards = [json.dumps(RULES.board_data(seed)) for seed in range(200)]
    assert boards == [json.dumps(RULES.board_data(seed)) for seed in range(200)]
    assert bb.battlefield(77) == bb.battlefield(77)
    assert len(set(boards)) == 200


def test_the_fallback_battlefield_is_valid() -> None:
    field = bb.battlefield(5, max_attempts=0)
    assert field.fallback
    check_board(
        {
            "barricades": bb.names(field.barricades),
            "ammo": bb.names(field.ammo),
            "medical": bb.names(field.medical),
            "macguffins": bb.names(field.macguffins),
        }
    )


PINNED_BOARDS: dict[int, dict[str, list[str]]] = {
    1: {
        "barricades": [
            "a3",
            "c3",
            "e3",
            "j3",
            "a4",
            "c4",
            "e4",
            "h4",
            "a5",
            "h5",
            "j5",
            "a6",
            "c6",
            "j6",
            "c7",
            "f7",
            "h7",
            "j7",
            "a8",
            "f8",
            "h8",
            "j8",
        ],
        "ammo": ["f3", "b4", "i7", "e8"],
        "medical": ["i4", "b7"],
        "macguffins": ["d4", "g4", "e6"],
    },
    2: {
        "barricades": [
            "a3",
            "b3",
            "c3",
            "d3",
            "f3",
            "g3",
            "h3",
            "j3",
            "a5",
            "g5",
            "j5",
            "a6",
            "d6",
            "j6",
            "a8",
            "c8",
            "d8",
            "e8",
            "g8",
            "h8",
            "i8",
            "j8",
        ],
        "ammo": ["b5", "d5", "g6", "i6"],
        "medical": ["h4", "c7"],
        "macguffins": ["c4", "f4", "g7"],
    },
    3: {
        "barricades": [
            "a3",
            "g3",
            "i3",
            "a4",
            "d4",
            "e4",
            "g4",
            "i4",
            "g5",
            "i5",
            "b6",
            "d6",
            "b7",
            "d7",
            "f7",
            "g7",
            "j7",
            "b8",
            "d8",
            "j8",
        ],
        "ammo": ["b4", "f4", "e7", "i7"],
        "medical": ["d5", "g6"],
        "macguffins": ["c4", "f6", "h6"],
    },
}


def test_pinned_boards() -> None:
    for seed, expected in PINNED_BOARDS.items():
        data = RULES.board_data(seed)
        assert {k: data[k] for k in expected} == expected, seed


def test_bad_seeds_and_variants_are_board_errors() -> None:
    for seed in (-1, "x", 2**63):
        with pytest.raises(BoardError):
            RULES.board_data(seed)  # type: ignore[arg-type]
    with pytest.raises(BoardError):
        RULES.board_data(None)
    with pytest.raises(BoardError):
        RULES.board_data(1, frozenset({"fog"}))


# --- line of fire geometry -------------------------------------------------------------------------


def crossed_by_sampling(a: str, b: str, samples: int = 2000) -> set[str]:
    """Squares whose interior the centre-to-centre segment visits, found by sampling points on it."""
    (fa, ra), (fb, rb) = fr(a), fr(b)
    seen = set()
    for k in range(samples):
        t = Fraction(2 * k + 1, 2 * samples)
        x = fa + Fraction(1, 2) + (fb - fa) * t
        y = ra - Fraction(1, 2) + (rb - ra) * t
        assert x.denominator != 1 and y.denominator != 1
        seen.add(name(int(x), int(y) + 1))
    return seen - {a, b}


def test_line_squares_are_exactly_the_squares_the_line_passes_through() -> None:
    for target in ("d4", "e5", "e3", "f3", "d7", "g9", "a7", "j4", "b5", "h6", "i2"):
        for shooter in ("d4", "c3", "e6"):
            if shooter != target and bb.distance(bb.parse_square(shooter), bb.parse_square(target)) <= 6:
                got = bb.names(bb.line_squares(bb.parse_square(shooter), bb.parse_square(target)))
                assert set(got) == crossed_by_sampling(shooter, target), (shooter, target)


def test_line_squares_examples() -> None:
    def line(a: str, b: str) -> list[str]:
        return bb.names(bb.line_squares(bb.parse_square(a), bb.parse_square(b)))

    assert line("c2", "c6") == ["c3", "c4", "c5"]
    assert line("a1", "d4") == ["b2", "c3"]  # through corners: b1, a2, c2, b3, ... are only touched
    assert line("a1", "b5") == ["a2", "a3", "b3", "b4"]
    assert line("a1", "c2") == ["b1", "b2"]
    assert line("a1", "a2") == []
    assert line("d4", "a1") == line("a1", "d4")


def test_board_text_and_layout_match_board_data() -> None:
    data = RULES.board_data(3)
    text = RULES.board_text(3).splitlines()
    rows = {int(line[:2]): line[4:].split() for line in text[1:11]}
    for square in data["barricades"]:
        f, r = fr(square)
        assert rows[r][f] == "#"
    for square in data["macguffins"]:
        f, r = fr(square)
        assert rows[r][f] == "@"
    layout = RULES.layout_data("board", 3)
    assert layout["files"] == 10 and layout["ranks"] == 10
    cells = layout["cells"]
    for key, mark in (
        ("barricades", "barricade"),
        ("ammo", "ammo"),
        ("medical", "medical"),
        ("macguffins", "macguffin"),
    ):
        assert sorted(s for s, marks in cells.items() if mark in marks) == sorted(data[key])
    for side in ("red", "blue"):
        for kind, squares in data["setup"][side].items():
            for number, s in enumerate(squares, 1):
                assert f"piece:{side}:{kind}:{number}" in cells[s] and f"{side}-home" in cells[s]
    homes = {s for s, marks in cells.items() if "blue-home" in marks or "red-home" in marks}
    assert homes == {name(f, r) for f in range(10) for r in (1, 2, 9, 10)}


def test_default_setup_is_on_home_ranks_and_point_symmetric() -> None:
    setup = RULES.board_data(1)["setup"]
    counts = {"pistolier": 4, "rifleman": 2, "grenadier": 2, "machine-gunner": 2}
    for side, ranks in (("blue", (1, 2)), ("red", (9, 10))):
        assert {k: len(v) for k, v in setup[side].items()} == counts
        assert all(fr(s)[1] in ranks for squares in setup[side].values() for s in squares)
    for kind in counts:
        assert sorted(image(s) for s in setup["blue"][kind]) == sorted(setup["red"][kind])


def test_default_setup_is_spread_out_against_grenades() -> None:
    setup = RULES.board_data(1)["setup"]
    for side, ahead in (("blue", 3), ("red", 8)):
        squares = [fr(s) for squares in setup[side].values() for s in squares]
        for f in range(10):
            for r in range(1, 11):
                blast = [(x, y) for x, y in squares if abs(x - f) <= 1 and abs(y - r) <= 1]
                assert len(blast) <= (1 if r == ahead else 3), (side, name(f, r))


def test_template_values_carry_the_piece_table() -> None:
    values = RULES.template_values()
    table = {p["type"]: (p["count"], p["move"], p["range"], p["ammo"]) for p in values["pieces"]}
    assert table == {
        "pistolier": (4, 4, 3, 6),
        "rifleman": (2, 3, 6, 8),
        "grenadier": (2, 4, 3, 2),
        "machine-gunner": (2, 2, 3, 12),
    }
    assert values["board_files"] == values["board_ranks"] == 10 and values["turn_limit"] == 200
    assert values["pieces_per_side"] == 10 and values["macguffins_to_win"] == 2


def test_unknown_layout_names_are_board_errors() -> None:
    for bad in ("roster-x", "position:nothing"):
        with pytest.raises(BoardError):
            RULES.layout_data(bad, 1)
