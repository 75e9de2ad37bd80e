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
``threat_win`` and ``ThreatCheck`` look three moves ahead over the threats alone (``THREATS``:
Barricades' runs onto a MacGuffin), listing only the replies that can make a threat and the
answers that can stop one.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from generator.foundation.errors import IllegalMoveError
from generator.foundation.seeding import Rng
from generator.games.aggression import AggressionState
from generator.games.barricades import (
    _AREA,
    _RAYS,
    _RING3,
    BURST,
    GRENADIER,
    MACGUFFINS_TO_WIN,
    MACHINE_GUNNER,
    PIECE_TYPES,
    BarricadesState,
    Move,
)
from generator.games.base import State
from generator.games.everest import COLUMNS, EverestState
from generator.games.nine_mens_morris import (
    _ADJ,
    _BITS_HI,
    _BITS_LO,
    _FULL,
    _NONE,
    _PAIR_A,
    _PAIR_B,
    NineMensMorrisState,
    _move,
    _removable,
)
from generator.games.nine_mens_morris import SIDES as SIDES_NMM
from generator.games.push import PAWN_OFF, SIZE, THROWS, PushState, PushTurn, _subsets
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
    plays it; uniformly random pushes leave lanes standing that any player would move. A push's
    worth is the lanes it moves whose pawn is still on, so each placement is valued by the lanes
    it blocks, and only the chosen one's pushes are listed."""
    if state.is_terminal():
        return state.random_move(rng)
    return _push_greedy_turn(state, state.random_chance(rng), rng)


def _push_greedy_turn(state: Any, throw: tuple[int, int], rng: Rng) -> PushTurn:
    """Return the turn of ``throw`` a pair of greedy players plays in Push! (``_push_playout``),
    its ties broken by ``rng``."""
    occupied = state._occupied()
    pusher = state.pusher
    base = state._blocked(pusher, occupied)
    targets = [(lane, target) for lane in range(SIZE) if (target := state._target(pusher, lane)) is not None]
    progress = state.progress[pusher]
    live = sum(1 << lane for lane in range(SIZE) if progress[lane] < PAWN_OFF)
    candidates = state._candidates(throw)
    gains = {mask: (mask & live).bit_count() for mask in candidates}
    placements = state._placements(throw, occupied)
    best_of: dict[int, int] = {}
    masks = []
    values = []
    for cells in placements:
        blocked = base
        for lane, target in targets:
            if target in cells:
                blocked |= 1 << lane
        value = best_of.get(blocked)
        if value is None:
            value = best_of[blocked] = max((gains[m] for m in candidates if not m & blocked), default=0)
        masks.append(blocked)
        values.append(value)
    least = min(values)
    chosen = [i for i, v in enumerate(values) if v == least]
    i = chosen[rng.below(len(chosen))]
    blocked = masks[i]
    options = [p for m in candidates if not m & blocked and gains[m] == least for p in state._expand(m)] or [
        ()
    ]
    return PushTurn(throw, placements[i], options[rng.below(len(options))])


#: What a Push! position is worth beyond the pushes made (``push_worth``): each lane of the
#: other side's that cannot move because a die or pawn stands on the cell its die enters, less
#: each such lane of one's own (``PUSH_BLOCK``), and the pushes the slowest lane still needs, one's
#: own less the other side's (``PUSH_LAG``: the game is won by the last pawn off, so a lane left
#: behind costs turns at the end, when few throws still move it). Found by playing the one-turn
#: player that maximises this worth against the greedy player (200 games, sides swapped): 0.6 and
#: 0.6 scored 72 %, blocking alone (0.5, 0) 62 %, the pushes alone (the greedy player) 46 %.
PUSH_BLOCK = 0.6
PUSH_LAG = 0.6
#: How many of the best-worth choices (``push_worth``) Push!'s root search weighs by its playouts.
PUSH_WIDTH = 2
#: Push!'s search spends ``PUSH_TURNS`` playout turns for each playout of its strength (about as
#: many as a greedy game from the opening plays), shared by its candidates, and gives each
#: candidate at most ``PUSH_MOST`` playouts for each (``_push_weigh``).
PUSH_TURNS = 160
PUSH_MOST = 4


def push_worth(state: Any, side: str) -> float:
    """Return a Push! position's worth to ``side``: WIN or -WIN for a finished game, otherwise its
    pushes less the other side's (``material``), plus ``PUSH_BLOCK`` for each of the other side's
    lanes blocked by a piece less each of one's own, less ``PUSH_LAG`` for each push one's slowest
    lane needs more than the other side's."""
    if state.is_terminal():
        return evaluate(state, side)
    me = 0 if side == "south" else 1
    occupied = state._occupied()
    blocked = [state._blocked(s, occupied).bit_count() for s in (0, 1)]
    lag = [PAWN_OFF - min(state.progress[s]) for s in (0, 1)]
    return (
        _push(state, side) + PUSH_BLOCK * (blocked[1 - me] - blocked[me]) - PUSH_LAG * (lag[me] - lag[1 - me])
    )


def _push_key(state: Any) -> Hashable:
    """Return what tells two Push! positions apart once a turn is over (pushes, values, roles)."""
    return (tuple(map(tuple, state.progress)), tuple(map(tuple, state.values)), state.pusher)


def _push_outcome(state: Any, side: str, seed: int) -> tuple[float, float, int]:
    """Return a Push! playout's result for ``side`` (``playout_reward``), its margin in pushes and
    the turns it played, the game finished by greedy turns (``_push_greedy_turn``) whose throws come from one stream
    and ties from another, both seeded by ``seed``: the same seed throws the same dice whatever
    the turns, so the choices weighed by one seed meet the same luck."""
    dice = Rng(seed, "push-playout/dice")
    ties = Rng(seed, "push-playout/ties")
    start = state.ply
    while not state.is_terminal():
        state.apply_move(_push_greedy_turn(state, state.random_chance(dice), ties))
    return playout_reward(state, side), _push(state, side), state.ply - start


def _push_fast_outcome(state: Any, side: str, seed: int) -> tuple[float, float, int]:
    """Return what ``_push_outcome`` returns for ``state`` (left unchanged), by the same greedy
    turns and the same draws from the same two streams, on bit masks rather than on a copied
    ``PushState`` (the playouts are nearly all of the search's work). Not for the ``adjust``
    variant, in which a die's value changes."""
    me = 0 if side == "south" else 1
    if state.is_terminal():
        return playout_reward(state, side), _push(state, side), 0
    dice = Rng(seed, "push-playout/dice")
    ties = Rng(seed, "push-playout/ties")
    progress = [list(state.progress[0]), list(state.progress[1])]
    cells_of = state.cells_of
    occupied = state._occupied()
    candidates = [_push_masks(tuple(state.values[0])), _push_masks(tuple(state.values[1]))]
    pusher = state.pusher
    ply = state.ply
    limit = state.limit
    winner = -1
    while True:
        a = 1 + dice.below(SIZE)
        b = 1 + dice.below(SIZE)
        if a > b:
            a, b = b, a
        mine = progress[pusher]
        target_lane: dict[int, int] = {}  # the cell a lane's die enters -> the lane's bit
        base = live = 0
        for lane in range(SIZE):
            p = mine[lane]
            if p < PAWN_OFF:
                live |= 1 << lane
            if p < SIZE:
                cell = p * SIZE + lane if pusher == 0 else lane * SIZE + p
                if occupied >> cell & 1:
                    base |= 1 << lane
                else:
                    target_lane[cell] = 1 << lane
        masks = candidates[pusher][a * 7 + b]
        best_of: dict[int, int] = {}  # the blocked lanes -> the most live lanes a push then moves
        # The lanes each free cell blocks (``target_lane``): the placements, in the order
        # ``PushState._placements`` lists them, are told apart only by the lanes they block.
        free_a = [target_lane.get(c, 0) for c in cells_of[a] if not occupied >> c & 1]
        if a != b:
            free_b = [target_lane.get(c, 0) for c in cells_of[b] if not occupied >> c & 1] or [0]
            free_a = free_a or [0]
            count_b: dict[int, int] = {}
            for tag in free_b:
                count_b[tag] = count_b.get(tag, 0) + 1
            pair: dict[tuple[int, int], int] = {}
            for x in set(free_a):
                for y in count_b:
                    z = base | x | y
                    if z not in best_of:
                        best_of[z] = _push_most(masks, live, z)
                    pair[(x, y)] = best_of[z]
            least = min(pair.values())
            row = {x: sum(n for y, n in count_b.items() if pair[(x, y)] == least) for x in set(free_a)}
            k = ties.below(sum(row[x] for x in free_a))
            for x in free_a:
                if k < row[x]:
                    y = [y for y in free_b if pair[(x, y)] == least][k]
                    break
                k -= row[x]
            blocked = base | x | y
        else:
            placements = list(itertools.combinations(free_a, 2)) or [(free_a[0] if free_a else 0, 0)]
            values = []
            for x, y in placements:
                z = base | x | y
                if z not in best_of:
                    best_of[z] = _push_most(masks, live, z)
                values.append(best_of[z])
            least = min(values)
            chosen = [i for i, v in enumerate(values) if v == least]
            x, y = placements[chosen[ties.below(len(chosen))]]
            blocked = base | x | y
        options = [m for m in masks if not m & blocked and (m & live).bit_count() == least] or [0]
        push = options[ties.below(len(options))] & live
        for lane in range(SIZE):
            if push >> lane & 1:
                p = mine[lane]
                step = SIZE if pusher == 0 else 1
                start = lane if pusher == 0 else lane * SIZE
                if p < SIZE:
                    occupied |= 1 << (start + p * step)  # the die enters its next cell
                if 2 <= p:
                    occupied &= ~(1 << (start + (p - 2) * step))  # the pawn's cell is left
                mine[lane] = p + 1
        ply += 1
        if min(mine) >= PAWN_OFF:
            winner = pusher
            break
        if ply >= limit:
            break
        pusher = 1 - pusher
    margin = float(sum(progress[me]) - sum(progress[1 - me]))
    turns = ply - state.ply
    if winner >= 0:
        return (1.0 if winner == me else 0.0), margin, turns
    return (1.0 if margin > 0 else 0.0 if margin < 0 else 0.5), margin, turns


def _push_most(masks: Sequence[int], live: int, blocked: int) -> int:
    """Return the most live lanes (``live``) any of ``masks`` moves that has none of ``blocked``."""
    return max(((m & live).bit_count() for m in masks if not m & blocked), default=0)


@lru_cache(maxsize=1024)
def _push_masks(values: tuple[int, ...]) -> tuple[list[int], ...]:
    """Return, by ``a * 7 + b`` for each throw a <= b, the lane masks a side with dice ``values``
    may push (``PushState._candidates``: the dice adding up to the total, or one of a thrown
    value), in the same order."""
    by_sum, singles = _subsets(values)
    table: list[list[int]] = [[] for _ in range(7 * 7)]
    for a, b in THROWS:
        masks = set(by_sum.get(a + b, ()))
        masks.update(singles.get(a, ()))
        masks.update(singles.get(b, ()))
        table[a * 7 + b] = sorted(masks)
    return tuple(table)


def _push_weigh(positions: Sequence[Any], side: str, playouts: int, rng: Rng) -> list[tuple[float, float]]:
    """Return, for each position, ``side``'s total playout result and margin over the same seeds
    (``_push_outcome``: common dice, so the differences are the choices'), as many seeds as a
    budget of ``playouts * PUSH_TURNS`` playout turns allows over all the positions (at least one,
    at most ``playouts * PUSH_MOST`` a position): a playout from the opening plays about
    ``PUSH_TURNS`` turns, one near the end a few, so the end of a race, where one throw decides,
    is weighed by many more playouts at no more CPU."""
    base = rng.below(1 << 30)
    budget = playouts * PUSH_TURNS
    most = max(1, playouts * PUSH_MOST)
    found = [(0.0, 0.0) for _ in positions]
    spent = 0
    for j in range(most):
        for k, position in enumerate(positions):
            if position.adjust:
                result, gap, turns = _push_outcome(position.copy(), side, base + j)
            else:
                result, gap, turns = _push_fast_outcome(position, side, base + j)
            total, margin = found[k]
            found[k] = (total + result, margin + gap)
            spent += turns
        if spent >= budget:
            break
    return found


def push_root(state: State, moves: Sequence[Any], stage: int, playouts: int, rng: Rng) -> Any:
    """Return the search's choice in Push! (``stage`` 0: the thrower's placement, 1: the pusher's
    push, among ``moves``, the turns of one throw), or None in every other game.

    Every distinct outcome is a candidate, not only the greedy player's: the pusher's pushes by
    the position they leave (a push of fewer lanes that blocks the other side's dice is one), the
    thrower's placements by the position the pusher's reply of most worth leaves. The
    ``PUSH_WIDTH`` candidates of most worth (``push_worth``; a placement by the best push it
    leaves the pusher) are weighed by playouts from the position each leaves, a budget of playout
    turns shared among them and every candidate meeting the same dice (``_push_weigh``); the best
    result wins, then the best margin."""
    if not isinstance(state, PushState) or not moves:
        return None
    deciders = state.deciders()
    side = deciders[stage]
    pusher = deciders[-1]
    if stage == len(deciders) - 1:
        best: dict[Hashable, tuple[float, int, Any]] = {}
        for i, move in enumerate(moves):
            after = _after(state, move)
            key = _push_key(after)
            if key not in best:
                best[key] = (push_worth(after, side), i, after)
        ranked = sorted(best.values(), key=lambda entry: (-entry[0], entry[1]))[:PUSH_WIDTH]
        if len(ranked) == 1 or ranked[0][0] >= WIN:
            return moves[ranked[0][1]]
        weighed = _push_weigh([entry[2] for entry in ranked], side, playouts, rng)
        pick = max(range(len(ranked)), key=lambda k: (weighed[k], ranked[k][0]))
        return moves[ranked[pick][1]]
    replies: dict[Hashable, dict[Hashable, tuple[float, int, Any]]] = {}
    for i, move in enumerate(moves):
        cells = state.move_parts(move)[stage]
        after = _after(state, move)
        key = _push_key(after)
        options = replies.setdefault(cells, {})
        if key not in options:
            options[key] = (push_worth(after, pusher), i, after)
    placements: dict[Hashable, tuple[float, int, Any]] = {}
    for options in replies.values():
        reply = max(options.values(), key=lambda entry: (entry[0], -entry[1]))
        key = _push_key(reply[2])  # placements whose best replies leave the same position are one
        if key not in placements or reply[1] < placements[key][1]:
            placements[key] = reply
    ranked = sorted(placements.values(), key=lambda entry: (entry[0], entry[1]))[:PUSH_WIDTH]
    if len(ranked) == 1:
        return moves[ranked[0][1]]
    weighed = _push_weigh([entry[2] for entry in ranked], side, playouts, rng)
    pick = max(range(len(ranked)), key=lambda k: (weighed[k], -ranked[k][0]))
    return moves[ranked[pick][1]]


def _nmm_closing(men: int, other: int, hand: int, flying: bool) -> int:
    """Return the mask of empty points onto which a side of Nine Men's Morris with men ``men``
    (the other side's ``other``) and ``hand`` men in hand closes a mill with its next move."""
    empty = _FULL ^ men ^ other
    found = 0
    for t in _BITS_LO[empty & 4095] + _BITS_HI[empty >> 12]:
        pa, pb = _PAIR_A[t], _PAIR_B[t]
        for pair in (pa, pb):
            if men & pair != pair:
                continue
            if hand:
                found |= 1 << t
                break
            movers = men & ~pair
            if flying or movers & _ADJ[t]:
                found |= 1 << t
                break
    return found


def _nmm_playout(state: Any, rng: Rng) -> Any:
    """Return a playout move in Nine Men's Morris, as a player who sees one move ahead plays: a
    move that closes a mill when there is one (removing a man that threatens a mill of its own,
    if any, else any man the rules allow), else one that blocks a point on which the other side
    would close a mill next, else a random move. Uniformly random men seldom close a mill or
    stop one, so random playouts say little about a position that any player would read."""
    if state.is_terminal():
        return state.random_move(rng)
    plain, mills = state._actions()
    side = state._side
    mine, theirs = state._men[side], state._men[side ^ 1]
    flying = state._flying
    if mills:
        action = mills[rng.below(len(mills))]
        removable = _removable(theirs) if theirs else 0
        if not removable:
            return _move(action << 5 | _NONE)
        threat = _nmm_closing(theirs, mine, state._hand[side ^ 1], flying and theirs.bit_count() == 3)
        near = 0  # the men of the other side's two-in-a-row whose third point it can reach
        for t in _BITS_LO[threat & 4095] + _BITS_HI[threat >> 12]:
            for pair in (_PAIR_A[t], _PAIR_B[t]):
                if theirs & pair == pair:
                    near |= pair & removable
        pool = near or removable
        takes = _BITS_LO[pool & 4095] + _BITS_HI[pool >> 12]
        return _move(action << 5 | takes[rng.below(len(takes))])
    threat = _nmm_closing(theirs, mine, state._hand[side ^ 1], flying and theirs.bit_count() == 3)
    if threat:
        blocks = [a for a in plain if threat >> (a & 31) & 1]
        if blocks:
            return _move(blocks[rng.below(len(blocks))] << 5 | _NONE)
    return _move(plain[rng.below(len(plain))] << 5 | _NONE)


#: The move a playout makes in these games instead of a uniformly random one.
PLAYOUT_POLICY: dict[type, Callable[[Any, Rng], Any]] = {
    BarricadesState: _barricades_playout,
    NineMensMorrisState: _nmm_playout,
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


#: Everest's race: the throws a sheet still needs, counted per number as (one box of it left,
#: both left), fitted by least squares to the fewest throws on average to finish every one of the
#: 3^12 sheets (computed exactly, sheet by sheet, by ``bench/bench_everest.py --fit``, which
#: prints this table; a fit within 0.3 throws of the exact figure). A sheet's worth is the sum
#: over its numbers left, plus a constant, so a split is worth the throws it saves. Rare numbers
#: weigh most (two 12s left: 4.1 throws, a 12 needs 6 + 6 or three dice), and the first of two
#: boxes of a number saves more than the last: crossing so takes 18.5 throws on average to finish
#: a sheet, the exact best 18.46, crossing the rarest number a throw makes ((1/p)^3 weights, the
#: second round's policy) 19.1, the most boxes a throw (the greedy player) 23.5.
RACE_THROWS: dict[int, tuple[float, float]] = {
    1: (0.156, 0.479),
    2: (0.147, 0.440),
    3: (0.150, 0.447),
    4: (0.125, 0.392),
    5: (0.124, 0.390),
    6: (0.103, 0.339),
    7: (0.440, 1.082),
    8: (0.461, 1.158),
    9: (0.583, 1.435),
    10: (0.663, 1.671),
    11: (0.970, 2.435),
    12: (1.518, 4.103),
}


def race_saving(crossed: Sequence[int], move: Any) -> float:
    """Return the throws an Everest split saves a sheet (``RACE_THROWS``): ``crossed`` holds how
    many boxes of each number (by index) the sheet has crossed before the move."""
    saved = 0.0
    taken: dict[int, int] = {}
    for group in move.groups:
        total = sum(group)
        taken[total] = taken.get(total, 0) + 1
    for number, count in taken.items():
        left = COLUMNS - crossed[number]
        before = RACE_THROWS[number][left - 1] if left else 0.0
        after = RACE_THROWS[number][left - count - 1] if left > count else 0.0
        saved += before - after
    return saved


def race_choices(state: State, moves: Sequence[Any]) -> list[int] | None:
    """Return the indexes of the moves that save the sheet the most throws (``race_saving``) in
    Everest, where no move touches another player's sheet, so a move's worth is its own; None in
    every other game."""
    if not isinstance(state, EverestState) or not moves:
        return None
    crossed = state.crossed[state.to_throw]
    values = [race_saving(crossed, m) for m in moves]
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


def _nmm_leaf(state: Any, side: str) -> float:
    """Return a Nine Men's Morris position's worth to ``side`` at the end of the deeper look-ahead:
    its material, with the mill the side to move closes next counted as the man it takes, and a
    double threat against the side to move that it cannot answer with a mill of its own (two
    points on which the other side closes a mill: one man blocks one) as the man it will lose."""
    value = material(state, side)
    to_move = state._side
    mine, theirs = state._men[to_move], state._men[to_move ^ 1]
    sign = 1.0 if SIDES_NMM[to_move] == side else -1.0
    hand = state._hand
    flying = state._flying
    if _nmm_closing(mine, theirs, hand[to_move], flying and mine.bit_count() == 3):
        return value + sign
    if (_nmm_closing(theirs, mine, hand[to_move ^ 1], flying and theirs.bit_count() == 3)).bit_count() >= 2:
        return value - sign
    return value


#: The games the deeper look-ahead (``deep_choices``) searches, with what a position is worth at its
#: end, where material alone would miss what the side to move does next. Nine Men's Morris is
#: lost to forks set up two or three moves before the mill closes, which the two-move look-ahead
#: and a few thousand playouts over 15 to 24 moves a turn do not see.
LEAF_VALUE: dict[type, Callable[[Any, str], float]] = {NineMensMorrisState: _nmm_leaf}


class _Spent(Exception):
    """The deeper look-ahead ran out of positions."""


def deep_choices(
    state: State, moves: Sequence[Any], side: str, budget: int, made: Sequence[State] | None = None
) -> tuple[list[int], int] | None:
    """Return the indexes of the moves (of ``side``, in a game without dice, one side choosing each
    move) whose value four plies ahead, and six while the budget lasts, is the most, with the depth
    reached: minimax with alpha-beta pruning (replies tried most material first), a finished game
    valued by its result (``evaluate``) and a position at the end by ``LEAF_VALUE``. None in a
    game without ``LEAF_VALUE``, when no depth beyond the two-move look-ahead fits in ``budget``
    positions, or when a position met throws dice or is shared.
    ``made`` holds the positions after the moves when they are already made."""
    leaf = LEAF_VALUE.get(type(state))
    if leaf is None:
        return None
    left = [budget]

    def value(position: State, depth: int, alpha: float, beta: float) -> float:
        if position.is_terminal():
            return evaluate(position, side)
        if depth == 0:
            return leaf(position, side)
        if len(position.deciders()) > 1:
            raise _Spent
        replies = position.legal_moves()
        left[0] -= len(replies)
        if left[0] < 0:
            raise _Spent
        children = []
        for reply in replies:
            if position.chance_of(reply) is not None:
                raise _Spent
            children.append(_after(position, reply))
        maximising = position.current_player() == side
        children.sort(key=lambda child: evaluate(child, side), reverse=maximising)
        if maximising:
            best = -WIN - 1
            for child in children:
                best = max(best, value(child, depth - 1, alpha, beta))
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
            return best
        worst = WIN + 1
        for child in children:
            worst = min(worst, value(child, depth - 1, alpha, beta))
            beta = min(beta, worst)
            if alpha >= beta:
                break
        return worst

    positions = made if made is not None else [_after(state, m) for m in moves]
    found: tuple[list[int], int] | None = None  # the deepest search finished
    for depth in (4, 6):
        values: list[float] = []
        best = -WIN - 1
        try:
            order = sorted(range(len(positions)), key=lambda i: -evaluate(positions[i], side))
            scored: dict[int, float] = {}
            for i in order:
                v = value(positions[i], depth - 1, best - 1e-6, WIN + 1)
                scored[i] = v
                best = max(best, v)
            values = [scored[i] for i in range(len(positions))]
        except _Spent:
            break
        found = ([i for i, v in enumerate(values) if v >= best - 1e-9], depth)
    return found


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


def unsafe(state: State, move: Any, side: str, killers: list[Any] | None = None) -> bool:
    """Return True when ``move`` loses at once (a resignation) or the other side (to move, in a
    game without dice) then has a reply that wins the game at once.

    ``killers``, when given, holds replies that won against other moves of the same position:
    each still legal is tried first (``State.check_move``), and a winning reply found otherwise is
    added to it. The answer is the same; in a lost position, where one reply wins against most
    moves, checking every move then takes a position or two each instead of trying the replies
    one by one."""
    after = _after(state, move)
    if after.is_terminal():
        return after.outcome().winner not in (None, side)
    if after.current_player() == side:
        return False
    for reply in killers or ():
        try:
            after.check_move(reply)
        except IllegalMoveError:
            continue
        if after.chance_of(reply) is not None:
            break
        last = _after(after, reply)
        if last.is_terminal() and last.outcome().winner not in (None, side):
            return True
    for reply in after.legal_moves():
        if after.chance_of(reply) is not None:
            return False
        last = _after(after, reply)
        if last.is_terminal() and last.outcome().winner not in (None, side):
            if killers is not None and reply not in killers:
                killers.insert(0, reply)
            return True
    return False


def _barricades_lines(state: Any, s: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """Return the ways side ``s`` of Barricades would have to win at once were it to move by
    running onto a MacGuffin, as (soldier's square, MacGuffin, the squares between): none unless
    one more MacGuffin wins. Each ray out of a MacGuffin is walked to its first soldier."""
    if state.captured[s] < MACGUFFINS_TO_WIN - 1 or not state.macguffins:
        return []
    board, barricades, side, kind = state.board, state.field.barricades, state.side, state.kind
    found = []
    for macguffin in state.macguffins:
        for ray in _RAYS[macguffin]:
            for step, square in enumerate(ray):
                if square in barricades:
                    break
                p = board[square]
                if p >= 0:
                    if side[p] == s and PIECE_TYPES[kind[p]].move > step:
                        found.append((square, macguffin, ray[:step]))
                    break
    return found


def _barricades_threats(state: Any, side: str) -> int:
    """Return how many ways ``side`` would have to win Barricades at once were it to move by
    running onto a MacGuffin (a win by killing every enemy soldier is left to the two-move checks,
    ``unsafe`` and ``reply_floor``)."""
    return len(_barricades_lines(state, 0 if side == "red" else 1))


def _barricades_moves(
    state: Any, ends: Callable[[int, int], bool], targets: Callable[[int, int, int], list[int]]
) -> list[Any]:
    """Return the Barricades moves of the side to move that end on a square ``ends(piece, square)``
    accepts, and every move (a soldier's run, or none) with a shot ``targets(piece, kind, square)``
    allows from where it ends, ammunition permitting."""
    me = state.to_move
    ammo_squares = state.field.ammo
    found = []
    for p, square in enumerate(state.square):
        if square < 0 or state.side[p] != me:
            continue
        kind = state.kind[p]
        for dst in [square] + state._slides(square, PIECE_TYPES[kind].move):
            if dst != square and ends(p, dst):
                found.append(Move(square, dst))
            ammo = PIECE_TYPES[kind].ammo if dst != square and dst in ammo_squares else state.ammo[p]
            if ammo > 0:
                found.extend(Move(square, dst, target) for target in targets(p, kind, dst))
    return found


def _barricades_replies(state: Any) -> list[Any]:
    """Return the moves of the side to move in Barricades that can make it a threat (``THREATS``):
    with no MacGuffin yet, only a run onto one (one more is then a win in reach), with any shot
    from there; once it holds one, the moves that start or end within four squares of a MacGuffin
    along a line (a runner arriving, or a soldier of its own leaving a line it blocked) and the
    shots that may kill a soldier blocking such a line."""
    s = state.to_move
    macguffins = state.macguffins
    enemies = state._enemy_squares(s)
    if not state.captured[s]:
        return _barricades_moves(
            state,
            lambda p, dst: dst in macguffins,
            lambda p, kind, dst: state._targets(kind, dst, enemies) if dst in macguffins else [],
        )
    reach = max(t.move for t in PIECE_TYPES)
    lines = {square for macguffin in macguffins for ray in _RAYS[macguffin] for square in ray[:reach]}
    blockers = [square for square in enemies if square in lines]
    square_of = state.square

    def targets(p: int, kind: int, dst: int) -> list[int]:
        if square_of[p] in lines:
            return state._targets(kind, dst, enemies)
        if kind == GRENADIER:
            return [t for t in _RING3[dst] if any(a in lines for a in _AREA[t])]
        if kind == MACHINE_GUNNER:
            return [BURST] if state._burst(s, dst, blockers) else []
        return state._targets(kind, dst, blockers)

    return _barricades_moves(state, lambda p, dst: square_of[p] in lines or dst in lines, targets)


def _barricades_answers(state: Any) -> list[Any]:
    """Return the moves of the side to move in Barricades that might stop the other side's wins
    at once: a run onto a MacGuffin in reach or onto a square between it and its runner (with any
    shot at a runner from there), a shot at a runner (a grenade landing within one square of it,
    a burst reaching it); every legal move when there is no such win to stop."""
    other = 1 - state.to_move
    lines = _barricades_lines(state, other)
    if not lines:
        return state.legal_moves()
    squares: set[int] = set()
    runners: list[int] = []
    for src, dst, between in lines:
        if src not in runners:
            runners.append(src)
        squares.update(between)
        squares.add(dst)
    near = {square for runner in runners for square in _AREA[runner]}

    def targets(p: int, kind: int, dst: int) -> list[int]:
        if kind == GRENADIER:
            return [t for t in _RING3[dst] if t in near]
        if kind == MACHINE_GUNNER:
            return [BURST] if state._burst(state.to_move, dst, runners) else []
        return state._targets(kind, dst, runners)

    return _barricades_moves(state, lambda p, dst: dst in squares, targets)


#: Games whose threats the three-move look-ahead reads (``threat_win``, ``threat_loss``): how
#: many ways a side would win at once were it to move, which replies can make such a threat,
#: and which answers can stop one (each of the last two a superset of the moves that do).
#: Barricades is a race for two MacGuffins, lost to a double threat (two MacGuffins in reach, or
#: two soldiers on one) that the two-move checks see only once it is made.
THREATS: dict[
    type, tuple[Callable[[Any, str], int], Callable[[Any], list[Any]], Callable[[Any], list[Any]]]
] = {BarricadesState: (_barricades_threats, _barricades_replies, _barricades_answers)}
#: The most positions the three-move look-ahead over the threats makes for one choice of move
#: (about 25 microseconds each in Barricades) before it gives up.
THREAT_BUDGET = 6000


def threat_win(state: State, moves: Sequence[Any], side: str, made: Sequence[State] | None = None) -> Any:
    """Return a move of ``side`` after which every reply of the other side leaves ``side`` a win at
    once (a threat that cannot be stopped: two MacGuffins in reach, or one in reach of two
    soldiers), the move making the most threats first; None when there is none, in a game without
    ``THREATS``, or when looking would make more than ``THREAT_BUDGET`` positions."""
    game = THREATS.get(type(state))
    if game is None or not moves:
        return None
    threats, _, answers = game
    positions = made if made is not None else [_after(state, m) for m in moves]
    ranked = []
    for i, after in enumerate(positions):
        if after.is_terminal() or after.current_player() == side:
            continue
        if threats(after, after.current_player()):
            continue  # the other side wins first
        count = threats(after, side)
        if count:
            ranked.append((-count, i))
    ranked.sort()
    budget = THREAT_BUDGET
    for _, i in ranked:
        after = positions[i]
        stopped = False
        for reply in answers(after):
            budget -= 1
            if budget < 0:
                return None
            last = _after(after, reply)
            if last.is_terminal():
                if last.outcome().winner != side:
                    stopped = True
                    break
                continue
            if not threats(last, side):
                stopped = True
                break
        if not stopped:
            return moves[i]
    return None


class ThreatCheck:
    """The three-move look-ahead over the threats for one choice of move, sharing one budget of
    ``THREAT_BUDGET`` positions: ``loses(move)`` is True when, after ``move``, the other side has a
    reply that leaves ``side`` no move stopping a win at once (a double threat walked into)."""

    def __init__(self, state: State, side: str) -> None:
        self.state = state
        self.side = side
        self.game = THREATS.get(type(state))
        self.budget = THREAT_BUDGET

    def spent(self) -> bool:
        """Return True once the budget is used up (every later move is then taken as safe)."""
        return self.budget < 0

    def loses(self, move: Any) -> bool:
        """Return True when ``move`` walks into a threat ``side`` cannot stop (see the class); False
        in a game without ``THREATS`` and once the budget is spent."""
        if self.game is None or self.budget < 0:
            return False
        threats, replies, answers = self.game
        side = self.side
        after = _after(self.state, move)
        self.budget -= 1
        if after.is_terminal():
            return after.outcome().winner not in (None, side)  # a resignation
        if after.current_player() == side:
            return False
        other = after.current_player()
        for reply in replies(after):
            self.budget -= 1
            if self.budget < 0:
                return False
            last = _after(after, reply)
            if last.is_terminal():
                if last.outcome().winner == other:
                    return True
                continue
            if not threats(last, other) or threats(last, side):
                continue  # no threat to stop, or side wins first
            stopped = False
            for answer in answers(last):
                self.budget -= 1
                if self.budget < 0:
                    return False
                end = _after(last, answer)
                if end.is_terminal():
                    stopped = end.outcome().winner == side
                else:
                    stopped = not threats(end, other)
                if stopped:
                    break
            if not stopped:
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
