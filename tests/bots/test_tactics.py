"""The tactics suite: positions with a win in one or a loss to stop in one, and the answers the
rules accept; the computer at its default strength must find one in every position.

Positions are written by hand from the rules (Nine Men's Morris mills, played move by move) or
found by playing random legal games through each rules module and stopping where the rules give
the side to choose a move that wins at once (close out the game, take the Brain, take the last
MacGuffin, push the last pawn off, the attack or take that decides) or leave, among moves of which
some let the other side win at once, one that does not. The acceptable answers are worked out here
from the rules by trying every move (and every reply), not from the bot's code.

Dice games: Centennial and Everest have no reply to stop (the other side's chances wait on its own
throw), so their tactic is the win in one (the throw's option, or in Centennial the claim, that
finishes); Push! has the winning push.
"""

from __future__ import annotations

from typing import Any

import pytest

from generator.bots import DEFAULT_PLAYOUTS, SearchBot
from generator.bots.tactics import GreedyBot
from generator.foundation.seeding import Rng
from generator.games import GAMES
from generator.games.base import State

PER_KIND = 3
MAX_GAMES = 60


def _after(state: State, move: Any) -> State:
    after = state.copy()
    after.apply_move(move)
    return after


def _wins(state: State, move: Any, side: str) -> bool:
    after = _after(state, move)
    return after.is_terminal() and after.outcome().winner == side


def _lets_win(state: State, move: Any, side: str) -> bool:
    """True when ``move`` loses at once or some reply of the other side then wins the game."""
    after = _after(state, move)
    if after.is_terminal():
        return after.outcome().winner not in (None, side)  # a move that loses at once (resigning)
    other = after.current_player()
    return other != side and any(_wins(after, reply, other) for reply in after.legal_moves())


def _choice(state: State, rng: Rng) -> tuple[str, list[Any]]:
    """Return the side choosing and the moves it chooses among at the last choice of a move,
    once the dice are thrown and any earlier choice is made at random."""
    moves = state.chance_moves(state.random_chance(rng))
    successful = getattr(state, "successful_attacks", None)
    if successful is not None and successful():  # Aggression: a successful attack is compulsory
        moves = [m for m in moves if m in successful()]
    deciders = state.deciders()
    stage = len(deciders) - 1
    if stage:
        moves = state.completions(rng.choice(moves), stage)
    return deciders[stage], moves


def found_positions(game: str, kind: str) -> list[tuple[State, str, list[Any], set[Any]]]:
    """Return up to PER_KIND positions of ``kind`` ('win' or 'stop') met in random games of
    ``game``: the state, the side choosing, the moves it chooses among and those that answer."""
    rules = GAMES[game]
    found: list[tuple[State, str, list[Any], set[Any]]] = []
    for index in range(MAX_GAMES):
        rng = Rng(index, f"tactics/{game}")
        state = rules.new_state(index % 5 + 1 if rules.takes_seed() else None)
        while not state.is_terminal() and len(found) < PER_KIND:
            side, moves = _choice(state, rng)
            deterministic = all(state.chance_of(m) is None for m in moves) and len(state.deciders()) == 1
            wins = {m for m in moves if _wins(state, m, side)}
            if kind == "win" and 0 < len(wins) < len(moves):
                found.append((state.copy(), side, moves, wins))
                break
            # a random move that lets the other side win first, so that most plies cost one look
            if kind == "stop" and deterministic and not wins and _lets_win(state, rng.choice(moves), side):
                safe = {m for m in moves if not _lets_win(state, m, side)}
                if 0 < len(safe) < len(moves):
                    found.append((state.copy(), side, moves, safe))
                    break
            state.apply_move(rng.choice(moves))
        if len(found) >= PER_KIND:
            break
    return found


WIN_GAMES = sorted(GAMES)
STOP_GAMES = ["aggression", "barricades", "nine-mens-morris", "take-the-brain"]


