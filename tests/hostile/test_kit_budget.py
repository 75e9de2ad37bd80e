"""The budget of a whole kit (issue 30, item 1): every value of a definition has its own bound, and
``generator/kits/budget.py`` bounds what they ask for together (pieces, pages, shapes, the
packer's work, PNG pixels; the margin by the paper). Every kind with its bounds at their maxima
at once builds or is refused in seconds of CPU and under 1 GB, and the sizes that hung the build
before are refused by ``check`` and ``build`` alike with one line naming the key."""

from __future__ import annotations

import os
import resource
import subprocess
import sys

import pytest

from generator.definitions.loader import load_all
from generator.kits import budget
from generator.kits.plan import kit_plan
from tests.hostile.helpers import ROOT

MEMORY = 1 << 30
CPU_SECONDS = 10

HEAD = '[game]\nid = "{id}"\ntitle = "Big"\nplayers = "2"\n\n'
LONG = "W" * 2000  # the longest text a definition takes


def _many(text: str, n: int) -> str:
    return ", ".join(text.replace("#", str(i)) for i in range(n))


def _toml(game: str, body: str) -> str:
    return HEAD.format(id=game) + body


# the sizes of the issue: each value inside its own bound, the kit far beyond any machine
ISSUE_CASES = {
    "counters-large": (
        '[components.pieces]\nkind = "counters"\nsize = "150mm"\ncounters = [{ name = "a", count = 1000 }]\n',
        "components.pieces.counters[0].count",
    ),
    "dice": (
        '[components.dice]\nkind = "dice-nets"\ndice = ['
        + _many('{ name = "d#", count = 100 }', 1000)
        + "]\n",
        "components.dice.dice[",
    ),
    "standees": (
        '[components.figures]\nkind = "standees"\nfigures = ['
        + _many('{ name = "f#", count = 200 }', 1000)
        + "]\n",
        "components.figures.figures[",
    ),
    "margin": (
        '[paper]\nmargin = "1000mm"\n\n[components.pieces]\nkind = "counters"\n'
        'counters = [{ name = "a", count = 3 }]\n',
        "paper.margin",
    ),
}

# every kind with its bounds at their maxima at once (within the 1 MB a definition file may hold)
MAXIMAL = {
    "counters": '[components.pieces]\nkind = "counters"\nsize = "1000mm"\npadding = "1000mm"\ncounters = ['
    + _many(
        f'{{ name = "c#", count = 1000, text = "{LONG[:40]}", label = "{LONG[:40]}", ring = true }}', 1000
    )
    + "]\n",
    "counters-small": '[components.pieces]\nkind = "counters"\nsize = "5mm"\ncounters = ['
    + _many('{ name = "c#", count = 1000, symbol = "star", back = { symbol = "moon" } }', 1000)
    + "]\n",
    "standees": '[components.figures]\nkind = "standees"\nwidth = "1000mm"\nheight = "1000mm"\n'
    'base = "1000mm"\nfigures = [' + _many('{ name = "f#", count = 200, numbered = true }', 1000) + "]\n",
    "standees-small": '[components.figures]\nkind = "standees"\nwidth = "5mm"\nheight = "5mm"\nbase = "2mm"\n'
    "figures = [" + _many('{ name = "f#", count = 200, symbol = "rifleman" }', 1000) + "]\n",
    "dice-nets": '[components.dice]\nkind = "dice-nets"\nsize = "5mm"\ndice = ['
    + _many('{ name = "d#", count = 100, label = "x" }', 1000)
    + "]\n",
    "cards": '[components.deck]\nkind = "cards"\nsize = "mini"\nfields = ['
    + _many('{ text = "{name}", size = 96 }', 500)
    + "]\ncards = ["
    + _many('{ name = "card #", quantity = "2" }', 1000)
    + "]\n",
    "table-sheet": '[components.record]\nkind = "table-sheet"\npages = 20\ncopies = 24\ncolumns_per_page = 4\n'
    "blocks = ["
    + _many(
        "{ split = 4, rows = 500, number_rows = true, columns = [" + _many('{ header = "h" }', 40) + "] }", 40
    )
    + "]\n",
    "grid-board": '[components.board]\nkind = "grid-board"\nfiles = 40\nranks = 40\ncell = "1000mm"\n',
    "grid-board-tiled": '[components.board]\nkind = "grid-board"\nfiles = 40\nranks = 40\ncell = "40mm"\n',
    "hex-board": '[components.board]\nkind = "hex-board"\ncolumns = 40\nrows = 40\ncell = "40mm"\n',
    "point-board": '[components.board]\nkind = "point-board"\npoints = {'
    + _many("p# = [#, #]", 1000)
    + "}\nlines = ["
    + _many('["p#", "p0"]', 999)
    + ']\nspacing = "1000mm"\n',
    "track": '[components.track]\nkind = "track"\npath = [' + _many('"#"', 1000) + ']\nbox = "1000mm"\n',
    "many-boards": "".join(
        f'[components.board{i}]\nkind = "grid-board"\nfiles = 40\nranks = 40\ncell = "40mm"\n\n'
        for i in range(100)
    ),
}


