"""Nine Men's Morris rules, one test per ruling in rulings.md."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from generator.foundation.errors import BoardError, IllegalMoveError, NotationError
from generator.foundation.seeding import rng_for
from generator.games import find_rules
from generator.games.nine_mens_morris import Move, NineMensMorrisState, example_before
from tests.games.booklet_text import booklet_text

RULES = find_rules("nine-mens-morris")
POINT_NAMES = "a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7 d7 g7".split()


def position(
    white: str,
    black: str,
    to_move: str = "white",
    hand: tuple[int, int] = (0, 0),
    flying: bool = False,
    turns: int = 0,
) -> NineMensMorrisState:
    pieces = {p: "white" for p in white.split()} | {p: "black" for p in black.split()}
    return NineMensMorrisState.from_position(
        pieces,
        to_move,
        {"white": hand[0], "black": hand[1]},
        turns=turns,
        variants=("flying",) if flying else (),
    )


def reason(state: NineMensMorrisState, text: str) -> str:
    with pytest.raises(IllegalMoveError) as info:
        state.check_move(state.parse_move(text))
    return str(info.value)


def legal(state: NineMensMorrisState) -> set[str]:
    return {state.move_str(m) for m in state.legal_moves()}


def test_board_has_24_points_32_lines_and_16_straight_mills() -> None:
    board = RULES.board_data()
    assert sorted(board["points"]) == sorted(POINT_NAMES)
    assert len(board["lines"]) == 32
    assert all(a < b for a, b in board["lines"]) and board["lines"] == sorted(board["lines"])
    assert len(board["mills"]) == 16
    for mill in board["mills"]:
        xs = {tuple(board["points"][p]) for p in mill}
        assert len({x for x, _ in xs}) == 1 or len({y for _, y in xs}) == 1  # straight, no diagonals
    assert board["points"]["a7"] == [0, 0] and board["points"]["a1"] == [0, 6]


def test_white_moves_first_and_may_place_on_any_point() -> None:
    state = RULES.new_state()
    assert state.current_player() == "white"
    assert legal(state) == set(POINT_NAMES)


def test_placing_takes_turns_until_both_have_placed_nine() -> None:
    state = RULES.new_state()
    order = "a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5".split()  # no mill is closed
    for i, point in enumerate(order):
        assert state.current_player() == ("white" if i % 2 == 0 else "black")
        state.play(point)
    assert state.in_hand() == {"white": 0, "black": 0}
    assert "placed all 9 men" in reason(state, "g1")
    assert all(m.frm is not None for m in state.legal_moves())


def test_no_move_while_men_remain_in_hand() -> None:
    state = position("d2", "f4", hand=(5, 6))
    assert "still has 5 men to place" in reason(state, "d2-d3")


def test_a_man_moves_along_a_line_to_an_adjacent_empty_point() -> None:
    state = position("a4 d2 g1", "a1 g7 c5")
    assert reason(state, "a4-c5") == "c5 is already taken by a Black man"
    assert reason(state, "a4-c4") == "c4 is not adjacent to a4"
    assert reason(state, "c5-c4") == "White has no man on c5"
    assert legal(state) == {"a4-a7", "a4-b4", "d2-b2", "d2-d1", "d2-d3", "d2-f2", "g1-d1", "g1-g4"}


def test_closing_a_mill_by_placing_removes_a_man_and_only_then() -> None:
    state = position("a1 d1", "b4 f6", hand=(7, 7))
    assert "closes a mill" in reason(state, "g1")
    assert "does not close a mill" in reason(state, "d2xb4")
    state.play("g1xb4")
    assert state.pieces() == {"a1": "white", "d1": "white", "g1": "white", "f6": "black"}


def test_closing_a_mill_by_moving_removes_a_man() -> None:
    state = position("a1 g1 d2 b6", "d3 f4 g7 c5")
    assert {m for m in legal(state) if m.startswith("d2-d1")} == {
        "d2-d1xd3",
        "d2-d1xf4",
        "d2-d1xg7",
        "d2-d1xc5",
    }
    state.play("d2-d1xf4")
    assert "f4" not in state.pieces()


def test_men_in_mills_are_protected_while_others_remain() -> None:
    state = position("a1 g1 d2 b6", "a7 d7 g7 f4")
    assert "stands in a mill" in reason(state, "d2-d1xd7")
    assert {m for m in legal(state) if m.startswith("d2-d1")} == {"d2-d1xf4"}
    assert "no Black man on b6" in reason(state, "d2-d1xb6")


def test_any_man_may_be_taken_when_every_man_is_in_a_mill() -> None:
    state = position("a1 g1 d2 b4", "a7 d7 g7 e3 e4 e5")
    assert {m for m in legal(state) if m.startswith("d2-d1")} == {
        f"d2-d1x{p}" for p in "a7 d7 g7 e3 e4 e5".split()
    }


def test_closing_two_mills_at_once_removes_one_man() -> None:
    state = position("a1 g1 d2 d3", "f4 c5 b6", hand=(1, 6))  # d1 closes a1-d1-g1 and d1-d2-d3 at once
    double = [m for m in state.legal_moves() if m.to == "d1"]
    assert {m.take for m in double} == {"f4", "c5", "b6"} and len(double) == 3
    state.play("d1xf4")
    assert set(state.pieces().values()) == {"white", "black"} and len(state.pieces()) == 7


def test_breaking_a_mill_and_closing_it_again_counts_again() -> None:
    state = position("a1 d1 g1 b6", "a7 d6 f6 c5 e3")
    state.play("d1-d2")
    state.play("a7-d7")
    assert "closes a mill" in reason(state, "d2-d1")
    state.play("d2-d1xc5")
    assert "c5" not in state.pieces()


def test_a_player_down_to_two_men_loses_counting_men_in_hand() -> None:
    state = position("a1 d1 b4", "f4 c5", hand=(4, 1))  # Black: 2 on the board + 1 in hand = 3
    assert not state.is_terminal()
    state.play("g1xc5")
    out = state.outcome()
    assert out.finished and out.winner == "white" and "down to two men" in out.reason
    assert state.legal_moves() == []


def test_a_player_reduced_to_two_men_in_the_moving_phase_loses() -> None:
    state = position("a1 g1 d2 b6", "f4 c5 g7")
    state.play("d2-d1xg7")
    assert state.outcome().winner == "white"
    assert "game is already over" in reason(state, "f4-f2")


def test_a_blocked_player_loses() -> None:
    before = example_before("position:blocked")
    before.play("c4-b4")
    out = before.outcome()
    assert out.finished and out.winner == "white" and out.reason == "Black cannot move"
    assert before.legal_moves() == []


def test_the_game_is_drawn_at_200_turns_and_a_turnlimit_tag_changes_it() -> None:
    shuffle = ["a1-a4", "a7-d7", "a4-a1", "d7-a7"]
    state = position("a1 g1 d2", "a7 f4 c5", turns=196)
    for _i, text in enumerate(shuffle):
        assert not state.is_terminal()
        state.play(text)
    out = state.outcome()
    assert out.finished and out.draw and out.winner is None and "200" in out.reason
    short = RULES.new_state(tags={"TurnLimit": "4"})
    for text in ("a1", "a7", "d1", "d7"):
        short.play(text)
    assert short.outcome().draw
    with pytest.raises(BoardError):
        RULES.new_state(tags={"TurnLimit": "soon"})


def test_a_win_on_the_last_turn_beats_the_draw() -> None:
    state = position("a1 g1 d2 b6", "f4 c5 g7", turns=199)
    state.play("d2-d1xg7")
    assert state.outcome().winner == "white" and not state.outcome().draw


def test_a_blockade_on_the_last_turn_beats_the_draw() -> None:
    # The booklet: a player who cannot move on their turn loses at once, and that is settled before
    # the turn limit is looked at. The blockade record ends on its 55th turn with Black unable to
    # move; with a limit of 55 turns that last turn still wins, and a limit of 54 draws the game.
    from generator.referee.replay import replay

    text = (Path(__file__).parent.parent / "referee" / "records" / "nmm_blockade.txt").read_text()
    at_limit = replay(text.replace('[Result "1-0"]', '[Result "1-0"]\n[TurnLimit "55"]'))
    assert at_limit.ok and at_limit.moves_checked == 55
    assert at_limit.outcome.winner == "white" and at_limit.outcome.reason == "Black cannot move"
    before = replay(text.replace('[Result "1-0"]', '[TurnLimit "54"]').replace("1-0\n", "\n"))
    assert before.moves_checked == 54 and not before.legal and before.error.index == 55
    assert before.outcome.draw and "turn limit of 54" in before.outcome.reason


def test_flying_variant_lets_a_player_with_three_men_move_anywhere() -> None:
    plain = position("a1 g1 d2", "a7 d7 f4 c5")
    assert reason(plain, "d2-e5") == "e5 is not adjacent to d2"
    flying = position("a1 g1 d2", "a7 d7 f4 c5", flying=True)
    flying.play("d2-e5")
    assert flying.pieces()["e5"] == "white"
    assert reason(flying, "d7-c3") == "c3 is not adjacent to d7"  # Black has four men: no flying


def test_flying_starts_only_after_all_men_are_placed() -> None:
    state = position("a1 g1 d2", "a7 d7 f4 c5", hand=(1, 1), flying=True)
    assert "still has 1 man to place" in reason(state, "d2-e5")


def test_notation_round_trips_and_rejects_nonsense() -> None:
    state = RULES.new_state()
    for text, move in (
        ("d2", Move(None, "d2")),
        ("d2-d3", Move("d2", "d3")),
        ("b4xd7", Move(None, "b4", "d7")),
        ("d2-d3xa1", Move("d2", "d3", "a1")),
        ("D2-D3XA1", Move("d2", "d3", "a1")),
    ):
        assert state.parse_move(text) == move
        assert state.parse_move(state.move_str(move)) == move
    for bad in ("", "d4", "b1", "z9", "d2-", "d2xx", "d2-d3-d4", "1-0"):
        with pytest.raises(NotationError):
            state.parse_move(bad)


def test_random_move_is_uniform_over_the_legal_moves() -> None:
    state = position("a1 d1 b4 f6", "a7 d7 g7 c5 e3", hand=(3, 3))  # mill moves (g1 x 4 takes) and plain ones
    moves = state.legal_moves()
    rng = rng_for(7, "test/uniform")
    draws = 200 * len(moves)
    counts = Counter(state.random_move(rng) for _ in range(draws))
    assert set(counts) == set(moves)
    expected = draws / len(moves)
    chi2 = sum((counts[m] - expected) ** 2 / expected for m in moves)
    assert chi2 < 2 * len(moves)  # far below what a biased draw (e.g. per (from, to) pair) gives


def test_example_positions_follow_the_rules() -> None:
    mill = RULES.layout_data("position:mill")
    assert sorted(mill["highlight"]) == ["a1", "d1", "g1"]
    before = example_before("position:mill")
    frm, to = mill["arrows"][0]
    assert any(m.frm == frm and m.to == to and m.take for m in before.legal_moves())
    removal = RULES.layout_data("position:removal")
    before = example_before("position:removal")
    takes = sorted(m.take for m in before.legal_moves() if [m.frm, m.to] == removal["arrows"][0])
    assert takes == sorted(removal["removable"]) and set(removal["protected"]) == {"a7", "d7", "g7"}
    flying = example_before("position:flying")
    assert [m.to for m in flying.legal_moves() if m.frm == "c4"].count("d1") == 1
    with pytest.raises(BoardError):
        RULES.layout_data("position:nonsense")


def test_template_values_match_the_rules() -> None:
    values = RULES.template_values()
    assert (values["men_per_side"], values["points"], values["mills"], values["turn_limit"]) == (
        9,
        24,
        16,
        200,
    )


def test_the_removal_figure_shows_the_mill_figures_position_after_its_move() -> None:
    # The booklet says the second figure follows the first: the move of the first figure, played
    # from the position before it, gives the position both figures show.
    mill = RULES.layout_data("position:mill")
    removal = RULES.layout_data("position:removal")
    before = example_before("position:mill")
    frm, to = mill["arrows"][0]
    played = [m for m in before.legal_moves() if (m.frm, m.to) == (frm, to)]
    assert played, "the figure's move is not legal in the position before it"
    after = before.pieces()
    after[to] = after.pop(frm)
    assert mill["pieces"] == removal["pieces"]
    assert sorted(mill["pieces"].items()) == sorted(after.items())
    assert removal["arrows"] == mill["arrows"]
    assert sorted(m.take for m in played) == sorted(removal["removable"])


def test_placing_always_takes_both_sides_men_turns() -> None:
    # Each side places all its men whatever is taken meanwhile: removals come off the board, never
    # out of the hand, so the placing phase is exactly 2 x men turns in every game.
    men = RULES.template_values()["men_per_side"]
    for game in range(40):
        rng = rng_for(game, "placing")
        state = RULES.new_state()
        while not state.is_terminal() and sum(state.in_hand().values()):
            state.apply_move(state.random_move(rng))
        assert state.ply == 2 * men
    text = booklet_text("nine-mens-morris")
    assert f"always takes {2 * men} turns" in text and "if nobody has lost a man" not in text