def _check(state: State, side: str, moves: list[Any], answers: set[Any], seed: int) -> None:
    before = state.history[:]
    move = SearchBot(DEFAULT_PLAYOUTS).choose(state, Rng(seed, "tactics"), moves)
    assert state.history == before
    assert move in answers, (
        f"{side} played {state.move_str(move)}; answers: {sorted(state.move_str(m) for m in answers)}\n{state.text()}"
    )


@pytest.mark.parametrize("game", WIN_GAMES)
def test_the_computer_takes_a_win_in_one(game: str) -> None:
    positions = found_positions(game, "win")
    assert positions, f"no win in one met in {MAX_GAMES} random {game} games"
    for i, (state, side, moves, wins) in enumerate(positions):
        _check(state, side, moves, wins, i)


@pytest.mark.parametrize("game", STOP_GAMES)
def test_the_computer_stops_a_loss_in_one(game: str) -> None:
    positions = found_positions(game, "stop")
    assert positions, f"no loss to stop met in {MAX_GAMES} random {game} games"
    for i, (state, side, moves, safe) in enumerate(positions):
        _check(state, side, moves, safe, i)


# -- Nine Men's Morris by hand: mills to block and mills to close -------------------------------

MILLS_TO_BLOCK = [
    # White's two men, Black's first man elsewhere, White's second man: Black must take the third point.
    (["a1", "b6", "d1"], {"g1"}),
    (["a1", "f2", "a4"], {"a7"}),
    (["d1", "b6", "g1"], {"a1"}),
    (["b2", "f6", "d2"], {"f2"}),
    (["d5", "b6", "d6"], {"d7"}),
    (["c3", "b6", "c4"], {"c5"}),
    (["e3", "b6", "e4"], {"e5"}),
    (["g7", "b6", "d7"], {"a7"}),
    (["a7", "b6", "g7"], {"d7"}),
    (["f4", "b6", "g4"], {"e4"}),
]


def _nmm(moves: list[str]) -> State:
    state = GAMES["nine-mens-morris"].new_state()
    for text in moves:
        state.play(text)
    return state


@pytest.mark.parametrize(("opening", "block"), MILLS_TO_BLOCK)
def test_the_computer_blocks_a_mill_at_nine_mens_morris(opening: list[str], block: set[str]) -> None:
    state = _nmm(opening)
    answers = {m for m in state.legal_moves() if state.move_str(m) in block}
    assert answers and len(answers) < len(state.legal_moves())
    _check(state, state.current_player(), state.legal_moves(), answers, len(opening))


MILLS_TO_CLOSE = [
    # White to move with two men of a mill and the third point empty: the mill, any removal.
    (["a1", "b6", "d1", "b4"], "g1"),
    (["a1", "f2", "a4", "f4"], "a7"),
    (["d5", "b6", "d6", "b4"], "d7"),
    (["c3", "f2", "c4", "f4"], "c5"),
]


@pytest.mark.parametrize(("opening", "point"), MILLS_TO_CLOSE)
def test_the_computer_closes_a_mill_at_nine_mens_morris(opening: list[str], point: str) -> None:
    state = _nmm(opening)
    answers = {m for m in state.legal_moves() if state.move_str(m).startswith(point + "x")}
    assert answers
    _check(state, state.current_player(), state.legal_moves(), answers, len(opening))


def test_the_computer_moves_a_man_to_close_a_mill_at_nine_mens_morris() -> None:
    from generator.games.nine_mens_morris import NineMensMorrisState

    state = NineMensMorrisState.from_position(
        {
            "a1": "white",
            "d1": "white",
            "g4": "white",
            "a7": "black",
            "d7": "black",
            "b6": "black",
            "f6": "black",
        },
        to_move="white",
        turns=18,
    )
    answers = {m for m in state.legal_moves() if state.move_str(m).startswith("g4-g1x")}
    assert answers
    _check(state, "white", state.legal_moves(), answers, 1)


