"""SVG writer: the page model as an SVG document at true size (width in mm, viewBox in mm).

Knows shapes, never games. Fonts are embedded as @font-face data (a subset of each face holding
the page's characters) so text looks and measures the same as in the PDF; a text element names its
face by a class of the page's style sheet, and its colour, size and anchor by another; a shape
names its paint by a class too (numbered in order of first use). Ids are numbered in drawing order, so the same page gives the same bytes.

The document is an svgwrite tree (``debug=False``: no validation of every attribute; elements made
without their constructors, written by ``markup`` as svgwrite's ``tostring`` writes them, without
its ElementTree), element by element in drawing order, and kept small: neighbouring shapes of one class that paint
the same when drawn as one ``<path>`` (stroke-only lines, outlines and polylines; filled
rectangles whose outlines do not reach into a later one's inside) become one path of relative
commands. Coordinates are rounded to a grid (0.01 mm, 0.1 mm in a preview or an inline figure)
before they are written, so relative steps add up to exactly the rounded points; line widths,
dashes and type sizes, written once a class, keep 0.01 mm on either grid.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable
from typing import Any, BinaryIO
from xml.etree import ElementTree as ET

import svgwrite
import svgwrite.base
import svgwrite.container
import svgwrite.image
import svgwrite.masking
import svgwrite.params
import svgwrite.path
import svgwrite.shapes
import svgwrite.text

from generator.model.fonts import font_bytes, font_face_uri, font_family, is_user_font
from generator.model.inline import spoken
from generator.model.page import (
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


def _font_class(font: str) -> str:
    """Return the class of a face's texts: f0 to f3 for the shipped faces, u and a digest of the
    face's file path for a definition's own (the same face, the same class, in every document)."""
    known = _CLASSES.get(font)
    if known is not None:
        return known
    if not is_user_font(font):
        raise ValueError(f"unknown font {font!r}")
    return "u" + hashlib.sha256(font_bytes(font)).hexdigest()[:8]


_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTR_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#09;"}
)
_NEEDS_ESCAPE = re.compile('[&<>"\n\r\t]').search
_RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_DC_NS = "http://purl.org/dc/elements/1.1/"

ClassKey = tuple[tuple[str, str], ...]
Attrs = tuple[tuple[str, str], ...]
# what the writer notes of an element before svgwrite makes it: (tag, attributes, text, children);
# a group's opening is ("<g", attributes, None, ()) and its end ("</g", (), None, ())
Item = tuple[str, Attrs, str | None, tuple[Any, ...]]
_CLOSE: Item = ("</g", (), None, ())
_NEW = object.__new__
_PARAMETER = svgwrite.params.Parameter(debug=False)  # shared by every element: no checks
_ELEMENTS: dict[str, Any] = {
    "path": svgwrite.path.Path,
    "rect": svgwrite.shapes.Rect,
    "circle": svgwrite.shapes.Circle,
    "text": svgwrite.text.Text,
    "image": svgwrite.image.Image,
    "use": svgwrite.container.Use,
    "symbol": svgwrite.container.Symbol,
    "g": svgwrite.container.Group,
    "clipPath": svgwrite.masking.ClipPath,
    "defs": svgwrite.container.Defs,
    "style": svgwrite.container.Style,
    "svg": svgwrite.container.SVG,
}


def _size(item: Item) -> int:
    """Return about how many characters an item's markup takes (for the choice of sharing)."""
    tag, attrs, text, children = item
    size = len(tag) + 4 + sum(len(k) + len(v) + 4 for k, v in attrs)
    if text is not None:
        size += len(text) + len(tag) + 3
    return size + sum(_size(c) for c in children)


def _make(tag: str, attrs: dict[str, str], text: str | None = None) -> Any:
    """Return an svgwrite element of a tag holding exactly the attributes given.

    The element is made as svgwrite's own constructor leaves it, without running it: with
    ``debug=False`` the constructor checks nothing, but it makes a validator and parses each
    attribute name, which cost more than the rest of the writing together."""
    kind = _ELEMENTS[tag]
    element = _NEW(kind)
    state = {"_parameter": _PARAMETER, "attribs": attrs, "elements": []}
    if tag == "path":
        state["commands"] = [attrs.pop("d")]  # svgwrite writes a path's d from its commands
    elif tag == "text":
        state["text"] = text or ""
    elif tag == "use":
        state["href"] = attrs["xlink:href"]  # svgwrite writes a use's href from its href
    elif tag == "style":
        state["_content"] = text or ""
    element.__dict__ = state
    return element


