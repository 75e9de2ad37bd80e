"""Typesetting booklet markup into pages: a cover, then numbered pages of running text.

Lines are broken greedily over mixed bold/italic runs measured with the fonts' own metrics
(``generator.model.fonts.text_width``, reportlab's stringWidth). Blocks become a flow of items (lines,
table rows, figure rows) with keep-with-next links; the paginator moves a chain of linked items to
the next page when it does not fit, so headings stay with what follows and paragraphs leave no
single orphan or widow line. Nothing here knows games: figures come from a callback.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from weakref import WeakKeyDictionary

from generator.booklet.markup import (
    Document,
    FigureRow,
    Heading,
    Inline,
    ListBlock,
    Note,
    PageBreak,
    Paragraph,
    Table,
    parse_inline,
    plain_text,
)
from generator.foundation.languages import TIED_LANGUAGES, tie_one_letter_words
from generator.model import inline
from generator.model.fonts import text_width
from generator.model.page import MIN_TYPE, Drawing, Line, Page, Rect, Shape, Style, Text, readable_at

PT = 25.4 / 72.0  # mm per point
ASCENT, DESCENT = 0.93, 0.24  # of the Vera faces, as a fraction of the size
KEEP_TABLE_ROWS = 8  # tables with at most this many body rows are never split
FIGURE_SHRINK = 0.7  # a figure may be drawn down to this share of its size to fill a page
SHRINK_WHEN = 0.25  # ... when moving it on would leave more than this share of a page empty
TEXT = ("line", "item")  # the kinds of running text: lines of paragraphs and notes, of list items
FigureSource = Callable[[str, "str | None", float], Drawing]
FigureCheck = Callable[[Drawing, float], int]  # the layout findings of a drawing shown at a scale


@dataclass(frozen=True)
class Geometry:
    """A booklet page: its size and the text area (absolute edges in mm), footer baseline."""

    width: float
    height: float
    left: float
    top: float
    right: float
    bottom: float
    footer_y: float

    @property
    def text_width(self) -> float:
        """Return the width of the text area in mm."""
        return self.right - self.left

    @property
    def text_height(self) -> float:
        """Return the height of the text area in mm."""
        return self.bottom - self.top


def page_geometry(width: float, height: float, printer_margin: float, side: float = 15.0) -> Geometry:
    """Return the geometry of a booklet page of a size, keeping all ink inside the printer margin."""
    side = max(side, printer_margin + 4.0)
    top = max(16.0, printer_margin + 5.0)
    footer_y = height - printer_margin - 1.0
    return Geometry(width, height, side, top, width - side, footer_y - 7.0, footer_y)


@dataclass(frozen=True)
class BookStyle:
    """Type sizes (points) and colours of a booklet."""

    body: float = 9.5
    figures: float = 1.0  # figures at this share of their planned size
    accent: str = "#7a2e1d"
    ink: str = "#1c1c1c"
    muted: str = "#6b6b6b"
    tint: str = "#f4eee7"
    code: str = "#1f4a7a"
    rule: str = "#b9aea3"
    # the faces: body text, its bold and italic runs, and headings (and the cover's title); a
    # definition's own face ("file:...") in place of a shipped one sets those texts in it
    body_font: str = "sans"
    bold_font: str = "sans-bold"
    italic_font: str = "sans-italic"
    heading_font: str = "sans-bold"
    # what ``:name:`` icons in the text mean (the definition's, the symbols among them); none known
    # by default, where the text is checked to hold none
    icons: inline.Icons = field(default_factory=inline.Icons, compare=False)
    # the text's language: French and Italian keep a one-letter word with the word after it
    lang: str = ""

    def face(self, bold: bool, italic: bool, heading: bool = False) -> str:
        """Return the face of a run: the heading face for a heading (bold italic at level 3 while
        the heading face is the shipped one), else the body's, bold or italic face."""
        if heading and self.heading_font != "sans-bold":
            return self.heading_font
        if bold and italic:
            shipped = self.bold_font == "sans-bold" and self.italic_font == "sans-italic"
            return "sans-bolditalic" if shipped else self.bold_font
        if bold:
            return self.bold_font
        if italic:
            return self.italic_font
        return self.body_font

    @property
    def leading(self) -> float:
        """Return the body line height in mm."""
        return self.body * 1.38 * PT

    def heading_size(self, level: int) -> float:
        """Return the size in points of a heading level."""
        return {1: self.body * 1.6, 2: self.body * 1.2, 3: self.body}[level]


@dataclass(frozen=True)
class CoverInfo:
    """What the cover shows."""

    title: str
    subtitle: str = ""
    facts: tuple[tuple[str, str], ...] = ()
    summary: str = ""
    kit_title: str = "In this kit"
    kit: tuple[str, ...] = ()
    kicker: str = "Rules of play"
    figure: tuple[str, str | None] | None = None
    footer: str = ""


Mark = tuple[int, int, int, int]  # block number, part (list item, row...), line in the part, lines


@dataclass
class LaidPage:
    """A typeset page and what is on it, top to bottom (for checks): the kinds of its flow items,
    where each comes from (``marks``: block, part, line, lines of the part, parallel to kinds),
    how much of the text area's height it fills (0 to 1) and whether a ``::: pagebreak`` ends it."""

    page: Page
    kinds: list[str] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    fill: float = 1.0
    forced: bool = False


# ---------------------------------------------------------------- line breaking

Piece = tuple[str, str, str]  # text, font, colour
TextLine = list[Piece]
_SPLIT = re.compile(r"( +|\n)")
_SPACES = re.compile(r" {2,}")


