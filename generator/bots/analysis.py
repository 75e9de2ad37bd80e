"""Balance analysis over seeds: bot-against-bot games on each board, the first player's score with
a 95 % Wilson interval, the draw rate and the mean length, and a chart of the score by seed.

A seed is shown unfair only when the evidence holds for the whole batch. Each seed gets a p-value
for "the first player's true score lies inside the band" (an exact binomial test against the
nearer edge of the band, both sides counted: twice the smaller one-sided p-value, draws counting
half a point rounded towards the band), and the p-values of the batch are corrected for their
number by Benjamini and Hochberg's procedure: a seed is unfair when its adjusted p-value (q-value)
is at most the false-discovery rate ``FDR`` (5 %). Among the seeds flagged, at most 5 % are
expected to be flagged by chance; when every seed is fair, the chance of any flag at all is at most
5 %. The report prints beside the flags how many seeds chance alone would put outside the band if
every seed were fair (``chance_outside``), the count the uncorrected marks should be read against. With too few games per seed no result can be shown unfair
(``min_games``), and the report says so.

Game ``i`` on seed ``s`` draws every random number from ``Rng(s, "analyse/<game>/<bot>/<i>")``,
so a seed's figures depend only on the arguments, whichever worker plays it and in what order.
The first player's score counts a win 1 and a draw 1/2; in a game without draws it is the win rate.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import BinaryIO

from generator.bots import DEFAULT_PLAYOUTS, make_bot, play_game
from generator.foundation.errors import UsageError
from generator.foundation.files import atomic_write
from generator.foundation.numbers import parse_decimal
from generator.foundation.seeding import Rng
from generator.games import find_rules
from generator.model.fonts import text_width
from generator.model.page import Line, Page, Rect, Shape, Style, Text, fill, stroke
from generator.render import find_writer
from generator.workers import cluster
from generator.workers.parallel import run_tasks

#: The balance band unless told otherwise: a seed is fair when the first player scores 35 % to 65 %.
DEFAULT_BAND = (0.35, 0.65)
Z95 = 1.959963984540054
MAX_GAMES = 100_000
#: The most work one analysis may ask for: seeds x games x playouts a move (1 for random bots);
#: the defaults on 200 seeds are 800,000.
MAX_WORK = 200_000_000
#: The false-discovery rate of the Benjamini-Hochberg correction across the seeds of a batch.
FDR = 0.05


@dataclass(frozen=True)
class SeedStats:
    """The figures of one seed: games played, the first player's wins, draws and losses, the score
    (wins plus half the draws, over games) with its 95 % interval, the draw rate, the mean length,
    whether the score lies inside the band, the p-value of the test that the true score lies in
    the band, its Benjamini-Hochberg adjusted value across the batch (q-value) and whether that
    shows the seed unfair (q-value at most ``FDR``)."""

    seed: int
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float
    draw_rate: float
    mean_length: float
    inside: bool
    p_value: float = 1.0
    q_value: float = 1.0
    unfair: bool = False


@dataclass(frozen=True)
class Analysis:
    """An analysis: the game, bot, playouts, variants, band and each seed's figures in seed order."""

    game: str
    bot: str
    playouts: int
    games: int
    variants: tuple[str, ...]
    band: tuple[float, float]
    seeds: tuple[SeedStats, ...]
    fdr: float = FDR

    def unfair(self) -> list[int]:
        """Return the seeds shown unfair for the whole batch (Benjamini-Hochberg at ``fdr``)."""
        return [s.seed for s in self.seeds if s.unfair]

    def fair(self) -> list[int]:
        """Return the seeds not shown unfair (every seed when the games are too few to tell)."""
        return [s.seed for s in self.seeds if not s.unfair]

    def chance_flags(self) -> float:
        """Return how many seeds chance alone would put outside the band if every seed were
        exactly fair (a first player's score of 1/2, no draws) at this many games a seed: the
        number of "outside the band" marks to expect with no unfair seed at all."""
        return chance_outside(self.games, self.band) * len(self.seeds)

    def min_games(self) -> int:
        """Return the fewest games per seed with which a seed could be shown unfair at all in a
        batch of this many seeds: even a first player who won every game needs that many."""
        return min_games(len(self.seeds), self.band, self.fdr)

    def too_few(self) -> bool:
        """Return True when the games per seed are too few for any seed to be shown unfair."""
        return self.games < self.min_games()

    def outside(self) -> list[int]:
        """Return the seeds whose score falls outside the band."""
        return [s.seed for s in self.seeds if not s.inside]

    def inside(self) -> list[int]:
        """Return the seeds whose score lies inside the band."""
        return [s.seed for s in self.seeds if s.inside]


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval (low, high) of a proportion ``successes / n``."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _log_binomial(n: int, k: int, p: float) -> float:
    return (
        math.lgamma(n + 1)
        - math.lgamma(k + 1)
        - math.lgamma(n - k + 1)
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )


