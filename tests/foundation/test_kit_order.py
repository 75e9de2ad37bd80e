"""The kits of a build are handed to the workers longest first: each kit's last build time is
kept in pnp's cache folder (``kit-times.json``); kits never timed go first, in plan order. The
order changes when each kit starts, never what is written: a build with the times known, with
none, or with a damaged file writes the same bytes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from generator.kits.plan import BuildRequest, make_plan
from generator.kits.run import TIMES_FILE, longest_first, time_key
from tests.cli_run import pnp

GAMES = ("everest", "verbal")


def _digests(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_kits_never_timed_go_first_in_plan_order_then_the_longest(tmp_path):
    plan = make_plan(BuildRequest(all_games=True, out=str(tmp_path / "out")))
    games = list(plan.games)
    assert len(games) >= 4
    assert longest_first(games, {}) == games  # nothing known: the plan's order
    # every kit but the first two timed, each later kit of the plan remembered as longer
    times = {time_key(g.kit): float(n) for n, g in enumerate(games) if n >= 2}
    ordered = longest_first(games, times)
    assert ordered[:2] == games[:2]
    assert ordered[2:] == list(reversed(games[2:]))
    assert sorted(ordered, key=id) == sorted(games, key=id)  # the same kits, each once


def test_the_time_key_tells_languages_apart(tmp_path):
    english = make_plan(BuildRequest(games=["verbal"], out=str(tmp_path / "en"))).games[0].kit
    french = make_plan(BuildRequest(games=["verbal"], lang="fr", out=str(tmp_path / "fr"))).games[0].kit
    assert time_key(english) != time_key(french)


@pytest.mark.parametrize("kept", ["none", pytest.param("damaged", marks=pytest.mark.slow)])
def test_a_build_keeps_each_kits_time_and_writes_the_same_bytes_in_any_order(tmp_path, monkeypatch, kept):
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    times = cache / "pnp" / TIMES_FILE
    if kept == "damaged":
        times.parent.mkdir(parents=True)
        times.write_text("{not json")
    args = ("build", *GAMES, "--format", "pdf", "--jobs", "2", "--quiet")
    first = pnp(*args, "--out", str(tmp_path / "first"))
    assert first.returncode == 0, first.stderr
    remembered = json.loads(times.read_text())
    plan = make_plan(BuildRequest(games=list(GAMES), out=str(tmp_path / "first")))
    keys = [time_key(g.kit) for g in plan.games]
    assert all(isinstance(remembered.get(key), float) and remembered[key] >= 0 for key in keys)
    # the later game remembered as the longer: it starts first, and nothing written changes
    times.write_text(json.dumps({keys[0]: 0.001, keys[-1]: 100.0}))
    second = pnp(*args, "--out", str(tmp_path / "second"))
    assert second.returncode == 0, second.stderr
    assert _digests(tmp_path / "first") == _digests(tmp_path / "second")
