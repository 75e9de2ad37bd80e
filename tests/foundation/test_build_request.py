"""One build request: the CLI fills a ``BuildRequest`` and ``make_plan`` checks every option of it,
the balance and scheduler ones included, so a library caller gets the same refusals as
``pnp build``. Every language a kit's booklets have is loaded once, with the plan: the build reads
no definition from disk, and a kit's definition is always in the language of its options."""

from __future__ import annotations

import dataclasses

import pytest

from generator.booklet.template import languages
from generator.components.base import Options
from generator.definitions.loader import find_definition, load_all
from generator.foundation.errors import UsageError
from generator.kits.kit import build_kit
from generator.kits.plan import BuildRequest, kit_plan, make_plan

SEEDED = BuildRequest(games=("aggression",), seeds="1-4", formats=("svg",))


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"balance_games": 3}, "--balance-games applies to --balanced"),
        ({"scheduler": "tcp://localhost:8786"}, "--scheduler applies to --balanced"),
        ({"balanced": "", "seeds": None}, "give --seeds"),
        ({"balanced": "", "balance_games": 0}, "from 1 to"),
        ({"balanced": "0.8-0.2"}, "band"),
        ({"balanced": "", "games": ("nine-mens-morris",), "seeds": None, "seed": None}, "give --seeds"),
    ],
)
def test_the_plan_refuses_every_bad_balance_option(changes: dict, words: str, tmp_path) -> None:
    request = dataclasses.replace(SEEDED, out=str(tmp_path / "out"), **changes)
    with pytest.raises(UsageError, match=words):
        make_plan(request)


def test_a_balanced_request_carries_its_band_and_games_in_the_plan(tmp_path) -> None:
    plan = make_plan(dataclasses.replace(SEEDED, out=str(tmp_path), balanced="40-60", balance_games=7))
    assert plan.band == pytest.approx((0.4, 0.6)) and plan.balance_games == 7
    plain = make_plan(dataclasses.replace(SEEDED, out=str(tmp_path)))
    assert plain.band is None and plain.games == plan.games


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_every_kit_holds_its_definition_in_each_language_of_its_booklets(lang: str, tmp_path) -> None:
    plan = make_plan(BuildRequest(all_games=True, lang=lang, out=str(tmp_path)))
    assert len(plan.games) == len(load_all())
    for game in plan.games:
        kit = game.kit
        have = languages(kit.definition)
        assert kit.definition.lang == kit.options.lang, kit.definition.id
        assert kit.options.lang == (lang if lang in have else "en"), kit.definition.id
        assert sorted(d.lang for d in kit.translations) == sorted(set(have) - {kit.options.lang})
        for translated in kit.translations:
            assert translated.id == kit.definition.id and translated.path == kit.definition.path


def test_a_kit_in_another_language_than_its_definition_takes_the_definition_in_it(tmp_path) -> None:
    english = find_definition("push")
    kit = kit_plan(english, str(tmp_path), options=Options(lang="it"))
    assert kit.definition.lang == "it" and kit.definition == find_definition("push", lang="it")
    assert kit_plan(find_definition("push", lang="fr"), str(tmp_path)).options.lang == "fr"


def test_the_build_reads_no_definition_from_disk(tmp_path, monkeypatch) -> None:
    kit = kit_plan(find_definition("push"), str(tmp_path), formats=("pdf",))
    assert kit.translations, "push has booklets in other languages"

    def refused(*args, **kwargs):
        raise AssertionError("a definition was read again while the kit was built")

    monkeypatch.setattr("generator.definitions.loader._read", refused)
    files = build_kit(kit)
    names = {f.path.rsplit("/", 1)[-1] for f in files}
    assert {f"booklet.{d.lang}.html" for d in kit.translations} <= names
