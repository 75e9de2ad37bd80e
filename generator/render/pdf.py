"""PDF writer: the page model drawn with reportlab. Knows shapes, never games."""

from __future__ import annotations

import functools
import io
import itertools
import math
import os
import threading
from collections.abc import Iterable, Sequence
from typing import Any, BinaryIO

from reportlab.lib.colors import CMYKColor, Color, HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from generator.foundation.compat import (
    append_operators,
    canvas_document,
    compress_last_page,
    draw_stored_image,
    escape_text,
    last_image,
    path_paint,
)
from generator.foundation.errors import DefinitionError
from generator.model.colour import cmyk
from generator.model.fonts import pdf_font
from generator.model.inline import spoken
from generator.model.page import (
    IDENTITY,
    Box,
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
)
from generator.render.base import draw
from generator.render.pdfjoin import PdfJoiner

K = 72.0 / 25.4  # points per millimetre
KAPPA = 4 / 3 * (math.sqrt(2) - 1)  # a quarter circle's Bézier control distance, per unit radius
_CAPS = {"butt": 0, "round": 1, "square": 2}
_JOINS = {"miter": 0, "round": 1, "bevel": 2}
_colours: dict[str, Color] = {}
_cmyk_colours: dict[str, Color] = {}


def _colour(hexstr: str) -> Color:
    colour = _colours.get(hexstr)
    if colour is None:
        colour = _colours[hexstr] = HexColor(hexstr)
    return colour


def _cmyk_colour(hexstr: str) -> Color:
    colour = _cmyk_colours.get(hexstr)
    if colour is None:
        colour = _cmyk_colours[hexstr] = CMYKColor(*cmyk(hexstr))
    return colour


