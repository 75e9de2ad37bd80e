"""Replay a game record against a game's rules and give a verdict.

The game comes from the record's ``Game`` tag (or the caller), the board from ``Seed``, the
variants from ``Variant`` (comma-separated); every tag is handed to ``new_state``. The replay stops
at the first move that does not parse or is not legal, and says which (1-based number, line,
column, text) and why. A claimed result (``Result`` tag or final result token) is compared with the
referee's own verdict. When two play, ``1-0`` and ``0-1`` claim a win for the first or the second
side (P1 or P2 in the games of numbered players); ``[Result "P3"]`` names any winner, whatever the
number of players.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from generator.foundation.errors import BoardError, PnpError, RecordError, UsageError
from generator.foundation.languages import Msg, counted, reason_of
from generator.foundation.seeding import check_seed
from generator.games import find_rules
from generator.games.base import GameRules, Outcome, State
from generator.referee.record import RESULTS, Record, Tag, Token, parse_record, parse_tags


@dataclass(frozen=True)
class MoveError:
    """The first illegal move: its number in the record, where it is written, its text and why."""

    index: int
    line: int
    column: int
    move: str
    reason: str

    def as_dict(self) -> dict[str, Any]:
        """Return the error as the JSON object the referee prints."""
        return {
            "index": self.index,
            "line": self.line,
            "column": self.column,
            "move": self.move,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Claim:
    """A claimed result as written, the referee's own result, and whether they agree."""

    claimed: str
    actual: str
    agrees: bool
    line: int
    column: int

    def as_dict(self) -> dict[str, Any]:
        """Return the claim as a JSON object."""
        return {
            "claimed": self.claimed,
            "actual": self.actual,
            "agrees": self.agrees,
            "line": self.line,
            "column": self.column,
        }


@dataclass(frozen=True)
class Verdict:
    """The referee's verdict on a record."""

    game: str
    legal: bool
    moves_checked: int
    error: MoveError | None
    outcome: Outcome
    position: str
    claim: Claim | None = None
    variants: tuple[str, ...] = ()
    seed: int | None = None

    @property
    def ok(self) -> bool:
        """Return True when every move is legal and any claimed result agrees."""
        return self.legal and (self.claim is None or self.claim.agrees)

    @property
    def exit_code(self) -> int:
        """Return 0 when the record is sound, 4 for an illegal move or a wrong claimed result."""
        return 0 if self.ok else 4

    def as_dict(self) -> dict[str, Any]:
        """Return the verdict as the JSON object ``pnp referee --json`` prints.

        ``moves_checked`` counts the moves found legal (and played) before the replay stopped."""
        return {
            "game": self.game,
            "legal": self.legal,
            "moves_checked": self.moves_checked,
            "error": self.error.as_dict() if self.error else None,
            "outcome": self.outcome.as_dict(),
            "position": self.position,
            "claim": self.claim.as_dict() if self.claim else None,
            "ok": self.ok,
            "variants": list(self.variants),
            "seed": self.seed,
        }


def _sides(rules: GameRules, sides: Sequence[str] | None) -> tuple[str, ...]:
    """Return the sides taking part: those given (a state's ``playing_sides``), else the rules'."""
    return tuple(sides) if sides else tuple(rules.sides)


def _label(side: str) -> str:
    """Return a side as a record writes it: a numbered player in capitals (P3), a side as named."""
    return side.upper() if _NUMBERED.fullmatch(side) else side


_NUMBERED = re.compile(r"p[0-9]+")


def result_str(rules: GameRules, outcome: Outcome, sides: Sequence[str] | None = None) -> str:
    """Return the result as written in a record: 1-0, 0-1, 1/2-1/2 or * when two play (numbered
    players too: 1-0 is a win for P1), the winner's name (P3) or 'draw' when three or more play.

    ``sides`` are the sides taking part (a state's ``playing_sides()``), default the rules' sides."""
    playing = _sides(rules, sides)
    if not outcome.finished:
        return "*"
    if outcome.draw or outcome.winner is None:
        return "1/2-1/2" if len(playing) == 2 else "draw"
    if len(playing) == 2:
        return "1-0" if outcome.winner == playing[0] else "0-1"
    return _label(outcome.winner)


def _claimed_winner(
    rules: GameRules, text: str, where: Tag | Token, sides: Sequence[str] | None = None
) -> str:
    """Return what a claim means: a side name, 'draw', or '*' for no claim; raise RecordError if meaningless.

    With two sides taking part (numbered players included), 1-0 and 0-1 name the first and the
    second; a side's name (``P3``) names any winner among those taking part."""
    playing = _sides(rules, sides)
    value = text.strip()
    lowered = value.lower()
    if value == "*":
        return "*"
    if value == "1/2-1/2" or lowered == "draw":
        return "draw"
    if value in ("1-0", "0-1"):
        if len(playing) != 2:
            first = _label(playing[0])
            raise RecordError(
                Msg("record.result.two", value=value, players=counted(len(playing), "player"), first=first),
                where.line,
                where.column,
            )
        return playing[0] if value == "1-0" else playing[1]
    if lowered in playing:
        return lowered
    if lowered in rules.sides:
        raise RecordError(
            Msg(
                "record.result.absent",
                value=value,
                n=len(playing),
                sides=", ".join(_label(side) for side in playing),
            ),
            where.line,
            where.column,
        )
    known = ", ".join([*RESULTS, "draw", *(_label(side) for side in playing)])
    raise RecordError(Msg("record.result.unknown", value=repr(value), known=known), where.line, where.column)


