"""The square-grid board: files and ranks of squares with per-square marks (fills, hatching,
symbols, big numbers or letters, pointer arrows), slots outside the grid, edge bands, labels.

Squares are named like chess squares (``c4``: file c, rank 4, rank 1 at the bottom); ``@x,y``
names any square by file index and rank index from 0, including squares outside the grid
(``@0,-1`` lies just below a1). A square's marks are strings: ``text:5``, ``symbol:star``,
``arrows:N,NE`` or the name of a mark in the ``marks`` table. A mark name with colons
(``start:red:brain``) falls back to its prefixes (``start:red``, then ``start``), and a mark's
``text`` may quote the parts: ``{2}`` is ``brain`` and ``{2!initial}`` is ``B``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from generator.components import inline
from generator.components.base import Context, Output
from generator.components.inline import has_icons, icons_of
from generator.components.look import (
    TOKEN_SCHEMA,
    contrast_ink,
    draw_token,
    fill_names,
    fitted_text,
    format_parts,
    hatch,
    knockout_hatch,
    lookup,
    mark_colour,
    mark_holes,
    mark_look,
    move_arrow,
    pointer_fan,
)
from generator.components.pictures import (
    BOARD_SCHEMA,
    MARK_PREFIX,
    check_board_pictures,
    face_picture,
    fit_field,
    grown,
    image_field,
)
from generator.components.placed import placed
from generator.components.specs import GridBoardSpec
from generator.components.symbols import draw_symbol
from generator.definitions.schema import Field, Where, positive
from generator.definitions.values import ComponentSpec, GameDefinition
from generator.foundation.errors import DefinitionError
from generator.model.page import (
    Drawing,
    Group,
    Line,
    Rect,
    Shape,
    Style,
    Text,
    multiply,
    rotate,
    translate,
)

MARK_SCHEMA: dict[str, Field] = {
    "fill": Field("str", default="", doc="the square's fill colour"),
    "hatch": Field("bool", default=False, doc="diagonal hatching (with or instead of the fill)"),
    "outline": Field("str", default="", doc="an outline inside the square, in this colour"),
    "dashed": Field("bool", default=False, doc="a dashed outline (slots)"),
    "symbol": Field("str", default="", doc="a symbol in the square; may quote the mark name's parts ({2})"),
    "symbol_colour": Field("str", default="", doc="the symbol's colour"),
    "symbol_scale": Field(
        "float", default=0.6, min=0.05, max=1.0, doc="the symbol's size as a share of the square"
    ),
    "text": Field("str", default="", doc="text in the square; may quote the mark name's parts ({2!title})"),
    "text_colour": Field("str", default="", doc="the text's colour"),
    "text_scale": Field(
        "float", default=0.55, min=0.05, max=1.0, doc="the text's height as a share of the square"
    ),
    "corner": Field("str", default="", doc="small text in the top left corner"),
    "position": Field(
        "str",
        default="centre",
        choices=("centre", "top", "bottom"),
        doc="where the symbol or text sits in the square",
    ),
    "image": image_field("a picture filling the square (the hex), over its fill, under its ink"),
    "fit": fit_field(),
}
SCHEMA: dict[str, Field] = {
    "data": Field("str", default="", doc="layout data name from the rules module, e.g. 'board'"),
    "files": Field(
        "int", default=None, min=1, max=40, doc="number of files (columns), a to ...; or from data"
    ),
    "ranks": Field(
        "int", default=None, min=1, max=40, doc="number of ranks (rows), 1 at the bottom; or from data"
    ),
    "cells": Field(
        "map:list:str",
        default=None,
        doc='marks of squares by name: c4 = ["barricade"], @x,y outside the grid',
    ),
    "cell": Field("length", default=None, check=positive, doc="square size; default: fit one page"),
    "max_cell": Field(
        "length", default=28.0, check=positive, doc="the largest square the default size may choose"
    ),
    "labels": Field("bool", default=True, doc="file letters and rank numbers round the board"),
    "label_size": Field("float", default=10.0, min=4, max=40, doc="the labels' size in points"),
    "line_colour": Field("str", default="#000000", doc="colour of the grid lines"),
    "line_width": Field("length", default=0.4, check=positive, doc="width of the grid lines"),
    "background": Field("str", default="#ffffff", doc="fill of the squares without a filled mark"),
    **BOARD_SCHEMA,
    "checker": Field("str", default="", doc="fill of every other square"),
    "marks": Field(
        "map-table",
        default={},
        schema=MARK_SCHEMA,
        doc="the look of each mark name used in cells (fill, symbol, text...)",
    ),
    "tokens": Field(
        "map-table",
        default={},
        schema=TOKEN_SCHEMA,
        doc="the look of pieces in booklet figures, by piece name",
    ),
    "edges": Field("map:str", default={}, doc="text bands outside edges: north, south, east, west"),
    "title_on_board": Field("bool", default=True, doc="print the component's title above the board"),
    "font": Field(
        "str",
        default="sans-bold",
        doc="the face of the board's title, labels, marks and edge bands: a shipped face or a name of [fonts]",
    ),
    "caption": Field("str", default="", doc="small text under the board (default: the seed and variants)"),
}
MAX_POSITION = 60  # squares named by @x,y lie at most this far from a1
SQUARE = re.compile(r"^([a-z])([0-9]{1,2})$")
COORD = re.compile(r"^@(-?[0-9]{1,9}),(-?[0-9]{1,9})$")
DIRECTIONS = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}
OPPOSITE = {"N": "S", "NE": "SW", "E": "W", "SE": "NW", "S": "N", "SW": "NE", "W": "E", "NW": "SE"}


def check_spec(values: dict[str, Any], where: Where) -> None:
    """Check that the board has a size from the definition or from the rules module."""
    if not values["data"] and (values["files"] is None or values["ranks"] is None):
        raise where.child("files").error('give files and ranks (and cells), or data = "board"')
    check_board_pictures(values, where)
    for side in values["edges"]:
        if side not in ("north", "south", "east", "west"):
            raise where.child("edges").child(side).error("edges are north, south, east or west")
    for name in values["cells"] or {}:
        try:
            fx, ry = square_index(name)
        except ValueError:
            fx = ry = MAX_POSITION + 1
        if abs(fx) > MAX_POSITION or abs(ry) > MAX_POSITION:
            raise (
                where.child("cells")
                .child(name)
                .error(
                    f"not a square: write a name such as c4, or @x,y with x and y from -{MAX_POSITION} to {MAX_POSITION}"
                )
            )


def square_index(name: str) -> tuple[int, int]:
    """Return (file index, rank index) from 0 of a square name such as 'c4' or '@2,-1'."""
    m = SQUARE.match(name)
    if m:
        return ord(m.group(1)) - ord("a"), int(m.group(2)) - 1
    m = COORD.match(name)
    if m:
        return int(m.group(1)), int(m.group(2))
    raise ValueError(f"not a square name: {name!r}")


def board_cells(spec: ComponentSpec, ctx: Context) -> tuple[int, int, dict[str, list[str]]]:
    """Return files, ranks and the marks of every square (from the rules module or the definition)."""
    values = spec.typed(GridBoardSpec)
    if values.data:
        data = ctx.layout_data(values.data)
        cells = dict(data.get("cells", {}))
        for name, marks in data.get("outside", {}).items():
            cells[name] = cells.get(name, []) + list(marks)
        files: Any = data.get("files", values.files)
        ranks: Any = data.get("ranks", values.ranks)
        return int(files), int(ranks), cells
    assert values.files is not None and values.ranks is not None  # check_spec: files and ranks, or data
    return values.files, values.ranks, {name: list(marks) for name, marks in (values.cells or {}).items()}


class _Grid:
    """Maps squares to page positions."""

    def __init__(
        self, files: int, ranks: int, cell: float, x0: float, y0: float, min_fx: int, max_ry: int
    ) -> None:
        self.files, self.ranks, self.cell = files, ranks, cell
        self.x0, self.y0 = x0, y0
        self.min_fx, self.max_ry = min_fx, max_ry

    def corner(self, fx: int, ry: int) -> tuple[float, float]:
        return (self.x0 + (fx - self.min_fx) * self.cell, self.y0 + (self.max_ry - ry) * self.cell)

    def centre(self, name: str) -> tuple[float, float]:
        fx, ry = square_index(name)
        x, y = self.corner(fx, ry)
        return (x + self.cell / 2, y + self.cell / 2)


def _cell_shapes(
    x: float,
    y: float,
    s: float,
    marks: list[str],
    spec: ComponentSpec,
    ctx: Context,
    layer: str,
    words: bool = True,
    corners: bool = True,
) -> list[Shape]:
    """Return a square's marks of one layer ('base' fills, 'top' ink); ``words`` False leaves out
    its texts (a piece stands on it), ``corners`` False its corner labels (figures show pieces)."""
    values = spec.typed(GridBoardSpec)
    shapes: list[Shape] = []
    ink_saver = ctx.options.ink_saver
    # a corner label takes a band at the top of the square; arrows keep below it
    band = (
        s * 0.26
        if corners and any((entry := lookup(values.marks, m)[0]) and entry.corner for m in marks)
        else 0.0
    )
    for mark in marks:
        if mark.startswith("text:"):
            if layer == "top" and words:
                pt = s * 0.6 * 72 / 25.4
                shapes.append(
                    fitted_text(
                        x + s / 2, y + s / 2 + s * 0.6 * 0.36, mark[5:], s * 0.85, pt, values.font, "middle"
                    )
                )
            continue
        if mark.startswith("symbol:"):
            if layer == "top":
                shapes.extend(draw_symbol(mark[7:], x + s / 2, y + s / 2, s * 0.6, "#000000"))
            continue
        if mark.startswith("arrows:"):
            if layer == "top":
                dirs = [d.strip() for d in mark[7:].split(",") if d.strip()]
                shapes.extend(_arrows(x + band / 2, y + band, s - band, dirs, ctx, s))
            continue
        if mark.startswith(MARK_PREFIX):
            if layer == "base":
                key = f"components.{spec.id}.cells: {mark!r}"
                shapes.extend(face_picture(ctx.definition.path, mark[6:], key, (x, y, s, s), "cover"))
            continue
        look, parts = mark_look(spec, ctx, mark, values.marks)
        fill = ctx.colour(look.fill)
        if layer == "base":
            dark = fill is not None and contrast_ink(fill) == "#ffffff"
            if fill and not (ink_saver and dark):
                shapes.append(Rect(x, y, s, s, Style(stroke=None, fill=fill)))
            if look.image:
                key = f"components.{spec.id}.marks: {mark!r}: image"
                shapes.extend(face_picture(ctx.definition.path, look.image, key, (x, y, s, s), look.fit))
            if look.hatch or (ink_saver and dark):
                shapes.append(Group(tuple(hatch(x, y, s, s, "#000000", spacing=max(1.6, s / 9), width=0.3))))
        else:
            kept = fill is not None and not (ink_saver and contrast_ink(fill) == "#ffffff")
            face = fill if kept and fill else "#ffffff"
            ink = contrast_ink(None if ink_saver else fill)

            def own(colour: str, face: str = face, ink: str = ink) -> str:
                return mark_colour(ctx, colour, face, ink)

            if look.outline or look.dashed:
                colour = ctx.colour(look.outline) or "#000000"
                inset = s * 0.06
                shapes.append(
                    Rect(
                        x + inset,
                        y + inset,
                        s - 2 * inset,
                        s - 2 * inset,
                        Style(stroke=colour, fill=None, width=0.5, dash=(1.5, 1.0) if look.dashed else None),
                        r=s * 0.08,
                    )
                )
            cy = {"centre": y + s / 2, "top": y + s * 0.3, "bottom": y + s * 0.7}[look.position]
            if look.symbol:
                shapes.extend(
                    draw_symbol(
                        format_parts(look.symbol, parts),
                        x + s / 2,
                        cy,
                        s * look.symbol_scale,
                        own(look.symbol_colour),
                    )
                )
            if look.text and words:
                h = s * look.text_scale
                shapes.append(
                    fitted_text(
                        x + s / 2,
                        cy + h * 0.36,
                        format_parts(look.text, parts),
                        s * 0.9,
                        h * 72 / 25.4,
                        values.font,
                        "middle",
                        own(look.text_colour),
                    )
                )
            if look.corner and corners:
                shapes.append(
                    fitted_text(
                        x + s * 0.06,
                        y + s * 0.2,
                        format_parts(look.corner, parts),
                        s * 0.6,
                        s * 0.14 * 72 / 25.4,
                        values.font,
                        "start",
                        own(look.text_colour),
                    )
                )
    return shapes


def _arrows(
    x: float, y: float, s: float, dirs: list[str], ctx: Context, cell: float | None = None
) -> list[Shape]:
    """Return the arrows of a square drawn in the s x s box at (x, y); line width from the cell."""
    cx, cy = x + s / 2, y + s / 2
    style = Style(stroke="#000000", width=max(0.45, (cell or s) * 0.028), cap="round")
    for d in dirs:
        if d not in DIRECTIONS:
            raise DefinitionError(
                f"{ctx.definition.path}: unknown arrow direction {d!r} (directions: {', '.join(DIRECTIONS)})"
            )

    def ray(d: str) -> tuple[float, float, float]:
        dx, dy = DIRECTIONS[d]
        reach = s * (0.40 if dx == 0 or dy == 0 else 0.40 * math.sqrt(2) * 0.92)
        return dx / math.hypot(dx, dy), dy / math.hypot(dx, dy), reach

    return pointer_fan(cx, cy, s, dirs, ray, OPPOSITE.__getitem__, style, s * 0.14)


@dataclass
class _Frame:
    """The board's extent: its cells and their indices, bands round the grid, the square size."""

    files: int
    ranks: int
    cells: dict[str, list[str]]
    indexed: dict[str, tuple[int, int]]
    min_fx: int
    max_fx: int
    min_ry: int
    max_ry: int
    label_size: float
    label_band: float
    edge_pt: float
    edge_band: float
    bands: dict[str, float]
    show_title: bool
    title_h: float
    caption_h: float
    cell: float