class _Painter:
    """A renderer onto a reportlab canvas that skips state changes repeating the current state;
    colours go as RGB, or as CMYK inks (``generator.model.colour.cmyk``) when ``cmyk``."""

    def __init__(
        self,
        canvas: Canvas,
        cmyk: bool = False,
        runs: dict[tuple[str, float, str], tuple[float, str]] | None = None,
        pictures: dict[bytes, Any] | None = None,
    ) -> None:
        self.c = canvas
        # per document: (font, size, text) -> the line's width and its font and show operators
        # (a face's subsets are numbered per document, so the same text gives the same codes)
        self.runs: dict[tuple[str, float, str], tuple[float, str]] = {} if runs is None else runs
        self.state: list[Any] = [None, None, None, None, None, None]  # stroke fill width dash cap join
        self.stack: list[list[Any]] = []
        self.colour = _cmyk_colour if cmyk else _colour
        self.cmyk = cmyk
        self.pictures: dict[bytes, Any] = {} if pictures is None else pictures

    def save(self) -> None:
        self.c.saveState()
        self.stack.append(self.state[:])

    def restore(self) -> None:
        self.c.restoreState()
        self.state = self.stack.pop()

    def style(self, style: Style) -> tuple[int, int]:
        c, st = self.c, self.state
        if style.stroke is not None:
            if st[0] != style.stroke:
                c.setStrokeColor(self.colour(style.stroke))
                st[0] = style.stroke
            if st[2] != style.width:
                c.setLineWidth(style.width)
                st[2] = style.width
            if st[3] != style.dash:
                c.setDash(list(style.dash) if style.dash else [])
                st[3] = style.dash
            if st[4] != style.cap:
                c.setLineCap(_CAPS[style.cap])
                st[4] = style.cap
            if st[5] != style.join:
                c.setLineJoin(_JOINS[style.join])
                st[5] = style.join
        if style.fill is not None and st[1] != style.fill:
            c.setFillColor(self.colour(style.fill))
            st[1] = style.fill
        return (1 if style.stroke is not None else 0, 1 if style.fill is not None else 0)

    def line(self, s: Line) -> None:
        """Draw a segment (nothing without a stroke colour)."""
        if s.style.stroke is not None:
            self.style(s.style)
            self.c.line(s.x1, s.y1, s.x2, s.y2)

    def rect(self, s: Rect) -> None:
        """Draw a rectangle, rounded when s.r."""
        st, fi = self.style(s.style)
        if st or fi:
            if s.r:
                self.c.roundRect(s.x, s.y, s.w, s.h, s.r, stroke=st, fill=fi)
            else:
                self.c.rect(s.x, s.y, s.w, s.h, stroke=st, fill=fi)

    def circle(self, s: Circle) -> None:
        """Draw a circle: four Bézier quarters from its rightmost point, the path reportlab's
        circle writes, without reportlab working out each arc again."""
        st, fi = self.style(s.style)
        if st or fi:
            x, y, r = s.cx, s.cy, s.r
            k = r * KAPPA
            append_operators(
                self.c,
                f"n\n{fp_str(x + r, y)} m\n"
                f"{fp_str(x + r, y + k, x + k, y + r, x, y + r)} c\n"
                f"{fp_str(x - k, y + r, x - r, y + k, x - r, y)} c\n"
                f"{fp_str(x - r, y - k, x - k, y - r, x, y - r)} c\n"
                f"{fp_str(x + k, y - r, x + r, y - k, x + r, y)} c\n" + path_paint(self.c, st, fi),
            )

    def polygon(self, s: Polygon) -> None:
        """Draw a polygon, or a polyline (never filled) when it is open."""
        st, fi = self.style(s.style)
        if (st or fi) and s.points:
            c = self.c
            p = c.beginPath()
            x, y = s.points[0]
            p.moveTo(x, y)
            for x, y in s.points[1:]:
                p.lineTo(x, y)
            if s.closed:
                p.close()
            c.drawPath(p, stroke=st, fill=fi if s.closed else 0)

    def path(self, s: Path) -> None:
        """Draw a path of M, L, C and Z commands."""
        st, fi = self.style(s.style)
        if st or fi:
            # the operators reportlab's path object and drawPath write, without building the object
            parts = []
            for cmd in s.commands:
                op = cmd[0]
                if op == "M":
                    parts.append(f"{fp_str(cmd[1], cmd[2])} m")
                elif op == "L":
                    parts.append(f"{fp_str(cmd[1], cmd[2])} l")
                elif op == "C":
                    parts.append(f"{fp_str(*cmd[1:])} c")
                elif op == "Z":
                    parts.append("h")
            c = self.c
            append_operators(c, "n " + " ".join(parts) if parts else "")
            append_operators(c, path_paint(c, st, fi))

    def _path(self, commands: Sequence[tuple[Any, ...]]) -> Any:
        """Return a reportlab path object of path commands (M, L, C, Z)."""
        p = self.c.beginPath()
        for cmd in commands:
            op = cmd[0]
            if op == "M":
                p.moveTo(cmd[1], cmd[2])
            elif op == "L":
                p.lineTo(cmd[1], cmd[2])
            elif op == "C":
                p.curveTo(*cmd[1:])
            elif op == "Z":
                p.close()
        return p

    def begin_group(
        self,
        transform: Matrix,
        clip: tuple[float, float, float, float] | None,
        outline: tuple[tuple[Any, ...], ...] | None = None,
    ) -> None:
        """Save the graphics state, then apply the transform, the clip and the clip outline."""
        self.save()
        if transform != IDENTITY:
            self.c.transform(*transform)
        if clip is not None:
            p = self.c.beginPath()
            p.rect(*clip)
            self.c.clipPath(p, stroke=0, fill=0)
        if outline is not None:
            self.c.clipPath(self._path(outline), stroke=0, fill=0)

    def end_group(self) -> None:
        """Restore the graphics state saved by the matching begin_group."""
        self.restore()

    def image(self, s: Image) -> None:
        """Draw a picture over its box (flipped back, like text); each picture is stored once per
        document however often it is drawn (reportlab keeps one image object per picture's pixels,
        and the file is read once a document). Under ``cmyk`` the picture goes as CMYK pixels."""
        c = self.c
        c.saveState()
        c.transform(1, 0, 0, -1, s.x, s.y + s.h)
        try:
            stored = self.pictures.get(s.data)
            if stored is not None and s.w > 0 and s.h > 0:
                # drawn before in this document: what drawImage writes for a stored image, without
                # its hashing the pixels again to find it
                draw_stored_image(c, stored[1], s.w, s.h)
                return
            reader = stored[0] if stored is not None else _reader(s.data, self.cmyk)
            c.drawImage(reader, 0, 0, s.w, s.h, mask="auto")
            self.pictures[s.data] = (reader, last_image(c))
        except MemoryError:  # out of the build's memory (generator.workers.parallel.memory_cap): said there
            raise
        except Exception as exc:  # a picture whose header reads but whose data does not
            raise DefinitionError(f"an image cannot be read: {exc}") from None
        finally:
            c.restoreState()

    def text(self, s: Text) -> None:
        """Draw one line of text at its anchor (the canvas is flipped, so the text matrix flips
        the text back): one BT ... ET block with the face's subsets, as reportlab writes them."""
        c = self.c
        if self.state[1] != s.colour:
            c.setFillColor(self.colour(s.colour))
            self.state[1] = s.colour
        key = (s.font, s.size, s.text)
        run = self.runs.get(key)
        if run is None:
            font = _ttf(s.font)
            size = s.size / K
            doc = canvas_document(c)
            operators = " ".join(
                f"{font.getSubsetInternalName(subset, doc)} {fp_str(size)} Tf ({escape_text(c, chunk)}) Tj"
                for subset, chunk in font.splitString(s.text, doc)
            )
            run = self.runs[key] = (font.stringWidth(s.text, size), operators + " " if operators else "")
        width, shows = run
        x = s.x
        if s.anchor == "middle":
            x -= width / 2
        elif s.anchor == "end":
            x -= width
        append_operators(c, f"BT 1 0 0 -1 {fp_str(x)} {fp_str(s.y)} Tm {shows}ET")


