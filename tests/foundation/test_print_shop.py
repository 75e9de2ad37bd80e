"""Print-shop output on every kit (the built-in games and the starter kit `pnp new` writes): --bleed (trim and bleed boxes, gutters, crop marks outside the
bleed), --cmyk (only CMYK colour operators in the PDFs' content streams) and --png (one PNG per
face and board, of the right pixel size, with the resolution in its pHYs chunk). Every kit is built
once for the module and read back; bad option values fail in one line with nothing written."""

from __future__ import annotations

import importlib.util
import json
import os
import struct
import sys

import pypdf
import pytest
from pypdf.generic import ContentStream
from typer.testing import CliRunner

from generator.cli.app import app
from generator.components.base import Options
from generator.components.kinds import KINDS, context
from generator.definitions.loader import find_definition, load_definition
from generator.kits.kit import component_outputs, png_faces
from generator.kits.plan import effective_seed, kit_folder
from generator.model.colour import cmyk
from generator.model.page import Line, Page, Text, apply, iter_shapes
from generator.printing.imposition import MARK, SAFE_AREA, bled, find_paper
from generator.printing.job import Part, job_pages, job_sheets
from generator.printing.layout_check import check_pages, check_safe_area
from generator.render.png import pixel_size
from tests.conftest import ROOT, STARTER, build, kit_definitions, starter_layouts
from tests.foundation.test_golden import CASES, KITS

BLEED = 3.0
DPI = 72  # low, to keep the suite fast; the pixel sizes are checked the same way at any resolution
PT = 72 / 25.4
GAMES = kit_definitions()  # the built-in games and the starter kit `pnp new` writes
COLOUR_OPERATORS = {b"rg", b"RG", b"g", b"G", b"k", b"K", b"cs", b"CS", b"sc", b"SC", b"scn", b"SCN"}


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> str:
    """Every kit built as for a print shop: 3 mm bleed, CMYK, PNGs."""
    out = str(tmp_path_factory.mktemp("shop"))
    build(out, formats=["pdf", "svg"], bleed="3mm", cmyk=True, png=str(DPI), jobs=2)
    build(
        out, STARTER, layouts=starter_layouts(), formats=["pdf", "svg"], bleed="3mm", cmyk=True, png=str(DPI)
    )
    return out


def golden_definition(game: str):
    """Return a built-in game's definition, or a golden kit's for '@name'."""
    if game.startswith("@"):
        return load_definition(os.path.join(KITS, game[1:] + ".toml"))
    return find_definition(game)


def kit_dir(out: str, game: str) -> str:
    definition = GAMES[game]
    return os.path.join(out, kit_folder(definition, effective_seed(definition, None)))


def pdfs(folder: str) -> list[str]:
    return sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".pdf"))


def box(page, name: str) -> list[float]:
    assert name in page, f"no {name}"
    return [float(v) for v in page[name]]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_page_has_trim_and_bleed_boxes_a_bleed_apart(shop, game):
    bled_pages = 0
    for path in pdfs(kit_dir(shop, game)):
        for number, page in enumerate(pypdf.PdfReader(path).pages, 1):
            where = f"{os.path.basename(path)} page {number}"
            trim, bleed, media = (
                box(page, "/TrimBox"),
                box(page, "/BleedBox"),
                [float(v) for v in page.mediabox],
            )
            assert media[0] <= bleed[0] <= trim[0] and trim[2] <= bleed[2] <= media[2], where
            assert media[1] <= bleed[1] <= trim[1] and trim[3] <= bleed[3] <= media[3], where
            if trim == media:  # printed whole (booklet, guide, a sheet of records): no cut, no bleed
                assert bleed == media, where
                continue
            bled_pages += 1
            grown = [trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3]]
            assert grown == pytest.approx([BLEED * PT] * 4, abs=0.001), where
    assert bled_pages, "no page of the kit has cut-out parts"


