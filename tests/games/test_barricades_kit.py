"""The Barricades kit as a player gets it (board, standees, MacGuffins, rosters, record, booklet),
and the generic standees component kind on a definition of its own."""

from __future__ import annotations

import json
import os
import re

import pytest

from generator.components.base import Options
from generator.components.kinds import context
from generator.components.specs import StandeesSpec
from generator.components.standees import standee
from generator.components.symbols import SYMBOLS
from generator.definitions.loader import load_definition
from generator.foundation.errors import DefinitionError
from generator.games import find_rules
from generator.printing.imposition import find_paper
from tests.conftest import build, mm, shared_build
from tests.pdf_reader import open_pdf

RULES = find_rules("barricades")


@pytest.fixture(scope="module")
def kit() -> str:
    """Return the folder of the seed-3 kit (PDF and SVG; test_barricades_numbers.py reads it too)."""
    return os.path.join(shared_build("barricades", seed="3"), "barricades-seed3")


def words(path: str, page: int = 0) -> list[tuple]:
    return open_pdf(path)[page].get_text("words")


def square_size(path: str) -> float:
    """The board's square size in mm, from the file labels along the top edge."""
    found = {w[4]: (w[0] + w[2]) / 2 for w in sorted(words(path), key=lambda w: w[1]) if w[4] in ("a", "j")}
    return mm(found["j"] - found["a"]) / 9


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_board_fits_one_page_with_squares_big_enough_for_the_standees(
    tmp_path, kit: str, paper: str
) -> None:
    if paper == "a4":  # the module's kit
        path = os.path.join(kit, "board.pdf")
    else:
        build(str(tmp_path), "barricades", seed="3", formats=["pdf"], paper=paper)
        path = os.path.join(str(tmp_path), "barricades-seed3", "board.pdf")
    assert len(open_pdf(path)) == 1
    standee_width = 15.0
    assert square_size(path) >= standee_width + 1.0
    text = {w[4] for w in words(path)}
    assert {"RED", "BLUE", "seed", "3"} <= text and set("abcdefghij") <= text


def test_a_larger_cell_size_tiles_the_board(tmp_path) -> None:
    build(str(tmp_path), "barricades", seed="3", formats=["pdf"], cell_size="25mm")
    assert len(open_pdf(os.path.join(str(tmp_path), "barricades-seed3", "board.pdf"))) > 1


def test_the_kit_holds_every_part_but_not_the_booklet_diagram_grid(kit: str) -> None:
    manifest = json.load(open(os.path.join(kit, "manifest.json")))
    pages = {f["name"]: f["pages"] for f in manifest["files"]}
    in_kit = {c["id"] for c in manifest["kit"]["components"]}
    assert in_kit == {"print-guide", "board", "soldiers", "macguffins", "roster", "record", "aid", "booklet"}
    assert pages["kit.pdf"] == 2 * len(manifest["kit"]["sheets"])
    assert manifest["seed"] == 3


def test_twenty_standees_of_the_right_size_on_one_sheet(kit: str) -> None:
    doc = open_pdf(os.path.join(kit, "soldiers.pdf"))
    assert len(doc) == 1
    cuts = [
        d["rect"]
        for d in doc[0].get_drawings()
        if d.get("color")
        and not d.get("fill")
        and abs(mm(d["rect"].width) - 15) < 0.2
        # two 24 mm panels and two bases that fold out to the battlefield's 17 mm squares (less 1 mm)
        and abs(mm(d["rect"].height) - 64) < 0.2
    ]
    assert len(cuts) == 20
    upright = [w[4] for w in words(os.path.join(kit, "soldiers.pdf"))]
    for word, count in (("PISTOLIER", 8), ("RIFLEMAN", 4), ("GRENADIER", 4), ("GUNNER", 4)):
        assert upright.count(word) >= count, word