def binomial_tail(n: int, k: int, p: float, upper: bool) -> float:
    """Return P(X >= k) (``upper``) or P(X <= k) for X binomial with n trials of chance p."""
    if (upper and k <= 0) or (not upper and k >= n):
        return 1.0
    if (upper and k > n) or (not upper and k < 0):
        return 0.0
    if p <= 0.0:
        return 1.0 if not upper else 0.0
    if p >= 1.0:
        return 1.0 if upper else 0.0
    ks = range(k, n + 1) if upper else range(0, k + 1)
    logs = [_log_binomial(n, i, p) for i in ks]
    top = max(logs)
    return min(1.0, math.exp(top) * sum(math.exp(v - top) for v in logs))


def band_p_value(wins: int, draws: int, games: int, band: tuple[float, float]) -> float:
    """Return the p-value of "the first player's true score lies inside the band": twice the
    smaller of the exact binomial tails at the nearer edges (P(score >= observed) at the top edge,
    P(score <= observed) at the bottom), a draw half a point rounded towards the band; at most 1."""
    lo, hi = band
    points = wins + draws / 2
    above = binomial_tail(games, math.floor(points), hi, upper=True) if hi < 1 else 1.0
    below = binomial_tail(games, math.ceil(points), lo, upper=False) if lo > 0 else 1.0
    return min(1.0, 2 * min(above, below))


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Return the Benjamini-Hochberg adjusted p-values (q-values), in the order given: the
    smallest false-discovery rate at which each would be flagged."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, p_values[i] * m / rank)
        adjusted[i] = min(1.0, running)
    return adjusted


def chance_outside(games: int, band: tuple[float, float]) -> float:
    """Return the chance that a fair seed (score 1/2, no draws) scores outside the band in
    ``games`` games."""
    lo, hi = band
    below = math.ceil(lo * games) - 1  # the most wins still below the band
    above = math.floor(hi * games) + 1  # the fewest wins above it
    return binomial_tail(games, below, 0.5, upper=False) + binomial_tail(games, above, 0.5, upper=True)


def min_games(seeds: int, band: tuple[float, float], fdr: float = FDR) -> int:
    """Return the fewest games per seed with which a seed won (or lost) by the first player in
    every game would be shown unfair among ``seeds`` seeds (its p-value at most ``fdr / seeds``)."""
    lo, hi = band
    edge = max(hi, 1 - lo)
    if edge >= 1:
        return MAX_GAMES + 1
    target = fdr / max(seeds, 1) / 2
    return max(1, math.ceil(math.log(target) / math.log(edge)))


def with_tests(
    seeds: Sequence[SeedStats], band: tuple[float, float], fdr: float = FDR
) -> tuple[SeedStats, ...]:
    """Return the seeds' figures with their p-values, q-values across the batch and verdicts."""
    p_values = [band_p_value(s.wins, s.draws, s.games, band) for s in seeds]
    q_values = benjamini_hochberg(p_values)
    return tuple(
        replace(s, p_value=float(f"{p:.6g}"), q_value=float(f"{q:.6g}"), unfair=q <= fdr)
        for s, p, q in zip(seeds, p_values, q_values)
    )


