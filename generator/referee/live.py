"""Live play at the table: prompt the side to move, check each move, keep the record.

Reads one line at a time from an input stream (a terminal or a pipe) and writes to an output
stream. A move that holds two players' choices is typed part by part, each player typing their own
(Verbal: the offerer ``4/5``, the taker ``4``; Push!: the thrower's placement, then the pusher's
push), and the table is shown after each part that changes it. ``?`` lists what the player can
play now (short: Push!'s placements by die, then the pushes), ``undo`` takes back the last move, ``quit`` or the end of the
input stops; Ctrl-C, SIGTERM and SIGHUP (the terminal closed) stop too. Sides given to a bot
(``computer``) are played by it: its moves are announced in the notation and recorded like any
other, and ``undo`` takes back the player's last move together with the bot's replies. Undo takes
back moves, never throws: the dice the computer threw for a move of the game (the n-th) stand, and
when play comes back to that move the computer chooses again with the same dice; taking back your
own part of a move keeps the parts the computer made before it (Push!: its throw and placement).

A game is never lost: the save target is checked before the first move (a regular file or a new
one, writable), every move is appended to it as it is played (flushed and synced to disk), and the
finished record replaces it at the end. A move that cannot be saved (a full disk, EIO, no
permission) is reported at once; play goes on with the record kept in memory, ``save PATH`` at the
prompt moves it to another file, and when no file can hold it at the end the whole record is
printed. A line that is not UTF-8 is refused with a message and the
game goes on; output that can no longer be written (a closed terminal) is dropped, not fatal.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, BinaryIO, TextIO

from generator.bots import Bot, choose_move
from generator.foundation.errors import IllegalMoveError, NotationError, OutputError
from generator.foundation.files import atomic_write_text, path_problem
from generator.foundation.languages import (
    Msg,
    count_text,
    part_name,
    reason_of,
    render,
    side_name,
    unit_count,
)
from generator.foundation.languages import message as catalogue_text
from generator.games.base import GameRules, Outcome, State
from generator.referee.record import move_pieces, record_str
from generator.referee.replay import result_str
from generator.workers.parallel import after_stop

MAX_LISTED = 300
MAX_LINE = 10_000  # characters of one input line; longer lines are refused
#: Characters of one overlong line skipped at most (input such as /dev/zero never ends its line),
#: and unreadable lines in a row at most (such as /dev/urandom): beyond either the input has ended.
MAX_SKIPPED = 1_000_000
MAX_UNREADABLE = 10
HELP = catalogue_text("live.help", "en")


@dataclass
class LiveGame:
    """What happened at the table: the moves played, how the game stands, whether it was interrupted."""

    rules: GameRules
    tags: dict[str, str]
    moves: list[str] = field(default_factory=list)
    #: the side that made each move (the side to move before it), so the record numbers by turn
    movers: list[str] = field(default_factory=list)
    #: the sides taking part when the record sets them (``State.playing_sides``), else None
    sides: tuple[str, ...] | None = None
    outcome: Outcome = field(default_factory=lambda: Outcome(False))
    interrupted: bool = False
    saved: str | None = None
    signal: int | None = None
    save_error: str | None = None

    def record(self) -> str:
        """Return the game record as text (tags, moves numbered by whose turn it was, result)."""
        tags = dict(self.tags)
        result = result_str(self.rules, self.outcome, self.sides)
        tags["Result"] = result
        return record_str(
            tags, self.moves, result, self.rules.move_per_line, len(self.rules.sides), self.movers
        )


class _Stopped(Exception):
    """Raised from a SIGTERM or SIGHUP handler to end the game and save it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@dataclass
class _Signals:
    """The signals caught during play: the first ends the game (raised only while ``armed``, inside
    the move loop); later ones are ignored, so the record is still saved whole."""

    caught: list[int] = field(default_factory=list)
    armed: bool = False

    def arm(self) -> None:
        """Let the next signal stop the game; raise at once if one came before the loop began."""
        self.armed = True
        if self.caught:
            self.armed = False
            raise _stop_error(self.caught[0])


def _stop_error(signum: int) -> BaseException:
    return KeyboardInterrupt() if signum == signal.SIGINT else _Stopped(signum)


