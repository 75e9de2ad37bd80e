"""Push!: Latin-square boards, starting orders, notation, the push rules, the adjust variant, records."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from generator.foundation.errors import BoardError, IllegalMoveError, NotationError, RecordError
from generator.games import find_rules
from generator.games.push import RULES, PushState
from tests.games.record_files import check_referee_verdict, play_record, read_record
from tests.pdf_reader import open_pdf

RECORDS = Path(__file__).parent / "records"
FILES, RANKS = "abcdef", "123456"
ADJUST = frozenset({"adjust"})
# The board of seed 1, rank 6 first (pinned: seeds give the same board forever).
SEED1 = ["452163", "524631", "241356", "316425", "163542", "635214"]


def new(seed: int = 1, variants: frozenset[str] = frozenset(), **tags: str) -> PushState:
    """Return the opening state for a seed, variants and tags."""
    return RULES.new_state(seed, variants, tags)


def pushes_of(text: str) -> str:
    """Return the push part of a turn (after the colon)."""
    return text.split(":", 1)[1].strip()


def options(st: PushState, a: int, b: int, cells: str | None = None) -> set[str]:
    """Return the push parts of the legal turns with this throw (and placement, when given)."""
    throw = tuple(sorted((a, b)))
    found = set()
    for m in st.legal_moves():
        text = st.move_str(m)
        if m.throw == throw and (cells is None or text.split(":")[0].strip() == cells):
            found.add(pushes_of(text))
    return found


def turn(st: PushState, a: int, b: int, pushes: str) -> str:
    """Play the first legal turn with this throw and push; return its text."""
    throw = tuple(sorted((a, b)))
    for m in st.legal_moves():
        text = st.move_str(m)
        if m.throw == throw and pushes_of(text) == pushes:
            st.play(text)
            return text
    raise AssertionError(f"no legal turn throws {a} {b} and pushes {pushes!r}: {sorted(options(st, a, b))}")


def drive(st: PushState, plan: list[tuple[int, int, str]]) -> None:
    """Play turns (throw a, throw b, push) in order."""
    for a, b, pushes in plan:
        turn(st, a, b, pushes)


# --- boards --------------------------------------------------------------------------------------


def test_find_rules_knows_the_game() -> None:
    assert find_rules("push") is RULES
    assert RULES.sides == ("south", "west") and RULES.move_per_line


def test_boards_are_latin_squares_over_many_seeds() -> None:
    seen = set()
    for seed in range(3000):
        numbers = RULES.board_data(seed)["numbers"]
        assert sorted(numbers) == sorted(f + r for f in FILES for r in RANKS)
        for r in RANKS:
            assert sorted(numbers[f + r] for f in FILES) == [1, 2, 3, 4, 5, 6], (seed, r)
        for f in FILES:
            assert sorted(numbers[f + r] for r in RANKS) == [1, 2, 3, 4, 5, 6], (seed, f)
        seen.add(tuple(numbers[f + r] for r in RANKS for f in FILES))
    assert len(seen) > 2990


def test_boards_are_deterministic_and_seed_1_is_the_default() -> None:
    for seed in (0, 1, 99, 2**62):
        assert RULES.board_data(seed) == RULES.board_data(seed)
    assert RULES.board_data(None) == RULES.board_data(1)
    assert RULES.board_data(None)["seed"] == 1
    numbers = RULES.board_data(1)["numbers"]
    assert ["".join(str(numbers[f + r]) for f in FILES) for r in reversed(RANKS)] == SEED1
    assert RULES.board_data(2)["numbers"] != numbers


def test_bad_seed_and_variant_are_refused() -> None:
    with pytest.raises(BoardError):
        RULES.board_data(-3)
    with pytest.raises(BoardError):
        RULES.new_state(1, frozenset({"turbo"}))


def test_board_layout() -> None:
    layout = RULES.layout_data("board", 4)
    numbers = RULES.board_data(4)["numbers"]
    assert layout["files"] == 6 and layout["ranks"] == 6 and layout["seed"] == 4
    assert layout["cells"] == {cell: [f"text:{n}"] for cell, n in numbers.items()}
    outside = layout["outside"]
    assert len(outside) == 24
    assert {name for name, marks in outside.items() if marks == ["slot:south:die"]} == {
        f"@{f},-1" for f in range(6)
    }
    assert {name for name, marks in outside.items() if marks == ["slot:south:pawn"]} == {
        f"@{f},-2" for f in range(6)
    }
    assert {name for name, marks in outside.items() if marks == ["slot:west:die"]} == {
        f"@-1,{r}" for r in range(6)
    }
    assert {name for name, marks in outside.items() if marks == ["slot:west:pawn"]} == {
        f"@-2,{r}" for r in range(6)
    }
    assert layout["exits"] == {"south": "north", "west": "east"}
    with pytest.raises(BoardError):
        RULES.layout_data("pieces")


def test_example_push_figure_is_consistent() -> None:
    for seed in (1, 2, 50):
        figure = RULES.layout_data("position:push", seed)
        kinds = [p.split(":")[1] if ":" in p else p for p in figure["pieces"].values()]
        assert (
            kinds.count("die") == 12
            and kinds.count("pawn") == 12
            and kinds.count("3") + kinds.count("5") == 2
        )
        assert sum(figure["pushed"]) == figure["total"] == 8
        assert len(figure["arrows"]) == len(figure["pushed"])
        assert figure["turn"].endswith(": " + " ".join(map(str, figure["pushed"])))
        for start, _ in figure["arrows"]:
            assert figure["pieces"][start].startswith(figure["pusher"] + ":die:")
        assert all(b["die"] not in figure["pushed"] for b in figure["blocked"])


def test_board_text_names_the_seed() -> None:
    text = RULES.board_text(None)
    assert text.startswith("Push!, seed 1")
    assert "6  4  5  2  1  6  3" in text


# --- orders and the opening ---------------------------------------------------------------------


def test_starting_orders_come_from_tags() -> None:
    st = new(SouthOrder="314265", WestOrder="526143")
    assert [st.die_value("south", f) for f in FILES] == [3, 1, 4, 2, 6, 5]
    assert [st.die_value("west", r) for r in RANKS] == [5, 2, 6, 1, 4, 3]
    default = new()
    assert [default.die_value("south", f) for f in FILES] == [1, 2, 3, 4, 5, 6]
    assert [default.die_value("west", r) for r in RANKS] == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("order", ["112345", "12345", "1234567", "abcdef", "023456"])
def test_bad_orders_are_record_errors(order: str) -> None:
    with pytest.raises(RecordError, match="SouthOrder tag must give the six values 1 to 6"):
        new(SouthOrder=order)


def test_south_throws_first_and_west_pushes() -> None:
    st = new()
    assert st.current_player() == "west" and st.thrower() == "south"
    turn(st, 3, 5, "5 3")
    assert st.current_player() == "south" and st.thrower() == "west"


def test_opening_turns_cover_every_throw_and_print_back() -> None:
    st = new()
    moves = st.legal_moves()
    assert len({m.throw for m in moves}) == 21
    assert len(set(moves)) == len(moves)
    for m in moves:
        assert st.parse_move(st.move_str(m)) == m
    assert "3@b1 5@c1 : 5 3" in map(st.move_str, moves)


# --- notation -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "3@c4 5@e2 5 3",
        "3@c4 : 5",
        "3@c4 5@e2 4@a1 : 5",
        "7@c4 5@e2 : 5",
        "3@g4 5@e2 : 5",
        "3@c4 5@e2 :",
        "3@c4 5@e2 : x",
        "3c4 5@e2 : 5",
    ],
)
def test_bad_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        new().parse_move(text)


def test_parse_accepts_any_token_order() -> None:
    st = new()
    assert st.parse_move("5@c1 3@b1 : 3 5") == st.parse_move("3@b1 5@c1 : 5 3")
    assert st.move_str(st.parse_move("5@c1  3@b1 :3   5")) == "3@b1 5@c1 : 5 3"


def test_naming_a_die_the_pusher_lacks() -> None:
    st = new(South="123456", West="123456")
    with pytest.raises(IllegalMoveError, match="the die 5 is named twice"):
        st.parse_move("3@b1 5@c1 : 5 5")
    with pytest.raises(IllegalMoveError, match="west's die in rank 2 shows 2, not 5"):
        st.parse_move("3@b1 5@c1 : 5/2 3")
    with pytest.raises(NotationError, match="west's dice are in ranks 1 to 6"):
        st.parse_move("3@b1 5@c1 : 5/e 3")


# --- placing the neutral dice -------------------------------------------------------------------


def test_a_neutral_die_goes_on_a_cell_showing_its_number() -> None:
    with pytest.raises(IllegalMoveError, match="e2 shows 4, not 5"):
        new().play("3@b1 5@e2 : 5 3")


def test_a_neutral_die_goes_on_an_empty_cell() -> None:
    st = new()
    turn(st, 6, 6, "6")  # West's 6 enters a6
    with pytest.raises(IllegalMoveError, match="a6 is not empty"):
        st.play("4@a6 6@a1 : 6 4")


def test_both_neutral_dice_cannot_share_a_cell() -> None:
    with pytest.raises(IllegalMoveError, match="the two neutral dice cannot both go on c5"):
        new().play("4@c5 4@c5 : 4")


def test_a_neutral_die_must_be_placed_when_it_can_be() -> None:
    with pytest.raises(IllegalMoveError, match="the neutral 3 must be placed: b1 shows 3 and is empty"):
        new().play("3@- 5@c1 : 5 3")


def test_a_neutral_die_with_no_free_cell_is_not_placed() -> None:
    rng = random.Random(2)
    st = new(3)
    numbers = RULES.board_data(3)["numbers"]
    checked = 0
    while not st.is_terminal() and checked < 20:
        for m in st.legal_moves():
            if None in m.cells:
                value = m.throw[m.cells.index(None)]
                text = st.move_str(m)
                assert f"{value}@-" in text
                st.check_move(m)
                for cell in (c for c, n in numbers.items() if n == value):
                    with pytest.raises(IllegalMoveError, match=r"is not empty|cannot both go on"):
                        st.check_move(st.parse_move(text.replace(f"{value}@-", f"{value}@{cell}")))
                checked += 1
                break
        st.apply_move(rng.choice(st.legal_moves()))
    assert checked > 0


# --- pushing ------------------------------------------------------------------------------------


def test_pushes_add_up_to_the_total_or_match_one_thrown_die() -> None:
    st = new()
    # West's dice show their rank (1 to 6); a throw of 5 and 3 totals 8.
    assert options(st, 3, 5, "3@b1 5@c1") == {"6 2", "5 3", "5 2 1", "4 3 1", "5", "3"}


def test_a_wrong_total_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match=r"must add up to 8 .*, not 6 \+ 1 = 7"):
        new().play("3@b1 5@c1 : 6 1")
    with pytest.raises(IllegalMoveError, match="or be one die showing 3 or 5"):
        new().play("3@b1 5@c1 : 4")


def test_neutral_dice_block_the_dice_they_stand_in_front_of() -> None:
    st = new()
    # 3 on a3 blocks West's rank-3 die, 5 on a5 its rank-5 die: only 6 + 2 is left.
    assert options(st, 3, 5, "3@a3 5@a5") == {"6 2"}
    with pytest.raises(IllegalMoveError, match=r"west's 3 \(rank 3\) cannot move: a3 is taken"):
        st.play("3@a3 5@d2 : 5 3")


def test_a_matching_single_die_may_move_when_the_total_cannot_be_made() -> None:
    # The example of the rules: 5 and 3 thrown, West's 3 blocked; the 5 may still move alone.
    st = new()
    assert "5" in options(st, 3, 5, "3@a3 5@c1")
    st.play("3@a3 5@c1 : 5")
    assert st.lane_progress("west", "5") == 1 and st.lane_progress("west", "3") == 0


def test_opponents_dice_and_pawns_block() -> None:
    st = new()
    drive(st, [(1, 1, "1"), (6, 6, "6"), (1, 1, "1"), (6, 6, "6"), (1, 1, "1")])
    # West's rank-1 die has gone a1, b1, c1; its pawn stands on b1.
    assert st.lane_progress("west", "1") == 3
    assert "3" not in options(st, 3, 3)
    assert "2" not in options(st, 2, 2) and "3 1" not in options(st, 2, 2)
    assert "4" in options(st, 2, 2)
    with pytest.raises(IllegalMoveError, match=r"south's 3 \(file c\) cannot move: c1 is taken"):
        st.play("3@c2 3@a3 : 3")


def test_nothing_moves_only_when_nothing_can() -> None:
    with pytest.raises(IllegalMoveError, match=r"west can push \(6 2\)"):
        new().play("3@a3 5@a5 : -")
    rng = random.Random(4)
    st = new(5)
    empty_turns = 0
    while not st.is_terminal():
        moves = st.legal_moves()
        by_placement: dict[tuple, list] = {}
        for m in moves:
            by_placement.setdefault((m.throw, m.cells), []).append(m)
        for group in by_placement.values():
            if any(not m.pushes for m in group):
                assert len(group) == 1
                empty_turns += 1
        st.apply_move(rng.choice(moves))
    assert empty_turns > 0


def test_each_push_moves_the_die_one_cell_and_its_pawn_behind_it() -> None:
    st = new()
    turn(st, 3, 5, "5 3")
    assert st.lane_progress("west", "5") == 1 and st.lane_progress("west", "3") == 1
    text = st.text()
    assert "5  w >5  5" not in text and ">5" in text


# --- leaving the board --------------------------------------------------------------------------


def exit_south_one(st: PushState, pushes: int) -> None:
    """Push South's die 1 (file a) the given number of times; West pushes its 6 meanwhile."""
    done = 0
    while done < pushes:
        if st.current_player() == "west":
            turn(st, 6, 6, "6")
        else:
            turn(st, 1, 1, "1")
            done += 1


