"""SVG writer: the page model as an SVG document at true size (width in mm, viewBox in mm).

Knows shapes, never games. Fonts are embedded as @font-face data (a subset of each face holding
the page's characters) so text looks and measures the same as in the PDF; a text element names its
face by a class of the page's style sheet. Ids are numbered in drawing order, so the same page gives
the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, BinaryIO

import svgwrite

from generator.fonts import PDF_NAMES, font_face_uri
from generator.page import Circle, Group, Line, Page, Path, Polygon, Rect, Style, Text, iter_shapes

_ANCHORS = {"start": "start", "middle": "middle", "end": "end"}
_CLASSES = {"sans": "f0", "sans-bold": "f1", "sans-italic": "f2", "sans-bolditalic": "f3"}
_FALLBACK = "'Bitstream Vera Sans','DejaVu Sans',sans-serif"


def _n(value: float, places: int = 2) -> str:
    """Return a length in mm as short text: 0.01 mm is far finer than any printer's dot."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _style(style: Style, filled: bool = True, n=_n) -> dict[str, str]:
    attrs = {"fill": style.fill or "none"} if filled else {}
    if style.stroke is not None:
        attrs["stroke"] = style.stroke
        attrs["stroke-width"] = n(style.width)
        if style.dash:
            attrs["stroke-dasharray"] = " ".join(n(d) for d in style.dash)
        if style.cap != "butt":
            attrs["stroke-linecap"] = style.cap
        if style.join != "miter":
            attrs["stroke-linejoin"] = style.join
    return attrs


def _path_d(commands: tuple[tuple, ...], n=_n) -> str:
    return " ".join(
        cmd[0] + (" " + " ".join(n(v) for v in cmd[1:]) if len(cmd) > 1 else "") for cmd in commands
    )


