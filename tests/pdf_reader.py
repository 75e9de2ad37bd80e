"""An independent PDF reader for the tests, on PDFium (pypdfium2): what a page shows, read back
from the file the way a viewer reads it.

Coordinates are PDF points with the origin at the page's top-left corner and y growing down (the
page model's direction). A page gives:

- ``rect``: the page's box (``Rect`` with x0, y0, x1, y1, width, height); ``rotation``: its /Rotate;
- ``get_text()``: its text in reading order; ``get_text("words")``: (x0, y0, x1, y1, word,
  block, line, number) per whitespace-separated word; ``get_text("dict")``: blocks of lines of
  spans (runs of one font and size on one baseline) with text, bbox, origin, size and font;
- ``get_drawings()``: one dict per painted path (form XObjects followed) with ``items`` (``("l",
  p, q)`` lines, ``("c", p, c1, c2, q)`` Béziers, ``("re", Rect)`` axis-aligned rectangles drawn
  as one closed four-sided subpath), its bounding ``rect``, stroke ``color`` and ``fill`` (RGB in
  0..1, None when not painted), stroke ``width`` and ``fill_opacity``;
- ``get_images()``: one entry per image drawn; ``get_pixmap(dpi, gray)``: the page rasterised.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as raw


@dataclass(frozen=True)
class Point:
    """A point on the page (points, y down)."""

    x: float
    y: float


@dataclass(frozen=True)
class Rect:
    """An axis-aligned box on the page (points, y down)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        """Return the box's width."""
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        """Return the box's height."""
        return self.y1 - self.y0

    def __iter__(self) -> Iterator[float]:
        return iter((self.x0, self.y0, self.x1, self.y1))


