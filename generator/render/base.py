"""The one traversal of the page model, and the small protocol a writer implements to be walked.

``draw(shapes, renderer)`` visits shapes in drawing order: each leaf shape goes to the renderer's
method of its kind, and a group becomes ``begin_group(transform, clip)``, its children, then
``end_group()``. The PDF and SVG writers implement every method to keep their own idioms (a
reportlab circle, an SVG ``<rect>``); a new writer can subclass ``PathRenderer`` and implement only
``path``, ``text``, ``begin_group`` and ``end_group``: it gives every other shape as path commands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, Protocol

from generator.model.page import (
    Circle,
    Group,
    Image,
    Line,
    Matrix,
    Path,
    Polygon,
    Rect,
    Shape,
    Text,
    shape_commands,
)

Commands = tuple[tuple[Any, ...], ...]


class Renderer(Protocol):
    """What a writer implements to be walked over a page's shapes."""

    def line(self, shape: Line) -> None:
        """Draw a straight segment."""

    def rect(self, shape: Rect) -> None:
        """Draw a rectangle (rounded when ``shape.r``)."""

    def circle(self, shape: Circle) -> None:
        """Draw a circle."""

    def polygon(self, shape: Polygon) -> None:
        """Draw a polygon (a polyline when not ``shape.closed``)."""

    def path(self, shape: Path) -> None:
        """Draw a path of M, L, C and Z commands."""

    def text(self, shape: Text) -> None:
        """Draw one line of text at its anchor."""

    def image(self, shape: Image) -> None:
        """Draw a picture over its box."""

    def begin_group(
        self,
        transform: Matrix,
        clip: tuple[float, float, float, float] | None,
        outline: Commands | None = None,
    ) -> None:
        """Start drawing under a transform (a b c d e f), an optional clip rectangle and an
        optional clip outline (path commands in the group's units)."""

    def end_group(self) -> None:
        """Go back to the state before the matching ``begin_group``."""


def draw(shapes: Iterable[Shape], renderer: Renderer) -> None:
    """Walk shapes in drawing order into the renderer (groups become begin/end pairs)."""
    table: dict[type, Callable[[Any], None]] = {
        Line: renderer.line,
        Rect: renderer.rect,
        Circle: renderer.circle,
        Polygon: renderer.polygon,
        Path: renderer.path,
        Text: renderer.text,
        Image: renderer.image,
    }
    _walk(shapes, table, renderer)


def _walk(shapes: Iterable[Shape], table: dict[type, Callable[[Any], None]], renderer: Renderer) -> None:
    for shape in shapes:
        kind = type(shape)
        if kind is Group:
            if shape.outline is None:  # type: ignore[union-attr]
                renderer.begin_group(shape.transform, shape.clip)  # type: ignore[union-attr]
            else:  # a clip outline: only renderers that draw pictures clipped to a piece get one
                renderer.begin_group(shape.transform, shape.clip, shape.outline)  # type: ignore[union-attr]
            _walk(shape.children, table, renderer)  # type: ignore[union-attr]
            renderer.end_group()
        else:
            method = table.get(kind)
            if method is None:
                raise TypeError(f"cannot draw {kind.__name__}")
            method(shape)


class PathRenderer:
    """A renderer base that gives lines, rectangles, circles and polygons to ``path``: a writer
    built on it implements ``path``, ``text``, ``begin_group`` and ``end_group``."""

    def line(self, shape: Line) -> None:
        """Draw a segment as a path (stroke only)."""
        self.path(Path(shape_commands(shape), replace(shape.style, fill=None)))

    def rect(self, shape: Rect) -> None:
        """Draw a rectangle as a path."""
        self.path(Path(shape_commands(shape), shape.style))

    def circle(self, shape: Circle) -> None:
        """Draw a circle as a path."""
        self.path(Path(shape_commands(shape), shape.style))

    def polygon(self, shape: Polygon) -> None:
        """Draw a polygon as a path (an open polyline is never filled)."""
        style = shape.style
        if not shape.closed and style.fill is not None:
            style = replace(style, fill=None)
        self.path(Path(shape_commands(shape), style))

    def path(self, shape: Path) -> None:
        """Draw a path; a writer implements this."""
        raise NotImplementedError

    def text(self, shape: Text) -> None:
        """Draw a text; a writer implements this."""
        raise NotImplementedError

    def image(self, shape: Image) -> None:
        """Draw a picture; a writer implements this."""
        raise NotImplementedError

    def begin_group(
        self,
        transform: Matrix,
        clip: tuple[float, float, float, float] | None,
        outline: Commands | None = None,
    ) -> None:
        """Start a group; a writer implements this."""
        raise NotImplementedError

    def end_group(self) -> None:
        """End a group; a writer implements this."""
        raise NotImplementedError