def _reader(data: bytes, cmyk: bool) -> Any:
    """Return reportlab's reader of a PNG or JPEG file's bytes; with ``cmyk`` its pixels are
    converted to CMYK inks by the same plain conversion as every colour under --cmyk
    (``generator.model.colour.cmyk``: K = 1 - max(R, G, B), C = (1 - R - K) / (1 - K), ...; greys
    on black ink alone), through Pillow, keeping the picture's transparency as its soft mask."""
    from reportlab.lib.utils import ImageReader

    if not cmyk:
        return ImageReader(io.BytesIO(data))
    from PIL import Image as PILImage

    with PILImage.open(io.BytesIO(data)) as opened:
        picture = opened.convert("RGBA")
    alpha = picture.getchannel("A")
    red, green, blue = picture.convert("RGB").split()
    ink = _cmyk_pixels(red, green, blue)
    lowest = alpha.getextrema()[0]
    mask = ImageReader(alpha) if isinstance(lowest, (int, float)) and lowest < 255 else None

    class _CmykReader(ImageReader):
        def getRGBData(self) -> Any:
            data = super().getRGBData()  # type: ignore[no-untyped-call]
            self._dataA = mask
            return data

    return _CmykReader(ink)


def _cmyk_pixels(red: Any, green: Any, blue: Any) -> Any:
    """Return a CMYK Pillow image from the three 8-bit channels of an RGB one, ink by ink as
    ``generator.model.colour.cmyk`` converts a colour (greys: black ink alone)."""
    from PIL import Image as PILImage
    from PIL import ImageChops, ImageMath

    brightest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    black = ImageChops.invert(brightest)

    def ink(channel: Any) -> Any:
        # (1 - v - k) / (1 - k) in 0..255: (max - v) * 255 / max, 0 where max is 0
        return ImageMath.lambda_eval(
            lambda e: e["convert"]((e["m"] - e["v"]) * 255.0 / (e["m"] + (e["m"] == 0)) + 0.5, "L"),
            m=brightest,
            v=channel,
        )

    return PILImage.merge("CMYK", (ink(red), ink(green), ink(blue), black))


@functools.cache
def _ttf(font: str) -> TTFont:
    """Return the reportlab TrueType face of a page-model font name."""
    return pdfmetrics.getFont(pdf_font(font))  # type: ignore[return-value]


PART = 250  # pages a long document is written in at a time


