"""A title with an icon ("Lanterns :crown:") shows the icon wherever text is drawn without the
text layout of a card or a booklet paragraph (sheet footers, the booklet's running heads, a
board's title, a record sheet's heading), and the icon's name as a word wherever no icon can be
drawn (a file's <title>, a figure's aria label, a PDF's metadata, the manifest, the home page, a
Tabletop Simulator object, a print service's README): no produced file shows the raw ``:name:``."""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator.components.inline import Icons
from generator.model.inline import spoken
from generator.model.page import Group, Page, Text
from generator.printing.imposition import find_paper, footer
from generator.starter import write_starter
from tests.conftest import SVG_NS
from tests.shared import build

ICON = re.compile(r":[a-z][a-z0-9_-]{0,39}(?:=[#a-z0-9_-]+)?:")
GAME = "lanterns"
TITLE = "Lanterns :crown: Night"
NAMES = ("crown", "heart", "skull")  # the icons' names: words nowhere else in the starter kit


def raw_icons(folder: str) -> list[str]:
    """Return where a raw ``:name:`` shows in the files under folder: the text and metadata of
    every PDF, and every SVG, HTML, JSON and text file whole (tags and attributes too)."""
    found = []
    for root, _, names in os.walk(folder):
        for name in sorted(names):
            path = os.path.join(root, name)
            where = os.path.relpath(path, folder)
            if name.endswith(".pdf"):
                document = pdfium.PdfDocument(path)
                for key, value in document.get_metadata_dict().items():
                    if ICON.search(str(value)):
                        found.append(f"{where} metadata {key}: {value}")
                for number in range(len(document)):
                    text = document[number].get_textpage().get_text_range()
                    found += [f"{where} page {number + 1}: {m.group(0)}" for m in ICON.finditer(text)]
            elif name.endswith((".svg", ".html", ".json", ".txt")):
                text = Path(path).read_text(encoding="utf-8")
                found += [f"{where}: {text[max(0, m.start() - 40) : m.end()]!r}" for m in ICON.finditer(text)]
    return found


@pytest.fixture(scope="module")
def with_icons(tmp_path_factory) -> tuple[str, str]:
    """Return (the starter's kit with icons in its game title, subtitle and part titles built with
    every export, the same kit built tiled on gutter-fold sheets with bleed)."""
    root = tmp_path_factory.mktemp("title-icons")
    layouts = str(root / "layouts")
    write_starter(GAME, layouts)
    toml = Path(layouts, f"{GAME}.toml")
    text = toml.read_text(encoding="utf-8")
    for old, new in (
        ('title = "Lanterns"', f'title = "{TITLE}"'),
        (
            'subtitle = "A starter kit: one of every component"',
            'subtitle = "A starter kit :heart: of every part"',
        ),
        ('title = "Board"', 'title = "Board :heart:"'),
        ('title = "Action cards"', 'title = "Action :skull: cards"'),
        ('title = "Score pad"', 'title = "Score :heart: pad"'),
        ('title = "Runners"', 'title = "Runners :skull:"'),
    ):
        assert old in text, old
        text = text.replace(old, new, 1)
    toml.write_text(text, encoding="utf-8")
    full, tiled = str(root / "full"), str(root / "tiled")
    build(full, GAME, layouts=layouts, export=("tts", "cut"), service="tgc")
    build(
        tiled, GAME, layouts=layouts, gutter_fold=True, bleed="3mm", cell_size="60mm", formats=["pdf", "svg"]
    )
    return full, tiled


@pytest.mark.slow  # two builds of the starter kit
def test_no_produced_file_shows_a_raw_icon_name(with_icons):
    for out in with_icons:
        assert raw_icons(out) == []


def test_no_file_of_any_built_in_kit_shows_a_raw_icon_name(all_kits):
    assert raw_icons(all_kits) == []


@pytest.mark.slow  # two builds of the starter kit
def test_a_pdf_names_the_icons_of_its_title_in_words_in_its_metadata(with_icons):
    full, _ = with_icons
    titles = {
        name: pdfium.PdfDocument(os.path.join(full, GAME, name)).get_metadata_dict()["Title"]
        for name in ("kit.pdf", "booklet.pdf", "board.pdf")
    }
    assert (
        titles["kit.pdf"]
        == f"{spoken(TITLE)}: print-and-play kit"
        == "Lanterns crown Night: print-and-play kit"
    )
    assert titles["board.pdf"].startswith("Lanterns crown Night: Board heart")


@pytest.mark.slow  # two builds of the starter kit
def test_drawn_text_shows_the_icon_and_never_its_name(with_icons):
    """Every page of every PDF: the footers, running heads and headings read "Lanterns Night"
    round a drawn icon; the name, a word the kit has nowhere else, is never drawn as text."""
    for out in with_icons:
        for root, _, names in os.walk(out):
            for name in names:
                if not name.endswith(".pdf") or "service" in root:
                    continue
                document = pdfium.PdfDocument(os.path.join(root, name))
                for number in range(len(document)):
                    text = document[number].get_textpage().get_text_range()
                    words = set(re.findall(r"[a-z]+", text.lower()))
                    assert not words & set(NAMES), (name, number + 1, words & set(NAMES))
    kit = pdfium.PdfDocument(os.path.join(with_icons[0], GAME, "kit.pdf"))
    pages = [kit[n].get_textpage().get_text_range() for n in range(len(kit))]
    printed = [t for t in pages if t.strip()]  # blank backs aside, every sheet has its footer
    assert len(printed) > 10 and all(re.search(r"Lanterns\s+Night", t) for t in printed)


