"""What every component kind shares: the keys common to all kinds, the ``Kind`` entry of the kind
table, the files a kind makes (``Output``), drawing options and the build ``Context``.

A kind is a module in this package with ``SCHEMA`` (its keys, ``generator.definitions.schema.Field`` values),
``build(spec, ctx) -> list[Output]`` and, optionally, ``drawing(spec, ctx, overlay)`` (the artwork
at true size; with an overlay dict it is a booklet figure) and ``check_spec(values, where)``
(checks that span several keys). Boards with cells have ``square_size(spec, ctx) -> float`` (the
side of a square, or the room of a point, as printed; ``--cell-size`` sets it) and optionally
``smallest_square(spec)``; pieces have ``footprint(spec) -> float``, the room a piece needs on a
square of the board its ``board`` key names. The table of kinds,
``generator.components.kinds.KINDS``, names each kind's functions in a typed ``Kind`` entry (the
protocols and callable types below), so mypy checks every kind against them and nothing asks a
module what it has.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, Protocol, runtime_checkable

from generator.booklet.html import HtmlDocument
from generator.booklet.markup import Document
from generator.booklet.template import template_values
from generator.components.specs import SPECS
from generator.components.symbols import SYMBOLS
from generator.definitions.schema import Field
from generator.definitions.values import ComponentSpec, GameDefinition
from generator.foundation.errors import BoardError, DefinitionError, UnknownGameError, UsageError
from generator.foundation.languages import text as catalogue_text
from generator.games import find_rules
from generator.games.base import GameRules
from generator.games.examples import NOTATION, notation
from generator.model.inline import Icons
from generator.model.page import Drawing, Page
from generator.printing.imposition import Paper, SheetItem, nup, nup_pages

Stock = Literal["paper", "card"]

COMMON_SCHEMA: dict[str, Field] = {
    "kind": Field("str", required=True, doc="the component kind (see the kinds below)"),
    "title": Field("str", default="", doc="the name printed on the component and listed in the kit"),
    "in_kit": Field("bool", default=True, doc="false: left out of kit.pdf (its own files are still made)"),
    "output": Field("bool", default=True, doc="false: drawn only as a booklet figure, no files"),
}


class Builder(Protocol):
    """A kind's ``build``: the files it makes of a component."""

    def __call__(self, spec: ComponentSpec, ctx: Context, /) -> list[Output]: ...


class Drawer(Protocol):
    """A kind's ``drawing``: the component's artwork at true size (a booklet figure when
    ``overlay`` is a dict)."""

    def __call__(
        self, spec: ComponentSpec, ctx: Context, overlay: dict[str, Any] | None = None, /
    ) -> Drawing: ...


@runtime_checkable
class OnBoard(Protocol):
    """The typed keys of a kind whose pieces stand on a board (counters, standees): its ``board``
    (empty: none named, so no square is checked against the pieces' footprint)."""

    board: str


class AidPage(Protocol):
    """A kind's ``aid_page``: the component as a numbered booklet page of a size at a body size in
    points, or None when it needs more than one page."""

    def __call__(
        self, spec: ComponentSpec, ctx: Context, width: float, height: float, number: int, body: float, /
    ) -> Page | None: ...


SpecCheck = Callable[[dict[str, Any], Any], None]  # checks over several keys: (values, where)
Measure = Callable[[ComponentSpec, "Context"], float]  # a length in mm as printed
SpecMeasure = Callable[[ComponentSpec], float]  # a length in mm the spec alone sets
Contents = Callable[[ComponentSpec, "Context"], list[tuple[str, int]]]  # (name, count) for the guide
DocumentOf = Callable[[ComponentSpec, "Context"], Document]  # a component's text, parsed


