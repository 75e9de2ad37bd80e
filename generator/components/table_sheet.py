"""Table scoresheets: one or more ruled tables per copy (move records, ledgers, score pads, player
sheets), several copies per page with cut lines, fields to fill in and notes such as a notation key.

Notes are rule text like a booklet's: ``{{ rules.turn_limit }}`` and the other template values are
filled in (so a sheet states the same number as the booklet and the referee) and inline markup
(`code`, **bold**, *italic*) is typeset. A move record (``turns_per_row``) whose rows hold fewer
turns than the game's turn limit goes on on the back of its sheet: the back is printed with the
rows that are missing, numbered on, so the rows of a sheet hold a whole game."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from generator.booklet.layout import break_lines, font_of, line_shapes
from generator.booklet.markup import parse_inline
from generator.booklet.template import render_text
from generator.components import inline
from generator.components.base import Context, Output
from generator.components.look import fitted_text
from generator.components.specs import TableSheetSpec, TableSheetSpecBlocks
from generator.definitions.schema import Field, Where, positive
from generator.definitions.values import ComponentSpec
from generator.foundation.errors import DefinitionError, TemplateError
from generator.foundation.languages import set_text
from generator.foundation.languages import text as catalogue_text
from generator.model.fonts import text_width
from generator.model.page import MIN_TYPE, Drawing, Line, Page, Rect, Shape, Style, Text, iter_shapes
from generator.printing.imposition import SheetItem, footer, nup, parts_bottom

COLUMN_SCHEMA: dict[str, Field] = {
    "header": Field("str", default="", doc="the column's heading"),
    "width": Field("float", default=1.0, check=positive, doc="relative width"),
    "shade": Field("bool", default=False, doc="a grey column (e.g. for totals)"),
}
BLOCK_SCHEMA: dict[str, Field] = {
    "title": Field("str", default="", doc="a heading above the table"),
    "columns": Field("tables", required=True, schema=COLUMN_SCHEMA, doc="the table's columns, each a table"),
    "rows": Field(
        "int", default=None, min=1, max=500, doc="empty rows to write in (after any pre-printed cells)"
    ),
    "cells": Field("list:list:str", default=None, doc="pre-printed text, row by row"),
    "roster": Field(
        "id",
        default=None,
        doc="rows from the rules module instead of cells: the name of a list among its template values "
        "(rules.<name>), one row for each of an entry's count (a roster: 'pieces', a row a soldier)",
    ),
    "roster_label": Field(
        "str",
        default="{{ name }} {{ number }}",
        doc="a roster row's first cell: a template of the entry's values and number (1 to its count); "
        "empty: no label, the row is boxes only (a block beside a labelled one)",
    ),
    "roster_boxes": Field(
        "str",
        default="",
        doc="the entry's value that counts a roster row's open boxes after its label; the other "
        "columns are struck out with a dash (empty: every box open)",
    ),
    "number_rows": Field("bool", default=False, doc="fill the first column with 1, 2, 3..."),
    "row_height": Field("length", default=7.0, check=positive, doc="height of a row"),
    "header_height": Field("length", default=7.0, check=positive, doc="height of the header row"),
    "text_size": Field("float", default=9.0, min=4, max=36, doc="the table's text size in points"),
    "split": Field("int", default=1, min=1, max=4, doc="wrap long tables into this many side-by-side parts"),
    "width": Field("float", default=1.0, check=positive, doc="share of the copy width"),
    "turns_per_row": Field(
        "int",
        default=0,
        min=0,
        max=8,
        doc="a move record: the turns a row holds; rows too few for the game's turn limit go on on the sheet's back",
    ),
}
SCHEMA: dict[str, Field] = {
    "heading": Field("str", default="", doc="printed at the top of each copy; default: the game title"),
    "fields": Field("list:str", default=[], doc="labels with a line to write on, e.g. 'Date'"),
    "blocks": Field(
        "tables", required=True, schema=BLOCK_SCHEMA, doc="the tables on each copy, each a table"
    ),
    "notes": Field(
        "list:str",
        default=[],
        doc="lines under the tables, e.g. a key to the notation; template values and inline markup as in a booklet",
    ),
    "copies": Field("int", default=1, min=1, max=24, doc="copies per page"),
    "columns_per_page": Field("int", default=1, min=1, max=4, doc="copies side by side"),
    "pages": Field("int", default=1, min=1, max=20, doc="how many pages of copies"),
    "header_fill": Field("str", default="#e6e6e6", doc="fill of the header rows"),
    "continue_note": Field(
        "str",
        default="",
        doc="under a move record too short for the turn limit, whose rows go on on the sheet's back "
        "(empty: the catalogue's 'sheet.continue' in the kit's language, 'Out of rows? Go on ... The game is a draw "
        "after 200 turns.'); "
        "{{ row }} is the next row, {{ limit }} the limit and {{ unit }} what it counts (count(limit, unit): "
        "'200 turns'), {{ single_sided }} true when the back is the next page",
    ),
}


NOTE_PT = 7.5  # pt, the go-on line under a short move record
NOTE_COLOUR = "#222222"
MIN_CONTINUED_ROW = 4.5  # mm, the smallest row height a continuation on the back is set in
SHRINK = 0.75  # a continuation's rows close up to this share of their height before taking another part
FIGURE_WIDTH = 120.0  # mm, a booklet figure's width (the text width of an A5 page)

Block = TableSheetSpecBlocks  # one ruled table of a sheet, its keys typed


@dataclass(frozen=True)
class Continuation:
    """A move record's rows that go on on the back: the block with only the missing rows
    (``rows``, no cells), the number of its first row and the block's index in the sheet."""

    block: Block
    rows: int
    first_number: int
    index: int