#: A piece's width in mm with its icons (``inline.line_width``), each text, face and size worked out
#: once per process: a booklet set to fit measures the same words at each body size it tries
_line_width = lru_cache(maxsize=65536)(inline.line_width)


def font_of(bold: bool, italic: bool) -> str:
    """Return the font name for a combination of bold and italic."""
    return ("sans-bolditalic" if italic else "sans-bold") if bold else ("sans-italic" if italic else "sans")


def _pieces(
    runs: Inline, style: BookStyle, colour: str, bold: bool, italic: bool, heading: bool = False
) -> list[Piece]:
    out = []
    for r in runs:
        font = style.face(bold or r.bold or r.code, italic or r.italic, heading and not r.code)
        text = r.text.replace(" ", "\u00a0") if r.code else r.text
        if r.code and inline.has_icons(text):
            text = text.replace(":", "::")  # code is set as written: its colons never make icons
        out.append((text, font, style.code if r.code else colour))
    if style.lang in TIED_LANGUAGES:  # over the runs: a word and the next may be runs of their own
        for n, (text, font, ink) in enumerate(out):  # one space between words, as they are set
            text = _SPACES.sub(" ", text)
            if n and out[n - 1][0].endswith(" "):
                text = text.lstrip(" ")
            out[n] = (text, font, ink)
        tied = tie_one_letter_words("".join(t for t, _, _ in out), across_lines=False)
        at = 0
        for n, (text, font, ink) in enumerate(out):
            out[n] = (tied[at : at + len(text)], font, ink)
            at += len(text)
    return out


def styled_pieces(runs: Inline, style: BookStyle, colour: str = "#1c1c1c") -> list[Piece]:
    """Return runs as the pieces (text, face, colour) the typesetter breaks into lines: in the
    style's faces, code set as written, a one-letter word tied to the next in French and Italian."""
    return _pieces(runs, style, colour, False, False)


def break_lines(pieces: Sequence[Piece], size: float, width: float) -> list[TextLine]:
    """Return styled text broken greedily into lines no wider than width (mm)."""
    return [list(line) for line in _broken(tuple(pieces), size, width)]


@lru_cache(maxsize=8192)
def _broken(pieces: tuple[Piece, ...], size: float, width: float) -> tuple[tuple[Piece, ...], ...]:
    """Return break_lines' lines (cached: a booklet set to fit lays its text out several times)."""
    tokens: list = []  # atoms (lists of pieces), ("space", font, colour), or "\n"
    atom: list[Piece] = []
    for text, font, colour in pieces:
        for part in _SPLIT.split(text):
            if not part:
                continue
            if part == "\n" or part[0] == " ":
                if atom:
                    tokens.append(atom)
                    atom = []
                tokens.append("\n" if part == "\n" else ("space", font, colour))
            else:
                atom.append((part, font, colour))
    if atom:
        tokens.append(atom)
    lines: list[TextLine] = []
    line: TextLine = []
    used = 0.0
    space: tuple | None = None
    for token in tokens:
        if token == "\n":
            lines.append(line)
            line, used, space = [], 0.0, None
            continue
        if isinstance(token, tuple):
            space = token if line else None
            continue
        w = (
            _line_width(token[0][0], token[0][1], size)
            if len(token) == 1
            else sum(_line_width(t, f, size) for t, f, _ in token)
        )
        gap = text_width(" ", space[1], size) if (line and space) else 0.0
        if line and used + gap + w <= width + 1e-6:
            if space:
                line.append((" ", space[1], space[2]))
            line.extend(token)
            used += gap + w
        else:
            if line:
                lines.append(line)
            line, used = [], 0.0
            for chunk in _split_atom(token, size, width):
                if line:
                    lines.append(line)
                line = chunk
                used = sum(_line_width(t, f, size) for t, f, _ in chunk)
        space = None
    if line or not lines:
        lines.append(line)
    return tuple(tuple(_merge(ln)) for ln in lines)


def widest_word(pieces: Sequence[Piece], size: float) -> float:
    """Return the width in mm of the widest unbreakable word of styled text."""
    widest = current = 0.0
    for text, font, _ in pieces:
        for part in _SPLIT.split(text):
            if not part:
                continue
            if part == "\n" or part[0] == " ":
                current = 0.0
            else:
                current += _line_width(part, font, size)
                widest = max(widest, current)
    return widest


def _split_atom(atom: list[Piece], size: float, width: float) -> list[TextLine]:
    """Return a word as one line, or cut into lines by characters (an icon whole) when it is
    wider than width."""
    if sum(_line_width(t, f, size) for t, f, _ in atom) <= width + 1e-6:
        return [atom]
    chunks: list[TextLine] = []
    current: TextLine = []
    used = 0.0
    for text, font, colour in atom:
        for ch in _UNITS.findall(text) if inline.has_icons(text) else text:
            w = _line_width(ch, font, size)
            if current and used + w > width:
                chunks.append(current)
                current, used = [], 0.0
            current.append((ch, font, colour))
            used += w
    if current:
        chunks.append(current)
    return chunks


_UNITS = re.compile(inline.ICON.pattern + "|.", re.DOTALL)  # an icon, '::' (a colon) or a character


def _merge(line: TextLine) -> TextLine:
    out: TextLine = []
    for text, font, colour in line:
        if out and out[-1][1] == font and out[-1][2] == colour:
            out[-1] = (out[-1][0] + text, font, colour)
        else:
            out.append((text, font, colour))
    while out and not out[-1][0].strip():
        out.pop()
    if out:
        out[-1] = (out[-1][0].rstrip(" "), out[-1][1], out[-1][2])
    return out


def line_width(line: TextLine, size: float) -> float:
    """Return the width of a broken line in mm (its icons counted as their room)."""
    return sum(_line_width(t, f, size) for t, f, _ in line)


