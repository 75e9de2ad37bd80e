"""``--service tgc|mpc|drivethrucards``: the kit's cards, counters and boards as files a
print-on-demand service takes, written to ``service/<name>/`` with a README.txt of what to upload
where and a manifest.json of every file.

Each service is a table of its products (``Product``: the trim in inches, the file's pixels with
the bleed at 300 dpi, the safe area), the kind of file it takes (PNG in RGB, or one PDF in CMYK per
deck), and how it counts a deck (one file per card face with its quantity, or one page pair per
copy). A part goes on the smallest product of its kind (and a counter's shape) that holds it (turned
a quarter clockwise when only turned it fits: a landscape card), at its own size, centred on the
product's trim, its edge-reaching fills grown to the file's edge
(``generator.printing.imposition.bled``; in a PNG a picture filling the part to its edge runs on
over them as its outermost pixels repeated, ``face_png``), so the service's bleed and any margin
between the part and a slightly larger product are the part's own background, without the
streaks an outline or a fold line along its edge would make repeated. A part no product holds is left
out (said in the README and in one warning line of the build); a card larger than every card the
service prints is a usage error before anything is written (``check_cards``). A die of a dice
net goes on The Game Crafter's custom d6 as six PNGs, its faces cut out of the net and drawn to
fill the die's sides (the one part drawn at the service's size rather than its own).

The figures and where they come from are in docs/print-shop.md. Faces are drawn one at a time by
the PNG writer (``generator.render.png``), the same as the Tabletop Simulator export does.
"""

from __future__ import annotations

import functools
import io
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import BinaryIO

from generator.components.base import Output
from generator.foundation.files import atomic_write
from generator.model.page import (
    Drawing,
    Group,
    Image,
    Page,
    Rect,
    Shape,
    Style,
    bounds,
    multiply,
    rotate,
    scale,
    translate,
)
from generator.printing.imposition import SheetItem, bled, bleed_shapes
from generator.printing.layout_check import Finding, check_safe_area

FOLDER = "service"  # the kit's subfolder: service/<name>/
DPI = 300  # every service here asks for 300 dpi
INCH = 25.4
FIT = 0.05  # mm a part may exceed a product's trim (rounding of inch and mm sizes)
INK_LIMIT = 2.4  # DriveThruCards: at most 240 % of ink (C + M + Y + K) anywhere
# a counter's shape as a service's die cuts it
CUTS = {"square": "square", "rounded": "square", "circle": "circle", "hex": "hex", "hexagon": "hex"}

Written = tuple[str, bytes]  # a file's name inside service/<name>/ and its bytes


@dataclass(frozen=True)
class Product:
    """One product of a service: its name, the kind of part it is (card, counter, board), the
    counter shape it is cut to (counters), its trim in inches, the pixels of its file (the trim
    and the bleed at ``DPI``) and the safe area's distance inside the trim in inches."""

    name: str
    kind: str
    trim: tuple[float, float]
    pixels: tuple[int, int]
    safe: float = 0.125
    shape: str = ""

    @property
    def trim_mm(self) -> tuple[float, float]:
        """Return the trim in mm."""
        return (self.trim[0] * INCH, self.trim[1] * INCH)

    @property
    def canvas_mm(self) -> tuple[float, float]:
        """Return the size of the file in mm (trim and bleed): its pixels at ``DPI``."""
        return (self.pixels[0] * INCH / DPI, self.pixels[1] * INCH / DPI)

    def holds(self, width: float, height: float) -> bool:
        """Return whether a part of width x height mm fits inside the trim."""
        w, h = self.trim_mm
        return width <= w + FIT and height <= h + FIT


@dataclass(frozen=True)
class Service:
    """A print-on-demand service: its key (the option's value), name, products, file kind
    ("png" or "pdf"), colour ("RGB" or "CMYK"), how it counts a deck ("faces": one file per card
    face with a quantity; "copies": every copy in the file) and where the files are uploaded."""

    key: str
    title: str
    products: tuple[Product, ...]
    file: str
    colour: str
    counts: str
    upload: str

    def product(self, kind: str, width: float, height: float, shape: str = "") -> Product | None:
        """Return the smallest product of a kind (and counter shape) that holds a part of
        width x height mm upright, else turned a quarter, or None when none does."""
        mine = [p for p in self.products if p.kind == kind and (not shape or p.shape == shape)]
        # upright if a product holds it so, else turned a quarter (a landscape card on a portrait one)
        fitting = [p for p in mine if p.holds(width, height)] or [p for p in mine if p.holds(height, width)]
        return min(fitting, key=lambda p: (p.trim[0] * p.trim[1], p.name), default=None)

    def largest(self, kind: str) -> Product | None:
        """Return the largest product of a kind (None when the service offers none)."""
        return max(
            (p for p in self.products if p.kind == kind), key=lambda p: p.trim[0] * p.trim[1], default=None
        )


