"""Shared drawing helpers for component kinds: styles from definitions, legends, ink saving."""

from __future__ import annotations

import math

from generator.fonts import text_width
from generator.page import Line, Shape, Style, Text

INK = "#000000"
GREY = "#777777"


def luminance(colour: str) -> float:
    """Return the relative luminance (0 dark .. 1 light) of a '#rrggbb' colour."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ink(background: str | None) -> str:
    """Return black or white, whichever reads better on a background colour."""
    if background is None:
        return INK
    return "#ffffff" if luminance(background) < 0.45 else INK


def hatch(x: float, y: float, w: float, h: float, colour: str, spacing: float = 2.5,
          width: float = 0.25) -> list[Shape]:
    """Return diagonal hatching lines clipped to a rectangle (an ink-saving stand-in for a fill)."""
    lines: list[Shape] = []
    st = Style(stroke=colour, width=width)
    n = int((w + h) / spacing) + 1
    for i in range(1, n):
        d = i * spacing
        # line x + y' = d in local coordinates (y' measured from the top), clipped to the box
        x0, y0 = (d, 0.0) if d <= w else (w, d - w)
        x1, y1 = (0.0, d) if d <= h else (d - h, h)
        if (x0, y0) != (x1, y1):
            lines.append(Line(x + x0, y + y0, x + x1, y + y1, st))
    return lines


def fitted_text(x: float, y: float, text: str, max_width: float, size: float, font: str = "sans",
                anchor: str = "middle", colour: str = INK, min_size: float = 4.0) -> Text:
    """Return a text line shrunk (down to min_size pt) to fit max_width mm."""
    width = text_width(text, font, size)
    if width > max_width > 0:
        size = max(min_size, size * max_width / width)
    return Text(x, y, text, size, font, anchor, colour)  # type: ignore[arg-type]


def pt_from_mm(height_mm: float) -> float:
    """Return the font size in points whose cap height is roughly height_mm."""
    return height_mm / 0.73 * 72 / 25.4


def angle_of(dx: float, dy: float) -> float:
    """Return the angle in degrees of a direction vector (y down)."""
    return math.degrees(math.atan2(dy, dx))
