"""Item 3: one path for every value that names a number, a colour or a file. Every key of every
kind (nested keys too, from the kinds' own schemas) given a hostile value is either accepted (and
then built, since `check` builds) or refused in one line with exit 3; never exit 1."""

from __future__ import annotations

import copy
import itertools
import math
import os
import tomllib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.components.kinds import KINDS
from generator.definitions.schema import key_rows
from tests.hostile.fuzz_defs import BASE, HOSTILE, toml_str
from tests.hostile.helpers import cli

EXTRA = """
[components.hexes]
kind = "hex-board"
columns = 3
rows = 3
cell = "20mm"
cells = { "0202" = ["forest"], "0101" = ["text:3"] }
marks.forest = { fill = "gold", symbol = "triangle" }

[components.deck]
kind = "cards"
size = "mini"
frame = "#999999"
cards = [{ name = "Fox", type = "beast", quantity = 2, colour = "gold" }]
fields = [{ kind = "band", h = "10mm", fill = "{colour}" }, { text = "{name}", y = "12mm", h = "6mm" }]
back = { fill = "blue", symbol = "star", frame = "gold" }

[components.aid]
kind = "quick-reference"

[components.booklet]
kind = "booklet"
cover = false
"""
#: one small component of each kind, by kind
COMPONENTS: dict[str, dict[str, Any]] = {
    spec["kind"]: spec for spec in tomllib.loads(BASE + EXTRA)["components"].values()
}
GAME = {"id": "fuzz", "title": "Fuzz", "players": "2"}
PALETTE = {"gold": "#e69f00", "blue": "#0072b2"}

#: hostile values, and the ones that once reached an unexpected failure
VALUES: list[Any] = [
    *HOSTILE,
    "{zzzzz",
    "{colour",
    "#12345g",
    "#12345G",
    "²",
    "３",
    "٣",
    "12²",
    "a\x00b.csv",
    "\x01",
    "{{ 1/0 }}",
    "{% for %}",
    "{row.__class__}",
    "{limit:,>999999999}",
    "../secret",
    "/etc/passwd",
    [1, 2],
    ["#12345g"],
    [{"x": 1}],
    -math.inf,
    2**63,
]


def _paths(kind: str) -> list[tuple]:
    """Return the key paths of a kind's schema (nested keys included) inside its component: a
    list of tables is entered at its first item, a map of tables at its first (or a new) name."""
    component = COMPONENTS[kind]
    found = []
    for path, _ in key_rows(KINDS[kind].schema):
        parts: list[Any] = []
        node: Any = component
        for part in path.split("."):
            if part == "<name>":
                part = next(iter(node), "x") if isinstance(node, dict) else "x"
            if part.endswith("[]"):
                parts += [part[:-2], 0]
                node = node.get(part[:-2]) if isinstance(node, dict) else None
                node = node[0] if isinstance(node, list) and node else {}
            else:
                parts.append(part)
                node = node.get(part) if isinstance(node, dict) else None
        found.append(tuple(parts))
    return found


PATHS = [(kind, path) for kind in sorted(KINDS) for path in _paths(kind)]


def test_every_kind_has_a_component_to_fuzz():
    assert set(COMPONENTS) == set(KINDS)
    assert len(PATHS) > 150  # nested keys included


