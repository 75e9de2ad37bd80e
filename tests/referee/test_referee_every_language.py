"""``pnp referee --lang fr|it`` speaks French and Italian over every game: records that end in
each way a game can end (a win, a resignation where the game has one, the turn limit, unfinished),
records stopped by an illegal move or a badly written one, wrong and right claimed results,
records whose own lines are wrong (tags, players, seed, result), and live-play transcripts typed
part by part with '?', 'help', 'undo', refused and unreadable lines: none holds an English word (the
kits' no-English check, with the referee's own English words added), and each says as much as the
English does. The catalogue has every key in every language, and a count agrees with its number
in each language (0, 1, 2 and more)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from generator.bots import RandomBot
from generator.cli.referee import _title
from generator.foundation.errors import IllegalMoveError, NotationError
from generator.foundation.languages import (
    GLOSSARY,
    LANGUAGES,
    TEXTS,
    Msg,
    count_text,
    counted,
    render,
    unit_count,
)
from generator.foundation.seeding import Rng, rng_for
from generator.games import GAMES
from generator.games.base import State
from generator.referee.live import MAX_LINE, play
from generator.referee.record import record_str
from tests.foundation.test_translations import ENGLISH, NOTATION, english_in, italian_typos, words
from tests.games.notation_space import candidates
from tests.referee.test_referee_languages import invoke

OTHER = sorted(code for code in LANGUAGES if code != "en")
GAME_IDS = sorted(GAMES)
#: the tags of a record, written as the notation writes them in every language
TAG_NAMES = re.compile(
    r"\b(?:Game|Seed|Variant|Result|Players|TurnLimit|RedSetup|BlueSetup|SouthOrder|WestOrder|Setup|Reverses)\b"
)
#: English words of the referee's own messages, beside the kits' list
REFEREE_ENGLISH = {
    "move",
    "moves",
    "legal",
    "illegal",
    "square",
    "squares",
    "needs",
    "step",
    "wins",
    "none",
    "ammo",
    "damage",
    "left",
    "must",
    "cannot",
    "there",
    "has",
    "have",
    "every",
    "only",
    "would",
    "already",
    "after",
    "before",
    "outcome",
    "nobody",
    "error",
    "open",
    "last",
    "off",
    "box",
    "until",
    "took",
    "typed",
    "type",
}


#: the games' ids (a record's Game tag) and their titles: names, the same in every language
GAME_NAMES = re.compile(
    "|".join(sorted({re.escape(n) for r in GAMES.values() for n in (r.id, r.title)}, key=len, reverse=True))
)


def english_words(text: str) -> list[str]:
    """Return the lines of the referee's output that hold an English word (tag and game names
    aside)."""
    lines = [GAME_NAMES.sub(" ", TAG_NAMES.sub(" ", line)) for line in text.splitlines()]
    found = english_in(lines)
    for line in lines:
        extra = [w for w in words(line) if w.lower() in REFEREE_ENGLISH - NOTATION - ENGLISH]
        if extra:
            found.append(f"{' '.join(extra)} in {line[:80]!r}")
    return found


def off_glossary(text: str, game: str, lang: str) -> list[str]:
    """Return the lines that use a word the language's glossary bans for a concept of the game
    (the booklets' one word for each), and Italian lines set with a typewriter's typography."""
    banned = [
        (word, key)
        for key, term in GLOSSARY[lang].items()
        if not term.games or game in term.games
        for word in term.banned
    ]
    found = []
    for line in text.splitlines():
        low = " ".join(words(GAME_NAMES.sub(" ", TAG_NAMES.sub(" ", line)))).lower().replace("’", "'")
        for word, key in banned:
            if re.search(rf"(?<![\w']){re.escape(word)}(?![\w'])", low):
                found.append(f"{key}: {word!r} in {line[:60]!r}")
        if lang == "it":
            found.extend(italian_typos(line))
    return found


def _tags(game: str, seed: int, limit: int | None = None) -> dict[str, str]:
    rules = GAMES[game]
    tags = {"Game": game, **({"Seed": str(seed)} if rules.seeded else {})}
    if limit is not None:
        tags["TurnLimit"] = str(limit)
    return tags


def _playout(game: str, seed: int, limit: int | None = None, plies: int = 100_000) -> tuple[list[str], State]:
    """Return the moves of a random game (to its end, or ``plies`` moves) and the state after them."""
    rules = GAMES[game]
    tags = _tags(game, seed, limit)
    state = rules.new_state(seed if rules.seeded else None, frozenset(), tags)
    rng = rng_for(seed, f"test/every-language/{game}")
    moves = []
    while not state.is_terminal() and len(moves) < plies:
        move = state.random_move(rng)
        moves.append(state.move_str(move))
        state.apply_move(move)
    return moves, state


def _refused(state: State, game: str, seed: int) -> list[str]:
    """Return texts the rules refuse in a position: refused moves and badly written ones."""
    found = []
    for text in candidates(game, state, rng_for(seed, "refused")):
        try:
            state.check_move(state.parse_move(text))
        except (IllegalMoveError, NotationError):
            found.append(text)
        if len(found) == 3:
            break
    return found + ["zz9-zz9 : zz"]


def _write(path: Path, game: str, tags: dict[str, str], moves: list[str], result: str | None = None) -> str:
    rules = GAMES[game]
    path.write_text(record_str(tags, moves, result, rules.move_per_line, len(rules.sides)), encoding="utf-8")
    return str(path)


def _records(game: str, folder: Path) -> list[str]:
    """Return records of a game that end each way: finished games (several seeds), the turn
    limit, a resignation, unfinished, illegal and unreadable moves, right and wrong claims."""
    paths = []
    winners = set()
    for seed in range(1, 9):  # random games to their end: wins of either side, or draws
        moves, state = _playout(game, seed)
        winners.add(state.outcome().winner)
        paths.append(_write(folder / f"end{seed}.txt", game, _tags(game, seed), moves))
    assert winners - {None}, f"{game}: no random game was won"
    moves, state = _playout(game, 3, limit=2)
    assert state.is_terminal()
    paths.append(_write(folder / "limit.txt", game, _tags(game, 3, 2), moves, "1/2-1/2"))
    moves, state = _playout(game, 4, plies=5)
    paths.append(_write(folder / "unfinished.txt", game, _tags(game, 4), moves, "*"))
    paths.append(_write(folder / "wrong-claim.txt", game, _tags(game, 4), moves, "1-0"))
    if any(state.move_str(m) == "resign" for m in state.legal_moves()):
        paths.append(_write(folder / "resign.txt", game, _tags(game, 4), [*moves, "resign"]))
    for n, text in enumerate(_refused(state, game, 4)):
        paths.append(_write(folder / f"refused{n}.txt", game, _tags(game, 4), [*moves, text]))
    return paths


def _bad_records(game: str, folder: Path) -> list[str]:
    """Return records whose own lines are wrong: tags, players, seed, turn limit, result."""
    rules = GAMES[game]
    seed = '[Seed "1"]\n' if rules.seeded else ""
    texts = [
        f'[Game "{game}"]\n[Game "{game}"]\n',
        f'[Game "{game}" \n',
        f"[Game {game}]\n",
        f'[Game "{game}"]\n{seed}[TurnLimit "0"]\n',
        f'[Game "{game}"]\n[Seed "x"]\n',
        f'[Game "{game}"]\n{seed}[Variant "zz"]\n',
        f'[Game "{game}"]\n{seed}[Result "1-0"]\n\n1/2-1/2\n',
        f'[Game "{game}"]\n{seed}[Result "zz"]\n',
        f'[Game "{game}-zz"]\n',
        "1. a1\n",
    ]
    if rules.seeded:
        texts.append(f'[Game "{game}"]\n')
    if "Players" in rules.extra_tags:
        texts += [f'[Game "{game}"]\n[Players "99"]\n', f'[Game "{game}"]\n[Players "3"]\n[Result "1-0"]\n']
    if "RedSetup" in rules.extra_tags:
        texts += [
            f'[Game "{game}"]\n{seed}[RedSetup "P:a9,d9,g9,j9 R:c10,h10 G:b10,i10 M:e10"]\n',
            f'[Game "{game}"]\n{seed}[RedSetup "P:a9,d9,g9,j9 R:c10,h10 G:b10,i10 M:e10,f10 P:a9"]\n',
            f'[Game "{game}"]\n{seed}[BlueSetup "P:a2,d2,g2,j2 R:c1,h1 G:b1,i1 M:e1,e5"]\n',
            f'[Game "{game}"]\n{seed}[BlueSetup "P:a2,d2,g2,j2 R:c1,h1 G:b1,i1"]\n',
            f'[Game "{game}"]\n{seed}[BlueSetup "X:a2"]\n',
        ]
    paths = []
    for n, text in enumerate(texts):
        path = folder / f"bad{n}.txt"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_verdict_on_every_game_is_said_without_english(game, tmp_path: Path):
    for path in _records(game, tmp_path) + _bad_records(game, tmp_path):
        english = invoke(path)
        said = english.stdout + english.stderr
        for lang in OTHER:
            result = invoke(path, "--lang", lang)
            text = result.stdout + result.stderr
            assert result.exit_code == english.exit_code, (path, lang, text)
            assert not english_words(text), (path, lang, english_words(text), text)
            assert not off_glossary(text, game, lang), (path, lang, off_glossary(text, game, lang))
            assert len(text.splitlines()) == len(said.splitlines()), (path, lang, text, said)
            assert text != said, (path, lang)


def _typed(game: str, seed: int, limit: int) -> list[str]:
    """Return what players type to play a random game part by part, as live play asks for the
    parts (a part left with one choice is made for them), with '?', 'help', refused and
    unreadable lines and an 'undo' of a move played again."""
    rules = GAMES[game]
    tags = {"TurnLimit": str(limit)}
    state = rules.new_state(seed if rules.seeded else None, frozenset(), tags)
    rng = rng_for(seed, f"test/every-language-live/{game}")
    refused = _refused(state, game, seed)
    lines = ["?", "help", "undo", "z" * (MAX_LINE + 1), *refused]
    while not state.is_terminal():
        move = state.random_move(rng)
        among: list[Any] | None = None
        typed = []
        for stage in range(len(state.deciders())):
            if among is not None and len({state.part_str(m, stage) for m in among}) == 1:
                continue
            typed.append(state.part_str(move, stage))
            among = state.completions(move, stage + 1)
        lines += ["?", *typed[:1]]
        if len(lines) < 12:  # take the first move back and play it again
            lines += [*typed[1:], "undo", *typed]
        else:
            lines += typed[1:]
        state.apply_move(move)
    return lines


@pytest.mark.parametrize("game", GAME_IDS)
def test_live_play_of_every_game_is_said_without_english(game):
    rules = GAMES[game]
    for seed, limit in ((1, 6), (2, 40)):
        lines = _typed(game, seed, limit)
        out = {}
        for lang in ["en", *OTHER]:
            stream = io.StringIO()
            play(
                rules,
                io.StringIO("".join(f"{x}\n" for x in lines)),
                stream,
                seed=seed if rules.seeded else None,
                tags={"TurnLimit": str(limit)},
                lang=lang,
                title=_title(game, lang),
            )
            out[lang] = stream.getvalue()
        assert "game over: " in out["en"], out["en"][-500:]
        for lang in OTHER:
            assert not english_words(out[lang]), (lang, english_words(out[lang])[:5])
            assert not off_glossary(out[lang], game, lang), (lang, off_glossary(out[lang], game, lang)[:5])
            assert len(out[lang].splitlines()) == len(out["en"].splitlines()), lang


@pytest.mark.parametrize("game", GAME_IDS)
def test_live_play_against_the_computer_to_the_end_is_said_without_english(game):
    rules = GAMES[game]
    seed = 5
    for lang in OTHER:
        stream = io.StringIO()
        bots = {side: RandomBot() for side in rules.sides}
        tags = {"TurnLimit": "60"}
        game_played = play(
            rules,
            io.StringIO(""),
            stream,
            seed=seed if rules.seeded else None,
            tags=tags,
            computer=bots,
            rng=Rng(seed, "test/every-language-computer"),
            lang=lang,
            title=_title(game, lang),
        )
        assert game_played.outcome.finished
        assert not english_words(stream.getvalue()), (lang, english_words(stream.getvalue())[:5])


def _count_stems() -> list[str]:
    """Return the catalogue's counts: the stems of its ``.one``/``.many`` texts of a number ``{n}``."""
    return sorted(
        key.rpartition(".")[0]
        for key, text in TEXTS["en"].items()
        if key.endswith(".many") and "{n}" in text and key[: -len("many")] + "one" in TEXTS["en"]
    )


def test_every_catalogue_key_is_in_every_language():
    for lang in LANGUAGES:
        assert set(TEXTS[lang]) == set(TEXTS["en"]), (lang, set(TEXTS[lang]) ^ set(TEXTS["en"]))
    for stem in _count_stems():
        for lang in LANGUAGES:
            assert {f"{stem}.one", f"{stem}.many"} <= set(TEXTS[lang]), (lang, stem)


def _before_line(game_moves: int, lang: str, tmp_path: Path) -> str:
    """Return the referee's line on the moves before an illegal one, after ``game_moves`` legal ones."""
    moves, _ = _playout("nine-mens-morris", 1, plies=game_moves)
    path = _write(
        tmp_path / f"{game_moves}.txt", "nine-mens-morris", _tags("nine-mens-morris", 1), [*moves, "zz"]
    )
    result = invoke(path, "--lang", lang)
    assert result.exit_code == 4
    return result.stdout.splitlines()[1]


@pytest.mark.parametrize(
    "lang,forms",
    [
        ("en", ("0 moves legal", "1 move legal", "2 moves legal")),
        ("fr", ("0\u00a0coup sans faute", "1\u00a0coup sans faute", "2\u00a0coups sans faute")),
        ("it", ("0 mosse regolari", "1 mossa regolare", "2 mosse regolari")),
    ],
)
def test_the_moves_before_an_illegal_one_agree_with_their_number(lang, forms, tmp_path: Path):
    for n, form in enumerate(forms):
        assert form in _before_line(n, lang, tmp_path)


@pytest.mark.parametrize(
    "lang,men,moves",
    [
        ("en", ("0 men", "1 man", "2 men"), ("0 moves", "1 move", "2 moves")),
        (
            "fr",
            ("0\u00a0pion", "1\u00a0pion", "2\u00a0pions"),
            ("0\u00a0coup", "1\u00a0coup", "2\u00a0coups"),
        ),
        ("it", ("0 pedine", "1 pedina", "2 pedine"), ("0 mosse", "1 mossa", "2 mosse")),
    ],
)
def test_a_count_agrees_with_its_number_in_each_language(lang, men, moves):
    for n in range(3):
        assert render(counted(n, "man"), lang) == men[n]
        assert unit_count(n, "move", lang) == moves[n]
    # a count inside a message takes the form of the language it is said in, not of English
    inside = Msg("game.nmm.still_to_place", side=Msg("side.white"), men=counted(0, "man"))
    assert men[0] in render(inside, lang)


def test_every_count_of_the_catalogue_says_its_number_in_every_language():
    for stem in _count_stems():
        for lang in LANGUAGES:
            for n in (0, 1, 2, 12):
                said = count_text(
                    stem, n, lang, **dict.fromkeys(("choices", "index", "some", "problem"), "X")
                )
                if n != 1 or "{n}" in TEXTS[lang][f"{stem}.one"]:
                    assert str(n) in said, (stem, lang, n, said)
