"""A text is checked against the face it is set in: a definition's own face ([fonts]) widens the
characters its texts may hold (Greek in DejaVu Sans), in the PDF, the SVG and the booklet's web
page; the same text in a shipped face is refused in one line, and a character the own face lacks
too, in one wording wherever it is found (a card field's text or a piece's label)."""

from __future__ import annotations

import base64
import io
import re
import shutil
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from tests.foundation.test_cli import one_line_error, pnp
from tests.pdf_reader import open_pdf

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
LICENCE = Path("/usr/share/doc/fonts-dejavu-core/copyright")
pytestmark = pytest.mark.skipif(
    not DEJAVU.is_file() or not LICENCE.is_file(), reason="DejaVu Sans is not installed"
)

FIELD = "Άλφα"  # a card field's own text, in the definition
CELL = "Ωμέγα"  # a CSV cell the field takes in
LABEL = "Δέλτα"  # a counter's label
PARAGRAPH = "Κίνηση: ένα βήμα."  # the booklet's body
GAME = """
[game]
id = "greek"
title = "Greek"
players = "2"

[fonts]
greek = "fonts/DejaVuSans.ttf"

[components.deck]
kind = "cards"
title = "Actions"
size = "poker"
csv = "deck.csv"

[[components.deck.fields]]
text = "{field} {{name}}"
x = "4mm"
y = "10mm"
w = "50mm"
h = "20mm"
size = 10
font = "{card_font}"

[components.counters]
kind = "counters"

[[components.counters.counters]]
name = "Scout"
count = 1
size = "22mm"
label = "{label}"
label_font = "{label_font}"

[components.booklet]
kind = "booklet"
cover = false
body_font = "{body_font}"
"""


def folder(
    tmp_path: Path,
    card_font: str = "greek",
    label_font: str = "greek",
    body_font: str = "greek",
    cell: str = CELL,
    label: str = LABEL,
) -> Path:
    """Write the definition: Greek texts in the faces given (a name of [fonts] or a shipped face)."""
    root = tmp_path / "defs"
    (root / "fonts").mkdir(parents=True)
    shutil.copy(DEJAVU, root / "fonts" / "DejaVuSans.ttf")
    shutil.copy(LICENCE, root / "fonts" / "LICENSE.txt")
    (root / "greek.toml").write_text(
        GAME.format(field=FIELD, card_font=card_font, label=label, label_font=label_font, body_font=body_font)
    )
    (root / "deck.csv").write_text(f"name,quantity\n{cell},1\n", encoding="utf-8")
    (root / "templates" / "booklets").mkdir(parents=True)
    (root / "templates" / "booklets" / "greek.en.md.j2").write_text(
        f"# Rules\n\n{PARAGRAPH}\n", encoding="utf-8"
    )
    return root


def build(root: Path, out: Path):
    return pnp("build", "greek", "--layouts", str(root), "--out", str(out))


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("greek")
    result = build(folder(tmp), tmp / "out")
    assert result.returncode == 0, result.stderr
    return tmp / "out" / "greek"


def letters(text: str) -> set[str]:
    return set(text) - set(" .:")


def test_the_pdf_sets_the_greek_texts_in_the_definition_face(kit):
    drawn: dict[str, set[str]] = {}
    for name in ("kit.pdf", "booklet.pdf"):
        for page in open_pdf(kit / name):
            for ch in page.chars():
                drawn.setdefault(ch["font"], set()).add(ch["text"])
    assert letters(FIELD + CELL + LABEL + PARAGRAPH) <= drawn["DejaVuSans"]
    assert not any(
        letters(FIELD + CELL + LABEL + PARAGRAPH) & chars
        for font, chars in drawn.items()
        if font != "DejaVuSans"
    )


def test_the_svg_sets_the_greek_texts_with_the_face_embedded(kit):
    svgs = {p.name: p.read_text(encoding="utf-8") for p in kit.glob("*.svg")}
    texts = "".join(svgs.values())
    for text in (FIELD, CELL, LABEL, PARAGRAPH):
        assert text in texts, text
    embedded = set()
    for svg in svgs.values():
        for data in re.findall(r"font-family:DejaVuSans;src:url\(data:font/woff;base64,([^)]+)\)", svg):
            embedded |= {chr(c) for c in TTFont(io.BytesIO(base64.b64decode(data))).getBestCmap()}
    assert letters(FIELD + CELL + LABEL + PARAGRAPH) <= embedded


def test_the_booklet_html_sets_the_greek_body_in_the_definition_face(kit):
    page = (kit / "booklet.html").read_text(encoding="utf-8")
    assert f"<p>{PARAGRAPH}</p>" in page
    face = re.search(r"@font-face\{font-family:DejaVuSans;src:url\(data:font/woff;base64,([^)]+)\)", page)
    assert face
    woff = TTFont(io.BytesIO(base64.b64decode(face.group(1))))
    assert letters(PARAGRAPH) <= {chr(c) for c in woff.getBestCmap()}
    assert "body{font-family:DejaVuSans" in page


@pytest.mark.parametrize(
    "faces, where",
    [
        ({"card_font": "sans"}, "greek.toml: components.deck.fields[0].text: holds "),
        ({"label_font": "sans"}, "greek.toml: components.counters.counters[0].label: holds "),
        ({"body_font": "sans"}, "templates/booklets/greek.en.md.j2: rendered line "),
    ],
)
def test_the_same_text_in_a_shipped_face_is_refused_in_one_line(tmp_path, faces, where):
    result = build(folder(tmp_path, **faces), tmp_path / "out")
    assert result.returncode != 0
    line = one_line_error(result)
    assert where in line and ("cannot draw" in line or "has no glyph for" in line), line
    assert not (tmp_path / "out" / "greek").exists()


def test_a_character_the_own_face_lacks_is_one_wording_for_a_card_and_a_piece(tmp_path):
    han = "\u6f22"  # a Han character: DejaVu Sans has none
    card = one_line_error(build(folder(tmp_path / "card", cell=han), tmp_path / "card" / "out"))
    piece = one_line_error(build(folder(tmp_path / "piece", label=han), tmp_path / "piece" / "out"))
    wording = f"holds '{han}' (U+6F22), which the font DejaVuSans.ttf has no glyph for"
    assert "deck.csv" in card and wording in card
    assert "components.counters.counters[0].label" in piece and wording in piece
    assert card.split(": holds ", 1)[1] == piece.split(": holds ", 1)[1]


TRANSLATION = '\n[translations.fr]\n"components.counters.counters.0.label" = "Δέλτα φρ"\n'


@pytest.mark.parametrize("label_font, refused", [("greek", False), ("sans", True)])
def test_every_language_s_translation_is_checked_in_the_face_it_is_set_in(tmp_path, label_font, refused):
    root = folder(tmp_path, label_font=label_font, label="Delta")
    with open(root / "greek.toml", "a", encoding="utf-8") as handle:
        handle.write(TRANSLATION)
    result = build(root, tmp_path / "out")  # in English: the French text is checked all the same
    if not refused:
        assert result.returncode == 0, result.stderr
        return
    line = one_line_error(result)
    assert "translations.fr.components.counters.counters.0.label: holds 'Δ' (U+0394)" in line, line
    assert not (tmp_path / "out" / "greek").exists()