def _frame(spec: ComponentSpec, ctx: Context, overlay: dict[str, Any] | None) -> _Frame:
    values = spec.typed(GridBoardSpec)
    files, ranks, cells = board_cells(spec, ctx)
    for name, marks in (overlay or {}).get("cells", {}).items():
        cells[name] = list(marks)
    try:
        indexed = {name: square_index(name) for name in cells}
    except ValueError as exc:
        raise DefinitionError(f"{ctx.definition.path}: components.{spec.id}.cells: {exc}") from None
    min_fx = min([0] + [fx for fx, _ in indexed.values()])
    max_fx = max([files - 1] + [fx for fx, _ in indexed.values()])
    min_ry = min([0] + [ry for _, ry in indexed.values()])
    max_ry = max([ranks - 1] + [ry for _, ry in indexed.values()])
    cols, rows = max_fx - min_fx + 1, max_ry - min_ry + 1
    label_size = max(values.label_size, (overlay or {}).get("type_floor", 0.0))
    label_band = label_size * 25.4 / 72 * 1.9 if values.labels else 3.0
    edge_pt = max(9.0, (overlay or {}).get("type_floor", 0.0))
    edge_band = max(8.0, edge_pt * 25.4 / 72 * 2.2)
    bands = {
        side: (edge_band if side in values.edges else 0.0) for side in ("north", "south", "east", "west")
    }
    show_title = values.title_on_board and overlay is None  # figures have captions instead
    title_h = 11.0 if show_title else 0.0
    caption_h = 6.0
    fixed = ctx.options.cell_size or values.cell

    def fitted() -> float:
        if fixed is not None:
            return float(fixed)
        pw, ph = ctx.paper.printable
        avail_w = pw - 2 * label_band - bands["east"] - bands["west"] - 1.0
        avail_h = ph - 2 * label_band - bands["north"] - bands["south"] - title_h - caption_h - 6.0
        return math.floor(min(values.max_cell, avail_w / cols, avail_h / rows) * 2) / 2

    cell = fitted()
    two_lines = _two_line_band(edge_pt, edge_band)
    for side, text in values.edges.items():
        length = (files if side in ("north", "south") else ranks) * cell - 3.2
        if len(_band_lines(text, edge_pt, length, values.font)) == 2:
            bands[side] = two_lines  # a text longer than its edge takes two lines
    cell = min(cell, fitted())
    return _Frame(
        files,
        ranks,
        cells,
        indexed,
        min_fx,
        max_fx,
        min_ry,
        max_ry,
        label_size,
        label_band,
        edge_pt,
        edge_band,
        bands,
        show_title,
        title_h,
        caption_h,
        cell,
    )


