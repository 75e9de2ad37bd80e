"""Quick references agree with the referee (rulings.md): what a card says a player may or must do
is what the referee allows, and every variant the referee plays is on the card that goes with it."""

from __future__ import annotations

import re

import pytest

from generator.booklet.template import render_template, template_values
from generator.components import quick_reference
from generator.components.base import Options
from generator.components.kinds import context
from generator.definitions.loader import find_definition
from generator.definitions.values import BUILTIN_GAMES, LAYOUTS_DIR
from generator.foundation.seeding import rng_for
from generator.games import GAMES
from generator.kits.plan import effective_seed
from generator.printing.imposition import find_paper


def card_text(game: str, lang: str = "en", variants: frozenset[str] = frozenset()) -> str:
    """Return the quick reference of a game's kit built with the given variants, as rendered (its
    markup left in), white space run together."""
    definition = find_definition(game, LAYOUTS_DIR, lang)
    seed = effective_seed(definition, None)
    ctx = context(definition, find_paper("a4"), seed, variants, options=Options(lang=lang))
    spec = next(s for s in definition.components if s.kind == "quick-reference")
    quick_reference.card(spec, ctx)  # it still fits its one card
    path = quick_reference.template_file(spec, ctx)
    rules_values = ctx.rules.text_values() if ctx.rules is not None else {}
    values = template_values(definition, rules_values, ctx.variants, lang, ctx.seed, ctx.layout_data)
    return re.sub(r"\s+", " ", render_template(path, values))


def _brain_captures_only() -> tuple[object, list[str]]:
    """Return a Take The Brain position (Setup tag) where every legal move is a capture."""
    rules = GAMES["take-the-brain"]
    arrows = rules.board_data()["arrows"]
    steps = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1), "S": (0, -1), "SW": (-1, -1)}
    steps |= {"W": (-1, 0), "NW": (-1, 1)}
    for square, directions in sorted(arrows.items()):
        f, r = ord(square[0]) - 97, int(square[1:])
        targets = []
        for d in directions:
            df, dr = steps[d]
            t = f"{chr(97 + f + df)}{r + dr}"
            if t in arrows:
                targets.append(t)
        far = next(s for s in sorted(arrows) if s != square and s not in targets)
        setup = " ".join([f"B{square}", *(f"n{t}" for t in targets), f"b{far}"])
        state = rules.new_state(tags={"Setup": setup})
        moves = [state.move_str(m) for m in state.legal_moves()]
        if moves and all("x" in m for m in moves):
            return state, moves
    raise AssertionError("no position where Red can only capture")


def test_take_the_brain_card_says_a_capture_is_compulsory_only_when_it_is_the_only_move():
    rules = GAMES["take-the-brain"]
    # the referee: a capture may be passed over for another move ...
    rng = rng_for(3, "quickref/take-the-brain")
    mixed = None
    for _ in range(40):
        state = rules.new_state()
        while not state.is_terminal() and mixed is None:
            moves = [state.move_str(m) for m in state.legal_moves()]
            if any("x" in m for m in moves) and any("x" not in m for m in moves):
                mixed = state
                break
            state.apply_move(state.random_move(rng))
        if mixed is not None:
            break
    assert mixed is not None
    quiet = next(m for m in mixed.legal_moves() if "x" not in mixed.move_str(m))
    mixed.check_move(quiet)  # legal: capturing is not compulsory while another move exists
    # ... but when every move is a capture the player must capture (a player must move)
    _, only = _brain_captures_only()
    assert only
    card = card_text("take-the-brain").lower()
    assert "never compulsory" not in card and "not compulsory" not in card
    sentence = next(s for s in re.split(r"(?<=[.;:])\s", card) if "capture" in s and "must" in s)
    assert "only" in sentence or "when" in sentence, sentence


@pytest.mark.parametrize("game", sorted(g for g in BUILTIN_GAMES if GAMES[g].variants))
def test_every_variant_the_referee_plays_is_on_the_quick_reference_of_its_kit_only(game):
    for variant in GAMES[game].variants:
        for lang in find_definition(game, LAYOUTS_DIR, "en").game.get("languages") or ["en"]:
            with_it = card_text(game, lang, frozenset({variant})).lower()
            assert variant.lower() in with_it, (game, lang, variant)
            # a kit built without the variant plays without it: its card does not describe it
            assert variant.lower() not in card_text(game, lang).lower(), (game, lang, variant)


def _card_score(history: list[str]) -> dict[str, int]:
    """Score a Verbal game of the odds-evens variant as the quick reference words it: the offerer
    (A in odd rounds) keeps the number not taken, B reverses their row, then odd beats even at
    places 1, 3, 5 and even beats odd at 2, 4, 6; two odds or two evens score nothing."""
    rows: dict[str, list[int]] = {"a": [], "b": []}
    for n, text in enumerate(history, 1):
        offered, taken = text.split(":")
        x, y = (int(v) for v in offered.split("/"))
        offerer, taker = ("a", "b") if n % 2 else ("b", "a")
        rows[taker].append(int(taken))
        rows[offerer].append(x + y - int(taken))
    rows["b"].reverse()
    score = {"a": 0, "b": 0}
    for place, (a, b) in enumerate(zip(rows["a"], rows["b"]), 1):
        if a % 2 != b % 2:
            winner_is_odd = place % 2 == 1
            score["a" if (a % 2 == 1) == winner_is_odd else "b"] += 1
    return score


def test_the_verbal_card_scores_the_odds_evens_variant_as_the_referee_does():
    card = card_text("verbal", variants=frozenset({"odds-evens"}))
    assert "odd beats even at places 1, 3, 5" in card and "even beats odd at 2, 4, 6" in card
    assert "two odds or two evens score nothing" in card
    rules = GAMES["verbal"]
    rng = rng_for(5, "quickref/verbal")
    for _ in range(200):
        state = rules.new_state(variants=frozenset({"odds-evens"}))
        while not state.is_terminal():
            state.apply_move(state.random_move(rng))
        assert dict(state.outcome().score) == _card_score([state.move_str(m) for m in state.history])


def test_the_barricades_card_says_grenades_fly_over_barricades_and_spare_nobody():
    card = card_text("barricades").lower()
    assert "grenades fly over" in card and "yours too" in card


def test_the_centennial_card_names_who_may_claim_and_until_when():
    for lang, words in (
        ("en", ("another player", "before the next throw")),
        ("fr", ("un autre joueur", "avant le lancer suivant")),
    ):
        card = card_text("centennial", lang)
        assert all(w in card for w in words), lang
