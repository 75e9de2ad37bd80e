"""The ``pnp`` command line run by the tests: in this process (the fast way, the one most tests
use) or as a process of its own (for what only a process shows: the interpreter's start, signals,
what a killed run leaves). Both return a ``subprocess.CompletedProcess`` with the exit code, the
standard output and the standard error, so a test reads either the same way."""

from __future__ import annotations

import contextlib
import functools
import io
import os
import subprocess
import sys
import traceback
import warnings
from collections.abc import Callable, Iterator

import typer
import typer.main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The warning filters a Python process starts with (``python -m generator`` shows what they let
# through on its standard error, and so does pnp run here).
_DEFAULT_FILTERS = (
    ("default", DeprecationWarning, "__main__"),
    ("ignore", DeprecationWarning, None),
    ("ignore", PendingDeprecationWarning, None),
    ("ignore", ImportWarning, None),
    ("ignore", ResourceWarning, None),
)


def _exit_code(exc: SystemExit, err: io.StringIO) -> int:
    """Return the exit code a process ending with ``exc`` has (a text is printed and means 1)."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    err.write(f"{exc.code}\n")
    return 1


def _show_on(err: io.StringIO) -> Callable[..., None]:
    """Return a ``warnings.showwarning`` writing each warning to ``err`` as Python prints it."""

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: object = None,
        line: str | None = None,
    ) -> None:
        err.write(warnings.formatwarning(message, category, filename, lineno, line))

    return show


@contextlib.contextmanager
def _as_a_process(cwd: str, stdin: bytes) -> Iterator[tuple[io.StringIO, io.StringIO]]:
    """Run the block as ``python -m generator`` would see the world: in ``cwd``, reading ``stdin``,
    writing to two new text buffers (yielded), with a fresh process's warning filters; restore
    everything after."""
    out, err = io.StringIO(), io.StringIO()
    saved_cwd, saved_stdin = os.getcwd(), sys.stdin
    os.chdir(cwd)
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
            warnings.resetwarnings()
            warnings.showwarning = _show_on(err)
            for action, category, module in reversed(_DEFAULT_FILTERS):
                warnings.filterwarnings(action, category=category, module=module or "")
            yield out, err
    finally:
        sys.stdin = saved_stdin
        os.chdir(saved_cwd)


class _MadeOnce:
    """The ``pnp`` typer application with its click command made once a test process: typer makes
    it again from the command functions' signatures at every call of the application (a process
    calls it once; the tests call it hundreds of times, and making it cost a tenth of their CPU)."""

    def __init__(self, app: typer.Typer) -> None:
        self.app = app
        self.command = typer.main.get_command(app)

    def __call__(self, *args: object, **kwargs: object) -> object:
        """Return what the click command returns for these arguments, as calling the app would."""
        return self.command(*args, **kwargs)


@functools.cache
def _made_once() -> _MadeOnce:
    """Return the application of ``generator.cli.app`` with its command made (once a process)."""
    from generator.cli import app

    return _MadeOnce(app.app)


def run_main(args: list[str]) -> None:
    """Call ``generator.cli.app.main`` with args (it ends in ``SystemExit``, as the process does)
    through the application's command made once a test process; same options, same results."""
    from generator.cli import app

    made = _made_once()
    saved, app.app = app.app, made
    try:
        app.main(args)
    finally:
        app.app = saved


def pnp(
    *args: str, cwd: str | None = None, stdin: str | bytes | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``pnp ARGS`` in this process (``generator.cli.app.main``, what ``python -m generator``
    runs once its signal handlers are set) in ``cwd`` (default: the checkout) with ``stdin`` as its
    input; return its exit code, standard output and standard error as a finished process would:
    ``sys.exit`` gives the code, an exception that escapes prints its traceback and gives 1."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else (stdin or b"")
    code = 0
    with _as_a_process(cwd or ROOT, data) as (out, err):
        try:
            run_main(list(args))
        except SystemExit as exc:
            code = _exit_code(exc, err)
        except Exception:  # what the interpreter does with an exception nothing caught
            traceback.print_exc(file=err)
            code = 1
    return subprocess.CompletedProcess(["pnp", *args], code, out.getvalue(), err.getvalue())


def pnp_process(
    *args: str, cwd: str | None = None, stdin: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m generator ARGS`` as a process of its own in ``cwd`` (default: the checkout);
    return the finished process (exit code, standard output and standard error as text)."""
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        input=stdin,
        timeout=timeout,
    )