def colour_operations(path: str):
    reader = pypdf.PdfReader(path)
    for number, page in enumerate(reader.pages, 1):
        for operands, operator in ContentStream(page.get_contents(), reader).operations:
            if operator in COLOUR_OPERATORS:
                yield (
                    number,
                    operator,
                    [float(v) for v in operands if not isinstance(v, pypdf.generic.NameObject)],
                )


@pytest.mark.parametrize("game", sorted(GAMES))
def test_cmyk_pdfs_use_only_cmyk_colour(shop, game):
    seen: set[bytes] = set()
    for path in pdfs(kit_dir(shop, game)):
        for number, operator, operands in colour_operations(path):
            seen.add(operator)
            assert operator in (b"k", b"K"), f"{os.path.basename(path)} page {number}: {operator!r}"
            assert len(operands) == 4 and all(0 <= v <= 1 for v in operands)
    assert seen == {b"k", b"K"}


def test_black_text_is_pure_black_ink_and_greys_are_black_ink_alone(shop):
    assert cmyk("#000000") == (0, 0, 0, 1)
    for grey in ("#9a9a9a", "#555555", "#f1f1f1", "#ffffff"):
        c, m, y, k = cmyk(grey)
        assert (c, m, y) == (0, 0, 0) and k == pytest.approx(1 - int(grey[1:3], 16) / 255, abs=0.001)
    # black (the pieces' black ink and labels, the crop marks) prints as 0 0 0 1, the near-black
    # body text of the booklet as black ink alone, and nothing as four-colour black
    for game in ("nine-mens-morris", "centennial"):
        path = os.path.join(kit_dir(shop, game), "kit.pdf")
        inks = {(op, tuple(o)) for _, op, o in colour_operations(path)}
        assert (b"k", (0.0, 0.0, 0.0, 1.0)) in inks and (b"K", (0.0, 0.0, 0.0, 1.0)) in inks
        assert not any(c > 0 and m > 0 and y > 0 and k > 0.5 for _, (c, m, y, k) in inks)


def test_svgs_stay_rgb(shop):
    folder = kit_dir(shop, "barricades")
    with open(os.path.join(folder, "soldiers.svg"), encoding="utf-8") as handle:
        text = handle.read()
    assert "#" in text and "cmyk" not in text.lower() and "device-cmyk" not in text


def png_info(path: str) -> tuple[int, int, int, int]:
    """Return width, height, colour type and pixels per metre (x) of a PNG, from its chunks."""
    with open(path, "rb") as handle:
        data = handle.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, {}
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        chunks[data[at + 4 : at + 8]] = data[at + 8 : at + 8 + length]
        at += 12 + length
    width, height, _, colour_type = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    ppm_x, ppm_y, unit = struct.unpack(">IIB", chunks[b"pHYs"])
    assert ppm_x == ppm_y and unit == 1
    return width, height, colour_type, ppm_x


@pytest.mark.parametrize("game", sorted(GAMES))
def test_one_png_per_face_and_board_of_the_right_size(shop, game):
    definition = GAMES[game]
    folder = kit_dir(shop, game)
    paper = find_paper("a4", definition.paper["margin"])
    options = Options(bleed=BLEED, cmyk=True, png_dpi=DPI)
    ctx = context(definition, paper, effective_seed(definition, None), frozenset(), options)
    faces = png_faces(component_outputs(definition, ctx))
    assert faces
    written = sorted(os.listdir(os.path.join(folder, "png")))
    assert written == sorted(f"{name}.png" for name, _ in faces)
    for name, drawing in faces:
        art = bled(drawing, BLEED)
        assert art.width == pytest.approx(drawing.width + 2 * BLEED)
        width, height, colour_type, ppm = png_info(os.path.join(folder, "png", f"{name}.png"))
        assert (width, height) == pixel_size(art.width, art.height, DPI), name
        assert colour_type == 2 and ppm == round(DPI / 0.0254)
    with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as handle:
        manifest = json.load(handle)
    listed = {f["name"] for f in manifest["files"]}
    assert {f"png/{n}" for n in written} <= listed
    assert manifest["png"] == {"dpi": DPI, "folder": "png"}