def square_size(spec: ComponentSpec, ctx: Context) -> float:
    """Return the side in mm of the board's squares as printed (--cell-size sets it)."""
    return _frame(spec, ctx, None).cell


def drawing(spec: ComponentSpec, ctx: Context, overlay: dict[str, Any] | None = None) -> Drawing:
    """Return the board at true size, with an optional overlay (pieces, highlights, arrows, lines)."""
    values = spec.typed(GridBoardSpec)
    f = _frame(spec, ctx, overlay)
    files, ranks, cells, indexed = f.files, f.ranks, f.cells, f.indexed
    min_fx, max_fx, min_ry, max_ry = f.min_fx, f.max_fx, f.min_ry, f.max_ry
    cols, rows = max_fx - min_fx + 1, max_ry - min_ry + 1
    label_size, label_band, edge_pt, bands = f.label_size, f.label_band, f.edge_pt, f.bands
    show_title, title_h, caption_h, cell = f.show_title, f.title_h, f.caption_h, f.cell
    x0 = label_band + bands["west"]
    y0 = title_h + label_band + bands["north"]
    grid = _Grid(files, ranks, cell, x0, y0, min_fx, max_ry)
    width = x0 + cols * cell + label_band + bands["east"]
    height = y0 + rows * cell + label_band + bands["south"] + caption_h
    shapes: list[Shape] = []
    if show_title:
        shapes.extend(
            inline.set_line(
                Text(width / 2, 8.0, ctx.definition.title, 14, values.font, "middle"), ctx.definition
            )
        )
    gx, gy = grid.corner(0, ranks - 1)
    bg = ctx.colour(values.background)
    if bg and bg != "#ffffff" and not ctx.options.ink_saver:
        shapes.append(Rect(gx, gy, files * cell, ranks * cell, Style(stroke=None, fill=bg)))
    if values.background_image:
        area = grown((gx, gy, files * cell, ranks * cell), (width, height), ctx.options.bleed)
        key = f"components.{spec.id}.background_image"
        shapes.extend(
            face_picture(ctx.definition.path, values.background_image, key, area, values.background_fit)
        )
    checker = ctx.colour(values.checker)
    hatched: list[tuple[float, float]] = []  # ink saver: checker squares, hatched round their marks
    hatch_at = len(shapes)
    if checker:
        for fx in range(files):
            for ry in range(ranks):
                if (fx + ry) % 2 == 0:
                    x, y = grid.corner(fx, ry)
                    if ctx.options.ink_saver:
                        hatched.append((x, y))
                    else:
                        shapes.append(Rect(x, y, cell, cell, Style(stroke=None, fill=checker)))
    for name in sorted(cells, key=lambda n: indexed[n]):
        x, y = grid.corner(*indexed[name])
        shapes.extend(_cell_shapes(x, y, cell, cells[name], spec, ctx, "base"))
    line = Style(stroke=ctx.colour(values.line_colour), width=values.line_width)
    for fx in range(files + 1):
        x = gx + fx * cell
        shapes.append(Line(x, gy, x, gy + ranks * cell, line))
    for ry in range(ranks + 1):
        y = gy + ry * cell
        shapes.append(Line(gx, y, gx + files * cell, y, line))
    shapes.append(
        Rect(gx, gy, files * cell, ranks * cell, Style(stroke="#000000", width=values.line_width * 2.5))
    )
    occupied = set((overlay or {}).get("pieces", {}))
    tops: dict[tuple[float, float], list[Shape]] = {}
    for name in sorted(cells, key=lambda n: indexed[n]):
        fx, ry = indexed[name]
        x, y = grid.corner(fx, ry)
        if not (0 <= fx < files and 0 <= ry < ranks) and cells[name]:
            shapes.append(
                Rect(
                    x + 0.5,
                    y + 0.5,
                    cell - 1.0,
                    cell - 1.0,
                    Style(stroke="#666666", width=0.3, dash=(1.2, 0.8)),
                )
            )
        # in figures corner labels give way to the pieces, and a piece hides its square's text
        words = overlay is None or name not in occupied
        top = _cell_shapes(x, y, cell, cells[name], spec, ctx, "top", words, overlay is None)
        tops[(round(x, 6), round(y, 6))] = top
        shapes.extend(top)
    if hatched:  # no hatch line crosses a square's texts and symbols: they sit on white ground
        lines: list[Shape] = []
        for x, y in hatched:
            square = ((x, y), (x + cell, y), (x + cell, y + cell), (x, y + cell))
            holes = mark_holes(tops.get((round(x, 6), round(y, 6)), []))
            lines.extend(knockout_hatch(square, "#999999", holes, spacing=cell / 6, width=0.2))
        shapes[hatch_at:hatch_at] = lines
    if values.labels:
        size = label_size
        cap = size * 25.4 / 72 * 0.72
        for fx in range(files):
            x = gx + fx * cell + cell / 2
            letter = chr(ord("a") + fx)
            top_y = grid.corner(0, max_ry)[1] - bands["north"] - (label_band - cap) / 2
            bottom_y = grid.corner(0, min_ry)[1] + cell + bands["south"] + (label_band + cap) / 2
            shapes.append(Text(x, top_y, letter, size, values.font, "middle", "#333333"))
            shapes.append(Text(x, bottom_y, letter, size, values.font, "middle", "#333333"))
        for ry in range(ranks):
            y = grid.corner(0, ry)[1] + cell / 2 + cap / 2
            left_x = grid.corner(min_fx, 0)[0] - bands["west"] - label_band / 2
            right_x = grid.corner(max_fx, 0)[0] + cell + bands["east"] + label_band / 2
            shapes.append(Text(left_x, y, str(ry + 1), size, values.font, "middle", "#333333"))
            shapes.append(Text(right_x, y, str(ry + 1), size, values.font, "middle", "#333333"))
    shapes.extend(_edge_bands(spec, grid, files, ranks, cell, bands, edge_pt, ctx.definition))
    caption = values.caption or ctx.seed_label()
    if caption:
        shapes.append(
            Text(width - 2.0, height - 1.5, fill_names(caption, seed=ctx.seed), 8, "sans", "end", "#444444")
        )
    shapes.extend(_overlay(spec, ctx, overlay or {}, grid, cell))
    return Drawing(width, height, tuple(shapes), values.title or spec.id)


