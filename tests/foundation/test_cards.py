"""Card decks read back from the PDF: one card per copy in the quantity column, cards at their
true size between crop marks, backs behind their fronts after a long-edge flip, and one-line
errors naming the CSV file, the row and the column."""

from __future__ import annotations

import itertools
import os
from collections import Counter

import pypdf
import pytest

from generator.components.base import Options
from generator.components.cards import SIZES, card_size
from generator.definitions.loader import load_definition
from generator.definitions.values import templates_for
from generator.kits.kit import layout_findings
from generator.kits.plan import kit_plan
from tests.conftest import mm
from tests.foundation.test_cli import one_line_error, pnp
from tests.pdf_reader import Page, open_pdf

GAME = """
[game]
id = "deck"
title = "Deck"
players = "2"

[palette]
gold = "#e69f00"
blue = "#0072b2"
pale = "#f6f1e4"

[components.deck]
kind = "cards"
title = "Actions"
size = "{size}"
{source}
frame = "#999999"

[[components.deck.fields]]
kind = "band"
h = "14mm"
fill = "{{colour}}"
[[components.deck.fields]]
text = "{{name}}"
x = "4mm"
y = "3mm"
h = "8mm"
size = 12
font = "sans-bold"
valign = "middle"
[[components.deck.fields]]
kind = "symbol"
symbol = "{{symbol}}"
x = "4mm"
y = "17mm"
w = "12mm"
h = "12mm"
[[components.deck.fields]]
text = "{{text}}"
x = "4mm"
y = "31mm"
h = "20mm"
size = 10
align = "centre"
valign = "middle"

[components.deck.backs.move]
fill = "gold"
symbol = "star"
text = "MOVE"
[components.deck.backs.event]
fill = "blue"
text = "EVENT"

[components.booklet]
kind = "booklet"
cover = false
"""
CSV = """name,type,quantity,colour,symbol,text
Sprint,move,3,gold,star,Move one runner two squares forward.
Sidestep,move,4,blue,diamond,Move one runner one square sideways.
Fog,event,2,pale,moon,"Nobody may jump this round.
Discard it at the start of your next turn."
Shelter,event,1,pale,flag,A runner of yours cannot be jumped until your next turn.
Spare,event,0,pale,flag,Not printed.
"""
COUNTS = {"Sprint": 3, "Sidestep": 4, "Fog": 2, "Shelter": 1}
FILLS = {"move": (0xE6, 0x9F, 0x00), "event": (0x00, 0x72, 0xB2)}
TYPES = {"Sprint": "move", "Sidestep": "move", "Fog": "event", "Shelter": "event"}


def write_deck(root, csv: str | None = CSV, size: str = "poker", source: str = 'csv = "deck.csv"') -> str:
    layouts = root / "layouts"
    layouts.mkdir(exist_ok=True)
    (layouts / "deck.toml").write_text(GAME.format(size=size, source=source))
    if csv is not None:
        (layouts / "deck.csv").write_text(csv, encoding="utf-8")
    booklets = root / "templates" / "booklets"
    booklets.mkdir(parents=True, exist_ok=True)
    (booklets / "deck.en.md.j2").write_text("# Deck\n\n::: figure deck | The cards.\n")
    return str(layouts / "deck.toml")


def build_deck(root, *extra: str, **kwargs) -> str:
    write_deck(root, **kwargs)
    out = root / "out"
    result = pnp("build", "deck", "--layouts", "layouts", "--out", str(out), "--parts", *extra, cwd=str(root))
    assert result.returncode == 0, result.stderr
    return os.path.join(out, "deck")


def cut_rects(page: Page) -> list[tuple[float, float, float, float]]:
    """Return the cut lines' rectangles (x, y, w, h in mm) of a sheet: the grey 0.2 mm outlines."""
    rects = []
    for path in page.get_drawings():
        colour = path.get("color")
        if path.get("fill") is None and colour and round(colour[0] * 255) == 0x9A and len(path["items"]) == 1:
            if path["items"][0][0] == "re":
                r = path["items"][0][1]
                rects.append((mm(r.x0), mm(r.y0), mm(r.width), mm(r.height)))
    return rects


def names_at(page: Page) -> list[tuple[str, float, float]]:
    """Return (card name, x, y in mm) of every card title on a page."""
    found = []
    for word in page.get_text("words"):
        if word[4] in COUNTS:
            found.append((word[4], mm(word[0]), mm(word[1])))
    return found


