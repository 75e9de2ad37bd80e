"""SVG writer: the page model as an SVG document at true size (width in mm, viewBox in mm).

Knows shapes, never games. Fonts are embedded as @font-face data (a subset of each face holding
the page's characters) so text looks and measures the same as in the PDF; a text element names its
face by a class of the page's style sheet. Ids are numbered in drawing order, so the same page gives
the same bytes.
"""

from __future__ import annotations

from typing import Any, BinaryIO

import svgwrite

from generator.fonts import PDF_NAMES, font_face_uri
from generator.page import IDENTITY, Circle, Line, Matrix, Page, Path, Polygon, Rect, Style, Text, iter_shapes
from generator.render.base import draw

_ANCHORS = {"start": "start", "middle": "middle", "end": "end"}
_CLASSES = {"sans": "f0", "sans-bold": "f1", "sans-italic": "f2", "sans-bolditalic": "f3"}
_FALLBACK = "'Bitstream Vera Sans','DejaVu Sans',sans-serif"


def _n(value: float, places: int = 2) -> str:
    """Return a length in mm as short text: 0.01 mm is far finer than any printer's dot."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _style(style: Style, filled: bool = True) -> dict[str, str]:
    attrs = {"fill": style.fill or "none"} if filled else {}
    if style.stroke is not None:
        attrs["stroke"] = style.stroke
        attrs["stroke-width"] = _n(style.width)
        if style.dash:
            attrs["stroke-dasharray"] = " ".join(_n(d) for d in style.dash)
        if style.cap != "butt":
            attrs["stroke-linecap"] = style.cap
        if style.join != "miter":
            attrs["stroke-linejoin"] = style.join
    return attrs


def _path_d(commands: tuple[tuple, ...]) -> str:
    return " ".join(
        cmd[0] + (" " + " ".join(_n(v) for v in cmd[1:]) if len(cmd) > 1 else "") for cmd in commands
    )


class _Builder:
    """A renderer into an svgwrite drawing: groups nest elements, clips go to the defs."""

    def __init__(self, dwg: svgwrite.Drawing) -> None:
        self.dwg = dwg
        self.clip_count = 0
        self.parents: list[Any] = [dwg]

    def line(self, s: Line) -> None:
        """Add a line element (nothing without a stroke colour)."""
        if s.style.stroke is not None:
            self.parents[-1].add(
                self.dwg.line((_n(s.x1), _n(s.y1)), (_n(s.x2), _n(s.y2)), **_style(s.style, False))
            )

    def rect(self, s: Rect) -> None:
        """Add a rect element."""
        extra = {"rx": _n(s.r)} if s.r else {}
        self.parents[-1].add(
            self.dwg.rect((_n(s.x), _n(s.y)), (_n(s.w), _n(s.h)), **extra, **_style(s.style))
        )

    def circle(self, s: Circle) -> None:
        """Add a circle element."""
        self.parents[-1].add(self.dwg.circle((_n(s.cx), _n(s.cy)), _n(s.r), **_style(s.style)))

    def polygon(self, s: Polygon) -> None:
        """Add a polygon element, or a polyline (never filled) when it is open."""
        pts = [(_n(x), _n(y)) for x, y in s.points]
        if s.closed:
            self.parents[-1].add(self.dwg.polygon(pts, **_style(s.style)))
        else:
            attrs = _style(s.style)
            attrs["fill"] = "none"
            self.parents[-1].add(self.dwg.polyline(pts, **attrs))

    def path(self, s: Path) -> None:
        """Add a path element."""
        self.parents[-1].add(self.dwg.path(d=_path_d(s.commands), **_style(s.style)))

    def text(self, s: Text) -> None:
        """Add a text element naming its face by class."""
        el = self.dwg.text(
            s.text,
            insert=(_n(s.x), _n(s.y)),
            fill=s.colour,
            font_size=_n(s.size * 25.4 / 72.0),
            class_=_CLASSES[s.font],
        )
        if s.anchor != "start":
            el["text-anchor"] = _ANCHORS[s.anchor]
        if "  " in s.text or s.text != s.text.strip():
            el["xml:space"] = "preserve"
        self.parents[-1].add(el)

    def begin_group(self, transform: Matrix, clip: tuple[float, float, float, float] | None) -> None:
        """Open a g element with the transform, and an inner one with the clip path."""
        dwg = self.dwg
        g = dwg.g()
        if transform != IDENTITY:
            a, b, c, d, e, f = transform
            g["transform"] = f"matrix({' '.join(_n(v, 6) for v in (a, b, c, d))} {_n(e)} {_n(f)})"
        self.parents[-1].add(g)
        target = g
        if clip is not None:
            self.clip_count += 1
            clip_id = f"clip{self.clip_count}"
            clip_path = dwg.clipPath(id=clip_id)
            x, y, w, h = clip
            clip_path.add(dwg.rect((_n(x), _n(y)), (_n(w), _n(h))))
            dwg.defs.add(clip_path)
            inner = dwg.g(clip_path=f"url(#{clip_id})")
            g.add(inner)
            target = inner
        self.parents.append(target)

    def end_group(self) -> None:
        """Close the group opened by the matching begin_group."""
        self.parents.pop()


def svg_document(page: Page, title: str = "") -> svgwrite.Drawing:
    """Return the svgwrite drawing of one page (true size, viewBox in mm)."""
    dwg = svgwrite.Drawing(size=(f"{_n(page.width)}mm", f"{_n(page.height)}mm"), debug=False, profile="full")
    dwg["viewBox"] = f"0 0 {_n(page.width)} {_n(page.height)}"
    if title or page.label:
        dwg.set_desc(title=title or page.label)
    chars: dict[str, set[str]] = {}
    for s, _ in iter_shapes(page.shapes):
        if isinstance(s, Text):
            chars.setdefault(s.font, set()).update(s.text)
    if chars:
        dwg.defs.add(
            dwg.style("".join(_font_css(font, "".join(sorted(chars[font]))) for font in sorted(chars)))
        )
    draw(page.shapes, _Builder(dwg))
    return dwg


def _font_css(font: str, chars: str) -> str:
    family = PDF_NAMES[font]
    weight = "bold" if "bold" in font else "normal"
    style = "italic" if "italic" in font else "normal"
    return (
        f"@font-face{{font-family:{family};src:url({font_face_uri(font, chars)}) format('woff');}}"
        f".{_CLASSES[font]}{{font-family:{family},{_FALLBACK};font-weight:{weight};font-style:{style}}}"
    )


def write_svg(page: Page, target: BinaryIO, title: str = "") -> None:
    """Write one page as an SVG document to a binary file object."""
    target.write(svg_document(page, title).tostring().encode("utf-8"))
