"""``pnp build GAME --export tts``: the kit as a Tabletop Simulator saved object, tts/<game>.json,
its images beside it. Read back as Tabletop Simulator reads it: every deck's sheets within 10 x 7
faces and 4096 pixels a side, in RGB (a figurine's cut-out in RGBA), the grid its NumWidth and NumHeight say, every CardID a
slot of a sheet its deck names, one card per copy named after the card, every image it names
present under the name (or the hosting address) it is given."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from generator.definitions.loader import load_definition
from generator.definitions.values import BUILTIN_GAMES
from tests.conftest import ROOT
from tests.foundation.test_cli import one_line_error, pnp
from tests.pdf_reader import open_pdf

URL = "https://example.org/kits/aggression/"
FRENCH = Path(ROOT) / "examples" / "french-deck"


class _Exports(dict[str, tuple[Path, str]]):
    """The kits of ``exports`` by name, each built on first use (a test reads only the kits it
    names, so the fast tier builds no more of them than its tests read)."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root

    def __missing__(self, name: str) -> tuple[Path, str]:
        args, prefix = EXPORTS[name]
        out = self.root / "out"
        result = pnp(
            "build", *args, "--export", "tts", "--format", "pdf", "--out", str(out), "-q", cwd=str(self.root)
        )
        assert result.returncode == 0, result.stderr
        folder = next(p for p in out.iterdir() if p.name.startswith(name))
        self[name] = (folder, prefix)
        return self[name]


EXPORTS = {
    "lanterns": (["lanterns", "--layouts", "layouts"], ""),
    "french-deck": (["french-deck", "--layouts", str(FRENCH)], ""),
    "aggression": (["aggression", "--tts-url", URL], URL),
}