@contextlib.contextmanager
def _stop_on_signals() -> Iterator[_Signals]:
    """Catch Ctrl-C, SIGTERM and SIGHUP while the game runs (main thread only); yield what was caught."""
    signals = _Signals()

    def handler(signum: int, frame: Any) -> None:
        if signals.caught:
            return  # a second signal: the game is already stopping
        signals.caught.append(signum)
        if signals.armed:
            signals.armed = False
            raise _stop_error(signum)

    previous: dict[int, Any] = {}
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is None:
            continue
        try:
            previous[signum] = signal.signal(signum, handler)
        except (ValueError, OSError):  # not the main thread: the caller handles signals
            pass
    try:
        yield signals
    finally:
        for number, old in previous.items():
            signal.signal(number, after_stop(old) if signals.caught else old)


def check_save_target(path: str) -> None:
    """Raise OutputError unless ``path`` is a regular file or can be a new one (checked before play)."""
    if not path or not path.strip():
        raise OutputError("--save needs a file name")
    problem = path_problem(path)
    if problem is not None:
        raise OutputError(f"--save {path[:80]!r} {problem}")
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise OutputError(f"--save {path}: {exc.strerror or exc}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = (
            "a folder"
            if stat.S_ISDIR(info.st_mode)
            else "a symbolic link"
            if stat.S_ISLNK(info.st_mode)
            else "a named pipe"
            if stat.S_ISFIFO(info.st_mode)
            else "a device or special file"
        )
        raise OutputError(f"--save {path}: is {kind}, not a regular file; give a file name")


class _RecordFile:
    """The save file during play: the header, then each move appended, synced to disk. When a
    write fails the player is told at once and play goes on (the record is kept in memory);
    ``save PATH`` at the prompt moves the record to another file (``move_to``)."""

    def __init__(self, path: str | None, game: LiveGame, say: Any = None, lang: str = "en") -> None:
        self.lang = lang
        self.path = path
        self.game = game
        self.say = say
        self.offsets: list[int] = []
        self.movers: list[str] = []
        self.handle: BinaryIO | None = None
        if path is not None:
            self._open(path)

    def _open(self, path: str) -> None:
        check_save_target(path)
        folder = os.path.dirname(os.path.abspath(path))
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
        try:
            os.makedirs(folder, exist_ok=True)
            with contextlib.suppress(FileNotFoundError):
                if os.lstat(path).st_nlink > 1:  # a hard link: the other names keep their file
                    os.unlink(path)
            fd = os.open(path, flags, 0o644)
        except OSError as exc:
            raise OutputError(f"--save {path}: cannot write there: {exc.strerror or exc}") from None
        self.close()
        self.path = path
        self.offsets, self.movers = [], []
        self.handle = os.fdopen(fd, "wb")
        self.game.save_error = None
        header = record_str(
            self.game.tags, [], None, self.game.rules.move_per_line, len(self.game.rules.sides)
        )
        self._write(header.encode("utf-8"))

    def move_to(self, path: str) -> None:
        """Save the record from now on to ``path``: the moves so far are written there at once;
        raise OutputError when it cannot be written."""
        self._open(path)
        for move, mover in zip(self.game.moves, self.game.movers, strict=True):
            self.add(move, mover)
        if self.game.save_error is not None:
            raise OutputError(self.game.save_error)

    def _fail(self, exc: OSError) -> None:
        self.game.save_error = Msg("live.cannot_write", path=self.path, problem=exc.strerror or exc)
        self.close()
        if self.say is not None:
            problem = render(self.game.save_error, self.lang)
            self.say(catalogue_text("live.save.failing", self.lang, problem=problem))

    def _write(self, data: bytes) -> None:
        if self.handle is None:
            return
        try:
            self.handle.write(data)
            self.handle.flush()
            os.fsync(self.handle.fileno())
        except OSError as exc:
            self._fail(exc)

    def add(self, move: str, mover: str) -> None:
        """Append one move as the finished record writes it (``record.move_pieces``)."""
        if self.handle is None:
            return
        self.offsets.append(self.handle.tell())
        self.movers.append(mover)
        rules = self.game.rules
        numbered = not rules.move_per_line and len(rules.sides) == 2
        count = len(self.movers)
        text = move_pieces(["-"] * (count - 1) + [move], self.movers, numbered)[-1]
        self._write(text.encode("utf-8"))

    def undo(self) -> None:
        """Cut the last move off the file."""
        if self.handle is None or not self.offsets:
            return
        try:
            self.handle.truncate(self.offsets.pop())
            self.movers.pop()
            self.handle.seek(0, os.SEEK_END)
        except OSError as exc:
            self._fail(exc)

    def close(self) -> None:
        """Close the file (errors ignored: the moves are already on disk)."""
        if self.handle is not None:
            with contextlib.suppress(OSError):
                self.handle.close()
            self.handle = None


