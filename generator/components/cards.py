"""Card decks: a deck from data, one row per card with a quantity column, laid out by the
definition's card layout, printed n-up on card stock with crop marks and duplex backs.

The data is a CSV file beside the definition (``csv = "cards.csv"``; the first row names the
columns) or an inline TOML list (``cards = [{ name = "Fox", quantity = 2 }, ...]``). The layout is
a list of ``fields``, each a box on the card measured from its top left corner: a text (wrapped
into its box and shrunk to fit; ``{column}`` inserts a column's value), a symbol from the symbol
table, a colour band, or a picture (a PNG, JPEG or SVG file in the definition's folder or below
it; see ``generator.components.pictures``).
A field's colour, fill, symbol and picture may come from a column too (``fill = "{colour}"``,
``image = "art/{name}.png"``). Each card type (the ``type`` column) may have its own back
(``backs.<type>``, else ``back``); backs are printed on the reverse of the sheet, placed for a
long-edge flip.

Errors in the data name the CSV file, the row (as a spreadsheet numbers it: the header is row 1)
and the column, or the inline table's key path.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from generator.components import inline
from generator.components.base import Context, Output, nup_output
from generator.components.inline import has_icons, icons_of
from generator.components.look import contrast_ink, luminance
from generator.components.pictures import (
    check_picture,
    fit_field,
    grown,
    image_field,
    load_picture,
    picture_problem,
    picture_shapes,
)
from generator.components.rows import (
    Row,
    Table,
    condition,
    condition_field,
    fill_in,
    load_table,
    refs,
    shown,
    without_refs,
)
from generator.components.specs import CardsSpec, CardsSpecFields
from generator.components.symbols import SYMBOLS, draw_symbol
from generator.definitions.schema import Field, Where, glyph_problem
from generator.definitions.values import ComponentSpec
from generator.foundation.errors import DefinitionError
from generator.model.colour import readable
from generator.model.fonts import break_words, split_lines, text_width
from generator.model.page import Drawing, Rect, Shape, Style, Text
from generator.model.stored import PictureTable, StoredDrawing
from generator.model.units import parse_length
from generator.printing.imposition import SheetItem

SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
}
MAX_QUANTITY = 200  # copies of one card
MAX_DECK = 2000  # cards in one deck, copies counted
MIN_SIZE = 6.0  # pt, the smallest type a card prints
FRAME_INSET = 2.5  # mm, a frame's distance from the card's edge
LEADING = 1.2  # line height over type size
GREEK = "#b0b0b0"  # the bars standing for a text too small to read in a booklet's figure


def card_size(text: str) -> tuple[float, float]:
    """Return (width, height) in mm of a card size: a name (poker, bridge, mini, tarot) or
    ``"W x H"`` with units, such as ``"70mm x 100mm"``; raise ValueError otherwise."""
    key = text.strip().lower()
    if key in SIZES:
        return SIZES[key]
    parts = [p.strip() for p in re.split(r"\s*[x×]\s*(?=[0-9.])", text.strip(), maxsplit=1)]
    if len(parts) != 2:
        raise ValueError(
            f"a card size is {', '.join(f'{k} ({w:g} x {h:g} mm)' for k, (w, h) in SIZES.items())} "
            f'or "W x H" such as "70mm x 100mm", got {text!r}'
        )
    w, h = parse_length(parts[0]), parse_length(parts[1])
    if not (10.0 <= w <= 300.0 and 10.0 <= h <= 300.0):
        raise ValueError(f"a card is 10 to 300 mm each way, got {w:g} x {h:g} mm")
    return (w, h)


def _size_problem(value: str) -> str | None:
    try:
        card_size(value)
    except ValueError as exc:
        return str(exc)
    return None


FIELD_SCHEMA: dict[str, Field] = {
    "kind": Field(
        "str",
        default="text",
        choices=("text", "symbol", "band", "image"),
        doc="what the field draws: text, a symbol, a coloured band or an image",
    ),
    "text": Field("str", default="", doc="kind text: the text; {column} inserts the column's value"),
    "x": Field("length", default=0.0, min=0, doc="from the card's left edge"),
    "y": Field("length", default=0.0, min=0, doc="from the card's top edge"),
    "w": Field("length", default=None, min=0.5, doc="default: to the right edge less x"),
    "h": Field("length", default=None, min=0.5, doc="default: to the bottom edge less 4 mm"),
    "size": Field("float", default=9.0, min=MIN_SIZE, max=96, doc="text size in points (the largest)"),
    "min_size": Field("float", default=MIN_SIZE, min=MIN_SIZE, max=96, doc="shrink-to-fit stops here"),
    "font": Field(
        "str",
        default="sans",
        doc="kind text: the face: sans, sans-bold, sans-italic, sans-bolditalic or a name of the "
        "definition's [fonts] table",
    ),
    "align": Field(
        "str", default="left", choices=("left", "centre", "right"), doc="kind text: across the box"
    ),
    "valign": Field(
        "str", default="top", choices=("top", "middle", "bottom"), doc="kind text: up and down the box"
    ),
    "colour": Field(
        "str",
        default="",
        doc="text or symbol colour; may be {column} (default: black or white, whichever reads on the band under it)",
    ),
    "fill": Field("str", default="", doc="kind band: its colour; may be {column}"),
    "symbol": Field("str", default="", doc="kind symbol: a symbol name or {column}"),
    "image": Field(
        "str", default="", doc="kind image: a PNG, JPEG or SVG file beside the definition; may use {column}"
    ),
    "fit": Field(
        "str",
        default="contain",
        choices=("contain", "cover", "stretch"),
        doc="kind image: whole and centred, filling the box (cut to it), or stretched to it",
    ),
    "types": Field("list:str", default=[], doc="only on cards of these types (empty: every card)"),
    "when": condition_field(True),
    "unless": condition_field(False),
}
BACK_SCHEMA: dict[str, Field] = {
    "fill": Field("str", default="#ffffff", doc="the back's background colour"),
    "frame": Field("str", default="", doc="a rounded frame inside the edge, in this colour"),
    "symbol": Field("str", default="", doc="a symbol drawn in the middle of the back"),
    "symbol_colour": Field("str", default="", doc="the symbol's colour (default: a contrast to the fill)"),
    "text": Field("str", default="", doc="text printed on the back"),
    "text_colour": Field("str", default="", doc="the text's colour (default: a contrast to the fill)"),
    "size": Field("float", default=14.0, min=MIN_SIZE, max=96, doc="the back's text size in points"),
    "font": Field(
        "str", default="sans-bold", doc="the back's text face: a shipped face or a name of [fonts]"
    ),
    "image": image_field("a picture over the whole back (into the bleed), under its frame, symbol and text"),
    "fit": fit_field(),
}
SCHEMA: dict[str, Field] = {
    "size": Field("str", default="poker", check=_size_problem, doc="poker, bridge, mini, tarot or W x H"),
    "csv": Field(
        "str", default="", doc="a CSV file beside the definition: a header row, then a row per card"
    ),
    "cards": Field("any", default=None, doc="or the rows inline: a list of tables, column = value"),
    "quantity": Field("str", default="quantity", doc="the column with each card's number of copies"),
    "type": Field("str", default="type", doc="the column with each card's type (which back it has)"),
    "background": Field("str", default="#ffffff", doc="the colour of every card's face"),
    "frame": Field("str", default="", doc="a rounded frame inside the card's edge, in this colour"),
    "fields": Field(
        "tables",
        default=[],
        schema=FIELD_SCHEMA,
        doc="what each card's face shows: text, symbols, bands and images placed in boxes",
    ),
    "back": Field(
        "table", default=None, schema=BACK_SCHEMA, doc="the back of every card type without its own"
    ),
    "backs": Field("map-table", default={}, schema=BACK_SCHEMA, doc="backs by card type"),
}


Deck = Table  # a deck's data: its rows of cards
CardField = CardsSpecFields  # a field of the card's layout, its keys typed


def load_deck(values: dict[str, Any], where: Where) -> Deck:
    """Return a deck's data from its CSV file (beside the definition) or inline ``cards``."""
    deck = load_table(values, where, "cards", "card")
    if deck is None:
        raise where.child("csv").error(
            'give the deck: csv = "cards.csv" (beside the definition) or cards = [...]'
        )
    return deck


