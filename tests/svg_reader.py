"""An SVG reader for the tests, written apart from the SVG writer: what an SVG document (or an
inline figure of an HTML page) paints, in drawing order and in the page's millimetres (a ``use``
paints what it names, where it stands).

It follows the SVG grammar rather than the writer's habits: transform lists (matrix, translate,
scale, rotate), path data with absolute and relative commands, repeated and implicit commands,
numbers such as ``.5``, ``-1.2e1`` or ``1-2``; paints from presentation attributes and from the
document's class rules."""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
Matrix = tuple[float, float, float, float, float, float]
Point = tuple[float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

_NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_TOKEN = re.compile(rf"([MmLlHhVvCcSsQqTtAaZz])|({_NUMBER})")
_PAINT = ("fill", "stroke", "stroke-width", "stroke-dasharray", "stroke-linecap", "stroke-linejoin")


def multiply(m1: Matrix, m2: Matrix) -> Matrix:
    """Return m1 x m2: m2 applied first."""
    a1, b1, c1, d1, e1, f1 = m1
    a2, b2, c2, d2, e2, f2 = m2
    return (
        a1 * a2 + c1 * b2,
        b1 * a2 + d1 * b2,
        a1 * c2 + c1 * d2,
        b1 * c2 + d1 * d2,
        a1 * e2 + c1 * f2 + e1,
        b1 * e2 + d1 * f2 + f1,
    )


def apply(m: Matrix, x: float, y: float) -> Point:
    """Return a point through a matrix."""
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def parse_transform(text: str | None) -> Matrix:
    """Return the matrix of an SVG transform list (identity for none)."""
    m = IDENTITY
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", text or ""):
        v = [float(a) for a in re.findall(_NUMBER, args)]
        if name == "matrix":
            step = tuple(v)
        elif name == "translate":
            step = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0)
        elif name == "scale":
            step = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "rotate":
            r = math.radians(v[0])
            cx, cy = (v[1], v[2]) if len(v) > 2 else (0, 0)
            step = multiply(
                multiply((1, 0, 0, 1, cx, cy), (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)),
                (1, 0, 0, 1, -cx, -cy),
            )
        else:
            raise ValueError(f"transform {name} is not read here")
        m = multiply(m, step)  # type: ignore[arg-type]
    return m


Segment = tuple  # ("L", p0, p1) or ("C", p0, c1, c2, p3)


@dataclass(frozen=True)
class Subpath:
    """One subpath: its segments from its start point, and whether it is closed."""

    start: Point
    segments: tuple[Segment, ...]
    closed: bool


def parse_path(d: str) -> list[Subpath]:
    """Return the subpaths of path data in absolute coordinates (lines and cubic curves)."""
    tokens = [(c, n) for c, n in _TOKEN.findall(d)]
    out: list[Subpath] = []
    segments: list[Segment] = []
    start = cur = (0.0, 0.0)
    opened = False
    closed = False
    i = 0
    command = ""

    def finish() -> None:
        nonlocal segments, opened, closed
        if opened:
            out.append(Subpath(start, tuple(segments), closed))
        segments, opened, closed = [], False, False

    def numbers(count: int) -> list[float]:
        nonlocal i
        values = []
        for _ in range(count):
            letter, number = tokens[i]
            if letter:
                raise ValueError(f"path data {d[:40]!r}: a number was expected")
            values.append(float(number))
            i += 1
        return values

    while i < len(tokens):
        letter, _ = tokens[i]
        if letter:
            command = letter
            i += 1
            if command in "Zz":
                if opened:
                    closed = True
                    finish()
                    cur = start
                continue
        elif not command or command in "Zz":
            raise ValueError(f"path data {d[:40]!r}: a number without a command")
        relative = command.islower()
        ox, oy = cur if relative else (0.0, 0.0)
        kind = command.upper()
        if kind == "M":
            x, y = numbers(2)
            finish()
            start = cur = (ox + x, oy + y)
            opened = True
            command = "l" if relative else "L"  # pairs after a moveto are linetos
            continue
        if not opened:  # drawing after a closepath starts a subpath at the closed one's start
            opened, segments, closed = True, [], False
            start = cur
        if kind == "L":
            x, y = numbers(2)
            end = (ox + x, oy + y)
        elif kind == "H":
            (x,) = numbers(1)
            end = ((ox if relative else 0.0) + x, cur[1])
        elif kind == "V":
            (y,) = numbers(1)
            end = (cur[0], (oy if relative else 0.0) + y)
        elif kind == "C":
            v = numbers(6)
            c1, c2 = (ox + v[0], oy + v[1]), (ox + v[2], oy + v[3])
            end = (ox + v[4], oy + v[5])
            segments.append(("C", cur, c1, c2, end))
            cur = end
            continue
        else:
            raise ValueError(f"path command {command} is not read here")
        segments.append(("L", cur, end))
        cur = end
    finish()
    return out