Matrix = tuple[float, float, float, float, float, float]


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """Return m then n (PDF row-vector convention)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _matrix(obj: Any) -> Matrix:
    m = raw.FS_MATRIX()
    if not raw.FPDFPageObj_GetMatrix(obj, ctypes.byref(m)):
        return (1, 0, 0, 1, 0, 0)
    return (m.a, m.b, m.c, m.d, m.e, m.f)


def _colour(obj: Any, getter: Any) -> tuple[tuple[float, float, float], float]:
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    if not getter(obj, ctypes.byref(r), ctypes.byref(g), ctypes.byref(b), ctypes.byref(a)):
        return (0.0, 0.0, 0.0), 1.0
    return (r.value / 255, g.value / 255, b.value / 255), a.value / 255


WORD_BREAKS = ("", " ", "\t", "\r", "\n")  # a narrow no-break space (French "\u202f;") keeps its word


class Pixmap:
    """A rasterised page: width, height, n (channels), stride, samples (bytes)."""

    def __init__(self, bitmap: Any) -> None:
        self.width: int = bitmap.width
        self.height: int = bitmap.height
        self.n: int = bitmap.n_channels
        self.stride: int = bitmap.stride
        self.samples: bytes = bytes(bitmap.buffer)

    def pixel(self, x: int, y: int) -> tuple[int, ...]:
        """Return the channel values of one pixel (RGB order for colour)."""
        start = y * self.stride + x * self.n
        return tuple(self.samples[start : start + self.n])


class Page:
    """One page of a Document."""

    def __init__(self, page: Any) -> None:
        self._page = page
        left, bottom, right, top = page.get_mediabox()
        self._left, self._top = left, top
        self.rect = Rect(0.0, 0.0, right - left, top - bottom)
        self.rotation: int = page.get_rotation()  # degrees clockwise a viewer turns the page
        self._chars: list[dict[str, Any]] | None = None

    # -- coordinates ---------------------------------------------------------------------------
    def _pt(self, x: float, y: float) -> Point:
        return Point(x - self._left, self._top - y)

    # -- text ----------------------------------------------------------------------------------
    def chars(self) -> list[dict[str, Any]]:
        """Return every character in content order: text, bbox (loose), origin, size, font."""
        if self._chars is None:
            tp = self._page.get_textpage()
            out = []
            buffer = ctypes.create_string_buffer(256)
            # one of each out-parameter for every character, PDFium's calls bound once
            box, matrix = raw.FS_RECTF(), raw.FS_MATRIX()
            ox, oy, flags = ctypes.c_double(), ctypes.c_double(), ctypes.c_int()
            box_ref, matrix_ref = ctypes.byref(box), ctypes.byref(matrix)
            ox_ref, oy_ref, flags_ref = ctypes.byref(ox), ctypes.byref(oy), ctypes.byref(flags)
            handle, size = tp.raw, len(buffer)
            unicode, loose_box, char_origin = (
                raw.FPDFText_GetUnicode,
                raw.FPDFText_GetLooseCharBox,
                raw.FPDFText_GetCharOrigin,
            )
            font_info, font_size, char_matrix, generated = (
                raw.FPDFText_GetFontInfo,
                raw.FPDFText_GetFontSize,
                raw.FPDFText_GetMatrix,
                raw.FPDFText_IsGenerated,
            )
            left, top = self._left, self._top
            for i in range(tp.count_chars()):
                code = unicode(handle, i)
                loose_box(handle, i, box_ref)
                char_origin(handle, i, ox_ref, oy_ref)
                n = font_info(handle, i, buffer, size, flags_ref)
                font = buffer.raw[: max(n - 1, 0)].decode("utf-8", "replace")
                ax, ay, bx, by = box.left - left, top - box.top, box.right - left, top - box.bottom
                if char_matrix(handle, i, matrix_ref):
                    a, b = matrix.a, matrix.b
                    scale = abs(a * matrix.d - b * matrix.c) ** 0.5
                    length = (a * a + b * b) ** 0.5 or 1.0
                    direction = (a / length, -b / length)
                else:
                    scale, direction = 1.0, (1.0, 0.0)
                out.append(
                    {
                        "text": chr(code) if code else "",
                        "bbox": (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)),
                        "origin": (ox.value - left, top - oy.value),
                        "size": font_size(handle, i) * scale,
                        "dir": direction,
                        "font": font.split("+", 1)[-1],
                        "generated": bool(generated(handle, i)),
                    }
                )
            tp.close()
            line, previous = 0, None
            for ch in out:
                if ch["text"] in ("\r", "\n"):
                    if previous is not None:
                        line += 1
                    previous = None
                    continue
                if ch["generated"]:
                    ch["line"] = line
                    continue
                if previous is not None and _gap(previous["bbox"], ch["bbox"]) > 0.6 * max(ch["size"], 1):
                    line += 1  # a text of its own further along the baseline: a line of its own
                ch["line"] = line
                previous = ch
            self._chars = out
        return self._chars

    def _spans(self) -> list[dict[str, Any]]:
        """Return runs of printed characters of one font and size on one line (``chars``' lines:
        PDFium's line breaks, and a gap of more than 0.6 em along the baseline)."""
        spans: list[dict[str, Any]] = []
        current: dict[str, Any] | None = None
        for ch in self.chars():
            if ch["text"] in ("\r", "\n", "") or (ch["generated"] and not ch["text"].strip()):
                current = None
                continue
            x0, y0, x1, y1 = ch["bbox"]
            if (
                current is not None
                and current["line"] == ch["line"]
                and current["font"] == ch["font"]
                and abs(current["size"] - ch["size"]) < 0.01
            ):
                current["text"] += ch["text"]
                b = current["bbox"]
                current["bbox"] = (min(b[0], x0), min(b[1], y0), max(b[2], x1), max(b[3], y1))
            else:
                current = {k: ch[k] for k in ("text", "bbox", "origin", "size", "font", "dir", "line")}
                spans.append(current)
        return spans

    def _words(self) -> list[tuple[float, float, float, float, str, int, int, int]]:
        words: list[tuple[float, float, float, float, str, int, int, int]] = []
        current: list[dict[str, Any]] = []

        def flush() -> None:
            if current:
                text = "".join(c["text"] for c in current)
                boxes = [c["bbox"] for c in current]
                words.append(
                    (
                        min(b[0] for b in boxes),
                        min(b[1] for b in boxes),
                        max(b[2] for b in boxes),
                        max(b[3] for b in boxes),
                        text,
                        0,
                        current[0]["line"],
                        len(words),
                    )
                )
                current.clear()

        for ch in self.chars():
            if ch["text"] in WORD_BREAKS or (ch["generated"] and not ch["text"].strip()):
                flush()
                continue
            if current and current[-1]["line"] != ch["line"]:
                flush()
            current.append(ch)
        flush()
        return words

    def get_text(self, kind: str = "text") -> Any:
        """Return the page's text: "text" a string, "words" word tuples, "dict" blocks/lines/spans."""
        if kind == "text":
            tp = self._page.get_textpage()
            text = tp.get_text_range().replace("\r\n", "\n").replace("\r", "\n")
            tp.close()
            return text
        if kind == "words":
            return self._words()
        if kind == "dict":
            lines: list[dict[str, Any]] = []
            for span in self._spans():
                if not lines or lines[-1]["number"] != span["line"]:
                    lines.append(
                        {"number": span["line"], "spans": [], "bbox": span["bbox"], "dir": span["dir"]}
                    )
                line = lines[-1]
                line["spans"].append(span)
                b, s = line["bbox"], span["bbox"]
                line["bbox"] = (min(b[0], s[0]), min(b[1], s[1]), max(b[2], s[2]), max(b[3], s[3]))
            return {
                "width": self.rect.width,
                "height": self.rect.height,
                "blocks": [{"type": 0, "bbox": ln["bbox"], "lines": [ln]} for ln in lines],
            }
        raise ValueError(f"unknown text kind {kind!r}")

    # -- page objects --------------------------------------------------------------------------
    def _objects(self) -> Iterator[tuple[Any, Matrix]]:
        """Yield every page object (forms followed) with its matrix to page space."""

        def walk(count: int, get: Any, outer: Matrix) -> Iterator[tuple[Any, Matrix]]:
            for i in range(count):
                obj = get(i)
                m = _mul(_matrix(obj), outer)
                if raw.FPDFPageObj_GetType(obj) == raw.FPDF_PAGEOBJ_FORM:
                    yield from walk(
                        raw.FPDFFormObj_CountObjects(obj), lambda j, o=obj: raw.FPDFFormObj_GetObject(o, j), m
                    )
                else:
                    yield obj, m

        page = self._page
        yield from walk(
            raw.FPDFPage_CountObjects(page), lambda i: raw.FPDFPage_GetObject(page, i), (1, 0, 0, 1, 0, 0)
        )

    def get_drawings(self) -> list[dict[str, Any]]:
        """Return every painted path (see the module's docstring)."""
        out = []
        for obj, m in self._objects():
            if raw.FPDFPageObj_GetType(obj) != raw.FPDF_PAGEOBJ_PATH:
                continue
            fillmode, stroke = ctypes.c_int(), ctypes.c_int()
            raw.FPDFPath_GetDrawMode(obj, ctypes.byref(fillmode), ctypes.byref(stroke))
            if not fillmode.value and not stroke.value:
                continue

            def to_page(x: float, y: float, m: Matrix = m) -> Point:
                a, b, c, d, e, f = m
                return self._pt(a * x + c * y + e, b * x + d * y + f)

            subpaths: list[tuple[list[tuple[str, list[Point]]], bool]] = []
            for i in range(raw.FPDFPath_CountSegments(obj)):
                seg = raw.FPDFPath_GetPathSegment(obj, i)
                x, y = ctypes.c_float(), ctypes.c_float()
                raw.FPDFPathSegment_GetPoint(seg, ctypes.byref(x), ctypes.byref(y))
                point = to_page(x.value, y.value)
                kind = raw.FPDFPathSegment_GetType(seg)
                if kind == raw.FPDF_SEGMENT_MOVETO or not subpaths:
                    subpaths.append(([("m", [point])], False))
                elif kind == raw.FPDF_SEGMENT_BEZIERTO:
                    ops = subpaths[-1][0]
                    if ops[-1][0] == "b" and len(ops[-1][1]) < 3:
                        ops[-1][1].append(point)
                    else:
                        ops.append(("b", [point]))
                else:
                    subpaths[-1][0].append(("l", [point]))
                if raw.FPDFPathSegment_GetClose(seg):
                    subpaths[-1] = (subpaths[-1][0], True)
            items: list[tuple[Any, ...]] = []
            points: list[Point] = []
            for ops, closed in subpaths:
                pts = [p for _, ps in ops for p in ps]
                points += pts
                corners = [ps[-1] for _, ps in ops]
                # PDFium reads an "re" operator as a move, four lines back to the start and a close
                if (
                    closed
                    and len(ops) == 5
                    and all(op in ("m", "l") for op, _ in ops)
                    and corners[-1] == corners[0]
                    and _axis_aligned(corners[:4])
                ):
                    xs, ys = [p.x for p in corners], [p.y for p in corners]
                    items.append(("re", Rect(min(xs), min(ys), max(xs), max(ys))))
                    continue
                last = ops[0][1][0]
                for op, ps in ops[1:]:
                    if op == "l":
                        items.append(("l", last, ps[0]))
                    else:
                        items.append(("c", last, *ps))
                    last = ps[-1]
                if closed and last != ops[0][1][0]:
                    items.append(("l", last, ops[0][1][0]))
            if not points:
                continue
            a, b, c, d = m[:4]
            scale = abs(a * d - b * c) ** 0.5
            fill, fill_alpha = _colour(obj, raw.FPDFPageObj_GetFillColor)
            colour, _ = _colour(obj, raw.FPDFPageObj_GetStrokeColor)
            width = ctypes.c_float()
            raw.FPDFPageObj_GetStrokeWidth(obj, ctypes.byref(width))
            if (
                stroke.value
                and not fillmode.value
                and out
                and out[-1]["type"] == "f"
                and out[-1]["items"] == items
            ):  # a fill, then a stroke of the same path: one drawing, filled and stroked
                out[-1].update(color=colour, width=width.value * scale, type="fs")
                continue
            out.append(
                {
                    "items": items,
                    "rect": Rect(
                        min(p.x for p in points),
                        min(p.y for p in points),
                        max(p.x for p in points),
                        max(p.y for p in points),
                    ),
                    "fill": fill if fillmode.value else None,
                    "color": colour if stroke.value else None,
                    "width": width.value * scale if stroke.value else None,
                    "fill_opacity": fill_alpha if fillmode.value else None,
                    "type": ("f" if fillmode.value else "") + ("s" if stroke.value else ""),
                }
            )
        return out

    def get_images(self) -> list[Rect]:
        """Return the box each image is drawn over (one per drawing, however often it is stored)."""
        out = []
        for obj, m in self._objects():
            if raw.FPDFPageObj_GetType(obj) == raw.FPDF_PAGEOBJ_IMAGE:
                a, b, c, d, e, f = m
                corners = [self._pt(a * x + c * y + e, b * x + d * y + f) for x in (0, 1) for y in (0, 1)]
                xs, ys = [p.x for p in corners], [p.y for p in corners]
                out.append(Rect(min(xs), min(ys), max(xs), max(ys)))
        return out

    def get_pixmap(self, dpi: int = 72, gray: bool = False) -> Pixmap:
        """Return the page rasterised at dpi (grey or RGB)."""
        bitmap = self._page.render(scale=dpi / 72, grayscale=gray, rev_byteorder=True)
        return Pixmap(bitmap)


def _gap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Return the distance between two boxes (0 when they touch or overlap)."""
    return max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3], 0.0)


def _axis_aligned(corners: list[Point]) -> bool:
    for p, q in zip(corners, corners[1:] + corners[:1]):
        if abs(p.x - q.x) > 1e-3 and abs(p.y - q.y) > 1e-3:
            return False
    return True


class Document:
    """A PDF opened for reading: len(), indexing and iteration give Pages."""

    def __init__(self, source: str | os.PathLike[str] | bytes) -> None:
        self._pdf = pdfium.PdfDocument(source if isinstance(source, bytes) else os.fspath(source))
        self._pages: dict[int, Page] = {}

    @property
    def page_count(self) -> int:
        """Return the number of pages."""
        return len(self._pdf)

    def __len__(self) -> int:
        return len(self._pdf)

    def __getitem__(self, index: int) -> Page:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        if index not in self._pages:
            self._pages[index] = Page(self._pdf[index])
        return self._pages[index]

    def __iter__(self) -> Iterator[Page]:
        return (self[i] for i in range(len(self)))

    def __enter__(self) -> Document:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the document."""
        self._pages.clear()
        self._pdf.close()


def open_pdf(path: str | os.PathLike[str] | None = None, *, stream: bytes | None = None) -> Document:
    """Return a Document read from a path or from bytes."""
    return Document(stream if stream is not None else path)  # type: ignore[arg-type]


def mm(points: float) -> float:
    """Return a PDF length in points as millimetres."""
    return points * 25.4 / 72


def trim_box(page: Any) -> tuple[float, float, float, float]:
    """Return a pypdf page's trim box in mm from its top left corner (x0, y0, x1, y1)."""
    box, height = page.trimbox, float(page.mediabox.height)
    return (
        mm(float(box.left)),
        mm(height - float(box.top)),
        mm(float(box.right)),
        mm(height - float(box.bottom)),
    )


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tol: int = 40) -> bool:
    """Return whether a pixel's red, green and blue are each within ``tol`` of a colour's."""
    return all(abs(a - b) <= tol for a, b in zip(pixel[:3], colour, strict=True))