def line_shapes(
    line: TextLine,
    x: float,
    baseline: float,
    size: float,
    align: str = "left",
    width: float = 0.0,
    icons: inline.Icons | None = None,
) -> list[Shape]:
    """Return the Text shapes of a line, aligned in a box of the given width starting at x, its
    icons (``:coin:``) drawn by icons in the colour of their text (or their own)."""
    if align != "left":
        extra = width - line_width(line, size)
        x += extra / 2 if align == "center" else extra
    shapes: list[Shape] = []
    for text, font, colour in line:
        if text and inline.has_icons(text):
            shapes.extend(
                inline.line_shapes(
                    round(x, 3), round(baseline, 3), text, size, font, "start", colour, icons or _NO_ICONS
                )
            )
            x += _line_width(text, font, size)
            continue
        if text:
            shapes.append(Text(round(x, 3), round(baseline, 3), text, size, font, "start", colour))
        x += text_width(text, font, size)
    return shapes


_NO_ICONS = inline.Icons()


def baseline_in(top: float, box: float, size: float) -> float:
    """Return the baseline that centres a line's ascent and descent in a box of height box."""
    s = size * PT
    return top + (box - (ASCENT + DESCENT) * s) / 2 + ASCENT * s


# ---------------------------------------------------------------- flow items


@dataclass
class Item:
    """A piece of the flow: its height, how to draw it at a top y, spacing and keep rules."""

    height: float
    draw: Callable[[float], list[Shape]]
    space_before: float = 0.0
    keep_with_next: bool = False
    kind: str = "line"
    header: Item | None = None
    mark: Mark = (-1, -1, 0, 1)
    # a figure that can be drawn smaller: the same figure at most this high (mm), or None
    resize: Callable[[float], Item | None] | None = None


def _text_items(
    lines: list[TextLine],
    x: float,
    width: float,
    size: float,
    leading: float,
    space_before: float,
    kind: str = "line",
    align: str = "left",
    first_extra: Callable[[float], list[Shape]] | None = None,
    background: Callable[[float, float, bool, bool], list[Shape]] | None = None,
    pad: tuple[float, float] = (0.0, 0.0),
    mark: tuple[int, int] = (-1, -1),
    icons: inline.Icons | None = None,
) -> list[Item]:
    """Return one item per line, linked so no paragraph leaves a single line behind or ahead."""
    items: list[Item] = []
    n = len(lines)
    for k, line in enumerate(lines):
        top_pad = pad[0] if k == 0 else 0.0
        bottom_pad = pad[1] if k == n - 1 else 0.0
        height = leading + top_pad + bottom_pad

        def draw(y: float, line=line, k=k, top_pad=top_pad, height=height) -> list[Shape]:
            shapes: list[Shape] = []
            if background is not None:
                shapes.extend(background(y, height, k == 0, k == n - 1))
            base = baseline_in(y + top_pad, leading, size)
            if k == 0 and first_extra is not None:
                shapes.extend(first_extra(base))
            shapes.extend(line_shapes(line, x, base, size, align, width, icons))
            return shapes

        keep = (k == 0 and n >= 2) or (k == n - 2 and n >= 3)
        items.append(
            Item(height, draw, space_before if k == 0 else 0.0, keep, kind, mark=(mark[0], mark[1], k, n))
        )
    return items


