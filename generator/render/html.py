"""HTML writer: a booklet (``generator.booklet.html.HtmlDocument``) as one self-contained HTML page.

The page's text is laid out by ``generator.booklet.html``; its figures, which the booklet kind
hands over as drawings, are drawn here as inline ``<svg>`` elements by the SVG writer
(``InlineSvg``: one style sheet of shape classes and font subsets for every figure of the page), the
cover's first, then the text's in reading order, so the same booklet gives the same bytes; the
text's icons (``:coin:``) are drawn the same way, each in a box one line high, in the colour of the
text round it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import BinaryIO

from generator.booklet.html import HtmlDocument, booklet_html
from generator.booklet.markup import Figure
from generator.model import inline
from generator.model.page import Page
from generator.render.svg import InlineSvg

ICON_BOX = 10.0  # mm: an icon is drawn in a box of this height (the page scales it to its line)


def html_document(booklet: HtmlDocument) -> str:
    """Return the text of a booklet's HTML page, its figures drawn inline."""
    figures = InlineSvg()
    cover = figures.element(*booklet.cover_figure) if booklet.cover_figure is not None else ""

    def figure(block: Figure) -> str:
        return figures.element(*booklet.figure(block))

    def icon(token: inline.IconToken) -> str:
        # painted currentColor: the icon takes the colour of its text, in light and dark mode alike
        side = ICON_BOX * inline.SIDE
        width = ICON_BOX * inline.ADVANCE
        shapes = booklet.style.icons.draw(token, width / 2, ICON_BOX / 2, side, "currentColor")
        page = Page(width, ICON_BOX, tuple(shapes))
        return f'<span class="icon">{figures.element(page, token.name)}</span>'

    info = replace(booklet.info, cover_figure=cover)
    return booklet_html(booklet.document, info, booklet.style, figure, figures.css, icon)


def write_html(booklet: HtmlDocument, target: BinaryIO) -> None:
    """Write a booklet's HTML page (UTF-8) to a binary file object."""
    target.write(html_document(booklet).encode("utf-8"))
