"""Metadata and small marks, each read back from what a build writes and checked against its rule:
file titles and authors say what the file is; --parts writes a PDF for every part of kit.pdf; the
booklets' HTML contents number each entry once; --help says what each option takes; track numbers
keep a margin in their boxes; text off the cut-out parts stays clear of their cuts; the analysis
chart's band key is crossed by no bar; the print guide names the card fronts, printed single-sided;
the README's claims hold (page size on Letter, what `pnp new` writes, its board picture, --fit
with --cell-size refused)."""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET

import pypdf
import pytest

from generator.bots.analysis import analyse, chart_page
from generator.cli.app import app
from generator.model.page import Page, Rect, Style, Text
from generator.printing.imposition import find_paper
from generator.printing.layout_check import CUT_CLEAR, check_page
from tests.conftest import ROOT, build, kit_definitions, layouts_for, mm, shared_build
from tests.foundation.test_cli import one_line_error, pnp
from tests.pdf_reader import open_pdf

GAMES = kit_definitions()  # the built-in games and the starter kit `pnp new` writes
DC = "{http://purl.org/dc/elements/1.1/}"
SVG = "{http://www.w3.org/2000/svg}"


def manifest_of(folder: str) -> dict:
    with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as handle:
        return json.load(handle)


def kit_folders(out: str) -> list[str]:
    return sorted(os.path.join(out, e.name) for e in os.scandir(out) if e.is_dir())


def svg_title_and_creator(path: str) -> tuple[str, str]:
    root = ET.parse(path).getroot()
    title = root.find(SVG + "title")
    creator = next(root.iter(DC + "creator"), None)
    return (title.text or "" if title is not None else "", creator.text or "" if creator is not None else "")


def part_names(manifest: dict) -> str:
    """Return a pattern of what a kit's files may say they are: a component's title (a sheet of
    it, its preview, its booklet in a language, a page of its booklet), the print-and-play kit or
    the print guide."""
    definition = GAMES[manifest["game"]]
    titles = [c.values.get("title") or c.id for c in definition.components]
    names = "|".join(re.escape(t) for t in titles + ["print-and-play kit", "print guide"])
    return rf"(?:{names})(?: sheet [0-9]+| \(preview\)| \([a-z]{{2}}\))?(?: page [0-9]+)?"


# -- titles and authors ---------------------------------------------------------------------------


def test_every_svg_and_pdf_is_titled_with_the_game_once_and_the_part_and_names_pnp(all_kits: str) -> None:
    seen = 0
    for folder in kit_folders(all_kits):
        manifest = manifest_of(folder)
        game, part = re.escape(manifest["title"]), part_names(manifest)
        for entry in manifest["files"]:
            path = os.path.join(folder, entry["name"])
            if entry["name"].endswith(".svg"):
                title, author = svg_title_and_creator(path)
            elif entry["name"].endswith(".pdf"):
                info = pypdf.PdfReader(path).metadata or {}
                title, author = str(info.get("/Title", "")), str(info.get("/Author", ""))
            else:
                continue
            seen += 1
            assert re.fullmatch(rf"{game}: {part}", title), f"{entry['name']}: title {title!r}"
            assert title.count(manifest["title"]) == 1, f"{entry['name']}: {title!r} names the game twice"
            assert author == "pnp", f"{entry['name']}: author {author!r}"
    assert seen > 90


def test_a_designer_in_the_definition_is_the_author_of_every_file(tmp_path) -> None:
    assert pnp("new", "lanterns", cwd=str(tmp_path)).returncode == 0
    definition = tmp_path / "layouts" / "lanterns.toml"
    text = definition.read_text(encoding="utf-8")
    definition.write_text(
        text.replace("[game]\n", '[game]\ndesigner = "Ada Lovelace"\n', 1), encoding="utf-8"
    )
    out = tmp_path / "out"
    build(str(out), "lanterns", layouts=str(tmp_path / "layouts"))
    folder = out / "lanterns"
    authors = set()
    for entry in manifest_of(str(folder))["files"]:
        path = str(folder / entry["name"])
        if entry["name"].endswith(".svg"):
            authors.add(svg_title_and_creator(path)[1])
        elif entry["name"].endswith(".pdf"):
            authors.add(str((pypdf.PdfReader(path).metadata or {}).get("/Author")))
    assert authors == {"Ada Lovelace"}


