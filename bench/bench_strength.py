"""Benchmark: the search bot's strength against outside references.

Run: .venv/bin/python bench/bench_strength.py [reference] [levels] [forced] [openspiel] [--games N] [--jobs N]
[--game G] [--boards 1-30] [--against greedy|random] [--playouts N]

reference: in every game, the search bot at its default strength (``DEFAULT_PLAYOUTS`` playouts a
    move, ``--strength 4``) against the greedy one-ply player (``tactics.GreedyBot``: the move of
    most material at once) and against the random player, ``--games`` games each (sides swapped
    every game, seeded boards 1, 2, ...); ``--against`` plays only that reference,
    ``--playouts`` gives the search bot that many playouts a move instead.
levels: ``--strength 8`` (3200 playouts) against ``--strength 1`` (25 playouts), ``--games`` games
    in each game given by ``--game`` (default: Nine Men's Morris, Take The Brain, Aggression, Verbal).
forced: Barricades, for each battlefield of ``--boards`` (default 1-30), the first side's opening
    moves that win by force at its second move, found by trying every move: every first move,
    every reply to it and every second move (a first move that takes no MacGuffin is refuted by
    the first reply tried after which no second move wins; a second move wins when the game ends
    won by it, whatever the way). Printed per battlefield, then the battlefields where the first
    move decides nothing, which ``reference --game barricades --boards`` can then be run on.
openspiel: Nine Men's Morris against OpenSpiel's MCTS bot (``open_spiel.python.algorithms.mcts``,
    UCT constant 2, one random rollout per simulation) at the same number of simulations as the
    search bot's playouts. OpenSpiel is installed by this benchmark into its own environment,
    bench/.venv-openspiel (``pip install open-spiel``), never into the project's; the games run
    there, the project imported from the source tree. Both boards play every move, each checking
    it is legal, so a difference of rules would stop the benchmark.

Every figure is the search bot's score (win 1, draw 1/2) with its 95 % Wilson interval, and its
CPU time a move (mean and slowest).
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from bench_analyse import Timed  # noqa: E402  (the bench folder is on the path when run as a script)

OPENSPIEL_VENV = os.path.join(ROOT, "bench", ".venv-openspiel")
Z95 = 1.959963984540054
LEVEL_GAMES = ["nine-mens-morris", "take-the-brain", "aggression", "verbal"]
#: OpenSpiel's point numbers, 0 to 23, row by row from the top left, as our point names.
OPENSPIEL_POINTS = "a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1".split()


def wilson(score: float, n: int) -> tuple[float, float]:
    """Return the 95 % Wilson interval of a score out of n games."""
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    d = 1 + Z95 * Z95 / n
    c = (p + Z95 * Z95 / (2 * n)) / d
    h = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def make(name: str, playouts: int) -> Any:
    from generator.bots import RandomBot, SearchBot
    from generator.bots.tactics import GreedyBot

    if name == "greedy":
        return GreedyBot()
    if name == "random":
        return RandomBot()
    return SearchBot(playouts)


def one_game(
    game: str, index: int, mine: int, theirs: str, their_playouts: int, boards: list[int] | None = None
) -> tuple[float, float, float, int]:
    """Play one game, the search bot (``mine`` playouts) against ``theirs``; return the search
    bot's score, total and slowest CPU time and its number of choices. Games 2k and 2k + 1 are
    played on seeded board ``boards[k]`` (default k + 1), sides swapped."""
    from generator.bots import play_game
    from generator.foundation.seeding import Rng
    from generator.games import GAMES

    rules = GAMES[game]
    board = boards[index // 2] if boards else index // 2 + 1
    state = rules.new_state(board if rules.takes_seed() else None)
    first = state.current_player()
    sides = [first] + [s for s in rules.sides if s != first]
    me = sides[index % 2]
    search = Timed(make("search", mine))
    other = make(theirs, their_playouts)
    bots = {side: search if side == me else other for side in rules.sides}
    winner = play_game(state, bots, Rng(index, f"bench-strength/{game}/{theirs}")).winner
    score = 0.5 if winner is None else float(winner == me)
    return score, search.total, search.slowest, search.moves


def row(label: str, results: list[tuple[float, float, float, int]]) -> str:
    n = len(results)
    score = sum(r[0] for r in results)
    low, high = wilson(score, n)
    moves = sum(r[3] for r in results)
    per_move = sum(r[1] for r in results) / max(moves, 1)
    slowest = max(r[2] for r in results)
    return (
        f"{label:44} {score:>5.1f}/{n:<3} {100 * score / n:>5.0f}%  {100 * low:>3.0f}-{100 * high:<3.0f}%"
        f" {per_move:>7.3f} {slowest:>7.3f}"
    )


HEADER = f"{'match':44} {'score':>9} {'%':>6}  {'95 % CI':8} {'s/move':>7} {'slowest':>7}"


def reference(
    games: int,
    jobs: int,
    only: list[str] | None,
    boards: list[int] | None = None,
    against: list[str] | None = None,
    playouts: int | None = None,
) -> None:
    """Print the default strength's score against the greedy and the random player (or only those
    of ``against``; seeded games on ``boards``, two games a board, when given; the search bot at
    ``playouts`` a move instead, when given)."""
    from generator.bots import DEFAULT_PLAYOUTS
    from generator.games import GAMES
    from generator.workers.parallel import run_tasks

    print(HEADER)
    for game in sorted(GAMES):
        if only and game not in only:
            continue
        for theirs in against or ("greedy", "random"):
            mine = playouts or DEFAULT_PLAYOUTS
            tasks = [(one_game, (game, i, mine, theirs, 0, boards)) for i in range(games)]
            print(row(f"{game}: search {mine} vs {theirs}", run_tasks(tasks, jobs)), flush=True)


def levels(games: int, jobs: int, only: list[str] | None) -> None:
    """Print --strength 8 against --strength 1."""
    from generator.workers.parallel import run_tasks

    print(HEADER)
    for game in only or LEVEL_GAMES:
        tasks = [(one_game, (game, i, 3200, "search", 25)) for i in range(games)]
        print(row(f"{game}: strength 8 (3200) vs strength 1 (25)", run_tasks(tasks, jobs)), flush=True)


# -- Barricades: first moves that decide the game ------------------------------------------------


def _wins_now(state: Any, side: str) -> bool:
    """Return True when ``side``, to move, has a move that ends the game won (moves onto a
    MacGuffin tried first)."""
    moves = state.legal_moves()
    macguffins = state.macguffins
    moves.sort(key=lambda m: not (not m.resign and m.dst != m.src and m.dst in macguffins))
    for move in moves:
        after = state.copy()
        after.apply_move(move)
        if after.is_terminal() and after.outcome().winner == side:
            return True
    return False


def forced_openings(board: int) -> list[str]:
    """Return the first side's opening moves on Barricades battlefield ``board`` after which every
    reply of the other side leaves it a move that wins at once (a win by force at its second
    move), in notation; found by trying every move, reply and answer."""
    from generator.games import GAMES

    state = GAMES["barricades"].new_state(board)
    first = state.current_player()
    forced = []
    for move in state.legal_moves():
        after = state.copy()
        after.apply_move(move)
        if after.is_terminal():
            if after.outcome().winner == first:
                forced.append(state.move_str(move))
            continue
        refuted = False
        replies = after.legal_moves()
        replies.sort(key=lambda m: m.resign)  # a resignation refutes nothing: tried last
        for reply in replies:
            last = after.copy()
            last.apply_move(reply)
            if last.is_terminal():
                refuted = last.outcome().winner != first
            else:
                refuted = not _wins_now(last, first)
            if refuted:
                break
        if not refuted:
            forced.append(state.move_str(move))
    return forced


def forced(boards: list[int], jobs: int) -> list[int]:
    """Print, for each Barricades battlefield, the first side's openings that win by force at its
    second move; return the battlefields with none."""
    from generator.workers.parallel import run_tasks

    found = run_tasks([(forced_openings, (b,)) for b in boards], jobs)
    for board, openings in zip(boards, found):
        print(
            f"barricades battlefield {board}: {len(openings)} forced openings {' '.join(openings)}",
            flush=True,
        )
    free = [b for b, openings in zip(boards, found) if not openings]
    print(f"battlefields where the first move decides nothing: {','.join(map(str, free))}", flush=True)
    return free


def parse_boards(text: str) -> list[int]:
    """Return the boards of ``1-30`` or ``1,4,7-9``."""
    boards: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        boards.extend(range(int(low), int(high or low) + 1))
    return boards


# -- OpenSpiel ----------------------------------------------------------------------------------


def ensure_openspiel() -> str:
    """Return the python of bench/.venv-openspiel, making it and installing open-spiel first if
    needed; exit with the reason when that fails."""
    python = os.path.join(OPENSPIEL_VENV, "bin", "python")
    check = [python, "-c", "import pyspiel"]
    if os.path.exists(python) and subprocess.run(check, capture_output=True).returncode == 0:
        return python
    print(f"installing open-spiel into {OPENSPIEL_VENV} ...", file=sys.stderr)
    steps = [
        [sys.executable, "-m", "venv", OPENSPIEL_VENV],
        [python, "-m", "pip", "install", "-q", "open-spiel"],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode:
            sys.exit(f"cannot install OpenSpiel ({' '.join(step)}):\n{done.stderr.strip()[-2000:]}")
    return python


def _openspiel_actions(state: Any, move: Any, os_state: Any) -> list[int]:
    """Return our Nine Men's Morris move as OpenSpiel actions (a placement or a move, then a
    removal if the move closes a mill)."""
    text = state.move_str(move)
    body, _, removal = text.partition("x")
    index = {name: i for i, name in enumerate(OPENSPIEL_POINTS)}
    if "-" in body:
        src, dst = body.split("-")
        actions = [24 + index[src] * 24 + index[dst]]
    else:
        actions = [index[body]]
    if removal:
        actions.append(index[removal])
    return actions


def openspiel_game(index: int, simulations: int) -> tuple[float, float, float, int]:
    """Play one Nine Men's Morris game, the search bot against OpenSpiel's MCTS bot, both at
    ``simulations``; return the search bot's score, CPU total and slowest, and its moves."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from generator.bots import SearchBot
    from generator.foundation.seeding import Rng
    from generator.games import GAMES

    game = pyspiel.load_game("nine_mens_morris")
    theirs = mcts.MCTSBot(
        game,
        uct_c=2,
        max_simulations=simulations,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(index)),
        random_state=np.random.RandomState(1000 + index),
        solve=True,
    )
    state = GAMES["nine-mens-morris"].new_state(None, frozenset({"flying"}))  # OpenSpiel's men fly at three
    os_state = game.new_initial_state()
    me = ("white", "black")[index % 2]
    search = Timed(SearchBot(simulations))
    rng = Rng(index, "bench-strength/openspiel")
    while not state.is_terminal():
        if state.current_player() == me:
            move = search.choose(state, rng)
            for action in _openspiel_actions(state, move, os_state):
                os_state.apply_action(action)
        else:
            actions = [theirs.step(os_state)]
            os_state.apply_action(actions[0])
            while not os_state.is_terminal() and os_state.current_player() == ("white", "black").index(
                state.current_player()
            ):
                action = theirs.step(os_state)  # the removal after a mill
                actions.append(action)
                os_state.apply_action(action)
            found = [m for m in state.legal_moves() if _openspiel_actions(state, m, os_state) == actions]
            if not found:
                raise RuntimeError(
                    f"OpenSpiel played {actions}, not a legal move here:\n{state.text()}\n{os_state}"
                )
            move = found[0]
        state.apply_move(move)
        if os_state.is_terminal() and not state.is_terminal():
            break  # OpenSpiel's own end (its turn limit) before ours: scored as our referee stands
    winner = state.outcome().winner if state.is_terminal() else None
    score = 0.5 if winner is None else float(winner == me)
    return score, search.total, search.slowest, search.moves


