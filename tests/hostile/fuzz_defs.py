"""Hostile definitions for the check-means-build tests: a small kit of every drawing kind, and
values to put anywhere in it."""

from __future__ import annotations

import copy
import math
import tomllib
from typing import Any

BASE = """
[game]
id = "fuzz"
title = "Fuzz"
players = "2"

[palette]
gold = "#e69f00"
blue = "#0072b2"

[components.board]
kind = "grid-board"
files = 4
ranks = 4
cell = "20mm"
checker = "gold"
edges = { north = "GOLD" }
cells = { a1 = ["home"], b2 = ["text:A"], c3 = ["symbol:star"], d4 = ["arrows:N,S"], "@0,-1" = ["home"] }
marks.home = { fill = "blue", symbol = "diamond", symbol_colour = "gold", corner = "G" }
tokens.gold = { fill = "gold", symbol = "star" }

[components.map]
kind = "point-board"
size = "100mm"
labels = "inside"
point_radius = "6mm"
label_size = 10
points = { A = [0, 0], B = [2, 0], C = [0, 2], D = [2, 2] }
lines = [["A", "D"], ["B", "C"], ["A", "B"]]
bridges = [[["A", "D"], ["B", "C"]]]

[components.track]
kind = "track"
path = ["1", "2", "3", "4", "5", "6"]
lane_length = 3
start_label = "GO"

[components.pieces]
kind = "counters"
size = "18mm"
counters = [{ name = "Gold", count = 4, fill = "gold", symbol = "star", label = "G", back = { fill = "blue" } }]

[components.dice]
kind = "dice-nets"
size = "16mm"
dice = [{ name = "Die", count = 1, faces = ["pips:1", "pips:2", "symbol:star", "A", "pips:5", "pips:6"] }]

[components.sheet]
kind = "table-sheet"
fields = ["Name"]
blocks = [{ columns = [{ header = "Turn", width = 0.5 }, { header = "Move" }], rows = 5 }]

[components.standees]
kind = "standees"
figures = [{ name = "Captain", count = 1, fill = "gold", symbol = "crown", initial = "C" }]
"""

HOSTILE: list[Any] = [
    math.nan,
    math.inf,
    -math.inf,
    -1,
    0,
    10**400 if False else 10**18,
    1e308,
    "100000mm",
    "1" * 400 + "mm",
    "nanmm",
    "-5mm",
    "0mm",
    "#zzzzzz",
    "#12345",
    "nocolour",
    "none",
    "",
    "x" * 5000,
    "@99999,-99999",
    "z99",
    "symbol:nosuch",
    "arrows:Q",
    "text:",
    "pips:9",
    ["grid-board"],
    [["A"]],
    [[["A"]]],
    [],
    {},
    {"x": 1},
    True,
    "\u0000",
    "٣",
    ["A", "nosuch"],
    list(range(5000)),
]


def base() -> dict[str, Any]:
    """Return the base definition as data."""
    return tomllib.loads(BASE)


def paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    """Return every key path in the data (tables and list items), parents before children."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            found.append(prefix + (key,))
            found.extend(paths(value, prefix + (key,)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found.append(prefix + (i,))
            found.extend(paths(value, prefix + (i,)))
    return found


def mutated(path: tuple, value: Any) -> dict[str, Any]:
    """Return the base definition with the value at path replaced."""
    data = copy.deepcopy(base())
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


def toml_str(data: Any) -> str:
    """Return data as TOML text (a tiny writer: enough for definitions)."""
    return "".join(f"{_key(k)} = {_value(v)}\n" for k, v in data.items())


def _key(key: Any) -> str:
    import json

    return json.dumps(str(key))


def _value(value: Any) -> str:
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)
