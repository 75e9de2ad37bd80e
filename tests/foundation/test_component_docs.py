"""Docs from the schema: every key of every definition table and component kind has a doc string,
and the key tables of generator/components/README.md are the ones tools/component_docs.py makes."""

from __future__ import annotations

import pytest

from generator.components.base import COMMON_SCHEMA
from generator.components.kinds import KINDS
from generator.definitions.loader import TOP_SCHEMA
from generator.definitions.schema import Field, key_rows, key_table, undocumented
from generator.definitions.values import GAME_SCHEMA, PAPER_SCHEMA
from tools.component_docs import BEGIN, END, README, key_tables, readme_with_tables

SCHEMAS = {
    "definition": TOP_SCHEMA,
    "game": GAME_SCHEMA,
    "paper": PAPER_SCHEMA,
    "component": COMMON_SCHEMA,
    **{f"kind {name}": kind.schema for name, kind in KINDS.items()},
}


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_every_key_has_a_doc_string(name):
    assert not undocumented(SCHEMAS[name]), f"{name}: keys without a doc: {undocumented(SCHEMAS[name])}"


def test_the_readme_key_tables_are_generated_from_the_current_schemas():
    with open(README, encoding="utf-8") as handle:
        text = handle.read()
    assert BEGIN in text and END in text
    assert readme_with_tables(text) == text, (
        "generator/components/README.md is stale: run tools/component_docs.py"
    )


def test_every_key_of_every_schema_is_in_the_readme():
    with open(README, encoding="utf-8") as handle:
        text = handle.read()
    tables = text[text.index(BEGIN) : text.index(END)]
    for name, schema in SCHEMAS.items():
        for path, field in key_rows(schema):
            assert f"| `{path}` |" in tables, f"{name}: {path} is not in the README"
            assert field.doc in tables
    assert tables == key_tables()[: len(tables)]


def test_nested_keys_are_listed_and_a_missing_doc_is_found():
    schema = {
        "size": Field("length", default=20.0, doc="edge"),
        "dice": Field("tables", required=True, schema={"name": Field("str", required=True)}, doc="the dice"),
        "marks": Field("map-table", default={}, schema={"fill": Field("str", default="", doc="colour")}),
    }
    assert [path for path, _ in key_rows(schema)] == [
        "size",
        "dice",
        "dice[].name",
        "marks",
        "marks.<name>.fill",
    ]
    assert undocumented(schema) == ["dice[].name", "marks"]
    table = key_table(schema)
    assert "| `size` | `length` | `20 mm` | edge |" in table
    assert "| `dice[].name` | `str` | required |  |" in table
