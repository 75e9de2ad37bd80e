"""The designs of the real world in examples/: a standard piecepack and a 52-card French-suited
deck, built through the CLI as a designer builds them. Each prints true to size with art on every
face (SVG drawings drawn as shapes, never embedded), a font of its own embedded with its licence
named in the manifest, icons inside text, and passes the layout check on A4 and Letter."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from generator.components.base import Options
from generator.definitions.loader import load_definition
from generator.kits.kit import layout_findings
from generator.kits.plan import kit_plan
from tests.conftest import ROOT, mm
from tests.foundation.test_cards import cut_rects
from tests.foundation.test_cli import pnp
from tests.pdf_reader import open_pdf

EXAMPLES = Path(ROOT) / "examples"
FONTS = {"french-deck": "DejaVuSerif-Bold", "piecepack": "DejaVuSansCondensed-Bold"}
SUITS = {"french-deck": ("#1a1a1a", "#c8102e"), "piecepack": ("#d4361c", "#1a1a1a", "#2a6e2a", "#1d4f91")}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("examples")
    kits = {}
    for name in FONTS:
        result = pnp("build", name, "--layouts", str(EXAMPLES / name), "--out", str(out), "-q")
        assert result.returncode == 0, result.stderr
        kits[name] = out / name
    return kits


@pytest.mark.parametrize("name", sorted(FONTS))
def test_the_example_embeds_its_own_font_and_names_its_licence(built, name):
    manifest = json.loads((built[name] / "manifest.json").read_text())
    [font] = manifest["fonts"]
    assert font["file"].startswith("fonts/") and font["licence"] == "fonts/LICENCE.txt"
    assert (EXAMPLES / name / font["licence"]).read_text().startswith("DejaVu")
    pdf = (built[name] / "kit.pdf").read_bytes()
    assert f"+{FONTS[name]}".encode() in pdf  # a subset (a tag before the name), not the whole file
    assert len(pdf) < os.path.getsize(EXAMPLES / name / font["file"])


@pytest.mark.parametrize("name", sorted(FONTS))
def test_every_picture_is_drawn_as_shapes_in_the_suits_colours(built, name):
    doc = open_pdf(built[name] / "kit.pdf")
    assert sum(len(page.get_images()) for page in doc) == 0  # SVG art: paths, never a raster
    fills = set()
    for page in doc:
        for path in page.get_drawings():
            if path.get("fill"):
                fills.add("#" + "".join(f"{round(c * 255):02x}" for c in path["fill"]))
    assert set(SUITS[name]) <= fills
    for svg in built[name].glob("*.svg"):
        assert "<image" not in svg.read_text()


def test_the_deck_is_52_cards_and_two_jokers_at_poker_size(built):
    doc = open_pdf(built["french-deck"] / "kit.pdf")
    fronts = [page for page in doc if "cut along the grey lines" in page.get_text()]
    rects = [r for page in fronts for r in cut_rects(page)]
    assert len(rects) == 54
    assert {(round(w, 2), round(h, 2)) for _, _, w, h in rects} == {(63.0, 88.0)}
    text = " ".join(page.get_text() for page in fronts)
    for rank in ("A", "10", "J", "Q", "K", "Joker"):
        assert rank in text


def test_the_piecepack_tiles_are_two_inches_and_the_coins_three_quarters(built):
    doc = open_pdf(built["piecepack"] / "kit.pdf")
    squares = []
    coins = []
    for page in doc:
        squares.extend(r for r in cut_rects(page) if abs(r[2] - r[3]) < 0.01 and r[2] > 40)
        for path in page.get_drawings():
            if path.get("fill") and {i[0] for i in path["items"]} == {"c"}:
                width = mm(path["rect"].width)
                if abs(width - 19.05) < 0.1:
                    coins.append(path)
    # the tiles' cut squares: 24 fronts (their backs are printed behind them, uncut)
    assert len([r for r in squares if abs(r[2] - 50.8) < 0.01]) == 24
    assert len(coins) >= 48  # 24 coins, front and back


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("ink", [False, True])
@pytest.mark.parametrize("name", sorted(FONTS))
def test_every_page_of_the_example_passes_the_layout_check(name, paper, ink):
    definition = load_definition(str(EXAMPLES / name / f"{name}.toml"))
    findings = layout_findings(kit_plan(definition, paper=paper, options=Options(ink_saver=ink)))
    assert not findings, "\n".join(str(f) for f in findings[:20])
