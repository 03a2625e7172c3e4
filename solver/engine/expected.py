"""The expected-score objective's kernels: final-roll values (best box: points + bonuses + the
next state's value) for the columns of filled-box sets, and the solve of a level's sets.

The same kernels solve the certainty equivalent of an exponential utility, a risk dial theta
(objective.CertaintyEquivalent): values[s] = log E[exp(theta X)] / theta, X the points still to
come under the play that maximises E[exp(theta X)] (theta > 0: seeks risk) or minimises it
(theta < 0: avoids risk).  The box of a final roll maximises points + the next state's value as
for the expected score (exp(theta x) is monotone), and only the mean over the dice a keep
rerolls differs: it is taken over exp(theta (x - base)) (signed, so that the best is still the
largest), base a column's largest final-roll value, which keeps the exponentials in range.
theta = 0 is the expected score.

A column is one (aux, upper total) state of a filled-box set; `values[filled, aux, upper]` is
the expected score still to come from a turn start.  `game` is the rules as data (a
scoring.RuleArrays named tuple, Rules.kernel_arrays()), params laid out as in rules/scoring.py; the
final-roll values are final_rolls.final_roll_values.  Nothing here does I/O.
"""
from collections import namedtuple

import numpy as np

from ..dice import N_KEEPS, N_ROLLS
from ..rules import scoring
from ..rules.scoring import P_N_BOXES, P_THRESHOLD, UPPER_MASK
from .final_rolls import final_roll_values, upper_bonus_reached
from .jit import njit, popcount
from .turn import apply_jokers, turn_stages

Buffers = namedtuple("Buffers", "work successor stop expected own own_stop")
Buffers.__doc__ = """_solve_group's reused scratch, flat: the keep rows of a group of sets and their
stop rows, the successor values of one set, the turn-start values, one set's own rows."""


@njit(cache=True)
def _upper_still_possible(filled, box_face):
    """The most points the open upper boxes can still add (five dice of their face each)."""
    total = 0
    for box in range(box_face.shape[0]):
        if box_face[box] > 0 and (filled >> box) & 1 == 0:
            total += 5 * box_face[box]
    return total


@njit(cache=True)
def bonus_classes(filled, game):
    """class_of[u] for every upper total u: totals of one class have the same future.

    The upper total matters only for the bonus, and only through which sums s of the points
    the open upper boxes can still add would reach it (u + s >= threshold).  That is decided by
    the smallest reachable s >= threshold - u, which is the class (one past the most the boxes
    can add when no s reaches: the "hopeless" totals).  Classes are runs of consecutive totals,
    and filling a box keeps two totals of one class in one class, so one solve per class will do.
    """
    params, box_face = game.params, game.box_face
    threshold = params[P_THRESHOLD]
    most = _upper_still_possible(filled, box_face)
    reach = np.zeros(most + 1, dtype=np.bool_)
    reach[0] = True
    for box in range(box_face.shape[0]):
        face = box_face[box]
        if face > 0 and (filled >> box) & 1 == 0:
            for s in range(most, -1, -1):  # downwards, so each box is used once
                if reach[s]:
                    for count in range(1, 6):
                        if s + count * face <= most:
                            reach[s + count * face] = True
    class_of = np.empty(threshold + 1, dtype=np.int64)
    smallest = most + 1
    for u in range(threshold + 1):  # what the bonus needs falls as u rises
        if upper_bonus_reached(u + most, threshold):  # some sum the boxes add may reach it
            smallest = threshold - u
            while not reach[smallest]:
                smallest += 1
        class_of[u] = smallest
    return class_of


@njit(cache=True)
def _state_columns(filled, upper_reach, aux_reach, class_of, game):
    """The (aux, upper) columns of one filled-box set to solve, aux-major: per aux, the smallest
    reachable upper total of each bonus class (see bonus_classes and _copy_class_columns)."""
    params = game.params
    threshold = params[P_THRESHOLD]
    kniffel_filled = (filled >> params[scoring.P_KNIFFEL_BOX]) & 1
    n_filled = popcount(filled)
    n_aux = aux_reach.shape[2]
    col_aux = np.empty(n_aux * (threshold + 1), dtype=np.int64)
    col_upper = np.empty(n_aux * (threshold + 1), dtype=np.int64)
    n_cols = 0
    for aux in range(n_aux):
        if aux_reach[kniffel_filled, n_filled, aux]:
            last_class = -1
            for upper in range(threshold + 1):
                if upper_reach[filled & UPPER_MASK, upper] and class_of[upper] != last_class:
                    last_class = class_of[upper]
                    col_aux[n_cols] = aux
                    col_upper[n_cols] = upper
                    n_cols += 1
    return col_aux[:n_cols], col_upper[:n_cols]


@njit(cache=True)
def _copy_class_columns(filled, values, upper_reach, col_aux, col_upper, class_of):
    """Give every unsolved upper total the value of the solved total of its class."""
    for j in range(col_aux.shape[0]):
        solved = col_upper[j]
        upper = solved + 1
        while upper < class_of.shape[0] and class_of[upper] == class_of[solved]:
            if upper_reach[filled & UPPER_MASK, upper]:
                values[filled, col_aux[j], upper] = values[filled, col_aux[j], solved]
            upper += 1


WIDE = 64  # columns: narrower filled-box sets are solved side by side until they fill this many


@njit(cache=True)
def set_columns(filled, upper_reach, aux_reach, game):
    """(class_of, col_aux, col_upper) of one filled-box set (see bonus_classes)."""
    class_of = bonus_classes(filled, game)
    col_aux, col_upper = _state_columns(filled, upper_reach, aux_reach, class_of, game)
    return class_of, col_aux, col_upper


