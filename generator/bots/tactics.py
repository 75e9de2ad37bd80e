"""Tactics for the bots: what a position is worth in material, a greedy one-ply player, and the
short look-ahead the search bot makes before its playouts.

``material`` counts what each game's rules make worth having: men in Nine Men's Morris (on the
board and in hand), pieces in Take The Brain (a Numskull 3, a Ninny 1), MacGuffins and soldiers in
Barricades, cities then troops (in hand too) in Aggression, pushes and pawns off in Push!, steps in Centennial,
boxes crossed in Everest; a finished game is worth a win or a loss beyond any material.

``tactical_choices`` is the search bot's look-ahead in a game without dice: every move, then every
reply of the other side, valued by material (a finished game by its result), keeping the moves
whose worst reply leaves the most. It finds the won and lost positions one and two moves ahead
(a mill closed or let close, a Brain taken or left to be taken) that random playouts miss, and
leaves the choice among the moves it keeps to the playouts. ``unsafe`` is the cheaper check for
games with too many moves for that: does a move let the other side win at once?
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from generator.foundation.seeding import Rng
from generator.games.aggression import AggressionState
from generator.games.barricades import BarricadesState
from generator.games.base import State
from generator.games.everest import EverestState
from generator.games.nine_mens_morris import NineMensMorrisState
from generator.games.push import PAWN_OFF, PushState, PushTurn
from generator.games.take_the_brain import BrainState

#: What a finished game is worth beyond any material: a win WIN, a loss -WIN, a draw 0.
WIN = 1000.0
#: The look-ahead is skipped when it would apply more than this many moves (about 0.3 s of CPU
#: in the slowest game's rules); ``unsafe`` then checks the chosen moves instead.
BUDGET = 6000


def material(state: State, side: str) -> float:
    """Return what ``side`` holds in this position less what the best other side holds, in the
    game's own material (see the module docstring); 0 for a game without material (Verbal)."""
    counter = _MATERIAL.get(type(state))
    if counter is not None:
        return counter(state, side)
    score = state.outcome().score
    if not score or side not in score:
        return 0.0
    return float(score[side] - max(v for k, v in score.items() if k != side))


def evaluate(state: State, side: str) -> float:
    """Return the position's worth to ``side``: WIN for a won game, -WIN for a lost one, 0 for a
    draw, otherwise its material."""
    if state.is_terminal():
        winner = state.outcome().winner
        if winner is None:
            return 0.0
        return WIN if winner == side else -WIN
    return material(state, side)


def ruled_moves(state: State, moves: list[Any]) -> list[Any]:
    """Return the moves rulings.md lets a player choose: in Aggression's attacks, only successful
    attacks when there is one (a successful attack is compulsory, so no side can play for the
    turn limit by attacking in vain); every move otherwise. The same moves once the rules module
    lists only those."""
    if isinstance(state, AggressionState) and not state.claiming and not state.is_terminal():
        successful = set(state.successful_attacks())
        kept = [m for m in moves if m in successful]
        return kept or moves
    return moves


def playout_reward(state: State, side: str) -> float:
    """Return what a finished game is worth to ``side`` for the search: 1 for a win, 0 for a
    loss, and a draw 1/2, except a draw at the turn limit, which goes to the side ahead in
    material (1 ahead, 0 behind, 1/2 level): a side losing on the board gains nothing by playing
    for the clock, and a side winning on it loses by letting the clock run."""
    outcome = state.outcome()
    if outcome.winner is not None:
        return 1.0 if outcome.winner == side else 0.0
    if "turn limit" in outcome.reason:
        ahead = material(state, side)
        return 1.0 if ahead > 0 else 0.0 if ahead < 0 else 0.5
    return 0.5


def _nmm(state: Any, side: str) -> float:
    me = 0 if side == "white" else 1
    men = [state._men[i].bit_count() + state._hand[i] for i in (0, 1)]
    return float(men[me] - men[1 - me])


