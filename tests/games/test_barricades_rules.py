"""Barricades rule tests, one rule each, on small hand-built positions (``barricades.position``):
moving, line of fire, damage and death, grenades, machine-gun bursts, ammunition, healing,
MacGuffins, every way the game ends, setups from tags, notation, and legal_moves agreeing with
check_move."""

from __future__ import annotations

import random

import pytest

from generator.foundation.errors import BoardError, IllegalMoveError, NotationError, RecordError
from generator.games import find_rules
from generator.games.barricades import BURST, NO_FIRE, Move, diagram_state, parse_setup, position
from generator.games.barricades_board import parse_square

RULES = find_rules("barricades")


def illegal(state, text: str, reason: str) -> None:
    """Assert that a move is refused with a reason containing the given words."""
    with pytest.raises(IllegalMoveError, match=reason):
        state.play(text)


def two_pieces(red: str, blue: str, **terrain):
    """A position with one Red and one Blue soldier plus a Blue pistolier far away (so nobody wins
    at once), Red to move."""
    (rs, rk), (bs, bk) = red.split("="), blue.split("=")
    pieces = {rs: f"red:{rk}", bs: f"blue:{bk}", "j1": "blue:pistolier"}
    return position(pieces, **terrain)


# --- the opening and turns --------------------------------------------------------------------------


def test_red_moves_first_and_sides_alternate() -> None:
    state = RULES.new_state(3)
    assert state.current_player() == "red" and RULES.sides == ("red", "blue")
    state.play("a9-b9")
    assert state.current_player() == "blue"
    illegal(state, "b9-a9", "Red's; it is Blue's turn")
    illegal(state, "a5-a6", "no piece on a5")


def test_opening_position_has_ten_soldiers_a_side_with_full_ammunition() -> None:
    state = RULES.new_state(1)
    pieces = state.pieces()
    assert len(pieces) == 20
    assert state.piece_at("b10") == {
        "side": "red",
        "type": "grenadier",
        "ammo": 2,
        "damage": 0,
        "mg_damage": 0,
    }
    assert state.piece_at("e1")["ammo"] == 12 and state.piece_at("c1")["ammo"] == 8


# --- moving -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind,reach", [("pistolier", 4), ("rifleman", 3), ("grenadier", 4), ("machine-gunner", 2)]
)
def test_each_type_moves_up_to_its_distance_in_the_eight_directions(kind: str, reach: int) -> None:
    state = position({"e5": f"red:{kind}", "a10": "blue:pistolier"})
    destinations = {state.move_str(m) for m in state.legal_moves() if m.target == NO_FIRE and not m.resign}
    expected = set()
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
        for step in range(1, reach + 1):
            f, r = 4 + df * step, 5 + dr * step
            if 0 <= f < 10 and 1 <= r <= 10 and (f, r) != (0, 10):
                expected.add(f"e5-{'abcdefghij'[f]}{r}")
    assert destinations == expected
    illegal(state, f"e5-e{5 + reach + 1}", "moves at most")


def test_a_move_is_a_straight_line() -> None:
    state = two_pieces("c3=pistolier", "h8=rifleman")
    illegal(state, "c3-d5", "not a straight line")


def test_barricades_and_pieces_block_a_move_and_the_end_square_must_be_empty() -> None:
    state = position({"c3": "red:pistolier", "c5": "red:rifleman", "e3": "blue:pistolier"}, barricades=["d4"])
    illegal(state, "c3-c6", "piece on c5 is in the way")
    illegal(state, "c3-c5", "piece on c5 is in the way")
    illegal(state, "c3-e5", "barricade on d4 is in the way")
    illegal(state, "c3-f3", "piece on e3 is in the way")
    state.play("c3-c4")
    assert state.piece_at("c4")["type"] == "pistolier" and state.piece_at("c3") is None


def test_a_turn_must_move_or_fire() -> None:
    state = two_pieces("c3=pistolier", "h8=rifleman")
    with pytest.raises(IllegalMoveError, match="must move, fire, or both"):
        state.check_move(Move(parse_square("c3"), parse_square("c3")))
    with pytest.raises(NotationError):
        state.parse_move("c3")
    with pytest.raises(NotationError):
        state.parse_move("c3-c3")


