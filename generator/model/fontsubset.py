"""A small TrueType subsetter for the shipped faces: keep the glyphs of some characters, drop the
outlines of all others, and wrap the result as WOFF for an SVG ``@font-face``.

The kept glyphs are numbered anew in their order (composite glyphs' parts renumbered with them),
so ``cmap``, ``loca``, ``glyf`` and ``hmtx`` hold only them and are written anew, with ``maxp`` and
``hhea``'s glyph counts; the OS/2, post and name tables are copied (the name table without its
licence text where the file carries it in another subset). Pure
bytes and ``struct``, no import cost, about a millisecond a subset; the same input always gives
the same bytes (no timestamps are touched, zlib's level is fixed). It reads TrueType outlines
(``glyf``) with a Windows Unicode BMP ``cmap`` (format 4), which is what ``tools/make_fonts.py``
writes; the tests check its output with fontTools.
"""

from __future__ import annotations

import struct
import zlib
from functools import lru_cache

LICENCE_NAME = 13  # the name record holding the licence text
_KEEP = (b"head", b"hhea", b"maxp", b"OS/2", b"hmtx", b"name", b"post")
_ARG_WORDS, _HAS_SCALE, _MORE, _XY_SCALE, _TWO_BY_TWO = 0x0001, 0x0008, 0x0020, 0x0040, 0x0080


class FontFormatError(ValueError):
    """The font is not a TrueType file this subsetter reads."""


def _tables(data: bytes) -> dict[bytes, bytes]:
    version, count = struct.unpack_from(">IH", data, 0)
    if version != 0x00010000:
        raise FontFormatError("not a TrueType font (outlines must be glyf)")
    tables = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[tag] = data[offset : offset + length]
    return tables


@lru_cache(maxsize=16)
def _parsed(data: bytes) -> tuple[dict[bytes, bytes], list[bytes], dict[int, int]]:
    """Return the tables, each glyph's bytes by id, and the character to glyph id map."""
    tables = _tables(data)
    count = struct.unpack_from(">H", tables[b"maxp"], 4)[0]
    long_loca = struct.unpack_from(">h", tables[b"head"], 50)[0] == 1
    loca = tables[b"loca"]
    if long_loca:
        offsets = struct.unpack_from(f">{count + 1}I", loca)
    else:
        offsets = tuple(2 * o for o in struct.unpack_from(f">{count + 1}H", loca))
    glyf = tables[b"glyf"]
    glyphs = [glyf[offsets[g] : offsets[g + 1]] for g in range(count)]
    return tables, glyphs, _read_cmap(tables[b"cmap"])


def _read_cmap(cmap: bytes) -> dict[int, int]:
    count = struct.unpack_from(">H", cmap, 2)[0]
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", cmap, 4 + 8 * i)
        if (platform, encoding) == (3, 1) and struct.unpack_from(">H", cmap, offset)[0] == 4:
            break
    else:
        raise FontFormatError("no Windows Unicode BMP cmap (format 4)")
    segments = struct.unpack_from(">H", cmap, offset + 6)[0] // 2
    base = offset + 14
    ends = struct.unpack_from(f">{segments}H", cmap, base)
    starts = struct.unpack_from(f">{segments}H", cmap, base + 2 * segments + 2)
    deltas = struct.unpack_from(f">{segments}h", cmap, base + 4 * segments + 2)
    range_at = base + 6 * segments + 2
    ranges = struct.unpack_from(f">{segments}H", cmap, range_at)
    mapping = {}
    for s in range(segments):
        for code in range(starts[s], ends[s] + 1):
            if code == 0xFFFF:
                continue
            if ranges[s] == 0:
                glyph = (code + deltas[s]) & 0xFFFF
            else:
                at = range_at + 2 * s + ranges[s] + 2 * (code - starts[s])
                glyph = struct.unpack_from(">H", cmap, at)[0]
                if glyph:
                    glyph = (glyph + deltas[s]) & 0xFFFF
            if glyph:
                mapping[code] = glyph
    return mapping


def _component_records(glyph: bytes) -> list[int]:
    """Return where each component record of a composite glyph starts (its flags, then its glyph
    id two bytes on); none for a simple glyph."""
    if len(glyph) < 10 or struct.unpack_from(">h", glyph, 0)[0] >= 0:
        return []
    starts = []
    at = 10
    while True:
        starts.append(at)
        flags = struct.unpack_from(">H", glyph, at)[0]
        at += 4 + (4 if flags & _ARG_WORDS else 2)
        if flags & _HAS_SCALE:
            at += 2
        elif flags & _XY_SCALE:
            at += 4
        elif flags & _TWO_BY_TWO:
            at += 8
        if not flags & _MORE:
            return starts


