"""``pnp referee`` through the command line: output, JSON and every exit code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from generator.cli.referee import register

RECORDS = Path(__file__).parent / "records"


def _app() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.callback()
    def _root() -> None:
        """A root so that ``referee`` stays a subcommand."""

    return app


APP = _app()


def invoke(*args: str, stdin: str | bytes | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(APP, ["referee", *args], input=stdin)


def test_a_legal_record_exits_0_with_the_outcome_and_position() -> None:
    result = invoke(str(RECORDS / "nmm_white_wins.txt"))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == [
        "all 97 moves legal",
        "outcome: White wins (Black is down to two men)",
        "claimed result 1-0: agrees",
    ]
    assert "game over after 97 turns" in result.stdout


def test_an_illegal_move_exits_4_naming_the_move() -> None:
    result = invoke(str(RECORDS / "nmm_illegal_move_23.txt"))
    assert result.exit_code == 4
    assert result.stdout.splitlines()[0] == "move 23 (line 17, col 5): c5-c4: White has no man on c5"


def test_a_wrong_claimed_result_exits_4() -> None:
    result = invoke(str(RECORDS / "nmm_black_wins_claimed_1-0.txt"))
    assert result.exit_code == 4
    assert "claimed result 1-0 (line 26, col 1) is wrong: the referee's result is 0-1" in result.stdout


def test_json_prints_one_object() -> None:
    result = invoke(str(RECORDS / "nmm_flying.txt"), "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["legal"] is True and data["moves_checked"] == 49
    assert data["outcome"]["winner"] == "white" and data["error"] is None and data["variants"] == ["flying"]


def test_standard_input_and_options_fill_in_the_game() -> None:
    result = invoke("-", "--game", "nine-mens-morris", "--variant", "flying", stdin="1. d2 f4 2. d1 b4\n")
    assert result.exit_code == 0 and result.stdout.startswith("all 4 moves legal")


@pytest.mark.parametrize(
    "args, stdin, code, words",
    [
        (["missing-file.txt"], None, 3, "cannot read missing-file.txt"),
        (["-"], b"\xff\xfe d2", 3, "not UTF-8"),
        (["-"], '[Game "chess"]\ne4', 3, "no rules for game 'chess'"),
        (["-"], '[Game "nine-mens-morris"\nd2', 3, "line 1, col 25"),
        (["-", "--game", "chess"], "d2", 3, "no rules for game"),
        ([], None, 2, "give a RECORD"),
        (["x.txt", "--play", "nine-mens-morris"], None, 2, "not both"),
        (["x.txt", "--save", "y.txt"], None, 2, "--save applies to --play"),
        (["-", "--game", "nine-mens-morris", "--variant", "jumping"], "d2", 2, "no variant 'jumping'"),
        (["-", "--seed", "-1", "--game", "nine-mens-morris"], "d2", 2, "non-negative"),
    ],
)
def test_errors_are_one_line_on_stderr_with_their_exit_code(
    args: list[str], stdin: str | None, code: int, words: str
) -> None:
    result = invoke(*args, stdin=stdin)
    assert result.exit_code == code
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr + result.stdout


def test_live_play_over_piped_input_saves_the_record(tmp_path: Path) -> None:
    target = tmp_path / "live.txt"
    result = invoke("--play", "nine-mens-morris", "--save", str(target), stdin="d2\nd2\nf4\nundo\nb4\nquit\n")
    assert result.exit_code == 0
    assert "illegal: d2 is already taken by a White man" in result.stdout
    again = invoke(str(target))
    assert again.exit_code == 0 and again.stdout.startswith("all 2 moves legal")


def test_live_play_of_an_unknown_game_exits_3() -> None:
    result = invoke("--play", "chess")
    assert result.exit_code == 3 and "no rules for game 'chess'" in result.stderr
