"""The hex map and hex counters, read back from the PDF: hexes of the size asked across the flats,
neighbouring centres one cell apart, every hex's name inside its hex, tiled maps, and one-line
errors for hexes that are not on the map."""

from __future__ import annotations

import math
import os
import textwrap

import pytest

from generator.components.base import Options
from generator.definitions.loader import load_definition
from generator.definitions.values import templates_for
from generator.games.hexes import HexGrid
from generator.kits.kit import layout_findings
from generator.kits.plan import kit_plan
from tests.conftest import mm
from tests.foundation.test_cli import one_line_error, pnp
from tests.pdf_reader import Document, Page, open_pdf

GAME = """
[game]
id = "hexes"
title = "Hexes"
players = "2"

[palette]
forest = "#2f7d32"
water = "#d9ecf7"

[components.map]
kind = "hex-board"
title = "Map"
{map}

[components.map.marks.forest]
fill = "forest"
symbol = "triangle"
symbol_colour = "#ffffff"
[components.map.marks.lake]
fill = "water"
hatch = true
text = "L"
corner = "Lake"
[components.map.marks.town]
dashed = true
symbol = "star"
corner = "Town"

[components.units]
kind = "counters"
board = "map"
[[components.units.counters]]
name = "Flat unit"
count = 3
shape = "hex"
size = "{unit}"
fill = "#0072b2"
symbol = "cross"
label = "4-4-3"
back = {{ fill = "#ffffff", label = "routed" }}
[[components.units.counters]]
name = "Pointy unit"
count = 2
shape = "hex"
orientation = "pointy"
size = "20mm"
fill = "#e69f00"
label = "1-2-6"
"""
RECTANGLE = """columns = 7
rows = 5
cell = "25mm"
cells = { "0203" = ["forest"], "0303" = ["lake"], "0601" = ["town"], "0105" = ["arrows:N,SE"] }"""
POINTY = """shape = "hexhex"
radius = 3
orientation = "pointy"
coordinates = "axial"
cell = "22mm"
cells = { "0,0" = ["town"], "1,-1" = ["forest"], "-2,1" = ["lake"], "2,1" = ["arrows:E,W"] }"""
LETTERS = """shape = "cells"
hexes = ["a1", "b1", "c1", "b2", "c2", "d2", "c3"]
coordinates = "letters"
stagger = "even"
cell = "30mm"
cells = { d3 = ["lake"] }"""


def write_game(root, map_keys: str, unit: str = "20mm") -> str:
    layouts = root / "layouts"
    layouts.mkdir(exist_ok=True)
    (layouts / "hexes.toml").write_text(GAME.format(map=map_keys, unit=unit))
    booklets = root / "templates" / "booklets"
    booklets.mkdir(parents=True, exist_ok=True)
    (booklets / "hexes.en.md.j2").write_text("# Hexes\n\nMove one unit a turn.\n")
    return str(layouts / "hexes.toml")


# each part as a PDF of its own (--parts), for the tests to read
BUILD = ("build", "hexes", "--layouts", "layouts", "--parts", "--out")


def build_map(root, map_keys: str, *extra: str) -> Document:
    write_game(root, map_keys)
    out = root / "out"
    result = pnp(*BUILD, str(out), *extra, cwd=str(root))
    assert result.returncode == 0, result.stderr
    return open_pdf(os.path.join(out, "hexes", "map.pdf"))


def labels(page: Page) -> dict[str, tuple[float, float, float, float]]:
    """Return the box in mm of every hex name on a page."""
    found = {}
    for block in page.get_text("dict")["blocks"]:
        for line_ in block.get("lines", []):
            for span in line_["spans"]:
                found[span["text"]] = tuple(mm(v) for v in span["bbox"])
    return found


def segments(
    page: Page, widths: tuple[float, ...] = (0.35, 0.875)
) -> list[tuple[float, float, float, float]]:
    """Return every straight unfilled segment of the given widths (mm: the map's edges) on a page."""
    out = []
    for path in page.get_drawings():
        if path.get("fill") is not None or not any(
            abs(mm(path.get("width") or 0) - w) < 0.01 for w in widths
        ):
            continue
        for item in path["items"]:
            if item[0] == "l":
                a, b = item[1], item[2]
                out.append((mm(a.x), mm(a.y), mm(b.x), mm(b.y)))
    return out


