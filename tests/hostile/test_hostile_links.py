"""Item 0: every file a definition names (a deck's CSV, its pictures and their folder, booklet and
quick-reference templates, what a template includes or extends, the templates folder itself) is
read only when its real path, links followed, lies inside the definition's folder tree. A link to
a file elsewhere is one line, exit 3, from `check` and `build` alike, and its content reaches no
output."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable

import pytest

from tests.hostile.helpers import Run, cli

SECRET = "SECRET-4f1e-not-for-the-kit"

DEFINITION = """
[game]
id = "leak"
title = "Leak"
players = "2"

[components.deck]
kind = "cards"
size = "mini"
{deck}
[[components.deck.fields]]
text = "{{name}}"
{picture}
[components.aid]
kind = "quick-reference"

[components.booklet]
kind = "booklet"
cover = false
"""
PICTURE = """[[components.deck.fields]]
kind = "image"
image = "{image}"
x = "2mm"
y = "10mm"
w = "20mm"
h = "20mm"
"""


def _png(path: str, text: str = "") -> None:
    from PIL import Image, PngImagePlugin

    info = PngImagePlugin.PngInfo()
    if text:
        info.add_text("Comment", text)
    Image.new("RGB", (20, 20), (0, 114, 178)).save(path, pnginfo=info)


def _kit(root: str, deck: str = 'csv = "deck.csv"', image: str = "") -> str:
    """Write a small kit of cards (a CSV deck), a quick reference and a booklet; return its
    layouts folder."""
    layouts = os.path.join(root, "layouts")
    for folder in ("layouts/art", "templates/booklets", "templates/quickref"):
        os.makedirs(os.path.join(root, folder), exist_ok=True)
    picture = PICTURE.format(image=image) if image else ""
    with open(os.path.join(layouts, "leak.toml"), "w", encoding="utf-8") as handle:
        handle.write(DEFINITION.format(deck=deck, picture=picture))
    with open(os.path.join(layouts, "deck.csv"), "w", encoding="utf-8") as handle:
        handle.write("name,quantity\nFox,2\n")
    _png(os.path.join(layouts, "art", "fox.png"))
    with open(os.path.join(root, "templates", "booklets", "leak.en.md.j2"), "w", encoding="utf-8") as h:
        h.write("# Leak\n\nPlay.\n")
    with open(os.path.join(root, "templates", "quickref", "leak.en.md.j2"), "w", encoding="utf-8") as h:
        h.write("# Turn\n\nMove.\n")
    return layouts


def _secret_file(root: str) -> str:
    """Return a file outside the kit's folder holding the secret (also a valid CSV and PNG)."""
    outside = os.path.join(os.path.dirname(root), "elsewhere")
    os.makedirs(outside, exist_ok=True)
    path = os.path.join(outside, "secret.txt")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(f"name,quantity\n{SECRET},1\n")
    _png(os.path.join(outside, "secret.png"), SECRET)
    return path


def _link(target: str, link: str) -> None:
    if os.path.isdir(link) and not os.path.islink(link):
        shutil.rmtree(link)
    elif os.path.lexists(link):
        os.remove(link)
    os.symlink(target, link)


def _replace_template(name: str, text: str) -> Callable[[str], None]:
    def change(kit: str) -> None:
        with open(os.path.join(kit, "templates", name), "w", encoding="utf-8") as handle:
            handle.write(text)

    return change


# (what the kit says, what it changes before linking, which file becomes a link to the secret file)
CASES = {
    "deck csv": ({}, None, "layouts/deck.csv", "secret.txt"),
    "card picture": ({"image": "art/fox.png"}, None, "layouts/art/fox.png", "secret.png"),
    "card picture folder": ({"image": "art/fox.png"}, None, "layouts/art", "."),
    "booklet template": ({}, None, "templates/booklets/leak.en.md.j2", "secret.txt"),
    "quick-reference template": ({}, None, "templates/quickref/leak.en.md.j2", "secret.txt"),
    "an include": (
        {},
        _replace_template("booklets/leak.en.md.j2", "# Leak\n\n{% include 'part.md' %}\n"),
        "templates/booklets/part.md",
        "secret.txt",
    ),
    "an extends": (
        {},
        _replace_template("quickref/leak.en.md.j2", "{% extends 'base.j2' %}\n"),
        "templates/base.j2",
        "secret.txt",
    ),
    "the templates folder": ({}, None, "templates", "."),
}


def _everything_written(root: str) -> str:
    """Return every byte under the output folder, as text, to look for the secret in."""
    seen = []
    for folder, _, names in os.walk(os.path.join(root, "out")):
        for name in names:
            with open(os.path.join(folder, name), "rb") as handle:
                seen.append(handle.read().decode("latin-1"))
    return "".join(seen)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_link_out_of_the_folder_is_refused_and_never_read(tmp_path, case):
    kit_args, change, link, target = CASES[case]
    root = str(tmp_path / "kit")
    layouts = _kit(root, **kit_args)
    secret = _secret_file(root)
    if change is not None:
        change(root)
    if target == "." and link == "templates":
        # a whole templates folder elsewhere, with every template the kit needs and an extra
        elsewhere = os.path.join(os.path.dirname(secret), "templates")
        shutil.copytree(os.path.join(root, "templates"), elsewhere)
        _link(elsewhere, os.path.join(root, link))
    elif target == ".":
        shutil.copy(os.path.join(layouts, "art", "fox.png"), os.path.join(os.path.dirname(secret), "fox.png"))
        _link(os.path.dirname(secret), os.path.join(root, link))
    else:
        _link(os.path.join(os.path.dirname(secret), target), os.path.join(root, link))
    for run in (
        cli("check", os.path.join(layouts, "leak.toml")),
        cli("build", "leak", "--layouts", layouts, "--out", os.path.join(root, "out"), "-q"),
    ):
        assert run.code == 3, (case, run.err)
        line = run.one_line_error()
        assert "outside" in line and "link" in line, line
        assert SECRET not in run.out + run.err
    assert SECRET not in _everything_written(root)
    assert not os.path.exists(os.path.join(root, "out", "leak"))


def test_links_that_stay_inside_the_folder_are_followed(tmp_path):
    root = str(tmp_path)
    layouts = _kit(root, image="art/picture.png")
    os.symlink("fox.png", os.path.join(layouts, "art", "picture.png"))
    os.rename(os.path.join(layouts, "deck.csv"), os.path.join(layouts, "art", "cards.csv"))
    os.symlink(os.path.join("art", "cards.csv"), os.path.join(layouts, "deck.csv"))
    run = cli("build", "leak", "--layouts", layouts, "--out", os.path.join(root, "out"), "-q")
    assert run.code == 0, run.err
    with open(os.path.join(root, "out", "leak", "deck.svg"), encoding="utf-8") as handle:
        svg = handle.read()
    assert "Fox" in svg and "<image" in svg  # the deck's rows and its picture, read through links


def _check(layouts: str) -> Run:
    return cli("check", os.path.join(layouts, "leak.toml"))


@pytest.mark.parametrize("name", ["deck.csv", "art/fox.png"])
def test_a_fifo_named_by_a_definition_is_refused_at_once(tmp_path, name):
    layouts = _kit(str(tmp_path), image="art/fox.png")
    os.remove(os.path.join(layouts, name))
    os.mkfifo(os.path.join(layouts, name))  # no writer: opening it to read must not wait
    run = _check(layouts)
    assert run.code == 3
    assert "special file" in run.one_line_error() or "not a regular file" in run.one_line_error()
