"""The kind table is typed: each ``Kind`` names its kind's functions (mypy checks them against the
protocols in ``components.base``), so nothing asks a module what it has, and no function a kind's
module offers is left out of its entry. ``State`` is generic in its move type: every game's
state says which type its moves have, and every move it lists or parses is of that type."""

from __future__ import annotations

import importlib
import typing

import pytest

from generator.components.kinds import KINDS
from generator.foundation.seeding import Rng
from generator.games import GAMES, find_rules

# the Kind field of each function a kind's module may offer
CAPABILITIES = {
    "check_spec": "check_spec",
    "drawing": "draw",
    "square_size": "square_size",
    "smallest_square": "smallest_square",
    "footprint": "footprint",
    "contents": "contents",
    "document": "document",
    "aid_page": "aid_page",
}


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_kind_entry_names_all_its_module_offers(name: str) -> None:
    kind = KINDS[name]
    module = importlib.import_module(f"generator.components.{name.replace('-', '_')}")
    assert kind.schema is module.SCHEMA and kind.build is module.build
    for function, attribute in CAPABILITIES.items():
        offered = getattr(module, function, None)
        assert getattr(kind, attribute) is offered, f"{name}: Kind.{attribute} is not {function}"
    assert kind.has_squares == (kind.square_size is not None)
    assert kind.can_draw == (kind.draw is not None)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_move_a_state_makes_is_of_its_declared_type(game: str) -> None:
    rules = find_rules(game)
    state = rules.new_state(1 if rules.takes_seed() else None)
    base = next(b for b in type(state).__orig_bases__ if typing.get_origin(b) is not None)
    (move_type,) = typing.get_args(base)
    checked = typing.get_origin(move_type) or move_type
    if checked is typing.Union:
        checked = tuple(typing.get_origin(a) or a for a in typing.get_args(move_type))
    rng = Rng(7)
    for _ in range(40):
        if state.is_terminal():
            break
        moves = state.legal_moves()
        assert moves and all(isinstance(m, checked) for m in moves), game
        move = state.random_move(rng)
        assert isinstance(state.parse_move(state.move_str(move)), checked)
        state.apply_move(move)
    assert all(isinstance(m, checked) for m in state.history)