class _InputEnded(Exception):
    """The input cannot give another line: closed, or endless in a way no player types."""


def _read_line(stdin: TextIO) -> str | None:
    """Return the next input line (None at the end of input, or when the input is closed); raise
    ValueError for undecodable or overlong lines, after skipping the rest of them, and _InputEnded
    when a line goes on past MAX_SKIPPED characters."""
    raw = getattr(stdin, "buffer", None)
    if _closed(stdin) or _closed(raw):
        return None
    try:
        data: str | bytes = _read_text_line(stdin) if raw is None else _read_bytes_line(raw)
    except ValueError:
        if _closed(stdin) or _closed(raw):  # closed meanwhile: reading it raises ValueError for ever
            return None
        raise
    if not data:
        return None
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(
            Msg("live.not_utf8", byte=f"0x{data[exc.start]:02x}", column=exc.start + 1)
        ) from None


def _closed(stream: Any) -> bool:
    return stream is not None and bool(getattr(stream, "closed", False))


def _read_text_line(stdin: TextIO) -> str:
    line = stdin.readline(MAX_LINE + 1)
    if len(line) > MAX_LINE and not line.endswith("\n"):
        skipped = len(line)
        while (rest := stdin.readline(MAX_LINE)) and not rest.endswith("\n"):
            skipped += len(rest)
            if skipped > MAX_SKIPPED:
                raise _InputEnded(Msg("live.endless", n=Msg.number(MAX_SKIPPED)))
        raise ValueError(Msg("live.too_long", n=MAX_LINE))
    return line


def _read_bytes_line(raw: BinaryIO) -> bytes:
    data = raw.readline(MAX_LINE + 1)
    if len(data) > MAX_LINE and not data.endswith(b"\n"):
        skipped = len(data)
        while (rest := raw.readline(MAX_LINE)) and not rest.endswith(b"\n"):
            skipped += len(rest)
            if skipped > MAX_SKIPPED:
                raise _InputEnded(Msg("live.endless", n=Msg.number(MAX_SKIPPED)))
        raise ValueError(Msg("live.too_long", n=MAX_LINE))
    return data


def _side_word(side: str, lang: str = "en") -> str:
    return side_name(side, lang)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _third_person(verb: str, lang: str = "en") -> str:
    """Return a part's verb as said of a player in a language: 'offer' -> 'offers', 'propose'."""
    return part_name(verb, lang, done=True)


def _listed(moves: Iterable[str]) -> str:
    """Return moves as one line: apart by spaces, or by commas when a move has spaces in it."""
    names = list(moves)
    return (", " if any(" " in n for n in names) else " ").join(names)


def _choices(state: State, stage: int, among: list[Any] | None, lang: str = "en") -> str:
    """Return what ``?`` says in a language: the choices open to the player now, each once, grouped
    and short."""
    names = [render(name, lang) for name in state.part_choices(stage, among)]
    shown = names[:MAX_LISTED]
    more = count_text("live.more", len(names) - len(shown), lang) if len(names) > len(shown) else ""
    choices = _listed(shown) + more
    if stage == 0 and len(state.deciders()) == 1:
        return count_text("live.legal", len(names), lang, choices=choices)
    verb = part_name(state.part_names()[stage], lang)
    return catalogue_text(
        "live.can", lang, side=_side_word(state.deciders()[stage], lang), part=verb, choices=choices
    )