# -- --parts --------------------------------------------------------------------------------------


def test_parts_writes_a_pdf_for_every_part_of_kit_pdf(all_kits: str) -> None:
    for folder in kit_folders(all_kits):
        manifest = manifest_of(folder)
        files = {f["name"]: f["pages"] for f in manifest["files"]}
        for part in manifest["kit"]["components"]:
            name = f"{part['id']}.pdf"
            assert name in files, f"{folder}: no {name} for the part {part['title']!r} of kit.pdf"
            assert len(open_pdf(os.path.join(folder, name))) == files[name] >= 1


# -- the booklets' HTML contents -------------------------------------------------------------------


def test_no_contents_entry_of_any_booklet_is_numbered_twice(all_kits: str) -> None:
    """An ordered list numbers its entries: an entry's own text carries no second number, and a
    heading that numbers itself ("1. Throwing") gives the entry that number."""
    numbered = 0
    for folder in kit_folders(all_kits):
        for name in sorted(n for n in os.listdir(folder) if re.fullmatch(r"booklet(\.[a-z]{2})?\.html", n)):
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                page = handle.read()
            nav = re.search(r'<nav class="toc".*?</nav>', page, re.S)
            assert nav, f"{folder}/{name}: no contents"
            assert "<ol" in nav.group(0)
            for value, text in re.findall(r'<li(?: value="([0-9]+)")?><a href="#([^"]*)">', nav.group(0)):
                anchor_number = re.match(r"([0-9]+)-", text)
                if anchor_number:  # the heading numbers itself
                    numbered += 1
                    assert value == anchor_number.group(1), f"{folder}/{name}: {text}"
            for entry in re.findall(r"<a href=\"#[^\"]*\">(.*?)</a>", nav.group(0)):
                assert not re.match(r"\s*[0-9]+[.)]\s", entry), f"{folder}/{name}: entry {entry!r}"
    assert numbered >= 3  # Push!'s three steps of a turn


# -- --help ---------------------------------------------------------------------------------------

TYPE_NAMES = {"<str>", "<int>", "<float>", "TEXT", "INTEGER", "FLOAT"}


