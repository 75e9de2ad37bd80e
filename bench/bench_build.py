"""Benchmark: `pnp build --all` (every kit, PDF and SVG) and one board build, as a user runs them.

Run: .venv/bin/python bench/bench_build.py [runs]
Prints the median wall time of several runs of each command (fresh processes, start-up included),
and of `pnp --help`.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PNP = [sys.executable, "-m", "generator"]


def timed(args: list[str], runs: int) -> float:
    """Return the median wall time in seconds of running a pnp command several times."""
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as out:
            full = [a.replace("{out}", out) for a in args]
            start = time.perf_counter()
            subprocess.run(PNP + full, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    cases = [
        ("pnp --help", ["--help"]),
        ("pnp build --all (PDF and SVG)", ["build", "--all", "--quiet", "--out", "{out}"]),
        (
            "pnp build nine-mens-morris --format pdf",
            ["build", "nine-mens-morris", "--format", "pdf", "--quiet", "--out", "{out}"],
        ),
    ]
    for label, args in cases:
        print(f"{label:45} median of {runs}: {timed(args, runs):.3f} s")


if __name__ == "__main__":
    main()
