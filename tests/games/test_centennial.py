"""Rule tests for Centennial: entering with a 1, chains of steps in one throw, the turn at 12, the
23 steps home, claims of unused numbers, and replays of whole records with known verdicts."""

from __future__ import annotations

import pytest

from generator.foundation.errors import IllegalMoveError, NotationError, RecordError
from generator.foundation.seeding import rng_for
from generator.games import find_rules
from generator.games.centennial import NEED, STEPS, Claim, Throw
from tests.games.record_files import play_text

RULES = find_rules("centennial")


def replay(record: str):
    """Return the state after playing a record (tags, then moves)."""
    return play_text(RULES, record)


def ends(state, dice: tuple[int, int, int]) -> list[str]:
    """Return the notation of every throw of the given (sorted) dice the current player may record."""
    return [state.move_str(m) for m in state.legal_moves() if isinstance(m, Throw) and m.dice == dice]


def test_the_path_is_23_steps_out_to_12_and_back_to_1():
    assert STEPS == 23
    assert list(NEED[1:]) == list(range(1, 13)) + list(range(11, 0, -1))


def test_a_counter_enters_only_with_a_1():
    state = RULES.new_state()
    assert ends(state, (2, 3, 4)) == ["P1 2 3 4 -> -"]
    with pytest.raises(IllegalMoveError, match="does not make the 1"):
        state.play("P1 2 3 4 -> 1")
    state.play("P1 1 5 6 -> 1")
    assert state.outcome().score == {"p1": 1, "p2": 0}


def test_two_is_made_by_two_ones():
    state = replay("P1 1 4 5 -> 1\nP2 6 6 6 -> -\nP1 1 1 5 -> 2")
    assert state.outcome().score["p1"] == 2
    state = replay("P1 1 4 5 -> 1\nP2 6 6 6 -> -")
    with pytest.raises(IllegalMoveError, match="does not make the 2"):
        state.play("P1 1 4 5 -> 2")


def test_one_throw_chains_through_several_boxes_and_may_stop_early():
    state = RULES.new_state()
    assert ends(state, (1, 2, 3)) == ["P1 1 2 3 -> -"] + [f"P1 1 2 3 -> {b}" for b in range(1, 7)]
    with pytest.raises(IllegalMoveError, match="at most to box 6, not to box 7"):
        state.play("P1 1 2 3 -> 7")
    state.play("P1 1 2 3 -> 4")
    assert state.outcome().score["p1"] == 4


def test_a_die_serves_again_in_a_later_step():
    # 1 1 2: 1, then 2 (a die or 1+1), then 3 = 1+2, then 4 = 1+1+2: the dice are used again and again.
    state = replay("P1 1 1 2 -> 4")
    assert state.outcome().score["p1"] == 4


def test_the_counter_turns_at_12_and_comes_back_down():
    # 1 2 3 -> 6, 3 4 5 -> 9 (7 8 9), 1 4 6 -> 11 (10 11), then 5 6 6: 12 = 6+6, 11 = 5+6.
    state = replay(
        "P1 1 2 3 -> 6\nP2 6 6 6 -> -\nP1 3 4 5 -> 9\nP2 6 6 6 -> -\nP1 1 4 6 -> 11\nP2 6 6 6 -> -"
    )
    assert ends(state, (5, 6, 6)) == ["P1 5 6 6 -> 11 out", "P1 5 6 6 -> 12", "P1 5 6 6 -> 11"]
    back = state.copy()
    back.play("P1 5 6 6 -> 11")
    assert "box 11 back" in back.text() and "needs 10" in back.text()
    turn = state.copy()
    turn.play("P1 5 6 6 -> 12")
    assert "needs 11" in turn.text()
    stay = state.copy()
    stay.play("P1 5 6 6 -> 11 out")
    assert "box 11 out" in stay.text() and "needs 12" in stay.text()
    with pytest.raises(IllegalMoveError):
        state.copy().play("P1 5 6 6 -> 10")


def test_a_counter_cannot_go_backwards():
    state = replay("P1 1 2 3 -> 6\nP2 6 6 6 -> -")
    with pytest.raises(IllegalMoveError, match="not to box 4"):
        state.play("P1 3 4 5 -> 4")
    with pytest.raises(IllegalMoveError, match="off the strip"):
        state.play("P1 3 4 5 -> -")


