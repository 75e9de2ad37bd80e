"""Item 4: an unreadable picture is one line in the user's words: the file, the row or key that
names it, and what is wrong (truncated, not a PNG or JPEG, over 4 MB, over N megapixels), with no
library internals (object dumps, addresses), from `check` and `build` alike."""

from __future__ import annotations

import io
import os
import re
import struct
import zlib

import pytest

from generator.components.pictures import MAX_IMAGE_BYTES, MAX_PIXELS
from tests.hostile.helpers import cli
from tests.hostile.test_hostile_links import _kit


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def _png(width: int, height: int, rows: bytes | None = None) -> bytes:
    """Return a grey PNG of the size; its rows (filter byte and pixels) as given or all white."""
    raw = rows if rows is not None else (b"\x00" + b"\xff" * width) * height
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
        + _chunk(b"IDAT", zlib.compress(raw))
        + _chunk(b"IEND", b"")
    )


def _jpeg() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (40, 30), (0, 114, 178)).save(out, format="JPEG")
    return out.getvalue()


def _bomb() -> bytes:
    """Return a small PNG that says it is 20000 x 20000 pixels (400 megapixels)."""
    side = 20000
    squeeze = zlib.compressobj(9)
    data = b"".join(squeeze.compress(b"\x00" * (side + 1)) for _ in range(50)) + squeeze.flush()
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0))
        + _chunk(b"IDAT", data)
        + _chunk(b"IEND", b"")
    )


PICTURES = {
    "truncated png": (_png(30, 30)[:60], "truncated"),
    "png without its end": (_png(30, 30)[:-12], "truncated"),
    "png short of rows": (_png(30, 30, (b"\x00" + b"\xff" * 30) * 3), "truncated"),
    "png of garbage data": (
        _png(30, 30).replace(
            _chunk(b"IDAT", zlib.compress((b"\x00" + b"\xff" * 30) * 30)), _chunk(b"IDAT", b"\x07" * 40)
        ),
        "damaged",
    ),
    "header-only jpeg": (_jpeg()[: _jpeg().index(b"\xff\xda")], "truncated"),
    "jpeg cut short": (_jpeg()[:-200], "truncated"),
    "png signature only": (b"\x89PNG\r\n\x1a\n", "truncated"),
    "text": (b"name,quantity\n", "not a PNG or JPEG"),
    "bomb": (_bomb(), f"over {MAX_PIXELS // 1_000_000} megapixels"),
    "too large": (_png(30, 30) + b"\x00" * MAX_IMAGE_BYTES, "over 4 MB"),
}
INTERNALS = re.compile(r"0x[0-9a-f]{4,}|ImageReader|BytesIO|Traceback|identity=|fileName=")


@pytest.mark.parametrize("name", sorted(PICTURES))
@pytest.mark.parametrize("named_by", ["key", "row"])
def test_an_unreadable_picture_is_one_line_naming_file_place_and_fault(tmp_path, name, named_by):
    data, words = PICTURES[name]
    root = str(tmp_path)
    if named_by == "key":
        layouts = _kit(root, image="art/bad.png")
        place = "components.deck.fields[1].image"
    else:
        layouts = _kit(
            root, deck='cards = [{ name = "Fox", quantity = 1, art = "art/bad.png" }]', image="{art}"
        )
        place = "components.deck.cards[0].art"
    with open(os.path.join(layouts, "art", "bad.png"), "wb") as handle:
        handle.write(data)
    for run in (
        cli("check", os.path.join(layouts, "leak.toml")),
        cli("build", "leak", "--layouts", layouts, "--out", os.path.join(root, "out"), "-q"),
    ):
        assert run.code == 3, run.err
        line = run.one_line_error()
        assert "bad.png" in line and place in line and words in line, line
        assert not INTERNALS.search(line), line
    assert not os.path.exists(os.path.join(root, "out", "leak"))


@pytest.mark.parametrize("picture", [_png(30, 30), _jpeg()])
def test_a_whole_picture_is_drawn(tmp_path, picture):
    root = str(tmp_path)
    layouts = _kit(root, image="art/good.png")
    with open(os.path.join(layouts, "art", "good.png"), "wb") as handle:
        handle.write(picture)
    run = cli("build", "leak", "--layouts", layouts, "--out", os.path.join(root, "out"), "-q")
    assert run.code == 0, run.err
    with open(os.path.join(root, "out", "leak", "deck.svg"), encoding="utf-8") as handle:
        assert "<image" in handle.read()
