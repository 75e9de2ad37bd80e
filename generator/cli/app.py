"""The ``pnp`` typer application: registers every command module and runs it."""

from __future__ import annotations

import typer

from generator.cli import analyse, board, build, calibrate, check, games, new, referee
from generator.cli.common import DEBUG

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: rich costs a tenth of a second at every start
    help="Build print-and-play kits (boards, pieces, scoresheets, rule booklets) and referee games.",
)


def _version(value: bool) -> None:
    if value:
        from generator import __version__

        typer.echo(f"pnp {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    debug: bool = typer.Option(False, "--debug", help="Show a traceback on errors."),
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version."
    ),
) -> None:
    DEBUG["on"] = debug


for module in (games, build, check, board, new, calibrate, referee, analyse):
    module.register(app)


def main(argv: list[str] | None = None) -> None:
    """Run the command line interface; usage errors are one line on stderr with exit code 2."""
    import sys

    try:
        result = app(args=argv, standalone_mode=False)
    except Exception as exc:
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):  # a click usage error
            hint = ""
            ctx = getattr(exc, "ctx", None)
            if ctx is not None:
                hint = f" (see '{ctx.command_path} --help')"
            if exc.format_message():
                sys.stderr.write(f"pnp: error: {exc.format_message()}{hint}\n")
            sys.exit(exc.exit_code)
        if type(exc).__name__ == "Abort":
            sys.stderr.write("pnp: error: aborted\n")
            sys.exit(1)
        raise
    sys.exit(result if isinstance(result, int) else 0)
