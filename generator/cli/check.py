"""``pnp check FILE``: validate a definition as a build would, leaving no files."""

from __future__ import annotations

import typer

from generator.cli.common import handle_errors


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command("check")
    @handle_errors
    def check_command(
        files: list[str] = typer.Argument(..., help="Definition files (layouts/*.toml)."),
    ) -> None:
        """Validate game definitions as a build would (a trial build, thrown away); one line per file."""
        from generator.definitions.checking import check_definition

        for path in files:
            d = check_definition(path)
            typer.echo(f"{path}: ok ({d.title}; {len(d.components)} components)")
