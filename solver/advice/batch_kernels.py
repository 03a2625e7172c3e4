"""numba kernel of batch advice: the keep values and box options of many positions at once."""
import numpy as np

from ..dice import N_KEEPS, N_ROLLS
from ..engine.jit import njit
from ..engine.positions import box_options, position_final
from ..engine.turn import best_sub_keeps, keep_means
from ..rules import scoring

GROUP = 32  # positions whose keep stages _advise_batch runs as the columns of one array


@njit(cache=True, nogil=True)
def _advise_batch(filled, aux, upper, rolls, rolls_left, values, game, moves, rolls_per_turn,
                  keeps, box_value, box_points, box_bonus, box_paid):
    """For each position i: keeps[i] = keep values with rolls_left[i] rolls to come (when > 0)
    and the box options of its roll in hand (see box_options).

    The keep stages of GROUP positions run together, each position's columns (one per number of
    jokers left) side by side: one position alone has too few columns for the vector units."""
    params = game.params
    block = params[scoring.P_AUX_BLOCK]
    n_levels = params[scoring.P_JOKERS] + 1
    passes = params[scoring.P_JOKERS_PER_TURN] if n_levels > 1 else 0
    staged = np.empty(filled.shape[0], dtype=np.int64)
    n_staged = 0
    for i in range(filled.shape[0]):
        box_options(filled[i], aux[i], upper[i], rolls[i], values, game, moves.kniffel_face,
                    box_value[i], box_points[i], box_bonus[i], box_paid[i])
        if rolls_left[i] > 0:
            staged[n_staged] = i
            n_staged += 1
    final = np.empty((N_KEEPS, n_levels))
    history = np.empty((passes + 1, N_ROLLS, n_levels))
    for start in range(0, n_staged, GROUP):
        group = staged[start:min(start + GROUP, n_staged)]
        work = np.empty((N_KEEPS, group.shape[0] * n_levels))
        stop = np.empty((N_ROLLS, group.shape[0] * n_levels))
        for q in range(group.shape[0]):
            i = group[q]
            position_final(filled[i], aux[i], upper[i], values, game, moves, final, history)
            for r in range(N_ROLLS):
                for level in range(n_levels):
                    stop[r, q * n_levels + level] = history[0, r, level]
                    work[r, q * n_levels + level] = history[passes, r, level]
        for left in range(1, rolls_per_turn):
            keep_means(work, moves.add_die)
            work[:N_ROLLS] = stop  # keeping all five dice ends the turn
            for q in range(group.shape[0]):
                i = group[q]
                if rolls_left[i] == left:
                    column = q * n_levels + aux[i] // block
                    for k in range(N_KEEPS):
                        keeps[i, k] = work[k, column]
            best_sub_keeps(work, moves.smaller, moves.n_smaller, work, moves.roll_prob, work[0, :0])
