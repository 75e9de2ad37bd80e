"""The print guide names what a kit built with ``--export cut`` or ``--service NAME`` holds beside
kit.pdf, and only then: the sheets whose fronts carry registration marks (their numbers and pages,
as the manifest lists the cut files), every cut file (cut/sheet-<n>.svg), what goes to Silhouette
Studio, the marks' size and distance from the page's edges, that backs carry none; and the
service's folder service/<name>/ with its README.txt. Read back from kit.pdf's guide pages, for
every built-in kit, in English, French and Italian (the translated guides holding no English)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator.definitions.values import BUILTIN_GAMES
from generator.kits.service import FOLDER, SERVICES
from generator.printing.cut import REG_INSET, REG_LENGTH, REG_SQUARE
from tests.conftest import shared_build
from tests.foundation.test_translations import english_in

GUIDE = "print-guide"  # the guide's component id in the manifest
# what a translated guide prints as it is typed or named: an option with its value, a path in the
# kit's folder (cut/sheet-<n>.svg, service/tgc/) and a service's name
AS_TYPED = re.compile(
    r"--export cut|(?:[\w<>.-]+/)+[\w<>.-]*|" + "|".join(re.escape(s.title) for s in SERVICES.values())
)


def cut_kit(game: str, lang: str, service: str) -> str:
    """Return the output folder of the kit of game built with --export cut and --service in lang
    (PDF only, no part files), shared with every test that reads the same kit."""
    return shared_build(game, formats=("pdf",), export=("cut",), service=service, lang=lang, parts=False)


def kit_folder(out: str) -> Path:
    """Return the one kit folder built into out."""
    (folder,) = [p for p in Path(out).iterdir() if (p / "manifest.json").is_file()]
    return folder


def guide_text(folder: Path) -> tuple[str, dict]:
    """Return the text of kit.pdf's guide pages (the pages the manifest gives the guide), its
    lines joined by spaces, and the manifest."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    [guide] = [c for c in manifest["kit"]["components"] if c["id"] == GUIDE]
    first, last = guide["pages"]
    doc = pdfium.PdfDocument(str(folder / "kit.pdf"))
    lines = []
    for index in range(first - 1, last):
        lines += doc[index].get_textpage().get_text_range().replace("\r", "").split("\n")
    doc.close()
    return "\n".join(lines), manifest


def joined(text: str) -> str:
    """Return the text with its line breaks (and a hyphen's break) read as spaces."""
    return re.sub(r"\s+", " ", text)


def mm_figure(value: float, lang: str) -> str:
    """Return a figure in mm as the guide writes it in a language ('0,5 mm' in French)."""
    figure = f"{value:g}"
    return f"{figure.replace('.', ',') if lang != 'en' else figure} mm"


@pytest.fixture(scope="module")
def cut_kits() -> dict[str, Path]:
    """Return the folders of every built-in kit built as PDF with --export cut, in English."""
    # the session's build (test_cut_export.py reads it too)
    out = shared_build(formats=["pdf"], export=("cut",), parts=False, jobs=2, paper="a4", bleed=None)
    return {p.name.split("-seed")[0]: p for p in Path(out).iterdir() if (p / "manifest.json").is_file()}


@pytest.mark.slow  # every kit built
@pytest.mark.parametrize("game", sorted(BUILTIN_GAMES))
def test_the_guide_names_every_cut_file_and_its_marked_sheet(cut_kits, game):
    text, manifest = guide_text(cut_kits[game])
    flat = joined(text)
    listed = manifest["kit"]["cut"]
    assert listed, "every built-in kit has parts to cut"
    for entry in listed:
        assert (cut_kits[game] / entry["file"]).is_file()
        assert entry["file"] in flat, entry
    # the sheets' numbers and their fronts' pages, in the order of kit.pdf
    numbers = ", ".join(str(e["sheet"]) for e in listed)
    pages = ", ".join(str(e["page"]) for e in listed)
    assert re.search(rf"\b{re.escape(numbers)} \((?:page|pages) {re.escape(pages)}\)", flat), flat
    assert "Silhouette Studio" in flat and "registration marks" in flat
    for figure in (REG_SQUARE, REG_LENGTH, REG_INSET):
        assert mm_figure(figure, "en") in flat
    assert "Backs carry no marks" in flat
    assert f"{FOLDER}/" not in flat and "README.txt" not in flat  # no --service given


