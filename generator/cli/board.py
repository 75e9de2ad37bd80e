"""``pnp board GAME``: show a game's (seeded) board in the terminal or as JSON."""

from __future__ import annotations

import typer

from generator.cli.common import handle_errors, split_list


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command("board")
    @handle_errors
    def board_command(
        game: str = typer.Argument(..., help="Game id."),
        seed: str = typer.Option(None, "--seed", metavar="N", help="Seed (a non-negative integer)."),
        variant: str = typer.Option(
            None, "--variant", metavar="VARIANT,...", help="Variants, comma-separated."
        ),
        json_out: bool = typer.Option(False, "--json", help="Print JSON instead of a picture."),
    ) -> None:
        """Print the board of a game for a seed: a text picture, or JSON with --json."""
        import json

        from generator.foundation.seeding import check_seed
        from generator.games import find_rules

        rules = find_rules(game)
        seed_value = None if seed is None else check_seed(seed)  # a bad seed is a usage error (exit 2)
        variants = rules.check_variants(frozenset(split_list(variant)))
        if json_out:
            typer.echo(json.dumps(rules.board_data(seed_value, variants), indent=2, sort_keys=False))
        else:
            typer.echo(rules.board_text(seed_value, variants))
