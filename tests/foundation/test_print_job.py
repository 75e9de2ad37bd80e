"""kit.pdf as one print job, checked by simulating the printer: double-sided with a long-edge flip
at actual size, then cut and folded. Every kit on A4 and Letter: all pages portrait and the same
size; every component starts on a front (odd page); single-sided sheets have empty backs; duplex
backs lie behind their fronts; the booklet's sheets, folded after the flip, read in page order."""

from __future__ import annotations

import json
import os
import re

import pytest

from generator.printing.job import flip_point
from generator.starter import write_starter
from tests.conftest import build, mm, shared_build
from tests.pdf_reader import Document, Page, Rect, open_pdf

WORD = re.compile(r"\w{3,}|\d+")


def kits_in(out: str):
    for folder in sorted(os.listdir(out)):
        path = os.path.join(out, folder)
        if os.path.isdir(path):
            with open(os.path.join(path, "manifest.json"), encoding="utf-8") as handle:
                yield folder, path, json.load(handle)


def is_empty(page: Page) -> bool:
    return not page.get_drawings() and not page.get_text().strip() and not page.get_images()


def behind(x: float, y: float, width: float, height: float) -> tuple[float, float]:
    """The printer's long-edge flip of a portrait sheet, as the physical model: the point of the
    back that lies behind (x, y) of the front."""
    assert height > width
    return (width - x, y)


def test_the_flip_map_is_the_long_edge_flip():
    assert flip_point(10, 20, 210, 297) == behind(10, 20, 210, 297)
    assert flip_point(10, 20, 297, 210) == (10, 190)  # a landscape sheet turns over its top edge
    assert flip_point(10, 20, 210, 297, "short") == (10, 277)


def test_every_page_is_portrait_and_every_component_starts_on_a_front(every_kit):
    out, paper = every_kit
    for folder, path, manifest in kits_in(out):
        doc = open_pdf(os.path.join(path, "kit.pdf"))
        sizes = {(round(p.rect.width, 1), round(p.rect.height, 1)) for p in doc}
        assert len(sizes) == 1, (folder, sizes)
        ((w, h),) = sizes
        assert w < h, folder
        assert all(p.rotation == 0 for p in doc), folder
        assert len(doc) % 2 == 0, folder
        kit = manifest["kit"]
        assert len(kit["sheets"]) * 2 == len(doc)
        ids = [c["id"] for c in kit["components"]]
        assert "booklet" in ids, folder
        for component in kit["components"]:
            first, last = component["pages"]
            where = f"{paper} {folder} {component['id']}"
            assert first % 2 == 1 and last % 2 == 0, where
            assert not is_empty(doc[first - 1]), where
            assert component["stock"] in ("paper", "card"), where
            assert component["sides"] in ("single", "duplex"), where


def test_single_sided_sheets_have_empty_backs_and_duplex_ones_printed_backs(every_kit):
    out, paper = every_kit
    for folder, path, manifest in kits_in(out):
        doc = open_pdf(os.path.join(path, "kit.pdf"))
        for component in manifest["kit"]["components"]:
            first, last = component["pages"]
            for number in range(first + 1, last + 1, 2):
                where = f"{paper} {folder} {component['id']} page {number}"
                assert not is_empty(doc[number - 2]), where
                if component["sides"] == "single":
                    assert is_empty(doc[number - 1]), where
        cards = [c for c in manifest["kit"]["components"] if c["stock"] == "card"]
        assert all(c["sides"] == "single" for c in cards), folder  # no built-in counter has a back


def _half_texts(page: Page):
    """Return for the top and bottom half of a portrait page: its words and text's up vector."""
    height = page.rect.height
    halves: list[tuple[set[str], list[tuple[float, float]]]] = [(set(), []), (set(), [])]
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            _x0, y0, _x1, y1 = line["bbox"]
            if mm(height - y0) < 12:  # the sheet's footer: the scale check
                continue
            half = 0 if (y0 + y1) / 2 < height / 2 else 1
            text = "".join(span["text"] for span in line["spans"])
            words = set(WORD.findall(text.lower()))
            halves[half][0].update(words)
            if words:
                cos, sin = line["dir"]
                halves[half][1].append((round(sin), round(-cos)))  # up, y downwards
    return [(words, max(set(ups), key=ups.count) if ups else None) for words, ups in halves]


def _identify(words: set[str], pages: list[set[str]]) -> int | None:
    """Return the 1-based number of the booklet page whose words these are (None: blank)."""
    if not words:
        return None
    scores = [len(words & p) / len(words | p) for p in pages]
    best = max(range(len(pages)), key=lambda i: scores[i])
    assert scores[best] > 0.6, (sorted(words)[:20], scores)
    return best + 1


