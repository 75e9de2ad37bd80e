"""Running independent tasks on a Dask cluster (``--scheduler ADDRESS``), results in task order.

The same tasks as ``generator.workers.parallel.run_tasks`` (a picklable module-level callable with its
arguments) are given to the workers of a running Dask scheduler instead of local processes. A
task's result depends only on its arguments, so the results, put back in task order, are the
ones a local run gives. Before any task is sent, every worker (and the scheduler, which reads the
task graph) must run the same pnp as this process: its version and a fingerprint of its code and
game data.

Dask is the optional ``dask`` extra (``pip install 'pnp-kits[dask]'``); ``distributed`` is imported
here only, and only when a cluster is used, so nothing else pays for it.
"""

from __future__ import annotations

import functools
import os
import pickle
import re
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from generator.foundation.errors import PnpError, UsageError

Task = tuple[Callable[..., Any], tuple[Any, ...]]

INSTALL = "pip install 'pnp-kits[dask]'"
#: Seconds to reach the scheduler, and to wait for its first worker, before giving up.
CONNECT_TIMEOUT = 5.0
DEFAULT_PORT = 8786
#: Batches of tasks sent for each thread of the cluster: enough that a slow worker or a slow seed
#: does not hold up the end, few enough that Dask's own cost per task stays small.
BATCHES_PER_THREAD = 8
#: The largest message the handshake reads from the address (a scheduler's identity is a few
#: kilobytes, a few hundred for each worker): a length read from the wire is never trusted further.
MAX_HANDSHAKE_BYTES = 4 << 20
#: Seconds between looks at the cluster while the work runs, and how long it may have no worker
#: (all of them died or left) or no answer from its scheduler before the analysis gives up.
POLL_SECONDS = 1.0
LOST_SECONDS = 30.0
#: Seconds the scheduler may take to answer for its workers (each works out pnp's fingerprint)
#: before the cluster is given up on, and the most a closing client is waited for.
ANSWER_SECONDS = 30.0
CLOSE_SECONDS = 2.0
_ADDRESS = re.compile(r"^(?:([a-z0-9+.-]+)://)?([A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])(?::([0-9]{1,5}))?$")


class ClusterError(PnpError):
    """A Dask cluster that cannot run the work: unreachable, without workers, or with workers that
    run another pnp (or none)."""

    exit_code = 2


class DaskMissing(UsageError):
    """A scheduler was named but the optional ``distributed`` package is not installed."""


def check_address(text: str) -> str:
    """Return a scheduler address, ``[tcp://]HOST[:PORT]``, in the form Dask takes
    (``tcp://HOST:PORT``, port 8786 unless given); raise UsageError for anything else, ``tls://``
    included (pnp has no certificate options: reach a remote scheduler over an SSH tunnel or a
    private network)."""
    match = _ADDRESS.match(text.strip())
    port = int(match.group(3)) if match and match.group(3) else DEFAULT_PORT
    if match and match.group(1) == "tls":
        raise UsageError(
            f"--scheduler {text.strip()[:80]!r}: tls:// is not supported (pnp has no certificate "
            "options); give a tcp:// address, over an SSH tunnel or a private network"
        )
    if not match or match.group(1) not in (None, "tcp") or not 0 < port < 65536:
        raise UsageError(
            f"--scheduler takes a Dask scheduler's address such as tcp://host:8786, got {text[:80]!r}"
        )
    return f"tcp://{match.group(2)}:{port}"


def check_dask() -> None:
    """Raise DaskMissing (saying how to install it) when ``distributed`` cannot be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise DaskMissing(f"--scheduler needs Dask, which is not installed: {INSTALL}") from None


@functools.cache
def code_fingerprint() -> str:
    """Return this pnp's version and a digest of its Python code and game data (the JSON files
    beside it, such as a board's published layout), as ``version+digest``."""
    import hashlib

    from generator import __version__

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the whole package
    digest = hashlib.sha256()
    for folder, _, names in sorted(os.walk(root)):
        for name in sorted(n for n in names if n.endswith((".py", ".json"))):
            path = os.path.join(folder, name)
            digest.update(os.path.relpath(path, root).replace(os.sep, "/").encode() + b"\0")
            with open(path, "rb") as handle:
                digest.update(handle.read() + b"\0")
    return f"{__version__}+{digest.hexdigest()[:16]}"


