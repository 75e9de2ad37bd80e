"""Fold-over standees: paper figures that stand on a board square, laid out n-up with cut lines.

Each standee is one strip, top to bottom: a base tab and the back panel (both upside down), the
fold at the figure's head, the front panel and a second base tab. Cut the strip out, fold it at
the middle so the two panels are back to back (glue them), and fold the two tabs outward: the
figure stands on them. The back shows the figure from behind (mirrored), so it reads the right
way round from either side once folded.

A panel shows a symbol (a silhouette), the figure's initial in its top left corner and, when the
figure is ``numbered``, the standee's number in the top right one (so a roster can keep each
soldier's ammunition and damage), the panel's fill and outline; the tabs show the label. Everything comes from the definition:

```toml
[components.soldiers]
kind = "standees"
width = "15mm"          # strip width (fits a square of the board)
height = "24mm"         # one panel
base = "10mm"           # one base tab

[[components.soldiers.figures]]
name = "Red pistolier"  # shown under the figure in booklet drawings
count = 4
symbol = "pistolier"    # any symbol; soldier silhouettes come from silhouettes.py
initial = "P"
numbered = true         # the four standees carry 1 to 4 in the top right corner of both panels
label = "RED PISTOLIER" # printed on the base tabs (default: the name)
fill = "red_pale"
stroke = "red"
ink = "red"             # silhouette and initial (default: black or white for contrast)
base_fill = "red"       # tab fill (default: the panel fill)
```

Soldier silhouettes are symbols like any other (silhouettes.py): ``pistolier``, ``rifleman``,
``grenadier``, ``machine-gunner``: a soldier facing right with a pistol held out, a long rifle, an
arm raised to throw a grenade, a heavy gun with a drum and an ammunition belt.

With ``--ink-saver`` panels and tabs become white with a thick outline in their colour, a light
silhouette takes the panel's colour instead, and the tabs of figures with dark panels are hatched
(so a light side and a dark side still differ in black and white).
"""

from __future__ import annotations

import os
from typing import Any

from generator.components import inline
from generator.components.base import FIT_MARGIN, Context, Output, board_square
from generator.components.look import (
    contrast_ink,
    figure_grid,
    knockout_boxes,
    knockout_hatch,
    luminance,
)
from generator.components.pictures import check_picture, fit_field, image_field, load_picture, picture_shapes
from generator.components.rows import data_fields, expand_templates, template_fields
from generator.components.specs import StandeesSpec, StandeesSpecFigures
from generator.components.symbols import draw_symbol
from generator.definitions.schema import Field, Where, positive
from generator.definitions.values import ComponentSpec
from generator.foundation.errors import DefinitionError
from generator.model.fonts import break_words, text_width
from generator.model.page import (
    MIN_TYPE,
    Drawing,
    Group,
    Line,
    Rect,
    Shape,
    Style,
    multiply,
    rotate,
    translate,
)
from generator.printing.imposition import SAFE_AREA, SheetItem, nup

