"""The table of component kinds: each kind's keys and functions (typed: ``components.base.Kind``),
whether it is a board, and the stock it prints on. The loader asks it for a kind's schema; the build asks it for a kind's files."""

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
from generator.definitions.values import GameDefinition
from generator.foundation.errors import DefinitionError
from generator.printing.imposition import Paper

KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind(
            "point-board",
            point_board.SCHEMA,
            point_board.build,
            is_board=True,
            stock="card",
            check_spec=point_board.check_spec,
            draw=point_board.drawing,
            square_size=point_board.square_size,
            smallest_square=point_board.smallest_square,
        ),
        Kind(
            "grid-board",
            grid_board.SCHEMA,
            grid_board.build,
            is_board=True,
            stock="card",
            check_spec=grid_board.check_spec,
            draw=grid_board.drawing,
            square_size=grid_board.square_size,
        ),
        Kind(
            "hex-board",
            hex_board.SCHEMA,
            hex_board.build,
            is_board=True,
            stock="card",
            check_spec=hex_board.check_spec,
            draw=hex_board.drawing,
            square_size=hex_board.square_size,
        ),
        Kind(
            "track",
            track.SCHEMA,
            track.build,
            is_board=True,
            stock="card",
            check_spec=track.check_spec,
            draw=track.drawing,
            square_size=track.square_size,
        ),
        Kind(
            "counters",
            counters.SCHEMA,
            counters.build,
            is_board=False,
            stock="card",
            check_spec=counters.check_spec,
            draw=counters.drawing,
            footprint=counters.footprint,
            contents=counters.contents,
        ),
        Kind(
            "standees",
            standees.SCHEMA,
            standees.build,
            is_board=False,
            stock="card",
            check_spec=standees.check_spec,
            draw=standees.drawing,
            footprint=standees.footprint,
            contents=standees.contents,
        ),
        Kind(
            "cards",
            cards.SCHEMA,
            cards.build,
            is_board=False,
            stock="card",
            check_spec=cards.check_spec,
            draw=cards.drawing,
            contents=cards.contents,
        ),
        Kind(
            "dice-nets",
            dice_nets.SCHEMA,
            dice_nets.build,
            is_board=False,
            stock="card",
            check_spec=dice_nets.check_spec,
            draw=dice_nets.drawing,
            contents=dice_nets.contents,
        ),
        Kind(
            "table-sheet",
            table_sheet.SCHEMA,
            table_sheet.build,
            is_board=False,
            stock="paper",
            check_spec=table_sheet.check_spec,
            draw=table_sheet.drawing,
            contents=table_sheet.contents,
        ),
        Kind(
            "booklet",
            booklet.SCHEMA,
            booklet.build,
            is_board=False,
            stock="paper",
            check_spec=booklet.check_spec,
        ),
        Kind(
            "quick-reference",
            quick_reference.SCHEMA,
            quick_reference.build,
            is_board=False,
            stock="card",
            contents=quick_reference.contents,
            document=quick_reference.document,
            aid_page=quick_reference.aid_page,
        ),
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
