"""numba kernels of the Dice Duel: the turn of many states at once for the solver, and whole
games for the simulation.

The turn arithmetic (keeps, rerolls, best sub-keeps) is the scorecard games' (engine/turn.py); only
the end of a turn differs: a chip move (duel_rules.chip_moves) instead of a box.  `game` is
DuelRules.kernel_arrays(): (params, roll_category, category_mask); `moves` is
dice.kernel_arrays().  Nothing here does I/O.
"""
import numpy as np

from ...dice import N_KEEPS, N_ROLLS
from ...engine.jit import njit
from ...engine.seeded_dice import complete_roll, random_next
from ...engine.turn import best_sub_keeps, keep_means, turn_stages
from .. import rules as duel_rules
from .. import states as duel_state

_rank = njit(cache=True)(duel_state.rank)
_unrank = njit(cache=True)(duel_state.unrank)
_chip_moves = njit(cache=True)(duel_rules.chip_moves)
_apply_move = njit(cache=True)(duel_rules.apply_move)

N_TYPES = duel_rules.N_TYPES
COLUMNS = 64  # states solved side by side: their keep arithmetic runs as vector operations


@njit(cache=True)
def _category_values(plate, aside, values, game, out, move_list, new_plate, new_aside):
    """out[c]: the value of ending the turn with dice of category c, best move taken."""
    params, category_mask = game.params, game.category_mask
    may_decline, last_chip_bonus = params[0], params[1]
    for c in range(category_mask.shape[0]):
        n = _chip_moves(plate, aside, c == 0, category_mask[c], may_decline, move_list)
        best = -np.inf
        for i in range(n):
            last = _apply_move(plate, aside, move_list[i], new_plate, new_aside)
            value = values[_rank(new_plate, new_aside)] + last * last_chip_bonus
            if value > best:
                best = value
        out[c] = best


@njit(cache=True, nogil=True)
def _solve_states(states, values, game, moves, rolls_per_turn):
    """values[s] := expected final score at the start of a turn, for each state s in `states`
    (none of them over), from the values of the states their moves lead to.

    Releases the GIL: the backward pass (duel/solo/solve.py) runs several calls at once on
    disjoint states of one level."""
    roll_category = game.roll_category
    n_categories = game.category_mask.shape[0]
    work = np.empty((N_KEEPS, COLUMNS))
    expected = np.empty(COLUMNS)
    category_value = np.empty(n_categories)
    move_list = np.empty((duel_rules.MAX_MOVES, 3), dtype=np.int64)
    plate = np.empty(N_TYPES, dtype=np.int64)
    aside = np.empty(N_TYPES, dtype=np.int64)
    new_plate = np.empty(N_TYPES, dtype=np.int64)
    new_aside = np.empty(N_TYPES, dtype=np.int64)
    for start in range(0, states.shape[0], COLUMNS):
        count = min(COLUMNS, states.shape[0] - start)
        for j in range(COLUMNS):
            if j < count:
                _unrank(states[start + j], plate, aside)
                _category_values(plate, aside, values, game, category_value, move_list,
                                 new_plate, new_aside)
                for r in range(N_ROLLS):
                    work[r, j] = category_value[roll_category[r]]
            else:  # padding of the last block
                for r in range(N_ROLLS):
                    work[r, j] = 0.0
        turn_stages(work, work, moves, rolls_per_turn, expected)
        for j in range(count):
            values[states[start + j]] = expected[j]


@njit(cache=True)
def _best_move(plate, aside, roll, values, game, move_list, new_plate, new_aside):
    """Index into move_list (filled here) of the best move for final roll `roll` (the first on
    a tie)."""
    params, roll_category, category_mask = game
    category = roll_category[roll]
    n = _chip_moves(plate, aside, category == 0, category_mask[category], params[0], move_list)
    best, best_value = 0, -np.inf
    for i in range(n):
        last = _apply_move(plate, aside, move_list[i], new_plate, new_aside)
        value = values[_rank(new_plate, new_aside)] + last * params[1]
        if value > best_value:
            best, best_value = i, value
    return best


@njit(cache=True, nogil=True)
def _simulate(first_game, seed, values, game, moves, sub_keeps, rolls_per_turn, empty_keep,
              mine, last_chip, turns, kniffels):
    """Play games first_game, first_game + 1, ... under the optimal strategy of `values`, one
    per row of the outputs: chips held at the end, 1 if the game's last move took the last plate
    chip, turns played, Kniffels thrown.  Game g's dice come from a generator seeded by
    (seed, g), whatever call or thread plays it."""
    roll_category = game.roll_category
    add_die, smaller, keep_size = moves.add_die, moves.smaller, moves.keep_size
    n_smaller = moves.n_smaller
    category_value = np.empty(game.category_mask.shape[0])
    move_list = np.empty((duel_rules.MAX_MOVES, 3), dtype=np.int64)
    plate = np.empty(N_TYPES, dtype=np.int64)
    aside = np.empty(N_TYPES, dtype=np.int64)
    new_plate = np.empty(N_TYPES, dtype=np.int64)
    new_aside = np.empty(N_TYPES, dtype=np.int64)
    work = np.empty((N_KEEPS, 1))
    stop = np.empty(N_ROLLS)
    stage_keeps = np.empty((rolls_per_turn, N_KEEPS))
    for g in range(mine.shape[0]):
        rng, _ = random_next(np.uint64(seed) * np.uint64(0x100000001B3) + np.uint64(first_game + g))
        plate[:] = duel_rules.CHIPS_PER_TYPE
        aside[:] = 0
        turns[g], kniffels[g], last_chip[g] = 0, 0, 0
        while plate.sum() > 0:
            turns[g] += 1
            _category_values(plate, aside, values, game, category_value, move_list, new_plate,
                             new_aside)
            for r in range(N_ROLLS):
                stop[r] = category_value[roll_category[r]]
                work[r, 0] = stop[r]
            for left in range(1, rolls_per_turn):
                keep_means(work, add_die)
                work[:N_ROLLS, 0] = stop  # keeping all five dice ends the turn
                stage_keeps[left, :] = work[:, 0]
                best_sub_keeps(work, smaller, n_smaller, work, moves.roll_prob, work[0, :0])
            roll, rng = complete_roll(empty_keep, rng, add_die, keep_size)
            for left in range(rolls_per_turn - 1, 0, -1):
                best_keep, best_value = roll, -np.inf
                for s in range(sub_keeps.shape[1]):
                    k = sub_keeps[roll, s]
                    if k >= 0 and stage_keeps[left, k] > best_value:
                        best_keep, best_value = k, stage_keeps[left, k]
                if best_keep == roll:  # keeping all five dice ends the turn
                    break
                roll, rng = complete_roll(best_keep, rng, add_die, keep_size)
            if roll_category[roll] == 0:
                kniffels[g] += 1
            move = _best_move(plate, aside, roll, values, game, move_list, new_plate, new_aside)
            last_chip[g] = _apply_move(plate, aside, move_list[move], new_plate, new_aside)
            plate[:] = new_plate
            aside[:] = new_aside
        for t in range(N_TYPES):
            mine[g, t] = duel_rules.CHIPS_PER_TYPE - aside[t]