class _Builder:
    def __init__(self, dwg: svgwrite.Drawing, places: int = 2, id_prefix: str = "") -> None:
        self.dwg = dwg
        self.clip_count = 0
        self.places = places
        self.id_prefix = id_prefix  # for ids and style classes, so several drawings share a page
        self.merge_lines = bool(id_prefix)  # inline drawings: runs of lines become one path
        self.classes: dict[tuple[tuple[str, str], ...], str] = {}

    def cls(self, attrs: dict[str, str]) -> dict[str, str]:
        """Return the class attribute of a shape style, numbered in order of first use."""
        key = tuple(attrs.items())
        name = self.classes.get(key)
        if name is None:
            name = self.classes[key] = f"{self.id_prefix}s{len(self.classes)}"
        return {"class_": name}

    def css(self) -> str:
        """Return the style sheet rules of the classes used."""
        return "".join(
            f".{name}{{{';'.join(f'{k}:{v}' for k, v in key)}}}" for key, name in self.classes.items()
        )

    def add(self, parent, shapes) -> None:
        dwg = self.dwg
        places = self.places

        def n(value: float) -> str:
            return _n(value, places)

        shapes = list(shapes)
        for i, s in enumerate(shapes):
            kind = type(s)
            if kind is Line and self.merge_lines:
                # a run of lines of one style is one path of separate strokes (hatching, grids)
                if s.style.stroke is None or (
                    i and type(shapes[i - 1]) is Line and shapes[i - 1].style == s.style
                ):
                    continue
                run = [s]
                for t in shapes[i + 1 :]:
                    if type(t) is not Line or t.style != s.style:
                        break
                    run.append(t)
                d = " ".join(f"M{n(t.x1)} {n(t.y1)} {n(t.x2)} {n(t.y2)}" for t in run)
                attrs = _style(s.style, False, n)
                attrs["fill"] = "none"
                parent.add(dwg.path(d=d, **self.cls(attrs)))
            elif kind is Line:
                if s.style.stroke is not None:
                    parent.add(
                        dwg.line(
                            (n(s.x1), n(s.y1)), (n(s.x2), n(s.y2)), **self.cls(_style(s.style, False, n))
                        )
                    )
            elif kind is Rect:
                extra = {"rx": n(s.r)} if s.r else {}
                parent.add(
                    dwg.rect((n(s.x), n(s.y)), (n(s.w), n(s.h)), **extra, **self.cls(_style(s.style, n=n)))
                )
            elif kind is Circle:
                parent.add(dwg.circle((n(s.cx), n(s.cy)), n(s.r), **self.cls(_style(s.style, n=n))))
            elif kind is Polygon:
                pts = [(n(x), n(y)) for x, y in s.points]
                if s.closed:
                    parent.add(dwg.polygon(pts, **self.cls(_style(s.style, n=n))))
                else:
                    attrs = _style(s.style, n=n)
                    attrs["fill"] = "none"
                    parent.add(dwg.polyline(pts, **self.cls(attrs)))
            elif kind is Path:
                parent.add(dwg.path(d=_path_d(s.commands, n), **self.cls(_style(s.style, n=n))))
            elif kind is Text:
                el = dwg.text(
                    s.text,
                    insert=(n(s.x), n(s.y)),
                    fill=s.colour,
                    font_size=n(s.size * 25.4 / 72.0),
                    class_=_CLASSES[s.font],
                )
                if s.anchor != "start":
                    el["text-anchor"] = _ANCHORS[s.anchor]
                if "  " in s.text or s.text != s.text.strip():
                    el["xml:space"] = "preserve"
                parent.add(el)
            elif kind is Group:
                g = dwg.g()
                if s.transform != (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
                    a, b, c, d, e, f = s.transform
                    g["transform"] = f"matrix({' '.join(_n(v, 6) for v in (a, b, c, d))} {n(e)} {n(f)})"
                parent.add(g)
                target = g
                if s.clip is not None:
                    self.clip_count += 1
                    clip_id = f"{self.id_prefix}clip{self.clip_count}"
                    clip = dwg.clipPath(id=clip_id)
                    x, y, w, h = s.clip
                    clip.add(dwg.rect((n(x), n(y)), (n(w), n(h))))
                    dwg.defs.add(clip)
                    inner = dwg.g(clip_path=f"url(#{clip_id})")
                    g.add(inner)
                    target = inner
                self.add(target, s.children)
            else:
                raise TypeError(f"cannot draw {kind.__name__}")


def svg_document(page: Page, title: str = "", preview: bool = False) -> svgwrite.Drawing:
    """Return the svgwrite drawing of one page (true size, viewBox in mm).

    A preview leaves the text out and writes lengths to 0.1 mm: a light picture for a contact
    sheet, not for printing."""
    dwg = svgwrite.Drawing(size=(f"{_n(page.width)}mm", f"{_n(page.height)}mm"), debug=False, profile="full")
    dwg["viewBox"] = f"0 0 {_n(page.width)} {_n(page.height)}"
    if title or page.label:
        dwg.set_desc(title=title or page.label)
    shapes = _without_text(page.shapes) if preview else page.shapes
    chars: dict[str, set[str]] = {}
    for s, _ in iter_shapes(shapes):
        if isinstance(s, Text):
            chars.setdefault(s.font, set()).update(s.text)
    css = "".join(_font_css(font, "".join(sorted(chars[font]))) for font in sorted(chars))
    builder = _Builder(dwg, 1 if preview else 2)
    style = dwg.style("")
    dwg.defs.add(style)
    builder.add(dwg, shapes)
    css += builder.css()
    if css:
        style.append(css)
    else:
        dwg.defs.elements.remove(style)
    return dwg


def _without_text(shapes: Iterable[Any]) -> list[Any]:
    out = []
    for s in shapes:
        if type(s) is Group:
            out.append(replace(s, children=tuple(_without_text(s.children))))
        elif type(s) is not Text:
            out.append(s)
    return out


def _font_css(font: str, chars: str) -> str:
    family = PDF_NAMES[font]
    weight = "bold" if "bold" in font else "normal"
    style = "italic" if "italic" in font else "normal"
    return (
        f"@font-face{{font-family:{family};src:url({font_face_uri(font, chars)}) format('woff');}}"
        f".{_CLASSES[font]}{{font-family:{family},{_FALLBACK};font-weight:{weight};font-style:{style}}}"
    )


def inline_svg(page: Page, alt: str, id_prefix: str) -> str:
    """Return one page as an ``<svg>`` element to place inside an HTML page: scalable (viewBox in mm,
    no fixed size), ``role="img"`` with alt as its name and title, ids and style classes starting
    with id_prefix (so several drawings share one page), and no font data: text names its face by
    class (f0 regular, f1 bold, f2 italic, f3 bold italic), which the page's style sheet defines."""
    dwg = svgwrite.Drawing(debug=False, profile="full")
    del dwg.attribs["width"], dwg.attribs["height"]
    dwg["viewBox"] = f"0 0 {_n(page.width)} {_n(page.height)}"
    dwg["role"] = "img"
    dwg["aria-label"] = alt
    dwg.set_desc(title=alt)
    builder = _Builder(dwg, 1, id_prefix)
    style = dwg.style("")
    dwg.defs.add(style)
    builder.add(dwg, page.shapes)
    css = builder.css()
    if css:
        style.append(css)
    else:
        dwg.defs.elements.remove(style)
    return dwg.tostring()


def write_svg(page: Page, target: BinaryIO, title: str = "", preview: bool = False) -> None:
    """Write one page as an SVG document to a binary file object (a light one for a preview)."""
    target.write(svg_document(page, title, preview).tostring().encode("utf-8"))
