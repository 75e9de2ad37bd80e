"""Fonts: the embedded TrueType faces both writers use, and text measurement from their metrics.

The faces are Bitstream Vera (it ships with reportlab), slimmed for embedding and renamed PnpSans
as its licence asks of modified copies: ``generator/data/fonts/``, made by ``tools/make_fonts.py``,
licence beside them. Same glyphs, outlines and advance widths as Vera; no hinting, no kerning. They
cover English, French and Italian text, typographic quotes and dashes. The PDF writer embeds them
through reportlab, which keeps only the glyphs a document uses; the SVG writer embeds a subset of
each face holding only the characters of the page (``font_face_uri``), so both formats draw text
with the same glyphs and metrics.

A definition's own faces (its ``[fonts]`` table, checked by the loader) are page-model fonts
named ``"file:" + a digest of the file's bytes + ":" + its real path`` (``user_font``): every
cache keyed by a font's name, here and in the writers, is then keyed by the face's contents, so a
long-lived process that loads a definition again after its font file was saved again at the same
path reads, measures and embeds the new face. Every function here takes them like the shipped faces
(measuring, glyph checks, PDF registration, SVG subsets), in any process, with no registry to
fill first. reportlab knows each by a name of its file's bytes, so two files of one PostScript name
(two definitions built in one process) stay two faces. ``font_problem`` says what is wrong with
such a file.
"""

from __future__ import annotations

import base64
import hashlib
import os
from functools import cache, lru_cache

PDF_NAMES = {
    "sans": "PnpSans",
    "sans-bold": "PnpSans-Bold",
    "sans-italic": "PnpSans-Italic",
    "sans-bolditalic": "PnpSans-BoldItalic",
}
FONT_FILES = {font: f"{name}.ttf" for font, name in PDF_NAMES.items()}
VERA_FILES = {
    "sans": "Vera.ttf",
    "sans-bold": "VeraBd.ttf",
    "sans-italic": "VeraIt.ttf",
    "sans-bolditalic": "VeraBI.ttf",
}
FONTS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "fonts")
FONT_LICENCE = (
    "PnpSans is Bitstream Vera Sans, slimmed and renamed; fonts (c) Bitstream, Inc.; "
    "see generator/data/fonts/LICENCE-bitstream-vera.txt"
)


USER_FONT = "file:"  # the prefix of a definition's own face: "file:/real/path/Face.ttf"
MAX_FONT_BYTES = 16_000_000


def is_user_font(font: str) -> bool:
    """Return True when a page-model font name is a definition's own face (``file:DIGEST:PATH``)."""
    return font.startswith(USER_FONT)


def user_font(path: str, data: bytes) -> str:
    """Return the page-model font name of a definition's own face read from ``path`` as ``data``:
    ``file:DIGEST:REALPATH``, the digest the first 16 hex digits of the bytes' SHA-256."""
    return f"{USER_FONT}{hashlib.sha256(data).hexdigest()[:DIGEST]}:{os.path.realpath(path)}"


DIGEST = 16  # hex digits of a definition's face's SHA-256 in its font name


def font_path(font: str) -> str:
    """Return the path of the TrueType file of a font name such as ``"sans-bold"`` (or of a
    definition's own face, ``"file:DIGEST:PATH"``)."""
    if font.startswith(USER_FONT):
        rest = font[len(USER_FONT) :]
        digest, colon, path = rest.partition(":")
        is_digest = colon and len(digest) == DIGEST and all(c in "0123456789abcdef" for c in digest)
        return path if is_digest else rest
    try:
        filename = FONT_FILES[font]
    except KeyError:
        raise ValueError(f"unknown font {font!r} (known: {', '.join(FONT_FILES)})") from None
    return os.path.join(FONTS_DIR, filename)


def vera_path(font: str) -> str:
    """Return the path of the original Bitstream Vera file a face is made from (in reportlab)."""
    import reportlab

    return os.path.join(os.path.dirname(reportlab.__file__), "fonts", VERA_FILES[font])


@cache
def font_bytes(font: str) -> bytes:
    """Return the contents of a face's TrueType file (read once per process)."""
    with open(font_path(font), "rb") as handle:
        return handle.read()


@cache
def pdf_font(font: str) -> str:
    """Register a font with reportlab once and return the name reportlab knows it by."""
    import io

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if font in PDF_NAMES:
        name = PDF_NAMES[font]
    elif is_user_font(font):
        name = "PnpUser-" + hashlib.sha256(font_bytes(font)).hexdigest()[:16]
    else:
        name = PDF_NAMES[_check(font)]
    source = io.BytesIO(font_bytes(font))
    source.name = font_path(font)
    face = TTFont(name, source)
    if not is_user_font(font):
        pdfmetrics.registerFont(face)
        return name
    # reportlab gives a face whose PostScript name it has seen before in the process the face
    # registered first under that name, whatever the file: register a definition's face under a
    # name of its bytes, then give it back its PostScript name (what the PDF embeds it as)
    postscript_name = face.face.name
    face.face.name = name.encode("ascii")
    try:
        pdfmetrics.registerFont(face)
    finally:
        face.face.name = postscript_name
    return name


