"""The starter kit ``pnp new`` writes: a definition showing every component kind, the CSV files of
its deck of cards and its counters, the SVG drawing on its card backs and a counter, and its
booklet and quick-reference texts."""

from __future__ import annotations

import os
import re
from importlib import resources

from generator.foundation.errors import UsageError
from generator.foundation.files import atomic_write_text

_ID = re.compile(r"^[a-z][a-z0-9-]{0,39}$")

STANDEES = '''[[components.standees.figures]]
name = "Gold captain"
count = 1
fill = "gold"
symbol = "crown"
initial = "G"

[[components.standees.figures]]
name = "Blue captain"
count = 1
fill = "blue"
symbol = "crown"
initial = "B"'''


def starter_files(game_id: str, layouts_dir: str) -> dict[str, str]:
    """Return the starter definition, its deck's and counters' CSV files, its SVG drawing, and the
    booklet and quick-reference templates for a game id, keyed by file path."""
    if not _ID.match(game_id):
        raise UsageError(
            f"a game id is lowercase letters, digits and '-', starting with a letter; got {game_id!r}"
        )
    title = game_id.replace("-", " ").title()
    folder = resources.files("generator.starter")
    toml = folder.joinpath("starter.toml").read_text(encoding="utf-8")
    toml = toml.format(id=game_id, title=title, layouts=layouts_dir, standees=STANDEES)
    booklet = folder.joinpath("starter.en.md.j2").read_text(encoding="utf-8")
    card = folder.joinpath("starter.quickref.en.md.j2").read_text(encoding="utf-8")
    deck = folder.joinpath("starter.cards.csv").read_text(encoding="utf-8")
    pieces = folder.joinpath("starter.pieces.csv").read_text(encoding="utf-8")
    compass = folder.joinpath("starter.compass.svg").read_text(encoding="utf-8")
    templates = os.path.normpath(os.path.join(os.path.dirname(os.path.normpath(layouts_dir)), "templates"))
    return {
        os.path.join(layouts_dir, f"{game_id}.toml"): toml,
        os.path.join(layouts_dir, f"{game_id}-cards.csv"): deck,
        os.path.join(layouts_dir, f"{game_id}-pieces.csv"): pieces,
        os.path.join(layouts_dir, "art", f"{game_id}-compass.svg"): compass,
        os.path.join(templates, "booklets", f"{game_id}.en.md.j2"): booklet,
        os.path.join(templates, "quickref", f"{game_id}.en.md.j2"): card,
    }


def write_starter(game_id: str, layouts_dir: str, force: bool = False) -> list[str]:
    """Write the starter files (refusing to overwrite unless forced); return their paths."""
    files = starter_files(game_id, layouts_dir)
    if not force:
        for path in files:
            if os.path.exists(path):
                raise UsageError(f"{path} already exists (use --force to overwrite)")
    for path, text in files.items():
        atomic_write_text(path, text)
    return list(files)
