"""A definition's own faces (its ``[fonts]`` table): set in the PDF as a subset under the face's
own name with its own glyph widths, embedded in the SVG as a WOFF subset carrying its licence
text, measured by the wrapping code in its own metrics, named in the manifest with its licence
file, and every bad file a one-line error naming the file and the key."""

from __future__ import annotations

import base64
import io
import json
import os
import re
import shutil
from pathlib import Path

import pypdf
import pytest
from fontTools.ttLib import TTFont

from generator.model.fonts import font_path, text_width, vera_path
from tests.foundation.test_cli import one_line_error, pnp
from tests.pdf_reader import open_pdf

ROOT = Path(__file__).resolve().parents[2]

FACE = "VeraBd.ttf"  # Bitstream Vera Sans Bold as shipped by reportlab, copied under another name
LICENCE = os.path.join(os.path.dirname(vera_path("sans")), "bitstream-vera-license.txt")
WORDS = "Move two squares"
# a box as wide as the words in the shipped regular face: they fit it on one line in that face,
# and must wrap in the (wider) bold face of the definition
BOX = text_width(WORDS, "sans", 10) + 0.2

GAME = """
[game]
id = "deck"
title = "Deck"
players = "2"

[fonts]
heading = "fonts/Heading.ttf"

[components.deck]
kind = "cards"
title = "Actions"
size = "poker"
csv = "deck.csv"

[[components.deck.fields]]
text = "{{name}}"
x = "4mm"
y = "3mm"
w = "{box}mm"
h = "20mm"
size = 10
min_size = 10
font = "{font}"
"""


def kit_folder(tmp_path: Path, font: str = "heading") -> Path:
    """Write a one-deck definition whose card names are set in the definition's own face."""
    folder = tmp_path / "defs"
    (folder / "fonts").mkdir(parents=True)
    shutil.copy(vera_path("sans-bold"), folder / "fonts" / "Heading.ttf")
    shutil.copy(LICENCE, folder / "fonts" / "LICENSE.txt")
    (folder / "deck.toml").write_text(GAME.format(box=f"{BOX:.3f}", font=font))
    (folder / "deck.csv").write_text(f"name,quantity\n{WORDS},1\n")
    return folder


def build(folder: Path, out: Path, *extra: str) -> Path:
    result = pnp("build", "deck", "--layouts", str(folder), "--out", str(out), *extra)
    assert result.returncode == 0, result.stderr
    return out / "deck"


@pytest.fixture(scope="module")
def bold_kit(tmp_path_factory) -> Path:
    """Return the kit of the one-deck definition in its own (bold) face, built once for the tests
    that only read it."""
    tmp = tmp_path_factory.mktemp("bold")
    return build(kit_folder(tmp), tmp / "out")


def test_the_pdf_embeds_a_subset_of_the_face_under_its_name_with_its_widths(bold_kit):
    kit = bold_kit
    reader = pypdf.PdfReader(kit / "kit.pdf")
    face = TTFont(vera_path("sans-bold"))
    units = face["head"].unitsPerEm
    found = []
    for page in reader.pages:
        for font in page["/Resources"].get("/Font", {}).values():
            font = font.get_object()
            if font["/BaseFont"].endswith("+BitstreamVeraSans-Bold"):
                found.append(font)
    assert found, "the face is not embedded under its own name"
    font = found[0]
    descriptor = font["/FontDescriptor"].get_object()
    embedded = TTFont(io.BytesIO(descriptor["/FontFile2"].get_object().get_data()))
    # a subset (reportlab's first one keeps the printable ASCII): not the face's every glyph
    glyf = embedded["glyf"]
    drawn = [g for g in embedded.getGlyphOrder() if glyf[g].numberOfContours != 0]
    assert len(drawn) < face["maxp"].numGlyphs / 2
    # the widths the PDF gives each code are the face's own advance widths
    cmap = face.getBestCmap()
    widths = font["/Widths"]
    first = font["/FirstChar"]
    to_unicode = font["/ToUnicode"].get_object().get_data().decode("latin-1")
    pairs = re.findall(r"<([0-9A-Fa-f]{2})> <([0-9A-Fa-f]{4})>", to_unicode)
    checked = 0
    for code, uni in pairs:
        if int(uni, 16) not in cmap:
            continue
        checked += 1
        advance = face["hmtx"][cmap[int(uni, 16)]][0]
        assert abs(widths[int(code, 16) - first] - advance * 1000 / units) < 1
    assert checked >= len(set(WORDS))


