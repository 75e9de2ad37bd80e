"""Icons inside the texts of hex marks, standee labels and tracks: ``:name:`` sets the icon in the
line (beside its words, on their line), the fit code counts its width (the line with its icon
stays inside the room the text is given), and an unknown icon is one line naming the file and the
key. Read back from the PDF."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import mm
from tests.foundation.test_cli import one_line_error, pnp
from tests.foundation.test_inline_icons import png
from tests.pdf_reader import open_pdf

CELL = 30.0  # mm across the flats of the map's hexes
BOX = 20.0  # mm, the track's boxes
GAME = """
[game]
id = "pieces"
title = "Pieces"
players = "2"

[icons]
coin = "art/coin.png"

[components.map]
kind = "hex-board"
title = "Map"
columns = 3
rows = 2
cell = "{cell}mm"
[components.map.cells]
"0101" = ["text:Ore :coin:"]
"0301" = ["gold"]
[components.map.marks.gold]
fill = "#f4e3a1"
text = "Mine :coin:"
text_scale = 0.5
corner = "Bank :coin:"

[components.strip]
kind = "track"
title = "Score"
path = ["1", "2", "3 :coin:", "4"]
box = "{box}mm"
start_label = "Go :coin:"
finish_label = "Home"
caption = "Score :coin: track"

[components.soldiers]
kind = "standees"
[[components.soldiers.figures]]
name = "Guard"
label = "Gold :coin: guard"
initial = "G"
"""
WORDS = ("Ore", "Mine", "Bank", "3", "Go", "Score", "Gold")


def kit(tmp_path: Path, game: str = GAME) -> Path:
    folder = tmp_path / "defs"
    (folder / "art").mkdir(parents=True, exist_ok=True)
    (folder / "art" / "coin.png").write_bytes(png(20, 20, (230, 160, 0)))
    (folder / "pieces.toml").write_text(game.format(cell=CELL, box=BOX))
    return folder


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("icons")
    folder = kit(tmp)
    result = pnp("build", "pieces", "--layouts", str(folder), "--out", str(tmp / "out"), "--format", "pdf")
    assert result.returncode == 0, result.stderr
    return open_pdf(tmp / "out" / "pieces" / "kit.pdf")


def gap(icon, word) -> float:
    """Return the room in points between a word and an icon after it on its line (before it when
    the line is upside down, as on a standee's far tab)."""
    return max(icon.x0 - word[2], word[0] - icon.x1)


def beside(page, word):
    """Return the icons drawn just after a word on its line (the nearest first)."""
    middle = (word[1] + word[3]) / 2
    found = [
        i
        for i in page.get_images()
        if abs((i.y0 + i.y1) / 2 - middle) < (word[3] - word[1]) / 2 and 0 <= gap(i, word) < 10
    ]
    return sorted(found, key=lambda i: gap(i, word))


def line_width(icon, word) -> float:
    """Return the width in mm of a word and its icon together."""
    return mm(max(icon.x1, word[2]) - min(icon.x0, word[0]))


def words_of(pages, text):
    return [(page, w) for page in pages for w in page.get_text("words") if w[4] == text]


@pytest.mark.parametrize("text", WORDS)
def test_an_icon_stands_in_the_line_after_its_word(pages, text):
    found = [(word, beside(page, word)) for page, word in words_of(pages, text)]
    found = [(word, icons) for word, icons in found if icons]  # the guide names some words too
    assert found, f"no icon after {text!r}"
    for word, icons in found:
        # its height about the text's (the line's em, as in a card's text)
        height = mm(word[3] - word[1])
        assert 0.5 * height < mm(icons[0].height) < 1.5 * height


def test_the_fit_code_counts_the_icon_in_a_hex_marks_text(pages):
    # a mark's text has 0.62 of the hex across it: the word and its icon together
    for text in ("Ore", "Mine"):
        for page, word in words_of(pages, text):
            icon = beside(page, word)[0]
            assert line_width(icon, word) <= 0.62 * CELL + 0.3


def test_the_fit_code_counts_the_icon_in_a_box_number(pages):
    # the box numbers keep NUMBER_MARGIN of the box clear on either side: "3" and its icon too
    for page, word in words_of(pages, "3"):
        if mm(word[3] - word[1]) < 4:
            continue  # a step number in a box's corner
        icon = beside(page, word)[0]
        assert line_width(icon, word) <= BOX * (1 - 2 * 0.15) + 0.3


def test_a_standee_label_wraps_with_its_icon_inside_the_tab(pages):
    # both tabs print the label; each line with its icon lies inside the strip (15 mm, the default)
    found = words_of(pages, "Gold")
    assert len(found) == 2
    for page, word in found:
        icon = beside(page, word)[0]
        assert line_width(icon, word) <= 15.0 * 0.9 + 0.3


@pytest.mark.parametrize(
    "old, new, key",
    [
        ('"text:Ore :coin:"', '"text:Ore :coins:"', "components.map.cells: 'text:Ore :coins:'"),
        ('"Mine :coin:"', '"Mine :coins:"', "components.map.marks: 'gold': text"),
        ('"Bank :coin:"', '"Bank :coins:"', "components.map.marks: 'gold': corner"),
        ('"3 :coin:"', '"3 :coins:"', "components.strip.path[2]"),
        ('"Go :coin:"', '"Go :coins:"', "components.strip.start_label"),
        ('"Score :coin: track"', '"Score :coins: track"', "components.strip.caption"),
        ('"Gold :coin: guard"', '"Gold :coins: guard"', "components.soldiers.figures[0].label"),
    ],
)
def test_an_unknown_icon_is_one_line_naming_the_key(tmp_path, old, new, key):
    assert old in GAME
    folder = kit(tmp_path, GAME.replace(old, new))
    result = pnp("build", "pieces", "--layouts", str(folder), "--out", str(tmp_path / "out"))
    assert result.returncode == 3
    line = one_line_error(result)
    assert f"pieces.toml: {key}: unknown icon ':coins:'" in line
    assert not (tmp_path / "out" / "pieces").exists()
