"""Pictures on every face (issue 31): card backs, counters and tiles (fronts and backs), grid squares
and hexes (per mark and per cell), board backgrounds, standee panels and dice faces take a PNG, JPEG
or SVG file with ``fit``; each picture is cut to its piece's shape, runs into the bleed where it
reaches the cut, is stored once per file, goes as CMYK under ``--cmyk``, and a bad file is one line
naming the file and the key. Every check reads the built PDF or SVG back."""

from __future__ import annotations

import math
import os
import re
import shutil

import pypdf
import pytest

from generator.components.base import Options
from generator.definitions.loader import load_definition
from generator.kits.kit import layout_findings
from generator.kits.plan import kit_plan
from generator.model.page import bounds
from generator.model.svg_art import SvgError, read_svg
from tests.hostile.helpers import cli
from tests.pdf_reader import mm, near, open_pdf

ORANGE = (230, 159, 0)  # wide.png's ground (a blue ellipse in its middle)
GREEN = (0, 158, 115)  # tall.jpg, all of it
SUN = (213, 94, 0)  # sun.svg's disc, drawn as a vector path
DPI = 150

SUN_SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<circle cx="50" cy="50" r="30" fill="#d55e00"/>
<g stroke="#cc79a7" stroke-width="6"><path d="M50 5v15M50 80v15M5 50h15M80 50h15"/></g>
<text x="0" y="10">not drawn</text><image href="elsewhere.png" width="10" height="10"/>
</svg>"""

DEFINITION = """
[game]
id = "pics"
title = "Pics"
players = "2"

[components.tokens]
kind = "counters"
size = "20mm"

[[components.tokens.counters]]
name = "coin"
count = 3
shape = "circle"
image = "art/wide.png"
text = "5"
back = { fill = "#333333", image = "art/sun.svg", fit = "contain" }

[[components.tokens.counters]]
name = "tile"
count = 2
shape = "square"
size = "40mm"
image = "art/tall.jpg"
back = { image = "art/wide.png", fit = "stretch" }

[[components.tokens.counters]]
name = "hexy"
count = 2
shape = "hex"
size = "30mm"
image = "art/wide.png"

[components.board]
kind = "grid-board"
files = 4
ranks = 3
cell = "25mm"
background_image = "art/wide.png"
cells = { a1 = ["forest"], b2 = ["image:art/sun.svg"], c3 = ["image:art/tall.jpg"] }

[components.board.marks.forest]
image = "art/tall.jpg"
fit = "contain"

[components.map]
kind = "hex-board"
columns = 4
rows = 3
cell = "25mm"
background_image = "art/wide.png"
cells = { "0101" = ["forest"], "0202" = ["image:art/sun.svg"] }

[components.map.marks.forest]
image = "art/tall.jpg"

[components.points]
kind = "point-board"
size = "100mm"
background_image = "art/tall.jpg"
points = { a = [0, 0], b = [2, 0], c = [1, 2] }
lines = [["a", "b"], ["b", "c"]]

[components.deck]
kind = "cards"
size = "mini"
cards = [{ name = "Fox", quantity = 2 }, { name = "Owl", quantity = 1 }]
back = { fill = "#222222", image = "art/tall.jpg" }

[[components.deck.fields]]
text = "{name}"
x = "4mm"
y = "6mm"
h = "10mm"

[components.figures]
kind = "standees"

[[components.figures.figures]]
name = "Knight"
count = 2
image = "art/wide.png"
initial = "K"

[components.dice]
kind = "dice-nets"
size = "16mm"