def _components(glyph: bytes) -> list[int]:
    """Return the glyph ids a composite glyph is made of (none for a simple glyph)."""
    return [struct.unpack_from(">H", glyph, at + 2)[0] for at in _component_records(glyph)]


def _cmap_table(mapping: dict[int, int]) -> bytes:
    """Return a cmap with one format 4 subtable: a segment per run of consecutive codes."""
    codes = sorted(mapping)
    segments: list[tuple[int, int]] = []
    for code in codes:
        if segments and code == segments[-1][1] + 1 and mapping[code] == mapping[code - 1] + 1:
            segments[-1] = (segments[-1][0], code)
        else:
            segments.append((code, code))
    segments.append((0xFFFF, 0xFFFF))
    n = len(segments)
    search = 2 ** (n.bit_length() - 1)
    ends = [e for _, e in segments]
    starts = [s for s, _ in segments]
    deltas = [(mapping[s] - s) & 0xFFFF if s != 0xFFFF else 1 for s, _ in segments]
    body = struct.pack(
        f">HHHH{n}HH{n}H{n}H{n}H",
        2 * n,
        2 * search,
        search.bit_length() - 1,
        2 * n - 2 * search,
        *ends,
        0,
        *starts,
        *deltas,
        *([0] * n),
    )
    subtable = struct.pack(">HHH", 4, 6 + len(body), 0) + body
    return struct.pack(">HHHHI", 0, 1, 3, 1, 12) + subtable


def _checksum(data: bytes) -> int:
    padded = data + b"\0" * (-len(data) % 4)
    words: tuple[int, ...] = struct.unpack(f">{len(padded) // 4}I", padded)
    return sum(words) & 0xFFFFFFFF


def _sfnt(tables: dict[bytes, bytes]) -> bytes:
    tags = sorted(tables)
    n = len(tags)
    search = 2 ** (n.bit_length() - 1)
    header = struct.pack(">IHHHH", 0x00010000, n, 16 * search, search.bit_length() - 1, 16 * n - 16 * search)
    offset = 12 + 16 * n
    records, body = [], []
    for tag in tags:
        data = tables[tag]
        records.append(struct.pack(">4sIII", tag, _checksum(data), offset, len(data)))
        body.append(data + b"\0" * (-len(data) % 4))
        offset += len(body[-1])
    font = bytearray(header + b"".join(records) + b"".join(body))
    head_at = 12 + 16 * n + sum(len(b) for t, b in zip(tags, body) if t < b"head")
    struct.pack_into(">I", font, head_at + 8, (0xB1B0AFBA - _checksum(bytes(font))) & 0xFFFFFFFF)
    return bytes(font)


def _metrics(tables: dict[bytes, bytes], order: list[int]) -> bytes:
    """Return hmtx with a long metric (advance width, left side bearing) for each kept glyph."""
    long_metrics = struct.unpack_from(">H", tables[b"hhea"], 34)[0]
    hmtx = tables[b"hmtx"]
    out = []
    for gid in order:
        if gid < long_metrics:
            out.append(hmtx[4 * gid : 4 * gid + 4])
        else:  # past the long metrics: the last advance, and a side bearing of its own
            at = 4 * long_metrics + 2 * (gid - long_metrics)
            out.append(hmtx[4 * long_metrics - 4 : 4 * long_metrics - 2] + hmtx[at : at + 2])
    return b"".join(out)


def _renumbered(glyph: bytes, new_id: dict[int, int]) -> bytes:
    """Return a glyph with the ids of its components (a composite glyph's parts) renumbered."""
    records = _component_records(glyph)
    if not records:
        return glyph
    out = bytearray(glyph)
    for at in records:
        struct.pack_into(">H", out, at + 2, new_id[struct.unpack_from(">H", glyph, at + 2)[0]])
    return bytes(out)


def _names(name: bytes, notices: bool) -> bytes:
    """Return the name table, without its licence text (name 13) unless notices is true."""
    if notices:
        return name
    _, count, strings = struct.unpack_from(">HHH", name, 0)
    records = [struct.unpack_from(">HHHHHH", name, 6 + 12 * i) for i in range(count)]
    kept = [r for r in records if r[3] != LICENCE_NAME]
    body = bytearray()
    table = []
    for platform, encoding, language, name_id, length, offset in kept:
        text = name[strings + offset : strings + offset + length]
        table.append(struct.pack(">HHHHHH", platform, encoding, language, name_id, length, len(body)))
        body += text
    return struct.pack(">HHH", 0, len(kept), 6 + 12 * len(kept)) + b"".join(table) + bytes(body)


