"""The budget of a whole kit: every value of a definition has its own bound (the schemas), and this
module bounds what they ask for together, so that any definition builds, or is refused, within
seconds and a modest amount of memory.

Two checks, both made by ``pnp check`` and ``pnp build`` alike:

- ``check_plan`` (from the plan, before anything is drawn): a cheap upper estimate per kind of the
  pieces (counters, standees, dice nets, cards) a kit asks for, the sheets they and the record
  sheets fill and the shapes they draw; the paper's printable area must stay usable with the
  definition's margin;
- ``check_drawn`` (after each component is drawn, before anything is written or rasterised): the
  exact sheets and shapes of the kit's pages, and the pixels of the PNGs ``--png`` would write.

Beyond a limit is a one-line error naming the key that tips it (exit 3; the PNGs' pixels, which
the option asks for, exit 2).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from generator.components.base import Context, Output
from generator.components.table_sheet import blocks_of
from generator.definitions.values import ComponentSpec
from generator.foundation.errors import DefinitionError, UsageError
from generator.model.page import Drawing, Group, Shape
from generator.printing.imposition import Paper, SheetPages

MAX_PIECES = 5_000  # cut-out pieces (counters, standees, dice nets, cards) in one kit
MAX_PAGES = 500  # pages of one kit's components (sheets, tiles, backs pages, record pages)
MAX_PACKING = 500_000  # pieces times the sheets their fronts fill (the packer's work grows so)
MAX_SHAPES = 400_000  # shapes drawn on all of one kit's pages (a group's shapes on each page it is on)
MAX_PNG_PIXELS = 50_000_000  # pixels of one PNG under --png
MAX_PNG_TOTAL = 200_000_000  # pixels of all of a kit's PNGs under --png
MIN_PRINTABLE = 100.0  # mm: the shorter side of a sheet's printable area, at least
MIN_BOOKLET_PRINTABLE = 80.0  # mm: the same of a booklet's page (half a sheet)

# shapes one piece draws at most, by kind (outline, cut marks, symbol, texts): upper estimates
_PIECE_SHAPES = {"counters": 40, "standees": 60, "dice-nets": 90, "cards": 12}


class _Tally:
    """Running totals of a kit against the budget; ``add`` names the key that tips one."""

    def __init__(self, definition: Any) -> None:
        self.path = definition.path
        self.pieces = 0
        self.sheets = 0.0
        self.shapes = 0
        self.piece_sheets = 0.0

    def add(
        self, key: str, pieces: int = 0, sheets: float = 0.0, shapes: int = 0, piece_sheets: float = 0.0
    ) -> None:
        """Add what a key asks for; raise DefinitionError naming it when a total goes over."""
        self.pieces += pieces
        self.sheets += sheets
        self.shapes += shapes
        self.piece_sheets += piece_sheets
        packing = self.pieces * math.ceil(self.piece_sheets - 1e-9)
        if packing > MAX_PACKING:
            self._fail(
                key,
                f"the kit's {self.pieces} pieces would fill {math.ceil(self.piece_sheets)} sheets; "
                f"pieces times sheets at most {MAX_PACKING}",
            )
        if self.pieces > MAX_PIECES:
            self._fail(key, f"the kit would have {self.pieces} pieces or more, at most {MAX_PIECES}")
        if math.ceil(self.sheets - 1e-9) > MAX_PAGES:
            self._fail(key, f"the kit would fill {math.ceil(self.sheets)} pages or more, at most {MAX_PAGES}")
        if self.shapes > MAX_SHAPES:
            self._fail(key, f"the kit would draw {self.shapes} shapes or more, at most {MAX_SHAPES}")

    def _fail(self, key: str, message: str) -> None:
        raise DefinitionError(f"{self.path}: {key}: {message} (the budget of a whole kit)")


def per_sheet(width: float, height: float, paper: Paper, bleed: float = 0.0) -> int:
    """Return how many pieces of width x height mm surely fit on a sheet (either way up, in a
    plain grid; 0 when one does not fit)."""
    pw, ph = paper.printable
    w, h = width + 2 * bleed, height + 2 * bleed
    if w <= 0 or h <= 0:
        return 0
    upright = math.floor(pw / w + 1e-9) * math.floor(ph / h + 1e-9)
    turned = math.floor(pw / h + 1e-9) * math.floor(ph / w + 1e-9)
    return max(upright, turned)


def _pieces(
    tally: _Tally, key: str, kind: str, count: int, size: tuple[float, float], back: bool, ctx: Context
) -> None:
    fit = per_sheet(*size, ctx.paper, ctx.options.bleed)
    # a piece too large for the sheet is the imposition's one-line error, found on drawing one
    fronts = count / fit if fit else 1.0
    sides = 2 if back else 1
    shapes = count * _PIECE_SHAPES[kind] * sides
    tally.add(key, pieces=count, sheets=fronts * sides, shapes=shapes, piece_sheets=fronts)


def _counters(spec: ComponentSpec, ctx: Context, tally: _Tally, key: str) -> None:
    from generator.components.counters import hex_cell
    from generator.components.specs import CountersSpec

    values = spec.typed(CountersSpec)
    for i, counter in enumerate(values.counters):
        size = counter.size or values.size
        shape = counter.shape
        pad = values.padding if shape in ("circle", "hexagon", "rounded", "hex") else 0.0
        cell = (size + 2 * pad, size + 2 * pad)
        if shape == "hex":
            cell = hex_cell(size, pad, counter.orientation)
        at = f"{key}.counters[{i}].count"
        _pieces(tally, at, "counters", counter.count, cell, counter.back is not None, ctx)


def _standees(spec: ComponentSpec, ctx: Context, tally: _Tally, key: str) -> None:
    from generator.components.specs import StandeesSpec
    from generator.components.standees import base_depth

    values = spec.typed(StandeesSpec)
    size = (values.width, 2 * (base_depth(spec, ctx) + values.height))
    for i, figure in enumerate(values.figures):
        _pieces(tally, f"{key}.figures[{i}].count", "standees", figure.count, size, False, ctx)


def _dice(spec: ComponentSpec, ctx: Context, tally: _Tally, key: str) -> None:
    from generator.components.dice_nets import TAB
    from generator.components.specs import DiceNetsSpec

    values = spec.typed(DiceNetsSpec)
    s = values.size
    pad = s * TAB + 1.0
    size = (3 * s + 2 * pad, 4 * s + s * TAB + pad + 1.0)
    for i, die in enumerate(values.dice):
        _pieces(tally, f"{key}.dice[{i}].count", "dice-nets", die.count, size, False, ctx)


def _cards(spec: ComponentSpec, ctx: Context, tally: _Tally, key: str) -> None:
    from generator.components.cards import card_size
    from generator.components.specs import CardsSpec

    values = spec.typed(CardsSpec)
    deck = values.cards
    rows = getattr(deck, "rows", None) or []
    columns = getattr(deck, "columns", ())
    quantity = values.quantity
    copies = 0
    distinct = 0
    for row in rows:
        text = row.cells.get(quantity, "1") if quantity in columns else "1"
        n = int(text) if text.strip().isdecimal() else 0
        copies += n
        distinct += 1 if n else 0
    size = card_size(values.size)
    fields = len(values.fields)
    fit = per_sheet(*size, ctx.paper, ctx.options.bleed)
    # every card drawn once with all its fields, then placed on both sides of its sheet
    tally.add(
        f"{key}.fields" if fields * distinct > MAX_SHAPES // 4 else f"{key}.cards",
        pieces=copies,
        sheets=2 * copies / fit if fit else 1.0,
        piece_sheets=copies / fit if fit else 1.0,
        shapes=(copies + distinct) * (fields + _PIECE_SHAPES["cards"]),
    )


def _table_sheet(spec: ComponentSpec, ctx: Context, tally: _Tally, key: str) -> None:
    from generator.components.specs import TableSheetSpec

    sheet = spec.typed(TableSheetSpec)
    per_copy = 10 + 2 * len(sheet.fields) + len(sheet.notes)
    for block in blocks_of(spec, ctx):  # a roster's rows made from the rules module
        columns = max(len(block.columns), 1)
        rows = (block.rows or 0) + len(block.cells or ()) + 1
        per_copy += 2 * rows * columns + 4 * rows
    copies = sheet.pages * sheet.copies
    # a move record too short for the turn limit goes on on the back: two pages per page at most
    tally.add(f"{key}.pages", sheets=2 * sheet.pages, shapes=2 * copies * per_copy)


_ESTIMATES = {
    "counters": _counters,
    "standees": _standees,
    "dice-nets": _dice,
    "cards": _cards,
    "table-sheet": _table_sheet,
}


def check_paper(definition: Any, paper: Paper) -> None:
    """Raise DefinitionError naming ``paper.margin`` when the margin leaves too small a printable
    area on the paper or, for a kit with a booklet, on the booklet's page (half a sheet)."""
    sheets = [(paper, MIN_PRINTABLE)]
    if any(spec.kind == "booklet" for spec in definition.components):
        sheets.append((paper.half(), MIN_BOOKLET_PRINTABLE))
    for sheet, least in sheets:
        shorter = min(sheet.printable)
        if shorter < least - 1e-6:
            raise DefinitionError(
                f"{definition.path}: paper.margin: a margin of {paper.margin:g} mm leaves "
                f"{max(shorter, 0):g} mm across the printable area of {sheet.name} "
                f"({sheet.width:g} x {sheet.height:g} mm), at least {least:g} mm"
            )