_refs = refs
_fill_in = fill_in


def check_spec(values: dict[str, Any], where: Where) -> None:
    """Read the deck's data (a CSV beside the definition, or inline), check its quantities and
    that every column the layout names exists, and keep the rows in the spec."""
    deck = load_deck(values, where)
    columns = set(deck.columns)
    width, height = card_size(values["size"])
    for i, field in enumerate(values["fields"]):
        at = where.child("fields").child(i)
        for key in ("text", "colour", "fill", "symbol", "image"):
            for ref in _refs(field[key]):
                if ref not in columns:
                    raise at.child(key).error(
                        f"no column {ref!r} in the deck (columns: {', '.join(deck.columns)})"
                    )
        kind = field["kind"]
        need = {"symbol": "symbol", "band": "fill", "text": "text", "image": "image"}[kind]
        if not field[need]:
            raise at.child(need).error(f"a {kind} field needs {need}")
        if kind == "image" and not _refs(field["image"]):
            problem = picture_problem(os.path.dirname(where.file), field["image"])
            if problem:
                raise at.child("image").error(problem)
        x, y, w, h = box(CardsSpecFields.from_values(field), width, height)
        if w <= 0 or h <= 0 or x + w > width + 1e-6 or y + h > height + 1e-6:
            raise at.error(f"the field's box lies outside the {width:g} x {height:g} mm card")
        field["when"] = condition(field["when"], deck, at.child("when"))
        field["unless"] = condition(field["unless"], deck, at.child("unless"))
    total = sum(deck.count(row, values["quantity"], MAX_QUANTITY) for row in deck.rows)
    if total > MAX_DECK:
        raise where.error(f"a deck of at most {MAX_DECK} cards, got {total}")
    if total == 0:
        raise where.error("the deck has no cards (every quantity is 0)")
    folder = os.path.dirname(where.file)
    if values["back"] is not None:
        check_picture(folder, values["back"].get("image") or "", where.child("back").child("image"))
    for name, look in values["backs"].items():
        check_picture(folder, look.get("image") or "", where.child("backs").child(name).child("image"))
    kinds = {row.cells.get(values["type"], "") for row in deck.rows}
    listed = ", ".join(sorted(k for k in kinds if k)) or "none"
    for name in values["backs"]:
        if name not in kinds:
            raise (
                where.child("backs")
                .child(name)
                .error(f"no card of type {name!r} (types: {listed}){_near(name, kinds)}")
            )
    for i, field in enumerate(values["fields"]):
        for name in field["types"]:
            if name not in kinds:
                raise (
                    where.child("fields")
                    .child(i)
                    .child("types")
                    .error(f"no card of type {name!r} (types: {listed}){_near(name, kinds)}")
                )
    if values["backs"] and values["back"] is None:
        # with backs by type and no common back, a card of any other type would print without a
        # back: a misspelt type ("spel") is an error, not a card silently single-sided
        for row in deck.rows:
            kind = row.cells.get(values["type"], "")
            if kind not in values["backs"]:
                named = f"type {kind!r}" if kind else "no type"
                raise deck.error(
                    row,
                    values["type"],
                    f"{named} has no back (backs: {', '.join(sorted(values['backs']))}){_near(kind, values['backs'])}; "
                    f"give it [components.{deck.component}.backs.{kind or '...'}] or a common back",
                )
    values["cards"] = deck  # the rows, read once, go with the spec
    values["csv"] = ""


