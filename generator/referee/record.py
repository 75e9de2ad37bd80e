"""Game records: header tags, move tokens with their line and column, an optional claimed result.

The format (rulings.md, "Common to every referee"): ``[Name "value"]`` header tags, then move
tokens separated by white space or new lines; ``#`` starts a comment to the end of the line; move
numbers such as ``12.`` and ``12...`` are ignored; a final ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``
is a claimed result. Records pnp writes number the moves by whose turn it was (``move_pieces``).
Games whose moves contain spaces (``GameRules.move_per_line``) write one move per line. This module only cuts the text into tokens; each game's State parses the moves themselves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from generator.foundation.errors import RecordError
from generator.foundation.languages import Msg

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_TOKEN = re.compile(r"\S+")
_MOVE_NUMBER = re.compile(r"^[0-9]+\.+")
_LINE_NUMBER = re.compile(r"^[0-9]+\.+\s*")


@dataclass(frozen=True)
class Token:
    """A piece of the record as written, with its 1-based line and column."""

    text: str
    line: int
    column: int


@dataclass(frozen=True)
class Tag:
    """A header tag ``[Name "value"]`` and where it starts."""

    name: str
    value: str
    line: int
    column: int


@dataclass(frozen=True)
class Record:
    """A parsed record: header tags in order, move tokens, and the claimed result token if any."""

    tags: tuple[Tag, ...]
    moves: tuple[Token, ...]
    result: Token | None = None

    def tag(self, name: str) -> Tag | None:
        """Return the tag with this name (case-sensitive), or None."""
        for tag in self.tags:
            if tag.name == name:
                return tag
        return None

    def tag_values(self) -> dict[str, str]:
        """Return the tags as a name -> value mapping."""
        return {tag.name: tag.value for tag in self.tags}


MAX_RECORD_BYTES = 10_000_000  # a record of a very long game is a few hundred kilobytes


def _is_utf16(data: bytes) -> bool:
    """Return True when the bytes read as UTF-16 text (with a byte-order mark, or ASCII with NULs)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"
    elif len(data) >= 4 and data[1:4:2] == b"\0\0":
        encoding = "utf-16-le"
    elif len(data) >= 4 and data[0:4:2] == b"\0\0":
        encoding = "utf-16-be"
    else:
        return False
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


def decode_record(data: bytes) -> str:
    """Return the record's text from UTF-8 bytes (a byte-order mark is dropped); raise RecordError if not UTF-8."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(Msg("record.too_large", n=MAX_RECORD_BYTES))
    if _is_utf16(data):
        raise RecordError(Msg("record.utf16"))
    if b"\0" in data:
        line = data[: data.index(b"\0")].count(b"\n") + 1
        raise RecordError(Msg("record.nul"), line)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise RecordError(Msg("record.not_utf8"), line, column) from None
    return text[1:] if text.startswith("\ufeff") else text


def _lines(text: str) -> list[str]:
    """Return the record's lines, whatever the line endings."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _strip_comment(line: str) -> str:
    """Return the line without its ``#`` comment."""
    cut = line.find("#")
    return line if cut < 0 else line[:cut]


def _parse_tags_on_line(line: str, number: int) -> list[Tag]:
    """Return the tags on a header line (one or more ``[Name "value"]``, then only a comment)."""
    tags: list[Tag] = []
    pos = len(line) - len(line.lstrip())
    while pos < len(line) and line[pos] == "[":
        start = pos
        pos += 1
        while pos < len(line) and line[pos] in " \t":
            pos += 1
        name_match = _TAG_NAME.match(line, pos)
        if not name_match:
            raise RecordError(Msg("record.tag.no_name"), number, pos + 1)
        name = name_match.group()
        pos = name_match.end()
        while pos < len(line) and line[pos] in " \t":
            pos += 1
        if pos >= len(line) or line[pos] != '"':
            raise RecordError(Msg("record.tag.quotes", name=name), number, pos + 1)
        pos += 1
        value: list[str] = []
        while True:
            if pos >= len(line):
                raise RecordError(Msg("record.tag.no_quote", name=name), number, start + 1)
            char = line[pos]
            if char == "\\" and pos + 1 < len(line) and line[pos + 1] in '"\\':
                value.append(line[pos + 1])
                pos += 2
                continue
            if char == '"':
                pos += 1
                break
            value.append(char)
            pos += 1
        while pos < len(line) and line[pos] in " \t":
            pos += 1
        if pos >= len(line) or line[pos] != "]":
            raise RecordError(Msg("record.tag.no_bracket", name=name), number, pos + 1)
        pos += 1
        tags.append(Tag(name, "".join(value), number, start + 1))
        while pos < len(line) and line[pos] in " \t":
            pos += 1
    rest = line[pos:]
    if rest.strip() and not rest.lstrip().startswith("#"):
        raise RecordError(Msg("record.tag.trailing"), number, pos + 1)
    return tags


def _is_tag_line(line: str) -> bool:
    return line.lstrip().startswith("[")


