"""Building one kit from its plan: every component of a game drawn and collected into kit.pdf (the
print job), each part also as SVG (and as a PDF of its own with ``--parts``), the booklet as a
reading-order PDF and HTML in every language it has, all listed in manifest.json; a batch's PDF
of every seed's board.

The plan (``generator.kits.plan.KitPlan``) was checked when it was made: nothing here checks
options again or changes them."""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import shutil
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, BinaryIO

from generator import __version__
from generator.components.base import Context, Options, Output
from generator.components.inline import icons_of
from generator.components.kinds import KINDS, find_kind
from generator.components.specs import CommonSpec
from generator.definitions.values import GameDefinition
from generator.foundation.errors import DefinitionError
from generator.foundation.files import (
    atomic_write,
    atomic_write_text,
    output_folder,
    staging_folder,
    swap_folder,
)
from generator.foundation.languages import text as catalogue_text
from generator.kits.budget import check_drawn
from generator.kits.homepage import PREVIEW
from generator.kits.index import natural_key
from generator.kits.plan import KitPlan, batch_board
from generator.kits.tts import Part as ExportPart
from generator.model.inline import spoken
from generator.model.page import Drawing, DrawnPages, Page
from generator.printing.cut import CUT_STOCK, cut_numbers, fits_sheet, mark_shapes, with_marks
from generator.printing.guide import guide_pages
from generator.printing.imposition import Paper, SheetPages, is_paper_page, scale_bar
from generator.printing.job import Part, iter_job_pages, job_sheets, page_ranges, paired, sheet_pages
from generator.render import AUTHOR, find_writer
from generator.render.cut import cut_document


@dataclass
class BuiltFile:
    """One written file and what the manifest says of it."""

    path: str
    pages: int
    sha256: str


def component_outputs(
    definition: GameDefinition, ctx: Context, parts_ctx: Context | None = None
) -> list[tuple[str, Output]]:
    """Return (component id, output) for every component of the game, in definition order.
    With a ``parts_ctx`` (on the paper of --export cut, whose wider margin keeps the parts clear of
    the registration marks), a component of card parts with a part too large for that paper's
    sheets (a patch of hexes sized to the page) is drawn again in it."""
    results: list[tuple[str, Output]] = []
    for spec in definition.components:
        common = spec.typed(CommonSpec)
        if not common.output:
            continue
        built = find_kind(spec.kind).build(spec, ctx)
        if parts_ctx is not None and KINDS[spec.kind].stock == CUT_STOCK:
            bleed = parts_ctx.options.bleed
            items = [item for o in built for item in o.items or ()]
            if not all(fits_sheet(item, parts_ctx.paper, bleed) for item in items):
                built = find_kind(spec.kind).build(spec, parts_ctx)
        for output in built:
            if not common.in_kit:
                output = replace(output, in_kit=False)
            results.append((spec.id, output))
    return results


def translated_booklets(kit: KitPlan) -> list[tuple[str, Output]]:
    """Return the booklets in every other language the game's booklets have, as ``<id>.<lang>``:
    one HTML page each, to read on screens (a kit built with that --lang holds the booklet's PDF and
    SVG pages, and prints it in kit.pdf; laying out every language's pages in every kit would triple
    the booklets' share of the build's time and size)."""
    from generator.components.booklet import reading_copy
    from generator.components.kinds import context

    definition = kit.definition
    results: list[tuple[str, Output]] = []
    specs = [c for c in definition.components if c.kind == "booklet" and c.typed(CommonSpec).output]
    for translated in kit.translations:
        lang = translated.lang
        options = replace(kit.options, lang=lang)
        ctx = context(translated, kit.paper, kit.seed, kit.variants, options)
        for spec in specs:
            reading = reading_copy(translated.component(spec.id), ctx)
            results.append((spec.id, replace(reading, name=f"{reading.name}.{lang}", in_kit=False)))
    return results


def booklet_files(
    outputs: list[tuple[str, Output]], lang: str, formats: Iterable[str]
) -> list[dict[str, str | list[str]]]:
    """Return the manifest's list of rule booklets: language, HTML and (when built) the PDF file
    and the SVG files of its pages in reading order."""
    found: list[dict[str, str | list[str]]] = []
    for _, output in outputs:
        if output.html is None:
            continue
        entry: dict[str, str | list[str]] = {
            "lang": output.name.partition(".")[2] or lang,
            "html": f"{output.name}.html",
        }
        if "pdf" in formats and "pdf" in output.formats:
            entry["pdf"] = f"{output.name}.pdf"
        if "svg" in formats and "svg" in output.formats and output.pages:
            entry["svg"] = [name for name, _ in svg_names(output)]
        found.append(entry)
    return found


