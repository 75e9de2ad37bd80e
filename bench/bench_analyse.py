"""Benchmark: the search bot's strength against the random bot in every game, and the speed of
``pnp analyse`` over many Aggression seeds.

Run: .venv/bin/python bench/bench_analyse.py [strength] [speed] [dask] [--games N] [--seeds N] [--jobs N]

strength: for each game, ``--games`` games (default 20) of the search bot against the random bot,
the search bot taking the first side in even games and the second in odd ones, at the playout
budget of ``BUDGETS`` (chosen so that a move takes under a second here); prints the search bot's
wins, draws, losses, and its mean and slowest CPU time per move (the process's CPU time, so that
other jobs on the machine do not inflate it). Games run on ``--jobs`` workers; ``--game`` (which
may be repeated) measures only the games named.
speed: ``pnp analyse aggression --seeds 1-N --games 20 --bot random --json --no-chart`` in a fresh
process (start-up included), wall and CPU time, for ``--seeds`` seeds (default 1000).
dask (needs the dask extra; not run by default): the same analysis given to a local Dask cluster
of ``--jobs`` worker processes, one thread each (``--scheduler``), timed the same way (the
cluster's start excluded, its workers' CPU included), and whether its JSON is the bytes of the
local ``--jobs`` run.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

#: Playouts a move per game: the budget at which a search move stays under a second of CPU on
#: the shared 2-core machine (long random playouts make Barricades the dearest; at 20 playouts it
#: won only 26 of 30).
BUDGETS = {
    "aggression": 200,
    "barricades": 30,
    "centennial": 100,
    "everest": 300,
    "nine-mens-morris": 200,
    "push": 50,
    "take-the-brain": 100,
    "verbal": 200,
}


class Timed:
    """A bot that counts the CPU time its inner bot spends choosing, and its slowest choice."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.total = self.slowest = 0.0
        self.moves = 0

    def choose(self, state: Any, rng: Any, among: Any = None) -> Any:
        start = time.process_time()
        move = self.inner.choose(state, rng, among)
        spent = time.process_time() - start
        self.total += spent
        self.slowest = max(self.slowest, spent)
        self.moves += 1
        return move


def one_game(game: str, index: int, playouts: int) -> tuple[str, float, float, int]:
    """Play one game, search bot against random bot, each side's bot making that side's choices;
    return the result for the search bot ('win', 'draw' or 'loss'), its total and slowest
    thinking time (CPU), and its number of choices."""
    from generator.bots import RandomBot, SearchBot, play_game
    from generator.foundation.seeding import Rng
    from generator.games import GAMES

    rules = GAMES[game]
    state = rules.new_state(index + 1 if rules.takes_seed() else None)
    first = state.current_player()
    sides = [first] + [s for s in rules.sides if s != first]
    me = sides[index % 2]
    search = Timed(SearchBot(playouts))
    bots = {side: search if side == me else RandomBot() for side in rules.sides}
    winner = play_game(state, bots, Rng(index, f"bench/{game}")).winner
    result = "draw" if winner is None else ("win" if winner == me else "loss")
    return result, search.total, search.slowest, search.moves


def strength(games: int, jobs: int, only: list[str] | None = None) -> None:
    """Print the strength table (for the games in ``only`` if given)."""
    from generator.workers.parallel import run_tasks

    print(
        f"{'game':18} {'playouts':>8} {'wins':>5} {'draws':>5} {'losses':>6} {'win %':>6} {'s/move':>7} {'slowest':>7}"
    )
    for game, playouts in BUDGETS.items():
        if only and game not in only:
            continue
        tasks = [(one_game, (game, i, playouts)) for i in range(games)]
        results = run_tasks(tasks, jobs)
        wins = sum(r[0] == "win" for r in results)
        draws = sum(r[0] == "draw" for r in results)
        moves = sum(r[3] for r in results)
        per_move = sum(r[1] for r in results) / max(moves, 1)
        slowest = max(r[2] for r in results)
        print(
            f"{game:18} {playouts:>8} {wins:>5} {draws:>5} {games - wins - draws:>6} "
            f"{100 * wins / games:>5.0f}% {per_move:>7.3f} {slowest:>7.3f}",
            flush=True,
        )


def speed(seeds: int, jobs: int) -> None:
    """Print the time of one analysis of Aggression seeds, 20 random games each."""
    timed(seeds, ["--jobs", str(jobs)], f"--jobs {jobs}")


def timed(seeds: int, options: list[str], label: str, workers: Sequence[int] = ()) -> bytes:
    """Run the analysis of Aggression seeds with the options in a fresh process, print its wall
    and CPU time (with ``workers``, a Dask run: theirs and this process's too, where the
    scheduler runs) and return its JSON."""
    command = [
        sys.executable,
        "-m",
        "generator",
        "analyse",
        "aggression",
        "--seeds",
        f"1-{seeds}",
        "--games",
        "20",
        "--json",
        "--no-chart",
        "-q",
        *options,
    ]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers_before = sum(process_cpu(pid) for pid in workers) + process_cpu(os.getpid())
    start = time.perf_counter()
    output = subprocess.run(command, check=True, stdout=subprocess.PIPE, cwd=ROOT).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if workers:  # a Dask run: its workers' CPU, and its scheduler's (in this process)
        cpu += sum(process_cpu(pid) for pid in workers) + process_cpu(os.getpid()) - workers_before
    load = os.getloadavg()[0]
    print(
        f"pnp analyse aggression --seeds 1-{seeds} --games 20 {label}: {wall:.1f} s wall, "
        f"{cpu:.1f} s CPU ({seeds * 20} games, {1000 * cpu / (seeds * 20):.2f} ms CPU a game; load average {load:.1f})",
        flush=True,
    )
    return output


def process_cpu(pid: int) -> float:
    """Return the CPU seconds a running process has used so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def dask(seeds: int, jobs: int) -> None:
    """Print the time of the same analysis on a local Dask cluster of ``jobs`` worker processes,
    and whether it gives the bytes of the local run."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=jobs, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0"
    ) as cluster:
        pids = [worker.process.process.pid for worker in cluster.workers.values()]
        address = cluster.scheduler_address
        timed(seeds, ["--scheduler", address], "--scheduler (first run: workers import pnp)", pids)
        remote = timed(seeds, ["--scheduler", address], f"--scheduler ({jobs} Dask workers)", pids)
    local = timed(seeds, ["--jobs", str(jobs)], f"--jobs {jobs}")
    print(f"JSON of the Dask run {'is' if remote == local else 'is NOT'} the bytes of the local run")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", default=["strength", "speed"])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--game", action="append", choices=sorted(BUDGETS))
    args = parser.parse_args()
    if "speed" in args.parts:
        speed(args.seeds, args.jobs)
    if "dask" in args.parts:
        dask(args.seeds, args.jobs)
    if "strength" in args.parts:
        strength(args.games, args.jobs, args.game)


if __name__ == "__main__":
    main()
