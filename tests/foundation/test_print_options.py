"""Print options every game honours: --ink-saver leaves no large or dark fills."""

from __future__ import annotations

import os

import pytest

from generator.components.look import luminance
from generator.definitions.values import BUILTIN_GAMES
from tests.conftest import build
from tests.pdf_reader import Page, open_pdf

PALE = 0.12  # no pale tint covers more than 12% of a page,
LARGE = 0.02  # no other filled shape more than 2%,
DARK = 0.003  # and no dark one more than 0.3% (rules and lines under 2 mm thick do not count)
GAMES = sorted(BUILTIN_GAMES)


@pytest.fixture(scope="module")
def ink_saver_kits(tmp_path_factory) -> str:
    out = str(tmp_path_factory.mktemp("ink"))
    build(out, ink_saver=True, formats=["pdf"])
    return out


def fills(page: Page):
    area = page.rect.width * page.rect.height
    for d in page.get_drawings():
        colour = d.get("fill")
        if colour is None or d.get("fill_opacity", 1) == 0:
            continue
        hexcolour = "#{:02x}{:02x}{:02x}".format(*tuple(round(c * 255) for c in colour[:3]))
        if min(d["rect"].width, d["rect"].height) < 2 * 72 / 25.4:
            continue
        share = d["rect"].width * d["rect"].height / area
        yield hexcolour, share


@pytest.mark.parametrize("game", GAMES)
def test_ink_saver_has_no_large_or_dark_fills(ink_saver_kits, game):
    folders = [f for f in os.listdir(ink_saver_kits) if f == game or f.startswith(game + "-seed")]
    assert folders, f"{game} was not built"
    folder = os.path.join(ink_saver_kits, folders[0])
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".pdf") or name == "kit.pdf":
            continue
        for number, page in enumerate(open_pdf(os.path.join(folder, name)), 1):
            for colour, share in fills(page):
                if colour == "#ffffff":
                    continue
                where = f"{name} page {number}: {colour} covers {share:.1%}"
                assert share <= (PALE if luminance(colour) >= 0.9 else LARGE), where
                if luminance(colour) < 0.5:
                    assert share <= DARK, where


def _parts(game: str, paper: str, ink: bool):
    """Yield (output name, shape, matrix) for every leaf shape on the cut-out part sheets."""
    from generator.components.base import Options
    from generator.definitions.loader import find_definition
    from generator.definitions.values import LAYOUTS_DIR
    from generator.kits.kit import component_outputs
    from generator.kits.plan import kit_plan
    from generator.model.page import iter_shapes

    definition = find_definition(game, LAYOUTS_DIR, "en")
    kit = kit_plan(definition, paper=paper, options=Options(ink_saver=ink))
    for _, output in component_outputs(kit.definition, kit.context()):
        if output.items:
            for page in output.pages:
                for shape, m in iter_shapes(page.shapes):
                    yield output.name, shape, m


def _filled_area(shape, m) -> float:
    """Return a filled rectangle's, circle's or polygon's area in mm² on the page (0 for others)."""
    from generator.model.page import Circle, Polygon, Rect

    k = abs(m[0] * m[3] - m[1] * m[2])
    if not isinstance(shape, (Rect, Circle, Polygon)) or shape.style.fill is None:
        return 0.0
    if isinstance(shape, Rect):
        return 0.0 if min(shape.w, shape.h) < 2 else shape.w * shape.h * k
    if isinstance(shape, Circle):
        return 3.14159 * shape.r**2 * k
    if isinstance(shape, Polygon) and len(shape.points) > 2:
        pts = shape.points
        return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]))) / 2 * k
    return 0.0


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_ink_saver_parts_keep_no_large_coloured_fill(game, paper):
    """Under --ink-saver a piece, die, standee or card face larger than a symbol is white (or
    a pale tint, luminance 0.9 or more): a coloured face becomes an outline in its colour."""
    from generator.printing.layout_check import MARK_AREA

    found = set()
    for name, shape, m in _parts(game, paper, ink=True):
        if _filled_area(shape, m) > MARK_AREA:
            if luminance(shape.style.fill) < 0.9:
                found.add(f"{name}: {type(shape).__name__} filled {shape.style.fill}")
    assert not found, sorted(found)


def test_the_rule_finds_the_coloured_faces_of_a_plain_build():
    """Without the ink saver the same walk finds South's orange dice faces (so the test can fail)."""
    from generator.printing.layout_check import MARK_AREA

    fills = {
        shape.style.fill
        for name, shape, m in _parts("push", "a4", ink=False)
        if name == "dice" and _filled_area(shape, m) > MARK_AREA
    }
    assert any(luminance(c) < 0.9 for c in fills)


def test_ink_saver_dark_dice_are_framed_in_their_colour_with_pips_in_it():
    """West's dark dice print as white faces in a thick frame of West's colour, their white pips
    turned to that colour (3:1 or more on white), and hatching knocked out round each pip."""
    from generator.model.colour import contrast_ratio
    from generator.model.page import Circle, Line, Rect

    west = "#1f5f7a"  # push.toml's West colour
    frames = pips = hatching = 0
    for name, shape, _ in _parts("push", "a4", ink=True):
        if name != "dice":
            continue
        if isinstance(shape, Rect) and shape.style.stroke == west and shape.style.width >= 1.0:
            frames += 1
        if isinstance(shape, Circle) and shape.style.fill == west:
            pips += 1
            assert contrast_ratio(west, "#ffffff") >= 3.0
        if isinstance(shape, Line) and shape.style.stroke == west:
            hatching += 1
    assert frames == 6 * 6  # six West dice, six faces each
    assert pips == 6 * 21  # 1 + 2 + ... + 6 pips a die
    assert hatching > frames
