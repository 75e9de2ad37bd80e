"""Every booklet.html and the kits' index.html in headless Chromium, at a phone's and a desktop's
width, light and dark: no sideways scrolling, no console errors, no request leaving the file, a text
alternative for every figure and preview, headings in order, text contrast of WCAG AA. A page that
fails its checks leaves a screenshot of its whole length in tests/browser/screenshots/ (ignored by
git) to look at; ``PNP_SCREENSHOTS=1`` keeps one of every page checked (a full-length screenshot
takes Chromium longer than loading and checking the page)."""

from __future__ import annotations

import glob
import itertools
import json
import os
import re

import pytest

from tests.browser.chromium import Browser, find_chromium
from tests.conftest import build

WIDTHS = (375, 1280)
SHOTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "screenshots")
EVERY_SHOT = os.environ.get("PNP_SCREENSHOTS", "") not in ("", "0")  # a screenshot of every page

CHROMIUM = find_chromium()
if CHROMIUM is None and os.environ.get("CI"):
    raise RuntimeError(
        "CI must run the browser tests: .ci/run installs chromium (apt-get install -y chromium)"
    )
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium on this machine (apt-get install -y chromium to run these tests)"
)

# Runs in the page: everything the checks need, measured from computed styles.
AUDIT = r"""
(() => {
  const rgb = (text) => { const m = text.match(/[\d.]+/g) || []; return m.map(Number); };
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.99)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const low = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || el.closest('svg')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none' || el.getClientRects().length === 0) continue;
    const rect = el.getBoundingClientRect();
    if (rect.right < 0 || rect.bottom < 0 && style.position === 'absolute') continue;
    const a = lum(rgb(style.color).slice(0, 3)), b = lum(background(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight) >= 700;
    const need = (size >= 24 || (bold && size >= 18.66)) ? 3 : 4.5;
    if (ratio < need) low.push(`${ratio.toFixed(2)} < ${need}: ${n.textContent.trim().slice(0, 40)}`);
  }
  const unnamed = [];
  for (const svg of document.querySelectorAll('svg')) {
    if (svg.parentElement.closest('svg')) continue;
    const name = svg.getAttribute('aria-label') || (svg.querySelector('title') || {}).textContent || '';
    if (svg.getAttribute('role') !== 'img' || !name.trim()) unnamed.push(svg.outerHTML.slice(0, 80));
  }
  for (const img of document.querySelectorAll('img')) {
    if (!(img.getAttribute('alt') || '').trim()) unnamed.push(img.outerHTML.slice(0, 80));
  }
  const wide = [];
  const width = document.documentElement.clientWidth;
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > width + 1 && !el.closest('.table')) wide.push(el.tagName + ' ' + r.right.toFixed(0));
  }
  return {
    lang: document.documentElement.lang,
    title: document.title,
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: width,
    headings: [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].map((h) => +h.tagName[1]),
    figures: document.querySelectorAll('figure').length,
    captions: [...document.querySelectorAll('figure')].filter((f) => !f.querySelector('figcaption')).length,
    tables: document.querySelectorAll('table').length,
    headerCells: document.querySelectorAll('thead th').length,
    low, unnamed, wide: wide.slice(0, 5),
  };
})()
"""


@pytest.fixture(scope="module")
def browser():
    chromium = Browser(CHROMIUM)  # type: ignore[arg-type]
    yield chromium
    chromium.close()


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, str]:
    """Build every kit (each booklet in every language it has), a batch and a variant; return the
    html files by name."""
    root = tmp_path_factory.mktemp("browser")
    build(str(root))
    # the home page with a batch's card and a variant's card too
    build(str(root), "aggression", seeds="3-5")
    build(str(root), "aggression", seed="7", variants=["connected"])
    pages = {}
    for manifest_path in sorted(glob.glob(str(root / "*" / "manifest.json"))):
        with open(manifest_path, encoding="utf-8") as handle:
            manifest = json.load(handle)
        folder = os.path.dirname(manifest_path)
        for booklet in manifest["booklets"]:
            pages[f"{manifest['game']}.{booklet['lang']}"] = os.path.join(folder, booklet["html"])
    pages["index"] = str(root / "index.html")
    return pages