def _realise(items: list[Item], parent: Any) -> None:
    """Add the items to an svgwrite container as elements, groups nested as they were opened."""
    make = _make
    stack = [parent.elements]
    add = stack[-1].append
    for tag, attrs, text, children in items:
        if tag == "<g":
            group = make("g", dict(attrs))
            add(group)
            stack.append(group.elements)
            add = group.elements.append
        elif tag == "</g":
            stack.pop()
            add = stack[-1].append
        elif tag:
            element = make(tag, dict(attrs), text)
            if children:
                _realise(list(children), element)
            add(element)


def _markup(element: Any, out: list[str]) -> None:
    """Add the markup of an svgwrite element and everything in it to out: the text svgwrite's
    ``tostring`` makes of it (attributes in name order, empty ones left out, an empty element
    closed with `` />``), written straight from its attributes and elements instead of through an
    ElementTree, which took most of the writer's time (``tests/foundation/test_svg_markup.py``
    checks that every SVG of every kit reads as svgwrite itself writes it)."""
    name = element.elementname
    if name in ("title", "metadata"):
        out.append(ET.tostring(element.get_xml(), encoding="unicode"))
        return
    attribs = element.attribs
    if name == "path":
        attribs["d"] = " ".join(element.commands)
    needs, escapes = _NEEDS_ESCAPE, _ATTR_ESCAPES
    values = [(k, v if isinstance(v, str) else str(v)) for k, v in sorted(attribs.items()) if v is not None]
    head = "".join([f' {k}="{v.translate(escapes) if needs(v) else v}"' for k, v in values if v])
    text = element.text if name == "text" else None
    content = element._content if name == "style" else None
    children = element.elements
    if not (text or children or content):
        out.append(f"<{name}{head} />")
        return
    out.append(f"<{name}{head}>")
    if text:
        out.append(text.translate(_TEXT_ESCAPES))
    for child in children:
        _markup(child, out)
    if content:
        out.append(f"<![CDATA[{content}]]>")
    out.append(f"</{name}>")


def markup(element: Any) -> str:
    """Return the markup of an svgwrite element (a whole drawing or an inline ``<svg>``): the
    same text as its ``tostring()``."""
    if isinstance(element, svgwrite.Drawing):
        # svgwrite sets a drawing's namespaces, profile and version as it writes it
        elements, element.elements = element.elements, []
        element.get_xml()
        element.elements = elements
    out: list[str] = []
    _markup(element, out)
    return "".join(out)