[[components.dice.dice]]
name = "sun die"
faces = ["image:art/sun.svg", "pips:2", "image:art/wide.png", "pips:4", "image:art/tall.jpg", "pips:6"]
"""
PARTS = ("tokens", "board", "map", "points", "deck", "figures", "dice")


def write_kit(root) -> str:
    """Write the definition and its three pictures; return the layouts folder."""
    from PIL import Image, ImageDraw

    layouts = root / "layouts"
    art = layouts / "art"
    art.mkdir(parents=True)
    wide = Image.new("RGBA", (200, 100), ORANGE + (255,))
    ImageDraw.Draw(wide).ellipse((60, 10, 140, 90), fill=(0, 114, 178, 255))
    wide.save(art / "wide.png")
    Image.new("RGB", (60, 120), GREEN).save(art / "tall.jpg", quality=95)
    (art / "sun.svg").write_text(SUN_SVG)
    (layouts / "pics.toml").write_text(DEFINITION)
    return str(layouts)


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """Build the kit plain, and for a print shop (--bleed 3mm --cmyk); return both folders."""
    root = tmp_path_factory.mktemp("pictures")
    layouts = write_kit(root)
    out = {}
    for name, extra in (("plain", ()), ("shop", ("--bleed", "3mm", "--cmyk"))):
        run = cli("build", "pics", "--layouts", layouts, "--out", str(root / name), "--parts", "-q", *extra)
        assert run.code == 0, run.err
        out[name] = str(root / name / "pics")
    return out


def at(pix, x: float, y: float) -> tuple[int, ...]:
    """Return the pixel at (x, y) mm from the page's top left."""
    return pix.pixel(round(x / 25.4 * DPI), round(y / 25.4 * DPI))


def image_objects(path: str) -> list[tuple[int, str]]:
    """Return every image object a PDF stores (object number, colour space), each once."""
    seen: dict[int, str] = {}
    for page in pypdf.PdfReader(path).pages:
        xobjects = page["/Resources"].get("/XObject", {})
        for name in xobjects:
            ref = xobjects.raw_get(name)  # the indirect reference: which object holds it
            obj = ref.get_object()
            if obj["/Subtype"] == "/Image":
                seen[ref.idnum] = str(obj["/ColorSpace"])
    return sorted(seen.items())


@pytest.mark.parametrize("part", PARTS)
def test_every_face_kind_draws_its_pictures(kits, part):
    doc = open_pdf(os.path.join(kits["plain"], f"{part}.pdf"))
    drawn = [r for page in doc for r in page.get_images()]
    stored = image_objects(os.path.join(kits["plain"], f"{part}.pdf"))
    # the raster files each part names (the SVG is drawn as paths, never as an image)
    files = {"tokens": 2, "board": 2, "map": 2, "points": 1, "deck": 1, "figures": 1, "dice": 2}[part]
    assert len(stored) == files, stored
    assert drawn
    svg_files = [f for f in os.listdir(kits["plain"]) if re.fullmatch(rf"{part}(-\d+)?\.svg", f)]
    for name in svg_files:
        text = open(os.path.join(kits["plain"], name), encoding="utf-8").read()
        symbols = re.findall(r'<symbol id="(picture\d+)"', text)
        assert len(symbols) == len(set(symbols)) == text.count("data:image/")  # each file once
        assert "data:image/svg" not in text and text.count("<svg") == 1  # no foreign SVG inside
        for ref in symbols:
            assert f'xlink:href="#{ref}"' in text


def test_the_pdf_stores_each_file_once_however_often_drawn(kits):
    kit = os.path.join(kits["plain"], "kit.pdf")
    stored = image_objects(kit)
    assert len(stored) == 2  # wide.png and tall.jpg, on every part of the kit
    drawn = sum(len(page.get_images()) for page in open_pdf(kit))
    assert drawn > 20


