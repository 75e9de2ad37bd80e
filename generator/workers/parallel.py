"""Running independent build tasks on several cores: worker processes, results in task order.

A task is a picklable callable with its arguments; each runs in a worker process forked from
this one (so definitions and imported modules are already there) and returns a small value.
Results come back in the order the tasks were given, whatever order they finish in, so what a
build reports and writes last (the contact sheet) does not depend on timing.

Workers end with the process that started them: each asks the kernel to kill it when its parent
dies (``prctl(PR_SET_PDEATHSIG)`` on Linux; elsewhere a thread watches ``os.getppid()``), ignores
Ctrl-C (the main process ends them), and the main process kills them as soon as anything stops it
(an error, Ctrl-C, SIGTERM, SIGHUP). What a killed worker was writing stays in its staging folder,
which the next build into that output folder clears.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from generator.foundation.errors import PnpError

Task = tuple[Callable[..., Any], tuple[Any, ...]]

#: The memory one build task (a kit, a chunk of a batch's seeds, a trial build of ``check``) may
#: take beyond what its process held when it began: a definition within every bound of its own
#: (the schemas, the kit's budget) cannot take the machine's memory. A whole kit takes some 50 MB.
TASK_MEMORY = 1 << 30

#: The signals that stop a command (besides Ctrl-C): ``kill`` and a closed terminal.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Stopped(KeyboardInterrupt):
    """Raised in the main thread when a signal stops the command; a KeyboardInterrupt, so
    whatever cleans up after Ctrl-C cleans up after it too."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    def __str__(self) -> str:
        return (
            "interrupted"
            if self.signum == signal.SIGINT
            else f"stopped by {signal.Signals(self.signum).name}"
        )


class TooMuchMemory(PnpError):
    """A build task went over TASK_MEMORY: the definition asks for more than one kit may take."""

    exit_code = 3


def _data_bytes() -> int | None:
    """Return the data memory this process holds now (Linux's VmData), or None where unknown."""
    try:
        with open("/proc/self/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


@contextlib.contextmanager
def memory_cap(what: str, limit: int | None = None) -> Iterator[None]:
    """While the block runs, cap this process's data memory (``RLIMIT_DATA``) at what it holds
    now plus ``limit`` bytes (TASK_MEMORY unless given), and raise TooMuchMemory, one line naming
    ``what``, when the block runs out of it; the limit is restored after. Where the platform cannot
    say or cap a process's memory, the block runs without a cap."""
    limit = TASK_MEMORY if limit is None else limit
    try:
        import resource
    except ImportError:  # not on a Unix
        yield
        return
    held = _data_bytes()
    if held is None:
        yield
        return
    old = resource.getrlimit(resource.RLIMIT_DATA)
    soft, hard = old
    cap = held + limit
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    if soft != resource.RLIM_INFINITY and soft <= cap:
        cap = soft  # a lower limit already set stays
    try:
        resource.setrlimit(resource.RLIMIT_DATA, (cap, hard))
    except (ValueError, OSError):
        yield
        return
    try:
        yield
    except MemoryError:
        raise TooMuchMemory(
            f"{what}: building it needs more than {limit >> 20} MB of memory, the most one kit may "
            "take: ask for fewer or smaller pieces, pictures or pages"
        ) from None
    finally:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_DATA, old)


def signal_exit(signum: int) -> Callable[[int, Any], None]:
    """Return a signal handler that ends the process at once with one line and 128 + the signal
    (for the moments nothing needs cleaning up: starting, or a second signal while stopping)."""

    def handler(number: int, frame: Any) -> None:
        with contextlib.suppress(Exception):
            os.write(2, f"pnp: error: {Stopped(number)}\n".encode())
        os._exit(128 + number)

    return handler


#: The signal that is stopping the command, once one came (see ``stop_on_signals``).
_CAUGHT: list[int] = []
#: Non-empty while worker processes run: a signal is then only noted, and ``raise_if_stopped``
#: raises it where it is safe (an exception raised in the middle of a fork would be lost).
_DEFERRED: list[bool] = []