WIN = """[Game "centennial"]
[Players "2"]
P1 1 2 3 -> 6
P2 6 6 6 -> -
P1 3 4 5 -> 9
P2 6 6 6 -> -
P1 1 4 6 -> 11
P2 6 6 6 -> -
P1 5 6 6 -> 11   # 12 and back to 11
P2 6 6 6 -> -
P1 4 5 6 -> 9
P2 6 6 6 -> -
P1 1 2 6 -> 6    # 8 7 6
P2 6 6 6 -> -
P1 1 2 4 -> 1    # 5 4 3 2 1: home
"""


def test_the_first_counter_back_on_box_1_wins_after_23_steps():
    state = replay(WIN)
    outcome = state.outcome()
    assert state.is_terminal() and outcome.winner == "p1" and not outcome.draw
    assert outcome.score == {"p1": 1, "p2": 0}
    assert state.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        state.play("P2 1 2 3 -> 3")


def test_box_2_on_the_way_back_is_not_home():
    state = replay(WIN.replace("P1 1 2 4 -> 1", "P1 1 2 4 -> 2"))
    assert not state.is_terminal() and state.outcome().score["p1"] == 2


def test_players_take_turns_in_order():
    state = RULES.new_state(tags={"Players": "3"})
    with pytest.raises(IllegalMoveError, match="P1's turn"):
        state.play("P2 1 2 3 -> 6")
    state.play("P1 6 6 6 -> -")
    state.play("P2 6 6 6 -> -")
    assert state.current_player() == "p3"
    with pytest.raises(IllegalMoveError, match="no P4"):
        state.play("P4 1 2 3 -> 6")


CLAIMS = """[Players "3"]
P1 1 4 5 -> 1
P2 1 4 5 -> 1
P3 6 6 6 -> -
P1 1 1 5 -> 1    # 2 (= 1+1) was there, P1 did not take it
"""


def test_an_unused_needed_number_may_be_claimed_by_a_player_who_needs_it():
    state = replay(CLAIMS)
    assert Claim("p2", 2) in state.legal_moves()
    state.play("P2 claims 2")
    assert state.outcome().score == {"p1": 1, "p2": 2, "p3": 0}
    assert not any(isinstance(m, Claim) for m in state.legal_moves())


def test_a_claim_of_a_number_that_was_not_left_unused_is_refused():
    state = replay(CLAIMS)
    with pytest.raises(IllegalMoveError, match="did not leave 5 unused"):
        state.play("P2 claims 5")
    with pytest.raises(IllegalMoveError, match="does not make 3"):
        state.play("P2 claims 3")


def test_a_claim_by_a_player_who_does_not_need_the_number_is_refused():
    state = replay(CLAIMS)
    with pytest.raises(IllegalMoveError, match="P3 needs 1 next, not 2"):
        state.play("P3 claims 2")
    with pytest.raises(IllegalMoveError, match="own throw"):
        state.play("P1 claims 2")


def test_a_claim_after_the_next_throw_is_too_late():
    state = replay(CLAIMS + "P2 6 6 6 -> 1\n")
    with pytest.raises(IllegalMoveError, match="too late"):
        state.play("P2 claims 2")


def test_a_player_may_claim_several_left_over_numbers_of_one_throw_in_order():
    # The example: P1 on box 1 throws 1 1 3 and stays; 2 (1+1), 3, 4 (1+3) and 5 (1+1+3)
    # are left over. P2, also on box 1, needs 2, then 3: both claims are legal, one after the other.
    record = (
        '[Game "centennial"]\n[Players "2"]\n'
        "P1 1 4 6 -> 1\nP2 1 4 6 -> 1\nP1 1 1 3 -> 1\nP2 claims 2\nP2 claims 3\n"
    )
    from generator.referee.replay import replay as referee

    verdict = referee(record)
    assert verdict.legal, verdict.error
    assert verdict.outcome.score == {"p1": 1, "p2": 3}
    state = replay(record)
    assert Claim("p2", 4) in state.legal_moves()  # and on: 4, then 5
    state.play("P2 claims 4")
    state.play("P2 claims 5")
    assert state.outcome().score["p2"] == 5 and not any(isinstance(m, Claim) for m in state.legal_moves())
    # Out of order is still refused: the claimer must need the number next.
    state = replay(record.replace("P2 claims 3\n", ""))
    with pytest.raises(IllegalMoveError, match="P2 needs 3 next, not 4"):
        state.play("P2 claims 4")


