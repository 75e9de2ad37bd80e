"""Pictures on any face: PNG and JPEG files, and SVG drawings read as vector shapes, named relative
to the definition, checked once (size, pixels, a whole file, inside the definition's folder) and
placed into a box with ``fit`` = contain | cover | stretch, clipped to the piece's outline.

Every kind draws its pictures through ``picture_shapes`` and checks the keys naming them through
``check_picture``; cards name their rows in errors themselves (``picture_problem``). A raster
picture is an ``Image`` of the page model (the writers store each file once per document); an SVG
is read by ``generator.model.svg_art`` into paths, never embedded.
"""

from __future__ import annotations

import os
import struct
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from generator.definitions.schema import Field
from generator.foundation.errors import DefinitionError
from generator.foundation.files import OutsideError, path_problem, read_inside
from generator.model.page import (
    Circle,
    Command,
    Group,
    Image,
    Polygon,
    Rect,
    Shape,
    multiply,
    scale,
    shape_commands,
    translate,
)
from generator.model.svg_art import SvgArt, SvgError, looks_like_svg, read_svg

MAX_IMAGE_BYTES = 4_000_000  # one picture file
MAX_PIXELS = 40_000_000  # pixels of one picture (a 12000 x 12000 PNG of a few KB would unpack to GB)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
FITS = ("contain", "cover", "stretch")

Box = tuple[float, float, float, float]  # x, y, w, h in mm


def image_field(what: str) -> Field:
    """Return the schema field of a picture key (``what`` says where the picture goes)."""
    return Field(
        "str",
        default="",
        doc=f"{what}: a PNG, JPEG or SVG file in the definition's folder or below it (none: no picture)",
    )


def fit_field(default: str = "cover") -> Field:
    """Return the schema field of how a picture fills its box."""
    return Field(
        "str",
        default=default,
        choices=FITS,
        doc="the picture: whole and centred, filling the box (cut to it), or stretched to it",
    )


@dataclass(frozen=True, slots=True)
class Raster:
    """A PNG or JPEG file's bytes and its size in pixels."""

    data: bytes = field(repr=False)
    width: int
    height: int


Picture = Raster | SvgArt


def image_size(data: bytes) -> tuple[int, int] | None:
    """Return (width, height) in pixels of PNG or JPEG file data, or None when it is neither."""
    if data.startswith(PNG_SIGNATURE) and len(data) >= 24 and data[12:16] == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return (w, h) if w and h else None
    if not data.startswith(b"\xff\xd8"):
        return None
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            h, w = struct.unpack(">HH", data[i + 5 : i + 9])
            return (w, h) if w and h else None
        i += 2 + length
    return None