def class_rules(css: str) -> dict[str, dict[str, str]]:
    """Return the declarations of every class rule (``.name{...}`` or ``svg .name{...}``)."""
    rules: dict[str, dict[str, str]] = {}
    for name, body in re.findall(r"\.([\w-]+)\{([^}]*)\}", css):
        declared = rules.setdefault(name, {})
        for item in body.split(";"):
            if ":" in item:
                key, value = item.split(":", 1)
                declared[key.strip()] = value.strip()
    return rules


@dataclass(frozen=True)
class Painted:
    """One painted thing: ``kind`` is subpath, circle, rect (rounded or empty), text or image;
    ``paint`` its fill and stroke; ``geometry`` in page mm; ``scale`` the size factor there."""

    kind: str
    paint: tuple[tuple[str, str], ...]
    geometry: tuple
    scale: float
    element: str = ""


def _paint(el: ET.Element, rules: dict[str, dict[str, str]]) -> tuple[tuple[str, str], ...]:
    found: dict[str, str] = {"fill": "#000000", "stroke": "none"}
    for name in (el.get("class") or "").split():
        found.update({k: v for k, v in rules.get(name, {}).items() if k in _PAINT})
    for key in _PAINT:
        if el.get(key) is not None:
            found[key] = el.get(key)  # type: ignore[assignment]
    if found["stroke"] == "none":
        found = {"fill": found["fill"], "stroke": "none"}
    else:
        found["stroke-width"] = str(float(found.get("stroke-width", "1")))
        if "stroke-dasharray" in found:
            found["stroke-dasharray"] = " ".join(
                str(float(v)) for v in re.findall(_NUMBER, found["stroke-dasharray"])
            )
        found.setdefault("stroke-linecap", "butt")
        found.setdefault("stroke-linejoin", "miter")
    return tuple(sorted(found.items()))


def _points(text: str) -> list[Point]:
    values = [float(v) for v in re.findall(_NUMBER, text)]
    return list(zip(values[0::2], values[1::2]))


def _through(m: Matrix, sub: Subpath) -> Subpath:
    segments = tuple((s[0],) + tuple(apply(m, *p) for p in s[1:]) for s in sub.segments)
    return Subpath(apply(m, *sub.start), segments, sub.closed)


