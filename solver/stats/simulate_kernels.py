"""numba kernels of the simulation: whole games of the greedy baseline, and optimal games played
in step, turn by turn, many games sharing each state's keep values."""
import numpy as np

from ..dice import N_KEEPS, N_ROLLS
from ..engine.final_rolls import final_roll_values, next_aux, upper_bonus_reached
from ..engine.jit import njit, popcount
from ..engine.positions import after_box, box_options, joker_moves
from ..engine.seeded_dice import complete_roll
from ..engine.turn import apply_jokers, best_sub_keeps, keep_means
from ..rules import scoring
from ..rules.scoring import P_N_BOXES, P_THRESHOLD


@njit(cache=True)
def _greedy_turn(rng, moves, rolls_per_turn, empty_keep):
    """The baseline's turn: keep the most common face (the higher on a tie), reroll the rest."""
    roll_counts, add_die, keep_size = moves.roll_counts, moves.add_die, moves.keep_size
    roll, rng = complete_roll(empty_keep, rng, add_die, keep_size)
    for _ in range(rolls_per_turn - 1):
        face = 0
        for f in range(6):
            if roll_counts[roll, f] >= roll_counts[roll, face]:
                face = f
        if roll_counts[roll, face] == 5:
            break
        keep = empty_keep
        for _ in range(roll_counts[roll, face]):
            keep = add_die[keep, face]
        roll, rng = complete_roll(keep, rng, add_die, keep_size)
    return roll, rng


@njit(cache=True, nogil=True)
def _simulate_greedy(rng, values, game, moves, rolls_per_turn, empty_keep, scores, upper_bonus_won,
                     extra_bonuses, kniffel_fifty):
    """Whole games of the baseline: keep the most common face (the higher one on a tie) and fill
    the box with the most points now (the first such box on a tie).  One game per entry of rng."""
    params, box_face = game.params, game.box_face
    kniffel_face = moves.kniffel_face
    n_boxes = params[P_N_BOXES]
    threshold = params[P_THRESHOLD]
    kniffel_box = params[scoring.P_KNIFFEL_BOX]
    option_value = np.empty(n_boxes)
    option_points = np.empty(n_boxes, dtype=np.int64)
    option_bonus = np.empty(n_boxes, dtype=np.int64)
    option_paid = np.empty(n_boxes, dtype=np.int64)
    for g in range(rng.shape[0]):
        state = rng[g]
        filled, upper, upper_sum, total, extras = 0, 0, 0, 0, 0
        aux = params[scoring.P_JOKERS] * params[scoring.P_AUX_BLOCK]
        for turn in range(n_boxes):
            roll, state = _greedy_turn(state, moves, rolls_per_turn, empty_keep)
            box_options(filled, aux, upper, roll, values, game, kniffel_face, option_value,
                         option_points, option_bonus, option_paid)
            box, best = -1, -1
            for b in range(n_boxes):
                if option_value[b] > -np.inf and option_points[b] + option_bonus[b] > best:
                    box, best = b, option_points[b] + option_bonus[b]
            points, paid = option_points[box], option_paid[box]
            total, upper, upper_sum, extras = after_box(box, points, option_bonus[box], paid,
                                                         total, upper, upper_sum, extras,
                                                         box_face, threshold)
            if box == kniffel_box and points == 50:
                kniffel_fifty[g] = True
            aux = next_aux(aux, box, points, paid, n_boxes - turn - 1, params)
            filled |= 1 << box
        scores[g] = total
        upper_bonus_won[g] = upper_bonus_reached(upper_sum, threshold)
        extra_bonuses[g] = extras


