"""Building kits: every component of a game drawn, written as PDF and SVG (the booklet as PDF and
HTML, in every language it has), collected into kit.pdf, listed in manifest.json; the home page
(index.html, generator.homepage) over every kit in the output folder."""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import BinaryIO

from generator import __version__
from generator.components.base import Context, Options, Output, check_fit
from generator.components.kinds import KINDS, context, find_kind
from generator.definitions import GameDefinition
from generator.errors import DefinitionError, UsageError
from generator.files import atomic_write, atomic_write_text, output_folder, staging_folder, swap_folder
from generator.guide import guide_pages
from generator.homepage import PREVIEW, write_home_page
from generator.imposition import Paper, find_paper, is_paper_page, scale_bar
from generator.numbers import is_ascii_digits, parse_natural
from generator.page import Drawing, Page
from generator.printjob import Part, job_pages, job_sheets, page_ranges, paired, sheet_pages
from generator.render import find_writer
from generator.seeding import check_seed


@dataclass
class BuildRequest:
    """What to build: paper, formats, output folder, seed, variants and drawing options."""

    out: str = "output"
    paper: str = "a4"
    formats: tuple[str, ...] = ("pdf", "svg")
    seed: int | None = None
    variants: frozenset[str] = frozenset()
    options: Options = field(default_factory=Options)


@dataclass
class BuiltFile:
    """One written file and what the manifest says of it."""

    path: str
    pages: int
    sha256: str


def natural_key(name: str) -> list:
    """Return a sort key that puts booklet-2 before booklet-10."""
    import re

    return [int(part) if is_ascii_digits(part) else part for part in re.split(r"([0-9]+)", name)]


def kit_folder(definition: GameDefinition, seed: int | None, variants: Iterable[str] = ()) -> str:
    """Return the folder name of a kit: the game id, with -seed<N> for a seeded board and the
    variants' names (sorted), so that kits of one seed in other variants never share a folder."""
    name = definition.id if seed is None else f"{definition.id}-seed{seed}"
    return "-".join([name, *sorted(variants)])


def takes_seed(definition: GameDefinition) -> bool:
    """Return True when the game's board can be drawn from a seed."""
    return definition.game["seeded"] or definition.game["seed_optional"]


def effective_seed(definition: GameDefinition, seed: int | None) -> int | None:
    """Return the seed a build uses: the given one or the game's default; None for a fixed board."""
    if definition.game["seed_optional"] and not definition.game["seeded"]:
        return None if seed is None else check_seed(seed)
    if not definition.game["seeded"]:
        return None
    return check_seed(definition.game["default_seed"] if seed is None else seed)


def component_outputs(definition: GameDefinition, ctx: Context) -> list[tuple[str, Output]]:
    """Return (component id, output) for every component of the game, in definition order."""
    results: list[tuple[str, Output]] = []
    for spec in definition.components:
        if not spec.values.get("output", True):
            continue
        for output in find_kind(spec.kind).build(spec, ctx):
            if not spec.values.get("in_kit", True):
                output.in_kit = False
            results.append((spec.id, output))
    return results


def translated_booklets(
    definition: GameDefinition, request: BuildRequest, paper: Paper, seed: int | None
) -> list[tuple[str, Output]]:
    """Return the booklets in every other language the game's booklets have, as
    ``<id>.<lang>`` (PDF in reading order and HTML; never in kit.pdf, which is in the build's language)."""
    from generator.booklet.render import languages
    from generator.loader import load_definition

    results: list[tuple[str, Output]] = []
    specs = [c for c in definition.components if c.kind == "booklet" and c.values.get("output", True)]
    if not specs:
        return results
    for lang in languages(definition):
        if lang == request.options.lang:
            continue
        translated = load_definition(definition.path, definition.templates_dir, lang)
        options = replace(request.options, lang=lang)
        ctx = context(translated, paper, seed, request.variants, options)
        for spec in specs:
            own = translated.component(spec.id)
            reading = next(o for o in find_kind(own.kind).build(own, ctx) if o.booklet)
            reading.name, reading.formats, reading.in_kit = f"{reading.name}.{lang}", ("pdf",), False
            results.append((spec.id, reading))
    return results


