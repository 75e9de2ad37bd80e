"""Print options every game honours: --ink-saver leaves no large or dark fills."""

from __future__ import annotations

import os

import pymupdf
import pytest

from generator.components.look import luminance
from generator.definitions import BUILTIN_GAMES
from tests.conftest import build

PALE = 0.12  # no pale tint covers more than 12% of a page,
LARGE = 0.02  # no other filled shape more than 2%,
DARK = 0.003  # and no dark one more than 0.3% (rules and lines under 2 mm thick do not count)
GAMES = sorted(BUILTIN_GAMES)


@pytest.fixture(scope="module")
def ink_saver_kits(tmp_path_factory) -> str:
    out = str(tmp_path_factory.mktemp("ink"))
    build(out, ink_saver=True, formats=["pdf"])
    return out


def fills(page: pymupdf.Page):
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
        for number, page in enumerate(pymupdf.open(os.path.join(folder, name)), 1):
            for colour, share in fills(page):
                if colour == "#ffffff":
                    continue
                where = f"{name} page {number}: {colour} covers {share:.1%}"
                assert share <= (PALE if luminance(colour) >= 0.9 else LARGE), where
                if luminance(colour) < 0.5:
                    assert share <= DARK, where
