"""index.html, the kits' home page: a card per kit with kit.pdf first and the print guide's settings,
every part of kit.pdf with its pages and stock, the booklet in every language, a batch's seeds and
its PDF of every board; variants in folders of their own; the same bytes for the same kits."""

from __future__ import annotations

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.foundation.languages import LANGUAGES
from generator.foundation.languages import text as catalogue_text
from generator.kits.homepage import card_pages
from generator.kits.index import write_index
from tests.conftest import ROOT, build
from tests.foundation.test_translations import ENGLISH, words
from tests.pdf_reader import open_pdf


class _Cards(HTMLParser):
    """Collects, per kit card (section.kit), its links in order, its text and its headings."""

    def __init__(self) -> None:
        super().__init__()
        self.cards: dict[str, dict] = {}
        self.current: dict | None = None
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section" and "kit" in (attrs.get("class") or "").split():
            self.current = self.cards[attrs["id"]] = {"links": [], "text": [], "images": []}
            self.depth = 0
        if self.current is None:
            return
        if tag == "section":
            self.depth += 1
        if tag == "a" and attrs.get("href"):
            self.current["links"].append(attrs["href"])
        if tag == "img":
            self.current["images"].append(attrs)

    def handle_endtag(self, tag):
        if self.current is not None and tag == "section":
            self.depth -= 1
            if self.depth == 0:
                self.current = None

    def handle_data(self, data):
        if self.current is not None:
            self.current["text"].append(data)


def cards_of(out: Path) -> dict[str, dict]:
    parser = _Cards()
    parser.feed((out / "index.html").read_text(encoding="utf-8"))
    for card in parser.cards.values():
        card["text"] = re.sub(r"\s+", " ", "".join(card["text"]))
    return parser.cards


