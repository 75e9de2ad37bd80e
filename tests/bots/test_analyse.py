"""``pnp analyse``: the same figures serial or parallel, reports that read back, a chart that
opens, one-line errors."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.bots.analysis import analyse, analysis_table, parse_band, wilson, write_chart
from generator.foundation.errors import UsageError
from tests.cli_run import pnp  # in this process: exit code, output and error as a process gives them


def test_the_figures_are_the_same_serial_and_parallel() -> None:
    serial = analyse("aggression", range(1, 7), games=4, jobs=1)
    parallel = analyse("aggression", range(1, 7), games=4, jobs=2)
    assert serial == parallel
    assert [s.seed for s in serial.seeds] == list(range(1, 7))
    for s in serial.seeds:
        assert s.wins + s.draws + s.losses == 4
        assert s.low <= s.score <= s.high
        assert s.inside == (0.35 <= s.score <= 0.65)


def test_search_bots_give_the_same_figures_twice() -> None:
    one = analyse("verbal", [1, 2], games=3, bot="search", playouts=10, jobs=1)
    two = analyse("verbal", [1, 2], games=3, bot="search", playouts=10, jobs=2)
    assert one == two


def test_wilson_interval() -> None:
    low, high = wilson(10, 20)
    assert low == pytest.approx(0.2993, abs=1e-4) and high == pytest.approx(0.7007, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_bands() -> None:
    assert parse_band("0.4-0.6") == (0.4, 0.6)
    assert parse_band("40-60") == (0.4, 0.6)
    for bad in ("0.6-0.4", "abc", "0.4", "-1-0.5", "50-150"):
        with pytest.raises(UsageError):
            parse_band(bad)


def test_cli_json_csv_and_chart(tmp_path: Path) -> None:
    args = (
        "analyse",
        "aggression",
        "--seeds",
        "1-5",
        "--games",
        "3",
        "-q",
        "--out",
        str(tmp_path),
        "-j",
        "2",
    )
    first = pnp(*args, "--json")
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert [s["seed"] for s in data["seeds"]] == [1, 2, 3, 4, 5]
    assert data["outside"] == [s["seed"] for s in data["seeds"] if not s["inside"]]
    again = pnp(*args[:-2], "-j", "1", "--json")
    assert again.stdout == first.stdout
    rows = list(csv.DictReader(io.StringIO(pnp(*args, "--csv").stdout)))
    assert [int(r["seed"]) for r in rows] == [1, 2, 3, 4, 5]
    assert [float(r["score"]) for r in rows] == [s["score"] for s in data["seeds"]]
    assert len(PdfReader(tmp_path / "aggression-analysis.pdf").pages) == 1
    root = ET.parse(tmp_path / "aggression-analysis.svg").getroot()
    texts = "".join(root.itertext())
    assert "Aggression" in texts and "seed" in texts


def test_the_table_and_chart_are_the_same_twice(tmp_path: Path) -> None:
    result = analyse("aggression", range(1, 4), games=2, band=(0.4, 0.6))
    table = analysis_table(result)
    assert "band 0.40-0.60" in table and "seeds inside the band" in table
    written = []
    for name in ("a", "b"):
        paths = write_chart(result, str(tmp_path / name))
        written.append([Path(p).read_bytes() for p in paths])
    assert written[0] == written[1]


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (("analyse", "aggression", "--seeds", "x"), 2, "seeds must be"),
        (("analyse", "aggression", "--seeds", "1-3", "--bot", "clever"), 2, "no bot"),
        (("analyse", "aggression", "--seeds", "1-3", "--band", "0.7-0.2"), 2, "band"),
        (("analyse", "aggression", "--seeds", "1-3", "--games", "0"), 2, "--games"),
        (("analyse", "aggression", "--seeds", "1-3", "--json", "--csv"), 2, "--json and --csv"),
        (("analyse", "aggression", "--seeds", "1-3", "--variant", "bogus"), 2, "variant"),
        (("analyse", "chess", "--seeds", "1-3"), 3, "no rules"),
        (("analyse", "aggression"), 2, "--seeds"),
    ],
)
def test_errors_are_one_line(args: tuple[str, ...], code: int, words: str, tmp_path: Path) -> None:
    result = pnp(*args, "--out", str(tmp_path))
    assert result.returncode == code, result.stderr
    assert result.stderr.count("\n") == 1 and words in result.stderr
    assert not list(tmp_path.iterdir())
