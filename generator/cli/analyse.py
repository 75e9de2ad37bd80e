"""``pnp analyse``: bot-against-bot games over a range of seeds, a balance table and a chart."""

from __future__ import annotations

import typer

from generator.cli.common import Progress, fail, handle_errors, split_list


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command("analyse")
    @handle_errors
    def analyse_command(
        game: str = typer.Argument(..., help="Game id (see `pnp games`)."),
        seeds: str = typer.Option(
            ..., "--seeds", metavar="SEEDS", help="Seeds to analyse, e.g. 1-200 or 3,7,9."
        ),
        games: int = typer.Option(20, "--games", metavar="N", help="Bot-against-bot games per seed."),
        bot: str = typer.Option("random", "--bot", metavar="BOT", help="Bots that play: random or search."),
        playouts: int = typer.Option(
            None, "--playouts", metavar="N", help="Playouts per move of the search bot (default 200)."
        ),
        variant: str = typer.Option(
            None, "--variant", metavar="VARIANT,...", help="Variants, comma-separated."
        ),
        band: str = typer.Option(
            "0.35-0.65",
            "--band",
            metavar="LO-HI",
            help="Balance band of the first player's score, LO-HI (e.g. 0.4-0.6).",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
        as_csv: bool = typer.Option(False, "--csv", help="Print the figures as CSV."),
        out: str = typer.Option("output", "--out", metavar="DIR", help="Folder for the chart (PDF and SVG)."),
        no_chart: bool = typer.Option(False, "--no-chart", help="Write no chart."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
        jobs: int = typer.Option(
            None,
            "--jobs",
            "-j",
            metavar="N",
            help="Worker processes (default: the number of cores); same figures whatever the number.",
        ),
        scheduler: str = typer.Option(
            None,
            "--scheduler",
            metavar="ADDRESS",
            help="Play the seeds on the Dask cluster of this scheduler, e.g. tcp://host:8786 "
            "(pip install 'pnp-kits[dask]'); the same figures as a local run.",
        ),
    ) -> None:
        """Play bots against each other on every seed: the first player's score, draws, length, a chart."""
        from generator.bots import DEFAULT_PLAYOUTS
        from generator.bots.analysis import (
            analyse,
            analysis_csv,
            analysis_json,
            analysis_table,
            parse_band,
            write_chart,
        )
        from generator.build.plan import parse_seed_range
        from generator.parallel import default_jobs

        if as_json and as_csv:
            raise fail("--json and --csv cannot be used together", 2)
        if scheduler is not None and jobs is not None:
            raise fail("--scheduler and --jobs cannot be used together: the cluster's workers do the work", 2)
        if jobs is not None and jobs < 1:
            raise fail(f"--jobs must be at least 1, got {jobs}", 2)
        seed_list = parse_seed_range(seeds)
        progress = Progress(len(seed_list), quiet)
        result = analyse(
            game,
            seed_list,
            games=games,
            bot=bot,
            playouts=DEFAULT_PLAYOUTS if playouts is None else playouts,
            variants=split_list(variant),
            band=parse_band(band),
            jobs=default_jobs() if jobs is None else jobs,
            done=lambda i: progress.step(f"seed {seed_list[i]}"),
            scheduler=scheduler,
        )
        progress.close()
        if as_json:
            typer.echo(analysis_json(result))
        elif as_csv:
            typer.echo(analysis_csv(result), nl=False)
        else:
            typer.echo(analysis_table(result))
        if not no_chart:
            paths = write_chart(result, out)
            typer.echo(f"chart: {', '.join(paths)}", err=True)
