"""Live play at the table over piped input: prompts, rejected moves, ?, undo, quit, saving the record."""

from __future__ import annotations

import io
from pathlib import Path

from generator.games import find_rules
from generator.referee.live import play
from generator.referee.record import parse_record
from generator.referee.replay import replay

RULES = find_rules("nine-mens-morris")
RECORDS = Path(__file__).parent / "records"


def run(lines: list[str], **options: object) -> tuple[object, str]:
    out = io.StringIO()
    game = play(RULES, io.StringIO("".join(f"{line}\n" for line in lines)), out, **options)  # type: ignore[arg-type]
    return game, out.getvalue()


def test_moves_are_checked_and_illegal_ones_asked_again() -> None:
    game, out = run(["d2", "d2", "f4-f5", "f4", "quit"])
    assert game.moves == ["d2", "f4"]  # type: ignore[attr-defined]
    assert "illegal: d2 is already taken by a White man" in out
    assert "illegal: f5 is not a point of the board" in out
    assert out.count("Black to move: ") == 3 and "game stopped after 2 moves, unfinished" in out


def test_question_mark_lists_the_legal_moves() -> None:
    _, out = run(["?"])
    listing = next(line for line in out.splitlines() if "legal moves:" in line)
    assert listing.endswith(
        "24 legal moves: a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7"
    )


def test_undo_takes_back_the_last_move() -> None:
    game, out = run(["d2", "f4", "undo", "undo", "undo", "a1"])
    assert "took back f4" in out and "took back d2" in out and "nothing to take back" in out
    assert game.moves == ["a1"]  # type: ignore[attr-defined]


def test_a_whole_game_ends_with_the_outcome_and_saves_a_record_that_replays(tmp_path: Path) -> None:
    moves = [t.text for t in parse_record((RECORDS / "nmm_blockade.txt").read_text()).moves]
    target = tmp_path / "games" / "blockade.txt"
    game, out = run(moves + ["a1"], save=str(target))
    assert "game over: White wins (Black cannot move)" in out and f"record saved to {target}" in out
    assert game.outcome.winner == "white"  # type: ignore[attr-defined]
    verdict = replay(target.read_text())
    assert verdict.ok and verdict.moves_checked == len(moves) and verdict.claim.claimed == "1-0"  # type: ignore[union-attr]
    assert not list(target.parent.glob(".tmp-*"))


def test_end_of_input_stops_and_saves_an_unfinished_record(tmp_path: Path) -> None:
    target = tmp_path / "partial.txt"
    _game, _out = run(["b4", "d7"], save=str(target), variants=frozenset({"flying"}))
    text = target.read_text()
    assert '[Variant "flying"]' in text and '[Result "*"]' in text
    assert [t.text for t in parse_record(text).moves] == ["b4", "d7"]
    assert replay(text).ok


class _InterruptAfter(io.StringIO):
    """Input that raises KeyboardInterrupt (Ctrl-C) once its lines are used up."""

    def readline(self, *args: object) -> str:  # type: ignore[override]
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_stops_and_still_saves(tmp_path: Path) -> None:
    target = tmp_path / "interrupted.txt"
    out = io.StringIO()
    game = play(RULES, _InterruptAfter("d2\nf4\n"), out, save=str(target))
    assert game.interrupted and "interrupted" in out.getvalue()
    assert [t.text for t in parse_record(target.read_text()).moves] == ["d2", "f4"]


def test_piped_input_is_echoed_after_the_prompt() -> None:
    _, out = run(["d2"])
    assert "White to move: d2\n" in out
