"""A small, safe reader of SVG drawings into the page model's shapes (art and icons drawn as vectors).

``read_svg(data)`` returns an ``SvgArt``: the drawing's shapes in the units of its view box, and
that view box, so a caller scales it into any box. It reads what icons and flat art are made of:
``g``, ``path`` (every command, arcs and quadratic curves turned into cubic ones), ``rect``,
``circle``, ``ellipse``, ``line``, ``polyline`` and ``polygon``, each with ``fill``, ``stroke``,
``stroke-width`` and ``transform`` (attributes or ``style="..."``, inherited from groups), colours
as ``#rgb``, ``#rrggbb``, ``rgb(...)``, a CSS colour name of the short table below or
``currentColor`` (the colour asked for). Nothing of the file is embedded: what is not read
(text, embedded pictures, ``use``, gradients, filters, scripts, styles sheets) is left out, and a
file with a document type (entities) is refused before it is parsed. Sizes are bounded (elements,
path commands, nesting), so a stranger's file cannot make the build run long.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass

from generator.model.page import (
    IDENTITY,
    KAPPA,
    Command,
    Group,
    Matrix,
    Path,
    Shape,
    Style,
    multiply,
    rounded_rect,
)

MAX_ELEMENTS = 20_000  # elements of one drawing
MAX_COMMANDS = 200_000  # path commands of one drawing, all paths together
MAX_DEPTH = 40  # groups inside groups

NAMED = {
    "black": "#000000",
    "white": "#ffffff",
    "red": "#ff0000",
    "green": "#008000",
    "lime": "#00ff00",
    "blue": "#0000ff",
    "yellow": "#ffff00",
    "cyan": "#00ffff",
    "aqua": "#00ffff",
    "magenta": "#ff00ff",
    "fuchsia": "#ff00ff",
    "gray": "#808080",
    "grey": "#808080",
    "silver": "#c0c0c0",
    "maroon": "#800000",
    "olive": "#808000",
    "navy": "#000080",
    "purple": "#800080",
    "teal": "#008080",
    "orange": "#ffa500",
    "brown": "#a52a2a",
    "gold": "#ffd700",
    "pink": "#ffc0cb",
}
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_PATH_TOKEN = re.compile(r"([MmLlHhVvCcSsQqTtAaZz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")
_TRANSFORM = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")
_SKIPPED = {
    "defs",
    "clipPath",
    "mask",
    "pattern",
    "marker",
    "symbol",
    "style",
    "script",
    "text",
    "title",
    "desc",
    "metadata",
    "linearGradient",
    "radialGradient",
    "filter",
    "foreignObject",
    "image",
    "use",
    "switch",
}


class SvgError(ValueError):
    """An SVG file that cannot be read as a drawing; its message says why in the user's words."""


@dataclass(frozen=True, slots=True)
class SvgArt:
    """A drawing read from an SVG file: its shapes in view-box units and the view box (x, y, w, h)."""

    shapes: tuple[Shape, ...]
    view_box: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class _Paint:
    fill: str | None = "#000000"
    stroke: str | None = None
    width: float = 1.0
    visible: bool = True