def _near(name: str, names: Iterable[str]) -> str:
    """Return "; did you mean 'x'?" for the name closest to a misspelt one, or "" when none is."""
    found = [n for n in names if n and n.lower() == name.lower()] or difflib.get_close_matches(
        name, [n for n in names if n], n=1, cutoff=0.6
    )
    return f"; did you mean {found[0]!r}?" if name and found else ""


def box(field: CardField, width: float, height: float) -> tuple[float, float, float, float]:
    """Return a field's box (x, y, w, h) on a card of width x height mm."""
    x, y = field.x, field.y
    if field.kind == "band":
        w = field.w if field.w is not None else width - x
        h = field.h if field.h is not None else height - y
    else:
        w = field.w if field.w is not None else width - 2 * x
        h = field.h if field.h is not None else height - y - 4.0
    return (x, y, w, h)


def _image_shapes(
    field: CardField,
    row: Row,
    x: float,
    y: float,
    w: float,
    h: float,
    deck: Deck,
    ctx: Context,
    key: str,
) -> list[Shape]:
    """Return a picture field drawn into its box, or raise an error naming its row and column."""
    name = _fill_in(field.image, row).strip()
    if not name or any(not row.cells.get(ref, "").strip() for ref in _refs(field.image)):
        return []  # an empty cell: this card has no picture
    folder = os.path.dirname(ctx.definition.path)
    problem = picture_problem(folder, name)
    if problem:
        refs = _refs(field.image)
        if refs:
            raise deck.error(row, refs[0], problem)
        raise DefinitionError(f"{ctx.definition.path}: components.{deck.component}.{key}.image: {problem}")
    picture = load_picture(folder, name, f"{ctx.definition.path}: components.{deck.component}.{key}.image")
    return picture_shapes(picture, (x, y, w, h), field.fit)


