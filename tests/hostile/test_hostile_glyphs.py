"""Text the kit's fonts cannot draw (outside Latin-1, typographic quotes and dashes) never prints
as missing-glyph boxes: at every text key of every kind, in a translation and in a deck's cells it
is refused in one line naming the file and key (exit 3), by ``check`` and ``build`` alike; where
``check`` passes (a key that names a file, or one whose value is checked otherwise), the build
holds no such character."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from generator.components.kinds import KINDS
from generator.definitions.schema import key_rows
from generator.model.fonts import missing_glyphs
from tests.hostile.helpers import cli
from tests.hostile.test_hostile_keys import COMPONENTS, _kit, _paths, _put

TOFU = "Tofu \u6f22\u5b57 \u263a"  # two CJK ideographs and a smiling face: in no face of PnpSans

TEXT_PATHS = [
    (kind, path, field.type)
    for kind in sorted(KINDS)
    for path, (_, field) in zip(_paths(kind), key_rows(KINDS[kind].schema), strict=True)
    if field.type in ("str", "list:str")
]


def test_the_fonts_lack_the_glyphs_of_the_test_text():
    assert missing_glyphs(TOFU) == "".join(sorted("\u6f22\u5b57\u263a"))
    assert missing_glyphs("Élan « œuvre » – l’été… 20 €") == ""
    assert len(TEXT_PATHS) > 60


def _outputs(out: Path) -> str:
    """Return the text of every SVG, HTML and JSON file under out."""
    texts = []
    for folder, _, names in os.walk(out):
        for name in names:
            if name.endswith((".svg", ".html", ".json")):
                texts.append(Path(folder, name).read_text(encoding="utf-8"))
    return "\n".join(texts)


def _cases() -> list[Any]:
    """Return TEXT_PATHS as test cases: the first text key and the first list of texts of each kind
    in the fast tier, the other keys (read by the same check) in the slow one."""
    seen: set[tuple[str, str]] = set()
    cases: list[Any] = []
    for kind, path, type_ in TEXT_PATHS:
        if (kind, type_) in seen:
            cases.append(pytest.param(kind, path, type_, marks=pytest.mark.slow))
        else:
            seen.add((kind, type_))
            cases.append((kind, path, type_))
    return cases


@pytest.mark.parametrize(("kind", "path", "type_"), _cases(), ids=lambda v: str(v))
def test_a_text_the_fonts_cannot_draw_is_refused_or_never_printed(tmp_path, kind, path, type_):
    value: Any = [TOFU] if type_ == "list:str" else TOFU
    component = _put(COMPONENTS[kind], path, value)
    definition = _kit(str(tmp_path), kind, component)
    run = cli("check", definition)
    assert run.code in (0, 3), run.err
    if run.code == 3:
        line = run.one_line_error()
        if "the kit's fonts cannot draw" in line:
            last = [p for p in path if isinstance(p, str)][-1]
            assert line.startswith(f"pnp: error: {definition}: components.") and f"{last}" in line, line
        return
    out = tmp_path / "out"
    run = cli("build", "fuzz", "--layouts", str(tmp_path / "layouts"), "--out", str(out), "-q", "--parts")
    assert run.code == 0, run.err
    assert missing_glyphs(_outputs(out)) == "", (kind, path)


@pytest.mark.parametrize("where", ["counter label", "board title", "translation", "deck cell"])
def test_check_and_build_refuse_it_in_one_line_naming_file_and_key(tmp_path, where):
    kind = {"counter label": "counters", "deck cell": "cards"}.get(where, "grid-board")
    component = dict(COMPONENTS[kind])
    if where == "counter label":
        component = _put(component, ("counters", 0, "label"), TOFU)
    if where == "board title":
        component = _put(component, ("title",), TOFU)
    if where == "deck cell":
        component = _put(component, ("cards", 0, "name"), TOFU)
    definition = _kit(str(tmp_path), kind, component)
    if where == "translation":
        with open(definition, "a", encoding="utf-8") as handle:
            handle.write(f'\n[translations.fr]\n"game.title" = "{TOFU}"\n')
    key = {
        "counter label": "counters[0].label",
        "board title": ".title",
        "translation": "translations.fr.game.title",
        "deck cell": "name",
    }[where]
    out = tmp_path / "out"
    for args in (["check", definition], ["build", "fuzz", "--layouts", str(tmp_path / "layouts"),
                                         "--out", str(out), "--lang", "fr" if where == "translation" else "en"]):  # fmt: skip
        run = cli(*args)
        assert run.code == 3, run.err
        line = run.one_line_error()
        assert key in line and "\u6f22" in line, line
        assert "fuzz" in line, line
    assert not out.exists() or missing_glyphs(_outputs(out)) == ""
