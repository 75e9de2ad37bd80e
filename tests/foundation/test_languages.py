"""The language catalogue: every language has every shared text (same keys, same fields to fill),
a missing entry is an error rather than English, and French text is set with its no-break spaces."""

from __future__ import annotations

import re
import string

import pytest

from generator.foundation.languages import (
    LANGUAGES,
    TEXTS,
    MissingText,
    french_spacing,
    set_text,
    text,
    unit_count,
)

FIELDS = re.compile(r"\{\{\s*(\w+)|\{%\s*if\s+(\w+)")


def format_fields(raw: str) -> set[str]:
    """Return the {name} fields of a catalogue text (``text()`` fills them)."""
    if "{{" in raw or "{%" in raw:
        return set()  # a template, rendered with the sheet's values
    return {name for _, name, _, _ in string.Formatter().parse(raw) if name}


def fields(raw: str) -> set[str]:
    """Return the names a catalogue text fills in: {name} fields and jinja values."""
    return {m.group(1) or m.group(2) for m in FIELDS.finditer(raw)} | format_fields(raw)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_language_has_every_text_with_the_same_fields(lang):
    english = TEXTS["en"]
    assert lang in TEXTS
    assert TEXTS[lang].keys() == english.keys()
    for key, raw in TEXTS[lang].items():
        assert raw.strip(), key
        spelt = fields(english[key]) & {"n"} if key.endswith(".one") else set()  # 'un’altra'
        assert fields(raw) | spelt == fields(english[key]), key
    assert LANGUAGES[lang].cover.keys() == LANGUAGES["en"].cover.keys()
    assert LANGUAGES[lang].units.keys() == LANGUAGES["en"].units.keys()


def test_a_missing_entry_is_an_error_never_english():
    with pytest.raises(MissingText):
        text("no.such.key", "fr")
    with pytest.raises(MissingText):
        text("footer.sheet", "de", label="x", number=1, total=1)
    with pytest.raises(MissingText):
        unit_count(3, "turn", "de")
    with pytest.raises(MissingText):
        unit_count(3, "century", "fr")


MARKS = re.compile(r"(.)([;!?:])(?=\s|$)")


def badly_spaced(line: str) -> list[str]:
    """Return the French marks of a text without the no-break space they need before them."""
    bad = []
    for m in MARKS.finditer(line):
        before, mark = m.groups()
        want = "\u00a0" if mark == ":" else "\u202f"
        if before != want and (before.isalnum() or before in " )»”’"):
            bad.append(line[max(0, m.start() - 12) : m.end()])
    return bad


@pytest.mark.parametrize(
    "raw",
    [
        "Joueurs: Date:",
        "Plus de lignes ? Continuez!",
        "Un pion ; deux pions; trois",
        "« out » ou «back»",
        "**Note:** voir `P3 claims 4 ?` ici",
    ],
)
def test_french_marks_get_their_no_break_space_once(raw):
    done = french_spacing(raw)
    assert not badly_spaced(re.sub(r"`[^`]*`", "", done))
    assert french_spacing(done) == done  # applied twice, the same
    assert " »" not in done and "« " not in done
    assert done.replace("\u00a0", " ").replace("\u202f", "").replace(" ", "") == raw.replace(" ", "")


@pytest.mark.parametrize(
    "raw", ["a:b", "x != y", "|:-:|", "::: meta title | x", "http://example.org", "Push! ok"]
)
def test_notation_and_names_keep_their_marks(raw):
    assert french_spacing(raw) == raw


@pytest.mark.parametrize("key", sorted(TEXTS["fr"]))
def test_the_french_catalogue_is_set_in_french_typography(key):
    filled = text(key, "fr", **{name: "X" for name in format_fields(TEXTS["fr"][key])})
    assert not badly_spaced(re.sub(r"\{[{%].*?[}%]\}", "", filled)), key
    assert set_text(filled, "it") == filled
