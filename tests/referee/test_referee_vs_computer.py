"""``pnp referee --play GAME --vs computer``: the search bot plays the other side, its moves are
announced in the notation, undo takes back a move with the computer's reply, the record replays."""

from __future__ import annotations

import io
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


class _Person:
    """Input for a live game that answers what the referee last printed: one of the moves it
    lists after the computer chose its part, else the first legal move after asking with '?'."""

    def __init__(self, out: io.StringIO, spaced: bool) -> None:
        # spaced: the game's moves have spaces in them, so the referee lists them apart by commas
        self.out, self.read_to, self.typed, self.spaced = out, 0, [], spaced

    def readline(self, limit: int = -1) -> str:
        printed = self.out.getvalue()[self.read_to :]
        self.read_to = len(self.out.getvalue())
        for marker in ("yours completes it: ", "legal moves: "):
            if marker in printed:
                line = printed.rsplit(marker, 1)[1].splitlines()[0]
                self.typed.append(line.split(", " if self.spaced else " ")[0])
                return self.typed[-1] + "\n"
        return "?\n" if len(self.typed) < 40 else ""


@pytest.mark.parametrize("game", ["verbal", "push"])
@pytest.mark.parametrize("person", [0, 1])
def test_the_computer_makes_only_its_own_part_of_a_shared_move(
    tmp_path: Path, game: str, person: int
) -> None:
    from generator.bots import SearchBot
    from generator.games import find_rules
    from generator.referee.live import play
    from generator.seeding import Rng

    rules = find_rules(game)
    me = rules.sides[person]
    computer = {side: SearchBot(20) for side in rules.sides if side != me}
    out = io.StringIO()
    stdin = _Person(out, spaced=game == "push")
    target = tmp_path / "game.txt"
    seed = 3 if game == "push" else None  # Push! may be played on a seeded board
    played = play(rules, stdin, out, seed=seed, save=str(target), computer=computer, rng=Rng(5, "test"))  # type: ignore[arg-type]
    text = out.getvalue()
    # a Verbal game is played to its end; a Push! game for 40 of the person's turns
    assert played.outcome is not None and (played.outcome.finished or game == "push"), text[-500:]
    assert len(played.moves) >= (6 if game == "verbal" else 40)
    # the person's parts were theirs: each move the computer opened was completed by the person...
    assert "has chosen its part of the move" in text and "(computer) makes its part: " in text
    # ...and what the person typed after a list was always one of the listed moves
    for chunk in text.split("yours completes it: ")[1:]:
        listed, _, rest = chunk.partition("\n")
        typed = rest.split(" to move: ", 1)[1].split("\n", 1)[0]
        assert typed in listed.split(", " if game == "push" else " ")
    assert invoke(str(target)).exit_code == 0