def test_barricades_done_when(tmp_path):
    """The issue's command: boxes 3 mm apart, CMYK only, PNGs of the right size at 300 dpi."""
    out = str(tmp_path)
    result = CliRunner().invoke(
        app, ["build", "barricades", "--seed", "3", "--bleed", "3mm", "--cmyk", "--png", "300", "--out", out]
    )
    assert result.exit_code == 0, result.output
    folder = os.path.join(out, "barricades-seed3")
    kit = pypdf.PdfReader(os.path.join(folder, "kit.pdf"))
    cut = [p for p in kit.pages if box(p, "/TrimBox") != [float(v) for v in p.mediabox]]
    assert cut
    for page in cut:
        trim, bleed = box(page, "/TrimBox"), box(page, "/BleedBox")
        assert [t - b for t, b in zip(trim[:2], bleed[:2])] == pytest.approx([3 * PT] * 2, abs=0.001)
    assert {op for _, op, _ in colour_operations(os.path.join(folder, "kit.pdf"))} == {b"k", b"K"}
    width, _, _, ppm = png_info(os.path.join(folder, "png", "soldiers-red-pistolier-front.png"))
    # a standee strip is 15 mm x 2 (base + panel) and gets 3 mm round it
    spec = GAMES["barricades"].component("soldiers")
    assert width == round((spec["width"] + 6) * 300 / 25.4)
    assert ppm == round(300 / 0.0254)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_packed_parts_have_gutters_and_crop_marks_outside_the_bleed(game):
    definition = GAMES[game]
    paper = find_paper("a4", definition.paper["margin"])
    ctx = context(definition, paper, effective_seed(definition, None), frozenset(), Options(bleed=BLEED))
    parts = [
        Part(cid, "card", tuple(o.pages), o.booklet, tuple(o.items or ()))
        for cid, o in component_outputs(definition, ctx)
        if o.in_kit
    ]
    pages = job_pages(job_sheets(parts, paper, bleed=BLEED), paper)
    for page in (p for p in pages if p.cuts):
        assert page.bleed == BLEED
        grown = [(x0 - BLEED, y0 - BLEED, x1 + BLEED, y1 + BLEED) for x0, y0, x1, y1 in page.cuts]
        for i, a in enumerate(grown):
            assert a[0] >= 6.5 - 1e-6 and a[2] <= page.width - 6.5 + 1e-6, page.label
            for b in grown[i + 1 :]:
                apart = max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])
                assert apart >= -1e-6, f"{page.label}: bleeds overlap"

        def meets(line, boxes) -> bool:
            (ax, ay), (bx, by) = line
            return any(
                x0 < max(ax, bx) and min(ax, bx) < x1 and y0 < max(ay, by) and min(ay, by) < y1
                for x0, y0, x1, y1 in boxes
            )

        lines = [
            (apply(m, s.x1, s.y1), apply(m, s.x2, s.y2))
            for s, m in iter_shapes(page.shapes)
            if isinstance(s, Line) and s.style == MARK
        ]
        marks = [line for line in lines if not meets(line, page.cuts)]  # the rest is the parts' art
        assert marks or page.is_back, page.label
        for line in marks:
            assert not meets(line, grown), f"{page.label}: crop mark {line} in a bleed"


@pytest.mark.parametrize(
    "args,message",
    [
        (["--bleed", "50mm"], "--bleed must be more than 0 and at most 6.35 mm"),
        (["--bleed", "abc"], "--bleed: expected a length"),
        (["--bleed", "0mm"], "--bleed must be more than 0"),
        (["--png", "0"], "--png takes a resolution in dpi from 72 to 600"),
        (["--png", "abc"], "--png takes a resolution"),
        (["--png", "5000"], "--png takes a resolution"),
    ],
)
def test_bad_print_shop_options_fail_in_one_line_writing_nothing(tmp_path, args, message):
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", "nine-mens-morris", "--out", str(out), *args])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.output
    assert not out.exists()