def booklet_files(
    outputs: list[tuple[str, Output]], lang: str, formats: Iterable[str]
) -> list[dict[str, str]]:
    """Return the manifest's list of rule booklets: language, HTML and (when built) PDF file."""
    found = []
    for _, output in outputs:
        if output.html is None:
            continue
        entry = {"lang": output.name.partition(".")[2] or lang, "html": f"{output.name}.html"}
        if "pdf" in formats:
            entry["pdf"] = f"{output.name}.pdf"
        found.append(entry)
    return found


def has_board_with_squares(definition: GameDefinition) -> bool:
    """Return True when the game prints a board with squares or points (--cell-size applies)."""
    return any(
        c.kind in KINDS and KINDS[c.kind].has_squares and c.values.get("output", True)
        for c in definition.components
    )


def check_options(definition: GameDefinition, request: BuildRequest) -> None:
    """Raise UsageError when the request's options cannot make this game's kit (pieces that no
    longer fit squares of the requested size), before anything is built."""
    seed = effective_seed(definition, request.seed)
    paper = find_paper(request.paper, definition.paper["margin"])
    check_fit(context(definition, paper, seed, request.variants, request.options))


def layout_findings(definition: GameDefinition, request: BuildRequest) -> list:
    """Return the layout check's findings (generator.layout_check.Finding) on every page the
    request would build for a game, nothing written; contrast is checked under --ink-saver, the
    safe area of cut-out parts under --bleed."""
    from generator.imposition import SAFE_AREA
    from generator.layout_check import check_pages

    seed = effective_seed(definition, request.seed)
    paper = find_paper(request.paper, definition.paper["margin"])
    ctx = context(definition, paper, seed, request.variants, request.options)
    findings = []
    for _, output in component_outputs(definition, ctx):
        where = f"{kit_folder(definition, seed, request.variants)}/{output.name}"
        # a print shop's cut drifts: the cut-out parts' text and symbols keep the safe area
        safe = SAFE_AREA if request.options.bleed and output.items else 0.0
        findings.extend(check_pages(output.pages, where, contrast=request.options.ink_saver, safe=safe))
    return findings


def writer_options(options: Options) -> dict[str, bool]:
    """Return the writer keywords a build's options ask for: trim and bleed boxes under --bleed,
    CMYK colour under --cmyk (none by default, so the files stay as they were)."""
    extra: dict[str, bool] = {}
    if options.bleed:
        extra["boxes"] = True
    if options.cmyk:
        extra["cmyk"] = True
    return extra


def _write_pages(
    path: str, fmt: str, pages: Iterable[Page], title: str, options: Options | None = None
) -> BuiltFile:
    writer = find_writer(fmt)
    buffer = io.BytesIO()
    count = writer(pages, buffer, title, **(writer_options(options) if options and fmt == "pdf" else {}))
    data = buffer.getvalue()
    atomic_write(path, lambda handle: handle.write(data))
    return BuiltFile(path, count, hashlib.sha256(data).hexdigest())


def _write_text(path: str, text: str) -> BuiltFile:
    data = text.encode("utf-8")
    atomic_write(path, lambda handle: handle.write(data))
    return BuiltFile(path, 1, hashlib.sha256(data).hexdigest())


class _SeedWatch(Context):
    """A Context that notes whether a component read the seed (directly or through game data)."""

    seed_read = False

    @property
    def seed(self) -> int | None:
        self.seed_read = True
        return self._seed

    @seed.setter
    def seed(self, value: int | None) -> None:
        self._seed = value

    def layout_data(self, name: str) -> dict:
        self.seed_read = True
        return super().layout_data(name)


_SEED_FREE: dict[tuple, bool] = {}  # per process: components a batch need not draw again per seed