def _audit(
    browser: Browser, path: str, width: int, dark: bool, shot: str, within: str = "", keep: bool = EVERY_SHOT
) -> dict:
    """Load a page and return what AUDIT measures, its console errors and the requests that leave
    it (a booklet: any but its own file and data: URIs; the index: any outside the folder within);
    with keep, leave a screenshot of its whole length in SHOTS."""
    with browser.page("file://" + path, width, dark) as page:
        # previews load lazily: load them all, so that a broken one shows and the shot is whole
        broken = page.evaluate(
            "Promise.all([...document.images].map((i) => { i.loading = 'eager';"
            " return i.decode().then(() => null, () => i.getAttribute('src')); }))"
            ".then((r) => r.filter((x) => x))"
        )
        report = page.evaluate(AUDIT)
        report["broken"] = broken
        if keep:
            os.makedirs(SHOTS, exist_ok=True)
            page.screenshot(os.path.join(SHOTS, f"{shot}-{width}-{'dark' if dark else 'light'}.png"))
        log = page.collect()
    report["errors"] = log.errors
    report["outside"] = [
        u
        for u in log.requests
        if not (
            u.startswith("data:") or u == "file://" + path or (within and u.startswith("file://" + within))
        )
    ]
    return report


def _keep_shot(browser: Browser, path: str, width: int, dark: bool, shot: str) -> None:
    """Leave a screenshot of a page that failed its checks in SHOTS (unless every page left one)."""
    if not EVERY_SHOT:
        _audit(browser, path, width, dark, shot, keep=True)


def _check(report: dict, name: str) -> None:
    assert report["scrollWidth"] <= report["clientWidth"], f"{name}: scrolls sideways {report['wide']}"
    assert report["errors"] == [], f"{name}: console errors"
    assert report["broken"] == [], f"{name}: images that do not load"
    assert report["outside"] == [], f"{name}: requests leave the file"
    assert report["unnamed"] == [], f"{name}: figures or previews without a text alternative"
    assert report["low"] == [], f"{name}: text below WCAG AA contrast"
    levels = report["headings"]
    assert levels and levels[0] == 1 and levels.count(1) == 1, f"{name}: one h1 first, got {levels[:3]}"
    skips = [(a, b) for a, b in itertools.pairwise(levels) if b > a + 1]
    assert skips == [], f"{name}: headings skip levels {skips}"
    assert re.fullmatch(r"[a-z]{2,3}", report["lang"]), f"{name}: no page language"


@pytest.mark.parametrize("width", WIDTHS)
def test_every_booklet_reads_in_a_browser(browser, built, width):
    booklets = {k: v for k, v in built.items() if k != "index"}
    assert len(booklets) >= 8 + 3  # every game in English, and the French and Italian booklets
    for name, path in booklets.items():
        for dark in (False, True):
            report = _audit(browser, path, width, dark, name)
            try:
                _check(report, f"{name} at {width}px{' dark' if dark else ''}")
                assert report["lang"] == name.rsplit(".", 1)[1]
                assert report["captions"] == 0, f"{name}: a figure without a caption"
                with open(path, encoding="utf-8") as handle:
                    source = handle.read()
                assert report["tables"] == source.count("<table>")
                assert report["figures"] == source.count("<figure")
            except AssertionError:
                _keep_shot(browser, path, width, dark, name)
                raise


@pytest.mark.parametrize("width", WIDTHS)
def test_index_reads_in_a_browser(browser, built, width):
    for dark in (False, True):
        folder = os.path.dirname(built["index"]) + os.sep
        report = _audit(browser, built["index"], width, dark, "index", within=folder)
        try:
            _check(report, f"index at {width}px{' dark' if dark else ''}")
        except AssertionError:
            _keep_shot(browser, built["index"], width, dark, "index")
            raise