def play(
    rules: GameRules,
    stdin: TextIO,
    stdout: TextIO,
    seed: int | None = None,
    variants: frozenset[str] = frozenset(),
    tags: Mapping[str, str] | None = None,
    save: str | None = None,
    echo: bool | None = None,
    computer: Mapping[str, Bot] | None = None,
    rng: Any = None,
    lang: str = "en",
    title: str | None = None,
) -> LiveGame:
    """Run a game at the table over the given streams; return what was played (saved to ``save`` if given).

    The referee speaks ``lang`` (the catalogue's ``live.*`` texts; a missing one is an error, never
    English instead) and names the game ``title`` (default: the rules' title); moves are written
    in the notation, the same in every language.

    ``computer`` maps sides to the bots that play them, drawing from ``rng`` (a ``seeding.Rng``).

    ``echo`` repeats each input line after its prompt (default: when the input is not a terminal).
    Raise OutputError before the game starts when ``save`` cannot be written."""
    header: dict[str, Any] = {"Game": rules.id}
    if variants:
        header["Variant"] = ",".join(sorted(variants))
    if seed is not None:
        header["Seed"] = str(seed)
    header.update(tags or {})
    game = LiveGame(rules, header)
    state = rules.new_state(seed, frozenset(variants), header)
    game.sides = state.playing_sides()
    history: list[State] = []
    if echo is None:
        echo = not _is_terminal(stdin)
    if save is not None:
        check_save_target(save)
    output_ok = True

    def write(text: str) -> None:
        nonlocal output_ok
        if output_ok:
            try:
                stdout.write(text)
                stdout.flush()
            except (OSError, ValueError):  # a closed terminal or pipe: play on, keep the record
                output_ok = False

    def say(text: str) -> None:
        write(render(text, lang) + "\n")

    def t(key: str, **values: Any) -> str:
        return catalogue_text(f"live.{key}", lang, **values)

    record_file = _RecordFile(save, game, say, lang)

    with _stop_on_signals() as signals:
        state = _run(
            game,
            state,
            history,
            stdin,
            write,
            say,
            echo,
            record_file,
            computer or {},
            rng,
            signals,
            lang,
            title or rules.title,
        )
        if signals.caught and not game.interrupted:  # a signal as the loop ended: stop all the same
            game.interrupted = True
            if signals.caught[0] != signal.SIGINT:
                game.signal = signals.caught[0]
    game.outcome = state.outcome()
    if game.outcome.finished:
        winner = game.outcome.winner
        verdict = (
            catalogue_text("referee.draw", lang)
            if winner is None
            else catalogue_text("referee.wins", lang, side=_side_word(winner, lang))
        )
        say(
            t(
                "over",
                verdict=verdict + (f" ({render(game.outcome.reason, lang)})" if game.outcome.reason else ""),
            )
        )
    else:
        say(t("stopped", moves=unit_count(len(game.moves), "move", lang)))
    path = record_file.path
    if path is not None:
        record_file.close()
        try:
            atomic_write_text(path, game.record())
        except OSError as exc:
            game.save_error = Msg("live.cannot_write", path=path, problem=exc.strerror or exc)
        else:
            game.save_error = None
        if game.save_error is None:
            game.saved = path
            say(t("saved", path=path))
        else:  # no file could hold it: the whole record goes to the terminal
            say(t("save.lost", problem=render(game.save_error, lang)))
            write(game.record())
    return game


