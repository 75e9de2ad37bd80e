"""Pieces from a spreadsheet: the rows of a CSV file beside the definition (or of an inline list
of tables), read once with the same bounds, safety checks and errors for every kind that takes
them (card decks, counters and tiles, standees).

A row's cells go into the definition's texts as ``{column}``; ``when`` and ``unless`` show a field
(or a piece template) only on rows whose cells match. Errors in the data name the CSV file, the
row (as a spreadsheet numbers it: the header is row 1) and the column, or the inline table's key
path, in one line.
"""

from __future__ import annotations

import csv
import io
import os
import re
from dataclasses import dataclass
from typing import Any

from generator.definitions.schema import MAX_ITEMS, MAX_TEXT, Field, is_colour_key, text_problem
from generator.foundation.errors import DefinitionError
from generator.foundation.files import OutsideError, path_problem, read_inside
from generator.foundation.numbers import is_ascii_digits

MAX_CSV_BYTES = 1_000_000  # a CSV file, like a definition
MAX_ROWS = MAX_ITEMS  # rows of one CSV file (the header not counted)
_REF = re.compile(r"\{([^{}]{1,100})\}")


@dataclass(frozen=True)
class Row:
    """One row of the data: where it is (for errors) and its cells by column."""

    number: int  # spreadsheet row (the header is row 1), or the inline list index
    cells: dict[str, str]


def refs(text: str) -> list[str]:
    """Return the columns a text names as ``{column}``, in order."""
    return _REF.findall(text)


def fill_in(text: str, row: Row) -> str:
    """Return a text with each ``{column}`` replaced by the row's cell (unknown names kept)."""
    return _REF.sub(lambda m: row.cells.get(m.group(1), m.group(0)), text)


def _read_csv(path: str, shown: str, folder: str, where: Any, what: str) -> tuple[list[str], list[Row]]:
    """Return the columns and rows of a CSV file inside ``folder`` (links followed; size-limited,
    UTF-8, a header row first)."""
    try:
        data = read_inside(path, [folder], MAX_CSV_BYTES)
    except OutsideError:
        raise where.error(f"{shown} leads outside the definition's folder (a link); not read") from None
    except FileNotFoundError:
        raise where.error(f"no CSV file {shown}") from None
    except IsADirectoryError:
        raise where.error(f"{shown} is a folder, not a CSV file") from None
    except OSError as exc:
        if exc.errno == 0:
            raise where.error(f"{shown} is a device or special file, not a CSV file") from None
        raise where.error(f"{shown} cannot be read: {exc.strerror or exc}") from None
    if len(data) > MAX_CSV_BYTES:
        raise DefinitionError(f"{shown}: larger than {MAX_CSV_BYTES} bytes, not a table of {what}s")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DefinitionError(f"{shown}: not UTF-8 text (byte {exc.start + 1})") from None
    if "\x00" in text:
        raise DefinitionError(f"{shown}: holds a NUL byte, not a CSV file")
    problem = text_problem(text.replace("\t", " "))
    if problem:
        line = text[: _first_bad(text)].count("\n") + 1
        raise DefinitionError(f"{shown}: line {line}: {problem}")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        records = list(reader)
    except csv.Error as exc:
        raise DefinitionError(f"{shown}: line {reader.line_num}: not CSV: {exc}") from None
    records = [r for r in records if any(c.strip() for c in r)]
    if not records:
        raise DefinitionError(f"{shown}: empty; the first row names the columns")
    header = [c.strip() for c in records[0]]
    for i, name in enumerate(header):
        if not name:
            raise DefinitionError(f"{shown}: row 1, column {i + 1}: a column without a name")
        if header.index(name) != i:
            raise DefinitionError(f"{shown}: row 1: column {name!r} named twice")
        if len(name) > 100:
            raise DefinitionError(f"{shown}: row 1, column {i + 1}: a name of at most 100 characters")
    if len(records) - 1 > MAX_ROWS:
        raise DefinitionError(f"{shown}: at most {MAX_ROWS} rows of {what}s, got {len(records) - 1}")
    rows: list[Row] = []
    for number, record in enumerate(records[1:], 2):
        if len(record) > len(header):
            raise DefinitionError(
                f"{shown}: row {number}: {len(record)} cells, but the header names {len(header)} columns"
            )
        cells = {name: (record[i] if i < len(record) else "") for i, name in enumerate(header)}
        for name, value in cells.items():
            if len(value) > MAX_TEXT:
                raise DefinitionError(
                    f"{shown}: row {number}, column {name!r}: a text of at most {MAX_TEXT} characters"
                )
        rows.append(Row(number, cells))
    return header, rows


