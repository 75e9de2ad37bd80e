"""A small schema language for TOML definitions: typed fields, defaults, nested tables, and
one-line errors that name the file and the key path (and list accepted keys for unknown ones)."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Self

from generator.foundation.errors import DefinitionError
from generator.model.units import parse_length

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")

# Upper bounds that keep any definition's build within memory and time (the component README
# states them); a field's own ``max`` may be lower.
MAX_NUMBER = 1_000_000.0  # any number, e.g. a point's coordinate
MAX_LENGTH = 1000.0  # mm, any length (a cell, a counter, a board's size)
MAX_TEXT = 2000  # characters of any text
MAX_ITEMS = 1000  # items of any list or table of tables
_ID = re.compile(r"^[a-z][a-z0-9-]{0,39}$")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
MISSING = object()


@dataclass(frozen=True)
class Field:
    """One key of a table: its type, whether it is required, its default and extra checks.

    Types: 'str', 'int', 'float', 'bool', 'length' (to mm), 'colour', 'id', 'any',
    'list:<type>', 'table' (with ``schema``), 'tables' (a list of tables with ``schema``),
    'map:<type>' (free keys, typed values), 'map-table' (free keys, each a table with ``schema``)."""

    type: str
    required: bool = False
    default: Any = None
    schema: Mapping[str, Field] | None = None
    choices: tuple[Any, ...] | None = None
    min: float | None = None
    max: float | None = None
    check: Callable[[Any], str | None] | None = None
    doc: str = ""


class TypedSpec:
    """A table's checked values as a frozen typed value (the classes of ``components.specs``,
    generated from the schemas by tools/typed_specs.py)."""

    __slots__ = ()

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> Self:
        """Return the typed value of a table's checked values."""
        raise NotImplementedError


def as_float(value: float | None) -> float:
    """Return a checked number or length as a float (a default may be written as an int)."""
    assert value is not None
    return float(value)


COLOUR_KEYS = frozenset(
    ("fill", "stroke", "colour", "color", "ink", "background", "checker", "outline", "frame")
)


def is_colour_key(key: str) -> bool:
    """Return True when a definition key holds a colour (or a list of colours)."""
    return key in COLOUR_KEYS or key.endswith(("_colour", "_color", "_fill", "_fills", "_stroke", "_frame"))


class Where:
    """The file and key path of a value, for error messages."""

    def __init__(
        self,
        file: str,
        path: str = "",
        palette: Mapping[str, str] | None = None,
        glyphs: list[tuple[Where, str]] | None = None,
    ) -> None:
        self.file = file
        self.path = path
        self.palette = palette  # the definition's colour names, once read (for checks of data)
        # None: a text is checked against the shipped faces as it is read; a list: the texts are
        # kept in it (with where they are) for the caller, which knows the face each is set in
        self.glyphs = glyphs

    def child(self, key: str | int) -> Where:
        """Return the location of a key (or list index) under this one."""
        if isinstance(key, int):
            return Where(self.file, f"{self.path}[{key}]", self.palette, self.glyphs)
        return Where(self.file, f"{self.path}.{key}" if self.path else key, self.palette, self.glyphs)

    def error(self, message: str) -> DefinitionError:
        """Return a DefinitionError naming the file and key path."""
        return DefinitionError(f"{self.file}: {self.path or '(top level)'}: {message}")


def _type_name(value: Any) -> str:
    return {
        str: "a string",
        int: "an integer",
        float: "a number",
        bool: "true/false",
        list: "a list",
        dict: "a table",
    }.get(type(value), type(value).__name__)


