"""``--scheduler ADDRESS``: the analysis on a Dask cluster gives the bytes of a local run, the
progress counts every seed, and a cluster that cannot do the work is a one-line error."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from generator import __version__
from generator.bots.analysis import analyse
from generator.cli.app import app
from generator.kits.balance import Balance, balance_plan
from generator.kits.plan import BuildPlan, BuildRequest, make_plan
from generator.workers import cluster

try:
    import distributed
except ImportError:  # the dask extra (part of the test extra) is not installed
    if os.environ.get("CI"):
        raise
    pytest.skip("distributed is not installed: pip install -e '.[test]'", allow_module_level=True)

# 40 seeds: the two workers' single threads get them in batches of 3 (the last one shorter)
ARGS = ("analyse", "aggression", "--seeds", "1-40", "--games", "2", "-q")

# Clusters that cannot do the work, each in a process of its own (threads, over TCP) that prints
# its schedulers' addresses and stops when its input closes: one that runs another pnp (its code's
# fingerprint differs), and one whose worker cannot import pnp beside a scheduler without workers.
OTHER_PNP = """
import sys
from distributed import LocalCluster
from generator import __version__
from generator.workers import cluster
cluster.code_fingerprint = lambda: "0.0.1+0123456789abcdef"
kw = dict(processes=False, protocol="tcp", host="127.0.0.1", dashboard_address=":0")
print(LocalCluster(n_workers=1, threads_per_worker=1, **kw).scheduler_address, flush=True)
sys.stdin.read()
"""
NO_PNP = """
import sys
sys.modules["generator"] = None
from distributed import LocalCluster
kw = dict(processes=False, protocol="tcp", host="127.0.0.1", dashboard_address=":0")
no_pnp = LocalCluster(n_workers=1, threads_per_worker=1, **kw)
no_workers = LocalCluster(n_workers=0, **kw)
print(no_pnp.scheduler_address, no_workers.scheduler_address, flush=True)
sys.stdin.read()
"""


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """Return the address of a local Dask cluster of two workers, one thread each. They run in
    this process (quick to start), but over TCP, so every task and result is pickled and sent as
    to a remote machine; bench/bench_analyse.py dask runs worker processes."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=":0",
    ) as local:
        yield local.scheduler_address


@pytest.fixture(scope="module")
def broken() -> Iterator[list[str]]:
    """Return the addresses of the schedulers of OTHER_PNP and NO_PNP (started side by side)."""
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        for code in (OTHER_PNP, NO_PNP)
    ]
    addresses = []
    for process in processes:
        assert process.stdout is not None
        addresses += process.stdout.readline().split()
    yield addresses
    for process in processes:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(timeout=30)


# pnp run in a process of its own, once for each list of arguments (a JSON list of lists in
# argv[1]); prints a JSON line for each run: its exit code, standard output and standard error
RUNS = """
import json, sys
{prelude}
from typer.testing import CliRunner
from generator.cli.app import app
for args in json.loads(sys.argv[1]):
    result = CliRunner().invoke(app, args)
    print(json.dumps([result.exit_code, result.stdout, result.stderr]))
"""


Runs = list[tuple[int, str, str]]


def in_process(runs: list[list[str]]) -> Runs:
    """Return the exit code, standard output and standard error of pnp run in this process, once
    for each list of arguments."""
    results = [CliRunner().invoke(app, args) for args in runs]
    return [(result.exit_code, result.stdout, result.stderr) for result in results]


def in_subprocess(runs: list[list[str]], prelude: str = "") -> Runs:
    """Return the exit code, standard output and standard error of pnp run in one process of its
    own (after the prelude), once for each list of arguments. The worker processes of --jobs 2
    must fork from there, not from this process, which runs the cluster's threads."""
    code = RUNS.format(prelude=prelude)
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(runs)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return [(code, out, err) for code, out, err in map(json.loads, done.stdout.splitlines())]


def outputs(run: Callable[[list[list[str]]], Runs], out: Path, *options: str) -> list[bytes]:
    """Return the JSON, the CSV and the chart's PDF and SVG of one analysis run with the options."""
    runs = [[*ARGS, "--json", "--out", str(out), *options], [*ARGS, "--csv", "--no-chart", *options]]
    (json_code, as_json, json_err), (csv_code, as_csv, csv_err) = run(runs)
    assert json_code == 0 and csv_code == 0, json_err + csv_err
    charts = [(out / f"aggression-analysis.{fmt}").read_bytes() for fmt in ("pdf", "svg")]
    return [as_json.encode(), as_csv.encode(), *charts]