def check_spec(values: dict[str, Any], where: Where) -> None:
    """Check that each block knows how many rows it has."""
    for i, block in enumerate(values["blocks"]):
        if block["rows"] is None and block["cells"] is None and block["roster"] is None:
            raise where.child("blocks").child(i).error("give rows, cells or roster")
        if block["roster"] is not None and block["cells"] is not None:
            raise where.child("blocks").child(i).error("give cells or roster, not both")
        if block["cells"] is not None:
            for r, row in enumerate(block["cells"]):
                if len(row) > len(block["columns"]):
                    raise (
                        where.child("blocks")
                        .child(i)
                        .child("cells")
                        .child(r)
                        .error(f"{len(row)} cells but {len(block['columns'])} columns")
                    )


def _block(
    block: Block,
    x: float,
    y: float,
    width: float,
    header_fill: str | None,
    go_on: str = "",
    first_number: int = 1,
) -> tuple[list[Shape], float]:
    """Return the shapes of one ruled table and its height; ``go_on`` is a line printed under it.
    Rows are numbered from ``first_number`` (1 unless the block continues another)."""
    shapes: list[Shape] = []
    rule = Style(stroke="#000000", width=0.25)
    thick = Style(stroke="#000000", width=0.5)
    size = block.text_size
    cells = block.cells or ()
    nrows = block.rows if block.rows is not None else len(cells)
    parts = block.split
    per_part = -(-nrows // parts)
    gap = 4.0
    part_w = (width - gap * (parts - 1)) / parts
    cy = y
    if block.title:
        shapes.append(Text(x, y + 4.2, block.title, size + 1, "sans-bold"))
        cy += 6.5
    weights = [c.width for c in block.columns]
    total = sum(weights)
    has_header = any(c.header for c in block.columns)
    hh = block.header_height if has_header else 0.0
    rh = block.row_height
    cap = size * 25.4 / 72 * 0.72
    for part in range(parts):
        px = x + part * (part_w + gap)
        widths = [part_w * w / total for w in weights]
        first, last = part * per_part, min(nrows, (part + 1) * per_part)
        rows_here = max(0, last - first)
        if rows_here == 0:
            continue
        col_x = [px]
        for w in widths:
            col_x.append(col_x[-1] + w)
        height = hh + rows_here * rh
        for i, col in enumerate(block.columns):
            if col.shade:
                shapes.append(
                    Rect(col_x[i], cy + hh, widths[i], rows_here * rh, Style(stroke=None, fill="#f2f2f2"))
                )
        if has_header:
            shapes.append(Rect(px, cy, part_w, hh, Style(stroke=None, fill=header_fill)))
            for i, col in enumerate(block.columns):
                shapes.append(
                    fitted_text(
                        col_x[i] + widths[i] / 2,
                        cy + hh / 2 + cap / 2,
                        col.header,
                        widths[i] - 1.5,
                        size,
                        "sans-bold",
                        "middle",
                    )
                )
        for r in range(rows_here + 1):
            yy = cy + hh + r * rh
            shapes.append(Line(px, yy, px + part_w, yy, thick if r == 0 and has_header else rule))
        for i, xx in enumerate(col_x):
            shapes.append(Line(xx, cy, xx, cy + height, thick if i in (0, len(col_x) - 1) else rule))
        shapes.append(Line(px, cy, px + part_w, cy, thick))
        shapes.append(Line(px, cy + height, px + part_w, cy + height, thick))
        for r in range(rows_here):
            row = first + r
            texts = list(cells[row]) if row < len(cells) else []
            if block.number_rows:
                texts = [str(row + first_number)] + texts
            for i, text in enumerate(texts[: len(widths)]):
                if text:
                    shapes.append(
                        fitted_text(
                            col_x[i] + widths[i] / 2,
                            cy + hh + r * rh + rh / 2 + cap / 2,
                            text,
                            widths[i] - 1.5,
                            size,
                            "sans",
                            "middle",
                        )
                    )
    tallest = hh + per_part * rh
    if go_on:
        note, bottom = note_shapes(
            go_on, x, cy + tallest, width, NOTE_PT, True, "continue_note", NOTE_PT * 25.4 / 72 * 1.45
        )
        shapes.extend(note)
        tallest = bottom - cy + 1.0
    return shapes, (cy - y) + tallest


def sheet_values(ctx: Context) -> dict[str, Any]:
    """Return the values a sheet's notes are rendered with: the booklet's (``rules``, ``game``,
    ``components``, ``variants``...) and ``single_sided``."""
    values = ctx.text_values()
    values["single_sided"] = ctx.options.single_sided
    return values


def note_text(
    spec: ComponentSpec, text: str, ctx: Context, key: str, extra: dict[str, Any] | None = None
) -> str:
    """Return a note of the sheet with its template values filled in."""
    values = sheet_values(ctx)
    values.update(extra or {})
    return render_text(text, values, f"{ctx.definition.path}: components.{spec.id}.{key}")


def note_shapes(
    text: str,
    x: float,
    y: float,
    width: float,
    size: float,
    bold: bool,
    where: str,
    leading: float,
    icons: inline.Icons | None = None,
) -> tuple[list[Shape], float]:
    """Return the shapes of a note's inline markup broken into lines at a width (mm), its first
    baseline ``leading`` below y, and the y of its last baseline; its icons are the symbols' and
    icons' (the definition's, when given)."""
    icons = icons or inline.Icons()
    try:
        runs = parse_inline(text)
        problem = next((p for r in runs if not r.code and (p := icons.problem(r.text))), None)
        if problem:
            raise TemplateError(problem)
    except TemplateError as exc:
        raise TemplateError(f"{where}: {exc}") from None
    pieces = [
        (
            # code is set as written: its colons never make icons
            (r.text.replace(":", "::") if inline.has_icons(r.text) else r.text).replace(" ", "\u00a0")
            if r.code
            else r.text,
            font_of(bold or r.bold or r.code, r.italic),
            NOTE_COLOUR,
        )
        for r in runs
    ]
    shapes: list[Shape] = []
    for line in break_lines(pieces, size, width):
        y += leading
        shapes.extend(line_shapes(line, x, y, size, icons=icons))
    return shapes, y


STRUCK = "\u2013"  # a roster's box that an entry does not have


def blocks_of(spec: ComponentSpec, ctx: Context) -> list[Block]:
    """Return the sheet's blocks with a roster's rows made from the rules module: for each entry
    of the list its roster key names, one row for each of the entry's count, labelled by
    roster_label, with the entry's roster_boxes open boxes and the other columns struck out."""
    sheet = spec.typed(TableSheetSpec)
    blocks: list[Block] = []
    for i, block in enumerate(sheet.blocks):
        name = block.roster
        if name is None:
            blocks.append(block)
            continue
        where = f"{ctx.definition.path}: components.{spec.id}.blocks.{i}"
        entries = (ctx.rules.text_values() if ctx.rules is not None else {}).get(name)
        if not isinstance(entries, list):
            raise DefinitionError(f"{where}.roster: the rules module has no list {name!r}")
        values = sheet_values(ctx)
        labelled = bool(block.roster_label)  # an empty label: the row is boxes only
        boxes = len(block.columns) - (1 if labelled else 0)
        cells: list[tuple[str, ...]] = []
        for entry in entries:
            open_boxes = entry[block.roster_boxes] if block.roster_boxes else boxes
            if open_boxes > boxes:
                raise DefinitionError(
                    f"{where}.columns: {entry.get('name', entry)} needs {open_boxes} boxes, the roster has {boxes}"
                )
            for number in range(1, entry.get("count", 1) + 1):
                row = [""] * open_boxes + [STRUCK] * (boxes - open_boxes)
                if labelled:
                    extra = {**values, **entry, "number": number}
                    row.insert(0, render_text(block.roster_label, extra, f"{where}.roster_label"))
                cells.append(tuple(row))
        blocks.append(replace(block, cells=tuple(cells)))
    return blocks


def rows_of(block: Block) -> int:
    """Return the rows a block prints on the front."""
    return block.rows if block.rows is not None else len(block.cells or [])


def turn_limit(ctx: Context) -> int | None:
    """Return the game's turn limit from its rules module, or None."""
    if ctx.rules is None:
        return None
    return ctx.rules.text_values().get("turn_limit")


def claim_limit(ctx: Context) -> int:
    """Return the most lines of a game's record that are not turns (claims, each a line of its
    own) by the rules module's ``claim_limit``, or 0."""
    if ctx.rules is None:
        return 0
    return int(ctx.rules.text_values().get("claim_limit", 0))


def rows_needed(block: Block, ctx: Context) -> int:
    """Return the rows a move record needs for a whole game, every turn up to the limit and every
    claim the rules allow (its front rows for other blocks)."""
    limit = turn_limit(ctx)
    if not block.turns_per_row or not limit:
        return rows_of(block)
    return max(rows_of(block), -(-(limit + claim_limit(ctx)) // block.turns_per_row))


def continued(spec: ComponentSpec, ctx: Context) -> list[Continuation]:
    """Return the move records of the sheet whose rows go on on its back, each as the block of
    its continuation (the missing rows, numbered on)."""
    result: list[Continuation] = []
    for i, block in enumerate(blocks_of(spec, ctx)):
        front = rows_of(block)
        needed = rows_needed(block, ctx)
        if needed > front:
            result.append(
                Continuation(replace(block, cells=None, rows=needed - front), needed - front, front + 1, i)
            )
    return result


def go_on_note(spec: ComponentSpec, block: Block, ctx: Context) -> str:
    """Return the line a move record prints when its rows hold fewer turns than the turn limit
    (its continuation is printed on the back), or an empty string."""
    sheet = spec.typed(TableSheetSpec)
    needed = rows_needed(block, ctx)
    rows = rows_of(block)
    if needed <= rows:
        return ""
    unit = ctx.rules.text_values().get("turn_unit", "turn") if ctx.rules is not None else "turn"
    extra = {"row": rows + 1, "limit": turn_limit(ctx), "last": needed, "unit": unit}
    own = sheet.continue_note or catalogue_text("sheet.continue", ctx.options.lang)
    text = note_text(spec, own, ctx, "continue_note", extra)
    # a note written for the older {row} / {limit} fields still reads right
    return text.replace("{row}", str(rows + 1)).replace("{limit}", str(turn_limit(ctx)))


def copy_drawing(
    spec: ComponentSpec,
    ctx: Context,
    width: float,
    stack: bool = False,
    notes: bool = True,
    fields: bool = True,
) -> Drawing:
    """Return one copy of the sheet at a given width; ``stack`` puts every block at full width,
    one under another (a figure too narrow for blocks side by side); ``notes`` False leaves out
    the notes and ``fields`` False the fields to fill in (a booklet figure, whose text says the
    same)."""
    sheet = spec.typed(TableSheetSpec)
    shapes, y = _heading(spec, ctx, width)
    if sheet.fields and fields:
        per_line = 3 if width > 120 else 2
        field_w = width / per_line
        for i, label in enumerate(sheet.fields):
            fx = (i % per_line) * field_w
            fy = y + (i // per_line) * 8.0 + 5.0
            field = catalogue_text("sheet.field", ctx.options.lang, label=label)
            shapes.append(Text(fx, fy, field, 9, "sans"))

            lx = fx + text_width(field, "sans", 9) + 1.5
            shapes.append(
                Line(lx, fy + 0.8, fx + field_w - 4.0, fy + 0.8, Style(stroke="#555555", width=0.25))
            )
        y += ((len(sheet.fields) - 1) // per_line + 1) * 8.0 + 3.0
    header_fill = ctx.colour(sheet.header_fill)
    if ctx.options.ink_saver:
        header_fill = "#f4f4f4"
    x = 0.0
    row_top = y
    row_bottom = y
    for block in blocks_of(spec, ctx):
        share = 1.0 if stack else min(block.width, 1.0)
        bw = width * share
        if x > 0 and x + bw > width + 1e-6:
            x = 0.0
            row_top = row_bottom + 5.0
        block_shapes, h = _block(
            block, x, row_top, bw - (3.0 if share < 1.0 else 0.0), header_fill, go_on_note(spec, block, ctx)
        )
        shapes.extend(block_shapes)
        row_bottom = max(row_bottom, row_top + h)
        x += bw
        if x >= width - 1e-6:
            x = 0.0
            row_top = row_bottom + 5.0
    y = row_bottom + 2.0
    for i, note in enumerate(sheet.notes if notes else []):
        where = f"{ctx.definition.path}: components.{spec.id}.notes.{i}"
        text = note_text(spec, note, ctx, f"notes.{i}")
        note_lines, y = note_shapes(text, 0, y, width, 8, False, where, 4.0, inline.icons_of(ctx.definition))
        shapes.extend(note_lines)
    return Drawing(width, y + 2.0, tuple(shapes), sheet.title or spec.id)


def _heading(spec: ComponentSpec, ctx: Context, width: float) -> tuple[list[Shape], float]:
    """Return the heading and title of a copy and the y below them."""
    sheet = spec.typed(TableSheetSpec)
    shapes: list[Shape] = []
    heading = sheet.heading or ctx.definition.title
    shapes.extend(inline.set_line(Text(0, 6.0, heading, 14, "sans-bold"), ctx.definition))
    sub = sheet.title
    y = 10.0
    if sub:
        room = width - inline.line_width(heading, "sans-bold", 14) - 4.0
        if inline.line_width(sub, "sans", 10) <= room:
            shapes.extend(
                inline.set_line(Text(width, 6.0, sub, 10, "sans", "end", "#444444"), ctx.definition)
            )
        else:  # no room beside the heading: a line of its own under it
            shapes.extend(inline.set_line(Text(0, 11.0, sub, 10, "sans", "start", "#444444"), ctx.definition))
            y = 14.0
    return shapes, y


def back_drawing(spec: ComponentSpec, ctx: Context, width: float, height: float) -> Drawing | None:
    """Return the back of a sheet whose move records go on there (the rows they lack, numbered
    on, in as many side-by-side parts as fit the height), or None when every record fits its front."""
    sheet = spec.typed(TableSheetSpec)
    blocks = continued(spec, ctx)
    if not blocks:
        return None
    shapes, y = _heading(spec, ctx, width)
    header_fill = "#f4f4f4" if ctx.options.ink_saver else ctx.colour(sheet.header_fill)
    where = f"{ctx.definition.path}: components.{spec.id}.blocks"
    for n, more in enumerate(blocks):
        block, rows = more.block, more.rows
        if n:
            y += 5.0
        room = (height - y - 5.0 * (len(blocks) - n - 1)) / (len(blocks) - n)
        title = 6.5 if block.title else 0.0
        has_header = any(c.header for c in block.columns)
        hh = block.header_height if has_header else 0.0
        # the fewest parts side by side whose rows fit the room at no less than their shortest height
        shortest = max(MIN_CONTINUED_ROW, block.row_height * SHRINK)
        parts = block.split
        while parts < 4 and title + hh + -(-rows // parts) * shortest > room:
            parts += 1
        per_part = -(-rows // parts)
        rh = min(block.row_height, (room - title - hh) / per_part)
        if rh < MIN_CONTINUED_ROW:
            raise DefinitionError(
                f"{where}.{more.index}: {rows} more rows needed for the turn limit do not fit "
                "the back of the sheet; give the record more rows on the front"
            )
        laid, h = _block(
            replace(block, split=parts, row_height=rh), 0.0, y, width, header_fill, "", more.first_number
        )
        shapes.extend(laid)
        y += h
    return Drawing(width, y, tuple(shapes), sheet.title or spec.id)


def drawing(spec: ComponentSpec, ctx: Context, overlay: dict[str, Any] | None = None) -> Drawing:
    """Return one copy of the sheet at A5 text width (for booklet figures); a figure shown smaller
    is drawn at the width it is shown at, so its type keeps its size."""
    floor = (overlay or {}).get("type_floor", 0.0)
    if not floor:
        return copy_drawing(spec, ctx, FIGURE_WIDTH, notes=False)
    # shown smaller than drawn: draw it at the width it is shown at, blocks one under another
    width = FIGURE_WIDTH * min(1.0, MIN_TYPE * 1.02 / floor)
    return copy_drawing(spec, ctx, width, stack=True, notes=False, fields=False)


def contents(spec: ComponentSpec, ctx: Context) -> list[tuple[str, int]]:
    """Return the sheet's title and how many copies the kit prints, for the guide's checklist."""
    sheet = spec.typed(TableSheetSpec)
    return [(sheet.title or spec.id, sheet.copies * sheet.pages)]


def _smallest_type(drawing: Drawing) -> float:
    """Return the size in points of the smallest text of a drawing, as drawn (transforms applied)."""
    sizes = [
        s.size * math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))
        for s, m in iter_shapes(drawing.shapes)
        if isinstance(s, Text) and s.text.strip()
    ]
    return min(sizes, default=MIN_TYPE)


def build(spec: ComponentSpec, ctx: Context) -> list[Output]:
    """Return the sheet pages: copies per page with cut lines between them."""
    sheet = spec.typed(TableSheetSpec)
    paper = ctx.paper
    pw, ph = paper.printable
    cols = sheet.columns_per_page
    gap = 8.0
    bleed = ctx.options.bleed
    # the gutters of twice the bleed round every copy take the gaps' room first
    width = (pw - max(gap * (cols - 1), 2 * bleed * cols)) / cols - (6.0 if bleed else 4.0)
    art = copy_drawing(spec, ctx, width)
    label = f"{ctx.definition.title}: {sheet.title or spec.id}"
    copies = sheet.copies
    if copies == 1 and cols == 1:
        back = back_drawing(spec, ctx, width, ph - 4.0)  # clear of the footer
        pages = []
        for _ in range(sheet.pages):
            for face, is_back in ((art, False), (back, True)):
                if face is None:
                    continue
                if face.height > ph:
                    k = ph / face.height
                    shown = face.placed(paper.margin + (pw - face.width * k) / 2, paper.margin, k)
                else:
                    shown = face.placed(paper.margin + 2.0, paper.margin)
                page = Page(paper.width, paper.height, (shown,), label=label, is_back=is_back)
                pages.append(
                    footer(page, paper, set_text(label, ctx.options.lang), inline.icons_of(ctx.definition))
                )
        return [Output(spec.id, tuple(pages))]
    if continued(spec, ctx):
        raise DefinitionError(
            f"{ctx.definition.path}: components.{spec.id}: a move record too short for the turn limit "
            "goes on on the back of its sheet, so the sheet takes copies = 1 and columns_per_page = 1"
        )
    pad = 3.0 if bleed else 2.0  # a print shop's cut keeps 2 mm off the text (the safe area)
    cell = Drawing(art.width + 2 * pad, art.height + 2 * pad, (art.placed(pad, pad),), art.label)
    rows_per_page = max(1, -(-copies // cols))
    room = parts_bottom(paper) - paper.margin  # the copies' cuts keep clear of the footer
    if rows_per_page * (cell.height + 2 * bleed) > room:
        k = (room - 2 * bleed * rows_per_page) / (rows_per_page * cell.height)
        if bleed:  # the gutters shrink the copies more: never below 6 pt type (a copy moves over)
            k = max(k, min(1.0, MIN_TYPE / _smallest_type(cell)))
        cell = Drawing(cell.width * k, cell.height * k, (cell.placed(0, 0, k),), art.label)
    pages = []
    for _ in range(sheet.pages):
        pages.extend(
            nup(
                [SheetItem(cell)] * copies,
                paper,
                label,
                gap=0.0,
                bleed=bleed,
                lang=ctx.options.lang,
                icons=inline.icons_of(ctx.definition),
            )
        )
    return [Output(spec.id, tuple(pages), items=(SheetItem(cell),) * (copies * sheet.pages))]