def fill_rects(page: Page, rgb: tuple[int, int, int]) -> list[tuple[float, float, float, float]]:
    out = []
    for path in page.get_drawings():
        fill = path.get("fill")
        if fill and tuple(round(c * 255) for c in fill) == rgb and path["items"][0][0] == "re":
            r = path["rect"]
            out.append((mm(r.x0), mm(r.y0), mm(r.width), mm(r.height)))
    return out


def test_one_card_per_copy_in_the_quantity_column(tmp_path):
    kit = build_deck(tmp_path)
    doc = open_pdf(os.path.join(kit, "deck.pdf"))
    fronts = [page for page in doc if "backs" not in page.get_text()]
    seen = Counter(name for page in fronts for name, _, _ in names_at(page))
    assert seen == Counter(COUNTS)
    assert sum(len(cut_rects(page)) for page in fronts) == sum(COUNTS.values())
    assert "Not printed" not in "".join(page.get_text() for page in doc)
    text = "".join(page.get_text() for page in fronts)
    assert "Discard it at the start" in text  # a line break inside a CSV cell


@pytest.mark.parametrize("size", [*SIZES, "70mm x 100mm", "2.5in x 3.5in"])
def test_cards_print_at_their_true_size_between_crop_marks(tmp_path, size):
    kit = build_deck(tmp_path, size=size)
    width, height = card_size(size)
    page = open_pdf(os.path.join(kit, "deck.pdf"))[0]
    rects = cut_rects(page)
    assert rects
    for _, _, w, h in rects:
        assert w == pytest.approx(width, abs=0.01) and h == pytest.approx(height, abs=0.01)
    # crop marks in the margins continue the cut lines: short black segments above the cards in
    # line with their edges, one card width apart
    top = min(y for _, y, _, _ in rects)
    marks_x = sorted(
        {
            round(mm(item[1].x), 2)
            for path in page.get_drawings()
            if path.get("color") == (0.0, 0.0, 0.0) and path.get("fill") is None
            for item in path["items"]
            if item[0] == "l" and abs(item[1].x - item[2].x) < 1e-6 and mm(max(item[1].y, item[2].y)) < top
        }
    )
    assert len(marks_x) >= 2
    steps = {round(b - a, 1) for a, b in itertools.pairwise(marks_x)}
    assert steps == {round(width, 1)}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_back_lies_behind_its_front_after_a_long_edge_flip(tmp_path, paper):
    kit = build_deck(tmp_path, "--paper", paper)
    for name in ("deck.pdf", "kit.pdf"):
        doc = open_pdf(os.path.join(kit, name))
        checked = 0
        for i, page in enumerate(doc):
            fronts = names_at(page)
            if not fronts or "cut along the grey lines" not in page.get_text():
                continue  # a backs page, or a booklet page showing the cards
            back = doc[i + 1]
            assert "flip on the long edge" in back.get_text()
            width = mm(page.rect.width)
            rects = cut_rects(page)
            for kind, rgb in FILLS.items():
                expected = sorted(
                    (width - x - w, y)
                    for x, y, w, h in rects
                    for card, nx, ny in fronts
                    if TYPES[card] == kind and x <= nx <= x + w and y <= ny <= y + h
                )
                placed = sorted((x, y) for x, y, _, _ in fill_rects(back, rgb))
                assert len(placed) == len(expected), (name, kind)
                for (px, py), (ex, ey) in zip(placed, expected):
                    assert px == pytest.approx(ex, abs=0.02) and py == pytest.approx(ey, abs=0.02), (
                        name,
                        kind,
                    )
                checked += len(expected)
        assert checked == sum(COUNTS.values())


def test_an_inline_deck_needs_no_csv(tmp_path):
    source = (
        'cards = [{ name = "Sprint", type = "move", quantity = 2, colour = "gold", symbol = "star", '
        'text = "Go." }, { name = "Fog", type = "event", quantity = 1, colour = "pale", symbol = "moon", '
        'text = "Wait." }]'
    )
    kit = build_deck(tmp_path, source=source, csv=None)
    doc = open_pdf(os.path.join(kit, "deck.pdf"))
    assert Counter(n for p in doc for n, _, _ in names_at(p)) == Counter({"Sprint": 2, "Fog": 1})