def _read_claim(
    rules: GameRules, record: Record, sides: Sequence[str] | None = None
) -> tuple[str, str, Tag | Token] | None:
    """Return the claim (as written, its meaning, where) or None; raise RecordError if it is not a result."""
    tag = record.tag("Result")
    token = record.result
    claims = [(c.value if isinstance(c, Tag) else c.text, c) for c in (tag, token) if c is not None]
    if not claims:
        return None
    meanings = [_claimed_winner(rules, text, where, sides) for text, where in claims]
    if len(meanings) == 2 and meanings[0] != meanings[1]:
        raise RecordError(
            Msg("record.result.differ", tag=claims[0][0], token=claims[1][0]),
            claims[1][1].line,
            claims[1][1].column,
        )
    return claims[-1][0], meanings[-1], claims[-1][1]


def _compare_claim(
    rules: GameRules,
    claim: tuple[str, str, Tag | Token],
    outcome: Outcome,
    sides: Sequence[str] | None = None,
) -> Claim:
    """Return the claim compared with the referee's outcome."""
    text, meaning, where = claim
    if meaning == "*":
        agrees = True
    elif meaning == "draw":
        agrees = outcome.finished and outcome.draw
    else:
        agrees = outcome.finished and outcome.winner == meaning
    return Claim(text, result_str(rules, outcome, sides), agrees, where.line, where.column)


def _variants_of(tag: Tag | None) -> frozenset[str]:
    if tag is None:
        return frozenset()
    return frozenset(v.strip().lower() for v in tag.value.split(",") if v.strip())


def setup(
    record_text: str, game: str | None = None, seed: int | None = None, variants: Iterable[str] | None = None
) -> tuple[GameRules, Record, State, frozenset[str], int | None]:
    """Return the rules, parsed record, initial state, variants and seed for a record (options fill gaps)."""
    header = parse_tags(record_text)
    game_tag = header.tag("Game")
    tag_game = game_tag.value.strip().lower() if game_tag is not None else None
    if game is not None and game_tag is not None and game != tag_game:
        raise RecordError(
            Msg("record.game.differ", tag=repr(game_tag.value), game=repr(game)),
            game_tag.line,
            game_tag.column,
        )
    game_id = game if game is not None else tag_game
    if not game_id:
        raise RecordError(Msg("record.game.none"))
    rules = find_rules(game_id)
    record = parse_record(record_text, move_per_line=rules.move_per_line)

    variant_tag = record.tag("Variant")
    chosen = frozenset(v.strip().lower() for v in variants) if variants is not None else None
    from_tag = _variants_of(variant_tag)
    if chosen is not None and variant_tag is not None and chosen != from_tag:
        raise RecordError(
            Msg("record.variant.differ", tag=repr(variant_tag.value), chosen=repr(",".join(sorted(chosen)))),
            variant_tag.line,
            variant_tag.column,
        )
    active = chosen if chosen is not None else from_tag
    try:
        rules.check_variants(active)
    except BoardError as exc:
        if variant_tag is not None and chosen is None:
            raise RecordError(reason_of(exc), variant_tag.line, variant_tag.column) from None
        raise

    seed_tag = record.tag("Seed")
    board_seed = seed
    if seed_tag is not None:
        try:
            tag_seed = check_seed(seed_tag.value.strip())
        except BoardError as exc:
            raise RecordError(reason_of(exc), seed_tag.line, seed_tag.column) from None
        if seed is not None and seed != tag_seed:
            raise RecordError(
                Msg("record.seed.differ", tag=tag_seed, seed=seed),
                seed_tag.line,
                seed_tag.column,
            )
        board_seed = tag_seed
    if board_seed is not None and not rules.takes_seed():
        if seed_tag is None:
            raise UsageError(f"{rules.id} has no seeded board; --seed applies to seeded games")
        raise RecordError(Msg("record.seed.unseeded", game=rules.id), seed_tag.line, seed_tag.column)
    if rules.seeded and board_seed is None:
        raise RecordError(Msg("record.seed.needed", game=rules.id))

    try:
        state = rules.new_state(board_seed, active, record.tag_values())
    except RecordError:
        raise
    except PnpError as exc:
        raise RecordError(Msg("record.setup", problem=reason_of(exc))) from None
    return rules, record, state, active, board_seed


def replay(
    record_text: str, game: str | None = None, seed: int | None = None, variants: Iterable[str] | None = None
) -> Verdict:
    """Return the verdict on a record: legal or the first illegal move, the outcome, the claim checked."""
    rules, record, state, active, board_seed = setup(record_text, game, seed, variants)
    return replay_moves(rules, record, state, active, board_seed)


def replay_moves(
    rules: GameRules, record: Record, state: State, variants: Iterable[str] = (), seed: int | None = None
) -> Verdict:
    """Return the verdict after playing the record's moves on ``state`` (which is changed)."""
    sides = state.playing_sides()
    claimed = _read_claim(rules, record, sides)
    checked = 0
    error: MoveError | None = None
    for index, token in enumerate(record.moves, 1):
        try:
            if state.is_terminal():
                reason = state.outcome().reason
                raise RecordError(
                    Msg("game.any.already_over", reason=reason) if reason else Msg("game.any.over")
                )
            move = state.parse_move(token.text)
            state.check_move(move)
        except PnpError as exc:
            reason = exc.reason if isinstance(exc, RecordError) else reason_of(exc)
            error = MoveError(index, token.line, token.column, token.text, reason)
            break
        state.apply_move(move)
        checked += 1
    outcome = state.outcome()
    claim = _compare_claim(rules, claimed, outcome, sides) if claimed is not None and error is None else None
    return Verdict(
        rules.id, error is None, checked, error, outcome, state.text(), claim, tuple(sorted(variants)), seed
    )