@dataclass(frozen=True)
class Kind:
    """One entry of the kind table: the kind's name, its keys (``schema``; the common ones are
    ``COMMON_SCHEMA``), its ``build``, whether it is a board, the stock it prints on (``paper`` or
    ``card``), and what else it can do, each None when it cannot: ``check_spec`` (checks that
    span several keys), ``draw`` (as a booklet figure), ``square_size`` (a board with cells:
    ``--cell-size`` applies), ``smallest_square`` (the least that square may be), ``footprint``
    (a piece: the room it needs on a square), ``contents`` (what the print guide's checklist
    counts; None: the component once), ``document`` and ``aid_page`` (a card the booklet shows)."""

    name: str
    schema: Mapping[str, Field]
    build: Builder
    is_board: bool
    stock: Stock
    check_spec: SpecCheck | None = None
    draw: Drawer | None = None
    square_size: Measure | None = None
    smallest_square: SpecMeasure | None = None
    footprint: SpecMeasure | None = None
    contents: Contents | None = None
    document: DocumentOf | None = None
    aid_page: AidPage | None = None

    @property
    def has_squares(self) -> bool:
        """Return True when the kind is a board with cells (``--cell-size`` applies to it)."""
        return self.square_size is not None

    @property
    def can_draw(self) -> bool:
        """Return True when the kind can be drawn as a booklet figure."""
        return self.draw is not None

    def drawing(self, spec: ComponentSpec, ctx: Context, overlay: dict[str, Any] | None = None) -> Drawing:
        """Return the component's artwork at true size (a figure when overlay is a dict); raise
        DefinitionError when the kind cannot be drawn."""
        if self.draw is None:
            raise DefinitionError(
                f"{ctx.definition.path}: components.{spec.id}: a {self.name} cannot be drawn"
            )
        return self.draw(spec, ctx, overlay)

    def text_of(self, spec: ComponentSpec, ctx: Context) -> Document:
        """Return the component's text, rendered and parsed; raise DefinitionError when the kind
        has none."""
        if self.document is None:
            raise DefinitionError(f"{ctx.definition.path}: components.{spec.id}: a {self.name} has no text")
        return self.document(spec, ctx)

    def aid(
        self, spec: ComponentSpec, ctx: Context, width: float, height: float, number: int, body: float
    ) -> Page | None:
        """Return the component as a numbered booklet page (width x height mm, body size in
        points), or None when it needs more than one page or the kind makes no such page."""
        if self.aid_page is None:
            return None
        return self.aid_page(spec, ctx, width, height, number, body)

    def checklist(self, spec: ComponentSpec, ctx: Context, title: str) -> list[tuple[str, int]]:
        """Return (name, count) of what the component prints, for the print guide's checklist
        (the component under ``title`` once, when the kind counts nothing)."""
        return self.contents(spec, ctx) if self.contents is not None else [(title, 1)]


@dataclass(frozen=True)
class Output:
    """A file set a component makes: ``name`` (.pdf, and .svg or -<n>.svg), its pages, formats
    (a value: the build makes new outputs with ``dataclasses.replace``, never changes one)."""

    name: str
    pages: Sequence[Page]  # a tuple, or pages drawn when read (SheetPages)
    formats: tuple[str, ...] = ("pdf", "svg")
    in_kit: bool = True
    booklet: bool = False  # pages of a booklet in reading order: the print job imposes them
    items: tuple[SheetItem, ...] | None = None  # cut-out parts the print job may pack with others
    art: Drawing | None = None  # a board's artwork at true size (one PNG of it under --png)
    html: HtmlDocument | None = None  # the same content as one HTML page, written as ``<name>.html``


@dataclass(frozen=True)
class Options:
    """Build options that change how components draw."""

    fit: bool = False
    ink_saver: bool = False
    duplex_offset: tuple[float, float] = (0.0, 0.0)
    cell_size: float | None = None
    lang: str = "en"
    single_sided: bool = False  # kit.pdf for printers without duplex
    # the parts with backs on gutter-fold sheets (fronts and backs on one side; single-sided too)
    gutter_fold: bool = False
    # for a print shop: art beyond every cut (mm) with TrimBox and BleedBox, CMYK colour in the
    # PDFs, one PNG per face and board at a resolution (dpi)
    bleed: float = 0.0
    cmyk: bool = False
    png_dpi: int | None = None


@dataclass
class Context:
    """What a component needs besides its own spec: the definition, paper, seed, variants, options,
    the kind table (for booklet figures of other components) and the game's data."""

    definition: GameDefinition
    paper: Paper
    seed: int | None = None
    variants: frozenset[str] = frozenset()
    options: Options = field(default_factory=Options)
    kinds: Mapping[str, Kind] | None = None
    _data: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def rules(self) -> GameRules | None:
        """Return the game's rules object, or None when the definition has no rules module."""
        try:
            return find_rules(self.definition.rules_id)
        except UnknownGameError:
            return None

    def text_values(self) -> dict[str, Any]:
        """Return the values every rule text of the kit is rendered with (booklet, quick
        reference, sheet notes): the definition's, the rules module's, variants, language, seed."""
        rules_values = self.rules.text_values() if self.rules is not None else {}
        return template_values(
            self.definition,
            rules_values,
            self.variants,
            self.options.lang,
            self.seed,
            self.layout_data if self.rules is not None else None,
        )

    def layout_data(self, name: str) -> dict[str, Any]:
        """Return plain data (cells, points, positions) the rules module provides by name; the name
        'notation' gives every game's notation examples on this board (``games.examples``)."""
        if name not in self._data:
            if self.rules is None:
                raise DefinitionError(
                    f"{self.definition.path}: game {self.definition.id!r} has no rules "
                    f"module to provide {name!r}; give the data in the definition"
                )
            try:
                if name == NOTATION:
                    self._data[name] = notation(self.rules, self.seed, self.variants)
                else:
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
        lang = self.options.lang
        text = catalogue_text("board.seed", lang, seed=self.seed)
        if self.variants:
            text += catalogue_text("board.variant", lang, names=",".join(sorted(self.variants)))
        return text

    def kind_of(self, spec: ComponentSpec) -> Kind:
        """Return the kind table's entry for a component of this game."""
        if self.kinds is None:
            raise AssertionError("this Context has no kind table (make it with components.kinds.context)")
        return self.kinds[spec.kind]


