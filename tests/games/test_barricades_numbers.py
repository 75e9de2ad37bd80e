"""Barricades soldier numbers, read back from the built PDF and SVG files over several seeds: every
soldier a roster keeps a row for ("Pistolier 1" ... "Machine gunner 2", one roster per side) has
exactly one standee of its side carrying its number on both panels, and exactly one starting square
on the battlefield labelled with its initial and number ("P1"), a square where the referee's default
setup puts a soldier of that side and type."""

from __future__ import annotations

import math
import os
import re
from collections import Counter

import pytest

from generator.definitions.loader import find_definition
from generator.games import find_rules
from tests.conftest import mm, shared_build
from tests.pdf_reader import open_pdf
from tests.svg_reader import read_svg

RULES = find_rules("barricades")
VALUES = RULES.template_values()
TYPES = {p["name"]: p for p in VALUES["pieces"]}  # by title: "Machine gunner"
INITIALS = {p["initial"]: p["type"] for p in VALUES["pieces"]}
SIDES = tuple(VALUES["home_ranks"])
PANEL = find_definition("barricades").component("soldiers")["height"]
SEEDS = (3, 1, 58)  # the first in the fast tier: the kit test_barricades_kit.py reads too

Word = tuple[str, float, float]  # text and where it stands on the page, in mm
Box = tuple[float, float, float, float]


def pdf_words(path: str) -> list[Word]:
    """Return every word of a one-page PDF at the middle of its box."""
    page = open_pdf(path)[0]
    return [(w[4], mm((w[0] + w[2]) / 2), mm((w[1] + w[3]) / 2)) for w in page.get_text("words")]


def pdf_lines(path: str) -> list[str]:
    """Return every line of text of a PDF's pages (words joined as tests/pdf_reader.py groups them into lines)."""
    lines = []
    for page in open_pdf(path):
        grouped: dict[tuple[int, int], list[str]] = {}
        for w in page.get_text("words"):
            grouped.setdefault((w[5], w[6]), []).append(w[4])
        lines.extend(" ".join(words) for words in grouped.values())
    return lines


def pdf_strips(path: str, width: float, height: float) -> list[Box]:
    """Return the cut outlines of the standee strips (unfilled rectangles of the strip's width,
    taller than ``height``)."""
    page = open_pdf(path)[0]
    return [
        (mm(r.x0), mm(r.y0), mm(r.x1), mm(r.y1))
        for d in page.get_drawings()
        if d.get("color") and not d.get("fill")
        for r in [d["rect"]]
        if abs(mm(r.width) - width) < 0.2 and mm(r.height) > height
    ]


def svg_texts(path: str) -> list[Word]:
    """Return every text of an SVG file at its anchor point, in mm."""
    with open(path, "rb") as handle:
        painted = read_svg(handle.read())
    return [(p.geometry[0], p.geometry[4][0], p.geometry[4][1]) for p in painted if p.kind == "text"]


def svg_strips(path: str, width: float, height: float) -> list[Box]:
    """Return the closed unfilled outlines of the strip's width, taller than ``height``, that an
    SVG file strokes."""
    with open(path, "rb") as handle:
        painted = read_svg(handle.read())
    boxes = []
    for p in painted:
        paint = dict(p.paint)
        if p.kind != "subpath" or paint["stroke"] == "none" or paint["fill"] != "none":
            continue
        sub = p.geometry[0]
        points = [sub.start] + [s[-1] for s in sub.segments]
        xs, ys = [x for x, _ in points], [y for _, y in points]
        box = (min(xs), min(ys), max(xs), max(ys))
        if sub.closed and abs(box[2] - box[0] - width) < 0.2 and box[3] - box[1] > height:
            boxes.append(box)
    return boxes


@pytest.fixture(scope="module", params=SEEDS)
def kit(request) -> str:
    out = shared_build("barricades", seed=str(request.param))
    return os.path.join(out, f"barricades-seed{request.param}")


def roster_soldiers(kit: str) -> Counter:
    """Return how often each (type, number) has a row in the rosters, from roster.pdf and .svg."""
    pattern = re.compile(rf"({'|'.join(TYPES)}) ([0-9]+)")
    rows: Counter = Counter()
    for line in pdf_lines(os.path.join(kit, "roster.pdf")):
        if m := pattern.fullmatch(line):
            rows[TYPES[m.group(1)]["type"], int(m.group(2))] += 1
    in_svg: Counter = Counter()
    for text, _, _ in svg_texts(os.path.join(kit, "roster.svg")):
        if m := pattern.fullmatch(text):
            in_svg[TYPES[m.group(1)]["type"], int(m.group(2))] += 1
    assert rows == in_svg
    return rows


