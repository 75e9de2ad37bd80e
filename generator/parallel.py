"""Running independent build tasks on several cores: worker processes, results in task order.

A task is a picklable callable with its arguments; each runs in a worker process forked from
this one (so definitions and imported modules are already there) and returns a small value.
Results come back in the order the tasks were given, whatever order they finish in, so what a
build reports and writes last (the contact sheet) does not depend on timing.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from typing import Any

Task = tuple[Callable[..., Any], tuple[Any, ...]]


def default_jobs() -> int:
    """Return the number of worker processes a build uses by default: the cores it may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def run_tasks(tasks: Sequence[Task], jobs: int, done: Callable[[int], None] | None = None) -> list[Any]:
    """Run the tasks on up to ``jobs`` processes; return their results in task order.

    ``done(i)`` is called in this process as task i finishes. With one job or one task they run
    here, one after another. The first task to fail stops the rest and its error is raised."""
    results: list[Any] = [None] * len(tasks)
    if jobs <= 1 or len(tasks) <= 1:
        for i, (fn, args) in enumerate(tasks):
            results[i] = fn(*args)
            if done:
                done(i)
        return results
    from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=context) as pool:
        futures = {pool.submit(fn, *args): i for i, (fn, args) in enumerate(tasks)}
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_EXCEPTION)
            for future in sorted(finished, key=lambda f: futures[f]):
                if future.exception() is not None:
                    for other in pending:
                        other.cancel()
                    raise future.exception()  # type: ignore[misc]
                results[futures[future]] = future.result()
                if done:
                    done(futures[future])
    return results