class _Flow:
    """Turns blocks into flow items."""

    def __init__(
        self, geo: Geometry, style: BookStyle, figures: FigureSource, check: FigureCheck | None = None
    ) -> None:
        self.geo = geo
        self.style = style
        self.figures = figures
        self.check = check
        self.items: list[Item] = []
        self.blocks = 0

    def add_block(self, block) -> None:
        start = len(self.items)
        self._add_block(block)
        for item in self.items[start:]:  # where each item comes from, for checks
            _, part, line, lines = item.mark
            item.mark = (self.blocks, max(part, 0), line, lines)
        self.blocks += 1

    def _add_block(self, block) -> None:
        st = self.style
        para_gap = st.leading * 0.5
        if isinstance(block, Heading):
            self.heading(block)
        elif isinstance(block, Paragraph):
            lines = break_lines(_pieces(block.runs, st, st.ink, False, False), st.body, self.geo.text_width)
            self.items.extend(
                _text_items(
                    lines, self.geo.left, self.geo.text_width, st.body, st.leading, para_gap, icons=st.icons
                )
            )
        elif isinstance(block, ListBlock):
            self.list_block(block, 0.0, para_gap)
        elif isinstance(block, Note):
            self.note(block, para_gap * 1.4)
        elif isinstance(block, Table):
            self.table(block, para_gap * 1.6)
        elif isinstance(block, FigureRow):
            self.figure_row(block, para_gap * 2)
        elif isinstance(block, PageBreak):
            self.items.append(Item(0.0, lambda y: [], kind="break"))

    def heading(self, block: Heading) -> None:
        st, geo = self.style, self.geo
        size = st.heading_size(block.level)
        colour = st.accent if block.level < 3 else st.ink
        italic = block.level == 3
        lines = break_lines(_pieces(block.runs, st, colour, True, italic, True), size, geo.text_width)
        leading = size * 1.25 * PT
        before = {1: 7.0, 2: 4.5, 3: 3.0}[block.level]
        items = _text_items(lines, geo.left, geo.text_width, size, leading, before, "heading", icons=st.icons)
        if block.level == 1:
            last = items[-1]
            inner = last.draw

            def draw(y: float, inner=inner, h=last.height) -> list[Shape]:
                return inner(y) + [
                    Line(geo.left, y + h + 0.6, geo.right, y + h + 0.6, Style(st.accent, None, 0.3))
                ]

            last.draw = draw
            last.height += 2.2
        elif block.level == 2:
            items[-1].height += 0.6
        for item in items:
            item.keep_with_next = True
        self.items.extend(items)

    def list_block(
        self, block: ListBlock, indent: float, space_before: float, parts: list[list[Item]] | None = None
    ) -> None:
        """Add a list's items (nested ones after their parent); the first two and the last two items
        of the whole list stay together, so no bullet stands alone at the foot or head of a page."""
        top = parts is None
        parts = [] if parts is None else parts
        st, geo = self.style, self.geo
        if block.ordered:
            labels = [f"{block.start + k}." for k in range(len(block.items))]
            hang = max(text_width(t, "sans-bold", st.body) for t in labels) + 1.8
        else:
            labels = ["\u2022" if indent == 0 else "\u2013"] * len(block.items)
            hang = 4.2
        x = geo.left + indent + (0.6 if indent == 0 else 0.0)
        for k, item in enumerate(block.items):
            lines = break_lines(_pieces(item.runs, st, st.ink, False, False), st.body, geo.right - x - hang)
            label = labels[k]

            def marker(base: float, label=label) -> list[Shape]:
                if block.ordered:
                    return [
                        Text(
                            round(x + hang - 1.8, 3),
                            round(base, 3),
                            label,
                            st.body,
                            "sans-bold",
                            "end",
                            st.accent,
                        )
                    ]
                return [
                    Text(round(x + 0.4, 3), round(base, 3), label, st.body, "sans-bold", "start", st.accent)
                ]

            gap = space_before if k == 0 else st.leading * 0.22
            entry = _text_items(
                lines,
                x + hang,
                geo.right - x - hang,
                st.body,
                st.leading,
                gap,
                "item",
                first_extra=marker,
                mark=(-1, len(parts)),
                icons=st.icons,
            )
            parts.append(entry)
            self.items.extend(entry)
            if item.children is not None:
                self.list_block(item.children, indent + hang, st.leading * 0.22, parts)
        if top and len(parts) >= 2:
            parts[0][-1].keep_with_next = True
            parts[-2][-1].keep_with_next = True

    def note(self, block: Note, space_before: float) -> None:
        st, geo = self.style, self.geo
        inset, pad = 4.2, 2.2
        size = st.body * 0.95
        leading = size * 1.38 * PT

        def background(y: float, h: float, first: bool, last: bool) -> list[Shape]:
            return [
                Rect(geo.left, y, geo.text_width, h, Style(None, st.tint)),
                Rect(geo.left, y, 0.9, h, Style(None, st.accent)),
            ]

        for k, runs in enumerate(block.paragraphs):
            lines = break_lines(_pieces(runs, st, st.ink, False, False), size, geo.text_width - inset - 3.0)
            top = pad if k == 0 else leading * 0.45
            bottom = pad if k == len(block.paragraphs) - 1 else 0.0
            self.items.extend(
                _text_items(
                    lines,
                    geo.left + inset,
                    geo.text_width - inset - 3.0,
                    size,
                    leading,
                    space_before if k == 0 else 0.0,
                    "line",
                    background=background,
                    pad=(top, bottom),
                    mark=(-1, k),
                    icons=st.icons,
                )
            )

    def table(self, block: Table, space_before: float) -> None:
        st, geo = self.style, self.geo
        size = st.body * 0.93
        leading = size * 1.32 * PT
        pad_x, pad_y = 1.8, 1.0
        columns = len(block.header)
        header_pieces = [_pieces(c, st, st.ink, True, False) for c in block.header]
        body_pieces = [[_pieces(c, st, st.ink, False, False) for c in row] for row in block.rows]
        natural = [0.0] * columns
        minimum = [0.0] * columns
        for row in [header_pieces] + body_pieces:
            for c, cell in enumerate(row):
                natural[c] = max(natural[c], line_width(_merge(list(cell)), size) + 2 * pad_x)
                minimum[c] = max(minimum[c], widest_word(cell, size) + 2 * pad_x)
        widths = _column_widths(natural, minimum, geo.text_width)
        xs = [geo.left + sum(widths[:c]) for c in range(columns)]

        def row_item(
            cells: list[list[Piece]], header: bool, shade: bool, last: bool, row_no: int = 0
        ) -> Item:
            broken = [break_lines(cell, size, widths[c] - 2 * pad_x) for c, cell in enumerate(cells)]
            height = max(len(b) for b in broken) * leading + 2 * pad_y

            def draw(y: float) -> list[Shape]:
                shapes: list[Shape] = []
                if header:
                    shapes.append(Rect(geo.left, y, geo.text_width, height, Style(None, st.tint)))
                    shapes.append(Line(geo.left, y, geo.right, y, Style(st.accent, None, 0.35)))
                    shapes.append(
                        Line(geo.left, y + height, geo.right, y + height, Style(st.accent, None, 0.2))
                    )
                elif shade:
                    shapes.append(Rect(geo.left, y, geo.text_width, height, Style(None, "#faf7f3")))
                if last:
                    shapes.append(
                        Line(geo.left, y + height, geo.right, y + height, Style(st.accent, None, 0.35))
                    )
                elif not header:
                    shapes.append(
                        Line(geo.left, y + height, geo.right, y + height, Style(st.rule, None, 0.12))
                    )
                for c, lines in enumerate(broken):
                    align = block.align[c]
                    for k, ln in enumerate(lines):
                        base = baseline_in(y + pad_y + k * leading, leading, size)
                        shapes.extend(
                            line_shapes(ln, xs[c] + pad_x, base, size, align, widths[c] - 2 * pad_x, st.icons)
                        )
                return shapes

            return Item(height, draw, 0.0, header, "header" if header else "row", mark=(-1, row_no, 0, 1))

        head = row_item(header_pieces, True, False, not body_pieces)
        head.space_before = space_before
        self.items.append(head)
        count = len(body_pieces)
        for r, cells in enumerate(body_pieces):
            item = row_item(cells, False, r % 2 == 1, r == count - 1, r + 1)
            item.header = row_item(header_pieces, True, False, False)
            # short tables stay whole; long ones leave no single row behind or ahead
            item.keep_with_next = r < count - 1 and (count <= KEEP_TABLE_ROWS or r in (0, count - 2))
            self.items.append(item)
        self.items.append(Item(0.0, lambda y: [], st.leading * 0.3, False, "space"))

    def figure_row(self, block: FigureRow, space_before: float) -> None:
        st, geo = self.style, self.geo
        gap = 6.0
        n = len(block.figures)
        free = geo.text_width - gap * (n - 1)
        slots = []
        for fig in block.figures:
            if fig.width is None:
                w = free / n if n > 1 else geo.text_width * 0.72
            elif fig.width[1] == "%":
                w = geo.text_width * fig.width[0] / 100.0
            else:
                w = fig.width[0]
            slots.append(min(w, free if n > 1 else geo.text_width))
        total = sum(slots) + gap * (n - 1)
        if total > geo.text_width + 1e-6:
            k = (geo.text_width - gap * (n - 1)) / sum(slots)
            slots = [s * k for s in slots]
            total = geo.text_width
        max_h = geo.text_height * 0.5
        cap_size = st.body * 0.85
        cap_leading = cap_size * 1.3 * PT
        plan = []  # per figure: its slot, the height it may take, its caption
        for index, (fig, slot) in enumerate(zip(block.figures, slots)):
            tall = max_h
            if n == 1:
                natural = self.figures(fig.component, fig.overlay, 0.0)
                if (
                    fig.width is None
                    and natural.width > slot
                    and max_h / natural.height > slot / natural.width
                ):
                    # a lone figure shrunk to fit its usual width gets the whole text width instead
                    slot = slots[index] = geo.text_width
                    total = sum(slots)
                if natural.height > max_h and slot / natural.width > max_h / natural.height:
                    # a lone figure held down by its height may grow; one given a width, more
                    tall = geo.text_height * (0.66 if fig.width is None else 0.85)
            caption = (
                break_lines(_pieces(fig.caption, st, st.muted, False, True), cap_size, slot)
                if fig.caption
                else []
            )
            plan.append((fig, slot, tall, caption))
        cap_h = max(len(c) for *_, c in plan) * cap_leading
        x0 = geo.left + (geo.text_width - total) / 2
        keep = any(fig.keep for fig in block.figures)

        drawn: dict[float, list[tuple[Drawing, float]]] = {}  # the row's drawings, by factor

        def make(factor: float) -> Item:
            """Return the row's item with its drawings at factor times their planned size."""
            placed = []
            for fig, slot, tall, caption in plan:

                def fit(drawing: Drawing, fig=fig, slot=slot * factor, tall=tall * factor) -> float:
                    scale = min(slot / drawing.width, tall / drawing.height)
                    return min(scale, 1.0) if fig.width is None and n == 1 else scale

                drawing, scale = readable_figure(self.figures, fig.component, fig.overlay, fit)
                placed.append((slot, drawing, scale, caption))
            drawn[factor] = [(d, s) for _, d, s, _ in placed]
            art_h = max(d.height * s for _, d, s, _ in placed)
            height = art_h + (2.0 + cap_h if cap_h else 0.0)

            def draw(y: float) -> list[Shape]:
                shapes: list[Shape] = []
                x = x0
                for slot, drawing, scale, caption in placed:
                    w, h = drawing.width * scale, drawing.height * scale
                    shapes.append(
                        drawing.placed(round(x + (slot - w) / 2, 3), round(y + (art_h - h) / 2, 3), scale)
                    )
                    for k, ln in enumerate(caption):
                        base = baseline_in(y + art_h + 2.0 + k * cap_leading, cap_leading, cap_size)
                        shapes.extend(line_shapes(ln, x, base, cap_size, "center", slot, st.icons))
                    x += slot + gap
                return shapes

            return Item(height, draw, space_before, False, "figure")

        def clean(factor: float) -> bool:
            """Return whether the row drawn smaller prints as clean as at its planned size."""
            check = self.check
            if check is None:
                return True
            found = sum(check(d, s) for d, s in drawn[factor])
            if not found:  # nothing found: as clean as at any size (the planned one unchecked)
                return True
            if 1.0 not in drawn:
                make(1.0)
            return found <= sum(check(d, s) for d, s in drawn[1.0])

        def smaller(room: float) -> Item | None:
            """Return the row drawn smaller to be at most room high (never under FIGURE_SHRINK of
            its planned size, never with more layout findings than at it), or None."""
            factor = start
            while factor > FIGURE_SHRINK + 1e-9:
                factor = round(factor - 0.05, 2)
                item = make(factor)
                if item.height > room + 1e-6:
                    continue
                return item if clean(factor) else None
            return None

        if keep and self.items:
            self.items[-1].keep_with_next = True  # the line that introduces the figure stays with it
        start = st.figures
        first = make(start)
        if start != 1.0 and not clean(start):
            start = 1.0  # drawn smaller for the whole booklet only where it stays clean
            first = make(start)
        first.resize = smaller
        self.items.append(first)
        self.items.append(Item(0.0, lambda y: [], st.leading * 0.6, False, "space"))