@pytest.fixture(scope="module")
def exports(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    """Return by name the starter kit, the French deck example and a seeded built-in kit built with
    --export tts (each on first use): each kit's folder and the prefix its images are named with."""
    root = tmp_path_factory.mktemp("tts")
    assert pnp("new", "lanterns", cwd=str(root)).returncode == 0
    return _Exports(root)


def saved(folder: Path, game: str) -> dict[str, Any]:
    return json.loads((folder / "tts" / f"{game}.json").read_text(encoding="utf-8"))


def references(value: Any) -> list[str]:
    """Return every image the saved object names (faces, backs, images), in the order met."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if (key.endswith("URL") or key == "PDFUrl") and isinstance(item, str):
                if item:
                    found.append(item)
            else:
                found.extend(references(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(references(item))
    return found


def image(folder: Path, prefix: str, reference: str) -> Image.Image:
    assert reference.startswith(prefix), reference
    name = reference[len(prefix) :]
    assert "/" not in name and "\\" not in name and name.endswith(".png"), reference
    path = folder / "tts" / name
    assert path.is_file(), reference
    return Image.open(path)


def decks(save: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for o in save["ObjectStates"] if o["Name"] in ("Deck", "DeckCustom")]


# the French deck example (52 cards and their pictures) in the slow tier only
FRENCH_SLOW = pytest.param("french-deck", marks=pytest.mark.slow)


@pytest.mark.parametrize("game", ["lanterns", FRENCH_SLOW, "aggression"])
def test_every_image_it_names_is_beside_it_as_rgb_within_4096_pixels(exports, game):
    folder, prefix = exports[game]
    check_export(folder, game, prefix)


@pytest.mark.slow
def test_every_builtin_kit_exports_an_object_whose_every_file_checks_out(tmp_path):
    result = pnp("build", "--all", "--export", "tts", "--format", "pdf", "--out", str(tmp_path), "-q")
    assert result.returncode == 0, result.stderr
    for game in BUILTIN_GAMES:
        [folder] = [p for p in tmp_path.iterdir() if p.name == game or p.name.startswith(f"{game}-seed")]
        check_export(folder, game, "")


def check_export(folder: Path, game: str, prefix: str) -> None:
    """Check that the kit's saved object names only files beside it (under the prefix), every
    image an RGB PNG within 4096 pixels a side, every file of tts/ named and in the manifest,
    and no GUID twice."""
    save = saved(folder, game)
    named = references(save)
    assert named
    figurines = {
        o["CustomImage"][key]
        for o in save["ObjectStates"]
        if o["Name"] == "Figurine_Custom"
        for key in ("ImageURL", "ImageSecondaryURL")
    }
    for reference in named:
        if reference.endswith(".pdf"):
            continue
        picture = image(folder, prefix, reference)
        assert picture.format == "PNG"
        assert picture.mode == ("RGBA" if reference in figurines else "RGB"), reference
        assert max(picture.size) <= 4096
    # nothing in tts/ that the object does not name
    files = {p.name for p in (folder / "tts").iterdir()}
    assert files == {r[len(prefix) :] for r in named} | {f"{game}.json"}
    manifest = json.loads((folder / "manifest.json").read_text())
    listed = {f["name"] for f in manifest["files"]}
    assert {f"tts/{name}" for name in files} <= listed
    guids = [o["GUID"] for o in save["ObjectStates"]] + [
        c["GUID"] for d in decks(save) for c in d["ContainedObjects"]
    ]
    assert len(set(guids)) == len(guids)


@pytest.mark.parametrize("game", ["lanterns", "aggression"])
def test_the_rule_booklet_is_a_custom_pdf_of_its_pages_in_reading_order(exports, game):
    folder, prefix = exports[game]
    [book] = [o for o in saved(folder, game)["ObjectStates"] if o["Name"] == "Custom_PDF"]
    url = book["CustomPDF"]["PDFUrl"]
    assert url.startswith(prefix) and url.endswith(".pdf")
    exported = open_pdf(folder / "tts" / url[len(prefix) :])
    reading = open_pdf(folder / "booklet.pdf")  # the kit's reading-order booklet
    assert len(exported) == len(reading)
    assert [p.get_text() for p in exported] == [p.get_text() for p in reading]


def csv_cards(path: Path) -> Counter[str]:
    with open(path, newline="", encoding="utf-8") as handle:
        return Counter({row["name"]: int(row["quantity"]) for row in csv.DictReader(handle)})


@pytest.mark.parametrize(
    ("game", "cards", "unique"),
    [
        ("lanterns", "layouts/lanterns-cards.csv", True),  # two types, two backs
        pytest.param(  # one back for every card
            "french-deck", str(FRENCH / "french-deck-cards.csv"), False, marks=pytest.mark.slow
        ),
    ],
)
def test_a_deck_has_one_card_per_copy_on_sheets_of_at_most_10_by_7(exports, game, cards, unique):
    folder, prefix = exports[game]
    save = saved(folder, game)
    [deck] = decks(save)
    wanted = csv_cards(folder.parent.parent / cards if not Path(cards).is_absolute() else Path(cards))
    contained = deck["ContainedObjects"]
    assert Counter(c["Nickname"] for c in contained) == wanted
    assert all(c["Name"] == "Card" for c in contained)
    assert deck["DeckIDs"] == [c["CardID"] for c in contained]
    assert len(set(deck["DeckIDs"])) == len(contained)
    for card in contained:
        sheet, index = divmod(card["CardID"], 100)
        entry = deck["CustomDeck"][str(sheet)]
        assert card["CustomDeck"] == {str(sheet): entry}
        slots = entry["NumWidth"] * entry["NumHeight"]
        # the last slot is the hidden card's unless the back is what is hidden
        assert index < (slots if entry["BackIsHidden"] else slots - 1)
    for sheet, entry in deck["CustomDeck"].items():
        assert 1 <= entry["NumWidth"] <= 10 and 1 <= entry["NumHeight"] <= 7
        assert entry["UniqueBack"] is unique
        faces = image(folder, prefix, entry["FaceURL"])
        columns, rows = entry["NumWidth"], entry["NumHeight"]
        assert faces.width % columns == 0 and faces.height % rows == 0
        cell = (faces.width // columns, faces.height // rows)
        back = image(folder, prefix, entry["BackURL"])
        if unique:
            assert back.size == faces.size
        else:
            assert abs(back.width / back.height - cell[0] / cell[1]) < 0.01
        used = {c["CardID"] % 100 for c in contained if c["CardID"] // 100 == int(sheet)}
        for slot in range(columns * rows):
            x, y = (slot % columns) * cell[0], (slot // columns) * cell[1]
            box = faces.crop((x, y, x + cell[0], y + cell[1])).convert("L")
            blank = box.getextrema() == (255, 255)
            assert blank == (slot not in used), (sheet, slot)


def test_a_deck_of_more_than_70_cards_goes_on_more_sheets_without_an_empty_row(tmp_path):
    assert pnp("new", "lanterns", cwd=str(tmp_path)).returncode == 0
    table = tmp_path / "layouts" / "lanterns-cards.csv"
    rows = list(csv.DictReader(table.open(newline="", encoding="utf-8")))
    rows[0]["quantity"] = "75"  # 75 + 3 + 2 + 1 + 2 cards: two sheets
    with table.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    result = pnp(
        "build", "lanterns", "--layouts", "layouts", "--export", "tts", "--format", "pdf",
        "--out", "out", "-q", cwd=str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    [deck] = decks(saved(tmp_path / "out" / "lanterns", "lanterns"))
    total = sum(int(row["quantity"]) for row in rows)
    assert len(deck["ContainedObjects"]) == total
    per_sheet = Counter(card_id // 100 for card_id in deck["DeckIDs"])
    assert sorted(per_sheet) == [1, 2] and sum(per_sheet.values()) == total
    for sheet, count in per_sheet.items():
        entry = deck["CustomDeck"][str(sheet)]
        columns, rows_down = entry["NumWidth"], entry["NumHeight"]
        assert count <= columns * rows_down
        assert (rows_down - 1) * columns < count or rows_down == 2  # no empty row beyond the least
    assert per_sheet[1] == 70  # the first sheet full: 10 x 7, the back hidden


def test_the_seeded_kit_holds_its_seeds_board_under_the_hosting_address(exports, tmp_path):
    folder, prefix = exports["aggression"]
    save = saved(folder, "aggression")
    boards = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Board"]
    assert boards and all(b["CustomImage"]["ImageURL"].startswith(URL) for b in boards)
    tiles = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Tile"]
    assert tiles and all(t["CustomImage"]["ImageURL"].startswith(URL) for t in tiles)
    seed = json.loads((folder / "manifest.json").read_text())["seed"]
    other = seed + 1
    result = pnp(
        "build",
        "aggression",
        "--seed",
        str(other),
        "--export",
        "tts",
        "--format",
        "pdf",
        "--out",
        str(tmp_path),
        "-q",
    )
    assert result.returncode == 0, result.stderr
    name = boards[0]["CustomImage"]["ImageURL"][len(prefix) :]
    mine = (folder / "tts" / name).read_bytes()
    theirs = (tmp_path / f"aggression-seed{other}" / "tts" / name).read_bytes()
    assert mine != theirs  # the board drawn from the kit's seed
    again = saved(tmp_path / f"aggression-seed{other}", "aggression")
    assert references(again)[0] == name  # relative names without --tts-url


def test_counters_are_tiles_one_per_copy_with_their_printed_backs(exports):
    folder, _ = exports["lanterns"]
    tiles = [o for o in saved(folder, "lanterns")["ObjectStates"] if o["Name"] == "Custom_Tile"]
    definition = load_definition(str(folder.parent.parent / "layouts" / "lanterns.toml"))
    table = next(c for c in definition.components if c.kind == "counters")["counters"]
    assert Counter(t["Nickname"] for t in tiles) == {c["name"]: c["count"] for c in table}
    shapes = {c["name"]: c["shape"] for c in table}
    for tile in tiles:  # Tabletop Simulator's tile types: 0 box, 1 hex, 2 circle, 3 rounded
        wanted = {"square": 0, "hex": 1, "hexagon": 1, "circle": 2, "rounded": 3}[shapes[tile["Nickname"]]]
        assert tile["CustomImage"]["CustomTile"]["Type"] == wanted
    backed = {c["name"] for c in table if c.get("back")}
    assert backed  # the starter prints backs on some counters and none on others
    for tile in tiles:  # a counter without a back shows its front on both sides
        assert bool(tile["CustomImage"]["ImageSecondaryURL"]) == (tile["Nickname"] in backed)


def test_standees_are_figurines_one_per_standee_with_their_two_panels(exports):
    folder, prefix = exports["lanterns"]
    figures = [o for o in saved(folder, "lanterns")["ObjectStates"] if o["Name"] == "Figurine_Custom"]
    definition = load_definition(str(folder.parent.parent / "layouts" / "lanterns.toml"))
    spec = next(c for c in definition.components if c.kind == "standees")
    assert Counter(f["Nickname"] for f in figures) == {f["name"]: f["count"] for f in spec["figures"]}
    for figure in figures:
        front = image(folder, prefix, figure["CustomImage"]["ImageURL"])
        back = image(folder, prefix, figure["CustomImage"]["ImageSecondaryURL"])
        assert front.size == back.size
        for panel in (front, back):  # each panel drawn, none blank
            assert panel.convert("L").getextrema()[0] < 128
        # a panel, not the flat standee: as wide as the figure and as tall as its panel
        assert abs(front.width / front.height - spec["width"] / spec["height"]) < 0.02


def test_the_same_command_writes_the_same_bytes(exports, tmp_path):
    folder, _ = exports["lanterns"]
    root = folder.parent.parent
    result = pnp(
        "build", "lanterns", "--layouts", "layouts", "--export", "tts", "--format", "pdf",
        "--out", str(tmp_path), "-q", cwd=str(root),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    for path in (folder / "tts").iterdir():
        assert (tmp_path / "lanterns" / "tts" / path.name).read_bytes() == path.read_bytes(), path.name


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--export", "vassal"], "unknown export"),
        (["--tts-url", URL], "--tts-url applies to --export tts"),
        (["--export", "tts", "--tts-url", "ftp://example.org/"], "http(s) address"),
    ],
)
def test_a_bad_export_option_is_one_line_and_writes_nothing(tmp_path, args, message):
    result = pnp("build", "aggression", *args, "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert message in one_line_error(result)
    assert not (tmp_path / "out").exists()


def test_dice_are_custom_d6_one_per_net_their_faces_on_the_3_by_3_grid(exports):
    folder, prefix = exports["lanterns"]
    save = saved(folder, "lanterns")
    dice = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Dice"]
    definition = load_definition(str(folder.parent.parent / "layouts" / "lanterns.toml"))
    spec = next(c for c in definition.components if c.kind == "dice-nets")
    assert Counter(d["Nickname"] for d in dice) == {die["name"]: die["count"] for die in spec["dice"]}
    faces = {die["name"]: die["faces"] for die in spec["dice"]}
    for die in dice:
        assert die["CustomImage"]["CustomDice"] == {"Type": 1}  # a six-sided die
        values = [r["Value"] for r in die["RotationValues"]]
        assert values == [f.split(":", 1)[-1] for f in faces[die["Nickname"]]]
        rotations = [tuple(r["Rotation"].values()) for r in die["RotationValues"]]
        assert len(set(rotations)) == 6
        picture = image(folder, prefix, die["CustomImage"]["ImageURL"])
        assert picture.mode == "RGB" and picture.width == picture.height
        cell = picture.width // 3
        for col in range(3):
            for row in range(3):
                box = picture.crop(
                    (col * cell + 3, row * cell + 3, (col + 1) * cell - 3, (row + 1) * cell - 3)
                )
                darkest = box.convert("L").getextrema()[0]
                # the top row is the template's empty row; the other six cells are faces, each
                # drawn (pips, a symbol or text on the die's colour)
                assert (darkest == 255) is (row == 0), (col, row)


@pytest.mark.parametrize("game", ["lanterns", "aggression"])
def test_the_parts_lie_apart_on_the_table_copies_of_a_piece_stacked(exports, game):
    folder, _ = exports[game]
    objects = saved(folder, game)["ObjectStates"]
    spots: dict[tuple[float, float], set[tuple[str, str]]] = {}
    heights: dict[tuple[float, float], list[float]] = {}
    for o in objects:
        t = o["Transform"]
        at = (t["posX"], t["posZ"])
        image_of = o.get("CustomImage", {}).get("ImageURL", "")
        group = (o["Name"], image_of if o["Name"] == "Custom_Tile" else o["GUID"])
        spots.setdefault(at, set()).add(group)
        heights.setdefault(at, []).append(t["posY"])
        assert abs(t["posX"]) < 60 and abs(t["posZ"]) < 200
    # one spot per object, but the copies of one counter (the same images) share a stack
    assert all(len(groups) == 1 for groups in spots.values()), spots
    for stack in heights.values():
        assert sorted(stack) == stack and len(set(stack)) == len(stack)  # one above the other
    tiles = [o for o in objects if o["Name"] == "Custom_Tile"]
    kinds = {o["CustomImage"]["ImageURL"] for o in tiles}
    assert len({(o["Transform"]["posX"], o["Transform"]["posZ"]) for o in tiles}) == len(kinds) > 1


def test_a_figurine_is_transparent_wherever_its_standee_paints_nothing():
    from generator.components.base import Output
    from generator.kits.tts import Part, tts_files
    from generator.model.page import Circle, Drawing, Style
    from generator.printing.imposition import SheetItem

    width, height, tab = 20.0, 30.0, 8.0
    paint = Style(stroke=None, fill="#c03020")
    # a flat standee: tab, back (upside down), front, tab; each panel paints a disc only
    flat = Drawing(
        width,
        2 * (tab + height),
        (Circle(width / 2, tab + height / 2, 8.0, paint), Circle(width / 2, tab + 1.5 * height, 8.0, paint)),
        "ghost",
    )
    part = Part("standees", "Figures", Output("figures", (), items=(SheetItem(flat),)), panel=(height, tab))
    files = dict(tts_files("g", "G", [part]))
    saved_object = json.loads(files["g.json"])
    [figure] = [o for o in saved_object["ObjectStates"] if o["Name"] == "Figurine_Custom"]
    from io import BytesIO

    for key in ("ImageURL", "ImageSecondaryURL"):
        picture = Image.open(BytesIO(files[figure["CustomImage"][key]]))
        assert picture.mode == "RGBA"
        w, h = picture.size
        assert picture.getpixel((1, 1))[3] == 0 and picture.getpixel((w - 2, h - 2))[3] == 0  # outside
        centre = picture.getpixel((w // 2, h // 2))
        assert centre[3] == 255 and abs(centre[0] - 0xC0) < 3 and abs(centre[1] - 0x30) < 3  # the disc
