"""``pnp referee``: check a game record, or referee a game live at the table.

Exit codes: 0 every move legal (and any claimed result agrees), 4 an illegal move or a wrong claimed
result, 3 an unreadable record or unknown game, 2 a usage error, 130 interrupted live play.
"""

from __future__ import annotations

from typing import Any

import typer

from generator.cli.common import fail, handle_errors, split_list


def register(app: typer.Typer) -> None:
    """Add the ``referee`` command to the app."""

    @app.command("referee")
    @handle_errors
    def referee_command(
        record: str = typer.Argument(
            None, metavar="RECORD", help="Game record file ('-' reads standard input)."
        ),
        game: str = typer.Option(
            None, "--game", metavar="GAME", help="Game id when the record has no Game tag."
        ),
        seed: str = typer.Option(
            None, "--seed", metavar="N", help="Board seed when the record has no Seed tag."
        ),
        variant: list[str] = typer.Option(
            None, "--variant", metavar="VARIANT,...", help="Variants, comma-separated (repeatable)."
        ),
        json_out: bool = typer.Option(False, "--json", help="Print the verdict as one JSON object."),
        play: str = typer.Option(None, "--play", metavar="GAME", help="Referee a game live at the table."),
        save: str = typer.Option(None, "--save", metavar="FILE", help="With --play: save the record here."),
        vs: str = typer.Option(
            None, "--vs", metavar="computer", help="With --play: the other sides are played by the computer."
        ),
        strength: int = typer.Option(
            None,
            "--strength",
            metavar="N",
            help=f"With --vs computer: how hard the computer thinks, 1 to {MAX_STRENGTH} (default {DEFAULT_STRENGTH}).",
        ),
        side: str = typer.Option(
            None,
            "--side",
            metavar="SIDE",
            help="With --vs computer: the side you play (default: the side that moves first).",
        ),
    ) -> None:
        """Replay a game record and say whether every move was legal and who won, or (--play) check
        moves live: '?' lists the legal moves, 'undo' takes one back, 'quit' stops."""
        variants = [v for text in (variant or []) for v in split_list(text)] if variant else None
        if play is not None:
            if record is not None:
                raise fail("give either a RECORD or --play GAME, not both", 2)
            if json_out:
                raise fail("--json applies to checking a record, not to --play", 2)
            if vs is not None and vs.lower() != "computer":
                raise fail(f"--vs takes 'computer', got {vs!r}", 2)
            if vs is None and (strength is not None or side is not None):
                raise fail("--strength and --side apply to --vs computer", 2)
            if strength is not None and not 1 <= strength <= MAX_STRENGTH:
                raise fail(f"--strength must be from 1 to {MAX_STRENGTH}, got {strength}", 2)
            from generator.files import path_problem

            if save is not None and (not save.strip() or path_problem(save)):
                raise fail(f"--save needs a file name, got {save!r}", 2)
            opponent = None if vs is None else (strength or DEFAULT_STRENGTH, side)
            raise typer.Exit(_play(play, seed, variants, save, opponent))
        if record is None:
            raise fail("give a RECORD to check (or - for standard input), or --play GAME", 2)
        if save is not None:
            raise fail("--save applies to --play", 2)
        if vs is not None or strength is not None or side is not None:
            raise fail("--vs, --strength and --side apply to --play", 2)
        raise typer.Exit(_check(record, game, seed, variants, json_out))


def _check_options(seed: str | None) -> int | None:
    """Return the command-line seed checked (a bad one is a usage error, exit 2)."""
    from generator.seeding import check_seed

    return None if seed is None else check_seed(seed)


def _read(path: str) -> str:
    """Return the record's text from a file or standard input."""
    import sys

    from generator.errors import RecordError
    from generator.files import read_regular
    from generator.referee.record import MAX_RECORD_BYTES, decode_record

    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        else:
            data = read_regular(path, MAX_RECORD_BYTES)
    except IsADirectoryError:
        raise RecordError(f"{path}: is a folder, not a game record") from None
    except ValueError:  # a NUL byte in the name
        raise RecordError(f"{path!r}: not a file name") from None
    except OSError as exc:
        if exc.errno == 0:
            raise RecordError(f"{path}: is a device or special file, not a game record") from None
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    return decode_record(data)


def _check(
    path: str, game: str | None, seed_text: str | None, variants: list[str] | None, json_out: bool
) -> int:
    """Replay a record, print the verdict, and return the exit code."""
    from generator.referee.replay import replay

    seed = _check_options(seed_text)
    if game is not None:
        from generator.games import find_rules

        rules = find_rules(game)
        if variants:
            rules.check_variants(frozenset(v.lower() for v in variants))
    verdict = replay(_read(path), game, seed, variants)
    if json_out:
        import json

        typer.echo(json.dumps(verdict.as_dict(), indent=2, sort_keys=True))
    else:
        typer.echo("\n".join(verdict_lines(verdict)))
    return verdict.exit_code


