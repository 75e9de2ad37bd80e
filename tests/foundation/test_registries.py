"""Every registry is one table, and each table is complete: games, component kinds, writers and
languages (the CLI's help, the loader and the booklet read the same language table)."""

from __future__ import annotations

import ast
import os

from typer.testing import CliRunner

from generator.cli.app import app
from generator.components.kinds import KINDS
from generator.definitions.loader import load_all
from generator.foundation.languages import LANGUAGES
from generator.games import GAMES, find_rules
from generator.render import WRITERS

PACKAGE = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "generator"
)


def _modules_defining(folder: str, name: str) -> set[str]:
    """Return the modules of a package folder that assign ``name`` at the top level."""
    found = set()
    for file in os.listdir(folder):
        if file.endswith(".py"):
            with open(os.path.join(folder, file), encoding="utf-8") as handle:
                source = handle.read()
            if name not in source:  # cannot assign it: nothing to parse
                continue
            tree = ast.parse(source)
            for node in tree.body:
                targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
                if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                    found.add(file[:-3])
    return found


def test_every_rules_module_is_in_the_games_table() -> None:
    defining = _modules_defining(os.path.join(PACKAGE, "games"), "RULES")
    assert defining == {type(rules).__module__.rsplit(".", 1)[1] for rules in GAMES.values()}
    for game_id, rules in GAMES.items():
        assert rules.id == game_id and find_rules(game_id) is rules


def test_every_definition_with_rules_finds_them() -> None:
    for definition in load_all():
        assert definition.rules_id in GAMES


def test_every_kind_module_is_in_the_kind_table_and_says_board_and_stock() -> None:
    defining = _modules_defining(os.path.join(PACKAGE, "components"), "SCHEMA")
    assert defining == {kind.build.__module__.rsplit(".", 1)[1] for kind in KINDS.values()}
    for name, kind in KINDS.items():
        assert kind.name == name and callable(kind.build)
        assert kind.stock in ("paper", "card")
    boards = {name for name, kind in KINDS.items() if kind.is_board}
    assert boards == {"point-board", "grid-board", "hex-board", "track"}


def test_writers_table_names_every_format_the_cli_offers() -> None:
    result = CliRunner().invoke(app, ["build", "--help"], terminal_width=200)
    assert set(WRITERS) == {"pdf", "svg"}
    for fmt in WRITERS:
        assert fmt in result.output


def test_one_language_table_for_help_loader_and_booklet(tmp_path) -> None:
    help_text = CliRunner().invoke(app, ["build", "--help"], terminal_width=200).output
    assert "Language of the rule booklet: " + ", ".join(LANGUAGES) in help_text
    covers = [set(lang.cover) for lang in LANGUAGES.values()]
    assert all(c == covers[0] for c in covers)
    layouts = tmp_path / "layouts"
    layouts.mkdir()
    table = "".join(f'[translations.{code}]\n"game.title" = "Game {code}"\n' for code in LANGUAGES)
    (layouts / "g.toml").write_text(
        '[game]\nid = "g"\ntitle = "T"\nplayers = "2"\n'
        '[components.s]\nkind = "table-sheet"\nfields = ["a"]\nblocks = []\n' + table
    )
    for code in LANGUAGES:
        assert load_all(str(layouts), code)[0].title == f"Game {code}"
    (layouts / "g.toml").write_text(
        '[game]\nid = "g"\ntitle = "T"\nplayers = "2"\n[components.s]\nkind = "table-sheet"\n'
        'fields = ["a"]\nblocks = []\n[translations.xx]\n"game.title" = "T"\n'
    )
    result = CliRunner().invoke(app, ["check", str(layouts / "g.toml")])
    assert result.exit_code == 3 and f"unknown language (languages: {', '.join(LANGUAGES)})" in result.output
