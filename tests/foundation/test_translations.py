"""Every kit is built in every language (8 games in English, French and Italian: 24 kits), and every
French and Italian kit as printed holds no English: the text of every PDF (read back with
pypdfium2), every SVG and HTML page of the kit is in the kit's language, French marks carry their
no-break space (never a line break before them), and only the glossary's word for each concept.

Each kit is built plain, single-sided and, for a game with variants, with all of them, so the
texts only those builds print are read too. A kit not written yet is listed in
``tests/languages_todo.py`` (an expected failure until it is written, then an error to list it)."""

from __future__ import annotations

import html
import os
import re
import xml.etree.ElementTree as ET

import pypdfium2 as pdfium
import pytest

from generator.booklet.template import languages
from generator.definitions.loader import find_definition
from generator.definitions.values import BUILTIN_GAMES
from generator.foundation.languages import GLOSSARY, LANGUAGES, NBSP, NNBSP
from tests.conftest import SVG_NS, build
from tests.languages_todo import NOT_WRITTEN, param

# Common English words that no French or Italian sentence uses as a word. (Not 'on', 'a', 'as',
# 'page', 'date', 'notes', 'part', 'figure', 'bar' or 'dice', which French or Italian use too.)
ENGLISH = set(
    """the and of to with for from this that these your you are is be it its by at or not if
    sheet sheets backs reverse flip edge cut along grey gray lines line print printed printing
    card paper parts rules rule record throw throws turn turns player players winner game draw
    glue fold tile scaled fit true size actual next row rows column columns go numbering
    seed seeds variant quick reference contents glance skip board pieces counters strip""".split()
)
# The referee's notation, which a kit prints as the referee reads it (in `code` in the booklets):
# Centennial's 'claims', 'out' and 'back', a result's 'draw', and the tags of a game record.
NOTATION = {
    "claims",
    "out",
    "back",
    "draw",
    "players",
    "south",
    "west",
    "southorder",
    "westorder",
    "setup",
    "result",
}
# proper names and file names a kit prints as they are (a booklet's SVG pages keep a command or
# a record tag on one line with no-break spaces)
NAMES = re.compile(
    r"pnp[ \xa0]referee|pnp[ \xa0](?:build|board)[ \xa0][a-z-]+|[\w.-]+\.(?:pdf|svg|html|json|png)\b|--[a-z-]+|\[[A-Za-z]+[ \xa0]\"[^\"]*\"\]|Push!|https?://\S+"
)


#: every (game, language) kit besides English: 8 games in French and Italian
OTHER = [(g, lang) for g in sorted(BUILTIN_GAMES) for lang in sorted(LANGUAGES) if lang != "en"]


def kits(which: list[tuple[str, str]]) -> list[object]:
    """Return the kits as test parameters, those not written yet as expected failures."""
    return [param(g, lang, NOT_WRITTEN, "not written yet") for g, lang in which]


KITS = kits(OTHER)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[tuple[str, str, str], str]:
    """Return the folders of every French and Italian kit: plain, single-sided and, for a game with
    variants, with all of them (a kit whose build fails is left out: its tests fail)."""
    folders = {}
    for game, lang in OTHER:
        variants = list(find_definition(game).game.get("variants") or [])
        for how, options in (
            ("plain", {}),
            ("single-sided", {"single_sided": True}),
            ("variants", {"variants": variants}),
        ):
            if how == "variants" and not variants:
                continue
            out = str(tmp_path_factory.mktemp(f"{game}-{lang}-{how}"))
            try:
                build(out, game, lang=lang, seed=1 if game == "push" else None, **options)
            except Exception:  # a kit not written yet: its tests say so
                if (game, lang) in NOT_WRITTEN:
                    continue
                raise
            (folder,) = [n for n in os.listdir(out) if os.path.isdir(os.path.join(out, n))]
            folders[(game, lang, how)] = os.path.join(out, folder)
    return folders


def kit_folders(built: dict[tuple[str, str, str], str], game: str, lang: str) -> dict[str, str]:
    """Return the built folders of one kit by how it was built; fail when it was not built."""
    found = {how: folder for (g, code, how), folder in built.items() if (g, code) == (game, lang)}
    assert found, f"{game} was not built in {lang}"
    return found


@pytest.mark.parametrize("game,lang", kits(OTHER + [(g, "en") for g in sorted(BUILTIN_GAMES)]))
def test_every_kit_builds_in_every_language(built, tmp_path, game, lang):
    if lang == "en":
        build(str(tmp_path), game, seed=1 if game == "push" else None)
        (folder,) = [str(p) for p in tmp_path.iterdir() if p.is_dir()]
    else:
        folder = kit_folders(built, game, lang)["plain"]
    import json

    with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    assert manifest["lang"] == lang
    assert os.path.isfile(os.path.join(folder, "kit.pdf"))
    booklets = {b["lang"]: b for b in manifest["booklets"]}
    assert lang in booklets
    page = open(os.path.join(folder, booklets[lang]["html"]), encoding="utf-8").read()
    assert f'<html lang="{lang}">' in page
    # the definition says it is written in every language its booklets are written in
    definition = find_definition(game)
    assert lang in languages(definition) and sorted(definition.game["languages"]) == languages(definition)