def _embedded_widths(kit: Path, postscript_name: str) -> dict[str, float]:
    """Return the width (in thousandths of the size) the kit's PDF gives each character it sets in
    the face embedded under a PostScript name, read from its fonts' widths and Unicode maps."""
    widths: dict[str, float] = {}
    for page in pypdf.PdfReader(kit / "kit.pdf").pages:
        for font in page["/Resources"].get("/Font", {}).values():
            font = font.get_object()
            if not font["/BaseFont"].endswith("+" + postscript_name):
                continue
            to_unicode = font["/ToUnicode"].get_object().get_data().decode("latin-1")
            for code, uni in re.findall(r"<([0-9A-Fa-f]{2})> <([0-9A-Fa-f]{4})>", to_unicode):
                widths[chr(int(uni, 16))] = font["/Widths"][int(code, 16) - font["/FirstChar"]]
    return widths


def _advances(path: str | Path, text: str) -> dict[str, float]:
    """Return the advance width (in thousandths of the size) of each character of text in a face."""
    face = TTFont(path)
    cmap, units = face.getBestCmap(), face["head"].unitsPerEm
    return {ch: face["hmtx"][cmap[ord(ch)]][0] * 1000 / units for ch in set(text) if ord(ch) in cmap}


def test_two_faces_of_one_postscript_name_built_in_one_process_each_keep_their_glyphs(tmp_path):
    # a second definition's face: another face (DejaVu Serif Bold, other widths) renamed in its
    # name table to the PostScript name of the first definition's face (Vera Sans Bold)
    first = kit_folder(tmp_path / "a")
    second = kit_folder(tmp_path / "b")
    postscript_name = TTFont(vera_path("sans-bold"))["name"].getDebugName(6)
    other = TTFont(ROOT / "examples" / "french-deck" / "fonts" / "DejaVuSerif-Bold.ttf")
    for record in other["name"].names:
        if record.nameID in (4, 6):
            record.string = postscript_name
    other.save(str(second / "fonts" / "Heading.ttf"))
    assert TTFont(second / "fonts" / "Heading.ttf")["name"].getDebugName(6) == postscript_name
    kits = [build(first, tmp_path / "a" / "out"), build(second, tmp_path / "b" / "out")]
    for kit, folder in zip(kits, (first, second)):
        own = _advances(folder / "fonts" / "Heading.ttf", WORDS)
        assert set(WORDS) - {" "} <= set(own)
        embedded = _embedded_widths(kit, postscript_name)
        assert set(WORDS) <= set(embedded), kit
        for ch in set(WORDS):
            assert abs(embedded[ch] - own[ch]) < 1, (kit, ch)
    # the two faces are different, so the test sees which one each kit was set in
    assert _advances(first / "fonts" / "Heading.ttf", WORDS) != _advances(
        second / "fonts" / "Heading.ttf", WORDS
    )