def _read_booklet(doc: Document, first: int, last: int, booklet: Document):
    """Print, flip, fold and read: return the booklet page numbers in the order a reader meets
    them, each with its up vector and whether the spine is on its left, in one common view."""
    reading = [set(WORD.findall(p.get_text().lower())) for p in booklet]
    width, height = doc[first - 1].rect.width, doc[first - 1].rect.height
    sheets = []
    for number in range(first, last + 1, 2):
        front, back = doc[number - 1], doc[number]
        halves = {}
        for side, page in (("front", front), ("back", back)):
            for half, (words, up) in enumerate(_half_texts(page)):
                cx, cy = width / 2, height / 4 + half * height / 2
                if side == "back":
                    # the region behind front half `half`: found through the flip, not assumed
                    cx, cy = behind(cx, cy, width, height)
                    half = 0 if cy < height / 2 else 1
                # the view: the sheets lie open flat at the centre spread, backs up (turned over the
                # spine, the fold at y = height / 2); a front is seen when its leaf is turned back
                if up is None:
                    view_up = None
                elif side == "front":
                    view_up = (up[0], -up[1])  # y upwards
                else:
                    view_up = (-up[0], up[1])  # through the flip, then over the spine
                centre_y = -cy if side == "front" else cy - height
                spine_y = -height / 2
                halves[(side, half)] = (_identify(words, reading), view_up, spine_y - centre_y)
        sheets.append(halves)
    # the cover: the half of the first front whose page has the spine on its left
    cover_half = None
    for half in (0, 1):
        _, up, towards_spine = sheets[0][("front", half)]
        if up is not None:
            right = (up[1], -up[0])
            if towards_spine * right[1] < 0:
                cover_half = half
    assert cover_half is not None, "no front half has its spine on the left"
    other = 1 - cover_half
    order = []
    for sheet in sheets:
        order += [sheet[("front", cover_half)], sheet[("back", cover_half)]]
    for sheet in reversed(sheets):
        order += [sheet[("back", other)], sheet[("front", other)]]
    return order, len(booklet)


def _check_reading(order, count: int, where: str) -> None:
    numbers = [n for n, _, _ in order]
    assert numbers[:count] == list(range(1, count + 1)), (where, numbers)
    assert all(n is None for n in numbers[count:]) or numbers[count:], where
    ups = {up for n, up, _ in order if up is not None}
    assert len(ups) == 1, (where, ups)
    for position, (number, up, towards_spine) in enumerate(order, 1):
        if up is None:
            continue
        right = (up[1], -up[0])
        spine_left = towards_spine * right[1] < 0
        assert spine_left == (position % 2 == 1), (where, position, number)


def test_the_booklet_reads_in_order_after_the_flip_and_the_fold(every_kit):
    out, paper = every_kit
    for folder, path, manifest in kits_in(out):
        doc = open_pdf(os.path.join(path, "kit.pdf"))
        booklet = open_pdf(os.path.join(path, "booklet.pdf"))
        (component,) = [c for c in manifest["kit"]["components"] if c["id"] == "booklet"]
        assert component["sides"] == "duplex"
        order, count = _read_booklet(doc, *component["pages"], booklet)
        assert len(order) % 4 == 0 and len(order) >= count
        _check_reading(order, count, f"{paper} {folder}")


def test_a_booklet_imposed_for_the_short_edge_does_not_read_in_order_with_a_long_edge_flip(tmp_path):
    # the simulation can fail: the booklet's own imposed file, turned upright, is for the short edge
    from generator.printing.imposition import find_paper, impose_booklet
    from generator.printing.job import upright
    from generator.render.pdf import write_pdf

    build(str(tmp_path), "nine-mens-morris", formats=["pdf"])
    path = tmp_path / "nine-mens-morris"
    booklet = open_pdf(str(path / "booklet.pdf"))
    from generator.components.kinds import context, find_kind
    from generator.definitions.loader import LAYOUTS_DIR, find_definition

    definition = find_definition("nine-mens-morris", LAYOUTS_DIR, "en")
    paper = find_paper("a4")
    ctx = context(definition, paper)
    pages = find_kind("booklet").build(definition.component("booklet"), ctx)[0].pages
    sides = [upright(s) for s in impose_booklet(pages, paper, "short")]
    with open(tmp_path / "short.pdf", "wb") as handle:
        write_pdf(sides, handle)
    doc = open_pdf(str(tmp_path / "short.pdf"))
    order, count = _read_booklet(doc, 1, len(doc), booklet)
    with pytest.raises(AssertionError):
        _check_reading(order, count, "short-edge imposition")


