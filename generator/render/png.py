"""PNG writer: a page drawn as a PDF by ``render.pdf``, rasterised by PDFium (the ``pypdfium2``
package, Apache-2.0 or BSD-3-Clause, an optional extra: ``pip install 'pnp-kits[png]'``), and
written as an 8-bit RGB PNG carrying its resolution (the pHYs chunk) and no time stamp, so the same
page at the same resolution gives the same bytes. Knows shapes, never games.

Rendering the PDF rather than the shapes again means a PNG shows exactly what the PDF prints (the
same fonts, the same curves); PNG has no CMYK, so PNGs are always RGB.
"""

from __future__ import annotations

import io
import struct
import zlib
from typing import BinaryIO

from generator.foundation.errors import UsageError
from generator.model.page import Page

MM_PER_INCH = 25.4
INSTALL = "pip install 'pnp-kits[png]'"


class RasteriserMissing(UsageError):
    """PNGs were asked for but the optional rasteriser (pypdfium2) is not installed."""


def check_rasteriser() -> None:
    """Raise RasteriserMissing (saying how to install it) when pypdfium2 cannot be imported."""
    try:
        import pypdfium2  # noqa: F401
    except ImportError:
        raise RasteriserMissing(
            f"--png needs the PDF rasteriser pypdfium2, which is not installed: {INSTALL}"
        ) from None


def pixel_size(width_mm: float, height_mm: float, dpi: int) -> tuple[int, int]:
    """Return the width and height in pixels of a page of width x height mm at dpi (rounded)."""
    return (round(width_mm * dpi / MM_PER_INCH), round(height_mm * dpi / MM_PER_INCH))


def write_png(page: Page, target: BinaryIO, dpi: int) -> tuple[int, int]:
    """Draw one page as a PNG at dpi into a binary file object; return its pixel width and height."""
    check_rasteriser()
    import pypdfium2

    from generator.render.pdf import write_pdf

    buffer = io.BytesIO()
    write_pdf([page], buffer, page.label)
    width, height = pixel_size(page.width, page.height, dpi)
    document = pypdfium2.PdfDocument(buffer.getvalue())
    try:
        pdf_page = document[0]
        points_w, points_h = pdf_page.get_size()
        # the scale that gives exactly the rounded pixel size (pdfium truncates size x scale)
        scale = max((width + 0.5) / points_w, (height + 0.5) / points_h)
        bitmap = pdf_page.render(
            scale=scale,
            fill_color=(255, 255, 255, 255),
            rev_byteorder=True,
            may_draw_forms=False,
        )
        raw = bytes(bitmap.buffer)
        got_w, got_h, stride = bitmap.width, bitmap.height, bitmap.stride
        channels = stride // got_w if got_w else 3
        bitmap.close()
        pdf_page.close()
    finally:
        document.close()
    rows = []
    for y in range(min(height, got_h)):
        row = raw[y * stride : y * stride + min(width, got_w) * channels]
        if channels != 3:  # RGBx: keep RGB
            row = b"".join(row[i : i + 3] for i in range(0, len(row), channels))
        row += b"\xff" * (3 * width - len(row))
        rows.append(b"\x00" + row)
    blank = b"\x00" + b"\xff" * (3 * width)
    rows += [blank] * (height - len(rows))
    target.write(encode_png(width, height, b"".join(rows), dpi))
    return width, height


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def encode_png(width: int, height: int, scanlines: bytes, dpi: int, alpha: bool = False) -> bytes:
    """Return a PNG file of 8-bit RGB scanlines (RGBA with ``alpha``; each starting with its
    filter byte) with the resolution in its pHYs chunk (pixels per metre) and nothing else: no
    time, no text."""
    per_metre = round(dpi / 0.0254)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0))
        + _chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1))
        + _chunk(b"IDAT", zlib.compress(scanlines, 6))
        + _chunk(b"IEND", b"")
    )