def _colour(value: str, row: Row, key: str, field: CardField, deck: Deck, ctx: Context) -> str | None:
    """Return a field's colour for a card: its own, or a column's value (checked here)."""
    text = _fill_in(value, row).strip()
    refs = _refs(value)
    if not text or text == "none":
        return None
    if text.startswith("#") and re.fullmatch(r"#[0-9a-fA-F]{6}", text):
        return text.lower()
    if text in ctx.definition.palette:
        return ctx.definition.palette[text]
    problem = (
        f'unknown colour {text!r} (use "#rrggbb" or a palette name: '
        f"{', '.join(sorted(ctx.definition.palette)) or 'none defined'})"
    )
    if refs:
        raise deck.error(row, refs[0], problem)
    raise DefinitionError(f"{ctx.definition.path}: components.{deck.component}.fields: {key}: {problem}")


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Return text broken into lines no wider than width mm (a line break in the text starts a
    new line; an icon counts as its width), or an empty list when a single word is wider than
    the box."""
    lines: list[str] = []
    iconic = has_icons(text)
    split = inline.split_lines if iconic else split_lines
    measure = inline.line_width if iconic else text_width
    for paragraph in text.split("\n"):
        for line in split(paragraph.strip(), font, size, width):
            if measure(line, font, size) > width + 1e-6:
                return []
            lines.append(line)
    return lines


def fit_text(
    text: str, font: str, size: float, min_size: float, w: float, h: float
) -> tuple[float, list[str]] | None:
    """Return (size, lines) of the largest type from size down to min_size (in quarter points) at
    which text wraps into a w x h mm box, or None when it does not fit even at min_size."""
    # Every line is at most w wide and at least as wide as its words, so a size at which the
    # words alone are wider than the most lines the box holds cannot fit: it is passed over
    # without wrapping (widths grow with the size; the margin covers their rounding).
    measure = inline.line_width if has_icons(text) else text_width
    paragraphs = [break_words(paragraph.strip()) for paragraph in text.split("\n")]
    widths = [[measure(word, font, 1.0) for word in words] for words in paragraphs]
    words = sum(sum(row) for row in widths)
    space = text_width(" ", font, 1.0)
    pt = size
    while pt >= min_size - 1e-9:
        em = pt * 25.4 / 72
        if words * pt <= _most_lines(em, h) * (w + 1e-6) * (1 + 1e-7):
            lines = _wrap_measured(paragraphs, widths, space, font, pt, w)
            if lines and (len(lines) - 1) * em * LEADING + em * 0.97 <= h + 1e-6:
                return pt, lines
        pt -= 0.25
    return None


CLOSE = 1e-7  # mm: far more than the rounding between a line's width and the sum of its words'


def _wrap_measured(
    paragraphs: list[list[str]], widths: list[list[float]], space: float, font: str, size: float, width: float
) -> list[str]:
    """Return what ``wrap`` returns for a text given as its paragraphs' words and their widths at
    1 pt (and a space's): a line's width is the sum of its words' and spaces' at the size, and
    only a sum within ``CLOSE`` of the limit is measured again as ``wrap`` measures it (a line's
    advance widths add up, so the two differ by rounding alone)."""
    lines: list[str] = []
    gap = space * size
    for words, sizes in zip(paragraphs, widths, strict=True):
        start = len(lines)
        run = 0.0
        for word, one in zip(words, sizes, strict=True):
            wide = one * size
            if len(lines) > start:
                longer = run + gap + wide
                limit = width + 1e-9
                if longer < limit - CLOSE or (
                    longer <= limit + CLOSE and inline.line_width(lines[-1] + " " + word, font, size) <= limit
                ):
                    lines[-1] += " " + word
                    run = longer
                    continue
                if not _fits(lines[-1], run, font, size, width):
                    return []
            lines.append(word)
            run = wide
        if len(lines) == start:
            lines.append("")
        elif not _fits(lines[-1], run, font, size, width):
            return []
    return lines


def _fits(line: str, run: float, font: str, size: float, width: float) -> bool:
    """Return whether a line of about ``run`` mm is no wider than ``width`` mm as ``wrap`` checks."""
    if run < width + 1e-6 - CLOSE:
        return True
    if run > width + 1e-6 + CLOSE:
        return False
    return inline.line_width(line, font, size) <= width + 1e-6


def _most_lines(em: float, h: float) -> int:
    """Return the most lines of type ``em`` mm tall that a box h mm tall holds (as ``fit_text`` counts)."""
    n = max(0, int((h + 1e-6 - em * 0.97) / (em * LEADING)) + 2)
    while n > 0 and not (n - 1) * em * LEADING + em * 0.97 <= h + 1e-6:
        n -= 1
    return n


def _text_shapes(
    text: str,
    field: CardField,
    x: float,
    y: float,
    w: float,
    h: float,
    colour: str,
    where: str,
    floor: float = 0.0,
    icons: inline.Icons | None = None,
) -> list[Shape]:
    """Return a text field's lines, wrapped and shrunk to fit its box (none in a figure where they
    would print smaller than ``floor`` points at true size), icons set in them."""
    font = field.font
    icons = icons or inline.Icons()
    icons.check(text, where)
    letters = inline.plain(text)
    problem = glyph_problem(letters, font)
    if problem:
        raise DefinitionError(f"{where}: {problem}")
    fitted = fit_text(text, font, field.size, min(field.min_size, field.size), w, h)
    if fitted is None:
        raise DefinitionError(
            f"{where}: the text does not fit its {w:g} x {h:g} mm box at {field.min_size:g} pt; "
            "shorten it or make the box larger"
        )
    pt, lines = fitted
    greek = False
    if pt < floor:
        # a figure shown small: the text set again at the floor, still in its box; a text the box
        # cannot hold at the floor shows its lines as grey bars, so the card never looks blank
        refit = fit_text(text, font, max(field.size, floor), floor, w, h)
        if refit is not None:
            pt, lines = refit
        else:
            greek = True
    em = pt * 25.4 / 72
    block = (len(lines) - 1) * em * LEADING + em * 0.97
    top = {"top": y, "middle": y + (h - block) / 2, "bottom": y + h - block}[field.valign]
    anchor = {"left": "start", "centre": "middle", "right": "end"}[field.align]
    ax = {"left": x, "centre": x + w / 2, "right": x + w}[field.align]
    if greek:
        bars: list[Shape] = []
        for i, line in enumerate(lines):
            if not line:
                continue
            lw = text_width(line, font, pt)
            left = {"start": ax, "middle": ax - lw / 2, "end": ax - lw}[anchor]
            base = top + em * 0.76 + i * em * LEADING
            bars.append(Rect(left, base - em * 0.5, lw, em * 0.45, Style(stroke=None, fill=GREEK)))
        return bars
    return [
        shape
        for i, line in enumerate(lines)
        if line
        for shape in inline.line_shapes(
            ax, top + em * 0.76 + i * em * LEADING, line, pt, font, anchor, colour, icons
        )
    ]


@dataclass(frozen=True)
class Card:
    """One distinct card of a deck: its row, type, number of copies, front and back."""

    row: Row
    type: str
    copies: int
    front: Drawing
    back: Drawing | None


def _front(spec: ComponentSpec, ctx: Context, deck: Deck, row: Row, kind: str, floor: float = 0.0) -> Drawing:
    values = spec.typed(CardsSpec)
    width, height = card_size(values.size)
    ink_saver = ctx.options.ink_saver
    shapes: list[Shape] = []
    background = ctx.colour(values.background)
    face = "#ffffff"
    if background and background != "#ffffff" and not (ink_saver and luminance(background) < 0.9):
        shapes.append(Rect(0, 0, width, height, Style(stroke=None, fill=background)))
        face = background
    frame = ctx.colour(values.frame)
    bands: list[tuple[tuple[float, float, float, float], str]] = []
    ink: list[Shape] = []  # texts and symbols, drawn over the bands and the frame
    for i, field in enumerate(values.fields):
        if field.types and kind not in field.types:
            continue
        if not shown(field.when, field.unless, row):
            continue
        x, y, w, h = box(field, width, height)
        key = f"fields[{i}]"
        if field.kind == "image":
            shapes.extend(_image_shapes(field, row, x, y, w, h, deck, ctx, key))
            continue
        if field.kind == "band":
            fill = _colour(field.fill, row, key, field, deck, ctx)
            if fill is None:
                continue
            if ink_saver and luminance(fill) < 0.9:
                shapes.append(Rect(x, y, w, h, Style(stroke=fill, fill=None, width=0.6)))
            else:
                shapes.append(Rect(x, y, w, h, Style(stroke=None, fill=fill)))
                bands.append(((x, y, x + w, y + h), fill))
            continue
        under = face
        for (bx0, by0, bx1, by1), fill in bands:
            if bx0 <= x + w / 2 <= bx1 and by0 <= y + h / 2 <= by1:
                under = fill
        colour = _colour(field.colour, row, key, field, deck, ctx) or contrast_ink(under)
        if ink_saver:
            colour = readable(colour, under)
        if field.kind == "symbol":
            name = _fill_in(field.symbol, row).strip()
            if not name:
                continue
            if name not in SYMBOLS:
                problem = f"unknown symbol {name!r} (symbols: {', '.join(sorted(SYMBOLS))})"
                refs = _refs(field.symbol)
                raise deck.error(row, refs[0], problem) if refs else DefinitionError(problem)
            ink.extend(draw_symbol(name, x + w / 2, y + h / 2, min(w, h), colour))
        elif field.kind == "text":
            text = _fill_in(field.text, row).strip()
            if not text:
                continue
            refs = _refs(field.text)
            where = deck.where(row, refs[0]) if refs else f"{ctx.definition.path}: components.{spec.id}.{key}"
            icons = icons_of(ctx.definition) if has_icons(text) else None
            if icons is not None:  # an icon written in the field itself: named by its key
                icons.check(
                    without_refs(field.text), f"{ctx.definition.path}: components.{spec.id}.{key}.text"
                )
            ink.extend(_text_shapes(text, field, x, y, w, h, colour, where, floor, icons))
    if frame:
        inset = FRAME_INSET
        shapes.append(
            Rect(inset, inset, width - 2 * inset, height - 2 * inset, Style(stroke=frame, width=0.5), r=2.0)
        )
    shapes.extend(ink)
    label = row.cells.get(_name_column(deck), "") or f"card {row.number}"
    return Drawing(width, height, tuple(shapes), label)


def _deck(spec: ComponentSpec) -> Deck:
    """Return the deck's rows, read once by ``check_spec`` and kept in its ``cards`` key."""
    deck = spec.typed(CardsSpec).cards
    assert isinstance(deck, Table), spec.id
    return deck