@cache
def font_family(font: str) -> str:
    """Return the family name a face is embedded under: PnpSans and its forms for the shipped
    faces, the PostScript name in its own name table for a definition's face."""
    if font in PDF_NAMES:
        return PDF_NAMES[font]
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    registered = pdfmetrics.getFont(pdf_font(font))
    assert isinstance(registered, TTFont)
    name = registered.face.name
    text = name.decode("latin-1") if isinstance(name, bytes) else str(name)
    return "".join(ch for ch in text if ch.isalnum() or ch in "-_") or "PnpUser"


def font_problem(data: bytes) -> str | None:
    """Return what keeps a file's bytes from being a face pnp can measure and embed (in the
    user's words), or None: a TrueType-outline font (.ttf, or .otf holding glyf outlines) with a
    Unicode character map, that its licence flags allow to embed."""
    import io

    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    from generator.model.fontsubset import FontFormatError, subset_ttf

    if len(data) > MAX_FONT_BYTES:
        return f"over {MAX_FONT_BYTES // 1_000_000} MB (at most {MAX_FONT_BYTES} bytes)"
    if data[:4] == b"OTTO":
        return "an OpenType font with PostScript (CFF) outlines; use its TrueType (.ttf) version"
    if data[:4] in (b"wOFF", b"wOF2"):
        return "a web font (WOFF); use the TrueType (.ttf) file"
    if data[:4] not in (b"\x00\x01\x00\x00", b"true"):
        return "not a TrueType or OpenType font"
    try:
        source = io.BytesIO(data)
        source.name = "font.ttf"
        TTFont("PnpCheck", source)
        subset_ttf(data, "A", True)
    except TTFError as exc:
        return f"cannot be used: {str(exc).splitlines()[0][:160]}"
    except FontFormatError as exc:
        return f"cannot be used: {exc}"
    except Exception:  # a table that points past the file's end, a broken cmap, ...
        return "a damaged font (its tables cannot be read)"
    return None


def _check(font: str) -> str:
    font_path(font)
    return font


@lru_cache(maxsize=65536)
def text_width(text: str, font: str = "sans", size: float = 10.0) -> float:
    """Return the advance width in mm of one line of text at a size in points."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, pdf_font(font), size) * 25.4 / 72.0


_ASCENDERS = set("bdfhklt")
_DESCENDERS = set("gjpqyQ,;()[]{}|")


def text_extent(text: str, size: float) -> tuple[float, float]:
    """Return (height above, depth below) the baseline in mm of a line of text's ink."""
    em = size * 25.4 / 72.0
    top = 0.0
    bottom = 0.0
    for ch in text:
        if ch.isspace():
            continue
        if ch in _ASCENDERS:
            top = max(top, 0.76)
        elif ch.islower():
            top = max(top, 0.55)
        elif ch in "-–—·•=+~*":
            top = max(top, 0.45)
        elif ch in ".,_":
            top = max(top, 0.12)
        else:
            top = max(top, 0.73)
        if ch in _DESCENDERS:
            bottom = 0.24
    return top * em, bottom * em


def break_words(text: str) -> list[str]:
    """Return the words of a text split at its plain spaces only: a no-break space (U+00A0,
    U+202F, as before French punctuation) joins what it stands between into one word."""
    return [word for word in text.replace("\t", " ").replace("\n", " ").split(" ") if word]


def split_lines(text: str, font: str, size: float, width: float) -> list[str]:
    """Return the text broken into lines no wider than width (mm), breaking at plain spaces (never
    at a no-break space); a word wider than the width has a line of its own."""
    lines: list[str] = []
    for word in break_words(text):
        if lines and text_width(lines[-1] + " " + word, font, size) <= width + 1e-9:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


@lru_cache(maxsize=4096)
def _face_uri(font: str, chars: str, notices: bool) -> str:
    from generator.model.fontsubset import subset_ttf, woff

    data = woff(subset_ttf(font_bytes(font), chars, notices))
    return "data:font/woff;base64," + base64.b64encode(data).decode("ascii")


def font_face_uri(font: str, text: str, notices: bool = True) -> str:
    """Return a data URI of a WOFF font holding the face's glyphs for the characters of text, with
    the face's licence text in its name table unless notices is false (a file holding several
    faces carries it in one of them).

    Each face and character set is subset once per process, and the same characters always give
    the same bytes."""
    font_path(font)
    return _face_uri(font, "".join(sorted(set(text))), notices)


_DRAWN_BY_EVERY_FACE: set[str] = set("\t\n\r")  # grows with each character found in every face


def missing_glyphs(text: str) -> str:
    """Return the characters of text (each once, in order) that some face of the kit's fonts has no
    glyph for, and that would print as a missing-glyph box; '' when every face draws them all."""
    missing: dict[str, None] = {}
    for ch in set(text) - _DRAWN_BY_EVERY_FACE:
        if all(has_glyphs(ch, font) for font in PDF_NAMES):
            _DRAWN_BY_EVERY_FACE.add(ch)
        else:
            missing[ch] = None
    return "".join(sorted(missing))


@cache
def _glyph_map(font: str) -> dict[int, int]:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    registered = pdfmetrics.getFont(pdf_font(font))
    if not isinstance(registered, TTFont):
        raise TypeError(f"{font}: not a TrueType font")
    cmap: dict[int, int] = registered.face.charToGlyph
    return cmap


def has_glyphs(text: str, font: str = "sans") -> bool:
    """Return True when the font has a glyph for every character of text."""
    cmap = _glyph_map(font)
    return all(ord(ch) in cmap or ch in "\n\t" for ch in text)