def test_round_and_hex_counters_cut_their_picture_to_their_shape(kits):
    page = open_pdf(os.path.join(kits["plain"], "tokens.pdf"))[0]
    pix = page.get_pixmap(DPI)
    coins = [r for r in page.get_images() if abs(mm(r.width) - 40.0) < 0.1 and abs(mm(r.height) - 20.0) < 0.1]
    hexes = [r for r in page.get_images() if abs(mm(r.width) - 60.0) < 0.1 and abs(mm(r.height) - 30.0) < 0.1]
    tiles = [r for r in page.get_images() if abs(mm(r.width) - 40.0) < 0.1 and abs(mm(r.height) - 80.0) < 0.1]
    assert len(coins) == 3 and len(hexes) == 2 and len(tiles) == 2  # cover: the box filled, one way cut
    for r in coins:
        cx, cy = mm(r.x0 + r.width / 2), mm(r.y0 + r.height / 2)
        assert near(at(pix, cx - 8.5, cy), ORANGE)  # inside the coin
        assert near(at(pix, cx - 8.5, cy - 8.5), (255, 255, 255))  # in its box, outside its circle
        assert near(at(pix, cx - 12.0, cy), (255, 255, 255))  # the picture's overhang is cut away
    half = 30.0 / math.sqrt(3)  # a flat-top hex 30 mm across the flats: corners at +-half
    centres = [(mm(r.x0 + r.width / 2), mm(r.y0 + r.height / 2)) for r in hexes]

    def in_hex(x: float, y: float, centre: tuple[float, float]) -> bool:
        dx, dy = abs(x - centre[0]), abs(y - centre[1])
        return dy <= 15.0 and dx <= half - dy / math.sqrt(3)

    for cx, cy in centres:
        assert near(at(pix, cx - half + 2.0, cy), ORANGE)
        corner = (cx - half + 2.0, cy - 13.0)  # a corner of its box, outside its hex
        # hexes tessellate, so the corner may lie in a neighbour; in no hex, nothing is drawn there
        if not any(in_hex(*corner, c) for c in centres):
            assert near(at(pix, *corner), (255, 255, 255))
        else:
            assert not in_hex(*corner, (cx, cy))
    for r in tiles:  # a square tile shows exactly its 40 mm square
        cx, cy = mm(r.x0 + r.width / 2), mm(r.y0 + r.height / 2)
        assert near(at(pix, cx, cy - 19.0), GREEN)
        assert not near(at(pix, cx, cy - 21.0), GREEN)


def test_an_svg_picture_is_drawn_as_vector_paths(kits):
    page = open_pdf(os.path.join(kits["plain"], "tokens.pdf"))[1]  # the backs: the sun, contained
    pix = page.get_pixmap(DPI)
    suns = [
        d
        for d in page.get_drawings()
        if d.get("fill") and near(tuple(round(v * 255) for v in d["fill"]), SUN, 2)
    ]
    assert len(suns) == 3  # one disc a coin's back
    for disc in suns:
        r = disc["rect"]
        assert mm(r.width) == pytest.approx(12.0, abs=0.1)  # r = 30 of a 100 box in a 20 mm coin
        assert near(at(pix, mm(r.x0 + r.width / 2), mm(r.y0 + r.height / 2)), SUN)


def test_a_picture_running_to_the_cut_runs_into_the_bleed(kits):
    page = open_pdf(os.path.join(kits["shop"], "tokens.pdf"))[0]
    pix = page.get_pixmap(DPI)
    trims = [
        (mm(d["rect"].x0), mm(d["rect"].y0), mm(d["rect"].width))
        for d in page.get_drawings()
        if d.get("fill") is None and d.get("color") and len(d["items"]) == 1 and d["items"][0][0] == "re"
    ]
    squares = [t for t in trims if abs(t[2] - 40.0) < 0.05]
    assert squares
    for x, y, _ in squares:  # 1.5 mm outside the tile's cut is still its picture
        assert near(at(pix, x + 20.0, y - 1.5), GREEN) and near(at(pix, x - 1.5, y + 20.0), GREEN)
    backs = open_pdf(os.path.join(kits["shop"], "deck.pdf"))
    assert any(page.get_images() for page in backs)


COIN = 20.0 + 2 * 3.0  # mm: a coin's picture box for a print shop, 3 mm into its bleed all round