def looks_like_svg(data: bytes) -> bool:
    """Return whether file data looks like an SVG document: markup with an svg tag near its start."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith(b"<") and b"<svg" in head


def read_svg(data: bytes, colour: str = "#000000") -> SvgArt:
    """Return the shapes and view box of an SVG file's data (``currentColor`` painted ``colour``),
    or raise SvgError saying what is wrong."""
    if b"<!doctype" in data.lower() or b"<!entity" in data.lower():
        raise SvgError("an SVG with a document type (entities) is not read")
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise SvgError(f"not a well-formed SVG ({exc})") from None
    if _tag(root) != "svg":
        raise SvgError("not an SVG drawing (its root element is not svg)")
    view_box = _view_box(root)
    reader = _Reader(colour)
    shapes = reader.children(root, _Paint(), 0)
    return SvgArt(tuple(shapes), view_box)


def _tag(element: ElementTree.Element) -> str:
    tag = element.tag if isinstance(element.tag, str) else ""
    return tag.rsplit("}", 1)[-1]


def _numbers(text: str) -> list[float]:
    values = [float(v) for v in _NUMBER.findall(text)]
    if any(not math.isfinite(v) or abs(v) > 1e7 for v in values):
        raise SvgError("a number out of range")
    return values


def _length(text: str | None, default: float = 0.0) -> float:
    if not text:
        return default
    values = _numbers(text)
    return values[0] if values else default


def _view_box(root: ElementTree.Element) -> tuple[float, float, float, float]:
    box = root.get("viewBox")
    if box:
        values = _numbers(box)
        if len(values) == 4 and values[2] > 0 and values[3] > 0:
            return (values[0], values[1], values[2], values[3])
        raise SvgError(f"a viewBox of four numbers with a positive width and height, got {box!r}")
    width, height = _length(root.get("width")), _length(root.get("height"))
    if width > 0 and height > 0 and "%" not in (root.get("width", "") + root.get("height", "")):
        return (0.0, 0.0, width, height)
    raise SvgError("an SVG needs a viewBox (or a width and height) to be placed")


def _transform(text: str | None) -> Matrix:
    if not text:
        return IDENTITY
    m = IDENTITY
    for name, args in _TRANSFORM.findall(text):
        v = _numbers(args)
        step: Matrix
        if name == "matrix" and len(v) == 6:
            step = (v[0], v[1], v[2], v[3], v[4], v[5])
        elif name == "translate" and v:
            step = (1.0, 0.0, 0.0, 1.0, v[0], v[1] if len(v) > 1 else 0.0)
        elif name == "scale" and v:
            step = (v[0], 0.0, 0.0, v[1] if len(v) > 1 else v[0], 0.0, 0.0)
        elif name == "rotate" and v:
            a = math.radians(v[0])
            c, s = math.cos(a), math.sin(a)
            step = (c, s, -s, c, 0.0, 0.0)
            if len(v) == 3:
                cx, cy = v[1], v[2]
                step = multiply((1.0, 0.0, 0.0, 1.0, cx, cy), multiply(step, (1.0, 0.0, 0.0, 1.0, -cx, -cy)))
        elif name == "skewX" and v:
            step = (1.0, 0.0, math.tan(math.radians(v[0])), 1.0, 0.0, 0.0)
        elif name == "skewY" and v:
            step = (1.0, math.tan(math.radians(v[0])), 0.0, 1.0, 0.0, 0.0)
        else:
            raise SvgError(f"a transform {name}({args.strip()}) with the wrong numbers")
        m = multiply(m, step)
    return m


class _Reader:
    def __init__(self, colour: str) -> None:
        self.colour = colour
        self.elements = 0
        self.commands = 0

    def colour_of(self, text: str, inherited: str | None) -> str | None:
        text = text.strip().lower()
        if text in ("none", "transparent") or text.startswith("url("):
            return None  # gradients and patterns are not read: that part is left unpainted
        if text == "currentcolor":
            return self.colour
        if text == "inherit":
            return inherited
        if re.fullmatch(r"#[0-9a-f]{6}", text):
            return text
        if re.fullmatch(r"#[0-9a-f]{3}", text):
            return "#" + "".join(ch * 2 for ch in text[1:])
        found = re.fullmatch(r"rgb\(\s*([^)]*)\)", text)
        if found:
            parts = [p.strip() for p in found.group(1).replace(",", " ").split()]
            if len(parts) == 3:
                values = [
                    float(p[:-1]) * 2.55 if p.endswith("%") else float(p)
                    for p in parts
                    if _NUMBER.fullmatch(p.rstrip("%"))
                ]
                if len(values) == 3:
                    return "#" + "".join(f"{max(0, min(255, round(v))):02x}" for v in values)
        if text in NAMED:
            return NAMED[text]
        raise SvgError(f"a colour it cannot read: {text!r}")

    def paint(self, element: ElementTree.Element, parent: _Paint) -> _Paint:
        props: dict[str, str] = {}
        for key in ("fill", "stroke", "stroke-width", "opacity", "fill-opacity", "display", "visibility"):
            value = element.get(key)
            if value is not None:
                props[key] = value
        for part in (element.get("style") or "").split(";"):
            if ":" in part:
                key, value = part.split(":", 1)
                props[key.strip()] = value.strip()
        fill, stroke, width, visible = parent.fill, parent.stroke, parent.width, parent.visible
        if "fill" in props:
            fill = self.colour_of(props["fill"], parent.fill)
        if "stroke" in props:
            stroke = self.colour_of(props["stroke"], parent.stroke)
        if "stroke-width" in props:
            width = max(0.0, _length(props["stroke-width"], 1.0))
        if props.get("display", "").strip() == "none" or props.get("visibility", "").strip() == "hidden":
            visible = False
        if _length(props.get("opacity"), 1.0) <= 0 or _length(props.get("fill-opacity"), 1.0) <= 0:
            fill = None if "fill-opacity" in props else fill
            if "opacity" in props and _length(props["opacity"], 1.0) <= 0:
                visible = False
        return _Paint(fill, stroke, width, visible)

    def children(self, element: ElementTree.Element, paint: _Paint, depth: int) -> list[Shape]:
        if depth > MAX_DEPTH:
            raise SvgError(f"groups nested over {MAX_DEPTH} deep")
        out: list[Shape] = []
        for child in element:
            self.elements += 1
            if self.elements > MAX_ELEMENTS:
                raise SvgError(f"over {MAX_ELEMENTS} elements")
            out.extend(self.element(child, paint, depth))
        return out

    def element(self, element: ElementTree.Element, parent: _Paint, depth: int) -> list[Shape]:
        tag = _tag(element)
        if tag in _SKIPPED or not tag:
            return []
        paint = self.paint(element, parent)
        if not paint.visible:
            return []
        m = _transform(element.get("transform"))
        if tag in ("g", "a", "svg"):
            inner = self.children(element, paint, depth + 1)
            if not inner:
                return []
            return [Group(tuple(inner), m)] if m != IDENTITY else inner
        commands = self.outline(tag, element)
        if not commands or (paint.fill is None and paint.stroke is None):
            return []
        self.commands += len(commands)
        if self.commands > MAX_COMMANDS:
            raise SvgError(f"over {MAX_COMMANDS} path commands")
        fill = paint.fill if tag not in ("line", "polyline") else None
        style = Style(stroke=paint.stroke, fill=fill, width=paint.width)
        shape = Path(tuple(commands), style)
        return [Group((shape,), m)] if m != IDENTITY else [shape]

    def outline(self, tag: str, e: ElementTree.Element) -> list[Command]:
        if tag == "path":
            return path_commands(e.get("d") or "")
        if tag == "rect":
            x, y = _length(e.get("x")), _length(e.get("y"))
            w, h = _length(e.get("width")), _length(e.get("height"))
            if w <= 0 or h <= 0:
                return []
            rx = _length(e.get("rx"), -1.0)
            ry = _length(e.get("ry"), -1.0)
            rx, ry = (ry if rx < 0 else rx), (rx if ry < 0 else ry)
            rx, ry = min(max(rx, 0.0), w / 2), min(max(ry, 0.0), h / 2)
            return list(rounded_rect(x, y, w, h, rx, ry))
        if tag in ("circle", "ellipse"):
            cx, cy = _length(e.get("cx")), _length(e.get("cy"))
            if tag == "circle":
                rx = ry = _length(e.get("r"))
            else:
                rx, ry = _length(e.get("rx")), _length(e.get("ry"))
            if rx <= 0 or ry <= 0:
                return []
            return _ellipse(cx, cy, rx, ry)
        if tag == "line":
            return [
                ("M", _length(e.get("x1")), _length(e.get("y1"))),
                ("L", _length(e.get("x2")), _length(e.get("y2"))),
            ]
        if tag in ("polyline", "polygon"):
            values = _numbers(e.get("points") or "")
            points = list(zip(values[0::2], values[1::2]))
            if len(points) < 2:
                return []
            out: list[Command] = [("M", *points[0])] + [("L", *p) for p in points[1:]]
            return out + [("Z",)] if tag == "polygon" else out
        return []


def _ellipse(cx: float, cy: float, rx: float, ry: float) -> list[Command]:
    kx, ky = rx * KAPPA, ry * KAPPA
    return [
        ("M", cx + rx, cy),
        ("C", cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
        ("C", cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
        ("C", cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
        ("C", cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
        ("Z",),
    ]


_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


def path_commands(d: str) -> list[Command]:
    """Return an SVG path's data as absolute M, L, C and Z commands (the page model's)."""
    tokens = _PATH_TOKEN.findall(d)
    if len(tokens) > 4 * MAX_COMMANDS:
        raise SvgError(f"a path of over {MAX_COMMANDS} commands")
    out: list[Command] = []
    x = y = sx = sy = 0.0
    last_c: tuple[float, float] | None = None  # the last cubic's second control point
    last_q: tuple[float, float] | None = None  # the last quadratic's control point
    i, op = 0, ""
    while i < len(tokens):
        letter = tokens[i][0]
        if letter:
            op = letter
            i += 1
            if op in "Zz":
                out.append(("Z",))
                x, y = sx, sy
                last_c = last_q = None
                continue
        elif not op:
            raise SvgError("a path whose data does not start with a command")
        n = _ARGS[op.upper()]
        if op in "Zz" or i + n > len(tokens) or any(tokens[j][0] for j in range(i, i + n)):
            if op in "Zz":
                raise SvgError("a path with numbers after its Z")
            raise SvgError(f"a path command {op} without its {n} numbers")
        v = [float(tokens[j][1]) for j in range(i, i + n)]
        if any(not math.isfinite(a) or abs(a) > 1e7 for a in v):
            raise SvgError("a number out of range")
        i += n
        rel = op.islower()
        up = op.upper()
        dx, dy = (x, y) if rel else (0.0, 0.0)
        if up == "M":
            x, y = v[0] + dx, v[1] + dy
            sx, sy = x, y
            out.append(("M", x, y))
            op = "l" if rel else "L"  # further pairs are lines
            last_c = last_q = None
        elif up == "L":
            x, y = v[0] + dx, v[1] + dy
            out.append(("L", x, y))
            last_c = last_q = None
        elif up == "H":
            x = v[0] + dx
            out.append(("L", x, y))
            last_c = last_q = None
        elif up == "V":
            y = v[0] + (y if rel else 0.0)
            out.append(("L", x, y))
            last_c = last_q = None
        elif up == "C":
            x1, y1, x2, y2 = v[0] + dx, v[1] + dy, v[2] + dx, v[3] + dy
            x, y = v[4] + dx, v[5] + dy
            out.append(("C", x1, y1, x2, y2, x, y))
            last_c, last_q = (x2, y2), None
        elif up == "S":
            x1, y1 = (2 * x - last_c[0], 2 * y - last_c[1]) if last_c else (x, y)
            x2, y2 = v[0] + dx, v[1] + dy
            x, y = v[2] + dx, v[3] + dy
            out.append(("C", x1, y1, x2, y2, x, y))
            last_c, last_q = (x2, y2), None
        elif up in ("Q", "T"):
            if up == "Q":
                qx, qy = v[0] + dx, v[1] + dy
                ex, ey = v[2] + dx, v[3] + dy
            else:
                qx, qy = (2 * x - last_q[0], 2 * y - last_q[1]) if last_q else (x, y)
                ex, ey = v[0] + dx, v[1] + dy
            out.append(
                (
                    "C",
                    x + 2 / 3 * (qx - x),
                    y + 2 / 3 * (qy - y),
                    ex + 2 / 3 * (qx - ex),
                    ey + 2 / 3 * (qy - ey),
                    ex,
                    ey,
                )
            )
            x, y = ex, ey
            last_c, last_q = None, (qx, qy)
        else:  # A
            ex, ey = v[5] + dx, v[6] + dy
            out.extend(_arc(x, y, v[0], v[1], v[2], v[3] != 0, v[4] != 0, ex, ey))
            x, y = ex, ey
            last_c = last_q = None
        if not out or out[0][0] != "M":
            out.insert(0, ("M", 0.0, 0.0))
    return out


def _arc(
    x1: float, y1: float, rx: float, ry: float, angle: float, large: bool, sweep: bool, x2: float, y2: float
) -> list[Command]:
    """Return an SVG elliptical arc as cubic curves (the endpoint parameterisation of SVG 1.1, F.6)."""
    if (x1, y1) == (x2, y2):
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [("L", x2, y2)]
    phi = math.radians(angle % 360)
    cos_p, sin_p = math.cos(phi), math.sin(phi)
    hx, hy = (x1 - x2) / 2, (y1 - y2) / 2
    xp, yp = cos_p * hx + sin_p * hy, -sin_p * hx + cos_p * hy
    scale = (xp * xp) / (rx * rx) + (yp * yp) / (ry * ry)
    if scale > 1:
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    num = rx * rx * ry * ry - rx * rx * yp * yp - ry * ry * xp * xp
    den = rx * rx * yp * yp + ry * ry * xp * xp
    k = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        k = -k
    cxp, cyp = k * rx * yp / ry, -k * ry * xp / rx
    cx = cos_p * cxp - sin_p * cyp + (x1 + x2) / 2
    cy = sin_p * cxp + cos_p * cyp + (y1 + y2) / 2

    def angle_of(ux: float, uy: float, vx: float, vy: float) -> float:
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    start = angle_of(1, 0, (xp - cxp) / rx, (yp - cyp) / ry)
    delta = angle_of((xp - cxp) / rx, (yp - cyp) / ry, (-xp - cxp) / rx, (-yp - cyp) / ry)
    if not sweep and delta > 0:
        delta -= 2 * math.pi
    elif sweep and delta < 0:
        delta += 2 * math.pi
    segments = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / segments
    t = 4 / 3 * math.tan(step / 4)
    out: list[Command] = []

    def point(a: float) -> tuple[float, float]:
        return (
            cx + rx * math.cos(a) * cos_p - ry * math.sin(a) * sin_p,
            cy + rx * math.cos(a) * sin_p + ry * math.sin(a) * cos_p,
        )

    def slope(a: float) -> tuple[float, float]:
        return (
            -rx * math.sin(a) * cos_p - ry * math.cos(a) * sin_p,
            -rx * math.sin(a) * sin_p + ry * math.cos(a) * cos_p,
        )

    a = start
    for n in range(segments):
        b = a + step
        (px, py), (qx, qy) = point(a), point(b)
        (da_x, da_y), (db_x, db_y) = slope(a), slope(b)
        if n == segments - 1:
            qx, qy = x2, y2
        out.append(("C", px + t * da_x, py + t * da_y, qx - t * db_x, qy - t * db_y, qx, qy))
        a = b
    return out
