"""``pnp build GAME --gutter-fold``: the parts with a back printed front and back side by side on
one side of a sheet, a dashed fold line between, for a printer without duplex.

Read back from the page model and from kit.pdf: every front's cut box mirrored about the fold line
is its back's box (to 0.1 mm), so the fold lays each back behind its front; every part with a back
is on a gutter-fold sheet exactly once and no sheet of parts has a backs page; the fronts keep to their
half and the backs to the other, clear of the fold; the layout check passes on every gutter-fold
sheet; the guide names the fold; bad combinations are one line, exit 2. Over the starter kit, the
examples (a deck of cards with backs, a piecepack of tiles and coins with backs) and every built-in
kit, on A4 and Letter, with and without --bleed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.components.base import Options
from generator.components.kinds import KINDS
from generator.definitions.loader import find_definition
from generator.definitions.values import BUILTIN_GAMES
from generator.foundation.errors import UsageError
from generator.kits.kit import component_outputs, print_pages
from generator.kits.plan import kit_plan
from generator.model.page import Drawing, Line
from generator.printing.gutter import FOLD, FOLD_GAP, plan_gutter
from generator.printing.imposition import SheetItem
from generator.printing.job import Part, Sheet, job_sheets
from generator.printing.layout_check import check_pages
from generator.printing.packing import Block
from tests.conftest import ROOT, mm, starter_layouts
from tests.foundation.test_cli import one_line_error, pnp
from tests.pdf_reader import open_pdf

EXAMPLES = Path(ROOT) / "examples"
TOLERANCE = 0.1  # mm
GREY = (0x9A / 255,) * 3  # the printed cut lines (imposition.CUT): 0.2 mm grey
CUT_WIDTH = 0.2
WITH_BACKS = {"french-deck": str(EXAMPLES / "french-deck"), "piecepack": str(EXAMPLES / "piecepack")}


def layouts_of(game: str) -> str | None:
    """Return the layouts folder of a game (None: a built-in game)."""
    return starter_layouts() if game == "lanterns" else WITH_BACKS.get(game)


def job(game: str, paper: str = "a4", bleed: float = 0.0, gutter: bool = True) -> list[Sheet]:
    """Return the print job's sheets of a kit as kit.pdf prints them, with --gutter-fold (or
    duplex, as a kit is built without it)."""
    definition = find_definition(game, layouts_of(game))
    options = Options(bleed=bleed, single_sided=gutter, gutter_fold=gutter)
    kit = kit_plan(definition, paper=paper, options=options)
    outputs = component_outputs(kit.definition, kit.context())
    parts = [
        Part(
            c,
            KINDS[definition.component(c).kind].stock,
            print_pages(o, kit.paper, "en"),
            o.booklet,
            o.items or (),
        )
        for c, o in outputs
        if o.in_kit
    ]
    return job_sheets(parts, kit.paper, gutter, "en", definition.title, bleed=bleed, gutter_fold=gutter)


def backed_pieces(sheets: list[Sheet]) -> int:
    """Return how many parts with a back a duplex job prints: the cut boxes on its backs pages."""
    return sum(len(s.back.cuts) for s in sheets if s.is_packed and s.back is not None)


def close(a: tuple[float, ...], b: tuple[float, ...], tol: float = TOLERANCE) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def check_sheets(sheets: list[Sheet], name: str, bleed: float) -> int:
    """Check every gutter-fold sheet of a job; return how many parts with a back they hold."""
    pairs = 0
    for sheet in sheets:
        # no parts' backs page (a record's second page may still follow its first)
        assert not sheet.is_packed or sheet.back is None, f"{name}: {sheet.front.label} has a backs page"
        fold = sheet.fold
        if fold is None:
            continue
        page = sheet.front
        middle = page.width / 2 if fold.edge == "long" else page.height / 2
        assert fold.at == pytest.approx(middle)
        assert fold.pairs, page.label
        cuts = list(page.cuts)
        for front, back in fold.pairs:
            assert close(fold.mirror(front), back), (name, page.label, front, back)
            assert any(close(front, c, 1e-6) for c in cuts) and any(close(back, c, 1e-6) for c in cuts)
            # the fronts on their half (left, or top), the backs on the other, clear of the fold
            lo, hi = (0, 2) if fold.edge == "long" else (1, 3)
            assert front[hi] + bleed <= fold.at - FOLD_GAP + 1e-6, (page.label, front)
            assert back[lo] - bleed >= fold.at + FOLD_GAP - 1e-6, (page.label, back)
        # the dashed fold line runs along the middle
        lines = [s for s in page.shapes if isinstance(s, Line) and s.style == FOLD]
        assert len(lines) == 1
        [line] = lines
        at = (line.x1, line.x2) if fold.edge == "long" else (line.y1, line.y2)
        assert at == pytest.approx((fold.at, fold.at))
        pairs += len(fold.pairs)
    return pairs


@pytest.mark.parametrize(
    "game, paper, bleed",
    [("french-deck", "a4", 0.0), ("piecepack", "letter", 3.0)]
    + [
        pytest.param(game, paper, bleed, marks=pytest.mark.slow)
        for game in ("lanterns", "french-deck", "piecepack", *BUILTIN_GAMES)
        for paper in ("a4", "letter")
        for bleed in (0.0, 3.0)
        if (game, paper, bleed) not in (("french-deck", "a4", 0.0), ("piecepack", "letter", 3.0))
    ],
)
def test_every_back_lies_behind_its_front_after_the_fold(game, paper, bleed):
    sheets = job(game, paper, bleed)
    # every part that a duplex kit prints with a back is on a gutter-fold sheet, once
    assert check_sheets(sheets, f"{game} {paper}", bleed) == backed_pieces(job(game, paper, bleed, False))
    folded = [s.front for s in sheets if s.fold is not None]
    if game in WITH_BACKS:
        assert folded
    # contrast is checked under --ink-saver only, as the kit's own layout check does
    assert check_pages(folded, f"{game} {paper}", contrast=False, safe=2.0 if bleed else 0.0) == []


def test_the_fold_follows_the_parts_size():
    # poker cards go three to a half either way: the long fold; the piecepack's tiles and coins
    # fit more to a half across the sheet
    assert {s.fold.edge for s in job("french-deck") if s.fold} == {"long"}
    assert {s.fold.edge for s in job("piecepack") if s.fold} == {"short"}


@pytest.mark.parametrize("game", ["french-deck", "piecepack"])
def test_the_guide_says_how_to_fold_and_glue_and_passes_the_layout_check(game):
    from generator.printing.guide import guide_pages

    definition = find_definition(game, layouts_of(game))
    kit = kit_plan(definition, options=Options(single_sided=True, gutter_fold=True))
    sheets = job(game)
    pages = guide_pages(kit.context(), sheets, True)
    assert check_pages(pages, f"{game} guide", contrast=False) == []
    words = " ".join(" ".join(t.text for t in texts(page)) for page in pages)
    words = " ".join(words.split())
    assert "gutter-fold" in words and "glue" in words
    for edge in {s.fold.edge for s in sheets if s.fold}:
        assert ("down the long middle" if edge == "long" else "across the short middle") in words


def texts(page) -> list:
    """Return every Text shape of a page, however deep in its groups."""
    from generator.model.page import Text, iter_shapes

    return [shape for shape, _ in iter_shapes(page.shapes) if isinstance(shape, Text)]


def test_a_part_larger_than_half_a_sheet_is_refused_in_one_line():
    from generator.printing.imposition import find_paper

    big = SheetItem(Drawing(150.0, 180.0, ()), back=Drawing(150.0, 180.0, ()))
    with pytest.raises(UsageError) as raised:
        plan_gutter([Block(big, "boards")], find_paper("a4"))
    message = str(raised.value)
    assert "\n" not in message and "--gutter-fold" in message and "150 x 180 mm" in message
    small = SheetItem(Drawing(150.0, 100.0, ()), back=Drawing(150.0, 100.0, ()))
    assert [edge for edge, _ in plan_gutter([Block(small, "tiles")], find_paper("a4"))] == ["short"]


def grey_rects(page) -> list[tuple[float, float, float, float]]:
    """Return the grey cut rectangles kit.pdf prints on a page, in mm."""
    found = []
    for drawing in page.get_drawings():
        colour = drawing["color"]
        if colour is None or not close(colour, GREY, 0.05) or abs(mm(drawing["width"]) - CUT_WIDTH) > 0.02:
            continue
        for item in drawing["items"]:
            if item[0] == "re":
                r = item[1]
                x0, x1 = sorted((mm(r.x0), mm(r.x1)))
                y0, y1 = sorted((mm(r.y0), mm(r.y1)))
                found.append((x0, y0, x1, y1))
    return found


DPI = 50  # the resolution the backs' half is read at
INK = 245  # a grey pixel darker than this is ink


def ink_outside(page, fold, backs: list, bleed: float) -> int:
    """Return how many inked pixels of kit.pdf's page lie on the backs' half (past the fold's
    label, above the footer) outside every back's box grown by its bleed and a pixel; fail when a
    back's box holds no ink at all."""
    pix = page.get_pixmap(dpi=DPI, gray=True)
    step = 25.4 / DPI
    grow = bleed + 1.5 * step
    height = mm(page.rect.height)
    inked = [0] * len(backs)
    outside = 0
    for j in range(pix.height):
        y = (j + 0.5) * step
        if y > height - 12.0 or (fold.edge == "long" and y < 9.0):
            continue  # the footer; the fold's label in the top margin
        row = pix.samples[j * pix.stride : j * pix.stride + pix.width]
        for i, value in enumerate(row):
            if value >= INK:
                continue
            x = (i + 0.5) * step
            if (x if fold.edge == "long" else y) < fold.at + FOLD_GAP - 0.5:
                continue  # the fronts' half, the fold line and its label
            hits = [
                n
                for n, (x0, y0, x1, y1) in enumerate(backs)
                if x0 - grow <= x <= x1 + grow and y0 - grow <= y <= y1 + grow
            ]
            for n in hits:
                inked[n] += 1
            outside += not hits
    assert all(inked), "a back's box on kit.pdf holds no ink"
    return outside


