"""``pnp check FILE``: validate a definition without building."""

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
        """Validate game definitions; print one line per file."""
        from generator.loader import load_definition

        for path in files:
            d = load_definition(path)
            typer.echo(f"{path}: ok ({d.title}; {len(d.components)} components)")