@njit(cache=True)
def _final_columns(filled, values, col_aux, col_upper, game, moves, work, stop, buffers):
    """The final-roll values of one filled-box set into rows 0..251 of `work` (after Knobeln
    jokers; `stop`: without one); work and stop have the set's columns."""
    params = game.params
    n_cols = col_aux.shape[0]
    successor = buffers.successor[: params[P_N_BOXES] * 6 * n_cols].reshape(
        (params[P_N_BOXES], 6, n_cols))
    if params[scoring.P_JOKERS] > 0:
        final_roll_values(filled, col_aux, col_upper, values, stop, game, moves, successor)
        apply_jokers(work, stop, n_cols // (params[scoring.P_JOKERS] + 1),
                     params[scoring.P_JOKERS_PER_TURN], moves.add_die, moves.smaller,
                     moves.n_smaller)
    else:
        final_roll_values(filled, col_aux, col_upper, values, work, game, moves, successor)


@njit(cache=True)
def _solve_group(sets, n_cols, values, upper_reach, aux_reach, game, moves, rolls_per_turn, buffers,
                 theta):
    """Solve the turn-start states of the filled-box sets `sets` (n_cols columns in all)
    together: each set's final-roll values fill its own columns, then the keep stages run once
    over all of them (they treat every column alike, and wide rows keep the vector units busy).
    `buffers` is reused scratch space (fresh large allocations per set cost more than the
    arithmetic of small sets)."""
    jokers = game.params[scoring.P_JOKERS] > 0
    work = buffers.work[: N_KEEPS * n_cols].reshape((N_KEEPS, n_cols))
    stop = buffers.stop[: N_ROLLS * n_cols].reshape((N_ROLLS, n_cols))
    expected = buffers.expected[:n_cols]
    col_aux = np.empty(n_cols, dtype=np.int64)  # every set's columns, one set after another
    col_upper = np.empty(n_cols, dtype=np.int64)
    class_of = np.empty((sets.shape[0], game.params[P_THRESHOLD] + 1), dtype=np.int64)
    bounds = np.zeros(sets.shape[0] + 1, dtype=np.int64)
    for s in range(sets.shape[0]):
        classes, aux_s, upper_s = set_columns(sets[s], upper_reach, aux_reach, game)
        start, n = bounds[s], aux_s.shape[0]
        bounds[s + 1] = start + n
        class_of[s] = classes
        col_aux[start:start + n] = aux_s
        col_upper[start:start + n] = upper_s
        if sets.shape[0] == 1:  # wide enough alone: no copies
            _final_columns(sets[s], values, aux_s, upper_s, game, moves, work, stop, buffers)
            continue
        own = buffers.own[: N_KEEPS * n].reshape((N_KEEPS, n))
        own_stop = buffers.own_stop[: N_ROLLS * n].reshape((N_ROLLS, n))
        _final_columns(sets[s], values, aux_s, upper_s, game, moves, own, own_stop, buffers)
        for r in range(N_ROLLS):
            for j in range(n):
                work[r, start + j] = own[r, j]
                if jokers:
                    stop[r, start + j] = own_stop[r, j]
    if theta != 0.0:
        base = _to_utility(work, stop, jokers, n_cols, theta)
    turn_stages(work, stop if jokers else work, moves, rolls_per_turn, expected)
    if theta != 0.0:
        for j in range(n_cols):
            expected[j] = base[j] + np.log(abs(expected[j])) / theta
    for s in range(sets.shape[0]):
        for j in range(bounds[s], bounds[s + 1]):
            values[sets[s], col_aux[j], col_upper[j]] = expected[j]
        _copy_class_columns(sets[s], values, upper_reach, col_aux[bounds[s]:bounds[s + 1]],
                            col_upper[bounds[s]:bounds[s + 1]], class_of[s])


@njit(cache=True)
def _to_utility(work, stop, jokers, n_cols, theta):
    """Final-roll values x (rows 0..251, and stop with jokers) := sign(theta) exp(theta (x -
    base)), base each column's largest x (module docstring); returns base."""
    base = np.full(n_cols, -np.inf)
    for r in range(N_ROLLS):
        for j in range(n_cols):
            base[j] = max(base[j], work[r, j])
    sign = 1.0 if theta > 0 else -1.0
    for r in range(N_ROLLS):
        for j in range(n_cols):
            work[r, j] = sign * np.exp(theta * (work[r, j] - base[j]))
            if jokers:
                stop[r, j] = sign * np.exp(theta * (stop[r, j] - base[j]))
    return base


@njit(cache=True, nogil=True)
def _solve_sets(sets, values, upper_reach, aux_reach, game, moves, rolls_per_turn, theta=0.0):
    """Solve every filled-box set in `sets` (all of one level), reading the level above.

    Releases the GIL: backward.py runs several calls at once on disjoint sets, one per thread.  Each
    column's arithmetic does not depend on which sets are solved beside it, so the values do
    not depend on the number of threads."""
    max_cols = values.shape[1] * values.shape[2]
    wide = max_cols + WIDE
    buffers = Buffers(np.empty(N_KEEPS * wide), np.empty(game.params[P_N_BOXES] * 6 * max_cols),
                      np.empty(N_ROLLS * wide), np.empty(wide), np.empty(N_KEEPS * max_cols),
                      np.empty(N_ROLLS * max_cols))
    start = 0
    while start < sets.shape[0]:
        stop, n_cols = start, 0
        while stop < sets.shape[0] and n_cols < WIDE:
            n_cols += set_columns(sets[stop], upper_reach, aux_reach, game)[1].shape[0]
            stop += 1
        _solve_group(sets[start:stop], n_cols, values, upper_reach, aux_reach, game, moves,
                     rolls_per_turn, buffers, theta)
        start = stop