def manifest_of(out: Path, folder: str) -> dict:
    return json.loads((out / folder / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    """Every built-in kit, an Aggression batch of seeds 3-6 and Aggression seed 7 connected."""
    out = tmp_path_factory.mktemp("home")
    build(str(out))
    build(str(out), "aggression", seeds="3-6")
    build(str(out), "aggression", seed="7", variants=["connected"])
    return out


def test_every_kit_has_a_card_that_starts_with_kit_pdf_and_its_print_settings(home):
    cards = cards_of(home)
    kits = sorted(p.name for p in home.iterdir() if (p / "manifest.json").is_file())
    batch_later = [k for k in kits if manifest_of(home, k).get("shared_from")]
    assert sorted(cards) == sorted(set(kits) - set(batch_later))
    for folder, card in cards.items():
        manifest = manifest_of(home, folder)
        preview = [link for link in card["links"] if link.endswith(".svg")][:1]
        first = next(link for link in card["links"] if link not in preview)
        assert first == f"{folder}/kit.pdf", folder  # one click from the game to the file to print
        text = card["text"]
        assert manifest["title"] in text
        players = manifest["players"].replace("-", "\u2013")
        assert f"Players {players}" in text
        if manifest["playing_time"]:
            assert manifest["playing_time"].replace("-", "\u2013") in text
        if manifest["seed"] is not None:
            assert f"Seed {manifest['seed']}" in text
        for variant in manifest["variants"]:
            assert variant in text
        assert "double-sided" in text and "flip on the long edge" in text and "actual size" in text
        cards_at = card_pages(manifest["kit"])
        assert cards_at, folder  # every built-in kit has parts on card
        assert f"for {'page' if len(cards_at) == 1 else 'pages'} {', '.join(cards_at)}, single-sided" in text
        for part in manifest["kit"]["components"]:
            first_page, last_page = part["pages"]
            pages = str(first_page) if first_page == last_page else f"{first_page}\u2013{last_page}"
            assert re.search(
                re.escape(part["title"]) + r"\s*" + re.escape(pages) + r"\s*" + part["stock"], text
            ), (
                folder,
                part["id"],
            )
        for booklet in manifest["booklets"]:
            assert f"{folder}/{booklet['html']}" in card["links"]
            if "pdf" in booklet:  # the kit's own language (the others are web pages only)
                assert f"{folder}/{booklet['pdf']}" in card["links"]
        assert any("pdf" in b for b in manifest["booklets"]), folder
        assert [i["src"] for i in card["images"]] == [f"{folder}/preview.svg"]
        assert all(i["alt"].startswith(manifest["title"]) for i in card["images"])


def _settings(out: Path, folder: str) -> list[str]:
    """Return the print settings of a kit's card on the home page as text, one per item."""
    page = (out / "index.html").read_text(encoding="utf-8")
    block = re.search(
        rf'<section class="kit[^"]*" id="{folder}".*?<div class="print">(.*?)</div>', page, re.S
    )
    assert block, folder
    return [re.sub(r"<[^>]+>", "", item).strip() for item in block.group(1).split("<li>")[1:]]


# French in the fast tier (a language other than the definitions' own), the others slow
@pytest.mark.parametrize(
    "lang",
    [lang if lang == "fr" else pytest.param(lang, marks=pytest.mark.slow) for lang in sorted(LANGUAGES)],
)
def test_a_gutter_fold_kit_names_its_gutter_fold_sheets_in_the_page_language(tmp_path, lang):
    # the French-suited deck (cards with a back) in every language pnp writes: only its
    # definition's languages change, so its home page is in that language
    layouts = tmp_path / "french-deck"
    for source in (Path(ROOT) / "examples" / "french-deck").rglob("*"):
        target = layouts / source.relative_to(Path(ROOT) / "examples" / "french-deck")
        if source.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    toml = layouts / "french-deck.toml"
    text = toml.read_text(encoding="utf-8")
    assert 'languages = ["en"]' in text
    toml.write_text(
        text.replace('languages = ["en"]', f"languages = {sorted(LANGUAGES)!r}".replace("'", '"'))
    )
    out = tmp_path / "out"
    build(str(out), "french-deck", layouts=str(layouts), gutter_fold=True, lang=lang, formats=["pdf"])
    manifest = manifest_of(out, "french-deck")
    folded = [s["pages"] for s in manifest["kit"]["sheets"] if "fold" in s]
    assert folded and manifest["kit"]["print"] == "single-sided"
    pages = [str(p) for first, last in folded for p in range(first, last + 1)]
    settings = _settings(out, "french-deck")
    # after "print single-sided" an item says which pages are gutter-fold sheets: every one, no other
    assert settings[0] == re.sub(r"<[^>]+>", "", catalogue_text("home.single", lang))
    item = settings[1]
    named: list[str] = []
    for run in re.findall(r"\d+(?:\u2013\d+)?", item):
        first, _, last = run.partition("\u2013")
        named += [str(p) for p in range(int(first), int(last or first) + 1)]
    assert named == pages, item
    if lang == "en":
        assert "gutter-fold" in item
    else:
        assert not [w for w in words(item) if w.lower() in ENGLISH], item


def test_a_kit_without_gutter_fold_sheets_says_nothing_of_gutter_fold(home):
    for folder in cards_of(home):
        assert not any("gutter" in s for s in _settings(home, folder)), folder


def test_a_booklet_in_several_languages_is_linked_in_each(home):
    card = cards_of(home)["centennial"]
    for name in ("booklet.html", "booklet.pdf", "booklet.fr.html", "booklet.it.html"):
        assert f"centennial/{name}" in card["links"]
        assert (home / "centennial" / name).is_file()
    assert "Français" in card["text"] and "English" in card["text"] and "Italiano" in card["text"]


def test_a_batch_lists_its_seeds_and_links_the_pdf_of_every_board(home):
    card = cards_of(home)["aggression-seed3"]
    assert "aggression-seeds3-6.pdf" in card["links"]
    for seed in (4, 5, 6):
        folder = f"aggression-seed{seed}"
        assert manifest_of(home, folder)["shared_from"] == "aggression-seed3"
        assert any(link.startswith(f"{folder}/") for link in card["links"]), seed
        assert f"seed {seed}" in card["text"]


def test_a_variant_has_its_own_folder_beside_the_plain_seed(home):
    plain, connected = manifest_of(home, "aggression-seed7"), manifest_of(home, "aggression-seed7-connected")
    assert plain["variants"] == [] and connected["variants"] == ["connected"]
    assert connected["seed"] == plain["seed"] == 7
    assert (home / "aggression-seed7-connected" / "kit.pdf").is_file()
    assert (home / "aggression-seed7" / "kit.pdf").is_file()
    card = cards_of(home)["aggression-seed7-connected"]
    assert "Variant connected" in card["text"]


def test_every_link_of_the_home_page_is_a_file_or_a_card(home):
    index = (home / "index.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'\sid="([^"]+)"', index))
    for href in re.findall(r'href="([^"]+)"', index):
        if href.startswith("#"):
            assert href[1:] in ids, href
            continue
        path, _, fragment = href.partition("#")
        assert (home / path).is_file(), href
        if fragment:  # a part's first page in kit.pdf
            assert path.endswith("kit.pdf") and fragment.startswith("page="), href
            assert 1 <= int(fragment[5:]) <= len(open_pdf(home / path)), href


def test_the_home_page_is_the_same_bytes_for_the_same_kits(home, tmp_path):
    before = (home / "index.html").read_bytes()
    write_index(str(home))
    assert (home / "index.html").read_bytes() == before
    # the same kits built in another order give the same page
    out = tmp_path / "other"
    build(str(out), "aggression", seed="7", variants=["connected"])
    build(str(out), "verbal")
    build(str(out), "aggression", seeds="3-6")
    mine = tmp_path / "mine"
    build(str(mine), "aggression", seeds="3-6")
    build(str(mine), "verbal")
    build(str(mine), "aggression", seed="7", variants=["connected"])
    assert (out / "index.html").read_bytes() == (mine / "index.html").read_bytes()


def test_the_previews_of_every_built_in_kit_load_under_2_mb(all_kits):
    out = Path(all_kits)
    index = (out / "index.html").read_text(encoding="utf-8")
    images = re.findall(r'<img[^>]*\ssrc="([^"]+)"', index)
    assert len(images) == 8
    loaded = len(index.encode()) + sum(os.path.getsize(out / src) for src in images)
    assert loaded < 2_000_000
