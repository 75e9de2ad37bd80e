"""``pnp games``: list the games, their components, players and whether boards are seeded."""

from __future__ import annotations

from typing import Any

import typer

from generator.cli.common import handle_errors


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command("games")
    @handle_errors
    def games_command(
        layouts: str = typer.Option(
            None, "--layouts", metavar="DIR", help="Folder of definitions (default: the built-in games)."
        ),
        json_out: bool = typer.Option(False, "--json", help="Print JSON."),
    ) -> None:
        """List the games with their components, player counts, seeded boards and the languages
        their kits are written in."""
        import json

        from generator.booklet.template import languages
        from generator.definitions.loader import load_all
        from generator.games import has_rules

        rows: list[dict[str, Any]] = []
        for d in load_all(layouts or None):
            rows.append(
                {
                    "id": d.id,
                    "title": d.title,
                    "players": d.game_spec.players,
                    "seeded": d.game_spec.seeded,
                    "seed_optional": d.game_spec.seed_optional,
                    "variants": list(d.game_spec.variants),
                    "languages": languages(d),
                    "referee": has_rules(d.rules_id),
                    "components": [f"{c.id} ({c.kind})" for c in d.components],
                }
            )
        if json_out:
            typer.echo(json.dumps(rows, indent=2))
            return
        for r in rows:
            extra = (
                ", seeded boards"
                if r["seeded"]
                else (", seeded variant boards" if r["seed_optional"] else "")
            )
            if r["variants"]:
                extra += ", variants: " + ", ".join(r["variants"])
            typer.echo(
                f"{r['id']:18} {r['title']} ({r['players']} players{extra}; referee: "
                f"{'yes' if r['referee'] else 'no'})"
            )
            typer.echo(f"{'':18} languages: {', '.join(r['languages'])}")
            typer.echo(f"{'':18} components: {', '.join(r['components'])}")