MAX_COUNT = 200  # standees of one figure
FIGURE_SCHEMA: dict[str, Field] = {
    "name": Field("str", required=True, doc="the figure's name"),
    "count": Field(
        "int", default=1, min=1, max=MAX_COUNT, doc="how many standees of this figure (with data: per row)"
    ),
    "symbol": Field("str", default="", doc="symbol drawn on both panels (a silhouette)"),
    "initial": Field("str", default="", doc="a letter in the panel's top corner"),
    "numbered": Field(
        "bool", default=False, doc="number the standees 1 to count in both panels' other top corner"
    ),
    "label": Field("str", default="", doc="text on the base tabs (default: the name)"),
    "fill": Field("str", default="#ffffff", doc="the panels' fill colour"),
    "stroke": Field("str", default="#000000", doc="the outline colour"),
    "ink": Field("str", default="", doc="colour of the symbol and initial (default: contrast)"),
    "base_fill": Field("str", default="", doc="fill of the base tabs (default: the panel fill)"),
    **template_fields("row"),
    "image": image_field("a picture over the front panel, under the symbol and the corner texts"),
    "back_image": image_field("a picture over the back panel (default: the front's, mirrored)"),
    "fit": fit_field(),
}
SCHEMA: dict[str, Field] = {
    "width": Field("length", default=15.0, check=positive, doc="width of the strip"),
    "height": Field("length", default=24.0, check=positive, doc="height of one panel"),
    "base": Field("length", default=10.0, check=positive, doc="depth of one base tab"),
    "board": Field(
        "str", default="", doc="the board the figures stand on: the bases fold out to fill its squares"
    ),
    "figures": Field(
        "tables",
        required=True,
        schema=FIGURE_SCHEMA,
        doc="the figures, each a table (with data: templates, made once per row)",
    ),
    **data_fields("figure"),
    "font": Field(
        "str",
        default="sans-bold",
        doc="the face of the labels and initials: a shipped face or a name of [fonts]",
    ),
}
FOLD = Style(stroke="#808080", width=0.25, dash=(1.2, 0.9))


def check_spec(values: dict[str, Any], where: Where) -> None:
    """Check that figures are listed and that a standee is not absurdly slender or squat."""
    if not values["figures"]:
        raise where.child("figures").error("list at least one figure")
    expand_templates(values, where, "figures", FIGURE_SCHEMA, "figure", MAX_COUNT)
    if not 0.2 <= values["width"] / values["height"] <= 3.0:
        raise where.child("width").error("width should be between 0.2 and 3 times the panel height")
    if values["base"] > values["height"]:
        raise where.child("base").error("a base tab deeper than the panel would not fold under it")
    folder = os.path.dirname(where.file)
    for i, figure in enumerate(values["figures"]):
        for key in ("image", "back_image"):
            check_picture(folder, figure.get(key) or "", where.child("figures").child(i).child(key))


def _colours(figure: StandeesSpecFigures, ctx: Context) -> dict[str, Any]:
    """Return the fills, outline and ink of a figure, whitened by the ink saver."""
    face = ctx.colour(figure.fill)
    base = ctx.colour(figure.base_fill) or face
    outline = ctx.colour(figure.stroke) or "#000000"
    ink = ctx.colour(figure.ink) or contrast_ink(face)
    width = 0.35
    dark_face = face is not None and luminance(face) < 0.45
    if ctx.options.ink_saver:
        if face is not None and luminance(face) < 0.9:
            outline = face if luminance(face) < 0.75 else outline
            if luminance(ink) > 0.5:
                ink = face if luminance(face) < 0.6 else "#000000"
            face, width = "#ffffff", 0.9
        if base is not None and luminance(base) < 0.9:
            base = "#ffffff"
    return {
        "face": face,
        "base": base,
        "outline": outline,
        "ink": ink,
        "width": width,
        "hatch_base": ctx.options.ink_saver and dark_face,
        # for a print shop (--bleed) text keeps the safe area inside the strip's cut
        "safe": SAFE_AREA if ctx.options.bleed else 0.0,
    }


def _panel(
    figure: StandeesSpecFigures,
    look: dict[str, Any],
    w: float,
    h: float,
    back: bool,
    number: str = "",
    picture: tuple[Shape, ...] = (),
) -> list[Shape]:
    """One upright panel at (0, 0): the front, or the back seen from behind (mirrored figure), with
    the initial top left and the standee's ``number`` (if any) top right, over its ``picture``."""
    shapes: list[Shape] = [Rect(0, 0, w, h, Style(stroke=None, fill=look["face"])), *picture]
    if figure.symbol:
        # under --bleed a symbol as wide as its nominal size (a crown) keeps the safe area
        size = min(w - 2 * look["safe"], h * 0.82)
        art = draw_symbol(figure.symbol, w / 2, h * 0.57, size, look["ink"])
        shapes.append(Group(tuple(art), (-1.0, 0.0, 0.0, 1.0, w, 0.0)) if back else Group(tuple(art)))
    pt = min(w, h) * 0.3 * 72 / 25.4
    for text, x, anchor in (
        (figure.initial, max(w * 0.08, look["safe"]), "start"),
        (number, w - max(w * 0.08, look["safe"]), "end"),
    ):
        if text:
            y = h * 0.08 + min(w, h) * 0.3 * 0.75
            shapes.extend(
                inline.fitted_line(
                    look["definition"], x, y, text, w * 0.4, pt, look["font"], anchor, look["ink"]
                )
            )
    shapes.append(Rect(0, 0, w, h, Style(stroke=look["outline"], fill=None, width=look["width"])))
    return shapes