def _n(value: float, places: int = 2) -> str:
    """Return a length in mm as short text: 0.01 mm is far finer than any printer's dot."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _style(style: Style, filled: bool = True, n: Callable[[float], str] = _n) -> dict[str, str]:
    attrs = {"fill": style.fill or "none"} if filled else {"fill": "none"}
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


def _attr(text: str) -> str:
    """Return text escaped for a double-quoted XML attribute."""
    return text.translate(_ATTR_ESCAPES)


class _Numbers(dict[int, str]):
    """Grid steps (hundredths or tenths of a mm) to their shortest text, made once each: no
    trailing zeros, no leading zero ('.5', '-.25'), as path data and attributes allow."""

    def __init__(self, places: int) -> None:
        super().__init__()
        self.places = places
        self.scale = 10**places

    def __missing__(self, step: int) -> str:
        text = f"{abs(step) / self.scale:.{self.places}f}".rstrip("0").rstrip(".")
        if text.startswith("0."):
            text = text[1:]
        text = "-" + text if step < 0 else text
        self[step] = text
        return text


_NUMBERS = {places: _Numbers(places) for places in (1, 2)}


class _Grid(dict[float, int]):
    """Lengths in mm to grid steps, rounded as their decimal text would be (3.175 is really
    3.17499.., so 3.17), each worked out once per process (``_grid``: a length gives the same
    step in every drawing)."""

    def __init__(self, places: int) -> None:
        super().__init__()
        self.places = places
        self.scale = 10**places

    def __missing__(self, value: float) -> int:
        steps = value * self.scale
        near: int = round(steps)
        if abs(steps - near) == 0.5:  # a tie only after the product's own rounding
            near = round(float(f"{value:.{self.places}f}") * self.scale)
        self[value] = near
        return near


_GRIDS = {places: _Grid(places) for places in (1, 2)}
_GRID_KEPT = 50_000  # lengths a grid remembers before it starts again


def _grid(places: int) -> _Grid:
    """Return the process's grid of a number of decimal places (emptied when it has grown past
    _GRID_KEPT lengths, so a long batch of drawings holds it flat)."""
    grid = _GRIDS[places]
    if len(grid) > _GRID_KEPT:
        grid.clear()
    return grid


# how a shape's class paints: a stroked outline only, a fill (and maybe an outline), or nothing
_STROKE, _FILL, _NOTHING = 0, 1, 2


class _Writer:
    """A renderer of the page model into SVG markup: groups nest ``<g>`` elements (a group with
    neither transform nor clip writes none), clip rectangles go to the defs, and neighbouring
    shapes of one class that merge without changing the picture share one ``<path>``."""

    def __init__(
        self,
        places: int = 2,
        with_text: bool = True,
        id_prefix: str = "",
        classes: dict[ClassKey, str] | None = None,
        clip_count: int = 0,
        use_count: int = 0,
    ) -> None:
        self.places = places
        self.scale = 10**places
        self.num = _NUMBERS[places]
        self.grid = _grid(places)
        self.with_text = with_text
        self.id_prefix = id_prefix  # for ids and style classes, so several drawings share a page
        self.classes: dict[ClassKey, str] = {} if classes is None else classes
        self.clip_count = clip_count
        self.out: list[Item] = []
        self.defs: list[Item] = []
        self.closers: list[tuple[int, int]] = []  # what closes each open group, where it opened
        self.groups: list[tuple[int, int]] = []  # where each closed group that only moves is
        self.has_xlink = False  # an image or a use names what it shows by xlink:href
        self.use_count = use_count
        self.images: dict[bytes, str] = {}  # a picture's file -> the id of its symbol in the defs
        self.paths: list[tuple[int, str, int, int, str]] = []  # written paths: where, class, start, rest
        self._styles: dict[tuple[int, bool], tuple[str, int, float, bool]] = {}
        self._texts: dict[tuple[str, float, str], str] = {}
        # the open path: its class, data, current point, subpath start, last command letter,
        # and (filled, outlined rectangles) each rectangle's outer and inner box so far
        self.run_class = ""
        self.run_merges = False
        self.run: list[str] = []
        self.head = 0  # the items of run that make its first move
        self.run_x = self.run_y = 0  # where the open path starts
        self.x = self.y = self.x0 = self.y0 = 0
        self.last = ""
        self.boxes: list[tuple[float, float, float, float, float, float, float, float]] = []

    # --- classes and numbers

    def n(self, value: float) -> str:
        """Return a length as text on the drawing's grid."""
        return self.num[self.grid[value]]

    def paint(self, style: Style, filled: bool = True) -> tuple[str, int, float, bool]:
        """Return (class, how it paints, half the stroke width in grid steps, whether shapes of
        it may share a path) for a style (``filled`` false: its fill is left out)."""
        key = (id(style), filled)  # the page holds its styles while it is written
        known = self._styles.get(key)
        if known is None:
            attrs = _style(style, filled)  # widths and dashes to 0.01 mm even on a 0.1 mm grid
            name_key = tuple(attrs.items())
            name = self.classes.get(name_key)
            if name is None:
                name = self.classes[name_key] = f"{self.id_prefix}s{len(self.classes)}"
            has_fill = filled and style.fill is not None
            kind = _FILL if has_fill else _STROKE if style.stroke is not None else _NOTHING
            half = style.width * self.scale / 2 if style.stroke is not None else 0.0
            known = self._styles[key] = (name, kind, half, not style.dash)
        return known

    def css(self) -> str:
        """Return the style sheet rules of the classes used."""
        return "".join(
            f".{name}{{{';'.join(f'{k}:{v}' for k, v in key)}}}" for key, name in self.classes.items()
        )

    # --- the open path

    def flush(self) -> None:
        """Write the open path, if any, and note it (a repeat of it may become a use)."""
        if self.run:
            tail = "".join(self.run[self.head :])
            self.paths.append((len(self.out), self.run_class, self.run_x, self.run_y, tail))
            self.out.append(("path", (("class", self.run_class), ("d", "".join(self.run))), None, ()))
            self.run = []
            self.boxes = []
            self.run_class = ""

    def share_repeats(self) -> None:
        """Write the paths drawn several times over (the same class and commands from another
        start: every command after the first is relative) once in the defs, and each drawing
        of them as a use of it placed at its start, where that is shorter."""
        seen: dict[tuple[str, str], list[tuple[int, int, int]]] = {}
        for index, name, x, y, tail in self.paths:
            seen.setdefault((name, tail), []).append((index, x, y))
        num = self.num
        for (name, tail), places in seen.items():
            size = len(name) + len(tail) + 24
            if len(places) < 2 or len(places) * (size - 44) <= size:
                continue
            self.use_count += 1
            ref = f"{self.id_prefix}u{self.use_count}"
            self.defs.append(("path", (("id", ref), ("class", name), ("d", f"M0 0{tail}")), None, ()))
            for index, x, y in places:
                at: Attrs = (("x", num[x]),) if x else ()
                at += (("y", num[y]),) if y else ()
                self.out[index] = ("use", (("xlink:href", f"#{ref}"), *at), None, ())
            self.has_xlink = True

    def start(self, name: str, merges: bool) -> None:
        """Open a path of a class, closing the open one unless it is of that class and merges."""
        if self.run and (name != self.run_class or not (merges and self.run_merges)):
            self.flush()
        self.run_class = name
        self.run_merges = merges

    def cmd(self, letter: str, *steps: int) -> None:
        """Add a command with its numbers, leaving out the letter when it repeats."""
        num, run = self.num, self.run
        first = True
        for step in steps:
            text = num[step]
            if first:
                first = False
                if letter != self.last:
                    run.append(letter + text)
                    continue
            run.append(text if text[0] == "-" else " " + text)
        self.last = "l" if letter == "m" else "L" if letter == "M" else letter

    def move(self, x: int, y: int) -> None:
        """Start a subpath at a grid point: the path's first absolutely, the others relative to
        the current point (so a path drawn again elsewhere differs only in its first move)."""
        self.last = ""
        if self.run:
            self.cmd("m", x - self.x, y - self.y)
        else:
            self.cmd("M", x, y)
            self.head = len(self.run)
            self.run_x, self.run_y = x, y
        self.x, self.y = self.x0, self.y0 = x, y

    def line_to(self, x: int, y: int) -> None:
        """Draw to a grid point: h, v or l."""
        dx, dy = x - self.x, y - self.y
        if dy == 0:
            self.cmd("h", dx)
        elif dx == 0:
            self.cmd("v", dy)
        else:
            self.cmd("l", dx, dy)
        self.x, self.y = x, y

    def close(self) -> None:
        """Close the subpath: the current point goes back to its start."""
        self.run.append("z")
        self.last = "z"
        self.x, self.y = self.x0, self.y0

    def points(self, points: tuple[tuple[float, float], ...], closed: bool) -> None:
        """Add a polyline (a polygon when closed) as a subpath."""
        g = self.grid
        (x, y), rest = points[0], points[1:]
        self.move(g[x], g[y])
        for x, y in rest:
            self.line_to(g[x], g[y])
        if closed:
            self.close()

    # --- shapes

    def line(self, s: Line) -> None:
        """Add a segment to a stroke-only path (nothing without a stroke colour)."""
        if s.style.stroke is None:
            return
        name, _, _, merges = self.paint(s.style, False)
        g = self.grid
        if not (self.run and name == self.run_class and merges and self.run_merges):
            self.start(name, merges)
        self.move(g[s.x1], g[s.y1])
        self.line_to(g[s.x2], g[s.y2])

    def rect(self, s: Rect) -> None:
        """Add a rectangle: a subpath (h, v, h, z) of a path, or a rect element when rounded or
        empty (an SVG rect of no width draws nothing, a path would draw its outline)."""
        name, kind, half, merges = self.paint(s.style)
        if kind == _NOTHING:
            return
        g = self.grid
        x, y, w, h = g[s.x], g[s.y], g[s.w], g[s.h]
        if s.r or w <= 0 or h <= 0:
            self.flush()
            num = self.num
            rounding = (("rx", self.n(s.r)),) if s.r else ()
            attrs = (("class", name), ("x", num[x]), ("y", num[y]), ("width", num[w]), ("height", num[h]))
            self.out.append(("rect", attrs + rounding, None, ()))
            return
        if kind == _FILL and half:
            # an outline painted after a fill covers it; merged, every outline is painted after
            # every fill: merge only while no earlier outline reaches into this one's inside
            inner = (x + half, y + half, x + w - half, y + h - half)
            if self.run_class == name and self.run_merges and not self._clear(inner):
                self.flush()
            self.start(name, merges)
            self.boxes.append((x - half, y - half, x + w + half, y + h + half) + inner)
        else:
            self.start(name, merges)
        self.move(x, y)
        num = self.num
        self.run.append(f"h{num[w]}v{num[h]}h{num[-w]}z")
        self.last = "z"

    def _clear(self, inner: tuple[float, float, float, float]) -> bool:
        """Return whether an inside box meets no earlier rectangle's outline in the open path."""
        a0, b0, a1, b1 = inner
        if a0 >= a1 or b0 >= b1:
            return True
        for e0, f0, e1, f1, i0, j0, i1, j1 in self.boxes:
            x0, y0, x1, y1 = max(a0, e0), max(b0, f0), min(a1, e1), min(b1, f1)
            if x0 < x1 and y0 < y1 and not (i0 <= x0 and j0 <= y0 and x1 <= i1 and y1 <= j1):
                return False
        return True

    def circle(self, s: Circle) -> None:
        """Add a circle element."""
        name, kind, _, _ = self.paint(s.style)
        if kind == _NOTHING:
            return
        self.flush()
        n = self.n
        self.out.append(
            ("circle", (("class", name), ("cx", n(s.cx)), ("cy", n(s.cy)), ("r", n(s.r))), None, ())
        )

    def polygon(self, s: Polygon) -> None:
        """Add a polygon as a path (an open polyline is never filled); stroke-only ones share."""
        if not s.points:
            return
        name, kind, _, merges = self.paint(s.style, s.closed)
        if kind == _NOTHING:
            return
        if kind == _FILL:
            self.flush()
            self.start(name, False)
            self.points(s.points, s.closed)
            self.flush()
        else:
            self.start(name, merges)
            self.points(s.points, s.closed)

    def path(self, s: Path) -> None:
        """Add a path of M, L, C and Z commands, as relative commands; stroke-only ones share."""
        name, kind, _, merges = self.paint(s.style)
        if kind == _NOTHING or not s.commands:
            return
        filled = kind == _FILL
        if filled:
            self.flush()
        self.start(name, merges and not filled)
        g = self.grid
        for c in s.commands:
            op = c[0]
            if op == "M":
                self.move(g[c[1]], g[c[2]])
            elif op == "L":
                self.line_to(g[c[1]], g[c[2]])
            elif op == "C":
                x, y = self.x, self.y
                x1, y1, x2, y2, x3, y3 = (g[v] for v in c[1:7])
                self.cmd("c", x1 - x, y1 - y, x2 - x, y2 - y, x3 - x, y3 - y)
                self.x, self.y = x3, y3
            elif op == "Z":
                self.close()
        if filled:
            self.flush()

    def text(self, s: Text) -> None:
        """Add a text element naming its face by one class, and its colour, size (in CSS px: user
        units) and anchor by another (none in a preview)."""
        if not self.with_text:
            return
        self.flush()
        n = self.n
        key = (s.colour, s.size, s.anchor)
        name = self._texts.get(key)
        if name is None:
            # the size to 0.01 mm even on a 0.1 mm grid: 3.4 for 3.39 would lengthen a line of
            # text by a third of a millimetre in every 80
            look = [("fill", s.colour), ("font-size", f"{_n(s.size * 25.4 / 72.0)}px")]
            if s.anchor != "start":
                look.append(("text-anchor", _ANCHORS[s.anchor]))
            name = self.classes.get(tuple(look))
            if name is None:
                name = self.classes[tuple(look)] = f"{self.id_prefix}s{len(self.classes)}"
            self._texts[key] = name
        space = (("xml:space", "preserve"),) if "  " in s.text or s.text != s.text.strip() else ()
        attrs = (("class", f"{_font_class(s.font)} {name}"), ("x", n(s.x)), ("y", n(s.y)))
        self.out.append(("text", attrs + space, s.text, ()))

    def image(self, s: Image) -> None:
        """Add a use of the picture's symbol: each picture file is written once, as a symbol in
        the defs holding an image element with the file as a data URI, however often it is drawn."""
        self.flush()
        n = self.n
        ref = self.images.get(s.data)
        if ref is None:
            ref = self.images[s.data] = f"{self.id_prefix}picture{len(self.images) + 1}"
            kind = "png" if s.data.startswith(b"\x89PNG") else "jpeg"
            href = f"data:image/{kind};base64," + base64.b64encode(s.data).decode("ascii")
            fill = (("width", "1"), ("height", "1"), ("preserveAspectRatio", "none"), ("xlink:href", href))
            self.defs.append(
                (
                    "symbol",
                    (("id", ref), ("viewBox", "0 0 1 1"), ("preserveAspectRatio", "none")),
                    None,
                    (("image", fill, None, ()),),
                )
            )
        self.has_xlink = True
        attrs = (("x", n(s.x)), ("y", n(s.y)), ("width", n(s.w)), ("height", n(s.h)))
        self.out.append(("use", (("xlink:href", f"#{ref}"), *attrs), None, ()))

    def begin_group(
        self,
        transform: Matrix,
        clip: tuple[float, float, float, float] | None,
        outline: tuple[tuple[Any, ...], ...] | None = None,
    ) -> None:
        """Open a g element with the transform, and an inner one with the clip path (neither
        when the group has neither: shapes on both sides of it may then share a path); a clip
        outline is one more inner group clipped to that path."""
        if transform == IDENTITY and clip is None and outline is None:
            self.closers.append((0, 0))
            return
        self.flush()
        n = self.n
        opened: list[Item] = []
        start = len(self.out)
        if transform != IDENTITY:
            a, b, c, d, e, f = transform
            if (a, b, c, d) == (1, 0, 0, 1):
                move = n(e) if f == 0 else f"{n(e)} {n(f)}"
                opened.append(("<g", (("transform", f"translate({move})"),), None, ()))
            else:
                matrix = f"matrix({' '.join(_n(v, 6) for v in (a, b, c, d))} {n(e)} {n(f)})"
                opened.append(("<g", (("transform", matrix),), None, ()))
        if clip is not None:
            self.clip_count += 1
            clip_id = f"{self.id_prefix}clip{self.clip_count}"
            x, y, w, h = clip
            box = (("x", n(x)), ("y", n(y)), ("width", n(w)), ("height", n(h)))
            self.defs.append(("clipPath", (("id", clip_id),), None, (("rect", box, None, ()),)))
            opened.append(("<g", (("clip-path", f"url(#{clip_id})"),), None, ()))
        if outline is not None:
            self.clip_count += 1
            clip_id = f"{self.id_prefix}clip{self.clip_count}"
            data = "".join(c[0] + " ".join(n(v) for v in c[1:]) for c in outline)
            self.defs.append(("clipPath", (("id", clip_id),), None, (("path", (("d", data),), None, ()),)))
            opened.append(("<g", (("clip-path", f"url(#{clip_id})"),), None, ()))
        clipped = clip is not None or outline is not None
        self.closers.append((len(opened), -1 if clipped else start))
        self.out.extend(opened)

    def end_group(self) -> None:
        """Close the group opened by the matching begin_group."""
        closer, start = self.closers.pop()
        if closer:
            self.flush()
            self.out.extend([_CLOSE] * closer)
            if start >= 0:  # a group that only moves its shapes may be drawn again elsewhere
                self.groups.append((start, len(self.out)))

    def share_groups(self) -> None:
        """Write the groups drawn several times over (the same shapes, moved elsewhere) once in
        the defs, and each drawing of them as a use with its transform, where that is shorter;
        the largest first, and none inside one already shared."""
        out = self.out
        seen: dict[tuple[Item, ...], list[tuple[int, int]]] = {}
        for start, end in sorted(self.groups, key=lambda g: (g[0] - g[1], g[0])):
            seen.setdefault(tuple(out[start + 1 : end - 1]), []).append((start, end))
        taken: set[int] = set()
        for inner, spans in seen.items():
            if len(spans) < 2:  # sized only when drawn more than once
                continue
            spans = [(start, end) for start, end in spans if start not in taken]
            size = sum(_size(item) for item in inner)
            if size <= 60 or len(spans) < 2 or len(spans) * (size - 40) <= size + 20:
                continue
            self.use_count += 1
            ref = f"{self.id_prefix}u{self.use_count}"
            self.defs.append(("g", (("id", ref),), None, inner))
            for start, end in spans:
                out[start] = ("use", (("xlink:href", f"#{ref}"), *out[start][1]), None, ())
                for index in range(start + 1, end):
                    out[index] = ("", (), None, ())
                taken.update(range(start, end))
            self.has_xlink = True

    def body(self) -> list[Item]:
        """Return the items of everything drawn (call before reading the defs)."""
        self.flush()
        self.share_repeats()
        self.share_groups()
        return self.out


