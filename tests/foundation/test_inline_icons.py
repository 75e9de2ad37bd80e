"""Icons inside text: ``:name:`` sets a symbol of the table or a picture of the definition's
``[icons]`` in the line, one em high, in the text's colour or its own; the wrapping code counts
it as its width; ``::`` writes a colon; an unknown icon is a one-line error naming file, key and
row. Read back from the PDF and the SVG."""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

import pytest

from generator.components.inline import ADVANCE, SIDE
from generator.model.fonts import text_width
from tests.conftest import mm
from tests.foundation.test_cli import one_line_error, pnp
from tests.pdf_reader import open_pdf

SIZE = 10.0  # pt
EM = SIZE * 25.4 / 72
GAME = """
[game]
id = "deck"
title = "Deck"
players = "2"

[icons]
coin = "art/coin.png"

[components.deck]
kind = "cards"
title = "Actions"
size = "poker"
csv = "deck.csv"

[[components.deck.fields]]
text = "{text}"
x = "4mm"
y = "10mm"
w = "{box}mm"
h = "40mm"
size = {size}
min_size = {size}
colour = "#1144aa"
"""


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """Return a small opaque PNG of one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def kit(tmp_path: Path, text: str, cell: str = "Move", box: float = 50.0) -> Path:
    folder = tmp_path / "defs"
    (folder / "art").mkdir(parents=True, exist_ok=True)
    (folder / "art" / "coin.png").write_bytes(png(30, 20, (230, 160, 0)))
    (folder / "deck.toml").write_text(GAME.format(text=text, box=f"{box:.3f}", size=SIZE))
    (folder / "deck.csv").write_text(f"name,text,quantity\nOne,{cell},1\n")
    return folder


def build(folder: Path, out: Path) -> Path:
    result = pnp("build", "deck", "--layouts", str(folder), "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out / "deck"


def card_page(kit_dir: Path):
    for page in open_pdf(kit_dir / "kit.pdf"):
        if any(w[4] == "Gain" for w in page.get_text("words")):
            return page
    raise AssertionError("no card page")


def test_a_picture_icon_sits_inside_the_line_between_its_words(tmp_path):
    page = card_page(build(kit(tmp_path, "Gain 2 :coin: then go"), tmp_path / "out"))
    words = {w[4]: w for w in page.get_text("words")}
    two, then = words["2"], words["then"]
    [image] = page.get_images()
    # between "2" and "then", on their line: its box overlaps the words' height
    assert two[2] <= image.x0 and image.x1 <= then[0]
    assert image.y0 < two[3] and image.y1 > two[1]
    # one icon's side high (the picture is wider than tall: its width is the side)
    assert mm(image.width) == pytest.approx(SIDE * EM, abs=0.05)
    assert mm(image.height) == pytest.approx(SIDE * EM * 20 / 30, abs=0.05)
    # the gap from "2 " to "then" is the icon's advance and a space
    gap = mm(then[0] - two[2])
    space = text_width(" ", "sans", SIZE)
    assert gap == pytest.approx(ADVANCE * EM + 2 * space, abs=0.3)


def test_a_symbol_icon_takes_the_text_colour_or_its_own(tmp_path):
    page = card_page(build(kit(tmp_path, "Gain :star: and :star=#cc0000: go"), tmp_path / "out"))
    words = {w[4]: w for w in page.get_text("words")}
    fills = {}
    for path in page.get_drawings():
        fill = path.get("fill")
        if fill is not None:
            colour = "#" + "".join(f"{round(c * 255):02x}" for c in fill)
            fills.setdefault(colour, []).append(path["rect"])
    [own] = fills["#cc0000"]
    texts = [r for r in fills["#1144aa"] if r.x0 < words["and"][0]]
    assert texts, "the first star is not in the text's colour"
    assert words["Gain"][2] < texts[0].x0 and texts[0].x1 < words["and"][0]
    assert words["and"][2] < own.x0 and own.x1 < words["go"][0]


def test_wrapping_counts_an_icon_as_its_width(tmp_path):
    # the box holds the words on one line, not the words and the icon
    box = text_width("Gain 2 then", "sans", SIZE) + 0.3
    page = card_page(build(kit(tmp_path, "Gain 2 :coin: then", box=box), tmp_path / "out"))
    words = {w[4]: w for w in page.get_text("words")}
    assert words["then"][1] > words["Gain"][3]  # "then" went to the next line
    plain = card_page(build(kit(tmp_path / "plain", "Gain 2 then", box=box), tmp_path / "plain" / "out"))
    words = {w[4]: w for w in plain.get_text("words")}
    assert abs(words["then"][1] - words["Gain"][1]) < 1  # without the icon: one line


def test_a_double_colon_writes_a_colon(tmp_path):
    page = card_page(build(kit(tmp_path, "Gain at 10::30 or a::coin: go"), tmp_path / "out"))
    text = page.get_text()
    assert "10:30" in text and "a:coin:" in text
    assert page.get_images() == []


def test_the_svg_draws_the_icon_inside_the_line(tmp_path):
    svg = (build(kit(tmp_path, "Gain 2 :coin: then"), tmp_path / "out") / "deck.svg").read_text()
    texts = {
        m.group(2): float(m.group(1))
        for m in re.finditer(r'<text [^>]*x="([0-9.]+)"[^>]*>([^<]+)</text>', svg)
    }
    # the picture is stored once (a <symbol>) and placed by a <use> in the line
    [image] = re.findall(r"<use [^>]*#picture[^>]*>", svg)
    attrs = dict(re.findall(r'([a-z]+)="([0-9.]+)"', image))
    x, w = float(attrs["x"]), float(attrs["width"])
    # the runs "Gain 2 " and " then" stand on each side of it, in the card's own units
    assert texts["Gain 2 "] + text_width("Gain 2 ", "sans", SIZE) <= x + 1e-6
    assert x + w <= texts[" then"] + 1e-6
    assert w == pytest.approx(SIDE * EM, abs=0.02)


@pytest.mark.parametrize(
    "text, cell, words",
    [
        ("{{text}}", "Gain :coins:", "deck.csv: row 2, column 'text': unknown icon ':coins:'"),
        (
            "Gain :coins: {{text}}",
            "Move",
            "deck.toml: components.deck.fields[0].text: unknown icon ':coins:'",
        ),
        (
            "Gain :star=blu:",
            "Move",
            "deck.toml: components.deck.fields[0].text: icon ':star=blu:': unknown colour",
        ),
    ],
)
def test_an_unknown_icon_is_one_line_naming_file_key_and_row(tmp_path, text, cell, words):
    folder = kit(tmp_path, text, cell)
    result = pnp("build", "deck", "--layouts", str(folder), "--out", str(tmp_path / "out"))
    assert result.returncode == 3
    line = one_line_error(result)
    assert (
        words in line and "coin" in line.split("the definition's:")[-1]
        if "unknown icon" in words
        else words in line
    )
    assert not (tmp_path / "out" / "deck").exists()


@pytest.mark.parametrize(
    "table, words",
    [
        ('coin = "art/none.png"', "icons.coin: art/none.png: no such file"),
        ('star = "art/coin.png"', "icons.star: 'star' is a symbol's name"),
        ('coin = "deck.csv"', "icons.coin: defs/deck.csv: not a PNG or JPEG image"),
        ('coin = "../coin.png"', "icons.coin: '../coin.png': a picture in the definition's folder"),
    ],
)
def test_a_bad_icon_table_is_one_line_naming_the_key(tmp_path, table, words):
    folder = kit(tmp_path, "Gain")
    text = (folder / "deck.toml").read_text().replace('coin = "art/coin.png"', table)
    (folder / "deck.toml").write_text(text)
    result = pnp("build", "deck", "--layouts", str(folder), "--out", str(tmp_path / "out"))
    assert result.returncode == 3
    line = one_line_error(result)
    assert "deck.toml: " in line and words.split(": ", 1)[0] in line and words.split(": ")[-1] in line


COUNTERS = """
[game]
id = "pieces"
title = "Pieces"
players = "2"