def _brain(state: Any, side: str) -> float:
    me = 0 if side == "red" else 1
    worth = (0.0, 3.0, 1.0)  # by kind: Brain, Numskull, Ninny (a cell holds 1 + side * 3 + kind)
    total = 0.0
    for code in state.cells:
        if code:
            owner, kind = divmod(code - 1, 3)
            total += worth[kind] if owner == me else -worth[kind]
    return total


def _barricades(state: Any, side: str) -> float:
    me = 0 if side == "red" else 1
    alive = [0, 0]
    for p, square in enumerate(state.square):
        if square >= 0:
            alive[state.side[p]] += 1
    return 10.0 * (state.captured[me] - state.captured[1 - me]) + alive[me] - alive[1 - me]


def _aggression(state: Any, side: str) -> float:
    me = 0 if side == "black" else 1
    cities = [0, 0]
    troops = list(state.hand)  # troops in hand count as much as troops claimed
    for owner, count in zip(state.owner, state.troops):
        if owner >= 0:
            cities[owner] += 1
            troops[owner] += count
    return cities[me] - cities[1 - me] + 0.01 * (troops[me] - troops[1 - me])


def _push(state: Any, side: str) -> float:
    me = 0 if side == "south" else 1
    done = [sum(state.progress[i]) for i in (0, 1)]
    return float(done[me] - done[1 - me])


_MATERIAL: dict[type, Callable[[Any, str], float]] = {
    NineMensMorrisState: _nmm,
    BrainState: _brain,
    BarricadesState: _barricades,
    AggressionState: _aggression,
    PushState: _push,
}


#: Playouts in these games stop after this many random moves and are scored by material
#: (``cutoff_reward``): Barricades' random games run to 60 moves and more, most of them far from
#: the position searched, and material (MacGuffins, then soldiers) says who is ahead well before.
PLAYOUT_DEPTH: dict[type, int] = {BarricadesState: 16}


def playout_depth(state: State) -> int | None:
    """Return how many random moves a playout from ``state`` makes before it is scored by
    material (``cutoff_reward``), or None to play it to the end."""
    return PLAYOUT_DEPTH.get(type(state))


def cutoff_reward(state: State, side: str) -> float:
    """Return what a playout stopped before the end is worth to ``side``: 1 ahead in material,
    0 behind, 1/2 level (``playout_reward`` once the game is over)."""
    if state.is_terminal():
        return playout_reward(state, side)
    ahead = material(state, side)
    return 1.0 if ahead > 0 else 0.0 if ahead < 0 else 0.5


def _barricades_playout(state: Any, rng: Rng) -> Any:
    """Return a playout move in Barricades: a move onto a MacGuffin when there is one (the game
    is a race for them, which uniformly random soldiers seldom run), else a random move."""
    if state.is_terminal():
        return state.random_move(rng)
    moves = state.legal_moves()
    macguffins = state.macguffins
    grabs = [m for m in moves if not m.resign and m.dst != m.src and m.dst in macguffins]
    if grabs:
        return grabs[rng.below(len(grabs))]
    return moves[rng.below(len(moves) - 1)] if len(moves) > 1 else moves[0]


def _push_gain(state: Any, pushes: tuple[tuple[int, int], ...]) -> int:
    """Return how many lanes a push advances (a lane whose pawn is off moves no further)."""
    progress = state.progress[state.pusher]
    return sum(1 for lane, _ in pushes if progress[lane] < PAWN_OFF)


def _push_playout(state: Any, rng: Rng) -> Any:
    """Return a playout turn in Push!: a fair throw, the placement that leaves the pusher the
    smallest best push, then the push of most lanes (ties at random), as a pair of greedy players
    plays it; uniformly random pushes leave lanes standing that any player would move."""
    if state.is_terminal():
        return state.random_move(rng)
    throw = state.random_chance(rng)
    found = state._turn_options(throw)
    gains = [max(_push_gain(state, p) for p in options) for _, options in found]
    least = min(gains)
    placements = [i for i, g in enumerate(gains) if g == least]
    cells, options = found[placements[rng.below(len(placements))]]
    best = [p for p in options if _push_gain(state, p) == least]
    return PushTurn(throw, cells, best[rng.below(len(best))])


