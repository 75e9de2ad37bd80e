"""Fonts: the embedded TrueType faces both writers use, and text measurement from their metrics.

The faces are Bitstream Vera, which ships with reportlab together with its licence
(``reportlab/fonts/bitstream-vera-license.txt``). They cover English, French and Italian text,
typographic quotes and dashes. The PDF writer embeds them; the SVG writer embeds them too, so both
formats draw text with the same glyphs and metrics.
"""

from __future__ import annotations

import base64
import os
from functools import cache, lru_cache

FONT_FILES = {
    "sans": "Vera.ttf",
    "sans-bold": "VeraBd.ttf",
    "sans-italic": "VeraIt.ttf",
    "sans-bolditalic": "VeraBI.ttf",
}
PDF_NAMES = {
    "sans": "PnpSans",
    "sans-bold": "PnpSans-Bold",
    "sans-italic": "PnpSans-Italic",
    "sans-bolditalic": "PnpSans-BoldItalic",
}
FONT_LICENCE = "Bitstream Vera fonts (c) Bitstream, Inc.; see reportlab/fonts/bitstream-vera-license.txt"


def font_path(font: str) -> str:
    """Return the path of the TrueType file of a font name such as ``"sans-bold"``."""
    import reportlab

    try:
        filename = FONT_FILES[font]
    except KeyError:
        raise ValueError(f"unknown font {font!r} (known: {', '.join(FONT_FILES)})") from None
    return os.path.join(os.path.dirname(reportlab.__file__), "fonts", filename)


@cache
def pdf_font(font: str) -> str:
    """Register a font with reportlab once and return the name reportlab knows it by."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    name = PDF_NAMES[font] if font in PDF_NAMES else PDF_NAMES[_check(font)]
    pdfmetrics.registerFont(TTFont(name, font_path(font)))
    return name


def _check(font: str) -> str:
    font_path(font)
    return font


@lru_cache(maxsize=65536)
def text_width(text: str, font: str = "sans", size: float = 10.0) -> float:
    """Return the advance width in mm of one line of text at a size in points."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, pdf_font(font), size) * 25.4 / 72.0


def split_lines(text: str, font: str, size: float, width: float) -> list[str]:
    """Return the text broken into lines no wider than width (mm), breaking at spaces."""
    from reportlab.lib.utils import simpleSplit

    return simpleSplit(text, pdf_font(font), size, width * 72.0 / 25.4) or [""]


@cache
def font_data_uri(font: str) -> str:
    """Return the font file as a base64 data URI for embedding in SVG."""
    with open(font_path(font), "rb") as handle:
        data = base64.b64encode(handle.read()).decode("ascii")
    return "data:font/ttf;base64," + data


def has_glyphs(text: str, font: str = "sans") -> bool:
    """Return True when the font has a glyph for every character of text."""
    from reportlab.pdfbase import pdfmetrics

    face = pdfmetrics.getFont(pdf_font(font)).face
    cmap = face.charToGlyph
    return all(ord(ch) in cmap or ch in "\n\t" for ch in text)