def write_pdf(
    pages: Iterable[Page],
    target: BinaryIO,
    title: str = "",
    boxes: bool = False,
    cmyk: bool = False,
    author: str = "pnp",
) -> int:
    """Draw pages into a PDF written to a binary file object, titled ``title`` with ``author`` as
    its author; return the number of pages.

    With ``boxes`` every page carries a TrimBox and a BleedBox (``page_boxes``); with ``cmyk``
    every colour is written as CMYK inks. A document of more than PART pages is written a part
    at a time and joined as it goes, so memory stays flat however long it is. The title's icons
    (``:coin:``) are written as their names: a PDF's metadata holds words."""
    title = spoken(title)
    # each page is drawn as it is taken from ``pages`` and let go once drawn: the first part goes
    # to a buffer until it is known whether a second part follows
    iterator = iter(pages)
    buffer = io.BytesIO()
    count = _write_part(itertools.islice(iterator, PART), buffer, title, boxes, cmyk, author)
    following = next(iterator, None)
    if following is None:
        target.write(buffer.getvalue())
        return count
    joiner = PdfJoiner(target)
    joiner.add(buffer.getvalue())
    while following is not None:
        buffer = io.BytesIO()
        part = itertools.chain((following,), itertools.islice(iterator, PART - 1))
        following = None
        count += _write_part(part, buffer, title, boxes, cmyk, author)
        joiner.add(buffer.getvalue())
        following = next(iterator, None)
    joiner.finish(title)
    return count


_ENVIRONMENT_LOCK = threading.Lock()


def _canvas(target: BinaryIO) -> Canvas:
    """Return a reportlab canvas in invariant mode writing to target."""
    return Canvas(
        target,
        invariant=1,
        pageCompression=1,
        pagesize=(595.0, 842.0),
        initialFontName=pdf_font("sans"),  # type: ignore[arg-type]  # a font name; the stubs say float
        initialFontSize=10,
    )


def page_boxes(page: Page) -> tuple[Box, Box]:
    """Return a page's trim and bleed boxes (x0, y0, x1, y1 in mm, origin at the top left): the
    trim is the bounding box of its cut-out parts' trims and the bleed box that grown by the
    page's bleed; a page without cut-out parts is trimmed to itself (it has no bleed)."""
    if not page.cuts:
        whole = (0.0, 0.0, page.width, page.height)
        return whole, whole
    trim = (
        min(c[0] for c in page.cuts),
        min(c[1] for c in page.cuts),
        max(c[2] for c in page.cuts),
        max(c[3] for c in page.cuts),
    )
    b = page.bleed
    return trim, (trim[0] - b, trim[1] - b, trim[2] + b, trim[3] + b)


def _pdf_box(box: Box, page: Page) -> tuple[float, float, float, float]:
    """Return a box in mm from the top left as a PDF box in points from the bottom left."""
    x0, y0, x1, y1 = box
    return tuple(round(v, 4) for v in (x0 * K, (page.height - y1) * K, x1 * K, (page.height - y0) * K))  # type: ignore[return-value]


def _write_part(
    pages: Iterable[Page],
    target: BinaryIO,
    title: str = "",
    boxes: bool = False,
    cmyk: bool = False,
    author: str = "pnp",
) -> int:
    """Draw pages into one reportlab document; return the number of pages."""
    with _ENVIRONMENT_LOCK:
        # reportlab dates (and fingerprints) a document from SOURCE_DATE_EPOCH when it is set, even
        # in invariant mode; pnp ignores it so files are byte-identical whatever the environment
        saved = os.environ.pop("SOURCE_DATE_EPOCH", None)
        try:
            canvas = _canvas(target)
        finally:
            if saved is not None:
                os.environ["SOURCE_DATE_EPOCH"] = saved
    canvas.setCreator("pnp")
    canvas.setProducer("pnp")
    canvas.setAuthor(author)
    if title:
        canvas.setTitle(title)
    count = 0
    runs: dict[tuple[str, float, str], tuple[float, str]] = {}
    pictures: dict[bytes, Any] = {}  # a picture's file -> its decoded pixels, once a document
    for page in pages:
        canvas.setPageSize((page.width * K, page.height * K))
        if boxes:
            trim, bleed = page_boxes(page)
            canvas.setTrimBox(_pdf_box(trim, page))
            canvas.setBleedBox(_pdf_box(bleed, page))
        canvas.transform(K, 0, 0, -K, 0, page.height * K)
        draw(page.shapes, _Painter(canvas, cmyk, runs, pictures))
        canvas.showPage()
        compress_last_page(canvas)
        count += 1
    if count == 0:
        raise ValueError("a PDF needs at least one page")
    canvas.save()
    return count
