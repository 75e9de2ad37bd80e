"""Booklets set to fit, over every kit, every language it has, a variant and another seed: a
multiple of four pages with no padding page, every page but the last at least a third full
(measured from the ink of the PDF), no heading at the foot of a page, no paragraph line or list
item left alone at the foot or head of a page, body type in the readable range, the quick
reference on the last page. Then the same rules of the typesetter on made-up texts cut at every
place a page can end."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from generator.booklet.layout import LaidPage, page_geometry
from generator.booklet.markup import Heading, plain_text
from generator.booklet.template import languages
from generator.components import booklet
from generator.definitions.loader import load_all
from generator.model.page import Text, iter_shapes
from generator.printing.imposition import booklet_order
from tests.booklet.conftest import context, make_game
from tests.booklet.fitting import booklet_case
from tests.languages_todo import UNFITTED, UNFITTED_LATE, unfitted
from tests.pdf_reader import open_pdf

MIN_FILL = 1 / 3
READABLE = (9.0, 10.5)  # pt, the body sizes a booklet may be set in
HEADINGS = {"en": "Clarifications", "fr": "Précisions", "it": "Chiarimenti"}


def _cases() -> list:
    cases = []
    for definition in load_all():
        for lang in languages(definition):
            cases.append(pytest.param(definition.id, lang, False, False, id=f"{definition.id}-{lang}"))
        seeded = definition.game["seeded"] or definition.game.get("seed_optional", False)
        if definition.game["variants"] or seeded:
            cases.append(pytest.param(definition.id, "en", True, True, id=f"{definition.id}-variant-seed"))
    return cases


CASES = _cases()


def _booklet(game: str, lang: str, variants: bool, other_seed: bool):
    """Return the kit's context, its laid-out booklet pages and the booklet's PDF, on A4 (the
    booklet test_booklet_fit_paper.py reads for the same case, laid out once for both)."""
    return booklet_case(game, lang, "a4", False, variants, other_seed)


def _geometry(ctx):
    half = ctx.paper.half()
    return page_geometry(half.width, half.height, ctx.paper.margin)


def ink_fills(data: bytes, geo) -> list[float]:
    """Return per PDF page how far down its text area the ink reaches (0 to 1), from the pixels."""
    fills = []
    dpi = 50
    per_mm = dpi / 25.4
    with open_pdf(stream=data) as doc:
        for page in doc:
            pix = page.get_pixmap(dpi=dpi, gray=True)
            top, bottom = int(geo.top * per_mm), int(geo.bottom * per_mm)
            left, right = int(geo.left * per_mm), int(geo.right * per_mm)
            low = top
            for row in range(top, min(bottom, pix.height)):
                line = pix.samples[row * pix.stride + left : row * pix.stride + right]
                if min(line) < 235:
                    low = row
            fills.append((low - top) / (bottom - top))
    return fills


def _texts(lp: LaidPage) -> list[str]:
    return [s.text for s, _ in iter_shapes(lp.page.shapes) if isinstance(s, Text)]


def check_breaks(laid: list[LaidPage]) -> None:
    """Assert the page-break rules over laid-out pages: no heading ends a page; a block split
    over two pages keeps two lines (or rows) on each side; a list split over two pages leaves no
    single whole item alone at the foot or head of a page."""
    text = [lp for lp in laid if lp.kinds not in (["cover"], ["notes"], ["quick-reference"])]
    for number, lp in enumerate(text, 1):
        assert lp.kinds, f"text page {number} is empty"
        assert lp.kinds[-1] != "heading", f"text page {number} ends with a heading"
    for number, (page, following) in enumerate(itertools.pairwise(text), 1):
        if page.forced:
            continue
        block = page.marks[-1][0]
        if following.marks[0][0] != block:
            continue
        sides = []
        for lp in (page, following):
            sides.append([(m, k) for m, k in zip(lp.marks, lp.kinds) if m[0] == block and k != "header"])
        for side, where, at in zip(sides, ("foot", "head"), (number, number + 1)):
            assert len(side) >= 2, f"a single line of a block at the {where} of text page {at}"
            parts = {mark[1] for mark, _ in side}
            if side[0][1] == "item" and len(parts) == 1:
                lines = {mark[2] for mark, _ in side}
                whole = lines == set(range(side[0][0][3]))
                assert not whole, f"a list item alone at the {where} of text page {at}"


@pytest.mark.parametrize("game,lang,variants,seed", CASES)
def test_the_page_count_is_what_imposition_needs_with_no_padding_page(request, game, lang, variants, seed):
    unfitted(request, game, lang, UNFITTED)
    ctx, laid, data = _booklet(game, lang, variants, seed)
    assert len(laid) % 4 == 0
    assert all(pair is not None for side in booklet_order(len(laid)) for pair in side)
    assert not [lp for lp in laid if lp.kinds == ["notes"]], "notes pages pad the booklet"
    with open_pdf(stream=data) as doc:
        assert doc.page_count == len(laid)
        for page in doc:
            body = [w for w in page.get_text("words") if w[3] < _geometry(ctx).bottom / 25.4 * 72]
            assert len(body) >= 10, f"page {page.number + 1} is (nearly) blank"


@pytest.mark.parametrize("game,lang,variants,seed", CASES)
def test_no_page_but_the_last_is_under_a_third_full(game, lang, variants, seed):
    ctx, laid, data = _booklet(game, lang, variants, seed)
    fills = ink_fills(data, _geometry(ctx))
    for number, fill in enumerate(fills[:-1], 1):
        assert fill >= MIN_FILL, f"page {number} is {fill:.0%} full"
    # the typesetter's own measure agrees with the ink
    for number, (lp, fill) in enumerate(zip(laid, fills), 1):
        if lp.kinds not in (["cover"], ["quick-reference"]):
            assert abs(lp.fill - fill) < 0.05, f"page {number}: laid {lp.fill:.2f}, ink {fill:.2f}"


@pytest.mark.parametrize("game,lang,variants,seed", CASES)
def test_no_heading_ends_a_page_and_no_line_or_item_stands_alone(game, lang, variants, seed):
    _, laid, _ = _booklet(game, lang, variants, seed)
    check_breaks(laid)


@pytest.mark.parametrize("game,lang,variants,seed", CASES)
def test_body_type_stays_in_the_readable_range(game, lang, variants, seed):
    _, _, data = _booklet(game, lang, variants, seed)
    sizes: Counter[float] = Counter()
    with open_pdf(stream=data) as doc:
        for page in list(doc)[1:]:
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", []):
                    for span in line["spans"]:
                        sizes[round(span["size"], 2)] += len(span["text"].strip())
    body = sizes.most_common(1)[0][0]
    assert READABLE[0] - 0.01 <= body <= READABLE[1] + 0.01, f"body set in {body} pt"


@pytest.mark.parametrize("game,lang,variants,seed", CASES)
def test_the_quick_reference_closes_the_booklet_after_the_rules(request, game, lang, variants, seed):
    unfitted(request, game, lang, UNFITTED_LATE)
    ctx, laid, _ = _booklet(game, lang, variants, seed)
    card = next(c for c in ctx.definition.components if c.kind == "quick-reference")
    quick = ctx.kind_of(card).text_of(card, ctx)
    title = plain_text(next(b for b in quick.blocks if isinstance(b, Heading)).runs)
    last = " ".join(_texts(laid[-1]))
    assert title in last, "the quick reference is on the last page"
    # before it, the rules end with their Clarifications: only the kit list and blank records follow
    pages = [" ".join(_texts(lp)) for lp in laid]
    clar = max(i for i, page in enumerate(pages) if HEADINGS[lang] in page)
    assert clar >= len(laid) - 4


def test_the_kit_list_counts_come_from_the_definition():
    """Where a booklet lists the kit, each part's count is the one the print guide's checklist has."""
    from generator.printing.guide import checklist

    seen = 0
    for case in CASES:
        game, lang, variants, seed = case.values
        ctx, laid, _ = _booklet(game, lang, variants, seed)
        words = _squeeze("".join("".join(_texts(lp)) for lp in laid[1:]))
        label = _squeeze({"en": "In this kit", "fr": "Contenu du kit", "it": "Nel kit"}[lang])
        if label not in words:
            continue
        seen += 1
        tail = words[words.rindex(label) :]
        for entry in checklist(ctx):
            if entry["kind"] == "booklet":
                continue
            if len(entry["parts"]) == 1:
                assert _squeeze(f"{entry['title']}:{entry['total']}") in tail, entry
            else:
                for part in entry["parts"]:
                    assert _squeeze(f"{part['count']}\u00d7{part['name']}") in tail, part
    assert seen, "some booklet fills its pages with the kit list"


def _squeeze(text: str) -> str:
    return "".join(text.split())


# ---------------------------------------------------------------- made-up texts

FILLER = "Words that run on and on to fill a line or two of the page before the list. " * 3


def _made_up(lead: int, body: str) -> str:
    paragraphs = "\n\n".join(f"Paragraph {n}. {FILLER[: 40 + 37 * (n % 5)]}" for n in range(lead))
    return f"# A booklet\n\n{paragraphs}\n\n{body}"


LIST_BODY = """## A list

