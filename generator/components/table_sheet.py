"""Table scoresheets: one or more ruled tables per copy (move records, ledgers, score pads, player
sheets), several copies per page with cut lines, fields to fill in and notes such as a notation key."""

from __future__ import annotations

import math
import string
from typing import Any

from generator.components.base import Context, Output
from generator.components.look import fitted_text
from generator.definitions import ComponentSpec
from generator.errors import DefinitionError
from generator.fonts import split_lines, text_width
from generator.imposition import SheetItem, footer, nup
from generator.page import MIN_TYPE, Drawing, Line, Page, Rect, Shape, Style, Text, iter_shapes
from generator.schema import Field, positive

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
        doc="a move record: the turns a row holds; rows too few for the game's turn limit say where to go on",
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
        doc="lines under the tables, e.g. a key to the notation; {name} is a rules value or notation example",
    ),
    "copies": Field("int", default=1, min=1, max=24, doc="copies per page"),
    "columns_per_page": Field("int", default=1, min=1, max=4, doc="copies side by side"),
    "pages": Field("int", default=1, min=1, max=20, doc="how many pages of copies"),
    "header_fill": Field("str", default="#e6e6e6", doc="fill of the header rows"),
    "continue_note": Field(
        "str",
        default="Out of rows? Go on on the back of this sheet, numbering on from {row}. The turn limit is {limit}.",
        doc="under a move record too short for the turn limit; {row} is the next row, {limit} the limit",
    ),
}


NOTE_PT = 7.5  # pt, the go-on line under a short move record
FIGURE_WIDTH = 120.0  # mm, a booklet figure's width (the text width of an A5 page)


