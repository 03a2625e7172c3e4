"""numba kernels of the Dice Duel for 2 or more players: the turn of one seat over win-chance
vectors (the exact solver and the advice), and whole games played out by fast policies (the
rollouts and the tournament).

The keep arithmetic is the shared turn widget's (engine/turn.py: keep_means, best_sub_keeps);
what is new is the best keep of a roll when a column is a seat's chance and the seat to move
picks by its own column, carrying the others' chances along.  The rules of a move follow
multi_game.after_move line by line (tests play both side by side).  Nothing here does I/O.
"""
import numpy as np

from ...dice import EMPTY_KEEP, N_KEEPS, N_ROLLS
from ...engine.jit import njit
from ...engine.seeded_dice import complete_roll, random_next
from ...engine.turn import best_sub_keeps, keep_means
from ..chips import CHIPS_PER_TYPE, N_TYPES
from ..states import rank
from .dense_kernels import horizon_chance

EPS = 1e-12  # chances closer than this are a tie, broken by the next seats' chances
GREEDY, SOLO = 0, 1  # fast policies of a seat: the most valuable chip; the solo-optimal table
KEYS = (1 << N_TYPES) * N_TYPES  # greedy tables: plate types present x most valuable chip in play
# A move's source: 0 plate, 1 aside; NO_CHIP for a turn without a chip.
NO_CHIP = -1


def prefers(work, i, other, j, mover):
    """Does the seat to move prefer chance vector other[j] to work[i]?  Its own chance first; on
    a tie the next seats' in turn order (a fixed, order-free rule, so every solver picks the
    same).  Rows are read in place: making row views would cost more than the comparison.
    Plain Python (multi_exact.better) that numba compiles as _prefers."""
    n = work.shape[1]
    for step in range(n):
        s = (mover + step) % n
        d = other[j, s] - work[i, s]
        if d > EPS:
            return True
        if d < -EPS:
            return False
    return False


_prefers = njit(cache=True)(prefers)


@njit(cache=True)
def _best_sub_keeps_by(work, smaller, n_smaller, stop, mover):
    """Like engine.turn.best_sub_keeps, for rows that are chance vectors: every row := the keep
    the seat to move prefers among its sub-multisets (a roll: also stopping, stop[r])."""
    n = work.shape[1]
    for k in range(N_KEEPS - 1, N_ROLLS - 1, -1):
        for t in range(n_smaller[k]):
            j = smaller[k, t]
            if _prefers(work, k, work, j, mover):
                for c in range(n):
                    work[k, c] = work[j, c]
    for r in range(N_ROLLS):
        best = -1  # -1: stopping
        for t in range(n_smaller[r]):
            j = smaller[r, t]
            if (best < 0 and _prefers(stop, r, work, j, mover)) or \
                    (best >= 0 and _prefers(work, best, work, j, mover)):
                best = j
        for c in range(n):
            work[r, c] = stop[r, c] if best < 0 else work[best, c]


@njit(cache=True)
def turn_by(final, mover, moves, rolls_per_turn, stages, start):
    """A seat's turn over chance vectors.  final[r]: the chances when the turn ends with roll r
    (best move taken).  stages[s, k] := the chances of keep k with s rolls to come (stages[0]:
    the final rolls); start := the chances before the first roll."""
    add_die, smaller, n_smaller = moves.add_die, moves.smaller, moves.n_smaller
    roll_prob = moves.roll_prob
    work = np.empty((N_KEEPS, final.shape[1]))
    work[:N_ROLLS] = final
    stages[0, :N_ROLLS] = final
    for s in range(1, rolls_per_turn):
        keep_means(work, add_die)
        stages[s] = work
        _best_sub_keeps_by(work, smaller, n_smaller, final, mover)
    start[:] = 0.0
    for r in range(N_ROLLS):  # element by element: `start += p * work[r]` allocates per roll
        p = roll_prob[r]
        for c in range(start.shape[0]):
            start[c] += p * work[r, c]