@njit(cache=True)
def _group_columns(games, aux, upper, block, n_levels, n_upper):
    """Columns for the games of one filled-box set: one per (aux without jokers, upper) met,
    repeated for every number of jokers left (joker-major, as apply_jokers wants them).
    Returns (col_aux, col_upper, column of each game, columns per joker level)."""
    slot = np.full(block * n_upper, -1, dtype=np.int64)
    base_aux = np.empty(games.shape[0], dtype=np.int64)
    base_upper = np.empty(games.shape[0], dtype=np.int64)
    n_base = 0
    for i in range(games.shape[0]):
        g = games[i]
        key = (aux[g] % block) * n_upper + upper[g]
        if slot[key] < 0:
            slot[key] = n_base
            base_aux[n_base] = aux[g] % block
            base_upper[n_base] = upper[g]
            n_base += 1
    # a game's column: its joker level's block of n_base columns, then its (aux, upper)
    game_column = np.empty(games.shape[0], dtype=np.int64)
    for i in range(games.shape[0]):
        g = games[i]
        game_column[i] = (aux[g] // block) * n_base + slot[(aux[g] % block) * n_upper + upper[g]]
    col_aux = np.empty(n_levels * n_base, dtype=np.int64)
    col_upper = np.empty(n_levels * n_base, dtype=np.int64)
    for level in range(n_levels):
        for b in range(n_base):
            col_aux[level * n_base + b] = level * block + base_aux[b]
            col_upper[level * n_base + b] = base_upper[b]
    return col_aux, col_upper, game_column, n_base


@njit(cache=True)
def _play_group(filled, games, values, game, moves, sub_keeps, rolls_per_turn, empty_keep,
                all_filled, aux, upper, upper_sum, total, extras, used, rng, kniffel_fifty):
    """One turn of every game in `games` (all with the filled boxes `filled`): the turn's keep
    values are computed once per distinct state, as columns, then each game plays its turn.
    Long: the grouping by state, the keep values and every game's rolls and box choice
    share scratch arrays in one compiled call (a call per game would cost more than its work)."""
    params, box_face = game.params, game.box_face
    kniffel_face, add_die, smaller, n_smaller, keep_size = (moves.kniffel_face, moves.add_die,
                                                            moves.smaller, moves.n_smaller,
                                                            moves.keep_size)
    n_boxes = params[P_N_BOXES]
    threshold = params[P_THRESHOLD]
    kniffel_box = params[scoring.P_KNIFFEL_BOX]
    block = params[scoring.P_AUX_BLOCK]
    n_levels = params[scoring.P_JOKERS] + 1
    passes = params[scoring.P_JOKERS_PER_TURN] if n_levels > 1 else 0
    n_open = n_boxes - popcount(filled)
    col_aux, col_upper, game_column, n_base = _group_columns(games, aux, upper, block, n_levels,
                                                             values.shape[2])
    n_cols = col_aux.shape[0]
    work = np.empty((N_KEEPS, n_cols))
    successor = np.empty((n_boxes, 6, n_cols))
    final_roll_values(filled, col_aux, col_upper, values, work, game, moves, successor)
    history = np.empty((passes + 1, N_ROLLS, n_cols))
    history[0] = work[:N_ROLLS]
    for m in range(1, passes + 1):
        apply_jokers(work, history[m - 1], n_base, 1, add_die, smaller, n_smaller)
        history[m] = work[:N_ROLLS]
    stage_keeps = np.empty((rolls_per_turn, N_KEEPS, n_cols))
    for left in range(1, rolls_per_turn):
        keep_means(work, add_die)
        work[:N_ROLLS] = history[0]  # keeping all five dice ends the turn
        stage_keeps[left] = work
        best_sub_keeps(work, smaller, n_smaller, work, moves.roll_prob, work[0, :0])
    option_value = np.empty(n_boxes)
    option_points = np.empty(n_boxes, dtype=np.int64)
    option_bonus = np.empty(n_boxes, dtype=np.int64)
    option_paid = np.empty(n_boxes, dtype=np.int64)
    for i in range(games.shape[0]):
        g = games[i]
        col = game_column[i]
        state = rng[g]
        roll, state = complete_roll(empty_keep, state, add_die, keep_size)
        rolled_all = True
        for left in range(rolls_per_turn - 1, 0, -1):
            best_keep, best_value = roll, -np.inf
            for s in range(sub_keeps.shape[1]):
                k = sub_keeps[roll, s]
                if k >= 0 and stage_keeps[left, k, col] > best_value:
                    best_keep, best_value = k, stage_keeps[left, k, col]
            if best_keep == roll:  # keeping all five dice ends the turn
                rolled_all = False
                break
            roll, state = complete_roll(best_keep, state, add_die, keep_size)
        rng[g] = state
        a = aux[g]
        if rolled_all and passes > 0:
            roll, spent = joker_moves(roll, col, n_base, history, add_die, smaller, n_smaller)
            a -= spent * block
            used[g] += spent
        box_options(filled, a, upper[g], roll, values, game, kniffel_face, option_value,
                     option_points, option_bonus, option_paid)
        box = np.argmax(option_value)
        points, paid = option_points[box], option_paid[box]
        total[g], upper[g], upper_sum[g], extras[g] = after_box(
            box, points, option_bonus[box], paid, total[g], upper[g], upper_sum[g], extras[g],
            box_face, threshold)
        if box == kniffel_box and points == 50:
            kniffel_fifty[g] = True
        aux[g] = next_aux(a, box, points, paid, n_open - 1, params)
        all_filled[g] = filled | (1 << box)


@njit(cache=True, nogil=True)
def _simulate_turn(values, game, moves, sub_keeps, rolls_per_turn, empty_keep, filled, aux, upper,
                   upper_sum, total, extras, used, rng, kniffel_fifty):
    """Play the next turn of every game in the arrays (one entry per game) optimally.  Games
    are grouped by their filled boxes, so each distinct state's turn is computed once."""
    order = np.argsort(filled, kind="mergesort")
    start = 0
    while start < order.shape[0]:
        stop = start
        while stop < order.shape[0] and filled[order[stop]] == filled[order[start]]:
            stop += 1
        _play_group(filled[order[start]], order[start:stop], values, game, moves, sub_keeps,
                    rolls_per_turn, empty_keep, filled, aux, upper, upper_sum, total, extras, used,
                    rng, kniffel_fifty)
        start = stop
