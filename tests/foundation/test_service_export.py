"""``pnp build GAME --service tgc|mpc|drivethrucards``: files for a print-on-demand service in
service/<name>/. Read back as the service would take them: every PNG of the pixel size its product
asks for (the bleed included, the background running on to the file's edge) at 300 dpi in RGB,
DriveThruCards' deck as one CMYK PDF of 2.75 x 3.75 in pages, back then front for every copy, the
counts as each service counts a deck, and every file named in the manifests."""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from generator.definitions.loader import load_definition
from generator.kits.service import INCH, SERVICES, outside_safe
from generator.model.page import Drawing, Text
from tests.conftest import ROOT
from tests.foundation.test_cli import one_line_error, pnp
from tests.pdf_reader import open_pdf

FRENCH = Path(ROOT) / "examples" / "french-deck"
# the services' own figures for a poker card (docs/print-shop.md has their sources): the file's
# pixels at 300 dpi with the bleed, and the bleed in pixels
POKER = {"tgc": ((825, 1125), 37.5), "mpc": ((822, 1122), 36)}


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> dict[str, tuple[Path, Path, str]]:
    """Build the starter kit for The Game Crafter, the French deck for MakePlayingCards and
    DriveThruCards, and a built-in kit with counters for The Game Crafter and MakePlayingCards;
    return each build's kit folder, the folder it was built from and its stdout. (Five builds:
    the fixture's name, ``kits``, puts its tests in the slow tier, tests/conftest.py.)"""
    root = tmp_path_factory.mktemp("service")
    assert pnp("new", "lanterns", cwd=str(root)).returncode == 0
    builds = {
        "lanterns-tgc": (["lanterns", "--layouts", "layouts"], "tgc"),
        "french-mpc": (["french-deck", "--layouts", str(FRENCH)], "mpc"),
        "french-dtc": (["french-deck", "--layouts", str(FRENCH)], "drivethrucards"),
        "aggression-tgc": (["aggression"], "tgc"),
        "aggression-mpc": (["aggression"], "mpc"),
    }
    found = {}
    for name, (args, service) in builds.items():
        out = root / name
        result = pnp(
            "build", *args, "--service", service, "--format", "pdf", "--out", str(out), cwd=str(root)
        )
        assert result.returncode == 0, result.stderr
        [folder] = [p for p in out.iterdir() if p.is_dir()]
        found[name] = (folder, root, result.stdout)
    return found


def manifest(folder: Path, service: str) -> dict[str, Any]:
    return json.loads((folder / "service" / service / "manifest.json").read_text(encoding="utf-8"))


def csv_cards(path: Path) -> Counter[str]:
    with open(path, newline="", encoding="utf-8") as handle:
        return Counter({row["name"]: int(row["quantity"]) for row in csv.DictReader(handle)})


@pytest.mark.parametrize(
    ("build", "service"),
    [
        ("lanterns-tgc", "tgc"),
        ("french-mpc", "mpc"),
        ("french-dtc", "drivethrucards"),
        ("aggression-tgc", "tgc"),
        ("aggression-mpc", "mpc"),
    ],
)
def test_every_file_is_named_in_both_manifests_with_a_readme(kits, build, service):
    folder, _, _ = kits[build]
    target = folder / "service" / service
    listed = manifest(folder, service)
    on_disk = {str(p.relative_to(target)) for p in target.rglob("*") if p.is_file()}
    assert on_disk == {f["name"] for f in listed["files"]} | {"manifest.json", "README.txt"}
    kit_files = {f["name"] for f in json.loads((folder / "manifest.json").read_text())["files"]}
    assert {f"service/{service}/{name}" for name in on_disk} <= kit_files
    readme = (target / "README.txt").read_text(encoding="utf-8")
    for entry in listed["components"]:  # every product named with the part it holds
        assert entry["product"] in readme and entry["title"] in readme


