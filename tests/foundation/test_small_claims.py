"""Small claims of the kits' texts, each checked against the value it comes from: player counts are
the referee's, a count of one takes the singular, the print guide says how many quick-reference
cards it prints, Push! says what can stand in for its paper dice, and no rule text repeats a run
of words from the seed rule texts (the booklets explain the rules in the project's own words)."""

from __future__ import annotations

import functools
import glob
import os
import re

import pytest

from generator.booklet.template import languages, render_template, template_path, template_values
from generator.components import quick_reference
from generator.components.base import Options
from generator.components.kinds import context
from generator.definitions.loader import find_definition
from generator.definitions.values import BUILTIN_GAMES, LAYOUTS_DIR
from generator.games import GAMES
from generator.kits.plan import effective_seed
from generator.printing.imposition import find_paper
from tests.pdf_reader import open_pdf

# the seed rule texts: in shared/ beside the repository (as CI lays it), else the team's copy
_BESIDE = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "seeds")
SEEDS = os.path.normpath(_BESIDE) if os.path.isdir(_BESIDE) else "/work/shared/seeds"
RUN = 8  # words in a row that a rule text may not share with a seed text
WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def cases() -> list[tuple[str, str]]:
    return [(g, lang) for g in BUILTIN_GAMES for lang in languages(find_definition(g, LAYOUTS_DIR, "en"))]


def rule_texts(game: str, lang: str) -> dict[str, str]:
    """Return a kit's rule texts in a language, rendered: booklet, quick reference, and the
    definition's own words (summary, sheet notes); rendered once a process for every test."""
    return dict(_rule_texts(game, lang))


@functools.cache
def _rule_texts(game: str, lang: str) -> dict[str, str]:
    """Return rule_texts(game, lang), rendered from the definition and its templates."""
    definition = find_definition(game, LAYOUTS_DIR, lang)
    ctx = context(definition, find_paper("a4"), effective_seed(definition, None), options=Options(lang=lang))
    values = template_values(
        definition, ctx.rules.text_values(), ctx.variants, lang, ctx.seed, ctx.layout_data
    )
    texts = {}
    for spec in definition.components:
        if spec.kind == "booklet":
            texts["booklet"] = render_template(
                template_path(definition, spec.get("template") or game, lang), values
            )
        elif spec.kind == "quick-reference":
            texts["quick reference"] = render_template(quick_reference.template_file(spec, ctx), values)
        elif spec.kind == "table-sheet":
            texts[spec.id] = " ".join(spec["notes"])
    texts["summary"] = str(definition.game.get("summary", ""))
    return texts


def runs(text: str) -> set[tuple[str, ...]]:
    words = [w.lower().replace("’", "'") for w in WORD.findall(text)]
    return {tuple(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}


@functools.cache
def seed_runs() -> dict[str, set[tuple[str, ...]]]:
    """Return the runs of RUN words of each seed rule text, by file name (read once a process)."""
    paths = sorted(glob.glob(os.path.join(SEEDS, "*.txt")))
    return {os.path.basename(p): runs(open(p, encoding="utf-8").read()) for p in paths}


@pytest.mark.skipif(not os.path.isdir(SEEDS), reason="the seed rule texts are not on this machine")
@pytest.mark.parametrize("game,lang", cases())
def test_no_rule_text_shares_a_run_of_eight_words_with_a_seed_text(game, lang):
    seeds = seed_runs()
    assert seeds and all(seeds.values())
    for where, text in rule_texts(game, lang).items():
        for name, theirs in seeds.items():
            shared = sorted(" ".join(r) for r in runs(text) & theirs)
            assert not shared, (game, lang, where, name, shared[:3])


PLURALS = (
    "points turns throws rounds men pieces troops cities boxes squares cards players copies sheets "
    "lancers tours cases joueurs feuilles pions punti turni lanci giri dadi caselle giocatori fogli pedine"
).split()
ONE_MANY = re.compile(rf"(?<![\d.,/-])\b(\w+ )?1 ({'|'.join(PLURALS)})\b")
NAMED = {"player", "joueur", "giocatore"}  # "Player 1 throws": a name and a verb, not a count


@pytest.mark.parametrize("game,lang", cases())
def test_a_count_of_one_takes_the_singular(game, lang):
    for where, text in rule_texts(game, lang).items():
        flat = re.sub(r"\s+", " ", text)
        for found in ONE_MANY.finditer(flat):
            if (found.group(1) or "").strip().lower() in NAMED:
                continue
            raise AssertionError((game, lang, where, flat[max(0, found.start() - 60) : found.end() + 20]))


def player_range(game: str) -> tuple[int, int]:
    values = GAMES[find_definition(game, LAYOUTS_DIR, "en").rules_id].text_values()
    if "min_players" in values:
        return values["min_players"], values["max_players"]
    sides = len(GAMES[find_definition(game, LAYOUTS_DIR, "en").rules_id].sides)
    return sides, sides


@pytest.mark.parametrize("game", sorted(BUILTIN_GAMES))
def test_the_kit_names_the_numbers_of_players_the_referee_takes(game):
    low, high = player_range(game)
    players = str(find_definition(game, LAYOUTS_DIR, "en").game["players"])
    assert players == (str(low) if low == high else f"{low}-{high}"), game
    for lang in languages(find_definition(game, LAYOUTS_DIR, "en")):
        booklet = re.sub(r"\s+", " ", rule_texts(game, lang)["booklet"])
        assert "any number of players" not in booklet and "autant de joueurs que" not in booklet
        if low != high:  # a game for a range of players says which
            assert re.search(rf"\b{low} (to|à|a) {high} (players|joueurs|giocatori)", booklet), (game, lang)


def test_the_guide_says_how_many_quick_reference_cards_it_prints(every_kit):
    out, _ = every_kit
    for folder in sorted(os.listdir(out)):
        if not os.path.isdir(os.path.join(out, folder)):
            continue
        game = folder.split("-seed")[0]
        definition = find_definition(game, LAYOUTS_DIR, "en")
        cards = sum(s["copies"] for s in definition.components if s.kind == "quick-reference")
        doc = open_pdf(os.path.join(out, folder, "kit.pdf"))
        guide = re.sub(r"\s+", " ", " ".join(doc[n].get_text() for n in range(2)))
        said = re.search(r"Quick reference: cut out the (\d+) cards?", guide)
        assert said and int(said.group(1)) == cards, (game, said)
        if "one for each player" in guide[said.start() : said.start() + 120]:
            assert cards >= player_range(game)[1], game


def test_push_says_ordinary_dice_can_stand_in_for_the_paper_ones():
    definition = find_definition("push", LAYOUTS_DIR, "en")
    paper_dice = sum(d["count"] for d in definition.component("dice")["dice"])
    for lang, words in (("en", "Ordinary dice"), ("it", "dadi comuni")):
        booklet = re.sub(r"\s+", " ", rule_texts("push", lang)["booklet"])
        assert f" {paper_dice} " in booklet and words in booklet, lang