def _first_bad(text: str) -> int:
    """Return the index of the first character of a text that no printed text can hold."""
    return next(i for i, ch in enumerate(text) if text_problem(ch))


def _inline_rows(value: Any, where: Any, what: str) -> tuple[list[str], list[Row]]:
    """Return the columns and rows of an inline list of tables, one per row."""
    if not isinstance(value, list) or not value:
        raise where.error(f'expected a list of tables, one per {what}, e.g. [{{ name = "Fox" }}]')
    if len(value) > MAX_ROWS:
        raise where.error(f"at most {MAX_ROWS} {what}s, got {len(value)}")
    columns: list[str] = []
    rows: list[Row] = []
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            raise where.child(i).error("expected a table of column = value")
        cells: dict[str, str] = {}
        for key, cell in item.items():
            at = where.child(i).child(key)
            if isinstance(cell, bool) or not isinstance(cell, (str, int, float)):
                raise at.error("expected a text or a number")
            text = str(cell)
            if len(text) > MAX_TEXT:
                raise at.error(f"a text of at most {MAX_TEXT} characters")
            if text_problem(text):
                raise at.error(str(text_problem(text)))
            cells[str(key)] = text
            if key not in columns:
                columns.append(str(key))
        rows.append(Row(i, cells))
    return columns, [Row(r.number, {c: r.cells.get(c, "") for c in columns}) for r in rows]


@dataclass(frozen=True)
class Table:
    """Rows of data: where they come from (a CSV file, or the definition), columns and rows."""

    source: str  # the CSV file as shown, or "" for an inline table
    definition: str
    component: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    inline: str = "cards"  # the key of the inline rows, for their key paths

    def where(self, row: Row, column: str) -> str:
        """Return the place of a cell for an error message."""
        if self.source:
            return f"{self.source}: row {row.number}, column {column!r}"
        return f"{self.definition}: components.{self.component}.{self.inline}[{row.number}].{column}"

    def error(self, row: Row, column: str, problem: str) -> DefinitionError:
        """Return an error naming a cell of the table."""
        return DefinitionError(f"{self.where(row, column)}: {problem}")

    def check_column(self, name: str, at: Any) -> None:
        """Raise an error at ``at`` (a definition key) when the table has no column ``name``."""
        if name not in self.columns:
            raise at.error(f"no column {name!r} in the data (columns: {', '.join(self.columns)})")

    def count(self, row: Row, column: str, most: int) -> int:
        """Return a row's number of copies from ``column`` (1 when the data has no such column),
        or raise an error naming the cell when it is not a whole number from 0 to ``most``."""
        if column not in self.columns:
            return 1
        text = row.cells[column].strip()
        if not is_ascii_digits(text, 6) or not 0 <= int(text) <= most:
            raise self.error(row, column, f"expected a whole number of copies, 0 to {most}, got {text!r}")
        return int(text)


def load_table(values: dict[str, Any], where: Any, inline: str = "cards", what: str = "card") -> Table | None:
    """Return the rows of a component's ``csv`` file (beside the definition, or in a folder below
    it) or of its inline list ``values[inline]``; None when it has neither."""
    if values["csv"] and values[inline] is not None:
        raise where.child(inline).error(f"give csv or {inline}, not both")
    if values["csv"]:
        name = values["csv"]
        problem = path_problem(name)
        if problem:
            raise where.child("csv").error(f"the file name {problem}")
        if os.path.isabs(name) or ".." in name.replace("\\", "/").split("/"):
            raise where.child("csv").error("a CSV file beside the definition (or in a folder below it)")
        folder = os.path.dirname(where.file)
        path = os.path.join(folder, name)
        shown = os.path.normpath(path) if folder else name
        columns, rows = _read_csv(path, shown, folder or ".", where.child("csv"), what)
        source = shown
    elif values[inline] is not None:
        columns, rows = _inline_rows(values[inline], where.child(inline), what)
        source = ""
    else:
        return None
    component = where.path.rsplit(".", 1)[-1]
    return Table(source, where.file, component, tuple(columns), tuple(rows), inline)


