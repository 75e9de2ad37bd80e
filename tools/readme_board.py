"""The README's picture of the starter kit's board (docs/make-your-own-board.png), made by the
README's own steps: ``pnp new lanterns`` and ``pnp build lanterns --layouts layouts``, then the
board's page rasterized (PDFium) and cropped to the board.

    .venv/bin/python tools/readme_board.py          # write docs/make-your-own-board.png again
    .venv/bin/python tools/readme_board.py --check  # exit 1 when the picture is not what the steps build

``tests/foundation/test_small_marks.py`` compares the picture with a fresh build the same way.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

PICTURE = os.path.join(ROOT, "docs", "make-your-own-board.png")
GAME = "lanterns"  # the name the README's steps give the starter kit
WIDTH = 396  # px, the picture's width in the README
SCALE = 3.0  # rasterized at 3 px a point, then scaled down to WIDTH
MARGIN = 30  # px (at SCALE) kept around the board
FOOTER = 0.85  # the page's footer (the kit's name and the scale bar) lies below this fraction


def board_picture(folder: str) -> Image:
    """Return the starter kit's board as the README shows it, built in ``folder`` by the README's
    steps: the board page's ink, cropped with a margin, WIDTH pixels wide, 64 colours."""
    import pypdfium2
    from PIL import Image, ImageOps

    env = {**os.environ, "PYTHONPATH": ROOT}
    for args in (
        ["new", GAME],
        ["build", GAME, "--layouts", "layouts", "--format", "pdf", "--parts", "--out", "out", "-q"],
    ):
        subprocess.run(
            [sys.executable, "-m", "generator", *args],
            cwd=folder,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    page = pypdfium2.PdfDocument(os.path.join(folder, "out", GAME, "board.pdf"))[0]
    image = page.render(scale=SCALE).to_pil().convert("RGB")
    width, height = image.size
    box = ImageOps.invert(image.crop((0, 0, width, int(height * FOOTER)))).getbbox()
    assert box is not None, "the board page is blank"
    x0, y0, x1, y1 = box
    image = image.crop((x0 - MARGIN, y0 - MARGIN, x1 + MARGIN, y1 + MARGIN))
    image = image.resize((WIDTH, round(image.size[1] * WIDTH / image.size[0])), Image.Resampling.LANCZOS)
    return image.quantize(colors=64)


def difference(a: Image, b: Image) -> float:
    """Return the mean absolute difference of two pictures' RGB values (0 to 255), or infinity
    when their sizes differ."""
    from PIL import ImageChops, ImageStat

    if a.size != b.size:
        return float("inf")
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


def main(argv: list[str]) -> int:
    """Write the picture again, or with --check say whether it is what the steps build."""
    from PIL import Image

    with tempfile.TemporaryDirectory() as folder:
        made = board_picture(folder)
    if "--check" in argv:
        with Image.open(PICTURE) as kept:
            off = difference(made, kept)
        print(f"{PICTURE}: mean difference {off:.2f} of 255")
        return 0 if off < 2.0 else 1
    made.save(PICTURE, optimize=True)
    print(f"wrote {PICTURE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
