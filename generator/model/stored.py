"""Drawings kept packed while a build holds many of them (a deck's thousand fronts while its sheets
are packed and written): pickled and compressed, their pictures' bytes stored once in a shared
table, unpacked each time their shapes are read. The shapes read back equal the shapes drawn, so
a page drawn from a stored drawing has the same bytes as one drawn from the drawing itself."""

from __future__ import annotations

import copyreg
import dataclasses
import functools
import io
import itertools
import operator
import pickle
import weakref
import zlib
from typing import Any

from generator.model.page import Circle, Drawing, Group, Image, Line, Path, Polygon, Rect, Shape, Style, Text

_TABLES: weakref.WeakValueDictionary[int, PictureTable] = weakref.WeakValueDictionary()
_KEYS = itertools.count()


def _reduce(cls: type, fields: Any, obj: Any) -> tuple[Any, ...]:
    # a shape as its class and its fields' values, rebuilt by its constructor (faster than the
    # dataclass's own pickling, which lists the fields again for every object)
    return (cls, fields(obj))


def _picture(key: int, number: int, x: float, y: float, w: float, h: float) -> Image:
    return Image(x, y, w, h, _TABLES[key].pictures[number])


class PictureTable:
    """Packs shapes to compressed bytes and back; each picture's bytes are kept once here, however
    many packed drawings show it."""

    def __init__(self) -> None:
        self.pictures: list[bytes] = []
        self.numbers: dict[bytes, int] = {}
        self.last: tuple[bytes | None, tuple[Shape, ...]] = (None, ())
        self.key = next(_KEYS)
        _TABLES[self.key] = self
        reducers = copyreg.dispatch_table.copy()
        for cls in (Style, Rect, Line, Polygon, Circle, Path, Text, Group):
            fields = operator.attrgetter(*(f.name for f in dataclasses.fields(cls)))
            reducers[cls] = functools.partial(_reduce, cls, fields)
        reducers[Image] = self._reduce_image
        self.reducers = reducers

    def _reduce_image(self, image: Image) -> tuple[Any, ...]:
        number = self.numbers.get(image.data)
        if number is None:
            number = self.numbers[image.data] = len(self.pictures)
            self.pictures.append(image.data)
        return (_picture, (self.key, number, image.x, image.y, image.w, image.h))

    def pack(self, shapes: tuple[Shape, ...]) -> bytes:
        """Return the shapes pickled and compressed, each picture by its number in the table."""
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = self.reducers
        pickler.dump(shapes)
        return zlib.compress(buffer.getvalue(), 1)

    def unpack(self, packed: bytes) -> tuple[Shape, ...]:
        """Return the shapes that ``pack`` packed. The shapes unpacked last are kept until others
        are asked for: the copies of a card come one after the other on its sheets."""
        last = self.last
        if last[0] is packed:
            return last[1]
        shapes: tuple[Shape, ...] = pickle.loads(zlib.decompress(packed))
        self.last = (packed, shapes)
        return shapes


def count_shapes(shapes: tuple[Shape, ...]) -> int:
    """Return how many shapes the shapes draw: each one, and a group's children each time."""
    total = len(shapes)
    for shape in shapes:
        if isinstance(shape, Group):
            total += count_shapes(shape.children)
    return total


class StoredDrawing(Drawing):
    """A drawing kept packed in a PictureTable: its size and label as drawn, its shapes unpacked
    anew each time they are read (nothing of them is held between two reads); ``count``, the
    shapes it draws (``count_shapes``), counted once when it was packed."""

    __slots__ = ("_packed", "_table", "count")
    _packed: bytes
    _table: PictureTable
    count: int

    def __init__(self, drawing: Drawing, table: PictureTable) -> None:
        object.__setattr__(self, "width", drawing.width)
        object.__setattr__(self, "height", drawing.height)
        object.__setattr__(self, "label", drawing.label)
        object.__setattr__(self, "_table", table)
        shapes = drawing.shapes
        object.__setattr__(self, "_packed", table.pack(shapes))
        object.__setattr__(self, "count", count_shapes(shapes))

    @property
    def shapes(self) -> tuple[Shape, ...]:
        """Return the drawing's shapes, unpacked from the table."""
        return self._table.unpack(self._packed)