@njit(cache=True)
def turn_greedy(final, greedy, key, sub_keeps, moves, rolls_per_turn, start):
    """A greedy seat's turn over chance vectors: the keeps come from the greedy tables (column
    `key`), the chances are carried along.  start := the chances before the first roll."""
    add_die, roll_prob = moves.add_die, moves.roll_prob
    work = np.empty((N_KEEPS, final.shape[1]))
    work[:N_ROLLS] = final
    for s in range(1, rolls_per_turn):
        keep_means(work, add_die)
        for r in range(N_ROLLS):  # rows of rolls are read by no keep of this stage
            k = pick_keep(r, s, sub_keeps, greedy[s, :, key], greedy[0, r, key])
            for c in range(final.shape[1]):
                work[r, c] = final[r, c] if k == r else work[k, c]
    start[:] = 0.0
    for r in range(N_ROLLS):
        p = roll_prob[r]
        for c in range(start.shape[0]):
            start[c] += p * work[r, c]


@njit(cache=True)
def greedy_tables(values, roll_category, category_mask, moves, rolls_per_turn):
    """The greedy seat's keep values: tables[s, k, key] for keep k with s rolls to come (s = 0:
    the final roll's value), key = plate types present (bits) + 128 * the most valuable type in
    play.  A final roll is worth the most valuable chip it takes (a Kniffel: any chip)."""
    tables = np.zeros((rolls_per_turn, N_KEEPS, KEYS))
    for key in range(KEYS):
        present, top = key % (1 << N_TYPES), key >> N_TYPES
        for r in range(N_ROLLS):
            c = roll_category[r]
            best = 0.0
            if c == 0:
                best = values[top]
            else:
                for t in range(N_TYPES):
                    if (category_mask[c] >> t) & 1 and (present >> t) & 1 and values[t] > best:
                        best = values[t]
            tables[0, r, key] = best
    work = tables[0].copy()
    stop = tables[0].copy()
    for s in range(1, rolls_per_turn):
        keep_means(work, moves.add_die)
        tables[s] = work
        best_sub_keeps(work, moves.smaller, moves.n_smaller, stop, moves.roll_prob, work[0, :0])
    return tables


@njit(cache=True)
def pick_keep(roll, left, sub_keeps, stage_values, stop_value):
    """The keep of `roll` with the highest value (stage_values[k]; holding all five dice:
    stop_value), the first in sub_keeps order on a tie.  Returns the roll itself to stop."""
    best, best_value = roll, stop_value
    for i in range(sub_keeps.shape[1]):
        k = sub_keeps[roll, i]
        if k < 0:
            break
        if k != roll and stage_values[k] > best_value + EPS:
            best, best_value = k, stage_values[k]
    return best


@njit(cache=True)
def greedy_key(plate, aside):
    present, top = 0, 0
    for t in range(N_TYPES):
        if plate[t] > 0:
            present |= 1 << t
        if plate[t] > 0 or aside[t] > 0:
            top = t
    return present + (top << N_TYPES)


@njit(cache=True)
def greedy_move(plate, aside, category, category_mask):
    """(type, source) of the most valuable chip the roll takes, or (NO_CHIP, 0)."""
    if category == 0:
        for t in range(N_TYPES - 1, -1, -1):
            if plate[t] > 0:
                return t, 0
            if aside[t] > 0:
                return t, 1
    for t in range(N_TYPES - 1, -1, -1):
        if (category_mask[category] >> t) & 1 and plate[t] > 0:
            return t, 0
    return NO_CHIP, 0


_solo_rank = njit(cache=True)(rank)  # the solo table's index of a position (duel.states)


@njit(cache=True)
def _solo_move(plate, aside, category, category_mask, solo_values, may_decline):
    """(type, source) of the move the solo-optimal table likes best, or (NO_CHIP, 0); also
    returns its value.  The solo table values the plate and set-aside chips after the move as if
    the seat played alone: a turn without a chip sets the top plate chip aside, as solo."""
    best_t, best_s, best_v = NO_CHIP, 0, -np.inf
    if category != 0 and (may_decline or not _earns(plate, category, category_mask)):
        # valued as the solo game values a turn without a chip: the top plate chip set aside
        top = N_TYPES - 1
        while plate[top] == 0:
            top -= 1
        plate[top] -= 1
        aside[top] += 1
        best_v = solo_values[_solo_rank(plate, aside)] - 1e-9  # taking is worth more on a tie
        plate[top] += 1
        aside[top] -= 1
    for t in range(N_TYPES):
        for s in range(2):
            pile = plate if s == 0 else aside
            if pile[t] == 0 or (category != 0
                                and (s == 1 or not (category_mask[category] >> t) & 1)):
                continue
            pile[t] -= 1
            v = solo_values[_solo_rank(plate, aside)]
            pile[t] += 1
            if v > best_v:
                best_t, best_s, best_v = t, s, v
    return best_t, best_s, best_v


