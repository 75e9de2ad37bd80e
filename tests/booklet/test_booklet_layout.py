"""Booklet layout: text stays in the text area (page model and PDF), headings keep with what
follows, tables split with their header, PDF and SVG pages agree, accents render, imposition."""

from __future__ import annotations

import pytest

from generator.booklet.layout import page_geometry
from generator.components import booklet
from generator.model.page import Page, Text, apply, bounds, iter_shapes
from generator.printing.imposition import booklet_order, find_paper, impose_booklet
from generator.render.html import html_document
from tests.booklet.conftest import (
    SMALL_BOARD,
    context,
    lines_of,
    make_game,
    pdf_bytes,
    pdf_spans,
    svg_bytes,
    svg_texts,
)

LONG = """# A long booklet

{% for n in range(12) %}
## Section {{ n }}

{% if n % 3 == 0 %}
> A note with **bold** text and a word that is far too long for one line:
> Supercalifragilisticexpialidocious-and-then-some-more-letters-to-overflow-the-measure-of-the-note-box.

{% endif %}
Paragraph {{ n }}: {% for k in range(n * 7 + 5) %}word{{ k }} *slanted{{ k }}* {% endfor +%}

- bullet one with `code` in it {% for k in range(n) %}and more {% endfor +%}
- bullet two
  1. nested one
  2. nested two

| Piece | Moves | Notes |
|---|:-:|--:|
{% for r in range(3 + n * 3) %}
| piece {{ r }} | {{ r }} | {% for k in range(r % 5) %}a long remark {% endfor %} |
{% endfor %}

{% if n % 4 == 1 %}
::: figure board | A board
::: figure board | Another board

{% endif %}
{% endfor %}
### The very end

That is all.
"""


@pytest.fixture(scope="module")
def long_booklet(tmp_path_factory):
    folder = tmp_path_factory.mktemp("long")
    d = make_game(str(folder), {"en": LONG})
    ctx = context(d)
    return ctx, booklet.laid_pages(d.component("booklet"), ctx)


@pytest.fixture(scope="module")
def nmm_booklet(nmm):
    ctx = context(nmm)
    outputs = booklet.build(nmm.component("booklet"), ctx)
    return ctx, outputs


def _geometry(ctx):
    half = ctx.paper.half()
    return page_geometry(half.width, half.height, ctx.paper.margin)


def _check_page_model(pages: list[Page], ctx) -> None:
    geo = _geometry(ctx)
    for number, page in enumerate(pages, 1):
        assert (page.width, page.height) == (geo.width, geo.height)
        for shape, m in iter_shapes(page.shapes):
            if not isinstance(shape, Text):
                continue
            x0, y0, x1, y1 = bounds([shape], m)
            _, baseline = apply(m, shape.x, shape.y)
            where = f"page {number}: {shape.text!r}"
            assert geo.left - 0.01 <= x0 and x1 <= geo.right + 0.01, where
            if abs(baseline - geo.footer_y) < 0.01:
                assert y1 <= geo.height - ctx.paper.margin, where  # the footer stays printable
            else:
                assert geo.top - 0.01 <= y0 and y1 <= geo.bottom + 0.01, where


def _check_pdf(pages: list[Page], ctx) -> None:
    geo = _geometry(ctx)
    for number, spans in enumerate(pdf_spans(pdf_bytes(pages)), 1):
        assert spans, f"page {number} has no text"
        for text, (x0, y0, x1, y1), (_, oy) in spans:
            where = f"page {number}: {text!r}"
            assert geo.left - 0.3 <= x0 and x1 <= geo.right + 0.3, where
            if abs(oy - geo.footer_y) < 0.05:
                assert y1 <= geo.height - ctx.paper.margin + 0.3, where
            else:
                assert geo.top - 0.3 <= y0 and y1 <= geo.bottom + 0.3, where


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nine_mens_morris_text_stays_in_the_text_area(nmm, paper):
    ctx = context(nmm, paper)
    pages = booklet.booklet_pages(nmm.component("booklet"), ctx)
    assert 4 <= len(pages) <= 12
    _check_page_model(pages, ctx)
    _check_pdf(pages, ctx)


