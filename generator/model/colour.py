"""Colours as '#rrggbb' strings: luminance and contrast (the WCAG formulas), and a readable
stand-in for a mark whose colour would vanish on its face."""

from __future__ import annotations


def _channel(c: float) -> float:
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: str) -> float:
    """Return the WCAG relative luminance (0 black .. 1 white) of a '#rrggbb' colour."""
    r, g, b = (_channel(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """Return the WCAG contrast ratio (1 .. 21) between two '#rrggbb' colours."""
    la, lb = relative_luminance(a), relative_luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def readable(colour: str, face: str, minimum: float = 3.0) -> str:
    """Return colour if it stands out from face by the minimum contrast ratio, else the colour
    darkened (on a light face) or lightened (on a dark face) in steps until it does."""
    if contrast_ratio(colour, face) >= minimum:
        return colour
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    towards = 0 if relative_luminance(face) > 0.18 else 255
    for step in range(1, 11):
        t = step / 10
        mixed = "#" + "".join(f"{round(c + (towards - c) * t):02x}" for c in rgb)
        if contrast_ratio(mixed, face) >= minimum:
            return mixed
    return "#000000" if towards == 0 else "#ffffff"


def cmyk(colour: str) -> tuple[float, float, float, float]:
    """Return the CMYK inks (0 .. 1 each, to 0.1 %) of a '#rrggbb' colour, as written under --cmyk.

    Greys (red = green = blue) print with black ink alone, so black is 100 % K and never four-colour
    black. Other colours take the plain conversion without a colour profile: K = 1 - max(R, G, B)
    and each of C, M, Y = (1 - R - K) / (1 - K) of its channel (for G and B alike)."""
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    if r == g == b:
        return (0.0, 0.0, 0.0, round(1.0 - r, 3))
    k = 1.0 - max(r, g, b)
    c, m, y = ((1.0 - v - k) / (1.0 - k) for v in (r, g, b))
    return (round(c, 3), round(m, 3), round(y, 3), round(k, 3))
