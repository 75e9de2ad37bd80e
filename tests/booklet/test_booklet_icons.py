"""Icons inside a booklet's and a quick reference's text: ``:name:`` in a template of a
definition's own (``pnp new``) sets a symbol of the table or a picture of its ``[icons]`` in the
line, sized to the line, in the text's colour or its own, wrapped as a word; read back from the
booklet's PDF, its SVG pages, booklet.html and the quick reference in kit.pdf. An unknown icon is
one line naming the template file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.booklet.layout import break_lines
from generator.booklet.markup import parse_inline, plain_text
from generator.model.fonts import text_width
from generator.model.inline import ADVANCE, SIDE
from tests.conftest import mm
from tests.foundation.test_cli import one_line_error, pnp
from tests.foundation.test_inline_icons import png
from tests.pdf_reader import open_pdf

BODY = 9.5  # pt: the booklet's body size as `pnp new` writes it (fit may move it within 9 to 10.5)
INK = "#1c1c1c"  # the booklet's body ink
ACCENT = "#7a2e1d"  # its headings' colour (accent_colour, which `pnp new` leaves as it is)
PARAGRAPH = "Pay 2 :coin: to move; a home shows :star: and danger :star=#cc0000: here."
QUICK = "Gain 1 :star: each turn."
# a list item, a note and a table cell with icons
MORE = "\n- Take :moon: tonight.\n\n> Mind :star: now.\n\n| Pay | Get |\n|---|---|\n| 1 :coin: | Vote |\n"


def rgb(fill: tuple[float, ...]) -> str:
    """Return a PDF fill as #rrggbb."""
    return "#" + "".join(f"{round(c * 255):02x}" for c in fill)


