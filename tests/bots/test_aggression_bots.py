"""Aggression's compulsory attack (rulings.md) as the bots play it: a player who has a successful
attack makes one, so no bot can draw a lost game out to the turn limit by naming cities that hold.

Whether an attack succeeds is worked out here from the rule (the city's troops are fewer than the
attacker's troops in the cities adjacent to it), from the position's cities and troops."""

from __future__ import annotations

from generator.bots import RandomBot, SearchBot, choose_move
from generator.foundation.seeding import Rng
from generator.games.aggression import CITY_NAMES, RULES, AggressionState


def _succeeds(state: AggressionState, city: str) -> bool:
    """Return True when the side to move would take ``city`` by attacking it."""
    holder, troops = state.city(city)
    mover = state.current_player()
    return holder not in (None, mover) and troops < state.attack_strength(city)


def _attacking_positions(count: int) -> list[AggressionState]:
    """Return positions of the attacking phase where the side to move has a successful attack and
    at least one opposing city that would hold, reached by random claims on many maps."""
    found = []
    rng = Rng(11, "tests/aggression-bots/positions")
    bot = RandomBot()
    for seed in range(200):
        state = RULES.new_state(seed)
        while not state.is_terminal():
            if state.phase() == "attacking":
                opposing = [c for c in CITY_NAMES if state.city(c)[0] not in (None, state.current_player())]
                winning = [c for c in opposing if _succeeds(state, c)]
                if winning and len(winning) < len(opposing):
                    found.append(state.copy())
                    break
            state.apply_move(bot.choose(state, rng))
        if len(found) == count:
            break
    assert len(found) == count
    return found


def test_bots_with_a_successful_attack_always_make_one() -> None:
    positions = _attacking_positions(12)
    rng = Rng(5, "tests/aggression-bots/choose")
    for bot in (RandomBot(), SearchBot(40)):
        for state in positions:
            for _ in range(3 if isinstance(bot, RandomBot) else 1):
                move = bot.choose(state, rng)
                text = state.move_str(move)
                assert text.startswith("x") and _succeeds(state, text[1:]), (bot.name, text, state.text())


def test_a_player_without_a_successful_attack_may_pass_or_name_a_city_that_holds() -> None:
    # Seed 7: after these claims Black takes G; White (H 50) cannot take M (55) or any other city.
    state = RULES.new_state(7)
    for text in "A=20 G=50 C=25 H=50 M=55 xG".split():
        state.play(text)
    assert not any(_succeeds(state, c) for c in CITY_NAMES)
    legal = sorted(state.move_str(m) for m in state.legal_moves())
    assert legal == ["pass", "xA", "xC", "xM"]
    before = state.text().splitlines()[-2:]
    state.play("pass")
    assert state.text().splitlines()[-2:] == before and state.current_player() == "black"


def test_bot_games_end_by_the_rules_and_never_at_the_turn_limit() -> None:
    # In the attacking phase a city falls at least every second turn (the player without a
    # successful attack passes, then the other must take a city), so no game reaches 200 turns.
    rng = Rng(3, "tests/aggression-bots/games")
    bots = {"random": RandomBot(), "search": SearchBot(25)}
    for seed in range(12):
        for black, white in (("random", "random"), ("search", "random"), ("random", "search")):
            state = RULES.new_state(seed)
            quiet = 0  # attacking turns in a row in which no city fell
            while not state.is_terminal():
                attacking = state.phase() == "attacking"
                cities = sum(1 for c in CITY_NAMES if state.city(c)[0] is not None)
                state.apply_move(choose_move(state, {"black": bots[black], "white": bots[white]}, rng))
                if attacking:
                    fell = sum(1 for c in CITY_NAMES if state.city(c)[0] is not None) < cities
                    quiet = 0 if fell else quiet + 1
                    assert quiet <= 1, state.text()
            outcome = state.outcome()
            assert outcome.finished and "turn limit" not in outcome.reason and state.ply < state.limit
