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
        folder: str = typer.Option(
            ".",
            "--dir",
            metavar="DIR",
            help="Folder to write into (default: the current one): DIR/layouts/NAME.toml, "
            "DIR/templates/booklets/NAME.en.md.j2 and DIR/templates/quickref/NAME.en.md.j2.",
        ),
        force: bool = typer.Option(False, "--force", help="Overwrite existing files."),
    ) -> None:
        """Write layouts/NAME.toml, templates/booklets/NAME.en.md.j2 and templates/quickref/NAME.en.md.j2:
        a starter kit with every component."""
        import os

        from generator.starter import write_starter

        layouts = os.path.normpath(os.path.join(folder, "layouts"))
        for path in write_starter(name, layouts, force):
            typer.echo(f"wrote {path}")
        typer.echo(f"build it with: pnp build {name} --layouts {layouts}")