def _run(
    game: LiveGame,
    state: State,
    history: list[State],
    stdin: TextIO,
    write: Any,
    say: Any,
    echo: bool,
    record_file: _RecordFile | None,
    computer: Mapping[str, Bot],
    rng: Any,
    signals: _Signals | None = None,
    lang: str = "en",
    title: str | None = None,
) -> State:
    """Play moves until the game ends, the input ends, quit, Ctrl-C or a signal; return the state.

    A move is made part by part (``State.deciders``): each player types only their own part (in
    Verbal the offerer ``4/5``, then the taker ``4``), the computer makes its sides' parts, and a
    part left with one choice is made at once."""
    rules = game.rules
    #: the computer's throw for each move of the game (by ply), kept through undo
    thrown: dict[int, Any] = {}

    def computer_choice(stages: int | None = None) -> Any:
        """Return the computer's move (or first part), with the dice it threw before for this
        move of the game if it threw any; the dice it throws now are kept for this move."""
        chosen = choose_move(state, computer, rng, stages=stages, outcome=thrown.get(state.ply))
        dice = state.chance_of(chosen)
        if dice is not None:
            thrown.setdefault(state.ply, dice)
        return chosen

    def t(key: str, **values: Any) -> str:
        return catalogue_text(f"live.{key}", lang, **values)

    def side_word(side: str) -> str:
        return _side_word(side, lang)

    def play(move: Any) -> str:
        """Apply a checked move: keep the state before it for undo, record it; return its text."""
        history.append(state.copy())
        written = state.move_str(move)
        mover = state.current_player()
        state.apply_move(move)
        game.moves.append(written)
        game.movers.append(mover)
        if record_file is not None:
            record_file.add(written, mover)
        return written

    say(t("title", title=title or rules.title, help=t("help")))
    say(state.text())
    try:
        if signals is not None:
            signals.arm()
        while not state.is_terminal():
            deciders = state.deciders()
            verbs = state.part_names()
            if all(d in computer for d in deciders):
                move = computer_choice()
                state.check_move(move)
                written = play(move)
                say(t("computer.plays", side=side_word(deciders[0]), move=written))
                say(state.text())
                continue
            among: list[Any] | None = None  # the moves the parts made so far leave open
            stage = 0
            person_made = False
            resume: tuple[int, list[Any] | None] = (0, None)  # where undo of the person's part goes back to
            stop = False
            unreadable = 0
            while stage < len(deciders):
                side = deciders[stage]
                if among is not None and len({state.part_str(m, stage) for m in among}) == 1:
                    if side not in computer:
                        part = part_name(verbs[stage], lang)
                        say(
                            t("only", side=side_word(side), part=part, choice=state.part_str(among[0], stage))
                        )
                    stage += 1
                    continue
                if side in computer:
                    if among is None:
                        chosen = computer_choice(stages=1)
                    else:
                        chosen = computer[side].choose(state, rng, among)
                    state.check_move(chosen)
                    among = state.completions(chosen, stage + 1)
                    stage += 1
                    done = _third_person(verbs[stage - 1], lang)
                    if not person_made:
                        resume = (stage, among)
                    say(
                        t(
                            "computer.part",
                            side=side_word(side),
                            part=done,
                            choice=state.part_str(chosen, stage - 1),
                        )
                    )
                    if stage < len(deciders):
                        shown = state.text_during(chosen, stage)
                        if shown != state.text():
                            say(shown)
                    continue
                write(t("prompt", side=side_word(side), part=part_name(verbs[stage], lang)))
                try:
                    line = _read_line(stdin)
                    unreadable = 0
                except OSError:  # the terminal is gone (EIO after a hangup): the input has ended
                    line = None
                except _InputEnded as exc:
                    say("")
                    say(t("ended", problem=render(reason_of(exc), lang)))
                    line = None
                except ValueError as exc:
                    say("")
                    unreadable += 1
                    if unreadable < MAX_UNREADABLE:
                        say(t("unreadable", problem=render(reason_of(exc), lang)))
                        continue
                    say(t("unreadable.many", problem=render(reason_of(exc), lang), n=unreadable))
                    line = None
                if line is None:
                    say("")
                    stop = True
                    break
                text = line.strip()
                if echo:
                    say(text)
                command = text.lower()
                if not text:
                    continue
                if command == "?":
                    say(_choices(state, stage, among, lang))
                elif command in ("help", "h"):
                    say(t("help"))
                elif command == "undo":
                    if person_made:
                        say(t("undo.part"))
                        (stage, among), person_made = resume, False
                        say(state.text() if among is None else state.text_during(among[0], stage))
                        continue
                    if not history or all(all(d in computer for d in h.deciders()) for h in history):
                        say(t("undo.none"))
                        continue
                    taken = []
                    while True:  # back to the last position where a person had a part to make
                        state = history.pop()
                        if record_file is not None:
                            record_file.undo()
                        taken.append(game.moves.pop())
                        game.movers.pop()
                        if any(d not in computer for d in state.deciders()):
                            break
                    say(t("undo.moves", moves=", ".join(reversed(taken))))
                    say(state.text())
                    break
                elif command in ("quit", "exit"):
                    stop = True
                    break
                elif command.startswith("save ") and record_file is not None:
                    target = text[5:].strip()
                    try:
                        record_file.move_to(target)
                    except OutputError as exc:
                        say(t("save.fail", problem=render(reason_of(exc), lang)))
                    else:
                        say(t("save.moved", path=target))
                else:
                    try:
                        found = state.parse_part(text, stage, among)
                        if not found:
                            raise IllegalMoveError(t("not_open", choice=text))
                    except (NotationError, IllegalMoveError) as exc:
                        say(t("illegal", problem=render(reason_of(exc), lang)))
                        continue
                    among = found
                    person_made = True
                    stage += 1
                    if stage < len(deciders):
                        shown = state.text_during(among[0], stage)
                        if shown != state.text():
                            say(shown)
            else:
                assert among is not None and len(among) == 1, "the parts made leave one move"
                move = among[0]
                state.check_move(move)
                written = play(move)
                if len(deciders) > 1 or any(d in computer for d in deciders):
                    say(t("played", move=written))
                say(state.text())
                continue
            if stop:
                break
    except KeyboardInterrupt:
        game.interrupted = True
        say("")
        say(t("interrupted"))
    except _Stopped as stop_signal:
        game.interrupted = True
        game.signal = stop_signal.signum
        say("")
        say(t("signal", signal=signal.Signals(stop_signal.signum).name))
    finally:
        if signals is not None:
            signals.armed = False
    return state