def test_long_text_stays_in_the_text_area(long_booklet):
    ctx, laid = long_booklet
    pages = [lp.page for lp in laid]
    assert len(pages) > 10
    _check_page_model(pages, ctx)
    _check_pdf(pages, ctx)


def test_no_page_ends_with_a_heading(long_booklet, nmm):
    _, laid = long_booklet
    nmm_laid = booklet.laid_pages(nmm.component("booklet"), context(nmm))
    for lp in laid + nmm_laid:
        assert lp.kinds and lp.kinds[-1] != "heading", lp.page.label


def test_a_table_split_over_pages_repeats_its_header(long_booklet):
    _, laid = long_booklet
    continued = [lp for lp in laid if lp.kinds[0] in ("header", "row")]
    assert continued, "the long booklet should split at least one table"
    for lp in continued:
        assert lp.kinds[0] == "header" and lp.kinds[1] == "row"


def test_pages_are_numbered_after_the_cover(long_booklet):
    ctx, laid = long_booklet
    geo = _geometry(ctx)
    assert laid[0].kinds == ["cover"]
    for number, lp in enumerate(laid[1:], 2):
        footer = [s.text for s in lp.page.shapes if isinstance(s, Text) and s.y == geo.footer_y]
        assert str(number) in footer


def test_the_cover_shows_title_facts_and_kit(nmm_booklet, nmm):
    _, outputs = nmm_booklet
    words = " ".join(s.text for s, _ in iter_shapes(outputs[0].pages[0].shapes) if isinstance(s, Text))
    for expected in ("Nine Men\u2019s Morris", "The mill game", "PLAYERS", "15\u201330 min", "8+"):
        assert expected in words
    for spec in nmm.components:
        assert spec["title"] in words


def test_the_only_output_is_the_reading_order_booklet(nmm_booklet):
    ctx, (reading,) = nmm_booklet
    # its pages in reading order as a PDF and an SVG a page, and an HTML page; kit.pdf imposes it
    assert reading.name == "booklet" and reading.formats == ("pdf", "svg") and reading.booklet
    assert reading.html is not None and html_document(reading.html).startswith("<!DOCTYPE html>")
    half = ctx.paper.half()
    assert all((p.width, p.height) == (half.width, half.height) for p in reading.pages)


def test_pdf_and_svg_pages_have_the_same_text_lines(nmm_booklet):
    _, (reading,) = nmm_booklet
    pdf_pages = pdf_spans(pdf_bytes(reading.pages))
    for number, page in enumerate(reading.pages):
        from_pdf = lines_of([(t, ox, oy) for t, _, (ox, oy) in pdf_pages[number]])
        from_svg = lines_of([p for p in svg_texts(svg_bytes(page)) if p[0].strip()])
        assert from_pdf == from_svg, f"page {number + 1}"
        assert len(from_svg) > 5


FR = """::: meta subtitle | Le jeu du moulin
# Règles

« Le moulin » se joue à deux. L'été, où qu'on soit, c'est "facile" -- même à l'école...
Œuvre, cœur, naïf, Noël, çà et là, être, île, août.
"""
IT = """::: meta subtitle | Il gioco del mulino
# Regole

Un "mulino" è una fila di tre pedine; l'avversario perde una pedina. Così è più facile: però
all'inizio ciò non è vero, perché tutti giocano già.
"""


@pytest.mark.parametrize(
    "lang, text, expected",
    [
        (
            "fr",
            FR,
            [
                "Règles",
                "«\u00a0Le moulin\u00a0»",
                "L\u2019été",
                "où qu\u2019on",
                "\u201cfacile\u201d",
                "\u2013 même",
                "l\u2019école\u2026",
                "Œuvre, cœur, naïf, Noël",
                "août",
                "Le jeu du moulin",
                "JOUEURS",
                "DURÉE",
                "ÂGE",
                "Contenu du kit",
            ],
        ),
        (
            "it",
            IT,
            [
                "\u201cmulino\u201d è",
                "l\u2019avversario",
                "Così è\u00a0più",  # a one-letter word is tied to the next
                "però",
                "perché",
                "già",
                "Il gioco del mulino",
                "GIOCATORI",
                "ETÀ",
                "Nel kit",
            ],
        ),
    ],
)
def test_accents_and_typographic_quotes_render_in_pdf_and_svg(tmp_path, lang, text, expected):
    text = text.replace("« Le moulin »", "«\u202fLe moulin\u202f»")
    d = make_game(str(tmp_path), {lang: text}, languages=(lang,))
    pages = booklet.booklet_pages(d.component("booklet"), context(d, lang=lang))
    pdf_text = " ".join(" ".join(t for t, _, _ in spans) for spans in pdf_spans(pdf_bytes(pages)))
    svg_text = " ".join(t for page in pages for t, _, _ in svg_texts(svg_bytes(page)))
    model_text = " ".join(
        s.text for page in pages for s, _ in iter_shapes(page.shapes) if isinstance(s, Text)
    )
    for fragment in expected:
        assert fragment in model_text, fragment
        assert fragment in svg_text, fragment
        assert fragment.replace("\u00a0", " ") in pdf_text.replace("\u00a0", " "), fragment


