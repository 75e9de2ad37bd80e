"""Every kit, on both papers: pages of the chosen size, all ink inside what home printers print,
the same bytes on a second build."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from generator.definitions.values import BUILTIN_GAMES
from generator.printing.imposition import PAPERS
from tests.conftest import build, mm
from tests.pdf_reader import Page, open_pdf

EDGE = 6.35  # mm no ink may come closer to the paper's edge than
HALF_EDGE = 6.35  # the same for the booklet's half pages (printed two to a sheet)


@pytest.fixture
def kits(every_kit) -> tuple[str, str]:
    return every_kit


def ink_boxes(page: Page):
    for d in page.get_drawings():
        width = (d.get("width") or 0) / 2
        r = d["rect"]
        yield "drawing", (r.x0 - width, r.y0 - width, r.x1 + width, r.y1 + width)
    for block in page.get_text("words"):
        yield f"text {block[4]!r}", tuple(block[:4])


def test_every_page_fits_the_paper_and_keeps_its_ink_inside_the_margin(kits):
    out, paper = kits
    short, long = sorted(PAPERS[paper])
    folders = sorted(f for f in os.listdir(out) if os.path.isdir(os.path.join(out, f)))
    assert sorted(f.split("-seed")[0] for f in folders) == sorted(BUILTIN_GAMES)
    for folder in folders:
        for name in sorted(os.listdir(os.path.join(out, folder))):
            if not name.endswith(".pdf"):
                continue
            for number, page in enumerate(open_pdf(os.path.join(out, folder, name)), 1):
                w, h = mm(page.rect.width), mm(page.rect.height)
                where = f"{folder}/{name} page {number}"
                if name == "booklet.pdf" or re.fullmatch(r"booklet\.[a-z]{2,3}\.pdf", name):
                    assert sorted((w, h)) == pytest.approx(sorted((long / 2, short)), abs=0.1), where
                    edge = HALF_EDGE
                else:
                    assert sorted((w, h)) == pytest.approx([short, long], abs=0.1), where
                    edge = EDGE
                for what, (x0, y0, x1, y1) in ink_boxes(page):
                    if x1 - x0 <= 0 and y1 - y0 <= 0:
                        continue
                    inside = (
                        mm(x0) >= edge - 0.1
                        and mm(y0) >= edge - 0.1
                        and mm(x1) <= w - edge + 0.1
                        and mm(y1) <= h - edge + 0.1
                    )
                    assert inside, (
                        f"{where}: {what} at {mm(x0):.1f},{mm(y0):.1f}-{mm(x1):.1f},{mm(y1):.1f} mm"
                    )


def test_building_everything_twice_gives_the_same_bytes(all_kits, tmp_path):
    a, b = Path(all_kits), tmp_path / "b"  # the first build: the session's, read by other tests too
    build(str(b))
    files = sorted(str(p.relative_to(a)) for p in a.rglob("*") if p.is_file())
    assert files == sorted(str(p.relative_to(b)) for p in b.rglob("*") if p.is_file())
    assert len(files) > 100
    for rel in files:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel
