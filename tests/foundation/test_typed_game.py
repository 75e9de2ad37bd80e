"""Typed definitions, the game table: a definition's ``[game]`` table as one frozen typed value
(``definition.game_spec``, a ``definitions.game_spec.GameSpec``), generated from ``GAME_SCHEMA``,
the table the component README documents. The module is current, every built-in and example
definition reads back through it with the values the loader checked, and a kit builds the same
files from a definition whose game table refuses every read by key: the package reads the game
table only through its typed value (the templates' ``game`` namespace is the table as a whole)."""

from __future__ import annotations

import ast
import dataclasses
import os
from typing import Any

import pytest

from generator.definitions.game_spec import GameSpec
from generator.definitions.loader import load_all
from generator.definitions.values import GAME_SCHEMA, GameDefinition
from generator.kits.kit import build_kit
from generator.kits.plan import kit_plan
from tests.foundation.test_typed_specs import EXAMPLES, plain
from tools.typed_specs import GAME_TARGET, attribute, unformatted_game_source


def every_definition() -> list[GameDefinition]:
    """Return the built-in definitions and every example's."""
    return load_all() + [
        d for name in sorted(os.listdir(EXAMPLES)) for d in load_all(os.path.join(EXAMPLES, name))
    ]


def test_the_game_tables_typed_value_is_generated_from_the_current_schema() -> None:
    # the code, not its layout (ruff, the lint extra, formats it; `ruff format --check` holds that)
    with open(GAME_TARGET, encoding="utf-8") as handle:
        current = ast.dump(ast.parse(handle.read()))
    assert current == ast.dump(ast.parse(unformatted_game_source())), (
        "generator/definitions/game_spec.py is stale: run tools/typed_specs.py"
    )
    assert [f.name for f in dataclasses.fields(GameSpec)] == [attribute(k) for k in GAME_SCHEMA]


@pytest.mark.parametrize("definition", every_definition(), ids=lambda d: d.path)
def test_every_game_table_reads_back_through_its_typed_value(definition: GameDefinition) -> None:
    typed = definition.game_spec
    assert definition.game_spec is typed  # made once
    assert plain(typed) == {attribute(k): plain(definition.game[k]) for k in GAME_SCHEMA}
    assert (definition.id, definition.title) == (typed.id, typed.title)
    with pytest.raises(dataclasses.FrozenInstanceError):
        typed.title = "changed"  # type: ignore[misc]


class OnlyTypedGame(dict):  # type: ignore[type-arg]
    """A game table that can be read only through its typed value and as a whole (``dict(...)``,
    the templates' namespace): a read by key is an error naming the key."""

    def __getitem__(self, key: str) -> Any:
        raise AssertionError(f"game[{key!r}] read by key")

    def get(self, key: str, default: Any = None) -> Any:
        raise AssertionError(f"game.get({key!r}) read by key")


def strict(definition: GameDefinition) -> GameDefinition:
    """Return the definition with its game table readable only through ``game_spec``."""
    return dataclasses.replace(definition, game=OnlyTypedGame(definition.game))


def files_of(folder: str) -> dict[str, bytes]:
    """Return every file under a kit's folder by its path inside it, with its bytes."""
    found = {}
    for top, _, names in os.walk(folder):
        for name in names:
            with open(os.path.join(top, name), "rb") as handle:
                found[os.path.relpath(os.path.join(top, name), folder)] = handle.read()
    return found


def test_a_game_table_that_refuses_reads_by_key_is_refused() -> None:
    # the strict table of the test below does refuse a read by key (or it could not fail)
    [definition] = [d for d in load_all() if d.id == "push"]
    table = strict(definition).game
    with pytest.raises(AssertionError, match="seeded"):
        table["seeded"]
    with pytest.raises(AssertionError, match="players"):
        table.get("players")
    assert dict(table) == definition.game  # as a whole, as the templates take it


def built_from(
    definition: GameDefinition, out: str, seed: int | None, variants: tuple[str, ...]
) -> dict[str, bytes]:
    """Return the files of the kit built from ``definition`` (and its other languages, made
    strict the same way when it is) into ``out``."""
    kit = kit_plan(definition, out=out, seed=seed, variants=variants, cut=True)
    if isinstance(definition.game, OnlyTypedGame):
        kit = dataclasses.replace(kit, translations=tuple(strict(t) for t in kit.translations))
        assert isinstance(kit.definition.game, OnlyTypedGame)
    kit = dataclasses.replace(kit, tts_url="", service="tgc")
    assert build_kit(kit)
    return files_of(os.path.join(kit.out, kit.folder))


def kit_cases() -> list[Any]:
    """Return (game, seed, variants) for every built-in game: a seed other than the default where
    it takes one, and every variant (each a whole kit built twice: slow)."""
    cases = []
    for d in load_all():
        seed = d.game_spec.default_seed + 3 if d.game_spec.seeded or d.game_spec.seed_optional else None
        cases.append(pytest.param(d.id, seed, d.game_spec.variants, id=d.id, marks=pytest.mark.slow))
    return cases


@pytest.mark.parametrize("definition", load_all(), ids=lambda d: d.id)
def test_a_kits_plan_reads_the_game_table_only_through_its_typed_value(definition: GameDefinition) -> None:
    # the plan's seed (default, or none for a fixed board) and variants, from a game table that
    # refuses every read by key, are those of the plain table (the whole kits build below, slow)
    typed = definition.game_spec
    seed = typed.default_seed + 3 if typed.seeded or typed.seed_optional else None
    for asked in (None, seed):
        plain_plan = kit_plan(definition, seed=asked, variants=typed.variants)
        strict_plan = kit_plan(strict(definition), seed=asked, variants=typed.variants)
        assert (strict_plan.seed, strict_plan.variants) == (plain_plan.seed, plain_plan.variants)
        assert strict_plan.folder == plain_plan.folder


@pytest.mark.parametrize(("game", "seed", "variants"), kit_cases())
def test_a_kit_builds_the_same_from_a_game_table_read_only_through_its_typed_value(
    game: str, seed: int | None, variants: tuple[str, ...], tmp_path
) -> None:
    # the plan (seed, variants), the kit, its booklets' covers, its print guide, manifest and its
    # exports (a virtual table, a print service, a cutting machine) read the game table through its
    # typed value: a kit whose game table refuses every read by key builds the same bytes
    [definition] = [d for d in load_all() if d.id == game]
    plain_files = built_from(definition, str(tmp_path / "plain"), seed, variants)
    strict_files = built_from(strict(definition), str(tmp_path / "strict"), seed, variants)
    assert "manifest.json" in strict_files and any(n.endswith(".pdf") for n in strict_files)
    assert sorted(strict_files) == sorted(plain_files)
    assert [n for n in plain_files if strict_files[n] != plain_files[n]] == []