# --- line of fire -------------------------------------------------------------------------------------


def test_pistol_hits_an_enemy_within_3_for_1_damage() -> None:
    state = two_pieces("c3=pistolier", "c6=rifleman")
    state.play("c3xc6")
    assert state.piece_at("c6")["damage"] == 1 and state.piece_at("c3")["ammo"] == 5


@pytest.mark.parametrize("kind,ok,too_far", [("pistolier", "f6", "g7"), ("rifleman", "i9", "j10")])
def test_range_limits(kind: str, ok: str, too_far: str) -> None:
    state = position({"c3": f"red:{kind}", ok: "blue:rifleman", too_far: "blue:pistolier"})
    illegal(state.copy(), f"c3x{too_far}", "fires up to")
    state.play(f"c3x{ok}")
    assert state.piece_at(ok)["damage"] > 0


def test_shooting_over_an_adjacent_barricade() -> None:
    state = two_pieces("c4=rifleman", "c8=pistolier", barricades=["b5", "c5", "d5"])
    state.play("c4xc8")
    assert state.piece_at("c8")["damage"] == 2


def test_a_barricade_further_from_the_shooter_blocks() -> None:
    state = two_pieces("c3=rifleman", "c8=pistolier", barricades=["c5"])
    illegal(state, "c3xc8", "barricade on c5 blocks the line of fire from c3 to c8")


def test_a_target_right_behind_a_barricade_is_safe() -> None:
    state = two_pieces("c3=rifleman", "c8=pistolier", barricades=["c7"])
    illegal(state, "c3xc8", "c8 is safe behind the barricade on c7")


def test_a_barricade_adjacent_to_both_shooter_and_target_protects_the_target() -> None:
    state = two_pieces("c3=rifleman", "c5=pistolier", barricades=["c4"])
    illegal(state, "c3xc5", "c5 is safe behind the barricade on c4")


def test_a_barricade_beside_the_target_but_off_the_line_does_not_protect() -> None:
    state = two_pieces("c3=rifleman", "c8=pistolier", barricades=["d8", "d7"])
    state.play("c3xc8")
    assert state.piece_at("c8")["damage"] == 2


def test_a_diagonal_line_passes_between_barricades_touching_it_only_at_corners() -> None:
    state = two_pieces("a1=rifleman", "e5=pistolier", barricades=["c2", "b3", "d3", "c4"])
    state.play("a1xe5")
    assert state.piece_at("e5")["damage"] == 2
    state = two_pieces("a1=rifleman", "e5=pistolier", barricades=["c3"])
    illegal(state, "a1xe5", "barricade on c3 blocks")


def test_a_slanting_line_is_blocked_by_the_squares_it_crosses() -> None:
    # a1 -> b5 crosses a2, a3, b3, b4
    state = two_pieces("a1=rifleman", "b5=pistolier", barricades=["a3"])
    illegal(state, "a1xb5", "barricade on a3 blocks")
    state = two_pieces("a1=rifleman", "b5=pistolier", barricades=["b4"])
    illegal(state, "a1xb5", "b5 is safe behind the barricade on b4")
    state = two_pieces("a1=rifleman", "b5=pistolier", barricades=["b2", "a4"])
    state.play("a1xb5")
    assert state.piece_at("b5")["damage"] == 2


def test_pieces_do_not_block_fire() -> None:
    state = position(
        {"c3": "red:pistolier", "c4": "red:rifleman", "c5": "blue:grenadier", "c6": "blue:rifleman"}
    )
    state.play("c3xc6")
    assert state.piece_at("c6")["damage"] == 1


def test_fire_needs_an_enemy_on_the_target_square() -> None:
    state = position({"c3": "red:pistolier", "c4": "red:rifleman", "h8": "blue:rifleman"})
    illegal(state.copy(), "c3xc5", "no piece on c5")
    illegal(state.copy(), "c3xc4", "your own side")
    illegal(state, "c3-c2xc3", "no piece on c3")


