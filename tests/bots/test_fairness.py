"""The fairness statistics of ``pnp analyse``: a batch of fair seeds is flagged at no more than the
stated rate, a truly biased seed is flagged, and too few games are said to be too few."""

from __future__ import annotations

import json

import pytest

from generator.bots.analysis import (
    FDR,
    SeedStats,
    band_p_value,
    benjamini_hochberg,
    binomial_tail,
    chance_outside,
    min_games,
    with_tests,
)
from generator.foundation.seeding import Rng
from tests.cli_run import pnp  # in this process: exit code, output and error as a process gives them

BAND = (0.35, 0.65)


def _seed(seed: int, score: float, games: int, rng: Rng) -> SeedStats:
    """A seed's figures from ``games`` games the first player wins with chance ``score``."""
    wins = sum(rng.below(1_000_000) < score * 1_000_000 for _ in range(games))
    return SeedStats(seed, games, wins, 0, games - wins, wins / games, 0.0, 1.0, 0.0, 10.0, True)


def _batch(scores: list[float], games: int, rng: Rng) -> tuple[SeedStats, ...]:
    return with_tests([_seed(i + 1, p, games, rng) for i, p in enumerate(scores)], BAND)


def test_fair_batches_are_flagged_at_no_more_than_the_stated_rate() -> None:
    # 100 batches of 100 seeds at the band's edge (the hardest fair seeds): BH keeps the chance of
    # any flag in a batch of true nulls at most the false-discovery rate.
    rng = Rng(1, "fairness/fair")
    flagged_batches = 0
    outside = 0
    for _ in range(100):
        seeds = _batch([BAND[1]] * 100, 40, rng)
        flagged_batches += any(s.unfair for s in seeds)
        outside += sum(not BAND[0] <= s.score <= BAND[1] for s in seeds)
    assert flagged_batches <= 100 * FDR + 3 * (100 * FDR * (1 - FDR)) ** 0.5
    assert outside > 100 * 100 * 0.2  # the uncorrected marks at the edge are many: chance alone


def test_a_fair_batch_at_one_half_flags_nothing_and_chance_explains_the_marks() -> None:
    rng = Rng(2, "fairness/half")
    seeds = _batch([0.5] * 200, 50, rng)
    assert not any(s.unfair for s in seeds)
    marks = sum(not BAND[0] <= s.score <= BAND[1] for s in seeds)
    expected = 200 * chance_outside(50, BAND)
    assert abs(marks - expected) <= 3 * expected**0.5 + 1


def test_a_truly_biased_seed_is_flagged_and_the_fair_ones_are_not() -> None:
    rng = Rng(3, "fairness/biased")
    scores = [0.5] * 199 + [0.9]
    seeds = _batch(scores, 100, rng)
    assert [s.seed for s in seeds if s.unfair] == [200]


def test_the_tests_agree_with_their_definitions() -> None:
    assert binomial_tail(10, 10, 0.5, upper=True) == pytest.approx(0.5**10)
    assert binomial_tail(10, 0, 0.5, upper=False) == pytest.approx(0.5**10)
    assert binomial_tail(10, 5, 0.5, upper=True) + binomial_tail(10, 4, 0.5, upper=False) == pytest.approx(1)
    assert band_p_value(50, 0, 100, BAND) == 1.0
    assert band_p_value(100, 0, 100, BAND) == pytest.approx(2 * 0.65**100)
    # Benjamini-Hochberg: p * m / rank, made monotone from the largest down.
    assert benjamini_hochberg([0.01, 0.04, 0.03, 0.5]) == pytest.approx(
        [0.04, 0.04 * 4 / 3, 0.04 * 4 / 3, 0.5]
    )
    n = min_games(200, BAND)
    assert 2 * 0.65**n <= FDR / 200 < 2 * 0.65 ** (n - 1)


def test_too_few_games_are_said_to_be_too_few_and_flag_nothing() -> None:
    result = pnp(
        "analyse", "aggression", "--seeds", "1-20", "--games", "4", "--json", "--no-chart", "-q", "-j", "1"
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["test"]["too_few_games"] is True and data["test"]["min_games"] > 4
    assert data["unfair"] == [] and data["test"]["correction"] == "Benjamini-Hochberg"
    table = pnp("analyse", "aggression", "--seeds", "1-20", "--games", "4", "--no-chart", "-q", "-j", "1")
    assert "too few games to tell" in table.stdout and "chance alone" in table.stdout


def test_both_bots_in_one_report() -> None:
    result = pnp(
        "analyse", "aggression", "--seeds", "1-2", "--games", "2", "--bot", "random,search",
        "--playouts", "10", "--json", "--no-chart", "-j", "1",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [a["bot"] for a in data["analyses"]] == ["random", "search"]
    assert "left" in result.stderr  # the progress with the time left
