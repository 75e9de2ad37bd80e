"""The README's own steps keep the project's tests green: after `pnp new lanterns` (and building it)
in the repository folder, the tests and commands about the built-in games still see the eight
built-in games only (a game of one's own is checked by `pnp check`, not by the project's tests).

The steps run in a copy of the repository, so the real one is never touched."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from generator.definitions.values import BUILTIN_GAMES
from tests.conftest import ROOT, own_game_files

SKIPPED = (
    ".git",
    ".venv",
    ".venv-*",
    "output",
    "build",
    "dist",
    "__pycache__",
    "*.pyc",
    "*.egg-info",
    ".hypothesis",
    ".mypy_cache",  # the lint steps' caches: thousands of files no step reads
    ".ruff_cache",
    ".pytest_cache",
)


def run(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(copy)}
    result = subprocess.run(
        [sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result


def test_a_starter_kit_in_the_repository_folder_stays_out_of_the_builtin_games(tmp_path):
    copy = tmp_path / "repo"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(*SKIPPED))
    for mine in own_game_files():  # a reader's own games, if any (`pnp new lanterns` among them)
        (copy / mine).unlink(missing_ok=True)
    where = run(copy, "-c", "import generator; print(generator.__file__)")
    assert where.stdout.strip().startswith(str(copy)), where.stdout

    run(copy, "-m", "generator", "new", "lanterns")
    assert (copy / "layouts" / "lanterns.toml").is_file()
    run(copy, "-m", "generator", "build", "lanterns", "--layouts", "layouts", "--format", "pdf")
    assert (copy / "output" / "lanterns" / "kit.pdf").is_file()
    run(copy, "-m", "generator", "check", "layouts/lanterns.toml")

    seen = run(
        copy,
        "-c",
        "from generator.definitions.values import layout_files; from generator.definitions.loader import load_all; "
        "print(' '.join(d.id for d in load_all())); print(len(layout_files()))",
    ).stdout.split("\n")
    assert seen[0].split() == sorted(BUILTIN_GAMES) and int(seen[1]) == len(BUILTIN_GAMES)
    assert "lanterns" not in run(copy, "-m", "generator", "games").stdout

    collected = run(copy, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-p", "no:xdist")
    assert "error" not in collected.stdout.lower().splitlines()[-1], collected.stdout[-2000:]
    assert "lanterns" not in collected.stdout
