"""Writers that turn pages of the page model into files, keyed by format."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import BinaryIO

from generator.model.page import Page

AUTHOR = "pnp"  # the author a file names when its maker gives none


def _pdf(
    pages: Iterable[Page],
    target: BinaryIO,
    title: str = "",
    boxes: bool = False,
    cmyk: bool = False,
    author: str = AUTHOR,
) -> int:
    from generator.render.pdf import write_pdf

    return write_pdf(pages, target, title, boxes, cmyk, author)


def _svg(
    pages: Iterable[Page],
    target: BinaryIO,
    title: str = "",
    boxes: bool = False,
    cmyk: bool = False,
    author: str = AUTHOR,
) -> int:
    """Write one page as SVG; SVG has no trim boxes and stays RGB (``boxes`` and ``cmyk`` are
    the PDF's)."""
    from generator.render.svg import write_svg

    count = 0
    for page in pages:
        if count:
            raise ValueError("an SVG file holds one page")
        write_svg(page, target, title, author=author)
        count += 1
    return count


WRITERS: dict[str, Callable[..., int]] = {"pdf": _pdf, "svg": _svg}
FORMATS = tuple(WRITERS)


def find_writer(fmt: str) -> Callable[..., int]:
    """Return the writer for a format name ('pdf' or 'svg'); raise ValueError for others."""
    try:
        return WRITERS[fmt]
    except KeyError:
        raise ValueError(f"unknown format {fmt!r} (known: {', '.join(WRITERS)})") from None