def svg_names(output: Output) -> list[tuple[str, Page]]:
    """Return the SVG file name of each page of an output with its page: ``<name>.svg`` for one
    page, ``<name>-1.svg``, ``<name>-2.svg``, ... in page order for more."""
    if len(output.pages) == 1:
        return [(f"{output.name}.svg", output.pages[0])]
    return [(f"{output.name}-{n}.svg", p) for n, p in enumerate(output.pages, 1)]


def write_text(path: str, text: str) -> BuiltFile:
    """Write a text file (UTF-8) atomically; return what the manifest says of it."""
    data = text.encode("utf-8")
    atomic_write(path, lambda handle: handle.write(data))
    return BuiltFile(path, 1, hashlib.sha256(data).hexdigest())


def layout_findings(kit: KitPlan) -> list:
    """Return the layout check's findings (generator.printing.layout_check.Finding) on every page the
    kit's plan would build, nothing written; contrast is checked under --ink-saver, the safe area
    of cut-out parts under --bleed."""
    from generator.printing.imposition import SAFE_AREA
    from generator.printing.layout_check import check_pages

    findings = []
    for _, output in component_outputs(kit.definition, kit.context()):
        where = f"{kit.folder}/{output.name}"
        # a print shop's cut drifts: the cut-out parts' text and symbols keep the safe area
        safe = SAFE_AREA if kit.options.bleed and output.items else 0.0
        findings.extend(check_pages(output.pages, where, contrast=kit.options.ink_saver, safe=safe))
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


def write_pages(
    path: str,
    fmt: str,
    pages: Iterable[Page],
    title: str,
    options: Options | None = None,
    author: str = AUTHOR,
) -> BuiltFile:
    """Write pages as one file of a format (atomically), titled ``title`` with ``author`` as its
    author, with the writer options the build's options ask for; return the file with its page
    count and sha256."""
    writer = find_writer(fmt)
    extra = writer_options(options) if options and fmt == "pdf" else {}
    counted: list[int] = []
    digest = hashlib.sha256()

    def write(handle: BinaryIO) -> None:
        # straight into the file as the writer goes (a long kit.pdf is not held whole): on any
        # failure nothing is left at path
        counted.append(writer(pages, _Hashing(handle, digest), title, author=author, **extra))

    atomic_write(path, write)
    return BuiltFile(path, counted[0], digest.hexdigest())


class _Hashing(io.RawIOBase):
    """A binary file object that writes to a file and adds what it writes to a digest."""

    def __init__(self, handle: BinaryIO, digest: Any) -> None:
        super().__init__()
        self.handle, self.digest = handle, digest

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self.digest.update(data)
        self.handle.write(data)
        return len(data)


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


def build_kit(kit: KitPlan, seeded_only: bool = False, shared_from: str | None = None) -> list[BuiltFile]:
    """Build one kit into its folder under the plan's output folder; return the files written.

    With ``seeded_only`` (a batch's later seeds) only the components that change with the seed
    are drawn and written, the booklet aside, and no kit.pdf: the rest of the kit is the same for
    every seed and lies in the folder ``shared_from`` names, which the manifest records."""
    definition = kit.definition
    if seeded_only:
        outputs = _seeded_outputs(kit)
    else:
        parts_ctx = kit.parts_context() if kit.cut else None
        outputs = component_outputs(definition, kit.context(), parts_ctx) + translated_booklets(kit)
    check_output_names(definition, outputs, kit.formats)
    check_drawn(kit.context(), outputs, png_faces)  # the whole kit's budget, before anything is written
    # the kit is written into a private folder and swapped in whole: an interrupted or concurrent
    # build never leaves a mix of two kits
    final = os.path.join(kit.out, kit.folder)
    folder = staging_folder(kit.out, kit.folder)
    try:
        files = _write_kit(kit, outputs, folder, seeded_only, shared_from)
        with output_folder(kit.out):
            swap_folder(folder, final)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return [replace(f, path=os.path.join(final, os.path.relpath(f.path, folder))) for f in files]


