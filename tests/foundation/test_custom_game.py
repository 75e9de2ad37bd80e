"""A game defined by a definition and a rule text alone (no Python) builds a whole kit, with every
component kind; `pnp new` writes such a starter; batches of seeds build flat."""

from __future__ import annotations

import itertools
import json
import os

import pytest

from generator.components.kinds import KINDS
from generator.definitions.loader import load_definition
from tests.conftest import svg_root
from tests.foundation.test_cli import one_line_error, pnp
from tests.pdf_reader import open_pdf


@pytest.fixture(scope="module")
def custom_kit(tmp_path_factory) -> tuple[str, str]:
    root = tmp_path_factory.mktemp("custom")
    result = pnp("new", "lanterns", cwd=str(root))
    assert result.returncode == 0, result.stderr
    out = root / "out"
    result = pnp("build", "lanterns", "--layouts", "layouts", "--out", str(out), cwd=str(root))
    assert result.returncode == 0, result.stderr
    return str(root), str(out / "lanterns")


def test_pnp_new_writes_a_definition_and_a_rule_text(custom_kit):
    root, _ = custom_kit
    assert os.path.isfile(os.path.join(root, "layouts", "lanterns.toml"))
    assert os.path.isfile(os.path.join(root, "templates", "booklets", "lanterns.en.md.j2"))


def test_the_starter_uses_every_component_kind(custom_kit):
    root, _ = custom_kit
    definition = load_definition(os.path.join(root, "layouts", "lanterns.toml"))
    assert {c.kind for c in definition.components} == set(KINDS)


def test_the_starter_builds_a_whole_kit_in_pdf_and_svg(custom_kit):
    _, kit = custom_kit
    manifest = json.load(open(os.path.join(kit, "manifest.json")))
    names = {f["name"] for f in manifest["files"]}
    in_kit = {c["id"] for c in manifest["kit"]["components"]}
    for component in ("board", "map", "track", "pieces", "standees", "dice", "scoresheet", "booklet"):
        assert component in in_kit
        # kit.pdf is the one PDF to print (--parts adds one per part); the booklet keeps its
        # reading-order PDF, and on screens it is booklet.html, the rest of the kit SVG
        assert (f"{component}.pdf" in names) == (component == "booklet"), component
        screen = ".html" if component == "booklet" else ".svg"
        assert any(n.startswith(component) and n.endswith(screen) for n in names), component
    assert "kit.pdf" in names and not any("imposed" in n for n in names)
    for name in names:
        if name.endswith(".svg"):
            assert svg_root(os.path.join(kit, name)).get("width").endswith("mm")
    booklet = "".join(page.get_text() for page in open_pdf(os.path.join(kit, "booklet.pdf")))
    assert "Lanterns" in booklet and "Clarifications" in booklet


def test_pnp_new_refuses_to_overwrite(custom_kit):
    root, _ = custom_kit
    result = pnp("new", "lanterns", cwd=root)
    assert result.returncode == 2
    assert "already exists" in one_line_error(result)


def test_pnp_new_refuses_a_bad_name(tmp_path):
    result = pnp("new", "../escape", cwd=str(tmp_path))
    assert result.returncode == 2
    assert not any(tmp_path.iterdir())


def test_a_batch_of_seeds_builds_one_kit_each_seeds_board_and_one_pdf_of_maps(tmp_path):
    result = pnp("build", "aggression", "--seeds", "3-5", "--format", "pdf", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "aggression-seed3" / "kit.pdf").is_file()
    for seed in (4, 5):
        assert (tmp_path / f"aggression-seed{seed}" / "board.pdf").is_file()
        assert not (tmp_path / f"aggression-seed{seed}" / "kit.pdf").exists()
    maps = open_pdf(tmp_path / "aggression-seeds3-5.pdf")
    assert len(maps) == 3
    for seed, page in zip((3, 4, 5), maps):
        assert f"seed {seed}" in page.get_text()


def test_bad_seed_ranges_are_usage_errors(tmp_path):
    for bad in ("5-3", "x", "-4"):
        result = pnp("build", "aggression", "--seeds", bad, "--out", str(tmp_path))
        assert result.returncode == 2, bad
        one_line_error(result)