def _numbered(count: int) -> list[Page]:
    half = find_paper("a4").half()
    return [
        Page(half.width, half.height).plus(Text(70, 100, str(n), 40, "sans-bold", "middle"))
        for n in range(1, count + 1)
    ]


def _sides(sheets: list[Page]) -> list[tuple[int | None, int | None]]:
    out = []
    for sheet in sheets:
        left = right = None
        for shape, m in iter_shapes(sheet.shapes):
            if isinstance(shape, Text):
                x, _ = apply(m, shape.x, shape.y)
                if x < sheet.width / 2:
                    left = int(shape.text)
                else:
                    right = int(shape.text)
        out.append((left, right))
    return out


@pytest.mark.parametrize(
    "count, expected",
    [
        (4, [(4, 1), (2, 3)]),
        (8, [(8, 1), (2, 7), (6, 3), (4, 5)]),
        (12, [(12, 1), (2, 11), (10, 3), (4, 9), (8, 5), (6, 7)]),
        (5, [(None, 1), (2, None), (None, 3), (4, 5)]),
    ],
)
def test_imposed_order_folds_into_reading_order(count, expected):
    assert booklet_order(count) == expected
    sheets = impose_booklet(_numbered(count), find_paper("a4"))
    assert _sides(sheets) == expected
    for sheet in sheets:
        assert (sheet.width, sheet.height) == (297.0, 210.0)


def test_folding_the_imposed_sheets_gives_pages_in_order():
    for count in (4, 8, 12, 16, 9):
        sides = booklet_order(count)
        total = len(sides) * 2
        sheets = [(sides[k], sides[k + 1]) for k in range(0, len(sides), 2)]
        # nested sheets, outermost first: reading order is the right half of each front from the
        # outside in, each back's halves, then the left halves of the fronts from the inside out
        order: list[int | None] = []
        for front, back in sheets:
            order += [front[1], back[0]]
        for front, back in reversed(sheets):
            order += [back[1], front[0]]
        assert order == [n if n <= count else None for n in range(1, total + 1)]


@pytest.mark.parametrize("size", [7.5, 12.5])
def test_other_body_sizes_stay_in_the_text_area(nmm, size):
    spec = nmm.component("booklet")
    bigger = type(spec)(spec.id, spec.kind, {**spec.values, "body_size": size})
    ctx = context(nmm)
    laid = booklet.laid_pages(bigger, ctx)
    _check_page_model([lp.page for lp in laid], ctx)
    assert all(lp.kinds[-1] != "heading" for lp in laid)


def test_a_cover_with_many_components_and_a_long_title_stays_in_the_text_area(tmp_path):
    boards = "".join(
        SMALL_BOARD.replace("components.board]", f"components.board{n}]").replace(
            'title = "Board"', f'title = "Board number {n} with a longer name"'
        )
        for n in range(9)
    )
    d = make_game(
        str(tmp_path), {"en": "# Rules\n\nPlay.\n"}, extra=boards, booklet='cover_figure = "board3"'
    )
    ctx = context(d)
    pages = booklet.booklet_pages(d.component("booklet"), ctx)
    cover = pages[0]
    words = " ".join(s.text for s, _ in iter_shapes(cover.shapes) if isinstance(s, Text))
    assert "Board number 8 with a longer name" in words
    _check_page_model(pages, ctx)