def _column_widths(natural: list[float], minimum: list[float], available: float) -> list[float]:
    """Return column widths filling the available width.

    Narrow columns get their natural width; the wide ones share what is left, each at least its
    widest word. Spare room is spread in proportion to the natural widths."""
    total = sum(natural)
    if total <= available:
        return [w + (available - total) * w / total for w in natural]
    widths = [0.0] * len(natural)
    open_cols = set(range(len(natural)))
    left = available
    while open_cols:
        share = left / len(open_cols)
        narrow = [c for c in open_cols if natural[c] <= share]
        if not narrow:
            break
        for c in narrow:
            widths[c] = natural[c]
            left -= natural[c]
            open_cols.discard(c)
    if open_cols:
        floor = sum(minimum[c] for c in open_cols)
        if floor >= left:
            for c in open_cols:
                widths[c] = minimum[c] * left / floor if floor else left / len(open_cols)
        else:
            stretch = sum(natural[c] - minimum[c] for c in open_cols) or 1.0
            for c in open_cols:
                widths[c] = minimum[c] + (left - floor) * (natural[c] - minimum[c]) / stretch
    scale = available / sum(widths)
    return [w * scale for w in widths]


# ---------------------------------------------------------------- pagination


def _chain(items: list[Item], i: int) -> tuple[int, float]:
    """Return the last index of the keep-with-next chain starting at i and its height with spacing."""
    j = i
    need = items[i].space_before + items[i].height
    while items[j].keep_with_next and j + 1 < len(items) and items[j + 1].kind != "break":
        j += 1
        need += items[j].space_before + items[j].height
    return j, need


