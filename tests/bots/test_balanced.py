"""``pnp build GAME --seeds A-B --balanced [BAND]``: only the seeds the analysis finds fair are built."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.bots.analysis import analyse
from generator.cli.common import optional_value
from tests.cli_run import pnp  # in this process: exit code, output and error as a process gives them


def test_only_the_seeds_not_shown_unfair_are_built(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = pnp(
        "build", "aggression", "--seeds", "1-8", "--balanced", "0.6-0.95", "--balance-games", "60",
        "--format", "svg", "--out", str(out), "-j", "2",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    analysis = analyse("aggression", range(1, 9), games=60, band=(0.6, 0.95))
    fair = analysis.fair()
    assert 0 < len(fair) < 8 and set(fair) >= set(analysis.inside())  # inside the band: never dropped
    assert f"kept {len(fair)} of 8 seeds" in result.stdout
    folders = sorted(p.name for p in out.iterdir() if p.is_dir())
    assert folders == sorted(f"aggression-seed{s}" for s in fair)


def test_balanced_alone_takes_the_default_band() -> None:
    looks = lambda text: text[:1].isdigit()  # noqa: E731
    assert optional_value(["--balanced", "--seeds", "1-3"], "--balanced", "0.35-0.65", looks) == [
        "--balanced=0.35-0.65",
        "--seeds",
        "1-3",
    ]
    assert optional_value(["--balanced", "0.4-0.6"], "--balanced", "x", looks) == ["--balanced", "0.4-0.6"]
    assert optional_value(["a", "--balanced"], "--balanced", "x", looks) == ["a", "--balanced=x"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("build", "aggression", "--balanced"), "give --seeds A-B"),
        (
            ("build", "aggression", "--seeds", "1-4", "--balanced", "0.8-0.9", "--balance-games", "60"),
            "no seed",
        ),
        (("build", "aggression", "--seeds", "1-4", "--balanced", "0.8-0.2"), "band"),
        (("build", "aggression", "--seeds", "1-4", "--balance-games", "3"), "applies to --balanced"),
    ],
)
def test_errors_are_one_line_and_nothing_is_written(
    args: tuple[str, ...], words: str, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    result = pnp(*args, "--out", str(out), "-q")
    assert result.returncode == 2, result.stderr
    assert words in result.stderr and result.stderr.count("\n") == 1
    assert not out.exists()
