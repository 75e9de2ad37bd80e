"""Items 3 and 4: live play never loses the game. Each move reaches the disk as it is played; SIGTERM,
SIGHUP, a closed terminal, a full disk or a byte that is not UTF-8 keep every move; a --save
target that is not a regular file (or a new one) is refused before the game starts."""

from __future__ import annotations

import errno
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.games import find_rules
from generator.referee.live import play
from generator.referee.record import parse_record
from generator.referee.replay import replay
from tests.hostile.helpers import ROOT, cli, pnp_process

RULES = find_rules("nine-mens-morris")


def moves_in(path: Path) -> list[str]:
    return [t.text for t in parse_record(path.read_text(encoding="utf-8")).moves]


class _Watching(io.StringIO):
    """Input that records what the save file holds each time a line is asked for."""

    def __init__(self, text: str, target: Path) -> None:
        super().__init__(text)
        self.target = target
        self.seen: list[list[str]] = []

    def readline(self, *args: object) -> str:  # type: ignore[override]
        self.seen.append(moves_in(self.target) if self.target.exists() else [])
        return super().readline(*args)  # type: ignore[arg-type]


def test_each_move_is_on_disk_as_soon_as_it_is_played(tmp_path):
    target = tmp_path / "game.txt"
    stdin = _Watching("d2\nf4\nundo\nb4\nquit\n", target)
    play(RULES, stdin, io.StringIO(), save=str(target))
    assert stdin.seen == [[], ["d2"], ["d2", "f4"], ["d2"], ["d2", "b4"]]
    assert replay(target.read_text()).ok


def _start(tmp_path: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "generator", "referee", "--play", "nine-mens-morris", *extra],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )


def _wait_for(path: Path, moves: list[str], timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists() and moves_in(path) == moves:
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} never held {moves}")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_ends_the_game_and_keeps_the_record(tmp_path, signum):
    target = tmp_path / "game.txt"
    process = _start(tmp_path, "--save", str(target))
    assert process.stdin is not None
    process.stdin.write(b"d2\nf4\n")
    process.stdin.flush()
    _wait_for(target, ["d2", "f4"])
    process.send_signal(signum)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 128 + signum
    assert b"Traceback" not in err
    assert moves_in(target) == ["d2", "f4"]
    assert '[Result "*"]' in target.read_text()


def test_a_kill_still_leaves_every_move_played(tmp_path):
    target = tmp_path / "game.txt"
    process = _start(tmp_path, "--save", str(target))
    assert process.stdin is not None
    process.stdin.write(b"d2\nf4\nb4\n")
    process.stdin.flush()
    _wait_for(target, ["d2", "f4", "b4"])
    process.kill()
    process.communicate(timeout=30)
    assert replay(target.read_text()).moves_checked == 3


def test_undecodable_input_is_refused_and_the_game_goes_on(tmp_path):
    target = tmp_path / "game.txt"
    run = pnp_process(
        "referee", "--play", "nine-mens-morris", "--save", str(target), stdin=b"d2\n\xff\xfe\nf4\nquit\n"
    )
    assert run.code == 0, run.err
    assert "not UTF-8" in run.out
    assert moves_in(target) == ["d2", "f4"]


def test_an_endless_line_is_refused(tmp_path):
    target = tmp_path / "game.txt"
    run = pnp_process(
        "referee",
        "--play",
        "nine-mens-morris",
        "--save",
        str(target),
        stdin=b"d2\n" + b"x" * 50_000 + b"\nf4\n",
    )
    assert run.code == 0, run.err
    assert "longer than" in run.out
    assert moves_in(target) == ["d2", "f4"]


def test_a_closed_stdout_still_saves(tmp_path):
    target = tmp_path / "game.txt"
    command = f"{sys.executable} -m generator referee --play nine-mens-morris --save {target} >&- <<EOF\nd2\nf4\nEOF\n"
    result = subprocess.run(["sh", "-c", command], cwd=ROOT, capture_output=True, timeout=60)
    assert b"Traceback" not in result.stderr
    assert moves_in(target) == ["d2", "f4"]


def _special_targets(tmp_path: Path) -> list[tuple[str, str]]:
    link_target = tmp_path / "kept.txt"
    link_target.write_text("precious\n")
    link = tmp_path / "link.txt"
    link.symlink_to(link_target)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    return [
        (str(link), "symbolic link"),
        (str(fifo), "named pipe"),
        ("/dev/null", "device"),
        ("/dev/full", "device"),
        (str(folder), "folder"),
        ("/proc/pnp-record.txt", "cannot write"),
        (str(tmp_path / "missing" / "sub" / "\0bad"), ""),
    ]


