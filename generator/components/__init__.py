"""Components: generic kinds of kit parts (boards, counters, sheets, booklets) that turn a
component definition (plus game data) into pages of the page model.

A kind is a module in this package with:
- ``SCHEMA``: a dict of ``generator.schema.Field`` for its keys in layouts/*.toml
  (``kind``, ``title`` and ``in_kit`` are common to all kinds and need not be listed);
- ``build(spec, ctx) -> list[Output]``: the files it makes;
- optionally ``drawing(spec, ctx, overlay=None) -> Drawing``: the artwork at true size; with an
  overlay dict (plain data such as pieces on points, from the rules module; possibly empty) it is
  a booklet figure and leaves out the board's own title and caption;
- optionally ``check_spec(values, where)`` for checks that span several keys.
Kind modules never import reportlab or svgwrite, and never import game rules directly: game data
comes through ``ctx.layout_data(name)``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cached_property
from types import ModuleType
from typing import Any

from generator.errors import BoardError, DefinitionError
from generator.imposition import Paper
from generator.page import Drawing, Page

COMPONENTS: dict[str, str] = {
    "point-board": "generator.components.point_board",
    "grid-board": "generator.components.grid_board",
    "track": "generator.components.track",
    "counters": "generator.components.counters",
    "standees": "generator.components.standees",
    "dice-nets": "generator.components.dice_nets",
    "table-sheet": "generator.components.table_sheet",
    "booklet": "generator.components.booklet",
}

# what each kind is printed on; kinds not listed print on paper
STOCKS: dict[str, str] = {"counters": "card", "standees": "card", "dice-nets": "card"}


def stock_of(kind: str) -> str:
    """Return the stock a kind of component is printed on: 'paper' or 'card'."""
    return STOCKS.get(kind, "paper")


def find_kind(kind: str, where: Any = None) -> ModuleType:
    """Return the module of a component kind; raise DefinitionError naming the known kinds."""
    if kind not in COMPONENTS:
        message = f"unknown component kind {kind!r} (kinds: {', '.join(sorted(COMPONENTS))})"
        raise where.error(message) if where is not None else DefinitionError(message)
    return importlib.import_module(COMPONENTS[kind])


@dataclass
class Output:
    """A file set a component makes: ``name`` (.pdf, and .svg or -<n>.svg), its pages, formats."""

    name: str
    pages: list[Page]
    formats: tuple[str, ...] = ("pdf", "svg")
    in_kit: bool = True
    booklet: bool = False  # pages of a booklet in reading order: the print job imposes them


@dataclass
class Options:
    """Build options that change how components draw."""

    fit: bool = False
    ink_saver: bool = False
    duplex_offset: tuple[float, float] = (0.0, 0.0)
    cell_size: float | None = None
    lang: str = "en"
    single_sided: bool = False  # kit.pdf for printers without duplex


@dataclass
class Context:
    """What a component needs besides its own spec: the definition, paper, seed, game data."""

    definition: Any  # GameDefinition
    paper: Paper
    seed: int | None = None
    variants: frozenset[str] = frozenset()
    options: Options = field(default_factory=Options)
    _data: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def rules(self):
        """Return the game's rules object, or None when the definition has no rules module."""
        from generator.errors import UnknownGameError
        from generator.games import find_rules

        try:
            return find_rules(self.definition.rules_id)
        except UnknownGameError:
            return None

    def layout_data(self, name: str) -> dict[str, Any]:
        """Return plain data (cells, points, positions) the rules module provides by name."""
        if name not in self._data:
            if self.rules is None:
                raise DefinitionError(
                    f"{self.definition.path}: game {self.definition.id!r} has no rules "
                    f"module to provide {name!r}; give the data in the definition"
                )
            try:
                self._data[name] = self.rules.layout_data(name, self.seed, self.variants)
            except BoardError as exc:
                raise DefinitionError(f"{self.definition.path}: {exc}") from None
        return self._data[name]

    def colour(self, value: str | None) -> str | None:
        """Return a colour by palette name or '#rrggbb' (None stays None)."""
        if not value or value == "none":
            return None
        return self.definition.colour(value)

    def seed_label(self) -> str:
        """Return the seed and variants as printed on boards, e.g. 'seed 7, variant connected'."""
        if self.seed is None:
            return ""
        text = f"seed {self.seed}"
        if self.variants:
            text += ", variant " + ",".join(sorted(self.variants))
        return text


def component_drawing(ctx: Context, component_id: str, overlay: dict[str, Any] | None = None) -> Drawing:
    """Return a component of the game drawn as a booklet figure, with an optional overlay.

    A kind's ``drawing`` gets ``overlay=None`` when it draws the component as printed and a dict
    (perhaps empty) when it draws a figure: figures leave out the board's own title and caption."""
    spec = ctx.definition.component(component_id)
    module = find_kind(spec.kind)
    if not hasattr(module, "drawing"):
        raise DefinitionError(
            f"{ctx.definition.path}: components.{component_id}: a {spec.kind} cannot be shown as a figure"
        )
    return module.drawing(spec, ctx, overlay if overlay is not None else {})