def test_three_macguffin_tokens(kit: str) -> None:
    page = open_pdf(os.path.join(kit, "macguffins.pdf"))[0]
    gold = [d for d in page.get_drawings() if d.get("fill") and _hex(d["fill"]) == "#f3d36b"]
    assert len(gold) == 3
    for d in gold:  # 16 mm hexagons: they fit the battlefield's 17 mm squares
        assert abs(mm(d["rect"].width) - 16) < 0.3


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgb)


def test_two_rosters_list_every_soldier_with_its_ammunition(kit: str) -> None:
    text = open_pdf(os.path.join(kit, "roster.pdf"))[0].get_text()
    for name, count in (("Pistolier", 4), ("Rifleman", 2), ("Grenadier", 2), ("Machine gunner", 2)):
        assert text.count(name + " ") == 2 * count, name
    assert text.count("MacGuffins captured") == 2 and text.count("Damage\n") >= 2
    # dashes strike out the boxes a soldier does not have: 6 for a pistolier, 4 for a rifleman, 10 for a grenadier
    assert text.count("\u2013") == 2 * (4 * 6 + 2 * 4 + 2 * 10)


def test_the_booklet_quotes_the_rules_module(kit: str) -> None:
    doc = open_pdf(os.path.join(kit, "booklet.pdf"))
    text = re.sub(r"\s+", " ", " ".join(page.get_text() for page in doc))
    for piece in RULES.template_values()["pieces"]:
        assert piece["name"] in text
    for phrase in (
        "Clarifications",
        "exactly 3 squares away",
        "Red moves first",
        "RedSetup",
        "fires over the barricade on c3",
        "safe behind the barricade on d3",
    ):
        assert phrase in text, phrase


# --- the standees kind on its own ---------------------------------------------------------------------

DEFINITION = """
[game]
id = "standee-test"
title = "Standee test"
players = "2"

[components.figures]
kind = "standees"
width = "{width}"
height = "30mm"
base = "{base}"
figures = [{figures}]
"""


def write(
    tmp_path,
    width: str = "20mm",
    base: str = "12mm",
    figures: str = '{ name = "Knight", count = 3, symbol = "star", initial = "K", fill = "#224488" }',
) -> str:
    path = tmp_path / "standee-test.toml"
    path.write_text(DEFINITION.format(width=width, base=base, figures=figures), encoding="utf-8")
    return str(path)


def test_a_standee_is_a_strip_of_two_tabs_and_two_panels(tmp_path) -> None:
    definition = load_definition(write(tmp_path))
    spec = definition.component("figures")
    ctx = context(definition, find_paper("a4"), options=Options())
    art = standee(spec.typed(StandeesSpec).figures[0], spec, ctx)
    assert (art.width, art.height) == (20.0, 2 * (30.0 + 12.0))


@pytest.mark.parametrize(
    "width,base,figures,message",
    [
        ("20mm", "40mm", '{ name = "a" }', "base tab deeper"),
        ("2mm", "10mm", '{ name = "a" }', "width should be"),
        ("20mm", "10mm", "", "at least one figure"),
        ("20mm", "10mm", "{ count = 2 }", "name"),
    ],
)
def test_bad_standee_definitions(tmp_path, width: str, base: str, figures: str, message: str) -> None:
    with pytest.raises(DefinitionError, match=message):
        load_definition(write(tmp_path, width, base, figures))


def test_standee_sheets_are_built_from_the_definition(tmp_path) -> None:
    write(tmp_path)
    out = tmp_path / "out"
    build(str(out), "standee-test", formats=["pdf"], layouts=str(tmp_path))
    doc = open_pdf(str(out / "standee-test" / "figures.pdf"))
    cuts = [
        d
        for d in doc[0].get_drawings()
        if d.get("color")
        and not d.get("fill")
        and abs(mm(d["rect"].width) - 20) < 0.2
        and abs(mm(d["rect"].height) - 84) < 0.2
    ]
    assert len(cuts) == 3


def test_the_soldier_silhouettes_are_symbols() -> None:
    for name in ("pistolier", "rifleman", "grenadier", "machine-gunner"):
        shapes = SYMBOLS[name](0.0, 0.0, 20.0, "#000000")
        assert len(shapes) >= 10
