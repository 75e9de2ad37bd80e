"""A print service's PNG of a part (``--service``): round the part, centred on the file, the bleed
and any margin to the product's trim continue the face's own background. Where the face's fill
reaches its edge, every pixel beyond the part is that fill; where a picture fills the face, the
picture runs on beyond it as its edge colour; the lines along a part's edge (its outline, the
standee's fold lines) are not repeated out over the bleed, where they printed as streaks. Read
back from the PNG files the export writes, for the standees of every kit that has them."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from generator.components.base import Options
from generator.definitions.loader import load_definition
from generator.kits.kit import component_outputs, export_part
from generator.kits.plan import kit_plan
from generator.kits.service import DPI, SERVICES, face_png, panel_faces
from generator.model.page import Drawing, Rect, bounds, iter_shapes
from tests.foundation.test_pictures import ORANGE, write_kit
from tests.foundation.test_service_export import standee_kits

PX = 25.4 / DPI  # a pixel in mm
BLUE = (0, 114, 178)  # wide.png's ellipse


def background(face: Drawing) -> tuple[int, int, int]:
    """Return the colour of the fill that covers the whole face (its background), as RGB."""
    for shape, m in iter_shapes(face.shapes):
        box = bounds((shape,), m)
        if isinstance(shape, Rect) and shape.style.fill and box is not None:
            if (
                box[0] <= 0.01
                and box[1] <= 0.01
                and box[2] >= face.width - 0.01
                and box[3] >= face.height - 0.01
            ):
                fill = shape.style.fill.lstrip("#")
                return (int(fill[0:2], 16), int(fill[2:4], 16), int(fill[4:6], 16))
    raise AssertionError(f"{face.label}: no fill covers the face")


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tol: int = 3) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(pixel[:3], colour, strict=True))


def standee_faces(definition: Any, bleed: float = 0.0) -> list[Drawing]:
    """Return every different panel face (front and back) of the kit's standees as a service
    prints them."""
    kit = kit_plan(definition, options=Options(bleed=bleed))
    faces: dict[int, Drawing] = {}
    for component, output in component_outputs(kit.definition, kit.context()):
        if definition.component(component).kind != "standees":
            continue
        panel = export_part(kit, component, output).panel
        assert panel is not None
        for item in output.items or ():
            if id(item.front) not in faces:
                faces[id(item.front)] = item.front
    return [face for flat in faces.values() for face in panel_faces(flat, panel)]


def beyond(picture: Image.Image, face: Drawing, margin: int = 3) -> list[Image.Image]:
    """Return the four regions of the file (above, below, left and right) lying beyond the part,
    centred on it, by more than ``margin`` pixels."""
    w, h = picture.size
    x0, x1 = int(w / 2 - face.width / PX / 2) - margin, int(w / 2 + face.width / PX / 2) + margin + 1
    y0, y1 = int(h / 2 - face.height / PX / 2) - margin, int(h / 2 + face.height / PX / 2) + margin + 1
    boxes = ((0, 0, w, y0), (0, y1, w, h), (0, 0, x0, h), (x1, 0, w, h))
    return [picture.crop(box) for box in boxes if box[2] > box[0] and box[3] > box[1]]


def colours_beyond(picture: Image.Image, face: Drawing) -> set[tuple[int, int, int]]:
    """Return every colour of the file beyond the part."""
    found: set[tuple[int, int, int]] = set()
    for region in beyond(picture, face):
        found |= {colour for _, colour in region.getcolors(region.width * region.height)}
    return found


@pytest.mark.parametrize(
    "game",  # Barricades' twenty soldiers are slow; the starter's and the piecepack's are not
    [pytest.param(g, marks=pytest.mark.slow) if g == "barricades" else g for g in sorted(standee_kits())],
)
def test_a_standees_bleed_is_its_panels_own_background(game):
    faces = standee_faces(standee_kits()[game])
    assert faces
    for service in [s for s in SERVICES.values() if s.largest("standee") is not None]:
        for face in faces:
            product = service.product("standee", face.width, face.height)
            assert product is not None
            picture = Image.open(io.BytesIO(face_png(face, product))).convert("RGB")
            assert picture.size == product.pixels
            colour = background(face)
            wrong = [seen for seen in colours_beyond(picture, face) if not near(seen, colour)]
            assert wrong == [], (game, face.label, colour, wrong[:3])


@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_a_standee_panels_picture_runs_on_as_its_edge_colour(tmp_path: Path, bleed):
    # the panel's picture (a blue ellipse on orange, cut to the panel) fills the face to its edge:
    # beyond the middle of each side is the picture's colour just inside it, and no pixel of the
    # bleed is the black of the panel's outline or the grey of its fold lines
    definition = load_definition(str(Path(write_kit(tmp_path)) / "pics.toml"))
    faces = standee_faces(definition, bleed)
    product = SERVICES["tgc"].product("standee", faces[0].width, faces[0].height)
    assert product is not None
    for face in faces:
        picture = Image.open(io.BytesIO(face_png(face, product))).convert("RGB")
        w, h = picture.size
        half_w, half_h = face.width / PX / 2, face.height / PX / 2
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            inside = (round(w / 2 + dx * (half_w - 8)), round(h / 2 + dy * (half_h - 8)))
            beyond = (round(w / 2 + dx * (half_w + 12)), round(h / 2 + dy * (half_h + 12)))
            seen = picture.getpixel(inside)
            assert near(seen, ORANGE, 40) or near(seen, BLUE, 40), (face.label, inside, seen)
            assert near(picture.getpixel(beyond), seen, 12), (
                face.label,
                dx,
                dy,
                picture.getpixel(beyond),
                seen,
            )
        found = colours_beyond(picture, face)
        lines = [c for c in found if near(c, (0, 0, 0), 60) or near(c, (128, 128, 128), 25)]
        assert lines == [], (face.label, lines[:3])
