"""The games' own words (illegal-move reasons, position lines, outcome details) in every language
the referee speaks: over random playouts, every reason for every candidate move the rules refuse,
every position and every outcome renders from the catalogue with no English word in French or
Italian; English renders exactly as the rules' own text; a missing entry raises."""

from __future__ import annotations

import string
from pathlib import Path

import pytest

from generator.foundation.errors import IllegalMoveError, NotationError
from generator.foundation.game_texts import GAME_TEXTS
from generator.foundation.languages import TEXTS, MissingText, Msg, reason_of, render
from generator.foundation.seeding import rng_for
from generator.games import GAMES
from generator.games.base import State
from generator.referee.record import record_str
from tests.foundation.test_translations import english_in
from tests.games.notation_space import candidates
from tests.referee.test_referee_languages import invoke

#: the games whose rules modules speak in catalogue messages: every game
TRANSLATED = sorted(GAMES)
OTHER = ["fr", "it"]
PLAYOUTS = 4
CANDIDATES_PER_PLY = 30
#: the refused moves are said at every third position of a playout (every position is shown)
REFUSED_EVERY = 3


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_game_text_is_in_every_language_with_the_same_fields():
    for lang in OTHER:
        assert set(GAME_TEXTS[lang]) == set(GAME_TEXTS["en"]), lang
        for key, english in GAME_TEXTS["en"].items():
            fields = _fields(GAME_TEXTS[lang][key])
            if key.endswith(".one"):  # a count of one may spell its number out ('un’altra')
                fields |= _fields(english) & {"n"}
            assert fields == _fields(english), (lang, key)


def test_a_message_without_an_entry_raises(monkeypatch):
    with pytest.raises(MissingText):
        Msg("game.nmm.no_such_text")
    message = Msg("game.nmm.two_men", side=Msg("side.white"))
    monkeypatch.delitem(TEXTS["fr"], "game.nmm.two_men")
    with pytest.raises(MissingText):
        render(message, "fr")
    assert render(message, "it") == "Bianco è rimasto con due pedine"


def _said(state: State, rng: object, game: str) -> list[str]:
    """Return what the referee can say of a position: its picture, its outcome's reason and the
    reason of every candidate move the rules refuse (as the rules' messages)."""
    said: list[str] = [state.text()]
    if state.outcome().reason:
        said.append(state.outcome().reason)
    if state.ply % REFUSED_EVERY:  # drawing the candidates costs more than all the rest
        return said
    for text in candidates(game, state, rng)[:CANDIDATES_PER_PLY]:
        try:
            state.check_move(state.parse_move(text))
        except (IllegalMoveError, NotationError) as exc:
            said.append(reason_of(exc))
    return said


@pytest.mark.parametrize("game", TRANSLATED)
def test_every_message_of_a_playout_comes_from_the_catalogue(game):
    rules = GAMES[game]
    for n in range(PLAYOUTS):
        rng = rng_for(n + 1, f"test/game-texts/{game}")
        state = rules.new_state(n + 1 if rules.seeded else None, frozenset(), {})
        while True:
            for said in _said(state, rng, game):
                assert isinstance(said, Msg), f"{game}: not from the catalogue: {said!r}"
                assert render(said, "en") == said
                for lang in OTHER:
                    shown = render(said, lang)
                    assert not english_in(shown.splitlines()), (game, lang, shown)
            if state.is_terminal():
                break
            state.apply_move(state.random_move(rng))


def _game_record(game: str, seed: int, plies: int) -> tuple[str, State]:
    rules = GAMES[game]
    rng = rng_for(seed, f"test/game-texts-cli/{game}")
    state = rules.new_state(seed if rules.seeded else None, frozenset(), {})
    moves = []
    for _ in range(plies):
        if state.is_terminal():
            break
        move = state.random_move(rng)
        moves.append(state.move_str(move))
        state.apply_move(move)
    tags = {"Game": game, **({"Seed": str(seed)} if rules.seeded else {})}
    return record_str(tags, moves, None, rules.move_per_line, len(rules.sides)), state


@pytest.mark.parametrize("game", TRANSLATED)
@pytest.mark.parametrize("lang", OTHER)
def test_pnp_referee_says_a_games_reasons_and_positions_in_its_language(game, lang, tmp_path: Path):
    for seed, plies in ((1, 7), (2, 400)):
        record, state = _game_record(game, seed, plies)
        refused = next(
            (t for t in candidates(game, state, rng_for(seed, "refused")) if _refused(state, t)), None
        )
        path = tmp_path / f"{seed}.txt"
        gap = "\n" if GAMES[game].move_per_line else " "
        path.write_text(record.rstrip("\n") + (gap + refused if refused else "") + "\n", encoding="utf-8")
        english = invoke(str(path)).stdout
        result = invoke(str(path), "--lang", lang)
        assert result.exit_code == invoke(str(path)).exit_code == (4 if refused else 0)
        assert not english_in(result.stdout.splitlines()), result.stdout
        assert result.stdout != english
        assert len(result.stdout.splitlines()) == len(english.splitlines())


def _refused(state: State, text: str) -> bool:
    try:
        state.check_move(state.parse_move(text))
    except (IllegalMoveError, NotationError):
        return True
    return False
