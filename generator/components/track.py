"""The track: a path of numbered boxes laid out in lanes that turn back on themselves (Centennial's
strip: boxes 1 to 12 out, then 11 back to 1).

The path is a list of box labels in the order a counter visits them (``path`` in the definition,
or ``data`` naming layout data with a ``path`` list). It is folded into lanes of ``lane_length``
columns, each lane running the opposite way to the one before. With ``turn = "span"`` the last box
of a lane is drawn across two lanes, so the path visibly turns round it (Centennial's box 12);
with ``turn = "plain"`` the next lane starts right below. Arrows on the edges between boxes show
the way, small step numbers count the boxes, a start label stands before the first box and a
finish label after the last. The box size fits the paper (at most ``max_box``) unless ``box`` or
``--cell-size`` sets it; a strip too big for one sheet is tiled.

Overlay (booklet figures): ``{"pieces": {"6": "p1", "3": ["p2", "p3"]}, "highlight": ["1", "2"]}``:
keys are step numbers (1 = the first box); pieces look up ``tokens``.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable
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
    pt_from_mm,
)
from generator.components.pictures import check_picture, face_picture, fit_field, grown, image_field
from generator.components.placed import placed
from generator.components.specs import TrackSpec
from generator.components.symbols import draw_symbol
from generator.definitions.schema import Field, Where, positive
from generator.definitions.values import ComponentSpec
from generator.foundation.errors import DefinitionError
from generator.foundation.numbers import is_ascii_digits
from generator.model.fonts import split_lines
from generator.model.page import Drawing, Polygon, Rect, Shape, Style, Text

CAPTION_WIDTH = 90.0  # mm, the longest caption line
CAPTION_LEADING = 3.6  # mm
SCHEMA: dict[str, Field] = {
    "data": Field("str", default="", doc="layout data name whose 'path' lists the boxes"),
    "path": Field("list:str", default=None, doc="box labels in the order a counter visits them"),
    "lane_length": Field(
        "int", default=None, min=1, max=100, doc="columns per lane (default: all in one lane)"
    ),
    "turn": Field(
        "str",
        default="span",
        choices=("span", "plain"),
        doc="span: a lane's last box stretches over the next lane; plain: the next lane starts below it",
    ),
    "box": Field("length", default=None, check=positive, doc="box size; default: the largest that fits"),
    "max_box": Field(
        "length", default=30.0, check=positive, doc="the largest box the default size may choose"
    ),
    "lane_gap": Field("length", default=3.0, min=0, doc="space between lanes"),
    "lane_fills": Field("list:str", default=["#ffffff"], doc="box fill of each lane, repeated as needed"),
    "turn_fill": Field("str", default="", doc="fill of the turning boxes (default: their lane's)"),
    "line_colour": Field("str", default="#000000", doc="colour of the box outlines"),
    "line_width": Field("length", default=0.6, check=positive, doc="width of the box outlines"),
    "arrow_colour": Field("str", default="#000000", doc="colour of the arrows between lanes"),
    "step_numbers": Field("bool", default=True, doc="small step count in each box's corner"),
    "number_size": Field(
        "float", default=None, min=4, max=200, doc="box number size in points (at most what the box holds)"
    ),
    "start_label": Field("str", default="", doc="text before the first box, e.g. 'START'"),
    "finish_label": Field("str", default="", doc="text after the last box, e.g. 'HOME'"),
    "lane_labels": Field(
        "list:str", default=[], doc="small text at the start of each lane, e.g. 'out', 'back'"
    ),
    "label_size": Field(
        "float", default=10.0, min=4, max=36, doc="size of the start, finish and lane labels in points"
    ),
    "marks": Field(
        "map:str", default={}, doc='symbol drawn in a box\'s corner, by step number: { 23 = "flag" }'
    ),
    "title_on_board": Field("bool", default=True, doc="print the component's title above the track"),
    "caption": Field("str", default="", doc="small text under the track"),
    "tokens": Field(
        "map-table", default={}, schema=TOKEN_SCHEMA, doc="the look of counters in booklet figures, by side"
    ),
    "background_image": image_field(
        "a picture behind the whole track (boxes, labels, title), to its edges and into the bleed"
    ),
    "background_fit": fit_field(),
}


def check_spec(values: dict[str, Any], where: Where) -> None:
    """Check that the track has boxes, lanes that can turn, and marks on existing steps."""
    if not values["data"] and not values["path"]:
        raise where.child("path").error('give the boxes (path = ["1", "2", ...]) or data = "track"')
    if values["turn"] == "span" and values["lane_length"] == 1:
        raise where.child("lane_length").error("a spanning turn needs lanes of at least 2 boxes")
    for key in values["marks"]:
        if not is_ascii_digits(key) or int(key) < 1:
            raise where.child("marks").child(key).error("expected a step number (1 = the first box)")
    if not values["lane_fills"]:
        raise where.child("lane_fills").error("give at least one fill")
    folder = os.path.dirname(where.file)
    check_picture(folder, values.get("background_image") or "", where.child("background_image"))


@dataclass(frozen=True)
class Cell:
    """Where one box of the path sits: column, lane (row), rows spanned, and the lane it belongs to."""

    col: int
    row: int
    span: int
    lane: int
    direction: int  # 1: the lane runs left to right, -1: right to left


def lay_out(count: int, lane_length: int, turn: str) -> list[Cell]:
    """Return the cell of each of ``count`` boxes folded into serpentine lanes of ``lane_length``."""
    cells: list[Cell] = []
    col, row, step, lane = 0, 0, 1, 0
    while len(cells) < count:
        end = lane_length - 1 if step == 1 else 0
        while True:
            at_edge = col == end
            more = len(cells) < count - 1
            span = 2 if at_edge and more and turn == "span" else 1
            cells.append(Cell(col, row, span, lane, step))
            if not more or at_edge:
                break
            col += step
        if len(cells) >= count:
            break
        row += 1
        lane += 1
        step = -step
        if turn == "span":
            col += step
    return cells


def track_path(spec: ComponentSpec, ctx: Context) -> tuple[list[str], int]:
    """Return the box labels in path order and the lane length, from the definition or layout data."""
    values = spec.typed(TrackSpec)
    path = list(values.path or ())
    lane_length = values.lane_length
    if values.data:
        data = ctx.layout_data(values.data)
        path = path or [str(label) for label in data["path"]]
        lane_length = lane_length or data.get("lane_length")
    if not path:
        raise DefinitionError(f"{ctx.definition.path}: components.{spec.id}: the track has no boxes")
    return path, int(lane_length or len(path))


def _check_icons(spec: ComponentSpec, ctx: Context, path: list[str]) -> None:
    """Raise a one-line error naming the key of a box label, a start, finish or lane label or the
    caption whose icons are wrong (an unknown name or colour)."""
    values = spec.typed(TrackSpec)
    at = f"{ctx.definition.path}: components.{spec.id}"
    texts = [(f"{'data' if values.data and not values.path else 'path'}[{i}]", t) for i, t in enumerate(path)]
    texts += [("start_label", values.start_label), ("finish_label", values.finish_label)]
    texts += [(f"lane_labels[{i}]", t) for i, t in enumerate(values.lane_labels)]
    texts.append(("caption", values.caption))
    for key, text in texts:
        if has_icons(text):
            icons_of(ctx.definition).check(text, f"{at}.{key}")


NUMBER_MARGIN = 0.15  # of the box, kept clear on each side of a box number
ARROW_CLEAR = 1.0  # mm between a box number and the arrow on the box's side


def _arrow_head(x: float, y: float, dx: float, dy: float, size: float, colour: str) -> Polygon:
    """Return a small filled triangle centred on (x, y) pointing along (dx, dy)."""
    back, half = size * 0.5, size * 0.45
    tip = (x + dx * back, y + dy * back)
    bx, by = x - dx * back, y - dy * back
    return Polygon(
        (tip, (bx - dy * half, by + dx * half), (bx + dy * half, by - dx * half)),
        Style(stroke="#ffffff", fill=colour, width=0.25),
    )


def _arrow_shape(x: float, y: float, length: float, direction: int, colour: str, width: float) -> list[Shape]:
    """Return a horizontal arrow of a given length starting at x, pointing right (1) or left (-1)."""
    head = min(3.0, length * 0.4)
    end = x + direction * length
    shaft_end = end - direction * head
    return [
        Polygon(
            (
                (x, y - width / 2),
                (shaft_end, y - width / 2),
                (shaft_end, y - head * 0.5),
                (end, y),
                (shaft_end, y + head * 0.5),
                (shaft_end, y + width / 2),
                (x, y + width / 2),
            ),
            Style(stroke=None, fill=colour),
        )
    ]


def _frame(spec: ComponentSpec, ctx: Context, overlay: dict[str, Any] | None) -> dict[str, Any]:
    """Return the track's layout before drawing: its boxes' cells, side bands, caption and box size."""
    values = spec.typed(TrackSpec)
    path, lane_length = track_path(spec, ctx)
    cells = lay_out(len(path), lane_length, values.turn)
    cols = max(c.col for c in cells) + 1
    rows = max(c.row + c.span for c in cells)
    gap = values.lane_gap
    label_pt = values.label_size
    label_h = label_pt * 25.4 / 72
    # side bands hold the start and finish labels and the lane labels, each at its lane's start
    first, last = cells[0], cells[-1]
    band_texts: dict[tuple[str, int], list[tuple[str, str]]] = {}

    def put(side: str, row: int, text: str, font: str) -> None:
        if text:
            band_texts.setdefault((side, row), []).append((text, font))

    put("left" if first.direction == 1 else "right", first.row, values.start_label, "sans-bold")
    lane_starts = [
        cell for index, cell in enumerate(cells) if index == 0 or cells[index - 1].lane != cell.lane
    ]
    for cell in lane_starts:
        if cell.lane < len(values.lane_labels):
            put("left" if cell.direction == 1 else "right", cell.row, values.lane_labels[cell.lane], "sans")
    finish_side = "left" if last.direction == -1 else "right"
    # a last lane that stops short keeps the finish label beside its last box, not at the lane's end
    finish_at_edge = last.col == (cols - 1 if last.direction == 1 else 0)
    if finish_at_edge:
        put(finish_side, last.row, values.finish_label, "sans-bold")
    band: dict[str, float] = {"left": 0.0, "right": 0.0}
    for (side, _), texts in band_texts.items():
        widest = max(inline.line_width(t, f, label_pt) for t, f in texts)
        band[side] = max(band[side], widest + 12.0)
    title_h = 12.0 if values.title_on_board else 2.0
    caption = "" if overlay is not None else values.caption or ctx.seed_label()  # figures have captions
    # a long caption wraps to short lines at the left, so a tiled strip's seams can pass beside it
    caption = fill_names(caption, seed=ctx.seed, steps=len(path)) if caption else ""
    split = inline.split_lines if has_icons(caption) else split_lines
    caption_lines = split(caption, "sans", 8, CAPTION_WIDTH) if caption else []
    caption_h = 3.5 + CAPTION_LEADING * len(caption_lines) if caption else 2.0

    box = ctx.options.cell_size or values.box
    if box is None:
        best = 0.0
        for sheet in (ctx.paper.portrait(), ctx.paper.landscape()):
            pw, ph = sheet.printable
            by_w = (pw - band["left"] - band["right"] - 2.0) / cols
            by_h = (ph - title_h - caption_h - gap * (rows - 1) - 2.0) / rows
            best = max(best, min(by_w, by_h))
        box = math.floor(min(values.max_box, best) * 2) / 2
        if box <= 0:
            raise DefinitionError(
                f"{ctx.definition.path}: components.{spec.id}: the track does not fit the paper"
            )
    return {
        "path": path,
        "cells": cells,
        "cols": cols,
        "rows": rows,
        "gap": gap,
        "label_pt": label_pt,
        "label_h": label_h,
        "first": first,
        "last": last,
        "band_texts": band_texts,
        "finish_side": finish_side,
        "finish_at_edge": finish_at_edge,
        "band": band,
        "title_h": title_h,
        "caption_lines": caption_lines,
        "caption_h": caption_h,
        "box": box,
    }


def square_size(spec: ComponentSpec, ctx: Context) -> float:
    """Return the side in mm of the track's boxes as printed (--cell-size sets it)."""
    return float(_frame(spec, ctx, None)["box"])


