"""The page-model traversal and its renderer protocol: a writer built on ``PathRenderer`` (paths,
text, groups only) sees every shape of real kits, and the outlines it gets cover what ``bounds``
says of each shape."""

from __future__ import annotations

import math

import pytest

from generator.components.kinds import context
from generator.definitions.loader import find_definition
from generator.kits.kit import component_outputs
from generator.model.page import (
    IDENTITY,
    Circle,
    Group,
    Line,
    Matrix,
    Page,
    Path,
    Polygon,
    Rect,
    Text,
    apply,
    bounds,
    iter_shapes,
    multiply,
)
from generator.printing.imposition import find_paper
from generator.render.base import PathRenderer, draw, shape_commands


class Outlines(PathRenderer):
    """A small writer: records each shape's outline points on the page, and each text's anchor."""

    def __init__(self) -> None:
        self.stack: list[Matrix] = [IDENTITY]
        self.drawn: list[list[tuple[float, float]]] = []

    def path(self, shape: Path) -> None:
        m = self.stack[-1]
        points = [(c[i], c[i + 1]) for c in shape.commands for i in range(1, len(c), 2)]
        self.drawn.append([apply(m, x, y) for x, y in points])

    def text(self, shape: Text) -> None:
        self.drawn.append([apply(self.stack[-1], shape.x, shape.y)])

    def begin_group(self, transform: Matrix, clip: tuple[float, float, float, float] | None) -> None:
        self.stack.append(multiply(self.stack[-1], transform))

    def end_group(self) -> None:
        self.stack.pop()


def _pages(game: str) -> list[Page]:
    definition = find_definition(game)
    seed = definition.game["default_seed"] if definition.game["seeded"] else None
    ctx = context(definition, find_paper("a4", definition.paper["margin"]), seed)
    return [page for _, output in component_outputs(definition, ctx) for page in output.pages]


@pytest.mark.parametrize("game", ["aggression", "barricades", "centennial"])
def test_a_path_writer_sees_every_shape_where_bounds_puts_it(game: str) -> None:
    for page in _pages(game):
        writer = Outlines()
        draw(page.shapes, writer)
        leaves = list(iter_shapes(page.shapes))
        assert len(writer.drawn) == len(leaves)
        for (shape, m), points in zip(leaves, writer.drawn, strict=True):
            if isinstance(shape, Text) or not points:
                continue
            x0, y0, x1, y1 = bounds([shape], m)  # type: ignore[misc]
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            slack = 1e-6 + 1e-9 * max(map(abs, xs + ys))
            assert x0 - slack <= min(xs) and max(xs) <= x1 + slack, shape
            assert y0 - slack <= min(ys) and max(ys) <= y1 + slack, shape


def test_outlines_pass_through_the_shapes_own_points() -> None:
    circle = shape_commands(Circle(10, 20, 5))
    ends = {(round(c[-2], 9), round(c[-1], 9)) for c in circle if c[0] in ("M", "L", "C")}
    assert {(15.0, 20.0), (10.0, 25.0), (5.0, 20.0), (10.0, 15.0)} <= ends
    square = shape_commands(Rect(0, 0, 4, 3))
    assert [c[1:] for c in square if c[0] in ("M", "L")] == [(0, 0), (4, 0), (4, 3), (0, 3)]
    assert shape_commands(Line(1, 2, 3, 4)) == (("M", 1, 2), ("L", 3, 4))
    assert shape_commands(Polygon(((0, 0), (1, 1)), closed=False)) == (("M", 0, 0), ("L", 1, 1))
    rounded = shape_commands(Rect(0, 0, 10, 10, r=2))
    (_, x0, y0), (op, *curve) = rounded[1], rounded[2]
    assert op == "C" and (curve[-2], curve[-1]) == (10, 2)
    # the middle of the corner's curve lies on the circle of radius 2 about (8, 2), at 45 degrees
    mid_x = 0.125 * x0 + 0.375 * curve[0] + 0.375 * curve[2] + 0.125 * curve[4]
    mid_y = 0.125 * y0 + 0.375 * curve[1] + 0.375 * curve[3] + 0.125 * curve[5]
    assert mid_x == pytest.approx(8 + math.sqrt(2), abs=1e-3)
    assert mid_y == pytest.approx(2 - math.sqrt(2), abs=1e-3)


def test_an_unknown_shape_is_refused() -> None:
    class Blob:
        pass

    with pytest.raises(TypeError, match="cannot draw Blob"):
        draw([Group((Blob(),))], Outlines())  # type: ignore[arg-type]
