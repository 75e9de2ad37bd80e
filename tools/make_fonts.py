"""Make generator/data/fonts/: the four Bitstream Vera faces that ship with reportlab, slimmed
for embedding and renamed PnpSans (the Vera licence asks modified fonts to drop its name).

Run: .venv/bin/python tools/make_fonts.py   (needs fontTools, from the project's test extra)

Kept: every glyph, in the same order, with the same outlines and advance widths, so text measures
exactly as before, and one glyph added after them, the narrow no-break space (U+202F) French
punctuation needs; the copyright, trademark and licence name records. Dropped: hinting
instructions (cvt, fpgm, prep and per-glyph code), kerning (neither writer applies it), device
metrics (hdmx, PCLT, gasp), Macintosh name records and PostScript glyph names. The timestamps of
the original head table stay, so the files are the same on every run.
"""

from __future__ import annotations

import io
import os
import shutil
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator.model.fonts import FONT_FILES, PDF_NAMES, vera_path  # noqa: E402

OUT = os.path.join(ROOT, "generator", "data", "fonts")
STYLE = {"sans": "Regular", "sans-bold": "Bold", "sans-italic": "Italic", "sans-bolditalic": "Bold Italic"}


def slim(font: str) -> bytes:
    """Return the slimmed, renamed TrueType file of one face."""
    options = subset.Options()
    options.glyphs = ["*"]
    options.hinting = False
    options.drop_tables += ["kern", "hdmx", "PCLT", "gasp", "LTSH", "VDMX"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7, 13, 14]
    options.name_languages = [0x409]
    options.name_legacy = False
    options.layout_features = []
    options.recalc_timestamp = False
    options.recalc_bounds = False
    options.notdef_outline = True
    options.glyph_names = False
    options.retain_gids = True
    face = TTFont(vera_path(font), recalcTimestamp=False, recalcBBoxes=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=face.getBestCmap().keys())
    subsetter.subset(face)
    family = "PnpSans"
    postscript = PDF_NAMES[font]
    names = face["name"]
    for record in list(names.names):
        if record.nameID in (1, 16):
            names.setName(family, record.nameID, record.platformID, record.platEncID, record.langID)
        elif record.nameID in (3, 6):
            names.setName(postscript, record.nameID, record.platformID, record.platEncID, record.langID)
        elif record.nameID == 4:
            full = family if STYLE[font] == "Regular" else f"{family} {STYLE[font]}"
            names.setName(full, 4, record.platformID, record.platEncID, record.langID)
    face["cmap"].tables = [t for t in face["cmap"].tables if (t.platformID, t.platEncID) == (3, 1)]
    add_narrow_space(face)
    buffer = io.BytesIO()
    face.save(buffer, reorderTables=True)
    return buffer.getvalue()


NARROW_SPACE = 0x202F  # NARROW NO-BREAK SPACE, before ; ! ? in French
NARROW_WIDTH = 410  # font units of 2048: a fifth of an em, as a thin space (Vera has none)


def add_narrow_space(face: TTFont) -> None:
    """Add the one character Vera lacks that French text needs: an empty glyph for the narrow
    no-break space, a fifth of an em wide, after all of Vera's glyphs (whose ids stay)."""
    from fontTools.ttLib.tables._g_l_y_f import Glyph

    name = "uni202F"
    order = face.getGlyphOrder() + [name]
    face.setGlyphOrder(order)
    face["glyf"].glyphs[name] = Glyph()
    face["glyf"].glyphOrder = order
    face["hmtx"].metrics[name] = (NARROW_WIDTH, 0)
    for table in face["cmap"].tables:
        table.cmap[NARROW_SPACE] = name
    face["maxp"].numGlyphs = len(order)


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    for font, filename in FONT_FILES.items():
        data = slim(font)
        with open(os.path.join(OUT, filename), "wb") as handle:
            handle.write(data)
        print(f"{filename}: {len(data)} bytes")
    licence = os.path.join(os.path.dirname(vera_path("sans")), "bitstream-vera-license.txt")
    shutil.copyfile(licence, os.path.join(OUT, "LICENCE-bitstream-vera.txt"))


if __name__ == "__main__":
    main()