def _tgc(
    name: str, kind: str, trim: tuple[float, float], pixels: tuple[int, int], shape: str = ""
) -> Product:
    return Product(name, kind, trim, pixels, 0.125, shape)


# The Game Crafter: PNG uploads in RGB at 300 dpi, 1/8 in bleed, safe area 1/8 in inside the cut
# (its templates); sizes from its product catalogue (docs/print-shop.md has the sources)
TGC = Service(
    "tgc",
    "The Game Crafter",
    (
        _tgc("Micro Deck", "card", (1.25, 1.75), (450, 600)),
        _tgc("Mini Deck", "card", (1.75, 2.5), (600, 825)),
        _tgc("Bridge Deck", "card", (2.25, 3.5), (750, 1125)),
        _tgc("Poker Deck", "card", (2.5, 3.5), (825, 1125)),
        _tgc("Small Square Deck", "card", (2.5, 2.5), (825, 825)),
        _tgc("Tarot Deck", "card", (2.75, 4.75), (900, 1500)),
        _tgc("Square Deck", "card", (3.5, 3.5), (1125, 1125)),
        _tgc("Jumbo Deck", "card", (3.5, 5.5), (1125, 1725)),
        _tgc("Small Square Chit", "counter", (0.5, 0.5), (225, 225), "square"),
        _tgc("Medium Square Chit", "counter", (0.75, 0.75), (300, 300), "square"),
        _tgc("Large Square Chit", "counter", (1.0, 1.0), (375, 375), "square"),
        _tgc("Mini Square Tile", "counter", (1.25, 1.25), (450, 450), "square"),
        _tgc("Small Square Tile", "counter", (2.0, 2.0), (675, 675), "square"),
        _tgc("Medium Square Tile", "counter", (2.5, 2.5), (825, 825), "square"),
        _tgc("Large Square Tile", "counter", (3.5, 3.5), (1125, 1125), "square"),
        _tgc("Small Circle Chit", "counter", (0.5, 0.5), (225, 225), "circle"),
        _tgc("Medium Circle Chit", "counter", (0.75, 0.75), (300, 300), "circle"),
        _tgc("Large Circle Chit", "counter", (1.0, 1.0), (375, 375), "circle"),
        _tgc("Mini Circle Tile", "counter", (1.25, 1.25), (450, 450), "circle"),
        _tgc("Mini Hex Tile", "counter", (1.25, 1.08), (450, 450), "hex"),
        _tgc("Small Hex Tile", "counter", (2.0, 1.75), (675, 600), "hex"),
        _tgc("Medium Hex Tile", "counter", (2.5, 2.2), (825, 750), "hex"),
        _tgc("Large Hex Tile", "counter", (3.75, 3.25), (1200, 1050), "hex"),
        _tgc("Small Standee", "standee", (0.5, 1.125), (225, 525)),
        _tgc("Medium Standee", "standee", (0.75, 1.675), (300, 750)),
        _tgc("Large Standee", "standee", (1.0, 2.25), (375, 975)),
        _tgc("Small Square Board", "board", (4.0, 4.0), (1275, 1275)),
        _tgc("Quarter Board", "board", (5.0, 5.0), (1575, 1575)),
        _tgc("Square Board", "board", (8.0, 8.0), (2475, 2475)),
        _tgc("Half Board", "board", (5.0, 10.0), (1575, 3075)),
        _tgc("Large Square Board", "board", (10.0, 10.0), (3075, 3075)),
        _tgc("Bi-Fold Board", "board", (9.0, 18.0), (2775, 5475)),
        _tgc("Quad-Fold Board", "board", (18.0, 18.0), (5475, 5475)),
        # a 16 mm plastic d6 printed on its six sides: 180 x 180 px a side, no bleed, and no safe
        # zone in the sources found (templative's catalogue and TGC's API notes)
        Product("Custom Color D6", "die", (0.6, 0.6), (180, 180), 0.0),
    ),
    "png",
    "RGB",
    "faces",
    "thegamecrafter.com: create a game, add each component as its product, and upload each "
    "face's PNG to it (a card's quantity is the number in its file name); backs go in the back "
    "slot (a deck's one back, or each card's own back when the deck's backs differ); a die's "
    "six side PNGs (-side1.png to -side6.png) go in its side 1 to side 6 slots.",
)

