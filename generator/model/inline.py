"""Icons inside text: ``"Gain 2 :coin:"`` sets a small picture in the line, as wide as it is tall.

An icon is ``:name:``, the name a symbol of the symbol table (``components.symbols.SYMBOLS``) or
of the definition's ``[icons]`` table (PNG, JPEG or SVG files beside it), optionally with its own
colour, ``:coin=gold:`` or ``:coin=#c9a227:`` (a symbol takes the text's colour otherwise; a
picture keeps its own). A name is a lowercase letter, then letters, digits, ``-`` or ``_``; a
colon anywhere else stays a colon, and ``::`` writes one colon where an icon would otherwise be
read (``10::coin:`` prints "10:coin:").

An icon is a square of one em (the text's size) with an eighth of an em of room on each side: the
text-fit and wrapping code count it as that wide (``line_width``), and ``line_shapes`` draws a line
as text runs and icons, centred on the line's x-height. Text without a colon is measured and drawn
as before, at no cost.

This module sits in the page model, below the components and the booklet, so card fields,
counters, board texts, booklets and quick references read, measure and draw icons alike; the
symbol table comes from above (``Icons.symbols``: ``components.inline.icons_of`` fills it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from generator.foundation.errors import DefinitionError
from generator.model.fonts import break_words, text_width
from generator.model.page import Group, Image, Shape, Text, multiply, scale, translate
from generator.model.svg_art import SvgArt, read_svg

PT = 25.4 / 72.0
ICON = re.compile(r"::|:([a-z][a-z0-9_-]{0,39})(?:=(#[0-9a-fA-F]{6}|[a-z][a-z0-9_-]{0,39}))?:")
SIDE = 0.82  # an icon's side, in ems
ADVANCE = SIDE + 0.25  # the room it takes in the line, in ems
MIDDLE = 0.36  # its centre above the baseline, in ems (about half the x-height of the faces)


SymbolFn = Callable[[float, float, float, str], list[Shape]]
"""A symbol: ``(cx, cy, size, colour) -> shapes`` in a size x size box centred on (cx, cy)."""


class Picture(Protocol):
    """An icon picture (``definitions.values.IconPicture``): its bytes (PNG or JPEG, or an SVG
    drawing's source when ``vector``) and its size in pixels (an SVG's: its view box)."""

    @property
    def data(self) -> bytes: ...
    @property
    def width(self) -> float: ...
    @property
    def height(self) -> float: ...
    @property
    def vector(self) -> bool: ...


@dataclass(frozen=True)
class IconToken:
    """One icon of a line: its name and its own colour (None: the text's)."""

    name: str
    colour: str | None = None


Token = str | IconToken


def has_icons(text: str) -> bool:
    """Return True when a text holds an icon or the ``::`` escape (a text without a colon never does)."""
    return ":" in text and ICON.search(text) is not None


def tokens(text: str) -> list[Token]:
    """Return a text as its runs of plain text and its icons, ``::`` read as one colon."""
    out: list[Token] = []
    at = 0
    for m in ICON.finditer(text):
        plain = text[at : m.start()] + (":" if m.group(0) == "::" else "")
        if plain:
            if out and isinstance(out[-1], str):
                out[-1] += plain
            else:
                out.append(plain)
        if m.group(0) != "::":
            out.append(IconToken(m.group(1), m.group(2)))
        at = m.end()
    if text[at:]:
        if out and isinstance(out[-1], str):
            out[-1] += text[at:]
        else:
            out.append(text[at:])
    return out


def plain(text: str) -> str:
    """Return the text without its icons (``::`` as a colon): what a glyph check reads."""
    return "".join(t for t in tokens(text) if isinstance(t, str)) if has_icons(text) else text


def spoken(text: str) -> str:
    """Return the text with each icon as its name in words (``:machine-gunner:`` as "machine
    gunner", a word apart from the letters beside it) and ``::`` as a colon: what is read where
    no icon can be drawn (a file's title, a picture's alternative text, a PDF's metadata)."""
    if not has_icons(text):
        return text
    out = ""
    after_icon = False
    for token in tokens(text):
        if isinstance(token, str):
            out += (" " if after_icon and token[:1].isalnum() else "") + token
            after_icon = False
            continue
        out += (" " if out[-1:].isalnum() else "") + token.name.replace("-", " ").replace("_", " ")
        after_icon = True
    return out


def line_width(text: str, font: str, size: float) -> float:
    """Return the width in mm of one line of text with its icons, at a size in points."""
    if not has_icons(text):
        return text_width(text, font, size)
    em = size * PT
    return sum(text_width(t, font, size) if isinstance(t, str) else ADVANCE * em for t in tokens(text))


def split_lines(text: str, font: str, size: float, width: float) -> list[str]:
    """Return the text broken at plain spaces into lines no wider than width (mm), icons counted
    as their width; a word wider than the width has a line of its own."""
    lines: list[str] = []
    line = _Line("", [], "")
    for word in break_words(text):
        if lines:
            longer = line.add(" " + word, font, size)
            if longer.width(font, size) <= width + 1e-9:
                lines[-1], line = longer.text, longer
                continue
        lines.append(word)
        line = _Line("", [], "").add(word, font, size)
    return lines or [""]


@dataclass(frozen=True)
class _Line:
    """A line being filled: its text, the widths of its tokens but the last run of plain text,
    and that run. Its width is what ``line_width`` gives its text, added up in the same order,
    without reading the whole line's icons again for every word tried (an icon never spans a
    space, so a line's tokens are its words' tokens, the runs either side of a space joined)."""

    text: str
    widths: list[float]
    tail: str

    def add(self, more: str, font: str, size: float) -> _Line:
        """Return the line with ``more`` written after it."""
        if not has_icons(more):
            return _Line(self.text + more, self.widths, self.tail + more)
        parts = tokens(more)
        if isinstance(parts[0], str):
            parts[0] = self.tail + parts[0]
        elif self.tail:
            parts.insert(0, self.tail)
        em = size * PT
        *done, last = parts
        widths = self.widths + [
            text_width(t, font, size) if isinstance(t, str) else ADVANCE * em for t in done
        ]
        if isinstance(last, str):
            return _Line(self.text + more, widths, last)
        return _Line(self.text + more, [*widths, ADVANCE * em], "")

    def width(self, font: str, size: float) -> float:
        """Return the line's width in mm at a size in points (``line_width`` of its text)."""
        if not self.widths:
            return text_width(self.tail, font, size)
        if not self.tail:
            return sum(self.widths)
        return sum([*self.widths, text_width(self.tail, font, size)])


def fitted_size(text: str, max_width: float, size: float, font: str, min_size: float = 6.0) -> float:
    """Return the size (pt) a line of text with icons is set at to fit max_width mm: its own
    size, or smaller down to min_size (as ``look.fitted_text`` shrinks a plain line)."""
    width = line_width(text, font, size)
    if width > max_width > 0:
        return max(min_size, size * max_width / width)
    return size


@dataclass(frozen=True)
class Icons:
    """What icon names mean for one definition: its ``[icons]`` pictures (read and checked by the
    loader), its palette (for an icon's own colour) and the symbol table (``components.symbols``,
    handed down by the layer that knows it: ``components.inline.icons_of``)."""

    pictures: Mapping[str, Picture] = field(default_factory=dict)
    palette: Mapping[str, str] = field(default_factory=dict)
    symbols: Mapping[str, SymbolFn] = field(default_factory=dict)

    def problem(self, text: str) -> str | None:
        """Return what is wrong with the icons of a text (an unknown name or colour), or None."""
        if not has_icons(text):
            return None
        for token in tokens(text):
            if isinstance(token, str):
                continue
            if token.name not in self.symbols and token.name not in self.pictures:
                own = ", ".join(sorted(self.pictures)) or "none in [icons]"
                return (
                    f"unknown icon ':{token.name}:' (symbols: {', '.join(sorted(self.symbols))}; the definition's: "
                    f"{own}; write :: for a colon)"
                )
            colour = token.colour
            if colour is not None and not colour.startswith("#") and colour not in self.palette:
                return f"icon ':{token.name}={colour}:': unknown colour {colour!r} (use #rrggbb or a palette name)"
        return None

    def check(self, text: str, where: str) -> None:
        """Raise a DefinitionError prefixed by ``where`` (file, key, row) when a text's icons are wrong."""
        problem = self.problem(text)
        if problem:
            raise DefinitionError(f"{where}: {problem}")

    def draw(self, token: IconToken, cx: float, cy: float, side: float, colour: str) -> list[Shape]:
        """Return an icon's shapes in a side x side square centred on (cx, cy)."""
        own = token.colour
        if own is not None and not own.startswith("#"):
            own = self.palette.get(own)
        ink = (own or colour).lower()
        picture = self.pictures.get(token.name)
        if picture is not None:
            k = side / max(picture.width, picture.height)
            w, h = picture.width * k, picture.height * k
            if not picture.vector:
                return [Image(cx - w / 2, cy - h / 2, w, h, picture.data)]
            art = _drawing(picture.data, ink)  # its currentColor takes the text's (or its own) colour
            vx, vy = art.view_box[:2]
            m = multiply(translate(cx - w / 2, cy - h / 2), multiply(scale(k), translate(-vx, -vy)))
            return [Group(art.shapes, m, picture=True)]
        symbol = self.symbols.get(token.name)
        if symbol is None:
            raise DefinitionError(self.problem(f":{token.name}:") or f"unknown icon ':{token.name}:'")
        return symbol(cx, cy, side, ink)


@lru_cache(maxsize=64)
def _drawing(source: bytes, colour: str) -> SvgArt:
    """Return an SVG icon's drawing with ``currentColor`` painted ``colour`` (read once a colour)."""
    return read_svg(source, colour)


def line_shapes(
    x: float,
    y: float,
    text: str,
    size: float,
    font: str,
    anchor: str,
    colour: str,
    icons: Icons,
) -> list[Shape]:
    """Return one line of text with its icons at an anchor on its baseline (y): text runs and
    icons side by side (a line without icons is one Text, as ever)."""
    if not has_icons(text):
        return [Text(x, y, text, size, font, anchor, colour)]  # type: ignore[arg-type]
    width = line_width(text, font, size)
    left = x - (width if anchor == "end" else width / 2 if anchor == "middle" else 0.0)
    em = size * PT
    out: list[Shape] = []
    for token in tokens(text):
        if isinstance(token, str):
            out.append(Text(left, y, token, size, font, "start", colour))
            left += text_width(token, font, size)
        else:
            drawn = icons.draw(token, left + ADVANCE * em / 2, y - MIDDLE * em, SIDE * em, colour)
            out.append(Group(tuple(drawn)))
            left += ADVANCE * em
    return out
