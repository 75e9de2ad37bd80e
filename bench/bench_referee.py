"""Referee benchmark: Nine Men's Morris random-playout throughput and `pnp referee` wall time.

Run: ``.venv/bin/python bench/bench_referee.py [--seconds S] [--runs N] [--against TREE]``. Prints:
- moves applied per second in random playouts, through ``random_move`` (uniform over the legal
  moves without listing them) and through ``legal_moves`` + a random pick; target >= 100,000/s;
- the median wall time of ``pnp referee RECORD`` as a subprocess, start-up included, for a 97-move
  record; target < 0.5 s (and ``pnp --help`` for comparison).

``--against TREE`` compares with another checkout (e.g. ``git worktree add /tmp/old main``): both
trees' rules are loaded into this one process and the same playouts (the first 150 games of each
case) alternate between them for ``--rounds`` rounds, and the best round of each is printed. On a
machine shared with other jobs this shows a difference of a few per cent that separate runs, each
disturbed differently, cannot.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.foundation.seeding import rng_for  # noqa: E402
from generator.games import find_rules  # noqa: E402
from generator.games.base import GameRules  # noqa: E402

RECORD = ROOT / "tests" / "referee" / "records" / "nmm_white_wins.txt"


def playout(rules: GameRules, game: int, fast: bool, variants: frozenset[str]) -> int:
    """Play one random game (seeded by its number) to its end; return the moves applied: drawn
    with ``random_move`` when ``fast``, else picked from ``legal_moves``."""
    rng = rng_for(game, "bench/nmm")
    state = rules.new_state(variants=variants)
    moves = 0
    if fast:
        while not state.is_terminal():
            state.apply_move(state.random_move(rng))
            moves += 1
    else:
        while not state.is_terminal():
            legal = state.legal_moves()
            state.apply_move(legal[rng.below(len(legal))])
            moves += 1
    return moves


def playout_rate(
    seconds: float, fast: bool, variants: frozenset[str] = frozenset()
) -> tuple[float, int, int]:
    """Return (moves applied per second, games, moves) for random playouts run for about ``seconds``."""
    rules = find_rules("nine-mens-morris")
    moves = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        moves += playout(rules, games, fast, variants)
        games += 1
    elapsed = time.perf_counter() - start
    return moves / elapsed, games, moves


def _rules_of(tree: Path) -> GameRules:
    """Return Nine Men's Morris's rules imported from another checkout (its own generator package)."""
    saved = {k: v for k, v in sys.modules.items() if k == "generator" or k.startswith("generator.")}
    for name in saved:
        del sys.modules[name]
    sys.path.insert(0, str(tree))
    try:
        module = importlib.import_module("generator.games.nine_mens_morris")
        if not str(Path(module.__file__ or "").resolve()).startswith(str(tree.resolve())):
            raise SystemExit(f"{tree} has no generator package of its own")
        return module.RULES
    finally:
        sys.path.remove(str(tree))
        for name in [k for k in sys.modules if k == "generator" or k.startswith("generator.")]:
            del sys.modules[name]
        sys.modules.update(saved)


def games_rate(rules: GameRules, games: int, fast: bool, variants: frozenset[str]) -> float:
    """Return moves applied per CPU second over a fixed set of playouts (the first ``games`` seeds)."""
    moves = 0
    start = time.process_time()
    for game in range(games):
        moves += playout(rules, game, fast, variants)
    return moves / (time.process_time() - start)


def compare(tree: Path, rounds: int) -> None:
    """Print the best-of-rounds playout rates of this tree and another, run alternately in-process."""
    trees = {"this tree": find_rules("nine-mens-morris"), str(tree): _rules_of(tree)}
    for label, fast, variants in CASES:
        best = dict.fromkeys(trees, 0.0)
        for _ in range(rounds):
            for name, rules in trees.items():
                best[name] = max(best[name], games_rate(rules, 150, fast, variants))
        shown = ", ".join(f"{name} {rate:,.0f}" for name, rate in best.items())
        print(f"nmm playouts ({label}), moves per CPU second, best of {rounds}: {shown}")


CASES = (
    ("random_move", True, frozenset()),
    ("random_move, flying", True, frozenset({"flying"})),
    ("legal_moves + pick", False, frozenset()),
)


def command_time(args: list[str], runs: int) -> float:
    """Return the median wall time in seconds of running ``pnp`` with the arguments."""
    script = Path(sys.executable).parent / "pnp"
    base = [str(script)] if script.exists() else [sys.executable, "-m", "generator"]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(base + args, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
        if done.returncode not in (0, 4):
            raise SystemExit(f"pnp {' '.join(args)} failed: {done.stderr.decode().strip()}")
    return statistics.median(times)


def main() -> None:
    """Run the benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per playout measurement")
    parser.add_argument("--runs", type=int, default=7, help="subprocess runs per timing (median)")
    parser.add_argument("--against", type=Path, help="another checkout to compare playouts with")
    parser.add_argument("--rounds", type=int, default=10, help="alternating rounds with --against")
    options = parser.parse_args()
    if options.against:
        compare(options.against, options.rounds)
        return
    for label, fast, variants in CASES:
        rate, games, moves = playout_rate(options.seconds, fast, variants)
        print(
            f"nmm random playouts ({label}): {rate:,.0f} moves/s ({games} games, {moves} moves, "
            f"{moves / games:.1f} moves/game)"
        )
    replay_time = command_time(["referee", str(RECORD)], options.runs)
    help_time = command_time(["--help"], options.runs)
    print(
        f"pnp referee {RECORD.relative_to(ROOT)} (97 moves): median {replay_time:.3f} s over {options.runs} runs"
    )
    print(f"pnp --help: median {help_time:.3f} s over {options.runs} runs")


if __name__ == "__main__":
    main()
