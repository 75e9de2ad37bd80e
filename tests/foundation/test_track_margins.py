"""A track's box numbers keep a margin from their box's edges and from the arrows on them: 1 mm
of clear paper between a number's ink and any line or arrowhead, over every box of every track
of every kit (the built-in games and the starter), on A4 and Letter at several box sizes, and
over tracks drawn to stress it (numbers of one to three digits, wide letters, a number size too
large for the box, boxes from 12 to 35 mm, lanes that turn by spanning and plainly)."""

from __future__ import annotations

import itertools

import pytest

from generator.components.base import Options
from generator.definitions.loader import load_definition
from generator.definitions.values import templates_for
from generator.foundation.errors import UsageError
from generator.kits.kit import component_outputs
from generator.kits.plan import kit_plan
from generator.printing.layout_check import check_clearance
from tests.conftest import kit_definitions

MARGIN = 1.0  # mm of clear paper round a box number
LARGE = 9.0  # pt: the box numbers and the start and finish labels (step numbers are 8 pt or less)
GAMES = {game: d for game, d in kit_definitions().items() if any(c.kind == "track" for c in d.components)}


def track_findings(definition, paper: str, cell: float | None) -> list:
    """Return the clearance findings on every page of a definition's tracks, built on ``paper``
    with boxes of ``cell`` mm (None: the track's own size); a cell size the kit refuses (too
    small for its counters) gives none."""
    try:
        kit = kit_plan(definition, paper=paper, options=Options(cell_size=cell))
    except UsageError:
        return []
    tracks = {c.id for c in definition.components if c.kind == "track"}
    findings = []
    for _, output in component_outputs(kit.definition, kit.context()):
        if output.name in tracks:
            for number, page in enumerate(output.pages, 1):
                findings += check_clearance(
                    page, MARGIN, LARGE, f"{definition.id}/{output.name} page {number}"
                )
    return findings


def test_there_are_tracks_to_check():
    assert GAMES  # Centennial's strip, the starter's score track


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_box_number_of_every_kit_keeps_its_margin(game, paper):
    findings = []
    for cell in (None, 16.0, 25.0, 40.0):
        findings += track_findings(GAMES[game], paper, cell)
    assert not findings, "\n".join(map(str, findings[:20]))


LABELS = {
    "digits": [str(i) for i in range(1, 10)],
    "two": [str(i) for i in range(1, 25)],
    "three": [str(i) for i in range(95, 106)],
    "wide": ["W", "M", "10", "WW"],
}


def test_stressed_box_numbers_keep_their_margin(tmp_path):
    tables = []
    cases = itertools.product(LABELS.values(), ("12mm", "20mm", "35mm"), (None, 200), ("span", "plain"))
    for n, (labels, box, size, turn) in enumerate(cases):
        path = ", ".join(f'"{label}"' for label in labels)
        tables.append(
            f'[components.t{n}]\nkind = "track"\npath = [{path}]\nlane_length = 4\nturn = "{turn}"\n'
            f'box = "{box}"\nstart_label = "START"\nfinish_label = "HOME"\n'
            + (f"number_size = {size}\n" if size else "")
        )
    path = tmp_path / "tracks.toml"
    path.write_text('[game]\nid = "tracks"\ntitle = "Tracks"\nplayers = "2"\n\n' + "\n".join(tables))
    definition = load_definition(str(path), templates_for(str(tmp_path)))
    findings = track_findings(definition, "a4", None)
    assert not findings, "\n".join(map(str, findings[:20]))