def test_png_without_the_rasteriser_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pypdfium2", None)  # import pypdfium2 now fails
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", "nine-mens-morris", "--png", "300", "--out", str(out)])
    assert result.exit_code == 2
    assert "pip install 'pnp-kits[png]'" in result.output and len(result.output.strip().splitlines()) == 1
    assert not out.exists()


@pytest.mark.parametrize(("kind", "game", "component"), CASES, ids=[c[0] for c in CASES])
def test_every_kind_honours_the_bleed(kind, game, component):
    """Every kind of cut-out part or board (those of the golden cases, so a new kind is covered as
    soon as it has its case) lays out its pages with the bleed, records its trims, gives a board's
    art for --png, and keeps its text and symbols in the safe area."""
    definition = golden_definition(game)
    paper = find_paper("a4", definition.paper["margin"])
    seed = definition.game["default_seed"] if definition.game["seeded"] else None
    ctx = context(definition, paper, seed, frozenset(), Options(bleed=BLEED))
    spec = definition.component(component)
    for output in KINDS[kind].build(spec, ctx):
        cut_out = bool(output.items) or KINDS[kind].is_board
        if KINDS[kind].is_board:
            assert output.art is not None, f"{kind} gives no art for its PNG"
        for page in output.pages:
            if cut_out:
                assert page.cuts and page.bleed == BLEED, f"{kind}: {page.label} has no trim or bleed"
            else:
                assert not page.cuts, f"{kind}: {page.label}"
        if output.items:
            findings = check_pages(output.pages, f"{kind}", contrast=False, safe=SAFE_AREA)
            assert not findings, "\n".join(str(f) for f in findings[:10])


def test_the_safe_area_check_finds_text_near_a_cut():
    page = Page(
        100, 100, [Text(11, 20, "near", 8), Text(30, 30, "clear", 8)], cuts=((10, 10, 60, 60),), bleed=3
    )
    findings = check_safe_area(page, "sheet", 2.0)
    assert [f.shape.split(" (")[0] for f in findings] == ["text 'near'"]
    assert "from the cut of its part (the safe area is 2 mm)" in findings[0].problem
    assert not check_pages([page], "sheet")  # only asked for under --bleed


def test_the_docs_cmyk_table_is_current():
    spec = importlib.util.spec_from_file_location("cmyk_table", os.path.join(ROOT, "tools", "cmyk_table.py"))
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    with open(tool.DOC, encoding="utf-8") as handle:
        doc = handle.read()
    assert f"{tool.START}\n{tool.table()}\n{tool.END}" in doc, "run tools/cmyk_table.py"
    assert "| barricades | red | `#b03a2e` | 0.0 | 67.0 | 73.9 | 31.0 |" in doc


def test_print_shop_files_are_the_same_serial_or_parallel(tmp_path):
    """Same command, same bytes: PNGs, boxes and CMYK included, one worker or two."""
    manifests = []
    for jobs in (1, 2):
        out = str(tmp_path / f"j{jobs}")
        build(out, "nine-mens-morris", "push", bleed="3mm", cmyk=True, png="72", jobs=jobs, formats=["pdf"])
        with open(os.path.join(out, "push-seed1", "manifest.json"), encoding="utf-8") as handle:
            push = json.load(handle)
        with open(os.path.join(out, "nine-mens-morris", "manifest.json"), encoding="utf-8") as handle:
            manifests.append((push["files"], json.load(handle)["files"]))
    assert manifests[0] == manifests[1]
    assert any(f["name"].startswith("png/") for f in manifests[0][0])