def check_spec(values: dict[str, Any], where) -> None:
    """Check that each block knows how many rows it has."""
    for i, block in enumerate(values["blocks"]):
        if block["rows"] is None and block["cells"] is None:
            raise where.child("blocks").child(i).error("give rows or cells")
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
    block: dict[str, Any], x: float, y: float, width: float, header_fill: str | None, go_on: str = ""
) -> tuple[list[Shape], float]:
    """Return the shapes of one ruled table and its height; ``go_on`` is a line printed under it."""
    shapes: list[Shape] = []
    rule = Style(stroke="#000000", width=0.25)
    thick = Style(stroke="#000000", width=0.5)
    size = block["text_size"]
    cells = block["cells"] or []
    nrows = block["rows"] if block["rows"] is not None else len(cells)
    parts = block["split"]
    per_part = -(-nrows // parts)
    gap = 4.0
    part_w = (width - gap * (parts - 1)) / parts
    cy = y
    if block["title"]:
        shapes.append(Text(x, y + 4.2, block["title"], size + 1, "sans-bold"))
        cy += 6.5
    weights = [c["width"] for c in block["columns"]]
    total = sum(weights)
    has_header = any(c["header"] for c in block["columns"])
    hh = block["header_height"] if has_header else 0.0
    rh = block["row_height"]
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
        for i, col in enumerate(block["columns"]):
            if col["shade"]:
                shapes.append(
                    Rect(col_x[i], cy + hh, widths[i], rows_here * rh, Style(stroke=None, fill="#f2f2f2"))
                )
        if has_header:
            shapes.append(Rect(px, cy, part_w, hh, Style(stroke=None, fill=header_fill)))
            for i, col in enumerate(block["columns"]):
                shapes.append(
                    fitted_text(
                        col_x[i] + widths[i] / 2,
                        cy + hh / 2 + cap / 2,
                        col["header"],
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
            if block["number_rows"]:
                texts = [str(row + 1)] + texts
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
        for line in split_lines(go_on, "sans-bold", NOTE_PT, width):
            tallest += NOTE_PT * 25.4 / 72 * 1.45
            shapes.append(Text(x, cy + tallest, line, NOTE_PT, "sans-bold", "start", "#222222"))
        tallest += 1.0
    return shapes, (cy - y) + tallest


def go_on_note(spec: ComponentSpec, block: dict[str, Any], ctx: Context) -> str:
    """Return the line a move record prints when its rows hold fewer turns than the turn limit."""
    if not block["turns_per_row"] or ctx.rules is None:
        return ""
    limit = ctx.rules.template_values().get("turn_limit")
    rows = block["rows"] if block["rows"] is not None else len(block["cells"] or [])
    if not limit or rows * block["turns_per_row"] >= limit:
        return ""
    return spec["continue_note"].format(row=rows + 1, limit=limit)


def note_values(ctx: Context, names: set[str]) -> dict[str, str]:
    """Return the values a sheet's notes may name: the rules' template values that are plain
    numbers or words, and the notation examples on this kit's board (``data("notation")``)."""
    values: dict[str, str] = {}
    if ctx.rules is None:
        return values
    for key, value in ctx.rules.template_values().items():
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            values[key] = str(value)
    if names - set(values):
        values.update({k: str(v) for k, v in ctx.layout_data("notation")["moves"].items()})
    return values


def note_text(spec: ComponentSpec, ctx: Context, note: str) -> str:
    """Return a note with its named placeholders ({turn}, {turn_limit}) filled from the rules;
    ``{{`` and ``}}`` print braces. Raise DefinitionError for a name the rules do not give or a
    placeholder that is more than a name."""
    where = f"{ctx.definition.path}: components.{spec.id}.notes"
    try:
        fields = [
            (name, conv, fmt) for _, name, fmt, conv in string.Formatter().parse(note) if name is not None
        ]
    except ValueError as exc:
        raise DefinitionError(f"{where}: {exc} in {note!r} (write {{{{ and }}}} for braces)") from None
    if not fields:
        return note
    for name, conv, fmt in fields:
        if not name.isidentifier() or conv or fmt:
            raise DefinitionError(
                f"{where}: {{{name}}} is not a plain name; write {{name}} or {{{{ for a brace"
            )
    values = note_values(ctx, {name for name, _, _ in fields})
    for name, _, _ in fields:
        if name not in values:
            known = ", ".join(sorted(values)) or "none"
            raise DefinitionError(f"{where}: no value {{{name}}} (known: {known})")
    return note.format_map(values)


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
    shapes: list[Shape] = []
    y = 0.0
    heading = spec["heading"] or ctx.definition.title
    shapes.append(Text(0, 6.0, heading, 14, "sans-bold"))
    sub = spec["title"]
    y = 10.0
    if sub:
        room = width - text_width(heading, "sans-bold", 14) - 4.0
        if text_width(sub, "sans", 10) <= room:
            shapes.append(Text(width, 6.0, sub, 10, "sans", "end", "#444444"))
        else:  # no room beside the heading: a line of its own under it
            shapes.append(Text(0, 11.0, sub, 10, "sans", "start", "#444444"))
            y = 14.0
    if spec["fields"] and fields:
        per_line = 3 if width > 120 else 2
        field_w = width / per_line
        for i, label in enumerate(spec["fields"]):
            fx = (i % per_line) * field_w
            fy = y + (i // per_line) * 8.0 + 5.0
            shapes.append(Text(fx, fy, label + ":", 9, "sans"))

            lx = fx + text_width(label + ":", "sans", 9) + 1.5
            shapes.append(
                Line(lx, fy + 0.8, fx + field_w - 4.0, fy + 0.8, Style(stroke="#555555", width=0.25))
            )
        y += ((len(spec["fields"]) - 1) // per_line + 1) * 8.0 + 3.0
    header_fill = ctx.colour(spec["header_fill"])
    if ctx.options.ink_saver:
        header_fill = "#f4f4f4"
    x = 0.0
    row_top = y
    row_bottom = y
    for block in spec["blocks"]:
        share = 1.0 if stack else min(block["width"], 1.0)
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
    for note in spec["notes"] if notes else []:
        for line in split_lines(note_text(spec, ctx, note), "sans", 8, width):
            y += 4.0
            shapes.append(Text(0, y, line, 8, "sans", "start", "#222222"))
    return Drawing(width, y + 2.0, tuple(shapes), spec["title"] or spec.id)


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
    return [(spec["title"] or spec.id, spec["copies"] * spec["pages"])]


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
    paper = ctx.paper
    pw, ph = paper.printable
    cols = spec["columns_per_page"]
    gap = 8.0
    bleed = ctx.options.bleed
    # the gutters of twice the bleed round every copy take the gaps' room first
    width = (pw - max(gap * (cols - 1), 2 * bleed * cols)) / cols - (6.0 if bleed else 4.0)
    art = copy_drawing(spec, ctx, width)
    label = f"{ctx.definition.title}: {spec['title'] or spec.id}"
    copies = spec["copies"]
    if copies == 1 and cols == 1:
        pages = []
        for _ in range(spec["pages"]):
            page = Page(paper.width, paper.height, label=label)
            if art.height > ph:
                k = ph / art.height
                page.add(art.placed(paper.margin + (pw - art.width * k) / 2, paper.margin, k))
            else:
                page.add(art.placed(paper.margin + 2.0, paper.margin))
            footer(page, paper, label)
            pages.append(page)
        return [Output(spec.id, pages)]
    pad = 3.0 if bleed else 2.0  # a print shop's cut keeps 2 mm off the text (the safe area)
    cell = Drawing(art.width + 2 * pad, art.height + 2 * pad, (art.placed(pad, pad),), art.label)
    rows_per_page = max(1, -(-copies // cols))
    if rows_per_page * (cell.height + 2 * bleed) > ph:
        k = (ph - 2 * bleed * rows_per_page) / (rows_per_page * cell.height)
        if bleed:  # the gutters shrink the copies more: never below 6 pt type (a copy moves over)
            k = max(k, min(1.0, MIN_TYPE / _smallest_type(cell)))
        cell = Drawing(cell.width * k, cell.height * k, (cell.placed(0, 0, k),), art.label)
    pages = []
    for _ in range(spec["pages"]):
        pages.extend(nup([SheetItem(cell)] * copies, paper, label, gap=0.0, bleed=bleed))
    return [Output(spec.id, pages, items=[SheetItem(cell)] * (copies * spec["pages"]))]