def test_a_face_replaced_at_the_same_path_is_read_again_in_the_same_process(tmp_path):
    # a long-lived process (a Python session calling the library, a watch): the face saved again
    # under the same file name is the one the next build sets, measures, embeds and wraps in
    folder = kit_folder(tmp_path)
    face = folder / "fonts" / "Heading.ttf"
    first = build(folder, tmp_path / "out1")
    other = ROOT / "examples" / "french-deck" / "fonts" / "DejaVuSerif-Bold.ttf"
    shutil.copy(other, face)
    second = build(folder, tmp_path / "out2")
    for kit, source in ((first, vera_path("sans-bold")), (second, other)):
        name = TTFont(source)["name"].getDebugName(6)
        own = _advances(source, WORDS)
        embedded = _embedded_widths(kit, name)
        assert set(WORDS) - {" "} <= set(embedded), (kit, name)
        for ch in set(WORDS) - {" "}:
            assert abs(embedded[ch] - own[ch]) < 1, (kit, ch)
        svg = (kit / "deck.svg").read_text()
        faces = dict(re.findall(r"font-family:([\w-]+);src:url\(data:font/woff;base64,([^)]+)\)", svg))
        woff = TTFont(io.BytesIO(base64.b64decode(faces[name])))
        cmap, units = woff.getBestCmap(), woff["head"].unitsPerEm
        for ch in set(WORDS) - {" "}:
            assert abs(woff["hmtx"][cmap[ord(ch)]][0] * 1000 / units - own[ch]) < 1, (kit, ch)
    assert _advances(vera_path("sans-bold"), WORDS) != _advances(other, WORDS)


def test_wrapping_measures_the_chosen_face(tmp_path, bold_kit):
    # in the shipped regular face the words fit the box on one line; in the bold face they wrap
    regular = build(kit_folder(tmp_path / "a", font="sans"), tmp_path / "a" / "out")
    bold = bold_kit

    def lines(kit: Path) -> set[float]:
        for page in open_pdf(kit / "kit.pdf"):
            found = {round(w[3], 1) for w in page.get_text("words") if w[4] in WORDS.split()}
            if found:
                return found
        return set()

    assert len(lines(regular)) == 1
    assert len(lines(bold)) == 2


def test_the_svg_embeds_the_faces_subset_with_its_licence(bold_kit):
    kit = bold_kit
    svg = (kit / "deck.svg").read_text()
    faces = dict(re.findall(r"font-family:([\w-]+);src:url\(data:font/woff;base64,([^)]+)\)", svg))
    assert "BitstreamVeraSans-Bold" in faces
    woff = TTFont(io.BytesIO(base64.b64decode(faces["BitstreamVeraSans-Bold"])))
    chars = {chr(c) for c in woff.getBestCmap()}
    assert set(WORDS.replace(" ", "")) <= chars <= set(WORDS)
    names = {r.nameID: str(r) for r in woff["name"].names}
    assert "Bitstream" in names[13]
    # the words are drawn in the face's class, whose family is the face
    klass = re.search(r"\.(u[0-9a-f]+)\{font-family:BitstreamVeraSans-Bold,", svg)
    assert klass and re.search(rf'class="{klass.group(1)} [^"]*"[^>]*>Move', svg)


def test_the_manifest_names_each_face_and_its_licence(bold_kit):
    kit = bold_kit
    manifest = json.loads((kit / "manifest.json").read_text())
    [face] = manifest["fonts"]
    assert face["name"] == "heading"
    assert face["file"] == "fonts/Heading.ttf" and face["licence"] == "fonts/LICENSE.txt"
    assert face["family"] == "BitstreamVeraSans-Bold"


def test_the_same_build_gives_the_same_bytes(tmp_path):
    folder = kit_folder(tmp_path)
    one = build(folder, tmp_path / "one")
    two = build(folder, tmp_path / "two")
    for name in ("kit.pdf", "deck.svg"):
        assert (one / name).read_bytes() == (two / name).read_bytes()


def _missing(folder: Path) -> None:
    (folder / "fonts" / "Heading.ttf").unlink()


def _not_a_font(folder: Path) -> None:
    (folder / "fonts" / "Heading.ttf").write_bytes(b"GIF89a not a font at all")


def _cut_short(folder: Path) -> None:
    path = folder / "fonts" / "Heading.ttf"
    path.write_bytes(path.read_bytes()[:3000])


def _postscript_outlines(folder: Path) -> None:
    path = folder / "fonts" / "Heading.ttf"
    path.write_bytes(b"OTTO" + path.read_bytes()[4:])


def _link_outside(folder: Path) -> None:
    outside = folder.parent / "elsewhere.ttf"
    shutil.copy(vera_path("sans-bold"), outside)
    (folder / "fonts" / "Heading.ttf").unlink()
    (folder / "fonts" / "Heading.ttf").symlink_to(outside)