def painted(root: ET.Element) -> list[Painted]:
    """Return everything an SVG element paints, in drawing order (defs, clip paths and titles
    paint nothing)."""
    css = "".join(el.text or "" for el in root.iter(SVG_NS + "style"))
    rules = class_rules(css)
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}
    out: list[Painted] = []

    def walk(el: ET.Element, m: Matrix) -> None:
        tag = el.tag.replace(SVG_NS, "")
        if tag in ("defs", "title", "style", "clipPath", "desc", "metadata"):
            return
        m = multiply(m, parse_transform(el.get("transform")))
        k = math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
        paint = _paint(el, rules)
        subs: list[Subpath] = []
        if tag == "path":
            subs = parse_path(el.get("d", ""))
        elif tag == "line":
            p0 = (float(el.get("x1", 0)), float(el.get("y1", 0)))
            p1 = (float(el.get("x2", 0)), float(el.get("y2", 0)))
            subs = [Subpath(p0, (("L", p0, p1),), False)]
        elif tag in ("polyline", "polygon"):
            pts = _points(el.get("points", ""))
            if pts:
                segs = tuple(("L", a, b) for a, b in itertools.pairwise(pts))
                subs = [Subpath(pts[0], segs, tag == "polygon")]
        elif tag == "rect":
            x, y = float(el.get("x", 0)), float(el.get("y", 0))
            w, h = float(el.get("width", 0)), float(el.get("height", 0))
            r = float(el.get("rx", el.get("ry", 0)))
            if r or w <= 0 or h <= 0:
                corners = (apply(m, x, y), apply(m, x + w, y + h))
                out.append(Painted("rect", paint, (corners, w * k, h * k, r * k), k, tag))
            else:
                pts = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
                subs = [Subpath(pts[0], tuple(("L", a, b) for a, b in itertools.pairwise(pts)), True)]
        elif tag == "circle":
            centre = apply(m, float(el.get("cx", 0)), float(el.get("cy", 0)))
            out.append(Painted("circle", paint, (centre, float(el.get("r", 0)) * k), k, tag))
        elif tag == "text":
            anchor = el.get("text-anchor", "start")
            size = float(el.get("font-size", "0"))
            for name in (el.get("class") or "").split():
                anchor = rules.get(name, {}).get("text-anchor", anchor)
                size = float(rules.get(name, {}).get("font-size", str(size)).removesuffix("px"))
            faces = [c for c in (el.get("class") or "").split() if re.fullmatch(r"f\d", c)]
            where = apply(m, float(el.get("x", 0)), float(el.get("y", 0)))
            geometry = (el.text or "", faces[0] if faces else "", size * k, anchor, where)
            out.append(Painted("text", (("fill", dict(paint)["fill"]),), geometry, k, tag))
            return
        elif tag == "use":
            ref = (el.get(XLINK) or el.get("href") or "").removeprefix("#")
            if ref not in ids:
                raise ValueError(f"a use of {ref!r}, which the document does not hold")
            at = (1.0, 0.0, 0.0, 1.0, float(el.get("x", 0)), float(el.get("y", 0)))
            walk(ids[ref], multiply(m, at))
            return
        elif tag == "image":
            x, y = float(el.get("x", 0)), float(el.get("y", 0))
            w, h = float(el.get("width", 0)), float(el.get("height", 0))
            href = el.get(XLINK) or el.get("href") or ""
            out.append(Painted("image", (), (apply(m, x, y), apply(m, x + w, y + h), href), k, tag))
        for sub in subs:
            out.append(Painted("subpath", paint, (_through(m, sub),), k, tag))
        for child in el:
            walk(child, m)

    walk(root, IDENTITY)
    return out


def read_svg(data: bytes | str) -> list[Painted]:
    """Return what an SVG document paints (``painted`` of its root)."""
    return painted(ET.fromstring(data))


def inline_svgs(html: str) -> list[ET.Element]:
    """Return the ``<svg>`` elements of an HTML page, parsed as XML (in the SVG namespace), each
    with the page's style sheet as its own ``<style>``."""
    style = "".join(re.findall(r"<style>(.*?)</style>", html, re.S))
    found = []
    for markup in re.findall(r"<svg\b.*?</svg>", html, re.S):
        tag, rest = markup.split(">", 1)
        text = f'{tag} xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
        root = ET.fromstring(text + f"<style>{_cdata(style)}</style>" + rest)
        found.append(root)
    return found


def _cdata(text: str) -> str:
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"