def verdict_lines(verdict: Any) -> list[str]:
    """Return the verdict in words: the first illegal move or 'all N moves legal', outcome, claim, position."""
    lines = []
    if verdict.error is not None:
        e = verdict.error
        lines.append(f"move {e.index} (line {e.line}, col {e.column}): {e.move}: {e.reason}")
        count = verdict.moves_checked
        lines.append(
            f"{count} move{'' if count == 1 else 's'} legal before it; position before move {e.index}:"
        )
    else:
        count = verdict.moves_checked
        lines.append(f"all {count} move{'' if count == 1 else 's'} legal")
        lines.append(f"outcome: {outcome_words(verdict.outcome)}")
        if verdict.claim is not None:
            c = verdict.claim
            if c.agrees:
                lines.append(f"claimed result {c.claimed}: agrees")
            else:
                lines.append(
                    f"claimed result {c.claimed} (line {c.line}, col {c.column}) is wrong: "
                    f"the referee's result is {c.actual}"
                )
        lines.append("final position:")
    lines.append(verdict.position)
    return lines


def outcome_words(outcome: Any) -> str:
    """Return an outcome in words, e.g. 'White wins (Black is down to two men)'."""
    if not outcome.finished:
        text = "the game is not finished"
    elif outcome.draw or outcome.winner is None:
        text = "draw"
    else:
        text = f"{outcome.winner[:1].upper()}{outcome.winner[1:]} wins"
    if outcome.reason:
        text += f" ({outcome.reason})"
    if outcome.score is not None:
        text += "; score " + ", ".join(f"{side} {points}" for side, points in sorted(outcome.score.items()))
    return text


#: --strength N gives the search bot 25 * 2**(N-1) playouts a move: 25 at 1, 200 at 4, 3200 at 8.
MAX_STRENGTH = 8
DEFAULT_STRENGTH = 4


def strength_playouts(strength: int) -> int:
    """Return the search bot's playouts a move for a --strength level."""
    return 25 * 2 ** (strength - 1)


def _default_seed(rules_id: str) -> int:
    """Return the seed ``pnp build`` draws a game's board from when none is given: the
    ``default_seed`` of the built-in definition that plays these rules."""
    from generator.build.plan import effective_seed
    from generator.definitions import BUILTIN_GAMES
    from generator.loader import find_definition

    names = sorted(BUILTIN_GAMES, key=lambda name: name != rules_id)  # its own definition first
    for name in names:
        definition = find_definition(name)
        if definition.rules_id == rules_id:
            seed = effective_seed(definition, None)
            if seed is not None:
                return seed
    raise fail(f"{rules_id} is played on a seeded board: give --seed N", 2)


def _play(
    game: str,
    seed_text: str | None,
    variants: list[str] | None,
    save: str | None,
    opponent: tuple[int, str | None] | None = None,
) -> int:
    """Run live play on the terminal (or a pipe); return the exit code."""
    import sys

    from generator.games import find_rules
    from generator.referee.live import play

    seed = _check_options(seed_text)
    rules = find_rules(game)
    active = rules.check_variants(frozenset(v.lower() for v in variants or []))
    if seed is not None and not rules.takes_seed():
        raise fail(f"{rules.id} has no seeded board; --seed applies to seeded games", 2)
    if rules.seeded and seed is None:
        seed = _default_seed(rules.id)
    import os

    stdout = sys.stdout if sys.stdout is not None else open(os.devnull, "w")
    stdin = sys.stdin if sys.stdin is not None else open(os.devnull)
    computer: dict[str, Any] = {}
    tags: dict[str, str] = {}
    rng = None
    if opponent is not None:
        from generator.bots import SearchBot
        from generator.seeding import Rng

        strength, person = opponent
        first = rules.new_state(seed, active).deciders()[0]  # Push!: South throws first
        person = (person or first).lower()
        if person not in rules.sides:
            raise fail(f"{rules.id} has no side {person!r} (sides: {', '.join(rules.sides)})", 2)
        bot = SearchBot(strength_playouts(strength))
        for name in rules.sides:
            if name != person:
                computer[name] = bot
        if rules.id not in ("centennial", "everest"):  # the dice games' sides are players p1, p2, ...
            for name in rules.sides:
                tags[name[:1].upper() + name[1:]] = (
                    f"computer (strength {strength})" if name in computer else "player"
                )
        rng = Rng(seed or 0, f"referee/{rules.id}/{strength}")
    result = play(
        rules, stdin, stdout, seed=seed, variants=active, save=save, tags=tags, computer=computer, rng=rng
    )
    if result.save_error is not None:
        moves = len(result.moves)
        raise fail(f"{result.save_error} (the record of the {moves} move(s) played is printed above)", 2)
    if result.signal is not None:
        return 128 + result.signal
    return 130 if result.interrupted else 0
