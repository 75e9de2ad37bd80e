"""The command line: exit codes and one-line messages, never a traceback."""

from __future__ import annotations

import subprocess

import pytest

from generator.definitions.values import BUILTIN_GAMES, layout_files
from tests.cli_run import pnp, pnp_process
from tests.conftest import ROOT

__all__ = ["ROOT", "one_line_error", "pnp", "pnp_process"]


def one_line_error(result: subprocess.CompletedProcess) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert lines[0].startswith("pnp: error: ")
    return lines[0]


def test_help_lists_the_commands():
    result = pnp_process("--help")  # python -m generator, started as a process
    assert result.returncode == 0
    for command in ("games", "build", "check", "board", "referee"):
        assert command in result.stdout


def test_games_lists_every_layout():
    result = pnp("games")
    assert result.returncode == 0
    for game in BUILTIN_GAMES:
        assert game in result.stdout


def test_unknown_game_exits_3(tmp_path):
    result = pnp("build", "no-such-game", "--out", str(tmp_path))
    assert result.returncode == 3
    assert "unknown game 'no-such-game'" in one_line_error(result)
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize(
    "args,words",
    [
        (["build", "nine-mens-morris", "--paper", "a3"], "unknown paper"),
        (["build", "nine-mens-morris", "--format", "png"], "unknown format"),
        (["build", "nine-mens-morris", "--bogus"], "No such option"),
        (["build"], "name at least one game"),
        (["build", "nine-mens-morris", "--cell-size", "huge"], "--cell-size"),
        (["build", "nine-mens-morris", "--lang", "de"], "unknown language"),
        (["build", "nine-mens-morris", "--seed", "3"], "no seeded board"),
        (["build", "nine-mens-morris", "--variant", "nope"], "no variant"),
    ],
)
def test_bad_options_exit_2_with_one_line(tmp_path, args, words):
    result = pnp(*args, "--out", str(tmp_path))
    assert result.returncode == 2, result.stderr
    assert words in one_line_error(result)
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_broken_definition_is_named_with_its_key(tmp_path):
    bad = tmp_path / "broken.toml"
    bad.write_text(
        '[game]\nid = "broken"\ntitle = "B"\nplayers = "2"\ncolour = 3\n'
        '[components.b]\nkind = "counters"\ncounters = [{name = "x", count = 1}]\n'
    )
    result = pnp("check", str(bad))
    assert result.returncode == 3
    line = one_line_error(result)
    assert "broken.toml" in line and "game.colour" in line and "accepted:" in line


def test_check_accepts_every_shipped_definition():
    files = layout_files()
    result = pnp("check", *files)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(": ok") == len(files)


def test_build_writes_the_kit_and_reports(tmp_path):
    result = pnp("build", "nine-mens-morris", "--out", str(tmp_path), "--format", "pdf")
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "nine-mens-morris"
    assert (folder / "kit.pdf").is_file() and (folder / "manifest.json").is_file()
    assert not list(folder.glob("*.svg"))
    assert (tmp_path / "index.html").is_file()


def test_unexpected_failures_are_one_line_too(tmp_path):
    blocker = tmp_path / "out"
    blocker.write_text("a file where the output folder should be")
    result = pnp("build", "nine-mens-morris", "--out", str(blocker))
    assert result.returncode != 0
    one_line_error(result)
