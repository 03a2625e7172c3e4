"""One position's turn under the expected-score values: the box options of a final roll, the keep
values of every stage, and the jokers behind a final-roll value.  Shared by batch advice, the
simulation and the exact distribution.
"""
import numpy as np

from ..dice import N_ROLLS
from ..rules import scoring
from ..rules.scoring import P_N_BOXES
from .final_rolls import capped_upper, enter_box, final_roll_values
from .jit import njit, popcount
from .turn import apply_jokers, best_sub_keeps, keep_means


@njit(cache=True)
def box_options(filled, aux, upper, roll, values, game, kniffel_face, value, points, bonus, paid):
    """For a final roll, every box: value[b] (points + bonuses + next state; -inf where the box
    is filled or forbidden), points[b], bonus[b] (upper + extra-Kniffel bonus) and paid[b]
    (1 if an extra-Kniffel bonus is paid)."""
    params = game.params
    n_open = params[P_N_BOXES] - popcount(filled)
    for box in range(params[P_N_BOXES]):
        value[box], points[box], bonus[box], paid[box] = -np.inf, 0, 0, 0
        if (filled >> box) & 1:
            continue
        allowed, pts, extra, pays, upper_after, aux_after = enter_box(
            box, roll, kniffel_face[roll], filled, aux, upper, n_open, params, game.plain_score,
            game.joker_score, game.box_face)
        if not allowed:
            continue
        points[box] = pts
        bonus[box] = extra
        paid[box] = pays
        value[box] = pts + extra + values[filled | (1 << box), aux_after, upper_after]


@njit(cache=True)
def position_final(filled, aux, upper, values, game, moves, work, history):
    """One position's final-roll values, with a column per number of jokers left (the rest of
    aux alike): history[m] = the values with up to m jokers this turn (history[0]: stop now)."""
    block = game.params[scoring.P_AUX_BLOCK]
    n_levels = work.shape[1]
    col_aux = np.empty(n_levels, dtype=np.int64)
    col_upper = np.empty(n_levels, dtype=np.int64)
    for level in range(n_levels):
        col_aux[level] = level * block + aux % block
        col_upper[level] = upper
    successor = np.empty((game.params[P_N_BOXES], 6, n_levels))
    final_roll_values(filled, col_aux, col_upper, values, work, game, moves, successor)
    history[0] = work[:N_ROLLS]
    for m in range(1, history.shape[0]):
        apply_jokers(work, history[m - 1], 1, 1, moves.add_die, moves.smaller, moves.n_smaller)
        history[m] = work[:N_ROLLS]


@njit(cache=True)
def position_stages(filled, aux, upper, values, game, moves, rolls_per_turn, work, history,
                     stage_keeps):
    """One position's turn (see position_final for work and history): stage_keeps[left] = keep
    values with `left` rolls to come, for the jokers in hand."""
    block = game.params[scoring.P_AUX_BLOCK]
    position_final(filled, aux, upper, values, game, moves, work, history)
    for left in range(1, rolls_per_turn):
        keep_means(work, moves.add_die)
        work[:N_ROLLS] = history[0]  # keeping all five dice ends the turn
        stage_keeps[left, :] = work[:, aux // block]
        best_sub_keeps(work, moves.smaller, moves.n_smaller, work, moves.roll_prob, work[0, :0])


@njit(cache=True)
def joker_moves(roll, col, shift, history, add_die, smaller, n_smaller):
    """Follow the joker passes back: (final roll, jokers used) that realise history[-1][roll, col].

    history[m] holds the final-roll values with up to m jokers this turn; column col - shift is
    the same state with one joker fewer."""
    used = 0
    m = history.shape[0] - 1
    while m > 0 and col >= shift and history[m, roll, col] > history[0, roll, col]:
        target = history[m, roll, col]
        found = -1
        for t in range(n_smaller[roll]):
            for face in range(6):
                other = add_die[smaller[roll, t], face]
                if history[m - 1, other, col - shift] == target:
                    found = other
        if found < 0:
            break  # cannot happen: the value came from one of these rolls
        roll, col, m, used = found, col - shift, m - 1, used + 1
    return roll, used


@njit(cache=True)
def after_box(box, points, bonus, paid, total, upper, upper_sum, extras, box_face, threshold):
    """Running totals after a box is filled: (total, capped upper, upper sum, bonuses paid)."""
    total += points + bonus
    extras += paid
    if box_face[box] > 0:
        upper = capped_upper(upper + points, threshold)
        upper_sum += points
    return total, upper, upper_sum, extras