def paginate(items: list[Item], geo: Geometry) -> list[list[tuple[Item, float]]]:
    """Return the items placed on pages as (item, top y), keeping linked chains together.

    A figure that does not fit in the rest of a page lets the running text after it (not past a
    heading) fill the page first, and opens the next page; when that would leave more than
    SHRINK_WHEN of the page empty, the figure (with what keeps with it) is drawn smaller to fit,
    down to FIGURE_SHRINK of its size. A forced break stays on the page it ends (as a mark)."""
    return Pagination(items, geo).then([])


class Pagination:
    """Items placed on pages as paginate() places them, which more items may follow.

    ``then(more)`` returns the pages of the items followed by more, placing only more: the items
    are placed once however many endings are tried after them. An ending that the last of the
    items keeps with, or that starts with running text (which a figure before it could let fill
    its page first), is placed with them from the start, as paginate() would."""

    def __init__(self, items: list[Item], geo: Geometry) -> None:
        self.items = list(items)
        self.geo = geo
        self.pages: list[list[tuple[Item, float]]] = [[]]
        self.y = geo.top
        self.deferred: set[int] = set()
        self.done = _place(self.items, geo, self.pages, self.y, self.deferred, 0)

    def then(self, more: list[Item]) -> list[list[tuple[Item, float]]]:
        """Return the pages of the items followed by more."""
        if more and self.items and (self.items[-1].keep_with_next or more[0].kind in TEXT):
            return Pagination(self.items + more, self.geo).then([])
        items = self.items + more
        pages = [list(page) for page in self.pages]
        y, i = self.done
        _place(items, self.geo, pages, y, set(self.deferred), i)
        if not pages[-1] and len(pages) > 1:
            pages.pop()
        return pages


def _place(
    items: list[Item],
    geo: Geometry,
    pages: list[list[tuple[Item, float]]],
    y: float,
    deferred: set[int],
    i: int,
) -> tuple[float, int]:
    """Place items from index i on, the last page of pages filled down to y; return the y
    reached and the index placement stopped at (the end of items)."""
    bottom = geo.bottom + 1e-6
    chains: dict[int, tuple[int, float]] = {}  # _chain by index, until the items change

    def chain(k: int) -> tuple[int, float]:
        if k not in chains:
            chains[k] = _chain(items, k)
        return chains[k]

    while i < len(items):
        item = items[i]
        if item.kind == "break":
            if pages[-1]:
                pages[-1].append((item, y))
                pages.append([])
                y = geo.top
            i += 1
            continue
        at_top = not pages[-1]
        j, need = chain(i)
        if at_top:
            need -= item.space_before
        fits_fresh = need - (0.0 if at_top else item.space_before) <= geo.text_height
        if not at_top and y + need > bottom and (fits_fresh or y + item.space_before + item.height > bottom):
            if item.kind == "figure" and id(item) not in deferred:
                deferred.add(id(item))
                start = i + 1 + (1 if i + 1 < len(items) and items[i + 1].kind == "space" else 0)
                k, yy = start, y
                while k < len(items) and items[k].kind in TEXT:
                    last, more = chain(k)
                    if any(items[m].kind not in TEXT for m in range(k, last + 1)) or yy + more > bottom:
                        break
                    yy += more
                    k = last + 1
                if k > start:
                    items[i:k] = items[start:k] + items[i:start]
                    chains.clear()
                    continue
            figure = next((m for m in range(i, j + 1) if items[m].resize is not None), None)
            if figure is not None and fits_fresh and (bottom - y) / geo.text_height > SHRINK_WHEN:
                resize = items[figure].resize
                assert resize is not None
                smaller = resize(items[figure].height - (y + need - bottom))
                if smaller is not None:
                    items[figure] = smaller
                    chains.clear()
                    continue
            pages.append([])
            y = geo.top
            at_top = True
        if at_top and item.header is not None:
            pages[-1].append((item.header, y))
            y += item.header.height
            at_top = False
        if not at_top:
            y += item.space_before
        if item.height > 0 or not at_top:
            pages[-1].append((item, y))
        y += item.height
        i += 1
    return y, i