def _tab(
    figure: StandeesSpecFigures, look: dict[str, Any], w: float, b: float, labelled: bool = True
) -> list[Shape]:
    """One upright base tab at (0, 0) with the figure's label (unless not ``labelled``)."""
    shapes: list[Shape] = [Rect(0, 0, w, b, Style(stroke=None, fill=look["base"]))]
    label = (figure.label or figure.name) if labelled else ""
    ink = contrast_ink(look["base"]) if not look["hatch_base"] else "#000000"
    pt = min(b * 0.3, 2.6) * 72 / 25.4
    room, middle, spacing = w * 0.9, b / 2, 1.6
    if look["safe"]:
        pt, lines, middle, spacing, room = _safe_label(label, w, b, pt, look["safe"], look["font"])
    else:
        lines = _wrap(label, room, pt, font=look["font"])
    cap = pt * 25.4 / 72 * 0.72
    step = cap * spacing
    top = middle - (len(lines) - 1) * step / 2 + cap / 2
    texts = [
        inline.fitted_line(
            look["definition"], w / 2, top + i * step, line, room, pt, look["font"], "middle", ink
        )
        for i, line in enumerate(lines if label else [])
    ]
    if look["hatch_base"]:  # the label sits on a knocked-out ground: no hatch line crosses it
        edge = look["width"] / 2
        tab = ((edge, edge), (w - edge, edge), (w - edge, b - edge), (edge, b - edge))
        holes = knockout_boxes(texts)
        shapes.append(Group(tuple(knockout_hatch(tab, look["outline"], holes, spacing=1.6, width=0.2))))
    shapes.extend(s for text in texts for s in text)
    shapes.append(Rect(0, 0, w, b, Style(stroke=look["outline"], fill=None, width=look["width"])))
    return shapes


def _wrap(text: str, width: float, pt: float, hyphenate: bool = False, font: str = "sans-bold") -> list[str]:
    """Return the words of a label in lines no wider than width (a longer single word is shrunk
    later, or with ``hyphenate`` broken with a hyphen where its first part fits)."""
    lines: list[str] = []
    for word in break_words(text):
        if lines and inline.line_width(lines[-1] + " " + word, font, pt) <= width:
            lines[-1] += " " + word
            continue
        while hyphenate and not inline.has_icons(word) and text_width(word, font, pt) > width:
            cut = _hyphen_at(word, width, pt, font)
            if cut is None:
                break
            lines.append(word[:cut] + "-")
            word = word[cut:]
        lines.append(word)
    return lines or [""]


VOWELS = set("AEIOUYaeiouyÀÂÄÉÈÊËÎÏÔÖÙÛÜàâäéèêëîïôöùûü")


def _hyphen_at(word: str, width: float, pt: float, font: str = "sans-bold") -> int | None:
    """Return where to break a word too wide for a line (its first part and a hyphen fitting):
    after a vowel that a consonant follows, nearest the middle, else the fitting break nearest
    the middle; None when no first part of two letters fits."""
    fitting = [i for i in range(2, len(word) - 1) if text_width(word[:i] + "-", font, pt) <= width]
    if not fitting:
        return None
    syllable = [i for i in fitting if word[i - 1] in VOWELS and word[i] not in VOWELS]
    return min(syllable or fitting, key=lambda i: (abs(2 * i - len(word)), -i))


