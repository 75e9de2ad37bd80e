"""Joining PDF parts written by pnp's own PDF writer into one file, one part at a time.

reportlab builds a whole document in memory before writing it, so a long document (a thousand
seeded maps) would need memory in proportion to its length. Instead, long documents are written
as parts of a few hundred pages each; this module copies each part's objects into the output as
soon as the part is finished, renumbered, under one page tree. Memory stays flat however many
pages there are. It reads only the simple files reportlab writes (a classic cross-reference table,
no object streams), which is all it is ever given.
"""

from __future__ import annotations

import hashlib
import re
from typing import BinaryIO

_REF = re.compile(rb"(\d+) 0 R")
_TRAILER = re.compile(rb"/Root (\d+) 0 R.*?/Size (\d+)", re.S)
_INFO = re.compile(rb"/Info (\d+) 0 R")
_PAGES = re.compile(rb"/Pages (\d+) 0 R")
_KIDS = re.compile(rb"/Kids \[([^\]]*)\]")
_LENGTH = re.compile(rb"/Length (\d+)")
_TITLE = re.compile(rb"/Title \((?:[^()\\]|\\.)*\)")

CATALOG, PAGES, INFO = 1, 2, 3  # object numbers of the joined file's own objects


class PdfJoiner:
    """Writes a PDF to a file object from parts added one after another."""

    def __init__(self, target: BinaryIO) -> None:
        self.target = target
        self.offsets: dict[int, int] = {}
        self.kids: list[int] = []
        self.next_number = INFO + 1
        self.position = 0
        self.info: bytes | None = None
        self.digest = hashlib.md5()
        self.started = False

    def _write(self, data: bytes) -> None:
        self.target.write(data)
        self.position += len(data)

    def add(self, part: bytes) -> int:
        """Copy the pages of one part (a whole PDF from pnp's writer); return its page count."""
        if not self.started:
            self._write(part[: part.index(b"\n", part.index(b"\n") + 1) + 1])  # %PDF-x.y and the binary line
            self.started = True
        self.digest.update(hashlib.md5(part).digest())
        trailer = part[part.rindex(b"trailer") :]
        root, size = (int(v) for v in _search(_TRAILER, trailer).groups())
        info_match = _INFO.search(trailer)
        info = int(info_match.group(1)) if info_match else None
        offsets = _xref(part, size)
        catalog = _object(part, offsets[root])
        pages_root = int(_search(_PAGES, catalog).group(1))
        kids = [int(n) for n in _REF.findall(_search(_KIDS, _object(part, offsets[pages_root])).group(1))]
        renumber = {root: CATALOG, pages_root: PAGES}
        if info is not None:
            renumber[info] = INFO
            if self.info is None:
                self.info = _object(part, offsets[info])
        for number in range(1, size):
            if number not in renumber:
                renumber[number] = self.next_number
                self.next_number += 1

        def ref(match: re.Match[bytes]) -> bytes:
            return b"%d 0 R" % renumber[int(match.group(1))]

        for number in range(1, size):
            if number in (root, pages_root, info):
                continue
            body = _object(part, offsets[number])
            split = body.find(b"\nstream\n")
            head, tail = (body, b"") if split < 0 else (body[:split], body[split:])
            self.offsets[renumber[number]] = self.position
            self._write(b"%d 0 obj\n" % renumber[number] + _REF.sub(ref, head) + tail + b"endobj\n")
        self.kids.extend(renumber[k] for k in kids)
        return len(kids)

    def finish(self, title: str = "") -> None:
        """Write the page tree, catalog, document information, cross-reference table and trailer."""
        kids = b" ".join(b"%d 0 R" % k for k in self.kids)
        own = {
            PAGES: b"<<\n/Count %d /Kids [ %s ] /Type /Pages\n>>\n" % (len(self.kids), kids),
            CATALOG: b"<<\n/PageMode /UseNone /Pages %d 0 R /Type /Catalog\n>>\n" % PAGES,
        }
        info = self.info or b"<<\n/Producer (pnp)\n>>\n"
        if title:
            escaped = (
                title.replace("\\", "\\\\")
                .replace("(", "\\(")
                .replace(")", "\\)")
                .encode("latin-1", "replace")
            )
            info = _TITLE.sub(lambda m: b"/Title (" + escaped + b")", info)
        own[INFO] = info
        for number in (CATALOG, PAGES, INFO):
            self.offsets[number] = self.position
            self._write(b"%d 0 obj\n" % number + own[number] + b"endobj\n")
        size = self.next_number
        xref = self.position
        rows = [b"xref\n0 %d\n0000000000 65535 f \n" % size]
        rows.extend(b"%010d 00000 n \n" % self.offsets[n] for n in range(1, size))
        self._write(b"".join(rows))
        ident = self.digest.hexdigest().encode()
        self._write(
            b"trailer\n<<\n/ID [<%s><%s>]\n/Info %d 0 R\n/Root %d 0 R\n/Size %d\n>>\nstartxref\n%d\n%%%%EOF\n"
            % (ident, ident, INFO, CATALOG, size, xref)
        )


def _search(pattern: re.Pattern[bytes], data: bytes) -> re.Match[bytes]:
    """Return the first match of a pattern in a part; raise ValueError when the part lacks it."""
    found = pattern.search(data)
    if found is None:
        raise ValueError(f"not a PDF part from pnp's writer: no {pattern.pattern!r}")
    return found


def _xref(data: bytes, size: int) -> dict[int, int]:
    """Return the byte offset of every object from the classic cross-reference table."""
    start = int(data[data.rindex(b"startxref") + 9 :].split()[0])
    lines = data[start:].split(b"\n", 2 + size)
    first = int(lines[1].split()[0])
    offsets = {}
    for i, line in enumerate(lines[2 : 2 + size]):
        fields = line.split()
        if len(fields) >= 3 and fields[2] == b"n":
            offsets[first + i] = int(fields[0])
    return offsets


def _object(data: bytes, offset: int) -> bytes:
    """Return an object's body: what lies between 'N 0 obj' and its 'endobj'."""
    start = data.index(b"obj\n", offset) + 4
    stream = data.find(b"\nstream\n", start)
    end = data.index(b"endobj\n", start)
    if 0 <= stream < end:
        length = int(_search(_LENGTH, data[start:stream]).group(1))
        end = data.index(b"endobj\n", stream + 8 + length)
    return data[start:end]
