"""Rule tests for Everest: each die counts once, each number has two boxes (one per column), no box
is crossed twice, crossing all 24 wins; replays of whole records with known verdicts."""

from __future__ import annotations

import pytest

from generator.foundation.errors import IllegalMoveError, NotationError
from generator.foundation.seeding import rng_for
from generator.games import find_rules
from generator.games.everest import Cross
from tests.games.record_files import play_text

RULES = find_rules("everest")


def replay(record: str):
    """Return the state after playing a record (tags, then moves)."""
    return play_text(RULES, record)


def test_a_throw_may_be_split_into_groups_and_each_group_crosses_its_total():
    state = replay("P1 2 3 5 : 5 2+3")
    assert state.outcome().score == {"p1": 2, "p2": 0}
    state = replay("P1 2 3 5 : 2+3+5")
    assert state.outcome().score["p1"] == 1
    assert "P1 2 3 5 : 2+3+5" in [state.move_str(m) for m in RULES.new_state().legal_moves()]


def test_each_die_counts_once():
    state = RULES.new_state()
    for bad in ["P1 2 3 5 : 5 5", "P1 2 3 5 : 2+3 3", "P1 2 3 5 : 4", "P1 2 3 5 : 2+3 2+5"]:
        with pytest.raises(IllegalMoveError, match="each die counts once"):
            state.copy().play(bad)


def test_a_number_may_be_crossed_once_in_each_column_but_no_box_twice():
    state = RULES.new_state()
    state.copy().play("P1 5 5 1 : 5 5")
    with pytest.raises(IllegalMoveError, match="only 2 boxes of 5 left, not 3"):
        state.copy().play("P1 5 5 5 : 5 5 5")
    state = replay("P1 2 3 5 : 5 2+3\nP2 1 1 1 : -")
    with pytest.raises(IllegalMoveError, match="both of P1's boxes of 5 are already crossed off"):
        state.copy().play("P1 5 1 1 : 5")
    moves = state.legal_moves()
    assert moves and all(m.player == "p1" for m in moves)
    assert not any(sum(g) == 5 for m in moves for g in m.groups)
    assert any(sum(g) == 6 for m in moves for g in m.groups)


def test_totals_above_12_have_no_box():
    with pytest.raises(IllegalMoveError, match="no box 18"):
        RULES.new_state().play("P1 6 6 6 : 6+6+6")


def test_a_player_may_cross_nothing():
    state = replay("P1 6 6 6 : -")
    assert state.outcome().score["p1"] == 0 and state.current_player() == "p2"


def test_players_take_turns_in_order():
    state = RULES.new_state(tags={"Players": "3"})
    with pytest.raises(IllegalMoveError, match="P1's turn"):
        state.play("P2 1 2 3 : 1")
    state.play("P1 1 2 3 : 1")
    state.play("P2 1 2 3 : 1")
    assert state.current_player() == "p3"


WIN_LINES = [
    "P1 1 1 6 : 1 1+6",
    "P1 1 1 6 : 1 1+6",
    "P1 2 2 6 : 2 2+6",
    "P1 2 2 6 : 2 2+6",
    "P1 3 3 6 : 3 3+6",
    "P1 3 3 6 : 3 3+6",
    "P1 4 4 6 : 4 4+6",
    "P1 4 4 6 : 4 4+6",
    "P1 5 5 6 : 5 5+6",
    "P1 5 5 6 : 5 5+6",
    "P1 6 6 6 : 6 6+6",
    "P1 6 6 6 : 6 6+6",
]
WIN = '[Game "everest"]\n' + "\nP2 1 1 1 : -\n".join(WIN_LINES) + "\n"


def test_the_first_player_to_cross_all_24_boxes_wins():
    state = replay(WIN)
    outcome = state.outcome()
    assert state.is_terminal() and outcome.winner == "p1" and not outcome.draw
    assert outcome.score == {"p1": 24, "p2": 0}
    assert state.legal_moves() == []


def test_23_boxes_is_not_a_win():
    head, _, _ = WIN.rpartition("P1 6 6 6 : 6 6+6")
    state = replay(head + "P1 6 6 6 : 6+6\n")
    assert not state.is_terminal() and state.outcome().score["p1"] == 23


def test_notation_round_trips_and_bad_text_is_a_notation_error():
    state = RULES.new_state()
    for move in state.legal_moves():
        assert state.parse_move(state.move_str(move)) == move
    # Dice and groups in any order name the move legal_moves lists.
    assert state.parse_move("p1 3 2 5 : 2+3 5") == Cross("p1", (2, 3, 5), ((2, 3), (5,)))
    assert state.parse_move("P1 5 3 2 : 5 3+2") == state.parse_move("P1 2 3 5 : 2+3 5")
    for bad in ["P1 2 3 : 5", "P1 2 3 7 : 5", "P1 2 3 5 5 2+3", "P1 2 3 5 :", "P1 2 3 5 : 2++3", "2 3 5 : 5"]:
        with pytest.raises(NotationError):
            state.parse_move(bad)


