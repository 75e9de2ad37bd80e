"""The table of component kinds: each kind's module, whether it is a board, and the stock it
prints on. The loader asks it for a kind's schema; the build asks it for a kind's files."""

from __future__ import annotations

from typing import Any

from generator.components import (
    booklet,
    cards,
    counters,
    dice_nets,
    grid_board,
    hex_board,
    point_board,
    quick_reference,
    standees,
    table_sheet,
    track,
)
from generator.components.base import Context, Kind, Options
from generator.definitions import GameDefinition
from generator.errors import DefinitionError
from generator.imposition import Paper

KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind("point-board", point_board, is_board=True, stock="card"),
        Kind("grid-board", grid_board, is_board=True, stock="card"),
        Kind("hex-board", hex_board, is_board=True, stock="card"),
        Kind("track", track, is_board=True, stock="card"),
        Kind("counters", counters, is_board=False, stock="card"),
        Kind("standees", standees, is_board=False, stock="card"),
        Kind("cards", cards, is_board=False, stock="card"),
        Kind("dice-nets", dice_nets, is_board=False, stock="card"),
        Kind("table-sheet", table_sheet, is_board=False, stock="paper"),
        Kind("booklet", booklet, is_board=False, stock="paper"),
        Kind("quick-reference", quick_reference, is_board=False, stock="card"),
    )
}


def find_kind(kind: str, where: Any = None) -> Kind:
    """Return the table entry of a component kind; raise DefinitionError naming the known kinds."""
    if not isinstance(kind, str) or kind not in KINDS:
        message = f"unknown component kind {kind!r} (kinds: {', '.join(sorted(KINDS))})"
        raise where.error(message) if where is not None else DefinitionError(message)
    return KINDS[kind]


def context(
    definition: GameDefinition,
    paper: Paper,
    seed: int | None = None,
    variants: frozenset[str] = frozenset(),
    options: Options | None = None,
) -> Context:
    """Return a build context over the kind table (what every builder and figure needs)."""
    return Context(definition, paper, seed, variants, options or Options(), kinds=KINDS)