def test_a_round_counters_picture_runs_into_its_bleed_circle(kits):
    page = open_pdf(os.path.join(kits["shop"], "tokens.pdf"))[0]
    pix = page.get_pixmap(DPI)
    coins = [
        r for r in page.get_images() if abs(mm(r.width) - 2 * COIN) < 0.1 and abs(mm(r.height) - COIN) < 0.1
    ]
    assert len(coins) == 3  # cover: the 2:1 picture fills the coin's box grown by the bleed
    for r in coins:
        cx, cy = mm(r.x0 + r.width / 2), mm(r.y0 + r.height / 2)
        for dx, dy in ((-12.4, 0.0), (12.4, 0.0), (0.0, -12.4), (0.0, 12.4), (-8.6, -8.6)):
            assert near(at(pix, cx + dx, cy + dy), ORANGE)  # 2.4 mm past the 10 mm coin's edge
        assert near(at(pix, cx - 9.5, cy - 9.5), (255, 255, 255))  # 13.4 mm out: past its bleed circle
    plain = open_pdf(os.path.join(kits["plain"], "tokens.pdf"))[0]
    pix = plain.get_pixmap(DPI)
    for r in plain.get_images():
        if abs(mm(r.width) - 40.0) < 0.1 and abs(mm(r.height) - 20.0) < 0.1:  # no bleed: cut at the edge
            cx, cy = mm(r.x0 + r.width / 2), mm(r.y0 + r.height / 2)
            assert near(at(pix, cx - 10.6, cy), (255, 255, 255))
    # a contained picture (the coins' backs: the sun, whole inside the face) keeps its size
    backs = open_pdf(os.path.join(kits["shop"], "tokens.pdf"))[1]
    suns = [  # its colour printed from CMYK inks
        d
        for d in backs.get_drawings()
        if d.get("fill") and near(tuple(round(v * 255) for v in d["fill"]), SUN)
    ]
    assert len(suns) == 3 and all(mm(d["rect"].width) == pytest.approx(12.0, abs=0.1) for d in suns)


def test_a_print_shops_hex_counter_runs_its_picture_into_its_bleed(kits):
    # under --bleed each hex is cut on its own edges: its picture fills a hex 3 mm wider all round
    page = open_pdf(os.path.join(kits["shop"], "tokens.pdf"))[0]
    pix = page.get_pixmap(DPI)
    across = 30.0 + 2 * 3.0
    hexes = [
        r
        for r in page.get_images()
        if abs(mm(r.height) - across) < 0.1 and abs(mm(r.width) - 2 * across) < 0.1
    ]
    assert len(hexes) == 2
    for r in hexes:
        cx, cy = mm(r.x0 + r.width / 2), mm(r.y0 + r.height / 2)
        assert near(at(pix, cx, cy - 16.5), ORANGE, 60) and near(at(pix, cx, cy + 16.5), ORANGE, 60)
        assert not near(at(pix, cx, cy - 18.7), ORANGE, 60)  # past the bleed's edge


ROUNDED = """
[game]
id = "chits"
title = "Chits"
players = "2"

[components.chits]
kind = "counters"
size = "24mm"

[[components.chits.counters]]
name = "chit"
count = 2
shape = "rounded"
image = "art/wide.png"

[[components.chits.counters]]
name = "framed"
count = 1
shape = "rounded"
size = "30mm"
image = "art/tall.jpg"
fit = "contain"
"""


@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_a_rounded_counters_picture_runs_into_its_bleed_rounded_square(tmp_path, bleed):
    # a picture filling a rounded square's face runs, under --bleed, into a rounded square the bleed
    # wider all round (its corners rounded about the same centres); without it, it stops at the edge
    layouts = write_kit(tmp_path)
    (tmp_path / "layouts" / "chits.toml").write_text(ROUNDED)
    extra = ("--bleed", f"{bleed:g}mm") if bleed else ()
    run = cli("build", "chits", "--layouts", layouts, "--out", str(tmp_path / "out"), "--parts", "-q", *extra)
    assert run.code == 0, run.err
    page = open_pdf(str(tmp_path / "out" / "chits" / "chits.pdf"))[0]
    pix = page.get_pixmap(DPI)
    side = 24.0 + 2 * bleed  # cover: the 2:1 picture fills the face's box grown by the bleed
    chits = [
        r for r in page.get_images() if abs(mm(r.width) - 2 * side) < 0.1 and abs(mm(r.height) - side) < 0.1
    ]
    assert len(chits) == 2
    corner = 24.0 * 0.12  # the face's corner radius
    for r in chits:
        cx, cy = mm(r.x0 + r.width / 2), mm(r.y0 + r.height / 2)
        for dx, dy in (
            (-10.5, -10.5),
            (10.5, -10.5),
            (-10.5, 10.5),
            (10.5, 10.5),
        ):  # the face, off the ellipse
            assert near(at(pix, cx + dx, cy + dy), ORANGE)
        past = 12.0 + 2.4  # 2.4 mm past the face's edge: picture under a bleed, never without
        for dx, dy in ((-past, 0.0), (past, 0.0), (0.0, -past), (0.0, past)):
            assert near(at(pix, cx + dx, cy + dy), ORANGE) == bool(bleed), (dx, dy)
        # the bleed's own corner is rounded: its very corner (2.8 mm past the face's on each axis)
        # lies outside the wider rounded square
        tip = 12.0 + bleed - 0.2
        assert not near(at(pix, cx - tip, cy - tip), ORANGE)
        if bleed:  # inside the wider rounded corner, where the face's own corner ends
            inner = 12.0 - corner + (corner + bleed) * math.sqrt(0.5) - 0.5
            assert near(at(pix, cx - inner, cy - inner), ORANGE)
    # a contained picture (whole inside its face) keeps its size, bleed or not
    framed = [
        r for r in page.get_images() if abs(mm(r.height) - 30.0) < 0.1 and abs(mm(r.width) - 15.0) < 0.1
    ]
    assert len(framed) == 1


