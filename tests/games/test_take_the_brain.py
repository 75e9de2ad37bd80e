"""Take The Brain: the published pointer board, seeded variant boards, notation, rules, records."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path

import pytest

from generator.foundation.errors import BoardError, IllegalMoveError, NotationError, RecordError
from generator.games import find_rules
from generator.games.take_the_brain import RULES, BrainBoard, BrainState
from tests.games.record_files import check_referee_verdict, play_record
from tests.pdf_reader import open_pdf

RECORDS = Path(__file__).parent / "records"
FILES, RANKS = "abcdefg", "12345678"
SQUARES = [f + r for r in RANKS for f in FILES]
STEP = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
COMPASS = list(STEP)
TURN = {d: COMPASS[(i + 4) % 8] for i, d in enumerate(COMPASS)}


def step(square: str, direction: str) -> str | None:
    """Return the square one step away in a direction, or None off the board."""
    f, r = FILES.index(square[0]) + STEP[direction][0], RANKS.index(square[1]) + STEP[direction][1]
    return FILES[f] + RANKS[r] if 0 <= f < 7 and 0 <= r < 8 else None


def mirror(square: str) -> str:
    """Return the square rotated 180 degrees about the centre."""
    return FILES[6 - FILES.index(square[0])] + RANKS[7 - RANKS.index(square[1])]


def reach(start: str, links: dict[str, list[str]]) -> set[str]:
    """Return the squares reachable from start along links."""
    seen, todo = {start}, [start]
    while todo:
        for other in links[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def board_problems(arrows: dict[str, list[str]]) -> list[str]:
    """Return every way a board breaks the rulings' properties (empty when it is sound)."""
    problems = []
    if sorted(arrows) != sorted(SQUARES):
        return ["squares missing or extra"]
    forward: dict[str, list[str]] = {s: [] for s in SQUARES}
    backward: dict[str, list[str]] = {s: [] for s in SQUARES}
    for square, dirs in arrows.items():
        if len(set(dirs)) != len(dirs) or not set(dirs) <= set(COMPASS):
            problems.append(f"{square}: bad directions {dirs}")
        if square in ("d4", "d5"):
            if sorted(dirs) != sorted(COMPASS):
                problems.append(f"{square} lacks a direction")
        elif not 1 <= len(dirs) <= 4:
            problems.append(f"{square} has {len(dirs)} pointers")
        if sorted(TURN[d] for d in dirs) != sorted(arrows[mirror(square)]):
            problems.append(f"{square} and {mirror(square)} are not point-symmetric")
        for d in dirs:
            target = step(square, d)
            if target is None:
                problems.append(f"{square} points off the board ({d})")
            else:
                forward[square].append(target)
                backward[target].append(square)
    if not problems and (len(reach("a1", forward)) != 56 or len(reach("a1", backward)) != 56):
        problems.append("some square cannot be reached from another")
    return problems


def state(setup: str = "", seed: int | None = None, **tags: str) -> BrainState:
    """Return a state on the published (or seeded) board, from a Setup tag when given."""
    if setup:
        tags["Setup"] = setup
    return RULES.new_state(seed, frozenset(), tags)


def moves_of(st: BrainState, square: str) -> list[str]:
    """Return the legal moves of the piece on a square, in notation, sorted."""
    return sorted(m for m in map(st.move_str, st.legal_moves()) if m[:2] == square)


# --- boards --------------------------------------------------------------------------------------


def test_find_rules_knows_the_game() -> None:
    assert find_rules("take-the-brain") is RULES
    assert RULES.sides == ("red", "blue")


def test_published_arrows_match_the_data_file_exactly() -> None:
    text = resources.files("generator").joinpath("data", "take-the-brain-board.json").read_text("utf-8")
    published = json.loads(text)["arrows"]
    data = RULES.board_data()
    assert data["game"] == "take-the-brain" and data["seed"] is None
    assert data["arrows"] == {s: sorted(d) for s, d in published.items()}
    assert list(data["arrows"]) == sorted(SQUARES)


def test_published_setup_matches_the_data_file() -> None:
    text = resources.files("generator").joinpath("data", "take-the-brain-board.json").read_text("utf-8")
    setup = json.loads(text)["setup"]
    st = state()
    for key, side in (("first_player", "red"), ("second_player", "blue")):
        for kind, squares in setup[key].items():
            for square in squares:
                assert st.piece_at(square) == (side, kind)
    occupied = [s for s in SQUARES if st.piece_at(s)]
    assert len(occupied) == 24 and st.current_player() == "red"


