"""The booklet markup: a small Markdown-like block and inline language, parsed into plain values.

Blocks: ``#``/``##``/``###`` headings, paragraphs, ``-`` bullet and ``1.`` numbered lists (one
level of nesting), ``>`` notes, pipe tables, ``::: figure`` lines, ``::: pagebreak`` and
``::: meta`` lines. Inline: ``**bold**``, ``*italic*``, ```code```, icons (``:coin:``,
``:coin=gold:``: ``generator.model.inline``'s syntax, kept in the runs' text as written, a colon
escaped as ``::`` or ``\\:`` kept as ``::``) and ``\\`` escapes; straight quotes, ``--``, ``---`` and
``...`` become typographic characters. See ``README.md``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Union

from generator.definitions.schema import glyph_problem
from generator.foundation.errors import TemplateError
from generator.model import inline
from generator.model.fonts import has_glyphs


@dataclass(frozen=True, slots=True)
class Run:
    """A piece of text in one style; a ``\\n`` in text is a forced line break. Outside code, the
    text holds its icons in the inline syntax (``generator.model.inline``: ``:coin:``; ``::`` a
    colon); a code run's text is as written."""

    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False


Inline = tuple[Run, ...]


@dataclass(frozen=True)
class Heading:
    """A heading of level 1 to 3."""

    level: int
    runs: Inline


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of running text."""

    runs: Inline


@dataclass(frozen=True)
class Note:
    """A boxed note (lines starting with ``>``), one or more paragraphs."""

    paragraphs: tuple[Inline, ...]


@dataclass(frozen=True)
class ListItem:
    """One list entry and an optional nested list."""

    runs: Inline
    children: ListBlock | None = None


@dataclass(frozen=True)
class ListBlock:
    """A bullet list, or a numbered list starting at ``start``."""

    ordered: bool
    items: tuple[ListItem, ...]
    start: int = 1


@dataclass(frozen=True)
class Table:
    """A pipe table: a header row, body rows and column alignments ('left', 'center', 'right')."""

    header: tuple[Inline, ...]
    rows: tuple[tuple[Inline, ...], ...]
    align: tuple[str, ...]


@dataclass(frozen=True)
class Figure:
    """A drawing of a component, with optional overlay data name, width and caption."""

    component: str
    overlay: str | None = None
    width: tuple[float, str] | None = None  # (value, '%' or 'mm')
    caption: Inline = ()
    keep: bool = False  # stays on the page of the line before it (the line that introduces it)


@dataclass(frozen=True)
class FigureRow:
    """Figures side by side (consecutive figure lines)."""

    figures: tuple[Figure, ...]


@dataclass(frozen=True)
class PageBreak:
    """A forced page break."""


Block = Union[Heading, Paragraph, Note, ListBlock, Table, FigureRow, PageBreak]
META_KEYS = ("title", "subtitle", "summary", "players", "time", "ages", "kit", "rules", "kit_note")


@dataclass(frozen=True)
class Document:
    """A parsed booklet text: its blocks and the ``::: meta`` values (cover overrides)."""

    blocks: tuple[Block, ...]
    meta: dict[str, str] = field(default_factory=dict)


_BULLET = re.compile(r"^( *)([-*+]) +(.*)$")
_NUMBER = re.compile(r"^( *)([0-9]{1,3})[.)] +(.*)$")
_HEADING = re.compile(r"^(#{1,3}) +(.*?) *#*$")
_WIDTH = re.compile(r"^width=([0-9]+(?:\.[0-9]+)?)(%|mm)$")
_SEPARATOR_CELL = re.compile(r"^:?-+:?$")
REPLACE_CHARS = {"\u2009": " ", "\t": " "}  # characters the fonts lack (PnpSans draws U+202F)


Face = Callable[[bool, bool, bool], str]
"""The face a run is set in, given bold, italic and heading (``layout.BookStyle.face``)."""


def parse(
    text: str, source: str = "booklet", icons: inline.Icons | None = None, face: Face | None = None
) -> Document:
    """Return the document parsed from booklet markup; raise TemplateError naming the source (and
    the rendered line) when it is wrong, an unknown icon among it when icons (the definition's)
    are given, a character the face of its run cannot draw (face: the booklet's faces, a
    definition's own among them; None: the shipped ones)."""
    return _Parser(text, source, icons, face).parse()


class _Parser:
    def __init__(
        self, text: str, source: str, icons: inline.Icons | None = None, face: Face | None = None
    ) -> None:
        for bad, good in REPLACE_CHARS.items():
            text = text.replace(bad, good)
        self.lines = text.splitlines()
        self.source = source
        self.icons = icons
        self.face = face
        self.i = 0
        self.meta: dict[str, str] = {}

    def error(self, message: str, line: int | None = None) -> TemplateError:
        number = (self.i if line is None else line) + 1
        return TemplateError(f"{self.source}: rendered line {number}: {message}")

    def parse(self) -> Document:
        blocks: list[Block] = []
        while self.i < len(self.lines):
            line = self.lines[self.i]
            stripped = line.strip()
            if not stripped:
                self.i += 1
            elif stripped.startswith(":::"):
                block = self.directive()
                if block is not None:
                    blocks.append(block)
            elif _HEADING.match(stripped) and not line.startswith(" "):
                m = _HEADING.match(stripped)
                assert m is not None
                level = len(m.group(1))
                blocks.append(Heading(level, self.inline(m.group(2), True, level == 3, True)))
                self.i += 1
            elif stripped.startswith(">"):
                blocks.append(self.note())
            elif stripped.startswith("|"):
                blocks.append(self.table())
            elif _BULLET.match(line) or _NUMBER.match(line):
                blocks.append(self.list_block(0))
            else:
                blocks.append(Paragraph(self.inline(self.paragraph_text())))
        return Document(tuple(blocks), self.meta)

    def starts_block(self, line: str) -> bool:
        s = line.strip()
        return (
            not s
            or s.startswith(":::")
            or s.startswith(">")
            or s.startswith("|")
            or bool(_HEADING.match(s))
            or bool(_BULLET.match(line))
            or bool(_NUMBER.match(line))
        )

    def paragraph_text(self) -> str:
        parts = [self.lines[self.i].strip()]
        self.i += 1
        while self.i < len(self.lines) and not self.starts_block(self.lines[self.i]):
            parts.append(self.lines[self.i].strip())
            self.i += 1
        return _join_lines(parts)

    def directive(self) -> Block | None:
        stripped = self.lines[self.i].strip()
        body = stripped[3:].strip()
        name, _, rest = body.partition(" ")
        if name == "pagebreak":
            if rest.strip():
                raise self.error(f"'::: pagebreak' takes nothing after it, got {rest.strip()!r}")
            self.i += 1
            return PageBreak()
        if name == "meta":
            key, bar, value = rest.partition("|")
            key = key.strip()
            if not bar or key not in META_KEYS:
                raise self.error(f"expected '::: meta KEY | value' with KEY one of {', '.join(META_KEYS)}")
            self.meta[key] = value.strip()
            self.i += 1
            return None
        if name == "figure":
            figures = []
            while self.i < len(self.lines) and self.lines[self.i].strip().startswith("::: figure"):
                figures.append(self.figure(self.lines[self.i].strip()[len("::: figure") :]))
                self.i += 1
            return FigureRow(tuple(figures))
        raise self.error(f"unknown directive '::: {name}' (known: figure, pagebreak, meta)")

    def figure(self, text: str) -> Figure:
        head, _, caption = text.partition("|")
        words = head.split()
        if not words:
            raise self.error(
                "'::: figure' needs a component id, e.g. '::: figure board position:mill | Caption'"
            )
        component, overlay, width, keep = words[0], None, None, False
        for word in words[1:]:
            m = _WIDTH.match(word)
            if word == "keep":
                keep = True
            elif m:
                width = (float(m.group(1)), m.group(2))
                if width[0] <= 0 or (width[1] == "%" and width[0] > 100):
                    raise self.error(f"figure width must be between 0 and 100%, got {word!r}")
            elif overlay is None and "=" not in word:
                overlay = word
            else:
                raise self.error(
                    f"figure: unexpected {word!r} (expected: COMPONENT [DATA-NAME] "
                    "[width=NN% or width=NNmm] [keep] | caption)"
                )
        return Figure(component, overlay, width, self.inline(caption.strip(), italic=True), keep)

    def note(self) -> Note:
        paragraphs: list[Inline] = []
        current: list[str] = []
        while self.i < len(self.lines) and self.lines[self.i].strip().startswith(">"):
            content = self.lines[self.i].strip()[1:].strip()
            if content:
                current.append(content)
            elif current:
                paragraphs.append(self.inline(_join_lines(current)))
                current = []
            self.i += 1
        if current:
            paragraphs.append(self.inline(_join_lines(current)))
        if not paragraphs:
            raise self.error("a note ('>' lines) needs some text")
        return Note(tuple(paragraphs))

    def table(self) -> Table:
        start = self.i
        rows: list[list[str]] = []
        while self.i < len(self.lines) and self.lines[self.i].strip().startswith("|"):
            rows.append(_cells(self.lines[self.i].strip()))
            self.i += 1
        if len(rows) < 2 or not all(_SEPARATOR_CELL.match(c.replace(" ", "")) for c in rows[1]):
            raise self.error("a table needs a header row and then a separator row such as '|---|---|'", start)
        header, separator, body = rows[0], rows[1], rows[2:]
        columns = len(header)
        if len(separator) != columns:
            raise self.error(f"the separator row has {len(separator)} cells, the header {columns}", start + 1)
        align = tuple(
            "center"
            if c.strip().startswith(":") and c.strip().endswith(":")
            else "right"
            if c.strip().endswith(":")
            else "left"
            for c in separator
        )
        for n, row in enumerate(body):
            if len(row) != columns:
                raise self.error(f"table row has {len(row)} cells, the header has {columns}", start + 2 + n)
        return Table(
            tuple(self.inline(c, bold=True) for c in header),
            tuple(tuple(self.inline(c) for c in row) for row in body),
            align,
        )

    def list_block(self, indent: int) -> ListBlock:
        first = self.lines[self.i]
        ordered = bool(_NUMBER.match(first))
        m0 = _NUMBER.match(first) if ordered else _BULLET.match(first)
        assert m0 is not None
        start = int(m0.group(2)) if ordered else 1
        items: list[ListItem] = []
        while self.i < len(self.lines):
            line = self.lines[self.i]
            m = (_NUMBER if ordered else _BULLET).match(line)
            if m is None or len(m.group(1)) != indent:
                other = _NUMBER.match(line) or _BULLET.match(line)
                if other is not None and len(other.group(1)) == indent:
                    break  # a list of the other kind starts
                if other is not None and len(other.group(1)) > indent and items:
                    raise self.error("a nested list must follow an item of its parent list")
                break
            self.i += 1
            parts = [m.group(3).strip()]
            children: ListBlock | None = None
            while self.i < len(self.lines):
                nxt = self.lines[self.i]
                marker = _NUMBER.match(nxt) or _BULLET.match(nxt)
                if marker is not None:
                    deeper = len(marker.group(1))
                    if deeper > indent and children is None:
                        if indent > 0:
                            raise self.error("lists nest one level deep only")
                        children = self.list_block(deeper)
                        continue
                    break
                if not nxt.strip() or self.starts_block(nxt) or children is not None:
                    break
                parts.append(nxt.strip())
                self.i += 1
            items.append(ListItem(self.inline(_join_lines(parts)), children))
            while (
                self.i < len(self.lines) and not self.lines[self.i].strip() and self.i + 1 < len(self.lines)
            ):
                nxt = self.lines[self.i + 1]
                marker = (_NUMBER if ordered else _BULLET).match(nxt)
                if marker is not None and len(marker.group(1)) == indent:
                    self.i += 1  # a blank line between items keeps the list going
                else:
                    break
        return ListBlock(ordered, tuple(items), start)

    def inline(self, text: str, bold: bool = False, italic: bool = False, heading: bool = False) -> Inline:
        """Return a text's runs, checked: the face of each draws its characters (in the block's
        bold, italic or heading face, as the layout sets it) and its icons are known."""
        runs = parse_inline(
            text, self.error, None if self.face is None else (self.face, bold, italic, heading)
        )
        if self.icons is not None:
            for run in runs:
                problem = None if run.code else self.icons.problem(run.text)
                if problem:
                    raise self.error(problem)
        return runs


def _join_lines(parts: list[str]) -> str:
    """Join source lines with spaces; a line ending in a backslash forces a line break."""
    out = ""
    for n, part in enumerate(parts):
        if n:
            out += "\n" if out.endswith("\\") and not out.endswith("\\\\") else " "
        out += part
    return out.replace("\\\n", "\n")


def _cells(line: str) -> list[str]:
    """Return the cells of a pipe-table row (``\\|`` is a literal bar)."""
    inner = line[1:-1] if line.endswith("|") and not line.endswith("\\|") else line[1:]
    cells: list[str] = []
    current = ""
    escaped = False
    for ch in inner:
        if escaped:
            current += ch if ch == "|" else "\\" + ch
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "|":
            cells.append(current.strip())
            current = ""
        else:
            current += ch
    if escaped:
        current += "\\"
    cells.append(current.strip())
    return cells


#: The characters inline markup may give a meaning to (escapes, icons, breaks, code, bold and
#: italic); every other character is the text itself.
_INLINE_SPECIAL = re.compile(r"[\\:\n`*]")


def parse_inline(
    text: str,
    error: Callable[[str], TemplateError] | None = None,
    faces: tuple[Face, bool, bool, bool] | None = None,
) -> Inline:
    """Return the styled runs of one piece of inline markup, each checked to be drawn by its face
    (faces: the booklet's and the block's bold, italic and heading; None: the shipped faces)."""
    fail = error or (lambda message: TemplateError(message))
    runs: list[Run] = []
    buf = ""
    bold = italic = False
    i = 0
    n = len(text)
    last = " "

    def flush() -> None:
        nonlocal buf, last
        if buf:
            runs.append(Run(smarten(buf, last), bold, italic))
            last = buf[-1]
            buf = ""

    while i < n:
        special = _INLINE_SPECIAL.search(text, i)
        if special is None:  # plain text to the end
            buf += text[i:]
            break
        if special.start() > i:  # plain text up to the next character that may mark something
            buf += text[i : special.start()]
            i = special.start()
        ch = text[i]
        if ch == "\\" and i + 1 < n:
            nxt = text[i + 1]
            if nxt in "\\*`|#>-.:_[]":
                buf += {"-": "\x01", ".": "\x02", ":": "::"}.get(nxt, nxt)
                i += 2
                continue
        if ch == ":":
            icon = inline.ICON.match(text, i)
            if icon is not None:  # an icon (or ``::``, a colon) stays as written, never smartened
                if icon.group(0) == "::":
                    buf += "::"
                else:
                    flush()
                    runs.append(Run(icon.group(0), bold, italic))
                    last = ":"
                i = icon.end()
                continue
            if text.startswith("\\:", i + 1):  # ':' then an escaped one: '::' keeps it a colon
                buf += "::"
                i += 1
                continue
        if ch == "\n":
            flush()
            runs.append(Run("\n", bold, italic))
            last = " "
            i += 1
            continue
        if ch == "`":
            end = text.find("`", i + 1)
            if end < 0:
                raise fail(f"unclosed ` in {text!r}")
            flush()
            runs.append(Run(text[i + 1 : end], bold, italic, code=True))
            last = text[end - 1] if end > i + 1 else last
            i = end + 1
            continue
        if ch == "*":
            if text.startswith("**", i):
                if _is_marker(text, i, 2, bold):
                    flush()
                    bold = not bold
                    i += 2
                    continue
            elif _is_marker(text, i, 1, italic):
                flush()
                italic = not italic
                i += 1
                continue
        buf += ch
        i += 1
    flush()
    if bold or italic:
        raise fail(f"unclosed {'**' if bold else '*'} in {text!r}")
    for run in runs:
        _check_glyphs(run, fail, faces)
    return tuple(_merge(runs))


def _is_marker(text: str, i: int, width: int, is_open: bool) -> bool:
    """A closing marker follows non-space text; an opening one precedes non-space text."""
    before = text[i - 1] if i > 0 else " "
    after = text[i + width] if i + width < len(text) else " "
    if is_open:
        return not before.isspace()
    return not after.isspace()


def _merge(runs: list[Run]) -> list[Run]:
    out: list[Run] = []
    for run in runs:
        if (
            out
            and not run.code
            and not out[-1].code
            and run.text != "\n"
            and out[-1].text != "\n"
            and (out[-1].bold, out[-1].italic) == (run.bold, run.italic)
        ):
            out[-1] = Run(out[-1].text + run.text, run.bold, run.italic)
        else:
            out.append(run)
    return out


_OPENERS = " \n\u00a0([{\u2014\u2013/"


def smarten(text: str, before_text: str = " ") -> str:
    """Return text with typographic quotes, dashes and ellipses (escaped - and . stay as typed)."""
    text = text.replace("---", "\u2014").replace("--", "\u2013").replace("...", "\u2026")
    if '"' not in text and "'" not in text:  # no quote to turn: the characters stay as they are
        return text.replace("\x01", "-").replace("\x02", ".")
    out = []
    for i, ch in enumerate(text):
        before = text[i - 1] if i else before_text
        if ch == '"':
            out.append("\u201c" if before in _OPENERS else "\u201d")
        elif ch == "'":
            out.append("\u2018" if before in _OPENERS else "\u2019")
        else:
            out.append(ch)
    return "".join(out).replace("\x01", "-").replace("\x02", ".")


#: (face, text) of the runs found drawable, each checked once per process: a booklet's text is
#: parsed again for each of its layouts and languages, and a face's glyphs are read once per
#: process too (``generator.model.fonts``); cleared when it grows past _GLYPHS_KEPT
_DRAWABLE: set[tuple[str, str]] = set()
_GLYPHS_KEPT = 50_000


def _check_glyphs(
    run: Run, fail: Callable[[str], TemplateError], faces: tuple[Face, bool, bool, bool] | None = None
) -> None:
    text = run.text if run.code else inline.plain(run.text)
    if faces is not None:
        face, bold, italic, heading = faces
        font = face(bold or run.bold or run.code, italic or run.italic, heading and not run.code)
    else:
        font = "sans-bold" if run.bold or run.code else "sans"
        if run.italic:
            font = "sans-bolditalic" if font == "sans-bold" else "sans-italic"
    key = (font, text)
    if key in _DRAWABLE:
        return
    if faces is not None:
        problem = glyph_problem(text, font)
        if problem:
            raise fail(problem)
    elif not has_glyphs(text, font):
        missing = next(ch for ch in text if not has_glyphs(ch, font))
        raise fail(f"the character {missing!r} (U+{ord(missing):04X}) is not in the booklet font")
    if len(_DRAWABLE) >= _GLYPHS_KEPT:
        _DRAWABLE.clear()
    _DRAWABLE.add(key)


def plain_text(runs: Inline) -> str:
    """Return the text of runs without styles (and without icons, ``::`` read as a colon)."""
    return "".join(r.text if r.code else inline.plain(r.text) for r in runs)
