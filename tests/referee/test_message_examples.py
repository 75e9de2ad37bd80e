"""The referee's messages never quote a move that cannot be played where they are shown: a message
that gives an example ('e.g. d2-d3', 'like 3@c4 5@e2 : 5 3') gives one that is legal in the
position being refereed, or describes the form of a move instead ('value@cell'). Every message is
one line.

Messages are drawn out of every game, on its kit's default board, by typing at positions of
random games what a player might: garbage, half-written moves, and moves that were legal at some
other moment of the game (a record's and a live game's readers alike)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from generator.definitions.loader import find_definition
from generator.foundation.errors import PnpError
from generator.foundation.seeding import rng_for
from generator.games import GAMES

#: what a player might mistype, in every game's notation and in none
GARBAGE = (
    "",
    "zz",
    "x",
    "P1",
    "P1 1 2",
    "P1 1 2 3",
    "P1 1 2 3 :",
    "P1 1 2 3 : +",
    "P1 1 2 3 -> zz",
    "1/2",
    "1/1:1",
    "3@c4",
    "3@c4 5@e2",
    "3@zz 5@e2 : 5",
    "3@c4 5@e2 :",
    "3@c4 5@e2 : zz",
    "K",
    "K=",
    "b1",
    "c2-",
    "c2-c2",
    "a1xzz",
)
EXAMPLE = re.compile(r"(?:\be\.g\.|\blike|\bsuch as|\bfor example)\s+'?([^,;()']+)")
PLIES = 80
TRIES = 25  # moves of other moments typed at each position


def _messages(state: Any, typed: str, among: list[Any] | None) -> list[tuple[str, int]]:
    """Return the messages (with the stage they arose at) the referee answers ``typed`` with at
    this position, read as a whole move and as each part of one."""
    out: list[tuple[str, int]] = []
    try:
        state.check_move(state.parse_move(typed))
    except PnpError as exc:
        out.append((str(exc), 0))
    for stage in range(len(state.deciders())):
        try:
            state.parse_part(typed, stage, among if stage else None)
        except PnpError as exc:
            out.append((str(exc), stage))
    return out


def _legal_here(state: Any, text: str, stage: int, among: list[Any] | None) -> bool:
    """Return whether ``text`` is a move, or a part of one, the player could make now."""
    try:
        state.check_move(state.parse_move(text))
        return True
    except PnpError:
        pass
    try:
        return bool(state.parse_part(text, stage, among if stage else None))
    except PnpError:
        return False


def _start(game: str) -> Any:
    rules = GAMES[game]
    tags = {"Players": "2"} if "Players" in rules.extra_tags else {}
    seed = find_definition(game).game.get("default_seed") if rules.takes_seed() else None
    return rules.new_state(seed, frozenset(), tags)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_example_in_a_message_is_legal_where_it_is_shown(game: str) -> None:
    rng = rng_for(11, f"tests/message-examples/{game}")
    seen: list[str] = []
    for _ in range(3):
        state = _start(game)
        for _ in range(PLIES):
            if state.is_terminal():
                break
            chance = state.random_chance(rng)
            move = state.random_chance_move(chance, rng) if chance is not None else state.random_move(rng)
            written = state.move_str(move)
            among = state.completions(move, 1) if len(state.deciders()) > 1 else None
            others = [seen[rng.below(len(seen))] for _ in range(min(TRIES, len(seen)))]
            for typed in (*GARBAGE, *others, *(w for w in written.split(" : ") if w)):
                for message, stage in _messages(state, typed, among):
                    assert "\n" not in message, message
                    for example in EXAMPLE.findall(message.replace(repr(typed), "")):
                        example = example.strip()
                        if not any(c.isdigit() for c in example):
                            continue  # a form, not a move on this board
                        assert _legal_here(state, example, stage, among), (game, written, message)
            seen.append(written)
            state.apply_move(move)


def test_nine_mens_morris_shows_a_slide_of_the_position_to_a_player_who_places_too_many() -> None:
    rng = rng_for(5, "tests/message-examples/placed-all")
    for _ in range(20):
        state = _start("nine-mens-morris")
        for _ in range(18):  # nine placements each, unless a mill ends the game first
            if not state.is_terminal():
                state.apply_move(state.random_move(rng))
        if state.is_terminal():
            continue
        (message, _), *_ = _messages(state, "a1", None)  # a placement, with no man left to place
        examples = EXAMPLE.findall(message)
        assert examples and all(_legal_here(state, e.strip(), 0, None) for e in examples), message
        return
    raise AssertionError("no game reached its moving phase")