# MakePlayingCards: 300 dpi images with 36 px of bleed on every side and a further 36 px of safe
# area inside the cut (its photo-upload help); poker and tarot cards
MPC = Service(
    "mpc",
    "MakePlayingCards",
    (
        Product("Poker Size", "card", (2.5, 3.5), (822, 1122), 0.12),
        Product("Tarot Size", "card", (2.75, 4.75), (897, 1497), 0.12),
    ),
    "png",
    "RGB",
    "faces",
    "makeplayingcards.com: choose the card size named below and the deck's number of cards, "
    "upload every front, give each the quantity in its file name, then upload the back (or "
    "each card's own back when the backs differ).",
)

# DriveThruCards: one PDF per deck, first page the back of card 1, then its front, and so on for
# every card; 1/8 in bleed built into every page, CMYK, 300 dpi, 1/8 in safe area
DTC = Service(
    "drivethrucards",
    "DriveThruCards",
    (Product("Poker Card", "card", (2.5, 3.5), (825, 1125), 0.125),),
    "pdf",
    "CMYK",
    "copies",
    "drivethrucards.com (publisher account): create a print card product of the size named "
    "below and upload the deck's PDF as its interior file; it holds every copy, back then front.",
)

SERVICES: dict[str, Service] = {s.key: s for s in (TGC, MPC, DTC)}


@dataclass(frozen=True)
class Part:
    """One component as the export reads it: kind, title, output and each counter's shape by
    its name (counters)."""

    kind: str
    title: str
    output: Output
    shapes: Mapping[str, str]
    panel: tuple[float, float] | None = None  # standees: the panel's height and the tab's depth
    die: float | None = None  # dice nets: the edge of a die in mm


def card_problem(service: Service, component: str, width: float, height: float) -> str | None:
    """Return the one-line error for cards of width x height mm larger than every card the
    service prints (None when a product holds them)."""
    if service.product("card", width, height) is not None:
        return None
    largest = service.largest("card")
    biggest = "none" if largest is None else f"{largest.name}, {largest.trim[0]:g} x {largest.trim[1]:g} in"
    return (
        f"--service {service.key}: the cards of {component!r} are {width:g} x {height:g} mm, larger "
        f"than any card {service.title} prints (largest: {biggest})"
    )


def upright(part: Drawing, product: Product) -> Drawing:
    """Return the part as it goes on the product: as drawn when the product holds it so, else
    turned a quarter clockwise (its top to the right)."""
    if product.holds(part.width, part.height):
        return part
    turn = multiply(translate(part.height, 0), rotate(90))
    return Drawing(part.height, part.width, (Group(part.shapes, turn),), part.label)


def canvas(part: Drawing, product: Product) -> Page:
    """Return the page of one part on a product's file (the PDF services): the file's size in
    mm, the part at its own size centred on the trim, its edge-reaching fills run on to the
    file's edge."""
    part = upright(part, product)
    cw, ch = product.canvas_mm
    grow = max((cw - part.width) / 2, (ch - part.height) / 2, 0.0)
    art = bled(part, grow)
    x, y = (cw - art.width) / 2, (ch - art.height) / 2
    return Page(cw, ch, (art.placed(x, y),), label=part.label)


def panel_faces(flat: Drawing, panel: tuple[float, float]) -> tuple[Drawing, Drawing]:
    """Return the front and back panels of a flat standee (tab, back upside down, front, tab, top
    to bottom; ``panel`` its panel height and tab depth in mm) as a service prints them, each face
    holding only its own panel's art: a service's standee stands in a plastic base, so the base
    tabs and their labels are never printed, and the other panel and the tabs hidden under a
    face's clip must not count as text near the service's cut. Each face's pixels are those of
    ``standee_panels``."""
    from generator.kits.tts import standee_panels

    height, tab = panel
    front, _ = standee_panels(_within(flat, tab + height, tab + 2 * height), panel)
    _, back = standee_panels(_within(flat, tab, tab + height), panel)
    return front, back


