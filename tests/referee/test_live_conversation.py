"""Live play as a conversation (``pnp referee --play``), through the command line with scripted input.

Each player types only their own part of a move (Verbal: the offerer ``4/5``, the taker ``4``;
Push!: the thrower's placement, then the pusher's push); ``?`` lists what that player can play
now, short and grouped; the board shown after each part includes everything on the table (Push!'s
neutral dice once placed); ``--vs computer`` gives the person the side that moves first; a seeded
game without ``--seed`` is played on the kit's default seed, as ``pnp build`` draws it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.bots import random_move
from generator.definitions.loader import find_definition
from generator.foundation.seeding import Rng
from generator.games import GAMES, find_rules
from generator.games.push import CELL_INDEX, board_numbers
from generator.referee.record import parse_record
from tests.referee.test_referee_cli import invoke


def _script(game: str, seed: int, moves: int) -> tuple[list[str], list[str], int | None]:
    """Return what the players type for a random game of ``moves`` moves (each decider's own part,
    parts left with one choice skipped), the moves of the record, and the board seed."""
    rules = find_rules(game)
    board = None
    if rules.takes_seed():
        board = find_definition(game).game["default_seed"] if rules.seeded else seed
    state = rules.new_state(board, frozenset(), {})
    rng = Rng(seed, f"tests/live-conversation/{game}")
    typed: list[str] = []
    played: list[str] = []
    while not state.is_terminal() and len(played) < moves:
        move = random_move(state, rng)
        for stage in range(len(state.deciders())):
            among = state.completions(move, stage) if stage else None
            if among is not None and len({state.part_str(m, stage) for m in among}) == 1:
                continue
            typed.append(state.part_str(move, stage))
        played.append(state.move_str(move))
        state.apply_move(move)
    return typed, played, board


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_is_played_part_by_part_and_saved_as_played(tmp_path: Path, game: str) -> None:
    typed, played, board = _script(game, 4, 30)
    target = tmp_path / "game.txt"
    args = ["--play", game, "--save", str(target)]
    if find_rules(game).takes_seed() and board is not None and not find_rules(game).seeded:
        args += ["--seed", str(board)]
    result = invoke(*args, stdin="\n".join(typed + ["quit"]) + "\n")
    assert result.exit_code == 0, result.output[-2000:]
    assert "illegal" not in result.stdout, result.stdout[-2000:]
    record = parse_record(target.read_text(), move_per_line=find_rules(game).move_per_line)
    assert [t.text for t in record.moves] == played
    assert invoke(str(target)).exit_code == 0
    if len(find_rules(game).new_state(board).deciders()) > 1:
        assert all(":" not in t for t in typed)  # Verbal's and Push!'s moves hold a colon; parts never


def test_verbal_offerer_types_the_offer_and_taker_the_number() -> None:
    result = invoke("--play", "verbal", stdin="?\n4/5:4\n4/5\n?\n3\n4\nquit\n")
    out = result.stdout
    assert result.exit_code == 0
    offers = re.search(r"A can offer: (.*)", out)
    assert offers and offers.group(1).split() == [f"{a}/{b}" for a in range(1, 7) for b in range(a + 1, 7)]
    assert "illegal: '4/5:4' is not an offer like 2/5" in out  # the offerer does not take
    takes = re.search(r"B can take: (.*)", out)
    assert takes and takes.group(1).split() == ["4", "5"]
    assert "illegal: 3 was not offered" in out
    assert "played 4/5:4" in out and "A          5\nB          4" in out


def test_verbal_against_the_computer_the_person_types_only_the_offer(tmp_path: Path) -> None:
    target = tmp_path / "v.txt"
    result = invoke(
        "--play", "verbal", "--vs", "computer", "--strength", "1", "--save", str(target), stdin="4/5\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "A to offer: " in result.stdout and re.search(r"B \(computer\) takes: [45]\n", result.stdout)
    assert re.search(r"B \(computer\) offers: [1-6]/[1-6]\nA to take: ", result.stdout)
    assert parse_record(target.read_text()).moves[0].text in ("4/5:4", "4/5:5")


def _grid(picture: str) -> dict[str, str]:
    """Return the cells of the first Push! picture in a text: cell name -> its three characters."""
    cells: dict[str, str] = {}
    for line in picture.lstrip("\n").split("\n\n", 1)[0].splitlines():
        match = re.match(r"^([1-6]) (.*)$", line)
        if match:
            rank, row = match.groups()
            row = row.ljust(24)
            for f in range(6):
                cells[f"{'abcdef'[f]}{rank}"] = row[6 + 3 * f : 9 + 3 * f]
    return cells


def test_push_thrower_places_and_pusher_pushes_with_short_lists() -> None:
    numbers = board_numbers(1)
    result = invoke("--play", "push", stdin="?\n3@a3 5@a5 : 6 2\n3@a3 5@a5\nquit\n")
    out = result.stdout
    assert result.exit_code == 0, result.output
    # '?' before the throw: per die value, the empty cells showing it (six short groups)
    listing = re.search(r"South can place the neutral dice: (.*)", out)
    assert listing
    groups = listing.group(1).split(", ")
    assert [g.split(" on ")[0] for g in groups] == ["1", "2", "3", "4", "5", "6"]
    for group in groups:
        value, cells = group.split(" on ")
        assert all(numbers[CELL_INDEX[c]] == int(value) for c in cells.split())
    assert "illegal: '3@a3 5@a5 : 6 2': the thrower only places" in out
    # after the placement the board shows the neutral dice where they were placed
    after = out.split("3@a3 5@a5\n", 1)[1]
    shown = _grid(after)
    assert shown["a3"] == "(3)" and shown["a5"] == "(5)"
    assert "played 3@a3 5@a5 : 6 2" in out


def test_push_question_mark_lists_the_pushes_apart_from_the_placements() -> None:
    rules = find_rules("push")
    state = rules.new_state(1)
    # a placement that leaves West several pushes
    placement = next(
        state.part_str(m, 0)
        for m in state.chance_moves((2, 4))
        if len({p.pushes for p in state.completions(m, 1)}) > 1
    )
    result = invoke("--play", "push", stdin=f"{placement}\n?\nquit\n")
    listing = re.search(r"West can push: (.*)", result.stdout)
    assert listing, result.stdout
    pushes = listing.group(1).split(", ")
    expected = {state.part_str(m, 1) for m in state.chance_moves((2, 4)) if state.part_str(m, 0) == placement}
    assert sorted(pushes) == sorted(expected) and len(pushes) == len(set(pushes))
    assert all("@" not in p for p in pushes)


def test_push_against_the_computer_the_person_plays_south_who_throws_first(tmp_path: Path) -> None:
    target = tmp_path / "p.txt"
    result = invoke(
        "--play", "push", "--vs", "computer", "--strength", "1", "--save", str(target), stdin="quit\n"
    )
    assert result.exit_code == 0, result.output
    assert "South to place the neutral dice: " in result.stdout
    assert '[South "player"]' in target.read_text() and '[West "computer (strength 1)"]' in target.read_text()


def test_push_computer_placement_is_shown_on_the_board(tmp_path: Path) -> None:
    result = invoke("--play", "push", "--vs", "computer", "--side", "west", "--strength", "1", stdin="quit\n")
    out = result.stdout
    placed = re.search(r"South \(computer\) places the neutral dice: ([1-6])@(\S+) ([1-6])@(\S+)", out)
    assert placed, out
    shown = _grid(out.split(placed.group(0), 1)[1])
    for value, cell in ((placed.group(1), placed.group(2)), (placed.group(3), placed.group(4))):
        if cell != "-":
            assert shown[cell] == f"({value})"


@pytest.mark.parametrize("game", sorted(g for g, r in GAMES.items() if r.seeded))
def test_a_seeded_game_without_seed_is_played_on_the_kits_default_seed(tmp_path: Path, game: str) -> None:
    target = tmp_path / "g.txt"
    result = invoke("--play", game, "--save", str(target), stdin="quit\n")
    assert result.exit_code == 0, result.output
    default = find_definition(game).game["default_seed"]
    assert f'[Seed "{default}"]' in target.read_text()
    board = find_rules(game).new_state(default).text()
    assert board in result.stdout
