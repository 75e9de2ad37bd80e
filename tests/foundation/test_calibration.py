"""The duplex calibration sheet measures true and its back mirrors its front."""

import pytest

from generator.printing.calibration import RULER, calibration_pages, targets
from generator.printing.imposition import find_paper
from tests.conftest import mm
from tests.foundation.test_cli import pnp
from tests.pdf_reader import open_pdf


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibration_sheet_measures_true(tmp_path, paper):
    result = pnp("calibrate", "--paper", paper, "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    doc = open_pdf(tmp_path / f"calibration-{paper}.pdf")
    assert len(doc) == 2
    sheet = find_paper(paper)
    for page in doc:
        assert mm(page.rect.width) == pytest.approx(sheet.width, abs=0.1)
    # the ruler's first and last ticks lie 100 mm apart
    lines = [(item[1], item[2]) for d in doc[0].get_drawings() for item in d["items"] if item[0] == "l"]
    y = max(p.y for p, q in lines if abs(p.y - q.y) < 1e-3 and mm(abs(q.x - p.x)) > 99)
    ticks = sorted(p.x for p, q in lines if abs(p.x - q.x) < 1e-3 and abs(max(p.y, q.y) - y) < 0.5)
    assert mm(ticks[-1] - ticks[0]) == pytest.approx(RULER, abs=0.05)
    assert mm(ticks[1] - ticks[0]) == pytest.approx(1.0, abs=0.02)


def test_back_crosshairs_mirror_the_front_targets():
    sheet = find_paper("a4")
    _front, back = calibration_pages(sheet)
    centres = [(s.cx, s.cy) for s in back.shapes if type(s).__name__ == "Circle"]
    expected = [(sheet.width - x, y) for x, y in targets(sheet)]
    for (x1, y1), (x2, y2) in zip(sorted(centres), sorted(expected)):
        assert (x1, y1) == pytest.approx((x2, y2))