#: The move a playout makes in these games instead of a uniformly random one.
PLAYOUT_POLICY: dict[type, Callable[[Any, Rng], Any]] = {
    BarricadesState: _barricades_playout,
    PushState: _push_playout,
}


def playout_policy(state: State) -> Callable[[Any, Rng], Any] | None:
    """Return the game's own playout move (``PLAYOUT_POLICY``), or None for a random move."""
    return PLAYOUT_POLICY.get(type(state))


def reply_floor(state: State, move: Any, side: str) -> float:
    """Return the worth to ``side`` (``evaluate``) of the other side's best reply to ``move``, by
    material at once: the least the move leaves ``side`` (the position after the move itself when
    it ends the game, gives ``side`` another move, or the reply throws dice)."""
    after = _after(state, move)
    if after.is_terminal() or after.current_player() == side or len(after.deciders()) > 1:
        return evaluate(after, side)
    worst = WIN + 1
    for reply in after.legal_moves():
        if after.chance_of(reply) is not None:
            return evaluate(after, side)
        worst = min(worst, evaluate(_after(after, reply), side))
        if worst <= -WIN:
            break
    return worst if worst <= WIN else evaluate(after, side)


def _makeable(dice: int, highest: int) -> dict[int, float]:
    """Return, for each number 1 to ``highest``, the chance that a throw of ``dice`` dice holds
    a group of dice totalling it."""
    counts = dict.fromkeys(range(1, highest + 1), 0)
    throws = list(itertools.product(range(1, 7), repeat=dice))
    for throw in throws:
        totals = {sum(group) for k in range(1, dice + 1) for group in itertools.combinations(throw, k)}
        for total in totals & counts.keys():
            counts[total] += 1
    return {number: count / len(throws) for number, count in counts.items()}


#: What crossing a box of each number is worth in Everest's race: (1 / p) ** 3, where p is the
#: chance that a throw of three dice can make the number (12: 0.19, 6: 0.75). The last boxes
#: left decide how long a sheet takes, and the rarest numbers are the ones left waiting: crossing
#: them first when a throw allows takes about 19 throws to finish a sheet, where crossing the most
#: boxes a throw (the greedy player) takes about 23 (and varies more).
RACE_WEIGHTS = {number: (1 / p) ** 3 for number, p in _makeable(3, 12).items()}


def race_choices(state: State, moves: Sequence[Any]) -> list[int] | None:
    """Return the indexes of the moves that cross the boxes of most worth (``RACE_WEIGHTS``) in
    Everest, where no move touches another player's sheet, so a move's worth is its own; None in
    every other game."""
    if not isinstance(state, EverestState) or not moves:
        return None
    values = [sum(RACE_WEIGHTS[sum(group)] for group in m.groups) for m in moves]
    best = max(values)
    return [i for i, v in enumerate(values) if v >= best - 1e-9]


def _after(state: State, move: Any) -> State:
    after = state.copy()
    after.apply_move(move)
    return after


def afters(state: State, moves: Sequence[Any]) -> list[State]:
    """Return the position after each of the moves, in order (the tactics look at each once)."""
    return [_after(state, m) for m in moves]


