"""Typed definitions: every kind's keys as a frozen typed value (generator/components/specs.py),
generated from the same schemas the component README documents. The module is current, every
kind has its class, and every component of every built-in definition reads back through it with
the values the loader checked (nothing lost, nothing changed but lists made tuples). The kinds
converted to it read no key by name: they build, draw and measure the same from a component whose
keys can be read only through its typed value, and every kit builds the same files from a definition
whose components are all such."""

from __future__ import annotations

import ast
import dataclasses
import os
from typing import Any

import pytest

from generator.components.base import COMMON_SCHEMA
from generator.components.kinds import KINDS, context
from generator.components.specs import SPECS
from generator.definitions.loader import load_all
from generator.definitions.schema import TypedSpec
from generator.definitions.values import ComponentSpec, GameDefinition
from generator.kits.kit import build_kit
from generator.kits.plan import kit_plan
from generator.printing.imposition import find_paper
from tests.shared import builtin_definitions
from tools.typed_specs import TARGET, attribute, unformatted_source


def plain(value: Any) -> Any:
    """Return a typed value as the loader's plain values: tables as dicts, tuples as lists."""
    if isinstance(value, TypedSpec):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}  # type: ignore[arg-type]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def test_the_typed_specs_are_generated_from_the_current_schemas() -> None:
    # The code, not its layout: ruff (the lint extra, which the README's test install leaves out)
    # formats the file, and `ruff format --check` holds the layout.
    with open(TARGET, encoding="utf-8") as handle:
        current = ast.dump(ast.parse(handle.read()))
    assert current == ast.dump(ast.parse(unformatted_source())), (
        "generator/components/specs.py is stale: run tools/typed_specs.py"
    )


def test_every_kind_has_its_typed_value_with_every_key() -> None:
    assert set(SPECS) == set(KINDS)
    for name, kind in KINDS.items():
        names = [f.name for f in dataclasses.fields(SPECS[name])]  # type: ignore[arg-type]
        assert names == [attribute(k) for k in {**COMMON_SCHEMA, **kind.schema}], name


@pytest.mark.parametrize("definition", builtin_definitions(), ids=lambda d: d.id)
def test_every_component_reads_back_through_its_typed_value(definition) -> None:
    for spec in definition.components:
        typed = spec.typed(SPECS[spec.kind])
        assert spec.typed(SPECS[spec.kind]) is typed  # made once
        expected = {attribute(k): plain(spec.values[k]) for k in {**COMMON_SCHEMA, **KINDS[spec.kind].schema}}
        assert plain(typed) == expected, f"{definition.id}: components.{spec.id}"
        with pytest.raises(dataclasses.FrozenInstanceError):
            typed.title = "changed"  # type: ignore[misc]


# the kinds whose modules read their keys only through their typed value: every kind (a booklet's
# output holds its figures as functions, which compare by identity: the whole kits below build
# it, from components read only through their typed values, to the same bytes)
TYPED_KINDS = tuple(kind for kind in KINDS if kind != "booklet")
EXAMPLES = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "examples"
)


class OnlyTyped(ComponentSpec):
    """A component whose keys can be read only through its typed value (``spec.typed``): a read
    by key is an error naming the key."""

    def __getitem__(self, key: str) -> Any:
        raise AssertionError(f"components.{self.id} ({self.kind}) read spec[{key!r}]")

    def get(self, key: str, default: Any = None) -> Any:
        raise AssertionError(f"components.{self.id} ({self.kind}) read spec.get({key!r})")


def definitions_with_typed_kinds() -> list[GameDefinition]:
    """Return the built-in definitions and the examples' that have a component of a typed kind."""
    found = list(builtin_definitions()) + [
        d for name in sorted(os.listdir(EXAMPLES)) for d in load_all(os.path.join(EXAMPLES, name))
    ]
    return [d for d in found if any(spec.kind in TYPED_KINDS for spec in d.components)]


@pytest.mark.parametrize("definition", definitions_with_typed_kinds(), ids=lambda d: d.id)
def test_the_typed_kinds_read_their_keys_only_through_their_typed_value(definition) -> None:
    # a component of these kinds builds, draws and measures the same read through its typed
    # value alone as read by key: no key is read as a string, and the typed value loses nothing
    seed = definition.game["default_seed"] if definition.game["seeded"] else None
    ctx = context(definition, find_paper("a4"), seed)
    checked = 0
    for spec in definition.components:
        if spec.kind not in TYPED_KINDS:
            continue
        kind = KINDS[spec.kind]
        strict = OnlyTyped(spec.id, spec.kind, spec.values)
        assert kind.build(strict, ctx) == kind.build(spec, ctx), spec.id
        if kind.draw is not None:
            assert kind.draw(strict, ctx, None) == kind.draw(spec, ctx, None), spec.id
        if kind.square_size is not None:
            assert kind.square_size(strict, ctx) == kind.square_size(spec, ctx), spec.id
        if kind.contents is not None:
            assert kind.contents(strict, ctx) == kind.contents(spec, ctx), spec.id
        if kind.footprint is not None:
            assert kind.footprint(strict) == kind.footprint(spec), spec.id
        checked += 1
    assert checked


def strict_definition(definition: GameDefinition) -> GameDefinition:
    """Return the definition with every component readable only through its typed value."""
    return dataclasses.replace(
        definition,
        components=tuple(OnlyTyped(spec.id, spec.kind, spec.values) for spec in definition.components),
    )


@pytest.mark.slow
@pytest.mark.parametrize("definition", builtin_definitions(), ids=lambda d: d.id)
def test_a_whole_kit_builds_from_components_read_only_through_their_typed_values(
    definition: GameDefinition, tmp_path
) -> None:
    # the kit, its print guide, budget and manifest, its booklets (whose kit lists and covers read
    # every other component) and its exports for a virtual table, a print service and a cutting
    # machine read no key of any component by name: a kit of components that refuse every read
    # by key builds whole (the same code reads the same typed values as from any definition)
    kit = kit_plan(strict_definition(definition), out=str(tmp_path), cut=True)
    built = build_kit(dataclasses.replace(kit, tts_url="", service="tgc"))
    names = {os.path.relpath(f.path, os.path.join(kit.out, kit.folder)) for f in built}
    assert "kit.pdf" in names, sorted(names)
    for folder in ("tts", "service", "cut"):
        assert any(name.startswith(folder + os.sep) for name in names), (folder, sorted(names))
