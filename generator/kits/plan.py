"""The build plan: every option of a build checked once and frozen, before anything is written.

``make_plan`` turns a ``BuildRequest`` (the command line's options, strings as typed) into a ``BuildPlan``: the
output folder, the formats, the number of jobs, and for every game a ``GamePlan`` holding a
``KitPlan`` (the definition, its ``Paper`` with the game's margin, the seed it draws, its variants,
its print options with the language and cell size that game takes) and, for a batch, the seeds.
``kit_plan`` makes one kit's plan for the library (``pnp check``, tests, benchmarks) with the same
checks. Builders (``build.kit``, ``build.run``) take the frozen values and never check or change
them; a batch's later seeds are new ``KitPlan`` values made by ``KitPlan.for_seed``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from generator.booklet.template import check_language, languages
from generator.components.base import Context, Options, check_fit
from generator.components.kinds import KINDS, context
from generator.components.specs import CardsSpec, CommonSpec
from generator.definitions.loader import find_definition, load_all, load_languages, reading_once
from generator.definitions.values import ComponentSpec, GameDefinition
from generator.foundation.errors import UsageError
from generator.foundation.languages import LANGUAGES, language_codes
from generator.foundation.numbers import parse_decimal, parse_natural
from generator.foundation.seeding import check_seed
from generator.games import has_rules
from generator.kits.budget import check_plan
from generator.model.units import parse_length
from generator.printing.cut import CUT_MARGIN, CUT_STOCK
from generator.printing.imposition import Paper, find_paper
from generator.render import FORMATS
from generator.workers.cluster import check_address, check_dask
from generator.workers.parallel import default_jobs

MAX_OFFSET = 20.0  # mm
MAX_BLEED = 6.35  # mm (a quarter inch): the most a print shop asks for; the page margin holds it
PNG_DPI = (72, 600)  # the resolutions --png takes
MAX_BATCH = 10000
MAX_CELL = 100.0  # mm, the largest --cell-size
BALANCE_GAMES = 20  # random-bot games played on each seed of a balanced batch, unless told otherwise


@dataclass(frozen=True)
class KitPlan:
    """One kit to build, checked: the game, where and in which formats, on what paper (with the
    game's margin), the seed its board is drawn from (None: a fixed board), variants and options."""

    definition: GameDefinition
    out: str
    formats: tuple[str, ...]
    paper: Paper
    seed: int | None
    variants: frozenset[str]
    options: Options
    parts: bool = False  # every part's own PDF beside kit.pdf (always for parts kit.pdf leaves out)
    # --export tts: a Tabletop Simulator saved object in tts/ (None: none), its images named with
    # this prefix (a hosting address, or "" for file names beside the JSON)
    tts_url: str | None = None
    # --service: files for a print-on-demand service in service/<name>/ (None: none)
    service: str | None = None
    # --export cut: a cut file (cut/sheet-<n>.svg) for every sheet of parts to cut, and the
    # registration marks on those sheets of kit.pdf, whose margin is then at least CUT_MARGIN
    # (the kit's other pages keep the paper's margin)
    cut: bool = False
    # the game's definition in every other language its booklets have (their booklets in those
    # languages are part of the kit), loaded once with the plan; the kit's definition is in the
    # options' language
    translations: tuple[GameDefinition, ...] = ()

    @property
    def folder(self) -> str:
        """Return the kit's folder name: the game id, with -seed<N> for a seeded board and the
        variants' names."""
        return kit_folder(self.definition, self.seed, self.variants)

    def context(self) -> Context:
        """Return the context the kit's components draw in (a new one: it caches game data)."""
        return context(self.definition, self.paper, self.seed, self.variants, self.options)

    @property
    def parts_paper(self) -> Paper:
        """Return the paper the kit's card parts are laid out on: the kit's, with a margin of at
        least CUT_MARGIN under --export cut (clear of the registration marks)."""
        if not self.cut:
            return self.paper
        return self.paper.with_margin(max(self.paper.margin, CUT_MARGIN))

    def stock_papers(self) -> dict[str, Paper] | None:
        """Return the paper each stock's packed sheets are laid out on, where it is not the kit's:
        the card parts on ``parts_paper`` under --export cut (None: every sheet on the kit's)."""
        return {CUT_STOCK: self.parts_paper} if self.cut else None

    def parts_context(self) -> Context:
        """Return the context the kit's card parts are drawn in under --export cut: the kit's own
        (``context``), on ``parts_paper``."""
        return context(self.definition, self.parts_paper, self.seed, self.variants, self.options)

    def for_seed(self, seed: int) -> KitPlan:
        """Return the plan of the same kit with the board drawn from another of the batch's seeds
        (checked when the plan was made)."""
        return replace(self, seed=seed)


@dataclass(frozen=True)
class GamePlan:
    """One game of a build: its kit and, for a batch (``--seeds``), every seed in order (the kit
    is the first seed's; the others share its unseeded parts)."""

    kit: KitPlan
    seeds: tuple[int, ...] | None = None


@dataclass(frozen=True)
class BuildPlan:
    """A whole build: the output folder, the sheet of paper asked for, the worker processes, every
    game's plan in order, and the Dask scheduler's address that analyses a balanced batch's seeds
    (None: the worker processes do; they draw the kits either way)."""

    out: str
    paper: Paper
    jobs: int
    games: tuple[GamePlan, ...] = ()
    scheduler: str | None = None
    # a balanced batch (--balanced): the band of the first player's score its seeds are kept in
    # (None: every seed is built) and the random games played on each seed to judge it
    band: tuple[float, float] | None = None
    balance_games: int = BALANCE_GAMES


def kit_folder(definition: GameDefinition, seed: int | None, variants: Iterable[str] = ()) -> str:
    """Return the folder name of a kit: the game id, with -seed<N> for a seeded board and the
    variants' names (sorted), so that kits of one seed in other variants never share a folder."""
    name = definition.id if seed is None else f"{definition.id}-seed{seed}"
    return "-".join([name, *sorted(variants)])


def takes_seed(definition: GameDefinition) -> bool:
    """Return True when the game's board can be drawn from a seed."""
    return definition.game_spec.seeded or definition.game_spec.seed_optional


def effective_seed(definition: GameDefinition, seed: int | None) -> int | None:
    """Return the seed a build uses: the given one or the game's default; None for a fixed board."""
    if definition.game_spec.seed_optional and not definition.game_spec.seeded:
        return None if seed is None else check_seed(seed)
    if not definition.game_spec.seeded:
        return None
    return check_seed(definition.game_spec.default_seed if seed is None else seed)


def has_board_with_squares(definition: GameDefinition) -> bool:
    """Return True when the game prints a board with squares or points (--cell-size applies)."""
    return any(
        c.kind in KINDS and KINDS[c.kind].has_squares and c.typed(CommonSpec).output
        for c in definition.components
    )


def batch_board(definition: GameDefinition) -> ComponentSpec:
    """Return the board a batch prints for every seed (the game's first); raise UsageError when
    the game has none."""
    boards = [c for c in definition.components if KINDS[c.kind].is_board]
    if not boards:
        raise UsageError(f"{definition.id} has no board to print in a batch")
    return boards[0]


def check_out(out: str) -> str:
    """Return the output folder; raise UsageError when it is blank, holds a control character,
    or is too deep or too long (``files.path_problem``)."""
    from generator.foundation.files import path_problem

    if not out.strip():
        raise UsageError("--out needs a folder name")
    problem = path_problem(out)
    if problem is not None:
        raise UsageError(f"--out {out[:80]!r} {problem}")
    return out


def check_formats(formats: Sequence[str]) -> tuple[str, ...]:
    """Return the formats as a tuple; raise UsageError when there are none or one is unknown."""
    if not formats:
        raise UsageError("--format needs at least one of pdf, svg")
    for fmt in formats:
        if fmt not in FORMATS:
            raise UsageError(f"unknown format {fmt!r} (formats: {', '.join(FORMATS)})")
    return tuple(formats)


def check_variants(definition: GameDefinition, variants: Iterable[str]) -> frozenset[str]:
    """Return the variants if the game has every one; raise UsageError otherwise."""
    chosen = frozenset(variants)
    unknown = sorted(v for v in chosen if v not in definition.game_spec.variants)
    if unknown:
        raise UsageError(
            f"{definition.id} has no variant {unknown[0]!r} "
            f"(variants: {', '.join(definition.game_spec.variants) or 'none'})"
        )
    return chosen


def parse_offset(text: str | None) -> tuple[float, float]:
    """Return the printer offset of a --duplex-offset value 'dx,dy' in mm ((0, 0) when not given)."""
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


EXPORTS = ("tts", "cut")  # what --export makes beside the kit


def check_export(export: Sequence[str], tts_url: str | None) -> str | None:
    """Return the image prefix of a Tabletop Simulator export ("" for relative file names; None
    when --export tts is not asked); raise UsageError for an unknown export, --tts-url without
    --export tts, or an address that is not http(s)."""
    for name in export:
        if name not in EXPORTS:
            raise UsageError(f"unknown export {name!r} (exports: {', '.join(EXPORTS)})")
    if "tts" not in export:
        if tts_url is not None:
            raise UsageError("--tts-url applies to --export tts")
        return None
    if tts_url is None:
        return ""
    url = tts_url.strip()
    if not url.startswith(("https://", "http://")) or any(c.isspace() or ord(c) < 32 for c in url):
        raise UsageError(
            f"--tts-url must be an http(s) address such as https://example.org/kit/, got {tts_url!r}"
        )
    return url if url.endswith("/") else url + "/"


def check_service(name: str | None, definitions: Sequence[GameDefinition]) -> str | None:
    """Return the --service key (None when not asked); raise UsageError for an unknown service or
    a kit whose cards are larger than every card the service prints."""
    if name is None:
        return None
    from generator.kits.service import SERVICES, card_problem

    key = name.strip().lower()
    if key not in SERVICES:
        raise UsageError(f"unknown service {name!r} (services: {', '.join(SERVICES)})")
    from generator.components.cards import card_size

    for d in definitions:
        for spec in d.components:
            if spec.kind == "cards":
                problem = card_problem(
                    SERVICES[key], f"{d.id}/{spec.id}", *card_size(spec.typed(CardsSpec).size)
                )
                if problem:
                    raise UsageError(problem)
    return key


def parse_cell_size(text: str | None) -> float | None:
    """Return the --cell-size in mm (None when not given); raise UsageError unless 0 < size <= 100."""
    if text is None:
        return None
    try:
        size = parse_length(text)
    except ValueError as exc:
        raise UsageError(f"--cell-size: {exc}") from None
    if size <= 0 or size > MAX_CELL:
        raise UsageError(f"--cell-size must be between 0 and {MAX_CELL:g} mm, got {text}")
    return size


def parse_seed_range(text: str) -> list[int]:
    """Return the seeds of a range such as '1-50' or a list '3,7,9'; raise UsageError otherwise."""
    spans: list[tuple[int, int]] = []
    try:
        for part in text.split(","):
            part = part.strip()
            lo, dash, hi = part.partition("-")
            a = parse_natural(lo.strip(), 19)
            b = parse_natural(hi.strip(), 19) if dash else a
            if a > b:
                raise ValueError
            spans.append((a, b))
    except ValueError:
        raise UsageError(
            f"seeds must be a range such as 1-50 or a list such as 3,7,9 (digits 0-9), got {text!r}"
        ) from None
    count = sum(b - a + 1 for a, b in spans)  # counted before anything is expanded
    if count > MAX_BATCH:
        raise UsageError(f"at most {MAX_BATCH} seeds in one batch, got {count}")
    seeds = [s for a, b in spans for s in range(a, b + 1)]
    for s in seeds:
        check_seed(s)
    return seeds


def sheet_plan(paper: str, out: str) -> BuildPlan:
    """Return the plan of a build with no kits (the calibration sheet): the folder and the paper."""
    out = check_out(out)
    return BuildPlan(out=out, paper=find_paper(paper), jobs=1)


def in_languages(definition: GameDefinition, lang: str) -> tuple[GameDefinition, tuple[GameDefinition, ...]]:
    """Return the game's definition in ``lang`` and in every other language its booklets have
    (none when it prints no booklet), each loaded once (``definition`` itself where it is in one
    of them already)."""
    booklets = any(c.kind == "booklet" and c.typed(CommonSpec).output for c in definition.components)
    others = [code for code in languages(definition) if code != lang] if booklets else []
    wanted = [lang, *others]
    loaded = {definition.lang: definition}
    missing = [code for code in wanted if code not in loaded]
    if missing:
        loaded.update(load_languages(definition.path, definition.templates_dir, missing))
    return loaded[lang], tuple(loaded[code] for code in others)


def kit_plan(
    definition: GameDefinition,
    out: str = "output",
    paper: Paper | str = "a4",
    formats: Sequence[str] = ("pdf", "svg"),
    seed: int | None = None,
    variants: Iterable[str] = (),
    options: Options | None = None,
    parts: bool = False,
    cut: bool = False,
) -> KitPlan:
    """Return one kit's checked plan (for the library: ``pnp check``, tests, benchmarks); raise
    UsageError (or DefinitionError) as ``pnp build`` would for the same options. The kit is in
    the options' language (by default the definition's): its definition is the one in that
    language, and the game's other booklet languages are loaded with it. With ``cut`` (``--export
    cut``) its sheets of parts to cut carry registration marks (``KitPlan.parts_context``)."""
    options = options or Options(lang=definition.lang)
    definition, translations = in_languages(definition, options.lang)
    sheet = find_paper(paper) if isinstance(paper, str) else paper
    kit = KitPlan(
        definition=definition,
        out=check_out(out),
        formats=check_formats(formats),
        paper=sheet.with_margin(definition.paper["margin"]),
        seed=effective_seed(definition, seed),
        variants=check_variants(definition, variants),
        options=options,
        parts=parts,
        cut=cut,
        translations=translations,
    )
    check_fit(kit.context())
    check_plan(kit.context())  # the whole kit's budget, before anything is drawn
    return kit


@dataclass(frozen=True)
class BuildRequest:
    """What ``pnp build`` is asked for, as typed on its command line (strings where the command
    line has strings): the one value the CLI fills and hands to ``make_plan``, which checks every
    field. ``balanced`` is the band 'LO-HI' of a balanced batch ("" for DEFAULT_BAND; None: every
    seed of the batch is built)."""

    games: Sequence[str] = ()
    all_games: bool = False
    paper: str = "a4"
    formats: Sequence[str] = ("pdf", "svg")
    out: str = "output"
    seed: str | None = None
    seeds: str | None = None
    variants: Sequence[str] = ()
    lang: str = "en"
    fit: bool = False
    cell_size: str | None = None
    ink_saver: bool = False
    duplex_offset: str | None = None
    layouts: str | None = None
    single_sided: bool = False
    gutter_fold: bool = False
    jobs: int | None = None
    bleed: str | None = None
    cmyk: bool = False
    png: str | None = None
    parts: bool = False
    export: Sequence[str] = ()
    tts_url: str | None = None
    service: str | None = None
    balanced: str | None = None
    balance_games: int | None = None
    scheduler: str | None = None


def check_balance(request: BuildRequest) -> tuple[tuple[float, float] | None, int]:
    """Return the band and the games per seed of a balanced batch (band None: not balanced); raise
    UsageError for --balance-games or --scheduler without --balanced, --balanced without --seeds,
    a bad band or fewer than one game."""
    if request.balanced is None:
        if request.balance_games is not None:
            raise UsageError("--balance-games applies to --balanced")
        if request.scheduler is not None:
            raise UsageError("--scheduler applies to --balanced (the cluster analyses the seeds)")
        return None, BALANCE_GAMES
    from generator.bots.analysis import DEFAULT_BAND, MAX_GAMES, parse_band

    if request.seeds is None:
        raise UsageError("--balanced keeps the fair seeds of a batch: give --seeds A-B")
    band = parse_band(request.balanced) if request.balanced else DEFAULT_BAND
    games = BALANCE_GAMES if request.balance_games is None else request.balance_games
    if not 1 <= games <= MAX_GAMES:
        raise UsageError(f"--balance-games must be from 1 to {MAX_GAMES:,}, got {games:,}")
    return band, games


def check_gutter_fold(request: BuildRequest) -> None:
    """Raise UsageError for what --gutter-fold cannot take: --duplex-offset (no sheet is printed
    on both sides) and --export cut (a machine cuts one printed layer, not two glued ones)."""
    if not request.gutter_fold:
        return
    if request.duplex_offset is not None:
        raise UsageError("--gutter-fold prints no sheet on both sides: --duplex-offset does not apply")
    if "cut" in request.export:
        raise UsageError(
            "--gutter-fold and --export cut conflict: a cutting machine cuts one printed layer, "
            "not a folded and glued sheet"
        )


def make_plan(request: BuildRequest) -> BuildPlan:
    """Return the plan of ``pnp build`` for what it is asked (options as typed); raise UsageError
    (exit 2) for a bad option, DefinitionError for a bad definition, before anything is written.
    Each definition file is read once, however many languages its kit takes."""
    with reading_once():
        return _make_plan(request)


def _make_plan(request: BuildRequest) -> BuildPlan:
    """Return the plan of ``make_plan``, the definition files read within its ``reading_once``."""
    r = request
    games, all_games, lang, variants = list(r.games), r.all_games, r.lang, list(r.variants)
    folder = r.layouts or None  # None: the built-in games
    out = check_out(r.out)
    band, balance_games = check_balance(r)
    address = None if r.scheduler is None else check_address(r.scheduler)
    if address is not None:
        check_dask()
    jobs = default_jobs() if r.jobs is None else r.jobs
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {jobs}")
    if not games and not all_games:
        raise UsageError("name at least one game, or use --all (see `pnp games`)")
    if games and all_games:
        raise UsageError("name games or use --all, not both")
    sheet = find_paper(r.paper)
    chosen_formats = check_formats(r.formats)
    if r.seed is not None and r.seeds is not None:
        raise UsageError("use --seed or --seeds, not both")
    seed_value = None if r.seed is None else check_seed(r.seed)  # a bad seed is a usage error (exit 2)
    seed_list = parse_seed_range(r.seeds) if r.seeds is not None else None
    size = parse_cell_size(r.cell_size)
    if r.fit and size is not None:
        # --cell-size asks for squares of a printed size, --fit shrinks the board to one sheet
        # (and its squares with it): a build cannot do both
        raise UsageError(
            "--fit and --cell-size conflict: --cell-size prints squares at that size, "
            "--fit scales the board down to one sheet; use one of them"
        )
    options = Options(
        fit=r.fit,
        ink_saver=r.ink_saver,
        duplex_offset=parse_offset(r.duplex_offset),
        cell_size=size,
        lang=lang,
        single_sided=r.single_sided or r.gutter_fold,
        gutter_fold=r.gutter_fold,
        bleed=parse_bleed(r.bleed),
        cmyk=r.cmyk,
        png_dpi=parse_png(r.png),
    )
    tts_url = check_export(r.export, r.tts_url)
    cut = "cut" in r.export
    check_gutter_fold(r)
    if cut and "pdf" not in chosen_formats:
        raise UsageError(
            "--export cut writes the cut files of kit.pdf's sheets: give --format pdf (or pdf,svg)"
        )
    if options.png_dpi is not None or tts_url is not None or r.service is not None:
        from generator.render.png import check_rasteriser

        check_rasteriser()
    if lang not in LANGUAGES:
        raise UsageError(f"unknown language {lang!r} (languages: {language_codes()})")
    definitions = load_all(folder, lang) if all_games else [find_definition(g, folder, lang) for g in games]
    service = check_service(r.service, definitions)
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
        known = {v for d in definitions for v in d.game_spec.variants}
        for v in variants:
            if v not in known:
                raise UsageError(
                    f"no game has a variant {v!r} (variants: {', '.join(sorted(known)) or 'none'})"
                )
    plans = []
    for d in definitions:
        # with --all, a game without a booklet in the language gets its English one, and a game
        # without a board with squares ignores --cell-size
        game_options = options if lang in languages(d) else replace(options, lang="en")
        if size is not None and not has_board_with_squares(d):
            game_options = replace(game_options, cell_size=None)
        game_variants = [v for v in variants if v in d.game_spec.variants] if all_games else variants
        batch = tuple(seed_list) if seed_list is not None and takes_seed(d) else None
        if batch:
            batch_board(d)
            if band is not None and not has_rules(d.id):
                raise UsageError(
                    f"{d.id} has no rules the bots can play, so --balanced cannot judge its seeds"
                )
        first = batch[0] if batch else (seed_value if takes_seed(d) else None)
        # every kit's options are checked (pieces that fit the squares) before any is written
        kit = kit_plan(d, out, sheet, chosen_formats, first, game_variants, game_options, r.parts, cut)
        if tts_url is not None:
            kit = replace(kit, tts_url=tts_url)
        if service is not None:
            kit = replace(kit, service=service)
        plans.append(GamePlan(kit, batch))
    if band is not None and not any(g.seeds for g in plans):
        raise UsageError("--balanced keeps the fair seeds of a batch: give --seeds A-B of a seeded game")
    return BuildPlan(
        out=out,
        paper=sheet,
        jobs=jobs,
        games=tuple(plans),
        scheduler=address,
        band=band,
        balance_games=balance_games,
    )
