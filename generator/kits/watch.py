"""``pnp build --watch``: build, then build again on every save of a file the build read.

Each build runs in a fresh child process forked from this one, which has loaded no definition:
nothing one build read (a picture, a compiled template, a font) is kept for the next, so a
rebuild sees every file as it is on disk. The child records every file the definition brought in
(``foundation.files.reads_recorded``: the definition, its CSV files, pictures, fonts and templates,
also those it asked for and did not find), each with its modification time, size and inode as
they were just before the build read it; those are the files watched, polled against the stamps
the build saw (a save made while or just after the build ran is not missed), no file-system events
are needed. A kit is written into a staging
folder and swapped in whole (``foundation.files.swap_folder``), so a broken change leaves the last
good kit in place, and the one line that says why is reported. Ctrl-C (or SIGTERM) stops the
child build, if one runs, and is raised to the caller.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from generator.foundation.errors import PnpError, UsageError
from generator.foundation.files import Stamp, reads_recorded, stamp
from generator.kits.plan import BuildRequest

POLL = 0.25  # seconds between two looks at the watched files
SETTLE = 0.1  # seconds a changed file must stay unchanged before the rebuild (editors write twice)


@dataclass(frozen=True)
class Attempt:
    """One build of the watch: whether it succeeded, its summary or error line (with the error's
    exit code), how long it took, and the files it read with their stamps as it read them."""

    ok: bool
    message: str
    code: int
    seconds: float
    read: dict[str, Stamp]

    @property
    def files(self) -> frozenset[str]:
        """Return the files the build read."""
        return frozenset(self.read)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _child(request: BuildRequest, connection: Any) -> None:
    """Build once (in the forked child) and send (ok, message, code, files read with stamps) back."""
    from generator.kits.run import run_build

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the watch, which stops this build
    signal.signal(signal.SIGTERM, stop)
    with reads_recorded() as found:
        try:
            summary = run_build(request)
            result: tuple[bool, str, int] = (True, summary, 0)
        except PnpError as exc:
            result = (False, str(exc), exc.exit_code)
        except KeyboardInterrupt:  # stopped by the watch (SIGTERM) or by Ctrl-C
            return
        except Exception as exc:  # an unexpected failure: still one line, and the watch goes on
            result = (False, f"unexpected failure: {type(exc).__name__}: {exc}", 1)
    connection.send((*result, sorted(found.items())))
    connection.close()


def build_once(request: BuildRequest) -> Attempt:
    """Return the result of building ``request`` once in a fresh child process (see the module)."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(request, send))
    start = time.perf_counter()
    child.start()
    send.close()
    try:
        try:
            ok, message, code, files = receive.recv()
        except EOFError:  # the child died without a word (killed, out of memory)
            ok, message, code, files = False, f"the build stopped (exit code {child.exitcode})", 1, []
        child.join()
    finally:
        receive.close()
        if child.is_alive():  # interrupted here: stop the child's build as well
            child.terminate()
            child.join(5)
            if child.is_alive():
                child.kill()
                child.join()
    return Attempt(ok, _one_line(message), code, time.perf_counter() - start, dict(files))


def stamps(files: Iterable[str]) -> dict[str, Stamp]:
    """Return the modification stamp of each file (None for one that is missing)."""
    return {path: stamp(path) for path in files}


def _settled(files: Iterable[str], poll: float) -> dict[str, Stamp]:
    """Return the stamps of the files once two looks ``SETTLE`` seconds apart agree."""
    files = tuple(files)
    now = stamps(files)
    for _ in range(50):
        time.sleep(min(SETTLE, poll))
        again = stamps(files)
        if again == now:
            break
        now = again
    return now


def watch(
    request: BuildRequest,
    report: Callable[[str], None],
    poll: float = POLL,
    rebuilds: int | None = None,
) -> None:
    """Build the request's kits, then again each time a file the build read changes, until
    interrupted (``rebuilds``: stop after that many rebuilds, for a caller that wants to). Each
    build is reported in one line with the time it took; a broken change says why in one line and
    leaves the last good kit in place. Raise the first build's error when it read no file to
    watch (an unknown game, a bad option), and KeyboardInterrupt on Ctrl-C."""
    if request.balanced is not None or request.scheduler is not None:
        raise UsageError("--watch builds kits as they are; it does not take --balanced or --scheduler")
    request = replace(request, jobs=1)  # every file read in the one child, where it is recorded
    import generator.kits.run  # noqa: F401  (loaded once here, so each child starts at once)

    attempt = build_once(request)
    if not attempt.ok and not attempt.files:
        error = PnpError(attempt.message)
        error.exit_code = attempt.code
        raise error
    watched = attempt.files
    good = attempt.ok
    report(_line(attempt, good_before=False))
    report(f"watching {len(watched)} file(s) for changes; Ctrl-C stops")
    before = dict(attempt.read)
    done = 0
    while rebuilds is None or done < rebuilds:
        time.sleep(poll)
        if stamps(watched) == before:
            continue
        settled = _settled(watched, poll)
        attempt = build_once(request)
        report(_line(attempt, good_before=good))
        good = good or attempt.ok
        if attempt.ok:
            watched, before = attempt.files, dict(attempt.read)
        else:  # still watch what the last good build read, as it was when this one began
            watched = watched | attempt.files
            before = {**settled, **attempt.read}
            before = {path: before.get(path) for path in watched}
        done += 1


def _line(attempt: Attempt, good_before: bool) -> str:
    """Return the one line that reports a build of the watch."""
    took = f"{attempt.seconds:.2f} s"
    if attempt.ok:
        return f"{attempt.message.splitlines()[0] if attempt.message else 'built'} ({took})"
    if good_before:
        return f"not rebuilt, the last good kit stays ({took}): {attempt.message}"
    return f"not built ({took}): {attempt.message}"