def svg_document(page: Page, title: str = "", preview: bool = False, author: str = "") -> str:
    """Return one page as the text of an SVG document (true size, viewBox in mm), titled ``title``
    (or the page's label) with ``author`` as its Dublin Core creator when given.

    A preview leaves the text out and writes lengths to 0.1 mm: a light picture for a contact
    sheet, not for printing."""
    writer, css = _written(page, preview)
    return markup(_drawing(page, writer, css, title, author))


def svg_drawing(page: Page, title: str = "", preview: bool = False, author: str = "") -> Any:
    """Return one page as an svgwrite drawing (``svg_document`` is its markup)."""
    writer, css = _written(page, preview)
    return _drawing(page, writer, css, title, author)


def _written(page: Page, preview: bool) -> tuple[_Writer, str]:
    """Return the writer holding a page's drawing and the style sheet of its faces and classes."""
    chars: dict[str, set[str]] = {}
    for s, _ in [] if preview else iter_shapes(page.shapes):
        if isinstance(s, Text):
            chars.setdefault(s.font, set()).update(s.text)
    css = _faces_css({font: "".join(sorted(chars[font])) for font in sorted(chars)})
    writer = _Writer(1 if preview else 2, with_text=not preview)
    draw(page.shapes, writer)
    writer.body()
    return writer, css + writer.css()


