"""A text writer over the renderer protocol: one line per shape, numbers rounded to 0.01, groups
indented. Tests keep such dumps of one component of each kind, so a drawing change shows what
changed (which shape, which value) rather than only that the bytes differ."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from generator.model.page import IDENTITY, Circle, Image, Line, Matrix, Page, Path, Polygon, Rect, Style, Text
from generator.render.base import draw


def _n(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _style(style: Style) -> str:
    parts = []
    if style.fill is not None:
        parts.append(f"fill={style.fill}")
    if style.stroke is not None:
        parts.append(f"stroke={style.stroke}/{_n(style.width)}")
        if style.dash:
            parts.append("dash=" + ",".join(_n(d) for d in style.dash))
        if style.cap != "butt":
            parts.append(f"cap={style.cap}")
        if style.join != "miter":
            parts.append(f"join={style.join}")
    return " ".join(parts) or "invisible"


class _Dump:
    """A renderer that writes each shape as a line of text."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def say(self, text: str) -> None:
        self.lines.append("  " * self.depth + text)

    def line(self, s: Line) -> None:
        """Write a segment."""
        self.say(f"line {_n(s.x1)},{_n(s.y1)} {_n(s.x2)},{_n(s.y2)} {_style(s.style)}")

    def rect(self, s: Rect) -> None:
        """Write a rectangle."""
        r = f" r={_n(s.r)}" if s.r else ""
        self.say(f"rect {_n(s.x)},{_n(s.y)} {_n(s.w)}x{_n(s.h)}{r} {_style(s.style)}")

    def circle(self, s: Circle) -> None:
        """Write a circle."""
        self.say(f"circle {_n(s.cx)},{_n(s.cy)} r={_n(s.r)} {_style(s.style)}")

    def polygon(self, s: Polygon) -> None:
        """Write a polygon or polyline."""
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in s.points)
        self.say(f"{'polygon' if s.closed else 'polyline'} {points} {_style(s.style)}")

    def path(self, s: Path) -> None:
        """Write a path."""
        d = " ".join(c[0] + ",".join(_n(v) for v in c[1:]) for c in s.commands)
        self.say(f"path {d} {_style(s.style)}")

    def text(self, s: Text) -> None:
        """Write a text with its anchor, size, face and colour."""
        self.say(f"text {_n(s.x)},{_n(s.y)} {s.anchor} {_n(s.size)}pt {s.font} {s.colour} {s.text!r}")

    def image(self, s: Image) -> None:
        """Write a picture's box, size in bytes and the start of its SHA-256."""
        digest = hashlib.sha256(s.data).hexdigest()[:12]
        self.say(f"image {_n(s.x)},{_n(s.y)} {_n(s.w)}x{_n(s.h)} {len(s.data)} bytes {digest}")

    def begin_group(
        self,
        transform: Matrix,
        clip: tuple[float, float, float, float] | None,
        outline: tuple[tuple[Any, ...], ...] | None = None,
    ) -> None:
        """Open an indented group (its transform, clip rectangle and clip outline)."""
        parts = ["group"]
        if transform != IDENTITY:
            parts.append("matrix " + " ".join(f"{v:.4f}".rstrip("0").rstrip(".") for v in transform))
        if clip is not None:
            parts.append("clip " + " ".join(_n(v) for v in clip))
        if outline is not None:
            parts.append("outline " + " ".join(c[0] + ",".join(_n(v) for v in c[1:]) for c in outline))
        self.say(" ".join(parts))
        self.depth += 1

    def end_group(self) -> None:
        """Close the group."""
        self.depth -= 1


def dump_pages(pages: Iterable[Page]) -> str:
    """Return the pages as text: a header line per page, then one line per shape."""
    writer = _Dump()
    for number, page in enumerate(pages, 1):
        writer.say(f"page {number} {_n(page.width)}x{_n(page.height)} {page.label!r}")
        writer.depth = 1
        draw(page.shapes, writer)
        writer.depth = 0
    return "\n".join(writer.lines) + "\n"