@pytest.mark.parametrize(("build", "service"), [("lanterns-tgc", "tgc"), ("french-mpc", "mpc")])
def test_card_faces_are_pngs_of_the_services_poker_size_with_the_background_run_past_the_cut(
    kits, build, service
):
    folder, _, _ = kits[build]
    (size, bleed) = POKER[service]
    listed = manifest(folder, service)
    cards = [f for f in listed["files"] if f["product"].startswith("Poker")]
    assert cards
    for entry in cards:
        picture = Image.open(folder / "service" / service / entry["name"])
        assert picture.format == "PNG" and picture.mode == "RGB"
        assert picture.size == size, entry["name"]
        assert all(abs(d - 300) < 0.01 for d in picture.info["dpi"])
        # the colour at the middle of each edge of the file is the colour just inside the card's
        # cut there: the card's background runs on through the bleed (a white margin would
        # differ on a coloured band or back)
        w, h = picture.size
        inset = int(bleed) + 4
        edges = (
            ((w // 2, 1), (w // 2, inset)),
            ((w // 2, h - 2), (w // 2, h - 1 - inset)),
            ((1, h // 2), (inset, h // 2)),
            ((w - 2, h // 2), (w - 1 - inset, h // 2)),
        )
        for outside, inside in edges:
            assert picture.getpixel(outside) == picture.getpixel(inside), (entry["name"], outside)


def test_the_starters_coloured_band_reaches_the_files_edge(kits):
    folder, _, _ = kits["lanterns-tgc"]
    fronts = [
        p for p in (folder / "service" / "tgc" / "deck").glob("*-x*.png") if not p.stem.endswith("back")
    ]
    assert fronts
    for path in fronts:  # every card type's header band is a colour, and it runs on to the top edge
        picture = Image.open(path)
        edge, inside = picture.getpixel((412, 0)), picture.getpixel((412, 60))
        assert edge == inside != (255, 255, 255), (path.name, edge, inside)


@pytest.mark.parametrize(
    ("build", "service", "cards"),
    [
        ("lanterns-tgc", "tgc", "layouts/lanterns-cards.csv"),
        ("french-mpc", "mpc", str(FRENCH / "french-deck-cards.csv")),
    ],
)
def test_a_deck_is_one_file_per_different_face_with_its_copies_in_the_name(kits, build, service, cards):
    folder, root, _ = kits[build]
    wanted = csv_cards(root / cards if not Path(cards).is_absolute() else Path(cards))
    deck = folder / "service" / service / "deck"
    fronts = sorted(p.name for p in deck.glob("*.png") if not p.name.endswith("back.png"))
    counted: Counter[str] = Counter()
    for name in fronts:
        match = re.fullmatch(r"(\d{3})-(.+)-x(\d+)\.png", name)
        assert match, name
        counted[match.group(2)] += int(match.group(3))
    slug = {re.sub(r"[^a-z0-9]+", "-", card.lower()).strip("-"): n for card, n in wanted.items()}
    assert counted == Counter(slug)
    backs = sorted(p.name for p in deck.glob("*back.png"))
    # one back for a deck whose cards share it, else each face's own
    assert backs == ["back.png"] or backs == [f.replace(".png", "-back.png") for f in fronts]
    assert (backs == ["back.png"]) is (build == "french-mpc")


def test_drivethrucards_gets_one_cmyk_pdf_back_then_front_for_every_copy(kits):
    folder, _, _ = kits["french-dtc"]
    [entry] = manifest(folder, "drivethrucards")["files"]
    assert entry["name"] == "deck.pdf"
    copies = sum(csv_cards(FRENCH / "french-deck-cards.csv").values())
    pages = open_pdf(folder / "service" / "drivethrucards" / "deck.pdf")
    assert len(pages) == 2 * copies == entry["pages"]
    import pypdf

    reader = pypdf.PdfReader(folder / "service" / "drivethrucards" / "deck.pdf")
    for page in reader.pages:
        box = [float(v) for v in page.mediabox]
        assert box == pytest.approx([0, 0, 2.75 * 72, 3.75 * 72], abs=0.01)  # 2.5 x 3.5 in + 1/8 in
        trim = [float(v) for v in page.trimbox]
        assert trim == pytest.approx([9, 9, 2.75 * 72 - 9, 3.75 * 72 - 9], abs=0.01)
        assert [float(v) for v in page.bleedbox] == pytest.approx(box, abs=0.01)
        content = page.get_contents().get_data()
        assert not re.search(rb"(^|\s)(rg|RG|g|G)\s", content)  # CMYK only
        assert re.search(rb"\sk\s", content)
    # back then front: the French deck shares one back, so every odd page is the same
    texts = [p.get_text() for p in pages]
    assert len(set(texts[0::2])) == 1


def test_counters_go_on_chits_of_their_shape_one_file_per_type_with_its_count(kits):
    folder, _, _ = kits["aggression-tgc"]
    definition = load_definition(str(Path(ROOT) / "layouts" / "aggression.toml"))
    spec = next(c for c in definition.components if c.kind == "counters")
    wanted = {c["name"]: (c["count"], c["shape"]) for c in spec["counters"]}
    listed = manifest(folder, "tgc")
    cut = {"square": "Square", "rounded": "Square", "circle": "Circle", "hexagon": "Hex", "hex": "Hex"}
    seen: Counter[str] = Counter()
    for entry in listed["files"]:
        if not entry["name"].startswith(spec.id) or entry["side"] != "front":
            continue
        match = re.fullmatch(r".+/\d{3}-(.+)-x(\d+)\.png", entry["name"])
        assert match, entry["name"]
        name = next(n for n in wanted if re.sub(r"[^a-z0-9]+", "-", n.lower()).strip("-") == match.group(1))
        seen[name] += int(match.group(2))
        assert cut[wanted[name][1]] in entry["product"], (name, entry["product"])
        picture = Image.open(folder / "service" / "tgc" / entry["name"])
        assert picture.size == tuple(entry["pixels"]) and picture.mode == "RGB"
    assert seen == {n: count for n, (count, _) in wanted.items()}


def test_a_part_the_service_does_not_offer_is_left_out_with_one_warning_line(kits):
    folder, _, stdout = kits["aggression-mpc"]
    listed = manifest(folder, "mpc")
    assert listed["left_out"]  # MakePlayingCards prints no boards and no counters here
    warnings = [line for line in stdout.splitlines() if line.startswith("warning: aggression:")]
    assert len(warnings) == 1 and "service/mpc/README.txt" in warnings[0]
    readme = (folder / "service" / "mpc" / "README.txt").read_text(encoding="utf-8")
    for what in listed["left_out"]:
        assert what in readme and what in warnings[0]
    assert not [f for f in listed["files"] if f["name"].endswith(".png")]  # no cards in this kit


def test_a_card_larger_than_any_the_service_prints_is_one_line_and_writes_nothing(tmp_path):
    assert pnp("new", "lanterns", cwd=str(tmp_path)).returncode == 0
    layout = tmp_path / "layouts" / "lanterns.toml"
    text = layout.read_text(encoding="utf-8")
    assert 'size = "poker"' in text
    layout.write_text(text.replace('size = "poker"', 'size = "100mm x 150mm"', 1), encoding="utf-8")
    result = pnp(
        "build", "lanterns", "--layouts", "layouts", "--service", "tgc", "--out", "out", cwd=str(tmp_path)
    )
    assert result.returncode == 2
    message = one_line_error(result)
    assert "100 x 150 mm" in message and "The Game Crafter" in message
    assert not (tmp_path / "out").exists()


def test_an_unknown_service_is_one_line_and_writes_nothing(tmp_path):
    result = pnp("build", "aggression", "--service", "printshop", "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "unknown service" in one_line_error(result)
    assert not (tmp_path / "out").exists()


def test_standees_go_on_the_game_crafters_standees_front_and_back_panel_each(kits):
    folder, root, _ = kits["lanterns-tgc"]
    definition = load_definition(str(root / "layouts" / "lanterns.toml"))
    spec = next(c for c in definition.components if c.kind == "standees")
    listed = manifest(folder, "tgc")
    entries = [f for f in listed["files"] if f["name"].startswith(f"{spec.id}/")]
    fronts = [f for f in entries if f["side"] == "front"]
    assert sum(f["count"] for f in fronts) == sum(f["count"] for f in spec["figures"])
    assert len([f for f in entries if f["side"] == "back"]) == len(fronts)  # each figure's own back
    for entry in entries:
        assert "Standee" in entry["product"]
        picture = Image.open(folder / "service" / "tgc" / entry["name"])
        assert picture.size == tuple(entry["pixels"]) and picture.mode == "RGB"
        assert picture.height > 2 * picture.width  # a standing panel, not the flat fold-over strip


@pytest.mark.slow
def test_every_builtin_kit_writes_files_of_its_products_sizes(tmp_path):
    result = pnp("build", "--all", "--service", "tgc", "--format", "pdf", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    kits = [p for p in tmp_path.iterdir() if (p / "manifest.json").is_file()]
    assert len(kits) == 8
    for folder in kits:
        listed = manifest(folder, "tgc")
        for entry in listed["files"]:
            picture = Image.open(folder / "service" / "tgc" / entry["name"])
            assert picture.size == tuple(entry["pixels"]) and picture.mode == "RGB", entry["name"]
        game = folder.name.split("-seed")[0]
        warned = [line for line in result.stdout.splitlines() if line.startswith(f"warning: {game}:")]
        left_out = [line for line in warned if "has no product for" in line]
        unsafe = [line for line in warned if "outside the safe area" in line]
        assert len(left_out) == (1 if listed["left_out"] else 0)
        assert len(unsafe) == (1 if listed["outside_safe"] else 0)
        assert len(warned) == len(left_out) + len(unsafe)


def test_the_same_command_writes_the_same_bytes(kits, tmp_path):
    folder, root, _ = kits["lanterns-tgc"]
    result = pnp(
        "build", "lanterns", "--layouts", "layouts", "--service", "tgc", "--format", "pdf",
        "--out", str(tmp_path), "-q", cwd=str(root),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    target = folder / "service" / "tgc"
    for path in target.rglob("*"):
        if path.is_file():
            again = tmp_path / "lanterns" / "service" / "tgc" / path.relative_to(target)
            assert again.read_bytes() == path.read_bytes(), path.name


@pytest.mark.slow  # a whole kit built
def test_a_landscape_card_goes_on_the_portrait_card_turned_a_quarter_clockwise(tmp_path):
    assert pnp("new", "lanterns", cwd=str(tmp_path)).returncode == 0
    layout = tmp_path / "layouts" / "lanterns.toml"
    text = layout.read_text(encoding="utf-8")
    for old, new in (
        ('size = "poker"', 'size = "88mm x 63mm"'),  # the deck's fields moved up to fit it
        ('y = "47mm"\nh = "29mm"', 'y = "44mm"\nh = "12mm"'),
        ('y = "78.5mm"', 'y = "57mm"'),
    ):
        assert old in text
        text = text.replace(old, new, 1)
    layout.write_text(text, encoding="utf-8")
    result = pnp(
        "build", "lanterns", "--layouts", "layouts", "--service", "mpc", "--format", "pdf",
        "--out", "out", "-q", cwd=str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    deck = tmp_path / "out" / "lanterns" / "service" / "mpc" / "deck"
    fronts = [p for p in deck.glob("*-x*.png") if not p.stem.endswith("back")]
    assert fronts
    for path in fronts:
        picture = Image.open(path)
        assert picture.size == (822, 1122)  # MakePlayingCards' poker card, upright
        w, h = picture.size
        # the card's coloured header band (its top) runs along the right edge, its white foot
        # along the left
        assert picture.getpixel((w - 2, h // 2)) != (255, 255, 255)
        assert picture.getpixel((1, h // 2)) == (255, 255, 255)


@pytest.mark.slow  # a whole kit built
def test_a_colour_over_drivethrucards_ink_limit_is_named_in_the_readme(tmp_path):
    from generator.model.colour import cmyk

    heavy = "#800000"  # a dark red: K 50 %, M and Y 100 % under the plain conversion
    assert sum(cmyk(heavy)) > 2.4
    assert pnp("new", "lanterns", cwd=str(tmp_path)).returncode == 0
    layout = tmp_path / "layouts" / "lanterns.toml"
    text = layout.read_text(encoding="utf-8")
    assert 'gold = "#e69f00"' in text
    layout.write_text(text.replace('gold = "#e69f00"', f'gold = "{heavy}"', 1), encoding="utf-8")
    result = pnp(
        "build", "lanterns", "--layouts", "layouts", "--service", "drivethrucards", "--format", "pdf",
        "--out", "out", "-q", cwd=str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "out" / "lanterns"
    listed = manifest(folder, "drivethrucards")
    assert {"colour": heavy, "ink": round(100 * sum(cmyk(heavy)), 1)} in listed["over_ink"]
    assert all(entry["ink"] > 240 for entry in listed["over_ink"])
    readme = (folder / "service" / "drivethrucards" / "README.txt").read_text(encoding="utf-8")
    assert "240 %" in readme and heavy in readme


def edge_text(part: tuple[float, float], gap: float) -> Drawing:
    """Return a blank part of width x height mm with one line of text whose box starts ``gap``
    mm from its left edge, half way down."""
    width, height = part
    return Drawing(width, height, (Text(gap, height / 2, "Ed", 6.0),), "edge card")


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_text_inside_the_safe_area_passes_and_text_outside_it_is_found(service):
    for product in SERVICES[service].products:
        safe = product.safe * INCH
        for part in (product.trim_mm, (product.trim_mm[0] - 1.0, product.trim_mm[1] - 1.0)):
            margin = (product.trim_mm[0] - part[0]) / 2  # a part smaller than the trim is centred
            assert not outside_safe(edge_text(part, safe - margin + 0.3), product), product.name
            found = outside_safe(edge_text(part, safe - margin - 0.3), product)
            assert len(found) == 1 and "'Ed'" in found[0].shape, product.name


# one build in the fast tier, the other services' in the slow one
EDGE_CASES = ["tgc", *(pytest.param(key, marks=pytest.mark.slow) for key in sorted(SERVICES) if key != "tgc")]


@pytest.mark.parametrize("service", EDGE_CASES)
def test_a_card_whose_text_runs_to_its_edge_is_one_warning_line_naming_the_part(tmp_path, service):
    assert pnp("new", "lanterns", cwd=str(tmp_path)).returncode == 0
    layout = tmp_path / "layouts" / "lanterns.toml"
    text = layout.read_text(encoding="utf-8")
    name_field = 'text = "{name}"\nx = "5mm"'
    assert name_field in text
    layout.write_text(text.replace(name_field, 'text = "{name}"\nx = "0mm"', 1), encoding="utf-8")
    out = tmp_path / "out"
    result = pnp(
        "build", "lanterns", "--layouts", "layouts", "--service", service, "--format", "pdf",
        "--out", str(out), cwd=str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    [folder] = [p for p in out.iterdir() if p.is_dir()]
    listed = manifest(folder, service)
    [deck] = [e for e in listed["outside_safe"] if e["component"] == "deck"]
    cards = csv_cards(tmp_path / "layouts" / "lanterns-cards.csv")
    assert set(deck["faces"]) == set(cards)  # every card's name now runs to its edge
    assert deck["safe"] == SERVICES[service].product("card", 63.0, 88.0).safe
    warned = [line for line in result.stdout.splitlines() if "outside the safe area" in line]
    assert len(warned) == 1 and "Action cards" in warned[0] and f"service/{service}/README.txt" in warned[0]
    readme = (folder / "service" / service / "README.txt").read_text(encoding="utf-8")
    assert "outside the safe area" in readme and "Action cards (deck)" in readme


def test_a_card_that_keeps_its_text_inside_is_not_reported(kits):
    folder, _, stdout = kits["lanterns-tgc"]
    listed = manifest(folder, "tgc")
    assert "deck" not in [e["component"] for e in listed["outside_safe"]]
    assert not [
        line for line in stdout.splitlines() if "outside the safe area" in line and "Action cards" in line
    ]


def pips(picture: Image.Image) -> int:
    """Return the number of separate regions (pips) of a die side's picture that stand out from
    its background (the colour at its corner, where no pip lies)."""
    width, height = picture.size
    pixels = picture.load()
    ground = pixels[0, 0]
    dark = {
        (x, y)
        for y in range(height)
        for x in range(width)
        if sum(abs(a - b) for a, b in zip(pixels[x, y], ground)) > 150
    }
    blobs = 0
    while dark:
        blobs += 1
        stack = [dark.pop()]
        while stack:
            x, y = stack.pop()
            for step in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if step in dark:
                    dark.remove(step)
                    stack.append(step)
    return blobs


@pytest.mark.slow  # a whole kit's service files
def test_dice_go_on_the_game_crafters_custom_d6_one_png_per_side(tmp_path):
    from generator.components.specs import DiceNetsSpec
    from generator.definitions.loader import find_definition
    from generator.kits.service import TGC

    result = pnp("build", "push", "--service", "tgc", "--format", "pdf", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "no product for Dice" not in result.stdout
    [folder] = [p for p in tmp_path.iterdir() if p.is_dir()]
    listed = manifest(folder, "tgc")
    [die] = [p for p in TGC.products if p.kind == "die"]
    spec = next(c for c in find_definition("push").components if c.kind == "dice-nets")
    dice = spec.typed(DiceNetsSpec).dice
    entries = [f for f in listed["files"] if f["name"].startswith(f"{spec.id}/")]
    assert len(entries) == 6 * len(dice)
    for n, one in enumerate(dice, 1):
        stem = f"{spec.id}/{n:03d}-{re.sub(r'[^a-z0-9]+', '-', one.name.lower()).strip('-')}-x{one.count}"
        for side, face in enumerate(one.faces, 1):
            [entry] = [e for e in entries if e["name"] == f"{stem}-side{side}.png"]
            assert entry["product"] == die.name and entry["count"] == one.count
            picture = Image.open(folder / "service" / "tgc" / entry["name"])
            assert picture.size == die.pixels == (180, 180) and picture.mode == "RGB"
            assert round(picture.info["dpi"][0]) == 300
            if face.startswith("pips:"):  # the side shows its face: as many pips as it counts
                assert pips(picture) == int(face.split(":")[1]), (entry["name"], face)
    readme = (folder / "service" / "tgc" / "README.txt").read_text(encoding="utf-8")
    assert f"{die.name}, 0.6 x 0.6 in, 180 x 180 px a side" in readme


def standee_kits() -> dict[str, Any]:
    """Return by id every kit the suite checks that has standees (the built-in games, the starter
    kit) and the piecepack example."""
    from generator.definitions.loader import load_all
    from tests.conftest import kit_definitions

    found = {**kit_definitions(), **{d.id: d for d in load_all(str(Path(ROOT) / "examples" / "piecepack"))}}
    return {g: d for g, d in found.items() if any(c.kind == "standees" for c in d.components)}


@pytest.mark.parametrize("game", sorted(standee_kits()))
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_standee_faces_keep_their_printed_text_inside_the_services_safe_area(game, bleed):
    # a service's standee is its two panels in a plastic base: what the file prints of a face is
    # the panel, and every text and symbol of it keeps the product's safe area from its cut; the
    # base tabs and their labels are not on the face at all (before, a tab label hidden under the
    # panel's clip was reported 2.9 mm from The Game Crafter's cut)
    from generator.components.base import Options
    from generator.kits.kit import component_outputs, export_part
    from generator.kits.plan import kit_plan
    from generator.kits.service import Part, service_files
    from generator.model.page import bounds, iter_shapes

    definition = standee_kits()[game]
    kit = kit_plan(definition, options=Options(bleed=bleed))
    outputs = component_outputs(kit.definition, kit.context())
    standees = [(c, o) for c, o in outputs if definition.component(c).kind == "standees"]
    assert standees
    for service in [s for s in SERVICES.values() if s.largest("standee") is not None]:
        parts = []
        for component, output in standees:
            read = export_part(kit, component, output)
            parts.append((component, Part(read.kind, read.title, output, read.shapes, read.panel, read.die)))
            assert read.panel is not None
        files = dict(service_files(definition.id, definition.title, service, parts))
        listed = json.loads(files["manifest.json"])
        assert listed["outside_safe"] == [], (game, service.key, listed["outside_safe"])
        written = [f for f in listed["files"] if f["side"] in ("front", "back")]
        assert written and all("Standee" in f["product"] for f in written)
        for name in (f["name"] for f in written):
            picture = Image.open(__import__("io").BytesIO(files[name]))
            assert picture.height > 2 * picture.width  # a panel, not the flat strip
    # every text a panel face holds is on the panel (none lies hidden beyond its clip)
    from generator.kits.service import panel_faces

    for component, output in standees:
        panel = export_part(kit, component, output).panel
        assert panel is not None
        for item in output.items or ():
            for face in panel_faces(item.front, panel):
                for shape, m in iter_shapes(face.shapes):
                    if isinstance(shape, Text):
                        box = bounds((shape,), m)
                        assert box is not None
                        assert -0.01 <= box[1] and box[3] <= face.height + 0.01, (
                            game,
                            face.label,
                            shape.text,
                        )