def test_the_greedy_player_takes_material_and_wins() -> None:
    state = _nmm(["a1", "b6", "d1", "b4"])
    move = GreedyBot().choose(state, Rng(1, "greedy"))
    assert state.move_str(move).startswith("g1x")


def _makes(dice: tuple[int, ...], total: int) -> bool:
    """Return True when some group of the dice totals ``total`` (Everest's rule for a box)."""
    from itertools import combinations

    return any(sum(group) == total for k in range(1, len(dice) + 1) for group in combinations(dice, k))


@pytest.mark.parametrize("dice", [(6, 6, 1), (5, 6, 1), (4, 4, 4), (3, 4, 5)])
def test_the_computer_crosses_the_rarest_number_a_throw_makes_at_everest(dice: tuple[int, ...]) -> None:
    """Everest is a race on each player's own sheet, decided by the boxes left waiting: on an
    empty sheet, of the numbers these throws can make, the one fewest throws make (counted here
    over all 216 throws: a 12 in each) is crossed, even when another split crosses more boxes."""
    state = GAMES["everest"].new_state(None)
    moves = state.chance_moves(tuple(sorted(dice)))
    made = {sum(group) for move in moves for group in move.groups}
    throws = [(a, b, c) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)]
    rarest = min(made, key=lambda t: sum(_makes(throw, t) for throw in throws))
    chosen = SearchBot(DEFAULT_PLAYOUTS).choose(state, Rng(1, "everest-race"), moves)
    assert rarest in {sum(group) for group in chosen.groups}, (dice, rarest, state.move_str(chosen))


def _everest_sheet(left: dict[int, int]) -> State:
    """Return an Everest position, P1 to throw, whose sheet has ``left`` boxes of each number
    still empty (every other box crossed); P2's sheet is empty."""
    state = GAMES["everest"].new_state(None)
    for number in range(1, 13):
        state.crossed[0][number] = 2 - left.get(number, 0)
    state.totals[0] = 24 - sum(left.values())
    return state


def _fewest_throws(left: tuple[int, ...], memo: dict[tuple[int, ...], float]) -> float:
    """Return the fewest throws on average that finish a sheet with ``left[n]`` boxes of number n
    empty, exactly: each of the 216 throws allows the splits the rules list, and the best is
    taken (E = 1 + sum over throws of p * min(E, best split's E), solved for E)."""
    if not any(left):
        return 0.0
    if left in memo:
        return memo[left]
    state = _everest_sheet({n: k for n, k in enumerate(left) if k})
    from collections import Counter
    from itertools import product

    best: list[float] = []
    throws = Counter(tuple(sorted(throw)) for throw in product(range(1, 7), repeat=3))  # 216 alike
    for throw, ways in throws.items():
        after = [
            tuple(k - sum(1 for g in move.groups if sum(g) == n) for n, k in enumerate(left))
            for move in state.chance_moves(throw)
            if move.groups
        ]
        best += [min((_fewest_throws(a, memo) for a in after), default=float("inf"))] * ways
    expected = 1e9
    for _ in range(100):  # the throws after which staying beats every split are those ignored
        useful = [b for b in best if b < expected]
        expected = (216 + sum(useful)) / len(useful)
    memo[left] = expected
    return expected


#: Everest sheets near the end (boxes of each number left) and a throw, chosen where crossing the
#: most boxes is not the fastest finish (two 6s or one 12 from 6 + 6; a 5 and a 6, or an 11), nor,
#: in the last four, crossing the rarest number the throw makes (a 2 and a 6, or 2 + 6 = 8 with the
#: other 2 left; a 5 from 2 + 3, or a 6 from all three; a 2 from 1 + 1, or a 7 from 1 + 6; the 1,
#: or a 3 from 1 + 2).
EVEREST_RACES = [
    ({12: 1, 6: 2}, (2, 6, 6)),
    ({11: 2, 5: 1, 6: 1}, (3, 5, 6)),
    ({8: 2, 2: 2, 6: 1}, (2, 2, 6)),
    ({5: 1, 6: 2}, (1, 2, 3)),
    ({7: 2, 2: 1, 11: 1}, (1, 1, 6)),
    ({9: 2, 1: 1, 3: 2}, (1, 2, 2)),
]


