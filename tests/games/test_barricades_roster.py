"""The Barricades roster's rows come from the rules module's piece table, the one source the
referee plays by: a row for each soldier ("Pistolier 1" ... "Machine gunner 2"), as many open
ammunition boxes as its type carries and the rest struck out, a damage row beside each. Change the
piece table and the roster follows; a roster the table does not fit is a one-line error."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
from collections import defaultdict

import pytest

from generator.components.base import Options
from generator.components.kinds import context
from generator.components.table_sheet import STRUCK, copy_drawing
from generator.definitions.loader import find_definition
from generator.definitions.values import LAYOUTS_DIR
from generator.foundation.errors import DefinitionError
from generator.games import barricades, find_rules
from generator.model.page import Text, iter_shapes
from generator.printing.imposition import find_paper
from tests.hostile.helpers import cli

WIDTH = 180.0  # mm, one copy of the roster


def drawn_rows(seed: int = 3) -> list[list[str]]:
    """Return the texts of the roster's ammunition table, row by row (left to right), read from
    the drawing the kit prints."""
    definition = find_definition("barricades", LAYOUTS_DIR, "en")
    ctx = context(definition, find_paper("a4"), seed, options=Options())
    drawing = copy_drawing(definition.component("roster"), ctx, WIDTH)
    rows: dict[float, list[tuple[float, str]]] = defaultdict(list)
    for shape, m in iter_shapes(drawing.shapes):
        if isinstance(shape, Text):
            rows[round(m[5] + shape.y, 1)].append((m[4] + shape.x, shape.text))
    return [[t for _, t in sorted(row)] for _, row in sorted(rows.items())]


def soldier_rows(rows: list[list[str]], names: set[str]) -> dict[str, list[str]]:
    """Return the rows whose first cell names a soldier ('Pistolier 1'), by that name."""
    pattern = re.compile(rf"^({'|'.join(map(re.escape, names))}) \d+$")
    return {row[0]: row[1:] for row in rows if row and pattern.match(row[0])}


def expected(pieces: list[dict]) -> dict[str, int]:
    """Return the struck-out ammunition boxes of each soldier the rules give a side."""
    boxes = max(p["ammo"] for p in pieces)
    return {f"{p['name']} {k}": boxes - p["ammo"] for p in pieces for k in range(1, p["count"] + 1)}


@pytest.mark.parametrize("seed", [1, 3, 58])
def test_the_roster_has_a_row_for_each_soldier_the_rules_give_a_side(seed):
    pieces = find_rules("barricades").template_values()["pieces"]
    rows = soldier_rows(drawn_rows(seed), {p["name"] for p in pieces})
    assert {name: cells.count(STRUCK) for name, cells in rows.items()} == expected(pieces)
    # the damage table beside it has a row for each soldier too: its four boxes are the kill damage
    damage = find_rules("barricades").template_values()["kill_damage"]
    assert damage == 4


def test_the_roster_follows_the_piece_table_of_the_rules_module(monkeypatch):
    changed = tuple(
        dataclasses.replace(t, count=t.count + 1, ammo=t.ammo - 1) if t.name == "pistolier" else t
        for t in barricades.PIECE_TYPES
    )
    monkeypatch.setattr(barricades, "PIECE_TYPES", changed)
    pieces = find_rules("barricades").template_values()["pieces"]
    assert next(p for p in pieces if p["name"] == "Pistolier")["count"] == 5
    rows = soldier_rows(drawn_rows(), {p["name"] for p in pieces})
    assert {name: cells.count(STRUCK) for name, cells in rows.items()} == expected(pieces)
    assert "Pistolier 5" in rows and rows["Pistolier 5"].count(STRUCK) == 12 - 5


def test_a_roster_the_piece_table_does_not_fit_is_a_one_line_error(monkeypatch):
    changed = tuple(
        dataclasses.replace(t, ammo=13) if t.name == "machine-gunner" else t for t in barricades.PIECE_TYPES
    )
    monkeypatch.setattr(barricades, "PIECE_TYPES", changed)
    with pytest.raises(DefinitionError, match="needs 13 boxes, the roster has 12"):
        drawn_rows()


def test_a_roster_naming_no_list_of_the_rules_module_is_refused(tmp_path):
    layout = open(os.path.join(LAYOUTS_DIR, "barricades.toml"), encoding="utf-8").read()
    assert layout.count('roster = "pieces"') == 2
    folder = tmp_path / "layouts"
    folder.mkdir()
    shutil.copytree(os.path.join(os.path.dirname(LAYOUTS_DIR), "templates"), tmp_path / "templates")
    (folder / "barricades.toml").write_text(layout.replace('roster = "pieces"', 'roster = "soldiers"', 1))
    result = cli(
        "build", "barricades", "--seed", "3", "--layouts", str(folder), "--out", str(tmp_path / "out")
    )
    assert result.code != 0
    assert "has no list 'soldiers'" in result.one_line_error()
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))
