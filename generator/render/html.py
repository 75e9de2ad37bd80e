"""HTML writer: a booklet (``generator.booklet.html.HtmlDocument``) as one self-contained HTML page.

The page's text is laid out by ``generator.booklet.html``; its figures, which the booklet kind
hands over as drawings, are drawn here as inline ``<svg>`` elements by the SVG writer
(``InlineSvg``: one style sheet of shape classes and font subsets for every figure of the page), the
cover's first, then the text's in reading order, so the same booklet gives the same bytes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import BinaryIO

from generator.booklet.html import HtmlDocument, booklet_html
from generator.booklet.markup import Figure
from generator.render.svg import InlineSvg


def html_document(booklet: HtmlDocument) -> str:
    """Return the text of a booklet's HTML page, its figures drawn inline."""
    figures = InlineSvg()
    cover = figures.element(*booklet.cover_figure) if booklet.cover_figure is not None else ""

    def figure(block: Figure) -> str:
        return figures.element(*booklet.figure(block))

    info = replace(booklet.info, cover_figure=cover)
    return booklet_html(booklet.document, info, booklet.style, figure, figures.css)


def write_html(booklet: HtmlDocument, target: BinaryIO) -> None:
    """Write a booklet's HTML page (UTF-8) to a binary file object."""
    target.write(html_document(booklet).encode("utf-8"))