def test_random_playouts_finish_and_every_move_round_trips():
    for seed in range(6):
        rng = rng_for(seed, "test/everest")
        state = RULES.new_state(tags={"Players": str(1 + seed % 3)})
        while not state.is_terminal():
            move = rng.choice(state.legal_moves())
            assert state.parse_move(state.move_str(move)) == move
            state.check_move(move)
            state.apply_move(move)
        outcome = state.outcome()
        assert outcome.finished
        assert outcome.draw or outcome.score[outcome.winner] == 24
        assert all(0 <= n <= 24 for n in outcome.score.values())


def test_the_referee_replays_records_with_known_verdicts():
    from generator.referee.replay import replay as referee

    verdict = referee(WIN.replace('[Game "everest"]', '[Game "everest"]\n[Result "p1"]'))
    assert verdict.ok and verdict.outcome.winner == "p1" and verdict.moves_checked == 23
    wrong = referee('[Game "everest"]\n[Players "3"]\nP1 2 3 5 : 5 2+3\nP2 1 1 1 : -\nP3 4 4 4 : 4 4 4\n')
    assert not wrong.legal and wrong.error.index == 3 and wrong.error.line == 5
    assert wrong.error.reason == "P3 has only 2 boxes of 4 left, not 3"


def test_the_player_sheets_show_both_columns_and_fit_the_page():
    from collections import Counter as Count

    from generator.components.kinds import context, find_kind
    from generator.definitions.loader import find_definition
    from generator.model.page import Group, Text, bounds, iter_shapes
    from generator.printing.imposition import find_paper

    definition = find_definition("everest")
    for paper in ("a4", "letter"):
        ctx = context(definition, find_paper(paper))
        spec = definition.component("sheets")
        pages = find_kind(spec.kind).build(spec, ctx)[0].pages
        copies = [s for s in pages[0].shapes if isinstance(s, Group)]
        assert len(copies) == spec["copies"] >= 4
        m = ctx.paper.margin
        for copy in copies:
            x0, y0, x1, y1 = bounds([copy])
            assert (
                x0 >= m - 0.01
                and y0 >= m - 0.01
                and x1 <= pages[0].width - m + 0.01
                and y1 <= pages[0].height - m + 0.01
            )
        numbers = Count(
            s.text for s, _ in iter_shapes([copies[0]]) if isinstance(s, Text) and s.text.isdigit()
        )
        assert all(numbers[str(n)] == 2 for n in range(1, 13))


def _greedy_game(seed: int, players: int):
    """Return the end of a game where every player crosses as many boxes as each throw allows."""
    rng = rng_for(seed, "test/everest/greedy")
    state = RULES.new_state(tags={"Players": str(players)})
    while not state.is_terminal():
        dice = tuple(sorted(rng.randint(1, 6) for _ in range(3)))
        state.apply_move(max((m for m in state.legal_moves() if m.dice == dice), key=lambda m: len(m.groups)))
    return state


def test_twenty_players_get_200_throws_each_so_normal_games_are_not_cut_short():
    # Nobody can finish in fewer than 12 throws (a throw crosses at most one box above 6, and there
    # are 12 of them). A limit of 200 throws shared by 20 players (10 each) ended every game before
    # anyone could finish; counted in rounds, each player has 200 throws.
    for seed in range(4):
        outcome = _greedy_game(seed, 20).outcome()
        assert outcome.winner is not None and not outcome.draw, (seed, outcome.reason)
    # The fastest possible game: P1 crosses 1+6 and 1, 2+6 and 2, ... on throws 1 to 12 of
    # rounds 1 to 12 (throw 221 of the game), while the other 19 players cross nothing.
    state = RULES.new_state(tags={"Players": "20"})
    for turn in range(12):
        low = turn % 6 + 1
        state.play(f"P1 {low} 6 {low} : {low}+6 {low}" if low < 6 else "P1 6 6 6 : 6+6 6")
        if turn < 11:
            for player in range(2, 21):
                state.play(f"P{player} 1 1 1 : -")
    outcome = state.outcome()
    assert outcome.winner == "p1" and outcome.score["p1"] == 24 and state.throws == 221


def test_with_more_than_two_players_the_turn_limit_counts_rounds():
    state = RULES.new_state(tags={"Players": "3", "TurnLimit": "2"})
    for throw in range(6):
        assert not state.is_terminal(), f"stopped after {throw} throws"
        state.play(f"P{throw % 3 + 1} 1 1 1 : -")
    outcome = state.outcome()
    assert state.is_terminal() and outcome.draw and "2 rounds" in outcome.reason
    two = RULES.new_state(tags={"TurnLimit": "2"})  # two players: the limit counts throws
    two.play("P1 1 1 1 : -")
    two.play("P2 1 1 1 : -")
    assert two.is_terminal() and two.outcome().draw
