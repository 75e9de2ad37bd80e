"""The Nine Men's Morris kit as a player gets it: files, sizes, manifest, index, determinism."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from generator.games import find_rules
from generator.games.examples import notation
from tests.conftest import build, mm, svg_root
from tests.pdf_reader import Document, open_pdf

PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def pdf(path: str) -> Document:
    return open_pdf(path)


@pytest.mark.parametrize("fixture,paper", [("nmm_kit", "a4"), ("nmm_kit_letter", "letter")])
def test_every_page_is_on_the_chosen_paper(request, fixture, paper):
    folder = request.getfixturevalue(fixture)
    w, h = PAPER[paper]
    for name in ("board.pdf", "pieces.pdf", "scoresheet.pdf", "kit.pdf"):
        for page in pdf(os.path.join(folder, name)):
            size = sorted((mm(page.rect.width), mm(page.rect.height)))
            assert size == pytest.approx(sorted((w, h)), abs=0.1), name


def test_kit_holds_every_component_page(nmm_kit):
    manifest = json.load(open(os.path.join(nmm_kit, "manifest.json")))
    pages = {f["name"]: f["pages"] for f in manifest["files"]}
    kit = manifest["kit"]
    ranges = {c["id"]: c["pages"] for c in kit["components"]}
    assert {"board", "pieces", "scoresheet", "booklet"} <= set(ranges)
    assert pages["kit.pdf"] == 2 * len(kit["sheets"]) == len(pdf(os.path.join(nmm_kit, "kit.pdf")))
    first, last = ranges["booklet"]
    # the booklet's A5 pages, padded to a multiple of four, two to a side of a sheet
    assert last - first + 1 == 2 * -(-pages["booklet.pdf"] // 4)


def test_manifest_lists_every_file_with_its_hash(nmm_kit):
    manifest = json.load(open(os.path.join(nmm_kit, "manifest.json")))
    assert manifest["game"] == "nine-mens-morris" and manifest["paper"] == "a4" and manifest["seed"] is None
    assert manifest["pnp_version"]
    on_disk = sorted(n for n in os.listdir(nmm_kit) if n != "manifest.json")
    assert sorted(f["name"] for f in manifest["files"]) == on_disk
    for f in manifest["files"]:
        data = open(os.path.join(nmm_kit, f["name"]), "rb").read()
        assert hashlib.sha256(data).hexdigest() == f["sha256"]


def test_board_has_24_points_and_fills_the_page(nmm_kit):
    root = svg_root(os.path.join(nmm_kit, "board.svg"))
    circles = [c for c in root.iter("{http://www.w3.org/2000/svg}circle")]
    assert len(circles) == 24
    page = pdf(os.path.join(nmm_kit, "board.pdf"))[0]
    frame = max((d for d in page.get_drawings() if d.get("fill")), key=lambda d: d["rect"].width)
    assert mm(frame["rect"].width) >= 170  # fills an A4 page's width
    labels = {w[4] for w in page.get_text("words")}
    assert set("abcdefg") <= labels and set("1234567") <= labels


def test_pieces_sheet_has_eleven_men_a_side(nmm_kit):
    page = pdf(os.path.join(nmm_kit, "pieces.pdf"))[0]
    words = [w[4] for w in page.get_text("words")]
    assert words.count("White") == 11 and words.count("Black") == 11


def test_men_are_round_and_true_to_size(nmm_kit):
    page = pdf(os.path.join(nmm_kit, "pieces.pdf"))[0]
    discs = [d for d in page.get_drawings() if d.get("fill") and {i[0] for i in d["items"]} == {"c"}]
    big = [d for d in discs if mm(d["rect"].width) > 15]
    assert len(big) == 22
    for d in big:
        assert mm(d["rect"].width) == pytest.approx(20.0, abs=0.1)


def test_cut_lines_lie_outside_the_pieces(nmm_kit):
    page = pdf(os.path.join(nmm_kit, "pieces.pdf"))[0]
    discs = [
        d["rect"]
        for d in page.get_drawings()
        if d.get("fill") and {i[0] for i in d["items"]} == {"c"} and mm(d["rect"].width) > 15
    ]
    lines = [d for d in page.get_drawings() if not d.get("fill") and d.get("color") == (0.0, 0.0, 0.0)]
    for d in lines:
        for item in d["items"]:
            if item[0] == "l":
                p = item[1]
                for disc in discs:
                    inside = disc.x0 < p.x < disc.x1 and disc.y0 < p.y < disc.y1
                    assert not inside


def test_scoresheet_has_numbered_rows_and_a_notation_key(nmm_kit):
    page = pdf(os.path.join(nmm_kit, "scoresheet.pdf"))[0]
    text = page.get_text()
    key = notation(find_rules("nine-mens-morris"), None)["moves"]  # the examples on this board
    assert "White" in text and "Black" in text and key["move"] in text and key["place_take"] in text
    words = [w[4] for w in page.get_text("words")]
    assert "1" in words and "70" in words


def test_every_svg_is_true_size_and_matches_the_pdf_page_count(nmm_kit):
    manifest = json.load(open(os.path.join(nmm_kit, "manifest.json")))
    pages = {f["name"]: f["pages"] for f in manifest["files"]}
    for stem in ("board", "pieces", "scoresheet"):
        svgs = [n for n in pages if n.startswith(stem) and n.endswith(".svg")]
        assert len(svgs) == pages[f"{stem}.pdf"]
        for name in svgs:
            root = svg_root(os.path.join(nmm_kit, name))
            assert root.get("width").endswith("mm") and root.get("height").endswith("mm")


def test_index_links_the_kit(nmm_kit):
    index = open(os.path.join(os.path.dirname(nmm_kit), "index.html"), encoding="utf-8").read()
    assert (
        "Nine Men" in index and "nine-mens-morris/board.svg" in index and "nine-mens-morris/kit.pdf" in index
    )


def test_two_builds_write_identical_bytes(nmm_kit, tmp_path):
    # the session's kit is the first build (the same command); this one the second
    a, b = Path(nmm_kit), tmp_path / "nine-mens-morris"
    build(str(tmp_path), "nine-mens-morris")
    names = sorted(os.listdir(a))
    assert names == sorted(os.listdir(b))
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_no_temporary_files_are_left(nmm_kit):
    assert not [n for n in os.listdir(nmm_kit) if n.startswith(".tmp")]


def test_board_pdf_and_svg_agree_to_a_tenth_of_a_millimetre(nmm_kit):
    from tests.svg_reader import painted

    root = svg_root(os.path.join(nmm_kit, "board.svg"))
    svg_centres = [p.geometry[0] for p in painted(root) if p.kind == "circle"]
    page = pdf(os.path.join(nmm_kit, "board.pdf"))[0]
    pdf_centres = [
        (mm((d["rect"].x0 + d["rect"].x1) / 2), mm((d["rect"].y0 + d["rect"].y1) / 2))
        for d in page.get_drawings()
        if {i[0] for i in d["items"]} == {"c"}
    ]
    assert len(svg_centres) == len(pdf_centres) == 24
    for a, b in zip(sorted(svg_centres), sorted(pdf_centres)):
        assert a[0] == pytest.approx(b[0], abs=0.1) and a[1] == pytest.approx(b[1], abs=0.1)