BAD = [
    (CSV.replace("Sprint,move,3", "Sprint,move,three"), "deck.csv: row 2, column 'quantity'", "whole number"),
    (
        CSV.replace("Fog,event,2,pale", "Fog,event,2,pink"),
        "deck.csv: row 4, column 'colour'",
        "unknown colour 'pink'",
    ),
    (
        CSV.replace("Sidestep,move,4,blue,diamond", "Sidestep,move,4,blue,spade"),
        "deck.csv: row 3, column 'symbol'",
        "unknown symbol 'spade'",
    ),
    # Shelter is on the sixth line of the file but in row 5: the Fog cell above holds a line break
    (
        CSV.replace("Shelter,event,1,pale,flag,A", "Shelter,event,1,pale,flag," + "very " * 80 + "A"),
        "deck.csv: row 5, column 'text'",
        "does not fit",
    ),
    (
        CSV.replace("Sprint,move,3,gold,star,Move", "Sprint,move,3,gold,star,x,Move"),
        "deck.csv: row 2",
        "7 cells",
    ),
    (CSV.replace("name,type", "name,name"), "deck.csv: row 1", "named twice"),
    (
        CSV.replace("Sprint,move,3,gold,star,Move", "Sprint,move,3,gold,star,\u2603 Move"),
        "deck.csv: row 2, column 'text'",
        "no glyph",
    ),
    ("", "deck.csv", "empty"),
    (CSV + '"Unclosed,event,1,pale,flag,text\n', "deck.csv: line", "not CSV"),
    (CSV.replace("colour", "color"), "components.deck.fields[0].fill", "no column 'colour'"),
]


@pytest.mark.parametrize(("csv", "where", "words"), BAD)
def test_a_bad_deck_is_a_one_line_error_naming_file_row_and_column(tmp_path, csv, where, words):
    write_deck(tmp_path, csv=csv)
    for command in (("check", "layouts/deck.toml"), ("build", "deck", "--layouts", "layouts", "--out", "o")):
        result = pnp(*command, cwd=str(tmp_path))
        assert result.returncode == 3
        line = one_line_error(result)
        assert where in line and words in line, line
    assert not os.path.exists(tmp_path / "o" / "deck")


def test_a_csv_file_that_is_too_large_missing_or_not_text_is_refused(tmp_path):
    write_deck(tmp_path, csv="name,quantity\n" + "x,1\n" * 300_000)
    assert "larger than 1000000 bytes" in one_line_error(pnp("check", "layouts/deck.toml", cwd=str(tmp_path)))
    (tmp_path / "layouts" / "deck.csv").write_bytes(b"name,quantity\n\xff\xfe,1\n")
    assert "not UTF-8" in one_line_error(pnp("check", "layouts/deck.toml", cwd=str(tmp_path)))
    os.remove(tmp_path / "layouts" / "deck.csv")
    line = one_line_error(pnp("check", "layouts/deck.toml", cwd=str(tmp_path)))
    assert "components.deck.csv" in line and "no CSV file" in line
    write_deck(tmp_path, csv=None, source='csv = "/dev/zero"')
    assert "beside the definition" in one_line_error(pnp("check", "layouts/deck.toml", cwd=str(tmp_path)))
    os.symlink("/dev/zero", tmp_path / "layouts" / "zero.csv")
    write_deck(tmp_path, csv=None, source='csv = "zero.csv"')
    assert "outside the definition's folder" in one_line_error(
        pnp("check", "layouts/deck.toml", cwd=str(tmp_path))
    )
    os.mkfifo(tmp_path / "layouts" / "fifo.csv")  # no writer: opening it must not wait for one
    write_deck(tmp_path, csv=None, source='csv = "fifo.csv"')
    assert "device or special file" in one_line_error(pnp("check", "layouts/deck.toml", cwd=str(tmp_path)))


def test_every_page_of_a_deck_passes_the_layout_check(tmp_path):
    path = write_deck(tmp_path)
    definition = load_definition(path, templates_for(os.path.dirname(path)))
    findings = []
    for paper, ink in (("a4", False), ("letter", True)):
        findings.extend(layout_findings(kit_plan(definition, paper=paper, options=Options(ink_saver=ink))))
    assert not findings, "\n".join(map(str, findings[:20]))