def drawing(
    spec: ComponentSpec,
    ctx: Context,
    overlay: dict[str, Any] | None = None,
    picture_bleed: float | None = None,
) -> Drawing:
    """Return the track at true size, with an optional overlay of pieces and highlighted boxes;
    its background picture runs ``picture_bleed`` mm past its edges (default: the --bleed; a
    track scaled down by ``--fit`` takes the bleed over the scale, so the bleed prints true)."""
    values = spec.typed(TrackSpec)
    f = _frame(spec, ctx, overlay)
    path = f["path"]
    cells = f["cells"]
    cols = f["cols"]
    rows = f["rows"]
    gap = f["gap"]
    label_pt = f["label_pt"]
    label_h = f["label_h"]
    first = f["first"]
    last = f["last"]
    band_texts = f["band_texts"]
    finish_side = f["finish_side"]
    finish_at_edge = f["finish_at_edge"]
    band = f["band"]
    title_h = f["title_h"]
    caption_lines = f["caption_lines"]
    caption_h = f["caption_h"]
    box = f["box"]
    x0 = band["left"] + 1.0
    y0 = title_h

    def rect(cell: Cell) -> tuple[float, float, float, float]:
        return (
            x0 + cell.col * box,
            y0 + cell.row * (box + gap),
            box,
            cell.span * box + (cell.span - 1) * gap,
        )

    width = x0 + cols * box + band["right"] + 1.0
    height = y0 + rows * box + (rows - 1) * gap + caption_h
    shapes: list[Shape] = []
    if values.background_image:  # under everything, to the track's edges: its cut (and its bleed)
        bleed = ctx.options.bleed if picture_bleed is None else picture_bleed
        area = grown((0.0, 0.0, width, height), (width, height), bleed)
        key = f"components.{spec.id}.background_image"
        shapes.extend(
            face_picture(ctx.definition.path, values.background_image, key, area, values.background_fit)
        )
    if values.title_on_board:
        shapes.extend(
            inline.set_line(
                Text(width / 2, 8.5, ctx.definition.title, 14, "sans-bold", "middle"), ctx.definition
            )
        )

    ink_saver = ctx.options.ink_saver
    line = Style(stroke=ctx.colour(values.line_colour) or "#000000", fill=None, width=values.line_width)
    fills = [ctx.colour(f) for f in values.lane_fills]
    turn_fill = ctx.colour(values.turn_fill) if values.turn_fill else None
    highlight = {str(h) for h in (overlay or {}).get("highlight", [])}
    floor = (overlay or {}).get("type_floor", 0.0)  # a figure shown small needs larger type
    small_pt = max(6.0, floor, min(8.0, pt_from_mm(box * 0.12)))
    small_band = small_pt * 25.4 / 72 * 0.72 + 1.6  # the step numbers' strip at the top of a box
    # a box number stands between the step numbers' strip and the arrows at the box's foot: a
    # number_size too large for that room shrinks to it, as a number too wide does below
    tallest = pt_from_mm((box - 2 * small_band) * 0.8)
    number_pt = min(values.number_size or pt_from_mm(box * 0.42), tallest)
    head = max(2.2, min(5.0, box * 0.2))  # the arrows on the boxes' shared edges
    # box numbers keep a margin from the box's sides and the arrows on them: one size for every
    # box, the one at which the widest number ("10", "11") fits between the margins
    room = box - 2 * max(box * NUMBER_MARGIN, head * 0.5 + ARROW_CLEAR)
    _check_icons(spec, ctx, path)
    widest = max(inline.line_width(label, "sans-bold", number_pt) for label in path)
    if widest > room > 0:
        number_pt *= room / widest
    arrow_colour = ctx.colour(values.arrow_colour) or "#000000"
    occupied = {str(k) for k in (overlay or {}).get("pieces", {})}
    for index, (label, cell) in enumerate(zip(path, cells)):
        x, y, w, h = rect(cell)
        colour = turn_fill if cell.span > 1 and turn_fill else fills[cell.lane % len(fills)]
        if colour == "#ffffff" or (ink_saver and colour is not None and contrast_ink(colour) == "#ffffff"):
            colour = None  # light lane tints stay with --ink-saver: they tell the way out from the way back
        shapes.append(Rect(x, y, w, h, Style(stroke=None, fill=colour)))
        if str(index + 1) in highlight:
            inset = max(0.8, box * 0.05)
            shapes.append(
                Rect(  # below the step number's strip
                    x + inset,
                    y + small_band,
                    w - 2 * inset,
                    h - small_band - inset,
                    Style(stroke="#d62728", fill=None, width=max(0.6, box * 0.04), dash=(1.6, 1.0)),
                )
            )
        cap = number_pt * 25.4 / 72 * 0.72
        if str(index + 1) not in occupied:  # a piece in a figure stands over its box's number
            ink = contrast_ink(colour)
            shapes.extend(
                inline.fitted_line(
                    ctx.definition,
                    x + w / 2,
                    y + h / 2 + cap / 2,
                    label,
                    room,
                    number_pt,
                    "sans-bold",
                    "middle",
                    ink,
                )
            )
        if values.step_numbers:
            shapes.append(
                Text(
                    x + 1.2,
                    y + small_pt * 25.4 / 72 * 0.72 + 1.0,
                    str(index + 1),
                    small_pt,
                    "sans",
                    "start",
                    "#555555",
                )
            )
        mark = values.marks.get(str(index + 1))
        if mark:
            s = box * 0.26
            shapes.extend(draw_symbol(mark, x + w - s * 0.7, y + s * 0.7, s, contrast_ink(colour)))
    for cell in cells:
        shapes.append(Rect(*rect(cell), line))
    # arrows on the shared edge of each pair of consecutive boxes
    for a, b in itertools.pairwise(cells):
        ax, ay, aw, ah = rect(a)
        _bx, by, _bw, bh = rect(b)
        if b.col != a.col:
            dx = 1 if b.col > a.col else -1
            ex = ax + aw if dx == 1 else ax
            top = max(ay, by)
            # below the numbers, so two-digit numbers stay clear of the arrow
            shapes.append(_arrow_head(ex, top + box * 0.84, dx, 0, head, arrow_colour))
        else:
            dy = 1 if b.row > a.row else -1
            ey = (ay + ah + by) / 2 if dy == 1 else (by + bh + ay) / 2
            shapes.append(_arrow_head(ax + aw / 2, ey, 0, dy, head, arrow_colour))
    # the side bands: start label with an arrow into the first box, finish label beside the last box
    for (side, row), texts in sorted(band_texts.items()):
        cy = y0 + row * (box + gap) + box / 2
        lines_h = label_h * 1.25 * len(texts)
        ty = cy - lines_h / 2 + label_h * 0.9
        for text, font in texts:
            if side == "left":
                shapes.extend(
                    inline.fitted_line(
                        ctx.definition, band["left"] - 8.0, ty, text, 0.0, label_pt, font, "end"
                    )
                )
            else:
                shapes.extend(
                    inline.fitted_line(
                        ctx.definition, width - band["right"] + 8.0, ty, text, 0.0, label_pt, font, "start"
                    )
                )
            ty += label_h * 1.25
    if values.start_label:
        fx, _, fw, _ = rect(first)
        cy = y0 + first.row * (box + gap) + box / 2
        if first.direction == 1:
            shapes.extend(_arrow_shape(fx - 7.0, cy, 6.0, 1, arrow_colour, 0.8))
        else:
            shapes.extend(_arrow_shape(fx + fw + 7.0, cy, 6.0, -1, arrow_colour, 0.8))
    if values.finish_label:
        lx, _, lw, _ = rect(last)
        cy = y0 + last.row * (box + gap) + box / 2
        if finish_side == "left":
            shapes.extend(_arrow_shape(lx - 1.0, cy, 6.0, -1, arrow_colour, 0.8))
        else:
            shapes.extend(_arrow_shape(lx + lw + 1.0, cy, 6.0, 1, arrow_colour, 0.8))
        if not finish_at_edge:
            ty = cy + label_h * 0.35
            if finish_side == "left":
                shapes.extend(
                    inline.fitted_line(
                        ctx.definition, lx - 9.0, ty, values.finish_label, 0.0, label_pt, "sans-bold", "end"
                    )
                )
            else:
                shapes.extend(
                    inline.fitted_line(
                        ctx.definition,
                        lx + lw + 9.0,
                        ty,
                        values.finish_label,
                        0.0,
                        label_pt,
                        "sans-bold",
                        "start",
                    )
                )
    for i, text in enumerate(caption_lines):
        base = height - 1.8 - CAPTION_LEADING * (len(caption_lines) - 1 - i)
        if len(caption_lines) == 1 and inline.line_width(text, "sans", 8) < width - 4:
            shapes.extend(
                inline.fitted_line(ctx.definition, width / 2, base, text, 0.0, 8, "sans", "middle", "#444444")
            )
        else:
            shapes.extend(
                inline.fitted_line(ctx.definition, x0, base, text, 0.0, 8, "sans", "start", "#444444")
            )
    if overlay:
        shapes.extend(
            _pieces(spec, ctx, overlay, cells, rect, box, small_band if values.step_numbers else 0.0)
        )
    return Drawing(width, height, tuple(shapes), values.title or "track")