def build_game(
    definition: GameDefinition,
    request: BuildRequest,
    seeded_only: bool = False,
    shared_from: str | None = None,
) -> list[BuiltFile]:
    """Build one game's kit into its folder under request.out; return the files written.

    With ``seeded_only`` (a batch's later seeds) only the components that change with the seed
    are drawn and written, the booklet aside, and no kit.pdf: the rest of the kit is the same for
    every seed and lies in the folder ``shared_from`` names, which the manifest records."""
    for fmt in request.formats:
        find_writer(fmt)
    seed = effective_seed(definition, request.seed)
    rules_variants = request.variants
    unknown = sorted(v for v in rules_variants if v not in definition.game["variants"])
    if unknown:
        raise UsageError(
            f"{definition.id} has no variant {unknown[0]!r} "
            f"(variants: {', '.join(definition.game['variants']) or 'none'})"
        )
    paper = find_paper(request.paper, definition.paper["margin"])
    check_fit(context(definition, paper, seed, rules_variants, request.options))
    if seeded_only:
        outputs = _seeded_outputs(definition, request, paper, seed)
    else:
        outputs = component_outputs(
            definition, context(definition, paper, seed, rules_variants, request.options)
        )
        outputs += translated_booklets(definition, request, paper, seed)
    check_output_names(definition, outputs, request.formats)
    # the kit is written into a private folder and swapped in whole: an interrupted or concurrent
    # build never leaves a mix of two kits
    name = kit_folder(definition, seed, rules_variants)
    final = os.path.join(request.out, name)
    folder = staging_folder(request.out, name)
    try:
        files = _write_kit(definition, request, outputs, folder, paper, seed, seeded_only, shared_from)
        with output_folder(request.out):
            swap_folder(folder, final)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return [replace(f, path=os.path.join(final, os.path.relpath(f.path, folder))) for f in files]


RESERVED = ("kit", "manifest", "index", "preview")  # file names of the build's own outputs


def check_output_names(
    definition: GameDefinition, outputs: list[tuple[str, Output]], formats: Iterable[str]
) -> None:
    """Raise DefinitionError when two components (or a component and the kit) would write one file."""
    owners: dict[str, str] = {name: "the build itself" for name in RESERVED}
    for cid, output in outputs:
        names = {output.name}
        if "svg" in formats and "svg" in output.formats and len(output.pages) > 1:
            names |= {f"{output.name}-{n}" for n in range(1, len(output.pages) + 1)}
        for name in sorted(names):
            if name in owners and owners[name] != f"components.{cid}":
                raise DefinitionError(
                    f"{definition.path}: components.{cid}: its file {name!r} is also made by "
                    f"{owners[name]}; rename the component"
                )
            owners[name] = f"components.{cid}"