def parse_record(text: str, move_per_line: bool = False) -> Record:
    """Return the record's tags, move tokens and claimed result; raise RecordError with line and column."""
    tags: list[Tag] = []
    seen: dict[str, Tag] = {}
    moves: list[Token] = []
    result: Token | None = None
    for number, raw in enumerate(_lines(text), 1):
        if _is_tag_line(raw):
            if moves or result:
                raise RecordError(Msg("record.tag.late"), number, len(raw) - len(raw.lstrip()) + 1)
            for tag in _parse_tags_on_line(raw, number):
                if tag.name in seen:
                    raise RecordError(
                        Msg("record.tag.twice.line", name=tag.name, line=seen[tag.name].line),
                        number,
                        tag.column,
                    )
                seen[tag.name] = tag
                tags.append(tag)
            continue
        line = _strip_comment(raw)
        pieces = _line_tokens(line, number) if move_per_line else _word_tokens(line, number)
        for token in pieces:
            if result is not None:
                raise RecordError(Msg("record.after_result", result=result.text), token.line, token.column)
            if token.text in RESULTS:
                result = token
            else:
                moves.append(token)
    return Record(tuple(tags), tuple(moves), result)


def parse_tags(text: str) -> Record:
    """Return only the header tags (moves left unread), so the game can be found before the moves are cut."""
    tags: list[Tag] = []
    seen: set[str] = set()
    for number, raw in enumerate(_lines(text), 1):
        if _is_tag_line(raw):
            for tag in _parse_tags_on_line(raw, number):
                if tag.name in seen:
                    raise RecordError(Msg("record.tag.twice", name=tag.name), number, tag.column)
                seen.add(tag.name)
                tags.append(tag)
        elif _strip_comment(raw).strip():
            break
    return Record(tuple(tags), ())


def _word_tokens(line: str, number: int) -> list[Token]:
    """Return the white-space separated tokens of a line, move numbers dropped."""
    tokens = []
    for match in _TOKEN.finditer(line):
        word = match.group()
        column = match.start() + 1
        prefix = _MOVE_NUMBER.match(word)
        if prefix:
            word = word[prefix.end() :]
            column += prefix.end()
            if not word:
                continue
        tokens.append(Token(word, number, column))
    return tokens


def _line_tokens(line: str, number: int) -> list[Token]:
    """Return the line as one token (inner spaces collapsed, a leading move number dropped), or none."""
    stripped = line.strip()
    if not stripped:
        return []
    column = len(line) - len(line.lstrip()) + 1
    prefix = _LINE_NUMBER.match(stripped)
    if prefix:
        stripped = stripped[prefix.end() :]
        column += prefix.end()
        if not stripped:
            return []
    return [Token(" ".join(stripped.split()), number, column)]


def move_pieces(
    moves: Sequence[str], movers: Sequence[str] | None = None, numbered: bool = True
) -> list[str]:
    """Return the text of each move as a record writes it, each piece following the ones before.

    Numbered (two-sided games whose moves have no spaces): a move of the side that moved first
    starts a numbered line (``12. D=1``); the other side's move follows it on that line, or, when
    it does not follow a move of the first side (a side moving twice in a row, as in Aggression
    when Black claims last and attacks first), starts a line of its own numbered with dots
    (``14... xF``). So a move after ``N.`` is always the first side's and a move after ``N...``
    or second on a line the other side's. ``movers`` names the side of each move (default: the
    two sides in turn). Otherwise each move is a line of its own."""
    pieces: list[str] = []
    if not numbered:
        return [("\n" if i else "") + move for i, move in enumerate(moves)]
    sides = list(movers) if movers is not None else [str(i % 2) for i in range(len(moves))]
    if len(sides) != len(moves):
        raise ValueError(f"{len(moves)} moves but {len(sides)} sides")
    first = sides[0] if sides else None
    number = 0
    open_line = False  # the last line holds only a move of the first side
    for i, (move, side) in enumerate(zip(moves, sides)):
        start = "\n" if i else ""
        if side == first:
            number += 1
            pieces.append(f"{start}{number}. {move}")
            open_line = True
        elif open_line:
            pieces.append(f" {move}")
            open_line = False
        else:
            number += 1
            pieces.append(f"{start}{number}... {move}")
    return pieces


def record_str(
    tags: Mapping[str, str],
    moves: Sequence[str],
    result: str | None = None,
    move_per_line: bool = False,
    sides: int = 2,
    movers: Sequence[str] | None = None,
) -> str:
    """Return a record as text: tags, then the moves (numbered for two-sided games by the side of
    each move, ``move_pieces``), then the result.

    A result that is not a result token (a winner's name in a game of three or more) goes into a
    ``Result`` tag instead."""
    tags = dict(tags)
    if result and result not in RESULTS:
        tags["Result"] = result
        result = None
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()]
    if lines:
        lines.append("")
    if moves:
        lines.append("".join(move_pieces(moves, movers, numbered=not move_per_line and sides == 2)))
    if result:
        lines.append(result)
    return "\n".join(lines) + "\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
