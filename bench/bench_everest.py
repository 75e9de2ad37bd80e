"""Benchmark: how much any Everest player can score against the greedy player.

Run: python3 bench/bench_everest.py [--games N] [--throws K] [--fit]   (needs numpy: any Python
with it, e.g. the system's; the project's own environment does not hold it; only the rules and
the bots' race table are imported)

Everest is a race in which no move touches another player's sheet, and the greedy player
(``tactics.GreedyBot``: the most boxes a throw, ties at random) never looks at its opponent's. So
the greedy player's number of throws to finish, T_g, has one distribution whatever its opponent
does, and a player's score against it depends only on its own number of throws T: moving first it
wins when T <= T_g (it finishes on its T-th throw before the greedy player's T-th), moving
second when T < T_g (the turn limit, 200 throws each, never comes into it). The benchmark works on
the 3^12 = 531,441 sheets (0, 1 or 2 boxes of each number crossed):

- the fewest throws on average to finish each sheet, exactly (dynamic programming over every
  sheet and throw), and with ``--fit`` its least-squares fit that ``tactics.RACE_THROWS`` holds;
- the distribution of T, from ``--games`` games of a sheet alone (default 20,000), for the greedy
  player, the second round's policy (crossing the rarest numbers, (1/p)^3 weights), the computer's
  (``tactics.race_saving``: the split saving the most throws) and the exact fewest-throws policy;
  from it each one's score against the greedy player, first and second;
- an upper bound on what any player whatsoever scores against the greedy player: with U_k the
  most probability any policy has of finishing within k throws (one policy per k, computed exactly
  throw by throw up to ``--throws`` K, default 90), a score is
  sum_k P(T <= k) (G(k) - G(k+1)) <= sum_k U_k (G(k) - G(k+1)), where G(k), the chance that the
  greedy player has not won before the player's k-th throw, decreases.

Prints one row a player: mean throws, the chance to finish within 15, 20 and 25 throws, and the
score against the greedy player moving first, second and on average (sides swapped).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from itertools import combinations, product
from math import factorial
from types import SimpleNamespace

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

try:
    import numpy as np
except ImportError:  # pragma: no cover - a message, not a test
    sys.exit(
        "bench_everest.py needs numpy: run it with a Python that has it (e.g. python3 -m pip install numpy)"
    )

from generator.bots.tactics import race_saving  # noqa: E402
from generator.games.everest import _OPTIONS, COLUMNS, HIGHEST  # noqa: E402

STATES = (COLUMNS + 1) ** HIGHEST
FULL = STATES - 1  # every box crossed


def throw_chance(dice: tuple[int, ...]) -> float:
    """Return the chance of a sorted throw."""
    ways = factorial(len(dice))
    for count in Counter(dice).values():
        ways //= factorial(count)
    return ways / 6 ** len(dice)


def tables() -> tuple[np.ndarray, list[tuple[float, list[tuple[int, int]]]], list[tuple[int, ...]]]:
    """Return each sheet's crossed counts per number, and per throw its chance with its splits
    as (index of the numbers it crosses, number of groups), and those numbers' counts by index."""
    index = np.arange(STATES)
    digits = np.stack([(index // (COLUMNS + 1) ** n) % (COLUMNS + 1) for n in range(HIGHEST)], axis=1)
    crosses: dict[tuple[int, ...], int] = {}
    throws = []
    for dice, options in _OPTIONS.items():
        splits = []
        for grouping, _, _ in options:
            counts = Counter(sum(group) for group in grouping)
            key = tuple(counts.get(n, 0) for n in range(1, HIGHEST + 1))
            splits.append((crosses.setdefault(key, len(crosses)), len(grouping)))
        throws.append((throw_chance(dice), splits))
    return digits, throws, list(crosses)


def successors(digits: np.ndarray, crosses: list[tuple[int, ...]]) -> list[np.ndarray]:
    """Return, per crossing, each sheet's sheet after it (STATES where it does not fit)."""
    found = []
    index = np.arange(STATES)
    for key in crosses:
        d = np.array(key)
        fits = np.all(digits + d <= COLUMNS, axis=1)
        step = int(sum(c * (COLUMNS + 1) ** n for n, c in enumerate(key)))
        found.append(np.where(fits, index + step, STATES))
    return found


def fewest_throws(throws: list, succ: list[np.ndarray], level: np.ndarray) -> np.ndarray:
    """Return each sheet's fewest expected throws to finish (and STATES: infinity)."""
    expected = np.full(STATES + 1, np.inf)
    expected[FULL] = 0.0
    for boxes in range(HIGHEST * COLUMNS - 1, -1, -1):
        at = np.nonzero(level == boxes)[0]
        best = []
        for _, splits in throws:
            m = np.full(len(at), np.inf)
            for crossing, groups in splits:
                if groups:
                    m = np.minimum(m, expected[succ[crossing][at]])
            best.append(m)
        chances = np.array([p for p, _ in throws])
        stacked = np.stack(best)  # throws x sheets
        e = np.full(len(at), 1e9)
        for _ in range(60):  # E = 1 + sum p min(E, m): iterate down to the fixed point
            better = stacked < e[None, :]
            num = 1 + (chances[:, None] * np.where(better, stacked, 0.0)).sum(axis=0)
            den = (chances[:, None] * better).sum(axis=0)
            e = np.where(den > 0, num / np.maximum(den, 1e-300), np.inf)
        expected[at] = e
    return expected


def best_within(throws: list, succ: list[np.ndarray], horizon: int) -> np.ndarray:
    """Return U_k for k = 0..horizon: the most probability any policy has of finishing the empty
    sheet within k throws (each k its own best policy: U_k = max over splits, throw by throw)."""
    within = np.zeros(STATES + 1)
    within[FULL] = 1.0
    found = [0.0]
    for _ in range(horizon):
        after = [within[s] for s in succ]  # each crossing's sheet after it, once a layer
        nxt = np.zeros(STATES + 1)
        for p, splits in throws:
            m = within[:STATES].copy()  # crossing nothing
            for crossing, _ in splits:
                np.maximum(m, after[crossing], out=m)
            nxt[:STATES] += p * m
        nxt[FULL] = 1.0
        within = nxt
        found.append(float(within[0]))
    return np.array(found)


def simulate(choose, games: int, seed: int, throws: list, crosses: list[tuple[int, ...]]) -> np.ndarray:
    """Return how many games of ``games`` a policy finishes in k throws, k = 0.. (one sheet alone,
    fair dice from ``seed``): ``choose(sheet, options)`` returns the crossing index to take among
    the throw's options that fit (listed once per split)."""
    rng = np.random.default_rng(seed)
    dice_index = {dice: i for i, dice in enumerate(_OPTIONS)}
    steps = [int(sum(c * (COLUMNS + 1) ** n for n, c in enumerate(key))) for key in crosses]
    counts: Counter[int] = Counter()
    rolls = np.sort(rng.integers(1, 7, size=(games, 200, 3)), axis=2)
    for g in range(games):
        sheet = [0] * HIGHEST
        index = 0
        for k in range(200):
            splits = throws[dice_index[tuple(int(v) for v in rolls[g, k])]][1]
            fit = [c for c, _ in splits if all(sheet[n] + crosses[c][n] <= COLUMNS for n in range(HIGHEST))]
            c = choose(index, fit)
            for n in range(HIGHEST):
                sheet[n] += crosses[c][n]
            index += steps[c]
            if index == FULL:
                counts[k + 1] += 1
                break
    top = max(counts)
    return np.array([counts.get(k, 0) for k in range(top + 1)], dtype=float)


def rarity() -> dict[int, float]:
    """Return the second round's weight of each number, (1/p)^3 with p the chance that a throw of
    three dice holds a group totalling it."""
    throws = list(product(range(1, 7), repeat=3))
    weight = {}
    for number in range(1, HIGHEST + 1):
        p = sum(any(sum(g) == number for k in (1, 2, 3) for g in combinations(t, k)) for t in throws) / len(
            throws
        )
        weight[number] = (1 / p) ** 3
    return weight


def print_fit(digits: np.ndarray, expected: np.ndarray) -> None:
    """Print the least-squares fit of each sheet's fewest expected throws as a constant plus, per
    number, a term for one box left and one for both left (``tactics.RACE_THROWS``)."""
    left = COLUMNS - digits
    columns = [(left[:, n] == k).astype(float) for n in range(HIGHEST) for k in range(1, COLUMNS + 1)]
    x = np.stack([*columns, np.ones(STATES)], axis=1)[:-1]  # the full sheet needs no throw
    y = expected[: STATES - 1]
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    print(f"RACE_THROWS fit (root mean square error {np.sqrt(np.mean((x @ coef - y) ** 2)):.3f} throws):")
    for n in range(HIGHEST):
        print(f"    {n + 1}: ({coef[2 * n]:.3f}, {coef[2 * n + 1]:.3f}),")
    print(f"    constant {coef[-1]:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throws", type=int, default=90)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--fit", action="store_true", help="print the table tactics.RACE_THROWS holds")
    args = parser.parse_args()
    start = time.process_time()
    digits, throws, crosses = tables()
    succ = successors(digits, crosses)
    level = digits.sum(axis=1)
    expected = fewest_throws(throws, succ, level)
    if args.fit:
        print_fit(digits, expected)
    boxes = [sum(key) for key in crosses]
    rare = rarity()
    weight = [sum(rare[n + 1] * c for n, c in enumerate(key)) for key in crosses]
    as_move = [
        SimpleNamespace(groups=tuple((n + 1,) for n, c in enumerate(key) for _ in range(c)))
        for key in crosses
    ]
    steps = [int(sum(c * (COLUMNS + 1) ** n for n, c in enumerate(key))) for key in crosses]
    pick = np.random.default_rng(7)

    def best_of(values: list[float], fit: list[int], high: bool) -> int:
        top = max(values) if high else min(values)
        tied = [c for c, v in zip(fit, values) if abs(v - top) < 1e-9]
        return tied[int(pick.integers(len(tied)))]

    policies = {
        # the greedy player: the most boxes a throw, ties at random among its splits
        "greedy (most boxes a throw)": lambda i, fit: best_of([boxes[c] for c in fit], fit, True),
        "rarest first ((1/p)^3, round two)": lambda i, fit: best_of([weight[c] for c in fit], fit, True),
        "throws saved (the computer, RACE_THROWS)": lambda i, fit: best_of(
            [race_saving([0, *digits[i].tolist()], as_move[c]) for c in fit], fit, True
        ),
        "fewest throws on average": lambda i, fit: best_of([expected[i + steps[c]] for c in fit], fit, False),
    }
    cdfs = {}
    for seed, (name, choose) in enumerate(policies.items()):
        hist = simulate(choose, args.games, seed, throws, crosses)
        cdf = np.cumsum(hist) / hist.sum()
        cdfs[name] = np.concatenate([cdf, np.ones(max(0, args.throws + 1 - len(cdf)))])[: args.throws + 1]
    greedy = cdfs["greedy (most boxes a throw)"]
    g_first = np.concatenate([[1.0], 1 - greedy[:-1]])  # P(T_g >= k): the greedy player not done before
    g_second = 1 - greedy  # P(T_g > k)
    cdfs["any player (upper bound, U_k)"] = best_within(throws, succ, args.throws)

    print(f"expected throws of the best policy from the empty sheet: {expected[0]:.2f}")
    print(
        f"{'player':40} {'mean':>6} {'<=15':>6} {'<=20':>6} {'<=25':>6} {'first':>6} {'second':>7} {'both':>6}"
    )
    for name, cdf in cdfs.items():
        # a score is sum_k P(T <= k) (G(k) - G(k + 1)): exact for a policy, a bound with U_k
        first = float(sum(cdf[k] * (g_first[k] - g_first[k + 1]) for k in range(1, args.throws)))
        second = float(sum(cdf[k] * (g_second[k] - g_second[k + 1]) for k in range(1, args.throws)))
        mean = float((1 - cdf[:-1]).sum()) if "bound" not in name else float("nan")
        print(
            f"{name:40} {mean:6.2f} {cdf[15]:6.3f} {cdf[20]:6.3f} {cdf[25]:6.3f}"
            f" {first:6.3f} {second:7.3f} {(first + second) / 2:6.3f}"
        )
    print(f"{time.process_time() - start:.0f} s of CPU", file=sys.stderr)


if __name__ == "__main__":
    main()
