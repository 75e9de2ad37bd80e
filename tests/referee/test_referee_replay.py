"""Replaying records: verdicts on legal games, the first illegal move, claimed results, set-up errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.foundation.errors import BoardError, PnpError, RecordError, UnknownGameError
from generator.referee.replay import replay

RECORDS = Path(__file__).parent / "records"
NMM = '[Game "nine-mens-morris"]\n'


def read(name: str) -> str:
    return (RECORDS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "name, moves, winner, reason",
    [
        ("nmm_white_wins.txt", 97, "white", "Black is down to two men"),
        ("nmm_blockade.txt", 55, "white", "Black cannot move"),
        ("nmm_flying.txt", 49, "white", "Black is down to two men"),
    ],
)
def test_recorded_games_are_legal_to_the_end_with_their_winner(
    name: str, moves: int, winner: str, reason: str
) -> None:
    verdict = replay(read(name))
    assert verdict.legal and verdict.ok and verdict.exit_code == 0
    assert verdict.moves_checked == moves and verdict.error is None
    assert verdict.outcome.finished and verdict.outcome.winner == winner and verdict.outcome.reason == reason
    assert verdict.claim is not None and verdict.claim.agrees and verdict.claim.actual == "1-0"


def test_the_first_illegal_move_is_named_with_its_place_and_reason() -> None:
    verdict = replay(read("nmm_illegal_move_23.txt"))
    assert not verdict.legal and verdict.exit_code == 4
    assert verdict.moves_checked == 22
    assert verdict.error is not None
    assert (verdict.error.index, verdict.error.line, verdict.error.column, verdict.error.move) == (
        23,
        17,
        5,
        "c5-c4",
    )
    assert verdict.error.reason == "White has no man on c5"
    assert verdict.claim is None and "White to move, turn 23" in verdict.position


def test_a_wrong_claimed_result_is_reported() -> None:
    verdict = replay(read("nmm_black_wins_claimed_1-0.txt"))
    assert verdict.legal and not verdict.ok and verdict.exit_code == 4
    assert verdict.outcome.winner == "black"
    assert verdict.claim is not None and (verdict.claim.claimed, verdict.claim.actual) == ("1-0", "0-1")
    assert verdict.claim.line == 26


def test_the_flying_game_is_illegal_without_the_flying_variant() -> None:
    verdict = replay(read("nmm_flying.txt").replace('[Variant "flying"]\n', ""))
    assert verdict.error is not None and verdict.error.index == 40
    assert verdict.error.reason == "a7 is not adjacent to g1"


def test_game_seed_and_variant_can_come_from_the_caller() -> None:
    body = "\n".join(read("nmm_flying.txt").splitlines()[2:])  # drop the Game and Variant tags
    assert replay(body, game="nine-mens-morris", variants=["flying"]).ok
    with pytest.raises(RecordError, match="which game"):
        replay(body)
    with pytest.raises(RecordError, match="Game tag says"):
        replay(NMM + "d2", game="verbal")
    with pytest.raises(RecordError, match="Variant tag says"):
        replay(read("nmm_flying.txt"), variants=[])
    with pytest.raises(UnknownGameError):
        replay('[Game "chess"]\ne4')


@pytest.mark.parametrize(
    "header, words, line",
    [
        ('[Variant "jumping"]', "no variant 'jumping'", 2),
        ('[TurnLimit "forever"]', "TurnLimit", None),
        ('[Seed "-3"]', "non-negative", 2),
        ('[Result "2-0"]', "not a result", 2),
    ],
)
def test_bad_tag_values_make_the_record_unreadable(header: str, words: str, line: int | None) -> None:
    with pytest.raises(RecordError) as info:
        replay(NMM + header + "\nd2 f4\n")
    assert words in str(info.value) and info.value.line == line and info.value.exit_code == 3


def test_result_tag_and_final_token_must_agree() -> None:
    with pytest.raises(RecordError, match="Result tag says 1-0"):
        replay(NMM + '[Result "1-0"]\nd2 f4 0-1\n')


def test_turn_limit_tag_makes_a_draw_that_a_claim_can_match() -> None:
    verdict = replay(NMM + '[TurnLimit "4"]\n1. a1 a7 2. d1 d7 1/2-1/2\n')
    assert (
        verdict.ok
        and verdict.outcome.draw
        and verdict.claim is not None
        and verdict.claim.actual == "1/2-1/2"
    )


def test_claims_on_an_unfinished_game() -> None:
    assert replay(NMM + "d2 f4 *").ok
    unfinished = replay(NMM + "d2 f4 1-0")
    assert unfinished.legal and not unfinished.ok and unfinished.claim.actual == "*"  # type: ignore[union-attr]


def test_moves_after_the_end_are_illegal() -> None:
    text = read("nmm_blockade.txt").replace("\n1-0\n", "\nb2-b4\n")
    verdict = replay(text)
    assert verdict.error is not None and verdict.error.index == 56
    assert verdict.error.reason == "the game is already over (Black cannot move)"


def test_a_token_that_is_not_a_move_is_reported_like_an_illegal_move() -> None:
    verdict = replay(NMM + "1. d2 f4\n2. d1 hello\n")
    assert verdict.error is not None and (verdict.error.index, verdict.error.line, verdict.error.column) == (
        4,
        3,
        7,
    )
    assert "not a Nine Men's Morris move" in verdict.error.reason


def test_a_mill_without_its_removal_is_illegal() -> None:
    verdict = replay(NMM + "1. a1 b2 2. d1 d2 3. g1 f2\n")
    assert verdict.error is not None and verdict.error.index == 5
    assert verdict.error.reason.startswith("g1 closes a mill: White must remove a Black man")


def test_the_json_verdict_has_the_fields_of_the_issue() -> None:
    data = json.loads(json.dumps(replay(read("nmm_illegal_move_23.txt")).as_dict()))
    assert {"game", "legal", "moves_checked", "error", "outcome", "position"} <= set(data)
    assert data["game"] == "nine-mens-morris" and data["legal"] is False
    assert data["error"] == {
        "index": 23,
        "line": 17,
        "column": 5,
        "move": "c5-c4",
        "reason": "White has no man on c5",
    }
    assert data["outcome"]["finished"] is False and data["outcome"]["winner"] is None
    done = replay(read("nmm_white_wins.txt")).as_dict()
    assert done["error"] is None and done["outcome"]["winner"] == "white" and done["outcome"]["draw"] is False


_GARBAGE = st.text(
    alphabet=st.sampled_from(list('abcdg1247-x. \n#[]"*/0') + ["\t", "é", "\x00"]), max_size=120
)


@settings(max_examples=250, deadline=None)
@given(
    _GARBAGE, st.sampled_from([NMM, NMM + '[Variant "flying"]\n', "", '[Game "nine-mens-morris"] [Result "'])
)
def test_garbage_records_give_a_verdict_or_a_project_error(body: str, header: str) -> None:
    try:
        verdict = replay(header + body, game=None if header else "nine-mens-morris")
    except PnpError as exc:
        assert isinstance(exc, (RecordError, BoardError, UnknownGameError)) and "\n" not in str(exc)
        return
    assert verdict.legal == (verdict.error is None)
    assert verdict.moves_checked <= len(body.split())