def _within(flat: Drawing, top: float, bottom: float) -> Drawing:
    """Return a drawing without its shapes lying wholly above ``top`` or below ``bottom`` (a line
    along either edge is kept: it shows half its width on the face)."""
    kept: list[Shape] = []
    for shape in flat.shapes:
        box = bounds((shape,))
        if box is not None:
            overlap = min(box[3], bottom) - max(box[1], top)
            along = box[1] == box[3] and top - 1e-6 <= box[1] <= bottom + 1e-6
            if overlap <= 1e-6 and not along:
                continue
        kept.append(shape)
    return Drawing(flat.width, flat.height, tuple(kept), flat.label)


def outside_safe(part: Drawing, product: Product) -> list[Finding]:
    """Return the layout check's findings of the texts and symbols of a part, as it goes on a
    product (upright or turned, centred on the trim), that lie outside the product's safe area:
    closer than its ``safe`` distance to the product's trim (empty when all keep inside)."""
    part = upright(part, product)
    tw, th = product.trim_mm
    dx, dy = (tw - part.width) / 2, (th - part.height) / 2  # a part a little smaller than the trim
    trim = (-dx, -dy, part.width + dx, part.height + dy)
    page = Page(part.width, part.height, part.shapes, label=part.label, cuts=(trim,))
    return check_safe_area(page, part.label or "part", product.safe * INCH)


def face_png(part: Drawing, product: Product) -> bytes:
    """Return the PNG of one part on a product's file (its pixels at ``DPI``): the part drawn at
    its size, centred on whole pixels, and round it (the bleed, and any margin to a larger
    product's trim) the part's own background: its fills that reach its edge run on to the file's
    edge (``imposition.bleed_shapes``, as the PDF services' pages have them), a picture that
    reaches its edge runs on over them as its outermost pixels repeated (a full-bleed picture's
    extended background), and elsewhere the paper's white. Lines and text along the edge are not
    repeated: they would print as streaks."""
    from generator.kits.tts import page_pixels
    from generator.render.png import encode_png, pixel_size

    part = upright(part, product)
    width, height = product.pixels
    pw, ph = pixel_size(part.width, part.height, DPI)
    ox, oy = (width - pw) // 2, (height - ph) // 2
    px = INCH / DPI  # a pixel in mm
    x, y = ox * px, oy * px
    grow = max(ox, oy, width - pw - ox, height - ph - oy) * px + px
    shapes = (Group(bleed_shapes(part, grow), translate(x, y)), part.placed(x, y))
    rows = page_pixels(Page(width * px, height * px, shapes, label=part.label), DPI)
    pictures = _pictures(part.shapes, False)
    box = bounds(pictures)
    if box is not None and (
        box[0] < px or box[1] < px or box[2] > part.width - px or box[3] > part.height - px
    ):
        rows = _picture_bleed(part, rows, width, height, ox, oy)  # a picture reaches the part's edge
    return encode_png(width, height, b"".join(b"\x00" + row for row in rows), DPI)


_BLACK_PNG: bytes | None = None


def _pictures(shapes: Sequence[Shape], black: bool) -> tuple[Shape, ...]:
    """Return only the pictures (raster images, and SVG pictures drawn as shapes) among shapes,
    in their groups (transforms, clips and outlines kept); with ``black`` each drawn as solid
    black over its box instead (their coverage)."""
    global _BLACK_PNG
    kept: list[Shape] = []
    for shape in shapes:
        if isinstance(shape, Image):
            if black:
                if _BLACK_PNG is None:
                    from generator.render.png import encode_png

                    _BLACK_PNG = encode_png(1, 1, b"\x00\x00\x00\x00", DPI)
                shape = Image(shape.x, shape.y, shape.w, shape.h, _BLACK_PNG)
            kept.append(shape)
        elif isinstance(shape, Group) and shape.picture:  # an SVG picture, drawn as shapes
            box = bounds(shape.children) if black else None
            if black and box is not None:
                x0, y0, x1, y1 = box
                solid = Rect(x0, y0, x1 - x0, y1 - y0, Style(stroke=None, fill="#000000"))
                kept.append(Group((solid,), shape.transform, shape.clip, shape.outline, True))
            elif not black:
                kept.append(shape)
        elif isinstance(shape, Group):
            inner = _pictures(shape.children, black)
            if inner:
                kept.append(Group(inner, shape.transform, shape.clip, shape.outline, shape.picture))
    return tuple(kept)