def test_save_targets_that_are_not_regular_files_are_refused_before_play(tmp_path, monkeypatch):
    for target, words in _special_targets(tmp_path):
        if "\0" in target:
            continue
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"d2\nquit\n")))
        run = cli("referee", "--play", "nine-mens-morris", "--save", target)
        assert run.code == 2, (target, run.out, run.err)
        assert words in run.one_line_error()
        assert "to move" not in run.out  # refused before the game started
    assert (tmp_path / "kept.txt").read_text() == "precious\n"
    assert (tmp_path / "link.txt").is_symlink()
    assert (tmp_path / "pipe").is_fifo()


def test_a_full_disk_during_play_is_one_line_and_keeps_what_was_written(tmp_path, monkeypatch):
    target = tmp_path / "game.txt"
    calls = {"n": 0}
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        calls["n"] += 1
        if calls["n"] > 2:  # the header and the first move reach the disk, then it is full
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"d2\nf4\nb4\nquit\n")))
    import generator.referee.live

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(generator.referee.live, "atomic_write_text", full)
    run = cli("referee", "--play", "nine-mens-morris", "--save", str(target))
    assert run.code == 2
    assert "No space left on device" in run.one_line_error()
    assert moves_in(target)[0] == "d2"  # what reached the disk before it filled up


def test_a_closed_input_ends_the_game_and_saves(tmp_path):
    import threading

    target = tmp_path / "game.txt"
    stdin = io.StringIO("d2\n")
    stdin.close()  # reading it raises ValueError for ever, as a closed sys.stdin does
    out = io.StringIO()
    game = threading.Thread(target=play, args=(RULES, stdin, out), kwargs={"save": str(target)}, daemon=True)
    game.start()
    game.join(60)
    assert not game.is_alive(), out.getvalue()[-300:]
    assert "could not read that" not in out.getvalue()
    assert "game stopped after 0 moves" in out.getvalue() and f"record saved to {target}" in out.getvalue()
    assert replay(target.read_text()).ok


def test_a_closed_input_descriptor_ends_the_game_and_saves(tmp_path):
    target = tmp_path / "game.txt"
    run = pnp_process(
        "referee", "--play", "nine-mens-morris", "--save", str(target), preexec_fn=lambda: os.close(0)
    )
    assert run.code == 0, run.err
    assert "record saved to" in run.out and "Traceback" not in run.err
    assert moves_in(target) == []


def test_an_input_that_never_ends_its_line_ends_the_game(tmp_path):
    target = tmp_path / "game.txt"
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run(
            [sys.executable, "-m", "generator", "referee", "--play", "nine-mens-morris", "--save", str(target)],
            stdin=zeros, capture_output=True, text=True, cwd=ROOT, timeout=120,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "the input is taken as ended" in done.stdout and "record saved to" in done.stdout
    assert moves_in(target) == [] and replay(target.read_text()).ok


def test_endless_unreadable_lines_end_the_game_with_the_moves_kept(tmp_path):
    target = tmp_path / "game.txt"
    stdin = b"d2\nf4\n" + b"\xff\xfe\n" * 100_000 + b"b4\n"
    run = pnp_process("referee", "--play", "nine-mens-morris", "--save", str(target), stdin=stdin)
    assert run.code == 0, run.err
    assert run.out.count("could not read that") == 10, run.out[-500:]
    assert "10 unreadable lines in a row, the input is taken as ended" in run.out
    assert moves_in(target) == ["d2", "f4"] and replay(target.read_text()).ok


def test_saving_to_a_hard_link_leaves_the_other_name_alone(tmp_path):
    other = tmp_path / "precious.txt"
    other.write_text("a record kept elsewhere\n", encoding="utf-8")
    target = tmp_path / "game.txt"
    os.link(other, target)
    run = pnp_process("referee", "--play", "nine-mens-morris", "--save", str(target), stdin=b"d2\nf4\nquit\n")
    assert run.code == 0, run.err
    assert other.read_text(encoding="utf-8") == "a record kept elsewhere\n"
    assert moves_in(target) == ["d2", "f4"] and os.stat(target).st_nlink == 1