def component_drawing(ctx: Context, component_id: str, overlay: dict[str, Any] | None = None) -> Drawing:
    """Return a component of the game drawn as a booklet figure, with an optional overlay.

    A kind's ``drawing`` gets ``overlay=None`` when it draws the component as printed and a dict
    (perhaps empty) when it draws a figure: figures leave out the board's own title and caption."""
    spec = ctx.definition.component(component_id)
    kind = ctx.kind_of(spec)
    if not kind.can_draw:
        raise DefinitionError(
            f"{ctx.definition.path}: components.{component_id}: a {spec.kind} cannot be shown as a figure"
        )
    return kind.drawing(spec, ctx, overlay if overlay is not None else {})


FIT_MARGIN = 1.0  # mm a piece keeps free inside its square


def board_square(ctx: Context, board_id: str) -> float:
    """Return the side in mm of the squares of a board component of the game, as printed."""
    spec = ctx.definition.component(board_id)
    kind = ctx.kind_of(spec)
    if not kind.has_squares:
        raise DefinitionError(
            f"{ctx.definition.path}: components.{board_id}: a {spec.kind} has no squares for pieces to stand on"
        )
    assert kind.square_size is not None  # has_squares
    return float(kind.square_size(spec, ctx))


def check_fit(ctx: Context) -> None:
    """Raise an error when a board's squares are too small: for its points, or for the pieces that
    stand on it. With --cell-size the error is a usage error naming the option (one line)."""
    definition = ctx.definition
    cell = ctx.options.cell_size

    def fail(message: str) -> None:
        if cell:
            raise UsageError(f"--cell-size {cell:g}mm is too small for {definition.id}: {message}")
        raise DefinitionError(f"{definition.path}: {message}")

    for spec in definition.components:
        kind = ctx.kind_of(spec)
        if kind.smallest_square is not None and kind.square_size is not None:
            least = kind.smallest_square(spec)
            if kind.square_size(spec, ctx) < least - 1e-6:
                fail(f"the points of the {title_of(spec)} need {least:g} mm from one to the next")
        values = spec.typed(SPECS[spec.kind])
        board_id = values.board if isinstance(values, OnBoard) else ""
        if not board_id or kind.footprint is None:
            continue
        square = board_square(ctx, board_id)
        need = kind.footprint(spec) + FIT_MARGIN
        if square < need - 1e-6:
            fail(
                f"the {title_of(spec)} need squares of at least {need:g} mm, "
                f"the {title_of(definition.component(board_id))} has {square:g} mm"
            )


def title_of(spec: ComponentSpec) -> str:
    """Return a component's title, or its id when it has none (the common keys, typed)."""
    return spec.typed(SPECS[spec.kind]).title or spec.id


def _icons(ctx: Context) -> Icons:
    """Return the definition's icons, the symbol table's among them (``components.inline.icons_of``,
    which this module cannot import: it sits below it)."""
    return Icons(ctx.definition.icons, ctx.definition.palette, SYMBOLS)


def nup_output(spec: ComponentSpec, ctx: Context, parts: list[SheetItem], lazy: bool = False) -> list[Output]:
    """Return a component's cut-out parts laid n-up on sheets (with their backs pages, placed for
    the kit's flip, offset and bleed) as its one output, labelled with the game and the part.
    ``lazy``: the pages are drawn each time they are read (``nup_pages``), none held."""
    label = f"{ctx.definition.title}: {title_of(spec)}"
    options = ctx.options
    if lazy:
        later = nup_pages(
            parts,
            ctx.paper,
            label,
            options.duplex_offset,
            options.bleed,
            options.lang,
            _icons(ctx),
        )
        return [Output(spec.id, later, items=tuple(parts))]
    pages = nup(
        parts,
        ctx.paper,
        label,
        duplex_offset=options.duplex_offset,
        bleed=options.bleed,
        lang=options.lang,
        icons=_icons(ctx),
    )
    return [Output(spec.id, tuple(pages), items=tuple(parts))]
