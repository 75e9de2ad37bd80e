"""Claimed results in the games of numbered players (rulings.md, "Common to every referee"): when
two play, ``1-0`` and ``0-1`` claim a win for P1 or P2; ``[Result "P3"]`` names any winner,
whatever the number of players; ``1-0`` with three or more players is a one-line error.

Checked through ``pnp referee`` on finished random games of every game whose sides are numbered."""

from __future__ import annotations

import pytest

from generator.bots import random_move
from generator.foundation.seeding import Rng
from generator.games import GAMES
from tests.referee.test_referee_cli import invoke

NUMBERED = sorted(g for g, rules in GAMES.items() if all(s == f"p{i + 1}" for i, s in enumerate(rules.sides)))


def test_the_numbered_games_are_found() -> None:
    assert {"centennial", "everest"} <= set(NUMBERED)


def _finished(game: str, players: int, seed: int) -> tuple[str, str | None]:
    """Return a finished random game as record lines (no result) and its winner (None: a draw)."""
    rules = GAMES[game]
    tags = {"Players": str(players)}
    state = rules.new_state(None, frozenset(), tags)
    rng = Rng(seed, f"tests/numbered-results/{game}/{players}")
    lines = [f'[Game "{game}"]', f'[Players "{players}"]', ""]
    while not state.is_terminal():
        move = random_move(state, rng)
        lines.append(state.move_str(move))
        state.apply_move(move)
    return "\n".join(lines) + "\n", state.outcome().winner


def _won(game: str, players: int, winner_index: int | None = None) -> tuple[str, str]:
    """Return a record (no result) of a game won by a player, and that player ('p1', ...)."""
    for seed in range(400):
        text, winner = _finished(game, players, seed)
        if winner is not None and (winner_index is None or winner == f"p{winner_index + 1}"):
            return text, winner
    raise AssertionError(f"no random {game} game of {players} won by the player asked for")


def _run(text: str):  # type: ignore[no-untyped-def]
    return invoke("-", stdin=text.encode("utf-8"))


@pytest.mark.parametrize("game", NUMBERED)
@pytest.mark.parametrize("first", [True, False])
def test_two_players_1_0_and_0_1_claim_a_win_for_p1_or_p2(game: str, first: bool) -> None:
    text, winner = _won(game, 2, 0 if first else 1)
    right, wrong = ("1-0", "0-1") if winner == "p1" else ("0-1", "1-0")
    agrees = _run(text + right + "\n")
    assert agrees.exit_code == 0, agrees.output
    assert f"claimed result {right}: agrees" in agrees.stdout
    refused = _run(text + wrong + "\n")
    assert refused.exit_code == 4, refused.output
    assert (
        f"claimed result {wrong} (line" in refused.stdout
        and f"the referee's result is {right}" in refused.stdout
    )
    tagged = text.replace("\n\n", f'\n[Result "{right}"]\n\n', 1)
    assert _run(tagged).exit_code == 0


@pytest.mark.parametrize("game", NUMBERED)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_result_tag_naming_a_player_names_any_winner(game: str, players: int) -> None:
    text, winner = _won(game, players)
    for written in (winner.upper(), winner):
        tagged = text.replace("\n\n", f'\n[Result "{written}"]\n\n', 1)
        result = _run(tagged)
        assert result.exit_code == 0, result.output
        assert f"claimed result {written}: agrees" in result.stdout
    loser = next(f"P{i}" for i in range(1, players + 1) if f"p{i}" != winner)
    result = _run(text.replace("\n\n", f'\n[Result "{loser}"]\n\n', 1))
    assert result.exit_code == 4, result.output
    assert f"the referee's result is {'1-0' if winner == 'p1' else '0-1'}" in result.stdout or (
        players > 2 and f"the referee's result is {winner.upper()}" in result.stdout
    )


@pytest.mark.parametrize("game", NUMBERED)
@pytest.mark.parametrize("token", ["1-0", "0-1"])
def test_1_0_with_three_or_more_players_is_a_one_line_error(game: str, token: str) -> None:
    text, _ = _won(game, 3)
    result = _run(text + token + "\n")
    assert result.exit_code == 3, result.output
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1 and "Traceback" not in result.output
    assert token in message and "a game of 3 players" in message and "name the winner" in message
    assert not result.stdout


@pytest.mark.parametrize("game", NUMBERED)
def test_a_player_who_does_not_play_is_no_result(game: str) -> None:
    text, _ = _won(game, 2)
    result = _run(text.replace("\n\n", '\n[Result "P5"]\n\n', 1))
    assert result.exit_code == 3 and "P5 does not play" in result.stderr
