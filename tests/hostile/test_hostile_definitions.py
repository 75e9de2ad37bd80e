"""Items 2, 6 and 7: every length, count and position has an upper bound; `pnp check` runs every
validation a build runs (whatever it accepts, build builds); definitions at fault are one-line
errors with exit 3, never 1."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hostile.fuzz_defs import HOSTILE, base, mutated, paths, toml_str
from tests.hostile.helpers import MINI_TOML, cli, mini_kit

PATHS = [p for p in paths(base()) if p != ("game", "id")]


def _write(folder, data_or_text) -> str:
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "fuzz.toml")
    text = data_or_text if isinstance(data_or_text, str) else toml_str(data_or_text)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path


def _check_then_build(folder: str, path: str) -> None:
    check = cli("check", path)
    assert check.code in (0, 3), check.err
    if check.code == 3:
        check.one_line_error()
        return
    build = cli(
        "build", "fuzz", "--layouts", os.path.dirname(path), "--out", os.path.join(folder, "out"), "-q"
    )
    assert build.code == 0, build.err


@given(path=st.sampled_from(PATHS), value=st.sampled_from(HOSTILE))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_check_ok_implies_build_ok(tmp_path_factory, path, value):
    folder = str(tmp_path_factory.mktemp("fuzz"))
    _check_then_build(folder, _write(os.path.join(folder, "layouts"), mutated(path, value)))


def _error_of(tmp_path, path: tuple, value) -> str:
    definition = _write(str(tmp_path / "layouts"), mutated(path, value))
    run = cli("check", definition)
    assert run.code == 3, (path, value, run.out, run.err)
    return run.one_line_error()


# (key path, value, words in the error): each passed `check` or crashed before
CASES = [
    (("components", "board", "cell"), "100000mm", "at most 1000 mm"),
    (("components", "map", "size"), "100000mm", "at most 1000 mm"),
    (("components", "board", "cells", "@99999,-99999"), ["home"], "not a square"),
    (("components", "board", "cells", "z99"), ["home"], "not a square"),
    (("components", "track", "box"), "999mm", "sheets"),
    (("components", "map", "label_size"), float("nan"), "finite"),
    (("components", "standees", "width"), float("inf"), "length"),
    (("components", "sheet", "blocks", 0, "columns", 0, "width"), float("inf"), "finite"),
    (("components", "pieces", "size"), "1" * 400 + "mm", "length"),
    (("components", "map", "bridges"), [[["A"]]], "two lines of two point names"),
    (("components", "board", "marks", "home", "fill"), "#zzzzzz", "#1a2b3c"),
    (("components", "board", "checker"), "nosuch", "unknown colour"),
    (("components", "track", "lane_fills"), ["nosuch"], "unknown colour"),
    (("components", "board", "marks", "home", "symbol"), "nosuch", "unknown symbol"),
    (("components", "pieces", "counters", 0, "symbol"), "nosuch", "unknown symbol"),
    (("components", "board", "cells", "a1"), ["arrows:Q"], "arrow direction"),
    (("components", "board", "kind"), ["grid-board"], "unknown component kind"),
    (("components", "map", "points", "A"), [1e300, 0], "at most"),
    (("components", "board", "caption"), "x" * 5000, "at most 2000 characters"),
    (("components", "track", "path"), [str(i) for i in range(5000)], "at most 1000 items"),
]


@pytest.mark.parametrize("path,value,words", CASES)
def test_check_refuses_what_build_cannot_build(tmp_path, path, value, words):
    assert words in _error_of(tmp_path, path, value)


def test_check_finds_a_missing_template_and_a_bad_cover_figure(tmp_path):
    layouts = mini_kit(str(tmp_path), toml=MINI_TOML.replace("cover = false", 'cover_figure = "nosuch"'))
    run = cli("check", os.path.join(layouts, "mini.toml"))
    assert run.code == 3
    assert "nosuch" in run.one_line_error()
    os.remove(os.path.join(tmp_path, "templates", "booklets", "mini.en.md.j2"))
    run = cli("check", os.path.join(layouts, "mini.toml"))
    assert run.code == 3
    assert "template" in run.one_line_error()


def test_check_builds_nothing_into_the_output_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = _write(str(tmp_path / "layouts"), base())
    assert cli("check", path).code == 0
    assert sorted(os.listdir(tmp_path)) == ["layouts"]


@pytest.mark.parametrize(
    "text,words",
    [
        ("a = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
        ("\xff\xfe", "not UTF-8"),
        ("x = 1\n" + "# " + "y" * 2_000_000 + "\n", "larger than"),
    ],
)
def test_unreadable_definitions_exit_3(tmp_path, text, words):
    path = tmp_path / "fuzz.toml"
    path.write_bytes(text.encode("latin-1") if text.startswith("\xff") else text.encode())
    run = cli("check", str(path))
    assert run.code == 3
    assert words in run.one_line_error()


@pytest.mark.parametrize("command", [["check", "/dev/zero"], ["build", "zero", "--layouts", "/dev"]])
def test_device_files_are_not_read(command):
    run = cli(*command)
    assert run.code == 3
    run.one_line_error()


def test_layouts_naming_a_file_exits_3(tmp_path):
    path = _write(str(tmp_path / "layouts"), base())
    for command in (["build", "--all", "--out", str(tmp_path / "out")], ["games"]):
        run = cli(*command, "--layouts", path)
        assert run.code == 3, run.err
        assert "not a folder" in run.one_line_error()
