"""Computer players over the game interface: a uniform random bot and a search bot, for every game.

Bots see only ``games.base.State``: the legal moves, playing a move, whether the game is over and
how it ended, and, in dice games, the dice (``random_chance`` throws them fairly, ``chance_moves``
lists the moves that throw allows). A bot draws every random number from the ``seeding.Rng`` it is
handed, so the same state and generator give the same move on every machine.

The search bot is Monte Carlo tree search (UCT) with a budget of playouts per move. Dice make it
open-loop: the dice are thrown again each time the search passes a node, and a node's children are
the moves seen so far, chosen by their upper confidence bound among those the throw allows. A
playout finishes the game with random moves; a win scores 1 for the winner, a draw 1/2 for all
(a draw at the turn limit counts for the side ahead in material, ``tactics.playout_reward``).
Before its playouts the search looks for tactics (``tactics``): a move that wins at once, and
the moves whose worst reply two moves ahead leaves the most (or, with too many moves to look
at, the moves of most material at once, none of which lets the other side win at once); the
playouts choose among those (in Barricades with the game's own playout moves,
``tactics.PLAYOUT_POLICY``; in Nine Men's Morris, a mill closed when there is one, else one
blocked). In Nine Men's Morris the moves the two-move look-ahead keeps are
searched deeper (``tactics.deep_choices``: four plies ahead, six while its budget lasts, minimax
with alpha-beta), with a budget of positions that grows with the playouts
(``DEEP_POSITIONS``), so a stronger level sees forks set up further ahead. Push! has no tree:
every distinct push (by the position it leaves) and every distinct placement is a candidate, the
two of most worth (``tactics.push_worth``: pushes, lanes blocked by a piece, the slowest lane) are
weighed by greedy playouts that meet the same dice, as many as a budget of playout turns allows
(so near the end of a race, where playouts are short, many more), and the best result is played
(``tactics.push_root``). In Barricades it also looks three moves
ahead over the MacGuffin threats: a move that leaves a win no reply stops is played at once
(``tactics.threat_win``), and the moves that walk into such a threat are left out
(``tactics.ThreatCheck``).

Some moves of a record hold two sides' choices (Verbal's offer and take, Push!'s placement and
push; ``State.deciders`` and ``State.move_parts`` say whose each part is). The search takes such a
move one choice at a time, each by the side that makes it and scored for that side, so it expects
the other side to answer against it; ``choose_move`` and ``play_game`` ask each side's bot for its
own part.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from generator.bots.tactics import (
    WIN,
    GreedyBot,
    ThreatCheck,
    afters,
    cutoff_reward,
    deep_choices,
    evaluate,
    greedy_choices,
    playout_depth,
    playout_policy,
    playout_reward,
    push_root,
    race_choices,
    reply_floor,
    ruled_moves,
    tactical_choices,
    threat_win,
    unsafe,
)
from generator.foundation.errors import UsageError
from generator.foundation.seeding import Rng
from generator.games.base import Outcome, State

#: Playouts per move of the search bot unless told otherwise. A move takes under a second of CPU
#: at this budget in most games, not in Barricades or Push!, whose random playouts are long
#: (bench/bench_analyse.py's BUDGETS: the budget per game that keeps a move under a second).
DEFAULT_PLAYOUTS = 200
#: How many of its best-ranked moves the search bot checks by the other side's best reply at once
#: (``tactics.reply_floor``: a win, else material), in games with too many moves for its two-move
#: look-ahead, before playing the best ranked of those the best reply costs least.
SAFETY_CHECKS = 8
#: How many moves the search bot keeps for its playouts when every move of most material walks
#: into a threat it cannot stop three moves ahead (``tactics.ThreatCheck``): the first that many
#: of the other moves that do not, most material first.
THREAT_SAFE = 8
#: Positions a playout the deeper look-ahead may make (``tactics.deep_choices``, in the games it
#: knows): the look-ahead deepens with the budget, so a stronger level sees further (200
#: playouts: 6,000 positions, four plies ahead near the end of the game; 3,200: 96,000, four
#: plies while placing and six once moving, about a second of CPU).
DEEP_POSITIONS = 30
#: The exploration constant of the upper confidence bound (sqrt 2, the textbook value for 0..1 rewards).
EXPLORATION = math.sqrt(2)


class Bot(Protocol):
    """A computer player: picks a legal move, or its own part of one."""

    name: str

    def choose(self, state: State, rng: Rng, among: Sequence[Any] | None = None) -> Any:
        """Return a legal move for ``state`` (which the bot leaves unchanged): with ``among``, one
        of those moves (the dice thrown and the choices before the bot's own already made)."""


def random_move(state: State, rng: Rng) -> Any:
    """Return a random legal move: fair dice first in a dice game, then a uniform choice."""
    outcome = state.random_chance(rng)
    if outcome is None:
        return state.random_move(rng)
    return state.random_chance_move(outcome, rng)


def reward(outcome: Outcome, side: str) -> float:
    """Return what a finished game is worth to a side: 1 for a win, 1/2 for a draw, 0 otherwise."""
    if outcome.winner is not None:
        return 1.0 if outcome.winner == side else 0.0
    return 0.5


@dataclass
class RandomBot:
    """Plays a uniformly random legal move (after fair dice in dice games)."""

    name: str = "random"

    def choose(self, state: State, rng: Rng, among: Sequence[Any] | None = None) -> Any:
        """Return a random legal move (one of ``among`` if given)."""
        if among is not None:
            return rng.choice(list(among))
        return random_move(state, rng)


@dataclass
class _Node:
    visits: int = 0
    score: float = 0.0
    children: dict[tuple[int, Hashable], _Node] = field(default_factory=dict)


def _groups(parts: list[tuple[Hashable, ...]], stage: int) -> dict[Hashable, list[int]]:
    """Return the moves' indexes grouped by their choice at a stage, in the order first seen."""
    groups: dict[Hashable, list[int]] = {}
    for i, move_parts in enumerate(parts):
        groups.setdefault(move_parts[stage], []).append(i)
    return groups


@dataclass
class SearchBot:
    """Monte Carlo tree search (UCT, open-loop over the dice) with ``playouts`` playouts per move.

    A move that holds several sides' choices (``State.deciders``) is searched one choice at a
    time, each by the side that makes it, so the search expects the other side to choose its own
    part against the bot rather than for it."""

    playouts: int = DEFAULT_PLAYOUTS
    exploration: float = EXPLORATION
    name: str = "search"

    def choose(self, state: State, rng: Rng, among: Sequence[Any] | None = None) -> Any:
        """Return a move whose first open choice wins at once whatever the other sides choose, if
        there is one; otherwise, choice by choice, the most visited after the playouts (best mean
        score among equals): the bot's own choice, then the replies it expects. The playouts weigh
        only the moves the tactics keep (``tactics``): in a game without dice, those whose worst
        reply leaves the most material two moves ahead (a won or lost game beyond any material),
        or, with too many moves to look at, those of most material at once, of which the best
        ranked by the playouts are checked by their worst reply (``tactics.reply_floor``); in
        Everest's race, the moves saving the most throws (``tactics.race_choices``); in
        another dice game, every move. The dice are thrown
        once for the root (``among``, if given, fixes them and any earlier choices); with more
        choices than ``playouts // 6`` (at least 8), a random sample of that many is searched, so
        that each gets several playouts."""
        moves = list(among) if among is not None else state.chance_moves(state.random_chance(rng))
        if not moves:
            raise UsageError("the game is over: there is no move to choose")
        moves = ruled_moves(state, moves)
        if len(moves) == 1:
            return moves[0]
        deciders = state.deciders()
        parts = [state.move_parts(m) for m in moves]
        stage = next((k for k in range(len(deciders)) if len({p[k] for p in parts}) > 1), 0)
        side = deciders[stage]
        positions = afters(state, moves) if len(deciders) == 1 else None
        if positions is not None:  # one side's move: a win at once is a move that ends the game won
            win = next(
                (m for m, p in zip(moves, positions) if p.is_terminal() and p.outcome().winner == side), None
            )
        else:
            win = _sure_win(state, moves, parts, stage, deciders, side)
        if win is None and positions is not None:
            win = threat_win(state, moves, side, made=positions)
        if win is not None:
            return win
        checked = False
        every = moves
        if positions is not None:
            kept = tactical_choices(state, moves, side, made=positions)
            checked = kept is not None
            if kept is not None and len(kept) > 1:
                deep = deep_choices(
                    state,
                    [moves[i] for i in kept],
                    side,
                    self.playouts * DEEP_POSITIONS,
                    made=[positions[i] for i in kept],
                )
                if deep is not None:
                    kept = [kept[j] for j in deep[0]]
            dice = any(state.chance_of(m) is not None for m in moves)
            if kept is None and not dice:
                kept = greedy_choices(state, moves, side, made=positions)
                kept = _threat_safe(state, moves, side, kept, positions)
            if kept is None and dice:
                kept = race_choices(state, moves)
            if kept is not None:
                if len(kept) == 1 and (checked or not unsafe(state, moves[kept[0]], side)):
                    return moves[kept[0]]
                moves = [moves[i] for i in kept]
                parts = [parts[i] for i in kept]
            checked = checked or dice
        else:
            chosen = push_root(state, moves, stage, self.playouts, rng)
            if chosen is not None:
                return chosen
        groups = _groups(parts, stage)
        width = max(8, self.playouts // 6)
        if len(groups) > width:
            keys = list(groups)
            rng.shuffle(keys)
            kept = sorted(i for key in keys[:width] for i in groups[key])
            moves = [moves[i] for i in kept]
            parts = [parts[i] for i in kept]
        root = _Node()
        for _ in range(self.playouts):
            self._playout(state.copy(), root, moves, stage, rng)
        if len(deciders) == 1 and not checked:
            ranked = sorted(
                range(len(moves)), key=lambda i: _rank(root.children.get((0, parts[i][0]))), reverse=True
            )
            top = ranked[:SAFETY_CHECKS]
            floors = [reply_floor(state, moves[i], side) for i in top]
            best = max(floors)
            if best > -WIN:  # the best ranked of those whose best reply costs the least
                return moves[top[floors.index(best)]]
            sampled = set(moves)
            rest = [moves[i] for i in ranked[SAFETY_CHECKS:]] + [m for m in every if m not in sampled]
            killers: list[Any] = []  # the replies that won against earlier moves, tried first
            return next((m for m in rest if not unsafe(state, m, side, killers)), moves[ranked[0]])
        node = root
        for k in range(stage, len(deciders)):
            groups = _groups(parts, k)
            children = node.children
            key = max(groups, key=lambda g: _rank(children.get((k, g))))
            node = children.get((k, key)) or _Node()
            moves = [moves[i] for i in groups[key]]
            parts = [parts[i] for i in groups[key]]
        return moves[0]

    def _playout(self, state: State, root: _Node, moves: list[Any], first: int, rng: Rng) -> None:
        """Walk down the tree choice by choice (from choice ``first`` of the root's move) by upper
        confidence bound for the side making each choice, add one node (a choice with one option
        is a node too), finish the game at random, and credit every node on the way with the
        result for the side whose choice it was."""
        path: list[tuple[_Node, str]] = []
        node = root
        candidates = moves
        c = self.exploration
        added = False
        while True:
            deciders = state.deciders()
            parts: list[tuple[Hashable, ...]]
            if len(deciders) == 1:
                parts = [(m,) for m in candidates]
            else:
                parts = [state.move_parts(m) for m in candidates]
            for stage in range(first, len(deciders)):
                side = deciders[stage]
                groups = _groups(parts, stage)
                children = node.children
                fresh = [k for k in groups if (stage, k) not in children]
                if fresh:
                    key = rng.choice(fresh)
                    child = children[(stage, key)] = _Node()
                    added = True
                else:
                    log_n = math.log(max(node.visits, 1))
                    key = max(
                        groups,
                        key=lambda k: (
                            children[(stage, k)].score / children[(stage, k)].visits
                            + c * math.sqrt(log_n / children[(stage, k)].visits)
                        ),
                    )
                    child = children[(stage, key)]
                path.append((child, side))
                node = child
                kept = groups[key]
                candidates = [candidates[i] for i in kept]
                parts = [parts[i] for i in kept]
                if added:
                    break
            state.apply_move(candidates[0] if len(candidates) == 1 else rng.choice(candidates))
            if added or state.is_terminal():
                break
            first = 0
            candidates = state.chance_moves(state.random_chance(rng))
        root.visits += 1
        depth = playout_depth(state)
        policy = playout_policy(state) or random_move
        if depth is None:
            while not state.is_terminal():
                state.apply_move(policy(state, rng))
            score: Callable[[State, str], float] = playout_reward
        else:
            for _ in range(depth):
                if state.is_terminal():
                    break
                state.apply_move(policy(state, rng))
            score = cutoff_reward
        for child, side in path:
            child.visits += 1
            child.score += score(state, side)


def _threat_safe(
    state: State, moves: list[Any], side: str, kept: list[int], positions: Sequence[State]
) -> list[int]:
    """Return the indexes, among ``kept``, of the moves shown to walk into no threat ``side``
    cannot stop three moves ahead (``tactics.ThreatCheck``, in games with ``tactics.THREATS``), or
    when none is shown so, up to ``THREAT_SAFE`` of the other moves that are (most material at
    once first, a fresh budget), else those of ``kept`` left unchecked when the budget ran out;
    ``kept`` itself when there is no such game or every move walks into a threat."""
    check = ThreatCheck(state, side)
    if check.game is None:
        return kept
    safe: list[int] = []
    unknown: list[int] = []  # left unchecked once the budget ran out
    for i in kept:
        if check.spent():
            unknown.append(i)
        elif not check.loses(moves[i]):
            (unknown if check.spent() else safe).append(i)
    if safe:
        return safe
    check = ThreatCheck(state, side)
    chosen = set(kept)
    rest = sorted(
        (i for i in range(len(moves)) if i not in chosen), key=lambda i: -evaluate(positions[i], side)
    )
    for i in rest:
        if not check.loses(moves[i]):
            if check.spent():
                break
            safe.append(i)
            if len(safe) == THREAT_SAFE:
                break
    return safe or unknown or kept


def _sure_win(
    state: State,
    moves: list[Any],
    parts: list[tuple[Hashable, ...]],
    stage: int,
    deciders: tuple[str, ...],
    side: str,
) -> Any:
    """Return a move with which ``side`` wins at once whatever the other sides choose from
    ``stage`` on (and whatever it chooses itself, a winning choice), or None when there is none."""
    if len(moves) == 1 or stage >= len(deciders):
        after = state.copy()
        after.apply_move(moves[0])
        return moves[0] if after.is_terminal() and after.outcome().winner == side else None
    groups = _groups(parts, stage)
    chooses = deciders[stage] == side
    wins = []
    for kept in groups.values():
        win = _sure_win(state, [moves[i] for i in kept], [parts[i] for i in kept], stage + 1, deciders, side)
        if chooses and win is not None:
            return win
        if not chooses and win is None:
            return None
        wins.append(win)
    return None if chooses else wins[0]


def _rank(child: _Node | None) -> tuple[int, float]:
    """Return how a choice ranks: its visits, then its mean score."""
    if child is None or not child.visits:
        return (0, 0.0)
    return (child.visits, child.score / child.visits)


#: The bots by name: each makes a bot from a playout budget (which the random bot ignores).
BOTS: Mapping[str, Callable[[int], Bot]] = {
    "random": lambda playouts: RandomBot(),
    "search": lambda playouts: SearchBot(playouts),
    "greedy": lambda playouts: GreedyBot(),
}


#: The most playouts a move the search bot may be given (--strength 8 gives it 3200).
MAX_PLAYOUTS = 100_000


def make_bot(name: str, playouts: int = DEFAULT_PLAYOUTS) -> Bot:
    """Return the bot called ``name`` with a playout budget; raise UsageError for unknown names."""
    factory = BOTS.get(name)
    if factory is None:
        raise UsageError(f"no bot {name!r} (known: {', '.join(BOTS)})")
    if playouts < 1:
        raise UsageError(f"a bot needs at least one playout per move, got {playouts}")
    if playouts > MAX_PLAYOUTS:
        raise UsageError(f"--playouts must be at most {MAX_PLAYOUTS}, got {playouts}")
    return factory(playouts)


@dataclass(frozen=True)
class GameResult:
    """One finished bot game: the side that moved first, the winner (None: a draw) and the moves."""

    first: str
    winner: str | None
    length: int


def choose_move(
    state: State,
    bots: Mapping[str, Bot] | Bot,
    rng: Rng,
    stages: int | None = None,
    outcome: Any = None,
) -> Any:
    """Return the next move, each of its choices made by the bot of the side that makes it.

    The first decider's bot throws the dice and picks a move; when the move holds later choices
    (``State.deciders``), each later decider's bot picks again among the moves that keep the
    dice and the choices made before its own. With ``stages``, only the first that many choices
    are the bots' (the rest of the returned move is a placeholder for someone else to choose).
    With ``outcome``, the dice are not thrown: they show ``outcome`` (a throw already seen, which
    live play keeps after an undo), unless no move carries it."""
    deciders = state.deciders()
    if stages is not None:
        deciders = deciders[:stages]

    def bot_of(side: str) -> Bot:
        return bots if not isinstance(bots, Mapping) else bots[side]

    fixed = state.chance_moves(outcome) if outcome is not None else []
    if fixed:
        move = bot_of(deciders[0]).choose(state, rng, fixed)
    else:
        move = bot_of(deciders[0]).choose(state, rng)
    for stage in range(1, len(deciders)):
        among = state.completions(move, stage)
        if len(among) > 1:
            move = bot_of(deciders[stage]).choose(state, rng, among)
    return move


def play_game(state: State, bots: Mapping[str, Bot] | Bot, rng: Rng) -> GameResult:
    """Play a game from ``state`` to its end with a bot per side (or one bot for every side),
    each side's bot making that side's choices (``choose_move``).

    Returns the first side to move, the winner and how many moves were played."""
    first = state.current_player()
    length = 0
    while not state.is_terminal():
        state.apply_move(choose_move(state, bots, rng))
        length += 1
    return GameResult(first, state.outcome().winner, length)