def parse_band(text: str) -> tuple[float, float]:
    """Return a band written 'LO-HI' (fractions such as 0.4-0.6, or percentages such as 40-60);
    raise UsageError otherwise."""
    lo_text, dash, hi_text = text.strip().partition("-")
    try:
        if not dash:
            raise ValueError
        lo, hi = parse_decimal(lo_text.strip()), parse_decimal(hi_text.strip())
    except ValueError:
        raise UsageError(f"a band is LO-HI, e.g. 0.35-0.65 or 35-65, got {text!r}") from None
    if hi > 1 or lo > 1:
        lo, hi = lo / 100, hi / 100
    if not 0 <= lo < hi <= 1:
        raise UsageError(f"a band needs 0 <= LO < HI <= 1 (or 100 %), got {text!r}")
    return (lo, hi)


def analyse_seed(
    game: str,
    seed: int,
    games: int,
    bot: str,
    playouts: int,
    variants: tuple[str, ...],
    band: tuple[float, float],
) -> SeedStats:
    """Return the figures of ``games`` bot-against-bot games on one seed (a worker task)."""
    rules = find_rules(game)
    chosen = frozenset(variants)
    board = seed if rules.takes_seed() else None
    player = make_bot(bot, playouts)
    wins = draws = total = 0
    for index in range(games):
        state = rules.new_state(board, chosen)
        result = play_game(state, player, Rng(seed, f"analyse/{game}/{bot}/{index}"))
        total += result.length
        if result.winner is None:
            draws += 1
        elif result.winner == result.first:
            wins += 1
    score = (wins + draws / 2) / games
    low, high = wilson(wins + draws / 2, games)
    return SeedStats(
        seed,
        games,
        wins,
        draws,
        games - wins - draws,
        round(score, 6),
        round(low, 6),
        round(high, 6),
        round(draws / games, 6),
        round(total / games, 3),
        band[0] <= score <= band[1],
    )


def analyse(
    game: str,
    seeds: Sequence[int],
    games: int = 20,
    bot: str = "random",
    playouts: int = DEFAULT_PLAYOUTS,
    variants: Sequence[str] = (),
    band: tuple[float, float] = DEFAULT_BAND,
    jobs: int = 1,
    done: Callable[[int], None] | None = None,
    scheduler: str | None = None,
) -> Analysis:
    """Return the analysis of ``games`` games per seed; ``done(i)`` is called as seed i finishes.

    The seeds are played on ``jobs`` local processes, or on the workers of the Dask scheduler at
    ``scheduler`` when one is given (``jobs`` is then unused); the figures are the same either way."""
    address = None if scheduler is None else cluster.check_address(scheduler)
    if address is not None:
        cluster.check_dask()
    rules = find_rules(game)
    chosen = tuple(sorted(rules.check_variants(frozenset(variants))))
    make_bot(bot, playouts)  # an unknown bot or budget fails before any work
    if not 1 <= games <= MAX_GAMES:
        raise UsageError(f"--games must be from 1 to {MAX_GAMES}, got {games}")
    if not seeds:
        raise UsageError("no seeds to analyse")
    work = len(seeds) * games * (1 if bot == "random" else playouts)
    if work > MAX_WORK:
        raise UsageError(
            f"seeds x games x playouts is {work:,}, more than one analysis may ask for ({MAX_WORK:,}): "
            "analyse fewer seeds, games or playouts"
        )
    if rules.takes_seed():
        rules.new_state(seeds[0], frozenset(chosen))  # a bad seed fails here, once
    tasks = [(analyse_seed, (game, seed, games, bot, playouts, chosen, band)) for seed in seeds]
    if address is not None:
        results = cluster.run_tasks(address, tasks, done)
    else:
        results = run_tasks(tasks, max(1, jobs), done)
    return Analysis(game, bot, playouts, games, chosen, band, with_tests(results, band))


# -- reports ------------------------------------------------------------------------------------

