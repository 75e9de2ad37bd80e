"""Computer players over the game interface: a uniform random bot and a search bot, for every game.

Bots see only ``games.base.State``: the legal moves, playing a move, whether the game is over and
how it ended, and, in dice games, the dice (``random_chance`` throws them fairly, ``chance_moves``
lists the moves that throw allows). A bot draws every random number from the ``seeding.Rng`` it is
handed, so the same state and generator give the same move on every machine.

The search bot is Monte Carlo tree search (UCT) with a budget of playouts per move. Dice make it
open-loop: the dice are thrown again each time the search passes a node, and a node's children are
the moves seen so far, chosen by their upper confidence bound among those the throw allows. A
playout finishes the game with random moves; a win scores 1 for the winner, a draw 1/2 for all.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from generator.errors import UsageError
from generator.games.base import Outcome, State
from generator.seeding import Rng

#: Playouts per move of the search bot unless told otherwise; a move takes well under a second
#: in every game at this budget (bench/bench_analyse.py).
DEFAULT_PLAYOUTS = 200
#: The exploration constant of the upper confidence bound (sqrt 2, the textbook value for 0..1 rewards).
EXPLORATION = math.sqrt(2)


class Bot(Protocol):
    """A computer player: picks a legal move for the side to move."""

    name: str

    def choose(self, state: State, rng: Rng) -> Any:
        """Return a legal move for the side to move in ``state`` (which the bot leaves unchanged)."""


def random_move(state: State, rng: Rng) -> Any:
    """Return a random legal move: fair dice first in a dice game, then a uniform choice."""
    outcome = state.random_chance(rng)
    if outcome is None:
        return state.random_move(rng)
    return rng.choice(state.chance_moves(outcome))


def reward(outcome: Outcome, side: str) -> float:
    """Return what a finished game is worth to a side: 1 for a win, 1/2 for a draw, 0 otherwise."""
    if outcome.winner is not None:
        return 1.0 if outcome.winner == side else 0.0
    return 0.5


@dataclass
class RandomBot:
    """Plays a uniformly random legal move (after fair dice in dice games)."""

    name: str = "random"

    def choose(self, state: State, rng: Rng) -> Any:
        """Return a random legal move."""
        return random_move(state, rng)


@dataclass
class _Node:
    visits: int = 0
    score: float = 0.0
    children: dict[Any, _Node] = field(default_factory=dict)


@dataclass
class SearchBot:
    """Monte Carlo tree search (UCT, open-loop over the dice) with ``playouts`` playouts per move."""

    playouts: int = DEFAULT_PLAYOUTS
    exploration: float = EXPLORATION
    name: str = "search"

    def choose(self, state: State, rng: Rng) -> Any:
        """Return a move that wins at once if there is one; otherwise the most visited move at the
        root after the playouts (best mean score among equals). The dice are thrown once for the
        root; with more moves than ``playouts // 6`` (at least 8), a random sample of that many
        is searched, so that each gets several playouts."""
        moves = state.chance_moves(state.random_chance(rng))
        if not moves:
            raise UsageError("the game is over: there is no move to choose")
        if len(moves) == 1:
            return moves[0]
        side = state.current_player()
        for move in moves:
            after = state.copy()
            after.apply_move(move)
            if after.is_terminal() and after.outcome().winner == side:
                return move
        width = max(8, self.playouts // 6)
        if len(moves) > width:
            order = list(range(len(moves)))
            rng.shuffle(order)
            moves = [moves[i] for i in sorted(order[:width])]
        root = _Node()
        for _ in range(self.playouts):
            self._playout(state.copy(), root, moves, rng)
        return max(moves, key=lambda m: _rank(root, m))

    def _playout(self, state: State, root: _Node, moves: list[Any], rng: Rng) -> None:
        """Walk down the tree by upper confidence bound, add one node, finish the game at random,
        and credit every node on the way with the result for the side that moved into it."""
        path: list[tuple[_Node, str]] = []
        node = root
        candidates = moves
        while True:
            side = state.current_player()
            fresh = [m for m in candidates if m not in node.children]
            if fresh:
                move = rng.choice(fresh)
                child = node.children[move] = _Node()
                state.apply_move(move)
                path.append((child, side))
                break
            log_n = math.log(max(node.visits, 1))
            c = self.exploration
            children = node.children
            move = max(
                candidates,
                key=lambda m: (
                    children[m].score / children[m].visits + c * math.sqrt(log_n / children[m].visits)
                ),
            )
            child = children[move]
            state.apply_move(move)
            path.append((child, side))
            node = child
            if state.is_terminal():
                break
            candidates = state.chance_moves(state.random_chance(rng))
        root.visits += 1
        while not state.is_terminal():
            state.apply_move(random_move(state, rng))
        result = state.outcome()
        for child, side in path:
            child.visits += 1
            child.score += reward(result, side)


def _rank(root: _Node, move: Any) -> tuple[int, float]:
    """Return how a root move ranks: its visits, then its mean score."""
    child = root.children.get(move)
    if child is None or not child.visits:
        return (0, 0.0)
    return (child.visits, child.score / child.visits)


#: The bots by name: each makes a bot from a playout budget (which the random bot ignores).
BOTS: Mapping[str, Callable[[int], Bot]] = {
    "random": lambda playouts: RandomBot(),
    "search": lambda playouts: SearchBot(playouts),
}


def make_bot(name: str, playouts: int = DEFAULT_PLAYOUTS) -> Bot:
    """Return the bot called ``name`` with a playout budget; raise UsageError for unknown names."""
    factory = BOTS.get(name)
    if factory is None:
        raise UsageError(f"no bot {name!r} (known: {', '.join(BOTS)})")
    if playouts < 1:
        raise UsageError(f"a bot needs at least one playout per move, got {playouts}")
    return factory(playouts)


@dataclass(frozen=True)
class GameResult:
    """One finished bot game: the side that moved first, the winner (None: a draw) and the moves."""

    first: str
    winner: str | None
    length: int


def play_game(state: State, bots: Mapping[str, Bot] | Bot, rng: Rng) -> GameResult:
    """Play a game from ``state`` to its end with a bot per side (or one bot for every side).

    Returns the first side to move, the winner and how many moves were played."""
    first = state.current_player()
    length = 0
    while not state.is_terminal():
        side = state.current_player()
        bot = bots if not isinstance(bots, Mapping) else bots[side]
        state.apply_move(bot.choose(state, rng))
        length += 1
    return GameResult(first, state.outcome().winner, length)