def _write_kit(
    definition: GameDefinition,
    request: BuildRequest,
    outputs: list[tuple[str, Output]],
    folder: str,
    paper: Paper,
    seed: int | None,
    seeded_only: bool,
    shared_from: str | None,
) -> list[BuiltFile]:
    """Write every output, kit.pdf, the preview and manifest.json into folder; return the files."""
    rules_variants = request.variants
    lang = request.options.lang
    files: list[BuiltFile] = []
    parts: list[Part] = []
    shown = next((o for _, o in outputs if "svg" in o.formats and o.pages), None)
    preview_of = None
    if shown is not None and "svg" in request.formats:
        files.append(write_preview(folder, shown.pages[0], f"{definition.title}: {shown.name}"))
        preview_of = f"{shown.name}.svg" if len(shown.pages) == 1 else f"{shown.name}-1.svg"
    for component, output in outputs:
        if output.html is not None:
            files.append(_write_text(os.path.join(folder, f"{output.name}.html"), output.html))
        # SVGs (for screens and editing) first; the printed PDF pages then get the scale check
        for fmt in sorted(request.formats, key=lambda f: f != "svg"):
            if fmt == "pdf" and not output.booklet:
                for page in output.pages:
                    if is_paper_page(page, paper):
                        scale_bar(page, paper, lang)
            if fmt == "svg" and "svg" in output.formats:
                if len(output.pages) == 1:
                    names = [(f"{output.name}.svg", output.pages[0])]
                else:
                    names = [(f"{output.name}-{n}.svg", p) for n, p in enumerate(output.pages, 1)]
                for name, page in names:
                    files.append(
                        _write_pages(
                            os.path.join(folder, name),
                            "svg",
                            [page],
                            f"{definition.title}: {page.label or output.name}",
                        )
                    )
            elif fmt == "pdf" and "pdf" in output.formats:
                files.append(
                    _write_pages(
                        os.path.join(folder, f"{output.name}.pdf"),
                        "pdf",
                        output.pages,
                        f"{definition.title}: {output.name}",
                        request.options,
                    )
                )
        if output.in_kit:
            stock = KINDS[definition.component(component).kind].stock
            parts.append(
                Part(component, stock, tuple(output.pages), output.booklet, tuple(output.items or ()))
            )
    if request.options.png_dpi is not None:
        files.extend(write_pngs(folder, outputs, request.options.png_dpi, request.options.bleed))
    single = request.options.single_sided
    kit: dict = {}
    if "pdf" in request.formats and parts and not seeded_only:
        offset = request.options.duplex_offset
        sheets = job_sheets(parts, paper, single, lang, definition.title, offset, request.options.bleed)
        ctx = context(definition, paper, seed, rules_variants, request.options)
        guide = Part(GUIDE, "paper", tuple(paired(guide_pages(ctx, sheets, single), single)))
        sheets = job_sheets([guide], paper, single, lang) + sheets
        files.append(
            _write_pages(
                os.path.join(folder, "kit.pdf"),
                "pdf",
                job_pages(sheets, paper, single),
                f"{definition.title}: kit",
                request.options,
            )
        )
        kit = kit_manifest(definition, sheets, single)
    manifest = {
        "game": definition.id,
        "title": definition.title,
        "subtitle": definition.game.get("subtitle") or "",
        "players": definition.game.get("players") or "",
        "playing_time": definition.game.get("playing_time") or "",
        "pnp_version": __version__,
        "paper": paper.name,
        "seed": seed,
        "variants": sorted(rules_variants),
        "lang": request.options.lang,
        "kit": kit,
        "booklets": booklet_files(outputs, lang, request.formats),
        "files": [
            {"name": _relative(f.path, folder), "pages": f.pages, "sha256": f.sha256}
            for f in sorted(files, key=lambda f: natural_key(_relative(f.path, folder)))
        ],
    }
    if request.options.png_dpi is not None:
        manifest["png"] = {"dpi": request.options.png_dpi, "folder": PNG_FOLDER}
    if preview_of is not None:
        manifest["preview_of"] = preview_of
    if shared_from is not None:
        manifest["shared_from"] = shared_from
    atomic_write_text(
        os.path.join(folder, "manifest.json"), json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    )
    return files


GUIDE = "print-guide"  # the guide's part id in the print job and the manifest
PNG_FOLDER = "png"  # the kit's subfolder of PNGs under --png


def _put(data: bytes, handle: BinaryIO) -> None:
    handle.write(data)


def _relative(path: str, folder: str) -> str:
    return os.path.relpath(path, folder).replace(os.sep, "/")


def slug(text: str) -> str:
    """Return text as a file name part: lower case ASCII letters and digits joined by '-'."""
    import re

    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "part"