_COLUMNS = (
    "seed",
    "games",
    "wins",
    "draws",
    "losses",
    "score",
    "low",
    "high",
    "draw_rate",
    "mean_length",
    "inside",
    "p_value",
    "q_value",
    "unfair",
)


def verdict_lines(analysis: Analysis) -> list[str]:
    """Return the summary of an analysis in words: the seeds shown unfair for the whole batch,
    how many chance alone would flag without the correction, and whether the games are too few."""
    count = len(analysis.seeds)
    unfair = analysis.unfair()
    out = analysis.outside()
    lines = [
        f"{count - len(out)} of {count} seeds inside the band"
        + (f"; outside: {_seed_list(out)}" if out else ""),
        f"shown unfair for the whole batch (Benjamini-Hochberg, false-discovery rate "
        f"{analysis.fdr:.0%}): {len(unfair)} of {count}" + (f": {_seed_list(unfair)}" if unfair else ""),
        f"chance alone: with every seed fair, about {analysis.chance_flags():.1f} of {count} would "
        f"score outside the band at {analysis.games} games a seed; with the correction, the chance "
        f"of any seed shown unfair is then at most {analysis.fdr:.0%}",
    ]
    if analysis.too_few():
        lines.append(
            f"too few games to tell: with {analysis.games} games a seed, not even a first player "
            f"winning every game could be shown unfair among {count} seeds; play at least "
            f"{analysis.min_games()} games a seed"
        )
    return lines


def analysis_table(analysis: Analysis) -> str:
    """Return the analysis as a text table, a line per seed (the seeds outside the band and those
    shown unfair marked), and its summary (``verdict_lines``)."""
    lo, hi = analysis.band
    lines = [
        f"{find_rules(analysis.game).title}: {analysis.games} games per seed, {_bot_words(analysis)}",
        f"first player's score (win 1, draw 1/2) with 95 % interval; band {lo:.2f}-{hi:.2f}; "
        f"q: the Benjamini-Hochberg adjusted p-value of a score inside the band",
        f"{'seed':>8}  {'score':>5}  {'95 % interval':>13}  {'draws':>5}  {'length':>6}  {'q':>6}",
    ]
    for s in analysis.seeds:
        flag = (
            "  UNFAIR"
            if s.unfair
            else ("  outside band (chance cannot be ruled out)" if not s.inside else "")
        )
        lines.append(
            f"{s.seed:>8}  {s.score:5.2f}  {s.low:5.2f} - {s.high:4.2f}  {s.draw_rate:5.2f}  "
            f"{s.mean_length:6.1f}  {s.q_value:6.3f}{flag}"
        )
    lines.extend(verdict_lines(analysis))
    return "\n".join(lines)


def _json_data(analysis: Analysis) -> dict[str, object]:
    return {
        "game": analysis.game,
        "bot": analysis.bot,
        "playouts": analysis.playouts if analysis.bot != "random" else None,
        "games": analysis.games,
        "variants": list(analysis.variants),
        "band": list(analysis.band),
        "test": {
            "null": "the first player's true score lies inside the band",
            "per_seed": "exact binomial test against the nearer band edge, two-sided (twice the smaller tail)",
            "correction": "Benjamini-Hochberg",
            "false_discovery_rate": analysis.fdr,
            "chance_outside_if_all_fair": round(analysis.chance_flags(), 6),
            "min_games": analysis.min_games(),
            "too_few_games": analysis.too_few(),
        },
        "seeds": [asdict(s) for s in analysis.seeds],
        "outside": analysis.outside(),
        "unfair": analysis.unfair(),
    }


def analysis_json(analysis: Analysis | Sequence[Analysis]) -> str:
    """Return the analysis as JSON: the arguments, the test and its correction, a list of seeds
    with their figures, the seeds outside the band and those shown unfair. Several analyses (one
    per bot) give ``{"analyses": [...], "unfair_with_any": [...]}``."""
    if isinstance(analysis, Analysis):
        return json.dumps(_json_data(analysis), indent=2)
    data = {"analyses": [_json_data(a) for a in analysis], "unfair_with_any": unfair_with_any(analysis)}
    return json.dumps(data, indent=2)