def _drawing(page: Page, writer: _Writer, css: str, title: str, author: str) -> Any:
    """Return the svgwrite drawing of a written page: title, metadata, defs, then the body."""
    width, height = _n(page.width), _n(page.height)
    document = svgwrite.Drawing(debug=False)
    document.attribs = {"width": f"{width}mm", "height": f"{height}mm", "viewBox": f"0 0 {width} {height}"}
    document.elements = []  # the title first; the defs only when there are some
    if title or page.label:
        document.add(svgwrite.base.Title(spoken(title or page.label)))
    if author:
        rdf = ET.Element("rdf:RDF", {"xmlns:rdf": _RDF_NS, "xmlns:dc": _DC_NS})
        ET.SubElement(ET.SubElement(rdf, "rdf:Description"), "dc:creator").text = author
        document.add(svgwrite.base.Metadata(rdf))
    if css or writer.defs:
        defs = _make("defs", {})
        if css:
            defs.elements.append(_make("style", {}, css))
        _realise(writer.defs, defs)
        document.elements.append(defs)
    _realise(writer.out, document)
    return document


def _faces_css(faces: dict[str, str]) -> str:
    """Return the @font-face rules and text classes of the faces, each a subset holding its
    characters; the first carries the faces' licence text for them all (Vera's licence asks that
    its notices be included in every copy of one or more of its faces: one file is one copy)."""
    shipped = [font for font in faces if not is_user_font(font)]
    return "".join(_font_css(font, chars, shipped[:1] == [font]) for font, chars in faces.items())


