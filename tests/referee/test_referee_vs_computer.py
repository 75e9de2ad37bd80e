"""``pnp referee --play GAME --vs computer``: the search bot plays the other side, its moves are
announced in the notation, undo takes back a move with the computer's reply, the record replays."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.referee.test_referee_cli import APP


def invoke(*args: str, stdin: str = ""):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(APP, ["referee", *args], input=stdin)


def test_the_computer_answers_every_move_and_the_record_replays(tmp_path: Path) -> None:
    target = tmp_path / "game.txt"
    args = ("--play", "nine-mens-morris", "--vs", "computer", "--strength", "1", "--save", str(target))
    result = invoke(*args, stdin="d1\nd2\nquit\n")
    assert result.exit_code == 0, result.stderr
    announced = [line for line in result.stdout.splitlines() if line.startswith("Black (computer) plays ")]
    assert len(announced) == 2
    record = target.read_text()
    assert '[Black "computer (strength 1)"]' in record and '[White "player"]' in record
    again = invoke(str(target))
    assert again.exit_code == 0 and again.stdout.startswith("all 4 moves legal")
    assert invoke(*args, stdin="d1\nd2\nquit\n").stdout == result.stdout  # the same game again


def test_undo_takes_back_the_move_and_the_reply(tmp_path: Path) -> None:
    target = tmp_path / "game.txt"
    result = invoke(
        "--play",
        "nine-mens-morris",
        "--vs",
        "computer",
        "--strength",
        "1",
        "--save",
        str(target),
        stdin="d1\nd2\nundo\nquit\n",
    )
    assert result.exit_code == 0
    assert "took back d2, " in result.stdout
    assert invoke(str(target)).stdout.startswith("all 2 moves legal")


def test_the_computer_can_move_first_and_throw_its_own_dice(tmp_path: Path) -> None:
    target = tmp_path / "race.txt"
    result = invoke(
        "--play",
        "centennial",
        "--vs",
        "computer",
        "--side",
        "p2",
        "--strength",
        "1",
        "--save",
        str(target),
        stdin="quit\n",
    )
    assert result.exit_code == 0, result.stderr
    assert "P1 (computer) plays P1 " in result.stdout
    assert invoke(str(target)).stdout.startswith("all 1 move legal")


def test_a_whole_game_against_the_computer_ends_with_a_result(tmp_path: Path) -> None:
    target = tmp_path / "verbal.txt"
    moves = "".join(f"{a}/{b}:{b}\n" for a, b in ((1, 2), (3, 4), (5, 6)))
    result = invoke(
        "--play", "verbal", "--vs", "computer", "--strength", "1", "--save", str(target), stdin=moves
    )
    assert result.exit_code == 0, result.stderr
    assert "game over" in result.stdout
    assert "all 6 moves legal" in invoke(str(target)).stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--play", "nine-mens-morris", "--vs", "robot"), "--vs takes 'computer'"),
        (
            ("--play", "nine-mens-morris", "--vs", "computer", "--strength", "9"),
            "--strength must be from 1 to 8",
        ),
        (("--play", "nine-mens-morris", "--strength", "2"), "apply to --vs computer"),
        (("--play", "nine-mens-morris", "--vs", "computer", "--side", "red"), "no side 'red'"),
        (("x.txt", "--vs", "computer"), "apply to --play"),
    ],
)
def test_bad_options_are_one_line_usage_errors(args: tuple[str, ...], words: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