def _spread(rows: list[bytes], width: int, height: int, ox: int, oy: int) -> bytes:
    """Return RGB rows placed at (ox, oy) on width x height pixels, their outermost pixels
    repeated out to the edges (no filter bytes)."""
    pw, ph = len(rows[0]) // 3, len(rows)
    right = width - pw - ox
    out = bytearray()
    for y in range(height):
        row = rows[min(max(y - oy, 0), ph - 1)]
        out += row[:3] * ox + row + row[-3:] * right
    return bytes(out)


def _picture_bleed(
    part: Drawing, rows: list[bytes], width: int, height: int, ox: int, oy: int
) -> list[bytes]:
    """Return the file's RGB rows with, outside the part (at (ox, oy)), its pictures' outermost
    whole pixels (those the part covers wholly, not the last one its edge may cut through)
    repeated out to the edges where the pictures wholly cover them, over what was there."""
    from PIL import Image as Picture
    from PIL import ImageFilter

    from generator.kits.tts import page_pixels

    inner_w = max(1, int(part.width * DPI / INCH + 1e-6))
    inner_h = max(1, int(part.height * DPI / INCH + 1e-6))

    def spread(shapes: tuple[Shape, ...]) -> Picture.Image:
        drawn = page_pixels(Page(part.width, part.height, shapes), DPI)
        inner = [row[: 3 * inner_w] for row in drawn[:inner_h]]
        return Picture.frombytes("RGB", (width, height), _spread(inner, width, height, ox, oy))

    # wholly covered pixels only, and no line thinner than five pixels (a hex's corner touching
    # the part's side would run out as a hairline)
    cover = spread(_pictures(part.shapes, True)).convert("L").point(lambda v: 255 if v <= 5 else 0)
    cover = cover.filter(ImageFilter.MinFilter(5)).filter(ImageFilter.MaxFilter(5))
    cover.paste(0, (ox, oy, ox + inner_w, oy + inner_h))
    if cover.getbbox() is None:
        return rows
    drawn = Picture.frombytes("RGB", (width, height), b"".join(rows))
    merged = Picture.composite(spread(_pictures(part.shapes, False)), drawn, cover).tobytes()
    return [merged[r * 3 * width : (r + 1) * 3 * width] for r in range(height)]


def colours(shapes: Sequence[Shape]) -> set[str]:
    """Return every '#rrggbb' colour the shapes paint (fills, strokes, text), groups walked."""
    found: set[str] = set()
    for shape in shapes:
        if isinstance(shape, Group):
            found |= colours(shape.children)
            continue
        for colour in (getattr(shape, "colour", None), *_style_colours(shape)):
            if isinstance(colour, str) and len(colour) == 7 and colour.startswith("#"):
                found.add(colour.lower())
    return found


def _style_colours(shape: Shape) -> tuple[str | None, ...]:
    style = getattr(shape, "style", None)
    return (style.fill, style.stroke) if style is not None else ()


def over_ink(colours_used: set[str], limit: float = INK_LIMIT) -> list[tuple[str, float]]:
    """Return (colour, total ink in %) of every colour whose CMYK inks (as written under --cmyk)
    add up to more than the limit, the heaviest first."""
    from generator.model.colour import cmyk

    heavy = [(c, round(100 * sum(cmyk(c)), 1)) for c in colours_used if sum(cmyk(c)) > limit + 1e-9]
    return sorted(heavy, key=lambda item: (-item[1], item[0]))


def _slug(text: str) -> str:
    import re

    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "part"


def _faces(items: Sequence[SheetItem]) -> list[tuple[SheetItem, int]]:
    """Return each different piece (front and back drawing) of the items with its number of
    copies, in the order met (a patch of pieces gives its pieces)."""
    pieces = [p for item in items for p in ([q for _, _, q in item.pieces] or [item])]
    counted: dict[tuple[int, int], list] = {}
    for piece in pieces:
        key = (id(piece.front), id(piece.back))
        if key in counted:
            counted[key][1] += 1
        else:
            counted[key] = [piece, 1]
    return [(piece, count) for piece, count in counted.values()]