def run_tasks(address: str, tasks: Sequence[Task], done: Callable[[int], None] | None = None) -> list[Any]:
    """Run the tasks on the workers of the Dask scheduler at ``address``; return their results in
    task order.

    ``done(i)`` is called in this process as task i's result arrives. The first task to fail
    stops the rest and its error is raised. Raise DaskMissing without ``distributed``, and
    ClusterError when the scheduler cannot be reached in CONNECT_TIMEOUT seconds, has no worker,
    or runs another pnp than this process (or none)."""
    check_dask()
    import distributed

    results: list[Any] = [None] * len(tasks)
    with _quiet(), _client(distributed, address) as client:
        threads = _check_cluster(client, address)
        batches = _batches(len(tasks), threads)
        futures = [client.submit(_run_batch, [tasks[i] for i in batch], pure=False) for batch in batches]
        order = {future.key: batch for future, batch in zip(futures, batches)}
        try:
            _collect(distributed, client, address, futures, order, results, done)
        finally:
            left = [f for f in futures if not f.done()]
            if left:
                with suppress(Exception):  # the scheduler may be gone: nothing left to stop then
                    client.cancel(left)
    return results


def _collect(
    distributed: Any,
    client: Any,
    address: str,
    futures: list[Any],
    order: dict[Any, range],
    results: list[Any],
    done: Callable[[int], None] | None,
) -> None:
    """Put each batch's results in place as it finishes, looking at the cluster every
    POLL_SECONDS meanwhile; raise ClusterError when a worker died running a task too often (Dask's
    KilledWorker), when the cluster has had no worker, or its scheduler has not answered, for
    LOST_SECONDS (a cluster whose workers all died would otherwise be waited for for ever)."""
    arriving = distributed.as_completed(futures, loop=client.loop)
    left = len(futures)
    last_seen = next_look = time.monotonic()
    while left:
        finished = arriving.next_batch(block=False) if arriving.has_ready() else []
        if not finished:
            time.sleep(0.02)
        for future in finished:
            left -= 1
            if future.status == "error":
                error = future.exception()
                if isinstance(error, distributed.KilledWorker):
                    raise ClusterError(f"a Dask worker at {address} died while running the tasks") from None
                raise error
            if future.status != "finished" and client.status != "running":
                raise ClusterError(
                    f"the Dask scheduler at {address} stopped answering mid-analysis "
                    f"({left + 1} of {len(futures)} batches of tasks left); nothing was written"
                )
            if future.status != "finished":
                raise ClusterError(f"the Dask cluster at {address} dropped the work ({future.status})")
            for i, result in zip(order[future.key], future.result()):
                results[i] = result
                if done:
                    done(i)
        now = time.monotonic()
        if not left or now < next_look:
            continue
        next_look = now + POLL_SECONDS
        if _has_workers(client):
            last_seen = time.monotonic()
        elif time.monotonic() - last_seen > LOST_SECONDS:
            raise ClusterError(
                f"the Dask cluster at {address} has had no worker (or its scheduler no answer) for "
                f"{LOST_SECONDS:g} s with {left} of {len(futures)} batches of tasks left: "
                "its workers died or left; nothing was written"
            )


def _has_workers(client: Any) -> bool:
    """Return whether the client is connected and its scheduler has a worker (asked with a time
    limit: a scheduler that is gone does not answer)."""
    if client.status != "running":
        return False
    try:
        return bool(client.nthreads(callback_timeout=CONNECT_TIMEOUT))
    except Exception:  # any failure to answer is no answer
        return False