def _name_column(deck: Deck) -> str:
    for name in ("name", "title", "Name", "Title"):
        if name in deck.columns:
            return name
    return ""


def _back(spec: ComponentSpec, ctx: Context, kind: str) -> Drawing | None:
    values = spec.typed(CardsSpec)
    look = values.backs.get(kind, values.back)
    if look is None:
        return None
    width, height = card_size(values.size)
    shapes: list[Shape] = []
    fill = ctx.colour(look.fill)
    face = "#ffffff"
    frame = ctx.colour(look.frame)
    if fill and fill != "#ffffff":
        if ctx.options.ink_saver and luminance(fill) < 0.9:
            frame = frame or fill
        else:
            shapes.append(Rect(0, 0, width, height, Style(stroke=None, fill=fill)))
            face = fill
    if look.image:
        at = f"backs.{kind}" if kind in values.backs else "back"
        where = f"{ctx.definition.path}: components.{spec.id}.{at}.image"
        picture = load_picture(os.path.dirname(ctx.definition.path), look.image, where)
        box = grown((0.0, 0.0, width, height), (width, height), ctx.options.bleed)
        shapes.extend(picture_shapes(picture, box, look.fit))
    if frame:
        inset = FRAME_INSET
        colour = readable(frame, face) if ctx.options.ink_saver else frame
        shapes.append(
            Rect(inset, inset, width - 2 * inset, height - 2 * inset, Style(stroke=colour, width=0.8), r=2.0)
        )
    ink = contrast_ink(face)

    def own(value: str) -> str:
        """Return a back's colour, kept readable on the white of the ink saver."""
        colour = ctx.colour(value) or ink
        return readable(colour, face) if ctx.options.ink_saver else colour

    text = look.text
    symbol_h = min(width, height) * 0.45 if look.symbol else 0.0
    em = look.size * 25.4 / 72
    gap = 3.0 if symbol_h and text else 0.0
    top = height / 2 - (symbol_h + gap + (em * 0.73 if text else 0.0)) / 2
    if look.symbol:
        shapes.extend(
            draw_symbol(look.symbol, width / 2, top + symbol_h / 2, symbol_h, own(look.symbol_colour))
        )
    if text:
        colour = own(look.text_colour)
        room = width - 2 * FRAME_INSET - 4.0
        pt = look.size
        font = look.font
        if has_icons(text):
            key = f"backs.{kind}" if kind in values.backs else "back"
            icons_of(ctx.definition).check(text, f"{ctx.definition.path}: components.{spec.id}.{key}.text")
        while inline.line_width(text, font, pt) > room and pt > MIN_SIZE:
            pt = max(MIN_SIZE, pt - 0.25)
        if inline.line_width(text, font, pt) > room:
            raise DefinitionError(
                f"{ctx.definition.path}: components.{spec.id}: the back's text {text!r} does not fit the card"
            )
        line = Text(width / 2, top + symbol_h + gap + em * 0.73, text, pt, font, "middle", colour)
        shapes.extend(inline.set_line(line, ctx.definition))
    return Drawing(width, height, tuple(shapes), f"{kind or values.title or spec.id} back")