BUILDS = {"a4": ("a4", None), "letter-bleed": ("letter", "3mm")}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """The starter kit and the examples built with --gutter-fold, on A4, and on Letter with a
    bleed of 3 mm."""
    outs = {}
    for name, (paper, bleed) in BUILDS.items():
        out = outs[name] = tmp_path_factory.mktemp(f"gutter-{name}")
        for game in ("lanterns", *WITH_BACKS):
            extra = ("--bleed", bleed) if bleed else ()
            args = ("build", game, "--layouts", layouts_of(game), "--gutter-fold", "--paper", paper, *extra)
            result = pnp(*args, "--format", "pdf", "--out", str(out), "-q")
            assert result.returncode == 0, result.stderr
    return outs


@pytest.mark.slow
@pytest.mark.parametrize("build", BUILDS)
@pytest.mark.parametrize("game", ["lanterns", *WITH_BACKS])
def test_kit_pdf_prints_the_fronts_cut_lines_and_the_fold_and_the_guide_names_it(built, game, build):
    paper, bleed_text = BUILDS[build]
    bleed = 3.0 if bleed_text else 0.0
    folder = built[build] / game
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["kit"]["print"] == "single-sided"
    sheets = manifest["kit"]["sheets"]
    assert all(s["sides"] == "single" for s in sheets)
    model = [s for s in job(game, paper, bleed) if s.fold is not None]
    listed = [s for s in sheets if "fold" in s]
    assert [s["fold"] for s in listed] == [s.fold.edge for s in model]
    if game in WITH_BACKS:
        assert listed
    doc = open_pdf(folder / "kit.pdf")
    assert len(doc) == sheets[-1]["pages"][-1]  # single-sided: no blank pages
    guide = doc[0].get_text()
    for entry, sheet in zip(listed, model):
        page = doc[entry["pages"][0] - 1]
        assert (mm(page.rect.width), mm(page.rect.height)) == pytest.approx(
            (sheet.front.width, sheet.front.height), abs=0.01
        )
        fold = sheet.fold
        rects = grey_rects(page)
        backs = [back for _, back in fold.pairs]
        # every front's printed cut lines, mirrored about the fold, are its back's box
        fronts = [r for r in rects if any(close(r, f) for f, _ in fold.pairs)]
        assert fronts, entry
        for r in fronts:
            assert any(close(fold.mirror(r), b) for b in backs), (entry, r)
        # no cut line on the backs' half: the parts are cut from the fronts
        for r in rects:
            assert (r[2] if fold.edge == "long" else r[3]) < fold.at, (entry, r)
        assert "fold" in page.get_text()
        # the backs' half prints nothing but the backs, each inside its box (and bleed)
        assert ink_outside(page, fold, backs, bleed) == 0, entry
        named = "down the long middle" if fold.edge == "long" else "across the short middle"
        assert named in " ".join(guide.split())
    if listed:
        assert "gutter-fold" in guide and "glue" in guide


