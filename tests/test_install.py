"""The real install: the wheel built from this source, installed into a fresh virtual environment
outside the repository, runs from another folder (built-in games from inside the package, the
referee, a starter kit written into the working folder and never into the package).

Marked ``install`` (the slowest test: it installs the dependencies from pip's cache);
``pytest -m "not install"`` leaves it out while working."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.definitions.values import BUILTIN_GAMES
from tests.conftest import ROOT, own_game_files

pytestmark = pytest.mark.install

SOURCE = ("pyproject.toml", "README.md", "generator", "layouts", "templates")
RECORD = Path(ROOT) / "tests" / "referee" / "records" / "nmm_white_wins.txt"


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run a command, failing the test with its output when it exits non-zero."""
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, f"{' '.join(args)}\n{result.stdout}\n{result.stderr}"
    return result


def pip_in(bin_dir: Path) -> list[str]:
    """Return the command line of pip working on the venv of a bin folder."""
    return [sys.executable, "-m", "pip", "--python", str(bin_dir / "python")]


def install(tmp: Path) -> tuple[Path, Path, dict[str, str]]:
    """Return the fresh venv's bin folder, an empty working folder and the environment to run in."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    # build from a copy of the tracked sources, so no stale build/ folder or local file slips in
    source = tmp / "source"
    own = {Path(ROOT) / f for f in own_game_files()}  # a reader's `pnp new` games stay out of the wheel

    def ignored(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if n == "__pycache__" or n.endswith(".pyc") or Path(folder) / n in own}

    for name in SOURCE:
        src = Path(ROOT) / name
        if src.is_dir():
            shutil.copytree(src, source / name, ignore=ignored)
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(src, source / name)
    dist = tmp / "dist"
    run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(dist), str(source)], tmp, env
    )
    wheels = sorted(dist.glob("pnp_kits-*.whl"))
    assert len(wheels) == 1, wheels
    # a venv without pip and setuptools (installing them into it took longer than installing the
    # wheel; and the wheel then runs with its declared dependencies alone), installed into by the
    # pip that runs the tests (`pip --python`)
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp, env)
    run([*pip_in(venv / "bin"), "install", "--quiet", "--no-compile", str(wheels[0])], tmp, env)
    work = tmp / "work"
    work.mkdir()
    return venv / "bin", work, env


def test_the_wheel_installs_and_runs_from_another_folder(tmp_path):
    # one test, so that parallel workers install once: every step below uses the same venv
    installed = install(tmp_path)
    the_installed_package_is_the_wheel_not_the_source(installed)
    pnp_build_all_builds_every_builtin_kit(installed)
    pnp_referee_replays_a_record(installed)
    pnp_new_writes_into_the_working_folder_and_builds(installed)


def the_installed_package_is_the_wheel_not_the_source(installed: tuple[Path, Path, dict[str, str]]) -> None:
    bin_dir, work, env = installed
    where = run([str(bin_dir / "python"), "-c", "import generator; print(generator.__file__)"], work, env)
    assert "site-packages" in where.stdout and not where.stdout.startswith(ROOT)
    shown = run([*pip_in(bin_dir), "show", "pnp-kits"], work, env)
    assert "Name: pnp-kits" in shown.stdout


def pnp_build_all_builds_every_builtin_kit(installed: tuple[Path, Path, dict[str, str]]) -> None:
    bin_dir, work, env = installed
    run([str(bin_dir / "pnp"), "build", "--all", "--out", "kits"], work, env)
    kits = work / "kits"
    folders = sorted(p.name.split("-seed")[0] for p in kits.iterdir() if p.is_dir())
    assert folders == sorted(BUILTIN_GAMES)
    for folder in kits.iterdir():
        if folder.is_dir():
            manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
            names = {f["name"] for f in manifest["files"]}
            assert {"kit.pdf", "booklet.pdf"} <= names, folder.name
    assert (kits / "index.html").is_file()


def pnp_referee_replays_a_record(installed: tuple[Path, Path, dict[str, str]]) -> None:
    bin_dir, work, env = installed
    shutil.copy2(RECORD, work / "game.txt")
    result = run([str(bin_dir / "pnp"), "referee", "game.txt", "--json"], work, env)
    data = json.loads(result.stdout)
    assert data["outcome"]["winner"] == "white" and data["error"] is None


def pnp_new_writes_into_the_working_folder_and_builds(installed: tuple[Path, Path, dict[str, str]]) -> None:
    bin_dir, work, env = installed
    run([str(bin_dir / "pnp"), "new", "lanterns"], work, env)
    assert (work / "layouts" / "lanterns.toml").is_file()
    assert (work / "templates" / "booklets" / "lanterns.en.md.j2").is_file()
    run([str(bin_dir / "pnp"), "build", "lanterns", "--layouts", "layouts", "--out", "mine"], work, env)
    assert (work / "mine" / "lanterns" / "kit.pdf").is_file()
    package = run([str(bin_dir / "python"), "-c", "import generator; print(generator.__file__)"], work, env)
    assert not list(Path(package.stdout.strip()).parent.rglob("lanterns*"))