def openspiel(games: int, jobs: int, simulations: int) -> None:
    """Print Nine Men's Morris against OpenSpiel's MCTS bot (run in OpenSpiel's environment)."""
    if "pyspiel" not in sys.modules:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            python = ensure_openspiel()
            argv = [
                python,
                os.path.abspath(__file__),
                "openspiel",
                "--games",
                str(games),
                "--jobs",
                str(jobs),
            ]
            sys.exit(subprocess.run([*argv, "--simulations", str(simulations)]).returncode)
    from generator.workers.parallel import run_tasks

    print(HEADER)
    tasks = [(openspiel_game, (i, simulations)) for i in range(games)]
    label = f"nine-mens-morris: search {simulations} vs OpenSpiel MCTS {simulations}"
    print(row(label, run_tasks(tasks, jobs)), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", default=["reference", "levels", "openspiel"])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--game", action="append")
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--boards", type=parse_boards, help="seeded boards, e.g. 1-30 or 1,3,8-9")
    parser.add_argument(
        "--against", action="append", choices=["greedy", "random"], help="reference: only this player"
    )
    parser.add_argument(
        "--playouts",
        type=int,
        help="reference: the search bot's playouts a move (default: its default strength)",
    )
    args = parser.parse_args()
    start = time.time()
    if "forced" in args.parts:
        forced(args.boards or list(range(1, 31)), args.jobs)
    if "reference" in args.parts:
        reference(args.games, args.jobs, args.game, args.boards, args.against, args.playouts)
    if "levels" in args.parts:
        levels(args.games, args.jobs, args.game)
    if "openspiel" in args.parts:
        openspiel(args.games, args.jobs, args.simulations)
    print(f"{time.time() - start:.0f} s wall", file=sys.stderr)


if __name__ == "__main__":
    main()
