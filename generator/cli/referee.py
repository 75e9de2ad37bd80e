"""``pnp referee``: check a game record, or referee a game live at the table.

Exit codes: 0 every move legal (and any claimed result agrees), 4 an illegal move or a wrong claimed
result, 3 an unreadable record or unknown game, 2 a usage error, 130 interrupted live play.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import typer

from generator.cli.common import fail, handle_errors, split_list, whole_number
from generator.foundation.languages import language_codes, spaced


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
            parser=whole_number,
            metavar="N",
            help=f"With --vs computer: how hard the computer thinks, 1 to {MAX_STRENGTH} (default {DEFAULT_STRENGTH}).",
        ),
        lang: str = typer.Option(
            "en",
            "--lang",
            metavar="LANG",
            help=f"Language of the referee's messages and prompts: {language_codes()}.",
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
        from generator.foundation.languages import LANGUAGES

        if lang not in LANGUAGES:
            raise fail(f"unknown language {lang!r} (languages: {language_codes()})", 2)
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
            from generator.foundation.files import path_problem

            if save is not None and (not save.strip() or path_problem(save)):
                raise fail(f"--save needs a file name, got {save!r}", 2)
            opponent = None if vs is None else (strength or DEFAULT_STRENGTH, side)
            with _in_language(lang):
                code = _play(play, seed, variants, save, opponent, lang)
            raise typer.Exit(code)
        if record is None:
            raise fail("give a RECORD to check (or - for standard input), or --play GAME", 2)
        if save is not None:
            raise fail("--save applies to --play", 2)
        if vs is not None or strength is not None or side is not None:
            raise fail("--vs, --strength and --side apply to --play", 2)
        with _in_language(lang):
            code = _check(record, game, seed, variants, json_out, lang)
        raise typer.Exit(code)


@contextlib.contextmanager
def _in_language(lang: str) -> Iterator[None]:
    """Say an error the rules or the record reader raised as a catalogue message (a record's
    tags, players, seed, result lines; an unknown game) in the referee's language: one line on
    stderr, the error's exit code; English and errors in plain words go on to ``handle_errors``."""
    from generator.foundation.errors import PnpError, RecordError
    from generator.foundation.languages import Msg, message, reason_of, render

    try:
        yield
    except PnpError as exc:
        reason = exc.reason if isinstance(exc, RecordError) else reason_of(exc)
        if lang == "en" or not isinstance(reason, Msg):
            raise
        said = render(reason, lang)
        if isinstance(exc, RecordError) and exc.line is not None:
            said = message("record.where", lang, line=exc.line, column=exc.column, problem=said)
        typer.echo(message("record.error", lang, problem=said), err=True)
        raise typer.Exit(exc.exit_code) from None


def _check_options(seed: str | None) -> int | None:
    """Return the command-line seed checked (a bad one is a usage error, exit 2)."""
    from generator.foundation.seeding import check_seed

    return None if seed is None else check_seed(seed)


def _read(path: str) -> str:
    """Return the record's text from a file or standard input."""
    import sys

    from generator.foundation.errors import RecordError
    from generator.foundation.files import read_regular
    from generator.foundation.languages import Msg
    from generator.referee.record import MAX_RECORD_BYTES, decode_record

    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        else:
            data = read_regular(path, MAX_RECORD_BYTES)
    except IsADirectoryError:
        raise RecordError(Msg("record.folder", path=path)) from None
    except ValueError:  # a NUL byte in the name
        raise RecordError(Msg("record.not_name", path=repr(path))) from None
    except OSError as exc:
        if exc.errno == 0:
            raise RecordError(Msg("record.device", path=path)) from None
        raise RecordError(Msg("record.unreadable", path=path, problem=exc.strerror or exc)) from None
    return decode_record(data)