class Exporter:
    """Collects the files, the manifest's entries and what was left out of one kit's export."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.files: list[Written] = []
        self.entries: list[dict] = []
        self.components: list[dict] = []
        self.left_out: list[str] = []
        self.heavy: list[tuple[str, float]] = []  # colours over the service's ink limit (CMYK)
        # per component: the faces with text or symbols outside the product's safe area
        self.unsafe: dict[str, dict] = {}
        self._checked: set[tuple[int, str]] = set()

    def check_safe(self, component: str, title: str, face: Drawing, product: Product) -> None:
        """Note the face's texts and symbols outside the product's safe area (each face once)."""
        key = (id(face), product.name)
        if key in self._checked:
            return
        self._checked.add(key)
        findings = outside_safe(face, product)
        if not findings:
            return
        entry = self.unsafe.setdefault(
            component,
            {
                "component": component,
                "title": title,
                "product": product.name,
                "safe": product.safe,
                "faces": [],
                "first": f"{findings[0].shape}: {findings[0].problem}",
            },
        )
        name = face.label or component
        if name not in entry["faces"]:  # a face and its back share a name
            entry["faces"].append(name)

    def add(self, name: str, data: bytes, product: Product, side: str, count: int, pages: int = 1) -> None:
        """Keep a file and its manifest entry."""
        self.files.append((name, data))
        self.entries.append(
            {
                "name": name,
                "product": product.name,
                "side": side,
                "count": count,
                "pixels": list(product.pixels),
                "pages": pages,
            }
        )

    def faces(
        self, component: str, title: str, kind: str, items: Sequence[SheetItem], product: Product
    ) -> None:
        """Write one PNG per different face (the number of copies in its name) and the backs:
        one back.png when every face shares its back, else each face's own back."""
        faces = _faces(items)
        backs = {id(piece.back) for piece, _ in faces}
        shared = len(backs) == 1 and faces[0][0].back is not None
        for n, (piece, count) in enumerate(faces, 1):
            stem = f"{component}/{n:03d}-{_slug(piece.front.label or kind)}-x{count}"
            self.check_safe(component, title, piece.front, product)
            if piece.back is not None:
                self.check_safe(component, title, piece.back, product)
            self.add(f"{stem}.png", face_png(piece.front, product), product, "front", count)
            if piece.back is not None and not shared:
                self.add(f"{stem}-back.png", face_png(piece.back, product), product, "back", count)
        if shared:
            back = faces[0][0].back
            assert back is not None
            total = sum(count for _, count in faces)
            self.add(f"{component}/back.png", face_png(back, product), product, "back", total)
        self.components.append(
            {
                "component": component,
                "title": title,
                "product": product.name,
                "faces": len(faces),
                "copies": sum(count for _, count in faces),
            }
        )

    def deck_pdf(self, component: str, title: str, items: Sequence[SheetItem], product: Product) -> None:
        """Write the deck as one PDF in CMYK: for every copy its back, then its front (a plain
        white back for a card that prints none), each page the trim and its bleed, with TrimBox
        and BleedBox."""
        from generator.render.pdf import write_pdf

        cw, ch = product.canvas_mm
        tw, th = product.trim_mm
        trim = ((cw - tw) / 2, (ch - th) / 2, (cw + tw) / 2, (ch + th) / 2)
        bleed = min(trim[0], trim[1])
        pages: list[Page] = []
        for item in items:
            assert item.back is not None  # every card has a back (a white one when it prints none)
            for side in (item.back, item.front):
                self.check_safe(component, title, side, product)
                page = canvas(side, product)
                pages.append(
                    Page(page.width, page.height, page.shapes, page.label, cuts=(trim,), bleed=bleed)
                )
        used: set[str] = set()
        for page in pages:
            used |= colours(page.shapes)
        self.heavy = sorted(set(self.heavy) | set(over_ink(used)), key=lambda item: (-item[1], item[0]))
        buffer = io.BytesIO()
        count = write_pdf(pages, buffer, title, boxes=True, cmyk=True)
        self.add(f"{component}.pdf", buffer.getvalue(), product, "back, front", len(items), count)
        self.components.append(
            {
                "component": component,
                "title": title,
                "product": product.name,
                "faces": len(_faces(items)),
                "copies": len(items),
            }
        )

    def dice(
        self, component: str, title: str, items: Sequence[SheetItem], edge: float, product: Product
    ) -> None:
        """Write each different die of a dice net as six PNGs, one per side in the order its
        definition lists the faces (``-side1.png`` to ``-side6.png``), the die's number of copies
        in their names: each face cut out of its net (a hair inside its fold and cut lines) and
        drawn to fill the product's side (a die's size is the service's, not the paper net's)."""
        from generator.components.dice_nets import face_origins
        from generator.kits.tts import DIE_INSET

        side, _ = product.trim_mm
        nets = _faces(items)
        for n, (piece, count) in enumerate(nets, 1):
            net = piece.front
            stem = f"{component}/{n:03d}-{_slug(net.label or 'die')}-x{count}"
            for number, (fx, fy) in enumerate(face_origins(edge), 1):
                inner = multiply(
                    scale(side / (edge - 2 * DIE_INSET)), translate(-fx - DIE_INSET, -fy - DIE_INSET)
                )
                face = Drawing(
                    side, side, (Group((Group(net.shapes, inner),), clip=(0.0, 0.0, side, side)),), net.label
                )
                self.add(
                    f"{stem}-side{number}.png", face_png(face, product), product, f"side {number}", count
                )
        self.components.append(
            {
                "component": component,
                "title": title,
                "product": product.name,
                "faces": len(nets),
                "copies": sum(count for _, count in nets),
            }
        )

    def part(self, component: str, part: Part) -> None:
        """Export one component, or note it as left out when the service has no product for it."""
        kind, output, service = part.kind, part.output, self.service
        if kind == "cards" and output.items:
            from generator.kits.tts import blank_back

            first = output.items[0].front
            plain = blank_back(first.width, first.height)  # a card that prints no back gets a white one
            items = [item if item.back is not None else SheetItem(item.front, plain) for item in output.items]
            product = service.product("card", first.width, first.height)
            assert product is not None  # checked with the plan (card_problem)
            if service.file == "pdf":
                self.deck_pdf(component, part.title, items, product)
            else:
                self.faces(component, part.title, "card", items, product)
        elif output.art is not None:
            art = output.art
            product = service.product("board", art.width, art.height)
            if product is None:
                size = f"{art.width:.0f} x {art.height:.0f} mm " if service.largest("board") else ""
                self.left_out.append(f"{part.title} ({size}board)")
                return
            self.check_safe(component, part.title, art, product)
            data = face_png(art, product)
            self.files.append((f"{component}.png", data))
            self.entries.append(
                {
                    "name": f"{component}.png",
                    "product": product.name,
                    "side": "front",
                    "count": 1,
                    "pixels": list(product.pixels),
                    "pages": 1,
                }
            )
            self.components.append(
                {
                    "component": component,
                    "title": part.title,
                    "product": product.name,
                    "faces": 1,
                    "copies": 1,
                }
            )
        elif kind == "counters" and output.items and service.largest("counter") is None:
            self.left_out.append(f"{part.title} (counters)")
        elif kind == "counters" and output.items:
            by_product: dict[str, tuple[Product, list[SheetItem]]] = {}
            missing: list[str] = []
            for piece, count in _faces(output.items):
                cut = CUTS.get(part.shapes.get(piece.front.label, "square"), "square")
                product = service.product("counter", piece.front.width, piece.front.height, cut)
                if product is None:
                    missing.append(piece.front.label)
                    continue
                by_product.setdefault(product.name, (product, []))[1].extend([piece] * count)
            if missing:
                self.left_out.append(
                    f"{part.title}: {', '.join(missing)} (no counter of their size and shape)"
                )
            for n, (product, pieces) in enumerate(by_product.values()):
                name = component if n == 0 else f"{component}-{_slug(product.name)}"
                self.faces(name, part.title, "counter", pieces, product)
        elif kind == "standees" and output.items and part.panel is not None and service.largest("standee"):
            # a standee's two panels, front and back (upright, as seen from behind)
            panels = {}
            for item in output.items:
                if id(item.front) not in panels:
                    front, back = panel_faces(item.front, part.panel)
                    panels[id(item.front)] = SheetItem(front, back)
            pieces = [panels[id(item.front)] for item in output.items]
            first = pieces[0].front
            product = service.product("standee", first.width, first.height)
            if product is None:
                self.left_out.append(f"{part.title} ({first.width:.0f} x {first.height:.0f} mm standees)")
                return
            self.faces(component, part.title, "standee", pieces, product)
        elif kind == "dice-nets" and output.items and part.die is not None and service.largest("die"):
            product = service.largest("die")
            assert product is not None
            self.dice(component, part.title, output.items, part.die, product)
        elif kind in ("standees", "dice-nets") and output.items:
            self.left_out.append(f"{part.title} ({kind})")

    def readme(self, game: str, title: str) -> str:
        """Return README.txt: what to upload where, product by product, and what is left out."""
        s = self.service
        lines = [
            f"{title}: files for {s.title}",
            "",
            s.upload,
            "",
            (
                f"Every file is a PNG at {DPI} dpi in {s.colour}, one per face (a card's quantity in its name)."
                if s.file == "png"
                else f"Every deck is one PDF in {s.colour}, its pages the trim and the bleed (TrimBox, BleedBox)."
            ),
            "The art runs past every cut by the bleed the product's template asks for; keep anything",
            "new you add inside its safe area. Sizes and sources: docs/print-shop.md of pnp.",
            "",
        ]
        products = {p.name: p for p in s.products}
        for entry in self.components:
            product = products[entry["product"]]
            w, h = product.trim
            if product.kind == "die":
                full = f"{product.pixels[0]} x {product.pixels[1]} px a side"
            elif s.file == "png":
                full = f"{product.pixels[0]} x {product.pixels[1]} px with bleed"
            else:
                cw, ch = product.canvas_mm
                full = f"pages of {cw / INCH:g} x {ch / INCH:g} in with bleed"
            lines.append(
                f"- {entry['title']} ({entry['component']}): {product.name}, {w:g} x {h:g} in, {full}, "
                + (f"safe area {product.safe:g} in inside the cut; " if product.safe else "no bleed; ")
                + f"{entry['faces']} different, "
                f"{entry['copies']} in all"
            )
        if self.heavy:
            lines += [
                "",
                f"Colours over {s.title}'s ink limit of {INK_LIMIT * 100:.0f} % (C + M + Y + K, as converted here);",
                "lighten them in the definition, or convert the PDF with the service's profile:",
            ]
            lines += [f"- {colour}: {total:g} %" for colour, total in self.heavy]
        if self.unsafe:
            lines += [
                "",
                "Text or symbols outside the safe area (the service's cut may drift into them; move",
                "them inwards in the definition):",
            ]
            for entry in self.unsafe.values():
                faces = entry["faces"]
                lines.append(
                    f"- {entry['title']} ({entry['component']}), {entry['product']}, safe area "
                    f"{entry['safe']:g} in: {len(faces)} {'part' if len(faces) == 1 else 'parts'} "
                    f"({', '.join(faces)}); first: {entry['first']}"
                )
        if self.left_out:
            lines += ["", f"Left out ({s.title} has no product for them here; print them from kit.pdf):"]
            lines += [f"- {what}" for what in self.left_out]
        return "\n".join(lines) + "\n"


