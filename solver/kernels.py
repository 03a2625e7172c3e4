"""numba kernels: one DP level of the turn "widget", batched over the columns of a filled-box set.

Kernels take arrays and write into preallocated outputs; rules arrive as score tables and the
integer parameter vector of scoring.py.  Nothing here does I/O.
"""
import numpy as np
from numba import njit, prange

from . import scoring
from .dice import N_KEEPS, N_ROLLS

_kniffel_roll = njit(cache=True)(scoring.kniffel_roll)
_next_aux = njit(cache=True)(scoring.next_aux)

P_N_BOXES = scoring.P_N_BOXES
P_THRESHOLD = scoring.P_THRESHOLD
P_UPPER_BONUS = scoring.P_UPPER_BONUS
P_BONUS = scoring.P_BONUS


@njit(cache=True)
def _popcount(x):
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True)
def _state_columns(filled, upper_reach, aux_reach, params):
    """The reachable (aux, upper) pairs of one filled-box set, aux-major."""
    threshold = params[P_THRESHOLD]
    kniffel_filled = (filled >> params[scoring.P_KNIFFEL_BOX]) & 1
    n_filled = _popcount(filled)
    n_aux = aux_reach.shape[2]
    col_aux = np.empty(n_aux * (threshold + 1), dtype=np.int64)
    col_upper = np.empty(n_aux * (threshold + 1), dtype=np.int64)
    n_cols = 0
    for aux in range(n_aux):
        if aux_reach[kniffel_filled, n_filled, aux]:
            for upper in range(threshold + 1):
                if upper_reach[filled & 63, upper]:
                    col_aux[n_cols] = aux
                    col_upper[n_cols] = upper
                    n_cols += 1
    return col_aux[:n_cols], col_upper[:n_cols]


@njit(cache=True)
def _final_roll_values(filled, col_aux, col_upper, values, out, params, plain_score, joker_score,
                       box_face, roll_counts, kniffel_face):
    """out[r, j]: best box value for final roll r in column j (score + bonuses + next state)."""
    n_boxes = params[P_N_BOXES]
    threshold = params[P_THRESHOLD]
    upper_bonus = params[P_UPPER_BONUS]
    n_cols = col_aux.shape[0]
    n_open = n_boxes - _popcount(filled)
    successor = np.empty((6, n_cols))
    out[:N_ROLLS, :] = -np.inf
    for box in range(n_boxes):
        if (filled >> box) & 1:
            continue
        after = filled | (1 << box)
        face = box_face[box]
        if face > 0:
            # Upper box: the value depends on the count c of its face only.
            for c in range(6):
                points = c * face
                for j in range(n_cols):
                    upper = col_upper[j]
                    bonus = upper_bonus if (upper < threshold and upper + points >= threshold) else 0
                    aux = _next_aux(col_aux[j], box, points, 0, n_open - 1, params)
                    successor[c, j] = values[after, aux, min(threshold, upper + points)] + points + bonus
            for r in range(N_ROLLS):
                if kniffel_face[r] == 0:
                    c = roll_counts[r, face - 1]
                    for j in range(n_cols):
                        out[r, j] = max(out[r, j], successor[c, j])
        else:
            for j in range(n_cols):
                aux = _next_aux(col_aux[j], box, 0, 0, n_open - 1, params)
                successor[0, j] = values[after, aux, col_upper[j]]
            for r in range(N_ROLLS):
                if kniffel_face[r] == 0:
                    points = plain_score[box, r]
                    for j in range(n_cols):
                        out[r, j] = max(out[r, j], successor[0, j] + points)
    # Five of a kind: bonus and joker rules depend on the column, so go box by box.
    for r in range(N_ROLLS):
        face = kniffel_face[r]
        if face == 0:
            continue
        for j in range(n_cols):
            best = -np.inf
            for box in range(n_boxes):
                if (filled >> box) & 1:
                    continue
                allowed, points, paid = _kniffel_roll(box, face, r, filled, col_aux[j], n_open,
                                                      params, plain_score, joker_score, box_face)
                if not allowed:
                    continue
                upper = col_upper[j]
                value = points + paid * params[P_BONUS]
                if box_face[box] > 0:
                    if upper < threshold and upper + points >= threshold:
                        value += upper_bonus
                    upper = min(threshold, upper + points)
                aux = _next_aux(col_aux[j], box, points, paid, n_open - 1, params)
                value += values[filled | (1 << box), aux, upper]
                best = max(best, value)
            out[r, j] = best


@njit(cache=True)
def _keep_values(work, add_die):
    """Rows of keeps with < 5 dice := the mean over the six ways to add one die."""
    n_cols = work.shape[1]
    for k in range(N_ROLLS, N_KEEPS):  # children (one die more) have smaller indices
        a0, a1, a2, a3, a4, a5 = add_die[k, 0], add_die[k, 1], add_die[k, 2], add_die[k, 3], add_die[k, 4], add_die[k, 5]
        for j in range(n_cols):
            work[k, j] = (work[a0, j] + work[a1, j] + work[a2, j] + work[a3, j] + work[a4, j] + work[a5, j]) / 6.0


@njit(cache=True)
def _best_sub_keeps(work, remove_die):
    """Every row := the best keep value over its sub-multisets (remove one die at a time)."""
    n_cols = work.shape[1]
    for k in range(N_KEEPS - 1, -1, -1):  # smaller keeps have larger indices
        for f in range(6):
            sub = remove_die[k, f]
            if sub >= 0:
                for j in range(n_cols):
                    work[k, j] = max(work[k, j], work[sub, j])


@njit(cache=True)
def _solve_set(filled, values, upper_reach, aux_reach, params, plain_score, joker_score, box_face,
               roll_counts, kniffel_face, add_die, remove_die, rolls_per_turn, empty_keep):
    col_aux, col_upper = _state_columns(filled, upper_reach, aux_reach, params)
    work = np.empty((N_KEEPS, col_aux.shape[0]))
    _final_roll_values(filled, col_aux, col_upper, values, work, params, plain_score, joker_score,
                       box_face, roll_counts, kniffel_face)
    for _ in range(rolls_per_turn - 1):
        _keep_values(work, add_die)
        _best_sub_keeps(work, remove_die)
    _keep_values(work, add_die)
    for j in range(col_aux.shape[0]):
        values[filled, col_aux[j], col_upper[j]] = work[empty_keep, j]


@njit(cache=True, parallel=True)
def _solve_level(sets, values, upper_reach, aux_reach, params, plain_score, joker_score, box_face,
                 roll_counts, kniffel_face, add_die, remove_die, rolls_per_turn, empty_keep):
    """Solve every filled-box set in `sets` (all of one level), reading the level above."""
    for i in prange(sets.shape[0]):
        _solve_set(sets[i], values, upper_reach, aux_reach, params, plain_score, joker_score,
                   box_face, roll_counts, kniffel_face, add_die, remove_die, rolls_per_turn,
                   empty_keep)