def new_game(root: Path, paragraph: str = PARAGRAPH, quick: str = QUICK) -> Path:
    """Return the folder of a `pnp new` game with a coin picture in [icons], the paragraph at the
    end of its booklet template and the line at the end of its quick reference's."""
    root.mkdir(parents=True, exist_ok=True)
    result = pnp("new", "mygame", cwd=str(root))
    assert result.returncode == 0, result.stderr
    layouts = root / "layouts"
    (layouts / "art").mkdir(exist_ok=True)  # pnp new writes its own art there too
    (layouts / "art" / "coin.png").write_bytes(png(30, 30, (230, 160, 0)))
    toml = (layouts / "mygame.toml").read_text()
    toml = toml.replace("[palette]", '[icons]\ncoin = "art/coin.png"\n\n[palette]', 1)
    # the record sheet's note sets an icon too
    toml = toml.replace('a jump as b1xb3."]', 'a jump as b1xb3 :coin:."]', 1)
    (layouts / "mygame.toml").write_text(toml)
    booklet = root / "templates" / "booklets" / "mygame.en.md.j2"
    booklet.write_text(booklet.read_text() + f"\n## Spend :star: wisely\n\n{paragraph}\n{MORE}")
    card = root / "templates" / "quickref" / "mygame.en.md.j2"
    card.write_text(card.read_text() + f"\n{quick}\n")
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = new_game(tmp_path_factory.mktemp("icons") / "game")
    out = root / "out"
    result = pnp("build", "mygame", "--layouts", str(root / "layouts"), "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out / "mygame"


def page_with(pdf: Path, word: str):
    for page in open_pdf(pdf):
        if any(w[4] == word for w in page.get_text("words")):
            return page
    raise AssertionError(f"no page of {pdf.name} shows {word!r}")


def span_size(page, start: str) -> float:
    """Return the size in points of the text run of a page that starts with start."""
    for block in page.get_text("dict")["blocks"]:
        for line in block["lines"]:
            for span in line["spans"]:
                if span["text"].startswith(start):
                    return float(span["size"])
    raise AssertionError(f"no run starts with {start!r}")


def test_the_booklet_pdf_draws_a_picture_icon_inside_its_line(built):
    page = page_with(built / "booklet.pdf", "Pay")
    words = {w[4]: w for w in page.get_text("words")}
    two, to = words["2"], words["to"]
    [image] = page.get_images()
    assert two[2] <= image.x0 and image.x1 <= to[0]  # between "2" and "to"
    assert image.y0 < two[3] and image.y1 > two[1]  # on their line
    size = span_size(page, "Pay")  # the body size the fit chose, in points
    assert mm(image.width) == pytest.approx(SIDE * size * 25.4 / 72, abs=0.05)  # one line's size
    assert mm(image.height) == pytest.approx(mm(image.width), abs=0.05)  # a square picture stays square
    space = text_width(" ", "sans", size)
    assert mm(to[0] - two[2]) == pytest.approx(ADVANCE * size * 25.4 / 72 + 2 * space, abs=0.3)


def test_the_booklet_pdf_draws_a_symbol_in_the_text_colour_or_its_own(built):
    page = page_with(built / "booklet.pdf", "Pay")
    words = {w[4]: w for w in page.get_text("words")}
    fills: dict[str, list] = {}
    for path in page.get_drawings():
        if path.get("fill") is not None:
            fills.setdefault(rgb(path["fill"]), []).append(path["rect"])
    line = words["shows"]

    def between(left: str, right: str, colour: str) -> bool:
        return any(
            words[left][2] < r.x0 and r.x1 < words[right][0] and r.y0 < line[3] and r.y1 > line[1]
            for r in fills.get(colour, [])
        )

    assert between("shows", "and", INK)  # :star: takes the paragraph's ink
    assert between("danger", "here.", "#cc0000")  # :star=#cc0000: its own colour
    assert not between("danger", "here.", INK)


def test_a_heading_icon_takes_the_heading_colour(built):
    page = page_with(built / "booklet.pdf", "wisely")
    words = {w[4]: w for w in page.get_text("words")}
    spend, wisely = words["Spend"], words["wisely"]
    colours = {
        rgb(p["fill"])
        for p in page.get_drawings()
        if p.get("fill") is not None
        and spend[2] < p["rect"].x0
        and p["rect"].x1 < wisely[0]
        and p["rect"].y0 < spend[3]
        and p["rect"].y1 > spend[1]
    }
    assert colours == {ACCENT}  # a level-2 heading is set in the accent colour, its icon too


def test_the_booklet_svg_page_places_the_icon_between_its_runs(built):
    svg = next(text for p in sorted(built.glob("booklet-*.svg")) if "Pay 2 " in (text := p.read_text()))
    texts = {
        m.group(2): float(m.group(1))
        for m in re.finditer(r'<text [^>]*x="([0-9.]+)"[^>]*>([^<]+)</text>', svg)
    }
    [use] = re.findall(r"<use [^>]*#picture[^>]*>", svg)
    attrs = dict(re.findall(r'([a-z]+)="([0-9.]+)"', use))
    x, w = float(attrs["x"]), float(attrs["width"])
    run = next(t for t in texts if t.endswith("Pay 2 "))
    after = next(t for t in texts if t.startswith(" to move"))
    size = w / SIDE / (25.4 / 72)
    assert texts[run] + text_width(run, "sans", size) <= x + 1e-3
    assert x + w <= texts[after] + 1e-3
    assert 9.0 - 1e-6 <= size <= 10.5 + 1e-6  # one em of the body, at a size the fit allows


def test_the_booklet_html_sets_icons_in_the_paragraph_in_the_text_colour(built):
    page = (built / "booklet.html").read_text()
    [paragraph] = re.findall(r"<p>Pay 2 .*?</p>", page)
    icons = re.findall(r'<span class="icon"><svg aria-label="([a-z]+)"[^>]*>(.*?)</svg></span>', paragraph)
    assert [name for name, _ in icons] == ["coin", "star", "star"]
    assert re.sub(r'<span class="icon">.*?</span>', "#", paragraph) == (
        "<p>Pay 2 # to move; a home shows # and danger # here.</p>"
    )
    assert "<image" in icons[0][1]  # the picture
    css = dict(re.findall(r"\.(g[a-z]*[0-9]+)\{([^}]*)\}", page))

    def paints(svg: str) -> set[str]:
        return {css[c] for c in re.findall(r'class="([^"]+)"', svg)}

    # the symbol in currentColor: the colour of its text, in light and dark mode alike
    assert any("currentcolor" in rule for rule in paints(icons[1][1]))
    assert any("#cc0000" in rule for rule in paints(icons[2][1]))
    assert not any("currentcolor" in rule for rule in paints(icons[2][1]))
    assert ".icon{" in page  # the icon's box: one line high


@pytest.mark.parametrize("before, after", [("Take", "tonight."), ("Mind", "now.")])
def test_lists_and_notes_set_icons_between_their_words(built, before, after):
    page = page_with(built / "booklet.pdf", before)
    words = {w[4]: w for w in page.get_text("words")}
    left, right = words[before], words[after]
    inside = [
        p
        for p in page.get_drawings()
        if p.get("fill") is not None
        and left[2] < p["rect"].x0
        and p["rect"].x1 < right[0]
        and p["rect"].y0 < left[3]
        and p["rect"].y1 > left[1]
    ]
    assert inside and {rgb(p["fill"]) for p in inside} == {INK}


def test_a_table_cell_sets_its_picture_icon(built):
    page = page_with(built / "booklet.pdf", "Vote")
    words = page.get_text("words")
    vote = next(w for w in words if w[4] == "Vote")
    one = next(w for w in words if w[4] == "1" and abs(w[1] - vote[1]) < 1 and w[2] < vote[0])
    assert any(one[2] <= im.x0 and im.x1 <= vote[0] and im.y0 < one[3] for im in page.get_images())


def test_the_booklet_html_sets_icons_in_lists_notes_and_tables(built):
    page = (built / "booklet.html").read_text()
    for pattern in (
        r"<li>Take <span class=\"icon\">",
        r'<aside class="note"><p>Mind <span class="icon">',
        r'<td>1 <span class="icon">',
    ):
        assert re.search(pattern, page), pattern
    # the quick reference, which the page shows first, sets its icons too
    assert re.search(
        r'<section class="glance quick".*Gain 1 <span class="icon"><svg aria-label="star"', page, re.S
    )


def test_the_booklet_html_cover_sets_icons_in_its_title_summary_and_kit_list(tmp_path):
    # the title, subtitle, summary and a part's title come from the definition, where the PDF's
    # cover draws their icons: the web page sets them too, never their names
    root = new_game(tmp_path / "game")
    toml_path = root / "layouts" / "mygame.toml"
    toml = toml_path.read_text()
    for key in ("title", "subtitle", "summary"):
        line = re.findall(rf'^{key} = "[^"]*"$', toml, re.M)[0]  # the [game] table comes first
        toml = toml.replace(line, line[:-1] + ' :coin: and :star:"', 1)
    assert 'title = "Action cards"' in toml
    toml = toml.replace('title = "Action cards"', 'title = "Action :coin: cards"', 1)
    toml_path.write_text(toml)
    out = root / "out"
    result = pnp("build", "mygame", "--layouts", str(root / "layouts"), "--out", str(out))
    assert result.returncode == 0, result.stderr
    page = (out / "mygame" / "booklet.html").read_text()
    main = page[page.index("<main>") :]
    icon = r'<span class="icon"><svg aria-label="{}"[^>]*>.*?</svg></span>'
    both = icon.format("coin") + " and " + icon.format("star")
    for pattern in (
        rf'<header class="cover">.*?<h1>[^<]* {both}</h1>',
        rf'<p class="subtitle">[^<]* {both}</p>',
        rf'<p class="summary">[^<]* {both}</p>',
        rf'<ul class="kit">.*?<li>Action {icon.format("coin")} cards',
    ):
        assert re.search(pattern, main, re.S), pattern
    cover = main[: main.index('<section class="glance quick"')]
    assert ":coin:" not in cover and ":star:" not in cover
    assert "<title>Mygame coin and star</title>" in page  # a tab's title names its icons
    assert "<image" in re.search(icon.format("coin"), main, re.S).group(0)  # the picture, inline


def test_the_quick_reference_sets_icons_in_its_text(built):
    page = page_with(built / "kit.pdf", "Gain")
    words = page.get_text("words")
    each, one = next(
        (e, o)
        for e in words
        for o in words
        if e[4] == "each" and o[4] == "1" and abs(e[1] - o[1]) < 1 and 0 < e[0] - o[2] < 15
    )
    inside = [
        p["rect"]
        for p in page.get_drawings()
        if p.get("fill") is not None
        and one[2] < p["rect"].x0
        and p["rect"].x1 < each[0]
        and p["rect"].y0 < one[3]
        and p["rect"].y1 > one[1]
    ]
    assert inside, "no star between '1' and 'each'"


def test_a_record_sheet_note_sets_its_icon_after_its_word(built):
    svg = (built / "scoresheet.svg").read_text()
    [use] = re.findall(r"<use [^>]*#picture[^>]*>", svg)
    attrs = dict(re.findall(r'([a-z]+)="([0-9.]+)"', use))
    [x] = re.findall(r'<text [^>]*x="([0-9.]+)"[^>]*>[^<]*b1xb3 </text>', svg)
    assert float(x) < float(attrs["x"])
    assert re.search(r"<text [^>]*>\.</text>", svg)  # the full stop after the icon


@pytest.mark.parametrize(
    "paragraph, quick, template",
    [
        ("Pay 2 :coins: to move.", QUICK, "templates/booklets/mygame.en.md.j2"),
        (PARAGRAPH, "Gain :coins:.", "templates/quickref/mygame.en.md.j2"),
        ("Pay :coin=gilt: to move.", QUICK, "templates/booklets/mygame.en.md.j2"),
    ],
)
def test_an_unknown_icon_is_one_line_naming_the_template(tmp_path, paragraph, quick, template):
    root = new_game(tmp_path / "game", paragraph, quick)
    out = tmp_path / "out"
    result = pnp("build", "mygame", "--layouts", str(root / "layouts"), "--out", str(out))
    assert result.returncode != 0
    line = one_line_error(result)
    assert f"{template}: rendered line " in line and (
        "unknown icon ':coins:'" in line or "unknown colour 'gilt'" in line
    )
    assert not (out / "mygame").exists()  # nothing half-written


def test_an_icon_wraps_as_a_word_and_counts_as_its_room():
    runs = parse_inline("Gain 2 :coin: then")
    pieces = [(r.text, "sans", INK) for r in runs]
    plain = text_width("Gain 2 then", "sans", BODY)
    # wide enough for the words, not for the words and the icon: "then" goes to the next line
    lines = break_lines(pieces, BODY, plain + 0.3)
    assert ["".join(t for t, _, _ in ln) for ln in lines] == ["Gain 2 :coin:", "then"]
    room = ADVANCE * BODY * 25.4 / 72
    lines = break_lines(pieces, BODY, plain + room + text_width(" ", "sans", BODY) + 0.01)
    assert len(lines) == 1


def test_an_icon_and_the_word_it_touches_wrap_together():
    pieces = [(r.text, "sans", INK) for r in parse_inline("Pay 2:coin:, go")]
    width = text_width("Pay 2,", "sans", BODY) + 0.3  # "Pay 2," fits; with the icon's room it does not
    lines = ["".join(t for t, _, _ in ln) for ln in break_lines(pieces, BODY, width)]
    assert lines[0] == "Pay" and lines[1].startswith("2:coin:,")


def test_colons_stay_colons_in_booklet_text():
    for source, shown in (
        ("at 10:30 go", "at 10:30 go"),
        ("a::coin: b", "a:coin: b"),
        ("a\\:coin: b", "a:coin: b"),
        ("x:\\:y: z", "x::y: z"),
        ("`:coin:` as code", ":coin: as code"),
    ):
        assert plain_text(parse_inline(source)) == shown