def test_a_number_left_twice_near_the_turn_may_be_claimed_twice():
    # P1 on box 10 throws 5 6 6 and stays: 11, 12 (6+6), 11 back (5+6) are left, 11 twice.
    # P2, also on box 10, claims 11, 12 and 11 again, and stands on box 11 of the way back.
    moves = ["P1 1 2 3 -> 6", "P2 1 2 3 -> 6", "P1 1 2 6 -> 9", "P2 1 2 6 -> 9"]
    moves += ["P1 1 3 6 -> 10", "P2 1 3 6 -> 10", "P1 5 6 6 -> 10"]
    state = replay("\n".join(moves))
    for number in (11, 12, 11):
        state.play(f"P2 claims {number}")
    assert state.steps[1] == 13 and state.outcome().score["p2"] == 11
    with pytest.raises(IllegalMoveError, match="11 has already been claimed by P2"):
        state.play("P2 claims 11")  # both 11s are taken


def test_a_number_is_claimed_once():
    state = replay(CLAIMS.replace("P3 6 6 6 -> -", "P3 1 4 5 -> 1"))
    state.play("P2 claims 2")
    with pytest.raises(IllegalMoveError, match="already been claimed by P2"):
        state.play("P3 claims 2")


def test_notation_round_trips_and_bad_text_is_a_notation_error():
    state = replay(CLAIMS)
    for move in state.legal_moves():
        assert state.parse_move(state.move_str(move)) == move
    for bad in ["P2 1 2 -> 3", "P2 1 2 7 -> 3", "P2 1 2 3 -> 13", "P2 1 2 3", "X claims 2", "P2 claims two"]:
        with pytest.raises(NotationError):
            state.parse_move(bad)
    with pytest.raises(RecordError):
        RULES.new_state(tags={"Players": "9"})


def test_random_playouts_finish_and_every_move_round_trips():
    for seed in range(20):
        rng = rng_for(seed, "test/centennial")
        state = RULES.new_state(tags={"Players": str(2 + seed % 7)})
        while not state.is_terminal():
            move = rng.choice(state.legal_moves())
            assert state.parse_move(state.move_str(move)) == move
            before = state.copy()
            state.check_move(move)
            state.apply_move(move)
            assert before.text() != state.text()
        outcome = state.outcome()
        assert outcome.finished and (outcome.draw or outcome.score[outcome.winner] == 1)


def test_the_turn_limit_counts_throws_and_ends_in_a_draw():
    state = RULES.new_state(tags={"TurnLimit": "4"})
    for _ in range(2):
        state.play("P1 6 6 6 -> -")
        state.play("P2 6 6 6 -> -")
    outcome = state.outcome()
    assert state.is_terminal() and outcome.draw and outcome.winner is None


def test_with_more_than_two_players_the_turn_limit_counts_rounds():
    # TurnLimit 3 with 4 players: 3 rounds, 12 throws (3 each), then a draw; not after 3 throws.
    state = RULES.new_state(tags={"Players": "4", "TurnLimit": "3"})
    for throw in range(12):
        assert not state.is_terminal(), f"stopped after {throw} throws"
        state.play(f"P{throw % 4 + 1} 6 6 6 -> -")
    outcome = state.outcome()
    assert state.is_terminal() and outcome.draw and "3 rounds" in outcome.reason


def _greedy_game(seed: int, players: int):
    """Return the end of a game where every player takes every box a throw allows and every claim."""
    from generator.games.centennial import box_of, chain_end

    rng = rng_for(seed, "test/centennial/greedy")
    state = RULES.new_state(tags={"Players": str(players)})
    while not state.is_terminal():
        dice = tuple(sorted(rng.randint(1, 6) for _ in range(3)))
        player = state.current_player()
        end = chain_end(state.steps[int(player[1:]) - 1], dice)
        state.play(f"{player.upper()} {' '.join(map(str, dice))} -> {box_of(end) or '-'}")
        claims = [m for m in state.legal_moves() if isinstance(m, Claim)]
        while claims and not state.is_terminal():
            state.apply_move(claims[0])
            claims = [m for m in state.legal_moves() if isinstance(m, Claim)]
    return state