def unfair_with_any(analyses: Sequence[Analysis]) -> list[int]:
    """Return the seeds shown unfair by any of the analyses, in order."""
    return sorted({seed for a in analyses for seed in a.unfair()})


def analysis_csv(analysis: Analysis | Sequence[Analysis]) -> str:
    """Return the analysis as CSV, a header and a row per seed (with several analyses, a ``bot``
    column first and a row per bot and seed)."""
    several = not isinstance(analysis, Analysis)
    analyses = list(analysis) if not isinstance(analysis, Analysis) else [analysis]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow((("bot",) if several else ()) + _COLUMNS)
    for a in analyses:
        for s in a.seeds:
            row = asdict(s)
            cells = [str(row[c]).lower() if isinstance(row[c], bool) else row[c] for c in _COLUMNS]
            writer.writerow(([a.bot] if several else []) + cells)
    return buffer.getvalue()


def report_table(analyses: Sequence[Analysis]) -> str:
    """Return the tables of several analyses of one batch (one per bot) and the seeds shown
    unfair by any of them: a map fair for random play may not be for skilled play."""
    if len(analyses) == 1:
        return analysis_table(analyses[0])
    parts = [analysis_table(a) for a in analyses]
    unfair = unfair_with_any(analyses)
    parts.append(
        f"shown unfair with any of the bots ({', '.join(a.bot for a in analyses)}): {len(unfair)} of "
        f"{len(analyses[0].seeds)}" + (f": {_seed_list(unfair)}" if unfair else "")
    )
    return "\n\n".join(parts)


def _bot_words(analysis: Analysis) -> str:
    if analysis.bot == "random":
        return "random bots"
    return f"{analysis.bot} bots ({analysis.playouts} playouts a move)"


def _seed_list(seeds: Sequence[int], limit: int = 20) -> str:
    shown = ", ".join(str(s) for s in seeds[:limit])
    return shown + (f" and {len(seeds) - limit} more" if len(seeds) > limit else "")


# -- the chart ----------------------------------------------------------------------------------

PAGE_W, PAGE_H = 297.0, 210.0
_LEFT, _RIGHT, _TOP, _BOTTOM = 28.0, 12.0, 30.0, 28.0
_INSIDE, _OUTSIDE, _BAND = "#1f5f9f", "#c0392b", "#dcebd6"


