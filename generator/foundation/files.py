"""Safe file output: write to a temporary file in the target folder, then rename into place; kits
are written into a temporary folder and swapped in whole, one writer at a time per output folder.
Files a definition names are read only when their real path (links followed) lies inside the
definition's folder (``read_inside``)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from importlib import resources
from pathlib import Path
from typing import BinaryIO


def atomic_write(path: str, write: Callable[[BinaryIO], object]) -> None:
    """Write a file through ``write(fileobj)``; on any failure nothing is left at ``path``."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".tmp-{os.getpid()}-", dir=folder)
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


STAGING_PREFIXES = (".tmp-", ".old-")
_OWNER = re.compile(r"^\.(?:tmp|old)-([0-9]{1,10})-")


def _owner_alive(name: str) -> bool:
    """Return True when a temporary name carries the id of a process still running."""
    match = _OWNER.match(name)
    if not match:
        return False
    pid = int(match.group(1))
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    try:  # a killed process not yet reaped (a zombie) still answers kill(0): it owns nothing
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in (b"Z", b"X")


def clean_stale(out: str) -> None:
    """Remove the temporary files and folders that interrupted writers left in a folder."""
    for name in os.listdir(out):
        if name.startswith(STAGING_PREFIXES) and not _owner_alive(name):
            stale = os.path.join(out, name)
            if os.path.isdir(stale) and not os.path.islink(stale):
                shutil.rmtree(stale, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    os.unlink(stale)


def make_output_folder(out: str) -> None:
    """Make the output folder; raise OutputError when it cannot be (a file, no permission, /proc)."""
    from generator.foundation.errors import OutputError

    if not out or not out.strip():
        raise OutputError("--out needs a folder name")
    try:
        os.makedirs(out, exist_ok=True)
        if not os.path.isdir(out):
            raise NotADirectoryError(20, "Not a directory")
        probe = tempfile.mkstemp(prefix=f".tmp-{os.getpid()}-", dir=out)
        os.close(probe[0])
        os.unlink(probe[1])
    except OSError as exc:
        raise OutputError(f"{out}: cannot be used as the output folder: {exc.strerror or exc}") from None


@contextlib.contextmanager
def output_folder(out: str) -> Iterator[str]:
    """Hold the output folder for one writer at a time (a lock on the folder itself, held only to
    swap finished files in) and clear what interrupted writers left; yield the folder."""
    from generator.foundation.errors import OutputError

    make_output_folder(out)
    try:
        fd = os.open(out, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        raise OutputError(f"{out}: cannot be used as the output folder: {exc.strerror or exc}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        clean_stale(out)
        yield out
    finally:
        os.close(fd)  # releases the lock


def staging_folder(out: str, name: str) -> str:
    """Return a new private folder in ``out`` to write a kit into before it is swapped in."""
    make_output_folder(out)
    staging = tempfile.mkdtemp(prefix=f".tmp-{os.getpid()}-{name}-", dir=out)
    os.chmod(staging, 0o755)
    return staging


def swap_folder(staging: str, final: str) -> None:
    """Put a finished folder in place of ``final`` as a whole (the old one is removed); call it
    inside ``output_folder``."""
    from generator.foundation.errors import OutputError

    old = None
    if os.path.lexists(final):
        if os.path.islink(final) or not os.path.isdir(final):
            raise OutputError(f"{final}: exists and is not a kit folder; move it away")
        old = tempfile.mkdtemp(prefix=f".old-{os.getpid()}-", dir=os.path.dirname(final) or ".")
        os.rename(final, os.path.join(old, "kit"))
    os.rename(staging, final)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def real_inside(path: str, roots: Iterable[str]) -> str | None:
    """Return the real path of ``path`` (every link followed) when it lies inside one of the
    folders ``roots`` (their links followed too), else None: a link that leads out of the folder
    a definition came from is not read."""
    real = os.path.realpath(path)
    for root in roots:
        top = os.path.realpath(root)
        if real == top or real.startswith(top.rstrip(os.sep) + os.sep):
            return real
    return None


def read_regular(path: str, limit: int, follow: bool = True) -> bytes:
    """Return up to ``limit + 1`` bytes of a regular file, at once: raise IsADirectoryError for a
    folder and OSError (errno 0) for a device, a FIFO or a socket, which are never waited on (the
    file is looked at before it is opened, and opened without blocking)."""
    info = os.stat(path, follow_symlinks=follow)
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(21, "Is a directory")
    if not stat.S_ISREG(info.st_mode):
        raise OSError(0, "a device or special file, not a regular file")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | (0 if follow else getattr(os, "O_NOFOLLOW", 0))
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped since it was looked at
            raise OSError(0, "a device or special file, not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    except BlockingIOError:
        raise OSError(0, "a file that waits for data (a device or special file)") from None
    finally:
        os.close(fd)
    if data is None:  # a file of the kernel's that has nothing to give yet, such as /proc/kmsg
        raise OSError(0, "a file that waits for data (a device or special file)")
    return data


Stamp = tuple[int, int, int] | None  # modification time (ns), size and inode; None: missing

_RECORDS: list[dict[str, Stamp]] = []  # the open records of ``reads_recorded``


def stamp(path: str) -> Stamp:
    """Return a file's modification time (ns), size and inode, or None when it is missing."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size, info.st_ino)


@contextlib.contextmanager
def reads_recorded() -> Iterator[dict[str, Stamp]]:
    """Yield a mapping that collects the absolute path of every file a definition brings in while
    the block runs (the definition, its CSVs, pictures, fonts and templates, through
    ``read_inside`` and ``note_read``), also those asked for and missing, each with its ``stamp``
    as it was just before the first read: what ``pnp build --watch`` watches, and a save made
    after that read shows as a changed stamp."""
    found: dict[str, Stamp] = {}
    _RECORDS.append(found)
    try:
        yield found
    finally:
        _RECORDS.remove(found)


def note_read(path: str) -> None:
    """Add a file about to be read, with its stamp, to every open record of ``reads_recorded``."""
    absolute = os.path.abspath(path)
    for found in _RECORDS:
        if absolute not in found:
            found[absolute] = stamp(absolute)


def read_inside(path: str, roots: Iterable[str], limit: int) -> bytes:
    """Return up to ``limit + 1`` bytes of a regular file that lies inside one of ``roots`` (links
    followed); raise OutsideError when it leads outside them, and as ``read_regular`` does for a
    folder, a special file or one that cannot be read. The real file is opened without following
    links, so a link swapped in after the check is not followed either."""
    if _RECORDS:
        note_read(path)
    real = real_inside(path, roots)
    if real is None:
        raise OutsideError(path)
    return read_regular(real, limit, follow=False)


class OutsideError(Exception):
    """A file a definition names leads (through a link) outside the definition's folder."""


def cache_folder() -> str | None:
    """Return pnp's own cache folder (``$XDG_CACHE_HOME/pnp``, else ``~/.cache/pnp``, else a
    private ``pnp-UID`` folder in the temporary folder), made if need be; None when none can be."""
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    candidates = [os.path.join(home, "pnp")] if os.path.isabs(home) else []
    uid = os.getuid() if hasattr(os, "getuid") else 0
    candidates.append(os.path.join(tempfile.gettempdir(), f"pnp-{uid}"))
    for folder in candidates:
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            info = os.lstat(folder)
        except OSError:
            continue
        if os.path.isdir(folder) and not os.path.islink(folder) and info.st_uid == uid:
            if os.access(folder, os.W_OK | os.X_OK):
                return folder
    return None


@contextlib.contextmanager
def scratch_folder(kind: str) -> Iterator[str]:
    """Yield a new private folder for throw-away files, removed after the block; it lies in
    ``cache_folder()/kind``, where the next use first clears what killed runs left."""
    parent = cache_folder()
    if parent is not None:
        parent = os.path.join(parent, kind)
        try:
            os.makedirs(parent, mode=0o700, exist_ok=True)
            clean_stale(parent)
            folder = tempfile.mkdtemp(prefix=f".tmp-{os.getpid()}-", dir=parent)
        except OSError:
            parent = None
    if parent is None:
        folder = tempfile.mkdtemp(prefix=f"pnp-{kind}-")
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


#: The most folders a path given on the command line may go down, and its longest length.
MAX_PATH_DEPTH = 32
MAX_PATH_LENGTH = 1024


def path_problem(path: str) -> str | None:
    """Return what is wrong with a path given as an option or argument (empty, a NUL or control
    character, too deep, too long), in words; None when it can be used."""
    if not path or not path.strip():
        return "is empty"
    bad = next((c for c in path if ord(c) < 32 or ord(c) == 127), None)
    if bad is not None:
        return f"holds the control character U+{ord(bad):04X}"
    if len(path) > MAX_PATH_LENGTH:
        return f"is {len(path)} characters long (at most {MAX_PATH_LENGTH})"
    depth = len([part for part in path.replace(os.sep, "/").split("/") if part not in ("", ".")])
    if depth > MAX_PATH_DEPTH:
        return f"goes {depth} folders deep (at most {MAX_PATH_DEPTH})"
    return None


def builtin_folder(name: str) -> str:
    """Return the folder of the built-in definitions (``layouts``) or rule texts (``templates``).

    The repository keeps both at its top; an installed wheel carries them inside the package
    (pyproject.toml maps them there), and a source checkout (an editable install) reads them in place.
    """
    packaged = resources.files("generator").joinpath(name)
    if isinstance(packaged, Path) and packaged.is_dir():
        return str(packaged)
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # generator/
    return os.path.join(os.path.dirname(package), name)
