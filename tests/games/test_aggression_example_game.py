"""Aggression's worked example game (the booklet's "An example game", in every language) is a game
the referee plays on the kit's own map, for every seed and with or without ``connected``, and
each move does what the booklet says of it (rulings.md, Aggression):

- claiming: Black places all its troops in two cities, then must pass while White claims a third;
  claiming ends when both have placed all their troops;
- a successful attack: the city attacked falls (Black had another successful attack to choose);
- a player with no successful attack names a city anyway, which fails and changes nothing;
- a player with a successful attack must make one: a pass, or naming a city that holds, is refused;
- the final tally: the game ends when neither player has a successful attack; most cities wins.

The booklet prints these moves in this order, in every language."""

from __future__ import annotations

import html
import re

import pytest

from generator.components.base import Options
from generator.components.booklet import booklet_source, html_booklet
from generator.components.kinds import context
from generator.definitions.loader import find_definition
from generator.foundation.errors import IllegalMoveError
from generator.games.aggression import RULES
from generator.printing.imposition import find_paper
from generator.referee.replay import replay
from generator.render.html import html_document

VARIANTS = (frozenset(), frozenset({"connected"}))
SEEDS = range(0, 80)


def _record(seed: int, variants: frozenset[str], record: str) -> str:
    head = ['[Game "aggression"]', f'[Seed "{seed}"]']
    if variants:
        head.append(f'[Variant "{",".join(sorted(variants))}"]')
    return "\n".join([*head, record]) + "\n"


@pytest.mark.parametrize("variants", VARIANTS, ids=["plain", "connected"])
def test_the_referee_replays_the_example_game_to_the_tally_the_booklet_gives(variants) -> None:
    for seed in SEEDS:
        game = RULES.layout_data("game", seed, variants)
        verdict = replay(_record(seed, variants, game["record"]), "aggression", seed, sorted(variants))
        assert verdict.legal and verdict.moves_checked == len(game["moves"]), (seed, verdict.error)
        assert verdict.outcome.finished and not verdict.outcome.draw
        assert verdict.outcome.winner == game["end"]["winner"]
        assert verdict.outcome.score == game["end"]["score"]
        assert game["end"]["score"][game["end"]["winner"]] > min(game["end"]["score"].values())


@pytest.mark.parametrize("variants", VARIANTS, ids=["plain", "connected"])
def test_each_move_of_the_example_game_does_what_the_booklet_says(variants) -> None:
    for seed in SEEDS:
        game = RULES.layout_data("game", seed, variants)
        moves = game["moves"]
        state = RULES.new_state(seed, variants)
        # claiming: Black places all its troops, then passes; White's last claim ends claiming
        for move in moves[:6]:
            assert state.phase() == "claiming", seed
            if move == "pass":
                assert state.troops_in_hand(state.current_player()) == 0
            state.play(move)
        assert state.phase() == "attacking" and state.current_player() == "black"
        assert state.troops_in_hand("black") == state.troops_in_hand("white") == 0
        assert sum(1 for c in "ABCDEFGHIJKLMNOPQRST" if state.city(c)[0] is None) == game["empty"]
        for city, piece in game["position"].items():
            assert state.city(city) == (piece["side"], piece["troops"])
        attack, failing, must = game["attack"], game["failing"], game["must"]
        # a successful attack, one of several Black may choose
        assert moves[6] == f"x{attack['city']}"
        choices = {a.city for a in state.successful_attacks()}
        assert {attack["city"], attack["other"]} <= choices
        assert state.attack_strength(attack["city"]) == attack["total"] > attack["defence"]
        state.play(moves[6])
        assert state.city(attack["city"]) == (None, 0)
        # White has none: naming a black city is allowed, and it fails
        assert state.current_player() == "white" and not state.successful_attacks()
        assert moves[7] == f"x{failing['city']}"
        before = [state.city(c) for c in "ABCDEFGHIJKLMNOPQRST"]
        assert state.attack_strength(failing["city"]) == failing["total"] <= failing["defence"]
        state.play(moves[7])
        assert [state.city(c) for c in "ABCDEFGHIJKLMNOPQRST"] == before
        assert not state.is_terminal()
        # Black has one: it must be made, a pass or a city that holds is refused
        assert state.current_player() == "black" and state.successful_attacks()
        for refused in ("pass", f"x{must['holds']}"):
            with pytest.raises(IllegalMoveError):
                state.check_move(state.parse_move(refused))
        assert moves[8] == f"x{must['city']}" and len(moves) == 9
        state.play(moves[8])
        # the end: neither player has a successful attack; the tally
        assert state.is_terminal()
        outcome = state.outcome()
        assert outcome.score == game["end"]["score"] and outcome.winner == game["end"]["winner"]


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
@pytest.mark.parametrize("variants", VARIANTS, ids=["plain", "connected"])
def test_the_booklet_prints_the_example_game_move_by_move(lang: str, variants) -> None:
    definition = find_definition("aggression", lang=lang)
    spec = definition.component("booklet")
    for seed in (definition.game["default_seed"], 1, 11):
        ctx = context(definition, find_paper("a4"), seed, variants, Options(lang=lang))
        game = ctx.layout_data("game")
        page = html_document(html_booklet(booklet_source(spec, ctx), spec, ctx))
        page = re.sub(r"<svg\b.*?</svg>|<style\b.*?</style>", " ", page, flags=re.S)
        codes = [html.unescape(c) for c in re.findall(r"<code\b[^>]*>(.*?)</code>", page, flags=re.S)]
        moves = game["moves"]
        # the ledger's table: the moves in the order played, Black's then White's on each line
        starts = [i for i in range(len(codes)) if codes[i : i + len(moves)] == moves]
        assert starts, (lang, seed, codes)
        # then told move by move, in order
        told = [c for c in codes[starts[0] + len(moves) :] if c in moves]
        assert told[: len(moves)] == moves, (lang, seed, told)