def test_at_a_print_shop_cards_bleed_and_each_card_face_is_a_png(tmp_path):
    from PIL import Image

    kit = build_deck(tmp_path, "--bleed", "3mm", "--png", "150")
    page = open_pdf(os.path.join(kit, "deck.pdf"))[0]
    rects = cut_rects(page)
    assert rects and all(w == pytest.approx(63.0, abs=0.01) for _, _, w, _ in rects)
    lefts = sorted({round(x, 2) for x, _, _, _ in rects})
    assert all(b - a == pytest.approx(63.0 + 6.0, abs=0.02) for a, b in itertools.pairwise(lefts))
    # the title band (gold on a Sprint card) runs 3 mm past the card's top and sides
    band = [r for r in fill_rects(page, FILLS["move"]) if r[2] > 63.0]
    assert band
    x, y, w, _ = band[0]
    cut = min(rects, key=lambda r: abs(r[0] - (x + 3.0)) + abs(r[1] - (y + 3.0)))
    assert x == pytest.approx(cut[0] - 3.0, abs=0.02) and y == pytest.approx(cut[1] - 3.0, abs=0.02)
    assert w == pytest.approx(69.0, abs=0.02)
    folder = os.path.join(kit, "png")
    for name in COUNTS:
        for side in ("front", "back"):
            with Image.open(os.path.join(folder, f"deck-{name.lower()}-{side}.png")) as image:
                assert image.size == (round(69.0 / 25.4 * 150), round(94.0 / 25.4 * 150))


PICTURES = """
[[components.deck.fields]]
kind = "image"
image = "art/{{picture}}"
x = "20mm"
y = "16mm"
w = "39mm"
h = "14mm"
fit = "{fit}"
"""


def write_pictures(root, fit: str = "contain") -> None:
    from PIL import Image

    art = root / "layouts" / "art"
    art.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (300, 100), (230, 159, 0)).save(art / "wide.png")
    Image.new("RGB", (60, 120), (0, 114, 178)).save(art / "tall.jpg", quality=85)
    (art / "notes.png").write_text("not a picture")
    path = root / "layouts" / "deck.toml"
    path.write_text(
        path.read_text().replace(
            "[components.deck.backs.move]", PICTURES.format(fit=fit) + "\n[components.deck.backs.move]"
        )
    )


PICTURE_CSV = CSV.replace(
    "name,type,quantity,colour,symbol,text", "name,type,quantity,colour,symbol,text,picture"
)
PICTURE_CSV = (
    PICTURE_CSV.replace("forward.\n", "forward.,wide.png\n")
    .replace("sideways.\n", "sideways.,tall.jpg\n")
    .replace('next turn."\n', 'next turn.",\n')
    .replace("until your next turn.\n", "until your next turn.,wide.png\n")
    .replace("Not printed.\n", "Not printed.,\n")
)


