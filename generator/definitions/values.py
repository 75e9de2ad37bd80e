"""Game definitions: the schema of a layouts/*.toml file's game and paper tables, and the
validated values a kit is built from (``GameDefinition``, ``ComponentSpec``).

A definition describes a kit's look: the game's title and players, a palette, and its components
(each with a ``kind`` naming a generic component and that kind's own keys). Rules live in
``generator.games``; the look lives here. Reading and validating a file is ``generator.definitions.loader``'s
work (it sits above the component kinds whose schemas it checks against).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, TypeVar

from generator.definitions.game_spec import GameSpec
from generator.definitions.schema import Field, TypedSpec
from generator.foundation.errors import DefinitionError
from generator.foundation.files import builtin_folder
from generator.foundation.languages import DEFAULT_LANGUAGE, LANGUAGES

T = TypeVar("T", bound=TypedSpec)

# The games that ship with pnp: `pnp build --all` and `pnp games` mean these, whatever else a user
# keeps in the same folder (a definition of one's own builds with --layouts DIR).
BUILTIN_GAMES: tuple[str, ...] = (
    "aggression",
    "barricades",
    "centennial",
    "everest",
    "nine-mens-morris",
    "push",
    "take-the-brain",
    "verbal",
)


LAYOUTS_DIR = builtin_folder("layouts")
TEMPLATES_DIR = builtin_folder("templates")

GAME_SCHEMA: dict[str, Field] = {
    "id": Field("id", required=True, doc="the game id; also the file name and output folder"),
    "title": Field("str", required=True, doc="the game's name, on every page"),
    "subtitle": Field("str", default="", doc="a line under the title on the booklet's cover"),
    "players": Field("str", required=True, doc='e.g. "2" or "2-8"'),
    "playing_time": Field("str", default="", doc='e.g. "20 min", on the cover'),
    "ages": Field("str", default="", doc='e.g. "8+", on the cover'),
    "seeded": Field("bool", default=False, doc="boards are drawn from a seed"),
    "seed_optional": Field(
        "bool", default=False, doc="a fixed board by default; --seed draws a variant board"
    ),
    "default_seed": Field("int", default=1, min=0, doc="the seed a build uses when it names none"),
    "variants": Field("list:id", default=[], doc="the variant ids the rules know (--variant)"),
    "languages": Field(
        "list:str", default=[DEFAULT_LANGUAGE], choices=tuple(LANGUAGES), doc="languages of the kit's texts"
    ),
    "summary": Field("str", default="", doc="one sentence for the booklet's cover"),
    "designer": Field(
        "str",
        default="",
        doc="who designed the game: the author every PDF and SVG of the kit names (default: pnp)",
    ),
    "rules": Field("id", default=None, doc="the rules module's game id when it differs from id"),
}
PAPER_SCHEMA: dict[str, Field] = {
    "margin": Field(
        "length", default=10.0, min=6.35, doc="the printer-safe margin of every sheet (at least 6.35 mm)"
    ),
}


@dataclass(frozen=True)
class ComponentSpec:
    """One component of a kit: its id (the output file name), kind and validated keys. The package
    reads the keys through ``typed`` (the frozen typed value of its kind); a read by key
    (``spec["size"]``, ``spec.get``) is for scripts and tests."""

    id: str
    kind: str
    values: dict[str, Any]

    def __getitem__(self, key: str) -> Any:
        """Return a key's checked value."""
        return self.values[key]

    def get(self, key: str, default: Any = None) -> Any:
        """Return a key's value or the default."""
        value = self.values.get(key)
        return default if value is None else value

    def typed(self, cls: type[T]) -> T:
        """Return the component's keys as the frozen typed value of its kind (``cls``, its class
        in ``components.specs``), made once per spec."""
        cache: dict[type, Any] = self.__dict__.setdefault("_typed", {})
        if cls not in cache:
            cache[cls] = cls.from_values(self.values)
        value: T = cache[cls]
        return value


