"""The cut file of a printed sheet (``pnp build --export cut``): an SVG at the page's true size
(width and height in mm, the viewBox in mm, so one unit is one millimetre) holding the outline of
every part of the sheet as one closed path, where the part is printed, and the sheet's
registration marks, for a cutting machine's software (Silhouette Studio, Cricut Design Space).

Two groups: ``cut`` (every part's outline, a red hairline with no fill: one ``<path>`` a part, in
the order of the sheet's parts, even where two parts share an edge) and ``registration`` (the
marks, filled black, to line the file up with the printed sheet; they are not cut). Coordinates
are written to 0.001 mm. The same sheet gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence

import svgwrite
import svgwrite.base
import svgwrite.container
import svgwrite.path

from generator.render.svg import markup

Point = tuple[float, float]
CUT_STROKE = "#ff0000"
CUT_WIDTH = 0.1  # mm, a hairline: what the machine follows is the path, not its width


def _n(value: float) -> str:
    text = f"{round(value, 3):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def path_data(points: Sequence[Point]) -> str:
    """Return the path data of a closed polygon: a move to its first point, lines to the others
    and a close ("M x,y L x,y ... Z"), in absolute millimetres."""
    first, *rest = points
    return " ".join([f"M{_n(first[0])},{_n(first[1])}"] + [f"L{_n(x)},{_n(y)}" for x, y in rest] + ["Z"])


def cut_document(
    width: float,
    height: float,
    outlines: Sequence[Sequence[Point]],
    marks: Sequence[Sequence[Point]],
    title: str = "",
) -> str:
    """Return the text of the cut file of a page of width x height mm: every outline as a closed
    path of group ``cut`` (ids ``cut-1``, ``cut-2``, ...), every mark as a filled closed path of
    group ``registration``."""
    document = svgwrite.Drawing(debug=False)
    w, h = _n(width), _n(height)
    document.attribs = {"width": f"{w}mm", "height": f"{h}mm", "viewBox": f"0 0 {w} {h}"}
    document.elements = []
    if title:
        document.add(svgwrite.base.Title(title))
    cut = svgwrite.container.Group(
        id="cut", fill="none", stroke=CUT_STROKE, stroke_width=_n(CUT_WIDTH), debug=False
    )
    for number, outline in enumerate(outlines, 1):
        cut.add(svgwrite.path.Path(d=path_data(outline), id=f"cut-{number}", debug=False))
    document.add(cut)
    registration = svgwrite.container.Group(id="registration", fill="#000000", stroke="none", debug=False)
    for number, mark in enumerate(marks, 1):
        registration.add(svgwrite.path.Path(d=path_data(mark), id=f"mark-{number}", debug=False))
    document.add(registration)
    return markup(document)
