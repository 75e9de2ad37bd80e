"""Carrying out a build plan: each kit (and the chunks of a batch's seeds) built as a task, then
the contact sheet; and the calibration sheet, written through the same writer.

Kits, and chunks of a batch's seeds, are independent tasks run on ``plan.jobs`` worker processes
(``generator.workers.parallel``); every task writes its own folder, so the files are the same whatever the
number of jobs or the order the tasks run in. The kits are handed out longest first: each whole
kit's build time is remembered in pnp's cache folder (``kit-times.json``), so that on two workers
the kit that takes longest does not start last while the other worker waits. The contact sheet is
written once, at the end. The plan was checked when it was made (``generator.kits.plan``): a bad
option fails before anything is written."""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

from generator.foundation.files import atomic_write_text, cache_folder, output_folder
from generator.kits.index import read_manifests, write_index
from generator.kits.kit import build_kit, write_batch, write_pages
from generator.kits.plan import BuildPlan, BuildRequest, GamePlan, KitPlan, make_plan
from generator.workers.parallel import memory_cap, run_tasks


def run_build(request: BuildRequest, progress_factory: Callable[[int], Any] | None = None) -> str:
    """Make the plan of ``pnp build`` for a request and carry it out (a balanced batch narrowed
    to its fair seeds first); return the one-line summary."""
    plan = make_plan(request)
    if plan.band is not None:
        from generator.kits.balance import balance_plan

        plan, _ = balance_plan(plan, plan.band, plan.balance_games, progress_factory)
    return run_plan(plan, progress_factory)