def hex_around(label_box, segs, orientation: str, cell: float) -> tuple[float, float]:
    """Return the centre of the hex holding a name, found from the hex's own edges: the flat
    edges above and below it (flat-top) or left and right of it (pointy-top)."""
    x0, y0, x1, y1 = label_box
    lx, ly = (x0 + x1) / 2, (y0 + y1) / 2
    if orientation == "flat":
        flats = [s for s in segs if abs(s[1] - s[3]) < 1e-3 and abs((s[0] + s[2]) / 2 - lx) < 0.5]
        above = max(s[1] for s in flats if s[1] < ly)
        below = min(s[1] for s in flats if s[1] > ly)
        assert below - above == pytest.approx(cell, abs=0.02), "flat-to-flat"
        return lx, (above + below) / 2
    sides = [
        s
        for s in segs
        if abs(s[0] - s[2]) < 1e-3
        and ly < (s[1] + s[3]) / 2 < ly + cell * 0.6
        and abs(s[0] - lx) < cell * 0.6
    ]
    left = max(s[0] for s in sides if s[0] < lx)
    right = min(s[0] for s in sides if s[0] > lx)
    assert right - left == pytest.approx(cell, abs=0.02), "flat-to-flat"
    mids = {round((s[1] + s[3]) / 2, 2) for s in sides if s[0] in (left, right)}
    assert len(mids) == 1
    return (left + right) / 2, mids.pop()


def inside_hex(x: float, y: float, cx: float, cy: float, orientation: str, cell: float, gap: float) -> bool:
    """Return True when a point lies inside a hex at least ``gap`` mm from its edges."""
    dx, dy = abs(x - cx), abs(y - cy)
    if orientation == "pointy":
        dx, dy = dy, dx
    # flat-top: |dy| <= cell/2, and the slanted edges: dx * sqrt(3)/2 + dy / 2 <= cell / 2
    return dy <= cell / 2 - gap and dx * math.sqrt(3) / 2 + dy / 2 <= cell / 2 - gap


CASES = [
    ("rectangle", RECTANGLE, "flat", 25.0, HexGrid.rectangle(7, 5)),
    ("hexhex", POINTY, "pointy", 22.0, HexGrid.hexhex(3, "pointy", coordinates="axial")),
    (
        "cells",
        LETTERS,
        "flat",
        30.0,
        HexGrid.listed(
            ["a1", "b1", "c1", "b2", "c2", "d2", "c3", "d3"], stagger="even", coordinates="letters"
        ),
    ),
]


@pytest.mark.parametrize(("name", "keys", "orientation", "cell", "grid"), CASES, ids=[c[0] for c in CASES])
def test_hexes_print_at_true_size_with_every_name_inside_its_hex(
    tmp_path, name, keys, orientation, cell, grid
):
    page = build_map(tmp_path, keys)[0]
    found = labels(page)
    names = {grid.name(h) for h in grid.hexes}
    assert names <= set(found), sorted(names - set(found))
    segs = segments(page)
    centres = {}
    for hex_ in grid.hexes:
        box = found[grid.name(hex_)]
        cx, cy = hex_around(box, segs, orientation, cell)
        centres[hex_] = (cx, cy)
        for x, y in ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])):
            assert inside_hex(x, y, cx, cy, orientation, cell, 0.3), (grid.name(hex_), box)
    pairs = 0
    for hex_ in grid.hexes:
        for near in grid.neighbours(hex_):
            assert math.dist(centres[hex_], centres[near]) == pytest.approx(cell, abs=0.02)
            pairs += 1
    assert pairs >= 2 * len(grid)


def test_hex_counters_measure_their_size_across_the_flats_and_fit_the_map(tmp_path):
    write_game(tmp_path, RECTANGLE)
    out = tmp_path / "out"
    assert pnp(*BUILD, str(out), cwd=str(tmp_path)).returncode == 0
    doc = open_pdf(os.path.join(out, "hexes", "units.pdf"))
    faces = {"#0072b2": [], "#e69f00": []}
    for path in doc[0].get_drawings():
        colour = path.get("fill")
        if colour is None:
            continue
        hexed = "#" + "".join(f"{round(c * 255):02x}" for c in colour)
        if hexed in faces and len(path["items"]) == 6:
            faces[hexed].append(path["rect"])
    assert len(faces["#0072b2"]) == 3 and len(faces["#e69f00"]) == 2
    for rect in faces["#0072b2"]:  # flat-top, 20 mm across the flats
        assert mm(rect.height) == pytest.approx(20.0, abs=0.05)
        assert mm(rect.width) == pytest.approx(20.0 * 2 / math.sqrt(3), abs=0.05)
    for rect in faces["#e69f00"]:  # pointy-top, 20 mm across the flats
        assert mm(rect.width) == pytest.approx(20.0, abs=0.05)
    big = tmp_path / "big"
    big.mkdir()
    write_game(big, RECTANGLE, unit="25mm")
    result = pnp("check", "layouts/hexes.toml", cwd=str(big))
    assert result.returncode == 3
    assert "need squares of at least 26 mm" in one_line_error(result)


