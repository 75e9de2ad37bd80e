"""Typed definitions: every kind's keys as a frozen typed value (generator/components/specs.py),
generated from the same schemas the component README documents. The module is current, every
kind has its class, and every component of every built-in definition reads back through it with
the values the loader checked (nothing lost, nothing changed but lists made tuples)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from generator.components.base import COMMON_SCHEMA
from generator.components.kinds import KINDS
from generator.components.specs import SPECS
from generator.definitions.loader import load_all
from generator.definitions.schema import TypedSpec
from tools.typed_specs import TARGET, attribute, source


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
    with open(TARGET, encoding="utf-8") as handle:
        assert handle.read() == source(), "generator/components/specs.py is stale: run tools/typed_specs.py"


def test_every_kind_has_its_typed_value_with_every_key() -> None:
    assert set(SPECS) == set(KINDS)
    for name, kind in KINDS.items():
        names = [f.name for f in dataclasses.fields(SPECS[name])]  # type: ignore[arg-type]
        assert names == [attribute(k) for k in {**COMMON_SCHEMA, **kind.schema}], name


@pytest.mark.parametrize("definition", load_all(), ids=lambda d: d.id)
def test_every_component_reads_back_through_its_typed_value(definition) -> None:
    for spec in definition.components:
        typed = spec.typed(SPECS[spec.kind])
        assert spec.typed(SPECS[spec.kind]) is typed  # made once
        expected = {attribute(k): plain(spec.values[k]) for k in {**COMMON_SCHEMA, **KINDS[spec.kind].schema}}
        assert plain(typed) == expected, f"{definition.id}: components.{spec.id}"
        with pytest.raises(dataclasses.FrozenInstanceError):
            typed.title = "changed"  # type: ignore[misc]