@pytest.mark.parametrize("fit", ["contain", "cover", "stretch"])
def test_pictures_from_a_column_fill_their_box_once_stored(tmp_path, fit):
    write_deck(tmp_path, csv=PICTURE_CSV)
    write_pictures(tmp_path, fit)
    out = tmp_path / "out"
    result = pnp("build", "deck", "--layouts", "layouts", "--out", str(out), "--parts", cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    doc = open_pdf(os.path.join(out, "deck", "deck.pdf"))
    stored = pypdf.PdfReader(os.path.join(out, "deck", "deck.pdf")).pages
    total = 0
    for number, page in enumerate(doc):
        if "cut along the grey lines" not in page.get_text():
            continue
        xobjects = stored[number]["/Resources"].get("/XObject", {})
        images = [name for name in xobjects if xobjects[name]["/Subtype"] == "/Image"]
        assert len(images) <= 2  # each file stored once however many cards show it
        drawn = page.get_images()
        total += len(drawn)
        rects = cut_rects(page)
        for r in drawn:
            x, y, w, h = mm(r.x0), mm(r.y0), mm(r.width), mm(r.height)
            card = next(
                c for c in rects if c[0] <= x + w / 2 <= c[0] + c[2] and c[1] <= y + h / 2 <= c[1] + c[3]
            )
            centre = (card[0] + 20.0 + 39.0 / 2, card[1] + 16.0 + 14.0 / 2)
            assert x + w / 2 == pytest.approx(centre[0], abs=0.05)
            assert y + h / 2 == pytest.approx(centre[1], abs=0.05)
            if fit == "stretch":
                assert (w, h) == (pytest.approx(39.0, abs=0.05), pytest.approx(14.0, abs=0.05))
            elif fit == "contain":
                assert w <= 39.05 and h <= 14.05 and (abs(w - 39.0) < 0.05 or abs(h - 14.0) < 0.05)
                assert w / h == pytest.approx(3.0 if w > h else 0.5, rel=0.01)
            else:
                assert w >= 38.95 and h >= 13.95  # cut to the box by a clip
    assert total == 3 + 4 + 1  # Sprint x3, Sidestep x4, Shelter x1 (Fog has none)
    svg = open(os.path.join(out, "deck", "deck-1.svg"), encoding="utf-8").read()
    assert svg.count("<image") >= 1 and "data:image/png;base64," in svg and "data:image/jpeg" in svg


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (("tall.jpg", "missing.png"), "deck.csv: row 3, column 'picture'", "no such file"),
        (("tall.jpg", "notes.png"), "deck.csv: row 3, column 'picture'", "not a PNG or JPEG"),
        (("tall.jpg", "../deck.toml"), "deck.csv: row 3, column 'picture'", "folder or below it"),
    ],
)
def test_a_bad_picture_is_a_one_line_error_naming_its_row_and_column(tmp_path, change, where, words):
    write_deck(tmp_path, csv=PICTURE_CSV.replace(*change))
    write_pictures(tmp_path)
    result = pnp("check", "layouts/deck.toml", cwd=str(tmp_path))
    assert result.returncode == 3
    line = one_line_error(result)
    assert where in line and words in line, line


def test_the_print_guide_counts_the_cards_by_type_and_says_how_to_cut_them(tmp_path):
    kit = build_deck(tmp_path)
    guide = open_pdf(os.path.join(kit, "kit.pdf"))[0].get_text()
    assert "Actions: 7 × move, 3 × event" in guide
    assert "Cards: cut along the grey lines, fronts up" in guide


@pytest.mark.parametrize("seed", range(4))
def test_a_card_text_is_set_at_the_largest_size_that_fits_each_line_as_full_as_it_goes(seed):
    """fit_text: from the largest size down, the first at which the words, filled line by line
    (a word that does not fit starts the next line), stay within the box's width and height."""
    import random

    from generator.components.cards import LEADING, fit_text, wrap
    from generator.components.inline import line_width
    from generator.model.fonts import break_words

    rnd = random.Random(seed)
    words = [
        "Gain",
        "2",
        ":star:",
        ":coin=#c9a227:",
        "runner",
        "discards",
        "10::30",
        "extraordinary",
        "a",
        "W",
    ]
    for _ in range(60):
        text = "\n".join(
            " ".join(rnd.choice(words) for _ in range(rnd.randint(1, 30))) for _ in range(rnd.randint(1, 3))
        )
        w, h = rnd.uniform(25, 60), rnd.uniform(10, 40)
        font = rnd.choice(["sans", "sans-bold"])
        fitted = fit_text(text, font, 11, 6, w, h)
        for larger in [11 - 0.25 * k for k in range(21)]:
            if fitted is not None and larger <= fitted[0] + 1e-9:
                break
            lines = wrap(text, font, larger, w)  # the plain reading: greedy lines at that size
            em = larger * 25.4 / 72
            assert not lines or (len(lines) - 1) * em * LEADING + em * 0.97 > h + 1e-6
        if fitted is None:
            continue
        pt, lines = fitted
        em = pt * 25.4 / 72
        assert (len(lines) - 1) * em * LEADING + em * 0.97 <= h + 1e-6
        paragraphs = [break_words(p.strip()) for p in text.split("\n")]
        at = 0
        for paragraph in paragraphs:
            mine = [lines[at]]  # a paragraph's lines: until they hold its words
            while sum(len(line.split()) for line in mine) < len(paragraph):
                mine.append(lines[at + len(mine)])
            at += len(mine)
            assert [word for line in mine for word in line.split()] == paragraph
            for line, next_line in itertools.pairwise(mine):
                assert line_width(line, font, pt) <= w + 1e-6
                assert line_width(line + " " + next_line.split(" ")[0], font, pt) > w + 1e-9
        assert at == len(lines)
        assert all(line_width(line, font, pt) <= w + 1e-6 for line in lines)
