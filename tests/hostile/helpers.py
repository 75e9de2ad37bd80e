"""Helpers for the hostile-input tests: the CLI run in-process or as a process, small kits in
temporary folders."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MINI_TOML = """
[game]
id = "mini"
title = "Mini"
players = "2"

[palette]
red = "#cc3311"

[components.booklet]
kind = "booklet"
title = "Rules"
cover = false
"""


@dataclass
class Run:
    """What a pnp command did: its exit code and what it printed."""

    code: int
    out: str
    err: str

    def one_line_error(self) -> str:
        """Return the error line, after checking it is one line and no traceback."""
        lines = self.err.strip().splitlines()
        assert len(lines) == 1, self.err
        assert "Traceback" not in self.err
        assert lines[0].startswith("pnp: error: "), self.err
        return lines[0]


def cli(*args: str) -> Run:
    """Run pnp in this process; return its exit code and output."""
    from tests.cli_run import run_main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            run_main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return Run(code, out.getvalue(), err.getvalue())


def pnp_process(*args: str, stdin: str | bytes | None = None, timeout: float = 60, **kw) -> Run:
    """Run pnp as its own process; return its exit code and output."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    result = subprocess.run(
        [sys.executable, "-m", "generator", *args],
        capture_output=True,
        input=data,
        cwd=kw.pop("cwd", ROOT),
        timeout=timeout,
        **kw,
    )
    return Run(
        result.returncode, result.stdout.decode(errors="replace"), result.stderr.decode(errors="replace")
    )


def mini_kit(folder: str, template: str = "# Rules\n\nPlay.\n", toml: str = MINI_TOML) -> str:
    """Write layouts/mini.toml and its booklet template under folder; return the layouts folder."""
    layouts = os.path.join(folder, "layouts")
    booklets = os.path.join(folder, "templates", "booklets")
    os.makedirs(layouts, exist_ok=True)
    os.makedirs(booklets, exist_ok=True)
    with open(os.path.join(layouts, "mini.toml"), "w", encoding="utf-8") as handle:
        handle.write(toml)
    with open(os.path.join(booklets, "mini.en.md.j2"), "w", encoding="utf-8") as handle:
        handle.write(template)
    return layouts