@dataclass(frozen=True)
class UserFont:
    """A face of the definition's ``[fonts]`` table: its key, its file and licence file (as
    written, relative to the definition's folder), the page-model font name components draw with
    (``file:`` and the file's real path), the family it is embedded under and its sha256."""

    key: str
    file: str
    licence: str
    font: str
    family: str
    sha256: str


@dataclass(frozen=True)
class IconPicture:
    """A picture of the definition's ``[icons]`` table: its file (as written), its bytes (PNG or
    JPEG, checked; or an SVG drawing's source when ``vector``) and its size in pixels (an SVG's:
    its view box)."""

    file: str
    data: bytes = field(repr=False)
    width: float
    height: float
    vector: bool = False


@dataclass(frozen=True)
class GameDefinition:
    """A validated layouts/<game>.toml. The package reads its game table through ``game_spec``
    (a frozen typed value); ``game`` holds the checked values, for the templates' ``game``
    namespace, scripts and tests."""

    path: str
    game: dict[str, Any]
    palette: dict[str, str]
    paper: dict[str, Any]
    components: tuple[ComponentSpec, ...]
    templates_dir: str = TEMPLATES_DIR
    lang: str = DEFAULT_LANGUAGE  # the language of its texts: its translations into it applied
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    fonts: tuple[UserFont, ...] = ()  # the faces of its [fonts] table
    icons: dict[str, IconPicture] = field(default_factory=dict)  # its [icons] table, by name
    # the template base names of its booklet components, in order (a booklet's template key, by
    # default the game id): the loader reads them from the components' typed values
    booklet_templates: tuple[str, ...] = ()

    @property
    def game_spec(self) -> GameSpec:
        """Return the game table as its frozen typed value (``definitions.game_spec.GameSpec``,
        generated from ``GAME_SCHEMA``), made once per definition."""
        made = self.__dict__.get("_game_spec")
        if made is None:
            made = self.__dict__["_game_spec"] = GameSpec.from_values(self.game)
        return made

    @property
    def id(self) -> str:
        """Return the game id."""
        return self.game_spec.id

    @property
    def title(self) -> str:
        """Return the game's title."""
        return self.game_spec.title

    @property
    def rules_id(self) -> str:
        """Return the id of the rules module for this game."""
        return self.game_spec.rules or self.game_spec.id

    def component(self, component_id: str) -> ComponentSpec:
        """Return a component by id; raise DefinitionError when there is none."""
        for spec in self.components:
            if spec.id == component_id:
                return spec
        raise DefinitionError(
            f"{self.path}: components.{component_id}: no such component "
            f"(components: {', '.join(c.id for c in self.components)})"
        )

    def colour(self, value: str | None) -> str | None:
        """Return a palette colour by name, or the value itself when it is a '#rrggbb' colour."""
        if value is None or value.startswith("#"):
            return value
        try:
            return self.palette[value]
        except KeyError:
            raise DefinitionError(
                f"{self.path}: palette: no colour named {value!r} "
                f"(palette: {', '.join(sorted(self.palette))})"
            ) from None


def layout_files(folder: str | None = None) -> list[str]:
    """Return the definition files of a folder, sorted (no folder: the built-in games')."""
    if folder is None:
        return [os.path.join(LAYOUTS_DIR, f"{game_id}.toml") for game_id in BUILTIN_GAMES]
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".toml") and not n.startswith("_"))
    except FileNotFoundError:
        raise DefinitionError(f"{folder}: no such folder") from None
    except NotADirectoryError:
        raise DefinitionError(f"{folder}: is a file, not a folder of definitions") from None
    except OSError as exc:
        raise DefinitionError(f"{folder}: cannot be read: {exc.strerror or exc}") from None
    return [os.path.join(folder, n) for n in names]


def templates_for(folder: str | None) -> str:
    """Return the templates folder of a definitions folder: ``templates`` beside it, else inside it
    (no folder: the built-in rule texts)."""
    if folder is None or os.path.abspath(folder) == os.path.abspath(LAYOUTS_DIR):
        return TEMPLATES_DIR
    beside = os.path.join(os.path.dirname(os.path.abspath(folder)), "templates")
    inside = os.path.join(folder, "templates")
    return inside if os.path.isdir(inside) and not os.path.isdir(beside) else beside
