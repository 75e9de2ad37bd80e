"""Rule tests for Verbal: offers and takes, the reversal (Reverses tag), the comparison in the
standard game and in the odds-evens variant, including the worked example of the rule text."""

from __future__ import annotations

import pytest

from generator.foundation.errors import IllegalMoveError, NotationError, RecordError
from generator.foundation.seeding import rng_for
from generator.games import find_rules
from generator.games.verbal import Round, compare, point_at
from tests.games.record_files import play_text

RULES = find_rules("verbal")

# A keeps 1, 2, 3 in rounds 1, 3, 5 and takes 4, 6, 4 in rounds 2, 4, 6: A = 1 4 2 6 3 4;
# B takes 2, 5, 6 and keeps 3, 1, 3: B = 2 3 5 1 6 3, reversed 3 6 1 5 3 2 (the rule text's example).
EXAMPLE = """[Game "verbal"]
1/2:2 3/4:4 2/5:5 1/6:6 3/6:6 3/4:4
"""


def replay(record: str):
    """Return the state after playing a record (tags, then moves)."""
    return play_text(RULES, record)


def test_the_worked_example_scores_3_to_2_for_b():
    state = replay(EXAMPLE)
    assert state.numbers == {"a": [1, 4, 2, 6, 3, 4], "b": [2, 3, 5, 1, 6, 3]}
    assert state.rows() == {"a": [1, 4, 2, 6, 3, 4], "b": [3, 6, 1, 5, 3, 2]}
    assert compare([1, 4, 2, 6, 3, 4], [3, 6, 1, 5, 3, 2]) == ["b", "a", "a", "b", None, "b"]
    outcome = state.outcome()
    assert outcome.finished and outcome.winner == "b" and outcome.score == {"a": 2, "b": 3}


def test_the_offerer_alternates_a_first_and_keeps_the_number_not_taken():
    state = RULES.new_state()
    assert state.current_player() == "a"
    state.play("2/5:5")
    assert state.numbers == {"a": [2], "b": [5]} and state.current_player() == "b"
    state.play("6/1:6")
    assert state.numbers == {"a": [2, 6], "b": [5, 1]} and state.current_player() == "a"


def test_equal_points_is_a_draw():
    state = replay("1/6:6 2/3:3 1/4:1 3/5:3 4/6:6 2/4:2")
    outcome = state.outcome()
    assert outcome.draw and outcome.winner is None and outcome.score == {"a": 3, "b": 3}


def test_equal_numbers_score_nothing():
    assert [point_at(p, 4, 4) for p in range(1, 7)] == [None] * 6
    assert point_at(1, 5, 4) == "a" and point_at(2, 5, 4) == "b"


def test_the_odds_evens_variant():
    assert point_at(1, 3, 6, odds_evens=True) == "a"
    assert point_at(2, 3, 6, odds_evens=True) == "b"
    assert point_at(3, 2, 4, odds_evens=True) is None
    assert point_at(4, 1, 5, odds_evens=True) is None
    # The example's rows: only position 3 (1 odd beats 2) and position 4 (6 even beats 5) score.
    state = replay('[Variant "odds-evens"]\n' + EXAMPLE)
    outcome = state.outcome()
    assert outcome.draw and outcome.score == {"a": 1, "b": 1}


def test_the_reverses_tag_makes_a_reverse():
    state = replay('[Reverses "A"]\n' + EXAMPLE)
    assert state.rows() == {"a": [4, 3, 6, 2, 4, 1], "b": [2, 3, 5, 1, 6, 3]}
    outcome = state.outcome()
    assert outcome.winner == "a" and outcome.score == {"a": 3, "b": 2}
    with pytest.raises(RecordError):
        RULES.new_state(tags={"Reverses": "C"})


def test_offers_must_be_two_different_numbers_and_the_take_one_of_them():
    state = RULES.new_state()
    with pytest.raises(IllegalMoveError, match="must differ"):
        state.play("3/3:3")
    with pytest.raises(IllegalMoveError, match="4 was not offered"):
        state.play("2/5:4")
    for bad in ["2/7:7", "0/5:5", "2-5:5", "25:5", "2/5"]:
        with pytest.raises(NotationError):
            state.parse_move(bad)


def test_the_game_ends_after_six_rounds():
    state = replay(EXAMPLE)
    assert state.is_terminal() and state.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        state.play("1/2:1")
    unfinished = replay("1/2:2 3/4:4")
    assert not unfinished.outcome().finished and len(unfinished.legal_moves()) == 30