def test_gutter_fold_makes_the_job_single_sided_and_takes_single_sided_too(tmp_path):
    from generator.kits.plan import BuildRequest, make_plan

    plans = [
        make_plan(BuildRequest(games=("barricades",), out=str(tmp_path), gutter_fold=True, single_sided=both))
        for both in (False, True)
    ]
    options = [plan.games[0].kit.options for plan in plans]
    assert options[0] == options[1] and options[0].single_sided and options[0].gutter_fold
    plain = make_plan(BuildRequest(games=("barricades",), out=str(tmp_path)))
    assert not plain.games[0].kit.options.gutter_fold


@pytest.mark.parametrize(
    "extra, says",
    [
        ({"duplex_offset": "1,0"}, "--duplex-offset"),
        ({"export": ("cut",), "formats": ("pdf",)}, "--export cut"),
    ],
)
def test_a_bad_combination_is_refused_by_the_plan_in_one_line(tmp_path, extra, says):
    from generator.kits.plan import BuildRequest, make_plan

    with pytest.raises(UsageError) as raised:
        make_plan(BuildRequest(games=("barricades",), out=str(tmp_path / "out"), gutter_fold=True, **extra))
    message = str(raised.value)
    assert "\n" not in message and "--gutter-fold" in message and says in message


@pytest.mark.slow
def test_gutter_fold_and_single_sided_build_the_same_kit(tmp_path):
    for name, extra in (("a", ()), ("b", ("--single-sided",))):
        args = ("build", "piecepack", "--layouts", WITH_BACKS["piecepack"], "--gutter-fold", *extra)
        result = pnp(*args, "--format", "pdf", "--out", str(tmp_path / name), "-q")
        assert result.returncode == 0, result.stderr
    assert (tmp_path / "a/piecepack/kit.pdf").read_bytes() == (tmp_path / "b/piecepack/kit.pdf").read_bytes()