def test_single_sided_kits_have_no_blank_pages_and_the_booklet_in_reading_order():
    # the session's build of every kit single-sided (test_small_marks.py reads it too)
    for folder, path, manifest in kits_in(shared_build(paper="a4", formats=["pdf"], single_sided=True)):
        doc = open_pdf(os.path.join(path, "kit.pdf"))
        assert not any(is_empty(p) for p in doc), folder
        assert all(p.rect.width < p.rect.height for p in doc), folder
        assert manifest["kit"]["print"] == "single-sided"
        booklet = open_pdf(os.path.join(path, "booklet.pdf"))
        reading = [set(WORD.findall(p.get_text().lower())) for p in booklet]
        (component,) = [c for c in manifest["kit"]["components"] if c["id"] == "booklet"]
        first, last = component["pages"]
        numbers = []
        for number in range(first, last + 1):
            halves = _half_texts(doc[number - 1])
            ups = {up for _, up in halves if up is not None}
            assert len(ups) == 1, (folder, number)
            # lines read down the page (up to the right: sin of the direction > 0): top half first
            ((up_x, _),) = ups
            first_half = 0 if up_x > 0 else 1
            for words, _ in (halves[first_half], halves[1 - first_half]):
                if words:
                    numbers.append(_identify(words, reading))
        assert numbers == list(range(1, len(booklet) + 1)), (folder, numbers)


@pytest.mark.parametrize("offset", [None, "1.5,-0.8"])
def test_duplex_backs_lie_behind_their_fronts(tmp_path, offset):
    layouts = tmp_path / "layouts"
    write_starter("duplex-test", str(layouts))
    out = tmp_path / "out"
    build(str(out), "duplex-test", formats=["pdf"], layouts=str(layouts), duplex_offset=offset)
    ((_folder, path, manifest),) = list(kits_in(str(out)))
    doc = open_pdf(os.path.join(path, "kit.pdf"))
    dx, dy = (float(v) for v in offset.split(",")) if offset else (0.0, 0.0)
    # pieces printed on both sides (the booklet and a two-page print guide are running text)
    duplex = [
        c
        for c in manifest["kit"]["components"]
        if c["sides"] == "duplex" and c["id"] not in ("booklet", "print-guide")
    ]
    assert duplex, "the starter's counters have backs"
    checked = 0
    for component in duplex:
        first, last = component["pages"]
        for number in range(first, last + 1, 2):
            front, back = doc[number - 1], doc[number]
            width, height = mm(front.rect.width), mm(front.rect.height)
            cells = [
                d["rect"]
                for d in front.get_drawings()
                if d.get("color") and tuple(round(c, 2) for c in d["color"]) == (0.6, 0.6, 0.6)
            ]
            assert cells
            for d in back.get_drawings():
                r = d["rect"]
                if mm(r.y0) > height - 12:  # the footer and its scale check
                    continue
                x0, y0 = behind(mm(r.x1) - dx, mm(r.y0) - dy, width, height)
                x1, y1 = behind(mm(r.x0) - dx, mm(r.y1) - dy, width, height)
                inside = [
                    c
                    for c in cells
                    if mm(c.x0) - 0.3 <= x0
                    and x1 <= mm(c.x1) + 0.3
                    and mm(c.y0) - 0.3 <= y0
                    and y1 <= mm(c.y1) + 0.3
                ]
                assert inside, (number, r)
                checked += 1
    assert checked > 10


def test_the_print_guide_opens_the_kit_with_settings_sheets_and_checklist(every_kit):
    out, paper = every_kit
    for folder, path, manifest in kits_in(out):
        doc = open_pdf(os.path.join(path, "kit.pdf"))
        text = " ".join(doc[0].get_text().split())
        where = f"{paper} {folder}"
        assert manifest["title"] in text and "actual size" in text and "flip on the long edge" in text, where
        assert {"a4": "A4", "letter": "US Letter"}[paper] in text, where
        if manifest["seed"] is not None:
            assert f"seed {manifest['seed']}" in text, where
        components = manifest["kit"]["components"]
        assert components[0]["id"] == "print-guide" and components[0]["pages"][0] == 1, where
        for component in components[1:]:
            first, _last = component["pages"]
            row = re.search(rf"\b{first}\u2013\d+ ([^\u2013]*)", text)
            assert row and component["title"] in row.group(1), (where, component)
        total = len(doc) // 2
        assert f"{total} sheets in all" in text, where