def _put(component: dict[str, Any], path: tuple, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(component)
    node: Any = data
    for key, following in itertools.pairwise(path):
        if isinstance(node, list):
            node = node[key]
            continue
        if not isinstance(node.get(key), (dict, list)) or (isinstance(following, int) and not node[key]):
            node[key] = [{}] if isinstance(following, int) else {}
        node = node[key]
    node[path[-1]] = value
    return data


def _kit(folder: str, kind: str, component: dict[str, Any]) -> str:
    for sub in ("layouts", "templates/booklets", "templates/quickref"):
        os.makedirs(os.path.join(folder, sub), exist_ok=True)
    for sub in ("booklets", "quickref"):
        with open(os.path.join(folder, "templates", sub, "fuzz.en.md.j2"), "w", encoding="utf-8") as h:
            h.write("# Fuzz\n\nPlay.\n")
    path = os.path.join(folder, "layouts", "fuzz.toml")
    data = {"game": GAME, "palette": PALETTE, "components": {kind.replace("-", ""): component}}
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(toml_str(data))
    return path


def _never_exit_1(folder: str, kind: str, path: tuple, value: Any) -> None:
    run = cli("check", _kit(folder, kind, _put(COMPONENTS[kind], path, value)))
    assert run.code in (0, 3), (kind, path, value, run.err)
    if run.code == 3:
        run.one_line_error()


@given(where=st.sampled_from(PATHS), value=st.sampled_from(VALUES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_hostile_value_at_any_key_of_any_kind_is_exit_0_or_3(tmp_path_factory, where, value):
    kind, path = where
    _never_exit_1(str(tmp_path_factory.mktemp("keys")), kind, path, value)


# (kind, key path, value, words in the error): each was an unexpected failure (exit 1) or passed
CASES = [
    ("cards", ("frame",), "#12345g", "components.cards.frame"),
    ("cards", ("back", "frame"), "#12345g", "components.cards.back.frame"),
    ("cards", ("background",), "{zzzzz", "unknown colour"),
    ("grid-board", ("checker",), "{zzzzz", "components.gridboard.checker: unknown colour"),
    ("grid-board", ("checker",), "#12345g", "#1a2b3c"),
    ("counters", ("counters", 0, "fill"), "{zzzzz", "counters[0].fill: unknown colour"),
    ("counters", ("counters", 0, "back", "fill"), "#12345g", "counters[0].back.fill"),
    ("cards", ("cards", 0, "quantity"), "²", "whole number of copies"),
    ("cards", ("cards", 0, "quantity"), "٣", "whole number of copies"),
    ("cards", ("cards", 0, "quantity"), "３", "whole number of copies"),
    ("cards", ("csv",), "deck\x00.csv", "control character"),
    ("cards", ("csv",), "deck\x1b.csv", "control character"),
    ("point-board", ("points",), {}, "at least one point"),
]


@pytest.mark.parametrize("kind,path,value,words", CASES)
def test_a_value_that_once_failed_unexpectedly_is_one_line_exit_3(tmp_path, kind, path, value, words):
    component = _put(COMPONENTS[kind], path, value)
    if path == ("csv",):
        del component["cards"]
    if kind == "point-board":
        component["lines"], component["bridges"] = [], []
    run = cli("check", _kit(str(tmp_path), kind, component))
    assert run.code == 3, run.err
    assert words in run.one_line_error()


@pytest.mark.parametrize("kind", ["point-board", "grid-board", "hex-board", "track"])
def test_a_caption_is_printed_as_written_braces_and_all(tmp_path, kind):
    caption = "{zzzzz {% for %} {steps:>99999999} {0} {__class__}"
    component = _put(COMPONENTS[kind], ("caption",), caption)
    run = cli("check", _kit(str(tmp_path), kind, component))
    assert run.code == 0, run.err
    out = str(tmp_path / "out")
    run = cli("build", "fuzz", "--layouts", str(tmp_path / "layouts"), "--out", out, "-q", "--parts")
    assert run.code == 0, run.err
    name = kind.replace("-", "")
    svg = open(os.path.join(out, "fuzz", f"{name}.svg"), encoding="utf-8").read()
    assert "{zzzzz {% for %}" in svg and "{0} {__class__}" in svg


@pytest.mark.parametrize("char", ["\uffff", "\ufffe", "\x01", "\x1b", "\x00"])
@pytest.mark.parametrize("where", ["title", "caption", "cell", "template", "translation"])
def test_a_text_no_svg_can_hold_is_refused_by_check(tmp_path, char, where):
    kind = {"cell": "cards", "template": "booklet"}.get(where, "grid-board")
    component = copy.deepcopy(COMPONENTS[kind])
    if where == "caption":
        component["caption"] = f"seed {char}"
    if where == "cell":
        component["cards"][0]["name"] = f"Fox{char}"
    path = _kit(str(tmp_path), kind, component)
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    if where == "title":
        text = text.replace('"title" = "Fuzz"', f'"title" = "Fu{_escape(char)}zz"')
    if where == "translation":
        text += f'[translations.fr]\n"game.title" = "Fu{_escape(char)}zz"\n'
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    if where == "template":
        booklet = tmp_path / "templates" / "booklets" / "fuzz.en.md.j2"
        booklet.write_text(f"# Fuzz\n\nPlay{char}.\n", encoding="utf-8")
    run = cli("check", path)
    assert run.code == 3, run.err
    assert f"U+{ord(char):04X}" in run.one_line_error()


def _escape(char: str) -> str:
    return f"\\u{ord(char):04x}"