def help_of(*command: str) -> str:
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, [*command, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(
    "command", ["games", "build", "check", "board", "new", "calibrate", "referee", "analyse"]
)
def test_every_option_that_takes_a_value_says_what_it_takes(command: str) -> None:
    options = re.findall(r"^\s+(?:-\w, )?(--[\w-]+)(?: (\S+))?\s", help_of(command), re.M)
    assert options
    for option, metavar in options:
        assert metavar not in TYPE_NAMES, f"pnp {command} {option} shows {metavar}"


def test_lengths_papers_and_lists_are_named_in_the_help() -> None:
    text = help_of("build")
    for option, metavar in (
        ("--cell-size", "LENGTH"),
        ("--bleed", "LENGTH"),
        ("--paper", "PAPER"),
        ("--format", "FORMAT,..."),
        ("--variant", "VARIANT,..."),
        ("--duplex-offset", "DX,DY"),
        ("--seeds", "A-B"),
    ):
        assert re.search(rf"{option} {re.escape(metavar)}\s", text), option


# -- track numbers ---------------------------------------------------------------------------------

TRACK_GAMES = sorted(g for g, d in GAMES.items() if any(c.kind == "track" for c in d.components))


@pytest.mark.parametrize("paper,cell", [("a4", None), ("letter", None), ("a4", "25mm")])
@pytest.mark.parametrize("game", TRACK_GAMES)
def test_track_numbers_keep_a_margin_in_their_boxes_and_clear_of_the_arrows(
    tmp_path, game, paper, cell
) -> None:
    build(str(tmp_path), game, formats=["pdf"], paper=paper, cell_size=cell, **layouts_for(game))
    spec = next(c for c in GAMES[game].components if c.kind == "track")
    folder = next(f for f in kit_folders(str(tmp_path)))
    checked = 0
    for page in open_pdf(os.path.join(folder, f"{spec.id}.pdf")):
        drawings = page.get_drawings()
        boxes = [d["rect"] for d in drawings if d.get("color") and not d.get("fill") and d["rect"].width > 20]
        arrows = [d["rect"] for d in drawings if d.get("fill") == (0.0, 0.0, 0.0) and d["rect"].width < 20]
        spans = [
            s
            for block in page.get_text("dict")["blocks"]
            for line in block.get("lines", [])
            for s in line["spans"]
            if s["text"].strip().isdigit() and s["size"] > 12
        ]
        for span in spans:
            x0, y0, x1, y1 = span["bbox"]
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            box = next((b for b in boxes if b.x0 < cx < b.x1 and b.y0 < cy < b.y1), None)
            if box is None:
                continue  # a tile shows part of a box
            checked += 1
            margin = min(x0 - box.x0, box.x1 - x1)
            assert mm(margin) >= 0.1 * mm(box.width), (
                f"{span['text']!r} is {mm(margin):.1f} mm from its {mm(box.width):.1f} mm box's side"
            )
            for a in arrows:
                apart = max(a.x0 - x1, x0 - a.x1, a.y0 - y1, y0 - a.y1)
                assert mm(apart) >= 0.5, f"{span['text']!r} runs into an arrow ({mm(apart):.1f} mm)"
    numbered = [label for label in spec["path"] or [] if label.isdigit()]  # a path given as a list
    assert checked >= min(20, len(numbered) or 20)  # each box seen whole at least once


# -- footers and cut lines ---------------------------------------------------------------------------


def test_the_layout_check_finds_text_off_the_parts_near_a_cut() -> None:
    paper = find_paper("a4")

    def sheet(footer_y: float) -> Page:
        shapes = (Rect(20, 20, 100, 100, Style(stroke="#999999")), Text(20, footer_y, "footer", 7))
        return Page(paper.width, paper.height, shapes, label="sheet", cuts=((20.0, 20.0, 120.0, 120.0),))

    near = sheet(120 + CUT_CLEAR / 2 + 2.0)  # its top some 0.5 mm below the cut
    far = sheet(120 + CUT_CLEAR + 4.0)
    assert any("from the cut of a part" in f.problem for f in check_page(near))
    assert not any("from the cut of a part" in f.problem for f in check_page(far))


def test_no_footer_of_any_kit_comes_near_a_cut_line(every_kit: tuple[str, str]) -> None:
    """Read back from every part PDF of every kit built on A4 and on Letter (the session's builds):
    the footer line (the lowest text of a sheet) keeps clear of the lowest cut line (the grey
    lines around the cut-out parts)."""
    out, _ = every_kit
    checked = 0
    for folder in kit_folders(out):
        for entry in manifest_of(folder)["files"]:
            if not entry["name"].endswith(".pdf") or entry["name"].startswith(("kit", "booklet")):
                continue
            for page in open_pdf(os.path.join(folder, entry["name"])):
                cuts = [
                    d["rect"]
                    for d in page.get_drawings()
                    if d.get("color") and not d.get("fill") and _grey(d["color"]) and d["rect"].height > 5
                ]
                words = page.get_text("words")
                if not cuts or not words:
                    continue
                footer = max(words, key=lambda w: w[3])
                lowest = max(c.y1 for c in cuts)
                if footer[1] < lowest:
                    continue  # the lowest words are on a part
                checked += 1
                assert mm(footer[1] - lowest) >= CUT_CLEAR, (
                    f"{folder} {entry['name']}: the footer is {mm(footer[1] - lowest):.1f} mm below a cut"
                )
    assert checked >= 10


def _grey(colour: tuple[float, ...]) -> bool:
    return len(colour) == 3 and max(colour) - min(colour) < 0.01 and 0.3 < colour[0] < 0.9


# -- the analysis chart --------------------------------------------------------------------------------


def test_no_bar_of_the_analysis_chart_crosses_its_band_key() -> None:
    result = analyse("aggression", range(1, 41), games=3, band=(0.4, 0.6))
    page = chart_page(result)
    findings = [f for f in check_page(page, contrast=True) if "balance band" in f.shape]
    assert not findings, "\n".join(str(f) for f in findings)
    assert any(isinstance(s, Text) and "balance band 0.40-0.60" in s.text for s in page.shapes)


# -- the print guide's card pages ---------------------------------------------------------------------


@pytest.mark.parametrize("single", [False, True])
def test_the_guide_names_the_card_fronts_printed_single_sided_and_no_blank_back(single) -> None:
    # the session's builds of every kit (the guide and kit.pdf are the same with --parts or without)
    for folder in kit_folders(shared_build(paper="a4", formats=["pdf"], single_sided=single)):
        sheets = manifest_of(folder)["kit"]["sheets"]
        doc = open_pdf(os.path.join(folder, "kit.pdf"))
        guide = re.sub(r"\s+", " ", doc[0].get_text())
        said = re.search(r"for pages? ([0-9, ]+), printed single-sided", guide)
        fronts = [s["pages"][0] for s in sheets if s["stock"] == "card" and s["sides"] == "single"]
        assert said and [int(p) for p in said.group(1).split(", ")] == fronts, (folder, guide[:600])
        for number in fronts:
            front = doc[number - 1]
            assert front.get_text().strip() or front.get_drawings(), f"{folder}: page {number} is blank"
        assert (
            not any(s["stock"] == "card" and s["sides"] == "duplex" for s in sheets) or "both sides" in guide
        )


# -- the README --------------------------------------------------------------------------------------


def readme() -> str:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as handle:
        return handle.read()


def test_the_readme_says_the_booklet_pages_are_half_the_sheet_on_either_paper() -> None:
    out = shared_build(paper="letter", formats=["pdf"])  # every kit on Letter: every_kit's build
    page = open_pdf(os.path.join(out, "nine-mens-morris", "booklet.pdf"))[0]
    assert (round(mm(page.rect.width), 1), round(mm(page.rect.height), 1)) == (139.7, 215.9)  # half-letter
    row = next(line for line in readme().splitlines() if line.startswith("| `booklet.pdf`"))
    assert "half-letter" in row and "A5" in row


def test_the_readme_names_every_file_pnp_new_writes(tmp_path) -> None:
    result = pnp("new", "lanterns", cwd=str(tmp_path))
    written = re.findall(r"^wrote (\S+)$", result.stdout, re.M)
    assert len(written) >= 4
    steps = readme().split("## Make your own game", 1)[1].split("```", 2)[1]
    for path in written:
        assert path in steps, f"the README's steps do not say that pnp new writes {path}"


def test_the_readme_board_picture_is_what_the_readme_steps_build(tmp_path) -> None:
    pytest.importorskip("PIL")
    from PIL import Image

    from tools.readme_board import PICTURE, board_picture, difference

    assert "docs/make-your-own-board.png" in readme()
    with Image.open(PICTURE) as kept:
        assert difference(board_picture(str(tmp_path)), kept) < 2.0


def test_fit_with_a_cell_size_is_refused_in_one_line_and_the_readme_says_so(tmp_path) -> None:
    result = pnp("build", "barricades", "--fit", "--cell-size", "25mm", "--out", str(tmp_path / "out"), "-q")
    assert result.returncode == 2
    line = one_line_error(result)
    assert "--fit" in line and "--cell-size" in line
    assert not os.path.exists(tmp_path / "out")
    options = readme().split("## Print options", 1)[1]
    assert re.search(r"`--fit` and `--cell-size` are refused\s+together", options)
