"""A track's background picture (``background_image``, ``background_fit``): it lies behind the
whole track, filling it to its cut; under ``--bleed`` it runs the bleed beyond the cut; a track
tiled over several sheets shows on each tile its own part of the picture, into that tile's bleed;
a bad file is one line naming the key. Read back from the PDF (its trim boxes, images, pixels)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pypdf
import pytest

from generator.components.base import Options
from generator.definitions.loader import load_definition
from generator.kits.kit import layout_findings
from generator.kits.plan import kit_plan
from tests.foundation.test_cli import one_line_error, pnp
from tests.pdf_reader import mm, near, open_pdf, trim_box

RED, BLUE = (200, 30, 30), (30, 60, 200)
BLEED = 3.0
DPI = 50
GAME = """
[game]
id = "tracks"
title = "Tracks"
players = "2"

[components.strip]
kind = "track"
title = "Score"
path = [{path}]
box = "20mm"
start_label = "START"
finish_label = "HOME"
background_image = "art/{picture}"
background_fit = "stretch"
"""


def halves(width: int, height: int) -> bytes:
    """Return a PNG whose left half is red and right half blue."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\0" + bytes(RED) * (width // 2) + bytes(BLUE) * (width - width // 2)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


def build(tmp_path: Path, boxes: int, *options: str, picture: str = "halves.png") -> Path:
    """Build a one-lane track of ``boxes`` boxes over the picture; return its part's PDF."""
    folder = tmp_path / "defs"
    (folder / "art").mkdir(parents=True, exist_ok=True)
    (folder / "art" / "halves.png").write_bytes(halves(200, 20))
    path = ", ".join(f'"{i}"' for i in range(1, boxes + 1))
    (folder / "tracks.toml").write_text(GAME.format(path=path, picture=picture))
    out = tmp_path / "out"
    result = pnp(
        "build", "tracks", "--layouts", str(folder), "--out", str(out), "--parts", "--format", "pdf", *options
    )
    assert result.returncode == 0, result.stderr
    return out / "tracks" / "strip.pdf"


def colours(pix, box: tuple[float, float, float, float]) -> tuple[int, int]:
    """Return how many sampled pixels inside a box (mm) are red and how many blue."""
    x0, y0, x1, y1 = box
    red = blue = 0
    for i in range(1, 40):
        for j in range(1, 10):
            x, y = x0 + (x1 - x0) * i / 40, y0 + (y1 - y0) * j / 10
            pixel = pix.pixel(round(x / 25.4 * DPI), round(y / 25.4 * DPI))
            red += near(pixel, RED)
            blue += near(pixel, BLUE)
    return red, blue


def test_the_picture_fills_the_track_to_its_cut_and_its_bleed(tmp_path):
    shop = build(tmp_path / "shop", 6, "--bleed", f"{BLEED:g}mm")
    [page] = pypdf.PdfReader(shop).pages
    x0, y0, x1, y1 = trim_box(page)
    [image] = open_pdf(shop)[0].get_images()
    assert (mm(image.x0), mm(image.y0)) == (
        pytest.approx(x0 - BLEED, abs=0.05),
        pytest.approx(y0 - BLEED, abs=0.05),
    )
    assert (mm(image.x1), mm(image.y1)) == (
        pytest.approx(x1 + BLEED, abs=0.05),
        pytest.approx(y1 + BLEED, abs=0.05),
    )
    # without a bleed: the same track, the picture exactly its size
    [image] = open_pdf(build(tmp_path / "home", 6))[0].get_images()
    assert mm(image.width) == pytest.approx(x1 - x0, abs=0.05)
    assert mm(image.height) == pytest.approx(y1 - y0, abs=0.05)


@pytest.mark.parametrize("boxes", [6, 30])
def test_a_track_scaled_down_by_fit_keeps_the_pictures_bleed_at_true_size(tmp_path, boxes):
    # --fit shrinks a 620 mm strip onto one sheet, but a print shop's bleed is a length on the
    # paper: the picture still runs exactly the bleed past the (scaled) cut on every side
    pdf = build(tmp_path, boxes, "--bleed", f"{BLEED:g}mm", "--fit")
    [page] = pypdf.PdfReader(pdf).pages
    x0, y0, x1, y1 = trim_box(page)
    b0, b1, b2, b3 = (float(v) for v in page.bleedbox)
    assert (mm(b2 - b0), mm(b3 - b1)) == pytest.approx((x1 - x0 + 2 * BLEED, y1 - y0 + 2 * BLEED), abs=0.01)
    [image] = open_pdf(pdf)[0].get_images()
    past = (x0 - mm(image.x0), y0 - mm(image.y0), mm(image.x1) - x1, mm(image.y1) - y1)
    assert past == pytest.approx((BLEED,) * 4, abs=0.05)
    if boxes == 30:  # scaled: the footer says by how much, and the boxes are smaller than 20 mm
        assert "%" in page.extract_text() and x1 - x0 < 297


def test_each_tile_of_a_long_track_shows_its_part_of_the_picture(tmp_path):
    pdf = build(tmp_path, 30, "--bleed", f"{BLEED:g}mm")
    pages = pypdf.PdfReader(pdf).pages
    assert len(pages) >= 3  # a 620 mm strip
    shown = open_pdf(pdf)
    seen = []
    for page, drawn in zip(pages, shown, strict=True):
        x0, y0, x1, y1 = trim_box(page)
        pix = drawn.get_pixmap(DPI)
        seen.append(colours(pix, (x0, y0, x1, y1)))
        # the tile's bleed carries the picture beyond its cut on every side (under the track's
        # lines and texts, which run on into it too: at the sides, the band above the boxes)
        for side in ((x0, y0 - 2.0, x1, y0 - 1.0), (x0, y1 + 1.0, x1, y1 + 2.0)):
            red, blue = colours(pix, side)
            assert red + blue > 0.6 * 39 * 9, side
        for side in ((x0 - 2.0, y0, x0 - 1.0, y0 + 8.0), (x1 + 1.0, y0, x1 + 2.0, y0 + 8.0)):  # by the title
            red, blue = colours(pix, side)
            assert red + blue > 0.6 * 39 * 9, side
    red, blue = seen[0]
    assert red > 10 * max(blue, 1)  # the first tile: the picture's left half
    red, blue = seen[-1]
    assert blue > 10 * max(red, 1)  # the last: its right half


def test_a_bad_background_picture_is_one_line_naming_the_key(tmp_path):
    folder = tmp_path / "defs"
    (folder / "art").mkdir(parents=True)
    (folder / "tracks.toml").write_text(GAME.format(path='"1", "2"', picture="none.png"))
    result = pnp("build", "tracks", "--layouts", str(folder), "--out", str(tmp_path / "out"))
    assert result.returncode == 3
    line = one_line_error(result)
    assert "tracks.toml: components.strip.background_image" in line and "none.png: no such file" in line
    assert not (tmp_path / "out" / "tracks").exists()


@pytest.mark.parametrize("bleed", [0.0, BLEED])
@pytest.mark.parametrize("boxes", [6, 30])
def test_the_layout_check_measures_nothing_against_the_picture(tmp_path, bleed, boxes):
    build(tmp_path, boxes)
    toml = tmp_path / "defs" / "tracks.toml"
    found = [
        str(f) for f in layout_findings(kit_plan(load_definition(str(toml)), options=Options(bleed=bleed)))
    ]
    toml.write_text(toml.read_text().replace('background_image = "art/halves.png"', ""))
    bare = [
        str(f) for f in layout_findings(kit_plan(load_definition(str(toml)), options=Options(bleed=bleed)))
    ]
    assert found == bare  # the picture adds no finding (a 620 mm strip's seams are the tiler's own)
    if boxes == 6:
        assert found == []
