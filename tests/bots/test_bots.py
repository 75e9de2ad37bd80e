"""Bots over the game interface: legal moves only, games finished, the search bot stronger than
chance, the same moves for the same generator."""

from __future__ import annotations

import pytest

from generator.bots import RandomBot, SearchBot, make_bot, play_game, random_move
from generator.errors import UsageError
from generator.games import GAMES
from generator.seeding import Rng


def _start(game: str, seed: int = 3):  # type: ignore[no-untyped-def]
    rules = GAMES[game]
    return rules.new_state(seed if rules.takes_seed() else None)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_random_bot_plays_legal_moves_to_the_end(game: str) -> None:
    for seed in (1, 2, 3):
        state = _start(game, seed)
        rng = Rng(seed, "test")
        bot = RandomBot()
        moves = 0
        while not state.is_terminal():
            move = bot.choose(state, rng)
            state.check_move(move)
            assert state.parse_move(state.move_str(move)) == move
            state.apply_move(move)
            moves += 1
        assert state.outcome().finished and moves > 0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_search_bot_plays_legal_moves_and_leaves_the_state_alone(game: str) -> None:
    state = _start(game)
    rng = Rng(5, "test")
    bot = SearchBot(playouts=6)
    for _ in range(3):
        if state.is_terminal():
            break
        before = state.text()
        move = bot.choose(state, rng)
        assert state.text() == before
        state.check_move(move)
        state.apply_move(move)
    while not state.is_terminal():  # the rest at random, still legal
        move = random_move(state, rng)
        state.check_move(move)
        state.apply_move(move)
    assert state.outcome().finished


def test_dice_games_throw_fair_dice_through_the_game() -> None:
    for game in ("centennial", "everest", "push"):
        state = _start(game)
        rng = Rng(1, "dice")
        throws = [state.random_chance(rng) for _ in range(3000)]
        faces = [d for t in throws for d in t]
        for face in range(1, 7):
            assert abs(faces.count(face) / len(faces) - 1 / 6) < 0.02, (game, face)
        for throw in throws[:20]:
            moves = state.chance_moves(throw)
            assert moves and all(state.chance_of(m) in (None, throw) for m in moves)
            assert set(moves) <= set(state.legal_moves())


def test_a_game_without_dice_has_no_chance() -> None:
    state = _start("nine-mens-morris")
    assert state.random_chance(Rng(1)) is None
    assert state.chance_moves(None) == state.legal_moves()


def test_the_same_generator_gives_the_same_game() -> None:
    results = [play_game(_start("aggression"), SearchBot(playouts=5), Rng(9, "same")) for _ in range(2)]
    assert results[0] == results[1]
    results = [play_game(_start("centennial"), RandomBot(), Rng(9, "same")) for _ in range(2)]
    assert results[0] == results[1]


def test_the_search_bot_beats_the_random_bot() -> None:
    wins = 0
    games = 6
    for i in range(games):
        state = _start("aggression", 20 + i)
        me = (
            state.current_player()
            if i % 2 == 0
            else ("white" if state.current_player() == "black" else "black")
        )
        bots = {
            side: SearchBot(playouts=25) if side == me else RandomBot() for side in GAMES["aggression"].sides
        }
        result = play_game(state, bots, Rng(i, "strength"))
        wins += result.winner == me
    assert wins >= 5


def test_unknown_bots_and_budgets_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="no bot 'clever'"):
        make_bot("clever")
    with pytest.raises(UsageError, match="at least one playout"):
        make_bot("search", 0)