def test_a_large_map_is_tiled_over_sheets_at_true_size(tmp_path):
    doc = build_map(tmp_path, 'columns = 14\nrows = 10\ncell = "30mm"')
    assert len(doc) > 1
    for page in doc:
        assert sorted((round(mm(page.rect.width)), round(mm(page.rect.height)))) == [210, 297]
    assert any("tile row" in page.get_text() for page in doc)


@pytest.mark.parametrize(
    ("keys", "key", "words"),
    [
        ('columns = 5\nrows = 4\ncells = { "0x04" = ["forest"] }', "components.map.cells.0x04", "not a hex"),
        (
            'columns = 5\nrows = 4\ncells = { "0905" = ["forest"] }',
            "components.map.cells.0905",
            "not a hex of",
        ),
        ("columns = 5", "components.map.columns", "needs columns and rows"),
        ('shape = "hexhex"', "components.map.radius", "needs a radius"),
        ('shape = "cells"\nhexes = ["0101", "c4"]', "components.map.hexes[1]", "not a hex"),
        ('columns = 5\nrows = 4\norientation = "square"', "components.map.orientation", "flat, pointy"),
        ('columns = 5\nrows = 4\ncells = { "0101" = ["swamp"] }', "components.map.marks", "no mark 'swamp'"),
        ('columns = 5\nrows = 4\ncells = { "0101" = ["arrows:E"] }', "components.map", "arrow direction 'E'"),
    ],
)
def test_a_bad_map_is_a_one_line_error_naming_the_key(tmp_path, keys, key, words):
    write_game(tmp_path, keys)
    result = pnp("check", "layouts/hexes.toml", cwd=str(tmp_path))
    assert result.returncode == 3
    line = one_line_error(result)
    assert "layouts/hexes.toml" in line and key in line and words in line


@pytest.mark.parametrize("name", ["rectangle", "hexhex", "cells"])
def test_every_page_of_a_hex_kit_passes_the_layout_check(tmp_path, name):
    keys = {c[0]: c[1] for c in CASES}[name]
    path = write_game(tmp_path, keys)
    definition = load_definition(path, templates_for(os.path.dirname(path)))
    findings = []
    for paper, ink, cell in (("a4", False, None), ("letter", True, None), ("a4", True, 40.0)):
        kit = kit_plan(definition, paper=paper, options=Options(ink_saver=ink, cell_size=cell))
        findings.extend(layout_findings(kit))
    assert not findings, "\n".join(map(str, findings[:20]))


def test_a_rules_module_and_the_map_name_the_same_hexes(tmp_path):
    # the map prints the names the referee's helpers parse: every printed name is a hex of the
    # grid a rules module would make from the same keys
    page = build_map(tmp_path, textwrap.dedent('columns = 4\nrows = 3\ncoordinates = "letters"'))[0]
    grid = HexGrid.rectangle(4, 3, coordinates="letters")
    printed = {t for t in labels(page) if len(t) <= 3 and t[0].isalpha() and t[1:].isdigit()}
    assert printed == {grid.name(h) for h in grid.hexes}


def test_a_hex_map_at_a_print_shop_keeps_its_size_and_is_one_png(tmp_path):
    from PIL import Image

    write_game(tmp_path, RECTANGLE)
    out = tmp_path / "out"
    args = (*BUILD, str(out), "--bleed", "3mm", "--png", "100")
    result = pnp(*args, cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    page = open_pdf(os.path.join(out, "hexes", "map.pdf"))[0]
    grid = HexGrid.rectangle(7, 5)
    found, segs = labels(page), segments(page)
    a, b = grid.parse("0303"), grid.parse("0304")
    assert math.dist(
        hex_around(found["0303"], segs, "flat", 25.0), hex_around(found["0304"], segs, "flat", 25.0)
    ) == pytest.approx(25.0, abs=0.02)
    assert b in grid.neighbours(a)
    with Image.open(os.path.join(out, "hexes", "png", "map.png")) as image:
        width_mm = image.size[0] / 100 * 25.4
    # the whole map in one image: seven flat-top columns are 11 half-diagonals across, plus the
    # map's 3 mm margin and the 3 mm bleed on either side
    assert width_mm == pytest.approx(11 * 25.0 / math.sqrt(3) + 2 * 3.0 + 2 * 3.0, abs=0.3)