def test_a_piece_may_move_then_fire_from_its_new_square() -> None:
    state = two_pieces("c3=pistolier", "g7=rifleman")
    illegal(state.copy(), "c3xg7", "fires up to 3")
    state.play("c3-d4xg7")
    assert state.piece_at("d4") and state.piece_at("g7")["damage"] == 1


# --- damage and death ---------------------------------------------------------------------------------


def test_four_pistol_hits_kill() -> None:
    state = position({"c3": "red:pistolier", "c6": "blue:rifleman", "j1": "blue:pistolier"}, damage={"c6": 3})
    state.play("c3xc6")
    assert state.piece_at("c6") is None and "c6" not in state.pieces()


def test_two_rifle_hits_kill_and_two_pistol_hits_plus_a_rifle_hit_kill() -> None:
    state = position({"c3": "red:rifleman", "c8": "blue:rifleman", "j1": "blue:pistolier"}, damage={"c8": 2})
    state.play("c3xc8")
    assert state.piece_at("c8") is None
    state = position({"c3": "red:rifleman", "c8": "blue:rifleman", "j1": "blue:pistolier"}, damage={"c8": 1})
    state.play("c3xc8")
    assert state.piece_at("c8")["damage"] == 3


def test_a_killed_piece_leaves_its_square_free() -> None:
    state = position({"c3": "red:rifleman", "c5": "blue:pistolier", "j1": "blue:pistolier"}, damage={"c5": 2})
    state.play("c3xc5")
    state.play("j1-j2")
    state.play("c3-c6")
    assert state.piece_at("c6")["type"] == "rifleman"


# --- grenades -----------------------------------------------------------------------------------------


def test_a_grenade_lands_exactly_3_away() -> None:
    state = two_pieces("c3=grenadier", "h8=rifleman")
    illegal(state.copy(), "c3xc5", "exactly 3 squares away; c5 is 2 squares")
    illegal(state.copy(), "c3xc7", "c7 is 4 squares")
    state.play("c3xf6")
    assert state.piece_at("c3")["ammo"] == 1


def test_a_grenade_ignores_barricades_and_kills_everything_in_the_3_by_3_area() -> None:
    state = position(
        {
            "c2": "red:grenadier",
            "e5": "blue:rifleman",
            "f6": "blue:machine-gunner",
            "d4": "red:pistolier",
            "g6": "blue:pistolier",
            "f4": "blue:grenadier",
        },
        barricades=["c3", "d3", "e3", "e4"],
    )
    state.play("c2xe5")
    assert set(state.pieces()) == {"c2", "g6"}
    assert state.current_player() == "blue" and not state.is_terminal()


def test_a_grenade_on_an_empty_square_is_allowed() -> None:
    state = two_pieces("c3=grenadier", "h8=rifleman")
    state.play("c3xf3")
    assert len(state.pieces()) == 3


def test_a_grenade_at_the_edge_of_the_board() -> None:
    state = position(
        {"d4": "red:grenadier", "a1": "blue:rifleman", "a2": "blue:pistolier", "j10": "blue:pistolier"}
    )
    state.play("d4xa1")
    assert set(state.pieces()) == {"d4", "j10"}


# --- machine-gun bursts -------------------------------------------------------------------------------


def test_a_burst_hits_every_enemy_within_3_with_its_own_line_of_fire() -> None:
    state = position(
        {
            "d4": "red:machine-gunner",
            "d7": "blue:rifleman",
            "b2": "blue:pistolier",
            "g4": "blue:grenadier",
            "f6": "blue:pistolier",
            "h8": "blue:rifleman",
            "d5": "red:pistolier",
            "e1": "blue:pistolier",
        },
        barricades=["f4", "e5"],
    )
    # d7 (through a friendly piece), b2 and e1 (a line through the corner of d2, e2, d3, e3) are hit;
    # g4 is safe behind f4; f6 is safe behind e5 (adjacent to both ends); h8 is 4 away;
    # the Red pistolier on d5 is not fired at
    assert state.burst_victims("d4") == ["e1", "b2", "d7"]
    state.play("d4x*")
    assert set(state.pieces()) == {"d4", "d5", "g4", "f6", "h8"}
    assert state.piece_at("d4")["ammo"] == 11 and state.piece_at("d5")["damage"] == 0


