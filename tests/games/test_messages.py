"""The referee's words: every game's messages agree in number ("1 point each", "2 boxes of 5",
"three 6s") and read as plain English. Each message is reached through the public API, with counts
of one and of more, and every text is checked against the same patterns."""

from __future__ import annotations

import re

import pytest

from generator.foundation.errors import IllegalMoveError, RecordError
from generator.foundation.seeding import rng_for
from generator.games import find_rules, known_games
from generator.games.words import count, plural, spelt

SINGULAR = (
    "point",
    "troop",
    "round",
    "throw",
    "player",
    "box",
    "square",
    "turn",
    "man",
    "pawn",
    "die",
    "city",
)
NOUNS = "|".join(SINGULAR)
#: A number other than 1 before a singular noun ("2 box"), 1 before a plural ("1 points"),
#: or a bare count of a die face ("has 3 6"): the slips these tests look for.
BAD = (
    re.compile(rf"(?<!box )\b(0|[2-9]|\d\d+) ({NOUNS})\b"),  # not "box 12 turn" (the turn lane)
    re.compile(rf"\b1 ({'|'.join(plural(noun) for noun in SINGULAR)})\b"),
    re.compile(r"\bhas \d+ \d\b"),
)


def check(text: str) -> str:
    """Return the text after checking it has none of the slips of BAD."""
    for pattern in BAD:
        assert not pattern.search(text), f"{pattern.pattern!r} in {text!r}"
    return text


def refused(state, move: str) -> str:
    """Return the referee's reason for refusing a move, checked."""
    with pytest.raises((IllegalMoveError, RecordError)) as caught:
        state.play(move)
    return check(str(caught.value))


def test_words_put_counts_and_nouns_in_agreement():
    assert [count(n, "point") for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    assert (count(2, "box"), count(2, "rifleman"), count(3, "machine gunner")) == (
        "2 boxes",
        "2 riflemen",
        "3 machine gunners",
    )
    assert (spelt(0, "6"), spelt(1, "3"), spelt(3, "6"), plural("man")) == (
        "no 6s",
        "one 3",
        "three 6s",
        "men",
    )


def test_the_issues_examples_read_as_english():
    everest = find_rules("everest").new_state()
    assert refused(everest.copy(), "P1 6 6 6 : 6+6 6 6").startswith(
        "each die counts once: 6 6 6 has three 6s"
    )
    assert "has one 3" in refused(everest.copy(), "P1 2 3 5 : 3 3")
    everest.play("P1 5 5 1 : 5 5")
    everest.play("P2 1 1 1 : -")
    assert refused(everest.copy(), "P1 5 5 1 : 5") == "both of P1's boxes of 5 are already crossed off"
    alone = find_rules("everest").new_state(tags={"Players": "1"})
    alone.play("P1 4 4 4 : 4")
    assert refused(alone, "P1 4 4 4 : 4 4") == "P1 has only 1 box of 4 left, not 2"
    assert check(alone.text()).startswith("Everest, 1 player,")
    assert refused(alone, "P2 1 1 1 : -") == "there is no P2 in a game of 1 player"
    # Verbal: the odds-and-evens example is a draw, one point each.
    verbal = find_rules("verbal").new_state(variants=frozenset({"odds-evens"}))
    for move in ("1/2:2", "3/4:4", "2/5:5", "1/6:6", "3/6:6", "3/4:4"):
        verbal.play(move)
    assert check(verbal.outcome().reason) == "1 point each"


def test_counts_of_one_in_every_game_read_as_english():
    aggression = find_rules("aggression").new_state(7)
    aggression.play("A=99")
    aggression.play("T=100")
    assert refused(aggression.copy(), "pass") == "black still has 1 troop to place, so cannot pass"
    assert refused(aggression, "B=5") == "black has only 1 troop left, not 5"
    brain = find_rules("take-the-brain").new_state()
    assert refused(brain, "d1-d3") in (
        "a Brain moves only one square; d1 to d3 is 2 squares",
        "the Brain cannot pass over the piece on d2",
    )
    barricades = find_rules("barricades")
    with pytest.raises(RecordError) as caught:
        barricades.new_state(1, tags={"RedSetup": "P:a10,b10,c10,d10 R:e10 G:g10,h10 M:i10,j10"})
    assert check(str(caught.value)).endswith("2 riflemen needed, 1 given")
    push = find_rules("push").new_state()
    placed = next(push.move_str(m) for m in push.legal_moves() if m.throw == (3, 5)).split(":")[0]
    assert refused(push, placed + ": 4").endswith("(or be one die showing 3 or 5), not a 4 alone")


@pytest.mark.parametrize("game", known_games())
def test_turn_limits_of_one_and_the_positions_read_as_english(game):
    rules = find_rules(game)
    seed = 1 if rules.seeded else None
    players = {"Players": "3"} if "Players" in rules.extra_tags else {}
    rng = rng_for(0, f"tests/messages/{game}")
    state = rules.new_state(seed, frozenset(), {"TurnLimit": "1", **players})
    check(state.text())
    while not state.is_terminal():
        state.apply_move(state.random_move(rng))
    outcome = state.outcome()
    assert outcome.finished
    check(outcome.reason)
    check(state.text())
    if outcome.draw and "limit" in outcome.reason:
        assert re.search(r"\b1 (turn|round|throw)\b", outcome.reason), outcome.reason
    # And a longer game: the position's text after every move, and how it ends.
    state = rules.new_state(seed, frozenset(), {"TurnLimit": "60", **players})
    while not state.is_terminal():
        state.apply_move(state.random_move(rng))
        check(state.text())
    check(state.outcome().reason)