# Conditions: ``when = { rarity = "rare" }`` or ``{ rarity = ["rare", "epic"] }`` holds on a row
# whose every named column holds one of the values given (cells and values compared with spaces
# trimmed; "" is an empty cell); ``unless`` takes the same table and hides on the rows it holds on.
Condition = tuple[tuple[str, tuple[str, ...]], ...]


def _condition_problem(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not value:
        return 'expected a table of column = value, e.g. { rarity = "rare" } or { cost = "" }'
    if len(value) > 100:
        return "at most 100 columns"
    for column, wanted in value.items():
        items = wanted if isinstance(wanted, list) else [wanted]
        if not items or len(items) > 100:
            return f"column {column!r}: one to 100 values"
        for item in items:
            if isinstance(item, bool) or not isinstance(item, (str, int, float)):
                return f"column {column!r}: expected a text or a number, or a list of them"
            if len(str(item)) > MAX_TEXT or text_problem(str(item)):
                return f"column {column!r}: {text_problem(str(item)) or 'a text too long'}"
    return None


def condition_field(shows: bool) -> Field:
    """Return the schema field of a ``when`` (``shows``) or ``unless`` key."""
    doc = (
        "shown only on rows whose columns hold these values: { column = value or [values] }"
        if shows
        else 'hidden on rows whose columns hold these values, e.g. { cost = "" }'
    )
    return Field("any", default=None, check=_condition_problem, doc=doc)


def condition(value: Any, table: Table | None, where: Any) -> Condition | None:
    """Return a checked ``when``/``unless`` table as (column, values) pairs (every column must be
    one of the data's), or None when there is none; raise an error at ``where`` otherwise."""
    if value is None or (isinstance(value, tuple) and not value):
        return None
    if isinstance(value, tuple):  # already checked
        return value
    if table is None:
        raise where.error('a condition on the columns needs data: csv = "..." or rows inline')
    pairs = []
    for column, wanted in value.items():
        table.check_column(str(column), where)
        items = wanted if isinstance(wanted, list) else [wanted]
        pairs.append((str(column), tuple(str(v).strip() for v in items)))
    return tuple(pairs)


def holds(cond: Condition | None, row: Row) -> bool:
    """Return True when a row's cells match every column of a condition (True for none)."""
    if not cond:
        return True
    return all(row.cells.get(column, "").strip() in wanted for column, wanted in cond)


def shown(when: Condition | None, unless: Condition | None, row: Row) -> bool:
    """Return True when a field (or template) with ``when`` and ``unless`` shows on a row."""
    return holds(when, row) and not (unless and holds(unless, row))


def data_fields(what: str, count_column: str = "quantity") -> dict[str, Field]:
    """Return the component keys that give a kind of piece its rows of data: ``csv``, ``rows``
    (inline), ``quantity`` and ``type`` (``what``: the piece, as in 'a row per counter type')."""
    return {
        "csv": Field(
            "str",
            default="",
            doc=f"a CSV file beside the definition: a header row, then a row per {what} "
            "(each template below made once per row, {column} filled in)",
        ),
        "rows": Field("any", default=None, doc="or the rows inline: a list of tables, column = value"),
        "quantity": Field(
            "str", default=count_column, doc="the column with each row's number of copies (else count)"
        ),
        "type": Field("str", default="type", doc="the column with each row's type (see types)"),
    }


def template_fields(what: str) -> dict[str, Field]:
    """Return the keys of a piece template that pick the rows it is made for."""
    return {
        "types": Field(
            "list:str", default=[], doc=f"with data: made only for rows of these types (empty: every {what})"
        ),
        "when": condition_field(True),
        "unless": condition_field(False),
    }


def _texts(values: dict[str, Any], schema: dict[str, Field], path: str = "") -> list[tuple[str, str]]:
    """Return (key path, text) of every free text of a table (recursing into its tables)."""
    found: list[tuple[str, str]] = []
    for key, field in schema.items():
        value = values.get(key)
        if field.type == "str" and field.choices is None and isinstance(value, str):
            found.append((path + key, value))
        elif field.type == "table" and field.schema is not None and isinstance(value, dict):
            found.extend(_texts(value, dict(field.schema), f"{path}{key}."))
    return found


def _cell_problem(key: str, value: str, palette: dict[str, str] | None) -> str | None:
    """Return what is wrong with a value filled in from a cell for ``key`` (a colour, a symbol)."""
    from generator.components.symbols import SYMBOLS

    text = value.strip()
    if len(value) > MAX_TEXT:
        return f"a text of at most {MAX_TEXT} characters once filled in"
    if is_colour_key(key) and text and text != "none" and not re.fullmatch(r"#[0-9a-fA-F]{6}", text):
        if palette is not None and text not in palette:
            return (
                f'unknown colour {text!r} (use "#rrggbb" or a palette name: '
                f"{', '.join(sorted(palette)) or 'none defined'})"
            )
    if key == "symbol" and text and text not in SYMBOLS:
        return f"unknown symbol {text!r} (symbols: {', '.join(sorted(SYMBOLS))})"
    return None


def _filled(
    values: dict[str, Any], schema: dict[str, Field], row: Row, table: Table, palette: dict[str, str] | None
) -> dict[str, Any]:
    """Return a template's values with every ``{column}`` of its texts filled in from a row."""
    result = dict(values)
    for key, field in schema.items():
        value = values.get(key)
        if field.type == "str" and field.choices is None and isinstance(value, str) and refs(value):
            text = fill_in(value, row)
            problem = _cell_problem(key, text, palette)
            if problem:
                raise table.error(row, refs(value)[0], problem)
            result[key] = text.strip() if key == "symbol" else text
        elif field.type == "table" and field.schema is not None and isinstance(value, dict):
            result[key] = _filled(value, dict(field.schema), row, table, palette)
    return result


def expand_templates(
    values: dict[str, Any], where: Any, key: str, schema: dict[str, Field], what: str, most: int
) -> None:
    """Make a kind's list of piece tables (``values[key]``) from its data, when it has some: each
    table is a template made once per row (of its ``types``, where ``when`` and ``unless`` let it),
    ``{column}`` in its texts filled in from the row's cells and its ``count`` from the quantity
    column (0 to ``most``; a row of 0 makes none). Errors in the data name the file, row and
    column; the rows read go with the spec (``values["rows"]``), the CSV is not read again."""
    table = load_table(values, where, "rows", what)
    templates = values[key]
    if table is None:
        for i, template in enumerate(templates):
            for name in ("types", "when", "unless"):
                if template[name]:
                    raise (
                        where.child(key)
                        .child(i)
                        .child(name)
                        .error('picks rows of data: give csv = "..." (or rows inline)')
                    )
        return
    if not templates:
        raise where.child(key).error(f"list at least one {what} template")
    for i, template in enumerate(templates):
        at = where.child(key).child(i)
        for path, text in _texts(template, schema):
            for ref in refs(text):
                table.check_column(ref, at.child(path))
        template["when"] = condition(template["when"], table, at.child("when"))
        template["unless"] = condition(template["unless"], table, at.child("unless"))
        if template["types"]:
            table.check_column(values["type"], at.child("types"))
    made: list[dict[str, Any]] = []
    counted = values["quantity"] in table.columns
    for row in table.rows:
        copies = table.count(row, values["quantity"], most) if counted else None
        if copies == 0:
            continue
        kind = row.cells.get(values["type"], "").strip()
        for template in templates:
            if template["types"] and kind not in template["types"]:
                continue
            if not shown(template["when"], template["unless"], row):
                continue
            piece = _filled(template, schema, row, table, where.palette)
            if not piece["name"].strip():
                raise table.error(row, (refs(template["name"]) or ["name"])[0], f"a {what} needs a name")
            if copies is not None:
                piece["count"] = copies
            made.append(piece)
            if len(made) > MAX_ITEMS:
                raise where.child("csv" if table.source else "rows").error(
                    f"at most {MAX_ITEMS} {what} types from the rows"
                )
    if not made:
        raise where.child("csv" if table.source else "rows").error(
            f"no {what}s: every row's quantity is 0, or no template is made for any row"
        )
    values[key] = made
    values["rows"] = table
    values["csv"] = ""