def test_a_machine_gunner_may_name_any_square_for_its_burst() -> None:
    state = position({"d4": "red:machine-gunner", "d6": "blue:rifleman", "j1": "blue:pistolier"})
    move = state.parse_move("d4xa10")
    assert move.target == BURST and state.move_str(move) == "d4x*"
    state.play("d4-d3xe5")
    assert state.piece_at("d6") is None and state.piece_at("d3")["ammo"] == 11


def test_a_burst_that_would_hit_nobody_is_not_allowed() -> None:
    state = position(
        {"d4": "red:machine-gunner", "d8": "blue:rifleman", "g4": "blue:pistolier"}, barricades=["f4"]
    )
    illegal(state, "d4x*", "would hit nobody")


def test_only_a_machine_gunner_fires_a_burst() -> None:
    state = two_pieces("c3=pistolier", "c5=rifleman")
    illegal(state, "c3x*", "only a machine gunner")


def test_a_machine_gun_hit_kills_at_once() -> None:
    state = position({"d4": "red:machine-gunner", "d6": "blue:rifleman", "j1": "blue:pistolier"})
    state.play("d4x*")
    assert state.piece_at("d6") is None


# --- ammunition ---------------------------------------------------------------------------------------


def test_a_piece_without_ammunition_cannot_fire() -> None:
    state = two_pieces("c3=pistolier", "c5=rifleman", ammo_left={"c3": 0})
    illegal(state.copy(), "c3xc5", "no ammunition left")
    assert all(m.target == NO_FIRE for m in state.legal_moves())


def test_grenades_run_out_after_two() -> None:
    state = two_pieces("c3=grenadier", "h8=rifleman")
    for _ in range(2):
        state.play("c3xf6")
        state.play("j1-j2" if state.piece_at("j1") else "j2-j1")
    illegal(state, "c3xf6", "no ammunition left")


def test_ending_a_move_on_an_ammunition_square_refills_before_firing() -> None:
    state = two_pieces("c3=pistolier", "c7=rifleman", ammo_squares=["c4"], ammo_left={"c3": 0})
    state.play("c3-c4xc7")
    assert state.piece_at("c4")["ammo"] == 5 and state.piece_at("c7")["damage"] == 1


def test_standing_on_an_ammunition_square_does_not_refill() -> None:
    state = two_pieces("c4=pistolier", "c7=rifleman", ammo_squares=["c4"], ammo_left={"c4": 0})
    illegal(state, "c4xc7", "no ammunition left")


# --- healing ------------------------------------------------------------------------------------------


def test_a_medical_square_heals_pistol_and_rifle_damage() -> None:
    state = two_pieces("c3=rifleman", "h8=rifleman", medical_squares=["c4"], damage={"c3": 3})
    state.play("c3-c4")
    assert state.piece_at("c4")["damage"] == 0


def test_machine_gun_damage_is_never_healed() -> None:
    state = position(
        {"c3": "red:rifleman", "h8": "blue:rifleman", "j1": "blue:pistolier"},
        medical_squares=["c4"],
        damage={"c3": 1},
        mg_damage={"c3": 2},
    )
    state.play("c3-c4")
    assert state.piece_at("c4")["damage"] == 0 and state.piece_at("c4")["mg_damage"] == 2


def test_standing_on_a_medical_square_does_not_heal() -> None:
    state = two_pieces("c4=rifleman", "h8=rifleman", medical_squares=["c4"], damage={"c4": 2})
    state.play("c4xh8")
    assert state.piece_at("c4")["damage"] == 2


# --- MacGuffins and the end of the game -----------------------------------------------------------------


