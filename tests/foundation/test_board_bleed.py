"""A board's background picture and the print shop's bleed, read back from the PDF (TrimBox, the
images' placement, pixels). A picture that fills the board to its cut (the point board's, behind
its whole rounded frame) runs the bleed past the trim on every side, at its true length: on a
board at true size, on each tile of a board tiled over sheets, and on a board scaled onto one
sheet by ``--fit`` (the scale shrinks the board, not the shop's bleed). A picture cut to the
squares or hexes (grid and hex boards) stays inside the board's white rim, which is what reaches
the cut, so it has no bleed to keep."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest

from tests.hostile.helpers import cli
from tests.pdf_reader import mm, near, open_pdf, trim_box

GREEN = (0, 158, 115)
WHITE = (255, 255, 255)
BLEED = 3.0
DPI = 100
GAME = """
[game]
id = "boards"
title = "Boards"
players = "2"
"""
BOARDS = """
[components.points-{name}]
kind = "point-board"
size = "{points}"
background_image = "art/green.png"
background_fit = "{fit}"
points = {{ a = [0, 0], b = [2, 0], c = [1, 2] }}
lines = [["a", "b"], ["b", "c"]]

[components.grid-{name}]
kind = "grid-board"
files = {files}
ranks = {files}
cell = "{cell}"
labels = false
title_on_board = false
background_image = "art/green.png"
background_fit = "{fit}"

[components.hexes-{name}]
kind = "hex-board"
columns = {files}
rows = {files}
cell = "{cell}"
labels = false
title_on_board = false
background_image = "art/green.png"
background_fit = "{fit}"
"""
# each board kind small enough for one A4 sheet, and large enough to be tiled or scaled by --fit
SIZES = {"small": ("100mm", 4, "25mm"), "large": ("400mm", 8, "40mm")}


COVER = """
[components.cover-large]
kind = "point-board"
size = "400mm"
background_image = "art/green.png"
background_fit = "cover"
points = { a = [0, 0], b = [2, 0], c = [1, 2] }
lines = [["a", "b"], ["b", "c"]]
"""


@pytest.fixture(scope="module")
def boards(tmp_path_factory) -> dict[str, Path]:
    """Build the boards (pictures stretched, and a large point board's picture covering it)
    under --bleed 3mm, with and without --fit; return the kits' folders by option."""
    from PIL import Image

    root = tmp_path_factory.mktemp("boards")
    layouts = root / "layouts"
    (layouts / "art").mkdir(parents=True)
    Image.new("RGB", (90, 60), GREEN).save(layouts / "art" / "green.png")
    boards = (
        BOARDS.format(name=k, points=p, files=n, cell=c, fit="stretch") for k, (p, n, c) in SIZES.items()
    )
    (layouts / "boards.toml").write_text(GAME + "".join(boards) + COVER)
    built = {}
    for option in ("--fit", "true-size"):
        out = root / option.strip("-")
        extra = ("--fit",) if option == "--fit" else ()
        run = cli(
            "build", "boards", "--layouts", str(layouts), "--out", str(out), "--parts", "--format", "pdf",
            "--bleed", f"{BLEED:g}mm", "-q", *extra,
        )  # fmt: skip
        assert run.code == 0, run.err
        built[option] = out / "boards"
    return built


@pytest.mark.parametrize("option", ["--fit", "true-size"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_picture_filling_the_board_runs_the_bleed_past_its_trim_at_true_size(boards, option, size):
    pdf = boards[option] / f"points-{size}.pdf"
    pages = pypdf.PdfReader(pdf).pages
    shown = open_pdf(str(pdf))
    scaled = option == "--fit" and size == "large"
    assert (len(pages) == 1) == (option == "--fit" or size == "small")  # else tiled
    if scaled:  # the board is scaled down: its footer says by how much, and it is smaller than drawn
        assert "%" in pages[0].extract_text()
        assert trim_box(pages[0])[2] - trim_box(pages[0])[0] < 300
    for page, seen in zip(pages, shown, strict=True):
        x0, y0, x1, y1 = trim_box(page)
        b0, b1, b2, b3 = (float(v) for v in page.bleedbox)
        assert (mm(b2 - b0), mm(b3 - b1)) == pytest.approx(
            (x1 - x0 + 2 * BLEED, y1 - y0 + 2 * BLEED), abs=0.01
        )
        [image] = seen.get_images()
        if len(pages) == 1:  # the whole picture: exactly the bleed past the trim on every side
            past = (x0 - mm(image.x0), y0 - mm(image.y0), mm(image.x1) - x1, mm(image.y1) - y1)
            assert past == pytest.approx((BLEED,) * 4, abs=0.05)
        # whole board or a tile of it: the picture shows (it is not clipped at the cut) halfway
        # into the bleed beyond the middle of every side of the trim
        pix = seen.get_pixmap(DPI)
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        for x, y in ((mx, y0 - BLEED / 2), (mx, y1 + BLEED / 2), (x0 - BLEED / 2, my), (x1 + BLEED / 2, my)):
            assert near(pix.pixel(round(x / 25.4 * DPI), round(y / 25.4 * DPI)), GREEN), (size, option, x, y)


@pytest.mark.parametrize("option", ["--fit", "true-size"])
def test_a_covering_picture_bleeds_at_true_size_too(boards, option):
    # cover: the picture fills the board grown by the bleed (cut to it), whatever its proportions
    pdf = boards[option] / "cover-large.pdf"
    for page, seen in zip(pypdf.PdfReader(pdf).pages, open_pdf(str(pdf)), strict=True):
        x0, y0, x1, y1 = trim_box(page)
        pix = seen.get_pixmap(DPI)
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        for x, y in ((mx, y0 - BLEED / 2), (mx, y1 + BLEED / 2), (x0 - BLEED / 2, my), (x1 + BLEED / 2, my)):
            assert near(pix.pixel(round(x / 25.4 * DPI), round(y / 25.4 * DPI)), GREEN), (option, x, y)
        for x, y in ((mx, y0 - BLEED - 1.0), (x0 - BLEED - 1.0, my)):  # and no further than the bleed
            assert near(pix.pixel(round(x / 25.4 * DPI), round(y / 25.4 * DPI)), WHITE), (option, x, y)


@pytest.mark.parametrize("option", ["--fit", "true-size"])
@pytest.mark.parametrize("kind", ["grid", "hexes"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_picture_cut_to_squares_or_hexes_stays_inside_the_boards_rim(boards, option, kind, size):
    pdf = boards[option] / f"{kind}-{size}.pdf"
    pages = pypdf.PdfReader(pdf).pages
    for page, seen in zip(pages, open_pdf(str(pdf)), strict=True):
        x0, y0, x1, y1 = trim_box(page)
        [image] = seen.get_images()
        if len(pages) > 1:  # a tile of the board: its part of the picture runs on over its seams
            continue
        assert x0 < mm(image.x0) and y0 < mm(image.y0) and mm(image.x1) < x1 and mm(image.y1) < y1
        pix = seen.get_pixmap(DPI)
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        for x, y in ((mx, y0 - BLEED / 2), (mx, y1 + BLEED / 2), (x0 - BLEED / 2, my), (x1 + BLEED / 2, my)):
            assert near(pix.pixel(round(x / 25.4 * DPI), round(y / 25.4 * DPI)), WHITE), (kind, x, y)
