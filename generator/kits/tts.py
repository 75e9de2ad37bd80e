"""``--export tts``: the kit as a Tabletop Simulator saved object, ``tts/<game>.json``, with its
images beside it in ``tts/``.

Read from the same outputs the print job uses (the components' pages model, never the PDF): every
``cards`` component becomes a custom deck whose faces are laid out on sheets of at most
``MAX_COLUMNS`` x ``MAX_ROWS`` faces (Tabletop Simulator's deck-sheet grid), at most ``MAX_SIDE``
pixels a side, rendered by the PNG writer (``render.png``). Every deck has its back: one image
when every card of a sheet shares it, else a sheet of backs on the same grid (``UniqueBack``).
``BackIsHidden`` is set, so the back is what other players see of a card in a hand and the last
slot of a sheet holds a face like any other (without it, the knowledge base's convention keeps
that slot for the hidden card). Each copy is one ``Card`` whose ``CardID`` is its sheet's id x 100
plus its index on the sheet, named (``Nickname``) after the card. Boards are ``Custom_Board``
objects of their artwork (the seeded board in a seeded kit's folder), pieces with faces
(counters) are ``Custom_Tile`` objects with their backs, standees ``Figurine_Custom`` objects of
their two panels (RGBA, transparent where a panel paints nothing), each die of a dice net a
``Custom_Dice`` d6 of its six faces (``DIE_CELLS``), and the rule booklet a ``Custom_PDF`` of its
pages in reading order. Objects are laid out in rows on the table (``Exporter.place``), each
different counter a stack of its own.

Images are named by relative file names, or a hosting address prefixed (``--tts-url``). The
object's GUIDs are derived from the objects' names, so the same kit gives the same bytes.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import math
import os
import struct
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from generator.components.base import Output
from generator.foundation.files import atomic_write
from generator.model.page import Drawing, Group, Page, Rect, Shape, Style, multiply, rotate, scale, translate
from generator.printing.imposition import SheetItem

FOLDER = "tts"  # the kit's subfolder of the export
MAX_COLUMNS = 10  # faces across a deck sheet (Tabletop Simulator reads at most 10 x 7)
MAX_ROWS = 7
MAX_SIDE = 4096  # pixels: the largest side of an image Tabletop Simulator loads reliably
DPI = 200  # the resolution a face is drawn at when the sheet has room (less on full sheets)
POKER_WIDTH = 63.5  # mm: the card a Tabletop Simulator card of scale 1 stands for
TILE_SCALE = 25.4  # mm per unit of a custom tile's scale (about an inch)
SPACING = 2.0  # table units (about inches) between objects laid out side by side
ROW = 60.0  # table units: a row of objects is at most this wide before the next row starts
# a custom die's image: faces on a 3 x 3 grid, by face number (1 to 6) its (column, row), faces
# 1 and 6 turned upside down (the layout of the d6 template, as templative's export fills it)
DIE_CELLS = {1: (0, 2), 2: (0, 1), 3: (1, 2), 4: (1, 1), 5: (2, 1), 6: (2, 2)}
DIE_TURNED = (1, 6)
DIE_INSET = 0.3  # mm: a face is cut this far inside its net's fold and cut lines
# the rotation that shows each face of a custom d6 on top (Custom_Dice RotationValues)
DIE_ROTATIONS = {
    1: (-90.0, 0.0, 0.0),
    2: (0.0, 0.0, 0.0),
    3: (0.0, 0.0, -90.0),
    4: (0.0, 0.0, 90.0),
    5: (0.0, 0.0, -180.0),
    6: (90.0, 0.0, 0.0),
}
# a custom tile's Type for a counter's shape (Tabletop Simulator: 0 box, 1 hex, 2 circle, 3 rounded)
TILE_TYPES = {"square": 0, "hex": 1, "hexagon": 1, "circle": 2, "rounded": 3}

Written = tuple[str, bytes]  # a file's name inside tts/ and its bytes


@dataclass(frozen=True)
class Part:
    """One component of the kit as the export reads it: its kind, title and output, the shape of
    each counter by its name (counters), and a standee's panel height and tab depth in mm (the
    flat standee is tab, back upside down, front, tab, top to bottom)."""

    kind: str
    title: str
    output: Output
    shapes: Mapping[str, str] = field(default_factory=dict)
    panel: tuple[float, float] | None = None
    # dice nets: the edge of a die in mm and each die's six faces by its name
    die: float | None = None
    faces: Mapping[str, Sequence[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Grid:
    """A deck sheet's layout: faces across and down, each face's size in pixels, the dpi."""

    columns: int
    rows: int
    face_w: int
    face_h: int
    dpi: int

    @property
    def slots(self) -> int:
        """Return how many faces the sheet holds."""
        return self.columns * self.rows


def sheet_grid(count: int, width_mm: float, height_mm: float) -> Grid:
    """Return the grid of a deck sheet holding ``count`` faces of width x height mm: as few rows
    as hold them at most ``MAX_COLUMNS`` across (at most ``MAX_ROWS``), at least 2 x 2 (the
    smallest sheet Tabletop Simulator's deck importer offers), faces at ``DPI`` or less so the
    sheet stays within ``MAX_SIDE`` pixels a side."""
    rows = max(2, min(MAX_ROWS, math.ceil(count / MAX_COLUMNS)))
    columns = max(2, min(MAX_COLUMNS, math.ceil(count / rows)))
    dpi = DPI
    while True:
        face_w, face_h = round(width_mm * dpi / 25.4), round(height_mm * dpi / 25.4)
        if face_w * columns <= MAX_SIDE and face_h * rows <= MAX_SIDE:
            return Grid(columns, rows, face_w, face_h, dpi)
        dpi -= 1


def guid(name: str) -> str:
    """Return a six-hex-digit GUID derived from an object's name (the same name, the same GUID)."""
    return hashlib.sha256(name.encode("utf-8")).hexdigest()[:6]


def blank_back(width: float, height: float) -> Drawing:
    """Return a plain white back for a card that prints none (Tabletop Simulator needs one)."""
    return Drawing(width, height, (Rect(0, 0, width, height, Style(stroke=None, fill="#ffffff")),), "back")


def render_sheet(faces: Sequence[Drawing], grid: Grid) -> bytes:
    """Return a PNG (8-bit RGB) of the faces laid out on the grid left to right, top to bottom,
    each drawn on its own at the cell's size in pixels (so no face's edge blurs into the next),
    empty cells white."""
    rows = [bytearray(b"\xff" * (3 * grid.face_w * grid.columns)) for _ in range(grid.face_h * grid.rows)]
    drawn: dict[int, list[bytes]] = {}  # a card's copies (and a shared back) are one drawing, drawn once
    for n, face in enumerate(faces):
        if id(face) not in drawn:
            # the face stretched to whole pixels: a cell is the face rounded to the grid
            width_mm, height_mm = grid.face_w * 25.4 / grid.dpi, grid.face_h * 25.4 / grid.dpi
            fitted = Group(face.shapes, scale(width_mm / face.width, height_mm / face.height))
            drawn[id(face)] = page_pixels(Page(width_mm, height_mm, (fitted,), label=face.label), grid.dpi)
        pixels = drawn[id(face)]
        x, y = (n % grid.columns) * grid.face_w * 3, (n // grid.columns) * grid.face_h
        for row in range(grid.face_h):
            rows[y + row][x : x + 3 * grid.face_w] = pixels[row]
    from generator.render.png import encode_png

    scanlines = b"".join(b"\x00" + bytes(row) for row in rows)
    return encode_png(grid.face_w * grid.columns, grid.face_h * grid.rows, scanlines, grid.dpi)


def page_pixels(page: Page, dpi: int) -> list[bytes]:
    """Return the RGB rows of a page drawn by the PNG writer at dpi (its scanlines, unfiltered)."""
    from generator.render.png import write_png

    buffer = io.BytesIO()
    width, height = write_png(page, buffer, dpi)
    data = buffer.getvalue()
    idat, at = b"", 8
    while at < len(data):  # the writer's chunks: IHDR, pHYs, IDAT, IEND
        (length,) = struct.unpack(">I", data[at : at + 4])
        if data[at + 4 : at + 8] == b"IDAT":
            idat += data[at + 8 : at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(idat)
    stride = 1 + 3 * width  # every scanline starts with filter 0 (none)
    return [raw[r * stride + 1 : (r + 1) * stride] for r in range(height)]


def render_face(face: Drawing, max_dpi: int = DPI) -> bytes:
    """Return a PNG (8-bit RGB) of one face at ``max_dpi`` or less, within ``MAX_SIDE`` pixels."""
    from generator.render.png import write_png

    longest = max(face.width, face.height)
    dpi = max(1, min(max_dpi, math.floor(MAX_SIDE * 25.4 / longest)))
    while max(round(face.width * dpi / 25.4), round(face.height * dpi / 25.4)) > MAX_SIDE:
        dpi -= 1
    buffer = io.BytesIO()
    write_png(Page(face.width, face.height, face.shapes, label=face.label), buffer, dpi)
    return buffer.getvalue()


def render_cutout(face: Drawing, max_dpi: int = DPI) -> bytes:
    """Return a PNG (8-bit RGBA) of one face at ``max_dpi`` or less, within ``MAX_SIDE`` pixels,
    transparent wherever the face paints nothing (outside a standee's outline): the face drawn
    on white and on black by the PNG writer, a pixel's opacity what the two keep in common."""
    longest = max(face.width, face.height)
    dpi = max(1, min(max_dpi, math.floor(MAX_SIDE * 25.4 / longest)))
    while max(round(face.width * dpi / 25.4), round(face.height * dpi / 25.4)) > MAX_SIDE:
        dpi -= 1
    black = Rect(0, 0, face.width, face.height, Style(stroke=None, fill="#000000"))
    on_white = page_pixels(Page(face.width, face.height, face.shapes, label=face.label), dpi)
    on_black = page_pixels(Page(face.width, face.height, (black, *face.shapes), label=face.label), dpi)
    lines = bytearray()
    for white_row, black_row in zip(on_white, on_black, strict=True):
        lines.append(0)
        for at in range(0, len(white_row), 3):
            w, b = white_row[at : at + 3], black_row[at : at + 3]
            opacity = 255 - max(w[0] - b[0], w[1] - b[1], w[2] - b[2], 0)
            if opacity == 0:
                lines += b"\x00\x00\x00\x00"
            else:  # the colour the face paints, unmixed from the black behind it
                lines += bytes(min(255, round(c * 255 / opacity)) for c in b) + bytes((opacity,))
    from generator.render.png import encode_png

    return encode_png(len(on_white[0]) // 3, len(on_white), bytes(lines), dpi, alpha=True)


def _transform(
    at: tuple[float, float], y: float = 1.0, flipped: bool = False, size: float = 1.0
) -> dict[str, float]:
    return {
        "posX": at[0],
        "posY": y,
        "posZ": at[1],
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0 if flipped else 0.0,
        "scaleX": size,
        "scaleY": 1.0,
        "scaleZ": size,
    }


def _object(name: str, key: str, nickname: str, transform: dict[str, float], **rest: Any) -> dict[str, Any]:
    return {
        "Name": name,
        "GUID": guid(key),
        "Nickname": nickname,
        "Description": "",
        "Transform": transform,
        "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        **rest,
    }


class Exporter:
    """Collects the objects and images of one kit's saved object."""

    def __init__(self, game: str, url: str) -> None:
        self.game = game
        self.url = url
        self.files: list[Written] = []
        self.objects: list[dict[str, Any]] = []
        self.next_sheet = 1
        self.x, self.z, self.depth = 0.0, 0.0, 0.0  # the row being filled, its deepest object

    def image(self, name: str, data: bytes) -> str:
        """Keep an image to write as tts/<name>; return the reference the JSON names it by."""
        self.files.append((name, data))
        return self.url + name

    def place(self, width: float, depth: float) -> tuple[float, float]:
        """Return the table position (x, z) of the centre of the next object, width x depth mm
        on the table: objects go left to right (+x) SPACING apart, a row at most ROW wide, the
        next row behind the deepest of the last (-z); a table unit is about an inch."""
        w, d = width / TILE_SCALE, depth / TILE_SCALE
        if self.x > 0 and self.x + w > ROW:
            self.z -= self.depth + SPACING
            self.x, self.depth = 0.0, 0.0
        at = (round(self.x + w / 2 - ROW / 2, 4), round(self.z - d / 2, 4))
        self.x += w + SPACING
        self.depth = max(self.depth, d)
        return at

    def deck(self, component: str, title: str, items: Sequence[SheetItem]) -> None:
        """Add a custom deck of every card (one item per copy) on sheets of at most 10 x 7."""
        fronts = [item.front for item in items]
        width, height = fronts[0].width, fronts[0].height
        plain = blank_back(width, height)
        backs = [item.back or plain for item in items]
        per_sheet = MAX_COLUMNS * MAX_ROWS  # BackIsHidden: every slot holds a face
        custom: dict[str, dict[str, Any]] = {}
        cards: list[dict[str, Any]] = []
        x = self.place(width, height)
        size = round(width / POKER_WIDTH, 4)
        for start in range(0, len(items), per_sheet):
            chunk = range(start, min(start + per_sheet, len(items)))
            sheet_id = self.next_sheet
            self.next_sheet += 1
            grid = sheet_grid(len(chunk), width, height)
            number = start // per_sheet + 1
            face_url = self.image(f"{component}-{number}.png", render_sheet([fronts[i] for i in chunk], grid))
            sheet_backs = [backs[i] for i in chunk]
            unique = len({id(b) for b in sheet_backs}) > 1
            if unique:
                back_url = self.image(f"{component}-{number}-backs.png", render_sheet(sheet_backs, grid))
            else:
                back_url = self.image(f"{component}-{number}-back.png", render_face(sheet_backs[0], grid.dpi))
            entry = {
                "FaceURL": face_url,
                "BackURL": back_url,
                "NumWidth": grid.columns,
                "NumHeight": grid.rows,
                "BackIsHidden": True,
                "UniqueBack": unique,
                "Type": 0,
            }
            custom[str(sheet_id)] = entry
            for index, i in enumerate(chunk):
                cards.append(
                    _object(
                        "Card",
                        f"{self.game}/{component}/card/{i}",
                        fronts[i].label,
                        _transform(x, 1.0, True, size),
                        CardID=sheet_id * 100 + index,
                        SidewaysCard=False,
                        CustomDeck={str(sheet_id): entry},
                    )
                )
        if len(cards) == 1:
            self.objects.append(cards[0])
            return
        self.objects.append(
            _object(
                "Deck",
                f"{self.game}/{component}",
                title,
                _transform(x, 1.0, True, size),
                SidewaysCard=False,
                DeckIDs=[card["CardID"] for card in cards],
                CustomDeck=custom,
                ContainedObjects=cards,
            )
        )

    def board(self, component: str, title: str, art: Drawing) -> None:
        """Add a custom board of a board's artwork (its longer side as wide as it is printed)."""
        url = self.image(f"{component}.png", render_face(art))
        size = round(max(art.width, art.height) / TILE_SCALE / 10, 4)
        self.objects.append(
            _object(
                "Custom_Board",
                f"{self.game}/{component}",
                title,
                _transform(self.place(art.width, art.height), 1.0, False, size),
                CustomImage={
                    "ImageURL": url,
                    "ImageSecondaryURL": "",
                    "ImageScalar": 1.0,
                    "WidthScale": 0.0,
                },
            )
        )

    def tiles(self, component: str, items: Sequence[SheetItem], shapes: Mapping[str, str]) -> None:
        """Add one custom tile per piece (copies stacked), its front and back as images, of the
        tile shape of its counter's shape (``shapes``: by piece name; square when not named)."""
        pieces = [p for item in items for p in ([q for _, _, q in item.pieces] or [item])]
        made: dict[tuple[int, int], tuple[str, str, tuple[float, float]]] = {}
        stacked: dict[tuple[int, int], int] = {}
        for n, piece in enumerate(pieces):
            key = (id(piece.front), id(piece.back))
            if key not in made:  # each different piece is a stack of its own on the table
                name = f"{component}-{len(made) + 1}"
                front = self.image(f"{name}-front.png", render_face(piece.front))
                back = self.image(f"{name}-back.png", render_face(piece.back)) if piece.back else ""
                made[key] = (front, back, self.place(piece.front.width, piece.front.height))
            front, back, x = made[key]
            height = stacked.get(key, 0)
            stacked[key] = height + 1
            size = round(piece.front.width / TILE_SCALE, 4)
            self.objects.append(
                _object(
                    "Custom_Tile",
                    f"{self.game}/{component}/{n}",
                    piece.front.label,
                    _transform(x, 1.0 + 0.2 * height, False, size),
                    CustomImage={
                        "ImageURL": front,
                        "ImageSecondaryURL": back,
                        "ImageScalar": 1.0,
                        "WidthScale": 0.0,
                        "CustomTile": {
                            "Type": TILE_TYPES.get(shapes.get(piece.front.label, ""), 0),
                            "Thickness": 0.2,
                            "Stackable": True,
                            "Stretch": True,
                        },
                    },
                )
            )

    def standees(self, component: str, items: Sequence[SheetItem], panel: tuple[float, float]) -> None:
        """Add one custom figurine per standee: its front panel as the image, its back panel (as
        seen from behind) as the second image."""
        made: dict[int, tuple[str, str]] = {}
        for n, item in enumerate(items):
            flat = item.front
            if id(flat) not in made:
                name = f"{component}-{len(made) + 1}"
                front, back = standee_panels(flat, panel)
                made[id(flat)] = (
                    self.image(f"{name}-front.png", render_cutout(front)),
                    self.image(f"{name}-back.png", render_cutout(back)),
                )
            front_url, back_url = made[id(flat)]
            self.objects.append(
                _object(
                    "Figurine_Custom",
                    f"{self.game}/{component}/{n}",
                    flat.label,
                    _transform(
                        self.place(flat.width, flat.width), 1.0, False, round(flat.width / TILE_SCALE, 4)
                    ),
                    CustomImage={
                        "ImageURL": front_url,
                        "ImageSecondaryURL": back_url,
                        "ImageScalar": 1.0,
                        "WidthScale": 0.0,
                    },
                )
            )

    def dice(
        self, component: str, items: Sequence[SheetItem], edge: float, faces: Mapping[str, Sequence[str]]
    ) -> None:
        """Add one custom die (a d6) per net: its six faces cut out of the net and laid out on
        the 3 x 3 grid of a custom die's image (``DIE_CELLS``), each face's value the face it
        prints (a pip count, or its text), each die beside the others."""
        from generator.components.dice_nets import face_origins

        made: dict[int, str] = {}
        for n, item in enumerate(items):
            net = item.front
            if id(net) not in made:
                cells: list[Shape] = [Rect(0, 0, 3 * edge, 3 * edge, Style(stroke=None, fill="#ffffff"))]
                for number, (fx, fy) in enumerate(face_origins(edge), 1):
                    col, row = DIE_CELLS[number]
                    # the face without the fold and cut lines on its edges: a hair inside them,
                    # stretched back to the whole cell
                    inner = multiply(
                        scale(edge / (edge - 2 * DIE_INSET)), translate(-fx - DIE_INSET, -fy - DIE_INSET)
                    )
                    cut = Group((Group(net.shapes, inner),), clip=(0.0, 0.0, edge, edge))
                    turn = rotate(180, edge / 2, edge / 2) if number in DIE_TURNED else translate(0, 0)
                    cells.append(Group((cut,), multiply(translate(col * edge, row * edge), turn)))
                sheet = Drawing(3 * edge, 3 * edge, tuple(cells), net.label)
                made[id(net)] = self.image(f"{component}-{len(made) + 1}.png", render_face(sheet))
            values = list(faces.get(net.label, ())) or [f"pips:{k}" for k in range(1, 7)]
            self.objects.append(
                _object(
                    "Custom_Dice",
                    f"{self.game}/{component}/{n}",
                    net.label,
                    _transform(self.place(edge, edge), 1.0, False, round(edge / TILE_SCALE, 4)),
                    CustomImage={
                        "ImageURL": made[id(net)],
                        "ImageSecondaryURL": "",
                        "ImageScalar": 1.0,
                        "WidthScale": 0.0,
                        "CustomDice": {"Type": 1},  # a six-sided die
                    },
                    RotationValues=[
                        {
                            "Value": face_value(values[number - 1]),
                            "Rotation": dict(zip("xyz", DIE_ROTATIONS[number], strict=True)),
                        }
                        for number in range(1, 7)
                    ],
                )
            )

    def booklet(self, component: str, title: str, pages: Sequence[Page], author: str) -> None:
        """Add the rule booklet as a custom PDF object: its pages in reading order, as one PDF."""
        from generator.render.pdf import write_pdf

        buffer = io.BytesIO()
        write_pdf(pages, buffer, title, author=author)
        self.files.append((f"{component}.pdf", buffer.getvalue()))
        self.objects.append(
            _object(
                "Custom_PDF",
                f"{self.game}/{component}",
                title,
                _transform(self.place(pages[0].width, pages[0].height)),
                CustomPDF={
                    "PDFUrl": self.url + f"{component}.pdf",
                    "PDFPassword": "",
                    "PDFPage": 0,
                    "PDFPageOffset": 0,
                },
            )
        )

    def save(self, title: str) -> dict[str, Any]:
        """Return the saved object: every object laid out on the table."""
        return {
            "SaveName": title,
            "GameMode": title,
            "Date": "",
            "VersionNumber": "",
            "Gravity": 0.5,
            "PlayArea": 0.5,
            "Table": "",
            "Sky": "",
            "Note": "",
            "Rules": "",
            "XmlUI": "",
            "LuaScript": "",
            "LuaScriptState": "",
            "TabStates": {},
            "ObjectStates": self.objects,
        }


def standee_panels(flat: Drawing, panel: tuple[float, float]) -> tuple[Drawing, Drawing]:
    """Return the front and back panels of a flat standee (tab, back upside down, front, tab, top
    to bottom; ``panel`` its panel height and tab depth in mm), each cut to its box, the back
    turned upright (as seen from behind)."""
    height, tab = panel
    w = flat.width
    front = Drawing(w, height, (Group(flat.shapes, translate(0, -(tab + height)), clip=None),), flat.label)
    upright = multiply(rotate(180, w / 2, height / 2), translate(0, -tab))
    back = Drawing(w, height, (Group(flat.shapes, upright),), flat.label)
    return _clipped(front), _clipped(back)


def face_value(face: str) -> str:
    """Return what a die's face reads as a value: its pip count, a symbol's or picture's name,
    or its text."""
    return face.split(":", 1)[1] if ":" in face else face


def _clipped(drawing: Drawing) -> Drawing:
    """Return the drawing cut to its own box."""
    box = (0.0, 0.0, drawing.width, drawing.height)
    return Drawing(drawing.width, drawing.height, (Group(drawing.shapes, clip=box),), drawing.label)


def tts_files(
    game: str,
    title: str,
    outputs: Sequence[Part],
    url: str = "",
    author: str = "pnp",
) -> list[Written]:
    """Return every file of the export as (name inside tts/, bytes): ``<game>.json`` last, the
    images and the booklet's PDF it names before it. ``outputs`` are the kit's components in its
    order; ``url`` prefixes every file's name (a hosting address, or
    nothing); ``author`` is the booklet PDF's author."""
    exporter = Exporter(game, url)
    for part in outputs:
        kind, what, output, name = part.kind, part.title, part.output, part.output.name
        if kind == "cards" and output.items:
            exporter.deck(name, what, output.items)
        elif output.art is not None:
            exporter.board(name, what, output.art)
        elif kind == "counters" and output.items:
            exporter.tiles(name, output.items, part.shapes)
        elif kind == "standees" and output.items and part.panel is not None:
            exporter.standees(name, output.items, part.panel)
        elif kind == "dice-nets" and output.items and part.die is not None:
            exporter.dice(name, output.items, part.die, part.faces)
        elif output.booklet and output.pages:
            exporter.booklet(name, f"{title}: {what}", output.pages, author)
    text = json.dumps(exporter.save(title), indent=2, ensure_ascii=False) + "\n"
    return [*exporter.files, (f"{game}.json", text.encode("utf-8"))]


def _put(data: bytes, handle: BinaryIO) -> None:
    handle.write(data)


def write_tts(folder: str, files: Sequence[Written]) -> list[tuple[str, bytes]]:
    """Write each file atomically into FOLDER/tts/; return (path, bytes) of each."""
    target = os.path.join(folder, FOLDER)
    os.makedirs(target, exist_ok=True)
    written = []
    for name, data in files:
        path = os.path.join(target, name)
        atomic_write(path, functools.partial(_put, data))
        written.append((path, data))
    return written