def test_published_board_has_the_properties_variants_keep() -> None:
    assert board_problems(RULES.board_data()["arrows"]) == []


def test_variant_boards_keep_the_properties_over_many_seeds() -> None:
    published = RULES.board_data()["arrows"]
    seen = set()
    for seed in range(2000):
        arrows = RULES.board_data(seed)["arrows"]
        assert board_problems(arrows) == [], seed
        assert arrows["d4"] == published["d4"] and arrows["d5"] == published["d5"]
        assert all(d == sorted(d) for d in arrows.values())
        seen.add(json.dumps(arrows, sort_keys=True))
    assert len(seen) == 2000


def test_variant_boards_use_every_pointer_count() -> None:
    counts = {
        len(d)
        for seed in range(50)
        for s, d in RULES.board_data(seed)["arrows"].items()
        if s not in ("d4", "d5")
    }
    assert counts == {1, 2, 3, 4}


def test_variant_boards_are_deterministic() -> None:
    for seed in (0, 1, 17, 2**40, 2**63 - 1):
        assert RULES.board_data(seed) == RULES.board_data(seed)
        assert RULES.board_data(seed)["seed"] == seed
    assert RULES.board_data(0)["arrows"] != RULES.board_data()["arrows"]


def test_a_seeded_state_plays_on_the_seeded_board() -> None:
    arrows = RULES.board_data(5)["arrows"]
    st = state(seed=5)
    for m in st.legal_moves():
        text = st.move_str(m)
        origin, target = text[:2], text[3:]
        df = FILES.index(target[0]) - FILES.index(origin[0])
        dr = RANKS.index(target[1]) - RANKS.index(origin[1])
        n = max(abs(df), abs(dr))
        direction = next(d for d, s in STEP.items() if s == (df // n, dr // n))
        assert direction in arrows[origin]


def test_bad_seeds_are_refused() -> None:
    with pytest.raises(BoardError):
        RULES.board_data(-1)
    with pytest.raises(BoardError):
        RULES.board_data(None, frozenset({"nonsense"}))


def test_board_layout_marks_arrows_and_starting_pieces() -> None:
    layout = RULES.layout_data("board", None)
    assert layout["files"] == 7 and layout["ranks"] == 8
    arrows = RULES.board_data()["arrows"]
    cells = layout["cells"]
    assert sorted(cells) == sorted(SQUARES)
    assert cells["d4"][0] == "arrows:N,NE,E,SE,S,SW,W,NW"
    assert cells["a1"] == ["arrows:N"]
    starts = {}
    for square, marks in cells.items():
        listed = marks[0].removeprefix("arrows:").split(",")
        assert listed == [d for d in COMPASS if d in arrows[square]]
        for mark in marks[1:]:
            starts[square] = mark
    assert len(starts) == 24
    assert starts["d1"] == "start:red:brain" and starts["f8"] == "start:blue:numskull"
    assert starts["g7"] == "start:blue:ninny"


def test_numskull_figure_is_a_legal_capture() -> None:
    for seed in (None, 3):
        figure = RULES.layout_data("position:numskull", seed)
        pieces = figure["pieces"]
        letters = {"numskull": "S", "ninny": "N"}
        setup = []
        assert figure["arrows"] == [[figure["origin"], figure["target"]]]
        assert figure["highlight"] == figure["passed"]
        assert not any(m.startswith("start:") for marks in figure["cells"].values() for m in marks)
        for square, mark in pieces.items():
            side, kind = mark.split(":")
            letter = letters[kind]
            setup.append(f"{letter if side == 'red' else letter.lower()}{square}")
        setup += ["Ba1" if "a1" not in pieces else "Bg1", "bg8" if "g8" not in pieces else "ba8"]
        st = state(" ".join(setup), seed)
        st.play(figure["move"])
        assert len(figure["passed"]) >= 2
        assert figure["blocked"] is None or figure["blocked"]["by"] in pieces


def test_start_figure_shows_the_24_pieces() -> None:
    pieces = RULES.layout_data("position:start")["pieces"]
    assert len(pieces) == 24 and pieces["d1"] == "red:brain" and pieces["c8"] == "blue:numskull"
    st = state()
    assert all(st.piece_at(sq) == tuple(p.split(":")) for sq, p in pieces.items())


def test_unknown_layout_data_is_an_error() -> None:
    with pytest.raises(BoardError):
        RULES.layout_data("pieces")


def test_board_text_draws_every_square() -> None:
    text = RULES.board_text(None)
    assert text.startswith("Take The Brain, published board")
    picture = text.split("\n\n", 1)[1]
    assert picture.count("*") == 2 and picture.count("o") == 54
    assert "seed 9" in RULES.board_text(9)


# --- opening, notation --------------------------------------------------------------------------


def test_opening_moves_on_the_published_board() -> None:
    st = state()
    assert sorted(map(st.move_str, st.legal_moves())) == sorted(
        [
            "b1-a1",
            "f1-g1",
            "a2-a3",
            "a2-a1",
            "b2-b3",
            "c2-c3",
            "d2-d3",
            "e2-e3",
            "f2-f3",
            "f2-g1",
            "g2-g3",
            "g2-g1",
        ]
    )


@pytest.mark.parametrize("text", ["b1b4", "b1-b9", "h1-h2", "B1-B4", "b1--b4", "", "b1:b4"])
def test_bad_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        state().parse_move(text)


def test_x_on_a_plain_move_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match=r"captures nothing: d3 is empty \(write d2-d3\)"):
        state().play("d2xd3")


def test_dash_on_a_capture_is_refused() -> None:
    st = state("Bd1 Sa3 bd8 nc3")
    with pytest.raises(IllegalMoveError, match="c3 holds a blue Ninny: write a3xc3 to capture it"):
        st.play("a3-c3")
    st.play("a3xc3")


def test_moves_print_and_parse_back_in_random_games() -> None:
    rng = random.Random(7)
    for seed in (None, 11):
        st = state(seed=seed)
        while not st.is_terminal():
            moves = st.legal_moves()
            for m in moves:
                assert st.parse_move(st.move_str(m)) == m
                st.check_move(m)
            st.apply_move(rng.choice(moves))


def test_moving_the_opponents_piece_or_an_empty_square_is_refused() -> None:
    st = state()
    with pytest.raises(IllegalMoveError, match="there is no piece on d4"):
        st.play("d4-d5")
    with pytest.raises(IllegalMoveError, match="d7 holds a blue Ninny; it is red's turn"):
        st.play("d7-d6")


# --- movement -----------------------------------------------------------------------------------


def test_numskull_slides_any_distance_along_its_start_squares_pointers() -> None:
    # a3 points N, E, S; a5 on the way north has no N pointer, which does not matter.
    st = state("Bd1 Sa3 bd8 nc3")
    assert moves_of(st, "a3") == [
        "a3-a1",
        "a3-a2",
        "a3-a4",
        "a3-a5",
        "a3-a6",
        "a3-a7",
        "a3-a8",
        "a3-b3",
        "a3xc3",
    ]


def test_numskull_cannot_pass_over_any_piece() -> None:
    st = state("Bd1 Sa3 Na5 bd8 nc3")
    assert "a3-a6" not in map(st.move_str, st.legal_moves())
    with pytest.raises(IllegalMoveError, match="cannot pass over the piece on a5"):
        st.play("a3-a6")
    with pytest.raises(IllegalMoveError, match="cannot pass over the piece on c3"):
        st.play("a3-d3")
    with pytest.raises(IllegalMoveError, match="a5 holds one of red's own pieces"):
        st.play("a3-a5")


def test_numskull_may_not_leave_by_a_direction_its_square_lacks() -> None:
    st = state("Bd1 Sa3 bd8")
    with pytest.raises(IllegalMoveError, match="a3 has no pointer to the north-east"):
        st.play("a3-c5")
    with pytest.raises(IllegalMoveError, match="not in a straight line"):
        st.play("a3-b5")


def test_ninny_and_brain_move_one_square() -> None:
    st = state("Bd1 Nc2 bd8")
    assert moves_of(st, "c2") == ["c2-b2", "c2-c1", "c2-c3", "c2-d2"]
    assert moves_of(st, "d1") == ["d1-c1", "d1-d2", "d1-e1"]
    with pytest.raises(IllegalMoveError, match="a Ninny moves only one square"):
        st.play("c2-c4")
    with pytest.raises(IllegalMoveError, match="a Brain moves only one square"):
        st.play("d1-f1")


def test_capture_is_optional_when_other_moves_exist() -> None:
    st = state("Bd1 Nd3 bd8 ne3")
    assert {"d3xe3", "d3-c3"} <= set(map(st.move_str, st.legal_moves()))
    st.play("d3-c3")
    assert st.piece_at("e3") == ("blue", "ninny")


def test_capture_is_forced_when_it_is_the_only_move() -> None:
    # The red Brain on d1 points N, E and W, and blue pieces stand on all three squares.
    st = state("Bd1 bd8 nc1 nd2 se1")
    assert sorted(map(st.move_str, st.legal_moves())) == ["d1xc1", "d1xd2", "d1xe1"]
    with pytest.raises(IllegalMoveError, match="write d1xd2"):
        st.play("d1-d2")
    st.play("d1xe1")
    assert st.piece_at("e1") == ("red", "brain")


# --- promotion ----------------------------------------------------------------------------------


def test_ninny_becomes_a_numskull_when_one_was_captured() -> None:
    st = state("Bd1 Sb1 Sc1 Se1 Nc7 bd8 na6")
    assert st.numskulls_to_bring_back("red") == 1
    st.play("c7-c8")
    assert st.piece_at("c8") == ("red", "numskull")
    assert st.numskulls_to_bring_back("red") == 0
    st.play("a6-a7")
    assert "c8-c2" in moves_of(st, "c8")


def test_ninny_stays_a_ninny_without_a_captured_numskull() -> None:
    st = state("Bd1 Sb1 Sc1 Se1 Sf1 Nc7 bd8 na6")
    st.play("c7-c8")
    assert st.piece_at("c8") == ("red", "ninny")


def test_promotion_by_capturing_on_a_numskull_square() -> None:
    st = state("Bd1 Sb1 Nc7 bd8 sc8")
    st.play("c7xc8")
    assert st.piece_at("c8") == ("red", "numskull")


def test_promotion_only_on_the_enemys_numskull_squares() -> None:
    st2 = state("Bd8 Sb8 bd1 nc2 ng6; blue")
    st2.play("c2-c1")
    assert st2.piece_at("c1") == ("blue", "numskull")
    st3 = state("Bd1 Sb1 Nc2 bd8 ng6")
    st3.play("c2-c1")
    assert st3.piece_at("c1") == ("red", "ninny")
    st4 = state("Bd1 Ng7 bd8 na6")
    st4.play("g7-g8")
    assert st4.piece_at("g8") == ("red", "ninny")


def test_a_captured_numskull_comes_back_in_play() -> None:
    # Blue's Numskull takes a red one; later a red Ninny reaching b8 brings one back.
    st = state("Bd1 Sb1 Sc1 Se1 Sf1 Nb7 bd8 sb6")
    st.play("b7-a8")
    st.play("b6xb1")
    assert st.numskulls_to_bring_back("red") == 1
    st.play("a8-b8")
    assert st.piece_at("b8") == ("red", "numskull")


# --- endings ------------------------------------------------------------------------------------


def test_capturing_the_brain_wins() -> None:
    st = state("Bd1 Sa3 ba7")
    st.play("a3xa7")
    outcome = st.outcome()
    assert st.is_terminal() and outcome.winner == "red" and not outcome.draw
    assert "captured the blue Brain on a7" in outcome.reason
    assert st.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        st.play("a7-a8")


def test_only_the_two_brains_left_is_a_draw() -> None:
    st = state("Bd1 bd8 nd2")
    st.play("d1xd2")
    outcome = st.outcome()
    assert outcome.finished and outcome.draw and outcome.winner is None
    assert outcome.reason == "only the two Brains are left"


def test_a_side_with_no_legal_move_loses() -> None:
    # A hand-made board (not one the game deals): every square points north only,
    # so pieces on rank 8 cannot move.
    arrows = tuple(("N",) if i < 49 else () for i in range(56))
    board = BrainBoard(None, arrows)
    cells = [0] * 56
    cells[52] = 4  # blue Brain on d8 (piece codes: 1 red Brain, 4 blue Brain)
    cells[51] = 1  # red Brain on c8
    cells[49] = 3  # red Ninny on a8
    cells[10] = 6  # blue Ninny on d2
    st = BrainState(board, 200, cells, turn=0)
    assert st.is_terminal()
    assert st.outcome().winner == "blue" and st.outcome().reason == "red has no legal move"


def test_on_a_dealt_board_a_side_with_pieces_always_has_a_move() -> None:
    # Every square can be reached from every other, so some piece can always step out.
    rng = random.Random(3)
    for seed in (None, 1, 2):
        for _ in range(200):
            squares = rng.sample(SQUARES, rng.randint(3, 13))
            setup = ["B" + squares[0], "b" + squares[1]]
            setup += ["N" + s for s in squares[2:]]
            st = state(" ".join(setup), seed)
            assert st.legal_moves()


def test_turn_limit_draws_the_game() -> None:
    st = state(TurnLimit="3")
    for text in ("d2-d3", "d7-d6", "c2-c3"):
        st.play(text)
    outcome = st.outcome()
    assert outcome.draw and "turn limit of 3" in outcome.reason


@pytest.mark.parametrize(
    "setup, message",
    [
        ("Sb1 bd8", "red needs exactly one Brain"),
        ("Bd1 Bd2 bd8", "red needs exactly one Brain"),
        ("Bd1 Sa1 Sa2 Sa3 Sa4 Sa5 bd8", "more pieces"),
        ("Bd1 Nd1 bd8", "two pieces on d1"),
        ("Bd1 Qd2 bd8", "is not a piece"),
        ("Bd1 bd8; green", "red or blue"),
    ],
)
def test_bad_setup_tags_are_record_errors(setup: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        state(setup)


def test_text_shows_the_position() -> None:
    text = state().text()
    assert "8  . s s b s s ." in text and "1  . S S B S S ." in text
    assert "Red to move" in text


def test_template_values() -> None:
    values = RULES.template_values()
    assert values["pieces_per_side"] == 12
    assert values["brains"] + values["numskulls"] + values["ninnies"] == 12
    assert values["promotion_squares"]["red"] == ["b8", "c8", "e8", "f8"]
    assert values["turn_limit"] == 200 and values["example_move"] == "a3xa7"


# --- records ------------------------------------------------------------------------------------

RECORD_FILES = sorted(RECORDS.glob("take-the-brain-*.txt"))


def test_there_are_records() -> None:
    assert len(RECORD_FILES) >= 4


@pytest.mark.parametrize("path", RECORD_FILES, ids=lambda p: p.stem)
def test_record_replays_to_its_known_verdict(path: Path) -> None:
    _, outcome, expect = play_record(RULES, path, errors=(IllegalMoveError, NotationError))
    if outcome is None:
        return
    verdict = "draw" if outcome.draw else f"{outcome.winner} wins"
    assert expect.startswith(verdict), (expect, outcome)


@pytest.mark.parametrize("path", RECORD_FILES, ids=lambda p: p.stem)
def test_record_through_the_referee(path: Path) -> None:
    check_referee_verdict(path)


# --- the kit ------------------------------------------------------------------------------------


def test_kit_prints_board_pieces_record_and_booklet(tmp_path: Path) -> None:
    from generator.definitions.loader import find_definition
    from generator.kits.kit import build_kit
    from generator.kits.plan import kit_plan

    build_kit(kit_plan(find_definition("take-the-brain"), str(tmp_path), formats=("pdf",), parts=True))
    folder = tmp_path / "take-the-brain"
    with open_pdf(folder / "board.pdf") as board:
        words = board[0].get_text().split()
    assert words.count("Numskull") == 8 and words.count("Ninny") == 14 and words.count("Brain") >= 2
    with open_pdf(folder / "pieces.pdf") as pieces:
        words = " ".join(page.get_text() for page in pieces).split()
    assert words.count("BRAIN") == 2 and words.count("NUMSKULL") == 8 and words.count("NINNY") == 14
    example = RULES.layout_data("position:numskull")
    with open_pdf(folder / "booklet.pdf") as booklet:
        text = " ".join(" ".join(page.get_text().split()) for page in booklet)
    assert "Clarifications" in text and example["move"] in text
    with open_pdf(folder / "scoresheet.pdf") as sheet:
        assert "100" in sheet[0].get_text().split()