def service_files(
    game: str, title: str, service: Service, parts: Sequence[tuple[str, Part]]
) -> list[Written]:
    """Return every file of the export as (name inside service/<key>/, bytes): the parts' files,
    then manifest.json and README.txt."""
    exporter = Exporter(service)
    for component, part in parts:
        exporter.part(component, part)
    manifest = {
        "service": service.key,
        "title": service.title,
        "dpi": DPI,
        "colour": service.colour,
        "file": service.file,
        "counts": service.counts,
        "components": exporter.components,
        "files": exporter.entries,
        "left_out": exporter.left_out,
        "over_ink": [{"colour": c, "ink": total} for c, total in exporter.heavy],
        "outside_safe": list(exporter.unsafe.values()),
    }
    text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    return [
        *exporter.files,
        ("manifest.json", text.encode("utf-8")),
        ("README.txt", exporter.readme(game, title).encode("utf-8")),
    ]


def left_out_warning(game: str, service: Service, left_out: Sequence[str]) -> str:
    """Return the build's one warning line for the parts a service has no product for."""
    return (
        f"{game}: {service.title} has no product for {'; '.join(left_out)}: left out of "
        f"{FOLDER}/{service.key}/ (see {FOLDER}/{service.key}/README.txt)"
    )


def unsafe_warning(game: str, service: Service, outside: Sequence[Mapping]) -> str:
    """Return the build's one warning line for the parts with text or symbols outside the
    service's safe area (the manifest's ``outside_safe`` entries), each part named."""
    parts = "; ".join(
        f"{entry['title']} ({len(entry['faces'])} of its parts, {entry['product']}: "
        f"{entry['safe']:g} in inside the cut)"
        for entry in outside
    )
    return (
        f"{game}: text or symbols outside the safe area for {service.title} on {parts} "
        f"(see {FOLDER}/{service.key}/README.txt)"
    )


def _put(data: bytes, handle: BinaryIO) -> None:
    handle.write(data)


def write_service(folder: str, service: Service, files: Sequence[Written]) -> list[tuple[str, bytes]]:
    """Write each file atomically into FOLDER/service/<key>/; return (path, bytes) of each."""
    target = os.path.join(folder, FOLDER, service.key)
    written = []
    for name, data in files:
        path = os.path.join(target, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        atomic_write(path, functools.partial(_put, data))
        written.append((path, data))
    return written