def _check(
    path: str,
    game: str | None,
    seed_text: str | None,
    variants: list[str] | None,
    json_out: bool,
    lang: str = "en",
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
        typer.echo("\n".join(verdict_lines(verdict, lang)))
    return verdict.exit_code


def verdict_lines(verdict: Any, lang: str = "en") -> list[str]:
    """Return the verdict in words in a language: the first illegal move or 'all N moves legal',
    outcome, claim, position (the catalogue's ``referee.*`` texts; a missing one is an error)."""
    from generator.foundation.languages import count_text, message, render

    def t(key: str, **values: Any) -> str:
        return message(f"referee.{key}", lang, **values)

    count = verdict.moves_checked
    lines = []
    if verdict.error is not None:
        e = verdict.error
        lines.append(
            t(
                "illegal",
                index=e.index,
                line=e.line,
                column=e.column,
                move=e.move,
                reason=render(e.reason, lang),
            )
        )
        lines.append(count_text("referee.before", count, lang, index=e.index))
    else:
        lines.append(count_text("referee.all", count, lang))
        lines.append(t("outcome", outcome=outcome_words(verdict.outcome, lang)))
        if verdict.claim is not None:
            c = verdict.claim
            if c.agrees:
                lines.append(t("claim.agrees", claimed=c.claimed))
            else:
                lines.append(
                    t("claim.wrong", claimed=c.claimed, line=c.line, column=c.column, actual=c.actual)
                )
        lines.append(t("final"))
    lines.append(render(verdict.position, lang))
    return lines


def outcome_words(outcome: Any, lang: str = "en") -> str:
    """Return an outcome in words in a language, e.g. 'White wins (Black is down to two men)'."""
    from generator.foundation.languages import message, render, side_name

    if not outcome.finished:
        words = message("referee.unfinished", lang)
    elif outcome.draw or outcome.winner is None:
        words = message("referee.draw", lang)
    else:
        words = message("referee.wins", lang, side=side_name(outcome.winner, lang))
    if outcome.reason:
        words += f" ({render(outcome.reason, lang)})"
    if outcome.score is not None:
        points = ", ".join(f"{side_name(side, lang)} {n}" for side, n in sorted(outcome.score.items()))
        words += spaced("; ", lang) + message("referee.score", lang, points=points)
    return words


#: --strength N gives the search bot 25 * 2**(N-1) playouts a move: 25 at 1, 200 at 4, 3200 at 8.
MAX_STRENGTH = 8
DEFAULT_STRENGTH = 4


def strength_playouts(strength: int) -> int:
    """Return the search bot's playouts a move for a --strength level."""
    return 25 * 2 ** (strength - 1)


def _default_seed(rules_id: str) -> int:
    """Return the seed ``pnp build`` draws a game's board from when none is given: the
    ``default_seed`` of the built-in definition that plays these rules."""
    from generator.definitions.loader import find_definition
    from generator.definitions.values import BUILTIN_GAMES
    from generator.kits.plan import effective_seed

    names = sorted(BUILTIN_GAMES, key=lambda name: name != rules_id)  # its own definition first
    for name in names:
        definition = find_definition(name)
        if definition.rules_id == rules_id:
            seed = effective_seed(definition, None)
            if seed is not None:
                return seed
    raise fail(f"{rules_id} is played on a seeded board: give --seed N", 2)


def _title(rules_id: str, lang: str) -> str | None:
    """Return the title a game's built-in definition gives it in a language (None: the rules')."""
    from generator.definitions.loader import find_definition
    from generator.definitions.values import BUILTIN_GAMES

    if rules_id not in BUILTIN_GAMES or lang == "en":
        return None
    definition = find_definition(rules_id, lang=lang)
    return str(definition.title)


def _play(
    game: str,
    seed_text: str | None,
    variants: list[str] | None,
    save: str | None,
    opponent: tuple[int, str | None] | None = None,
    lang: str = "en",
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
        from generator.foundation.seeding import Rng

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
        rules,
        stdin,
        stdout,
        seed=seed,
        variants=active,
        save=save,
        tags=tags,
        computer=computer,
        rng=rng,
        lang=lang,
        title=_title(rules.id, lang),
    )
    if result.save_error is not None:
        from generator.foundation.languages import count_text, message, render

        said = count_text(
            "live.save_failed", len(result.moves), lang, problem=render(result.save_error, lang)
        )
        if lang == "en":
            raise fail(said, 2)
        typer.echo(message("record.error", lang, problem=said), err=True)
        raise typer.Exit(2)
    if result.signal is not None:
        return 128 + result.signal
    return 130 if result.interrupted else 0
