"""French and Italian set their short words as their typesetters do: a word of one letter ("à",
"a", "y", "e", "è", a square's letter) never ends a line, it starts the next one with the word
after it (a no-break space ties them); Italian writes "ad" and "ed" before a word that begins
with the same vowel ("ad A", "ed e3", "ed è"). Checked over the booklet and quick reference of
every kit in both languages (several seeds of the seeded games, whose examples differ), broken at
many widths, and on the PDF a kit prints. English is set as ever."""

from __future__ import annotations

import dataclasses
import re

import pypdfium2 as pdfium
import pytest

from generator.booklet.layout import BookStyle, break_lines, styled_pieces
from generator.booklet.markup import Document, Run, parse
from generator.booklet.template import render_template, short_words, template_path
from generator.components.base import Options
from generator.components.quick_reference import template_file
from generator.definitions.loader import find_definition
from generator.foundation.languages import NBSP
from generator.kits.plan import kit_plan
from tests.booklet.conftest import context
from tests.conftest import kit_definitions
from tests.shared import build

LANGS = ("fr", "it")
SEEDS = (1, 2, 3, 7)
ONE_LETTER = re.compile(r"(?:^|[ \u00a0])([^\W\d_])$")


def inlines(node: object) -> list[tuple[Run, ...]]:
    """Return every run sequence of a parsed document (paragraphs, list items, notes, table
    cells, captions, headings), each cut at its hard line breaks."""
    if isinstance(node, tuple) and node and all(isinstance(r, Run) for r in node):
        parts: list[list[Run]] = [[]]
        for run in node:
            if run.text == "\n":
                parts.append([])
            else:
                parts[-1].append(run)
        return [tuple(p) for p in parts if p]
    if isinstance(node, (list, tuple)):
        return [found for item in node for found in inlines(item)]
    if isinstance(node, dict):
        return [found for item in node.values() for found in inlines(item)]
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return [found for f in dataclasses.fields(node) for found in inlines(getattr(node, f.name))]
    return []


def documents(lang: str) -> dict[str, Document]:
    """Return the parsed booklet and quick reference of every kit in a language, for several seeds
    of a seeded game (its examples are drawn from its board)."""
    found = {}
    for game, definition in sorted(kit_definitions(lang).items()):
        if lang not in (definition.game.get("languages") or ()):
            continue  # the starter kit is written in English
        seeds = SEEDS if definition.game.get("seeded") else (None,)
        for seed in seeds:
            ctx = (
                kit_plan(definition, seed=seed, options=Options(lang=lang)).context()
                if seed
                else context(definition, lang=lang)
            )
            for spec in definition.components:
                if spec.kind == "booklet":
                    path = template_path(definition, spec.get("template") or definition.id, lang)
                elif spec.kind == "quick-reference":
                    path = template_file(spec, ctx)
                else:
                    continue
                found[f"{game} seed {seed} {spec.id}"] = parse(render_template(path, ctx.text_values()), path)
    return found


@pytest.fixture(scope="module", params=LANGS)
def texts(request) -> tuple[str, dict[str, Document]]:
    """Return (language, every kit's parsed texts in it)."""
    return request.param, documents(request.param)


@pytest.mark.slow  # every kit's texts in two languages, or a kit built
def test_no_broken_line_ends_with_a_one_letter_word(texts):
    lang, docs = texts
    style = BookStyle(lang=lang)
    bad = []
    checked = 0
    for where, doc in docs.items():
        for runs in inlines(doc.blocks):
            pieces = styled_pieces(runs, style)
            for width in range(30, 121, 6):
                lines = break_lines(pieces, style.body, width)
                for line in lines[:-1]:  # the last line of a text ends where the text does
                    text = "".join(t for t, _, _ in line)
                    checked += 1
                    if line and line[-1][2] != style.code and ONE_LETTER.search(text):  # notation aside
                        bad.append(f"{where} at {width} mm: {text[-40:]!r}")
    assert checked > 1000
    assert not bad, bad[:10]


@pytest.mark.slow  # every kit's texts in two languages, or a kit built
def test_italian_writes_ad_and_ed_before_the_same_vowel():
    before = re.compile(r"(?<![\w’'])(a|e)\s+([^\s.,;:!?)]+)")
    bad = []
    for where, doc in documents("it").items():
        for runs in inlines(doc.blocks):
            # notation, and a letter set apart in bold or italic (a column's name: **a**), are names
            text = "".join(
                " `code` " if r.code else "N" if (r.bold or r.italic) and len(r.text) == 1 else r.text
                for r in runs
            )
            for m in before.finditer(text):
                word, nxt = m.group(1), m.group(2).strip("*_«»“”")
                lone = len(nxt) == 1 and nxt.islower()  # a column's letter: "da a a j"
                if nxt and not lone and nxt[0].lower() in ("aà" if word == "a" else "eèé"):
                    bad.append(f"{where}: {text[max(0, m.start() - 30) : m.end() + 10]!r}")
    assert not bad, bad[:10]


@pytest.mark.parametrize(
    ("text", "lang", "set_as"),
    [
        ("spara a un nemico e e3 ad A", "it", f"spara a{NBSP}un nemico ed e3 ad A"),
        ("unisce B a A, e è", "it", f"unisce B{NBSP}ad A, ed è"),
        ("da a a j, dalla **a** alla **f**", "it", f"da a{NBSP}a{NBSP}j, dalla **a**{NBSP}alla **f**"),
        ("il y a 2 à 8 joueurs, `a b`", "fr", f"il y{NBSP}a{NBSP}2 à{NBSP}8 joueurs, `a b`"),
        ("**P** pistolier, l’a vu", "fr", f"**P**{NBSP}pistolier, l’a vu"),
        ("## Partie A\nLa partie à\n  la fin", "fr", f"## Partie A\nLa partie à{NBSP}la fin"),
        ("a a b e e1", "en", "a a b e e1"),
    ],
)
def test_short_words_as_each_language_sets_them(text, lang, set_as):
    assert short_words(text, lang) == set_as


def test_a_one_letter_word_in_a_run_of_its_own_is_tied_to_the_next_run():
    runs = (Run("Colonne da "), Run("a", italic=True), Run(" a "), Run("f", italic=True), Run(" viste"))
    assert "".join(t for t, _, _ in styled_pieces(runs, BookStyle(lang="it"))) == (
        f"Colonne da a{NBSP}a{NBSP}f{NBSP}viste"
    )
    assert "".join(t for t, _, _ in styled_pieces(runs, BookStyle(lang="en"))) == "Colonne da a a f viste"


def test_a_translated_definition_text_ties_its_one_letter_words():
    caption = find_definition("centennial", lang="fr").component("strip").get("caption")
    assert f"à{NBSP}l’aller" in caption and f"1 à{NBSP}12" in caption
    assert "a 1" not in find_definition("centennial").component("strip").get("caption").replace("\u00a0", "?")


@pytest.mark.slow  # every kit's texts in two languages, or a kit built
def test_the_printed_french_kit_has_the_caption_of_its_track_unbroken(tmp_path):
    build(str(tmp_path), "centennial", lang="fr", formats=["pdf"])
    document = pdfium.PdfDocument(str(tmp_path / "centennial" / "strip.pdf"))
    text = "\n".join(document[n].get_textpage().get_text_range() for n in range(len(document)))
    lines = [line.strip() for line in text.replace("\r", "").split("\n")]
    caption = [line for line in lines if "étapes" in line or "aller" in line or "retour" in line]
    assert any("à l’aller" in line for line in caption), caption  # the word and the next on one line
    assert not [line for line in caption if ONE_LETTER.search(line)], caption
