"""A build task's memory is capped (``generator.workers.parallel.memory_cap``): a definition within every
bound of its own cannot take the machine's memory. A kit beyond the cap is one line naming its
file, exit 3, by ``check`` and ``build`` alike, on one process or several, and nothing of it is
left in the output folder. The cap is lowered here (a picture of 9 megapixels needs more than
16 MB to draw) so that the test needs no gigabytes."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from generator.workers.parallel import TooMuchMemory, memory_cap
from tests.hostile.helpers import ROOT

DECK = """
[game]
id = "{id}"
title = "Pictures"
players = "2"

[components.deck]
kind = "cards"
size = "poker"
cards = [{{ name = "Lake", type = "t", quantity = 1 }}]
fields = [{{ kind = "image", image = "lake.png", h = "80mm" }}]
"""

CAPPED = """
import sys
from generator.workers import parallel
parallel.TASK_MEMORY = 16 << 20
from generator.cli import main
main(sys.argv[1:])
"""


@pytest.fixture
def layouts(tmp_path: Path) -> Path:
    """Return a folder of two definitions, each a deck with one 3000 x 3000 picture."""
    folder = tmp_path / "layouts"
    folder.mkdir()
    Image.new("RGB", (3000, 3000), (20, 100, 200)).save(folder / "lake.png", optimize=True)
    for game in ("lake", "pond"):
        (folder / f"{game}.toml").write_text(DECK.format(id=game), encoding="utf-8")
    return folder


def capped(*args: str) -> subprocess.CompletedProcess[str]:
    """Run pnp with a task's memory capped at 16 MB."""
    return subprocess.run(
        [sys.executable, "-c", CAPPED, *args], capture_output=True, text=True, cwd=ROOT, timeout=300
    )


@pytest.mark.parametrize(
    "command",
    [["check", "{layouts}/lake.toml"], ["build", "lake", "-j", "1"], ["build", "--all", "-j", "2"]],
    ids=["check", "build", "build-two-jobs"],
)
def test_a_kit_beyond_the_memory_cap_is_one_line_exit_3(layouts: Path, tmp_path: Path, command):
    out = tmp_path / "out"
    args = [a.format(layouts=layouts) for a in command]
    if args[0] == "build":
        args += ["--layouts", str(layouts), "--out", str(out), "-q"]
    done = capped(*args)
    assert done.returncode == 3, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert ".toml: building it needs more than 16 MB of memory" in lines[0], lines[0]
    assert str(layouts) in lines[0] or args[0] == "check"
    # nothing of the kits is in the output folder (a killed worker's staging folder is hidden,
    # and the next build into the folder clears it)
    shown = [p.name for p in out.iterdir() if not p.name.startswith(".")] if out.exists() else []
    assert shown == [], shown


def test_without_the_lowered_cap_the_same_kits_build(layouts: Path, tmp_path: Path):
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "generator", "build", "--all", "-j", "2", "--layouts", str(layouts),
         "--out", str(out), "-q"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (out / "lake" / "kit.pdf").is_file() and (out / "pond" / "kit.pdf").is_file()
    assert not [p for p in out.iterdir() if p.name.startswith(".tmp")]


def test_the_cap_holds_in_the_block_and_is_restored_after():
    before = resource.getrlimit(resource.RLIMIT_DATA)
    with pytest.raises(TooMuchMemory, match=r"^somewhere: building it needs more than 64 MB"):
        with memory_cap("somewhere", 64 << 20):
            assert resource.getrlimit(resource.RLIMIT_DATA)[0] != resource.RLIM_INFINITY
            bytearray(256 << 20)
    assert resource.getrlimit(resource.RLIMIT_DATA) == before
    with memory_cap("somewhere", 64 << 20):
        kept = bytearray(16 << 20)  # within the cap
    assert len(kept) == 16 << 20
