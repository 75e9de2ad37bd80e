"""Balance analysis over seeds: bot-against-bot games on each board, the first player's score with
a 95 % Wilson interval, the draw rate and the mean length, and a chart of the score by seed.

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
from dataclasses import asdict, dataclass
from typing import BinaryIO

from generator import cluster
from generator.bots import DEFAULT_PLAYOUTS, make_bot, play_game
from generator.errors import UsageError
from generator.files import atomic_write
from generator.fonts import text_width
from generator.games import find_rules
from generator.numbers import parse_decimal
from generator.page import Line, Page, Rect, Style, Text, fill, stroke
from generator.parallel import run_tasks
from generator.render import find_writer
from generator.seeding import Rng

#: The balance band unless told otherwise: a seed is fair when the first player scores 35 % to 65 %.
DEFAULT_BAND = (0.35, 0.65)
Z95 = 1.959963984540054
MAX_GAMES = 100_000
#: The most work one analysis may ask for: seeds x games x playouts a move (1 for random bots);
#: the defaults on 200 seeds are 800,000.
MAX_WORK = 200_000_000


@dataclass(frozen=True)
class SeedStats:
    """The figures of one seed: games played, the first player's wins, draws and losses, the score
    (wins plus half the draws, over games) with its 95 % interval, the draw rate, the mean length,
    and whether the score lies inside the band."""

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
    return Analysis(game, bot, playouts, games, chosen, band, tuple(results))


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
)


def analysis_table(analysis: Analysis) -> str:
    """Return the analysis as a text table, a line per seed, flagged seeds marked, and a summary."""
    lo, hi = analysis.band
    lines = [
        f"{find_rules(analysis.game).title}: {analysis.games} games per seed, {_bot_words(analysis)}",
        f"first player's score (win 1, draw 1/2) with 95 % interval; band {lo:.2f}-{hi:.2f}",
        f"{'seed':>8}  {'score':>5}  {'95 % interval':>13}  {'draws':>5}  {'length':>6}",
    ]
    for s in analysis.seeds:
        flag = "" if s.inside else "  outside band"
        lines.append(
            f"{s.seed:>8}  {s.score:5.2f}  {s.low:5.2f} - {s.high:4.2f}  {s.draw_rate:5.2f}  {s.mean_length:6.1f}{flag}"
        )
    out = analysis.outside()
    lines.append(
        f"{len(analysis.seeds) - len(out)} of {len(analysis.seeds)} seeds inside the band"
        + (f"; outside: {_seed_list(out)}" if out else "")
    )
    return "\n".join(lines)


def analysis_json(analysis: Analysis) -> str:
    """Return the analysis as JSON: the arguments and a list of seeds with their figures."""
    data = {
        "game": analysis.game,
        "bot": analysis.bot,
        "playouts": analysis.playouts if analysis.bot != "random" else None,
        "games": analysis.games,
        "variants": list(analysis.variants),
        "band": list(analysis.band),
        "seeds": [asdict(s) for s in analysis.seeds],
        "outside": analysis.outside(),
    }
    return json.dumps(data, indent=2)


def analysis_csv(analysis: Analysis) -> str:
    """Return the analysis as CSV, a header and a row per seed."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(_COLUMNS)
    for s in analysis.seeds:
        row = asdict(s)
        writer.writerow([str(row[c]).lower() if isinstance(row[c], bool) else row[c] for c in _COLUMNS])
    return buffer.getvalue()


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
    over the shaded balance band; seeds outside the band in red."""
    page = Page(PAGE_W, PAGE_H, label="analysis")
    shapes = page.shapes
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
        colour = _INSIDE if s.inside else _OUTSIDE
        shapes.append(Line(x, y_of(s.low), x, y_of(s.high), stroke(colour, max(0.15, min(0.5, step * 0.2)))))
        shapes.append(Rect(x - mark / 2, y_of(s.score) - mark / 2, mark, mark, fill(colour)))
    label_every = max(1, math.ceil(count / 25))
    for i, s in enumerate(analysis.seeds):
        if i % label_every == 0 or (i == count - 1 and count <= 25):
            x = x0 + step * (i + 0.5)
            shapes.append(Line(x, y1, x, y1 + 1.5, stroke("#000000", 0.2)))
            shapes.append(Text(x, y1 + 5, str(s.seed), 7, anchor="middle"))
    shapes.append(Text((x0 + x1) / 2, y1 + 11, "seed", 9, anchor="middle"))
    out = len(analysis.outside())
    shapes.append(
        Text(
            x0,
            PAGE_H - 8,
            f"{count - out} of {count} seeds inside the band (blue); {out} outside (red).",
            9,
        )
    )
    return page


def write_chart(analysis: Analysis, out: str) -> list[str]:
    """Write the chart as ``<game>-analysis.pdf`` and ``.svg`` in ``out``; return their paths."""
    os.makedirs(out, exist_ok=True)
    page = chart_page(analysis)
    title = f"{find_rules(analysis.game).title} seed analysis"
    paths = []
    for fmt in ("pdf", "svg"):
        writer = find_writer(fmt)
        path = os.path.join(out, f"{analysis.game}-analysis.{fmt}")
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
    """Return the seeds, in order, whose analysis with random bots (``games`` games each) puts the
    first player's score inside the band (played as ``analyse`` plays them: on ``jobs`` processes
    or on the Dask cluster at ``scheduler``); raise UsageError when none does."""
    result = analyse(
        game, seeds, games=games, variants=variants, band=band, jobs=jobs, done=done, scheduler=scheduler
    )
    kept = result.inside()
    if not kept:
        lo, hi = band
        raise UsageError(
            f"no seed of the {len(seeds)} analysed gives {game} a first player's score inside "
            f"{lo:.2f}-{hi:.2f} ({games} random games a seed); widen the band or try other seeds"
        )
    return kept
