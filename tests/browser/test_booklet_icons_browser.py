"""Icons in booklet.html, in headless Chromium, light and dark: each sits in its line between the
words around it, one line high, a symbol painted in the colour of its paragraph (which the dark
setting changes) or in its own."""

from __future__ import annotations

import pytest

from tests.booklet.test_booklet_icons import new_game
from tests.browser.chromium import Browser, find_chromium
from tests.foundation.test_cli import pnp

CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")

MEASURE = r"""
(() => {
  const p = [...document.querySelectorAll('p')].find((e) => e.textContent.startsWith('Pay 2'));
  const size = parseFloat(getComputedStyle(p).fontSize);
  const words = [];
  const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest('svg')) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) words.push([r.left, r.top, r.right, r.bottom]);
  }
  const icons = [...p.querySelectorAll('span.icon')].map((span) => {
    const r = span.getBoundingClientRect();
    const shape = span.querySelector('path, polygon, circle, rect, image');
    return {name: span.querySelector('svg').getAttribute('aria-label'), box: [r.left, r.top, r.right, r.bottom],
            fill: shape ? getComputedStyle(shape).fill : ''};
  });
  return {size, colour: getComputedStyle(p).color, words, icons};
})()
"""


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    root = new_game(tmp_path_factory.mktemp("browser-icons") / "game")
    result = pnp("build", "mygame", "--layouts", str(root / "layouts"), "--out", str(root / "out"))
    assert result.returncode == 0, result.stderr
    return root / "out" / "mygame" / "booklet.html"


@pytest.mark.parametrize("dark", [False, True])
def test_icons_sit_in_their_line_in_the_text_colour(page, dark):
    browser = Browser(CHROMIUM)
    try:
        with browser.page(page.as_uri(), 375, dark=dark) as tab:
            seen = tab.evaluate(MEASURE)
    finally:
        browser.close()
    size, words = seen["size"], seen["words"]
    assert [icon["name"] for icon in seen["icons"]] == ["coin", "star", "star"]
    for icon in seen["icons"]:
        left, top, right, bottom = icon["box"]
        assert bottom - top == pytest.approx(size, abs=1)  # one line high
        # on a line of text: some run of the paragraph spans its height, and none overlaps it
        line = [w for w in words if w[1] <= (top + bottom) / 2 <= w[3]]
        assert line, icon
        assert not any(w[0] < right - 0.5 and left + 0.5 < w[2] for w in line), icon
        assert any(w[2] <= left + 0.5 for w in line) and any(right - 0.5 <= w[0] for w in line)
    star, red = seen["icons"][1], seen["icons"][2]
    assert star["fill"] == seen["colour"]  # the paragraph's colour, light or dark
    assert red["fill"] == "rgb(204, 0, 0)"
