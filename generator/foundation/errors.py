"""Errors a user can see: each carries a one-line message and an exit code."""

from __future__ import annotations


class PnpError(Exception):
    """Base of every error shown to the user as one line."""

    exit_code = 1


class UsageError(PnpError):
    """A bad command-line option or argument."""

    exit_code = 2


class OutputError(PnpError):
    """An output file or folder that cannot be used (not a regular file, no permission, full disk)."""

    exit_code = 2


class DefinitionError(PnpError):
    """A game definition (layouts/*.toml) that cannot be used."""

    exit_code = 3


class TemplateError(PnpError):
    """A rule text template that cannot be rendered."""

    exit_code = 3


class UnknownGameError(PnpError):
    """A game id that no definition provides."""

    exit_code = 3


class RecordError(PnpError):
    """A game record that cannot be read (syntax, unknown tag values)."""

    exit_code = 3

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        self.line = line
        self.column = column
        where = f"line {line}, col {column}: " if line is not None else ""
        super().__init__(where + message)
        self.reason = message


class NotationError(PnpError):
    """A move token that does not follow the game's notation."""

    exit_code = 4


class IllegalMoveError(PnpError):
    """A well-formed move that the rules do not allow in the current position."""

    exit_code = 4


class BoardError(PnpError):
    """A seeded board that cannot be generated (bad seed or variant)."""

    exit_code = 2
