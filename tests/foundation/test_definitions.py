"""Loading layouts/*.toml: every mistake is one DefinitionError naming the file and the key."""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.definitions.loader import load_all, load_definition
from generator.definitions.values import BUILTIN_GAMES, LAYOUTS_DIR, TEMPLATES_DIR
from generator.foundation.errors import DefinitionError, PnpError
from tests.conftest import ROOT

GOOD = """
[game]
id = "{id}"
title = "Test"
players = "2"

[components.pieces]
kind = "counters"
size = "{size}"
counters = [{{ name = "a", count = 2 }}]
"""


def write(tmp_path, text: str, name: str = "test-game") -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def error_of(path: str) -> str:
    with pytest.raises(DefinitionError) as info:
        load_definition(path)
    message = str(info.value)
    assert "\n" not in message
    assert path.split("/")[-1] in message
    return message


def test_a_good_definition_loads(tmp_path):
    d = load_definition(write(tmp_path, GOOD.format(id="test-game", size="19mm")))
    assert d.id == "test-game"
    assert d.component("pieces")["size"] == pytest.approx(19.0)


@pytest.mark.parametrize("size,mm", [("0.75in", 19.05), ("54pt", 19.05), ("2cm", 20.0)])
def test_lengths_in_other_units(tmp_path, size, mm):
    d = load_definition(write(tmp_path, GOOD.format(id="test-game", size=size)))
    assert d.component("pieces")["size"] == pytest.approx(mm)


def test_unknown_key_lists_the_accepted_ones(tmp_path):
    text = GOOD.format(id="test-game", size="19mm").replace('players = "2"', 'players = "2"\nplayerz = 3')
    message = error_of(write(tmp_path, text))
    assert (
        "game.playerz" in message and "unknown key" in message and "players" in message and "title" in message
    )


def test_wrong_type(tmp_path):
    message = error_of(
        write(tmp_path, GOOD.format(id="test-game", size="19mm").replace('title = "Test"', "title = 5"))
    )
    assert "game.title" in message and "expected a string" in message


def test_missing_key(tmp_path):
    message = error_of(write(tmp_path, GOOD.format(id="test-game", size="19mm").replace('players = "2"', "")))
    assert "game.players" in message and "missing" in message


def test_negative_size(tmp_path):
    message = error_of(write(tmp_path, GOOD.format(id="test-game", size="-5mm")))
    assert "components.pieces.size" in message


def test_length_without_unit(tmp_path):
    message = error_of(write(tmp_path, GOOD.format(id="test-game", size="19")))
    assert "components.pieces.size" in message and "unit" in message


def test_unknown_component_kind(tmp_path):
    text = GOOD.format(id="test-game", size="19mm").replace('kind = "counters"', 'kind = "spinner"')
    message = error_of(write(tmp_path, text))
    assert "components.pieces.kind" in message and "grid-board" in message


def test_id_must_match_the_file(tmp_path):
    message = error_of(write(tmp_path, GOOD.format(id="other", size="19mm")))
    assert "game.id" in message


def test_bad_toml(tmp_path):
    assert "not valid TOML" in error_of(write(tmp_path, "[game\nid="))


def test_unknown_palette_colour(tmp_path):
    text = GOOD.format(id="test-game", size="19mm").replace("count = 2 }", 'count = 2, fill = "mauve" }')
    assert "unknown colour 'mauve'" in error_of(write(tmp_path, text))


def test_every_builtin_game_has_a_definition_and_an_english_rule_text():
    assert [d.id for d in load_all()] == sorted(BUILTIN_GAMES)
    for game_id in BUILTIN_GAMES:
        assert os.path.isfile(os.path.join(LAYOUTS_DIR, f"{game_id}.toml"))
        assert os.path.isfile(os.path.join(TEMPLATES_DIR, "booklets", f"{game_id}.en.md.j2"))


@pytest.mark.skipif(
    shutil.which("git") is None or not os.path.exists(os.path.join(ROOT, ".git")), reason="not a git checkout"
)
def test_the_builtin_games_are_the_definitions_the_repository_keeps():
    listed = subprocess.run(
        ["git", "ls-files", "layouts"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    kept = sorted(os.path.basename(p)[: -len(".toml")] for p in listed if p.endswith(".toml"))
    assert kept == sorted(BUILTIN_GAMES)


def test_a_piece_larger_than_the_paper_fails_when_built(tmp_path):
    from tests.conftest import build

    folder = tmp_path / "layouts"
    folder.mkdir()
    write(folder, GOOD.format(id="test-game", size="400mm"))
    with pytest.raises(PnpError) as info:
        build(str(tmp_path / "out"), "test-game", layouts=str(folder))
    assert "larger than the printable area" in str(info.value)
    assert not (tmp_path / "out" / "test-game").exists()


toml_values = st.recursive(
    st.one_of(
        st.integers(-5, 500),
        st.floats(allow_nan=False, allow_infinity=False, width=32),
        st.booleans(),
        st.sampled_from(["19mm", "x", "", "#123456", "counters", "grid-board", "-1in", "board", "a1"]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.sampled_from(
                [
                    "kind",
                    "size",
                    "count",
                    "name",
                    "counters",
                    "cells",
                    "files",
                    "ranks",
                    "blocks",
                    "dice",
                    "x",
                ]
            ),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=12,
)


def _toml_dump(data, prefix="") -> str:
    import json

    lines, tables = [], []
    for key, value in data.items():
        if isinstance(value, dict):
            tables.append((key, value))
        else:
            lines.append(f'"{key}" = {json.dumps(value)}')
    out = "\n".join(lines) + "\n"
    for key, value in tables:
        name = f'{prefix}."{key}"' if prefix else f'"{key}"'
        out += f"[{name}]\n" + _toml_dump(value, name)
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    game=st.dictionaries(
        st.sampled_from(["id", "title", "players", "seeded", "variants", "zzz"]), toml_values, max_size=5
    ),
    components=st.dictionaries(
        st.sampled_from(["board", "pieces", "Bad Id", "sheet"]),
        st.dictionaries(
            st.sampled_from(
                ["kind", "size", "counters", "files", "ranks", "cells", "blocks", "dice", "data", "points"]
            ),
            toml_values,
            max_size=5,
        ),
        max_size=3,
    ),
)
def test_random_definitions_fail_cleanly(tmp_path, game, components):
    text = _toml_dump({"game": game, "components": components})
    try:
        tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return
    path = write(tmp_path, text, "fuzz")
    try:
        load_definition(path)
    except DefinitionError as exc:
        assert "\n" not in str(exc) and "fuzz.toml" in str(exc)


TRANSLATED = (
    GOOD
    + """
[translations.fr]
"game.title" = "Essai"
"components.pieces.counters.0.name" = "pion"
"""
)


def test_translations_replace_texts_for_their_language(tmp_path):
    path = write(tmp_path, TRANSLATED.format(id="test-game", size="19mm"))
    assert load_definition(path).title == "Test"
    french = load_definition(path, lang="fr")
    assert french.title == "Essai"
    assert french.component("pieces")["counters"][0]["name"] == "pion"
    assert load_definition(path, lang="it").title == "Test"


def test_a_translation_of_a_missing_text_is_an_error(tmp_path):
    text = TRANSLATED.replace('"game.title"', '"game.tittle"')
    message = error_of(write(tmp_path, text.format(id="test-game", size="19mm")))
    assert "translations.fr.game.tittle" in message and "no such text" in message