def tactical_choices(
    state: State, moves: Sequence[Any], side: str, budget: int = BUDGET, made: Sequence[State] | None = None
) -> list[int] | None:
    """Return the indexes of the moves (of ``side``, in a game without dice) whose worst reply by
    the other side leaves ``side`` the most (``evaluate`` two moves ahead; a move that ends the
    game is valued by its result), in order; None when the moves throw dice, when a reply does,
    or when looking would apply more than ``budget`` moves (given up as soon as the replies
    counted so far do). ``made``
    holds the positions after the moves when they are already made."""
    if any(state.chance_of(m) is not None for m in moves):
        return None
    positions = []
    replies = []
    looked = 0
    for i, move in enumerate(moves):  # stop as soon as the replies exceed the budget
        position = made[i] if made is not None else _after(state, move)
        answers = position.legal_moves() if not position.is_terminal() else []
        looked += len(answers)
        if looked > budget:
            return None
        positions.append(position)
        replies.append(answers)
    values = []
    for after, answers in zip(positions, replies):
        if not answers:
            values.append(evaluate(after, side))
            continue
        if after.current_player() == side or len(after.deciders()) > 1:
            return None  # a second move in a row or a shared move: not this look-ahead's shape
        worst = WIN + 1
        for reply in answers:
            if after.chance_of(reply) is not None:
                return None
            worst = min(worst, evaluate(_after(after, reply), side))
            if worst <= -WIN:
                break
        values.append(worst)
    best = max(values)
    return [i for i, v in enumerate(values) if v >= best - 1e-9]


def greedy_choices(
    state: State, moves: Sequence[Any], side: str, made: Sequence[State] | None = None
) -> list[int]:
    """Return the indexes of the moves that leave ``side`` the most material at once (a win
    first), in order: the moves the search bot weighs with its playouts where its two-move
    look-ahead would be too many moves. ``made`` holds the positions after the moves when they
    are already made."""
    positions = made if made is not None else [_after(state, m) for m in moves]
    values = [evaluate(position, side) for position in positions]
    best = max(values)
    return [i for i, v in enumerate(values) if v >= best - 1e-9]


def shared_choices(state: State, moves: Sequence[Any], stage: int) -> list[int] | None:
    """Return the indexes of the moves whose choice at ``stage`` (of a move several sides share,
    ``State.deciders``) is worth the most to the side making it, each choice valued by the worst
    the later choices of the move can make of it (``evaluate`` at once), in order: in Push!, the
    placements that leave the pusher the smallest best push, or the pushes of most lanes. None in
    every other game (Verbal's offer and take are left to the playouts)."""
    if not isinstance(state, PushState) or not moves:
        return None
    side = state.deciders()[stage]
    values: dict[Hashable, float] = {}
    keys = []
    for move in moves:
        key = state.move_parts(move)[stage]
        keys.append(key)
        value = evaluate(_after(state, move), side)
        values[key] = min(values.get(key, value), value)
    best = max(values.values())
    return [i for i, key in enumerate(keys) if values[key] >= best - 1e-9]


def unsafe(state: State, move: Any, side: str) -> bool:
    """Return True when ``move`` loses at once (a resignation) or the other side (to move, in a
    game without dice) then has a reply that wins the game at once."""
    after = _after(state, move)
    if after.is_terminal():
        return after.outcome().winner not in (None, side)
    if after.current_player() == side:
        return False
    for reply in after.legal_moves():
        if after.chance_of(reply) is not None:
            return False
        last = _after(after, reply)
        if last.is_terminal() and last.outcome().winner not in (None, side):
            return True
    return False


@dataclass
class GreedyBot:
    """The one-ply greedy player: the move that leaves the most material at once (a win before
    anything, ties broken at random); its own part of a shared move chosen as if the other sides
    then chose the worst for it."""

    name: str = "greedy"

    def choose(self, state: State, rng: Rng, among: Sequence[Any] | None = None) -> Any:
        """Return a legal move (one of ``among`` if given) of the most material at once."""
        moves = ruled_moves(
            state, list(among) if among is not None else state.chance_moves(state.random_chance(rng))
        )
        deciders = state.deciders()
        parts = [state.move_parts(m) for m in moves]
        stage = next((k for k in range(len(deciders)) if len({p[k] for p in parts}) > 1), 0)
        side = deciders[stage]
        groups: dict[Hashable, list[Any]] = {}
        for move, move_parts in zip(moves, parts):
            groups.setdefault(move_parts[stage], []).append(move)
        values = {key: min(evaluate(_after(state, m), side) for m in group) for key, group in groups.items()}
        best = max(values.values())
        key = rng.choice([k for k, v in values.items() if v >= best - 1e-9])
        return groups[key][0]
