"""``pnp new NAME``: write a starter definition and rule text that build at once."""

from __future__ import annotations

import typer

from generator.cli.common import handle_errors


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command("new")
    @handle_errors
    def new_command(
        name: str = typer.Argument(..., help="The new game's id, e.g. my-game."),
        layouts: str = typer.Option(
            "layouts",
            "--layouts",
            help="Folder for the definition; the booklet template goes to templates/booklets beside it.",
        ),
        force: bool = typer.Option(False, "--force", help="Overwrite existing files."),
    ) -> None:
        """Write layouts/NAME.toml and templates/booklets/NAME.en.md.j2: a starter kit with every component."""
        from generator.starter import write_starter

        for path in write_starter(name, layouts, force):
            typer.echo(f"wrote {path}")
        typer.echo(f"build it with: pnp build {name} --layouts {layouts}")