def subset_ttf(data: bytes, chars: str, notices: bool = True) -> bytes:
    """Return a TrueType font with the glyphs of the characters (and .notdef) from data.

    Characters the font lacks are left out; the kept glyphs are numbered anew in their order
    (.notdef first), with their outlines and metrics unchanged; a no-break space is mapped to the
    space glyph. The name table is the face's own, its licence text (name 13) left out when
    notices is false: a file holding several subsets carries the licence in one of them."""
    tables, glyphs, cmap = _parsed(data)
    mapping = {ord(c): cmap[ord(c)] for c in set(chars) if ord(c) in cmap}
    if 0xA0 in mapping and 0x20 in cmap:
        # a no-break space advances as far as a space, as the PDF's widths and the layout's measure
        # have it: the faces' own no-break space glyph is twice as wide
        mapping[0xA0] = cmap[0x20]
    keep = {0}
    todo = list(mapping.values())
    while todo:
        glyph = todo.pop()
        if glyph not in keep:
            keep.add(glyph)
            todo.extend(_components(glyphs[glyph]))
    order = sorted(keep)
    new_id = {gid: n for n, gid in enumerate(order)}
    offsets = [0]
    body = []
    for gid in order:
        outline = _renumbered(glyphs[gid], new_id)
        padded = outline + b"\0" * (-len(outline) % 4)
        body.append(padded)
        offsets.append(offsets[-1] + len(padded))
    short = offsets[-1] < 0x20000  # offsets halved fit in 16 bits
    head = bytearray(tables[b"head"])
    struct.pack_into(">I", head, 8, 0)
    struct.pack_into(">h", head, 50, 0 if short else 1)
    hhea = bytearray(tables[b"hhea"])
    struct.pack_into(">H", hhea, 34, len(order))
    maxp = bytearray(tables[b"maxp"])
    struct.pack_into(">H", maxp, 4, len(order))
    out = {tag: tables[tag] for tag in _KEEP}
    out[b"head"] = bytes(head)
    out[b"hhea"] = bytes(hhea)
    out[b"maxp"] = bytes(maxp)
    out[b"name"] = _names(tables[b"name"], notices)
    out[b"hmtx"] = _metrics(tables, order)
    out[b"cmap"] = _cmap_table({code: new_id[gid] for code, gid in mapping.items()})
    if short:
        out[b"loca"] = struct.pack(f">{len(offsets)}H", *(o // 2 for o in offsets))
    else:
        out[b"loca"] = struct.pack(f">{len(offsets)}I", *offsets)
    out[b"glyf"] = b"".join(body) or b"\0"
    return _sfnt(out)


_SAME = (b"OS/2", b"head", b"name", b"post")  # the same bytes in most subsets of a face


def _deflate(data: bytes) -> bytes:
    """Return a table zlib-compressed at level 9 (the data itself where that is no shorter), with
    a window no larger than the table: it compresses as well, and is set up in half the time of
    the largest window, which took longer than compressing a glyph table."""
    packer = zlib.compressobj(9, zlib.DEFLATED, max(9, min(15, (len(data) - 1).bit_length())))
    packed = packer.compress(data) + packer.flush()
    return data if len(packed) >= len(data) else packed


@lru_cache(maxsize=256)
def _packed(data: bytes) -> bytes:
    """Return _deflate(data), worked out once per process for each table."""
    return _deflate(data)


def woff(ttf: bytes) -> bytes:
    """Return a TrueType font wrapped as WOFF 1.0 (each table zlib-compressed where it helps)."""
    tables = _tables(ttf)
    count = len(tables)
    offset = 44 + 20 * count
    records, body = [], []
    sfnt_size = 12 + 16 * count
    for tag in sorted(tables):
        data = tables[tag]
        packed = _packed(data) if tag in _SAME else _deflate(data)
        plain = data[:8] + b"\0\0\0\0" + data[12:] if tag == b"head" else data
        records.append(struct.pack(">4sIIII", tag, offset, len(packed), len(data), _checksum(plain)))
        body.append(packed + b"\0" * (-len(packed) % 4))
        offset += len(body[-1])
        sfnt_size += len(data) + (-len(data) % 4)
    header = struct.pack(
        ">4sIIHHIHHIIIII", b"wOFF", 0x00010000, offset, count, 0, sfnt_size, 1, 0, 0, 0, 0, 0, 0
    )
    return header + b"".join(records) + b"".join(body)
