"""booklet.html says what booklet.pdf says: every heading, paragraph, list item, table cell and
caption of the parsed rule text is in the page, figures are inline SVG with a text alternative, and
the page is self-contained (no URL but data: ones)."""

from __future__ import annotations

import html
import itertools
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.booklet.markup import FigureRow, Heading, ListBlock, Note, Paragraph, Table, plain_text
from generator.components.base import Options
from generator.components.booklet import booklet_source
from generator.components.kinds import context
from generator.definitions.loader import find_definition
from generator.printing.imposition import find_paper
from tests.conftest import build, shared_build


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag in ("style", "svg"):
            self.skip += 1
        if tag == "br":
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("style", "svg"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def _texts(blocks):
    for block in blocks:
        if isinstance(block, (Heading, Paragraph)):
            yield plain_text(block.runs)
        elif isinstance(block, Note):
            yield from (plain_text(p) for p in block.paragraphs)
        elif isinstance(block, ListBlock):
            for item in block.items:
                yield plain_text(item.runs)
                if item.children:
                    yield from _texts([item.children])
        elif isinstance(block, Table):
            yield from (plain_text(c) for c in block.header)
            yield from (plain_text(c) for row in block.rows for c in row)
        elif isinstance(block, FigureRow):
            yield from (plain_text(f.caption) for f in block.figures)


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ")).strip()


@pytest.mark.parametrize(
    "game,lang", [("nine-mens-morris", "en"), ("centennial", "fr"), ("push", "it"), ("barricades", "en")]
)
def test_html_booklet_holds_the_pdf_text(game, lang):
    out = Path(shared_build(game, lang=lang))
    folder = next(p for p in out.iterdir() if p.is_dir())
    source = (folder / "booklet.html").read_text(encoding="utf-8")
    definition = find_definition(game, None, lang)
    from generator.kits.plan import effective_seed

    ctx = context(
        definition, find_paper("a4"), effective_seed(definition, None), frozenset(), Options(lang=lang)
    )
    spec = next(c for c in definition.components if c.kind == "booklet")
    document = booklet_source(spec, ctx).document
    parser = _Text()
    parser.feed(source)
    shown = _squash("".join(parser.parts))
    for text in _texts(document.blocks):
        assert _squash(text) in shown, text
    assert f'<html lang="{lang}">' in source
    svgs = [attrs for tag, attrs in parser.tags if tag == "svg"]
    figures = sum(len(b.figures) for b in document.blocks if isinstance(b, FigureRow))
    assert len(svgs) >= figures > 0
    assert all(a.get("role") == "img" and a.get("aria-label", "").strip() for a in svgs)
    ids = [a["id"] for _, a in parser.tags if "id" in a]
    assert len(ids) == len(set(ids)), "ids are unique across the inline figures"
    urls = re.findall(r"(?:src|href)=\"([^\"#][^\"]*)\"|url\(([^)]*)\)", source)
    assert all(u.startswith(("data:", "#")) for pair in urls for u in pair if u), "only data: URLs"
    headings = [int(t[1]) for t, _ in parser.tags if re.fullmatch(r"h[1-6]", t)]
    assert headings[0] == 1 and all(b <= a + 1 for a, b in itertools.pairwise(headings))
    assert html.escape(plain_text(document.blocks[0].runs), quote=False) in source


def test_html_booklet_is_deterministic(tmp_path):
    first = Path(shared_build("everest")) / "everest" / "booklet.html"  # the session's build: the first
    build(str(tmp_path / "b"), "everest")
    one = first.read_bytes()
    assert one == (tmp_path / "b" / "everest" / "booklet.html").read_bytes()
    assert os.path.getsize(first) < 400_000


def test_inline_figures_keep_labels_past_their_edge_in_view_and_share_one_style_sheet():
    from generator.model.page import Page, Rect, Style, Text
    from generator.render.svg import InlineSvg

    figures = InlineSvg()
    inside = Page(50, 20, [Rect(0, 0, 50, 20, Style(fill="#ff0000"))])
    label = Page(
        50, 20, [Rect(0, 0, 50, 20, Style(fill="#ff0000")), Text(-6, 10, "DÉPART", size=8, anchor="start")]
    )
    one, two = figures.element(inside, "a red box"), figures.element(label, "a red box with a label")
    assert 'viewBox="0 0 50 20"' in one
    x0, _, width, _ = map(float, re.search(r'viewBox="([^"]+)"', two).group(1).split())
    assert x0 <= -6 and x0 + width >= 50
    css = figures.css()
    assert css.count("fill:#ff0000") == 1  # one class for both figures
    assert "@font-face" in css and "xmlns" not in one + two
