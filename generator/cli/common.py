"""Shared CLI helpers: one-line errors with the right exit code, progress, option parsing."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import typer

from generator.foundation.numbers import is_ascii_digits

F = TypeVar("F", bound=Callable[..., Any])
DEBUG = {"on": False}


def whole_number(value: str | int) -> int:
    """Return the integer an option's text writes as definitions write counts: the ASCII digits
    0-9 with an optional leading '-' (the option's own check then says its range), at most 18
    digits; raise typer.BadParameter (a usage error, exit 2) for '３', '٣', '²', '+3', '1_000' or
    spaces, which Python's int() would take. The parser of every integer option
    (``parser=whole_number``)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value  # a default
    text = str(value)
    if not is_ascii_digits(text.removeprefix("-")):
        raise typer.BadParameter(f"expected a whole number written with the digits 0-9, got {text[:40]!r}")
    return int(text)


def fail(message: str, code: int) -> typer.Exit:
    """Print a one-line error to stderr and return the Exit to raise."""
    typer.echo(f"pnp: error: {message}", err=True)
    return typer.Exit(code)


def handle_errors(fn: F) -> F:
    """Wrap a command so project errors become one line on stderr and their exit code."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from generator.foundation.errors import PnpError
        from generator.workers.parallel import stop_on_signals

        try:
            with stop_on_signals():
                return fn(*args, **kwargs)
        except (typer.Exit, typer.Abort):
            raise
        except PnpError as exc:
            if DEBUG["on"]:
                raise
            raise fail(str(exc), exc.exit_code) from None
        except KeyboardInterrupt as exc:  # Ctrl-C, or Stopped by SIGTERM or SIGHUP
            signum = getattr(exc, "signum", 2)
            raise fail(str(exc) if signum != 2 else "interrupted", 128 + signum) from None
        except BrokenPipeError:
            raise typer.Exit(1) from None
        except OSError as exc:  # the environment at fault: a path, permissions, a full disk
            if DEBUG["on"]:
                raise
            where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
            raise fail(f"{where}{exc.strerror or exc}", 2) from None
        except Exception as exc:  # an unexpected failure: one line unless --debug
            if DEBUG["on"]:
                raise
            raise fail(
                f"unexpected failure: {type(exc).__name__}: {exc} (run with --debug for details)", 1
            ) from None

    return wrapper  # type: ignore[return-value]


def split_list(text: str | None) -> list[str]:
    """Return the items of a comma-separated option value, blanks dropped."""
    if not text:
        return []
    return [part.strip() for part in text.split(",") if part.strip()]


class Progress:
    """A one-line progress counter on a terminal; silent when not a terminal or when quiet."""

    def __init__(self, total: int, quiet: bool) -> None:
        self.total = total
        self.done = 0
        self.enabled = not quiet and sys.stderr.isatty()

    def step(self, label: str) -> None:
        """Count one finished file and redraw the bar."""
        self.done += 1
        if self.enabled:
            width = 30
            filled = int(width * min(self.done, self.total) / max(self.total, 1))
            sys.stderr.write(
                f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {label[:40]:40}"
            )
            sys.stderr.flush()

    def close(self) -> None:
        """End the progress line."""
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


def optional_value(
    argv: list[str], option: str, default: str, looks_like: Callable[[str], bool]
) -> list[str]:
    """Return the arguments with ``option`` given its ``default`` value wherever it is not followed
    by a value that ``looks_like`` one (so that ``--balanced`` works alone and as ``--balanced 0.4-0.6``)."""
    out: list[str] = []
    for i, arg in enumerate(argv):
        if arg == "--":
            return out + argv[i:]
        if arg == option and not (i + 1 < len(argv) and looks_like(argv[i + 1])):
            out.append(f"{option}={default}")
        else:
            out.append(arg)
    return out