@pytest.mark.slow
def test_a_deck_too_large_for_half_a_sheet_is_one_line_exit_2_and_writes_nothing(tmp_path):
    import re
    import shutil

    layouts = tmp_path / "big"
    shutil.copytree(WITH_BACKS["french-deck"], layouts)
    toml = layouts / "french-deck.toml"
    text, count = re.subn(r'(?m)^size = "poker"$', 'size = "120mm x 160mm"', toml.read_text())
    assert count == 1
    toml.write_text(text)
    out = tmp_path / "out"
    result = pnp(
        "build",
        "french-deck",
        "--layouts",
        str(layouts),
        "--gutter-fold",
        "--format",
        "pdf",
        "--out",
        str(out),
        "-q",
    )
    assert result.returncode == 2
    line = one_line_error(result)
    assert "--gutter-fold" in line and "120 x 160 mm" in line and "half a sheet" in line
    assert not (out / "french-deck").exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    "args, says",
    [
        (["--duplex-offset", "1,0"], "--duplex-offset"),
        (["--export", "cut", "--format", "pdf"], "--export cut"),
    ],
)
def test_a_bad_combination_is_one_line_exit_2_and_writes_nothing(tmp_path, args, says):
    out = tmp_path / "out"
    result = pnp("build", "barricades", "--gutter-fold", *args, "--out", str(out), "-q")
    assert result.returncode == 2
    line = one_line_error(result)
    assert "--gutter-fold" in line and says in line
    assert not out.exists()


def test_a_part_turned_on_the_sheet_has_its_back_turned_the_other_way():
    """A card turned a quarter turn clockwise (its top to the right) is folded over the long middle
    (a mirror left to right): its back, turned a quarter turn the other way, shows its top to the
    left, which is the card's top once the card is turned over on its own long side."""
    from generator.model.page import Rect, bounds
    from generator.printing.packing import turned

    mark = Rect(0.0, 0.0, 10.0, 5.0)  # in the card's top left corner, front and back alike
    card = SheetItem(Drawing(60.0, 90.0, (mark,)), back=Drawing(60.0, 90.0, (mark,)))
    item = turned(Block(card, "deck")).item
    assert (item.front.width, item.front.height) == (90.0, 60.0)
    assert item.back is not None and (item.back.width, item.back.height) == (90.0, 60.0)
    assert bounds(item.front.shapes) == pytest.approx((85.0, 0.0, 90.0, 10.0))  # top right
    assert bounds(item.back.shapes) == pytest.approx((0.0, 50.0, 5.0, 60.0))  # bottom left
    # mirrored about the vertical line through the card, the back's corner lies behind the front's
    # corner turned over its top edge: both on the card's top edge, at opposite ends
    x0, y0, x1, y1 = bounds(item.back.shapes)
    assert (90.0 - x1, y0, 90.0 - x0, y1) == pytest.approx((85.0, 50.0, 90.0, 60.0))


