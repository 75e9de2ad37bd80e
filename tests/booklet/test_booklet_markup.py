"""The booklet markup: blocks, inline styles, typographic characters and one-line errors."""

from __future__ import annotations

import pytest

from generator.booklet.markup import (
    FigureRow,
    Heading,
    ListBlock,
    Note,
    PageBreak,
    Paragraph,
    Run,
    Table,
    parse,
    parse_inline,
    plain_text,
)
from generator.foundation.errors import TemplateError


def test_blocks_of_every_kind_are_recognised():
    doc = parse(
        "# One\n\nText *here*\nand on.\n\n- a\n- b\n  1. x\n  2. y\n\n1. first\n2. second\n\n"
        "> a note\n\n| H | I |\n|---|:-:|\n| 1 | 2 |\n\n::: figure board pos:a | Cap\n"
        "::: figure board width=40% | Two\n::: pagebreak\n### Three\n"
    )
    kinds = [type(b) for b in doc.blocks]
    assert kinds == [Heading, Paragraph, ListBlock, ListBlock, Note, Table, FigureRow, PageBreak, Heading]
    assert doc.blocks[0].level == 1 and doc.blocks[-1].level == 3
    assert plain_text(doc.blocks[1].runs) == "Text here and on."
    bullets = doc.blocks[2]
    assert not bullets.ordered and bullets.items[1].children is not None
    assert bullets.items[1].children.ordered and len(bullets.items[1].children.items) == 2
    assert doc.blocks[3].ordered and len(doc.blocks[3].items) == 2
    table = doc.blocks[5]
    assert table.align == ("left", "center") and len(table.rows) == 1
    figures = doc.blocks[6].figures
    assert [(f.component, f.overlay, f.width) for f in figures] == [
        ("board", "pos:a", None),
        ("board", None, (40.0, "%")),
    ]


def test_inline_styles_and_code_spans():
    runs = parse_inline("a **bold** and *it* and `d2-d3` and ***both***")
    styled = {(r.text, r.bold, r.italic, r.code) for r in runs}
    assert ("bold", True, False, False) in styled
    assert ("it", False, True, False) in styled
    assert ("d2-d3", False, False, True) in styled
    assert ("both", True, True, False) in styled


def test_straight_quotes_dashes_and_ellipses_become_typographic():
    text = plain_text(parse_inline("\"It's here\" -- he said... l'altro --- fin 'x'"))
    assert text == "\u201cIt\u2019s here\u201d \u2013 he said\u2026 l\u2019altro \u2014 fin \u2018x\u2019"


def test_apostrophe_after_a_styled_word_closes():
    assert plain_text(parse_inline("the **mill**'s men")) == "the mill\u2019s men"


def test_escapes_keep_characters_literal():
    assert (
        plain_text(parse_inline(r"2 \* 3 and \*not italic\* and a\-\-b")) == "2 * 3 and *not italic* and a--b"
    )
    assert plain_text(parse_inline("2 * 3")) == "2 * 3"


def test_code_spans_are_not_smartened():
    (run,) = parse_inline("`a--b 'x'`")
    assert run.text == "a--b 'x'" and run.code


def test_a_backslash_at_line_end_forces_a_break():
    (para,) = parse("one\\\ntwo\n").blocks
    assert Run("\n") in para.runs


def test_table_cells_may_hold_an_escaped_bar():
    (table,) = parse("| a | b |\n|---|---|\n| x \\| y | z |\n").blocks
    assert plain_text(table.rows[0][0]) == "x | y"


def test_meta_lines_set_cover_values():
    doc = parse("::: meta subtitle | Le jeu du moulin\n# A\n")
    assert doc.meta == {"subtitle": "Le jeu du moulin"}


@pytest.mark.parametrize(
    "text, words",
    [
        ("a **bold", "unclosed **"),
        ("a *it", "unclosed *"),
        ("a `code", "unclosed `"),
        ("::: wibble", "unknown directive"),
        ("::: figure | cap", "needs a component id"),
        ("::: figure board a b | cap", "unexpected 'b'"),
        ("::: figure board width=120% | cap", "between 0 and 100%"),
        ("::: meta colour | red", "::: meta KEY"),
        ("| a | b |\n| x | y |", "separator row"),
        ("| a | b |\n|---|---|\n| x |", "row has 1 cells"),
        ("an arrow \u2192 here", "U+2192"),
    ],
)
def test_bad_markup_is_a_one_line_error_naming_the_source(text, words):
    with pytest.raises(TemplateError) as info:
        parse(text, "game.en.md.j2")
    message = str(info.value)
    assert words in message and "game.en.md.j2" in message and "\n" not in message


def test_narrow_no_break_spaces_stay_as_written():
    # the booklet font draws U+202F, the narrow space French sets before ; ! ?
    (para,) = parse("Oui\u202f! \u00ab\u00a0moulin\u00a0\u00bb").blocks
    assert plain_text(para.runs) == "Oui\u202f! \u00ab\u00a0moulin\u00a0\u00bb"
