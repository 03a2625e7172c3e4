"""numba kernels of the dense 2-player solver: the turns of many positions side by side.

For 2 players with shared ties the game is zero-sum (the win shares add up to 1), so one number
per position is enough: the chance of the seat to move; the seat after it holds 1 minus that.
A position's turn is then the scalar turn of every other objective (engine/turn.py: the mean
over the dice a keep rerolls, the best keep of each roll, plain max), run on COLUMNS positions
at once as vector operations; only the end of a turn is the Dice Duel's, move by move as
game.after_move and kernels.apply_move play it (tests hold the three together).

The values of one level (chips in play k) are one array, CODES values per position of the
universe (universe.py); the moves that take a chip read level k - 1, possibly of another
universe (the horizon table's), the moves without a chip read level k itself: a position
with more chips set aside, or the same chips with the other seat to move or the round's flag
cleared, all solved before it (dense.py gives the order).  Nothing here does I/O.
"""
import numpy as np

from ...dice import N_KEEPS, N_ROLLS
from ...engine.jit import njit
from ...engine.turn import turn_stages
from ..chips import CHIPS_PER_TYPE, N_TYPES
from .universe import ABOVE, BELOW, CODES, LOWEST, NO_ASIDE, decode, position_index

COLUMNS = 32  # positions solved side by side (their keep arithmetic runs as vector operations)
ROUND_ORDER = np.array([1, 0, 3, 2])  # codes (seat + 2 * taken) in the order they need
TURN_ORDER = np.array([1, 0])  # set_aside = "turn": the flag is never set


@njit(cache=True)
def seat_points(seat, params, values):
    """A seat's points from its chips (kernels.shares, one seat): chip values, full stacks,
    gold or silver."""
    points, held = 0, 0
    for t in range(N_TYPES):
        points += seat[t] * values[t]
        if seat[t] == CHIPS_PER_TYPE:
            points += params[6]
        if seat[t] > 0:
            held += 1
    if held == N_TYPES:
        points += params[4]
    elif held == N_TYPES - 1:
        points += params[5]
    return points


@njit(cache=True)
def mover_share(seat0, seat1, mover, last, params, values):
    """The mover's share of the win when the game ends with these holdings; `last` took the
    last plate chip (-1: nobody).  Ties are shared (the dense solver's rules)."""
    mine = seat_points(seat0 if mover == 0 else seat1, params, values)
    other = seat_points(seat1 if mover == 0 else seat0, params, values)
    if last == mover:
        mine += params[3]
    elif last >= 0:
        other += params[3]
    return 1.0 if mine > other else (0.5 if mine == other else 0.0)


@njit(cache=True)
def frame_of(universe, low, jcode, within, plate, aside, seat0, seat1, frame):
    """Decode position `within` of block (low, jcode) into the four arrays, and fill `frame`
    (4 x N_TYPES) so that a position differing in one type's chips is numbered in a few steps
    (changed_index): per type its stride, the part of the number from the types below it, the
    part from the types above it (in units of its stride times its list length), its list
    length."""
    decode(universe, low, jcode, within, plate, aside, seat0, seat1)
    count, local = universe.count, universe.local
    stride = 1
    for t in range(N_TYPES):
        cls = BELOW if t < low else (LOWEST if t == low else ABOVE)
        frame[0, t] = stride
        frame[3, t] = count[t, cls, plate[t] + aside[t]]
        stride *= frame[3, t]
    below = 0
    for t in range(N_TYPES):
        frame[1, t] = below
        cls = BELOW if t < low else (LOWEST if t == low else ABOVE)
        below += local[t, cls, plate[t], aside[t], seat0[t]] * frame[0, t]
    above = 0
    for t in range(N_TYPES - 1, -1, -1):
        frame[2, t] = above
        cls = BELOW if t < low else (LOWEST if t == low else ABOVE)
        above = local[t, cls, plate[t], aside[t], seat0[t]] + frame[3, t] * above


