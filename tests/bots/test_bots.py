"""Bots over the game interface: legal moves only, games finished, the search bot stronger than
chance, the same moves for the same generator, and each side choosing its own part of a move
that holds two sides' choices (Verbal's offer and take, Push!'s placement and push)."""

from __future__ import annotations

from typing import Any

import pytest

from generator.bots import RandomBot, SearchBot, choose_move, make_bot, play_game, random_move, reward
from generator.foundation.errors import UsageError
from generator.foundation.seeding import Rng
from generator.games import GAMES
from generator.games.base import State


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


def _verbal(*rounds: str) -> State:
    state = GAMES["verbal"].new_state()
    for text in rounds:
        state.play(text)
    return state


def _worst_case(state: State, side: str) -> dict[tuple[int, int], float]:
    """Return, for each offer of the last round, what it is worth to ``side`` after the worse take."""
    worth: dict[tuple[int, int], float] = {}
    for move in state.legal_moves():
        after = state.copy()
        after.apply_move(move)
        worth[move.offer] = min(worth.get(move.offer, 1.0), reward(after.outcome(), side))
    return worth


def test_the_search_bot_offers_expecting_the_other_player_to_take_against_it() -> None:
    # B offers in the last round. 5/6 is the one offer that A cannot turn into a loss for B; a
    # search that chose A's take for A (as one move of the record would let it) liked other offers.
    state = _verbal("5/6:5", "2/6:2", "2/4:2", "3/6:6", "2/6:6")
    worth = _worst_case(state, "b")
    assert [offer for offer, value in worth.items() if value == max(worth.values())] == [(5, 6)]
    assert state.deciders() == ("b", "a")
    for seed in range(5):
        move = SearchBot(playouts=200).choose(state, Rng(seed, "offer"))
        assert move.offer == (5, 6), state.move_str(move)
        after = state.copy()
        after.apply_move(move)
        assert reward(after.outcome(), "b") == worth[(5, 6)]  # the take it expects is A's best


def test_the_search_bot_takes_an_offer_that_wins_whatever_the_take() -> None:
    # 5/6 wins for B whichever number A takes; 1/6 wins only if A takes the 6.
    state = _verbal("1/5:5", "4/5:5", "3/6:6", "3/6:6", "1/6:6")
    worth = _worst_case(state, "b")
    assert [offer for offer, value in worth.items() if value == 1.0] == [(5, 6)]
    for seed in range(5):
        assert SearchBot(playouts=50).choose(state, Rng(seed, "win")).offer == (5, 6)


def test_the_search_bot_takes_the_number_best_for_itself() -> None:
    # Offered 1 or 6 in the last round, A draws by taking the 1 and loses by taking the 6.
    state = _verbal("1/5:5", "4/5:5", "3/6:6", "3/6:6", "1/6:6")
    among = [m for m in state.legal_moves() if m.offer == (1, 6)]
    for seed in range(5):
        assert state.move_str(SearchBot(playouts=50).choose(state, Rng(seed, "take"), among)) == "1/6:1"
    assert RandomBot().choose(state, Rng(1), among) in among


class _Asked:
    """A random bot that notes what it was asked to choose from."""

    name = "asked"

    def __init__(self, side: str, log: list[tuple[str, Any]]) -> None:
        self.side, self.log = side, log

    def choose(self, state: State, rng: Rng, among: Any = None) -> Any:
        self.log.append((self.side, None if among is None else list(among)))
        return RandomBot().choose(state, rng, among)


def test_each_side_chooses_its_own_part_of_a_verbal_round() -> None:
    state = GAMES["verbal"].new_state()
    log: list[tuple[str, Any]] = []
    result = play_game(state, {side: _Asked(side, log) for side in ("a", "b")}, Rng(4, "parts"))
    assert result.length == 6 and state.is_terminal()
    assert [side for side, _ in log] == ["a", "b", "b", "a", "a", "b", "b", "a", "a", "b", "b", "a"]
    for i, move in enumerate(state.history):
        offerer_asked, taker_asked = log[2 * i], log[2 * i + 1]
        assert offerer_asked[1] is None
        assert sorted(taker_asked[1], key=lambda m: m.take) == [
            type(move)(move.offer, move.offer[0]),
            type(move)(move.offer, move.offer[1]),
        ]


def test_the_thrower_places_and_the_pusher_pushes_at_push() -> None:
    state = _start("push")
    log: list[tuple[str, Any]] = []
    bots = {side: _Asked(side, log) for side in GAMES["push"].sides}
    rng = Rng(2, "push-parts")
    for _ in range(6):
        thrower, pusher = state.deciders()
        assert pusher == state.current_player() and thrower != pusher
        log.clear()
        move = choose_move(state, bots, rng)
        assert log[0] == (thrower, None)
        for side, among in log[1:]:
            assert side == pusher
            assert all(m.throw == move.throw and m.cells == move.cells for m in among) and move in among
        state.check_move(move)
        state.apply_move(move)


def test_the_search_bot_wins_nine_in_ten_verbal_games_against_chance() -> None:
    wins = 0
    for i in range(10):
        me = "a" if i % 2 == 0 else "b"
        bots = {side: SearchBot(playouts=100) if side == me else RandomBot() for side in ("a", "b")}
        wins += play_game(GAMES["verbal"].new_state(), bots, Rng(i, "verbal-strength")).winner == me
    assert wins >= 9


def test_unknown_bots_and_budgets_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="no bot 'clever'"):
        make_bot("clever")
    with pytest.raises(UsageError, match="at least one playout"):
        make_bot("search", 0)