def convert(value: Any, field: Field, where: Where) -> Any:
    """Return the value checked and converted by the field's type; raise DefinitionError."""
    t = field.type
    if t == "any":
        result = value
    elif t == "str":
        if not isinstance(value, str):
            raise where.error(f"expected a string, got {_type_name(value)}")
        if len(value) > MAX_TEXT:
            raise where.error(f"a text of at most {MAX_TEXT} characters, got {len(value)}")
        problem = text_problem(value)
        if not problem and where.path.rsplit(".", 1)[-1] not in FILE_KEYS:
            if where.glyphs is not None:
                where.glyphs.append((where, value))  # checked in the face it is set in, once known
            else:
                problem = glyph_problem(value)
        if problem:
            raise where.error(problem)
        result = value
    elif t == "id":
        if not isinstance(value, str) or not _ID.match(value):
            raise where.error(f"expected an id of lowercase letters, digits and '-', got {value!r}")
        result = value
    elif t == "bool":
        if not isinstance(value, bool):
            raise where.error(f"expected true or false, got {_type_name(value)}")
        result = value
    elif t == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise where.error(f"expected an integer, got {_type_name(value)}")
        _check_magnitude(value, where)
        result = value
    elif t == "float":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise where.error(f"expected a number, got {_type_name(value)}")
        _check_magnitude(value, where)
        result = float(value)
    elif t == "length":
        try:
            result = parse_length(value)
        except ValueError as exc:
            raise where.error(str(exc)) from None
        if abs(result) > MAX_LENGTH:
            raise where.error(f"a length of at most {MAX_LENGTH:g} mm, got {value!r}")
    elif t == "colour":
        if not isinstance(value, str) or not _COLOUR.match(value):
            raise where.error(f'expected a colour such as "#1a2b3c", got {value!r}')
        result = value.lower()
    elif t.startswith("list:"):
        if not isinstance(value, list):
            raise where.error(f"expected a list, got {_type_name(value)}")
        _check_items(value, where)
        inner = Field(t[5:], schema=field.schema, choices=field.choices, min=field.min, max=field.max)
        return [convert(v, inner, where.child(i)) for i, v in enumerate(value)]
    elif t.startswith("map:"):
        if not isinstance(value, dict):
            raise where.error(f"expected a table, got {_type_name(value)}")
        _check_items(value, where)
        inner = Field(t[4:], schema=field.schema, choices=field.choices, min=field.min, max=field.max)
        return {k: convert(v, inner, where.child(k)) for k, v in value.items()}
    elif t == "table":
        if not isinstance(value, dict):
            raise where.error(f"expected a table, got {_type_name(value)}")
        assert field.schema is not None
        result = validate(value, field.schema, where)
    elif t == "tables":
        if not isinstance(value, list):
            raise where.error(f"expected a list of tables, got {_type_name(value)}")
        _check_items(value, where)
        assert field.schema is not None
        result = []
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                raise where.child(i).error(f"expected a table, got {_type_name(item)}")
            result.append(validate(item, field.schema, where.child(i)))
    elif t == "map-table":
        if not isinstance(value, dict):
            raise where.error(f"expected a table, got {_type_name(value)}")
        _check_items(value, where)
        assert field.schema is not None
        result = {}
        for k, item in value.items():
            if not isinstance(item, dict):
                raise where.child(k).error(f"expected a table, got {_type_name(item)}")
            result[k] = validate(item, field.schema, where.child(k))
    else:
        raise AssertionError(f"unknown field type {t}")
    if field.choices is not None and result not in field.choices:
        raise where.error(f"expected one of {', '.join(map(str, field.choices))}, got {result!r}")
    if field.min is not None and isinstance(result, (int, float)) and result < field.min:
        raise where.error(f"must be at least {field.min:g}, got {result:g}")
    if field.max is not None and isinstance(result, (int, float)) and result > field.max:
        raise where.error(f"must be at most {field.max:g}, got {result:g}")
    if field.check is not None:
        problem = field.check(result)
        if problem:
            raise where.error(problem)
    return result


def text_problem(text: str) -> str | None:
    """Return what is wrong with a text that is to be printed (a character no SVG, HTML or PDF
    text can hold: a control character, U+FFFE, U+FFFF), or None."""
    found = _NOT_XML.search(text)
    if found is None:
        return None
    code = ord(found.group())
    what = "control character" if code < 32 else "non-character"
    return f"holds the {what} U+{code:04X}, which no SVG, HTML or PDF text can hold"


#: The keys whose text names a file beside the definition: never printed, so any character goes.
FILE_KEYS = frozenset({"csv", "image"})