def test_a_die_leaves_the_board_and_its_pawn_follows_on_the_next_push() -> None:
    st = new()
    exit_south_one(st, 6)
    assert st.lane_progress("south", "a") == 6
    exit_south_one(st, 1)
    assert st.lane_progress("south", "a") == 7 and st.pawns_off("south") == 0
    assert "dice off the board: 1;" in st.text()
    exit_south_one(st, 1)
    assert st.lane_progress("south", "a") == 8 and st.pawns_off("south") == 1


def test_dice_off_the_board_still_count() -> None:
    st = new()
    exit_south_one(st, 8)
    turn(st, 6, 6, "6")
    # South's 1 is off the board with its pawn; 2 + 1 = 3 moves only the 2.
    assert "2 1" in options(st, 1, 2)
    turn(st, 1, 2, "2 1")
    assert st.lane_progress("south", "b") == 1 and st.lane_progress("south", "a") == 8
    turn(st, 6, 6, "6")
    assert "1" in options(st, 1, 1)


def test_all_six_pawns_off_wins() -> None:
    path = RECORDS / "push-south-wins.txt"
    tags, tokens, _ = read_record(path, move_per_line=True)
    st = RULES.new_state(int(tags["Seed"]), frozenset(), tags)
    for token in tokens[:-1]:
        st.play(token)
    assert st.pawns_off("south") == 5 and not st.is_terminal()
    st.play(tokens[-1])
    outcome = st.outcome()
    assert outcome.finished and outcome.winner == "south" and outcome.score["south"] == 6
    assert st.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        st.check_move(st.parse_move("1@e1 1@a2 : -"))