@njit(cache=True)
def _earns(plate, category, category_mask):
    for t in range(N_TYPES):
        if (category_mask[category] >> t) & 1 and plate[t] > 0:
            return True
    return False


@njit(cache=True)
def _solo_turn_tables(plate, aside, game, solo_values, moves, out):
    """The solo-table seat's keep values for this turn (as greedy_tables, one column): every
    final roll is worth the solo value of its best move."""
    params, roll_category, category_mask = game.params, game.roll_category, game.category_mask
    n_categories = category_mask.shape[0]
    by_category = np.empty(n_categories)
    for c in range(n_categories):
        by_category[c] = _solo_move(plate, aside, c, category_mask, solo_values, params[1])[2]
    for r in range(N_ROLLS):
        out[0, r, 0] = by_category[roll_category[r]]
    work = out[0].copy()
    stop = out[0].copy()
    for s in range(1, params[0]):
        keep_means(work, moves.add_die)
        out[s] = work
        best_sub_keeps(work, moves.smaller, moves.n_smaller, stop, moves.roll_prob, work[0, :0])


@njit(cache=True)
def _finish_turn(plate, aside, policy, roll, left, rng, game, greedy, solo_values, moves,
                 sub_keeps, solo_work):
    """Play a turn on from `roll` with `left` rolls to come by `policy`, then pick its move.
    Returns (final roll, chip type or NO_CHIP, source, rng)."""
    category_mask, roll_category = game.category_mask, game.roll_category
    if policy == SOLO:
        _solo_turn_tables(plate, aside, game, solo_values, moves, solo_work)
    key = greedy_key(plate, aside)
    while left > 0:
        if policy == GREEDY:
            k = pick_keep(roll, left, sub_keeps, greedy[left, :, key], greedy[0, roll, key])
        else:
            k = pick_keep(roll, left, sub_keeps, solo_work[left, :, 0], solo_work[0, roll, 0])
        if k == roll:
            break
        roll, rng = complete_roll(k, rng, moves.add_die, moves.keep_size)
        left -= 1
    category = roll_category[roll]
    if policy == GREEDY:
        t, s = greedy_move(plate, aside, category, category_mask)
    else:
        t, s, _ = _solo_move(plate, aside, category, category_mask, solo_values, game.params[1])
    return roll, t, s, rng


@njit(cache=True)
def _set_top_aside(plate, aside):
    for t in range(N_TYPES - 1, -1, -1):
        if plate[t] > 0:
            plate[t] -= 1
            aside[t] += 1
            return


@njit(cache=True)
def apply_move(plate, aside, seats, to_move, taken, t, source, kniffel, set_aside_turn):
    """multi_game.after_move on arrays, in place: returns (seat to move, taken, last) with last
    = -2 while the game goes on, else the seat that took the last plate chip or -1."""
    took = t >= 0
    if took:
        if source == 0:
            plate[t] -= 1
        else:
            aside[t] -= 1
        seats[to_move, t] += 1
        if plate.sum() == 0:
            return to_move, True, to_move
        if kniffel:
            return to_move, True, -2
    elif set_aside_turn:
        _set_top_aside(plate, aside)
    taken = taken or took
    to_move += 1
    if to_move == seats.shape[0]:
        if not set_aside_turn and not taken:
            _set_top_aside(plate, aside)
        to_move, taken = 0, False
    if set_aside_turn:
        taken = False
    if plate.sum() == 0:
        return to_move, taken, -1
    return to_move, taken, -2