def _font_css(font: str, chars: str, notices: bool = True) -> str:
    """Return the @font-face rule of a face's subset holding chars, and the rule of its text class.

    The face is declared with the weight and style its class asks for: a face declared normal
    and asked for bold is drawn in a bold Chromium makes up (outlines thickened, glyphs wider),
    not in the face itself."""
    family = font_family(font)
    own = is_user_font(font)  # a definition's face: one face of its own, with its licence text
    weight = "bold" if "bold" in font and not own else "normal"
    style = "italic" if "italic" in font and not own else "normal"
    notices = notices or own
    declared = (";font-weight:bold" if weight == "bold" else "") + (
        ";font-style:italic" if style == "italic" else ""
    )
    return (
        f"@font-face{{font-family:{family};src:url({font_face_uri(font, chars, notices)}) format('woff'){declared}}}"
        f".{_font_class(font)}{{font-family:{family},{_FALLBACK};font-weight:{weight};font-style:{style}}}"
    )


class InlineSvg:
    """Drawings as ``<svg>`` elements of one HTML page, sharing the page's style sheet: shape styles
    become classes common to every drawing (plain class rules, which reach the copies ``<use>``
    shows as well), clip ids are unique on the page, coordinates are written to 0.1 mm, and the
    text of every drawing is drawn in subsets of the faces holding just its characters (``css()``
    returns the classes and the faces, for the page's ``<style>``)."""

    def __init__(self, prefix: str = "g") -> None:
        self.prefix = prefix
        self.classes: dict[ClassKey, str] = {}
        self.clips = 0
        self.uses = 0
        self.chars: dict[str, set[str]] = {}

    def element(self, page: Page, alt: str) -> str:
        """Return a page as an ``<svg>`` element: scalable (a viewBox in mm, no fixed size) and
        ``role="img"`` with alt as its name."""
        return markup(self.drawing(page, alt))

    def drawing(self, page: Page, alt: str) -> Any:
        """Return a page as an svgwrite ``<svg>`` element (``element`` is its markup)."""
        # a label that reaches past the drawing's edge (into a printed page's margin) stays in view
        x0, y0, x1, y1 = 0.0, 0.0, page.width, page.height
        box = bounds(page.shapes)
        if box is not None:
            x0 = box[0] - 0.3 if box[0] < -0.2 else x0
            y0 = box[1] - 0.3 if box[1] < -0.2 else y0
            x1 = box[2] + 0.3 if box[2] > x1 + 0.2 else x1
            y1 = box[3] + 0.3 if box[3] > y1 + 0.2 else y1
        writer = _Writer(
            1, id_prefix=self.prefix, classes=self.classes, clip_count=self.clips, use_count=self.uses
        )
        draw(page.shapes, writer)
        body = writer.body()
        self.clips, self.uses = writer.clip_count, writer.use_count
        for shape, _ in iter_shapes(page.shapes):
            if isinstance(shape, Text):
                self.chars.setdefault(shape.font, set()).update(shape.text)
        # an <svg> inside HTML takes its namespace from the page
        element = _make(
            "svg",
            {
                "aria-label": spoken(alt),
                "role": "img",
                "viewBox": f"{_n(x0, 1)} {_n(y0, 1)} {_n(x1 - x0, 1)} {_n(y1 - y0, 1)}",
            },
        )
        if writer.defs:  # defs only when there are some
            defs = _make("defs", {})
            _realise(writer.defs, defs)
            element.elements.append(defs)
        _realise(body, element)
        return element

    def css(self) -> str:
        """Return the style sheet of every element made so far: the faces and the shape classes."""
        faces = _faces_css(
            {font: "".join(sorted(self.chars[font] - set("\n\r\t"))) for font in sorted(self.chars)}
        )
        # plain class selectors: the copy a <use> shows lives in a shadow tree of its own, where a
        # rule such as "svg .gs3" (a descendant of an svg) matches nothing, and the copy is painted
        # black; the prefix keeps the classes apart from the page's own
        styles = "".join(
            f".{name}{{{';'.join(f'{k}:{v}' for k, v in key)}}}" for key, name in self.classes.items()
        )
        return faces + styles


def write_svg(page: Page, target: BinaryIO, title: str = "", preview: bool = False, author: str = "") -> None:
    """Write one page as an SVG document to a binary file object (a light one for a preview)."""
    target.write(svg_document(page, title, preview, author).encode("utf-8"))