def footer_runs(path: str) -> list[tuple[float, str, bool]]:
    """Return the footer line of an SVG page (the page's text on its lowest baseline) as its items in
    drawing order: (x, text, False) for a run of text, (x, "", True) for a drawn shape on that line."""
    children = list(ET.parse(path).getroot())  # a footer is drawn on the page, in no group
    texts = [e for e in children if e.tag == SVG_NS + "text" and e.get("y")]
    baseline = max(float(e.get("y", 0)) for e in texts)
    line: list[tuple[float, str, bool]] = []
    for element in children:
        if element.tag == SVG_NS + "text" and element.get("y") and float(element.get("y", 0)) == baseline:
            line.append((float(element.get("x", 0)), element.text or "", False))
        elif element.tag == SVG_NS + "path" and line and not line[-1][2]:
            line.append((0.0, "", True))
    return line


@pytest.mark.slow  # two builds of the starter kit
def test_every_sheet_footer_draws_the_icon_between_the_words_of_the_title(with_icons):
    svgs = [
        os.path.join(out, GAME, name)
        for out in with_icons
        for name in sorted(os.listdir(os.path.join(out, GAME)))
        if name.endswith(".svg") and not name.startswith(("booklet", "preview"))
    ]
    assert len(svgs) > 10
    for path in svgs:
        runs = footer_runs(path)
        words = [text for _, text, icon in runs if not icon]
        assert words[0] == "Lanterns ", (path, runs)
        assert runs[1][2], (path, runs)  # the crown, drawn between the words
        assert words[1].startswith(" Night: "), (path, runs)


@pytest.mark.slow  # two builds of the starter kit
def test_the_booklet_running_head_draws_the_icon(with_icons):
    page = os.path.join(with_icons[0], GAME, "booklet-2.svg")
    runs = footer_runs(page)
    words = [text for _, text, icon in runs if not icon]
    assert "Lanterns " in words and " Night" in words and any(icon for _, _, icon in runs), runs


@pytest.mark.slow  # two builds of the starter kit
def test_the_manifest_and_home_page_say_the_titles_in_words(with_icons):
    full, _ = with_icons
    manifest = json.loads(Path(full, GAME, "manifest.json").read_text(encoding="utf-8"))
    assert manifest["title"] == "Lanterns crown Night"
    assert manifest["subtitle"] == "A starter kit heart of every part"
    titles = {c["id"]: c["title"] for c in manifest["kit"]["components"]}
    assert titles["board"] == "Board heart" and titles["deck"] == "Action skull cards"
    home = Path(full, "index.html").read_text(encoding="utf-8")
    assert "Lanterns crown Night" in home and "Action skull cards" in home


@pytest.mark.slow  # two builds of the starter kit
def test_svg_titles_and_figure_labels_say_the_icons_in_words(with_icons):
    full, _ = with_icons
    board = ET.parse(os.path.join(full, GAME, "board.svg")).getroot()
    assert board.find(SVG_NS + "title").text == "Lanterns crown Night: Board heart"
    html = Path(full, GAME, "booklet.html").read_text(encoding="utf-8")
    labels = re.findall(r'aria-label="([^"]*)"', html)
    assert any(label.startswith("Board heart") for label in labels), labels
    assert "<title>Lanterns crown Night" in html


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("My :moon: Game", "My moon Game"),
        ("Gain 2:coin:each", "Gain 2 coin each"),
        (":machine-gunner: first", "machine gunner first"),
        ("10::30", "10:30"),
        ("no icon: here", "no icon: here"),
    ],
)
def test_spoken_writes_each_icon_as_its_name_a_word_apart(text, words):
    assert spoken(text) == words


def test_a_footer_draws_the_icon_of_its_text_or_names_it_without_icons():
    paper = find_paper("a4")
    blank = Page(paper.width, paper.height)
    drawn = footer(blank, paper, "Lanterns :crown: Night: Board", Icons()).shapes
    assert [type(s) for s in drawn] == [Text, Group, Text]
    assert (drawn[0].text, drawn[2].text) == ("Lanterns ", " Night: Board")
    assert drawn[1].children and drawn[0].x < drawn[2].x
    (named,) = footer(blank, paper, "Lanterns :crown: Night: Board").shapes
    assert isinstance(named, Text) and named.text == "Lanterns crown Night: Board"
    (plain,) = footer(blank, paper, "Lanterns: Board", Icons()).shapes
    assert isinstance(plain, Text) and plain.text == "Lanterns: Board"
