"""Processes and signals: a build's workers end with it, however it ends (kill -9, SIGTERM,
SIGHUP, Ctrl-C), so nothing goes on writing or holds a pipe open; a stopped command says so in one
line with 128 + the signal, never a traceback; and the next build clears what a killed one left.

Every test starts its commands in their own process group and kills that group at the end, so a
failing test leaves no process behind."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

#: A build that keeps two workers busy for several seconds.
LONG_BUILD = ["build", "push", "--seeds", "1-60", "--format", "svg", "-q", "-j", "2"]


@contextlib.contextmanager
def started(args: list[str], **kwargs: object) -> Iterator[subprocess.Popen]:
    """Start ``python -m generator ARGS`` in a new process group; kill the group when done."""
    kwargs.setdefault("stdin", subprocess.DEVNULL)
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        **kwargs,  # type: ignore[arg-type]
    )
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate(timeout=30)


def group_members(group: int) -> list[int]:
    """Return the live (not zombie) processes of a process group."""
    members = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, pgrp = fields[0], int(fields[2])
        if pgrp == group and state not in ("Z", "X"):
            members.append(int(name))
    return members


def wait_for(condition, timeout: float) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` seconds pass; return whether it held."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())


def workers_running(process: subprocess.Popen) -> None:
    """Wait until the build has its worker processes (the main one and at least two more)."""
    assert wait_for(lambda: len(group_members(process.pid)) >= 3, 60), "the build started no workers"


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_workers_end_with_the_main_process(tmp_path, signum):
    with started([*LONG_BUILD, "--out", str(tmp_path)]) as process:
        workers_running(process)
        process.send_signal(signum)
        # the pipe's other ends close once every worker is gone: `pnp build | tee log` ends
        _, err = process.communicate(timeout=15)
        assert wait_for(lambda: not group_members(process.pid), 10), "workers outlived the build"
    assert process.returncode in (-signum, 128 + signum), err
    if signum != signal.SIGKILL:
        assert process.returncode == 128 + signum
        lines = err.decode().strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("pnp: error: "), err
        word = "interrupted" if signum == signal.SIGINT else signal.Signals(signum).name
        assert word in lines[0]


def test_two_signals_close_together_end_in_one_line(tmp_path):
    with started([*LONG_BUILD, "--out", str(tmp_path)]) as process:
        workers_running(process)
        process.send_signal(signal.SIGTERM)
        process.send_signal(signal.SIGHUP)
        _, err = process.communicate(timeout=15)
        assert wait_for(lambda: not group_members(process.pid), 10)
    assert process.returncode in (128 + signal.SIGTERM, 128 + signal.SIGHUP)
    assert b"Traceback" not in err
    assert len(err.decode().strip().splitlines()) == 1, err


def test_a_signal_while_a_stopped_command_exits_changes_nothing(tmp_path):
    """A second signal that lands once the command has stopped, while Python exits, neither adds
    a line nor changes the exit code (Python sets its handlers back to the default as it exits:
    the signal would end the process with a plain signal status)."""
    script = (
        "import atexit, os, signal, sys, time\n"
        "atexit.register(lambda: (os.kill(os.getpid(), signal.SIGHUP), time.sleep(0.2)))\n"
        f"sys.argv = ['pnp', *{[*LONG_BUILD, '--out', str(tmp_path)]!r}]\n"
        "from generator.cli import main\n"
        "main()\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        workers_running(process)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate(timeout=30)
    assert process.returncode == 128 + signal.SIGTERM, (process.returncode, err)
    assert err.decode().strip().splitlines() == ["pnp: error: stopped by SIGTERM"], err


@pytest.mark.parametrize("delay", [0.0, 0.02, 0.04, 0.06, 0.1, 0.2, 0.4])
def test_ctrl_c_at_any_moment_prints_no_traceback(tmp_path, delay):
    with started(["build", "nine-mens-morris", "--out", str(tmp_path), "-q"]) as process:
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    frames = [line for line in err.splitlines() if line.strip().startswith(b"File ")]
    pnp_frames = [line for line in frames if b"generator" in line]
    started_only = all(
        line.rstrip().endswith(b"<module>") and b"generator/__init__.py" in line for line in pnp_frames
    )
    if b"init_import_site" in err or (b"Traceback" in err and started_only):
        # Python's own start (site, runpy finding the package, the package's two constant lines)
        # runs before any pnp code can take the signal; a traceback through pnp's code is never skipped
        pytest.skip("the signal came while Python itself was starting, before any pnp code ran")
    assert b"Traceback" not in err, err.decode()
    if process.returncode != 0:  # (a signal before Python set its handler kills it plainly)
        assert process.returncode in (130, -signal.SIGINT), err
        assert len(err.decode().strip().splitlines()) <= 1, err


def staging(out) -> list[str]:
    """Return the staging folders and temporary files in an output folder."""
    try:
        return [name for name in os.listdir(out) if name.startswith((".tmp-", ".old-"))]
    except FileNotFoundError:
        return []


def test_the_next_build_clears_what_killed_builds_left(tmp_path):
    out = tmp_path / "out"
    rng = random.Random(30)
    left_behind = []
    for _ in range(3):
        with started(["build", "nine-mens-morris", "push", "--out", str(out), "-q", "-j", "2"]) as process:
            assert wait_for(lambda: staging(out) or process.poll() is not None, 60)
            time.sleep(rng.uniform(0.0, 0.4))
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.communicate(timeout=15)
        left_behind += staging(out)
    assert left_behind, "no build was killed while it was writing"
    with started(["build", "nine-mens-morris", "--out", str(out), "-q", "--format", "svg"]) as process:
        _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert staging(out) == []


def test_a_killed_check_leaves_its_folder_only_until_the_next_check(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    scratch = tmp_path / "cache" / "pnp" / "check"
    with started(["check", "layouts/push.toml"], env=env) as process:
        assert wait_for(lambda: staging(scratch) or process.poll() is not None, 60)
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate(timeout=15)
        left = staging(scratch)
    assert left, "the check was not killed while it was building"
    with started(["check", "layouts/nine-mens-morris.toml"], env=env) as process:
        _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert os.listdir(scratch) == []


@pytest.mark.parametrize(
    "signals",
    [
        (signal.SIGHUP,),
        (signal.SIGTERM, signal.SIGHUP),
        (signal.SIGHUP, signal.SIGHUP),
        (signal.SIGINT, signal.SIGINT),
        (signal.SIGINT, signal.SIGTERM),
    ],
)
def test_live_play_stopped_by_signals_saves_the_whole_record(tmp_path, signals):
    from generator.referee.replay import replay

    target = tmp_path / "game.txt"
    args = ["referee", "--play", "nine-mens-morris", "--save", str(target)]
    # the prompt waits on standard input: a pipe of our own, kept open while the signals come
    reader, writer = os.pipe()
    try:
        with started(args, stdin=reader) as process:
            os.write(writer, b"d2\nf4\n")
            assert wait_for(lambda: target.exists() and " f4" in target.read_text(), 60)
            for signum in signals:
                process.send_signal(signum)
            _, err = process.communicate(timeout=30)
    finally:
        os.close(reader)
        os.close(writer)
    assert b"Traceback" not in err and b"unexpected" not in err, err
    # (signals pending together are taken lowest number first: any of them may be the first)
    # (a second signal that lands as Python is already exiting, after the save, ends it plainly)
    late = {-signum for signum in signals[1:]}
    assert process.returncode in {128 + signum for signum in signals} | late, (process.returncode, err)
    text = target.read_text()
    assert '[Result "*"]' in text
    verdict = replay(text)
    assert verdict.ok and verdict.moves_checked == 2