@pytest.mark.parametrize(
    "game, lang, words",
    [
        (
            "push",
            "it",
            ["Stampare Push!", "dimensione reale", "capovolgendo sul lato lungo", "Tabellone", "Pedina"],
        ),
        ("centennial", "fr", ["Imprimer Centennial", "taille réelle", "bord long", "Bande", "Dés"]),
        ("everest", "fr", ["Imprimer Everest", "Feuille de joueur", "Règles"]),
    ],
)
def test_the_print_guide_speaks_the_kits_language(tmp_path, game, lang, words):
    build(str(tmp_path), game, formats=["pdf"], lang=lang)
    ((_folder, path, _manifest),) = list(kits_in(str(tmp_path)))
    text = " ".join(open_pdf(os.path.join(path, "kit.pdf"))[0].get_text().split())
    for word in words:
        assert word in text, (word, text[:300])
    assert "This bar is" not in text and "print guide" not in text


def _cut_cells(page: Page) -> list[Rect]:
    """Return the rectangles of the grey cut lines round each packed part."""
    cells = []
    for d in page.get_drawings():
        colour, width = d.get("color"), d.get("width") or 0
        if colour and abs(colour[0] - 0.604) < 0.01 and abs(mm(width) - 0.2) < 0.02:
            cells += [item[1] for item in d["items"] if item[0] == "re"]
    return cells


def test_parts_of_one_stock_share_sheets_within_one_of_the_area_bound(every_kit):
    from generator.components.kinds import KINDS
    from generator.definitions.loader import LAYOUTS_DIR, find_definition

    out, paper = every_kit
    for folder, path, manifest in kits_in(out):
        doc = open_pdf(os.path.join(path, "kit.pdf"))
        definition = find_definition(manifest["game"], LAYOUTS_DIR)
        margin = definition.paper["margin"]
        for stock in ("card", "paper"):
            packed = [s for s in manifest["kit"]["sheets"] if s["packed"] and s["stock"] == stock]
            if not packed:
                continue
            page = doc[packed[0]["pages"][0] - 1]
            printable = (mm(page.rect.width) - 2 * margin) * (mm(page.rect.height) - 2 * margin)
            area = 0.0
            for sheet in packed:
                cells = _cut_cells(doc[sheet["pages"][0] - 1])
                assert cells, (folder, sheet)
                area += sum(mm(c.width) * mm(c.height) for c in cells)
                for part in sheet["parts"]:
                    assert KINDS[definition.component(part).kind].stock == stock, (folder, part)
            where = (
                f"{paper} {folder} {stock}: {len(packed)} sheets for {area / printable:.2f} sheets of parts"
            )
            assert len(packed) <= area / printable + 1, where
        # every part that can be cut out and shares a stock with another sits on packed sheets
        kinds = {c.id: c.kind for c in definition.components}
        for sheet in manifest["kit"]["sheets"]:
            for part in sheet["parts"]:
                if kinds.get(part) in ("counters", "standees", "dice-nets", "quick-reference"):
                    assert sheet["packed"], (folder, part)


def test_parts_of_different_components_share_a_card_sheet(every_kit):
    out, _ = every_kit
    shared = {
        folder: sheet["parts"]
        for folder, _, manifest in kits_in(out)
        for sheet in manifest["kit"]["sheets"]
        if sheet["stock"] == "card" and len(sheet["parts"]) > 1
    }
    assert {"soldiers", "macguffins", "aid"} <= set(shared["barricades-seed3"])
    assert {"counters", "dice", "aid"} <= set(shared["centennial"])


def test_every_kit_has_a_quick_reference_card_and_a_booklet_without_blank_pages(every_kit):
    out, _paper = every_kit
    for folder, path, manifest in kits_in(out):
        ids = {c["id"]: c for c in manifest["kit"]["components"]}
        assert ids["aid"]["stock"] == "card", folder
        first, _ = ids["aid"]["pages"]
        card = open_pdf(os.path.join(path, "kit.pdf"))[first - 1].get_text()
        assert "quick reference" in card, folder
        booklet = open_pdf(os.path.join(path, "booklet.pdf"))
        assert len(booklet) % 4 == 0, folder
        for number, page in enumerate(booklet, 1):
            assert page.get_text().strip(), (folder, number)


@pytest.mark.parametrize(
    "game, lang, heading",
    [("centennial", "fr", "aide de jeu"), ("everest", "fr", "aide de jeu"), ("push", "it", "scheda rapida")],
)
def test_the_quick_reference_speaks_every_language_of_the_booklet(tmp_path, game, lang, heading):
    build(str(tmp_path), game, formats=["pdf"], lang=lang)
    ((_folder, path, manifest),) = list(kits_in(str(tmp_path)))
    (aid,) = [c for c in manifest["kit"]["components"] if c["id"] == "aid"]
    assert heading in open_pdf(os.path.join(path, "kit.pdf"))[aid["pages"][0] - 1].get_text()
