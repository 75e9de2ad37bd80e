"""The booklet's pages as SVG files (``booklet-1.svg``, ...; ``booklet.<lang>-1.svg`` in another
language): in every kit and every language its booklet has, one file a page in the reading order
of the booklet's PDF, each reading back (tests/svg_reader.py) with the text of that PDF page,
listed in the manifest with its sha256 and linked from the home page."""

from __future__ import annotations

import hashlib
import json
import os
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser

import pypdfium2 as pdfium
import pytest

from generator.booklet.template import languages
from tests.shared import builtin_definitions, shared_build
from tests.svg_reader import read_svg

GAMES = {d.id: d for d in builtin_definitions()}


def _manifests(out: str) -> dict[str, dict]:
    found = {}
    for name in sorted(os.listdir(out)):
        path = os.path.join(out, name, "manifest.json")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:
                found[name] = json.load(handle)
    return found


def _characters(text: str) -> Counter[str]:
    """Return the characters of a text that print (white space aside), with their counts."""
    return Counter("".join(text.split()))


def test_every_kit_has_svg_pages_of_its_booklet_and_a_web_page_in_every_other_language(all_kits):
    manifests = _manifests(all_kits)
    assert {m["game"] for m in manifests.values()} == set(GAMES)
    _check_booklet_pages(all_kits, manifests)


def test_a_kits_svg_pages_are_its_booklets_pdf_pages_and_its_other_languages_web_pages():
    out = shared_build("nine-mens-morris")  # the kit the fast tier's kit tests read
    manifests = _manifests(out)
    assert [m["game"] for m in manifests.values()] == ["nine-mens-morris"]
    _check_booklet_pages(out, manifests)


def _check_booklet_pages(all_kits: str, manifests: dict[str, dict]) -> None:
    """Check every kit's booklet pages in an output folder against its manifest and its PDF."""
    for folder, manifest in manifests.items():
        definition = GAMES[manifest["game"]]
        booklets = {b["lang"]: b for b in manifest["booklets"]}
        assert set(booklets) == set(languages(definition)), folder
        listed = {f["name"]: f for f in manifest["files"]}
        own = manifest.get("lang", "en")
        for lang, booklet in booklets.items():
            assert booklet["html"] in listed, (folder, lang)
            if lang != own:  # the other languages: one web page each, no pages laid out
                assert "pdf" not in booklet and "svg" not in booklet, (folder, lang)
                assert booklet["html"] == f"booklet.{lang}.html", (folder, lang)
                continue
            stem = booklet["pdf"].removesuffix(".pdf")
            pages = booklet["svg"]
            assert pages == [f"{stem}-{n}.svg" for n in range(1, len(pages) + 1)], (folder, lang)
            pdf = pdfium.PdfDocument(os.path.join(all_kits, folder, booklet["pdf"]))
            try:
                assert len(pages) == len(pdf) and len(pages) % 4 == 0, (folder, lang)
                for name, pdf_page in zip(pages, pdf):
                    path = os.path.join(all_kits, folder, name)
                    with open(path, "rb") as handle:
                        data = handle.read()
                    # the manifest names each page with its own hash and a page count of one
                    assert listed[name]["sha256"] == hashlib.sha256(data).hexdigest(), name
                    assert listed[name]["pages"] == 1, name
                    painted = read_svg(data)
                    svg_text = "".join(p.geometry[0] for p in painted if p.kind == "text")
                    pdf_text = pdf_page.get_textpage().get_text_range()
                    assert svg_text.strip(), (folder, name)
                    # the same page's text: the PDF's reading order is the viewer's guess, the
                    # characters are not
                    assert _characters(svg_text) == _characters(pdf_text), (folder, name)
                    # at the PDF page's size
                    root = ET.fromstring(data)
                    size = [float(root.get(key, "").removesuffix("mm")) for key in ("width", "height")]
                    assert size == pytest.approx([v * 25.4 / 72 for v in pdf_page.get_size()], abs=0.05)
            finally:
                pdf.close()


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.links.append(href)


def test_the_home_page_links_every_booklet_page(all_kits):
    with open(os.path.join(all_kits, "index.html"), encoding="utf-8") as handle:
        page = handle.read()
    parser = _Links()
    parser.feed(page)
    rules = page.count('<ul class="rules">')
    assert rules == len(_manifests(all_kits))
    for folder, manifest in _manifests(all_kits).items():
        for booklet in manifest["booklets"]:
            assert f"{folder}/{booklet['html']}" in parser.links, folder
            if "svg" not in booklet:  # another language's booklet: its web page alone
                continue
            links = [link for link in parser.links if link.startswith(f"{folder}/{booklet['pdf'][:-4]}-")]
            # linked once among the rules (and once more in the list of every file)
            expected = [f"{folder}/{name}" for name in booklet["svg"]]
            assert [link for link in links if link in expected][: len(expected)] == expected, folder
            assert Counter(links) == Counter({link: 2 for link in expected}), folder
