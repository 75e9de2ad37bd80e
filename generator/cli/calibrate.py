"""``pnp calibrate``: write the duplex calibration sheet."""

from __future__ import annotations

import typer

from generator.cli.common import handle_errors


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command("calibrate")
    @handle_errors
    def calibrate_command(
        paper: str = typer.Option("a4", "--paper", metavar="PAPER", help="Paper: a4 or letter."),
        out: str = typer.Option("output", "--out", metavar="DIR", help="Output folder."),
    ) -> None:
        """Write a duplex calibration sheet: print it double-sided and read your printer's offset."""
        from generator.kits.plan import sheet_plan
        from generator.kits.run import write_calibration

        path = write_calibration(sheet_plan(paper, out))
        typer.echo(
            f"wrote {path}: print it double-sided (flip on the long edge) at 100%, "
            "then read the offset as the sheet explains"
        )