RESERVED = ("kit", "manifest", "index", "preview", "print-guide")  # file names of the build's own outputs


def file_title(definition: GameDefinition, what: str) -> str:
    """Return the title of a file of the kit: the game's name and what the file is
    ("Barricades: Soldiers sheet 1"); a page label that already starts with the name keeps it once.
    Icons (``:coin:``) are written as their names: a file's title holds words."""
    prefix = f"{definition.title}: "
    return spoken(what if what.startswith(prefix) else prefix + what)


def file_author(definition: GameDefinition) -> str:
    """Return the author a kit's files name: the game's designer when the definition gives one,
    else pnp, which made them."""
    return definition.game_spec.designer or AUTHOR


def part_title(definition: GameDefinition, component: str, output: Output) -> str:
    """Return what a component's file is: its title in the definition (or its id), and the
    language of a booklet in another language ("Rules (fr)")."""
    spec = definition.component(component)
    title = spec.typed(CommonSpec).title or component
    lang = output.name.rpartition(".")[2] if "." in output.name else ""
    return f"{title} ({lang})" if lang else title


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


def print_pages(output: Output, paper: Paper, lang: str) -> Sequence[Page]:
    """Return an output's pages as they are printed (its PDF and its part of kit.pdf): every page
    of the paper's size with the scale check in its footer, as new pages (a booklet's pages come
    back as they are: the print job puts the check on its imposed sheets). Pages drawn when read
    (a deck's ``SheetPages``) stay so: each gets its check when it is read."""
    if output.booklet:
        return output.pages

    def printed(page: Page) -> Page:
        return scale_bar(page, paper, lang) if is_paper_page(page, paper) else page

    if isinstance(output.pages, SheetPages):
        return MappedPages(output.pages, printed)
    return tuple(printed(page) for page in output.pages)


class MappedPages(DrawnPages):
    """Pages drawn when read, each passed through a function as it is read (none kept)."""

    def __init__(self, pages: Sequence[Page], change: Callable[[Page], Page]) -> None:
        self.pages, self.change = pages, change

    def __len__(self) -> int:
        return len(self.pages)

    def page(self, index: int) -> Page:
        """Return page ``index`` passed through the function."""
        return self.change(self.pages[index])