def _batches(count: int, threads: int) -> list[range]:
    """Return the task numbers 0..count-1 cut into consecutive batches, about BATCHES_PER_THREAD
    for each of the cluster's threads (a Dask task costs milliseconds of the scheduler's and the
    worker's time, more than one seed of a quick game)."""
    size = max(1, -(-count // (max(1, threads) * BATCHES_PER_THREAD)))
    return [range(start, min(start + size, count)) for start in range(0, count, size)]


def _run_batch(tasks: Sequence[Task]) -> list[Any]:
    """Return the results of a batch of tasks, run one after another (on a worker)."""
    return [fn(*args) for fn, args in tasks]


@contextmanager
def _client(distributed: Any, address: str) -> Iterator[Any]:
    """Yield a client connected to the scheduler; raise ClusterError when no Dask scheduler
    answers at the address within CONNECT_TIMEOUT seconds, or what answers the handshake does not
    go on as a scheduler does. The client is made, and closed, on a thread of its own that is
    waited for at most CONNECT_TIMEOUT (CLOSE_SECONDS) seconds: a server that imitates the
    handshake and then says nothing, or anything else, never holds the command."""
    kind = _identity(distributed, address)
    if kind != "Scheduler":
        raise ClusterError(
            f"{address} is a Dask {kind.lower()}, not a scheduler: give the scheduler's address"
        )
    _silence_dask_finalizers()
    made: list[Any] = []
    failed: list[str] = []

    def connect() -> None:
        try:
            made.append(distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False))
        except Exception as exc:  # it answered the handshake, then failed: said in one line below
            failed.append(_reason(exc))
            partial = _client_of(distributed, exc)
            del exc
            if partial is not None:
                _close(partial)

    thread = threading.Thread(target=connect, name="pnp-dask-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_TIMEOUT + CLOSE_SECONDS)
    if not made:
        why = failed[0] if failed else f"no answer within {CONNECT_TIMEOUT:g} s"
        if failed and why in ("AssertionError", "KeyError", "TypeError", "IndexError"):
            why = "it does not answer as a Dask scheduler does"
        raise ClusterError(f"cannot connect to the Dask scheduler at {address} ({why})")
    client = made.pop()
    try:
        yield client
    finally:
        _close(client)


def _close(client: Any) -> None:
    """Close the client on a thread of its own, waiting at most CLOSE_SECONDS (a scheduler that
    stopped answering would keep Dask's own close waiting twice the connection timeout)."""

    def close() -> None:
        with suppress(Exception):
            client.close()

    thread = threading.Thread(target=close, name="pnp-dask-close", daemon=True)
    thread.start()
    thread.join(CLOSE_SECONDS)
    if thread.is_alive():
        # Dask's close is still waiting for an answer that will not come: mark the client closed
        # so that Python freeing it (at once or at exit) does not start waiting again.
        client.status = "closed"


def _client_of(distributed: Any, exc: BaseException) -> Any:
    """Return the client whose making raised ``exc`` (found in the failed call's frames), or None."""
    tb = exc.__traceback__
    while tb is not None:
        candidate = tb.tb_frame.f_locals.get("self")
        if isinstance(candidate, distributed.Client):
            return candidate
        tb = tb.tb_next
    return None


def _silence_dask_finalizers() -> None:
    """Keep what Dask's objects raise while Python frees them (a client whose connection failed
    closing itself, at once or at exit) off the terminal: pnp has said what went wrong in one line.
    Any other object's such error is reported as before."""
    previous = sys.unraisablehook
    if getattr(previous, "pnp_dask", False):
        return

    def hook(unraisable: Any) -> None:
        where = getattr(unraisable.object, "__module__", "") or ""
        if not str(where).startswith(("distributed", "tornado")):
            previous(unraisable)

    hook.pnp_dask = True  # type: ignore[attr-defined]
    sys.unraisablehook = hook


def _identity(distributed: Any, address: str) -> str:
    """Return what answers at the address ("Scheduler", "Worker", ...), asked over a plain socket
    with a hard time limit and a size limit on what is read (a server that accepts and never
    answers, or answers with anything but Dask's protocol, is never waited for or believed);
    raise ClusterError when nothing Dask answers in CONNECT_TIMEOUT seconds."""
    host, port = address.removeprefix("tcp://").rsplit(":", 1)
    host = host.strip("[]")
    deadline = time.monotonic() + CONNECT_TIMEOUT
    try:
        with _connect(host, int(port), deadline) as sock:
            hello = {
                "compression": None,
                "python": tuple(sys.version_info)[:3],
                "pickle-protocol": pickle.HIGHEST_PROTOCOL,
            }
            _send(distributed, sock, hello)
            _receive(distributed, sock, deadline, address)
            _send(distributed, sock, {"op": "identity", "reply": True})
            reply = _receive(distributed, sock, deadline, address)
    except TimeoutError:
        raise ClusterError(f"no Dask scheduler answers at {address} within {CONNECT_TIMEOUT:g} s") from None
    except OSError as exc:
        raise ClusterError(
            f"no Dask scheduler answers at {address} within {CONNECT_TIMEOUT:g} s ({_reason(exc)})"
        ) from None
    if not isinstance(reply, dict) or not isinstance(reply.get("type"), str):
        raise ClusterError(f"what answers at {address} is not a Dask scheduler")
    return str(reply["type"])


def _connect(host: str, port: int, deadline: float) -> socket.socket:
    """Return a socket connected to the host by the deadline: its name looked up on a thread of its
    own (a name server that never answers is not waited for; the lookup has no time limit of its
    own), then each address it has tried in turn; raise TimeoutError after the deadline, OSError
    when the name is unknown or nothing accepts."""
    found: list[Any] = []

    def look_up() -> None:
        try:
            found.append(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except (OSError, UnicodeError) as exc:
            found.append(OSError(f"unknown host: {_reason(exc)}"))

    thread = threading.Thread(target=look_up, name="pnp-dask-lookup", daemon=True)
    thread.start()
    thread.join(max(0.0, deadline - time.monotonic()))
    if not found:
        raise TimeoutError
    if isinstance(found[0], OSError):
        raise found[0]
    error: OSError = OSError(f"no address for {host}")
    for family, kind, proto, _, where in found[0]:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        sock = socket.socket(family, kind, proto)
        try:
            sock.settimeout(remaining)
            sock.connect(where)
            return sock
        except OSError as exc:
            sock.close()
            if isinstance(exc, TimeoutError):
                raise
            error = exc
    raise error


def _send(distributed: Any, sock: socket.socket, message: dict[str, Any]) -> None:
    """Write one message as Dask's TCP comm frames it: its length, the frame lengths, the frames."""
    frames = [bytes(frame) for frame in distributed.protocol.dumps(message)]
    body = struct.pack(f"Q{len(frames)}Q", len(frames), *map(len, frames)) + b"".join(frames)
    sock.sendall(struct.pack("Q", len(body)) + body)


def _receive(distributed: Any, sock: socket.socket, deadline: float, address: str) -> Any:
    """Return one message read as Dask's TCP comm frames it, its frames' lengths checked against
    MAX_HANDSHAKE_BYTES and each other before anything is read or made of them (pickled values are
    left unread); raise ClusterError for anything else."""
    not_dask = ClusterError(f"what answers at {address} is not a Dask scheduler")
    (total,) = struct.unpack("Q", _read_exactly(sock, 8, deadline))
    if not 16 <= total <= MAX_HANDSHAKE_BYTES:
        raise not_dask
    body = _read_exactly(sock, total, deadline)
    (count,) = struct.unpack_from("Q", body)
    start = 8 * (count + 1)
    if not 1 <= count <= 64 or start > total:
        raise not_dask
    lengths = struct.unpack_from(f"{count}Q", body, 8)
    if start + sum(lengths) != total:
        raise not_dask
    frames = []
    for length in lengths:
        frames.append(body[start : start + length])
        start += length
    try:
        return distributed.protocol.loads(frames, deserialize=False)
    except Exception:  # whatever the bytes make the decoder raise
        raise not_dask from None


def _read_exactly(sock: socket.socket, count: int, deadline: float) -> bytes:
    """Return the next ``count`` bytes from the socket by the deadline; raise TimeoutError after
    it, ConnectionError when the other end closes first."""
    chunks: list[bytes] = []
    left = count
    while left:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        sock.settimeout(remaining)
        chunk = sock.recv(min(left, 1 << 16))
        if not chunk:
            raise ConnectionError("the connection was closed")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _check_cluster(client: Any, address: str) -> int:
    """Return the number of threads of the cluster's workers; raise ClusterError unless the
    scheduler has workers and it and they all run this pnp."""
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError):
        raise ClusterError(f"the Dask scheduler at {address} has no workers") from None
    except Exception as exc:  # what answers is not a scheduler after all
        raise ClusterError(f"the Dask scheduler at {address} does not answer ({_reason(exc)})") from None
    mine = code_fingerprint()
    try:
        found = client.run(_probe, on_error="return", callback_timeout=ANSWER_SECONDS)
        threads = client.nthreads(callback_timeout=ANSWER_SECONDS)
    except Exception as exc:  # a time limit, or no answer a scheduler would give
        raise ClusterError(
            f"the Dask scheduler at {address} does not answer for its workers ({_reason(exc)})"
        ) from None
    if not isinstance(found, dict) or not isinstance(threads, dict):
        raise ClusterError(f"what answers at {address} is not a Dask scheduler")
    try:
        found["scheduler"] = client.run_on_scheduler(_probe, callback_timeout=ANSWER_SECONDS)
    except Exception as exc:
        found["scheduler"] = exc
    for where, theirs in sorted(found.items(), key=lambda item: item[0] != "scheduler"):
        who = "the scheduler" if where == "scheduler" else f"the worker {where}"
        if isinstance(theirs, BaseException):
            raise ClusterError(
                f"{who} of the Dask cluster at {address} cannot run pnp ({_reason(theirs)}): "
                "install this pnp on the scheduler and every worker"
            )
        if theirs != mine:
            raise ClusterError(
                f"{who} of the Dask cluster at {address} runs pnp {theirs}, this is {mine}: "
                "install this pnp on the scheduler and every worker, so results match a local run"
            )
    return sum(n for n in threads.values() if isinstance(n, int))


def _probe() -> str:
    """Return the code fingerprint where this runs (on the scheduler or a worker)."""
    return code_fingerprint()


def _reason(exc: BaseException) -> str:
    """Return an exception as a short phrase on one line."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "..."


@contextmanager
def _quiet() -> Iterator[None]:
    """Keep Dask's log lines and warnings (retries, version notes, undecodable messages, the
    tracebacks of a lost scheduler's reconnection) off the terminal meanwhile: every logger of
    ``distributed`` and ``tornado`` (Dask's configuration gives several their own level and
    handler) is raised above CRITICAL, and put back after."""
    import logging
    import warnings

    names = [
        name
        for name in ["distributed", "tornado", *logging.root.manager.loggerDict]
        if name.split(".")[0] in ("distributed", "tornado")
    ]
    loggers = [logging.getLogger(name) for name in dict.fromkeys(names)]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)  # their critical lines too: pnp says what went wrong
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
