"""Options are checked like definitions: a path that is empty, holds a control character or goes
too deep, and a bot analysis beyond its bounds (playouts, or seeds x games x playouts), are refused
in one line with exit 2 before any work, from the library as from the command line."""

from __future__ import annotations

import pytest

from generator.bots import MAX_PLAYOUTS
from generator.bots.analysis import MAX_GAMES, MAX_WORK, analyse
from generator.foundation.errors import UsageError
from generator.foundation.files import MAX_PATH_DEPTH
from generator.kits.plan import check_out
from tests.foundation.test_cli import one_line_error, pnp

DEEP = "/".join(["d"] * (MAX_PATH_DEPTH + 8))


@pytest.mark.parametrize(
    "args",
    [
        ["build", "nine-mens-morris", "--out", DEEP],
        ["build", "nine-mens-morris", "--out", "a\tb"],
        ["build", "nine-mens-morris", "--out", "a\x7fb"],
        ["board", "push", "--out", DEEP],
        ["calibrate", "--out", DEEP],
        ["check", ""],
        ["check", "\x01push.toml"],
        ["referee", "--play", "nine-mens-morris", "--save", ""],
        ["referee", "--play", "nine-mens-morris", "--save", DEEP],
        ["analyse", "push", "--seeds", "1-2", "--bot", "search", "--playouts", "99999999999"],
        ["analyse", "push", "--seeds", "1-2", "--bot", "search", "--playouts", str(MAX_PLAYOUTS + 1)],
        ["analyse", "push", "--seeds", "1-2000", "--games", "1000", "--bot", "search", "--playouts", "1000"],
        ["build", "aggression", "--seeds", "1-3", "--balanced", "--balance-games", "99999999999"],
        ["build", "aggression", "--seeds", "1-3", "--balanced", "--balance-games", str(MAX_GAMES + 1)],
        # each batch within the bound, all of them together beyond it
        ["build", "--all", "--seeds", "1-10000", "--balanced", "--balance-games", str(MAX_WORK // 10000)],
    ],
)
def test_an_option_out_of_bounds_is_one_line_and_exit_2(tmp_path, args):
    result = pnp(*args, cwd=str(tmp_path), stdin="")
    assert result.returncode == 2, result.stderr
    one_line_error(result)
    assert list(tmp_path.iterdir()) == []  # nothing made, not even the first folder


def test_the_plan_takes_a_folder_at_the_depth_bound_and_refuses_one_deeper():
    assert check_out("/".join(["d"] * MAX_PATH_DEPTH))
    with pytest.raises(UsageError, match="folders deep"):
        check_out("/".join(["d"] * (MAX_PATH_DEPTH + 1)))


@pytest.mark.parametrize("playouts", [MAX_PLAYOUTS + 1, 10**11])
def test_the_library_refuses_playouts_beyond_the_bound(playouts):
    with pytest.raises(UsageError, match="playouts"):
        analyse("push", [1], games=1, bot="search", playouts=playouts)


def test_the_library_bounds_the_product_of_seeds_games_and_playouts():
    games = MAX_GAMES // 10
    seeds = list(range(1, MAX_WORK // (games * 100) + 2))
    with pytest.raises(UsageError, match="seeds x games x playouts"):
        analyse("push", seeds, games=games, bot="search", playouts=100)


def test_the_balance_bounds_name_the_option_and_hold_before_any_game(tmp_path):
    result = pnp("build", "aggression", "--seeds", "1-3", "--balanced", "--balance-games",
                 str(MAX_GAMES + 1), cwd=str(tmp_path))  # fmt: skip
    assert f"--balance-games must be from 1 to {MAX_GAMES:,}" in one_line_error(result)
    games = MAX_GAMES // 5
    seeds = MAX_WORK // games // 2 + 1  # each batch of this many seeds within the bound, two beyond
    result = pnp("build", "aggression", "push", "--seeds", f"1-{seeds}", "--balanced", "--balance-games",
                 str(games), "--out", str(tmp_path / "out"))  # fmt: skip
    assert result.returncode == 2 and "seeds x --balance-games is" in one_line_error(result)