def test_turn_limit_draws_the_game() -> None:
    st = new(TurnLimit="3")
    drive(st, [(1, 1, "1"), (6, 6, "6"), (1, 1, "1")])
    assert st.outcome().draw and "turn limit of 3" in st.outcome().reason


# --- the adjust variant -------------------------------------------------------------------------


def test_adjusting_needs_the_variant() -> None:
    st = new()
    exit_south_one(st, 7)
    turn(st, 6, 6, "6")
    with pytest.raises(IllegalMoveError, match="adjust variant, which is not in play"):
        st.play("1@e1 1@a2 : 1+")


def test_adjusting_a_die_off_the_board_changes_it_for_later_turns() -> None:
    st = new(1, ADJUST)
    exit_south_one(st, 7)
    turn(st, 6, 6, "6")
    assert {"1", "1+"} <= options(st, 1, 1)
    st.play("1@e1 1@a2 : 1+")
    assert st.die_value("south", "a") == 2 and st.lane_progress("south", "a") == 8
    turn(st, 6, 6, "6")
    # Two of South's dice now show 2, so a 2 is named with its file.
    with pytest.raises(IllegalMoveError, match="two dice showing 2: write 2/a or 2/b"):
        st.parse_move("2@d1 2@a4 : 2")
    assert {"2/a", "2/b", "2/a+", "2/a-"} <= options(st, 2, 2)
    st.play("2@d1 2@a4 : 2/a-")
    assert st.die_value("south", "a") == 1