def test_the_cluster_writes_the_bytes_of_a_local_run(scheduler: str, tmp_path: Path) -> None:
    on_cluster = outputs(in_process, tmp_path / "dask", "--scheduler", scheduler)
    assert b'"seed": 40' in on_cluster[0] and on_cluster[1].count(b"\n") == 41
    assert on_cluster == outputs(in_process, tmp_path / "one", "--jobs", "1")
    assert on_cluster == outputs(in_subprocess, tmp_path / "two", "--jobs", "2")


def test_every_seed_reports_back_as_it_finishes(scheduler: str) -> None:
    finished: list[int] = []
    result = analyse(
        "verbal", range(5, 15), games=2, bot="search", playouts=8, scheduler=scheduler, done=finished.append
    )
    assert sorted(finished) == list(range(10))
    assert result == analyse("verbal", range(5, 15), games=2, bot="search", playouts=8, jobs=1)


def test_a_balanced_build_keeps_the_seeds_a_local_run_keeps(scheduler: str, tmp_path: Path) -> None:
    def plan(**options: Any) -> tuple[BuildPlan, Balance]:
        request = BuildRequest(
            games=("aggression",), formats=("svg",), out=str(tmp_path), seeds="1-10", balanced="0.6-0.95"
        )
        made = make_plan(replace(request, balance_games=60, **options))
        assert made.band == (0.6, 0.95) and made.balance_games == 60
        return balance_plan(made, made.band, made.balance_games)

    remote, kept = plan(scheduler=scheduler.removeprefix("tcp://"))
    local, kept_locally = plan(jobs=1)
    assert kept.kept == kept_locally.kept and 0 < len(kept.kept["aggression"]) < 10
    assert remote.games == local.games and remote.scheduler == scheduler


def test_clusters_that_cannot_do_the_work_are_refused(
    broken: list[str], scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # these clusters answer, so the timeout only bounds a slow, busy machine's handshake
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 10.0)
    other_pnp, no_pnp, no_workers = broken
    with distributed.Client(scheduler, set_as_default=False) as client:
        worker = sorted(client.scheduler_info()["workers"])[0]
    cases = [
        (other_pnp, f"runs pnp 0.0.1+0123456789abcdef, this is {__version__}+"),
        (no_pnp, "cannot run pnp (No module named 'generator"),
        (no_workers, "has no workers"),
        (worker, "is a Dask worker, not a scheduler"),
    ]
    for address, words in cases:
        result = CliRunner().invoke(app, [*ARGS, "--no-chart", "--scheduler", address])
        assert result.exit_code == 2, result.output
        assert words in result.output and len(result.output.strip().splitlines()) == 1, result.output


def free_port() -> int:
    """Return a TCP port on this machine that nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def silent() -> Iterator[int]:
    """Return the port of a server that takes connections and never answers."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server.getsockname()[1]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((*ARGS, "--scheduler", "tcp://127.0.0.1:{port}"), "no Dask scheduler answers at tcp://127.0.0.1:"),
        ((*ARGS, "--scheduler", "127.0.0.1:{silent}"), "no Dask scheduler answers at tcp://127.0.0.1:"),
        ((*ARGS, "--scheduler", "tcp://"), "--scheduler takes a Dask scheduler's address"),
        ((*ARGS, "--scheduler", "host:99999"), "--scheduler takes"),
        ((*ARGS, "--scheduler", "http://host:8786"), "--scheduler takes"),
        ((*ARGS, "--scheduler", "a b:1"), "--scheduler takes"),
        ((*ARGS, "--scheduler", "localhost:8786", "--jobs", "2"), "--scheduler and --jobs"),
        (("build", "aggression", "--seeds", "1-3", "--scheduler", "localhost"), "applies to --balanced"),
        (
            ("build", "aggression", "--seeds", "1-3", "--balanced", "0.3-0.7", "--scheduler", "::"),
            "--scheduler takes",
        ),
    ],
)
def test_errors_are_one_line(
    args: tuple[str, ...], words: str, silent: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 0.5)
    out = tmp_path / "out"
    line = [a.format(port=free_port(), silent=silent) for a in args]
    result = CliRunner().invoke(app, [*line, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert words in result.output and len(result.output.strip().splitlines()) == 1, result.output
    assert not out.exists()


def test_without_dask_it_says_how_to_install_it(tmp_path: Path) -> None:
    out = str(tmp_path / "out")
    runs = [
        [*ARGS, "--scheduler", "localhost:8786", "--out", out],
        [
            "build",
            "aggression",
            "--seeds",
            "1-3",
            "--balanced",
            "0.3-0.7",
            "--scheduler",
            "host",
            "--out",
            out,
        ],
    ]
    message = "pnp: error: --scheduler needs Dask, which is not installed: pip install 'pnp-kits[dask]'\n"
    assert in_subprocess(runs, prelude="sys.modules['distributed'] = None") == [(2, "", message)] * 2
    assert not (tmp_path / "out").exists()
