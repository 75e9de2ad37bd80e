"""The duplex calibration sheet: a front with scales and a back with crosshairs, to measure how far
a printer shifts the back of a sheet; the reading is what ``--duplex-offset`` takes."""

from __future__ import annotations

from generator.model.page import Circle, Line, Page, Shape, Style, Text
from generator.printing.imposition import Paper, footer

INK = Style(stroke="#000000", width=0.15)
BOLD = Style(stroke="#000000", width=0.3)
RED = Style(stroke="#d62728", width=0.25)
SPAN = 10  # the scales read from -10 to +10 mm
RULER = 100.0  # mm, a ruler to check the printer prints at 100%
LABEL = 6.0  # pt, the scales' numbers


def targets(paper: Paper) -> list[tuple[float, float]]:
    """Return the centres of the measuring targets (mirror-symmetric about the page's middle)."""
    w, h = paper.width, paper.height
    return [
        (w / 2, h / 2),
        (w * 0.27, h * 0.25),
        (w * 0.73, h * 0.25),
        (w * 0.27, h * 0.75),
        (w * 0.73, h * 0.75),
    ]


def _scales(cx: float, cy: float) -> list[Shape]:
    """Return a horizontal and a vertical millimetre scale crossing at (cx, cy)."""
    shapes: list[Shape] = []
    for i in range(-SPAN, SPAN + 1):
        long = 3.0 if i % 5 == 0 else 1.8
        shapes.append(Line(cx + i, cy - long, cx + i, cy, BOLD if i == 0 else INK))
        shapes.append(Line(cx, cy + i, cx + long, cy + i, BOLD if i == 0 else INK))
        if i % 5 == 0 and i:
            # each scale's numbers sit on the side away from its ticks: the across scale's below
            # its line, the up scale's left of its line, so the two never meet
            shapes.append(Text(cx + i, cy + 2.6, f"{i:+d}", LABEL, "sans", "middle"))
            # numbers grow upwards, so the reading is the offset to give, with its sign
            shapes.append(Text(cx - 0.9, cy - i + 0.8, f"{i:+d}", LABEL, "sans", "end"))
    shapes.append(Line(cx - SPAN, cy, cx + SPAN, cy, INK))
    shapes.append(Line(cx, cy - SPAN, cx, cy + SPAN, INK))
    return shapes


def _crosshair(cx: float, cy: float) -> list[Shape]:
    return [
        Line(cx - 14, cy, cx + 14, cy, RED),
        Line(cx, cy - 14, cx, cy + 14, RED),
        Circle(cx, cy, 2.0, RED),
    ]


def calibration_pages(paper: Paper) -> list[Page]:
    """Return the two pages of the calibration sheet for a paper (print double-sided, long edge)."""
    front: list[Shape] = []
    back: list[Shape] = []
    m = paper.margin
    front.append(Text(paper.width / 2, m + 6, "Duplex calibration — front", 14, "sans-bold", "middle"))
    lines = [
        "1. Print both pages on ONE sheet, double-sided, flip on the long edge, at 100% (actual size).",
        "2. Hold the sheet against a window or lamp, this side towards you.",
        "3. At each target, read where the red crosshair from the back crosses the two scales:",
        "   across (x, right is +) and up (y, up is +). Use the middle target, or the average.",
        "4. Build with: pnp build GAME --duplex-offset x,y   (for example --duplex-offset 1.5,-0.5)",
    ]
    for i, text in enumerate(lines):
        front.append(Text(m + 2, m + 16 + i * 5.2, text, 8.5, "sans"))
    for cx, cy in targets(paper):
        front.extend(_scales(cx, cy))
    y = paper.height - m - 22
    x0 = (paper.width - RULER) / 2
    front.append(Line(x0, y, x0 + RULER, y, BOLD))
    for i in range(0, int(RULER) + 1):
        long = 4.0 if i % 10 == 0 else (2.5 if i % 5 == 0 else 1.5)
        front.append(Line(x0 + i, y, x0 + i, y - long, INK))
        if i % 10 == 0:
            front.append(Text(x0 + i, y - 5.5, str(i), 6, "sans", "middle"))
    front.append(
        Text(
            paper.width / 2,
            y + 6,
            "This ruler measures 100 mm when printed at actual size.",
            8,
            "sans",
            "middle",
        )
    )
    back.append(Text(paper.width / 2, m + 6, "Duplex calibration — back", 14, "sans-bold", "middle"))
    for cx, cy in targets(paper):
        back.extend(_crosshair(paper.width - cx, cy))
    front_page = Page(paper.width, paper.height, tuple(front), label="duplex calibration, front")
    back_page = Page(paper.width, paper.height, tuple(back), label="duplex calibration, back")
    return [
        footer(front_page, paper, f"pnp duplex calibration, {paper.name}"),
        footer(back_page, paper, f"pnp duplex calibration, {paper.name}: back"),
    ]
