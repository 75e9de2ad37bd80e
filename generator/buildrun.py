"""Turning build options into builds: checks every option first, then builds each kit (and
seed batches), so a bad option fails before anything is written.

Kits, and chunks of a batch's seeds, are independent tasks run on ``jobs`` worker processes
(``generator.parallel``); every task writes its own folder, so the files are the same whatever the
number of jobs. The home page (index.html) is written once, at the end."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from generator.booklet.render import check_language, languages
from generator.build import (
    BuildRequest,
    build_game,
    check_options,
    effective_seed,
    has_board_with_squares,
    kit_folder,
    parse_seed_range,
    read_manifests,
    takes_seed,
    write_batch,
    write_index,
)
from generator.components.base import Options
from generator.errors import UsageError
from generator.files import output_folder
from generator.imposition import find_paper
from generator.languages import LANGUAGES, language_codes
from generator.loader import find_definition, load_all
from generator.numbers import parse_decimal, parse_natural
from generator.parallel import default_jobs, run_tasks
from generator.render import FORMATS
from generator.seeding import check_seed
from generator.units import parse_length


def _offset(text: str | None) -> tuple[float, float]:
    if not text:
        return (0.0, 0.0)
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        dx, dy = (parse_decimal(p.strip().removesuffix("mm").strip()) for p in parts)
    except ValueError:
        raise UsageError(f"--duplex-offset must be 'dx,dy' in mm such as '1.5,-0.5', got {text!r}") from None
    if abs(dx) > MAX_OFFSET or abs(dy) > MAX_OFFSET:
        raise UsageError(f"--duplex-offset: a printer is never more than {MAX_OFFSET:g} mm off, got {text!r}")
    return (dx, dy)


MAX_OFFSET = 20.0  # mm
MAX_BLEED = 6.35  # mm (a quarter inch): the most a print shop asks for; the page margin holds it
PNG_DPI = (72, 600)  # the resolutions --png takes


def parse_bleed(text: str | None) -> float:
    """Return the bleed in mm of a --bleed value such as '3mm' (0 when not given); raise
    UsageError for anything but a length above 0 and at most MAX_BLEED."""
    if text is None:
        return 0.0
    try:
        value = parse_length(text)
    except ValueError as exc:
        raise UsageError(f"--bleed: {exc}") from None
    if not 0 < value <= MAX_BLEED:
        raise UsageError(f"--bleed must be more than 0 and at most {MAX_BLEED:g} mm, got {text}")
    return value


def parse_png(text: str | None) -> int | None:
    """Return the resolution of a --png value such as '300' (None when not given); raise
    UsageError for anything but a whole number of dots per inch within PNG_DPI."""
    if text is None:
        return None
    lo, hi = PNG_DPI
    try:
        dpi = parse_natural(text.strip(), 4)
    except ValueError:
        dpi = -1
    if not lo <= dpi <= hi:
        raise UsageError(f"--png takes a resolution in dpi from {lo} to {hi}, such as 300, got {text!r}")
    return dpi


def run_build(
    games: list[str],
    all_games: bool,
    paper: str,
    formats: list[str],
    out: str,
    seed: str | None,
    seeds: str | None,
    variants: list[str],
    lang: str,
    fit: bool,
    cell_size: str | None,
    ink_saver: bool,
    duplex_offset: str | None,
    layouts: str | None,
    single_sided: bool = False,
    progress_factory: Callable[[int], Any] | None = None,
    jobs: int | None = None,
    bleed: str | None = None,
    cmyk: bool = False,
    png: str | None = None,
) -> str:
    """Build the requested kits; return a one-line summary. Raise project errors on bad input."""
    folder = layouts or None  # None: the built-in games
    if not out.strip():
        raise UsageError("--out needs a folder name")
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {jobs}")
    if not games and not all_games:
        raise UsageError("name at least one game, or use --all (see `pnp games`)")
    if games and all_games:
        raise UsageError("name games or use --all, not both")
    find_paper(paper)
    if not formats:
        raise UsageError("--format needs at least one of pdf, svg")
    for fmt in formats:
        if fmt not in FORMATS:
            raise UsageError(f"unknown format {fmt!r} (formats: {', '.join(FORMATS)})")
    if seed is not None and seeds is not None:
        raise UsageError("use --seed or --seeds, not both")
    seed_value = None if seed is None else check_seed(seed)  # a bad seed is a usage error (exit 2)
    seed_list = parse_seed_range(seeds) if seeds is not None else None
    size = None
    if cell_size is not None:
        try:
            size = parse_length(cell_size)
        except ValueError as exc:
            raise UsageError(f"--cell-size: {exc}") from None
        if size <= 0 or size > 100:
            raise UsageError(f"--cell-size must be between 0 and 100 mm, got {cell_size}")
    options = Options(
        fit=fit,
        ink_saver=ink_saver,
        duplex_offset=_offset(duplex_offset),
        cell_size=size,
        lang=lang,
        single_sided=single_sided,
        bleed=parse_bleed(bleed),
        cmyk=cmyk,
        png_dpi=parse_png(png),
    )
    if options.png_dpi is not None:
        from generator.render.png import check_rasteriser

        check_rasteriser()
    if lang not in LANGUAGES:
        raise UsageError(f"unknown language {lang!r} (languages: {language_codes()})")
    definitions = load_all(folder, lang) if all_games else [find_definition(g, folder, lang) for g in games]
    for d in definitions:
        if not all_games:
            check_language(d, lang)
        if (seed_list is not None or seed_value is not None) and not takes_seed(d) and not all_games:
            raise UsageError(f"{d.id} has no seeded board; --seed and --seeds apply to seeded games")
        if size is not None and not all_games and not has_board_with_squares(d):
            raise UsageError(
                f"{d.id} has no board with squares; --cell-size applies to grid boards, point boards and tracks"
            )
    if all_games:
        known = {v for d in definitions for v in d.game["variants"]}
        for v in variants:
            if v not in known:
                raise UsageError(
                    f"no game has a variant {v!r} (variants: {', '.join(sorted(known)) or 'none'})"
                )
    requests = []
    for d in definitions:
        # with --all, a game without a booklet in the language gets its English one, and a game
        # without a board with squares ignores --cell-size
        game_options = options if lang in languages(d) else replace(options, lang="en")
        if size is not None and not has_board_with_squares(d):
            game_options = replace(game_options, cell_size=None)
        game_variants = (
            frozenset(v for v in variants if v in d.game["variants"]) if all_games else frozenset(variants)
        )
        request = BuildRequest(
            out=out,
            paper=paper,
            formats=tuple(formats),
            seed=seed_value if takes_seed(d) else None,
            variants=game_variants,
            options=game_options,
        )
        check_options(d, request)  # every kit's options checked before any is written
        requests.append((d, request))
    batched = seed_list is not None
    tasks: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
    labels: list[str] = []
    built = 0
    for d, request in requests:
        if not (batched and takes_seed(d)):
            tasks.append((_build_kit, (d, request)))
            labels.append(d.id)
            built += 1
            continue
        assert seed_list is not None
        first = seed_list[0]
        tasks.append((_build_kit, (d, replace(request, seed=first))))
        labels.append(f"{d.id} seed {first}")
        tasks.append((_write_maps, (d, request, seed_list)))
        labels.append(f"{d.id}: all boards in one PDF")
        shared = kit_folder(d, effective_seed(d, first), request.variants)
        rest = seed_list[1:]
        step = max(1, -(-len(rest) // (4 * jobs)))
        for at in range(0, len(rest), step):
            chunk = rest[at : at + step]
            tasks.append((_build_seeds, (d, request, chunk, shared)))
            labels.append(f"{d.id} seeds {chunk[0]}-{chunk[-1]}")
        built += len(seed_list)
    progress = progress_factory(len(tasks)) if progress_factory else None
    if jobs > 1 and len(tasks) > 1:
        _warm_up()
    results = run_tasks(tasks, jobs, (lambda i: progress.step(labels[i])) if progress else None)
    files = sum(results)
    with output_folder(out):
        write_index(out)
        _, problems = read_manifests(out)
    if progress:
        progress.close()
    return "\n".join([f"built {built} kit(s), {files} files, in {out}"] + [f"warning: {p}" for p in problems])


def _warm_up() -> None:
    """Load the writers, the booklet typesetter and the fonts here once, so that the worker
    processes forked from this one start with them instead of each loading its own."""
    import generator.booklet.layout
    import generator.render.pdf
    import generator.render.svg  # noqa: F401
    from generator.fonts import PDF_NAMES, pdf_font

    for font in PDF_NAMES:
        pdf_font(font)


def _build_kit(definition: Any, request: BuildRequest) -> int:
    """Build one whole kit; return the number of files written (a task for run_tasks)."""
    return len(build_game(definition, request))


def _build_seeds(definition: Any, request: BuildRequest, seeds: list[int], shared: str) -> int:
    """Build the seeded parts of a batch's later seeds; return the number of files written."""
    return sum(len(build_game(definition, replace(request, seed=s), True, shared)) for s in seeds)


def _write_maps(definition: Any, request: BuildRequest, seeds: list[int]) -> int:
    """Write the batch's one PDF of every seed's board; return 1, the files written."""
    write_batch(definition, request, seeds)
    return 1
