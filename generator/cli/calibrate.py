"""``pnp calibrate``: write the duplex calibration sheet."""

from __future__ import annotations

import typer

from generator.cli.common import handle_errors


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command("calibrate")
    @handle_errors
    def calibrate_command(
        paper: str = typer.Option("a4", "--paper", help="Paper: a4 or letter."),
        out: str = typer.Option("output", "--out", help="Output folder."),
    ) -> None:
        """Write a duplex calibration sheet: print it double-sided and read your printer's offset."""
        import os

        from generator.calibration import calibration_pages
        from generator.errors import UsageError
        from generator.files import atomic_write, output_folder
        from generator.imposition import find_paper
        from generator.render import find_writer

        if not out.strip():
            raise UsageError("--out needs a folder name")
        sheet = find_paper(paper)
        path = os.path.join(out, f"calibration-{sheet.name}.pdf")
        writer = find_writer("pdf")
        with output_folder(out):
            atomic_write(
                path, lambda handle: writer(calibration_pages(sheet), handle, "pnp duplex calibration")
            )
        typer.echo(
            f"wrote {path}: print it double-sided (flip on the long edge) at 100%, "
            "then read the offset as the sheet explains"
        )
