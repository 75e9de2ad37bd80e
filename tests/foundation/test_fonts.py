"""Embedded fonts: the shipped faces are Vera's glyphs and metrics under a new name; SVGs embed
only the glyphs of their own text, PDFs only those of the document; the same text gives the same
font bytes. The subsets are read back with fontTools."""

from __future__ import annotations

import base64
import glob
import io
import json
import os
import re
from pathlib import Path

import pypdf
import pytest
from fontTools.ttLib import TTFont

from generator.model.fonts import FONT_FILES, PDF_NAMES, font_bytes, font_face_uri, font_path, vera_path
from generator.model.fontsubset import subset_ttf, woff

FONTS = sorted(FONT_FILES)


def outline(face: TTFont, glyph: str) -> tuple:
    """Return a glyph's outline as plain data (contours and points, or its components)."""
    g = face["glyf"][glyph]
    if g.isComposite():  # by its parts' outlines: a subset numbers its glyphs anew
        return tuple((outline(face, c.glyphName), c.x, c.y) for c in g.components)
    if g.numberOfContours == 0:
        return ()
    return (tuple(g.endPtsOfContours), tuple(g.coordinates), tuple(f & 1 for f in g.flags))


def by_char(face: TTFont) -> dict[int, str]:
    return face.getBestCmap()


@pytest.mark.parametrize("font", FONTS)
def test_shipped_faces_keep_veras_glyphs_metrics_and_notices(font):
    vera = TTFont(vera_path(font))
    pnp = TTFont(font_path(font))
    # Vera's glyphs, and after them the one French needs: the narrow no-break space, blank and
    # narrower than a space
    assert pnp["maxp"].numGlyphs == vera["maxp"].numGlyphs + 1
    assert by_char(pnp).keys() - by_char(vera).keys() == {0x202F} and 0x00A0 in by_char(vera)
    narrow = by_char(pnp)[0x202F]
    assert pnp.getGlyphID(narrow) == vera["maxp"].numGlyphs and pnp["glyf"][narrow].numberOfContours == 0
    assert 0 < pnp["hmtx"][narrow][0] < pnp["hmtx"][by_char(pnp)[0x20]][0]
    for code, name in by_char(vera).items():
        mine = by_char(pnp)[code]
        assert pnp["hmtx"][mine][0] == vera["hmtx"][name][0], chr(code)
        assert vera.getGlyphID(name) == pnp.getGlyphID(mine)
        assert outline(pnp, mine) == outline(vera, name), chr(code)
    names = {r.nameID: str(r) for r in pnp["name"].names}
    assert names[1] == "PnpSans" and names[6] == PDF_NAMES[font]
    assert "Bitstream" in names[0] and "trademark" in names[7] and "Bitstream" in names[13]
    assert not any("Vera" in names[i] for i in (1, 3, 4, 6))
    assert {"fpgm", "prep", "cvt ", "kern", "hdmx"}.isdisjoint(pnp.keys())
    assert pnp["head"].modified == vera["head"].modified
    assert os.path.isfile(os.path.join(os.path.dirname(font_path(font)), "LICENCE-bitstream-vera.txt"))


@pytest.mark.parametrize("font", FONTS)
@pytest.mark.parametrize("text", ["seed 17", "Été « ça » “quoted” — naïve; Übung, €", "A"])
def test_a_subset_holds_exactly_the_glyphs_of_its_characters(font, text):
    full = TTFont(font_path(font))
    data = subset_ttf(font_bytes(font), text)
    face = TTFont(io.BytesIO(woff(data)))
    assert face.flavor == "woff"
    wanted = {ord(c) for c in text if ord(c) in by_char(full)}
    assert set(by_char(face)) == wanted
    for code in wanted:
        name = by_char(face)[code]
        assert outline(face, name) == outline(full, by_char(full)[code])
        assert face["hmtx"][name] == full["hmtx"][by_char(full)[code]]
    closure = {0}
    todo = [full.getGlyphID(by_char(full)[code]) for code in wanted]
    while todo:  # the characters' glyphs and the parts of composite ones (accented letters)
        gid = todo.pop()
        closure.add(gid)
        glyph = full["glyf"][full.getGlyphName(gid)]
        todo += [full.getGlyphID(c.glyphName) for c in glyph.components] if glyph.isComposite() else []
    # just those glyphs, numbered anew in their order (.notdef first), outlines and metrics kept
    kept = [full.getGlyphName(g) for g in sorted(closure)]
    assert face["maxp"].numGlyphs == len(kept) == len(face["hmtx"].metrics)
    for mine, theirs in zip(face.getGlyphOrder(), kept):
        assert outline(face, mine) == outline(full, theirs)
        assert face["hmtx"][mine] == full["hmtx"][theirs]
    assert face["head"].modified == full["head"].modified
    again = TTFont(io.BytesIO(data))  # compiles back: checksums and tables hold together
    again.save(io.BytesIO())
    assert subset_ttf(font_bytes(font), text) == data
    assert len(data) < len(font_bytes(font)) / 2


@pytest.mark.parametrize("font", FONTS)
def test_a_subset_keeps_the_notices_and_the_licence_unless_asked_not_to(font):
    full = {r.nameID: str(r) for r in TTFont(font_path(font))["name"].names}
    for notices in (True, False):
        face = TTFont(io.BytesIO(woff(subset_ttf(font_bytes(font), "seed 17", notices))))
        names = {r.nameID: str(r) for r in face["name"].names}
        assert names[0] == full[0] and names[7] == full[7] and names[1] == full[1]
        assert (13 in names) == notices and names.get(13, full[13]) == full[13]