[icons]
coin = "art/coin.png"

[components.board]
kind = "grid-board"
title = "Board"
files = 4
ranks = 4
edges = {{ north = "Home :coin: row" }}

[components.counters]
kind = "counters"

[[components.counters.counters]]
name = "Scout"
count = 1
size = "24mm"
text = "A"
label = "{label}"
"""


def test_counter_labels_and_board_edges_set_icons_in_the_line(tmp_path):
    folder = tmp_path / "defs"
    (folder / "art").mkdir(parents=True)
    (folder / "art" / "coin.png").write_bytes(png(20, 20, (230, 160, 0)))
    (folder / "pieces.toml").write_text(COUNTERS.format(label="Gold :coin:"))
    result = pnp("build", "pieces", "--layouts", str(folder), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    seen = {"Gold": False, "Home": False}
    for page in open_pdf(tmp_path / "out" / "pieces" / "kit.pdf"):
        words = {w[4]: w for w in page.get_text("words")}
        for first in seen:
            if first in words:
                word = words[first]
                beside = [
                    i
                    for i in page.get_images()
                    if abs((i.y0 + i.y1) / 2 - (word[1] + word[3]) / 2) < 3 and i.x0 >= word[2]
                ]
                assert beside, f"no icon beside {first!r}"
                seen[first] = True
    assert all(seen.values())
    (folder / "pieces.toml").write_text(COUNTERS.format(label="Gold :coins:"))
    result = pnp("build", "pieces", "--layouts", str(folder), "--out", str(tmp_path / "out2"))
    assert result.returncode == 3
    assert "pieces.toml: components.counters.counters[0].label: unknown icon ':coins:'" in one_line_error(
        result
    )


def test_a_card_back_sets_icons_in_its_text(tmp_path):
    folder = kit(tmp_path, "Gain")
    with open(folder / "deck.toml", "a") as handle:
        handle.write('\n[components.deck.back]\nfill = "#ffffff"\ntext = "Bank :coin:"\n')
    pages = open_pdf(build(folder, tmp_path / "out") / "kit.pdf")
    backs = [p for p in pages if any(w[4] == "Bank" for w in p.get_text("words"))]
    assert backs
    word = next(w for w in backs[0].get_text("words") if w[4] == "Bank")
    [image] = [i for i in backs[0].get_images() if abs((i.y0 + i.y1) / 2 - (word[1] + word[3]) / 2) < 4]
    assert image.x0 > word[2]
    text = (folder / "deck.toml").read_text().replace("Bank :coin:", "Bank :coins:")
    (folder / "deck.toml").write_text(text)
    result = pnp("build", "deck", "--layouts", str(folder), "--out", str(tmp_path / "out2"))
    assert result.returncode == 3
    assert "deck.toml: components.deck.back.text: unknown icon ':coins:'" in one_line_error(result)


def test_an_svg_icon_is_drawn_as_shapes_in_the_text_colour(tmp_path):
    folder = kit(tmp_path, "Gain 2 :spade: then")
    (folder / "art" / "spade.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        '<path fill="currentColor" d="M50 4 L95 60 L5 60 Z"/><rect fill="#00aa00" x="40" y="60" width="20" height="36"/>'
        "</svg>"
    )
    toml = (
        (folder / "deck.toml")
        .read_text()
        .replace('coin = "art/coin.png"', 'coin = "art/coin.png"\nspade = "art/spade.svg"')
    )
    (folder / "deck.toml").write_text(toml)
    out = build(folder, tmp_path / "out")
    page = card_page(out)
    assert page.get_images() == []  # drawn as paths, never embedded as a picture
    words = {w[4]: w for w in page.get_text("words")}
    pix = page.get_pixmap(300)
    # the triangle (currentColor) takes the text's colour, the stem keeps its own
    left, right = words["2"][2], words["then"][0]
    top, bottom = words["Gain"][1], words["Gain"][3]
    colours = {
        pix.pixel(int(x * 300 / 72), int(y * 300 / 72))
        for x in [left + (right - left) * k / 20 for k in range(21)]
        for y in [top + (bottom - top) * k / 20 for k in range(21)]
    }
    assert any(abs(c[0] - 0x11) < 40 and abs(c[1] - 0x44) < 40 and abs(c[2] - 0xAA) < 40 for c in colours)
    assert any(c[0] < 60 and c[1] > 130 and c[2] < 60 for c in colours)
    svg = (out / "deck.svg").read_text()
    assert "<image" not in svg and "fill:#00aa00" in svg  # the stem's own colour, as a path