def test_eight_players_get_200_throws_each_so_normal_games_are_not_cut_short():
    # A counter needs about 22 throws; a limit shared by 8 players (25 throws each) drew about a
    # fifth of these games. Counted in rounds, every one of them ends with a winner.
    for seed in range(30):
        state = _greedy_game(seed, 8)
        outcome = state.outcome()
        assert outcome.winner is not None and not outcome.draw, (seed, outcome.reason)
    # And a long game of 8 players is still going after 200 throws (25 rounds): nobody has moved.
    state = RULES.new_state(tags={"Players": "8"})
    for throw in range(8 * 30):
        state.play(f"P{throw % 8 + 1} 6 6 6 -> -")
    assert not state.is_terminal() and "round 31 of 200" in state.text()


def test_the_referee_replays_records_with_known_verdicts():
    from generator.referee.replay import replay as referee

    verdict = referee(WIN.replace('[Players "2"]', '[Players "2"]\n[Result "P1"]'))
    assert verdict.ok and verdict.outcome.winner == "p1" and verdict.moves_checked == 13
    wrong = referee(WIN.replace("P1 1 2 6 -> 6", "P1 1 2 6 -> 5"))
    assert not wrong.legal and wrong.error.index == 11 and wrong.error.line == 13
    assert wrong.error.reason == "1 2 6 carries P1 from box 9 at most to box 6, not to box 5"
    late = referee('[Game "centennial"]\n' + CLAIMS + "P2 6 6 6 -> 1\nP2 claims 2\n")
    assert not late.legal and late.error.move == "P2 claims 2" and "too late" in late.error.reason
    claimed = referee('[Game "centennial"]\n[Result "P1"]\n' + CLAIMS + "P2 claims 2\n")
    assert claimed.legal and not claimed.ok  # the game is not over, so P1 has not won


# -- the kit: the strip (track component), counters, dice ----------------------------------------


def _kit(game: str, paper: str = "a4", cell_size: float | None = None):
    from generator.components.base import Options
    from generator.components.kinds import context, find_kind
    from generator.definitions.loader import find_definition
    from generator.printing.imposition import find_paper

    definition = find_definition(game)
    ctx = context(definition, find_paper(paper), options=Options(cell_size=cell_size))
    return {
        spec.id: find_kind(spec.kind).build(spec, ctx)[0].pages
        for spec in definition.components
        if spec.kind != "booklet"
    }, ctx


def _inside_printable(page, margin: float) -> bool:
    from generator.model.page import Group, bounds

    for shape in page.shapes:
        if isinstance(shape, Group) and shape.clip is None:
            x0, y0, x1, y1 = bounds([shape])
            if (
                x0 < margin - 0.01
                or y0 < margin - 0.01
                or x1 > page.width - margin + 0.01
                or y1 > page.height - margin + 0.01
            ):
                return False
    return True


def test_the_track_folds_23_boxes_into_two_lanes_turning_round_box_12():
    from generator.components.track import lay_out

    cells = lay_out(STEPS, 12, "span")
    assert len(cells) == 23 and [c.span for c in cells].count(2) == 1 and cells[11].span == 2
    assert [c.col for c in cells] == list(range(12)) + list(range(10, -1, -1))
    assert {c.row for c in cells[:12]} == {0} and {c.row for c in cells[12:]} == {1}
    plain = lay_out(10, 4, "plain")
    assert [(c.col, c.row) for c in plain] == [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (3, 1),
        (2, 1),
        (1, 1),
        (0, 1),
        (0, 2),
        (1, 2),
    ]


def test_the_strip_numbers_the_path_of_the_rules_and_fits_one_sheet():
    from generator.model.page import Text, iter_shapes

    for paper in ("a4", "letter"):
        pages, ctx = _kit("centennial", paper)
        strip = pages["strip"]
        assert len(strip) == 1 and _inside_printable(strip[0], ctx.paper.margin)
        big = [s.text for s, _ in iter_shapes(strip[0].shapes) if isinstance(s, Text) and s.size > 20]
        assert big == [str(n) for n in NEED[1:]]
        for name in ("counters", "dice", "record"):
            assert all(_inside_printable(p, ctx.paper.margin) for p in pages[name]), (paper, name)


def test_a_strip_with_bigger_boxes_is_tiled():
    pages, _ = _kit("centennial", cell_size=32.0)
    assert len(pages["strip"]) >= 2


def test_counters_for_eight_players_differ_by_colour_and_symbol():
    from generator.definitions.loader import find_definition

    counters = find_definition("centennial").component("counters")["counters"]
    assert len(counters) == 8
    assert len({c["fill"] for c in counters}) == 8 and len({c["symbol"] for c in counters}) == 8
