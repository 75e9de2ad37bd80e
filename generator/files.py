"""Safe file output: write to a temporary file in the target folder, then rename into place."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from typing import BinaryIO


def atomic_write(path: str, write: Callable[[BinaryIO], object]) -> None:
    """Write a file through ``write(fileobj)``; on any failure nothing is left at ``path``."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write_bytes(path: str, data: bytes) -> None:
    """Write bytes to a file atomically."""
    atomic_write(path, lambda handle: handle.write(data))


def atomic_write_text(path: str, text: str) -> None:
    """Write UTF-8 text to a file atomically."""
    atomic_write_bytes(path, text.encode("utf-8"))