@njit(cache=True)
def changed_index(universe, frame, low, jcode, t, plate, aside, seat0):
    """The number of the position whose chips are those of `frame`'s position but for type t's,
    now plate[t], aside[t], seat0[t] (the same L: the caller checks)."""
    cls = BELOW if t < low else (LOWEST if t == low else ABOVE)
    j = plate[t] + aside[t]
    jc = jcode + (j - (jcode // POW5[t]) % 5) * POW5[t]
    i = universe.local[t, cls, plate[t], aside[t], seat0[t]]
    n = universe.count[t, cls, j]
    return universe.offset[low, jc] + frame[1, t] + frame[0, t] * (i + n * frame[2, t])


POW5 = np.array([5 ** t for t in range(N_TYPES)], dtype=np.int64)


@njit(cache=True)
def read_value(universe, level_values, plate, aside, seat0, code, k):
    """The chance of the seat to move at (chips, code) of level k of `universe`."""
    index = position_index(universe, plate, aside, seat0)
    return level_values[CODES * (index - universe.level_start[k]) + code]


@njit(cache=True)
def horizon_chance(universe, levels, plate, aside, seat0, code, k):
    """The chance of the seat to move at (chips, code) from a horizon table's levels (a tuple,
    levels[k - 1] holding level k)."""
    return np.float64(read_value(universe, levels[k - 1], plate, aside, seat0, code, k))


@njit(cache=True)
def _no_chip_value(plate, aside, seat0, seat1, mover, taken, here, k, own, own_values, params,
                   values, frame, low, jcode):
    """The mover's chance after a turn without a chip (game.after_move, 2 seats)."""
    set_turn = params[2] != 0
    if not set_turn and (mover == 0 or taken):  # the same chips, the other seat or a new round
        code = 1 + 2 * taken if mover == 0 else 0
        return 1.0 - own_values[CODES * here + code]
    top = N_TYPES - 1  # the round (or, set_aside "turn", the turn) sets the top plate chip aside
    while plate[top] == 0:
        top -= 1
    plate[top] -= 1
    aside[top] += 1
    left = 0
    for t in range(N_TYPES):
        left += plate[t]
    code = 1 - mover if set_turn else 0
    if left == 0:
        value = mover_share(seat0, seat1, mover, -1, params, values)
    elif top == low:  # L stays: a step from this position's number
        index = changed_index(own, frame, low, jcode, top, plate, aside, seat0)
        value = 1.0 - own_values[CODES * (index - own.level_start[k]) + code]
    else:
        value = 1.0 - read_value(own, own_values, plate, aside, seat0, code, k)
    plate[top] += 1
    aside[top] -= 1
    return value


@njit(cache=True)
def _take_values(plate, aside, seat0, seat1, mover, k, below, below_values, same, params,
                 values, frame, low, jcode, take, kniffel_plate, kniffel_aside):
    """The mover's chance after taking a chip of each type: take[t] from the plate with a roll
    that earns it (the other seat moves next), kniffel_plate[t] and kniffel_aside[t] with a
    Kniffel (the mover plays again).  same: `below` is the universe of `frame`."""
    set_turn = params[2] != 0
    flag = 0 if set_turn else 2  # a chip taken this round
    other = 1 + flag if mover == 0 else 0  # after a roll: seat 1 in this round, or a new round
    first = below.level_start[k - 1]
    seat = seat0 if mover == 0 else seat1
    plate_left = 0
    for t in range(N_TYPES):
        plate_left += plate[t]
    for t in range(N_TYPES):
        if plate[t] > 0:
            plate[t] -= 1
            seat[t] += 1
            if plate_left == 1:
                take[t] = kniffel_plate[t] = mover_share(seat0, seat1, mover, mover, params, values)
            else:
                if same:
                    index = changed_index(below, frame, low, jcode, t, plate, aside, seat0)
                else:
                    index = position_index(below, plate, aside, seat0)
                at = CODES * (index - first)
                take[t] = 1.0 - below_values[at + other]
                kniffel_plate[t] = below_values[at + mover + flag]
            seat[t] -= 1
            plate[t] += 1
        if aside[t] > 0:
            aside[t] -= 1
            seat[t] += 1
            if same and (t != low or aside[t] > 0):
                index = changed_index(below, frame, low, jcode, t, plate, aside, seat0)
            else:
                index = position_index(below, plate, aside, seat0)
            kniffel_aside[t] = below_values[CODES * (index - first) + mover + flag]
            seat[t] -= 1
            aside[t] += 1


@njit(cache=True)
def category_values(plate, aside, seat0, seat1, mover, taken, here, k, own, own_values, below,
                    below_values, same, game, frame, low, jcode, out, scratch):
    """out[c]: the mover's chance when the turn ends with dice of category c (0: a Kniffel),
    the mover's best move taken.  `here`: the position's place in its level; frame, low,
    jcode: its numbering (frame_of); same: `below` is `own`."""
    params, mask, values = game.params, game.category_mask, game.values
    take, kniffel_plate, kniffel_aside = scratch[0], scratch[1], scratch[2]
    _take_values(plate, aside, seat0, seat1, mover, k, below, below_values, same, params, values,
                 frame, low, jcode, take, kniffel_plate, kniffel_aside)
    no_chip = _no_chip_value(plate, aside, seat0, seat1, mover, taken, here, k, own, own_values,
                             params, values, frame, low, jcode)
    best = -1.0
    for t in range(N_TYPES):
        if plate[t] > 0 and kniffel_plate[t] > best:
            best = kniffel_plate[t]
        if aside[t] > 0 and kniffel_aside[t] > best:
            best = kniffel_aside[t]
    out[0] = best
    for c in range(1, mask.shape[0]):
        best, found = -1.0, False
        for t in range(N_TYPES):
            if (mask[c] >> t) & 1 and plate[t] > 0:
                found = True
                if take[t] > best:
                    best = take[t]
        if (not found or params[1]) and no_chip > best:
            best = no_chip
        out[c] = best


@njit(cache=True)
def _superblock(own, jcode, k, lows, withins):
    """The live positions (a chip on the plate) of superblock `jcode` of level k, most chips
    set aside first: fills lows/withins, returns how many and where each aside count begins."""
    n = 0
    plate = np.empty(N_TYPES, dtype=np.int64)
    aside = np.empty(N_TYPES, dtype=np.int64)
    seat0 = np.empty(N_TYPES, dtype=np.int64)
    seat1 = np.empty(N_TYPES, dtype=np.int64)
    counts = np.zeros(k + 2, dtype=np.int64)
    found_low = np.empty(lows.shape[0], dtype=np.int64)
    found_within = np.empty(lows.shape[0], dtype=np.int64)
    found_aside = np.empty(lows.shape[0], dtype=np.int64)
    for low in range(NO_ASIDE + 1):
        if own.offset[low, jcode] < 0:
            continue
        size = _size(own.count, low, jcode)
        for within in range(size):
            decode(own, low, jcode, within, plate, aside, seat0, seat1)
            if plate.sum() == 0:
                continue  # the game is over there
            a = aside.sum()
            found_low[n], found_within[n], found_aside[n] = low, within, a
            counts[k - a] += 1
            n += 1
    starts = np.zeros(k + 2, dtype=np.int64)
    for i in range(1, k + 2):
        starts[i] = starts[i - 1] + counts[i - 1]
    fill = starts.copy()
    for i in range(n):  # a stable counting sort by aside count, most first
        slot = fill[k - found_aside[i]]
        lows[slot], withins[slot] = found_low[i], found_within[i]
        fill[k - found_aside[i]] += 1
    return n, starts


@njit(cache=True)
def _size(count, low, jcode):
    size = 1
    for t in range(N_TYPES):
        cls = BELOW if t < low else (LOWEST if t == low else ABOVE)
        size *= count[t, cls, jcode % 5]
        jcode //= 5
    return size


@njit(cache=True, nogil=True)
def solve_superblocks(jcodes, k, own, own_values, below, below_values, same, game, moves):
    """own_values := the chance of the seat to move at the turn's start, for every live
    position and code of the superblocks `jcodes` of level k (module docstring).  Long: the
    positions of a superblock go by aside count (most first), then by code in the order the
    moves without a chip need, COLUMNS at a time through the turn.

    Releases the GIL: the backward pass runs several calls at once on disjoint superblocks."""
    order = TURN_ORDER if game.params[2] else ROUND_ORDER
    work = np.zeros((N_KEEPS, COLUMNS))
    for jcode in jcodes:
        total = 0
        for low in range(NO_ASIDE + 1):
            if own.offset[low, jcode] >= 0:
                total += _size(own.count, low, jcode)
        lows = np.empty(total, dtype=np.int64)
        withins = np.empty(total, dtype=np.int64)
        n, starts = _superblock(own, jcode, k, lows, withins)
        for group in range(k + 1):
            for code in order:
                _solve_group(lows[starts[group]:starts[group + 1]],
                             withins[starts[group]:starts[group + 1]], jcode, k, code, own,
                             own_values, below, below_values, same, game, moves, work)


@njit(cache=True)
def _solve_group(lows, withins, jcode, k, code, own, own_values, below, below_values, same, game,
                 moves, work):
    """own_values := the chances of one code of positions that read none of each other.  A
    position whose every end of turn has the same chance (a game already decided) has that
    chance; the others go through the turn COLUMNS at a time."""
    roll_category = game.roll_category
    expected = np.empty(COLUMNS)
    out = np.empty(game.category_mask.shape[0])
    scratch = np.empty((3, N_TYPES))
    plate = np.empty(N_TYPES, dtype=np.int64)
    aside = np.empty(N_TYPES, dtype=np.int64)
    seat0 = np.empty(N_TYPES, dtype=np.int64)
    seat1 = np.empty(N_TYPES, dtype=np.int64)
    here = np.empty(COLUMNS, dtype=np.int64)
    frame = np.empty((4, N_TYPES), dtype=np.int64)
    first = own.level_start[k]
    mover, taken = code & 1, code >> 1
    filled = 0
    for i in range(lows.shape[0]):
        low, within = lows[i], withins[i]
        frame_of(own, low, jcode, within, plate, aside, seat0, seat1, frame)
        at = own.offset[low, jcode] + within - first
        category_values(plate, aside, seat0, seat1, mover, taken, at, k, own, own_values, below,
                        below_values, same, game, frame, low, jcode, out, scratch)
        if out.min() == out.max():
            own_values[CODES * at + code] = out[0]
            continue
        here[filled] = at
        for r in range(N_ROLLS):
            work[r, filled] = out[roll_category[r]]
        filled += 1
        if filled == COLUMNS:
            _turns(work, filled, here, code, own_values, moves, game.params[0], expected)
            filled = 0
    if filled > 0:
        _turns(work, filled, here, code, own_values, moves, game.params[0], expected)


@njit(cache=True)
def _turns(work, filled, here, code, own_values, moves, rolls_per_turn, expected):
    """The turns of the `filled` columns of work (final-roll values in rows 0..251), their
    starts stored at here[col]."""
    for col in range(filled, COLUMNS):
        for r in range(N_ROLLS):
            work[r, col] = 0.0
    turn_stages(work, work, moves, rolls_per_turn, expected)
    for col in range(filled):
        own_values[CODES * here[col] + code] = expected[col]
