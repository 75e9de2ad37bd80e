"""A number given to an option is read as a definition's counts are: ASCII digits only. Python's
``int()`` (and so the command line's integer type) takes '３', '٣', '+3', '1_0' and ' 3'; every
integer option of every command refuses them in one line naming the option, exit 2, before any
work, and still takes what its help shows."""

from __future__ import annotations

import pytest
import typer

from generator.cli.app import app
from generator.cli.common import whole_number
from tests.hostile.helpers import cli

# what int() takes and a definition's count refuses: full-width and Arabic-Indic digits, a
# superscript, a sign, an underscore, spaces, and more digits than any bound
SPELLINGS = ["３", "٣", "+3", "1_0", " 3", "3 ", "20000000000000000000"]


def _integer_options() -> list[tuple[str, str]]:
    """Return (command, option) for every option of every command that takes a number."""
    found = []
    for name, command in sorted(typer.main.get_command(app).commands.items()):  # type: ignore[attr-defined]
        for param in command.params:
            kind = param.type
            takes_number = getattr(kind, "func", None) is whole_number or kind.name == "integer"
            if takes_number and param.opts[0].startswith("--"):
                found.append((name, param.opts[0]))
    return found


OPTIONS = _integer_options()

# the rest of a command line each option needs to get as far as reading its number
BEFORE = {
    "analyse": ["analyse", "aggression", "--seeds", "1-3"],
    "build": ["build", "aggression", "--seeds", "1-3", "--balanced"],
    "referee": ["referee", "--play", "nine-mens-morris", "--vs", "computer"],
}


def test_every_integer_option_reads_ascii_digits_only():
    assert len(OPTIONS) >= 6 and {command for command, _ in OPTIONS} <= set(BEFORE), OPTIONS
    for command, option in OPTIONS:
        param = next(
            p
            for p in typer.main.get_command(app).commands[command].params  # type: ignore[attr-defined]
            if option in p.opts
        )
        assert getattr(param.type, "func", None) is whole_number, (command, option)


@pytest.mark.parametrize(("command", "option"), OPTIONS)
@pytest.mark.parametrize(
    "spelling", [s if i < 2 else pytest.param(s, marks=pytest.mark.slow) for i, s in enumerate(SPELLINGS)]
)
def test_a_number_int_would_take_is_refused_in_one_line(tmp_path, command, option, spelling):
    run = cli(
        *BEFORE[command], option, spelling, "--out" if command != "referee" else "--save", str(tmp_path / "o")
    )
    assert run.code == 2, (run.err, run.out)
    line = run.one_line_error()
    assert option in line and "digits 0-9" in line, line
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("text", ["0", "3", "-3", "017", "99999999999"])
def test_ascii_digits_are_read_as_written(text):
    assert whole_number(text) == int(text)
    assert whole_number(int(text)) == int(text)  # a default passes through
