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
    """Input for a live game that answers what the referee last asked: it asks with '?' and then
    types the first choice listed (its own part of the move only); it stops after 60 answers."""

    def __init__(self, out: io.StringIO) -> None:
        self.out, self.read_to, self.typed, self.asked = out, 0, [], False

    def readline(self, limit: int = -1) -> str:
        printed = self.out.getvalue()[self.read_to :]
        self.read_to = len(self.out.getvalue())
        if len(self.typed) >= 60:
            return ""
        if not self.asked:
            self.asked = True
            return "?\n"
        self.asked = False
        listing = printed.strip().splitlines()[-2]  # the answer to '?', before the next prompt
        choices = listing.split(": ", 1)[1]
        first = choices.split(", ")[0] if ", " in choices else choices.split(" ")[0]
        if " on " in first:  # Push!'s placements by die value: throw two dice, place each
            groups = [group.split(" on ") for group in choices.split(", ")]
            value = len(self.typed) % 5  # a different throw each time: value+1 and value+2
            dice = [groups[value], groups[value + 1]]
            free = [cells.split() if not cells.startswith("-") else ["-"] for _, cells in dice]
            first = " ".join(f"{v}@{c[len(self.typed) % len(c)]}" for (v, _), c in zip(dice, free))
        self.typed.append(first)
        return first + "\n"


@pytest.mark.parametrize("game", ["verbal", "push"])
@pytest.mark.parametrize("person", [0, 1])
def test_each_player_types_only_their_own_part_of_a_shared_move(
    tmp_path: Path, game: str, person: int
) -> None:
    from generator.bots import SearchBot
    from generator.foundation.seeding import Rng
    from generator.games import find_rules
    from generator.referee.live import play

    rules = find_rules(game)
    me = rules.sides[person]
    computer = {side: SearchBot(20) for side in rules.sides if side != me}
    out = io.StringIO()
    stdin = _Person(out)
    target = tmp_path / "game.txt"
    seed = 3 if game == "push" else None
    played = play(rules, stdin, out, seed=seed, save=str(target), computer=computer, rng=Rng(5, "test"))  # type: ignore[arg-type]
    text = out.getvalue()
    assert played.outcome.finished or game == "push", text[-500:]
    assert len(played.moves) >= (6 if game == "verbal" else 20)
    verbs = {"verbal": ("offer", "take"), "push": ("place the neutral dice", "push")}[game]
    computer_side = (
        next(s for s in rules.sides if s != me).capitalize()
        if game == "push"
        else next(s for s in rules.sides if s != me).upper()
    )
    # the person was asked for each part, the computer announced its own
    mine = me.capitalize() if game == "push" else me.upper()
    for verb in verbs:
        assert f"{mine} to {verb}: " in text
    assert f"{computer_side} (computer) " in text
    # and what the person typed was only a part: no whole move of the notation
    for typed in stdin.typed:
        assert ":" not in typed, typed
    assert invoke(str(target)).exit_code == 0


def _computer_throws(stdout: str, prefix: str) -> list[tuple[int, ...]]:
    """Return the dice of every computer move or placement announced with ``prefix``."""
    throws = []
    for line in stdout.splitlines():
        if line.startswith(prefix):
            part = line[len(prefix) :]
            if "@" in part:  # Push!: the placement names the two dice by value
                throws.append(tuple(sorted(int(token.split("@")[0]) for token in part.split())))
            else:  # Everest "P2 1 1 6 : 1 1 6", Centennial "P2 1 1 6 -> 1": the player, then the dice
                dice = []
                for token in part.split()[1:]:
                    if not token.isdigit():
                        break
                    dice.append(int(token))
                throws.append(tuple(dice))
    return throws


@pytest.mark.parametrize(
    ("game", "first", "prefix", "side"),
    [
        ("push", "1@a2 2@a4", "West (computer) places the neutral dice: ", "south"),
        ("everest", "P1 1 2 3 : 1 2 3", "P2 (computer) plays ", "p1"),
        ("centennial", "P1 1 2 3 -> 1", "P2 (computer) plays ", "p1"),
    ],
)
def test_undo_never_throws_the_computers_dice_again(game: str, first: str, prefix: str, side: str) -> None:
    """Undo takes back moves, not throws: every time play comes back to a move the computer threw
    dice for, it throws the same dice."""
    moves = "undo\n".join([f"{first}\n"] * 4)
    args = ("--play", game, "--vs", "computer", "--strength", "1", "--side", side)
    result = invoke(*args, stdin=moves + "quit\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("took back ") == 3
    throws = _computer_throws(result.stdout, prefix)
    assert len(throws) == 4 and len(set(throws)) == 1, throws