def test_under_cmyk_every_picture_is_stored_in_cmyk_inks(kits):
    stored = image_objects(os.path.join(kits["shop"], "kit.pdf"))
    assert stored and all(space == "/DeviceCMYK" for _, space in stored), stored
    assert all(space == "/DeviceRGB" for _, space in image_objects(os.path.join(kits["plain"], "kit.pdf")))
    page = open_pdf(os.path.join(kits["shop"], "tokens.pdf"))[0]
    pix = page.get_pixmap(DPI)
    coin = next(
        r for r in page.get_images() if abs(mm(r.width) - 2 * COIN) < 0.1 and abs(mm(r.height) - COIN) < 0.1
    )
    cx, cy = mm(coin.x0 + coin.width / 2), mm(coin.y0 + coin.height / 2)
    assert near(at(pix, cx - 11.5, cy), ORANGE, 60)  # the same colour, printed from inks


def test_the_same_build_writes_the_same_bytes(kits, tmp_path):
    layouts = write_kit(tmp_path)
    run = cli("build", "pics", "--layouts", layouts, "--out", str(tmp_path / "again"), "--parts", "-q")
    assert run.code == 0, run.err
    for name in ("kit.pdf", "tokens-1.svg", "board.svg"):
        with (
            open(os.path.join(kits["plain"], name), "rb") as a,
            open(tmp_path / "again" / "pics" / name, "rb") as b,
        ):
            assert a.read() == b.read(), name


BAD = [
    (
        'image = "art/wide.png"\ntext = "5"',
        'image = "art/none.png"\ntext = "5"',
        "components.tokens.counters[0].image",
        "no such file",
    ),
    (
        'fill = "#333333", image = "art/sun.svg"',
        'fill = "#333333", image = "art/notes.png"',
        "components.tokens.counters[0].back.image",
        "not a PNG or JPEG",
    ),
    (
        'background_image = "art/wide.png"\ncells = { a1',
        'background_image = "../pics.toml"\ncells = { a1',
        "components.board.background_image",
        "folder or below it",
    ),
    (
        '["image:art/sun.svg"], c3',
        '["image:art/broken.svg"], c3',
        "components.board.cells.b2[0]",
        "well-formed",
    ),
    (
        '[components.map.marks.forest]\nimage = "art/tall.jpg"',
        '[components.map.marks.forest]\nimage = "art/link.png"',
        "components.map.marks.forest.image",
        "outside the definition's folder",
    ),
    (
        'back = { fill = "#222222", image = "art/tall.jpg" }',
        'back = { fill = "#222222", image = "art/entity.svg" }',
        "components.deck.back.image",
        "document type",
    ),
    (
        'count = 2\nimage = "art/wide.png"\ninitial',
        'count = 2\nimage = "art/none.jpg"\ninitial',
        "components.figures.figures[0].image",
        "no such file",
    ),
    (
        'faces = ["image:art/sun.svg"',
        'faces = ["image:art/none.svg"',
        "components.dice.dice[0].faces[0]",
        "no such file",
    ),
    (
        'background_image = "art/tall.jpg"\npoints',
        'background_image = "art"\npoints',
        "components.points.background_image",
        "a folder",
    ),
]


