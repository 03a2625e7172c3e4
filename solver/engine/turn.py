"""The turn "widget" every objective shares: from final-roll values, the keep lattice (the mean
over the dice a keep rerolls, then the best keep of each roll) back to the turn's start.

Kernels work on `work[keep, column]` arrays and treat every column alike: what a column stands
for (one state's expected score, one state and target, a Dice Duel state) is the caller's.
`moves` is the dice tables from dice.kernel_arrays(): (roll_counts, kniffel_face, add_die,
smaller, n_smaller, roll_prob, keep_size).
"""
import numpy as np

from ..dice import N_KEEPS, N_ROLLS
from .jit import FAST, njit


@njit(cache=True, fastmath=FAST)
def _keep_values(work, add_die):
    """Rows of keeps with < 5 dice := the mean over the six ways to add one die."""
    n_cols = work.shape[1]
    for k in range(N_ROLLS, N_KEEPS):  # children (one die more) have smaller indices
        a0, a1, a2, a3, a4, a5 = add_die[k, 0], add_die[k, 1], add_die[k, 2], add_die[k, 3], add_die[k, 4], add_die[k, 5]
        for j in range(n_cols):
            work[k, j] = (work[a0, j] + work[a1, j] + work[a2, j] + work[a3, j] + work[a4, j] + work[a5, j]) / 6.0


@njit(cache=True, fastmath=FAST)
def _best_sub_keeps(work, smaller, n_smaller, stop, roll_prob, expected):
    """Every row := the best keep value over its sub-multisets (remove one die at a time).

    A roll's own value (keeping all five dice ends the turn) is read from stop[r]: `stop` may be
    `work` itself, or the stop values, which saves copying them into the rows first.  Unless
    `expected` is empty, also expected[j] := sum over rolls of roll_prob[r] * work[r, j], while
    each row is at hand (the value before the turn's first roll, as _turn_start_values gives).
    Every argument is always an array, so numba compiles this once."""
    n_cols = work.shape[1]
    for k in range(N_KEEPS - 1, N_ROLLS - 1, -1):  # smaller keeps have larger indices
        row = work[k]
        for t in range(n_smaller[k]):
            other = work[smaller[k, t]]
            for j in range(n_cols):
                a = row[j]
                b = other[j]
                row[j] = a if a >= b else b
    total = expected.shape[0] > 0
    expected[:] = 0.0
    for r in range(N_ROLLS):  # the rolls need only the keeps above, in any order
        row = work[r]
        own = stop[r]
        other = work[smaller[r, 0]]
        for j in range(n_cols):
            a = own[j]
            b = other[j]
            row[j] = a if a >= b else b
        for t in range(1, n_smaller[r]):
            other = work[smaller[r, t]]
            for j in range(n_cols):
                a = row[j]
                b = other[j]
                row[j] = a if a >= b else b
        if total:
            p = roll_prob[r]
            for j in range(n_cols):
                expected[j] += p * row[j]


@njit(cache=True)
def _turn_start_values(work, roll_prob, expected):
    """expected[j] := the value before the first roll, from the values of the 252 rolls.

    Weighting each roll by its probability costs 252 rows, where filling all 210 smaller keeps
    just to read the empty one would cost 1260."""
    expected[:] = 0.0
    for r in range(N_ROLLS):
        p = roll_prob[r]
        for j in range(expected.shape[0]):
            expected[j] += p * work[r, j]


@njit(cache=True, fastmath=FAST)
def _apply_jokers(work, stop, shift, passes, add_die, smaller, n_smaller):
    """Knobeln jokers: rows 0..251 of work := the final-roll values when, after the last roll,
    one die may be set to any face (up to `passes` times); `stop` holds them without a joker.

    Columns are grouped by jokers left, `shift` columns a group, so column j - shift is the same
    state with one joker fewer.  For each four-dice keep, find the best face to add (in the
    fewer-jokers columns); a roll may then use the best over its four-dice sub-keeps."""
    n_cols = work.shape[1]
    width = max(0, n_cols - shift)
    best_add = np.empty((126, width))  # one row per four-dice keep (they follow the rolls)
    before = stop
    for done in range(passes):
        if done > 0:
            before = work[:N_ROLLS].copy()
        for i in range(126):
            k = N_ROLLS + i
            row = best_add[i]
            r0, r1, r2 = before[add_die[k, 0]], before[add_die[k, 1]], before[add_die[k, 2]]
            r3, r4, r5 = before[add_die[k, 3]], before[add_die[k, 4]], before[add_die[k, 5]]
            for j in range(width):
                a, b, c, d, e, f = r0[j], r1[j], r2[j], r3[j], r4[j], r5[j]
                ab = a if a >= b else b
                cd = c if c >= d else d
                ef = e if e >= f else f
                abcd = ab if ab >= cd else cd
                row[j] = abcd if abcd >= ef else ef
        for r in range(N_ROLLS):
            row = work[r]
            own = before[r]
            for j in range(min(shift, n_cols)):  # no joker left: the roll stands
                row[j] = own[j]
            if width == 0:
                continue
            # views from column `shift` on: LLVM vectorises these loops, not row[shift + j]
            row, own = row[shift:], own[shift:]
            other = best_add[smaller[r, 0] - N_ROLLS]
            for j in range(width):
                a = own[j]
                b = other[j]
                row[j] = a if a >= b else b
            for t in range(1, n_smaller[r]):
                other = best_add[smaller[r, t] - N_ROLLS]
                for j in range(width):
                    a = row[j]
                    b = other[j]
                    row[j] = a if a >= b else b


@njit(cache=True)
def _turn_stages(work, stop, moves, rolls_per_turn, expected):
    """From final-roll values in rows 0..251: keep and best-keep passes for each earlier roll.

    Keeping all five dice ends the turn at once (`stop`: no further roll and, in Knobeln, no
    joker, which needs every roll thrown).  Without jokers, stopping is already the value the
    later stages give a kept roll, so `stop` may be `work` itself.  expected[j] := the value
    before the first roll."""
    add_die, smaller, n_smaller, roll_prob = moves[2], moves[3], moves[4], moves[5]
    if rolls_per_turn == 1:
        _turn_start_values(work, roll_prob, expected)
    for stage in range(rolls_per_turn - 1):
        _keep_values(work, add_die)
        # the turn's first roll (the last stage) weights the rolls on the way
        last = stage == rolls_per_turn - 2
        _best_sub_keeps(work, smaller, n_smaller, stop, roll_prob, expected if last else expected[:0])
