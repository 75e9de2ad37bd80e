"""Icons inside text for the component kinds: the syntax, its measuring and drawing live in
``generator.model.inline`` (below the components and the booklet, which both set icons); this
module gives a definition's icons their meaning: its ``[icons]`` pictures, its palette and the
symbol table (``components.symbols``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from generator.components.look import INK, fitted_text
from generator.components.symbols import SYMBOLS
from generator.definitions.values import GameDefinition
from generator.model import inline
from generator.model.inline import (
    ADVANCE,
    ICON,
    MIDDLE,
    PT,
    SIDE,
    IconToken,
    SymbolFn,
    Token,
    fitted_size,
    has_icons,
    line_shapes,
    line_width,
    plain,
    split_lines,
    tokens,
)
from generator.model.page import Shape, Text

__all__ = [
    "ADVANCE",
    "ICON",
    "MIDDLE",
    "PT",
    "SIDE",
    "IconToken",
    "Icons",
    "Token",
    "fitted_line",
    "fitted_size",
    "has_icons",
    "icons_of",
    "line_shapes",
    "line_width",
    "plain",
    "set_line",
    "split_lines",
    "tokens",
]


@dataclass(frozen=True)
class Icons(inline.Icons):
    """The icons of a definition, the symbol table's symbols among them (``Icons()``: the
    symbols only)."""

    symbols: Mapping[str, SymbolFn] = field(default_factory=lambda: SYMBOLS)


def set_line(line: Text, definition: GameDefinition) -> list[Shape]:
    """Return a Text whose text holds icons as its text runs and the definition's icons (a plain
    one as itself)."""
    if not has_icons(line.text):
        return [line]
    icons = icons_of(definition)
    return line_shapes(line.x, line.y, line.text, line.size, line.font, line.anchor, line.colour, icons)


def fitted_line(
    definition: GameDefinition,
    x: float,
    y: float,
    text: str,
    room: float,
    size: float,
    font: str,
    anchor: str = "middle",
    colour: str = INK,
) -> list[Shape]:
    """Return one line of text shrunk to ``room`` mm (down to 6 pt; a room of 0 keeps its size),
    its icons (``:name:``) set in it from the definition's: a plain line is one Text."""
    if not has_icons(text):
        return [fitted_text(x, y, text, room, size, font, anchor, colour)]
    line = Text(x, y, text, fitted_size(text, room, size, font), font, anchor, colour)  # type: ignore[arg-type]
    return set_line(line, definition)


def icons_of(definition: GameDefinition) -> Icons:
    """Return the icons of a definition (its ``icons`` table, its palette and the symbol table)."""
    return Icons(definition.icons, definition.palette)
