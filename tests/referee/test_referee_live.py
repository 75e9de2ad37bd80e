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


def failing_from(call: int, real):
    """Return a stand-in for ``real`` that raises ENOSPC (a full disk) from its ``call``-th call on."""
    import errno

    calls = []

    def stand_in(*args, **kwargs):
        calls.append(1)
        if len(calls) >= call:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(*args, **kwargs)

    return stand_in


def test_a_full_disk_is_reported_at_once_and_the_record_printed_at_the_end(tmp_path, monkeypatch) -> None:
    import os

    import generator.referee.live as live

    moves = [t.text for t in parse_record((RECORDS / "nmm_blockade.txt").read_text()).moves]
    target = tmp_path / "game.txt"
    monkeypatch.setattr(live.os, "fsync", failing_from(4, os.fsync))  # the header and 2 moves fit
    monkeypatch.setattr(live, "atomic_write_text", failing_from(1, live.atomic_write_text))
    game, out = run(moves[:6], save=str(target))
    lines = out.splitlines()
    report = next(i for i, line in enumerate(lines) if "No space left on device" in line)
    assert "save PATH" in lines[report]
    assert sum(" to move: " in line for line in lines[:report]) == 3  # told right after the 3rd move
    assert game.moves == moves[:6] and game.save_error  # type: ignore[attr-defined]
    printed = out[out.index("the whole record:") :].split("\n", 1)[1]
    verdict = replay(printed)
    assert verdict.ok and verdict.moves_checked == 6


def test_save_path_at_the_prompt_moves_the_record_to_another_file(tmp_path, monkeypatch) -> None:
    import os

    import generator.referee.live as live

    moves = [t.text for t in parse_record((RECORDS / "nmm_blockade.txt").read_text()).moves]
    full, other = tmp_path / "full.txt", tmp_path / "other.txt"
    real_fsync = os.fsync
    monkeypatch.setattr(
        live.os,
        "fsync",
        lambda fd: (
            failing_from(1, real_fsync)(fd)
            if os.path.samefile(f"/proc/self/fd/{fd}", full)
            else real_fsync(fd)
        ),
    )
    game, out = run([*moves[:3], f"save {other}", *moves[3:5]], save=str(full))
    assert "No space left on device" in out and f"saved to {other} from now on" in out
    assert game.saved == str(other)  # type: ignore[attr-defined]
    verdict = replay(other.read_text())
    assert verdict.ok and verdict.moves_checked == 5