def own_files(folder: str, lang: str) -> list[str]:
    """Return the kit's PDF, SVG and HTML files in its own language (not the booklets in the
    other languages beside them), and the home page of the folder it was built into."""
    others = [f".{code}." for code in LANGUAGES if code != lang]
    return sorted(
        os.path.join(folder, n)
        for n in os.listdir(folder)
        if n.endswith((".pdf", ".svg", ".html")) and not any(o in n for o in others)
    ) + [os.path.join(os.path.dirname(folder), "index.html")]


def pdf_lines(path: str) -> list[str]:
    """Return the lines of text of every page of a PDF as pypdfium2 reads them back."""
    doc = pdfium.PdfDocument(path)
    lines = []
    for page in doc:
        lines.extend(page.get_textpage().get_text_range().replace("\r", "").split("\n"))
    doc.close()
    return lines


def svg_lines(path: str) -> list[str]:
    """Return the text lines of an SVG, exactly as written (no-break spaces kept)."""
    root = ET.parse(path).getroot()
    return ["".join(t.itertext()) for t in root.iter(f"{SVG_NS}text")]


def html_lines(path: str) -> list[str]:
    """Return the text of an HTML page (its visible text and its alt and aria labels), exactly."""
    page = open(path, encoding="utf-8").read()
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<code>.*?</code>", " ", page, flags=re.S)  # notation
    page = re.sub(
        r"<svg\b.*?</svg>",
        lambda m: " ".join(re.findall(r"<text[^>]*>(.*?)</text>", m.group(0))),
        page,
        flags=re.S,
    )
    labels = re.findall(r'(?:alt|aria-label|title)="([^"]*)"', page)
    text = re.sub(r"<[^>]+>", "\n", page)
    return [html.unescape(x) for x in text.split("\n") + labels if x.strip()]


def texts(path: str) -> list[str]:
    """Return the lines of text of one file of a kit."""
    if path.endswith(".pdf"):
        return pdf_lines(path)
    if path.endswith(".svg"):
        return svg_lines(path)
    return html_lines(path)


def words(line: str) -> list[str]:
    """Return the words of a line, names and notation in backticks left out."""
    line = NAMES.sub(" ", re.sub(r"`[^`]*`", " ", line))
    return re.findall(r"[^\W\d_]+(?:[’'][^\W\d_]+)?", line)


def english_in(lines: list[str]) -> list[str]:
    """Return the lines holding an English word (notation words aside)."""
    found = []
    for line in lines:
        english = [w for w in words(line) if w.lower() in ENGLISH - NOTATION]
        if english:
            found.append(f"{' '.join(english)} in {line[:80]!r}")
    return found


@pytest.mark.parametrize("game,lang", KITS)
def test_no_english_in_any_file_of_the_kit(built, game, lang):
    found = {}
    for how, folder in kit_folders(built, game, lang).items():
        for path in own_files(folder, lang):
            bad = english_in(texts(path))
            if bad:
                found[f"{how}/{os.path.basename(path)}"] = bad[:5]
    assert not found, found


def badly_spaced(line: str, exact: bool) -> list[str]:
    """Return the French marks of a line without the space they need before them: the no-break
    space of the right width where the characters are exact (SVG, HTML), any space in a PDF read
    back (its no-break spaces read as spaces); a PDF line broken before its mark is
    ``broken_before_marks``."""
    bad = []
    line = NAMES.sub(" ", re.sub(r"`[^`]*`", " ", line))
    for m in re.finditer(r"(?<=[^\W_]|[)»”’])([ \u00a0\u202f]?)([;!?:])(?=\s|$)", line):
        space, mark = m.groups()
        want = NBSP if mark == ":" else NNBSP
        if (exact and space != want) or (not exact and not space):
            bad.append(line[max(0, m.start() - 15) : m.end()])
    for m in re.finditer(r"«(?![\u00a0])|(?<![\u00a0])»", line) if exact else ():
        bad.append(line[max(0, m.start() - 10) : m.end() + 10])
    return bad


