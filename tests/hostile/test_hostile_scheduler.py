"""``--scheduler ADDRESS`` against what a stranger's address may hold: a server that answers with
anything but Dask's protocol (an HTTP server, garbage, a frame length of terabytes) is one line,
exit 2, within the handshake's time limit and without reading more than its size limit; ``tls://``
is refused with one line; and a cluster whose workers die mid-analysis is given up on with one line
instead of being waited for for ever."""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_run import pnp as pnp_here

if importlib.util.find_spec("distributed") is None:  # the dask extra (part of the test extra)
    if os.environ.get("CI"):
        raise ImportError("distributed is not installed")
    pytest.skip("distributed is not installed: pip install -e '.[test]'", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]

# What a server that is not a Dask scheduler may send first: an HTTP answer, bytes that make no
# frame, a frame length of a terabyte, one beyond any index, a well-sized message of garbage, and
# nothing at all (None: it accepts, reads, and keeps the connection open, saying nothing).
ANSWERS: dict[str, bytes | None] = {
    "silent": None,
    "http": b"HTTP/1.1 400 Bad Request\r\nContent-Length: 11\r\nConnection: close\r\n\r\nbad request",
    "ff": b"\xff" * 64,
    "terabyte": struct.pack("Q", 1 << 40) + b"\x01" * 64,
    "huge-count": struct.pack("Q", 64) + struct.pack("Q", (1 << 63) + 5) + b"\0" * 56,
    "garbage-frames": struct.pack("Q", 32) + struct.pack("QQ", 1, 16) + b"\xc1" * 16,
}


@pytest.fixture
def liar(request: pytest.FixtureRequest) -> Iterator[int]:
    """Return the port of a server on this machine that answers every connection with the bytes
    of ANSWERS[param], then keeps the connection open a while."""
    answer = ANSWERS[request.param]
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    stop = threading.Event()

    def serve() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    conn.recv(65536)
                    if answer is None:  # past the handshake's time limit, then close
                        stop.wait(10)
                        continue
                    conn.sendall(answer)
                    conn.recv(65536)
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join(5)
    server.close()


