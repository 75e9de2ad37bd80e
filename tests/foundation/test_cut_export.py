"""``pnp build GAME --export cut``: a cut file (cut/sheet-<n>.svg) for every sheet of kit.pdf with
parts to cut, and the print-then-cut registration marks on exactly those sheets of kit.pdf.

Read back as a cutting machine's software reads them and laid over the printed sheet: every
part's outline, one closed path, lies on the cut lines kit.pdf prints (to 0.1 mm), every printed
cut line between the parts is some part's outline, the file has the page's size in millimetres,
and its marks are the marks kit.pdf prints, on A4 and Letter, with and without --bleed, for the
starter kit, every built-in kit with parts to cut and the examples."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest

from generator.components.kinds import KINDS
from generator.definitions.loader import find_definition, load_definition
from generator.definitions.values import BUILTIN_GAMES
from generator.kits.kit import component_outputs, print_pages
from generator.kits.plan import BuildRequest, kit_plan
from generator.kits.run import run_build
from generator.printing.cut import REG_CLEAR, REG_INSET, REG_LENGTH, mark_boxes, with_marks
from generator.printing.imposition import find_paper
from generator.printing.job import Part, job_sheets
from generator.printing.layout_check import check_pages
from tests.conftest import ROOT, SVG_NS, mm, shared_build, starter_layouts
from tests.foundation.test_cli import one_line_error, pnp
from tests.foundation.test_guide_exports import cut_kit
from tests.pdf_reader import open_pdf

EXAMPLES = Path(ROOT) / "examples"
TOLERANCE = 0.1  # mm
GREY = (0x9A / 255,) * 3  # the colour and width of the printed cut lines (imposition.CUT)
CUT_WIDTH = 0.2
NET = (0.3, 0.35)  # mm, the black outline of a die's net and of its glue tabs


def kinds_of(game: str, layouts: str | None = None) -> dict[str, str]:
    """Return the kind of every component of a game (built-in, or in a layouts folder)."""
    definition = find_definition(game, layouts)
    return {c.id: c.kind for c in definition.components}


def build_cut(out: Path, games: tuple[str, ...], layouts: str | None = None, **options) -> None:
    request = BuildRequest(
        games=games,
        all_games=not games,
        out=str(out),
        formats=("pdf",),
        export=("cut",),
        layouts=layouts,
        jobs=1,
        **options,
    )
    run_build(request)


def kits_in(out: Path) -> list[Path]:
    return sorted(p for p in out.iterdir() if (p / "manifest.json").is_file())


def svg_paths(path: Path) -> dict[str, list[list[tuple[float, float]]]]:
    """Return the closed polygons of the cut file's groups (cut, registration), checking that
    each path is one subpath of straight lines, closed."""
    root = ET.parse(path).getroot()
    found: dict[str, list[list[tuple[float, float]]]] = {}
    for group in root.iter(SVG_NS + "g"):
        polygons = []
        for element in group.iter(SVG_NS + "path"):
            d = element.get("d", "").split()
            assert d[0].startswith("M") and d[-1] == "Z", element.get("d")
            assert all(t.startswith("L") for t in d[1:-1]), element.get("d")  # one subpath
            polygons.append([tuple(float(v) for v in t[1:].split(",")) for t in d[:-1]])
        found[group.get("id", "")] = polygons
    return found


def close(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return all(abs(x - y) <= 0.05 for x, y in zip(a, b))


def printed_lines(page) -> tuple[list[tuple], list[tuple]]:
    """Return the printed cut lines of a kit.pdf page as segments in mm: the grey cut lines
    (rectangles round the parts, the hexes' shared edges, the crop marks) and the black
    outlines of dice nets."""
    grey, black = [], []
    for drawing in page.get_drawings():
        colour, width = drawing["color"], drawing["width"]
        if colour is None:
            continue
        if any(item[0] == "c" for item in drawing["items"]):
            continue  # a rounded frame: a cut line is straight
        if close(colour, GREY) and abs(mm(width) - CUT_WIDTH) < 0.02:
            into = grey
        elif close(colour, (0.0, 0.0, 0.0)) and any(abs(mm(width) - w) < 0.02 for w in NET):
            into = black
        else:
            continue
        for item in drawing["items"]:
            if item[0] == "re":
                r = item[1]
                corners = [(r.x0, r.y0), (r.x1, r.y0), (r.x1, r.y1), (r.x0, r.y1)]
                pts = [(mm(x), mm(y)) for x, y in corners]
                into.extend(zip(pts, pts[1:] + pts[:1]))
            elif item[0] == "l":
                into.append(((mm(item[1].x), mm(item[1].y)), (mm(item[2].x), mm(item[2].y))))
    return grey, black


def distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


class Segments:
    """Segments bucketed on a 5 mm grid, to find the nearest of many quickly."""

    def __init__(self, segments: list[tuple]) -> None:
        self.cells: dict[tuple[int, int], list[tuple]] = defaultdict(list)
        for a, b in segments:
            for i in range(int(min(a[0], b[0]) // 5) - 1, int(max(a[0], b[0]) // 5) + 2):
                for j in range(int(min(a[1], b[1]) // 5) - 1, int(max(a[1], b[1]) // 5) + 2):
                    self.cells[(i, j)].append((a, b))

    def near(self, p: tuple[float, float]) -> float:
        found = self.cells.get((int(p[0] // 5), int(p[1] // 5)), [])
        return min((distance(p, a, b) for a, b in found), default=math.inf)


def samples(a: tuple[float, float], b: tuple[float, float], step: float = 0.5) -> list[tuple[float, float]]:
    n = max(1, math.ceil(math.dist(a, b) / step))
    return [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(n + 1)]


def edges(polygon: list[tuple[float, float]]) -> list[tuple]:
    return list(zip(polygon, polygon[1:] + polygon[:1]))


def box(points) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def has_marks(page) -> bool:
    """True when a kit.pdf page prints the three registration marks: black fills where the
    marks lie."""
    width, height = mm(page.rect.width), mm(page.rect.height)
    fills = [
        tuple(mm(v) for v in (d["rect"].x0, d["rect"].y0, d["rect"].x1, d["rect"].y1))
        for d in page.get_drawings()
        if d["fill"] is not None and close(d["fill"], (0.0, 0.0, 0.0))
    ]
    d, n = REG_INSET, REG_LENGTH
    wanted = [
        mark_boxes(width, height)[0],  # the square
        (width - d - n, d, width - d, d + n),  # the L at the top right
        (d, height - d - n, d + n, height - d),  # the L at the bottom left
    ]
    return all(
        any(all(abs(f - w) < TOLERANCE for f, w in zip(fill, mark)) for fill in fills) for mark in wanted
    )


def check_kit(folder: Path, kinds: dict[str, str]) -> int:
    """Check every cut file of a kit against kit.pdf (``kinds``: each component's kind); return
    how many parts they cut."""
    manifest = json.loads((folder / "manifest.json").read_text())
    cut = manifest["kit"]["cut"]
    listed = {f["name"] for f in manifest["files"]}
    written = {f"cut/{p.name}" for p in (folder / "cut").iterdir()} if (folder / "cut").exists() else set()
    assert {c["file"] for c in cut} == written <= listed
    doc = open_pdf(folder / "kit.pdf")
    sheets = manifest["kit"]["sheets"]
    fronts = {c["page"] for c in cut}
    # the marks are on exactly the fronts of the sheets with a cut file, every packed sheet of
    # parts has one, and the backs carry none
    assert fronts == {s["pages"][0] for s in sheets if s["packed"] and s["stock"] == "card"}
    for number, page in enumerate(doc, 1):
        assert has_marks(page) == (number in fronts), f"{folder.name} page {number}"
    parts = 0
    for entry in cut:
        sheet = sheets[entry["sheet"] - 1]
        assert entry["page"] == sheet["pages"][0] and entry["file"] == f"cut/sheet-{entry['sheet']}.svg"
        page = doc[entry["page"] - 1]
        root = ET.parse(folder / entry["file"]).getroot()
        width, height = mm(page.rect.width), mm(page.rect.height)
        assert root.get("width", "").endswith("mm") and root.get("height", "").endswith("mm")
        size = (float(root.get("width", "")[:-2]), float(root.get("height", "")[:-2]))
        assert size == pytest.approx((width, height), abs=0.01)
        assert [float(v) for v in root.get("viewBox").split()] == pytest.approx(
            [0, 0, width, height], abs=0.01
        )
        groups = svg_paths(folder / entry["file"])
        outlines = groups["cut"]
        assert outlines, entry
        # the file's marks are the printed marks, clear of every part
        marks = [box(m) for m in groups["registration"]]
        assert len(marks) == 3 and marks[0] == pytest.approx(
            (REG_INSET, REG_INSET, REG_INSET + 5, REG_INSET + 5)
        )
        assert marks[1][2] == pytest.approx(width - REG_INSET) and marks[2][3] == pytest.approx(
            height - REG_INSET
        )
        grey, black = printed_lines(page)
        printed = Segments(grey + black)
        nets = any(kinds.get(p) == "dice-nets" for p in sheet["parts"])
        for outline in outlines:
            assert len(outline) >= 3
            for a, b in edges(outline):
                for p in samples(a, b):
                    assert printed.near(p) <= TOLERANCE, f"{entry['file']}: {p} is on no printed cut line"
            x0, y0, x1, y1 = box(outline)
            for mx0, my0, mx1, my1 in mark_boxes(width, height):
                assert (
                    x1 + REG_CLEAR <= mx0 + 1e-6
                    or mx1 + REG_CLEAR <= x0 + 1e-6
                    or y1 + REG_CLEAR <= my0 + 1e-6
                    or my1 + REG_CLEAR <= y0 + 1e-6
                )
        # one path a part: no outline twice
        assert len({tuple(map(tuple, o)) for o in outlines}) == len(outlines)
        parts += len(outlines)
        if nets:
            continue  # a die's net is cut along its outline, inside the grey box round it
        # every printed cut line among the parts is some part's outline (the crop marks lie
        # outside the parts' extent)
        cuts = Segments([e for o in outlines for e in edges(o)])
        ex0, ey0, ex1, ey1 = box([p for o in outlines for p in o])
        for a, b in grey:
            for p in samples(a, b):
                inside = ex0 - 0.01 <= p[0] <= ex1 + 0.01 and ey0 - 0.01 <= p[1] <= ey1 + 0.01
                if inside:
                    assert cuts.near(p) <= TOLERANCE, (
                        f"{entry['file']}: the printed cut at {p} is cut by no path"
                    )
    return parts


@pytest.fixture(scope="module")
def starter_and_examples(tmp_path_factory) -> dict[str, tuple[Path, dict[str, str]]]:
    """The starter kit and the two examples built with --export cut on A4."""
    out = tmp_path_factory.mktemp("cut")
    kits = {}
    for name, layouts in (
        ("lanterns", starter_layouts()),
        ("french-deck", str(EXAMPLES / "french-deck")),
        ("piecepack", str(EXAMPLES / "piecepack")),
    ):
        build_cut(out, (name,), layouts)
        kits[name] = (out / name, kinds_of(name, layouts))
    return kits


@pytest.mark.slow
@pytest.mark.parametrize("name", ["lanterns", "french-deck", "piecepack"])
def test_the_cut_files_of_the_starter_kit_and_the_examples_line_up_with_kit_pdf(starter_and_examples, name):
    assert check_kit(*starter_and_examples[name]) > 0


def test_a_seeded_kit_with_hexes_counters_standees_and_cards_lines_up():
    # the kit test_guide_exports.py reads (in French, with a print service's folder: the cut files
    # and kit.pdf line up whatever the language and the service)
    [folder] = kits_in(Path(cut_kit("barricades", "fr", "tgc")))
    assert check_kit(folder, kinds_of("barricades")) > 0


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [None, "3mm"])
def test_every_builtin_kit_lines_up_on_every_paper_with_and_without_bleed(paper, bleed):
    # the session's build of every kit with --export cut (test_guide_exports.py reads it too)
    out = shared_build(formats=["pdf"], export=("cut",), parts=False, jobs=2, paper=paper, bleed=bleed)
    kits = kits_in(Path(out))
    assert len(kits) == len(BUILTIN_GAMES)
    cut = [k for k in kits if json.loads((k / "manifest.json").read_text())["kit"]["cut"]]
    assert len(cut) >= 6, [k.name for k in kits]  # most kits have parts to cut
    for folder in kits:
        game = json.loads((folder / "manifest.json").read_text())["game"]
        check_kit(folder, kinds_of(game))


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_examples_line_up_on_letter_and_under_bleed(tmp_path, paper):
    for name in ("french-deck", "piecepack"):
        build_cut(tmp_path / name, (name,), str(EXAMPLES / name), paper=paper, bleed="3mm")
        check_kit(tmp_path / name / name, kinds_of(name, str(EXAMPLES / name)))


def marked_sheets(game: str, paper: str, bleed: float = 0.0):
    """Return the print job's sheets of a kit with --export cut, as kit.pdf prints them."""
    from generator.components.base import Options

    definition = load_definition(str(Path(ROOT) / "layouts" / f"{game}.toml"))
    kit = kit_plan(definition, paper=paper, options=Options(bleed=bleed), cut=True)
    outputs = component_outputs(kit.definition, kit.context(), kit.parts_context())
    parts = [
        Part(
            c,
            KINDS[kit.definition.component(c).kind].stock,
            print_pages(o, kit.paper, "en"),
            o.booklet,
            o.items or (),
        )
        for c, o in outputs
        if o.in_kit
    ]
    sheets = job_sheets(
        parts, kit.paper, False, "en", kit.definition.title, bleed=bleed, papers=kit.stock_papers()
    )
    return with_marks(sheets)


@pytest.mark.parametrize(
    "game, paper, bleed",
    [("barricades", "a4", 0.0)]
    + [
        pytest.param(game, paper, bleed, marks=pytest.mark.slow)
        for game in BUILTIN_GAMES
        for paper in ("a4", "letter")
        for bleed in (0.0, 3.0)
        if (game, paper, bleed) != ("barricades", "a4", 0.0)
    ],
)
def test_the_sheets_with_marks_pass_the_layout_check(game, paper, bleed):
    sheets = marked_sheets(game, paper, bleed)
    marked = [s.front for s in sheets if s.is_packed and s.stock == "card"]
    if not marked:
        return  # a kit with nothing to cut
    # contrast is checked under --ink-saver only, as the kit's own layout check does
    assert check_pages(marked, f"{game} {paper}", contrast=False, safe=2.0 if bleed else 0.0) == []
    # nothing else on the sheet comes near a mark: the parts, their crop marks, the footer
    for page in marked:
        marks = mark_boxes(page.width, page.height)
        for shape in page.shapes[:-1]:  # the marks are drawn last
            from generator.model.page import bounds

            found = bounds((shape,))
            if found is None:
                continue
            x0, y0, x1, y1 = found
            for mx0, my0, mx1, my1 in marks:
                apart = (
                    x1 + REG_CLEAR <= mx0
                    or mx1 + REG_CLEAR <= x0
                    or y1 + REG_CLEAR <= my0
                    or my1 + REG_CLEAR <= y0
                )
                assert apart, (page.label, shape, (mx0, my0, mx1, my1))


@pytest.mark.slow
def test_without_the_export_no_sheet_has_marks_and_no_cut_folder_is_written(tmp_path):
    run_build(BuildRequest(games=("barricades",), out=str(tmp_path), formats=("pdf",)))
    [folder] = kits_in(tmp_path)
    assert not (folder / "cut").exists()
    assert "cut" not in json.loads((folder / "manifest.json").read_text())["kit"]
    assert not any(has_marks(page) for page in open_pdf(folder / "kit.pdf"))


@pytest.mark.parametrize(
    "args, says",
    [
        (["--export", "cut", "--format", "svg"], "--export cut"),
        pytest.param(["--export", "cut,knife"], "unknown export 'knife'", marks=pytest.mark.slow),
        pytest.param(
            ["--export", "cut", "--tts-url", "https://example.org/"],
            "--tts-url applies to --export tts",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_a_bad_combination_is_one_line_exit_2_and_writes_nothing(tmp_path, args, says):
    out = tmp_path / "out"
    result = pnp("build", "barricades", *args, "--out", str(out), "-q")
    assert result.returncode == 2
    assert says in one_line_error(result)
    assert not out.exists()


@pytest.mark.slow
def test_the_cut_files_are_the_same_bytes_every_build(tmp_path):
    for run in ("a", "b"):
        build_cut(tmp_path / run, ("nine-mens-morris",))
    [a] = kits_in(tmp_path / "a")
    [b] = kits_in(tmp_path / "b")
    names = sorted(p.name for p in (a / "cut").iterdir())
    assert names and names == sorted(p.name for p in (b / "cut").iterdir())
    for name in names:
        assert (a / "cut" / name).read_bytes() == (b / "cut" / name).read_bytes()


def test_the_marks_sit_at_the_documented_distance_inside_the_paper():
    for paper in ("a4", "letter"):
        sheet = find_paper(paper)
        x0, y0, _, _ = mark_boxes(sheet.width, sheet.height)[0]
        assert (x0, y0) == (REG_INSET, REG_INSET)
    text = (Path(ROOT) / "docs" / "print-shop.md").read_text()
    assert f"{REG_INSET:g} mm" in text and "registration" in text