def check_plan(ctx: Context) -> None:
    """Raise DefinitionError, naming the key that tips it, when a kit's pieces, sheets or shapes
    (estimated from its definition, before anything is drawn) are over the budget, or when its
    margin leaves too little of the paper."""
    definition = ctx.definition
    check_paper(definition, ctx.paper)
    tally = _Tally(definition)
    for spec in definition.components:
        estimate = _ESTIMATES.get(spec.kind)
        if estimate is not None:
            estimate(spec, ctx, tally, f"components.{spec.id}")


def _count(shapes: Iterable[Shape], limit: int) -> int:
    """Return how many shapes a page draws (a group's children each time), stopping past limit."""
    total = 0
    stack: list[Iterator[Shape]] = [iter(shapes)]
    while stack:
        for shape in stack[-1]:
            total += 1
            if total > limit:
                return total
            if isinstance(shape, Group):
                stack.append(iter(shape.children))
                break
        else:
            stack.pop()
    return total


def png_pixels(drawing: Drawing, dpi: int, bleed: float = 0.0) -> int:
    """Return the pixels of a drawing rasterised at dpi with its bleed round it."""
    w = math.ceil((drawing.width + 2 * bleed) / 25.4 * dpi)
    h = math.ceil((drawing.height + 2 * bleed) / 25.4 * dpi)
    return w * h


