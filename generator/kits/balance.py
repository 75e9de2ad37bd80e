"""Balanced batches (``pnp build GAME --seeds A-B --balanced [BAND]``): a build plan narrowed to
the seeds whose boards the balance analysis finds fair (``generator.bots.analysis``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from generator.bots.analysis import DEFAULT_BAND, MAX_GAMES, MAX_WORK, balanced_seeds
from generator.foundation.errors import UsageError
from generator.games import has_rules
from generator.kits.plan import BALANCE_GAMES, BuildPlan, GamePlan

#: Random-bot games played on each seed to judge it, unless told otherwise.
DEFAULT_GAMES = BALANCE_GAMES


@dataclass(frozen=True)
class Balance:
    """What the balance step kept: per game id, the seeds analysed and the seeds kept."""

    band: tuple[float, float]
    games: int
    kept: dict[str, tuple[int, ...]]
    analysed: dict[str, int]

    def summary(self) -> str:
        """Return one line per game: how many seeds were kept, and which were dropped."""
        lo, hi = self.band
        lines = []
        for game, kept in self.kept.items():
            lines.append(
                f"balanced {game}: kept {len(kept)} of {self.analysed[game]} seeds whose first player "
                f"scores {lo:.2f}-{hi:.2f} over {self.games} random games"
            )
        return "\n".join(lines)


def balance_plan(
    plan: BuildPlan,
    band: tuple[float, float] = DEFAULT_BAND,
    games: int = DEFAULT_GAMES,
    progress_factory: Callable[[int], Any] | None = None,
) -> tuple[BuildPlan, Balance]:
    """Return the plan with every batch narrowed to its seeds inside the band (the kit then drawn
    from the first seed kept), and what was kept. Raise UsageError when the plan has no batch, a
    batch's game has no rules to play, ``games`` is out of its bounds (1 to MAX_GAMES, and the
    seeds of every batch times ``games`` at most MAX_WORK, checked before any game is played), or no
    seed of a batch is inside the band."""
    batches = [g for g in plan.games if g.seeds is not None]
    if not batches:
        raise UsageError("--balanced keeps the fair seeds of a batch: give --seeds A-B")
    if not 1 <= games <= MAX_GAMES:
        raise UsageError(f"--balance-games must be from 1 to {MAX_GAMES:,}, got {games:,}")
    work = sum(len(g.seeds or ()) for g in batches) * games
    if work > MAX_WORK:
        raise UsageError(
            f"seeds x --balance-games is {work:,} over the batches, more than one build may ask for "
            f"({MAX_WORK:,}): balance fewer seeds or play fewer games on each"
        )
    for game in batches:
        game_id = game.kit.definition.id
        if not has_rules(game_id):
            raise UsageError(
                f"{game_id} has no rules the bots can play, so --balanced cannot judge its seeds"
            )
    total = sum(len(g.seeds or ()) for g in batches)
    progress = progress_factory(total) if progress_factory else None
    kept: dict[str, tuple[int, ...]] = {}
    analysed: dict[str, int] = {}
    games_out: list[GamePlan] = []
    for game in plan.games:
        if game.seeds is None:
            games_out.append(game)
            continue
        game_id = game.kit.definition.id
        seeds = game.seeds
        fair = balanced_seeds(
            game_id,
            seeds,
            band=band,
            games=games,
            variants=tuple(sorted(game.kit.variants)),
            jobs=plan.jobs,
            done=_stepper(progress, game_id, seeds),
            scheduler=plan.scheduler,
        )
        kept[game_id] = tuple(fair)
        analysed[game_id] = len(seeds)
        games_out.append(GamePlan(game.kit.for_seed(fair[0]), tuple(fair)))
    if progress:
        progress.close()
    return replace(plan, games=tuple(games_out)), Balance(band, games, kept, analysed)


def _stepper(progress: Any, game_id: str, seeds: tuple[int, ...]) -> Callable[[int], None] | None:
    """Return the callback that counts a seed's analysis on the progress bar (None without one)."""
    if progress is None:
        return None
    return lambda i: progress.step(f"{game_id} seed {seeds[i]}")
