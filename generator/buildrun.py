"""Turning build options into builds: checks every option first, then builds each kit (and
seed batches), so a bad option fails before anything is written."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from generator.booklet.render import check_language, languages
from generator.build import BuildRequest, build_game, parse_seed_range, takes_seed, write_batch
from generator.components.base import Options
from generator.errors import UsageError
from generator.imposition import find_paper
from generator.languages import LANGUAGES, language_codes
from generator.loader import find_definition, load_all
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
        return (float(parts[0].strip().removesuffix("mm")), float(parts[1].strip().removesuffix("mm")))
    except ValueError:
        raise UsageError(f"--duplex-offset must be 'dx,dy' in mm such as '1.5,-0.5', got {text!r}") from None


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
    progress_factory: Callable[[int], Any] | None = None,
) -> str:
    """Build the requested kits; return a one-line summary. Raise project errors on bad input."""
    folder = layouts or None  # None: the built-in games
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
        fit=fit, ink_saver=ink_saver, duplex_offset=_offset(duplex_offset), cell_size=size, lang=lang
    )
    if lang not in LANGUAGES:
        raise UsageError(f"unknown language {lang!r} (languages: {language_codes()})")
    definitions = load_all(folder, lang) if all_games else [find_definition(g, folder, lang) for g in games]
    for d in definitions:
        if not all_games:
            check_language(d, lang)
        if (seed_list is not None or seed_value is not None) and not takes_seed(d) and not all_games:
            raise UsageError(f"{d.id} has no seeded board; --seed and --seeds apply to seeded games")
    kits = sum(len(seed_list) + 1 if seed_list is not None and takes_seed(d) else 1 for d in definitions)
    progress = progress_factory(kits) if progress_factory else None
    files = built = 0
    for d in definitions:
        # with --all, a game without a booklet in the language gets its English one
        game_options = options if lang in languages(d) else replace(options, lang="en")
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
        batch = seed_list if seed_list is not None and takes_seed(d) else None
        for s in batch if batch is not None else [request.seed]:
            request.seed = s
            files += len(build_game(d, request))
            built += 1
            if progress:
                progress.step(d.id if s is None else f"{d.id} seed {s}")
        if batch is not None:
            write_batch(d, request, batch)
            files += 1
            if progress:
                progress.step(f"{d.id}: all boards in one PDF")
    if progress:
        progress.close()
    return f"built {built} kit(s), {files} files, in {out}"