def check_drawn(
    ctx: Context,
    outputs: list[tuple[str, Output]],
    png_faces: Callable[[list[tuple[str, Output]]], list[tuple[str, Drawing]]],
) -> None:
    """Raise DefinitionError naming the component that tips the kit's sheets or shapes over the
    budget, once drawn and before anything is written; under ``--png``, UsageError naming the
    component and the option when the PNGs would hold too many pixels (``png_faces``: the kit's
    PNG faces, by file name, of a list of outputs)."""
    definition = ctx.definition
    tally = _Tally(definition)
    for component, output in outputs:
        # one page at a time: a deck's pages are drawn as they are read, and none is kept
        pages = output.pages
        if isinstance(pages, SheetPages):  # a deck's packed fronts counted as packed, not unpacked
            shapes = 0
            for index in range(len(pages)):
                page, packed = pages.counted(index)
                shapes += packed + _count(page.shapes, MAX_SHAPES + 1)
        else:
            shapes = sum(_count(page.shapes, MAX_SHAPES + 1) for page in pages)
        tally.add(f"components.{component}", sheets=len(output.pages), shapes=shapes)
    dpi = ctx.options.png_dpi
    if dpi is None:
        return
    total = 0
    owners: dict[str, str] = {}
    for component, output in outputs:
        for name, _ in png_faces([(component, output)]):
            owners.setdefault(name, component)
    for name, drawing in png_faces(outputs):
        pixels = png_pixels(drawing, dpi, ctx.options.bleed)
        total += pixels
        component = owners.get(name, name)
        if pixels > MAX_PNG_PIXELS or total > MAX_PNG_TOTAL:
            limit = MAX_PNG_PIXELS if pixels > MAX_PNG_PIXELS else MAX_PNG_TOTAL
            what = f"{name}.png would have" if pixels > MAX_PNG_PIXELS else "the kit's PNGs would have"
            raise UsageError(
                f"{definition.path}: components.{component}: at --png {dpi}, {what} "
                f"{(pixels if limit == MAX_PNG_PIXELS else total) / 1e6:.0f} megapixels, at most "
                f"{limit // 1_000_000}; ask for fewer dpi"
            )
