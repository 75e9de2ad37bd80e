"""Verbal: a two-player number game played by speaking (no dice, no board).

Six rounds: A offers in rounds 1, 3, 5 and B in rounds 2, 4, 6. The offerer names two different
numbers from 1 to 6; the other player takes one and the offerer keeps the other. After six rounds
the player named by the ``Reverses`` tag (default B) reverses their six numbers, and the two rows
are compared position by position: at positions 1, 3, 5 the higher number scores, at 2, 4, 6 the
lower; in the ``odds-evens`` variant odd beats even at 1, 3, 5 and even beats odd at 2, 4, 6.

Notation: a round is ``2/5:5`` (offered 2 and 5; the taker took 5). One round is one move of the
record, made by two players: ``deciders`` and ``move_parts`` split it into the offer and the take,
so that a computer player chooses only its own part.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.foundation.errors import BoardError, IllegalMoveError, NotationError, RecordError
from generator.foundation.languages import Msg, counted, side_msg
from generator.games.base import GameRules, Outcome, State, turn_limit

#: what the turn limit counts (the rules' ``turn_unit``; the kit's texts name it from there)
TURN_UNIT = "round"

ROUNDS = 6
LOW, HIGH = 1, 6
SIDES = ("a", "b")
ODDS_EVENS = "odds-evens"

_ROUND = re.compile(r"^\s*([0-9]{1,9})\s*/\s*([0-9]{1,9})\s*:\s*([0-9]{1,9})\s*$")
_OFFER = re.compile(r"^\s*([0-9]{1,9})\s*/\s*([0-9]{1,9})\s*$")
_TAKE = re.compile(r"^\s*([0-9]{1,9})\s*$")


@dataclass(frozen=True)
class Round:
    """One round: the two numbers offered and the one the other player took."""

    offer: tuple[int, int]
    take: int


def offerer(round_number: int) -> str:
    """Return the side that offers in a round (1-based): 'a' in odd rounds, 'b' in even ones."""
    return SIDES[(round_number - 1) % 2]


def point_at(position: int, a: int, b: int, odds_evens: bool = False) -> str | None:
    """Return the side that scores at a position (1-based) with numbers a and b, or None."""
    high_wins = position % 2 == 1
    if odds_evens:
        if a % 2 == b % 2:
            return None
        a_odd = a % 2 == 1
        return "a" if a_odd == high_wins else "b"
    if a == b:
        return None
    return "a" if (a > b) == high_wins else "b"


def compare(a_numbers: Sequence[int], b_numbers: Sequence[int], odds_evens: bool = False) -> list[str | None]:
    """Return, for each position, the side that scores (None: no point), rows already reversed."""
    return [point_at(i + 1, a, b, odds_evens) for i, (a, b) in enumerate(zip(a_numbers, b_numbers))]


def reverser_from_tags(tags: Mapping[str, str] | None) -> str:
    """Return the side that reverses its numbers (the ``Reverses`` tag, default B)."""
    if not tags or "Reverses" not in tags:
        return "b"
    value = str(tags["Reverses"]).strip().lower()
    if value not in SIDES:
        raise RecordError(f"Reverses must be A or B, got {tags['Reverses']!r}")
    return value


class VerbalState(State[Round]):
    """A Verbal game: the rounds played so far and each player's numbers."""

    def __init__(self, reverser: str, odds_evens: bool, limit: int) -> None:
        super().__init__(limit)
        self.reverser = reverser
        self.odds_evens = odds_evens
        self.numbers: dict[str, list[int]] = {"a": [], "b": []}

    def current_player(self) -> str:
        """Return the side that offers in the next round."""
        return offerer(self.ply + 1)

    def legal_moves(self) -> list[Round]:
        """Return every offer (smaller number first) with each of its two takes."""
        if self.is_terminal():
            return []
        return list(_ALL_ROUNDS)

    def deciders(self) -> tuple[str, ...]:
        """Return who chooses the next round's parts: the offerer (the offer), then the other
        player (which number to take)."""
        giver = offerer(self.ply + 1)
        return (giver, "b" if giver == "a" else "a")

    def move_parts(self, move: Round) -> tuple[tuple[int, int], int]:
        """Return a round as the offerer's choice (the two numbers) and the taker's (the one taken)."""
        return (move.offer, move.take)

    def part_names(self) -> tuple[str, ...]:
        """Return what the two players do in a round: offer, then take."""
        return ("offer", "take")

    def part_str(self, move: Round, stage: int) -> str:
        """Return the offerer's part of a round (``2/5``) or the taker's (``5``)."""
        return f"{move.offer[0]}/{move.offer[1]}" if stage == 0 else str(move.take)

    def parse_part(self, text: str, stage: int, among: Sequence[Round] | None = None) -> list[Round]:
        """Return the rounds of ``among`` (None: every round) with the offer written (``2/5``,
        stage 0) or, once the offer is made, the number taken (``5``, stage 1)."""
        if self.is_terminal():
            raise IllegalMoveError(Msg("game.verbal.over", rounds=ROUNDS))
        pool = list(_ALL_ROUNDS) if among is None else list(among)
        if stage == 0:
            match = _OFFER.match(text)
            if not match:
                raise NotationError(Msg("game.verbal.not_offer", text=repr(text.strip())))
            first, second = (int(g) for g in match.groups())
            for value in (first, second):
                if not LOW <= value <= HIGH:
                    raise NotationError(Msg("game.verbal.range", value=value, low=LOW, high=HIGH))
            if first == second:
                raise IllegalMoveError(Msg("game.verbal.same", first=first, second=second))
            offer = (min(first, second), max(first, second))
            return [r for r in pool if r.offer == offer]
        offers = sorted({n for r in pool for n in r.offer})
        match = _TAKE.match(text)
        if not match:
            raise NotationError(Msg("game.verbal.not_take", text=repr(text.strip()), offers=_either(offers)))
        take = int(match.group(1))
        if take not in offers:
            raise IllegalMoveError(Msg("game.verbal.not_offered", take=take, offers=_either(offers)))
        return [r for r in pool if r.take == take]

    def parse_move(self, text: str) -> Round:
        """Return the round written as text, e.g. '2/5:5'; raise NotationError otherwise.

        The offer is the smaller number first, as ``legal_moves`` lists it: '5/2:5' is the same round."""
        match = _ROUND.match(text)
        if not match:
            raise NotationError(Msg("game.verbal.not_round", text=repr(text.strip())))
        first, second, take = (int(g) for g in match.groups())
        for value in (first, second, take):
            if not LOW <= value <= HIGH:
                raise NotationError(Msg("game.verbal.range", value=value, low=LOW, high=HIGH))
        return Round((min(first, second), max(first, second)), take)

    def move_str(self, move: Round) -> str:
        """Return the round in notation, e.g. '2/5:5'."""
        return f"{move.offer[0]}/{move.offer[1]}:{move.take}"

    def check_move(self, move: Round) -> None:
        """Raise IllegalMoveError, in a player's words, unless the round is legal now."""
        if self.is_terminal():
            raise IllegalMoveError(Msg("game.verbal.over", rounds=ROUNDS))
        first, second = move.offer
        for value in (first, second, move.take):
            if not LOW <= value <= HIGH:
                raise IllegalMoveError(Msg("game.verbal.range", value=value, low=LOW, high=HIGH))
        if first == second:
            raise IllegalMoveError(Msg("game.verbal.same", first=first, second=second))
        if move.take not in move.offer:
            raise IllegalMoveError(
                Msg("game.verbal.not_offered", take=move.take, offers=_either([first, second]))
            )

    def _apply(self, move: Round) -> None:
        """Give the taken number to the taker and the other one to the offerer (``ply`` counts the round)."""
        giver = offerer(self.ply)
        taker = "b" if giver == "a" else "a"
        kept = move.offer[1] if move.take == move.offer[0] else move.offer[0]
        self.numbers[taker].append(move.take)
        self.numbers[giver].append(kept)

    def is_terminal(self) -> bool:
        """Return True after six rounds (or at a turn limit below six)."""
        return self.ply >= min(ROUNDS, self.limit)

    def rows(self) -> dict[str, list[int]]:
        """Return both players' numbers as compared: the reverser's row reversed once all are known."""
        rows = {side: list(values) for side, values in self.numbers.items()}
        if self.ply >= ROUNDS:
            rows[self.reverser].reverse()
        return rows

    def outcome(self) -> Outcome:
        """Return the outcome; the score is the points of A and B after the comparison."""
        if self.ply < ROUNDS:
            if self.ply >= self.limit:
                return Outcome(
                    True,
                    None,
                    True,
                    {"a": 0, "b": 0},
                    Msg("game.verbal.limit", limit=counted(self.limit, TURN_UNIT)),
                )
            return Outcome(False, None, False, {"a": 0, "b": 0})
        rows = self.rows()
        points = compare(rows["a"], rows["b"], self.odds_evens)
        score = {side: points.count(side) for side in SIDES}
        if score["a"] == score["b"]:
            return Outcome(
                True, None, True, score, Msg("game.verbal.each", points=counted(score["a"], "point"))
            )
        winner = "a" if score["a"] > score["b"] else "b"
        loser = "b" if winner == "a" else "a"
        return Outcome(
            True,
            winner,
            False,
            score,
            Msg(
                "game.verbal.wins",
                side=side_msg(winner),
                points=counted(score[winner], "point"),
                other=score[loser],
            ),
        )

    def text(self) -> str:
        """Return the rows of numbers and, once complete, the comparison, as text."""
        game = Msg("game.verbal.odds_evens" if self.odds_evens else "game.verbal.standard")
        round_now = min(self.ply + 1, ROUNDS)
        reverser = side_msg(self.reverser)
        lines = [Msg("game.verbal.status", game=game, round=round_now, rounds=ROUNDS, side=reverser)]
        lines.append(
            Msg("game.verbal.row", side=side_msg("a"), numbers=" ".join(str(n) for n in self.numbers["a"]))
        )
        lines.append(
            Msg("game.verbal.row", side=side_msg("b"), numbers=" ".join(str(n) for n in self.numbers["b"]))
        )
        if self.ply >= ROUNDS:
            rows = self.rows()
            numbers = " ".join(str(n) for n in rows[self.reverser])
            lines.append(Msg("game.verbal.reversed", side=reverser, numbers=numbers))
            marks = compare(rows["a"], rows["b"], self.odds_evens)
            lines.append(Msg("game.verbal.points", marks=" ".join((m or "-").upper() for m in marks)))
        return Msg.joined("\n", lines)