def _write_kit(
    kit: KitPlan,
    outputs: list[tuple[str, Output]],
    folder: str,
    seeded_only: bool,
    shared_from: str | None,
) -> list[BuiltFile]:
    """Write every output, kit.pdf, the preview and manifest.json into folder; return the files."""
    definition, paper, options = kit.definition, kit.paper, kit.options
    lang = options.lang
    files: list[BuiltFile] = []
    parts: list[Part] = []
    author = file_author(definition)
    # the preview shows the first drawn part, never a page of rule text
    shown_of = next(((c, o) for c, o in outputs if "svg" in o.formats and o.pages and not o.booklet), None)
    shown = shown_of[1] if shown_of else None
    preview_of = None
    if shown_of is not None and shown is not None and "svg" in kit.formats:
        title = file_title(definition, f"{part_title(definition, *shown_of)} (preview)")
        files.append(write_preview(folder, shown.pages[0], title, author))
        preview_of = f"{shown.name}.svg" if len(shown.pages) == 1 else f"{shown.name}-1.svg"
    # kit.pdf is the print job: a part it holds gets a PDF of its own only when asked (--parts);
    # the booklet keeps its reading-order PDF, for screens
    job = "pdf" in kit.formats and not seeded_only and any(o.in_kit for _, o in outputs)
    for component, output in outputs:
        own_pdf = kit.parts or not job or not output.in_kit or output.booklet
        # with --parts every part of kit.pdf gets its PDF, those that make no files of their own
        # (the quick-reference cards) too
        pdf_made = "pdf" in output.formats or (kit.parts and job and output.in_kit)
        what = part_title(definition, component, output)
        if output.html is not None:
            from generator.render.html import html_document

            files.append(write_text(os.path.join(folder, f"{output.name}.html"), html_document(output.html)))
        printed_pages = print_pages(output, paper, lang)
        # SVGs (for screens and editing) first, as drawn; PDFs of the printed pages
        for fmt in sorted(kit.formats, key=lambda f: f != "svg"):
            if fmt == "svg" and "svg" in output.formats:
                for number, (name, page) in enumerate(svg_names(output), 1):
                    # a booklet's page is the part's page n ("Rules page 3", "Rules (fr) page 3")
                    label = f"{what} page {number}" if output.booklet else page.label or what
                    files.append(
                        write_pages(
                            os.path.join(folder, name),
                            "svg",
                            [page],
                            file_title(definition, label),
                            author=author,
                        )
                    )
            elif fmt == "pdf" and pdf_made and own_pdf:
                files.append(
                    write_pages(
                        os.path.join(folder, f"{output.name}.pdf"),
                        "pdf",
                        printed_pages,
                        file_title(definition, what),
                        options,
                        author,
                    )
                )
        if output.in_kit:
            stock = KINDS[definition.component(component).kind].stock
            parts.append(Part(component, stock, printed_pages, output.booklet, output.items or ()))
    if options.png_dpi is not None:
        files.extend(write_pngs(folder, outputs, options.png_dpi, options.bleed))
    if kit.tts_url is not None and not seeded_only:
        files.extend(write_tts_export(kit, outputs, folder))
    if kit.service is not None and not seeded_only:
        files.extend(write_service_export(kit, outputs, folder))
    single = options.single_sided
    printed: dict = {}
    if job and parts:
        offset = options.duplex_offset
        sheets = job_sheets(
            parts,
            paper,
            single,
            lang,
            definition.title,
            offset,
            options.bleed,
            kit.stock_papers(),
            options.gutter_fold,
            icons_of(definition),
        )
        if kit.cut:  # the registration marks on every sheet with parts to cut
            sheets = with_marks(sheets)
        guide_book = guide_pages(kit.context(), sheets, single, kit.cut, service_named(kit))
        guide = Part(GUIDE, "paper", tuple(paired(guide_book, single)))
        sheets = job_sheets([guide], paper, single, lang) + sheets
        files.append(
            write_pages(
                os.path.join(folder, "kit.pdf"),
                "pdf",
                iter_job_pages(sheets, paper, single),
                file_title(definition, "print-and-play kit"),
                options,
                author,
            )
        )
        if kit.parts:
            files.append(
                write_pages(
                    os.path.join(folder, f"{GUIDE}.pdf"),
                    "pdf",
                    guide.pages,
                    file_title(definition, "print guide"),
                    options,
                    author,
                )
            )
        printed = kit_manifest(definition, sheets, single, lang)
        if kit.cut:
            cut_files, printed["cut"] = write_cut_export(kit, sheets, folder)
            files.extend(cut_files)
    manifest: dict[str, Any] = {
        "game": definition.id,
        "title": spoken(definition.title),
        "subtitle": spoken(definition.game_spec.subtitle),
        "players": definition.game_spec.players,
        "playing_time": definition.game_spec.playing_time,
        "pnp_version": __version__,
        "paper": paper.name,
        "seed": kit.seed,
        "variants": sorted(kit.variants),
        "lang": lang,
        "kit": printed,
        "booklets": booklet_files(outputs, lang, kit.formats),
        "files": [
            {"name": _relative(f.path, folder), "pages": f.pages, "sha256": f.sha256}
            for f in sorted(files, key=lambda f: natural_key(_relative(f.path, folder)))
        ],
    }
    if definition.fonts:  # each face of the definition's own, with the licence file it ships under
        manifest["fonts"] = [
            {"name": f.key, "file": f.file, "licence": f.licence, "family": f.family, "sha256": f.sha256}
            for f in definition.fonts
        ]
    if options.png_dpi is not None:
        manifest["png"] = {"dpi": options.png_dpi, "folder": PNG_FOLDER}
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
        pieces = [p for item in output.items or () for p in ([q for _, _, q in item.pieces] or [item])]
        for item in pieces:  # a patch's pieces (hex counters tessellated), each a face of its own
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
    from generator.printing.imposition import bled
    from generator.render.png import write_png

    files: list[BuiltFile] = []
    target = os.path.join(folder, PNG_FOLDER)
    os.makedirs(target, exist_ok=True)
    for name, drawing in png_faces(outputs):
        art = bled(drawing, bleed)
        page = Page(art.width, art.height, art.shapes, label=name)
        buffer = io.BytesIO()
        write_png(page, buffer, dpi)
        data = buffer.getvalue()
        path = os.path.join(target, f"{name}.png")
        atomic_write(path, functools.partial(_put, data))
        files.append(BuiltFile(path, 1, hashlib.sha256(data).hexdigest()))
    return files