def _pieces(
    spec: ComponentSpec,
    ctx: Context,
    overlay: dict[str, Any],
    cells: list[Cell],
    rect: Callable[[Cell], tuple[float, float, float, float]],
    box: float,
    band: float = 0.0,
) -> list[Shape]:
    """Return tokens standing in boxes (over the number, as a counter on the strip would), side by side."""
    tokens = spec.typed(TrackSpec).tokens
    shapes: list[Shape] = []
    for key, value in sorted(overlay.get("pieces", {}).items(), key=lambda kv: int(kv[0])):
        step = int(key)
        if not 1 <= step <= len(cells):
            raise DefinitionError(f"{ctx.definition.path}: components.{spec.id}: no step {step} on the track")
        names = [value] if isinstance(value, str) else list(value)
        x, y, w, h = rect(cells[step - 1])
        y, h = y + band, h - band  # below the step number
        r = min(box * 0.3, w * 0.92 / (2 * len(names)), h * 0.46)
        for i, name in enumerate(names):
            shapes.extend(
                draw_token(spec, ctx, name, x + w * (i + 0.5) / len(names), y + h / 2, r, tokens=tokens)
            )
    return shapes


def build(spec: ComponentSpec, ctx: Context) -> list[Output]:
    """Return the track placed on paper (turned, tiled, or scaled with --fit when too big)."""
    art = drawing(spec, ctx)
    values = spec.typed(TrackSpec)
    redrawn = (lambda b: drawing(spec, ctx, picture_bleed=b)) if values.background_image else None
    return [
        Output(
            spec.id,
            placed(art, ctx, values.title or spec.id, picture_bleed=redrawn),
            art=art,
        )
    ]