@pytest.mark.parametrize(("left", "dice"), EVEREST_RACES)
def test_the_computer_finishes_an_everest_sheet_in_the_fewest_throws(
    left: dict[int, int], dice: tuple[int, ...]
) -> None:
    """Everest is won by the sheet finished first, so a split is as good as the fewest throws on
    average the sheet then needs, worked out here exactly from the rules' splits over every sheet
    the one given can become: the computer takes a split of least such throws."""
    state = _everest_sheet(left)
    memo: dict[tuple[int, ...], float] = {}
    counts = tuple(left.get(n, 0) for n in range(13))
    moves = state.chance_moves(dice)
    value = {
        move: _fewest_throws(
            tuple(k - sum(1 for g in move.groups if sum(g) == n) for n, k in enumerate(counts)), memo
        )
        for move in moves
    }
    best = min(value.values())
    most_boxes = max(len(move.groups) for move in moves)
    assert any(len(m.groups) == most_boxes and value[m] > best + 0.1 for m in moves)  # greedy is wrong
    chosen = SearchBot(DEFAULT_PLAYOUTS).choose(state, Rng(1, "everest-finish"), moves)
    assert value[chosen] <= best + 1e-9, (state.move_str(chosen), value[chosen], best)


def _advanced(state: State, move: Any) -> int:
    """Return how many of the pusher's lanes a Push! turn moves on (by their recorded progress)."""
    side = state.current_player()
    after = _after(state, move)
    lanes = "abcdef" if side == "south" else "123456"
    return sum(after.lane_progress(side, lane) - state.lane_progress(side, lane) for lane in lanes)


def test_push_playouts_block_the_best_push_and_push_the_most_lanes() -> None:
    """The search's playouts at Push! play each turn as a pair of greedy players would, not at
    random: the thrower's placement leaves the pusher the smallest best push of that throw, and
    the pusher's push moves on as many lanes as any push the placement leaves (worked out here
    from every turn the throw allows)."""
    from generator.bots.tactics import playout_policy

    rng = Rng(3, "push-playout")
    for seed in (1, 2, 3):
        state = GAMES["push"].new_state(seed)
        policy = playout_policy(state)
        assert policy is not None
        while not state.is_terminal():
            move = policy(state, rng)
            turns = state.chance_moves(move.throw)
            assert move in turns
            best: dict[Any, int] = {}
            for turn in turns:
                best[turn.cells] = max(best.get(turn.cells, 0), _advanced(state, turn))
            assert best[move.cells] == min(best.values())
            assert _advanced(state, move) == best[move.cells]
            state.apply_move(move)


def _runs_onto_a_macguffin(state: State) -> bool:
    """True when the side to move at Barricades has a move ending on a MacGuffin that wins the
    game (a MacGuffin is taken by ending a move on it; two win)."""
    side = state.current_player()
    squares = set(state.remaining_macguffins())
    return any(
        not move.resign
        and state.move_str(move).split("x")[0].split("-")[-1] in squares
        and _wins(state, move, side)
        for move in state.legal_moves()
    )