def deck_cards(spec: ComponentSpec, ctx: Context, floor: float = 0.0) -> list[Card]:
    """Return every distinct card of the deck in the data's order, with its copies, front and back
    (``floor``: a figure's type floor, see ``_text_shapes``)."""
    deck = _deck(spec)
    backs: dict[str, Drawing | None] = {}
    cards: list[Card] = []
    for row, kind, copies in _deck_rows(spec):
        if kind not in backs:
            backs[kind] = _back(spec, ctx, kind)
        cards.append(Card(row, kind, copies, _front(spec, ctx, deck, row, kind, floor), backs[kind]))
    return cards


def _deck_rows(spec: ComponentSpec) -> list[tuple[Row, str, int]]:
    """Return (row, type, copies) of every row of the deck that makes a card, in the data's order."""
    values = spec.typed(CardsSpec)
    deck = _deck(spec)
    out: list[tuple[Row, str, int]] = []
    for row in deck.rows:
        copies = int(row.cells[values.quantity]) if values.quantity in deck.columns else 1
        if copies:
            out.append((row, row.cells.get(values.type, ""), copies))
    return out


def items(spec: ComponentSpec, ctx: Context) -> list[SheetItem]:
    """Return one sheet item per card (copies included), in the data's order. Each front is kept
    packed (``StoredDrawing``) and unpacked when a sheet showing it is drawn: a deck of a thousand
    fronts is not held drawn while the kit is packed and written."""
    result: list[SheetItem] = []
    table = PictureTable()
    for card in deck_cards(spec, ctx):
        result.extend([SheetItem(StoredDrawing(card.front, table), card.back)] * card.copies)
    return result


