"""Paper and imposition: sizes, margins, placing artwork on sheets, tiling, n-up sheets with cut
lines, duplex backs and saddle-stitch booklet order. Works on Drawings; knows no games."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

from generator.foundation.errors import DefinitionError, UsageError
from generator.foundation.languages import DEFAULT_LANGUAGE, set_text, texts_of
from generator.foundation.languages import text as catalogue_text
from generator.model import inline
from generator.model.page import (
    Box,
    Circle,
    Drawing,
    DrawnPages,
    Group,
    Line,
    Page,
    Path,
    Point,
    Polygon,
    Rect,
    Shape,
    Style,
    Text,
    bounds,
    iter_shapes,
    multiply,
    scale,
    stroke,
    text_ink_box,
    translate,
)
from generator.model.stored import StoredDrawing

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
DEFAULT_MARGIN = 10.0  # mm; home printers need at least 6.35 mm
SAFE = 6.5  # mm from the paper's edge that no ink comes closer than
CROP = 6.0  # mm, the longest crop mark
SAFE_AREA = 2.0  # mm text and symbols keep inside the cut of a part printed for a print shop (--bleed)
CUT = stroke("#9a9a9a", 0.2)
MARK = stroke("#000000", 0.25)
GLUE = Style(stroke="#b0b0b0", fill="#f1f1f1", width=0.2, dash=(2.0, 1.5))
FOOT = 7.0  # text size (pt) of sheet footers
MIN_FOOT = 6.0  # the smallest a footer's type may shrink to
SCALE_BAR = 30.0  # mm, the length of the scale check bar in every footer
SCALE_SIZE = 6.5  # pt, the scale check's text


@dataclass(frozen=True)
class Paper:
    """A sheet of paper: size in mm (portrait unless turned) and a printer-safe margin."""

    name: str
    width: float
    height: float
    margin: float = DEFAULT_MARGIN

    @property
    def printable(self) -> tuple[float, float]:
        """Return the printable width and height in mm."""
        return (self.width - 2 * self.margin, self.height - 2 * self.margin)

    def with_margin(self, margin: float) -> Paper:
        """Return the same sheet with another margin (a definition's, validated by its schema)."""
        return Paper(self.name, self.width, self.height, margin)

    def landscape(self) -> Paper:
        """Return the same paper turned to landscape."""
        return Paper(self.name, max(self.width, self.height), min(self.width, self.height), self.margin)

    def portrait(self) -> Paper:
        """Return the same paper turned to portrait."""
        return Paper(self.name, min(self.width, self.height), max(self.width, self.height), self.margin)

    def half(self) -> Paper:
        """Return the page half this sheet makes when folded (A4 gives A5), portrait."""
        w, h = min(self.width, self.height), max(self.width, self.height)
        return Paper(self.name + "-half", h / 2, w, self.margin)


def find_paper(name: str, margin: float = DEFAULT_MARGIN) -> Paper:
    """Return the portrait paper of a name ('a4' or 'letter'); raise UsageError otherwise."""
    key = name.lower()
    if key not in PAPERS:
        raise UsageError(f"unknown paper {name!r} (known: {', '.join(PAPERS)})")
    if margin < 6.35:
        raise UsageError(f"margin {margin} mm is below the 6.35 mm home printers need")
    w, h = PAPERS[key]
    return Paper(key, w, h, margin)


def footer_baseline(page: Page, paper: Paper) -> float:
    """Return the y of the footer's baseline: inside the bottom margin, clear of the crop marks."""
    return page.height - max(SAFE + 0.6, paper.margin - 2.5)


FOOT_CLEAR = 1.5  # mm the cut-out parts of a sheet keep above its footer's text


def parts_bottom(paper: Paper) -> float:
    """Return the lowest y the cut-out parts of a sheet may reach: the bottom of the printable
    area, or FOOT_CLEAR above the footer's text where the footer rises above it."""
    baseline = paper.height - max(SAFE + 0.6, paper.margin - 2.5)  # footer_baseline's
    return min(paper.height - paper.margin, baseline - FOOT * 0.76 * 25.4 / 72 - FOOT_CLEAR)


def scale_zone() -> float:
    """Return the width in mm the scale check takes at the right of a footer (any language)."""
    from generator.model.fonts import text_width

    widest = max(
        text_width(t.format(n=f"{SCALE_BAR:g}"), "sans", SCALE_SIZE) for t in texts_of("scale.check")
    )
    return SCALE_BAR + 1.5 + widest


def footer(page: Page, paper: Paper, text: str, icons: inline.Icons | None = None) -> Page:
    """Return the page with a small footer line inside its bottom margin, left of the scale check
    (the page itself when there is no text). The text's icons (a game's title ``"My :moon:
    Game"``) are drawn from ``icons``; without them they are written as their names."""
    if not text:
        return page
    room = page.width - 2 * paper.margin - scale_zone() - 4.0
    y = footer_baseline(page, paper)
    if icons is None or not inline.has_icons(text):
        text = inline.spoken(text)
        size = inline.fitted_size(text, room, FOOT, "sans", MIN_FOOT)
        return page.plus(Text(paper.margin, y, text, size, "sans", "start", "#555555"))
    size = inline.fitted_size(text, room, FOOT, "sans", MIN_FOOT)
    return page.plus(*inline.line_shapes(paper.margin, y, text, size, "sans", "start", "#555555", icons))


def scale_bar(page: Page, paper: Paper, lang: str) -> Page:
    """Return the page with the scale check in its footer: a bar of SCALE_BAR mm in 10 mm steps,
    at the right, with its length and what to do if it measures otherwise."""
    y = footer_baseline(page, paper)
    right = page.width - paper.margin
    left = right - SCALE_BAR
    h = 1.6
    ink = "#000000"
    shapes: list = []
    steps = int(SCALE_BAR // 10)
    for i in range(steps):
        colour = ink if i % 2 == 0 else "#ffffff"
        shapes.append(Rect(left + i * 10.0, y - h, 10.0, h, Style(stroke=None, fill=colour)))
    shapes.append(Rect(left, y - h, SCALE_BAR, h, Style(stroke=ink, width=0.2)))
    text = catalogue_text("scale.check", lang, n=f"{SCALE_BAR:g}")
    shapes.append(Text(left - 1.5, y, text, SCALE_SIZE, "sans", "end", "#333333"))
    return page.plus(Group(tuple(shapes)))


def is_paper_page(page: Page, paper: Paper) -> bool:
    """Return True when a page has the paper's size (either way round): a sheet that is printed."""
    return sorted((round(page.width, 2), round(page.height, 2))) == sorted(
        (round(paper.width, 2), round(paper.height, 2))
    )


def place(
    drawing: Drawing,
    paper: Paper,
    fit: bool = False,
    label: str = "",
    bleed: float = 0.0,
    lang: str = DEFAULT_LANGUAGE,
    icons: inline.Icons | None = None,
) -> list[Page]:
    """Return pages holding a drawing at true size, centred, turning the paper if that helps.

    A drawing larger than the printable area is tiled over several sheets, or, with ``fit``,
    scaled down onto one sheet with the scale printed in the footer. With a ``bleed`` the art
    runs that far beyond the drawing's edge, crop marks sit outside the bleed and the page records
    its trim; the bleed may take the margin down to SAFE from the paper's edge (it is cut away),
    so a board sized to the printable area still fits (a white rim needs no room at all). The
    footers are in ``lang``, their icons drawn from ``icons`` (``footer``)."""
    room = _bleed_room(drawing, paper, bleed)
    for sheet in (paper.portrait(), paper.landscape()):
        if _holds(sheet, drawing, room):
            page = Page(sheet.width, sheet.height, label=label)
            x, y = (sheet.width - drawing.width) / 2, (sheet.height - drawing.height) / 2
            if bleed:
                page = _trimmed(page, with_bleed(drawing, bleed), x, y, 1.0, bleed)
            else:
                page = page.plus(drawing.placed(x, y))
            return [footer(page, sheet, set_text(label, lang), icons)]
    if fit:
        best, k = _fitted(drawing, paper, room)
        page = Page(best.width, best.height, label=label)
        w, h = drawing.width * k, drawing.height * k
        if bleed:
            page = _trimmed(
                page, with_bleed(drawing, bleed / k), (best.width - w) / 2, (best.height - h) / 2, k, bleed
            )
        else:
            page = page.plus(drawing.placed((best.width - w) / 2, (best.height - h) / 2, k))
        page = footer(
            page,
            best,
            catalogue_text("footer.scaled", lang, label=label, percent=f"{k * 100:.0f}").strip(),
            icons,
        )
        return [page]
    return tile(drawing, paper, label, bleed=bleed, lang=lang, icons=icons)


def fit_scale(drawing: Drawing, paper: Paper, bleed: float = 0.0) -> float:
    """Return the scale ``place`` draws a drawing at with ``fit``: 1.0 when it fits a sheet of the
    paper at true size (with room for its bleed), else the factor that shrinks it onto one sheet.
    Under a bleed the bleed itself stays at true size: art that carries its own bleed (a picture
    fitted to the cut and the bleed) is drawn with ``bleed / fit_scale`` to print it so."""
    room = _bleed_room(drawing, paper, bleed)
    if any(_holds(sheet, drawing, room) for sheet in (paper.portrait(), paper.landscape())):
        return 1.0
    return _fitted(drawing, paper, room)[1]


def _bleed_room(drawing: Drawing, paper: Paper, bleed: float) -> float:
    """Return the room a drawing's bleed takes beyond the printable area on both sides together."""
    return 2 * max(0.0, bleed - (paper.margin - SAFE)) if bleed_shapes(drawing, bleed) else 0.0


def _holds(sheet: Paper, drawing: Drawing, room: float) -> bool:
    """Return whether the sheet's printable area holds the drawing at true size with the room."""
    pw, ph = sheet.printable
    return drawing.width + room <= pw + 1e-6 and drawing.height + room <= ph + 1e-6


def _fitted(drawing: Drawing, paper: Paper, room: float) -> tuple[Paper, float]:
    """Return the sheet (portrait or landscape) that takes the drawing scaled down largest, and
    the scale."""
    best = max(
        (paper.portrait(), paper.landscape()),
        key=lambda s: min((s.printable[0] - room) / drawing.width, (s.printable[1] - room) / drawing.height),
    )
    pw, ph = best.printable
    return best, min((pw - room) / drawing.width, (ph - room) / drawing.height)


def _trimmed(page: Page, drawing: Drawing, x: float, y: float, k: float, bleed: float) -> Page:
    """Return the page with a drawing (already bled) at (x, y) scaled by k, as its one cut-out
    part with crop marks at its corners outside the bleed."""
    x1, y1 = x + drawing.width * k, y + drawing.height * k
    return replace(
        page,
        shapes=(
            *page.shapes,
            drawing.placed(x, y, k),
            *_crop_marks(page.width, page.height, [x, x1], [y, y1], bleed),
        ),
        cuts=((x, y, x1, y1),),
        bleed=bleed,
    )


def _crop_marks(
    width: float,
    height: float,
    xs: list[float],
    ys: list[float],
    bleed: float,
    extent: tuple[float, float, float, float] | None = None,
) -> list[Shape]:
    """Return crop marks in the margins of a page of width x height mm on the lines x in xs and y in ys (the cuts of the
    parts between min and max of each): up to CROP mm long, from 1 mm outside the bleed, never
    into the unprintable rim nor the footer (none without lines); ``extent`` (left, top, right,
    bottom): the parts' whole extent where more parts than these lines' lie on the page."""
    if not xs or not ys:
        return []
    left, top, right, bottom = extent or (min(xs), min(ys), max(xs), max(ys))
    off = bleed + 1.0
    foot = height - SAFE - 3.5  # the footer line sits below this
    up, down = top - bleed - SAFE, foot - bottom - bleed
    in_, out = left - bleed - SAFE, width - SAFE - right - bleed
    marks: list[Shape] = []
    for x in sorted(xs):
        if up > 2.0:
            marks.append(Line(x, max(SAFE, top - off - CROP), x, top - off, MARK))
        if down > 2.0:
            marks.append(Line(x, bottom + off, x, min(foot, bottom + off + CROP), MARK))
    for y in sorted(ys):
        if in_ > 2.0:
            marks.append(Line(max(SAFE, left - off - CROP), y, left - off, y, MARK))
        if out > 2.0:
            marks.append(Line(right + off, y, min(width - SAFE, right + off + CROP), y, MARK))
    return marks


FOOT_ROOM = 5.0  # mm a tile keeps free above the footer line
MAX_TILES = 100  # sheets one drawing may be tiled over


def tile(
    drawing: Drawing,
    paper: Paper,
    label: str = "",
    overlap: float = 10.0,
    bleed: float = 0.0,
    lang: str = DEFAULT_LANGUAGE,
    icons: inline.Icons | None = None,
) -> list[Page]:
    """Return the tiles of a drawing too big for one sheet, each with a glue strip and marks.

    Each tile shows a part of the drawing; neighbouring tiles repeat ``overlap`` mm of it. On every
    tile but those of the first column (row) the repeated strip at the left (top) is shaded as the
    glue strip: cut the previous tile along its edge and lay it over the strip, aligning the marks.
    The seams (the edges that stay visible) are placed where they cut no text and no small mark.
    With a ``bleed`` every tile shows that much more of the drawing round its cut, and its marks
    sit outside it."""
    least = min(
        math.ceil(drawing.width / (sheet.printable[0] - 2 * bleed - overlap))
        * math.ceil(drawing.height / (sheet.printable[1] - 2 * bleed - FOOT_ROOM - overlap))
        for sheet in (paper.portrait(), paper.landscape())
    )
    if least > MAX_TILES:  # checked before the tiles are planned: a huge drawing fails at once
        raise DefinitionError(
            f"{label or 'a drawing'} is {drawing.width:.0f} x {drawing.height:.0f} mm: it would need "
            f"about {least} sheets (at most {MAX_TILES}); make it smaller or build with --fit"
        )
    best: tuple[int, Paper, list[tuple[float, float]], list[tuple[float, float]]] | None = None
    xs, ys, texts = _obstacles(drawing)
    text_xs = [(b[0], b[2]) for b in texts]
    text_ys = [(b[1], b[3]) for b in texts]
    for sheet in (paper.portrait(), paper.landscape()):
        pw, ph = sheet.printable
        pw -= 2 * bleed
        ph -= FOOT_ROOM + 2 * bleed
        cols = _spans(drawing.width, pw, overlap, xs, text_xs)
        rows = _spans(drawing.height, ph, overlap, ys, text_ys)
        if best is None or len(cols) * len(rows) < best[0]:
            best = (len(cols) * len(rows), sheet, cols, rows)
    assert best is not None
    _, sheet, cols, rows = best
    pages: list[Page] = []
    for r, (oy, y_end) in enumerate(rows):
        for c, (ox, x_end) in enumerate(cols):
            w, h = x_end - ox, y_end - oy
            mx, my = sheet.margin + bleed, sheet.margin + bleed
            cuts: tuple[Box, ...] = ()
            if bleed:
                clip = (ox - bleed, oy - bleed, w + 2 * bleed, h + 2 * bleed)
                art = with_bleed(drawing, bleed).shapes
                cuts = ((mx, my, mx + w, my + h),)
            else:
                clip, art = (ox, oy, w, h), drawing.shapes
            shapes: list[Shape] = [Group(art, translate(mx - ox, my - oy), clip=clip)]
            if c > 0:
                shapes.append(Rect(mx, my, overlap, h, GLUE))
                at = _glue_label_at((ox, oy, ox + overlap, oy + h), texts)
                shapes.append(
                    Text(mx + overlap / 2, my + at, "glue", GLUE_LABEL, "sans", "middle", "#777777")
                )
            if r > 0:
                shapes.append(Rect(mx, my, w, overlap, GLUE))
            shapes.append(Rect(mx, my, w, h, CUT))
            for x, sx in ((mx, -1), (mx + w, 1)):
                for y, sy in ((my, -1), (my + h, 1)):
                    shapes.extend(_corner(x, y, sx, sy, 3.0, bleed + 0.5 if bleed else 0.0))
            page = Page(
                sheet.width,
                sheet.height,
                tuple(shapes),
                label=f"{label} tile r{r + 1}c{c + 1}",
                cuts=cuts,
                bleed=bleed,
            )
            page = footer(
                page,
                sheet,
                catalogue_text(
                    "footer.tile",
                    lang,
                    label=label,
                    row=r + 1,
                    rows=len(rows),
                    column=c + 1,
                    columns=len(cols),
                ),
                icons,
            )
            pages.append(page)
    return pages


Spans = list[tuple[float, float]]
GLUE_LABEL = 7.0  # pt, the "glue" label down a glue strip


def _glue_label_at(strip: Box, texts: list[Box]) -> float:
    """Return the baseline (mm from the strip's top) of the "glue" label of a glue strip (x0, y0,
    x1, y1 in the drawing's mm): the place nearest the strip's middle where it lies clear of the
    art's texts under the strip (the strip is glued under the neighbour, but printed it must not
    set the label over a box number); the middle when no place is clear."""
    from generator.model.fonts import text_width

    x0, y0, x1, y1 = strip
    half = text_width("glue", "sans", GLUE_LABEL) / 2 + 0.5
    em = GLUE_LABEL * 25.4 / 72
    cx = (x0 + x1) / 2
    under = [b for b in texts if b[0] < cx + half and b[2] > cx - half and b[3] > y0 and b[1] < y1]
    middle = (y1 - y0) / 2
    steps = int(middle)
    for step in sorted(range(-steps, steps + 1), key=lambda k: (abs(k), k)):
        base = middle + step
        top, bottom = y0 + base - 0.75 * em - 0.5, y0 + base + 0.25 * em + 0.5
        if top < y0 or bottom > y1:
            continue
        if not any(b[1] < bottom and b[3] > top for b in under):
            return base
    return middle


def _obstacles(drawing: Drawing) -> tuple[Spans, Spans, list[Box]]:
    """Return the x and the y extents of the drawing's texts and small filled marks, and the
    boxes of its texts alone (seams avoid them): a text by its ink (``model.page.text_ink_box``,
    as the layout check measures it), not its advance, so a seam may pass between a box's number
    and the arrow beside it."""
    xs: Spans = []
    ys: Spans = []
    texts: list[Box] = []
    for shape, m in iter_shapes(drawing.shapes):
        if isinstance(shape, Text):
            if not shape.text.strip():
                continue
            x0, y0, x1, y1 = box = text_ink_box(shape, m)
            texts.append(box)
        elif isinstance(shape, (Circle, Polygon, Path)) and shape.style.fill is not None:
            mark = bounds((shape,), m)
            if mark is None:
                continue
            x0, y0, x1, y1 = mark
            if (x1 - x0) * (y1 - y0) > 150.0:
                continue
        else:
            continue
        xs.append((x0, x1))
        ys.append((y0, y1))
    return xs, ys, texts


def _spans(length: float, room: float, overlap: float, blocked: Spans, texts: Spans | None = None) -> Spans:
    """Return (start, end) of each tile along one axis: at most ``room`` long, overlapping by
    ``overlap``, each seam (an end) placed as far on as it can go without cutting a blocked span;
    where every place would cut one, as far on as it can go without cutting a text of ``texts``
    (a small mark may be cut, a number never), and only where that too fails at the full width."""
    spans: Spans = []
    start = 0.0
    while True:
        if length - start <= room + 1e-6:
            spans.append((start, length))
            return spans
        limit = start + room
        least = start + overlap + room * 0.4
        seam = next(
            (s for s in (_clear_seam(limit, blocked), _clear_seam(limit, texts or [])) if s >= least), limit
        )
        spans.append((start, seam))
        start = seam - overlap


SEAM_CLEAR = 0.6  # mm a seam keeps from what it must not cut


def _clear_seam(limit: float, blocked: Iterable[tuple[float, float]]) -> float:
    """Return the furthest place at or before ``limit`` that lies SEAM_CLEAR mm off every blocked
    span (lo, hi)."""
    seam = limit
    for lo, hi in sorted(blocked, key=lambda b: -b[1]):
        if lo - SEAM_CLEAR < seam < hi + SEAM_CLEAR:
            seam = lo - SEAM_CLEAR
    return seam


def _corner(x: float, y: float, sx: int, sy: int, size: float = 3.0, away: float = 0.0) -> tuple[Line, Line]:
    """Return a corner mark pointing away from the tile (starting ``away`` mm off the corner:
    outside a bleed), so no mark lies on the artwork."""
    a = away
    return (
        Line(x + sx * a, y, x + sx * (a + size), y, MARK),
        Line(x, y + sy * a, x, y + sy * (a + size), MARK),
    )


def bleed_shapes(drawing: Drawing, bleed: float) -> tuple[Shape, ...]:
    """Return what a drawing's art needs beyond its edges to bleed by ``bleed`` mm: every filled
    rectangle (after its transforms) lying along an edge of the drawing, grown by the bleed past
    that edge (past both at a corner). Drawn under the art, it carries the colour of a face, a tab
    or a background that runs to the cut out beyond it. A rounded rectangle's straight sides run
    on past the cut; its corners stay as drawn."""
    w, h = drawing.width, drawing.height
    eps = 0.01
    out: list[Shape] = []
    for shape, m in iter_shapes(drawing.shapes):
        if not isinstance(shape, Rect) or shape.style.fill in (None, "#ffffff"):
            continue
        a, b, c, d = m[:4]
        if not (abs(b) < 1e-9 and abs(c) < 1e-9) and not (abs(a) < 1e-9 and abs(d) < 1e-9):
            continue  # turned by an odd angle: not square to the cut
        box = bounds((shape,), m)
        if box is None:
            continue
        x0, y0, x1, y1 = box
        paint = Style(stroke=None, fill=shape.style.fill)
        if shape.r:
            r = min(shape.r * math.sqrt(abs(a * d - b * c)), (x1 - x0) / 2, (y1 - y0) / 2)
            strips = (
                (x0 <= eps, (-bleed, y0 + r, x0 + r, y1 - r)),
                (y0 <= eps, (x0 + r, -bleed, x1 - r, y0 + r)),
                (x1 >= w - eps, (x1 - r, y0 + r, w + bleed, y1 - r)),
                (y1 >= h - eps, (x0 + r, y1 - r, x1 - r, h + bleed)),
            )
            for touches, (sx0, sy0, sx1, sy1) in strips:
                if touches and sx1 > sx0 and sy1 > sy0:
                    out.append(Rect(sx0, sy0, sx1 - sx0, sy1 - sy0, paint))
            continue
        grown = (
            -bleed if x0 <= eps else x0,
            -bleed if y0 <= eps else y0,
            w + bleed if x1 >= w - eps else x1,
            h + bleed if y1 >= h - eps else y1,
        )
        if grown != box:
            x0, y0, x1, y1 = grown
            out.append(Rect(x0, y0, x1 - x0, y1 - y0, paint))
    return tuple(out)


def with_bleed(drawing: Drawing, bleed: float) -> Drawing:
    """Return the drawing (same size: its trim) with its art running ``bleed`` mm beyond its edges
    where its colour runs to them (``bleed_shapes`` under the art)."""
    extra = bleed_shapes(drawing, bleed) if bleed > 0 else ()
    if not extra:
        return drawing
    return Drawing(drawing.width, drawing.height, extra + drawing.shapes, drawing.label)


def bled(drawing: Drawing, bleed: float) -> Drawing:
    """Return the drawing with its bleed as a drawing of its own, ``bleed`` mm larger on every
    side (the art of one face as a print shop wants it: trim plus bleed)."""
    if bleed <= 0:
        return drawing
    inner = with_bleed(drawing, bleed)
    return Drawing(
        drawing.width + 2 * bleed, drawing.height + 2 * bleed, (inner.placed(bleed, bleed),), drawing.label
    )


@dataclass(frozen=True)
class SheetItem:
    """One piece to lay out n-up: its front drawing and optional back drawing (same size).

    A patch of pieces that share their cut lines (hex counters tessellated on their edges) is one
    item too: its front draws the pieces and their cut lines, its back the pieces' backs mirrored
    inside it for the long-edge flip, and ``pieces`` holds each piece at (x, y) inside it (its
    cut, for the page's cuts, is the piece's box there). An item with pieces draws its own cuts:
    no rectangle is cut round it and no crop marks continue its edges."""

    front: Drawing
    back: Drawing | None = None
    pieces: tuple[tuple[float, float, SheetItem], ...] = ()
    # the piece's cut outline inside its box, a closed polygon (a hex, a die's net with its glue
    # tabs); empty: the box is the outline
    outline: tuple[Point, ...] = ()

    def cut_boxes(self, x: float, y: float) -> list[tuple[float, float, float, float]]:
        """Return the cut boxes (x0, y0, x1, y1) of the item placed at (x, y): its pieces' boxes,
        or its own."""
        if not self.pieces:
            return [(x, y, x + self.front.width, y + self.front.height)]
        return [
            (x + px, y + py, x + px + p.front.width, y + py + p.front.height) for px, py, p in self.pieces
        ]

    def cut_outlines(self, x: float, y: float) -> list[tuple[Point, ...]]:
        """Return the cut outline of every piece of the item placed at (x, y), in the order of
        ``cut_boxes``: each a closed polygon (its box's four corners, clockwise from the top left,
        where the piece has no outline of its own)."""
        placed = [(px, py, p) for px, py, p in self.pieces] or [(0.0, 0.0, self)]
        out: list[tuple[Point, ...]] = []
        for px, py, piece in placed:
            ox, oy = x + px, y + py
            if piece.outline:
                out.append(tuple((ox + u, oy + v) for u, v in piece.outline))
            else:
                w, h = piece.front.width, piece.front.height
                out.append(((ox, oy), (ox + w, oy), (ox + w, oy + h), (ox, oy + h)))
        return out

    def back_boxes(self, x: float, y: float) -> list[tuple[float, float, float, float]]:
        """Return the cut boxes of the item's back placed at (x, y) on a backs page: its pieces'
        boxes mirrored inside it (the pieces with a back), or its own."""
        if not self.pieces:
            return [(x, y, x + self.front.width, y + self.front.height)]
        w = self.front.width
        return [
            (x + w - px - p.front.width, y + py, x + w - px, y + py + p.front.height)
            for px, py, p in self.pieces
            if p.back is not None
        ]


def nup(
    items: list[SheetItem],
    paper: Paper,
    label: str = "",
    gap: float = 0.0,
    duplex_offset: tuple[float, float] = (0.0, 0.0),
    bleed: float = 0.0,
    lang: str = DEFAULT_LANGUAGE,
    icons: inline.Icons | None = None,
) -> list[Page]:
    """Return sheets with the items laid out in rows, cut lines in the gaps and margins (footers in ``lang``).

    Items of different sizes are packed row by row. Where any item on a sheet has a back, the
    sheet is followed by a backs page mirrored for long-edge duplex printing, shifted by
    ``duplex_offset`` (dx, dy in mm) to correct the printer's misregistration. With a ``bleed``
    every item's art runs that far beyond its cut and items lie twice that apart."""
    sheet_rows = _nup_rows(items, paper, label, gap, bleed)
    return render_sheets(sheet_rows, paper, label, duplex_offset, bleed=bleed, lang=lang, icons=icons)


def nup_pages(
    items: list[SheetItem],
    paper: Paper,
    label: str = "",
    duplex_offset: tuple[float, float] = (0.0, 0.0),
    bleed: float = 0.0,
    lang: str = DEFAULT_LANGUAGE,
    icons: inline.Icons | None = None,
) -> SheetPages:
    """Return the pages ``nup`` returns, each drawn when it is read (``SheetPages``)."""
    sheet_rows = _nup_rows(items, paper, label, 0.0, bleed)
    return SheetPages(sheet_rows, paper, label, duplex_offset, bleed=bleed, lang=lang, icons=icons)


def _nup_rows(
    items: list[SheetItem], paper: Paper, label: str, gap: float, bleed: float
) -> list[list[list[tuple[float, float, SheetItem]]]]:
    """Return the items of ``nup`` laid out in rows, sheet by sheet (from their sizes alone)."""
    pw, ph = paper.printable
    rows: list[list[tuple[float, float, SheetItem]]] = []
    sheet_rows: list[list[list[tuple[float, float, SheetItem]]]] = []
    x = y = 0.0
    row_h = 0.0
    current: list[tuple[float, float, SheetItem]] = []
    for item in items:
        w, h = item.front.width + 2 * bleed, item.front.height + 2 * bleed
        if w > pw + 1e-6 or h > ph + 1e-6:
            raise UsageError(
                f"{label or 'piece'} of {item.front.width:g} x {item.front.height:g} mm"
                + (f" with its bleed of {bleed:g} mm" if bleed else "")
                + f" is larger than the printable area {pw:g} x {ph:g} mm of {paper.name}"
            )
        if current and x + w > pw + 1e-6:
            rows.append(current)
            current = []
            y += row_h + gap
            x = 0.0
            row_h = 0.0
        if y + h > ph + 1e-6:
            if current:
                rows.append(current)
                current = []
            sheet_rows.append(rows)
            rows = []
            x = y = row_h = 0.0
        current.append((x + bleed, y + bleed, item))
        x += w + gap
        row_h = max(row_h, h)
    if current:
        rows.append(current)
    if rows:
        sheet_rows.append(rows)
    return sheet_rows


def render_sheets(
    sheet_rows: list[list[list[tuple[float, float, SheetItem]]]],
    paper: Paper,
    label: str = "",
    duplex_offset: tuple[float, float] = (0.0, 0.0),
    first: int = 1,
    total: int | None = None,
    bleed: float = 0.0,
    lang: str = DEFAULT_LANGUAGE,
    icons: inline.Icons | None = None,
) -> list[Page]:
    """Return the pages of sheets whose items are placed in rows of (x, y, item), x and y from the
    printable area's corner: each sheet centred with its cut lines, followed by a backs page
    (``is_back``) when an item has a back, mirrored for the long-edge flip and shifted by
    ``duplex_offset``. Sheets are numbered from ``first`` of ``total``. With a ``bleed`` (items
    placed that far from the area's corner and twice that apart) every item's art runs that far
    beyond its cut, the crop marks sit outside it, and each page records its items' trims."""
    pw, ph = paper.printable
    total = total if total is not None else first + len(sheet_rows) - 1
    pages: list[Page] = []
    for number, rows in enumerate(sheet_rows, first):
        used_w = max(px + it.front.width for row in rows for px, _, it in row) + bleed
        used_h = max(py + it.front.height for row in rows for _, py, it in row) + bleed
        ox = paper.margin + (pw - used_w) / 2
        # centred, unless that brings the parts' cuts near the footer: then as high as needed
        oy = max(paper.margin, min(paper.margin + (ph - used_h) / 2, parts_bottom(paper) - used_h))
        front: list[Shape] = _cut_lines(paper, rows, ox, oy, bleed)
        for row in rows:
            for px, py, it in row:
                front.append((with_bleed(it.front, bleed) if bleed else it.front).placed(ox + px, oy + py))
        page = Page(
            paper.width,
            paper.height,
            tuple(front),
            label=f"{label} sheet {number}",
            cuts=tuple(box for row in rows for px, py, it in row for box in it.cut_boxes(ox + px, oy + py)),
            bleed=bleed,
            outlines=tuple(
                o for row in rows for px, py, it in row for o in it.cut_outlines(ox + px, oy + py)
            ),
        )
        page = footer(
            page, paper, catalogue_text("footer.sheet", lang, label=label, number=number, total=total), icons
        )
        pages.append(page)
        if any(it.back is not None for row in rows for _, _, it in row):
            dx, dy = duplex_offset
            shapes = []
            cuts = []
            for row in rows:
                for px, py, it in row:
                    if it.back is not None:
                        bx = paper.width - (ox + px) - it.back.width
                        shapes.append((with_bleed(it.back, bleed) if bleed else it.back).placed(bx, oy + py))
                        cuts.extend(it.back_boxes(bx + dx, oy + py + dy))
            back = Page(
                paper.width,
                paper.height,
                (Group(tuple(shapes), translate(dx, dy)),),
                label=f"{label} sheet {number} backs",
                is_back=True,
                cuts=tuple(cuts),
                bleed=bleed,
            )
            pages.append(
                footer(back, paper, catalogue_text("footer.backs", lang, label=label, number=number), icons)
            )
    return pages


class SheetPages(DrawnPages):
    """The pages ``render_sheets`` returns, each drawn when it is read and not kept: a deck of a
    thousand cards is never held drawn. The pages of the sheet read last are kept until another
    sheet is read (its front and its backs page are read one after the other)."""

    def __init__(
        self,
        sheet_rows: list[list[list[tuple[float, float, SheetItem]]]],
        paper: Paper,
        label: str = "",
        duplex_offset: tuple[float, float] = (0.0, 0.0),
        first: int = 1,
        total: int | None = None,
        bleed: float = 0.0,
        lang: str = DEFAULT_LANGUAGE,
        icons: inline.Icons | None = None,
    ) -> None:
        self.sheet_rows = sheet_rows
        self.icons = icons
        self.paper, self.label, self.duplex_offset = paper, label, duplex_offset
        self.first, self.bleed, self.lang = first, bleed, lang
        self.total = total if total is not None else first + len(sheet_rows) - 1
        # (sheet, 0 front or 1 backs page) of every page in order
        self.slots: list[tuple[int, int]] = []
        for number, rows in enumerate(sheet_rows):
            self.slots.append((number, 0))
            if any(it.back is not None for row in rows for _, _, it in row):
                self.slots.append((number, 1))
        self._last: tuple[int, list[Page]] = (-1, [])

    def __len__(self) -> int:
        return len(self.slots)

    def page(self, index: int) -> Page:
        """Return page ``index``: a sheet's front or its backs page, drawn now."""
        sheet, side = self.slots[index]
        return self.sheet(sheet)[side]

    def counted(self, index: int) -> tuple[Page, int]:
        """Return page ``index`` with every packed front (``StoredDrawing``) on it drawn empty, and
        the shapes those fronts draw: the page's shapes counted without unpacking a front (a
        front with bleed round it is drawn whole, and counted on the page)."""
        sheet, side = self.slots[index]
        if self.bleed:
            return self.sheet(sheet)[side], 0
        rows: list[list[tuple[float, float, SheetItem]]] = []
        packed = 0
        for row in self.sheet_rows[sheet]:
            out: list[tuple[float, float, SheetItem]] = []
            for x, y, it in row:
                front = it.front
                if isinstance(front, StoredDrawing):
                    packed += 0 if side else front.count
                    it = replace(it, front=Drawing(front.width, front.height, (), front.label))
                out.append((x, y, it))
            rows.append(out)
        return self._drawn(rows, sheet)[side], packed

    def sheet(self, number: int) -> list[Page]:
        """Return the pages of sheet ``number`` (from 0): its front, and its backs page if any."""
        last = self._last
        if last[0] == number:
            return last[1]
        pages = self._drawn(self.sheet_rows[number], number)
        self._last = (number, pages)
        return pages

    def _drawn(self, rows: list[list[tuple[float, float, SheetItem]]], number: int) -> list[Page]:
        """Return sheet ``number``'s pages (front, and backs if any) drawn from its rows."""
        return render_sheets(
            [rows],
            self.paper,
            self.label,
            self.duplex_offset,
            self.first + number,
            self.total,
            self.bleed,
            self.lang,
            self.icons,
        )


def _cut_lines(
    paper: Paper, rows: list[list[tuple[float, float, SheetItem]]], ox: float, oy: float, bleed: float = 0.0
) -> list[Shape]:
    """Return cut lines along every item edge of a sheet of the paper, extended into the margins
    as crop marks (outside the bleed)."""
    xs: set[float] = set()
    ys: set[float] = set()
    for row in rows:
        for px, py, it in row:
            if it.pieces:
                continue  # a patch draws its own cut lines
            xs.update((round(ox + px, 3), round(ox + px + it.front.width, 3)))
            ys.update((round(oy + py, 3), round(oy + py + it.front.height, 3)))
    lines: list[Shape] = [
        Rect(ox + px, oy + py, it.front.width, it.front.height, CUT)
        for row in rows
        for px, py, it in row
        if not it.pieces
    ]
    extent = None
    if any(it.pieces for row in rows for _, _, it in row):  # the marks reach past the patches too
        boxes = [box for row in rows for px, py, it in row for box in it.cut_boxes(ox + px, oy + py)]
        x0, y0 = round(min(b[0] for b in boxes), 3), round(min(b[1] for b in boxes), 3)
        extent = (x0, y0, round(max(b[2] for b in boxes), 3), round(max(b[3] for b in boxes), 3))
    return lines + _crop_marks(paper.width, paper.height, list(xs), list(ys), bleed, extent)


def booklet_order(page_count: int) -> list[tuple[int | None, int | None]]:
    """Return the page pairs (left, right) of each sheet side for a saddle-stitched booklet.

    Pages are 1-based; ``None`` is a blank pad page. Sides alternate front, back, front, back...
    Printing the sides in this order double-sided (flip on the short edge), stacking the sheets
    and folding them in the middle gives pages 1, 2, 3, ... in reading order."""
    total = max(4, math.ceil(page_count / 4) * 4)
    pairs: list[tuple[int | None, int | None]] = []

    def real(n: int) -> int | None:
        return n if n <= page_count else None

    for sheet in range(total // 4):
        lo = 2 * sheet + 1
        hi = total - 2 * sheet
        pairs.append((real(hi), real(lo)))  # front: last on the left, first on the right
        pairs.append((real(lo + 1), real(hi - 1)))  # back
    return pairs


def impose_booklet(pages: list[Page], paper: Paper, flip: str = "short") -> list[Page]:
    """Return landscape sheet sides with two half-size pages side by side in saddle-stitch order.

    Sides alternate front and back. ``flip`` is the duplex flip the sides are printed with:
    "short" (a landscape sheet turned over its short edge) or "long" (over its long edge, the home
    printer's default for portrait jobs): then every back is turned half a turn, so it still lands
    the right way up behind its front."""
    if flip not in ("short", "long"):
        raise ValueError(f"flip must be 'short' or 'long', got {flip!r}")
    sheet = paper.landscape()
    half_w = sheet.width / 2
    out: list[Page] = []
    for index, (left, right) in enumerate(booklet_order(len(pages))):
        is_back = index % 2 == 1
        shapes: tuple[Shape, ...] = tuple(
            _half(pages[number - 1], slot, sheet)
            for slot, number in ((0, left), (1, right))
            if number is not None
        ) + (
            # fold marks at the middle, inside the printable area
            Line(half_w, SAFE, half_w, SAFE + 3.0, CUT),
            Line(half_w, sheet.height - SAFE - 3.0, half_w, sheet.height - SAFE, CUT),
        )
        if is_back and flip == "long":
            shapes = (Group(shapes, (-1.0, 0.0, 0.0, -1.0, sheet.width, sheet.height)),)
        out.append(Page(sheet.width, sheet.height, shapes, label="booklet sheet", is_back=is_back))
    return out


def booklet_plain(pages: list[Page], paper: Paper) -> list[Page]:
    """Return landscape sheets with the booklet's pages two to a sheet in reading order (1 and 2,
    3 and 4, ...), for single-sided printing: cut each sheet in half and stack the halves."""
    sheet = paper.landscape()
    half_w = sheet.width / 2
    out: list[Page] = []
    for first in range(0, len(pages), 2):
        halves = tuple(_half(page, slot, sheet) for slot, page in enumerate(pages[first : first + 2]))
        marks = (
            Line(half_w, SAFE, half_w, SAFE + 3.0, MARK),
            Line(half_w, sheet.height - SAFE - 3.0, half_w, sheet.height - SAFE, MARK),
        )
        out.append(Page(sheet.width, sheet.height, halves + marks, label="booklet pages"))
    return out


def _half(src: Page, slot: int, sheet: Paper) -> Group:
    """Return a half-size page scaled (never up) and centred on the left (0) or right (1) half."""
    half_w = sheet.width / 2
    k = min(half_w / src.width, sheet.height / src.height, 1.0)
    x = slot * half_w + (half_w - src.width * k) / 2
    y = (sheet.height - src.height * k) / 2
    return Group(tuple(src.shapes), multiply(translate(x, y), scale(k)))