@njit(cache=True)
def shares(seats, last, params, values, out):
    """out[i] := seat i's share of the win at the end (multi_game.win_shares)."""
    n = seats.shape[0]
    points = np.zeros(n, dtype=np.int64)
    for i in range(n):
        held = 0
        for t in range(N_TYPES):
            points[i] += seats[i, t] * values[t]
            if seats[i, t] == CHIPS_PER_TYPE:
                points[i] += params[6]
            if seats[i, t] > 0:
                held += 1
        if held == N_TYPES:
            points[i] += params[4]
        elif held == N_TYPES - 1:
            points[i] += params[5]
        if i == last:
            points[i] += params[3]
    best = points.max()
    k = 0
    for i in range(n):
        if points[i] == best:
            k += 1
    share = 1.0 / k if k == 1 or params[7] else 0.0
    for i in range(n):
        out[i] = share if points[i] == best else 0.0


@njit(cache=True)
def play_turn(plate, aside, seats, to_move, taken, policy, rng, game, greedy, solo_values, moves,
              sub_keeps, solo_work):
    """One whole turn of the seat to move by `policy`, in place: (seat to move, taken, last, rng)
    as apply_move gives them."""
    roll, rng = complete_roll(EMPTY_KEEP, rng, moves.add_die, moves.keep_size)
    roll, t, s, rng = _finish_turn(plate, aside, policy, roll, game.params[0] - 1, rng, game,
                                   greedy, solo_values, moves, sub_keeps, solo_work)
    to_move, taken, last = apply_move(plate, aside, seats, to_move, taken, t, s,
                                      game.roll_category[roll] == 0, game.params[2])
    return to_move, taken, last, rng


@njit(cache=True, nogil=True)
def rollouts(plate0, aside0, seats0, to_move0, taken0, roll, left, keep, t0, s0, first, seed,
             policies, game, greedy, solo_values, moves, sub_keeps, horizon, out):
    """out[g] := the win shares of game first + g played out from a position: at the turn's
    start (roll < 0); after holding `keep` of `roll` with `left` rolls to come (keep >= 0); or
    after the end move (t0, s0) of final roll `roll`.  The seat to move plays on by its policy,
    as every seat does after, until the game ends or, with 2 players and a horizon table
    (universe, levels, top > 0), a turn starts with at most `top` chips in play: the game's
    shares are then the table's exact chances.  Game g's dice come from (seed, first + g)
    alone, so every option meets the same dice (common random numbers)."""
    plate = np.empty_like(plate0)
    aside = np.empty_like(aside0)
    seats = np.empty_like(seats0)
    solo_work = np.empty((game.params[0], N_KEEPS, 1))
    universe, levels, top = horizon
    if seats0.shape[0] != 2:
        top = 0
    for g in range(out.shape[0]):
        rng, _ = random_next(np.uint64(seed) * np.uint64(0x100000001B3) + np.uint64(first + g))
        plate[:] = plate0
        aside[:] = aside0
        seats[:] = seats0
        to_move, taken, last = to_move0, taken0, -2
        if roll >= 0:
            r, t, s = roll, t0, s0
            if keep >= 0:
                r, rng = complete_roll(keep, rng, moves.add_die, moves.keep_size)
                r, t, s, rng = _finish_turn(plate, aside, policies[to_move], r, left - 1, rng,
                                            game, greedy, solo_values, moves, sub_keeps, solo_work)
            to_move, taken, last = apply_move(plate, aside, seats, to_move, taken, t, s,
                                              game.roll_category[r] == 0, game.params[2])
        turn = 0
        while last == -2:
            # every later turn throws from (seed, game, turn) alone: the options' games meet the
            # same dice turn by turn, whatever the dice an earlier choice made them throw
            turn += 1
            rng, _ = random_next(np.uint64(seed) * np.uint64(0x100000001B3)
                                 + np.uint64(first + g) * np.uint64(1 << 20) + np.uint64(turn))
            k = plate.sum() + aside.sum()
            if k <= top:
                flag = taken and not game.params[2]  # set_aside "turn": no flag
                v = horizon_chance(universe, levels, plate, aside, seats[0], to_move + 2 * flag, k)
                out[g, to_move], out[g, 1 - to_move] = v, 1.0 - v
                break
            to_move, taken, last, rng = play_turn(plate, aside, seats, to_move, taken,
                                                  policies[to_move], rng, game, greedy,
                                                  solo_values, moves, sub_keeps, solo_work)
        if last != -2:
            shares(seats, last, game.params, game.values, out[g])