def test_only_a_die_already_off_the_board_may_be_adjusted() -> None:
    st = new(1, ADJUST)
    exit_south_one(st, 6)
    turn(st, 6, 6, "6")
    # This push takes the die off; it was still on the board, so it cannot be adjusted now.
    with pytest.raises(IllegalMoveError, match="still on the board"):
        st.play("1@e1 1@a2 : 1+")
    st.play("1@e1 1@a2 : 1")
    turn(st, 6, 6, "6")
    with pytest.raises(IllegalMoveError, match="cannot be lowered: dice show 1 to 6"):
        st.play("1@e1 1@a2 : 1-")


def test_turns_print_and_parse_back_with_the_adjust_variant() -> None:
    rng = random.Random(9)
    for variants in (frozenset(), ADJUST):
        st = new(6, variants, SouthOrder="362514")
        while not st.is_terminal():
            moves = st.legal_moves()
            for m in rng.sample(moves, min(len(moves), 15)):
                assert st.parse_move(st.move_str(m)) == m
                st.check_move(m)
            st.apply_move(rng.choice(moves))


def test_template_values() -> None:
    values = RULES.template_values()
    assert values["size"] == 6 and values["dice_per_side"] == 6 and values["pawns_per_side"] == 6
    assert values["default_seed"] == 1 and values["default_order"] == "123456"
    assert values["first_thrower"] == "south" and values["throw_count"] == 21


