"""SVG writer: the page model as an SVG document at true size (width in mm, viewBox in mm).

Knows shapes, never games. Fonts are embedded as @font-face data (a subset of each face holding
the page's characters) so text looks and measures the same as in the PDF; a text element names its
face by a class of the page's style sheet. Ids are numbered in drawing order, so the same page gives
the same bytes.
"""

from __future__ import annotations

import base64
from typing import Any, BinaryIO

import svgwrite

from generator.fonts import PDF_NAMES, font_face_uri
from generator.page import (
    IDENTITY,
    Circle,
    Image,
    Line,
    Matrix,
    Page,
    Path,
    Polygon,
    Rect,
    Style,
    Text,
    bounds,
    iter_shapes,
)
from generator.render.base import draw

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
    """A renderer into an svgwrite drawing: groups nest elements, clips go to the defs, shape
    styles become classes of the page's style sheet (numbered in order of first use)."""

    def __init__(
        self, dwg: svgwrite.Drawing, places: int = 2, with_text: bool = True, id_prefix: str = ""
    ) -> None:
        self.dwg = dwg
        self.clip_count = 0
        self.places = places
        self.with_text = with_text
        self.id_prefix = id_prefix  # for ids and style classes, so several drawings share a page
        self.merge_lines = bool(id_prefix)  # inline drawings: a run of lines of one style is one path
        self.classes: dict[tuple[tuple[str, str], ...], str] = {}
        self.parents: list[Any] = [dwg]

    def n(self, value: float) -> str:
        """Return a length as text at the drawing's precision."""
        return _n(value, self.places)

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

    def line(self, s: Line) -> None:
        """Add a line element (nothing without a stroke colour)."""
        if s.style.stroke is not None and self.merge_lines:
            n = self.n
            parent = self.parents[-1]
            attrs = _style(s.style, False, n)
            attrs["fill"] = "none"
            cls = self.cls(attrs)
            segment = f"M{n(s.x1)} {n(s.y1)} {n(s.x2)} {n(s.y2)}"
            last = parent.elements[-1] if parent.elements else None
            if last is not None and last.elementname == "path" and last.attribs.get("class") == cls["class_"]:
                last.push(segment)
            else:
                parent.add(self.dwg.path(d=segment, **cls))
        elif s.style.stroke is not None:
            n = self.n
            self.parents[-1].add(
                self.dwg.line((n(s.x1), n(s.y1)), (n(s.x2), n(s.y2)), **self.cls(_style(s.style, False, n)))
            )

    def rect(self, s: Rect) -> None:
        """Add a rect element."""
        n = self.n
        extra = {"rx": n(s.r)} if s.r else {}
        self.parents[-1].add(
            self.dwg.rect((n(s.x), n(s.y)), (n(s.w), n(s.h)), **extra, **self.cls(_style(s.style, n=n)))
        )

    def circle(self, s: Circle) -> None:
        """Add a circle element."""
        n = self.n
        self.parents[-1].add(self.dwg.circle((n(s.cx), n(s.cy)), n(s.r), **self.cls(_style(s.style, n=n))))

    def polygon(self, s: Polygon) -> None:
        """Add a polygon element, or a polyline (never filled) when it is open."""
        n = self.n
        pts = [(n(x), n(y)) for x, y in s.points]
        if s.closed:
            self.parents[-1].add(self.dwg.polygon(pts, **self.cls(_style(s.style, n=n))))
        else:
            attrs = _style(s.style, n=n)
            attrs["fill"] = "none"
            self.parents[-1].add(self.dwg.polyline(pts, **self.cls(attrs)))

    def path(self, s: Path) -> None:
        """Add a path element."""
        n = self.n
        self.parents[-1].add(self.dwg.path(d=_path_d(s.commands, n), **self.cls(_style(s.style, n=n))))

    def text(self, s: Text) -> None:
        """Add a text element naming its face by class (none in a preview)."""
        if not self.with_text:
            return
        n = self.n
        el = self.dwg.text(
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
        self.parents[-1].add(el)

    def image(self, s: Image) -> None:
        """Add an image element holding the picture as a data URI."""
        n = self.n
        kind = "png" if s.data.startswith(b"\x89PNG") else "jpeg"
        href = f"data:image/{kind};base64," + base64.b64encode(s.data).decode("ascii")
        el = self.dwg.image(href=href, insert=(n(s.x), n(s.y)), size=(n(s.w), n(s.h)))
        el["preserveAspectRatio"] = "none"
        self.parents[-1].add(el)

    def begin_group(self, transform: Matrix, clip: tuple[float, float, float, float] | None) -> None:
        """Open a g element with the transform, and an inner one with the clip path."""
        dwg, n = self.dwg, self.n
        g = dwg.g()
        if transform != IDENTITY:
            a, b, c, d, e, f = transform
            g["transform"] = f"matrix({' '.join(_n(v, 6) for v in (a, b, c, d))} {n(e)} {n(f)})"
        self.parents[-1].add(g)
        target = g
        if clip is not None:
            self.clip_count += 1
            clip_id = f"{self.id_prefix}clip{self.clip_count}"
            clip_path = dwg.clipPath(id=clip_id)
            x, y, w, h = clip
            clip_path.add(dwg.rect((n(x), n(y)), (n(w), n(h))))
            dwg.defs.add(clip_path)
            inner = dwg.g(clip_path=f"url(#{clip_id})")
            g.add(inner)
            target = inner
        self.parents.append(target)

    def end_group(self) -> None:
        """Close the group opened by the matching begin_group."""
        self.parents.pop()


def svg_document(page: Page, title: str = "", preview: bool = False) -> svgwrite.Drawing:
    """Return the svgwrite drawing of one page (true size, viewBox in mm).

    A preview leaves the text out and writes lengths to 0.1 mm: a light picture for a contact
    sheet, not for printing."""
    dwg = svgwrite.Drawing(size=(f"{_n(page.width)}mm", f"{_n(page.height)}mm"), debug=False, profile="full")
    dwg["viewBox"] = f"0 0 {_n(page.width)} {_n(page.height)}"
    if title or page.label:
        dwg.set_desc(title=title or page.label)
    chars: dict[str, set[str]] = {}
    for s, _ in [] if preview else iter_shapes(page.shapes):
        if isinstance(s, Text):
            chars.setdefault(s.font, set()).update(s.text)
    css = "".join(_font_css(font, "".join(sorted(chars[font]))) for font in sorted(chars))
    builder = _Builder(dwg, 1 if preview else 2, with_text=not preview)
    style = dwg.style("")
    dwg.defs.add(style)
    draw(page.shapes, builder)
    css += builder.css()
    if css:
        style.append(css)
    else:
        dwg.defs.elements.remove(style)
    return dwg


def _font_css(font: str, chars: str) -> str:
    family = PDF_NAMES[font]
    weight = "bold" if "bold" in font else "normal"
    style = "italic" if "italic" in font else "normal"
    return (
        f"@font-face{{font-family:{family};src:url({font_face_uri(font, chars)}) format('woff');}}"
        f".{_CLASSES[font]}{{font-family:{family},{_FALLBACK};font-weight:{weight};font-style:{style}}}"
    )


_INLINE_DROPS = (
    ' baseProfile="full"',
    ' version="1.1"',
    ' xmlns="http://www.w3.org/2000/svg"',
    ' xmlns:ev="http://www.w3.org/2001/xml-events"',
    ' xmlns:xlink="http://www.w3.org/1999/xlink"',
)


class InlineSvg:
    """Drawings as ``<svg>`` elements of one HTML page, sharing the page's style sheet: shape styles
    become classes common to every drawing, clip ids are unique on the page, lengths are written to
    0.1 mm, and the text of every drawing is drawn in subsets of the faces holding just its
    characters (``css()`` returns the classes and the faces, for the page's ``<style>``)."""

    def __init__(self, prefix: str = "g") -> None:
        self.prefix = prefix
        self.classes: dict[tuple[tuple[str, str], ...], str] = {}
        self.clips = 0
        self.chars: dict[str, set[str]] = {}

    def element(self, page: Page, alt: str) -> str:
        """Return a page as an ``<svg>`` element: scalable (a viewBox in mm, no fixed size) and
        ``role="img"`` with alt as its name."""
        dwg = svgwrite.Drawing(debug=False, profile="full")
        del dwg.attribs["width"], dwg.attribs["height"]
        # a label that reaches past the drawing's edge (into a printed page's margin) stays in view
        x0, y0, x1, y1 = 0.0, 0.0, page.width, page.height
        box = bounds(page.shapes)
        if box is not None:
            x0 = box[0] - 0.3 if box[0] < -0.2 else x0
            y0 = box[1] - 0.3 if box[1] < -0.2 else y0
            x1 = box[2] + 0.3 if box[2] > x1 + 0.2 else x1
            y1 = box[3] + 0.3 if box[3] > y1 + 0.2 else y1
        dwg["viewBox"] = f"{_n(x0, 1)} {_n(y0, 1)} {_n(x1 - x0, 1)} {_n(y1 - y0, 1)}"
        dwg["role"] = "img"
        dwg["aria-label"] = alt
        builder = _Builder(dwg, 1, id_prefix=self.prefix)
        builder.classes = self.classes
        builder.clip_count = self.clips
        draw(page.shapes, builder)
        self.clips = builder.clip_count
        for shape, _ in iter_shapes(page.shapes):
            if isinstance(shape, Text):
                self.chars.setdefault(shape.font, set()).update(shape.text)
        if not dwg.defs.elements:
            dwg.elements.remove(dwg.defs)
        text = dwg.tostring()
        # an <svg> inside HTML takes its namespace from the page and needs no profile or version
        tag, rest = text.split(">", 1)
        for attribute in _INLINE_DROPS:
            tag = tag.replace(attribute, "", 1)
        return tag + ">" + rest.replace(" />", "/>")

    def css(self) -> str:
        """Return the style sheet of every element made so far: the faces and the shape classes."""
        faces = []
        for font in sorted(self.chars):
            chars = "".join(sorted(self.chars[font] - set("\n\r\t")))
            weight = "bold" if "bold" in font else "normal"
            style = "italic" if "italic" in font else "normal"
            faces.append(
                f"@font-face{{font-family:{PDF_NAMES[font]};src:url({font_face_uri(font, chars)}) "
                f"format('woff')}}.{_CLASSES[font]}{{font-family:{PDF_NAMES[font]},{_FALLBACK};"
                f"font-weight:{weight};font-style:{style}}}"
            )
        styles = "".join(
            f"svg .{name}{{{';'.join(f'{k}:{v}' for k, v in key)}}}" for key, name in self.classes.items()
        )
        return "".join(faces) + styles


def write_svg(page: Page, target: BinaryIO, title: str = "", preview: bool = False) -> None:
    """Write one page as an SVG document to a binary file object (a light one for a preview)."""
    target.write(svg_document(page, title, preview).tostring().encode("utf-8"))