def _edge_bands(
    spec: ComponentSpec,
    grid: _Grid,
    files: int,
    ranks: int,
    cell: float,
    bands: dict[str, float],
    size: float = 9.0,
    definition: GameDefinition | None = None,
) -> list[Shape]:
    """Return the dashed text bands outside the grid's edges (text of ``size`` pt, icons set in
    it from the definition's)."""
    values = spec.typed(GridBoardSpec)
    shapes: list[Shape] = []
    cap = size * 25.4 / 72 * 0.73
    gx, gy = grid.corner(0, ranks - 1)
    w, h = files * cell, ranks * cell
    style = Style(stroke="#000000", fill="#ffffff", width=0.4, dash=(2.0, 1.0))
    for side, text in sorted(values.edges.items()):
        band = bands[side]
        if side == "north":
            box = (gx, gy - band, w, band)
        elif side == "south":
            box = (gx, gy + h, w, band)
        elif side == "west":
            box = (gx - band, gy, band, h)
        else:
            box = (gx + w, gy, band, h)
        x, y, bw, bh = box
        shapes.append(Rect(x + 0.8, y + 0.8, bw - 1.6, bh - 1.6, style))
        length = max(bw, bh) - 3.2
        lines = _band_lines(text, size, length, values.font)
        step = cap * 1.6
        if has_icons(text) and definition is not None:
            icons_of(definition).check(text, f"{definition.path}: components.{spec.id}.edges.{side}")
        texts = tuple(
            shape
            for i, line in enumerate(lines)
            for shape in _set(
                Text(0, cap / 2 + (i - (len(lines) - 1) / 2) * step, line, size, values.font, "middle"),
                definition,
            )
        )
        if side in ("north", "south") and len(lines) == 1:
            shapes.extend(
                _set(Text(x + bw / 2, y + bh / 2 + cap / 2, text, size, values.font, "middle"), definition)
            )
            continue
        turn = 0 if side in ("north", "south") else (90 if side == "east" else -90)
        shapes.append(Group(texts, multiply(translate(x + bw / 2, y + bh / 2), rotate(turn))))
    return shapes


