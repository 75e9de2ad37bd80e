"""Batches and parallel builds: a batch's later seeds hold just what changes with the seed, with
the same bytes a whole kit of that seed has; any number of jobs writes the same bytes; the
contact sheet is light and complete."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.cli_run import pnp  # in this process: exit code, output and error as a process gives them
from tests.conftest import build


def files_of(folder) -> dict[str, bytes]:
    """Return every file under a folder by relative path, with its bytes."""
    out = {}
    for base, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(base, name)
            out[os.path.relpath(path, folder)] = open(path, "rb").read()
    return out


@pytest.mark.parametrize("game", ["aggression", "barricades"])
def test_a_batch_shares_what_does_not_change_with_the_seed(tmp_path, game):
    build(str(tmp_path / "batch"), game, seeds="4-7", jobs=2)
    first = tmp_path / "batch" / f"{game}-seed4"
    build(str(tmp_path / "one"), game, seed="4", jobs=1)
    assert files_of(first) == files_of(tmp_path / "one" / f"{game}-seed4")
    for seed in (5, 7):
        build(str(tmp_path / f"whole{seed}"), game, seed=str(seed), jobs=1)
        whole = files_of(tmp_path / f"whole{seed}" / f"{game}-seed{seed}")
        part = files_of(tmp_path / "batch" / f"{game}-seed{seed}")
        manifest = json.loads(part.pop("manifest.json"))
        assert manifest["shared_from"] == f"{game}-seed4" and manifest["seed"] == seed
        assert sorted(f["name"] for f in manifest["files"]) == sorted(part)
        assert "board.pdf" in part and "kit.pdf" not in part
        assert not any(name.startswith("booklet") for name in part)
        for name, data in part.items():
            assert whole[name] == data, name  # the same bytes as the seed's whole kit
        # kit.pdf and its print guide (on its own with --parts) name the seed
        # the booklet and the quick-reference card ("aid") print notation examples found on the
        # kit's own board, so the batch's shared kit carries its first seed's
        for name in set(whole) - set(part) - {"manifest.json", "kit.pdf", "print-guide.pdf"}:
            if not name.startswith(("booklet", "aid")):
                assert files_of(first)[name] == whole[name], name  # really the same for every seed
    maps = tmp_path / "batch" / f"{game}-seeds4-7.pdf"
    assert maps.is_file()


def test_serial_and_parallel_builds_write_the_same_bytes(tmp_path, all_kits):
    build(str(tmp_path / "serial"), jobs=1)
    serial, parallel = files_of(tmp_path / "serial"), files_of(all_kits)
    assert len(serial) > 100
    assert serial.keys() == parallel.keys()
    for name in serial:
        assert serial[name] == parallel[name], name


def test_a_parallel_batch_writes_what_a_serial_one_does(tmp_path):
    build(str(tmp_path / "serial"), "aggression", "push", seeds="1-9", jobs=1)
    build(str(tmp_path / "parallel"), "aggression", "push", seeds="1-9", jobs=2)
    assert files_of(tmp_path / "serial") == files_of(tmp_path / "parallel")


def test_the_contact_sheet_of_every_kit_is_light_and_complete(all_kits):
    tmp_path = Path(all_kits)
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    images = re.findall(r'<img[^>]*\ssrc="([^"]+)"', index)
    kits = sorted(p.name for p in tmp_path.iterdir() if p.is_dir())
    assert len(images) == len(kits) == 8
    assert [src.split("/")[0] for src in images] == kits
    loaded = len(index.encode()) + sum(os.path.getsize(tmp_path / src) for src in images)
    assert loaded < 2_000_000
    for src in images:
        svg = (tmp_path / src).read_text(encoding="utf-8")
        assert "<text" not in svg and "@font-face" not in svg
    for href in re.findall(r'href="([^"#]+)"', index):
        assert (tmp_path / href).is_file(), href


def test_jobs_must_be_a_positive_number(tmp_path):
    for bad in ("0", "-2", "x"):
        result = pnp("build", "verbal", "--jobs", bad, "--out", str(tmp_path))
        assert result.returncode == 2, bad
        assert len(result.stderr.strip().splitlines()) == 1
    assert not any(tmp_path.iterdir())