def _either(numbers: Sequence[int]) -> Msg:
    """Return numbers as a choice between them: '2 or 5' ('2 ou 5', '2 o 5')."""
    *rest, last = numbers
    if not rest:
        return Msg("game.verbal.one", n=last)
    return Msg("game.verbal.either", some=_either(rest), last=last)


#: The worked example of the traditional rules: A ends with 1 4 2 6 3 4, B with 2 3 5 1 6 3.
EXAMPLE = ("1/2:2", "3/4:4", "2/5:5", "1/6:6", "3/6:6", "3/4:4")

_ALL_ROUNDS = tuple(
    Round((x, y), take) for x in range(LOW, HIGH + 1) for y in range(x + 1, HIGH + 1) for take in (x, y)
)


@dataclass(frozen=True)
class VerbalRules(GameRules):
    """Verbal for two players, A and B (tag ``Reverses``: A or B, default B)."""

    def new_state(
        self,
        seed: int | None = None,
        variants: frozenset[str] = frozenset(),
        tags: Mapping[str, str] | None = None,
    ) -> VerbalState:
        """Return the start: no numbers yet, A to offer."""
        self.check_variants(variants)
        return VerbalState(
            reverser_from_tags(tags), ODDS_EVENS in variants, turn_limit(tags, self.default_turn_limit)
        )

    def layout_data(
        self, name: str, seed: int | None = None, variants: frozenset[str] = frozenset()
    ) -> dict[str, Any]:
        """Return the worked example ('example'): rounds, rows, points and scores in both games.

        Computed by playing the example's rounds through the rules, so the booklet's table and the
        referee always agree."""
        if name != "example":
            raise BoardError(f"verbal provides no layout data {name!r} (known: example)")
        result: dict[str, Any] = {"moves": list(EXAMPLE)}
        for key, game in (("standard", frozenset()), ("odds_evens", frozenset({ODDS_EVENS}))):
            state = self.new_state(variants=game)
            for move in EXAMPLE:
                state.play(move)
            rows = state.rows()
            marks = compare(rows["a"], rows["b"], ODDS_EVENS in game)
            outcome = state.outcome()
            result["a"] = list(state.numbers["a"])
            result["b"] = list(state.numbers["b"])
            result["reversed"] = rows["b"]
            result[key] = {
                "points": [(m or "-").upper() for m in marks],
                "score": dict(outcome.score or {}),
                "winner": (outcome.winner or "").upper(),
            }
        return result

    def template_values(self) -> dict[str, Any]:
        """Return the rounds, number range and default reverser for the rule booklet."""
        return {
            "rounds": ROUNDS,
            "low": LOW,
            "high": HIGH,
            "players": len(SIDES),
            "default_reverses": "B",
            "offers_a": [r for r in range(1, ROUNDS + 1) if offerer(r) == "a"],
            "offers_b": [r for r in range(1, ROUNDS + 1) if offerer(r) == "b"],
            "variants": [ODDS_EVENS],
        }


RULES = VerbalRules(
    turn_unit=TURN_UNIT,
    id="verbal",
    title="Verbal",
    sides=SIDES,
    variants=(ODDS_EVENS,),
    extra_tags=("Reverses",),
)
