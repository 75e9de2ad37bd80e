"""Drawings kept packed while a build holds many of them (a deck's thousand fronts while its sheets
are packed and written): pickled and compressed, their pictures' bytes stored once in a shared
table, unpacked each time their shapes are read. The shapes read back equal the shapes drawn, so
a page drawn from a stored drawing has the same bytes as one drawn from the drawing itself."""

from __future__ import annotations

import io
import pickle
import zlib
from typing import Any

from generator.model.page import Drawing, Shape

PICTURE_BYTES = 64  # a bytes value longer than this is a picture's file: stored once in the table


class PictureTable:
    """Packs shapes to compressed bytes and back; each picture's bytes are kept once here, however
    many packed drawings show it."""

    def __init__(self) -> None:
        self.pictures: list[bytes] = []
        self.numbers: dict[bytes, int] = {}
        self.last: tuple[bytes | None, tuple[Shape, ...]] = (None, ())

    def pack(self, shapes: tuple[Shape, ...]) -> bytes:
        """Return the shapes pickled and compressed, each picture by its number in the table."""
        buffer = io.BytesIO()
        _Pickler(buffer, self).dump(shapes)
        return zlib.compress(buffer.getvalue(), 1)

    def unpack(self, packed: bytes) -> tuple[Shape, ...]:
        """Return the shapes that ``pack`` packed. The shapes unpacked last are kept until others
        are asked for: the copies of a card come one after the other on its sheets."""
        last = self.last
        if last[0] is packed:
            return last[1]
        shapes: tuple[Shape, ...] = _Unpickler(io.BytesIO(zlib.decompress(packed)), self).load()
        self.last = (packed, shapes)
        return shapes


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, table: PictureTable) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.table = table

    def persistent_id(self, obj: Any) -> int | None:
        if type(obj) is bytes and len(obj) > PICTURE_BYTES:
            number = self.table.numbers.get(obj)
            if number is None:
                number = self.table.numbers[obj] = len(self.table.pictures)
                self.table.pictures.append(obj)
            return number
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, table: PictureTable) -> None:
        super().__init__(file)
        self.table = table

    def persistent_load(self, pid: Any) -> bytes:
        return self.table.pictures[pid]


class StoredDrawing(Drawing):
    """A drawing kept packed in a PictureTable: its size and label as drawn, its shapes unpacked
    anew each time they are read (nothing of them is held between two reads)."""

    __slots__ = ("_packed", "_table")
    _packed: bytes
    _table: PictureTable

    def __init__(self, drawing: Drawing, table: PictureTable) -> None:
        object.__setattr__(self, "width", drawing.width)
        object.__setattr__(self, "height", drawing.height)
        object.__setattr__(self, "label", drawing.label)
        object.__setattr__(self, "_table", table)
        object.__setattr__(self, "_packed", table.pack(drawing.shapes))

    @property
    def shapes(self) -> tuple[Shape, ...]:
        """Return the drawing's shapes, unpacked from the table."""
        return self._table.unpack(self._packed)