@pytest.mark.parametrize(("old", "new", "where", "words"), BAD, ids=[b[2] for b in BAD])
def test_a_bad_picture_is_one_line_naming_file_key_and_fault(tmp_path, old, new, where, words):
    layouts = write_kit(tmp_path)
    art = os.path.join(layouts, "art")
    with open(os.path.join(art, "notes.png"), "w") as handle:
        handle.write("name,quantity\n")
    with open(os.path.join(art, "broken.svg"), "w") as handle:
        handle.write("<svg viewBox='0 0 1 1'><path d='M0 0'></svg>")
    with open(os.path.join(art, "entity.svg"), "w") as handle:
        handle.write('<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg viewBox="0 0 1 1">&a;</svg>')
    outside = tmp_path / "elsewhere.png"
    shutil.copy(os.path.join(art, "wide.png"), outside)
    os.symlink(outside, os.path.join(art, "link.png"))
    path = os.path.join(layouts, "pics.toml")
    text = open(path).read()
    assert old in text
    open(path, "w").write(text.replace(old, new, 1))
    for run in (
        cli("check", path),
        cli("build", "pics", "--layouts", layouts, "--out", str(tmp_path / "out"), "-q"),
    ):
        assert run.code == 3, run.err
        line = run.one_line_error()
        assert "pics.toml" in line and where in line and words in line, line
    assert not os.path.exists(tmp_path / "out" / "pics")


def test_the_svg_reader_returns_shapes_in_view_box_units():
    art = read_svg(
        b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="10 20 40 30">'
        b'<g transform="translate(10 20)"><rect width="40" height="30" fill="#fff"/>'
        b'<path d="M5 15 A10 10 0 0 1 25 15 Z" fill="currentColor"/></g></svg>',
        colour="#123456",
    )
    assert art.view_box == (10.0, 20.0, 40.0, 30.0)
    assert bounds(art.shapes) == pytest.approx((10.0, 20.0, 50.0, 50.0))
    fills = [s.style.fill for group in art.shapes for s in group.children]  # type: ignore[union-attr]
    assert fills == ["#ffffff", "#123456"]
    arc = art.shapes[0].children[1]  # type: ignore[union-attr]
    ys = [c[i] for c in arc.commands for i in range(2, len(c), 2)]
    assert min(ys) == pytest.approx(5.0, abs=0.6)  # the half circle of radius 10 above y = 15
    for bad, words in (
        (b'<!DOCTYPE svg [<!ENTITY x "y">]><svg/>', "document type"),
        (b"<svg><rect/></svg>", "viewBox"),
        (b'<svg viewBox="0 0 1 1"><path d="M 0"/></svg>', "without its"),
        (b"<html/>", "not an SVG"),
    ):
        with pytest.raises(SvgError, match=words):
            read_svg(bad)


@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_the_layout_check_measures_nothing_against_a_picture(tmp_path, bleed):
    """A hex's name over terrain art, a coin's value over its picture: the art is the designer's."""
    definition = load_definition(os.path.join(write_kit(tmp_path), "pics.toml"))
    assert layout_findings(kit_plan(definition, options=Options(bleed=bleed))) == []


def test_a_picture_saved_again_is_read_again_in_the_same_process(tmp_path):
    """A long-lived process (a watched build) draws the file as it is now, not as first read."""
    from PIL import Image

    layouts = write_kit(tmp_path)
    widths = []
    for size in ((60, 120), (90, 120)):
        Image.new("RGB", size, GREEN).save(os.path.join(layouts, "art", "tall.jpg"), quality=95)
        out = tmp_path / f"out{size[0]}"
        run = cli("build", "pics", "--layouts", layouts, "--out", str(out), "--parts", "-q")
        assert run.code == 0, run.err
        page = pypdf.PdfReader(out / "pics" / "points.pdf").pages[0]
        xobjects = page["/Resources"]["/XObject"]
        widths.extend(int(xobjects[name]["/Width"]) for name in xobjects)
    assert widths == [60, 90]