def test_pnp_new_writes_into_the_folder_given(tmp_path):
    result = pnp("new", "lanterns", "--dir", "kits/mine", cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "kits" / "mine" / "layouts" / "lanterns.toml").is_file()
    assert (tmp_path / "kits" / "mine" / "templates" / "booklets" / "lanterns.en.md.j2").is_file()
    assert "--layouts kits/mine/layouts" in result.stdout


def test_a_game_of_ones_own_builds_only_from_its_folder(custom_kit, tmp_path):
    root, _ = custom_kit
    result = pnp("build", "lanterns", "--out", str(tmp_path), cwd=root)
    assert result.returncode == 3
    assert "--layouts DIR" in one_line_error(result)
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("paper", "ink", "cell"), [("a4", False, None), ("letter", True, None), ("a4", False, 40.0)]
)
def test_every_page_of_the_starter_kit_passes_the_layout_check(custom_kit, paper, ink, cell):
    from generator.components.base import Options
    from generator.definitions.values import templates_for
    from generator.kits.kit import layout_findings
    from generator.kits.plan import kit_plan

    root, _ = custom_kit
    layouts = os.path.join(root, "layouts")
    definition = load_definition(os.path.join(layouts, "lanterns.toml"), templates_for(layouts))
    findings = layout_findings(
        kit_plan(definition, paper=paper, options=Options(ink_saver=ink, cell_size=cell))
    )
    assert not findings, "\n".join(map(str, findings[:20]))


def colour_of(drawing) -> str | None:
    """Return a drawn path's fill as #rrggbb (None: not filled)."""
    fill = drawing.get("fill")
    return None if fill is None else "#" + "".join(f"{round(c * 255):02x}" for c in fill)


def test_the_starter_shows_a_designers_art_keys(custom_kit):
    root, kit = custom_kit
    layouts = os.path.join(root, "layouts")
    definition = load_definition(os.path.join(layouts, "lanterns.toml"))
    deck = definition.component("deck")
    pieces = definition.component("pieces")
    drawing = "art/lanterns-compass.svg"
    assert deck["backs"]["move"]["image"] == drawing  # a picture on a card back
    assert os.path.isfile(os.path.join(layouts, drawing))
    assert [c["name"] for c in pieces["counters"] if c.get("image") == drawing] == ["Compass"]
    # counters from a spreadsheet, a template for the rows each `when` picks
    toml = open(os.path.join(layouts, "lanterns.toml"), encoding="utf-8").read()
    assert 'csv = "lanterns-pieces.csv"' in toml and toml.count("when = { side = ") == 3
    rows = open(os.path.join(layouts, "lanterns-pieces.csv"), encoding="utf-8").read().splitlines()[1:]
    assert [c["name"] for c in pieces["counters"]] == [row.split(",")[0] for row in rows]
    assert not definition.fonts  # no font of its own: none ships with a licence to copy
    pages = open_pdf(os.path.join(kit, "kit.pdf"))
    assert not any(page.get_images() for page in pages)  # the drawing is shapes, never a raster
    # the move cards' backs show the drawing: its blue and gold around the word MOVE
    backs = [p for p in pages if any(w[4] == "MOVE" for w in p.get_text("words"))]
    assert backs
    for page in backs:
        fills = {colour_of(d) for d in page.get_drawings()}
        assert {"#0072b2", "#e69f00", "#f6f1e4"} <= fills
    # the Sidestep card's text sets the moon in its line, after "into a" (then "lake." wraps)
    found = 0
    for page in pages:
        words = page.get_text("words")
        if not any(w[4] == "Sidestep" for w in words):
            continue  # the print guide's prose says "into a" too
        for into, a in itertools.pairwise(words):
            if (into[4], a[4]) != ("into", "a") or abs(into[3] - a[3]) > 0.5:
                continue
            em = a[3] - a[1]
            moons = [
                d
                for d in page.get_drawings()
                if colour_of(d) is not None
                and a[2] < d["rect"].x0 < a[2] + em
                and d["rect"].y0 < a[3]
                and d["rect"].y1 > a[1]
                and d["rect"].width < em
            ]
            assert moons, "no icon after 'into a'"
            found += 1
    assert found == 3  # three Sidestep cards
