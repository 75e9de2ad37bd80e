"""``pnp build GAME --watch`` through the CLI, in a subprocess (an unknown game in this process), on
a definition folder of its own:
a save of the definition or of its CSV rebuilds the kit (each rebuild in one line with its time),
a broken save says why in one line and leaves the last good kit as it was, and SIGINT ends the
watch with one line and exit 130."""

from __future__ import annotations

import hashlib
import os
import queue
import re
import signal
import subprocess
import sys
import threading
from collections import Counter

from tests.cli_run import pnp
from tests.foundation.test_cli import ROOT
from tests.foundation.test_pieces_from_data import CSV, write_pack
from tests.pdf_reader import open_pdf

WAIT = 120  # seconds a rebuild may take on a loaded machine
TIMED = re.compile(r"\(\d+\.\d\d s\)")


class Watch:
    """A running ``pnp build --watch`` whose output lines are read as they come."""

    def __init__(self, root) -> None:
        env = {**os.environ, "PYTHONPATH": ROOT}
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "generator",
                "build",
                "pack",
                "--layouts",
                "layouts",
                "--out",
                "o",
                "--parts",
                "--watch",
            ],
            cwd=str(root),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def next_line(self) -> str:
        line = self.lines.get(timeout=WAIT)
        assert "Traceback" not in line
        return line

    def stop(self) -> tuple[int, str]:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            code = self.process.wait(timeout=WAIT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
        assert self.process.stderr is not None
        return code, self.process.stderr.read()


def words(path) -> Counter:
    found: Counter = Counter()
    for page in open_pdf(str(path)):
        found.update(w[4] for w in page.get_text("words"))
    return found


def digest(folder) -> dict[str, str]:
    return {
        name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in sorted(os.listdir(folder))
    }


def test_watch_rebuilds_on_save_keeps_the_last_good_kit_and_stops_on_sigint(tmp_path):
    toml = write_pack(tmp_path)
    csv = tmp_path / "layouts" / "pieces.csv"
    kit = tmp_path / "o" / "pack"
    watch = Watch(tmp_path)
    try:
        first = watch.next_line()
        assert first.startswith("built 1 kit(s)") and TIMED.search(first), first
        assert watch.next_line().startswith("watching ")
        assert words(kit / "tiles.pdf")["T1"] == 2

        with open(toml, encoding="utf-8") as handle:  # a save of the definition
            text = handle.read()
        with open(toml, "w", encoding="utf-8") as handle:
            handle.write(text.replace('label = "T{rank}"', 'label = "R{rank}"'))
        line = watch.next_line()
        assert line.startswith("built 1 kit(s)") and TIMED.search(line), line
        tiles = words(kit / "tiles.pdf")
        assert tiles["R1"] == 2 and tiles["T1"] == 0

        csv.write_text(CSV.replace("moon,1,tile,1,moon", "moon,1,tile,3,moon"), encoding="utf-8")
        line = watch.next_line()  # a save of the CSV the definition names
        assert line.startswith("built 1 kit(s)"), line
        assert words(kit / "tiles.pdf")["R1"] == 4

        good = digest(kit)
        with open(toml, "a", encoding="utf-8") as handle:  # a broken save
            handle.write("\nbroken [\n")
        line = watch.next_line()
        assert line.startswith("not rebuilt, the last good kit stays"), line
        assert "pack.toml" in line and "not valid TOML" in line and TIMED.search(line)
        assert digest(kit) == good

        with open(toml, "w", encoding="utf-8") as handle:  # mended, then a broken cell
            handle.write(text)
        assert watch.next_line().startswith("built 1 kit(s)")
        good = digest(kit)
        csv.write_text(CSV.replace("sun,2,tile,2", "sun,2,tile,two"), encoding="utf-8")
        line = watch.next_line()
        assert "pieces.csv: row 3, column 'quantity'" in line and line.startswith("not rebuilt"), line
        assert digest(kit) == good
    finally:
        code, err = watch.stop()
    assert code == 130
    assert err.strip().splitlines() == ["pnp: error: interrupted"], err
    assert not [n for n in os.listdir(tmp_path / "o") if n.startswith((".tmp-", ".old-"))]


def test_watch_of_an_unknown_game_is_one_line_and_no_watch(tmp_path):
    # in this process (tests/cli_run.py): a watch that started would never end, so an alarm ends it
    write_pack(tmp_path)

    def watched(signum, frame):
        raise AssertionError("the unknown game was watched")

    previous = signal.signal(signal.SIGALRM, watched)
    signal.alarm(WAIT)
    try:
        result = pnp("build", "nosuch", "--layouts", "layouts", "--watch", cwd=str(tmp_path))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert result.returncode == 3, result.stderr
    assert result.stderr.strip().splitlines() == ["pnp: error: unknown game 'nosuch' (known: pack)"]


def test_a_save_the_moment_a_build_ends_is_seen(tmp_path, monkeypatch):
    """A save made after the build read the file but before the watch first looks at it (here, while
    the watch reports the build) still rebuilds: the watch compares against the file as the build
    read it, not as it was when the watch got round to looking."""
    from generator.kits.plan import BuildRequest
    from generator.kits.watch import watch

    toml = write_pack(tmp_path)
    monkeypatch.chdir(tmp_path)
    with open(toml, encoding="utf-8") as handle:
        text = handle.read()
    lines: list[str] = []

    def report(line: str) -> None:
        lines.append(line)
        if line.startswith("watching "):  # the same size: only the modification time tells
            with open(toml, "w", encoding="utf-8") as handle:
                handle.write(text.replace('label = "T{rank}"', 'label = "R{rank}"'))

    def too_long(signum, frame):
        raise AssertionError(f"the save was not seen: {lines}")

    previous = signal.signal(signal.SIGALRM, too_long)
    signal.alarm(WAIT)
    try:
        request = BuildRequest(games=("pack",), layouts="layouts", out="o", parts=True)
        watch(request, report, poll=0.05, rebuilds=1)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert len(lines) == 3 and all(line.startswith("built 1 kit(s)") for line in lines[::2]), lines
    tiles = words(tmp_path / "o" / "pack" / "tiles.pdf")
    assert tiles["R1"] == 2 and tiles["T1"] == 0