def test_ending_a_move_on_a_macguffin_captures_it_and_passing_over_does_not() -> None:
    state = two_pieces("c3=pistolier", "h8=rifleman", macguffins=["c4", "e5", "f5"])
    state.play("c3-c6")
    assert state.remaining_macguffins() == ["c4", "e5", "f5"]
    state.play("h8-h7")
    state.play("c6-e6")
    state.play("h7-h6")
    state.play("e6-e5")
    assert state.remaining_macguffins() == ["c4", "f5"]
    assert state.outcome().score == {"red": 1, "blue": 0} and not state.is_terminal()


def test_two_macguffins_win() -> None:
    state = two_pieces("c3=pistolier", "h8=rifleman", macguffins=["c4", "e5", "f5"], captured={"red": 1})
    state.play("c3-c4")
    outcome = state.outcome()
    assert outcome.finished and outcome.winner == "red" and outcome.score == {"red": 2, "blue": 0}
    assert "MacGuffins" in outcome.reason and state.legal_moves() == []
    illegal(state, "h8-h7", "the game is over")


def test_killing_every_enemy_wins() -> None:
    state = position({"c3": "red:rifleman", "c5": "blue:pistolier"}, damage={"c5": 2})
    state.play("c3xc5")
    assert state.outcome().winner == "red" and "killed every Blue piece" in state.outcome().reason


def test_resigning_gives_the_game_to_the_opponent() -> None:
    state = RULES.new_state(2)
    assert state.legal_moves()[-1].resign
    state.play("resign")
    assert state.outcome().winner == "blue" and state.outcome().reason == "Red resigned"


def test_a_grenade_that_kills_the_last_enemy_wins_even_if_it_kills_friends_too() -> None:
    state = position({"b2": "red:grenadier", "e5": "blue:rifleman", "d5": "red:pistolier"})
    state.play("b2xe5")
    assert state.pieces() == {"b2": "red:grenadier"} and state.outcome().winner == "red"


def test_the_turn_limit_is_a_draw() -> None:
    state = RULES.new_state(4, tags={"TurnLimit": "3"})
    for move in ("a9-b9", "a2-b2", "b9-a9"):
        state.play(move)
    outcome = state.outcome()
    assert outcome.finished and outcome.draw and "turn limit" in outcome.reason
    assert RULES.new_state(4).limit == 200


# --- setups from tags -----------------------------------------------------------------------------------


def test_a_record_may_give_its_own_setup() -> None:
    tags = {"RedSetup": "P:a10,b10,c10,d10 R:e10,f10 G:g10,h10 M:i10,j10"}
    state = RULES.new_state(1, tags=tags)
    assert state.piece_at("a10")["type"] == "pistolier" and state.piece_at("j10")["type"] == "machine-gunner"
    assert state.piece_at("a9") is None and state.piece_at("a2")["side"] == "blue"


@pytest.mark.parametrize(
    "text,reason",
    [
        ("P:a10,b10,c10 R:e10,f10 G:g10,h10 M:i10,j10", "4 pistoliers needed, 3 given"),
        ("P:a10,b10,c10,d8 R:e10,f10 G:g10,h10 M:i10,j10", "d8 is not on Red's home ranks"),
        ("P:a10,b10,c10,c10 R:e10,f10 G:g10,h10 M:i10,j10", "c10 is given twice"),
        ("P:a10,b10,c10,d10 R:e10,f10 G:g10,h10", "machine gunners"),
        ("P:a10,b10,c10,d10 R:e10,f10 G:g10,h10 X:i10,j10", "should look like"),
        ("P:a10,b10,c10,d10 R:e10,f10 G:g10,h10 M:i10,z10", "not a square"),
    ],
)
def test_bad_setups_are_record_errors(text: str, reason: str) -> None:
    with pytest.raises(RecordError, match=reason):
        RULES.new_state(1, tags={"RedSetup": text})


def test_setup_text_round_trips() -> None:
    values = RULES.template_values()["setup_tags"]
    setup = RULES.template_values()["setup"]["blue"]
    assert parse_setup(values["blue"], "blue") == {k: tuple(v) for k, v in setup.items()}


def test_a_seed_is_needed() -> None:
    with pytest.raises(BoardError):
        RULES.new_state(None)