def _png_problem(data: bytes, width: int, height: int) -> str | None:
    """Return what is wrong with a PNG's chunks and compressed data ("truncated", ...), or None."""
    i, idat = len(PNG_SIGNATURE), []
    ended = False
    while i + 8 <= len(data):
        length, tag = struct.unpack(">I4s", data[i : i + 8])
        if i + 12 + length > len(data):
            return "truncated (a PNG whose data stops before its end)"
        if tag == b"IDAT":
            idat.append(data[i + 8 : i + 8 + length])
        if tag == b"IEND":
            ended = True
            break
        i += 12 + length
    if not ended:
        return "truncated (a PNG whose data stops before its end)"
    if not idat:
        return "not a whole PNG (it holds no picture data)"
    depth, colour_type = data[24], data[25]
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(colour_type)
    if channels is None or depth not in (1, 2, 4, 8, 16):
        return "not a PNG that can be printed (an unknown colour type or depth)"
    interlaced = len(data) > 28 and data[28] == 1
    expected = height * (1 + (width * channels * depth + 7) // 8)
    unpack = zlib.decompressobj()
    try:
        got = 0
        for part in idat:
            got += len(unpack.decompress(part, max(0, expected + 1 - got)))
            if got > expected:
                break
    except zlib.error:
        return "damaged (its picture data does not unpack)"
    if not interlaced and got < expected:
        return "truncated (its picture data stops before the last row)"
    return None


def _jpeg_problem(data: bytes) -> str | None:
    """Return what is wrong with a JPEG's structure ("truncated", ...), or None."""
    scan = data.find(b"\xff\xda")
    if scan < 0 or scan + 4 > len(data):
        return "truncated (a JPEG with no picture data after its header)"
    if data.rfind(b"\xff\xd9") < scan:
        return "truncated (a JPEG whose data stops before its end)"
    return None


def read_picture(path: str, folder: str) -> Picture | str:
    """Return a picture file read (a raster's bytes and size, or an SVG's shapes), or what is wrong
    with it in the user's words: read once while the file stays the same (its size and time of
    change), so a rebuild after the file is saved reads it again."""
    try:
        info = os.stat(path)
        stamp: tuple[int, int] | None = (info.st_mtime_ns, info.st_size)
    except OSError:
        stamp = None
    return _read_picture(path, folder, stamp)


@lru_cache(maxsize=256)
def _read_picture(path: str, folder: str, stamp: tuple[int, int] | None) -> Picture | str:
    """Return a picture file read, or what is wrong with it (only a regular file whose real path
    lies inside ``folder``); ``stamp`` keys the cache."""
    try:
        data = read_inside(path, [folder], MAX_IMAGE_BYTES)
    except OutsideError:
        return "leads outside the definition's folder (a link); not read"
    except FileNotFoundError:
        return "no such file"
    except IsADirectoryError:
        return "a folder, not a picture"
    except OSError as exc:
        if exc.errno == 0:
            return "not a regular file"
        return f"cannot be read: {exc.strerror or exc}"
    if len(data) > MAX_IMAGE_BYTES:
        return f"over {MAX_IMAGE_BYTES // 1_000_000} MB (at most {MAX_IMAGE_BYTES} bytes)"
    size = image_size(data)
    if size is None:
        if data.startswith((PNG_SIGNATURE, b"\xff\xd8")):
            return "truncated (its header stops before the picture's size)"
        if looks_like_svg(data):
            try:
                return read_svg(data)
            except SvgError as exc:
                return str(exc)
        return "not a PNG or JPEG image, nor an SVG drawing"
    if size[0] * size[1] > MAX_PIXELS:
        return f"over {MAX_PIXELS // 1_000_000} megapixels ({size[0]} x {size[1]})"
    problem = _png_problem(data, *size) if data.startswith(PNG_SIGNATURE) else _jpeg_problem(data)
    if problem:
        return problem
    return Raster(data, *size)


def picture_path(folder: str, name: str) -> str | None:
    """Return the path of a picture named relative to the definition's folder, or None when the
    name leaves that folder or holds a control character."""
    name = name.strip()
    if not name or os.path.isabs(name) or ".." in name.replace("\\", "/").split("/") or path_problem(name):
        return None
    return os.path.join(folder, name)


def picture_problem(folder: str, name: str) -> str | None:
    """Return what is wrong with the picture ``name`` (beside the definition in ``folder``),
    starting with the file's path, or None when it reads."""
    path = picture_path(folder, name)
    if path is None:
        return f"{name!r}: a picture in the definition's folder or below it"
    found = read_picture(path, folder or ".")
    return f"{os.path.normpath(path)}: {found}" if isinstance(found, str) else None


def load_picture(folder: str, name: str, where: str) -> Picture:
    """Return the picture ``name`` read, or raise a one-line DefinitionError starting ``where``
    (the file and key naming it)."""
    problem = picture_problem(folder, name)
    if problem:
        raise DefinitionError(f"{where}: {problem}")
    path = picture_path(folder, name)
    assert path is not None
    found = read_picture(path, folder or ".")
    assert not isinstance(found, str)
    return found


def check_picture(folder: str, name: str, where) -> None:
    """Raise the definition's error at ``where`` (a schema ``Where``) when the picture ``name`` does
    not read; an empty name is no picture."""
    if name.strip():
        problem = picture_problem(folder, name)
        if problem:
            raise where.error(problem)


def grown(box: Box, size: tuple[float, float], bleed: float) -> Box:
    """Return a box grown by ``bleed`` past every edge of a ``size`` (w, h) drawing it reaches: a
    picture running to a part's cut is fitted to the cut plus its bleed."""
    if bleed <= 0:
        return box
    x, y, w, h = box
    eps = 0.01
    x0 = x - bleed if x <= eps else x
    y0 = y - bleed if y <= eps else y
    x1 = x + w + bleed if x + w >= size[0] - eps else x + w
    y1 = y + h + bleed if y + h >= size[1] - eps else y + h
    return (x0, y0, x1 - x0, y1 - y0)


def picture_shapes(
    picture: Picture,
    box: Box,
    fit: str,
    outline: tuple[Command, ...] | None = None,
) -> list[Shape]:
    """Return a picture placed into ``box`` (x, y, w, h in mm) by ``fit`` (contain: whole and
    centred; cover: filling the box, cut to it; stretch), clipped to ``outline`` (path commands:
    the piece's shape) when given."""
    x, y, w, h = box
    if w <= 0 or h <= 0:
        return []
    if isinstance(picture, Raster):
        pw, ph = float(picture.width), float(picture.height)
        vx = vy = 0.0
    else:
        vx, vy, pw, ph = picture.view_box
    if fit == "stretch":
        kx, ky = w / pw, h / ph
        ox, oy = x, y
    else:
        kx = ky = (min if fit == "contain" else max)(w / pw, h / ph)
        ox, oy = x + (w - pw * kx) / 2, y + (h - ph * ky) / 2
    placed: Shape
    if isinstance(picture, Raster):
        placed = Image(ox, oy, pw * kx, ph * ky, picture.data)
    else:
        m = multiply(translate(ox, oy), multiply(scale(kx, ky), translate(-vx, -vy)))
        placed = Group(picture.shapes, m, picture=True)
    clip = box if fit == "cover" or not isinstance(picture, Raster) else None
    if clip is None and outline is None:
        return [placed]
    return [Group((placed,), clip=clip, outline=outline)]


def outline_of(shape: Shape) -> tuple[Command, ...] | None:
    """Return a rectangle's, circle's or polygon's outline as closed path commands (the clip of a
    picture on a piece of that shape), or None for any other shape."""
    if isinstance(shape, Circle | Rect) or (isinstance(shape, Polygon) and shape.points):
        commands = shape_commands(shape)
        return commands if commands[-1] == ("Z",) else (*commands, ("Z",))
    return None


BOARD_SCHEMA: dict[str, Field] = {
    "background_image": image_field("a picture behind the whole board's squares or hexes, cut to them"),
    "background_fit": fit_field(),
}
MARK_PREFIX = "image:"  # a cell's mark string naming a picture file: "image:art/forest.png"


def check_board_pictures(values: dict[str, Any], where) -> None:
    """Check every picture a board names: its background, its marks' and its cells' ``image:``
    marks (cells from the rules module are checked when drawn)."""
    folder = os.path.dirname(where.file)
    check_picture(folder, values.get("background_image") or "", where.child("background_image"))
    for name, look in (values.get("marks") or {}).items():
        check_picture(folder, look.get("image") or "", where.child("marks").child(name).child("image"))
    for name, marks in (values.get("cells") or {}).items():
        for i, mark in enumerate(marks or []):
            if isinstance(mark, str) and mark.startswith(MARK_PREFIX):
                check_picture(folder, mark[len(MARK_PREFIX) :], where.child("cells").child(name).child(i))


def face_picture(
    path: str,
    name: str,
    key: str,
    box: Box,
    fit: str,
    outline: tuple[Command, ...] | None = None,
) -> list[Shape]:
    """Return the picture ``name`` (relative to the definition at ``path``) placed in ``box`` by
    ``fit`` and cut to ``outline``; an error names the definition and ``key``."""
    picture = load_picture(os.path.dirname(path), name, f"{path}: {key}")
    return picture_shapes(picture, box, fit, outline)
