"""Item 5: the referee reads only regular files (or standard input, given `-`): a device, a FIFO
with no writer, a folder or a kernel file that gives no record is one line, exit 3, at once."""

from __future__ import annotations

import os
import stat

import pytest

from tests.hostile.helpers import pnp_process

RECORD = os.path.join(os.path.dirname(os.path.dirname(__file__)), "referee", "records", "nmm_white_wins.txt")


def _special(tmp_path, kind: str) -> str:
    if kind == "fifo":
        path = str(tmp_path / "record.fifo")
        os.mkfifo(path)  # nobody writes to it: opening it to read would wait for ever
        return path
    if kind == "folder":
        return str(tmp_path)
    if kind == "link to a fifo":
        os.mkfifo(tmp_path / "fifo")
        os.symlink(tmp_path / "fifo", tmp_path / "record.txt")
        return str(tmp_path / "record.txt")
    return kind


KINDS = ["fifo", "folder", "link to a fifo", "/dev/zero", "/dev/null", "/dev/tty"]
# a kernel file that stat calls regular but that gives no record: the referee's own memory (read
# at its start, it fails the same way every time; /proc/kmsg would hand over, and so take away,
# whatever kernel messages are waiting, and the test would read a different file each run)
if os.path.exists("/proc/self/mem"):
    KINDS.append("/proc/self/mem")


@pytest.mark.parametrize("kind", KINDS)
def test_a_special_file_is_one_line_exit_3_at_once(tmp_path, kind):
    path = _special(tmp_path, kind)
    run = pnp_process("referee", path, timeout=30)  # a hang fails here instead of holding the run
    assert run.code == 3, run.err
    line = run.one_line_error()
    assert path in line
    if not path.startswith("/proc/") and os.path.exists(path):
        words = "folder" if stat.S_ISDIR(os.stat(path).st_mode) else "special file"
        assert words in line, line


def test_a_record_on_standard_input_is_read_when_given_dash():
    with open(RECORD, encoding="utf-8") as handle:
        text = handle.read()
    from_file = pnp_process("referee", RECORD)
    from_stdin = pnp_process("referee", "-", stdin=text)
    assert from_stdin.code == from_file.code
    assert from_stdin.out == from_file.out and from_stdin.out


@pytest.mark.parametrize("save", ["", "   ", "game\t.txt", "game\n.txt"])
def test_a_save_path_that_names_no_file_is_refused_before_play(tmp_path, save):
    run = pnp_process("referee", "--play", "verbal", "--save", save, stdin="", timeout=30, cwd=str(tmp_path))
    assert run.code == 2, run.err
    assert "--save" in run.one_line_error()
    assert run.out == ""  # refused before the board is shown
    assert os.listdir(tmp_path) == []