def run_plan(plan: BuildPlan, progress_factory: Callable[[int], Any] | None = None) -> str:
    """Build every kit of the plan, then the contact sheet; return a one-line summary (and one
    line per manifest the contact sheet had to skip)."""
    tasks: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
    labels: list[str] = []
    built = 0
    remembered = _remembered_times() if plan.jobs > 1 else {}
    for game in longest_first(plan.games, remembered):
        kit, seeds = game.kit, game.seeds
        if seeds is None:
            tasks.append((_build_kit, (kit,)))
            labels.append(kit.definition.id)
            built += 1
            continue
        game_id = kit.definition.id
        tasks.append((_build_kit, (kit,)))
        labels.append(f"{game_id} seed {seeds[0]}")
        tasks.append((_write_maps, (kit, seeds)))
        labels.append(f"{game_id}: all boards in one PDF")
        shared = kit.folder
        rest = seeds[1:]
        step = max(1, -(-len(rest) // (4 * plan.jobs)))
        for at in range(0, len(rest), step):
            chunk = rest[at : at + step]
            tasks.append((_build_seeds, (kit, chunk, shared)))
            labels.append(f"{game_id} seeds {chunk[0]}-{chunk[-1]}")
        built += len(seeds)
    progress = progress_factory(len(tasks)) if progress_factory else None
    if plan.jobs > 1 and len(tasks) > 1:
        _warm_up()
    results = run_tasks(tasks, plan.jobs, (lambda i: progress.step(labels[i])) if progress else None)
    files = sum(result[0] if isinstance(result, tuple) else result for result in results)
    timed = dict(result[1] for result in results if isinstance(result, tuple))  # whole kits' times
    if plan.jobs > 1 and timed:
        _remember_times(remembered, timed)
    with output_folder(plan.out):
        write_index(plan.out)
        _, problems = read_manifests(plan.out)
    problems = service_warnings(plan) + problems
    if progress:
        progress.close()
    return "\n".join(
        [f"built {built} kit(s), {files} files, in {plan.out}"] + [f"warning: {p}" for p in problems]
    )


def service_warnings(plan: BuildPlan) -> list[str]:
    """Return one line per kit whose --service export left parts out (the service has no product
    of their size) and one per kit with text or symbols outside the service's safe area, read
    back from each kit's service/<name>/manifest.json."""
    lines: list[str] = []
    if all(game.kit.service is None for game in plan.games):
        return lines  # the exports' module is not loaded for a build without them
    from generator.kits.service import FOLDER, SERVICES, left_out_warning, unsafe_warning

    for game in plan.games:
        kit = game.kit
        if kit.service is None:
            continue
        path = os.path.join(plan.out, kit.folder, FOLDER, kit.service, "manifest.json")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:
                listed = json.load(handle)
            left_out = listed.get("left_out", [])
            if left_out:
                lines.append(left_out_warning(kit.definition.id, SERVICES[kit.service], left_out))
            outside = listed.get("outside_safe", [])
            if outside:  # text or symbols the service's cut may reach
                lines.append(unsafe_warning(kit.definition.id, SERVICES[kit.service], outside))
    return lines


def write_calibration(plan: BuildPlan) -> str:
    """Write the plan's duplex calibration sheet, OUT/calibration-<paper>.pdf; return its path."""
    from generator.printing.calibration import calibration_pages

    path = os.path.join(plan.out, f"calibration-{plan.paper.name}.pdf")
    with output_folder(plan.out):
        write_pages(path, "pdf", calibration_pages(plan.paper), "pnp duplex calibration")
    return path


def _warm_up() -> None:
    """Load the writers, the booklet typesetter and the fonts here once, so that the worker
    processes forked from this one start with them instead of each loading its own."""
    import generator.booklet.layout
    import generator.render.pdf
    import generator.render.svg  # noqa: F401
    from generator.model.fonts import PDF_NAMES, pdf_font

    for font in PDF_NAMES:
        pdf_font(font)


def _build_kit(kit: KitPlan) -> tuple[int, tuple[str, float]]:
    """Build one whole kit; return the number of files written and the kit's key with the CPU
    seconds it took (a task for run_tasks), within the memory of one task (``memory_cap``)."""
    start = time.process_time()
    with memory_cap(kit.definition.path):
        files = len(build_kit(kit))
    return files, (time_key(kit), round(time.process_time() - start, 3))


#: The file in pnp's cache folder that remembers how long each kit took to build (CPU seconds).
TIMES_FILE = "kit-times.json"
#: The most kits the file remembers (beyond it, only the last build's are kept).
MAX_REMEMBERED = 256


def time_key(kit: KitPlan) -> str:
    """Return the key a kit's build time is remembered by: its definition file and language."""
    return f"{os.path.abspath(kit.definition.path)} {kit.options.lang}"


def longest_first(games: Sequence[GamePlan], times: dict[str, float]) -> list[GamePlan]:
    """Return the games in the order their kits are handed to the workers: those never timed
    first (in plan order), then the others from the longest remembered build to the shortest
    (ties in plan order). The order changes no file, only when each kit starts."""
    order = {id(game): n for n, game in enumerate(games)}

    def rank(game: GamePlan) -> tuple[bool, float, int]:
        seconds = times.get(time_key(game.kit))
        return (seconds is not None, -(seconds or 0.0), order[id(game)])

    return sorted(games, key=rank)


def _times_path() -> str | None:
    """Return the path of the remembered build times, None when pnp has no cache folder."""
    folder = cache_folder()
    return None if folder is None else os.path.join(folder, TIMES_FILE)


def _remembered_times() -> dict[str, float]:
    """Return the remembered build time of each kit by ``time_key``; {} when there is none or the
    file is unreadable (the kits then go in plan order)."""
    path = _times_path()
    if path is None:
        return {}
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        k: float(v)
        for k, v in data.items()
        if isinstance(k, str) and isinstance(v, (int, float)) and math.isfinite(v) and v >= 0
    }


def _remember_times(old: dict[str, float], new: dict[str, float]) -> None:
    """Keep the build times just measured with the others remembered (only the new ones when
    there would be more than MAX_REMEMBERED); a cache that cannot be written is left as it is."""
    path = _times_path()
    if path is None:
        return
    merged = {**old, **new} if len(old) + len(new) <= MAX_REMEMBERED else dict(new)
    if merged == old:
        return
    try:
        atomic_write_text(path, json.dumps(merged, sort_keys=True, indent=0) + "\n")
    except OSError:
        pass


def _build_seeds(kit: KitPlan, seeds: tuple[int, ...], shared: str) -> int:
    """Build the seeded parts of a batch's later seeds; return the number of files written."""
    with memory_cap(kit.definition.path):
        return sum(len(build_kit(kit.for_seed(s), True, shared)) for s in seeds)


def _write_maps(kit: KitPlan, seeds: tuple[int, ...]) -> int:
    """Write the batch's one PDF of every seed's board; return 1, the files written."""
    with memory_cap(kit.definition.path):
        write_batch(kit, seeds)
    return 1