# --- records ------------------------------------------------------------------------------------

RECORD_FILES = sorted(RECORDS.glob("push-*.txt"))


def test_there_are_records() -> None:
    assert len(RECORD_FILES) >= 6


@pytest.mark.parametrize("path", RECORD_FILES, ids=lambda p: p.stem)
def test_record_replays_to_its_known_verdict(path: Path) -> None:
    _, outcome, expect = play_record(RULES, path, move_per_line=True)
    if outcome is None:
        return
    verdict = "draw" if outcome.draw else f"{outcome.winner} wins"
    assert expect.startswith(verdict), (expect, outcome)
    score = re.search(r"pawns off (\d) to (\d)", expect)
    if score:
        assert outcome.score == {"south": int(score.group(1)), "west": int(score.group(2))}


@pytest.mark.parametrize("path", RECORD_FILES, ids=lambda p: p.stem)
def test_record_through_the_referee(path: Path) -> None:
    check_referee_verdict(path, move_per_line=True)


# --- the kit ------------------------------------------------------------------------------------


def _faces_mm(path: Path) -> list[float]:
    """Return the side of every square drawn in a PDF, in mm (dice faces are squares)."""
    sides = []
    with open_pdf(path) as doc:
        for page in doc:
            for drawing in page.get_drawings():
                for item in drawing["items"]:
                    if item[0] == "re" and abs(item[1].width - item[1].height) < 0.01:
                        sides.append(round(item[1].width / 72 * 25.4, 2))
    return sides


def test_kit_prints_board_dice_at_true_size_and_booklets(tmp_path: Path) -> None:
    from generator.components.base import Options
    from generator.definitions.loader import find_definition
    from generator.kits.kit import build_kit
    from generator.kits.plan import kit_plan

    definition = find_definition("push")
    build_kit(kit_plan(definition, str(tmp_path / "en"), formats=("pdf",), seed=3, parts=True))
    build_kit(
        kit_plan(
            definition, str(tmp_path / "it"), formats=("pdf",), seed=3, options=Options(lang="it"), parts=True
        )
    )
    folder = tmp_path / "en" / "push-seed3"
    cube = next(spec for spec in definition.components if spec.id == "dice")["size"]
    faces = [side for side in _faces_mm(folder / "dice.pdf") if abs(side - cube) < 0.05]
    assert len(faces) == 14 * 6 and cube == pytest.approx(16.0)
    with open_pdf(folder / "board.pdf") as board:
        words = board[0].get_text().split()
    assert "3" in words and "seed" in words
    assert all(words.count(str(v)) >= 6 + 2 for v in range(1, 7))  # six cells plus two rank labels
    assert "LEAVE" in words
    example = RULES.layout_data("position:push", 3)
    with open_pdf(folder / "booklet.pdf") as booklet:
        text = " ".join(" ".join(page.get_text().split()) for page in booklet)
    assert "Clarifications" in text and "Variant: adjust" in text and example["turn"] in text
    with open_pdf(tmp_path / "it" / "push-seed3" / "booklet.pdf") as booklet:
        text = " ".join(" ".join(page.get_text().split()) for page in booklet)
    assert "Chiarimenti" in text and "ritocco" in text and example["turn"] in text


def test_player_names_go_in_south_and_west_and_orders_in_their_own_tags() -> None:
    # Every game keeps its side tags for the players' names; Push!'s starting orders have tags of
    # their own, so a named record replays exactly like the same game without names.
    from generator.referee.replay import replay

    text = (RECORDS / "push-south-wins.txt").read_text(encoding="utf-8")
    assert '[SouthOrder "314265"]' in text and '[WestOrder "526143"]' in text
    plain = replay(text)
    named = replay(text.replace('[Seed "3"]', '[Seed "3"]\n[South "Ann Smith"]\n[West "Bo"]'))
    assert plain.ok and named.ok and named.outcome == plain.outcome and named.position == plain.position
    # Records written before the order tags gave the orders in South and West: still read.
    old = text.replace("[SouthOrder", "[South").replace("[WestOrder", "[West")
    assert replay(old).position == plain.position
    # A name is never read as an order, and a bad order names its tag.
    st = new(South="Ann", West="Bo")
    assert [st.die_value("south", f) for f in FILES] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(RecordError, match="WestOrder tag"):
        new(South="Ann", WestOrder="5261434")
