"""Benchmark: the builds users run, measured as a user runs them (fresh process, start-up included).

Run: .venv/bin/python bench/bench_batch.py [case ...] [--runs N] [--jobs N]

Cases (default: all):
  all          pnp build --all (PDF and SVG): wall and CPU time, output size, contact sheet weight
  kit          pnp build barricades --seed 7: size of one seeded kit
  barricades   pnp build barricades --seeds 1-10 and --seeds 1-100: time, ratio, output size, memory
  aggression   pnp build aggression --seeds 1-10 and --seeds 1-100 (PDF and SVG), the same figures
  help         pnp --help

For each run it prints the wall time, the CPU time of the process and its children (user + system;
with --jobs the worker processes are children too), the peak resident memory of the largest
process, the bytes written under the output folder and the bytes ``index.html`` makes a browser
load (the page itself and every image it references). Times are medians over the runs.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PNP = [sys.executable, "-m", "generator"]


def folder_bytes(folder: str) -> int:
    """Return the total size in bytes of the files under a folder."""
    total = 0
    for base, _, names in os.walk(folder):
        total += sum(os.path.getsize(os.path.join(base, n)) for n in names)
    return total


def index_bytes(folder: str) -> int:
    """Return the bytes a browser loads for OUT/index.html: the page and every image it shows."""
    path = os.path.join(folder, "index.html")
    if not os.path.isfile(path):
        return 0
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    total = len(text.encode("utf-8"))
    for src in sorted(set(re.findall(r'<img[^>]*\ssrc="([^"]+)"', text))):
        if not src.startswith("data:"):
            total += os.path.getsize(os.path.join(folder, src.replace("&amp;", "&")))
    return total


def run(args: list[str], runs: int) -> dict[str, float]:
    """Run a pnp command several times in fresh processes; return median times and last sizes."""
    walls, cpus, rss = [], [], []
    size = index = 0
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as out:
            full = [a.replace("{out}", out) for a in args]
            code = (
                "import resource, subprocess, sys, time\n"
                "t = time.perf_counter()\n"
                "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
                "w = time.perf_counter() - t\n"
                "r = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
                "print(w, r.ru_utime + r.ru_stime, r.ru_maxrss)\n"
            )
            result = subprocess.run(
                [sys.executable, "-c", code, *PNP, *full],
                check=True,
                cwd=ROOT,
                capture_output=True,
                text=True,
            )
            wall, cpu, maxrss = result.stdout.split()
            walls.append(float(wall))
            cpus.append(float(cpu))
            rss.append(int(maxrss) / 1024)
            size = folder_bytes(out)
            index = index_bytes(out)
    return {
        "wall": statistics.median(walls),
        "cpu": statistics.median(cpus),
        "rss": max(rss),
        "size": size,
        "index": index,
    }


def show(label: str, figures: dict[str, float]) -> None:
    """Print one line of figures."""
    print(
        f"{label:48} wall {figures['wall']:6.2f} s  cpu {figures['cpu']:6.2f} s"
        f"  wall/cpu {figures['wall'] / max(figures['cpu'], 1e-9):4.2f}"
        f"  maxrss {figures['rss']:6.1f} MB  output {figures['size'] / 1e6:7.2f} MB"
        f"  index.html loads {figures['index'] / 1e6:6.2f} MB",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cases", nargs="*", default=["help", "all", "kit", "barricades", "aggression"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None, help="pass --jobs N to pnp build")
    options = parser.parse_args()
    jobs = [] if options.jobs is None else ["--jobs", str(options.jobs)]
    common = ["--quiet", "--out", "{out}", *jobs]
    for case in options.cases:
        if case == "help":
            show("pnp --help", run(["--help"], options.runs))
        elif case == "all":
            show("pnp build --all", run(["build", "--all", *common], options.runs))
        elif case == "kit":
            show("pnp build barricades --seed 7", run(["build", "barricades", "--seed", "7", *common], 1))
        elif case in ("barricades", "aggression"):
            small = run(["build", case, "--seeds", "1-10", *common], options.runs)
            show(f"pnp build {case} --seeds 1-10", small)
            large = run(["build", case, "--seeds", "1-100", *common], 1)
            show(f"pnp build {case} --seeds 1-100", large)
            print(f"{'':48} 100 seeds / 10 seeds: {large['wall'] / small['wall']:.2f}x wall time")
        else:
            parser.error(f"unknown case {case!r}")


if __name__ == "__main__":
    main()