The list that follows:

{% for n in range(7) %}
- item {{ n }}{% for k in range(n % 3 * 9) %} with more words{% endfor +%}
{% endfor %}

## A second heading

A last paragraph after the list, long enough to take three lines of the page when it is set at
the body size of the booklet, and so on and on and on until it is.
"""


@pytest.mark.parametrize("lead", range(0, 40, 3))
def test_made_up_lists_and_headings_never_leave_a_line_alone(tmp_path, lead):
    d = make_game(str(tmp_path), {"en": _made_up(lead, LIST_BODY)}, booklet="fit = false")
    check_breaks(booklet.laid_pages(d.component("booklet"), context(d)))


FIGURE_BODY = """## A figure

{{ "Before the board. " * 14 }}Look at the board here:

::: figure board | The board, which the line above introduces.

After the board. {{ "More words after it. " * 30 }}

{{ "Introduced by the keep mark. " * 6 }}

::: figure board keep | A figure kept with the line before it.
"""


@pytest.mark.parametrize("lead", range(0, 40, 3))
def test_a_figure_stays_with_the_line_that_introduces_it(tmp_path, lead):
    d = make_game(str(tmp_path), {"en": _made_up(lead, FIGURE_BODY)}, booklet="fit = false")
    laid = booklet.laid_pages(d.component("booklet"), context(d))
    check_breaks(laid)
    figures = 0
    for lp in laid:
        for k, kind in enumerate(lp.kinds):
            if kind == "figure":
                figures += 1
                assert k > 0, f"{lp.page.label}: the figure is parted from the line introducing it"
                block, _, line, lines = lp.marks[k - 1]
                assert block == lp.marks[k][0] - 1 and line == lines - 1, lp.page.label
    assert figures == 2


@pytest.mark.parametrize("words", [40, 400, 900, 1400, 2000])
def test_a_booklet_of_any_length_fills_a_multiple_of_four_pages(tmp_path, words):
    text = "# Rules\n\n" + "\n\n".join(f"Paragraph {n}: " + "word " * 60 for n in range(words // 60))
    d = make_game(str(tmp_path), {"en": text})
    laid = booklet.laid_pages(d.component("booklet"), context(d))
    assert len(laid) % 4 == 0
    fills = [lp.fill for lp in laid if lp.kinds not in (["cover"], ["notes"])]
    if not [lp for lp in laid if lp.kinds == ["notes"]]:  # set to fit: no thin page but the last
        assert all(fill >= MIN_FILL for fill in fills[:-1])


def test_a_figure_line_may_ask_to_keep_with_the_line_before_it():
    from generator.booklet.markup import FigureRow, parse

    row = parse("::: figure board position:x width=50% keep | A caption").blocks[0]
    assert isinstance(row, FigureRow) and row.figures[0].keep
    assert row.figures[0].overlay == "position:x" and row.figures[0].width == (50.0, "%")
    plain = parse("::: figure board | A caption").blocks[0]
    assert isinstance(plain, FigureRow) and not plain.figures[0].keep
