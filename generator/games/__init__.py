"""Game rules modules, one per game, found by game id (``nine-mens-morris`` ->
``generator.games.nine_mens_morris``). Each module defines ``RULES``, a ``GameRules`` instance."""

from __future__ import annotations

import importlib
import re

from generator.errors import UnknownGameError
from generator.games.base import GameRules

_ID = re.compile(r"^[a-z][a-z0-9-]*$")


def module_name(game_id: str) -> str:
    """Return the Python module that holds a game's rules."""
    return "generator.games." + game_id.replace("-", "_")


def find_rules(game_id: str) -> GameRules:
    """Return the rules of a game by id; raise UnknownGameError when no rules module exists."""
    if not _ID.match(game_id or ""):
        raise UnknownGameError(f"unknown game {game_id!r}")
    try:
        module = importlib.import_module(module_name(game_id))
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("generator.games"):
            raise UnknownGameError(
                f"no rules for game {game_id!r} (known: {', '.join(known_games())})"
            ) from None
        raise
    rules = getattr(module, "RULES", None)
    if not isinstance(rules, GameRules):
        raise UnknownGameError(f"no rules for game {game_id!r} (known: {', '.join(known_games())})")
    return rules


def has_rules(game_id: str) -> bool:
    """Return True when a rules module exists for the game id."""
    try:
        find_rules(game_id)
    except UnknownGameError:
        return False
    return True


def known_games() -> list[str]:
    """Return the ids of every game with a rules module (one that defines RULES), sorted."""
    import pkgutil

    import generator.games as package

    names = []
    for m in pkgutil.iter_modules(package.__path__):
        if m.name == "base" or m.name.startswith("_"):
            continue
        module = importlib.import_module(f"generator.games.{m.name}")
        if isinstance(getattr(module, "RULES", None), GameRules):
            names.append(m.name.replace("_", "-"))
    return sorted(names)