def pdf_box(page, name: str) -> tuple[float, float, float, float]:
    """Return a pypdf page's box in mm from its top left corner (x0, y0, x1, y1)."""
    box, height = page[name], float(page.mediabox.height)
    left, bottom, right, top = (float(v) for v in box)
    return (mm(left), mm(height - top), mm(right), mm(height - bottom))


@pytest.mark.parametrize(
    "game, paper",
    [("piecepack", "letter")]  # the fast tier's case; the French deck's 52 cards are slow
    + [
        pytest.param(game, paper, marks=pytest.mark.slow)
        for game in ("lanterns", "french-deck", "piecepack")
        for paper in ("a4", "letter")
        if (game, paper) != ("piecepack", "letter")
    ],
)
def test_under_bleed_a_gutter_sheets_trimbox_is_its_flat_trim_folded_onto_the_parts(game, paper):
    """A print shop trims a gutter-fold sheet flat, to its TrimBox, and it is then folded and the
    parts cut through both layers: the TrimBox is both halves (the fronts, the fold gap, the backs),
    its middle on the fold line, so that folded edge to edge it lies exactly on the fronts' cut
    lines' bounding box (the finished parts); the BleedBox is it grown by the bleed, holding every
    front and back with its bleed and the fold line across it. Read back with pypdf and PDFium."""
    import io

    import pypdf

    from generator.render.pdf import write_pdf

    bleed = 3.0
    sheets = [s for s in job(game, paper, bleed) if s.fold is not None]
    assert sheets
    for sheet in sheets:
        fold = sheet.fold
        assert fold is not None
        buffer = io.BytesIO()
        write_pdf([sheet.front], buffer, "gutter", boxes=True)
        [page] = pypdf.PdfReader(io.BytesIO(buffer.getvalue())).pages
        trim, bled = pdf_box(page, "/TrimBox"), pdf_box(page, "/BleedBox")
        assert close(bled, (trim[0] - bleed, trim[1] - bleed, trim[2] + bleed, trim[3] + bleed), 0.01)
        lo, hi = (0, 2) if fold.edge == "long" else (1, 3)
        assert (trim[lo] + trim[hi]) / 2 == pytest.approx(fold.at, abs=0.01), sheet.front.label
        # the fronts' printed cut lines, read from the page: their bounding box and its mirror about
        # the fold make the TrimBox (the TrimBox folded on its middle is the fronts' box)
        [shown] = list(open_pdf(buffer.getvalue()))
        fronts = [r for r in grey_rects(shown) if r[hi] < fold.at]
        assert fronts
        box = (
            min(r[0] for r in fronts),
            min(r[1] for r in fronts),
            max(r[2] for r in fronts),
            max(r[3] for r in fronts),
        )
        back = fold.mirror(box)  # where the fronts' bounding box lies once unfolded: the backs'
        flat = (min(box[0], back[0]), min(box[1], back[1]), max(box[2], back[2]), max(box[3], back[3]))
        assert close(flat, trim, TOLERANCE), (sheet.front.label, flat, trim)
        # every front and back, with its bleed, inside the BleedBox; the fold line runs across it
        for front, back in fold.pairs:
            for part in (front, back):
                grown = (part[0] - bleed, part[1] - bleed, part[2] + bleed, part[3] + bleed)
                assert all(grown[i] >= bled[i] - 1e-3 for i in (0, 1))
                assert all(grown[i] <= bled[i] + 1e-3 for i in (2, 3))
        [line] = [s for s in sheet.front.shapes if isinstance(s, Line) and s.style == FOLD]
        across = (line.y1, line.y2) if fold.edge == "long" else (line.x1, line.x2)
        other = (1, 3) if fold.edge == "long" else (0, 2)
        assert min(across) <= bled[other[0]] and max(across) >= bled[other[1]]