def export_part(kit: KitPlan, component: str, output: Output) -> ExportPart:
    """Return a component's output as the Tabletop Simulator export reads it: with each counter's
    shape by its name (counters) and the panel height and tab depth of a standee (standees)."""
    definition = kit.definition
    spec = definition.component(component)
    title = part_title(definition, component, output)
    if spec.kind == "counters":
        from generator.components.specs import CountersSpec

        shapes = {counter.name: counter.shape for counter in spec.typed(CountersSpec).counters}
        return ExportPart(spec.kind, title, output, shapes=shapes)
    if spec.kind == "standees":
        from generator.components.specs import StandeesSpec
        from generator.components.standees import base_depth

        panel = (spec.typed(StandeesSpec).height, base_depth(spec, kit.context()))
        return ExportPart(spec.kind, title, output, panel=panel)
    if spec.kind == "dice-nets":
        from generator.components.specs import DiceNetsSpec

        dice = spec.typed(DiceNetsSpec)
        faces = {die.name: tuple(die.faces) for die in dice.dice}
        return ExportPart(spec.kind, title, output, die=dice.size, faces=faces)
    return ExportPart(spec.kind, title, output)


def write_tts_export(kit: KitPlan, outputs: list[tuple[str, Output]], folder: str) -> list[BuiltFile]:
    """Write FOLDER/tts/<game>.json, the kit as a Tabletop Simulator saved object, and its images
    (``generator.kits.tts``); return the files. The kit's language versions of the booklet aside,
    every component the kit draws is read, as it is drawn for the print job."""
    from generator.kits.tts import tts_files, write_tts

    definition = kit.definition
    parts = [export_part(kit, c, o) for c, o in outputs if "." not in o.name]
    parts = [replace(p, title=spoken(p.title)) for p in parts]  # the table names the parts in words
    files = tts_files(
        definition.id, spoken(definition.title), parts, kit.tts_url or "", file_author(definition)
    )
    return [BuiltFile(path, 1, hashlib.sha256(data).hexdigest()) for path, data in write_tts(folder, files)]


def write_service_export(kit: KitPlan, outputs: list[tuple[str, Output]], folder: str) -> list[BuiltFile]:
    """Write FOLDER/service/<name>/, the kit's cards, counters and boards as the print service
    asks for them, with its README.txt and manifest.json (``generator.kits.service``); return
    the files."""
    from generator.kits.service import SERVICES, service_files, write_service
    from generator.kits.service import Part as ServicePart

    service = SERVICES[kit.service or ""]
    parts = []
    for component, output in outputs:
        if "." in output.name:  # a booklet's other languages
            continue
        read = export_part(kit, component, output)
        parts.append(
            (
                output.name,
                ServicePart(read.kind, spoken(read.title), output, read.shapes, read.panel, read.die),
            )
        )
    definition = kit.definition  # the README and the manifest name the parts in words
    files = service_files(definition.id, spoken(definition.title), service, parts)
    return [
        BuiltFile(path, 1, hashlib.sha256(data).hexdigest())
        for path, data in write_service(folder, service, files)
    ]


def service_named(kit: KitPlan) -> tuple[str, str] | None:
    """Return the folder of the kit's --service files (service/<key>) and the service's name, as
    the print guide names them (None without --service)."""
    if kit.service is None:
        return None
    from generator.kits.service import FOLDER, SERVICES

    return f"{FOLDER}/{kit.service}", SERVICES[kit.service].title


CUT_FOLDER = "cut"  # the kit's subfolder of cut files under --export cut