def _set(line: Text, definition: GameDefinition | None) -> list[Shape]:
    """Return a line of text with its icons set in it (a plain line as itself)."""
    return inline.set_line(line, definition) if definition is not None else [line]


def _two_line_band(size: float, band: float) -> float:
    """Return the depth in mm of an edge band holding two lines of ``size`` pt."""
    cap = size * 25.4 / 72 * 0.73
    return max(band, cap * 2.6 + 3.6)


def _band_lines(text: str, size: float, length: float, font: str = "sans-bold") -> list[str]:
    """Return the text as one line, or two split at the space nearest its middle when one line
    is longer than the band."""
    words = text.split(" ")
    if inline.line_width(text, font, size) <= length or len(words) < 2:
        return [text]
    cuts = sorted(range(1, len(words)), key=lambda n: abs(len(" ".join(words[:n])) - len(text) / 2))
    return [" ".join(words[: cuts[0]]), " ".join(words[cuts[0] :])]


def _overlay(
    spec: ComponentSpec, ctx: Context, overlay: dict[str, Any], grid: _Grid, cell: float
) -> list[Shape]:
    values = spec.typed(GridBoardSpec)
    shapes: list[Shape] = []
    red = "#d62728"
    for name in overlay.get("highlight", []):
        x, y = grid.centre(name)
        shapes.append(
            Rect(
                x - cell / 2 + 0.8,
                y - cell / 2 + 0.8,
                cell - 1.6,
                cell - 1.6,
                Style(stroke=red, fill=None, width=0.9, dash=(1.6, 1.0)),
            )
        )
    for a, b in overlay.get("lines", []):
        (x1, y1), (x2, y2) = grid.centre(a), grid.centre(b)
        shapes.append(Line(x1, y1, x2, y2, Style(stroke=red, width=0.6, dash=(2.0, 1.2))))
    for name, piece in sorted(overlay.get("pieces", {}).items()):
        x, y = grid.centre(name)
        shapes.extend(draw_token(spec, ctx, piece, x, y, cell * 0.36, tokens=values.tokens))
    for a, b in overlay.get("arrows", []):
        shapes.append(move_arrow(grid.centre(a), grid.centre(b), cell * 0.38, red, 3.0))
    return shapes


def build(spec: ComponentSpec, ctx: Context) -> list[Output]:
    """Return the board on paper (tiled over several sheets when the squares are large)."""
    values = spec.typed(GridBoardSpec)
    art = drawing(spec, ctx)
    return [
        Output(
            spec.id,
            placed(art, ctx, values.title or spec.id),
            art=art,
        )
    ]
