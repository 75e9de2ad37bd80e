"""Hex counters tessellate on their edges: read back from the built sheets, every hex's six edges
are cut lines, an edge two hexes share is one cut, no square is cut round a hex, each back lies
behind its front after a long-edge flip, and under --bleed every hex lies apart with its own cut
and its fill running past it; the layout check passes over every such sheet."""

from __future__ import annotations

import math

import pytest

from generator.components.base import Options
from generator.definitions.loader import load_definition
from generator.definitions.values import templates_for
from generator.kits.kit import layout_findings
from generator.kits.plan import kit_plan
from tests.foundation.test_cli import pnp
from tests.svg_reader import read_svg

GAME = """
[game]
id = "hexes"
title = "Hexes"
players = "2"

[components.pieces]
kind = "counters"
title = "Pieces"
{counters}
"""
FRONT, BACK, OTHER = "#d8e6f0", "#2f4f2f", "#f0d8d8"
CUT = "#9a9a9a"


def write(tmp_path, shape: str, orientation: str, count: int, size: str = "20mm") -> None:
    """Write a definition with ``count`` hex counters (front FRONT, back BACK) of one shape and
    orientation, and round counters beside them."""
    counters = (
        f'[[components.pieces.counters]]\nname = "Unit"\ncount = {count}\nshape = "{shape}"\n'
        f'orientation = "{orientation}"\nsize = "{size}"\nfill = "{FRONT}"\ntext = "3"\nlabel = "Foot"\n'
        f'[components.pieces.counters.back]\nfill = "{BACK}"\ntext = "2"\n'
        f'[[components.pieces.counters]]\nname = "Coin"\ncount = 7\nfill = "{OTHER}"\ntext = "1"\n'
    )
    layouts = tmp_path / "layouts"
    layouts.mkdir(exist_ok=True)
    (layouts / "hexes.toml").write_text(GAME.format(counters=counters))