@pytest.mark.parametrize("game", sorted(BUILTIN_GAMES))
def test_the_guide_names_no_cut_file_or_service_unless_asked(every_kit, game):
    out, _ = every_kit  # every built-in kit built with neither option, on A4 and on Letter
    [folder] = [p for p in Path(out).iterdir() if p.name.split("-seed")[0] == game]
    text, manifest = guide_text(folder)
    flat = joined(text)
    assert "cut" not in manifest["kit"]
    assert not (folder / "cut").exists() and not (folder / FOLDER).exists()
    for said in ("cut/sheet-", "Silhouette", "registration mark", f"{FOLDER}/", "README.txt", "--export"):
        assert said not in flat, said
    for service in SERVICES.values():
        assert service.title not in flat


# one kit with three marked sheets and one with standees, in every language and with every service
# (the first in the fast tier, the others slow)
CASES = [
    ("barricades", "fr", "tgc"),
    *(
        pytest.param(*case, marks=pytest.mark.slow)
        for case in (
            ("push", "en", "tgc"),
            ("push", "fr", "mpc"),
            ("barricades", "it", "drivethrucards"),
            ("push", "it", "tgc"),
        )
    ),
]


@pytest.mark.parametrize("game,lang,service", CASES)
def test_the_guide_names_the_cut_files_and_the_service_folder_in_every_language(
    tmp_path, game, lang, service
):
    folder = kit_folder(cut_kit(game, lang, service))
    text, manifest = guide_text(folder)
    flat = joined(text)
    for entry in manifest["kit"]["cut"]:
        assert entry["file"] in flat
    for figure in (REG_SQUARE, REG_LENGTH, REG_INSET):
        assert mm_figure(figure, lang) in flat
    assert "Silhouette Studio" in flat
    where = f"{FOLDER}/{service}/"
    assert where in flat and "README.txt" in flat and SERVICES[service].title in flat
    assert (folder / FOLDER / service / "README.txt").is_file()
    for other in set(SERVICES) - {service}:
        assert f"{FOLDER}/{other}/" not in flat
    if lang != "en":
        bare = [AS_TYPED.sub(" ", flat)]  # the lines joined: a name may break across two
        assert not english_in(bare), english_in(bare)
    assert os.path.isfile(folder / "kit.pdf")


def page_words(pages) -> str:
    """Return every text drawn on the pages, groups walked, joined by spaces."""
    from generator.model.page import Group, Text

    found: list[str] = []

    def walk(shapes) -> None:
        for shape in shapes:
            if isinstance(shape, Group):
                walk(shape.children)
            elif isinstance(shape, Text):
                found.append(shape.text)

    for page in pages:
        walk(page.shapes)
    return joined(" ".join(found))


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_a_kit_with_nothing_to_cut_is_told_so_and_names_no_cut_file(lang):
    from generator.components.base import Options
    from generator.components.kinds import KINDS
    from generator.definitions.loader import find_definition
    from generator.kits.kit import component_outputs, print_pages
    from generator.kits.plan import kit_plan
    from generator.printing.cut import has_parts_to_cut, with_marks
    from generator.printing.guide import guide_pages
    from generator.printing.job import Part, job_sheets

    kit = kit_plan(find_definition("everest"), options=Options(lang=lang), cut=True)
    outputs = component_outputs(kit.definition, kit.context(), kit.parts_context())
    parts = [
        Part(
            c,
            KINDS[kit.definition.component(c).kind].stock,
            print_pages(o, kit.paper, lang),
            o.booklet,
            o.items or (),
        )
        for c, o in outputs
        if o.in_kit
    ]
    sheets = with_marks(
        job_sheets(parts, kit.paper, False, lang, kit.definition.title, papers=kit.stock_papers())
    )
    assert any(has_parts_to_cut(s) for s in sheets)
    uncut = [s for s in sheets if not has_parts_to_cut(s)]  # the kit without its parts to cut
    marked = page_words(guide_pages(kit.context(), sheets, False, cut=True))
    told = page_words(guide_pages(kit.context(), uncut, False, cut=True))
    assert "cut/sheet-" in marked and "--export cut" in marked and "Silhouette Studio" in marked
    assert "cut/sheet-" not in told and "Silhouette Studio" not in told
    assert "--export cut" in told and "cut/" in told  # what the option did: nothing to cut
    plain = page_words(guide_pages(kit.context(), uncut, False))
    assert "--export" not in plain and "cut/" not in plain