def png_faces(outputs: list[tuple[str, Output]]) -> list[tuple[str, Drawing]]:
    """Return (file name without .png, drawing) of every face to write as a PNG: each board's
    artwork (<component>), and the front and back of every piece type
    (<component>-<piece>-front, -back), in the order the kit lists them, each type once."""
    faces: list[tuple[str, Drawing]] = []
    taken: set[str] = set()

    def add(name: str, drawing: Drawing) -> None:
        unique, n = name, 1
        while unique in taken:
            n += 1
            unique = f"{name}-{n}"
        taken.add(unique)
        faces.append((unique, drawing))

    for component, output in outputs:
        if output.art is not None:
            add(slug(component), output.art)
        seen: set[tuple[int, int]] = set()
        for item in output.items or ():
            key = (id(item.front), id(item.back))
            if key in seen:
                continue
            seen.add(key)
            piece = f"{slug(component)}-{slug(item.front.label or 'piece')}"
            add(f"{piece}-front", item.front)
            if item.back is not None:
                add(f"{piece}-back", item.back)
    return faces


def write_pngs(folder: str, outputs: list[tuple[str, Output]], dpi: int, bleed: float) -> list[BuiltFile]:
    """Write FOLDER/png/<face>.png for every face png_faces lists, at dpi with the bleed round it;
    return the files."""
    from generator.imposition import bled
    from generator.render.png import write_png

    files: list[BuiltFile] = []
    target = os.path.join(folder, PNG_FOLDER)
    os.makedirs(target, exist_ok=True)
    for name, drawing in png_faces(outputs):
        art = bled(drawing, bleed)
        page = Page(art.width, art.height, list(art.shapes), label=name)
        buffer = io.BytesIO()
        write_png(page, buffer, dpi)
        data = buffer.getvalue()
        path = os.path.join(target, f"{name}.png")
        atomic_write(path, functools.partial(_put, data))
        files.append(BuiltFile(path, 1, hashlib.sha256(data).hexdigest()))
    return files


def kit_manifest(definition: GameDefinition, sheets: list, single_sided: bool) -> dict:
    """Return what the manifest says of kit.pdf: how to print it and, for every component, its
    pages, whether its sheets are single-sided or duplex, and their stock."""
    ranges = page_ranges(sheets, single_sided)
    components = []
    for component, (first, last) in ranges.items():
        own = [s for s in sheets if component in s.parts]
        spec = next((c for c in definition.components if c.id == component), None)
        components.append(
            {
                "id": component,
                "title": (spec.values.get("title") if spec else "Print guide") or component,
                "pages": [first, last],
                "sides": "duplex" if any(s.is_duplex for s in own) else "single",
                "stock": own[0].stock,
            }
        )
    return {
        "file": "kit.pdf",
        "print": "single-sided" if single_sided else "double-sided, flip on the long edge",
        "scale": "actual size (100%)",
        "sheets": [
            {
                "pages": list(pages),
                "stock": sheet.stock,
                "parts": list(sheet.parts),
                "sides": "duplex" if sheet.is_duplex else "single",
                "packed": sheet.is_packed,
            }
            for sheet, pages in zip(sheets, sheet_pages(sheets, single_sided))
        ],
        "components": components,
    }


def _seeded_outputs(
    definition: GameDefinition, request: BuildRequest, paper: Paper, seed: int | None
) -> list[tuple[str, Output]]:
    """Return the outputs of the components that change with the seed (the booklet aside)."""
    results: list[tuple[str, Output]] = []
    ctx = _SeedWatch(definition, paper, seed, request.variants, request.options, kinds=KINDS)
    for spec in definition.components:
        if not spec.values.get("output", True) or spec.kind == "booklet":
            continue
        key = (definition.path, definition.id, paper, request.variants, repr(request.options), spec.id)
        if _SEED_FREE.get(key):
            continue
        ctx.seed_read = False
        outputs = find_kind(spec.kind).build(spec, ctx)
        _SEED_FREE[key] = not ctx.seed_read
        if ctx.seed_read:
            for output in outputs:
                if not spec.values.get("in_kit", True):
                    output.in_kit = False
                results.append((spec.id, output))
    return results