def broken_before_marks(path: str) -> list[str]:
    """Return the French marks of a PDF set at the start of a line, apart from the word before them:
    found by where the characters are drawn (a booklet's half pages are turned a quarter round, and
    pdfium reads a bold word and the mark after it as two lines there), not by the text's lines."""
    doc = pdfium.PdfDocument(path)
    bad = []
    for page in doc:
        textpage = page.get_textpage()
        chars = textpage.get_text_range()
        for i, ch in enumerate(chars):
            if ch not in ";!?:" or (i + 1 < len(chars) and not chars[i + 1].isspace()):
                continue
            j = i - 1
            while j >= 0 and chars[j] in " \u00a0\u202f\r\n":
                j -= 1
            if j < 0 or not (chars[j].isalnum() or chars[j] in ")»”’"):
                continue
            a, b = textpage.get_charbox(j), textpage.get_charbox(i)
            size = max(a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1], 1.0)
            ax, ay, bx, by = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2, (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            if ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 > 4 * size:
                bad.append(chars[max(0, j - 15) : i + 1].replace("\r\n", " / "))
    doc.close()
    return bad


@pytest.mark.parametrize("game,lang", kits([k for k in OTHER if k[1] == "fr"]))
def test_french_marks_have_their_no_break_space(built, game, lang):
    found = {}
    for how, folder in kit_folders(built, game, lang).items():
        for path in own_files(folder, lang):
            exact = not path.endswith(".pdf")
            bad = [b for line in texts(path) for b in badly_spaced(line, exact)]
            bad += broken_before_marks(path) if not exact else []
            if bad:
                found[f"{how}/{os.path.basename(path)}"] = bad[:5]
    assert not found, found


# Italian typography: the apostrophe is the typographic one (l’andata, dell’avversario), a capital
# E with its accent is È (never E'), and the accented words take the accent their vowel has
# (perché, né, sé: acute; è, però, più: grave). Each wrong form, as a typewriter writes it.
ITALIAN_WRONG = re.compile(
    r"(?<=[^\W\d_])'(?=[^\W\d_])|\bE'(?!\w)|\b(?:perchè|poichè|finchè|affinchè|benchè|nè|sè|quì|quà)\b",
    re.IGNORECASE,
)


def italian_typos(line: str) -> list[str]:
    """Return the wrongly set apostrophes and accents of an Italian line, names and notation aside."""
    line = NAMES.sub(" ", re.sub(r"`[^`]*`", " ", line))
    return [line[max(0, m.start() - 12) : m.end() + 12] for m in ITALIAN_WRONG.finditer(line)]


@pytest.mark.parametrize("game,lang", kits([k for k in OTHER if k[1] == "it"]))
def test_italian_apostrophes_and_accents(built, game, lang):
    found = {}
    for how, folder in kit_folders(built, game, lang).items():
        for path in own_files(folder, lang):
            bad = [b for line in texts(path) for b in italian_typos(line)]
            if bad:
                found[f"{how}/{os.path.basename(path)}"] = bad[:5]
    assert not found, found


@pytest.mark.parametrize("game,lang", KITS)
def test_only_the_glossary_term_for_each_concept(built, game, lang):
    banned = {
        word: key
        for key, term in GLOSSARY[lang].items()
        if not term.games or game in term.games
        for word in term.banned
    }
    assert banned
    found = {}
    for how, folder in kit_folders(built, game, lang).items():
        for path in own_files(folder, lang):
            for line in texts(path):
                low = " ".join(words(line)).lower()
                for word, key in banned.items():
                    if re.search(rf"(?<![\w’']){re.escape(word)}(?![\w’'])", low.replace("’", "'")):
                        found.setdefault(f"{how}/{os.path.basename(path)}", []).append(
                            f"{key}: {word!r} in {line[:60]!r}"
                        )
    assert not found, found


def footer_boxes(path: str) -> list[list[tuple[float, float, float, float]]]:
    """Return, for every page of a PDF, the boxes (left, bottom, right, top in pt) of the text
    objects in its bottom 15 mm: the footer line and the scale check."""
    doc = pdfium.PdfDocument(path)
    pages = []
    for page in doc:
        boxes = []
        for obj in page.get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_TEXT], max_depth=8):
            left, bottom, right, top = obj.get_bounds()
            if top < 15 * 72 / 25.4:
                boxes.append((left, bottom, right, top))
        pages.append(boxes)
    doc.close()
    return pages


@pytest.mark.parametrize("game,lang", KITS)
def test_the_footer_words_never_run_into_the_scale_check(built, game, lang):
    folder = kit_folders(built, game, lang)["plain"]
    for number, boxes in enumerate(footer_boxes(os.path.join(folder, "kit.pdf")), 1):
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                same_line = a[1] < b[3] and b[1] < a[3]
                assert not (same_line and a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5), (number, a, b)


def test_pnp_games_lists_the_languages_of_every_kit():
    import json

    from typer.testing import CliRunner

    from generator.cli.app import app

    result = CliRunner().invoke(app, ["games", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["id"]: row for row in json.loads(result.stdout)}
    assert set(rows) == set(BUILTIN_GAMES)
    for game, row in rows.items():
        assert row["languages"] == languages(find_definition(game)), game
    plain = CliRunner().invoke(app, ["games"]).stdout.splitlines()
    for game, row in rows.items():
        at = next(i for i, line in enumerate(plain) if line.startswith(f"{game} "))
        assert f"languages: {', '.join(row['languages'])}" in plain[at + 1], game
