"""Rendering templates: values from the definition and rules, strict undefined names, languages."""

from __future__ import annotations

import pytest

from generator.booklet.template import (
    check_language,
    languages,
    render_template,
    template_path,
    template_values,
)
from generator.components import booklet
from generator.definitions.loader import load_all
from generator.foundation.errors import TemplateError, UsageError
from tests.booklet.conftest import context, make_game


def test_values_come_from_the_game_and_its_components(tmp_path):
    d = make_game(
        str(tmp_path),
        {
            "en": "{{ game.title }} for {{ game.players }}; "
            "{{ components.board.size }} {{ variants | length }} {{ lang }}\n"
        },
    )
    text = render_template(template_path(d, "test-game", "en"), template_values(d, lang="en"))
    assert text == "Test Game for 2-4; 60.0 0 en\n"


def test_rules_values_and_layout_data_reach_the_template(nmm):
    ctx = context(nmm)
    values = template_values(nmm, ctx.rules.template_values(), lang="en", layout_data=ctx.layout_data)
    assert values["rules"]["men_per_side"] == 9
    assert values["data"]("position:removal")["removable"]


@pytest.mark.parametrize(
    "body, name",
    [
        ("{{ nothing }}", "nothing is undefined"),
        ("{{ rules.men }}", "rules.men is undefined"),
        ("{{ game.colour }}", "game.colour is undefined"),
        ("{% for c in components.board.nope %}x{% endfor %}", "components.board.nope is undefined"),
    ],
)
def test_a_missing_variable_fails_naming_the_template_line_and_variable(tmp_path, body, name):
    d = make_game(str(tmp_path), {"en": "# Title\n\nFine text.\n" + body + "\n"})
    with pytest.raises(TemplateError) as info:
        booklet.build(d.component("booklet"), context(d))
    message = str(info.value)
    assert "test-game.en.md.j2" in message and "line 4" in message and name in message
    assert "\n" not in message


def test_a_template_syntax_error_names_the_file_and_line(tmp_path):
    d = make_game(str(tmp_path), {"en": "# A\n\n{% if %}\n"})
    with pytest.raises(TemplateError, match=r"test-game\.en\.md\.j2, line 3"):
        booklet.build(d.component("booklet"), context(d))


def test_templates_may_import_shared_macros(tmp_path):
    d = make_game(str(tmp_path), {"en": '{% import "_m.j2" as m %}# A\n\n{{ m.hi("you") }}\n'})
    (tmp_path / "templates" / "booklets" / "_m.j2").write_text("{% macro hi(x) %}Hello {{ x }}{% endmacro %}")
    text = render_template(template_path(d, "test-game", "en"), template_values(d))
    assert "Hello you" in text


def test_languages_are_the_templates_that_exist(tmp_path):
    d = make_game(str(tmp_path), {"en": "# A\n", "it": "# B\n", "fr": "# C\n"})
    assert languages(d) == ["en", "fr", "it"]


def test_a_language_without_a_template_is_a_one_line_usage_error(tmp_path):
    d = make_game(str(tmp_path), {"en": "# A\n", "it": "# B\n"})
    with pytest.raises(UsageError) as info:
        check_language(d, "fr")
    message = str(info.value)
    assert "test-game" in message and "'fr'" in message and "en, it" in message and "\n" not in message
    with pytest.raises(UsageError, match="test-game has no rule booklet in 'fr'"):
        booklet.build(d.component("booklet"), context(d, lang="fr"))
    check_language(d, "it")


def test_nine_mens_morris_has_english(nmm):
    assert "en" in languages(nmm)
    with pytest.raises(UsageError, match=r"nine-mens-morris has no rule booklet in 'de' \(languages: en"):
        check_language(nmm, "de")


def test_every_declared_language_has_a_template():
    for d in load_all():
        if any(spec.kind == "booklet" for spec in d.components):
            missing = set(d.game["languages"]) - set(languages(d))
            assert not missing, f"{d.id}: no booklet template for {sorted(missing)}"
