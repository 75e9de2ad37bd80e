"""Record files of tests/games/records: read them with the referee's own reader, and replay them
against the verdict each states in its '# expect:' line ("illegal move N (reason)", or the result)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.foundation.errors import IllegalMoveError
from generator.games.base import GameRules, Outcome, State
from generator.referee.record import parse_record
from generator.referee.replay import replay

_ILLEGAL = re.compile(r"illegal move (\d+) \((.*)\)")


def read_record(path: Path, move_per_line: bool = False) -> tuple[dict[str, str], list[str], str]:
    """Return the tags, the move texts and the '# expect:' line of a record file."""
    text = path.read_text(encoding="utf-8")
    expect = next(
        (line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("# expect:")), ""
    )
    record = parse_record(text, move_per_line)
    return record.tag_values(), [token.text for token in record.moves], expect


def play_text(rules: GameRules, text: str) -> State:
    """Return the state after playing a record's text (tags, then moves) through the State API."""
    record = parse_record(text, rules.move_per_line)
    tags = record.tag_values()
    variants = frozenset(v.strip() for v in tags.get("Variant", "").split(",") if v.strip())
    state = rules.new_state(int(tags["Seed"]) if "Seed" in tags else None, variants, tags)
    for token in record.moves:
        state.play(token.text)
    return state


def play_record(
    rules: GameRules,
    path: Path,
    move_per_line: bool = False,
    errors: tuple[type[Exception], ...] = (IllegalMoveError,),
) -> tuple[dict[str, str], Outcome | None, str]:
    """Play a record through the State API; return its tags, the final outcome and the expectation.

    A record expected to be illegal at move N must play its first N-1 moves and fail at move N
    with the expected reason; its outcome is then None."""
    tags, moves, expect = read_record(path, move_per_line)
    variants = frozenset(v.strip() for v in tags.get("Variant", "").split(",") if v.strip())
    state = rules.new_state(int(tags["Seed"]) if "Seed" in tags else None, variants, tags)
    illegal = _ILLEGAL.fullmatch(expect)
    if illegal:
        number, reason = int(illegal.group(1)), illegal.group(2)
        for move in moves[: number - 1]:
            state.play(move)
        with pytest.raises(errors, match=re.escape(reason)):
            state.play(moves[number - 1])
        return tags, None, expect
    for move in moves:
        state.play(move)
    outcome = state.outcome()
    assert outcome.finished
    return tags, outcome, expect


def check_referee_verdict(path: Path, move_per_line: bool = False, full_reason: bool = True) -> None:
    """Replay a record file through the referee and check its verdict against the expectation.

    The referee's reason for an illegal move is the expected one, or, unless ``full_reason``,
    begins with it (the record names the rule, the referee adds the detail)."""
    _, moves, expect = read_record(path, move_per_line)
    verdict = replay(path.read_text(encoding="utf-8"))
    illegal = _ILLEGAL.fullmatch(expect)
    if illegal:
        number = int(illegal.group(1))
        assert not verdict.legal and verdict.error.index == number and verdict.moves_checked == number - 1
        reason = verdict.error.reason
        assert reason == illegal.group(2) if full_reason else reason.startswith(illegal.group(2))
    else:
        assert verdict.ok and verdict.claim is not None and verdict.claim.agrees
        assert verdict.moves_checked == len(moves)