def write_cut_export(kit: KitPlan, sheets: list, folder: str) -> tuple[list[BuiltFile], list[dict]]:
    """Write FOLDER/cut/sheet-<n>.svg for every sheet of kit.pdf with parts to cut (n: the
    sheet's number in kit.pdf, from 1), each the outline of every part of the sheet's front and
    its registration marks (``generator.render.cut``); return the files and what the manifest
    says of each: its file, the sheet's number and the kit.pdf page of the sheet's front."""
    files: list[BuiltFile] = []
    listed: list[dict] = []
    target = os.path.join(folder, CUT_FOLDER)
    numbers = cut_numbers(sheets)
    if numbers:  # a kit with nothing to cut has no cut folder
        os.makedirs(target, exist_ok=True)
    pages = sheet_pages(sheets, kit.options.single_sided)
    for number in numbers:
        front = sheets[number - 1].front
        title = file_title(kit.definition, f"cut file of sheet {number} ({front.label})")
        text = cut_document(
            front.width, front.height, front.outlines, mark_shapes(front.width, front.height), title
        )
        name = f"sheet-{number}.svg"
        files.append(write_text(os.path.join(target, name), text))
        listed.append({"file": f"{CUT_FOLDER}/{name}", "sheet": number, "page": pages[number - 1][0]})
    return files, listed


def kit_manifest(definition: GameDefinition, sheets: list, single_sided: bool, lang: str) -> dict:
    """Return what the manifest says of kit.pdf: how to print it and, for every component, its
    pages, whether its sheets are single-sided or duplex, and their stock (titles in ``lang``)."""
    ranges = page_ranges(sheets, single_sided)
    components = []
    for component, (first, last) in ranges.items():
        own = [s for s in sheets if component in s.parts]
        spec = next((c for c in definition.components if c.id == component), None)
        components.append(
            {
                "id": component,
                "title": spoken(
                    (spec.typed(CommonSpec).title if spec else catalogue_text("guide.title", lang))
                    or component
                ),
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
                **({"fold": sheet.fold.edge} if sheet.fold is not None else {}),
            }
            for sheet, pages in zip(sheets, sheet_pages(sheets, single_sided))
        ],
        "components": components,
    }


def _seeded_outputs(kit: KitPlan) -> list[tuple[str, Output]]:
    """Return the outputs of the components that change with the seed (the booklet aside)."""
    definition = kit.definition
    results: list[tuple[str, Output]] = []
    ctx = _SeedWatch(definition, kit.paper, kit.seed, kit.variants, kit.options, kinds=KINDS)
    for spec in definition.components:
        common = spec.typed(CommonSpec)
        if not common.output or spec.kind == "booklet":
            continue
        key = (definition.path, definition.id, kit.paper, kit.variants, repr(kit.options), spec.id)
        if _SEED_FREE.get(key):
            continue
        ctx.seed_read = False
        outputs = find_kind(spec.kind).build(spec, ctx)
        _SEED_FREE[key] = not ctx.seed_read
        if ctx.seed_read:
            for output in outputs:
                if not common.in_kit:
                    output = replace(output, in_kit=False)
                results.append((spec.id, output))
    return results


def write_preview(folder: str, page: Page, title: str, author: str = AUTHOR) -> BuiltFile:
    """Write FOLDER/preview.svg, a light picture of a page (no text, lengths to 0.1 mm) for the
    contact sheet: a kit's first page with an SVG, its board where it has one."""
    from generator.render.svg import write_svg

    buffer = io.BytesIO()
    write_svg(page, buffer, title, preview=True, author=author)
    data = buffer.getvalue()
    path = os.path.join(folder, PREVIEW)
    atomic_write(path, lambda handle: handle.write(data))
    return BuiltFile(path, 1, hashlib.sha256(data).hexdigest())


def batch_pages(kit: KitPlan, seeds: Iterable[int]) -> Iterable[Page]:
    """Yield the first board's page(s) for each of a batch's seeds, one seed at a time (flat memory)."""
    spec = batch_board(kit.definition)
    kind = find_kind(spec.kind)
    for seed in seeds:
        for output in kind.build(spec, kit.for_seed(seed).context()):
            yield from output.pages


def write_batch(kit: KitPlan, seeds: Sequence[int]) -> str:
    """Write OUT/<game>-seeds<first>-<last>.pdf with every seed's board; return its path."""
    variants = "".join(f"-{v}" for v in sorted(kit.variants))
    name = f"{kit.definition.id}-seeds{seeds[0]}-{seeds[-1]}{variants}.pdf"
    path = os.path.join(kit.out, name)
    writer = find_writer("pdf")
    atomic_write(
        path,
        lambda handle: writer(
            batch_pages(kit, seeds),
            handle,
            file_title(kit.definition, f"boards for seeds {seeds[0]}-{seeds[-1]}"),
            author=file_author(kit.definition),
            **writer_options(kit.options),
        ),
    )
    return path