def _too_large(folder: Path) -> None:
    path = folder / "fonts" / "Heading.ttf"
    with open(path, "ab") as handle:
        handle.truncate(17_000_000)


def _no_licence(folder: Path) -> None:
    (folder / "fonts" / "LICENSE.txt").unlink()


def _outside_the_folder(folder: Path) -> None:
    text = (folder / "deck.toml").read_text().replace("fonts/Heading.ttf", "../Heading.ttf")
    (folder / "deck.toml").write_text(text)


def _a_shipped_faces_name(folder: Path) -> None:
    shutil.copy(font_path("sans-bold"), folder / "fonts" / "Heading.ttf")  # PnpSans-Bold


def _another_faces_name(folder: Path) -> None:
    # a face listed before it: another face renamed to Vera Sans Bold's PostScript name
    other = TTFont(ROOT / "examples" / "french-deck" / "fonts" / "DejaVuSerif-Bold.ttf")
    for record in other["name"].names:
        if record.nameID in (4, 6):
            record.string = "BitstreamVeraSans-Bold"
    other.save(str(folder / "fonts" / "Body.ttf"))
    text = (folder / "deck.toml").read_text().replace("[fonts]\n", '[fonts]\nbody = "fonts/Body.ttf"\n')
    (folder / "deck.toml").write_text(text)


@pytest.mark.parametrize(
    "spoil, words",
    [
        (_missing, "Heading.ttf: no such file"),
        (_not_a_font, "Heading.ttf: not a TrueType or OpenType font"),
        (_cut_short, "Heading.ttf: a damaged font"),
        (_postscript_outlines, "PostScript (CFF) outlines"),
        (_link_outside, "leads outside the definition's folder"),
        (_too_large, "Heading.ttf: over 16 MB"),
        (_no_licence, "Heading.ttf: no licence file beside it"),
        (_outside_the_folder, "a font file in the definition's folder or below it"),
        (_a_shipped_faces_name, "Heading.ttf: its PostScript name 'PnpSans-Bold' is a shipped face's"),
        (_another_faces_name, "'BitstreamVeraSans-Bold' is that of fonts/Body.ttf (fonts.body) too"),
    ],
)
def test_a_bad_font_file_is_one_line_naming_file_and_key(tmp_path, spoil, words):
    folder = kit_folder(tmp_path)
    spoil(folder)
    result = pnp("build", "deck", "--layouts", str(folder), "--out", str(tmp_path / "out"))
    assert result.returncode == 3
    line = one_line_error(result)
    assert "deck.toml: fonts.heading: " in line and words in line
    assert not (tmp_path / "out" / "deck").exists()


def test_an_unknown_font_name_is_one_line_naming_the_key(tmp_path):
    folder = kit_folder(tmp_path, font="headng")
    result = pnp("build", "deck", "--layouts", str(folder), "--out", str(tmp_path / "out"))
    assert result.returncode == 3
    line = one_line_error(result)
    assert "deck.toml: components.deck.fields[0].font: unknown font 'headng'" in line
    assert "heading" in line


def test_a_licence_named_for_the_font_counts(tmp_path):
    folder = kit_folder(tmp_path)
    (folder / "fonts" / "LICENSE.txt").rename(folder / "fonts" / "Heading-LICENSE.txt")
    kit = build(folder, tmp_path / "out")
    assert (
        json.loads((kit / "manifest.json").read_text())["fonts"][0]["licence"] == "fonts/Heading-LICENSE.txt"
    )


PIECES = """
[game]
id = "pieces"
title = "Pieces"
players = "2"

[fonts]
heading = "fonts/Heading.ttf"

[components.board]
kind = "grid-board"
title = "Board"
files = 4
ranks = 4
{font}

[components.counters]
kind = "counters"

[[components.counters.counters]]
name = "Scout"
count = 2
size = "22mm"
text = "Qz"
label = "Wyvern"
{font}
{label_font}

[components.soldiers]
kind = "standees"
title = "Soldiers"
{font}

[[components.soldiers.figures]]
name = "Jackal"
count = 1
"""