def glyph_problem(text: str, font: str | None = None) -> str | None:
    """Return what is wrong with a text that is to be printed when the face it is set in cannot
    draw some of its characters (they would print as missing-glyph boxes), or None. font: that
    face, a shipped one or a definition's own (``file:...``); None: every shipped face (a text
    whose face is not chosen by the definition). One check and one wording for every text."""
    from generator.model.fonts import has_glyphs, is_user_font, missing_glyphs

    if font is None:
        missing = missing_glyphs(text)
    elif has_glyphs(text, font):
        return None
    else:
        missing = "".join(sorted({ch for ch in text if not has_glyphs(ch, font)}))
    if not missing:
        return None
    shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing[:5]) + (
        ", ..." if len(missing) > 5 else ""
    )
    if font is None:
        return (
            f"holds {shown}, which the kit's fonts cannot draw (they cover Latin-1 text, typographic "
            "quotes and dashes): write it with other characters"
        )
    name = os.path.basename(font.partition(":")[2]) if is_user_font(font) else f"'{font}' (shipped)"
    return f"holds {shown}, which the font {name} has no glyph for: write it with other characters or in another face"


def _check_magnitude(value: float, where: Where) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise where.error(f"expected a finite number, got {value}")
    if abs(value) > MAX_NUMBER:
        raise where.error(f"a number of at most {MAX_NUMBER:g} in size, got {value:g}")


def _check_items(value: list[Any] | dict[str, Any], where: Where) -> None:
    if len(value) > MAX_ITEMS:
        raise where.error(f"at most {MAX_ITEMS} items, got {len(value)}")


def validate(data: Mapping[str, Any], schema: Mapping[str, Field], where: Where) -> dict[str, Any]:
    """Return a table checked against a schema, defaults filled in; raise DefinitionError."""
    for key in data:
        if key not in schema:
            raise where.child(key).error(f"unknown key (accepted: {', '.join(sorted(schema))})")
    out: dict[str, Any] = {}
    for key, field in schema.items():
        if key in data:
            out[key] = convert(data[key], field, where.child(key))
        elif field.required:
            raise where.child(key).error("missing required key")
        else:
            out[key] = field.default
    return out


def positive(value: float) -> str | None:
    """Return an error unless the number is greater than zero."""
    return None if value > 0 else f"must be greater than zero, got {value:g}"


def key_rows(schema: Mapping[str, Field], prefix: str = "") -> list[tuple[str, Field]]:
    """Return every key of a schema with its field, in order, each followed by the keys of its
    nested tables: ``a.b`` in a table, ``a[].b`` in a list of tables, ``a.<name>.b`` in a map of tables."""
    rows: list[tuple[str, Field]] = []
    for key, field in schema.items():
        path = f"{prefix}{key}"
        rows.append((path, field))
        if field.schema is not None:
            inner = {"tables": f"{path}[].", "map-table": f"{path}.<name>."}.get(field.type, f"{path}.")
            rows.extend(key_rows(field.schema, inner))
    return rows


def undocumented(schema: Mapping[str, Field]) -> list[str]:
    """Return the key paths of a schema (nested keys included) whose field has no doc string."""
    return [path for path, field in key_rows(schema) if not field.doc.strip()]


def default_str(field: Field) -> str:
    """Return a field's default as the component README shows it ('required' when it has none)."""
    if field.required:
        return "required"
    value = field.default
    if value is None or value == {} or value == []:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if field.type == "length" and isinstance(value, (int, float)):
        return f"{value:g} mm"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(f'"{v}"' if isinstance(v, str) else str(v) for v in value) + "]"
    return str(value)


def key_table(schema: Mapping[str, Field], prefix: str = "") -> str:
    """Return a Markdown table of a schema's keys (nested ones too): key, type, default, what it is."""
    lines = ["| key | type | default | what it is |", "|---|---|---|---|"]
    for path, field in key_rows(schema, prefix):
        kind = f"`{field.type}`"
        if field.choices:
            kind += ": " + " \\| ".join(str(c) for c in field.choices)
        elif field.min is not None or field.max is not None:
            low = "" if field.min is None else f"{field.min:g}"
            high = "" if field.max is None else f"{field.max:g}"
            kind += f" {low}..{high}"
        default = default_str(field).replace("|", "\\|")
        doc = field.doc.replace("|", "\\|")
        shown = default if field.required or not default else f"`{default}`"
        lines.append(f"| `{path}` | {kind} | {shown} | {doc} |")
    return "\n".join(lines)