SAFE_SPACING = 1.45  # line step over cap height of a tab label kept in the safe area
FOLD_CLEAR = 0.4  # mm a tab label keeps from the fold


def _safe_label(
    label: str, w: float, b: float, pt: float, safe: float, font: str = "sans-bold"
) -> tuple[float, list[str], float, float, float]:
    """Return the size (pt), lines, middle (mm from the fold), line spacing and line width of a tab
    label kept ``safe`` mm inside the strip's cut: off its sides and its outer edge (y = b), the
    fold side being no cut. Takes the largest size from pt down to 6 pt at which the label fits,
    whole words first, then with a long word hyphenated; a label that fits neither way loses its
    first words (the side's name, which the colours already tell) until it fits."""
    inset = 0.1 * MIN_TYPE * 25.4 / 72  # the side bearings of a line carry no ink
    room = w - 2 * safe + inset
    depth = b - safe - FOLD_CLEAR
    words = break_words(label)
    sizes = [pt - 0.25 * i for i in range(int((pt - MIN_TYPE) / 0.25) + 1)] + [MIN_TYPE]
    for first in range(len(words)):
        text = " ".join(words[first:])
        for size in sizes:
            cap = size * 25.4 / 72 * 0.72
            for hyphenate in (False, True):
                lines = _wrap(text, room, size, hyphenate, font)
                wide = any(inline.line_width(line, font, size) > room for line in lines)
                if not wide and (len(lines) - 1) * cap * SAFE_SPACING + cap <= depth:
                    return size, lines, FOLD_CLEAR + depth / 2, SAFE_SPACING, room
    # nothing fits at 6 pt: the last word, which the layout check reports
    return MIN_TYPE, words[-1:] or [""], FOLD_CLEAR + depth / 2, SAFE_SPACING, room


def standee(
    figure: StandeesSpecFigures, spec: ComponentSpec, ctx: Context, labelled: bool = True, number: str = ""
) -> Drawing:
    """Return one flat standee: tab and back (upside down), fold, front and tab; ``labelled`` False
    leaves the tabs blank (a small booklet figure, which names the figure underneath); ``number``
    is printed on both panels."""
    values = spec.typed(StandeesSpec)
    w, h, b = values.width, values.height, base_depth(spec, ctx)
    look = {**_colours(figure, ctx), "font": values.font, "definition": ctx.definition}
    _check_icons(spec, ctx, figure)

    def upside_down(shapes: list[Shape], y: float, height: float) -> Group:
        return Group(tuple(shapes), multiply(translate(0, y), rotate(180, w / 2, height / 2)))

    front_art, back_art = _pictures(figure, spec, ctx, w, h)
    shapes: list[Shape] = [
        upside_down(_tab(figure, look, w, b, labelled), 0.0, b),
        upside_down(_panel(figure, look, w, h, True, number, back_art), b, h),
        Group(tuple(_panel(figure, look, w, h, False, number, front_art)), translate(0, b + h)),
        Group(tuple(_tab(figure, look, w, b, labelled)), translate(0, b + 2 * h)),
    ]
    for y in (b, b + h, b + 2 * h):
        shapes.append(Line(0, y, w, y, FOLD))
    return Drawing(w, 2 * (b + h), tuple(shapes), figure.name)


def _check_icons(spec: ComponentSpec, ctx: Context, figure: StandeesSpecFigures) -> None:
    """Raise a one-line error naming the key of a figure's label or initial whose icons are wrong."""
    for key in ("label", "initial"):
        text = getattr(figure, key)
        if inline.has_icons(text):
            index = spec.typed(StandeesSpec).figures.index(figure)
            where = f"{ctx.definition.path}: components.{spec.id}.figures[{index}].{key}"
            inline.icons_of(ctx.definition).check(text, where)