def build(tmp_path, *extra: str):
    out = tmp_path / "out"
    result = pnp(
        "build",
        "hexes",
        "--layouts",
        "layouts",
        "--out",
        str(out),
        "--format",
        "svg",
        *extra,
        cwd=str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    pages = sorted((out / "hexes").glob("pieces-*.svg"), key=lambda p: int(p.stem.split("-")[1]))
    return [read_svg(p.read_text()) for p in pages]


def points(p) -> list[tuple[float, float]]:
    sub = p.geometry[0]
    pts = [sub.start] + [s[-1] for s in sub.segments]
    return pts[:-1] if len(pts) > 2 and math.dist(pts[0], pts[-1]) < 1e-6 else pts


def hexes(painted, fill: str) -> list[list[tuple[float, float]]]:
    """Return the corners of every six-cornered shape filled with ``fill``."""
    return [
        points(p)
        for p in painted
        if p.kind == "subpath" and dict(p.paint).get("fill") == fill and len(points(p)) == 6
    ]


def cut_segments(painted) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    found = []
    for p in painted:
        if p.kind == "subpath" and dict(p.paint).get("stroke") == CUT:
            pts = points(p)
            closed = p.geometry[0].closed or len(pts) > 2
            found += list(zip(pts, pts[1:] + (pts[:1] if closed else [])))
    return found


def same(e, f, tol: float = 0.02) -> bool:
    """True when two segments join the same two points (either way round)."""
    (a, b), (c, d) = e, f
    return (math.dist(a, c) < tol and math.dist(b, d) < tol) or (
        math.dist(a, d) < tol and math.dist(b, c) < tol
    )


def times_cut(edge, cuts) -> int:
    """Return how many cut lines run along an edge."""
    return sum(same(edge, cut) for cut in cuts)


def unique(edges) -> list:
    kept: list = []
    for e in edges:
        if not any(same(e, k) for k in kept):
            kept.append(e)
    return kept


def centre(corners) -> tuple[float, float]:
    return (sum(x for x, _ in corners) / 6, sum(y for _, y in corners) / 6)


CASES = [("hex", "flat", 30), ("hex", "pointy", 30), ("hexagon", "flat", 12), ("hex", "flat", 90)]


@pytest.mark.parametrize(("shape", "orientation", "count"), CASES)
def test_hex_counters_share_their_cut_lines(tmp_path, shape, orientation, count):
    write(tmp_path, shape, orientation, count)
    sheets = build(tmp_path)
    fronts = [page for page in sheets if hexes(page, FRONT)]
    assert sum(len(hexes(page, FRONT)) for page in fronts) == count
    for page in fronts:
        faces = hexes(page, FRONT)
        cuts = cut_segments(page)
        edges = unique([(a, b) for c in faces for a, b in zip(c, c[1:] + c[:1])])
        for edge in edges:
            assert times_cut(edge, cuts) == 1, edge  # every hex edge is one cut line, shared or not
        shared = 6 * len(faces) - len(edges)
        assert shared > 0 if len(faces) > 1 else shared == 0  # neighbours share their edges
        # no square is cut round a hex: the grey rectangles left are the round counters' cells
        for corners in faces:
            cx, cy = centre(corners)
            for p in page:
                if p.kind == "subpath" and dict(p.paint).get("stroke") == CUT and len(points(p)) == 4:
                    xs, ys = [x for x, _ in points(p)], [y for _, y in points(p)]
                    assert not (min(xs) < cx < max(xs) and min(ys) < cy < max(ys))


@pytest.mark.parametrize(("shape", "orientation", "count"), CASES[:3])
def test_each_hex_back_lies_behind_its_front_after_a_long_edge_flip(tmp_path, shape, orientation, count):
    write(tmp_path, shape, orientation, count)
    sheets = build(tmp_path)
    width = 210.0  # A4: a long-edge flip mirrors left and right
    checked = 0
    for i, page in enumerate(sheets):
        fronts = hexes(page, FRONT)
        if not fronts:
            continue
        backs = [centre(c) for c in hexes(sheets[i + 1], BACK)]
        assert len(backs) == len(fronts)
        for corners in fronts:
            x, y = centre(corners)
            assert min(math.dist((width - x, y), b) for b in backs) < 0.05
            checked += 1
    assert checked == count


def test_under_bleed_every_hex_has_its_own_bleed_and_cut(tmp_path):
    bleed = 3.0
    write(tmp_path, "hex", "flat", 20)
    sheets = build(tmp_path, "--bleed", f"{bleed:g}mm")
    faces = [c for page in sheets for c in hexes(page, FRONT)]
    across = 20.0
    cuts = [c for c in faces if abs(max(y for _, y in c) - min(y for _, y in c) - across) < 0.05]
    bled = [c for c in faces if abs(max(y for _, y in c) - min(y for _, y in c) - across - 2 * bleed) < 0.05]
    assert len(cuts) == 20 and len(bled) == 20  # each face, and its fill grown by the bleed
    for page in sheets:
        own = hexes(page, FRONT)
        trims = [c for c in own if abs(max(y for _, y in c) - min(y for _, y in c) - across) < 0.05]
        cuts = cut_segments(page)
        for c in trims:  # its own six cut lines, shared with no other hex
            for a, b in zip(c, c[1:] + c[:1]):
                assert times_cut((a, b), cuts) == 1
        centres = [centre(c) for c in trims]
        for a, b in ((a, b) for i, a in enumerate(centres) for b in centres[i + 1 :]):
            assert math.dist(a, b) >= across + 2 * bleed - 0.05  # gutters of twice the bleed


@pytest.mark.parametrize(("shape", "orientation"), [("hex", "flat"), ("hex", "pointy"), ("hexagon", "flat")])
def test_the_layout_check_passes_over_tessellated_hexes(tmp_path, shape, orientation):
    write(tmp_path, shape, orientation, 45, "16mm")
    path = tmp_path / "layouts" / "hexes.toml"
    definition = load_definition(str(path), templates_for(str(tmp_path / "layouts")))
    findings = []
    for paper, options in (
        ("a4", Options()),
        ("letter", Options(ink_saver=True)),
        ("a4", Options(bleed=3.0)),
    ):
        findings += layout_findings(kit_plan(definition, paper=paper, options=options))
    assert not findings, "\n".join(map(str, findings[:20]))