def footer_shapes(number: int, geo: Geometry, style: BookStyle, title: str) -> list[Shape]:
    """Return the page number at the outer corner and the title at the inner corner."""
    even = number % 2 == 0
    num = Text(
        geo.left if even else geo.right,
        geo.footer_y,
        str(number),
        8.5,
        "sans-bold",
        "start" if even else "end",
        style.accent,
    )
    shapes: list[Shape] = [num]
    if title:
        size = 7.5
        room = geo.text_width - 12.0
        text = title if _line_width(title, "sans-italic", size) <= room else ""
        if text:  # the title's icons (":coin:") set in it, as on the cover
            shapes.extend(
                inline.line_shapes(
                    geo.right if even else geo.left,
                    geo.footer_y,
                    text,
                    size,
                    "sans-italic",
                    "end" if even else "start",
                    style.muted,
                    style.icons,
                )
            )
    return shapes


def readable_figure(
    figures: FigureSource, component: str, overlay: str | None, fit: Callable[[Drawing], float]
) -> tuple[Drawing, float]:
    """Return a figure drawn for the scale it is shown at, and that scale.

    A figure shown smaller than true size is drawn again with a type floor (the size in points its
    texts need at true size to print at MIN_TYPE once scaled), so its kind can make room for
    them; any text still below the floor is then enlarged to it."""
    drawing = figures(component, overlay, 0.0)
    scale = fit(drawing)
    if scale < 1.0:
        drawing = figures(component, overlay, MIN_TYPE * 1.02 / scale)
        scale = fit(drawing)
        # the same drawing at the same scale reads the same: remembered as long as its source lives
        made = _READABLE.setdefault(figures, {})
        key = (id(drawing), scale)
        if key not in made:
            made[key] = (drawing, readable_at(drawing, scale))
        drawing = made[key][1]
    return drawing, scale


# figure source -> (id of a drawing, scale) -> (the drawing, kept so its id stays its own; the
# drawing made readable at that scale)
_READABLE: WeakKeyDictionary[FigureSource, dict[tuple[int, float], tuple[Drawing, Drawing]]] = (
    WeakKeyDictionary()
)


def cover_page(info: CoverInfo, geo: Geometry, style: BookStyle, figures: FigureSource) -> Page:
    """Return the cover: kicker, title, subtitle, optional figure, facts, summary, kit contents."""
    page = Page(geo.width, geo.height, label="booklet cover")
    w = geo.text_width
    shapes: list[Shape] = []
    y = geo.top

    def centred(
        text: str, size: float, font: str, colour: str, leading: float, heading: bool = False
    ) -> None:
        nonlocal y
        bold, italic = "bold" in font, "italic" in font
        for ln in break_lines(
            [
                (r.text, style.face(bold or r.bold, italic or r.italic, heading), colour)
                for r in parse_inline(text)
            ],
            size,
            w,
        ):
            shapes.extend(
                line_shapes(ln, geo.left, baseline_in(y, leading, size), size, "center", w, style.icons)
            )
            y += leading

    shapes.append(Rect(geo.left, y, w, 1.2, Style(None, style.accent)))
    y += 5.0
    if info.kicker:
        centred(info.kicker.upper(), 8.5, "sans-bold", style.accent, 8.5 * 1.4 * PT)
        y += 5.0
    centred(info.title, 26.0, "sans-bold", style.ink, 26.0 * 1.15 * PT, True)
    if info.subtitle:
        y += 1.5
        centred(info.subtitle, 12.0, "sans-italic", style.muted, 12.0 * 1.3 * PT)
    y += 5.0

    # bottom block first, so the figure gets the room that is left
    bottom_shapes: list[Shape] = []
    lead = style.leading
    col_w = (w - 6.0) / 2
    two_cols = len(info.kit) > 4
    entries = [
        break_lines(
            _pieces(parse_inline(entry), style, style.ink, False, False),
            style.body,
            (col_w if two_cols else w) - 5.0,
        )
        for entry in info.kit
    ]
    total_lines = sum(len(e) for e in entries)
    # (column, row, line, first line of its entry); whole entries go to the first column up to half
    kit_lines: list[tuple[int, int, TextLine, bool]] = []
    col = row = 0
    for entry_lines in entries:
        if two_cols and col == 0 and row > 0 and row + len(entry_lines) > (total_lines + 1) // 2:
            col, row = 1, 0
        for k, ln in enumerate(entry_lines):
            kit_lines.append((col, row, ln, k == 0))
            row += 1
    rows = max((r for _, r, _, _ in kit_lines), default=-1) + 1
    kit_h = (8.0 + rows * lead) if info.kit else 0.0
    facts_h = 13.0 if info.facts else 0.0
    summary_lines = (
        break_lines(_pieces(parse_inline(info.summary), style, style.ink, False, True), style.body, w - 10.0)
        if info.summary
        else []
    )
    summary_h = len(summary_lines) * lead + (4.0 if summary_lines else 0.0)
    block_h = facts_h + summary_h + kit_h
    yb = geo.bottom - block_h
    if info.facts:
        cell = w / len(info.facts)
        bottom_shapes.append(Line(geo.left, yb, geo.right, yb, Style(style.rule, None, 0.25)))
        for k, (label, value) in enumerate(info.facts):
            cx = geo.left + cell * k
            bottom_shapes.extend(
                line_shapes([(label.upper(), "sans-bold", style.muted)], cx, yb + 4.2, 7.0, "center", cell)
            )
            bottom_shapes.extend(
                line_shapes([(value, "sans-bold", style.ink)], cx, yb + 9.4, 11.0, "center", cell)
            )
        bottom_shapes.append(Line(geo.left, yb + 12.0, geo.right, yb + 12.0, Style(style.rule, None, 0.25)))
        yb += facts_h
    if summary_lines:
        yb += 3.0
        for ln in summary_lines:
            bottom_shapes.extend(
                line_shapes(
                    ln,
                    geo.left + 5.0,
                    baseline_in(yb, lead, style.body),
                    style.body,
                    "center",
                    w - 10.0,
                    style.icons,
                )
            )
            yb += lead
        yb += 1.0
    if info.kit:
        yb += 2.0
        bottom_shapes.extend(
            line_shapes(
                [(info.kit_title, "sans-bold", style.accent)], geo.left, baseline_in(yb, 6.0, 10.0), 10.0
            )
        )
        yb += 6.0
        for col, row, ln, first in kit_lines:
            x = geo.left + col * (col_w + 6.0)
            base = baseline_in(yb + row * lead, lead, style.body)
            if first:
                bottom_shapes.append(
                    Text(x + 0.4, round(base, 3), "\u2022", style.body, "sans-bold", "start", style.accent)
                )
            bottom_shapes.extend(line_shapes(ln, x + 5.0, base, style.body, icons=style.icons))

    if info.figure is not None:
        room_h = (geo.bottom - block_h) - y - 6.0
        room_w = w * 0.85
        if room_h > 20.0:
            drawing, scale = readable_figure(
                figures,
                *info.figure,
                lambda d: min(room_w / d.width, room_h / d.height, 1.0),
            )
            dw, dh = drawing.width * scale, drawing.height * scale
            top = y + (room_h - dh) / 2
            shapes.append(drawing.placed(round(geo.left + (w - dw) / 2, 3), round(top, 3), scale))
    page = page.plus(*shapes, *bottom_shapes)
    if info.footer:
        page = page.plus(Text(geo.width / 2, geo.footer_y, info.footer, 7.5, "sans", "middle", style.muted))
    return page