def test_the_same_characters_give_the_same_font_whatever_their_order():
    assert font_face_uri("sans", "seed 17") == font_face_uri("sans", "17 seeds")
    assert font_face_uri("sans", "seed 17") != font_face_uri("sans", "seed 18")


def svg_fonts(path: str) -> tuple[dict[str, TTFont], dict[str, set[str]]]:
    """Return an SVG's embedded faces by class and the characters of its text by class."""
    text = open(path, encoding="utf-8").read()
    faces = {}
    style = re.search(r"<style[^>]*>(.*?)</style>", text, re.S)
    classes = dict(re.findall(r"\.(f\d)\{font-family:([\w-]+),", style.group(1))) if style else {}
    uris = dict(re.findall(r"font-family:([\w-]+);src:url\(data:font/woff;base64,([^)]+)\)", text))
    for cls, family in classes.items():
        faces[cls] = TTFont(io.BytesIO(base64.b64decode(uris[family])))
    used: dict[str, set[str]] = {}
    for cls, content in re.findall(r'<text[^>]*class="(f\d)[ "][^>]*>([^<]*)</text>', text):
        used.setdefault(cls, set()).update(
            content.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").replace("&quot;", '"')
        )
    return faces, used


def test_every_svg_of_every_kit_embeds_just_its_characters(all_kits):
    tmp_path = Path(all_kits)
    paths = sorted(glob.glob(str(tmp_path / "*" / "*.svg")))
    assert len(paths) > 30
    for path in paths:
        faces, used = svg_fonts(path)
        assert faces.keys() == used.keys(), path
        if path.endswith("preview.svg"):
            assert not faces and not used, path
            continue
        for cls, face in faces.items():
            assert set(by_char(face)) == {ord(c) for c in used[cls]} - {10, 9}, (path, cls)
        # Vera's licence asks its notices in every copy of one or more of its faces: the copyright
        # and trademark in every face, the licence text once a file
        assert all(
            face["name"].getName(0, 3, 1, 0x409) and face["name"].getName(7, 3, 1, 0x409)
            for face in faces.values()
        )
        assert (
            not faces or sum(bool(face["name"].getName(13, 3, 1, 0x409)) for face in faces.values()) == 1
        ), path
        assert os.path.getsize(path) < 250_000, path
    files = [p for p in glob.glob(str(tmp_path / "**"), recursive=True) if os.path.isfile(p)]
    # everything `pnp build --all` writes, the web booklets and the booklets' SVG pages in every
    # language included; these kits are built with --parts, whose own PDF of each part of kit.pdf
    # the default build does not write
    parts_only = set()
    for path in glob.glob(str(tmp_path / "*" / "manifest.json")):
        with open(path, encoding="utf-8") as handle:
            manifest = json.load(handle)
        kept = {b["pdf"] for b in manifest["booklets"] if "pdf" in b}  # other languages: HTML only
        for part in manifest["kit"]["components"]:
            if f"{part['id']}.pdf" not in kept:
                parts_only.add(os.path.join(os.path.dirname(path), f"{part['id']}.pdf"))
    assert parts_only and parts_only <= set(files)
    assert sum(os.path.getsize(p) for p in files if p not in parts_only) < 5_000_000
    booklets = [p for p in files if p.endswith(".html") and os.path.basename(p).startswith("booklet")]
    assert len(booklets) >= 8 + 3
    assert all(os.path.getsize(p) < 250_000 for p in booklets)
    for path in booklets:  # the text reads in the reader's own face; figures embed just their characters
        faces, used = svg_fonts(path)
        assert faces.keys() == used.keys(), path
        for cls, face in faces.items():
            assert set(by_char(face)) == {ord(c) for c in used[cls]} - {10, 9}, (path, cls)
        assert (
            not faces or sum(bool(face["name"].getName(13, 3, 1, 0x409)) for face in faces.values()) == 1
        ), path


def embedded_font_files(path: str) -> list:
    """Return every embedded TrueType font program (a /FontFile2 stream) of a PDF, each once."""
    found: dict[int, object] = {}
    for page in pypdf.PdfReader(path).pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for name in fonts:
            font = fonts[name].get_object()
            for descendant in font.get("/DescendantFonts", [font]):
                descriptor = descendant.get_object().get("/FontDescriptor")
                if descriptor is not None and "/FontFile2" in descriptor.get_object():
                    ref = descriptor.get_object().raw_get("/FontFile2")
                    found[ref.idnum] = ref.get_object()
    return list(found.values())


def test_pdfs_embed_slim_subsets_of_the_shipped_faces(nmm_kit):
    seen = 0
    for obj in embedded_font_files(os.path.join(nmm_kit, "kit.pdf")):
        face = TTFont(io.BytesIO(obj.get_data()))
        assert {"fpgm", "prep", "kern", "hdmx"}.isdisjoint(face.keys())
        assert "PnpSans" in str(face["name"].getName(1, 3, 1, 0x409))
        assert face["maxp"].numGlyphs < 200
        seen += 1
    assert seen >= 2
