"""kit.pdf is the one PDF to print: a part it holds gets a PDF of its own only with ``--parts``,
read back over every built-in kit, a definition that leaves a part out of kit.pdf, and a batch."""

from __future__ import annotations

import json
import os

import pytest

from tests.conftest import build, shared_build
from tests.foundation.test_cli import pnp
from tests.pdf_reader import open_pdf


def manifest_of(folder: str) -> dict:
    with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as handle:
        return json.load(handle)


@pytest.fixture(scope="module")
def with_and_without_parts(tmp_path_factory) -> tuple[str, str]:
    lean = str(tmp_path_factory.mktemp("lean"))
    build(lean, parts=False, jobs=2)
    return lean, shared_build(parts=True, jobs=2)  # the session's build of every kit (all_kits)


def kit_folders(out: str) -> list[str]:
    return sorted(e.name for e in os.scandir(out) if e.is_dir())


def test_by_default_each_kit_has_one_pdf_to_print_and_the_reading_booklet(with_and_without_parts):
    lean, _ = with_and_without_parts
    assert len(kit_folders(lean)) == 8
    for folder in kit_folders(lean):
        manifest = manifest_of(os.path.join(lean, folder))
        pdfs = sorted(f["name"] for f in manifest["files"] if f["name"].endswith(".pdf"))
        booklets = [n for n in pdfs if n.startswith("booklet")]
        assert pdfs == sorted(["kit.pdf", *booklets]), folder
        assert "booklet.pdf" in booklets, folder
        assert not any("imposed" in n for n in pdfs), folder
        # every part is still in kit.pdf
        assert {"print-guide", "booklet"} < {c["id"] for c in manifest["kit"]["components"]}


def test_parts_adds_each_parts_own_pdf_and_changes_nothing_else(with_and_without_parts):
    lean, parts = with_and_without_parts
    assert kit_folders(lean) == kit_folders(parts)
    for folder in kit_folders(lean):
        a, b = manifest_of(os.path.join(lean, folder)), manifest_of(os.path.join(parts, folder))
        lean_files = {f["name"]: f["sha256"] for f in a["files"]}
        part_files = {f["name"]: f["sha256"] for f in b["files"]}
        # the same bytes for every file both builds write, kit.pdf and the SVGs included
        assert {n: h for n, h in part_files.items() if n in lean_files} == lean_files, folder
        added = set(part_files) - set(lean_files)
        assert added and added <= {c["id"] + ".pdf" for c in b["kit"]["components"]}, folder
        for name in added:
            pages = next(f["pages"] for f in b["files"] if f["name"] == name)
            assert len(open_pdf(os.path.join(parts, folder, name))) == pages >= 1


def test_the_home_page_opens_kit_pdf_at_each_parts_first_page(with_and_without_parts):
    lean, parts = with_and_without_parts
    index = open(os.path.join(lean, "index.html"), encoding="utf-8").read()
    for folder in kit_folders(lean):
        kit = manifest_of(os.path.join(lean, folder))["kit"]
        for part in kit["components"]:
            if part["id"] in ("print-guide", "booklet"):
                continue
            assert f'href="{folder}/kit.pdf#page={part["pages"][0]}"' in index, (folder, part["id"])
    with_parts = open(os.path.join(parts, "index.html"), encoding="utf-8").read()
    for folder in kit_folders(parts):
        for name in {f["name"] for f in manifest_of(os.path.join(parts, folder))["files"]}:
            if name.endswith(".pdf") and name != "kit.pdf" and not name.startswith("booklet"):
                assert f'href="{folder}/{name}"' in with_parts, (folder, name)


def test_a_part_left_out_of_kit_pdf_keeps_its_own_pdf(tmp_path):
    assert pnp("new", "lanterns", cwd=str(tmp_path)).returncode == 0
    toml = tmp_path / "layouts" / "lanterns.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace("[components.scoresheet]\n", "[components.scoresheet]\nin_kit = false\n", 1))
    result = pnp("build", "lanterns", "--layouts", "layouts", "--out", "out", cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    manifest = manifest_of(str(tmp_path / "out" / "lanterns"))
    names = {f["name"] for f in manifest["files"]}
    assert "scoresheet" not in {c["id"] for c in manifest["kit"]["components"]}
    assert "scoresheet.pdf" in names and "board.pdf" not in names


def test_a_batchs_later_seeds_keep_their_board_pdf(tmp_path):
    result = pnp("build", "aggression", "--seeds", "3-4", "--out", str(tmp_path), "-q")
    assert result.returncode == 0, result.stderr
    first = {f["name"] for f in manifest_of(str(tmp_path / "aggression-seed3"))["files"]}
    later = {f["name"] for f in manifest_of(str(tmp_path / "aggression-seed4"))["files"]}
    assert "kit.pdf" in first and "map.pdf" not in first
    assert "kit.pdf" not in later and any(n.endswith(".pdf") for n in later)
