"""``pnp analyse``: bot-against-bot games over a range of seeds, a balance table and a chart."""

from __future__ import annotations

import sys
import time

import typer

from generator.cli.common import fail, handle_errors, split_list, whole_number


class _Progress:
    """Progress on stderr with the time left, estimated from the seeds done so far: one line
    redrawn on a terminal; otherwise, when ``lines``, a line per seed (silent when quiet)."""

    def __init__(self, total: int, quiet: bool, lines: bool) -> None:
        self.total = total
        self.done = 0
        self.start = time.monotonic()
        self.tty = sys.stderr.isatty()
        self.enabled = not quiet and (self.tty or lines)

    def step(self, label: str) -> None:
        """Count one finished seed and show the count, the label and the time left."""
        self.done += 1
        if not self.enabled:
            return
        spent = time.monotonic() - self.start
        left = spent / self.done * (self.total - self.done)
        text = f"{self.done}/{self.total} {label}, {_duration(spent)} so far, about {_duration(left)} left"
        if self.tty:
            sys.stderr.write(f"\r{text:70}")
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def close(self) -> None:
        """End the progress line."""
        if self.enabled and self.tty:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s"
    return f"{int(seconds // 60)} min {int(seconds % 60):02d} s"


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command("analyse")
    @handle_errors
    def analyse_command(
        game: str = typer.Argument(..., help="Game id (see `pnp games`)."),
        seeds: str = typer.Option(
            ..., "--seeds", metavar="SEEDS", help="Seeds to analyse, e.g. 1-200 or 3,7,9."
        ),
        games: int = typer.Option(
            20, "--games", parser=whole_number, metavar="N", help="Bot-against-bot games per seed."
        ),
        bot: str = typer.Option(
            "random",
            "--bot",
            metavar="BOT,...",
            help="Bots that play: random, search or greedy; several, comma-separated (random,search), "
            "give one report.",
        ),
        playouts: int = typer.Option(
            None,
            "--playouts",
            parser=whole_number,
            metavar="N",
            help="Playouts per move of the search bot (default 200).",
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
            parser=whole_number,
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
        from generator.bots import DEFAULT_PLAYOUTS, make_bot
        from generator.bots.analysis import (
            analyse,
            analysis_csv,
            analysis_json,
            parse_band,
            report_table,
            write_chart,
        )
        from generator.kits.plan import parse_seed_range
        from generator.workers.parallel import default_jobs

        if as_json and as_csv:
            raise fail("--json and --csv cannot be used together", 2)
        if scheduler is not None and jobs is not None:
            raise fail("--scheduler and --jobs cannot be used together: the cluster's workers do the work", 2)
        if jobs is not None and jobs < 1:
            raise fail(f"--jobs must be at least 1, got {jobs}", 2)
        seed_list = parse_seed_range(seeds)
        bots = split_list(bot) or ["random"]
        if len(set(bots)) != len(bots):
            raise fail(f"--bot names a bot twice: {bot}", 2)
        budget = DEFAULT_PLAYOUTS if playouts is None else playouts
        for name in bots:
            make_bot(name, budget)  # an unknown bot or budget fails before any game is played
        progress = _Progress(len(seed_list) * len(bots), quiet, lines=any(b != "random" for b in bots))
        results = []
        for name in bots:
            results.append(
                analyse(
                    game,
                    seed_list,
                    games=games,
                    bot=name,
                    playouts=budget,
                    variants=split_list(variant),
                    band=parse_band(band),
                    jobs=default_jobs() if jobs is None else jobs,
                    done=lambda i, name=name: progress.step(f"seed {seed_list[i]} ({name})"),
                    scheduler=scheduler,
                )
            )
        progress.close()
        one = results[0] if len(results) == 1 else results
        if as_json:
            typer.echo(analysis_json(one))
        elif as_csv:
            typer.echo(analysis_csv(one), nl=False)
        else:
            typer.echo(report_table(results))
        if not no_chart:
            paths = []
            for result in results:
                paths.extend(write_chart(result, out, suffix="" if len(results) == 1 else f"-{result.bot}"))
            typer.echo(f"chart: {', '.join(paths)}", err=True)