def _pictures(
    figure: StandeesSpecFigures, spec: ComponentSpec, ctx: Context, w: float, h: float
) -> tuple[tuple[Shape, ...], tuple[Shape, ...]]:
    """Return the pictures of a figure's front and back panels (the back, without one of its own,
    the front's mirrored: the figure seen from behind), running into the bleed at the strip's sides."""
    values = spec.typed(StandeesSpec)
    if not figure.image and not figure.back_image:
        return (), ()
    bleed = ctx.options.bleed
    box = (-bleed, 0.0, w + 2 * bleed, h)
    folder = os.path.dirname(ctx.definition.path)
    index = values.figures.index(figure)
    where = f"{ctx.definition.path}: components.{spec.id}.figures[{index}]"
    front: tuple[Shape, ...] = ()
    if figure.image:
        front = tuple(picture_shapes(load_picture(folder, figure.image, where + ".image"), box, figure.fit))
    if figure.back_image:
        picture = load_picture(folder, figure.back_image, where + ".back_image")
        return front, tuple(picture_shapes(picture, box, figure.fit))
    return front, (Group(front, (-1.0, 0.0, 0.0, 1.0, w, 0.0)),)


def base_depth(spec: ComponentSpec, ctx: Context) -> float:
    """Return the depth of one base tab: half the board's square (both tabs folded out cover it,
    less a margin), or the definition's ``base`` when the figures stand on no board."""
    values = spec.typed(StandeesSpec)
    if not values.board:
        return values.base
    return min(values.height, (board_square(ctx, values.board) - FIT_MARGIN) / 2)


def footprint(spec: ComponentSpec) -> float:
    """Return the width in mm of a standee (what a square must hold)."""
    values = spec.typed(StandeesSpec)
    return values.width


def items(spec: ComponentSpec, ctx: Context) -> list[SheetItem]:
    """Return one sheet item per standee, in the order listed (a ``numbered`` figure's standees
    numbered 1 to its count)."""
    values = spec.typed(StandeesSpec)
    result: list[SheetItem] = []
    for figure in values.figures:
        if figure.numbered:
            result.extend(
                SheetItem(standee(figure, spec, ctx, number=str(k))) for k in range(1, figure.count + 1)
            )
        else:
            result.extend([SheetItem(standee(figure, spec, ctx))] * figure.count)
    return result


def drawing(spec: ComponentSpec, ctx: Context, overlay: dict[str, Any] | None = None) -> Drawing:
    """Return one standee of each figure in a row (rows for a small figure), named underneath."""
    values = spec.typed(StandeesSpec)
    arts = []
    floor = (overlay or {}).get("type_floor", 0.0)
    for figure in values.figures:
        art = standee(figure, spec, ctx, labelled=not floor)
        framed = (art.placed(0, 0), Rect(0, 0, art.width, art.height, Style(stroke="#9a9a9a", width=0.2)))
        arts.append(Drawing(art.width, art.height, framed, figure.name))
    if not arts:
        raise DefinitionError(f"{ctx.definition.path}: components.{spec.id}: no figures")
    gap = max(3.0, values.width * 0.25)
    shapes, width, height = figure_grid(arts, [a.label for a in arts], floor, gap)
    return Drawing(width, height, shapes, values.title or spec.id)


def contents(spec: ComponentSpec, ctx: Context) -> list[tuple[str, int]]:
    """Return (name, count) of every figure, for the print guide's checklist."""
    values = spec.typed(StandeesSpec)
    return [(figure.name, figure.count) for figure in values.figures]


def build(spec: ComponentSpec, ctx: Context) -> list[Output]:
    """Return the standee sheets (cut along the grey lines, fold along the dashed ones)."""
    values = spec.typed(StandeesSpec)
    label = f"{ctx.definition.title}: {values.title or spec.id}"
    parts = items(spec, ctx)
    return [
        Output(
            spec.id,
            tuple(
                nup(
                    parts,
                    ctx.paper,
                    label,
                    bleed=ctx.options.bleed,
                    lang=ctx.options.lang,
                    icons=inline.icons_of(ctx.definition),
                )
            ),
            items=tuple(parts),
        )
    ]