def contents(spec: ComponentSpec, ctx: Context) -> list[tuple[str, int]]:
    """Return (type, count) of the deck's cards by type, for the print guide's checklist."""
    values = spec.typed(CardsSpec)
    counts: dict[str, int] = {}
    for _, kind, copies in _deck_rows(spec):  # no card drawn: the counts need none
        name = kind or values.title or spec.id
        counts[name] = counts.get(name, 0) + copies
    return list(counts.items())


def drawing(spec: ComponentSpec, ctx: Context, overlay: dict[str, Any] | None = None) -> Drawing:
    """Return the first card of each type side by side (with its back), for a booklet figure."""
    values = spec.typed(CardsSpec)
    from generator.components.look import figure_grid

    floor = (overlay or {}).get("type_floor", 0.0)
    seen: dict[str, Card] = {}
    deck = _deck(spec)
    for row, kind, copies in _deck_rows(spec):  # only the first card of each type is drawn
        if kind not in seen:
            front = _front(spec, ctx, deck, row, kind, floor)
            seen[kind] = Card(row, kind, copies, front, _back(spec, ctx, kind))
    arts: list[Drawing] = []
    names: list[str] = []
    for card in seen.values():
        arts.append(_bordered(card.front))
        names.append(card.front.label)
        if card.back is not None and len(seen) <= 2:
            arts.append(_bordered(card.back))
            names.append("back")
    shapes, width, height = figure_grid(arts, names, floor, 4.0)
    return Drawing(width, height, shapes, values.title or spec.id)


def _bordered(art: Drawing) -> Drawing:
    """Return a card with its outline drawn (a figure shows where the card ends)."""
    outline = Rect(0, 0, art.width, art.height, Style(stroke="#777777", width=0.3), r=2.5)
    return Drawing(art.width, art.height, (*art.shapes, outline), art.label)


def build(spec: ComponentSpec, ctx: Context) -> list[Output]:
    """Return the deck's sheets: cards n-up with crop marks, each sheet of cards with backs
    followed by its backs page placed for a long-edge flip (with --bleed, the background, the
    bands along the edges and the backs' fill run past every cut)."""
    return nup_output(spec, ctx, items(spec, ctx), lazy=True)