def _run(tmp_path, game: str, toml: str, *args: str) -> tuple[int, str, float]:
    """Run pnp in a process limited to MEMORY bytes; return its exit code, stderr, CPU seconds."""
    layouts = tmp_path / "layouts"
    layouts.mkdir(exist_ok=True)
    (layouts / f"{game}.toml").write_text(toml, encoding="utf-8")
    command = [a.replace("{layouts}", str(layouts)).replace("{out}", str(tmp_path / "out")) for a in args]

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(
        [sys.executable, "-m", "generator", *command],
        capture_output=True,
        text=True,
        timeout=300,  # a hang guard only: the limit asserted is CPU time, which load does not change
        cwd=ROOT,
        preexec_fn=limit,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return result.returncode, result.stderr, seconds


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pnp: error: "), err[-3000:]
    assert "Traceback" not in err and "unexpected" not in err and "memory" not in err.lower(), err
    return lines[0]


@pytest.mark.parametrize("name", sorted(ISSUE_CASES))
def test_issue_sizes_are_refused_naming_the_key(tmp_path, name):
    body, key = ISSUE_CASES[name]
    toml = _toml("big", body)
    for args in (
        ("check", "{layouts}/big.toml"),
        ("build", "big", "--layouts", "{layouts}", "--out", "{out}"),
    ):
        code, err, seconds = (
            _run(tmp_path, "big", toml, *args, "-q")
            if args[0] == "build"
            else _run(tmp_path, "big", toml, *args)
        )
        assert code == 3, err[-3000:]
        assert key in _one_line(err)
        assert seconds < CPU_SECONDS
    assert not (tmp_path / "out" / "big").exists()


@pytest.mark.parametrize("name", sorted(MAXIMAL))
def test_every_kind_at_its_maxima_builds_or_is_refused_quickly(tmp_path, name):
    toml = _toml("big", MAXIMAL[name])
    assert len(toml.encode()) <= 1_000_000
    code, err, seconds = _run(
        tmp_path, "big", toml, "build", "big", "--layouts", "{layouts}", "--out", "{out}", "--jobs", "1", "-q"
    )
    assert code in (0, 3), err[-3000:]
    if code:
        _one_line(err)
        assert not (tmp_path / "out" / "big").exists()
    assert seconds < CPU_SECONDS


def test_the_largest_kit_the_budget_allows_builds(tmp_path):
    # 2100 dice nets on about 234 sheets: just inside pieces x sheets
    toml = _toml(
        "big",
        '[components.dice]\nkind = "dice-nets"\ndice = [' + _many('{ name = "d#", count = 100 }', 21) + "]\n",
    )
    code, err, seconds = _run(
        tmp_path, "big", toml, "build", "big", "--layouts", "{layouts}", "--out", "{out}", "--jobs", "1", "-q"
    )
    assert code == 0, err[-3000:]
    assert seconds < CPU_SECONDS
    assert os.path.getsize(tmp_path / "out" / "big" / "kit.pdf") > 0


def test_png_pixels_are_bounded_naming_the_component(tmp_path):
    pytest.importorskip("pypdfium2")
    toml = _toml("big", '[components.board]\nkind = "grid-board"\nfiles = 40\nranks = 40\ncell = "20mm"\n')
    code, err, seconds = _run(
        tmp_path,
        "big",
        toml,
        "build",
        "big",
        "--layouts",
        "{layouts}",
        "--out",
        "{out}",
        "--png",
        "600",
        "-q",
    )
    assert code == 2, err[-3000:]
    line = _one_line(err)
    assert "components.board" in line and "megapixels" in line and "--png 600" in line
    assert seconds < CPU_SECONDS


@pytest.mark.parametrize("definition", load_all(), ids=lambda d: d.id)
def test_every_built_in_kit_is_well_inside_the_budget(tmp_path, definition):
    kit = kit_plan(definition, str(tmp_path))  # check_plan passes
    ctx = kit.context()
    tally = budget._Tally(definition)
    for spec in definition.components:
        estimate = budget._ESTIMATES.get(spec.kind)
        if estimate is not None:
            estimate(spec, ctx, tally, spec.id)
    assert tally.pieces <= budget.MAX_PIECES / 10
    assert tally.sheets <= budget.MAX_PAGES / 10
    assert tally.shapes <= budget.MAX_SHAPES / 10