# --- notation and the move list -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["", "c2", "c2-", "c2x", "x*", "k2-c3", "c0-c3", "c11-c3", "c2-c3-c4", "c2-c3xe7xe8", "resigns", "c2xz9"],
)
def test_bad_notation(text: str) -> None:
    with pytest.raises(NotationError):
        RULES.new_state(1).parse_move(text)


def test_notation_forms() -> None:
    state = RULES.new_state(1)
    assert state.parse_move("c2-c5") == Move(parse_square("c2"), parse_square("c5"))
    assert state.parse_move("C2-C5XE7") == Move(parse_square("c2"), parse_square("c5"), parse_square("e7"))
    assert state.parse_move("c2xe7") == Move(parse_square("c2"), parse_square("c2"), parse_square("e7"))
    assert state.parse_move("e2x*").target == BURST
    assert state.parse_move("resign").resign and state.move_str(state.parse_move("resign")) == "resign"
    assert state.move_str(state.parse_move("b10-b9")) == "b10-b9"


def test_random_games_round_trip_and_end() -> None:
    rnd = random.Random(7)
    reasons = set()
    for seed in range(12):
        state = RULES.new_state(seed)
        while not state.is_terminal():
            moves = state.legal_moves()
            assert moves and moves[-1].resign
            move = rnd.choice(moves[:-1])
            assert state.parse_move(state.move_str(move)) == move
            state.check_move(move)
            before = state.copy()
            state.apply_move(move)
            assert before.ply == state.ply - 1
        reasons.add(state.outcome().reason.split()[1])
        assert state.ply <= 200
    assert reasons & {"captured", "killed"}


def test_legal_moves_are_exactly_the_moves_check_move_accepts() -> None:
    rnd = random.Random(8)
    state = RULES.new_state(8)
    for _ in range(6):
        state.apply_move(rnd.choice(state.legal_moves()[:-1]))
    legal = set(state.legal_moves())
    mine = [s for s, p in enumerate(state.board) if p >= 0 and state.side[p] == state.to_move]
    assert len(mine) >= 6 and any(m.target == BURST for m in legal) and any(m.target >= 0 for m in legal)
    for src in mine:
        for dst in range(100):
            for target in (NO_FIRE, BURST, *range(100)):
                move = Move(src, dst, target)
                try:
                    state.check_move(move)
                    accepted = True
                except IllegalMoveError:
                    accepted = False
                assert accepted == (move in legal), state.move_str(move)


def test_copy_is_independent() -> None:
    state = RULES.new_state(1)
    other = state.copy()
    other.play("a9-b9")
    assert state.piece_at("a9") and not other.piece_at("a9") and state.ply == 0


def test_text_shows_the_position() -> None:
    state = RULES.new_state(1)
    text = state.text()
    assert "Red to move" in text and "Pa9(6 ammo)" in text and "Gb1(2 ammo)" in text
    rows = text.splitlines()
    assert rows[1].split() == ["10", ".", "G", "R", ".", "M", "M", ".", "R", "G", "."]


# --- booklet diagrams agree with the referee ------------------------------------------------------------


@pytest.mark.parametrize(
    "name,refusal",
    [
        ("cover", None),
        ("safe", "safe behind"),
        ("blocked", "blocks"),
        ("corner", None),
        ("blast", None),
        ("burst", None),
    ],
)
def test_booklet_diagrams_show_what_the_referee_decides(name: str, refusal: str | None) -> None:
    data = RULES.layout_data(f"position:{name}")
    state = diagram_state(name)
    assert state.pieces() == data["pieces"]
    shooter, target = data["lines"][0]
    assert data["shooter"] == shooter and data["target"] in ("", target)
    assert "barricade" in data["cells"][data["barricade"]]
    if refusal:
        illegal(
            state,
            f"{shooter}x{target}",
            refusal + (f" the barricade on {data['barricade']}" if refusal == "safe behind" else ""),
        )
        return
    before = state.pieces()
    state.play(data["move"])
    for square in data["hit"]:
        assert state.piece_at(square) is None or state.piece_at(square)["damage"] > 0, square
    for square in data["unhurt"]:
        assert state.pieces()[square] == before[square] and state.piece_at(square)["damage"] == 0
