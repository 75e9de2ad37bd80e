"""Live play at the table: prompt the side to move, check each move, keep the record.

Reads one line at a time from an input stream (a terminal or a pipe) and writes to an output
stream. ``?`` lists the legal moves, ``undo`` takes back the last move, ``quit`` or the end of the
input stops; Ctrl-C stops too. The record is written (atomically) when a path is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from generator.errors import IllegalMoveError, NotationError
from generator.files import atomic_write_text
from generator.games.base import GameRules, Outcome, State
from generator.referee.record import record_str
from generator.referee.replay import result_str

MAX_LISTED = 300
HELP = "type a move, ? for the legal moves, undo to take back the last move, quit to stop"


@dataclass
class LiveGame:
    """What happened at the table: the moves played, how the game stands, whether it was interrupted."""

    rules: GameRules
    tags: dict[str, str]
    moves: list[str] = field(default_factory=list)
    outcome: Outcome = field(default_factory=lambda: Outcome(False))
    interrupted: bool = False
    saved: str | None = None

    def record(self) -> str:
        """Return the game record as text (tags, moves, result)."""
        tags = dict(self.tags)
        result = result_str(self.rules, self.outcome)
        tags["Result"] = result
        return record_str(tags, self.moves, result, self.rules.move_per_line, len(self.rules.sides))


def _side_word(side: str) -> str:
    return side[:1].upper() + side[1:]


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _legal_list(state: State) -> str:
    names = sorted(state.move_str(m) for m in state.legal_moves())
    shown = names[:MAX_LISTED]
    more = f" ... and {len(names) - len(shown)} more" if len(names) > len(shown) else ""
    return f"{len(names)} legal moves: " + " ".join(shown) + more


def play(
    rules: GameRules,
    stdin: TextIO,
    stdout: TextIO,
    seed: int | None = None,
    variants: frozenset[str] = frozenset(),
    tags: Mapping[str, str] | None = None,
    save: str | None = None,
    echo: bool | None = None,
) -> LiveGame:
    """Run a game at the table over the given streams; return what was played (saved to ``save`` if given).

    ``echo`` repeats each input line after its prompt (default: when the input is not a terminal)."""
    header: dict[str, Any] = {"Game": rules.id}
    if variants:
        header["Variant"] = ",".join(sorted(variants))
    if seed is not None:
        header["Seed"] = str(seed)
    header.update(tags or {})
    game = LiveGame(rules, header)
    state = rules.new_state(seed, frozenset(variants), header)
    history: list[State] = []
    if echo is None:
        echo = not _is_terminal(stdin)

    def say(text: str) -> None:
        stdout.write(text + "\n")
        stdout.flush()

    say(f"{rules.title}: {HELP}")
    say(state.text())
    try:
        while not state.is_terminal():
            stdout.write(f"{_side_word(state.current_player())} to move: ")
            stdout.flush()
            line = stdin.readline()
            if not line:
                say("")
                break
            text = line.strip()
            if echo:
                say(text)
            command = text.lower()
            if not text:
                continue
            if command == "?":
                say(_legal_list(state))
            elif command in ("help", "h"):
                say(HELP)
            elif command == "undo":
                if not history:
                    say("nothing to take back")
                    continue
                state = history.pop()
                say(f"took back {game.moves.pop()}")
                say(state.text())
            elif command in ("quit", "exit"):
                break
            else:
                try:
                    move = state.parse_move(text)
                    state.check_move(move)
                except (NotationError, IllegalMoveError) as exc:
                    say(f"illegal: {exc}")
                    continue
                history.append(state.copy())
                written = state.move_str(move)
                state.apply_move(move)
                game.moves.append(written)
                say(state.text())
    except KeyboardInterrupt:
        game.interrupted = True
        say("")
        say("interrupted")
    game.outcome = state.outcome()
    if game.outcome.finished:
        winner = game.outcome.winner
        verdict = "draw" if winner is None else f"{_side_word(winner)} wins"
        say(f"game over: {verdict}" + (f" ({game.outcome.reason})" if game.outcome.reason else ""))
    else:
        count = len(game.moves)
        say(f"game stopped after {count} move{'' if count == 1 else 's'}, unfinished")
    if save:
        atomic_write_text(save, game.record())
        game.saved = save
        say(f"record saved to {save}")
    return game