def _unstoppable(state: State, move: Any) -> bool:
    """True when, after ``move``, every reply of the other side (that does not end the game) leaves
    the mover a winning run onto a MacGuffin: a threat that cannot be stopped."""
    side = state.current_player()
    after = _after(state, move)
    if after.is_terminal():
        return after.outcome().winner == side
    for reply in after.legal_moves():
        last = _after(after, reply)
        if last.is_terminal():
            if last.outcome().winner != side:
                return False
            continue
        if not _runs_onto_a_macguffin(last):
            return False
    return True


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_the_computer_makes_a_threat_that_cannot_be_stopped_at_barricades(seed: int) -> None:
    """On these battlefields the side moving first can take a MacGuffin and leave a second in
    reach in a way no reply stops (two MacGuffins in reach, or one in reach of two soldiers): the
    computer finds such a move. The answers are worked out here by trying every reply, from the
    rules: a move that takes a MacGuffin is the only way to hold one before a second wins."""
    state = GAMES["barricades"].new_state(seed)
    squares = set(state.remaining_macguffins())
    grabs = [
        m
        for m in state.legal_moves()
        if not m.resign and state.move_str(m).split("x")[0].split("-")[-1] in squares
    ]
    answers = {m for m in grabs if _unstoppable(state, m)}
    assert answers, f"no unstoppable threat on battlefield {seed}"
    _check(state, state.current_player(), state.legal_moves(), answers, seed)


def _walks_into_a_threat(state: State, move: Any) -> bool:
    """True when, after ``move``, the other side has a reply after which every answer of the
    mover (but one that wins at once) leaves the other side a winning run onto a MacGuffin, or the
    game lost: a double threat walked into."""
    side = state.current_player()
    after = _after(state, move)
    if after.is_terminal():
        return after.outcome().winner != side
    # Each reply's answers are tried one by one until one answers it, those that answered an
    # earlier reply first: the same verdict as trying them all, in any order.
    answered: list[str] = []
    for reply in after.legal_moves():
        last = _after(after, reply)
        if last.is_terminal():
            if last.outcome().winner != side:
                return True
            continue
        answers = {last.move_str(answer): answer for answer in last.legal_moves()}
        first = [name for name in answered if name in answers]
        tried = first + [name for name in answers if name not in set(first)]
        found = next((name for name in tried if _answers(last, answers[name], side)), None)
        if found is None:
            return True
        answered = [found] + [name for name in answered if name != found]
    return False


def _answers(state: State, answer: Any, side: str) -> bool:
    """True when ``answer`` of ``side`` answers a double threat: it wins at once, or it leaves the
    game going with no winning run onto a MacGuffin for the other side."""
    end = _after(state, answer)
    if end.is_terminal():
        return end.outcome().winner == side
    return not _runs_onto_a_macguffin(end)


@pytest.mark.parametrize("seed", [10, 16])
def test_the_computer_does_not_take_a_macguffin_into_a_double_threat_at_barricades(seed: int) -> None:
    """On these battlefields the first side's one move onto a MacGuffin lets the other side take
    one too and leave a second in reach twice over, which no answer stops (worked out here by
    trying every reply and answer); the computer plays a move that walks into no such threat."""
    state = GAMES["barricades"].new_state(seed)
    squares = set(state.remaining_macguffins())
    grabs = [
        m
        for m in state.legal_moves()
        if not m.resign and state.move_str(m).split("x")[0].split("-")[-1] in squares
    ]
    assert grabs and all(_walks_into_a_threat(state, m) for m in grabs)
    move = SearchBot(DEFAULT_PLAYOUTS).choose(state, Rng(seed, "tactics"))
    assert not _walks_into_a_threat(state, move), f"{state.move_str(move)} walks into a double threat"


def _closes_a_mill(state: State, move: Any) -> bool:
    """True when a Nine Men's Morris move makes a mill of the mover's that was not there before."""
    side = state.current_player()
    before = {tuple(mill) for mill in state.mills_of(side)}
    return bool({tuple(mill) for mill in _after(state, move).mills_of(side)} - before)