def test_each_side_has_a_roster_row_for_every_soldier_numbered_from_one(kit: str) -> None:
    rows = roster_soldiers(kit)
    expected = {(p["type"], k) for p in VALUES["pieces"] for k in range(1, p["count"] + 1)}
    assert set(rows) == expected
    assert set(rows.values()) == {len(SIDES)}  # a roster a side, a row a soldier


def standees(words: list[Word], strips: list[Box], depth: float) -> Counter:
    """Return how many strips show each (side, type, number): the side and type from the label on
    the lower tab, the number read in both panels (the back above the front)."""
    found: Counter = Counter()
    for x0, y0, x1, y1 in strips:
        tab = (depth - 2 * PANEL) / 2  # two tabs and two panels fill the strip
        inside = sorted(
            ((t, y - y0) for t, x, y in words if x0 < x < x1 and y0 < y < y1), key=lambda item: item[1]
        )
        label = " ".join(t for t, y in inside if y > depth - tab)
        side, _, kind = label.partition(" ")
        back = [t for t, y in inside if tab < y < tab + PANEL and t.isdigit()]
        front = [t for t, y in inside if tab + PANEL < y < depth - tab and t.isdigit()]
        assert len(back) == len(front) == 1, f"{label}: numbers {back} on the back, {front} on the front"
        assert back == front, f"{label}: the back says {back[0]}, the front {front[0]}"
        found[side.lower(), TYPES[kind.capitalize()]["type"], int(front[0])] += 1
    return found


@pytest.mark.parametrize("fmt", ["pdf", "svg"])
def test_every_roster_soldier_has_one_standee_numbered_on_both_faces(kit: str, fmt: str) -> None:
    spec = find_definition("barricades").component("soldiers")
    width = spec["width"]
    strips_of, words_of = (pdf_strips, pdf_words) if fmt == "pdf" else (svg_strips, svg_texts)
    path = os.path.join(kit, f"soldiers.{fmt}")
    strips = strips_of(path, width, 2 * PANEL)
    assert strips, "no standee strips found"
    depth = strips[0][3] - strips[0][1]
    found = standees(words_of(path), strips, depth)
    wanted = Counter({(side, kind, k): 1 for side in SIDES for kind, k in roster_soldiers(kit)})
    assert found == wanted


def start_squares(words: list[Word]) -> dict[str, list[str]]:
    """Return the squares of the battlefield each initial-and-number label ("P1") stands in: the grid
    is found from its file letters (a to j, over the top) and rank numbers (down the left)."""
    files = sorted((x, y) for t, x, y in words if t == "a")
    last = sorted((x, y) for t, x, y in words if t == "j")
    cell = (last[0][0] - files[0][0]) / 9
    left = files[0][0] - cell / 2
    ranks = [(y, int(t)) for t, x, y in words if t.isdigit() and x < left]
    top_y, top = min(ranks)
    top_edge = top_y - cell / 2
    label = re.compile(rf"([{''.join(INITIALS)}])([0-9]+)")
    squares: dict[str, list[str]] = {}
    for t, x, y in words:
        if label.fullmatch(t):
            file, down = math.floor((x - left) / cell), math.floor((y - top_edge) / cell)
            squares.setdefault(t, []).append(f"{chr(ord('a') + file)}{top - down}")
    return squares


@pytest.mark.parametrize("fmt", ["pdf", "svg"])
def test_every_roster_soldier_has_one_start_square_labelled_with_its_number(kit: str, fmt: str) -> None:
    seed = int(kit.rsplit("seed", 1)[1])
    state = RULES.new_state(seed)
    path = os.path.join(kit, f"board.{fmt}")
    squares = start_squares(pdf_words(path) if fmt == "pdf" else svg_texts(path))
    initial = {p["type"]: p["initial"] for p in VALUES["pieces"]}
    for kind, k in roster_soldiers(kit):
        where = squares.get(f"{initial[kind]}{k}", [])
        for side in SIDES:
            on_side = [s for s in where if int(s[1:]) in VALUES["home_ranks"][side]]
            assert len(on_side) == 1, f"{side} {kind} {k}: labelled on {on_side}"
            piece = state.piece_at(on_side[0])
            assert piece is not None and (piece["side"], piece["type"]) == (side, kind), (
                f"{side} {kind} {k} is labelled on {on_side[0]}, where the referee starts {piece}"
            )
    labelled = sum(len(v) for v in squares.values())
    assert labelled == len(SIDES) * sum(p["count"] for p in VALUES["pieces"])
