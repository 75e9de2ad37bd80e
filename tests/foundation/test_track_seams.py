"""A track too long for one sheet is tiled, and the seams (the cut edge of a tile laid over its
neighbour's glue strip) pass between its texts: read back from the PDF as a viewer draws it, no
glyph of a box number (nor of any other text) crosses a seam, the tile's cut edge or the glue
strip's edge on the next tile. Over every track of every kit (the built-in games and the starter)
at box sizes that make it tile, and over long one-lane tracks of one to three digits at 12 to 20 mm
boxes, on A4 and Letter (the papers pnp prints on), with and without a bleed."""

from __future__ import annotations

import ctypes
import io

import pypdfium2.raw as raw
import pytest

from generator.components.base import Options
from generator.definitions.loader import load_definition
from generator.definitions.values import templates_for
from generator.foundation.errors import UsageError
from generator.kits.kit import component_outputs
from generator.kits.plan import kit_plan
from generator.model.page import Page
from generator.render.pdf import write_pdf
from tests.conftest import kit_definitions
from tests.pdf_reader import open_pdf

PT = 25.4 / 72
CUT = (0x9A / 255,) * 3  # a tile's cut frame (imposition.CUT): 0.2 mm grey
GLUE = (0xF1 / 255,) * 3  # the glue strip's fill (imposition.GLUE)
GAMES = {game: d for game, d in kit_definitions().items() if any(c.kind == "track" for c in d.components)}
PAPERS = ("a4", "letter")


def track_pages(definition, paper: str, cell: float | None, bleed: float) -> list[list[Page]]:
    """Return the pages of each track of a kit built on ``paper`` with boxes of ``cell`` mm (None:
    its own size) and the bleed (none when the kit refuses the cell size)."""
    try:
        kit = kit_plan(definition, paper=paper, options=Options(cell_size=cell, bleed=bleed))
    except UsageError:
        return []
    tracks = {c.id for c in definition.components if c.kind == "track"}
    return [list(o.pages) for _, o in component_outputs(kit.definition, kit.context()) if o.name in tracks]


def glyph_boxes(data: bytes) -> list[list[tuple[str, tuple[float, float, float, float]]]]:
    """Return, page by page, every character of a PDF with its glyph's box (mm, from the top left)."""
    import pypdfium2 as pdfium

    found = []
    document = pdfium.PdfDocument(data)
    for page in document:
        height = page.get_height()
        text = page.get_textpage()
        chars = []
        for i in range(text.count_chars()):
            code = raw.FPDFText_GetUnicode(text, i)
            if not code or chr(code).isspace():
                continue
            left, right, bottom, top = (ctypes.c_double() for _ in range(4))
            raw.FPDFText_GetCharBox(text, i, *(ctypes.byref(v) for v in (left, right, bottom, top)))
            chars.append(
                (
                    chr(code),
                    (
                        left.value * PT,
                        (height - top.value) * PT,
                        right.value * PT,
                        (height - bottom.value) * PT,
                    ),
                )
            )
        text.close()
        found.append(chars)
    document.close()
    return found


def close(a, b, tol: float = 0.02) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


Seam = tuple[str, float, float, float]  # "x" or "y", where, and the span it runs along (mm)