def test_boards_counters_and_standees_set_their_texts_in_the_chosen_face(tmp_path):
    def heading_text(font: bool) -> str:
        folder = kit_folder(tmp_path / str(font))
        (folder / "deck.toml").unlink()
        keys = {"font": 'font = "heading"', "label_font": 'label_font = "heading"'} if font else {}
        (folder / "pieces.toml").write_text(
            PIECES.format(font=keys.get("font", ""), label_font=keys.get("label_font", ""))
        )
        result = pnp("build", "pieces", "--layouts", str(folder), "--out", str(folder / "out"))
        assert result.returncode == 0, result.stderr
        return "".join(
            ch["text"]
            for page in open_pdf(folder / "out" / "pieces" / "kit.pdf")
            for ch in page.chars()
            if ch["font"] == "BitstreamVeraSans-Bold"
        )

    chosen = heading_text(True)
    for text in ("Qz", "Wyvern", "Jackal", "abcd", "1234"):  # counter text and label, standee, board
        assert all(ch in chosen for ch in text), text
    assert heading_text(False) == ""


BOOKLET = """
[components.booklet]
kind = "booklet"
cover = false
heading_font = "heading"
body_font = "{body}"
"""
RULES = "# Zebra quest\n\nJump with vigour.\n\n::: figure deck | The cards.\n"


def test_the_booklet_sets_headings_and_body_in_the_chosen_faces_in_pdf_and_html(tmp_path):
    folder = kit_folder(tmp_path)
    with open(folder / "deck.toml", "a") as handle:
        handle.write(BOOKLET.format(body="sans"))
    (folder / "templates" / "booklets").mkdir(parents=True)
    (folder / "templates" / "booklets" / "deck.en.md.j2").write_text(RULES)
    kit = build(folder, tmp_path / "out", "--parts")
    fonts: dict[str, set[str]] = {}
    for page in open_pdf(kit / "booklet.pdf"):
        for ch in page.chars():
            fonts.setdefault(ch["font"], set()).add(ch["text"])
    assert set("Zebraquest") <= fonts["BitstreamVeraSans-Bold"]
    assert set("Jumpwithvigour") <= fonts["PnpSans"]
    assert "Z" not in fonts["PnpSans"]  # the heading alone holds a Z
    page = (kit / "booklet.html").read_text()
    face = re.search(
        r"@font-face\{font-family:BitstreamVeraSans-Bold;src:url\(data:font/woff;base64,([^)]+)\)", page
    )
    assert face
    woff = TTFont(io.BytesIO(base64.b64decode(face.group(1))))
    assert set("Zebra quest") <= {chr(c) for c in woff.getBestCmap()}
    assert "h1,h2,h3,h4{font-family:BitstreamVeraSans-Bold,var(--sans);font-weight:normal" in page
    assert "body{font-family:BitstreamVeraSans-Bold" not in page


def test_a_piece_text_the_chosen_face_cannot_draw_is_one_line_naming_the_key(tmp_path):
    from fontTools import subset

    folder = kit_folder(tmp_path)
    (folder / "deck.toml").unlink()
    # a face without the accented letters (a display face of capitals and digits, say)
    options = subset.Options()
    options.notdef_outline = True
    font = subset.load_font(str(folder / "fonts" / "Heading.ttf"), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ")
    subsetter.subset(font)
    font.save(str(folder / "fonts" / "Heading.ttf"))
    (folder / "pieces.toml").write_text(
        PIECES.format(font='font = "heading"', label_font="").replace('text = "Qz"', 'text = "Qé"')
    )
    # in this process, after the other tests set the whole Vera Bold of the same PostScript name
    result = pnp("build", "pieces", "--layouts", str(folder), "--out", str(folder / "out"))
    assert result.returncode == 3 and one_line_error(result), result.stderr
    assert "counters[0].text" in result.stderr and "'é'" in result.stderr and "Heading.ttf" in result.stderr
    assert not (folder / "out" / "pieces").exists()
