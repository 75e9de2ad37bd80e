"""``pnp referee --lang``: the referee's verdict and live-play prompts in each language, from the
language catalogue (``referee.*``, ``live.*``, ``side.*``, ``part.*``), never English in another
language, and a missing entry an error rather than an English fallback."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from generator.cli.referee import register, verdict_lines
from generator.foundation.languages import (
    LANGUAGES,
    TEXTS,
    MissingText,
    count_text,
    message,
    side_name,
    unit_count,
)
from generator.games import GAMES, find_rules
from generator.referee.live import play
from generator.referee.replay import replay

RECORDS = Path(__file__).parent / "records"
OTHER = sorted(code for code in LANGUAGES if code != "en")


def _app() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.callback()
    def _root() -> None:
        """A root so that ``referee`` stays a subcommand."""

    return app


APP = _app()


def invoke(*args: str, stdin: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(APP, ["referee", *args], input=stdin)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_a_verdict_is_said_in_the_language_asked(lang):
    record = RECORDS / "nmm_white_wins.txt"
    verdict = replay(record.read_text(encoding="utf-8"))
    result = invoke(str(record), "--lang", lang)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == count_text("referee.all", verdict.moves_checked, lang)
    winner = message("referee.wins", lang, side=side_name("white", lang))
    assert lines[1].startswith(message("referee.outcome", lang, outcome=winner))
    assert message("referee.final", lang) in lines


@pytest.mark.parametrize("lang", OTHER)
def test_an_illegal_move_is_reported_in_the_language_asked(lang):
    result = invoke(str(RECORDS / "nmm_illegal_move_23.txt"), "--lang", lang)
    english = invoke(str(RECORDS / "nmm_illegal_move_23.txt"))
    assert result.exit_code == english.exit_code == 4
    first = result.stdout.splitlines()[0]
    e = replay((RECORDS / "nmm_illegal_move_23.txt").read_text(encoding="utf-8")).error
    assert e is not None
    said = message(
        "referee.illegal", lang, index=e.index, line=e.line, column=e.column, move=e.move, reason="R"
    )
    assert first.startswith(said[: said.index("R")])
    assert first != english.stdout.splitlines()[0]


def test_an_unknown_language_is_a_one_line_usage_error():
    result = invoke(str(RECORDS / "nmm_white_wins.txt"), "--lang", "de")
    assert result.exit_code == 2
    assert "unknown language 'de'" in result.output and "Traceback" not in result.output


def live(game: str, lines: list[str], lang: str) -> str:
    rules = find_rules(game)
    out = io.StringIO()
    seed = 1 if rules.seeded else None
    play(rules, io.StringIO("".join(f"{x}\n" for x in lines)), out, seed=seed, lang=lang)
    return out.getvalue()


@pytest.mark.parametrize("lang", OTHER)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_live_play_prompts_and_lists_in_the_language_asked(game, lang):
    out = live(game, ["?", "quit"], lang)
    from generator.foundation.languages import part_name

    state = find_rules(game).new_state(1 if find_rules(game).seeded else None, frozenset(), {})
    side, verb = state.deciders()[0], state.part_names()[0]
    prompt = message("live.prompt", lang, side=side_name(side, lang), part=part_name(verb, lang))
    assert prompt in out
    assert f"{side_name(side, 'en')} to {verb}: " not in out
    assert message("live.help", lang) in out
    assert message("live.stopped", lang, moves=unit_count(0, "move", lang)) in out
    for word in ("legal moves", "game stopped", "type your move"):
        assert word not in out, word


@pytest.mark.parametrize("lang", OTHER)
def test_a_missing_entry_is_an_error_not_english(monkeypatch, lang):
    monkeypatch.delitem(TEXTS[lang], "referee.all.many")
    verdict = replay((RECORDS / "nmm_white_wins.txt").read_text(encoding="utf-8"))
    with pytest.raises(MissingText):
        verdict_lines(verdict, lang)
    monkeypatch.delitem(TEXTS[lang], "live.prompt")
    with pytest.raises(MissingText):
        live("nine-mens-morris", ["quit"], lang)


def test_every_side_and_part_of_every_game_has_its_words_in_every_language():
    for game, rules in GAMES.items():
        state = rules.new_state(1 if rules.seeded else None, frozenset(), {})
        for lang in LANGUAGES:
            for side in rules.sides:
                assert side_name(side, lang)
            for part in state.part_names():
                assert re.sub(r"\s", "", message("live.prompt", lang, side="X", part=part)), game
