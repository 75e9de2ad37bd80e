"""Benchmark: print-shop output (issue 15). Wall time and size of `pnp build --all` as it is, with
--bleed 3mm, with --cmyk too, and with --png 300 too; and kit.pdf's sheets of card and paper with
and without the bleed's gutters.

Run: .venv/bin/python bench/bench_print_shop.py [runs]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PNP = [sys.executable, "-m", "generator"]
CASES = [
    ("pnp build --all", []),
    ("  --bleed 3mm", ["--bleed", "3mm"]),
    ("  --bleed 3mm --cmyk", ["--bleed", "3mm", "--cmyk"]),
    ("  --bleed 3mm --cmyk --png 300", ["--bleed", "3mm", "--cmyk", "--png", "300"]),
]


def size(folder: str) -> int:
    """Return the bytes of every file under folder."""
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(folder) for f in files)


def sheets(folder: str) -> dict[str, int]:
    """Return kit.pdf's sheet count of every kit in an output folder."""
    counts = {}
    for kit in sorted(os.listdir(folder)):
        path = os.path.join(folder, kit, "manifest.json")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:
                counts[kit] = len(json.load(handle)["kit"]["sheets"])
    return counts


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    counts = {}
    print(f"{'command':36} {'median s':>9} {'MB':>6}")
    for name, extra in CASES:
        times, megabytes = [], 0.0
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as out:
                start = time.perf_counter()
                args = ["build", "--all", "--quiet", "--out", out, *extra]
                subprocess.run(PNP + args, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
                times.append(time.perf_counter() - start)
                megabytes = size(out) / 1e6
                counts[name] = sheets(out)
        print(f"{name:36} {statistics.median(times):9.2f} {megabytes:6.1f}")
    print("\nkit.pdf sheets without and with --bleed 3mm:")
    plain, bled = counts[CASES[0][0]], counts[CASES[1][0]]
    for kit in plain:
        print(f"  {kit:20} {plain[kit]:3} {bled[kit]:3}")


if __name__ == "__main__":
    main()