def _mill_points(state: State) -> set[str]:
    """Return the points on which the side not to move would close a mill were it its turn (the
    same men, in hand and on the board, the other side to move)."""
    from generator.games.nine_mens_morris import NineMensMorrisState

    other = "black" if state.current_player() == "white" else "white"
    turned = NineMensMorrisState.from_position(
        state.pieces(), to_move=other, in_hand=state.in_hand(), turns=state.turns_played(), limit=10_000
    )
    if turned.is_terminal():
        return set()
    return {
        state.move_str(m).split("x")[0].split("-")[-1]
        for m in turned.legal_moves()
        if _closes_a_mill(turned, m)
    }


def test_nine_mens_morris_playouts_close_a_mill_else_block_one() -> None:
    """The search's playouts at Nine Men's Morris play as a player who looks one move ahead: a
    move that closes a mill when there is one, else, when the other side would close a mill on a
    point next turn and a move reaches that point, such a move (worked out here from the rules by
    trying every move of both sides)."""
    from generator.bots.tactics import playout_policy

    rng = Rng(5, "nmm-playout")
    closed = blocked = 0
    for _ in range(12):
        state = GAMES["nine-mens-morris"].new_state()
        policy = playout_policy(state)
        assert policy is not None
        while not state.is_terminal():
            moves = state.legal_moves()
            move = policy(state, rng)
            assert move in moves
            if any(_closes_a_mill(state, m) for m in moves):
                assert _closes_a_mill(state, move), state.text()
                closed += 1
            else:
                points = _mill_points(state)
                reaching = [m for m in moves if state.move_str(m).split("-")[-1] in points]
                if reaching:
                    assert move in reaching, state.text()
                    blocked += 1
            state.apply_move(move)
    assert closed and blocked


def _lanes_blocked(state: State, side: str) -> int:
    """Return how many of ``side``'s lanes at Push! cannot move for a die or pawn on the cell its
    die enters next, from the rules: a die p pushes in stands p cells in, its pawn p - 1, and a
    lane's die enters cell p + 1 of its file (South) or rank (West) while it is on the board."""
    files, ranks = "abcdef", "123456"
    taken = set()
    for lane_index, lane in enumerate(files):
        p = state.lane_progress("south", lane)
        taken |= {(lane_index, step - 1) for step in (p, p - 1) if 1 <= step <= 6}
    for lane_index, lane in enumerate(ranks):
        p = state.lane_progress("west", lane)
        taken |= {(step - 1, lane_index) for step in (p, p - 1) if 1 <= step <= 6}
    count = 0
    for lane_index, lane in enumerate(files if side == "south" else ranks):
        p = state.lane_progress(side, lane)
        cell = (lane_index, p) if side == "south" else (p, lane_index)
        count += p < 6 and cell in taken
    return count


def test_push_search_weighs_pushes_of_fewer_lanes_that_block() -> None:
    """As the pusher at Push! the search weighs every push by the position it leaves, not only the
    pushes of most lanes the greedy player weighs: over the pushes of two games it sometimes
    pushes fewer lanes than the placement allows, and its push is always one of the
    ``PUSH_WIDTH`` distinct positions of most worth, the worth worked out here from the rules (the
    pushes made, the lanes blocked by a piece each way, the slowest lane's pushes to go)."""
    from generator.bots import choose_move
    from generator.bots.tactics import PUSH_BLOCK, PUSH_LAG, PUSH_WIDTH, playout_policy

    def worth(after: State, side: str, other: str) -> float:
        lanes = {"south": "abcdef", "west": "123456"}
        done = {s: [after.lane_progress(s, lane) for lane in lanes[s]] for s in (side, other)}
        return (
            sum(done[side])
            - sum(done[other])
            + PUSH_BLOCK * (_lanes_blocked(after, other) - _lanes_blocked(after, side))
            - PUSH_LAG * (min(done[other]) - min(done[side]))
        )

    fewer = 0
    for seed in (1, 2):
        rng = Rng(seed, "push-wide")
        state = GAMES["push"].new_state(seed)
        policy = playout_policy(state)
        assert policy is not None
        while not state.is_terminal():
            side = state.current_player()
            other = "west" if side == "south" else "south"
            placed = choose_move(state, GreedyBot(), rng, stages=1)
            pushes = [turn for turn in state.chance_moves(placed.throw) if turn.cells == placed.cells]
            chosen = SearchBot(40).choose(state, Rng(seed, "push-wide/search"), pushes)
            assert chosen in pushes
            if not any(_wins(state, turn, side) for turn in pushes):
                distinct = {state.move_str(t): worth(_after(state, t), side, other) for t in pushes}
                values = sorted(set(distinct.values()), reverse=True)
                assert distinct[state.move_str(chosen)] >= values[min(PUSH_WIDTH, len(values)) - 1] - 1e-9
            fewer += _advanced(state, chosen) < max(_advanced(state, turn) for turn in pushes)
            state.apply_move(chosen)
    assert fewer