def seams(page) -> list[Seam]:
    """Return the seams a tile of kit.pdf shows (mm): its cut frame's right and bottom edges where
    a neighbour follows (the footer says so), and the inner edge of each glue strip, where the
    previous tile's cut edge lies, each along the tile's frame."""
    frame = None
    glue = []
    for drawing in page.get_drawings():
        for item in drawing["items"]:
            if item[0] != "re":
                continue
            r = item[1]
            box = (r.x0 * PT, r.y0 * PT, r.x1 * PT, r.y1 * PT)
            if (
                drawing["color"] is not None
                and close(drawing["color"], CUT, 0.01)
                and drawing["fill"] is None
            ):
                frame = box
            elif drawing["fill"] is not None and close(drawing["fill"], GLUE, 0.01):
                glue.append(box)
    assert frame is not None
    x0, y0, x1, y1 = frame
    words = " ".join(page.get_text().split())
    row, rows = map(int, words.split("tile row ")[1].split(",")[0].split("/"))
    column, columns = map(int, words.split("column ")[1].split(":")[0].split("/"))
    found: list[Seam] = []
    if column < columns:
        found.append(("x", x1, y0, y1))
    if row < rows:
        found.append(("y", y1, x0, x1))
    for _, h0, g1, h1 in glue:
        if close((h0, h1), (y0, y1), 0.3):  # the strip down the left side
            found.append(("x", g1, y0, y1))
        else:  # along the top
            found.append(("y", h1, x0, x1))
    assert len(found) >= 1
    return found


def crossings(pages: list[Page]) -> tuple[int, list[str]]:
    """Return how many tiles a track's pages are and every glyph of theirs that a seam crosses."""
    buffer = io.BytesIO()
    write_pdf(pages, buffer, "track")
    data = buffer.getvalue()
    doc = open_pdf(data)
    tiles = 0
    crossed = []
    for number, (page, chars) in enumerate(zip(doc, glyph_boxes(data)), 1):
        if "tile row" not in page.get_text():
            continue
        tiles += 1
        for axis, at, lo, hi in seams(page):
            for char, (x0, y0, x1, y1) in chars:
                across, along = ((x0, x1), (y0, y1)) if axis == "x" else ((y0, y1), (x0, x1))
                if across[0] < at < across[1] and along[1] > lo and along[0] < hi:
                    crossed.append(
                        f"page {number}: {char!r} at {x0:.1f},{y0:.1f}-{x1:.1f},{y1:.1f} mm crossed by "
                        f"the seam {axis} = {at:.1f}"
                    )
    return tiles, crossed


@pytest.mark.parametrize("bleed", [0.0, 3.0])
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_seam_of_a_kits_tiled_track_crosses_a_glyph(game, paper, bleed):
    tiled = 0
    crossed = []
    for cell in (None, 30.0, 45.0, 60.0):
        for pages in track_pages(GAMES[game], paper, cell, bleed):
            tiles, found = crossings(pages)
            tiled += tiles
            crossed += [f"{game} {paper} box {cell}: {line}" for line in found]
    assert tiled, f"{game}: no tiled track to check"
    assert not crossed, "\n".join(crossed[:20])


def long_tracks(tmp_path):
    """Return a definition of one-lane tracks too long for a sheet: 1 to 3 digits, 12 to 20 mm."""
    tables = []
    for n, (first, count, box) in enumerate(
        ((1, 30, "20mm"), (1, 60, "12mm"), (95, 40, "16mm"), (1, 120, "12mm"))
    ):
        path = ", ".join(f'"{i}"' for i in range(first, first + count))
        tables.append(
            f'[components.t{n}]\nkind = "track"\npath = [{path}]\nbox = "{box}"\n'
            'start_label = "START"\nfinish_label = "HOME"\ncaption = "Move on one box a point."\n'
        )
    path = tmp_path / "tracks.toml"
    path.write_text('[game]\nid = "tracks"\ntitle = "Tracks"\nplayers = "2"\n\n' + "\n".join(tables))
    return load_definition(str(path), templates_for(str(tmp_path)))


@pytest.mark.parametrize("bleed", [0.0, 3.0])
@pytest.mark.parametrize("paper", PAPERS)
def test_no_seam_of_a_long_one_lane_track_crosses_a_glyph(tmp_path, paper, bleed):
    definition = long_tracks(tmp_path)
    tiled = 0
    crossed = []
    for pages in track_pages(definition, paper, None, bleed):
        tiles, found = crossings(pages)
        assert tiles >= 2
        tiled += tiles
        crossed += found
    assert not crossed, "\n".join(crossed[:20])