def write_preview(folder: str, page: Page, title: str) -> BuiltFile:
    """Write FOLDER/preview.svg, a light picture of a page (no text, lengths to 0.1 mm) for the
    home page: a kit's first page with an SVG, its board where it has one."""
    from generator.render.svg import write_svg

    buffer = io.BytesIO()
    write_svg(page, buffer, title, preview=True)
    data = buffer.getvalue()
    path = os.path.join(folder, PREVIEW)
    atomic_write(path, lambda handle: handle.write(data))
    return BuiltFile(path, 1, hashlib.sha256(data).hexdigest())


MAX_MANIFEST_BYTES = 1_000_000


def _manifest_problem(manifest: object) -> str | None:
    """Return what is wrong with a manifest's shape, or None."""
    if not isinstance(manifest, dict):
        return "not a JSON object"
    files = manifest.get("files", [])
    if not isinstance(files, list) or not all(
        isinstance(f, dict) and isinstance(f.get("name"), str) for f in files
    ):
        return "its files are not a list of named files"
    return None


def read_manifests(out: str) -> tuple[list[tuple[str, dict]], list[str]]:
    """Return the kits in an output folder (folder name, manifest) and one line per manifest
    skipped because it cannot be read (another program's file, a damaged one)."""
    kits: list[tuple[str, dict]] = []
    problems: list[str] = []
    try:
        names = sorted(os.listdir(out), key=natural_key) if os.path.isdir(out) else []
    except OSError:
        names = []
    for name in names:
        if name.startswith("."):
            continue
        manifest_path = os.path.join(out, name, "manifest.json")
        if not os.path.isfile(manifest_path):
            continue
        try:
            with open(manifest_path, "rb") as handle:
                data = handle.read(MAX_MANIFEST_BYTES + 1)
            if len(data) > MAX_MANIFEST_BYTES:
                raise ValueError(f"larger than {MAX_MANIFEST_BYTES} bytes")
            manifest = json.loads(data.decode("utf-8"))
            problem = _manifest_problem(manifest)
            if problem:
                raise ValueError(problem)
        except (OSError, ValueError, RecursionError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else str(exc).splitlines()[0][:80]
            problems.append(f"skipped {os.path.join(out, name, 'manifest.json')}: {reason}")
            continue
        kits.append((name, manifest))
    return kits, problems


def write_index(out: str) -> str:
    """Write OUT/index.html, the home page of every kit in the folder (generator.homepage); return
    its path. It reads the manifests, never the drawings."""
    kits, _ = read_manifests(out)
    return write_home_page(out, kits)


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


MAX_BATCH = 10000


def batch_pages(definition: GameDefinition, request: BuildRequest, seeds: Iterable[int]) -> Iterable[Page]:
    """Yield the board page(s) of the game for each seed, one seed at a time (flat memory)."""
    paper = find_paper(request.paper, definition.paper["margin"])
    boards = [c for c in definition.components if KINDS[c.kind].is_board]
    if not boards:
        raise UsageError(f"{definition.id} has no board to print in a batch")
    spec = boards[0]
    kind = find_kind(spec.kind)
    for seed in seeds:
        ctx = context(definition, paper, check_seed(seed), request.variants, request.options)
        for output in kind.build(spec, ctx):
            yield from output.pages


def write_batch(definition: GameDefinition, request: BuildRequest, seeds: list[int]) -> str:
    """Write OUT/<game>-seeds<first>-<last>[-<variant>...].pdf with every seed's board; return its path."""
    if not seeds:
        raise UsageError("no seeds to build")
    variants = "".join(f"-{v}" for v in sorted(request.variants))
    name = f"{definition.id}-seeds{seeds[0]}-{seeds[-1]}{variants}.pdf"
    path = os.path.join(request.out, name)
    writer = find_writer("pdf")
    atomic_write(
        path,
        lambda handle: writer(
            batch_pages(definition, request, seeds),
            handle,
            f"{definition.title}: boards for seeds {seeds[0]}-{seeds[-1]}",
            **writer_options(request.options),
        ),
    )
    return path
