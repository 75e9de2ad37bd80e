"""pnp's own rule texts are kept compiled in its cache folder between runs
(``$XDG_CACHE_HOME/pnp/templates``): a build with the cache writes the same bytes as one without it,
a damaged or foreign cache file is compiled again, a cache folder that cannot be written costs only
the compile, and a definition folder's own templates are never kept."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _build(out: Path, cache: Path | str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    command = [sys.executable, "-m", "generator", "build", *args, "--out", str(out)]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def _digests(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def _kept(cache: Path) -> list[Path]:
    folder = cache / "pnp" / "templates"
    return sorted(folder.iterdir()) if folder.is_dir() else []


@pytest.mark.slow
def test_a_build_keeps_the_compiled_rule_texts_and_the_next_build_writes_the_same_bytes(tmp_path):
    cache = tmp_path / "cache"
    first = _build(tmp_path / "first", cache, "nine-mens-morris", "--format", "pdf")
    assert first.returncode == 0, first.stderr
    kept = _kept(cache)
    assert kept, "no compiled template was kept"
    assert all(path.stat().st_size > 0 and not path.name.endswith(".tmp") for path in kept)
    second = _build(tmp_path / "second", cache, "nine-mens-morris", "--format", "pdf")
    assert second.returncode == 0, second.stderr
    assert _kept(cache) == kept  # one file a template: nothing new for the same texts
    assert _digests(tmp_path / "first") == _digests(tmp_path / "second")


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty"])
def test_a_damaged_cache_file_is_compiled_again(tmp_path, damage):
    cache = tmp_path / "cache"
    clean = _build(tmp_path / "clean", cache, "nine-mens-morris", "--format", "pdf")
    assert clean.returncode == 0, clean.stderr
    for path in _kept(cache):
        data = path.read_bytes()
        path.write_bytes(
            {"garbage": b"\x00junk" * 50, "truncated": data[: len(data) // 2], "empty": b""}[damage]
        )
    again = _build(tmp_path / "again", cache, "nine-mens-morris", "--format", "pdf")
    assert again.returncode == 0, again.stderr
    assert again.stderr.count("\n") <= 1
    assert _digests(tmp_path / "clean") == _digests(tmp_path / "again")


def test_a_cache_folder_that_cannot_be_made_costs_only_the_compile(tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would go\n")
    result = _build(tmp_path / "out", blocked, "nine-mens-morris", "--format", "pdf")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "nine-mens-morris" / "booklet.pdf").is_file()


@pytest.mark.slow
def test_a_definition_folders_own_templates_are_never_kept(tmp_path):
    cache = tmp_path / "cache"
    mine = tmp_path / "mine"
    made = subprocess.run(
        [sys.executable, "-m", "generator", "new", "lanterns", "--dir", str(mine)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    result = _build(tmp_path / "out", cache, "lanterns", "--layouts", str(mine / "layouts"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "lanterns" / "booklet.pdf").is_file()
    kept = _kept(cache)
    assert kept  # the print guide's texts are pnp's own
    assert not any(str(mine).encode() in path.read_bytes() for path in kept)