def raise_if_stopped() -> None:
    """Raise Stopped if a signal came whose exception was lost (Python drops exceptions raised
    where it cannot pass them on, such as in its own handlers around a fork)."""
    if _CAUGHT:
        raise Stopped(_CAUGHT[0])


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """While the block runs, raise Stopped for the first Ctrl-C, SIGTERM or SIGHUP (so cleanup
    runs), and end the process with one line at a second; restore the handlers after. Does
    nothing outside the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _CAUGHT.clear()

    def handler(signum: int, frame: Any) -> None:
        if _CAUGHT:
            signal_exit(signum)(signum, frame)
        _CAUGHT.append(signum)
        if not _DEFERRED:
            raise Stopped(signum)

    previous: dict[int, Any] = {}
    for signum in (signal.SIGINT, *STOP_SIGNALS):
        with contextlib.suppress(ValueError, OSError):
            previous[signum] = signal.signal(signum, handler)
    try:
        yield
    finally:
        for signum, old in previous.items():
            signal.signal(signum, after_stop(old) if _CAUGHT else old)
    raise_if_stopped()


def after_stop(old: Any) -> Any:
    """Return the handler to leave for a signal once a signal is stopping the command: SIG_IGN
    when the handler it replaced ends the process (the program's own, marked ``ends_process``),
    so the first signal's line and exit code stand; else the handler it replaced. Python sets its
    handlers back to the default as it exits, and a signal landing then would end the process
    with no word and a plain signal status."""
    return signal.SIG_IGN if getattr(old, "ends_process", False) else old


def default_jobs() -> int:
    """Return the number of worker processes a build uses by default: the cores it may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _die_with_parent(parent: int) -> None:
    """Set up a worker (the pool's initializer): ignore Ctrl-C, take the default SIGTERM and
    SIGHUP, and die when the process ``parent`` dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)
    if not _kernel_kills_orphan():
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before the kernel was asked
        os._exit(1)


def _kernel_kills_orphan() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies; return whether it agreed."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        return int(libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    """Poll the parent's id (a thread in each worker where the kernel cannot watch it); end the
    worker when it changes."""
    while os.getppid() == parent:
        time.sleep(0.25)
    os._exit(1)


#: Whether ``run_tasks`` sets the caller's heap aside from the garbage collector while its tasks
#: run. A caller that keeps its own heap frozen for good (the test runner) sets it to False, so
#: that the end of a build does not give that heap back to the collector.
FREEZE_HEAP = True

#: One entry for every ``run_tasks`` call running now (tasks may run tasks).
_RUNNING: list[bool] = []


def run_tasks(tasks: Sequence[Task], jobs: int, done: Callable[[int], None] | None = None) -> list[Any]:
    """Run the tasks on up to ``jobs`` processes; return their results in task order.

    ``done(i)`` is called in this process as task i finishes. With one job or one task they run
    here, one after another. The first task to fail stops the rest and its error is raised; an
    interruption (Ctrl-C, Stopped) kills the workers at once and is raised."""
    results: list[Any] = [None] * len(tasks)
    # what this process holds before the tasks (modules, definitions, the plan) outlives them: set
    # aside from the garbage collector while they run, its collections (and those of the workers
    # forked now) never walk it, nor copy the memory pages it lies on; given back after (by the
    # outermost call, when tasks run tasks)
    outermost = FREEZE_HEAP and not _RUNNING
    if outermost:
        gc.freeze()
    _RUNNING.append(True)
    try:
        if jobs <= 1 or len(tasks) <= 1:
            for i, (fn, args) in enumerate(tasks):
                results[i] = fn(*args)
                if done:
                    done(i)
            return results
        _DEFERRED.append(True)
        try:
            return _run_on_pool(tasks, jobs, done, results)
        finally:
            _DEFERRED.pop()
    finally:
        _RUNNING.pop()
        if outermost:
            gc.unfreeze()


def _run_on_pool(
    tasks: Sequence[Task], jobs: int, done: Callable[[int], None] | None, results: list[Any]
) -> list[Any]:
    """Run the tasks on a pool of workers that die with this process (see ``run_tasks``)."""
    from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    context = multiprocessing.get_context(method)
    pool = ProcessPoolExecutor(
        max_workers=min(jobs, len(tasks)),
        mp_context=context,
        initializer=_die_with_parent,
        initargs=(os.getpid(),),
    )
    try:
        futures = {}
        for i, (fn, args) in enumerate(tasks):
            futures[pool.submit(fn, *args)] = i
            raise_if_stopped()
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, timeout=0.25, return_when=FIRST_EXCEPTION)
            raise_if_stopped()
            for future in sorted(finished, key=lambda f: futures[f]):
                if future.exception() is not None:
                    raise future.exception()  # type: ignore[misc]
                results[futures[future]] = future.result()
                if done:
                    done(futures[future])
    except BaseException:
        _kill_workers(pool)
        raise
    pool.shutdown(wait=True)
    raise_if_stopped()
    return results


def _kill_workers(pool: Any) -> None:
    """End a pool's workers now (the tasks they run are abandoned) and let the pool go."""
    processes = dict(getattr(pool, "_processes", None) or {})
    for process in processes.values():
        with contextlib.suppress(OSError, AttributeError):
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes.values():
        with contextlib.suppress(Exception):
            process.join(2)
