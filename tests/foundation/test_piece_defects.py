"""Defects a designer met on cards, counters and hex maps, each checked from the rule on the
built files: a card text without a colour of its own reads on its band (a colour given is kept);
a misspelt card type is a one-line error naming its row and the near name; a counter's ring
keeps clear of its label; the booklet's figure of a deck shows the cards' small text, never blank
cards; a hex name reads over every terrain, hatched or not, clear of the hatching."""

from __future__ import annotations

import math
import os

import pytest

from generator.model.fonts import text_width
from tests.foundation.test_cards import CSV, build_deck, write_deck
from tests.foundation.test_cli import one_line_error, pnp
from tests.pdf_reader import open_pdf
from tests.svg_reader import read_svg


def wcag(a: str, b: str) -> float:
    """Return the WCAG 2.1 contrast ratio of two "#rrggbb" colours."""

    def lum(c: str) -> float:
        channels = [int(c[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


BANDS = {  # every shade from black to white, and the colours of the test deck's palette
    "black": "#000000",
    "navy": "#1a237e",
    "wine": "#7a1f2b",
    "grey": "#777777",
    "blue": "#0072b2",
    "gold": "#e69f00",
    "pale": "#f6f1e4",
    "white": "#ffffff",
}


def _banded_deck(tmp_path, explicit: str = "") -> str:
    """Write a deck whose card titles sit on bands of every colour of BANDS; with ``explicit`` the
    body text has that colour of its own. Return the fronts page's SVG."""
    rows = "".join(f"T{name},move,1,{name},star,Body {name}.\n" for name in BANDS)
    write_deck(tmp_path, csv="name,type,quantity,colour,symbol,text\n" + rows)
    toml = tmp_path / "layouts" / "deck.toml"
    text = toml.read_text()
    palette = "".join(f'{name} = "{value}"\n' for name, value in BANDS.items())
    text = text.replace('gold = "#e69f00"\nblue = "#0072b2"\npale = "#f6f1e4"\n', palette)
    text = text.replace('[components.deck.backs.event]\nfill = "blue"\ntext = "EVENT"\n', "")
    if explicit:
        text = text.replace(
            'size = 10\nalign = "centre"', f'size = 10\ncolour = "{explicit}"\nalign = "centre"'
        )
    toml.write_text(text)
    out = tmp_path / "out"
    result = pnp(
        "build", "deck", "--layouts", "layouts", "--out", str(out), "--format", "svg", cwd=str(tmp_path)
    )
    assert result.returncode == 0, result.stderr
    return (out / "deck" / "deck-1.svg").read_text()


def _fill_under(painted, x: float, y: float) -> str:
    """Return the fill of the topmost filled shape drawn under a point (the paper: white)."""
    fill = "#ffffff"
    for p in painted:
        paint = dict(p.paint)
        if p.kind not in ("subpath", "rect") or paint.get("fill") in (None, "none"):
            continue
        if p.kind == "rect":  # a rounded rectangle: its corners
            (x0, y0), (x1, y1) = p.geometry[0]
            if x0 <= x <= x1 and y0 <= y <= y1:
                fill = paint["fill"]
            continue
        pts = [p.geometry[0].start] + [s[-1] for s in p.geometry[0].segments]
        xs, ys = [q[0] for q in pts], [q[1] for q in pts]
        if len(pts) >= 4 and min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys):
            fill = paint["fill"]
    return fill


def test_a_card_text_without_a_colour_reads_on_every_band(tmp_path):
    painted = read_svg(_banded_deck(tmp_path))
    titles = [p for p in painted if p.kind == "text" and p.geometry[0].startswith("T")]
    assert {p.geometry[0][1:] for p in titles} == set(BANDS)
    for p in titles:
        x, y = p.geometry[4]
        band = _fill_under(painted[: painted.index(p)], x + 1.0, y - 1.0)
        assert band == BANDS[p.geometry[0][1:]], p.geometry
        ink = dict(p.paint)["fill"]
        assert wcag(ink, band) >= 4.5, (p.geometry[0], ink, band)


def test_a_colour_given_to_a_card_text_is_kept(tmp_path):
    painted = read_svg(_banded_deck(tmp_path, explicit="#555555"))
    bodies = [p for p in painted if p.kind == "text" and p.geometry[0].startswith("Body")]
    assert len(bodies) == len(BANDS)
    assert {dict(p.paint)["fill"] for p in bodies} == {"#555555"}


MISSPELT = [
    (CSV.replace("Fog,event", "Fog,evnt"), "deck.csv: row 4, column 'type'", "did you mean 'event'?"),
    (
        CSV.replace("Shelter,event", "Shelter,Event"),
        "deck.csv: row 5, column 'type'",
        "did you mean 'event'?",
    ),
    (CSV.replace("Sprint,move", "Sprint,"), "deck.csv: row 2, column 'type'", "no type has no back"),
]


@pytest.mark.parametrize(("csv", "where", "words"), MISSPELT)
def test_a_misspelt_card_type_is_an_error_naming_its_row_and_the_near_name(tmp_path, csv, where, words):
    write_deck(tmp_path, csv=csv)
    for command in (("check", "layouts/deck.toml"), ("build", "deck", "--layouts", "layouts", "--out", "o")):
        result = pnp(*command, cwd=str(tmp_path))
        assert result.returncode == 3, result.stderr
        line = one_line_error(result)
        assert where in line and words in line, line
    assert not os.path.exists(tmp_path / "o" / "deck")


def test_a_misspelt_type_of_a_field_or_a_back_names_the_near_type(tmp_path):
    path = write_deck(tmp_path)
    text = open(path).read()
    with open(path, "w") as f:
        f.write(text.replace('valign = "middle"\n[[', 'valign = "middle"\ntypes = ["mvoe"]\n[[', 1))
    line = one_line_error(pnp("check", "layouts/deck.toml", cwd=str(tmp_path)))
    assert "components.deck.fields[1].types" in line and "did you mean 'move'?" in line, line
    with open(path, "w") as f:
        f.write(text.replace("[components.deck.backs.event]", "[components.deck.backs.evnet]"))
    line = one_line_error(pnp("check", "layouts/deck.toml", cwd=str(tmp_path)))
    assert "components.deck.backs.evnet" in line and "did you mean 'event'?" in line, line


def test_a_deck_with_a_common_back_takes_any_type(tmp_path):
    write_deck(tmp_path, csv=CSV.replace("Fog,event", "Fog,weather"))
    path = tmp_path / "layouts" / "deck.toml"
    path.write_text(path.read_text() + '\n[components.deck.back]\nfill = "pale"\n')
    result = pnp("check", "layouts/deck.toml", cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr


COUNTERS = """
[game]
id = "rings"
title = "Rings"
players = "2"

[components.pieces]
kind = "counters"
title = "Pieces"
{counters}
"""
SHAPES = ("circle", "square", "rounded", "hexagon", "hex")
LABELS = ("Vet", "Veteran", "Elite guard")


def _ringed_counters(tmp_path) -> dict[str, float]:
    """Write counters of every shape and size with a ring and a label on both faces; return the
    size of each counter type by name."""
    tables = []
    sizes: dict[str, float] = {}
    for shape in SHAPES:
        for size in (16, 20, 30):
            for i, label in enumerate(LABELS if size > 20 else LABELS[:2]):
                name = f"{shape}-{size}-{i}"
                sizes[name] = size
                tables.append(
                    f'[[components.pieces.counters]]\nname = "{name}"\ncount = 1\nshape = "{shape}"\n'
                    f'size = "{size}mm"\nfill = "#dddddd"\ntext = "4"\nlabel = "{label}"\nring = true\n'
                    f'[components.pieces.counters.back]\nfill = "#333333"\nsymbol = "star"\n'
                    f'label = "{label}"\nring = true\n'
                )
    layouts = tmp_path / "layouts"
    layouts.mkdir()
    (layouts / "rings.toml").write_text(COUNTERS.format(counters="\n".join(tables)))
    return sizes


def test_a_counter_ring_keeps_clear_of_its_label(tmp_path):
    sizes = _ringed_counters(tmp_path)
    out = tmp_path / "out"
    result = pnp(
        "build", "rings", "--layouts", "layouts", "--out", str(out), "--format", "svg", cwd=str(tmp_path)
    )
    assert result.returncode == 0, result.stderr
    checked = 0
    for name in sorted(os.listdir(out / "rings")):
        if not name.startswith("pieces") or not name.endswith(".svg"):
            continue
        painted = read_svg((out / "rings" / name).read_text())
        rings = [p for p in painted if p.kind == "circle" and dict(p.paint).get("fill") == "none"]
        labels = [p for p in painted if p.kind == "text" and p.geometry[0] in LABELS]
        assert rings and len(labels) == len(rings), name
        for label in labels:
            text, _, em, anchor, (x, y) = label.geometry  # the SVG's lengths are mm: the em
            assert anchor == "middle"
            half = text_width(text, "sans", em * 72 / 25.4) / 2
            ring = min(rings, key=lambda p: math.dist(p.geometry[0], (x, y - em / 2)))
            (cx, cy), r = ring.geometry
            inner = r - float(dict(ring.paint)["stroke-width"]) / 2
            # the label's ink: capitals 0.76 em above the baseline, descenders 0.24 em below
            for px, py in (
                (x - half, y - 0.76 * em),
                (x + half, y - 0.76 * em),
                (x - half, y + 0.24 * em),
                (x + half, y + 0.24 * em),
            ):
                assert math.dist((px, py), (cx, cy)) < inner, (name, text, r)
            checked += 1
    assert checked == 2 * len(sizes)  # every front and every back


def test_a_label_too_long_for_its_ring_is_a_one_line_error(tmp_path):
    _ringed_counters(tmp_path)
    path = tmp_path / "layouts" / "rings.toml"
    path.write_text(path.read_text().replace('label = "Vet"', 'label = "Veteran of the old guard"', 1))
    line = one_line_error(pnp("check", "layouts/rings.toml", cwd=str(tmp_path)))
    assert "'Veteran of the old guard'" in line and "inside its ring" in line, line


def _rgb(colour) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in colour)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_booklet_figure_of_a_deck_shows_the_cards_small_text(tmp_path, paper):
    # the deck of test_cards: its figure shows the first card of each type (Sprint, Fog) with its
    # back; each shown front holds its title and its body, as text printed at 6 pt or more, or (a
    # text its box cannot hold that large) as bars standing for its lines, never as a blank card
    kit = build_deck(tmp_path, "--paper", paper)
    doc = open_pdf(os.path.join(kit, "booklet.pdf"))
    shown = 0
    for page in doc:
        outlines = [
            d["rect"]
            for d in page.get_drawings()
            if d["fill"] is None and d["color"] is not None and _rgb(d["color"]) == "#777777"
        ]
        chars = [c for c in page.chars() if c["text"].strip()]
        bars = [
            d["rect"] for d in page.get_drawings() if d["fill"] is not None and _rgb(d["fill"]) == "#b0b0b0"
        ]
        for card in outlines:

            def inside(box, card=card) -> bool:
                x0, y0, x1, y1 = box
                return card.x0 <= (x0 + x1) / 2 <= card.x1 and card.y0 <= (y0 + y1) / 2 <= card.y1

            texts = "".join(c["text"] for c in chars if inside(c["bbox"]))
            small = [c for c in chars if inside(c["bbox"]) and c["size"] * 25.4 / 72 < 6.0 * 25.4 / 72 - 1e-3]
            assert not small, (page, texts)
            body = [b for b in bars if inside(tuple(b))]
            if texts.startswith("Sprint") or texts.startswith("Fog"):
                name = "Sprint" if texts.startswith("Sprint") else "Fog"
                words = {"Sprint": "Moveonerunner", "Fog": "Nobodymayjump"}[name]
                assert words in texts.replace(" ", "") or body, (name, texts)
                shown += 1
    assert shown == 2


TERRAIN = ("#000000", "#1b3d1b", "#2f7d32", "#0072b2", "#808080", "#e69f00", "#f6f1e4", "#ffffff")
HEXMAP = """
[game]
id = "terrain"
title = "Terrain"
players = "2"

[components.map]
kind = "hex-board"
title = "Map"
columns = {columns}
rows = 2
cell = "{cell}"

[components.map.cells]
{cells}
{marks}
"""


def _terrain_map(tmp_path, cell: str) -> None:
    """Write a hex map with a hex of every terrain colour, hatched and plain, and build it."""
    cells, marks = [], []
    for i, fill in enumerate(TERRAIN):
        for row, hatch in ((1, True), (2, False)):
            name = f"t{i}{'h' if hatch else 'p'}"
            cells.append(f'"{i + 1:02d}{row:02d}" = ["{name}"]')
            marks.append(f'[components.map.marks.{name}]\nfill = "{fill}"\nhatch = {str(hatch).lower()}\n')
    layouts = tmp_path / "layouts"
    layouts.mkdir(exist_ok=True)
    text = HEXMAP.format(columns=len(TERRAIN), cell=cell, cells="\n".join(cells), marks="\n".join(marks))
    (layouts / "terrain.toml").write_text(text)


def _points_of(p) -> list[tuple[float, float]]:
    sub = p.geometry[0]
    return [sub.start] + [s[-1] for s in sub.segments]


@pytest.mark.parametrize(("cell", "extra"), [("25mm", ()), ("19mm", ()), ("25mm", ("--ink-saver",))])
def test_hex_names_read_over_every_terrain_hatched_or_not(tmp_path, cell, extra):
    _terrain_map(tmp_path, cell)
    out = tmp_path / "out"
    result = pnp(
        "build",
        "terrain",
        "--layouts",
        "layouts",
        "--out",
        str(out),
        "--format",
        "svg",
        *extra,
        cwd=str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    painted = read_svg((out / "terrain" / "map.svg").read_text())
    names = [p for p in painted if p.kind == "text" and p.geometry[0].isdigit() and len(p.geometry[0]) == 4]
    assert len(names) == 2 * len(TERRAIN)
    hatching = [
        p
        for p in painted
        if p.kind == "subpath"
        and dict(p.paint).get("stroke") not in (None, "none")
        and len(_points_of(p)) == 2
        and abs(
            abs(_points_of(p)[1][0] - _points_of(p)[0][0]) - abs(_points_of(p)[1][1] - _points_of(p)[0][1])
        )
        < 0.01
        and math.dist(*_points_of(p)) > 0.1
    ]
    assert hatching
    for name in names:
        text, _, em, _, (x, y) = name.geometry
        half = text_width(text, "sans-bold", em * 72 / 25.4) / 2
        box = (x - half, y - 0.73 * em, x + half, y)  # figures: 0.73 em tall, no descenders
        for line in hatching:
            (ax, ay), (bx, by) = _points_of(line)
            for t in (i / 40 for i in range(41)):
                px, py = ax + (bx - ax) * t, ay + (by - ay) * t
                assert not (box[0] - 0.2 <= px <= box[2] + 0.2 and box[1] - 0.2 <= py <= box[3] + 0.2), text
        face = _fill_under(painted[: painted.index(name)], x, y - 0.36 * em)
        ink = dict(name.paint)["fill"]
        assert wcag(ink, face) >= 4.5, (text, ink, face)