def pnp(*args: str, prelude: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run pnp in a process of its own (after the prelude, Python run before the command line)."""
    code = f"import sys\n{prelude}\nfrom generator.cli import main\nsys.argv = ['pnp', *sys.argv[1:]]\nmain()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )


ANALYSE = ("analyse", "aggression", "--seeds", "1-3", "--games", "1", "-q", "--no-chart")


def one_line(done: subprocess.CompletedProcess[str], code: int, words: str) -> None:
    """Assert the run ended with the exit code and one line on standard error holding the words."""
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert words in done.stderr, done.stderr


@pytest.mark.parametrize("liar", sorted(ANSWERS), indirect=True)
def test_a_server_that_is_not_dask_is_one_line(liar: int, tmp_path: Path) -> None:
    out = tmp_path / "out"
    started = time.monotonic()
    done = pnp(*ANALYSE, "--json", "--out", str(out), "--scheduler", f"127.0.0.1:{liar}")
    one_line(done, 2, f"tcp://127.0.0.1:{liar}")
    assert "is not a Dask scheduler" in done.stderr or "no Dask scheduler answers" in done.stderr
    # the handshake's limit is 5 s; the rest is starting Python and importing Dask on a busy machine
    assert time.monotonic() - started < 60
    assert not out.exists()


def _message(message: dict) -> bytes:
    """Return a message framed as Dask's TCP comm frames it (its length, the frame lengths, the
    frames)."""
    import distributed  # imported where used (slow tests): the fast tier's test needs no Dask

    frames = [bytes(frame) for frame in distributed.protocol.dumps(message)]
    body = struct.pack(f"Q{len(frames)}Q", len(frames), *map(len, frames)) + b"".join(frames)
    return struct.pack("Q", len(body)) + body


@pytest.fixture
def impostor(request: pytest.FixtureRequest) -> Iterator[int]:
    """Return the port of a server that answers Dask's handshake and identity question as a
    scheduler would, then, on every connection, says nothing more (param "silent") or sends a frame
    length of 8 GB ("huge")."""
    hello = _message({"compression": None, "python": tuple(sys.version_info)[:3], "pickle-protocol": 5})
    identity = _message(
        {"type": "Scheduler", "id": "Scheduler-x", "address": "tcp://127.0.0.1:1", "workers": {}}
    )
    tail = struct.pack("Q", 8 << 30) if request.param == "huge" else b""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    stop = threading.Event()

    def answer(conn: socket.socket) -> None:
        with conn:
            try:
                conn.sendall(hello)
                conn.recv(65536)
                conn.sendall(identity + tail)
                stop.wait(30)
            except OSError:
                pass

    def serve() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            threading.Thread(target=answer, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join(5)
    server.close()


@pytest.mark.parametrize("impostor", ["silent", pytest.param("huge", marks=pytest.mark.slow)], indirect=True)
def test_a_server_that_imitates_the_handshake_is_one_line(impostor: int, tmp_path: Path) -> None:
    out = tmp_path / "out"
    started = time.monotonic()
    done = pnp(*ANALYSE, "--json", "--out", str(out), "--scheduler", f"127.0.0.1:{impostor}")
    one_line(done, 2, f"cannot connect to the Dask scheduler at tcp://127.0.0.1:{impostor}")
    assert "does not answer as a Dask scheduler does" in done.stderr or "no answer within" in done.stderr
    # Dask's connection time limit is 5 s and its close is not waited for; the rest is starting
    # Python and importing Dask on a busy machine (a client left waiting would take 10 s more)
    assert time.monotonic() - started < 60
    assert not out.exists()


@pytest.mark.parametrize("liar", ["terabyte"], indirect=True)
def test_a_balanced_build_asking_a_liar_writes_nothing(liar: int, tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = pnp(
        "build", "aggression", "--seeds", "1-3", "--balanced", "--scheduler", f"127.0.0.1:{liar}",
        "--out", str(out), "-q",
    )  # fmt: skip
    one_line(done, 2, "is not a Dask scheduler")
    assert not out.exists()


# a name server that never answers: every look-up of a host name takes a minute
SLOW_NAMES = """
import socket, time
_look_up = socket.getaddrinfo
def slow(*args, **kwargs):
    time.sleep(60)
    return _look_up(*args, **kwargs)
