"""A build's plan reads each definition file once: a kit's definition in its own language and in
its booklets' other languages come from one reading of the file, and are the same definitions as
loading each language afresh. Outside a plan every load reads the file as it is now."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from generator.definitions.loader import load_definition, load_languages, reading_once
from generator.definitions.values import LAYOUTS_DIR
from generator.kits.plan import BuildRequest, make_plan


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every TOML text parsed while the test runs, in order."""
    texts: list[str] = []
    real = tomllib.loads

    def counting(text: str, **kw: object) -> dict[str, object]:
        texts.append(text)
        return real(text, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(tomllib, "loads", counting)
    return texts


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_plan_parses_each_definition_file_once(parsed, tmp_path, lang):
    plan = make_plan(BuildRequest(all_games=True, lang=lang, out=str(tmp_path / "out")))
    files = {Path(g.kit.definition.path).read_text(encoding="utf-8") for g in plan.games}
    assert len(plan.games) >= 8
    assert any(g.kit.translations for g in plan.games)  # some kits take other languages too
    assert sorted(parsed) == sorted(files)  # each file once, and nothing else


def test_the_plans_definitions_are_those_loaded_afresh(tmp_path):
    plan = make_plan(BuildRequest(all_games=True, lang="fr", out=str(tmp_path / "out")))
    for game in plan.games:
        kit = game.kit
        wanted = [kit.definition.lang, *(t.lang for t in kit.translations)]
        fresh = load_languages(kit.definition.path, kit.definition.templates_dir, wanted)
        assert kit.definition == fresh[kit.definition.lang]
        assert kit.translations == tuple(fresh[t.lang] for t in kit.translations)
        assert len({d.lang for d in (kit.definition, *kit.translations)}) == len(wanted)


def test_outside_a_plan_a_changed_file_is_read_again(tmp_path):
    path = tmp_path / "verbal.toml"
    source = (Path(LAYOUTS_DIR) / "verbal.toml").read_text(encoding="utf-8")
    path.write_text(source, encoding="utf-8")
    assert load_definition(str(path)).game["title"] == "Verbal"
    path.write_text(source.replace('title = "Verbal"', 'title = "Spoken"', 1), encoding="utf-8")
    assert load_definition(str(path)).game["title"] == "Spoken"
    with reading_once():  # within one reading: the file as first read, in every language
        first = load_definition(str(path))
        path.write_text(source, encoding="utf-8")
        again = load_languages(str(path), None, ["en", "fr"])
    assert first.game["title"] == again["en"].game["title"] == "Spoken"
    assert load_definition(str(path)).game["title"] == "Verbal"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_bad_translation_fails_whichever_language_is_loaded(tmp_path, lang):
    from generator.foundation.errors import DefinitionError

    source = (Path(LAYOUTS_DIR) / "verbal.toml").read_text(encoding="utf-8")
    assert "[translations.it]\n" in source
    bad = source.replace("[translations.it]\n", '[translations.it]\n"game.nothing" = "niente"\n', 1)
    (tmp_path / "verbal.toml").write_text(bad, encoding="utf-8")
    with pytest.raises(DefinitionError, match=r"translations\.it\.game\.nothing.*no such text"):
        load_languages(str(tmp_path / "verbal.toml"), None, [lang, "it"])
    with pytest.raises(DefinitionError, match=r"translations\.it\.game\.nothing.*no such text"):
        make_plan(BuildRequest(games=("verbal",), lang=lang, layouts=str(tmp_path), out=str(tmp_path / "o")))
