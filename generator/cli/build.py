"""``pnp build``: build kits into the output folder."""

from __future__ import annotations

import typer

from generator.cli.common import Progress, handle_errors, split_list, whole_number
from generator.foundation.languages import language_codes

#: The band ``--balanced`` stands for when no band follows it.
DEFAULT_BALANCED = "0.35-0.65"


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command("build")
    @handle_errors
    def build_command(
        games: list[str] = typer.Argument(None, help="Game ids to build (see `pnp games`)."),
        all_games: bool = typer.Option(False, "--all", help="Build every game."),
        paper: str = typer.Option("a4", "--paper", metavar="PAPER", help="Paper: a4 or letter."),
        formats: str = typer.Option(
            "pdf,svg", "--format", metavar="FORMAT,...", help="Formats, comma-separated: pdf, svg."
        ),
        out: str = typer.Option("output", "--out", metavar="DIR", help="Output folder."),
        seed: str = typer.Option(
            None, "--seed", metavar="N", help="Seed for seeded boards (a non-negative integer)."
        ),
        seeds: str = typer.Option(
            None, "--seeds", metavar="A-B", help="Build a batch of seeds, e.g. 1-50 (seeded games)."
        ),
        variant: str = typer.Option(
            None, "--variant", metavar="VARIANT,...", help="Variants, comma-separated."
        ),
        lang: str = typer.Option(
            "en", "--lang", metavar="LANG", help=f"Language of the rule booklet: {language_codes()}."
        ),
        fit: bool = typer.Option(False, "--fit", help="Scale large boards onto one sheet instead of tiling."),
        cell_size: str = typer.Option(
            None,
            "--cell-size",
            metavar="LENGTH",
            help="Square size of boards with cells (grids, tracks, point spacing), e.g. 25mm.",
        ),
        ink_saver: bool = typer.Option(
            False, "--ink-saver", help="Outlines and hatching instead of large fills."
        ),
        duplex_offset: str = typer.Option(
            None,
            "--duplex-offset",
            metavar="DX,DY",
            help="Printer offset for backs, 'dx,dy' in mm (see `pnp calibrate`).",
        ),
        single_sided: bool = typer.Option(
            False,
            "--single-sided",
            help="kit.pdf for printers without duplex: no blank backs, plain booklet.",
        ),
        gutter_fold: bool = typer.Option(
            False,
            "--gutter-fold",
            help="Cards, counters and tiles with backs on gutter-fold sheets: fronts and backs "
            "side by side on one side of a sheet, fold, glue, cut (kit.pdf is single-sided).",
        ),
        bleed: str = typer.Option(
            None,
            "--bleed",
            metavar="LENGTH",
            help="For a print shop: art runs this far beyond every cut (e.g. 3mm), "
            "with gutters, crop marks outside it, TrimBox and BleedBox.",
        ),
        cmyk: bool = typer.Option(False, "--cmyk", help="For a print shop: PDF colours as CMYK inks."),
        png: str = typer.Option(
            None,
            "--png",
            metavar="DPI",
            help="Also one PNG per piece face and board at this resolution (dpi), e.g. 300.",
        ),
        parts: bool = typer.Option(
            False,
            "--parts",
            help="Also each part of kit.pdf as a PDF of its own (board.pdf, pieces.pdf, ...).",
        ),
        export: str = typer.Option(
            None,
            "--export",
            metavar="EXPORT",
            help="Also the kit for a virtual table or a cutting machine: tts writes "
            "tts/<game>.json, a Tabletop Simulator saved object (decks, boards, counters), with its "
            "images beside it; cut writes cut/sheet-<n>.svg, every part's outline on each sheet of "
            "parts, and prints registration marks on those sheets of kit.pdf.",
        ),
        tts_url: str = typer.Option(
            None,
            "--tts-url",
            metavar="BASE",
            help="With --export tts: the address the tts/ images will be hosted at, prefixed to "
            "their names (default: file names beside the JSON).",
        ),
        service: str = typer.Option(
            None,
            "--service",
            metavar="NAME",
            help="Also the files a print-on-demand service takes, in service/<name>/ with a "
            "README.txt of what to upload where: tgc (The Game Crafter), mpc (MakePlayingCards) "
            "or drivethrucards.",
        ),
        layouts: str = typer.Option(
            None, "--layouts", metavar="DIR", help="Folder of definitions to build from."
        ),
        balanced: str = typer.Option(
            None,
            "--balanced",
            metavar="[BAND]",
            help="With --seeds: build only the seeds whose analysis (random bots) puts the first "
            "player's score inside the band, LO-HI (default 0.35-0.65).",
        ),
        balance_games: int = typer.Option(
            None,
            "--balance-games",
            parser=whole_number,
            metavar="N",
            help="With --balanced: random games played on each seed (default 20).",
        ),
        watch: bool = typer.Option(
            False,
            "--watch",
            help="Build, then build again on every save of the definition or a file it names "
            "(CSV, picture, font, template); a broken change keeps the last good kit. Ctrl-C stops.",
        ),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
        jobs: int = typer.Option(
            None,
            "--jobs",
            "-j",
            parser=whole_number,
            metavar="N",
            help="Worker processes for independent kits and seeds (default: the number of cores); "
            "the files are the same whatever the number.",
        ),
        scheduler: str = typer.Option(
            None,
            "--scheduler",
            metavar="ADDRESS",
            help="With --balanced: analyse the seeds on the Dask cluster of this scheduler, e.g. "
            "tcp://host:8786 (pip install 'pnp-kits[dask]'); the same seeds are kept as locally, "
            "and --jobs still sets the processes that draw the kits.",
        ),
    ) -> None:
        """Build the kits of the named games (or --all) as PDF and SVG files."""
        from generator.kits.plan import BuildRequest, make_plan
        from generator.kits.run import run_plan

        request = BuildRequest(
            games=tuple(games or ()),
            all_games=all_games,
            paper=paper,
            formats=tuple(split_list(formats)),
            out=out,
            seed=seed,
            seeds=seeds,
            variants=tuple(split_list(variant)),
            lang=lang,
            fit=fit,
            cell_size=cell_size,
            ink_saver=ink_saver,
            duplex_offset=duplex_offset,
            layouts=layouts,
            single_sided=single_sided,
            gutter_fold=gutter_fold,
            jobs=jobs,
            bleed=bleed,
            cmyk=cmyk,
            png=png,
            parts=parts,
            export=tuple(split_list(export)),
            tts_url=tts_url,
            service=service,
            balanced=balanced,
            balance_games=balance_games,
            scheduler=scheduler,
        )
        if watch:
            from generator.kits.watch import watch as watch_kits

            watch_kits(request, typer.echo)
            return
        plan = make_plan(request)
        if plan.band is not None:
            from generator.kits.balance import balance_plan

            plan, kept = balance_plan(
                plan, plan.band, plan.balance_games, lambda total: Progress(total, quiet)
            )
            if not quiet:
                typer.echo(kept.summary())
        result = run_plan(plan, lambda total: Progress(total, quiet))
        if not quiet:
            typer.echo(result)