socket.getaddrinfo = slow
"""


@pytest.mark.slow  # 5 s of waiting
def test_a_host_name_that_never_resolves_is_not_waited_for(tmp_path: Path) -> None:
    started = time.monotonic()
    done = pnp(*ANALYSE, "--scheduler", "scheduler.example:8786", prelude=SLOW_NAMES)
    one_line(done, 2, "no Dask scheduler answers at tcp://scheduler.example:8786 within 5 s")
    assert time.monotonic() - started < 45  # the look-up alone would take 60 s


def test_an_unknown_host_name_is_one_line(tmp_path: Path) -> None:
    done = pnp(*ANALYSE, "--scheduler", "no-such-host.invalid")
    one_line(done, 2, "no Dask scheduler answers at tcp://no-such-host.invalid:8786")


@pytest.mark.parametrize("address", ["tls://127.0.0.1:1", "tls://host", "TLS://host:8786", "ws://host:1"])
def test_tls_and_other_protocols_are_refused(address: str, tmp_path: Path) -> None:
    done = pnp_here(*ANALYSE, "--scheduler", address)  # refused before any connection: in-process
    words = "tls:// is not supported" if address.startswith("tls") else "--scheduler takes"
    one_line(done, 2, words)


# A scheduler with no worker of its own, in a process of its own, that prints its address and
# stops when its input closes; the test starts a worker process beside it and kills it mid-analysis.
SCHEDULER = """
import sys
from distributed import LocalCluster
kw = dict(processes=False, protocol="tcp", host="127.0.0.1", dashboard_address=":0")
print(LocalCluster(n_workers=0, **kw).scheduler_address, flush=True)
sys.stdin.read()
"""


@pytest.fixture
def lonely_scheduler() -> Iterator[str]:
    """Return the address of a Dask scheduler without workers (in a process of its own)."""
    process = subprocess.Popen(
        [sys.executable, "-c", SCHEDULER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert process.stdout is not None and process.stdin is not None
    yield process.stdout.readline().strip()
    process.stdin.close()
    process.wait(timeout=60)


def test_workers_that_die_mid_analysis_are_not_waited_for(lonely_scheduler: str, tmp_path: Path) -> None:
    import distributed  # imported where used (slow tests): the fast tier's test needs no Dask

    worker = subprocess.Popen(
        [
            sys.executable, "-m", "distributed.cli.dask_worker", lonely_scheduler,
            "--nthreads", "1", "--no-nanny", "--no-dashboard",
        ],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
    )  # fmt: skip
    out = tmp_path / "out"
    # hours of games on one thread: the analysis is still running when its only worker is killed
    args = ["analyse", "aggression", "--seeds", "1-2000", "--games", "2000", "-q", "--json"]
    code = (
        "import sys\nfrom generator.workers import cluster\ncluster.LOST_SECONDS = 3.0\n"
        "cluster.CONNECT_TIMEOUT = 30.0\nfrom generator.cli import main\n"
        "sys.argv = ['pnp', *sys.argv[1:]]\nmain()"
    )
    analysis = subprocess.Popen(
        [sys.executable, "-c", code, *args, "--out", str(out), "--scheduler", lonely_scheduler],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        with distributed.Client(lonely_scheduler, set_as_default=False, timeout=60) as client:
            deadline = time.monotonic() + 120
            while not any(client.processing().values()):  # the worker has begun a batch
                assert analysis.poll() is None, analysis.communicate()
                assert time.monotonic() < deadline, "the analysis never reached the worker"
                time.sleep(0.2)
        worker.send_signal(signal.SIGKILL)
        stdout, stderr = analysis.communicate(timeout=120)
    finally:
        for process in (worker, analysis):
            if process.poll() is None:
                process.kill()
                process.wait()
    assert analysis.returncode == 2, stderr
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1, stderr
    assert "has had no worker" in stderr and lonely_scheduler in stderr, stderr
    assert stdout == "" and not out.exists()


# A scheduler with one worker thread of its own, in one process that prints its address and stops
# when its input closes; the test kills that process (scheduler and worker at once) mid-analysis.
CLUSTER = """
import sys
from distributed import LocalCluster
kw = dict(processes=False, protocol="tcp", host="127.0.0.1", dashboard_address=":0")
print(LocalCluster(n_workers=1, threads_per_worker=1, **kw).scheduler_address, flush=True)
sys.stdin.read()
"""


@pytest.mark.slow  # three processes, Dask in each
def test_a_scheduler_that_dies_mid_analysis_is_one_line(tmp_path: Path) -> None:
    import distributed  # imported where used (slow tests): the fast tier's test needs no Dask

    scheduler = subprocess.Popen(
        [sys.executable, "-c", CLUSTER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert scheduler.stdout is not None
    address = scheduler.stdout.readline().strip()
    out = tmp_path / "out"
    # hours of games on one thread: the analysis is still running when its scheduler is killed
    args = ["analyse", "aggression", "--seeds", "1-2000", "--games", "2000", "-q", "--json"]
    analysis = subprocess.Popen(
        [sys.executable, "-m", "generator", *args, "--out", str(out), "--scheduler", address],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        with distributed.Client(address, set_as_default=False, timeout=60) as client:
            deadline = time.monotonic() + 120
            while not any(client.processing().values()):  # the worker has begun a batch
                assert analysis.poll() is None, analysis.communicate()
                assert time.monotonic() < deadline, "the analysis never reached the worker"
                time.sleep(0.2)
        scheduler.kill()
        killed = time.monotonic()
        stdout, stderr = analysis.communicate(timeout=120)
    finally:
        for process in (scheduler, analysis):
            if process.poll() is None:
                process.kill()
                process.wait()
    assert analysis.returncode == 2, stderr
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1, stderr
    assert address in stderr and ("stopped answering" in stderr or "has had no worker" in stderr), stderr
    assert stdout == "" and not out.exists()
    # given up on at once or after LOST_SECONDS (30 s), never waited for for ever
    assert time.monotonic() - killed < 90