@pytest.mark.parametrize("game", STOP_GAMES)
def test_the_check_for_a_reply_that_wins_at_once_sorts_every_move_as_the_rules_do(game: str) -> None:
    """``tactics.unsafe`` tries first the replies that won against the moves checked before it
    (the search's last scan over every move, in a lost position): over every move of each
    position with a loss to stop, checked in turn with one list of such replies, it says a move
    lets the other side win exactly when some reply of the other side (every one tried here,
    from the rules) wins at once."""
    from generator.bots.tactics import unsafe

    positions = found_positions(game, "stop")
    assert positions
    for state, side, moves, safe in positions:
        killers: list[Any] = []
        assert {m for m in moves if not unsafe(state, m, side, killers)} == safe


def test_the_computer_plays_on_when_every_move_lets_the_other_side_win_at_barricades() -> None:
    """On battlefield 17 Red's opening e6 shot at h3 (a forced opening, bench/README.md) leaves
    Blue no move after which Red has no winning reply (worked out here by trying every reply):
    the check for a reply that wins at once, trying first the replies that won before, says so
    of every move, and the computer still plays one of its moves and not resignation."""
    from generator.bots.tactics import unsafe

    state = GAMES["barricades"].new_state(17)
    state.apply_move(state.parse_move("i10-e6xh3"))
    side = state.current_player()
    moves = state.legal_moves()
    assert all(_lets_win(state, m, side) for m in moves)
    killers: list[Any] = []
    assert all(unsafe(state, m, side, killers) for m in moves)
    move = SearchBot(DEFAULT_PLAYOUTS).choose(state, Rng(17, "tactics"))
    assert move in moves and not move.resign


def test_push_bit_mask_playouts_play_the_greedy_games_of_the_rules() -> None:
    """Push!'s playouts on bit masks (``_push_fast_outcome``, what the search runs) finish every
    game as the greedy turns played through the rules module do (``_push_outcome``: the same
    throws and ties from the same seed), with the same result and margin, and leave the position
    they start from unchanged; over positions of random games on several boards, for both sides,
    with the default turn limit and with one that ends most playouts in a draw at the limit."""
    from generator.bots.tactics import _push_fast_outcome, _push_key, _push_outcome

    rng = Rng(11, "push-bit-masks")
    checked = 0
    limits = 0
    for seed, tags in ((2, {}), (5, {}), (9, {}), (4, {"TurnLimit": "30"})):
        state = GAMES["push"].new_state(seed, tags=tags)
        while not state.is_terminal():
            if rng.below(3) == 0:
                before = _push_key(state)
                for side in ("south", "west"):
                    playout = rng.below(1 << 30)
                    played = state.copy()
                    assert _push_fast_outcome(state, side, playout) == _push_outcome(played, side, playout)
                    limits += played.outcome().winner is None
                    checked += 1
                assert _push_key(state) == before
            state.apply_move(state.random_move(rng))
    assert checked > 40 and limits > 0