def test_random_games_round_trip_and_score_six_positions_at_most():
    for seed in range(50):
        rng = rng_for(seed, "test/verbal")
        state = RULES.new_state(variants=frozenset({"odds-evens"}) if seed % 2 else frozenset())
        while not state.is_terminal():
            move = rng.choice(state.legal_moves())
            assert state.parse_move(state.move_str(move)) == move
            state.play(state.move_str(move))
        outcome = state.outcome()
        assert outcome.finished and sum(outcome.score.values()) <= 6
        assert outcome.draw == (outcome.score["a"] == outcome.score["b"])
    # The order of the offer does not matter: the round parses to the one legal_moves lists.
    assert RULES.new_state().parse_move(" 5 / 2 : 2 ") == Round((2, 5), 2)


def test_the_referee_replays_records_with_known_verdicts():
    from generator.referee.replay import replay as referee

    verdict = referee(EXAMPLE + "0-1\n")
    assert verdict.ok and verdict.outcome.score == {"a": 2, "b": 3}
    odds = referee(
        '[Game "verbal"]\n[Variant "odds-evens"]\n[Result "1/2-1/2"]\n' + EXAMPLE.split("\n", 1)[1]
    )
    assert odds.ok and odds.outcome.draw
    wrong = referee(EXAMPLE.replace("1/6:6", "1/6:5"))
    assert (
        not wrong.legal
        and wrong.error.index == 4
        and wrong.error.reason == "5 was not offered: the offer was 1 or 6"
    )


def test_the_score_pad_holds_several_games_with_both_comparisons():
    from generator.components.kinds import context, find_kind
    from generator.definitions.loader import find_definition
    from generator.model.page import Group, Text, bounds, iter_shapes
    from generator.printing.imposition import find_paper

    definition = find_definition("verbal")
    for paper in ("a4", "letter"):
        ctx = context(definition, find_paper(paper))
        spec = definition.component("pad")
        pages = find_kind(spec.kind).build(spec, ctx)[0].pages
        games = [s for s in pages[0].shapes if isinstance(s, Group)]
        assert len(pages) == 1 and len(games) >= 3
        m = ctx.paper.margin
        for game in games:
            x0, y0, x1, y1 = bounds([game])
            assert (
                x0 >= m - 0.01
                and y0 >= m - 0.01
                and x1 <= pages[0].width - m + 0.01
                and y1 <= pages[0].height - m + 0.01
            )
        words = [s.text for s, _ in iter_shapes([games[0]]) if isinstance(s, Text)]
        assert words.count("higher") == 3 and words.count("lower") == 3
        assert words.count("odd") == 3 and words.count("even") == 3
        assert "Reversed row" in words and [w for w in words if w in ("A", "B")] == ["A", "B"] * 3


def test_the_worked_example_in_the_booklet_data_is_the_referees():
    data = RULES.layout_data("example")
    assert data["standard"]["points"] == ["B", "A", "A", "B", "-", "B"]
    assert data["standard"]["score"] == {"a": 2, "b": 3} and data["odds_evens"]["score"] == {"a": 1, "b": 1}


def test_the_booklets_chance_numbers_cannot_be_forced_by_either_player():
    from itertools import combinations

    from tests.games.booklet_text import booklet_text

    text = booklet_text("verbal")
    pairs = list(combinations(range(1, 7), 2))
    # Offer and take cannot toss a coin: an offer of two odd (or two even) numbers decides the
    # parity alone. The booklet must not use it for heads or tails, and says so.
    assert any(a % 2 == b % 2 for a, b in pairs)
    assert "odd number taken means heads" not in text
    assert "an offerer who names two odd numbers decides the result alone" in text
    # Its coin: both pick 1 to 6 in secret, the parity of the total decides. Whatever one picks,
    # the other can still make either parity, so neither forces it.
    assert "secretly picks a number from 1 to 6" in text and "An even total means heads" in text
    for mine in range(1, 7):
        assert {(mine + theirs) % 2 for theirs in range(1, 7)} == {0, 1}
    # Its die: two rounds, one offered by each, the two numbers taken added (less 6 above 6). In the
    # second round the taker picks between two different results, and the offerer can keep any
    # one number out of the pair, so neither forces a particular number.
    assert "Add the two numbers that were taken; if the total is more than 6, take 6 away" in text

    def number(first: int, second: int) -> int:
        total = first + second
        return total - 6 if total > 6 else total

    for first in range(1, 7):
        for u, v in pairs:
            assert number(first, u) != number(first, v)
        for target in range(1, 7):
            assert any(target not in (number(first, u), number(first, v)) for u, v in pairs)