def chart_page(analysis: Analysis) -> Page:
    """Return an A4 landscape page: the first player's score by seed, each with its 95 % interval,
    over the shaded balance band; seeds shown unfair for the whole batch in red."""
    shapes: list[Shape] = []
    x0, x1 = _LEFT, PAGE_W - _RIGHT
    y0, y1 = _TOP, PAGE_H - _BOTTOM  # y0: score 1, y1: score 0
    rules = find_rules(analysis.game)
    shapes.append(Text(x0, 14, f"{rules.title}: is the first player favoured?", 16, "sans-bold"))
    variant = f", variants {', '.join(analysis.variants)}" if analysis.variants else ""
    shapes.append(
        Text(
            x0,
            21,
            f"First player's score by seed (win 1, draw 1/2) with its 95 % interval; "
            f"{analysis.games} games per seed, {_bot_words(analysis)}{variant}.",
            9,
        )
    )

    def y_of(value: float) -> float:
        return y1 - (y1 - y0) * value

    lo, hi = analysis.band
    shapes.append(Rect(x0, y_of(hi), x1 - x0, y_of(lo) - y_of(hi), fill(_BAND)))
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = y_of(tick)
        shapes.append(Line(x0, y, x1, y, stroke("#b0b0b0" if tick not in (0.0, 1.0) else "#000000", 0.2)))
        shapes.append(Text(x0 - 2, y + 1.2, f"{tick:.2f}", 8, anchor="end"))
    shapes.append(Line(x0, y_of(0.5), x1, y_of(0.5), stroke("#606060", 0.3, dash=(1.5, 1.0))))
    # the band's key stands above the plot, where no seed's bar reaches: a swatch and its words
    key = f"balance band {lo:.2f}-{hi:.2f}"
    key_x = x1 - text_width(key, "sans", 8)
    shapes.append(Rect(key_x - 6.5, y0 - 4.6, 5.0, 2.6, Style(stroke="#3c6e2c", fill=_BAND, width=0.2)))
    shapes.append(Text(x1, y0 - 2.2, key, 8, anchor="end", colour="#3c6e2c"))
    count = len(analysis.seeds)
    step = (x1 - x0) / count
    mark = max(0.3, min(1.6, step * 0.35))
    for i, s in enumerate(analysis.seeds):
        x = x0 + step * (i + 0.5)
        colour = _OUTSIDE if s.unfair else _INSIDE
        shapes.append(Line(x, y_of(s.low), x, y_of(s.high), stroke(colour, max(0.15, min(0.5, step * 0.2)))))
        shapes.append(Rect(x - mark / 2, y_of(s.score) - mark / 2, mark, mark, fill(colour)))
    label_every = max(1, math.ceil(count / 25))
    for i, s in enumerate(analysis.seeds):
        if i % label_every == 0 or (i == count - 1 and count <= 25):
            x = x0 + step * (i + 0.5)
            shapes.append(Line(x, y1, x, y1 + 1.5, stroke("#000000", 0.2)))
            shapes.append(Text(x, y1 + 5, str(s.seed), 7, anchor="middle"))
    shapes.append(Text((x0 + x1) / 2, y1 + 11, "seed", 9, anchor="middle"))
    unfair = len(analysis.unfair())
    words = f"{count - unfair} of {count} seeds not shown unfair (blue); {unfair} shown unfair (red: "
    words += f"Benjamini-Hochberg across the seeds, false-discovery rate {analysis.fdr:.0%})."
    if analysis.too_few():
        words += f" Too few games to tell: at least {analysis.min_games()} a seed are needed."
    shapes.append(Text(x0, PAGE_H - 8, words, 9))
    return Page(PAGE_W, PAGE_H, tuple(shapes), label="analysis")


def write_chart(analysis: Analysis, out: str, suffix: str = "") -> list[str]:
    """Write the chart as ``<game>-analysis<suffix>.pdf`` and ``.svg`` in ``out``; return their paths."""
    os.makedirs(out, exist_ok=True)
    page = chart_page(analysis)
    title = f"{find_rules(analysis.game).title} seed analysis"
    paths = []
    for fmt in ("pdf", "svg"):
        writer = find_writer(fmt)
        path = os.path.join(out, f"{analysis.game}-analysis{suffix}.{fmt}")
        atomic_write(path, functools.partial(_write_page, writer, page, title))
        paths.append(path)
    return paths


def _write_page(writer: Callable[..., int], page: Page, title: str, target: BinaryIO) -> None:
    writer([page], target, title)


def balanced_seeds(
    game: str,
    seeds: Sequence[int],
    band: tuple[float, float] = DEFAULT_BAND,
    games: int = 20,
    variants: Sequence[str] = (),
    jobs: int = 1,
    done: Callable[[int], None] | None = None,
    scheduler: str | None = None,
) -> list[int]:
    """Return the seeds, in order, that an analysis with random bots (``games`` games each) does
    not show unfair, the first player's score outside the band for the whole batch (played as
    ``analyse`` plays them: on ``jobs`` processes or on the Dask cluster at ``scheduler``); raise
    UsageError when every seed is shown unfair."""
    result = analyse(
        game, seeds, games=games, variants=variants, band=band, jobs=jobs, done=done, scheduler=scheduler
    )
    kept = result.fair()
    if not kept:
        lo, hi = band
        raise UsageError(
            f"no seed of the {len(seeds)} analysed could give {game} a first player's score inside "
            f"{lo:.2f}-{hi:.2f} ({games} random games a seed); widen the band or try other seeds"
        )
    return kept
