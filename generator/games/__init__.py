"""Game rules modules, one per game, and ``GAMES``, the table of their rules by game id. Each
module defines ``RULES``, a ``GameRules`` instance; a new game is a module and a line here."""

from __future__ import annotations

from generator.foundation.errors import UnknownGameError
from generator.foundation.languages import Msg
from generator.games import (
    aggression,
    barricades,
    centennial,
    everest,
    nine_mens_morris,
    push,
    take_the_brain,
    verbal,
)
from generator.games.base import GameRules

GAMES: dict[str, GameRules] = {
    rules.id: rules
    for rules in (
        aggression.RULES,
        barricades.RULES,
        centennial.RULES,
        everest.RULES,
        nine_mens_morris.RULES,
        push.RULES,
        take_the_brain.RULES,
        verbal.RULES,
    )
}


def find_rules(game_id: str) -> GameRules:
    """Return the rules of a game by id; raise UnknownGameError when the table has none."""
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        raise UnknownGameError(
            Msg("record.game.unknown", game=repr(game_id), known=", ".join(known_games()))
        ) from None


def has_rules(game_id: str) -> bool:
    """Return True when the table has rules for the game id."""
    return game_id in GAMES


def known_games() -> list[str]:
    """Return the ids of every game with rules, sorted."""
    return sorted(GAMES)