def flow(
    document: Document,
    geo: Geometry,
    style: BookStyle,
    figures: FigureSource,
    first_block: int = 0,
    whole: bool = False,
    check: FigureCheck | None = None,
    reuse: dict[tuple[int, float], list[Item]] | None = None,
) -> list[Item]:
    """Return a document's blocks as flow items with their keep-with-next links, the blocks
    numbered from first_block in the items' marks; whole: the items stay together on one page
    (when they fit one). With check, a figure is drawn smaller than planned only where it has no
    more layout findings than at its planned size. reuse: the items of the blocks with no figure
    by (block number, body size), kept from an earlier flow of the same document and geometry
    (they do not depend on the figure scale)."""
    made = _Flow(geo, style, figures, check)
    made.blocks = first_block
    previous = None
    for block in document.blocks:
        if isinstance(previous, Paragraph) and isinstance(block, (ListBlock, Table)) and made.items:
            made.items[-1].keep_with_next = True  # a paragraph introducing a list stays with it
        if isinstance(previous, Paragraph) and isinstance(block, FigureRow) and made.items:
            if plain_text(previous.runs).rstrip().endswith(":"):
                made.items[-1].keep_with_next = True  # ... and one introducing a figure ("as here:")
        key = (made.blocks, style.body)
        if reuse is not None and not whole and not isinstance(block, FigureRow) and key in reuse:
            made.items.extend(reuse[key])
            made.blocks += 1
        else:
            start = len(made.items)
            made.add_block(block)
            if reuse is not None and not whole and not isinstance(block, FigureRow):
                reuse[key] = made.items[start:]
        previous = block
    if whole:
        for item in made.items[:-1]:
            item.keep_with_next = True
    return made.items


def page_fill(placed: list[tuple[Item, float]], geo: Geometry) -> float:
    """Return how much of the text area's height placed items fill, from 0 to 1."""
    low = max((y + item.height for item, y in placed if item.kind not in ("space", "break")), default=geo.top)
    return min(1.0, max(0.0, low - geo.top) / geo.text_height)


def draw_pages(
    pages: list[list[tuple[Item, float]]],
    geo: Geometry,
    style: BookStyle,
    figures: FigureSource,
    cover: CoverInfo | None = None,
    running_title: str = "",
    numbered_from: int | None = 1,
) -> list[LaidPage]:
    """Return paginated items drawn as pages after the cover (when given), numbered from
    ``numbered_from`` (None: no page numbers)."""
    out: list[LaidPage] = []
    if cover is not None:
        out.append(LaidPage(cover_page(cover, geo, style, figures), ["cover"]))
    for placed in pages:
        number = len(out) + (numbered_from or 1)
        drawn: list[Shape] = []
        kinds: list[str] = []
        marks: list[Mark] = []
        for item, y in placed:
            drawn.extend(item.draw(y))
            if item.kind not in ("space", "break"):
                kinds.append(item.kind)
                marks.append(item.mark)
        if numbered_from is not None:
            drawn.extend(footer_shapes(number, geo, style, running_title))
        page = Page(geo.width, geo.height, tuple(drawn), label=f"booklet page {number}")
        forced = bool(placed) and placed[-1][0].kind == "break"
        out.append(LaidPage(page, kinds, marks, page_fill(placed, geo), forced))
    return out


def typeset(
    document: Document,
    geo: Geometry,
    style: BookStyle,
    figures: FigureSource,
    cover: CoverInfo | None = None,
    running_title: str = "",
    numbered_from: int | None = 1,
) -> list[LaidPage]:
    """Return the booklet's pages: the cover (when given) and the text pages, numbered from
    ``numbered_from`` (None: no page numbers)."""
    pages = paginate(flow(document, geo, style, figures), geo)
    return draw_pages(pages, geo, style, figures, cover, running_title, numbered_from)
