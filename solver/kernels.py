"""numba kernels: one DP level of the turn "widget", batched over the columns of a filled-box set.

Kernels take arrays and write into preallocated outputs.  Two tuples of arrays travel together:
- `game`: the rules as data, from Rules.kernel_arrays(): (params, plain_score, joker_score,
  box_face, scoring_rolls, n_scoring_rolls), params laid out as in scoring.py;
- `moves`: the dice tables, from dice.kernel_arrays(): (roll_counts, kniffel_face, add_die,
  smaller, n_smaller, roll_prob, keep_size).
Nothing here does I/O.
"""
import numpy as np
from numba import njit, prange

from . import scoring
from .dice import N_KEEPS, N_ROLLS

_kniffel_roll = njit(cache=True)(scoring.kniffel_roll)
_next_aux = njit(cache=True)(scoring.next_aux)

# Lets LLVM use vector max instructions; sums keep their order (no reassociation), so values
# do not depend on how the compiler vectorises.
FAST = {"nnan", "ninf", "nsz"}

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
def _upper_still_possible(filled, box_face):
    """The most points the open upper boxes can still add (five dice of their face each)."""
    total = 0
    for box in range(box_face.shape[0]):
        if box_face[box] > 0 and (filled >> box) & 1 == 0:
            total += 5 * box_face[box]
    return total


@njit(cache=True)
def _state_columns(filled, upper_reach, aux_reach, game):
    """The (aux, upper) columns of one filled-box set to solve, aux-major.

    Upper totals that can no longer reach the bonus threshold all have the same future, so only
    the smallest of them is solved (see _copy_hopeless_columns)."""
    params, box_face = game[0], game[3]
    threshold = params[P_THRESHOLD]
    kniffel_filled = (filled >> params[scoring.P_KNIFFEL_BOX]) & 1
    n_filled = _popcount(filled)
    hopeless_below = threshold - _upper_still_possible(filled, box_face)
    n_aux = aux_reach.shape[2]
    col_aux = np.empty(n_aux * (threshold + 1), dtype=np.int64)
    col_upper = np.empty(n_aux * (threshold + 1), dtype=np.int64)
    n_cols = 0
    for aux in range(n_aux):
        if aux_reach[kniffel_filled, n_filled, aux]:
            hopeless_seen = False
            for upper in range(threshold + 1):
                if upper_reach[filled & 63, upper]:
                    if upper < hopeless_below:
                        if hopeless_seen:
                            continue
                        hopeless_seen = True
                    col_aux[n_cols] = aux
                    col_upper[n_cols] = upper
                    n_cols += 1
    return col_aux[:n_cols], col_upper[:n_cols]


@njit(cache=True)
def _copy_hopeless_columns(filled, values, upper_reach, col_aux, col_upper, game):
    """Give every unsolved hopeless upper total the value of the one that was solved."""
    threshold = game[0][P_THRESHOLD]
    hopeless_below = threshold - _upper_still_possible(filled, game[3])
    for j in range(col_aux.shape[0]):
        solved = col_upper[j]
        if solved < hopeless_below:
            for upper in range(solved + 1, hopeless_below):
                if upper_reach[filled & 63, upper]:
                    values[filled, col_aux[j], upper] = values[filled, col_aux[j], solved]


@njit(cache=True)
def _final_roll_values(filled, col_aux, col_upper, values, out, game, moves):
    """out[r, j]: best box value for final roll r in column j (score + bonuses + next state)."""
    params, plain_score, joker_score, box_face, scoring_rolls, n_scoring_rolls = game
    roll_counts, kniffel_face = moves[0], moves[1]
    n_boxes = params[P_N_BOXES]
    threshold = params[P_THRESHOLD]
    upper_bonus = params[P_UPPER_BONUS]
    n_cols = col_aux.shape[0]
    n_open = n_boxes - _popcount(filled)
    # successor[box, c]: value of entering `box` with c dice of its face (lower boxes: c = 0 and
    # the points are added per roll).  Entering 0 anywhere ("scratch") is the same for every roll,
    # so each box then only visits the rolls it scores points for.
    successor = np.empty((n_boxes, 6, n_cols))
    scratch = np.full(n_cols, -np.inf)
    aux_after = np.empty(n_cols, dtype=np.int64)
    for box in range(n_boxes):
        if (filled >> box) & 1:
            continue
        after = filled | (1 << box)
        face = box_face[box]
        for j in range(n_cols):
            aux_after[j] = _next_aux(col_aux[j], box, 0, 0, n_open - 1, params)
        for c in range(6 if face > 0 else 1):
            points = c * face
            for j in range(n_cols):
                upper = col_upper[j]
                bonus = upper_bonus if (upper < threshold and upper + points >= threshold) else 0
                successor[box, c, j] = values[after, aux_after[j], min(threshold, upper + points)] + points + bonus
        for j in range(n_cols):
            scratch[j] = max(scratch[j], successor[box, 0, j])
    for r in range(N_ROLLS):
        for j in range(n_cols):
            out[r, j] = scratch[j]
    for box in range(n_boxes):
        if (filled >> box) & 1:
            continue
        face = box_face[box]
        for t in range(n_scoring_rolls[box]):
            r = scoring_rolls[box, t]
            row = out[r]
            if face > 0:
                best = successor[box, roll_counts[r, face - 1]]
                for j in range(n_cols):
                    row[j] = max(row[j], best[j])
            else:
                points = plain_score[box, r]
                best = successor[box, 0]
                for j in range(n_cols):
                    row[j] = max(row[j], best[j] + points)
    # Five of a kind: bonus and joker rules depend on aux, so go one aux group at a time
    # (columns are aux-major, so each group is a contiguous run of upper totals).
    start = 0
    while start < n_cols:
        aux = col_aux[start]
        stop = start
        while stop < n_cols and col_aux[stop] == aux:
            stop += 1
        for r in range(N_ROLLS):
            face = kniffel_face[r]
            if face == 0:
                continue
            for j in range(start, stop):
                out[r, j] = -np.inf
            for box in range(n_boxes):
                if (filled >> box) & 1:
                    continue
                allowed, points, paid = _kniffel_roll(box, face, r, filled, aux, n_open, params,
                                                      plain_score, joker_score, box_face)
                if not allowed:
                    continue
                after = filled | (1 << box)
                aux_after = _next_aux(aux, box, points, paid, n_open - 1, params)
                gain = points + paid * params[P_BONUS]
                if box_face[box] > 0:
                    for j in range(start, stop):
                        upper = col_upper[j]
                        bonus = upper_bonus if (upper < threshold and upper + points >= threshold) else 0
                        value = gain + bonus + values[after, aux_after, min(threshold, upper + points)]
                        out[r, j] = max(out[r, j], value)
                else:
                    for j in range(start, stop):
                        out[r, j] = max(out[r, j], gain + values[after, aux_after, col_upper[j]])
        start = stop


@njit(cache=True, fastmath=FAST)
def _keep_values(work, add_die):
    """Rows of keeps with < 5 dice := the mean over the six ways to add one die."""
    n_cols = work.shape[1]
    for k in range(N_ROLLS, N_KEEPS):  # children (one die more) have smaller indices
        a0, a1, a2, a3, a4, a5 = add_die[k, 0], add_die[k, 1], add_die[k, 2], add_die[k, 3], add_die[k, 4], add_die[k, 5]
        for j in range(n_cols):
            work[k, j] = (work[a0, j] + work[a1, j] + work[a2, j] + work[a3, j] + work[a4, j] + work[a5, j]) / 6.0


@njit(cache=True, fastmath=FAST)
def _best_sub_keeps(work, smaller, n_smaller):
    """Every row := the best keep value over its sub-multisets (remove one die at a time)."""
    n_cols = work.shape[1]
    for k in range(N_KEEPS - 1, -1, -1):  # smaller keeps have larger indices
        row = work[k]
        for t in range(n_smaller[k]):
            other = work[smaller[k, t]]
            for j in range(n_cols):
                a = row[j]
                b = other[j]
                row[j] = a if a >= b else b


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


@njit(cache=True)
def _turn_stages(work, moves, rolls_per_turn):
    """From final-roll values in rows 0..251: keep and best-keep passes for each earlier roll."""
    add_die, smaller, n_smaller = moves[2], moves[3], moves[4]
    for _ in range(rolls_per_turn - 1):
        _keep_values(work, add_die)
        _best_sub_keeps(work, smaller, n_smaller)


@njit(cache=True)
def _solve_set(filled, values, upper_reach, aux_reach, game, moves, rolls_per_turn):
    col_aux, col_upper = _state_columns(filled, upper_reach, aux_reach, game)
    n_cols = col_aux.shape[0]
    work = np.empty((N_KEEPS, n_cols))
    _final_roll_values(filled, col_aux, col_upper, values, work, game, moves)
    _turn_stages(work, moves, rolls_per_turn)
    expected = np.empty(n_cols)
    _turn_start_values(work, moves[5], expected)
    for j in range(n_cols):
        values[filled, col_aux[j], col_upper[j]] = expected[j]
    _copy_hopeless_columns(filled, values, upper_reach, col_aux, col_upper, game)


@njit(cache=True, parallel=True)
def _solve_level(sets, values, upper_reach, aux_reach, game, moves, rolls_per_turn):
    """Solve every filled-box set in `sets` (all of one level), reading the level above."""
    for i in prange(sets.shape[0]):
        _solve_set(sets[i], values, upper_reach, aux_reach, game, moves, rolls_per_turn)


# --- simulation of whole games under the optimal strategy ----------------------------------

@njit(cache=True)
def _random_next(state):
    """splitmix64: returns (new state, 64 random bits). Counter-based, so games are reproducible
    whatever the number of threads."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True)
def _complete_roll(keep, rng, add_die, keep_size):
    """Throw the dice not held in `keep`; returns (roll index, rng state)."""
    roll = keep
    for _ in range(5 - keep_size[keep]):
        rng, bits = _random_next(rng)
        face = np.int64(((bits >> np.uint64(11)) * np.uint64(6)) >> np.uint64(53))
        roll = add_die[roll, face]
    return roll, rng


@njit(cache=True)
def _best_box(filled, aux, upper, roll, n_open, values, game, kniffel_face):
    """The optimal box for a final roll, one box at a time: (box, points, bonus paid, value)."""
    params, plain_score, joker_score, box_face = game[0], game[1], game[2], game[3]
    threshold = params[P_THRESHOLD]
    best_box, best_points, best_paid, best_value = -1, 0, 0, -np.inf
    for box in range(params[P_N_BOXES]):
        if (filled >> box) & 1:
            continue
        if kniffel_face[roll] > 0:
            allowed, points, paid = _kniffel_roll(box, kniffel_face[roll], roll, filled, aux, n_open,
                                                  params, plain_score, joker_score, box_face)
            if not allowed:
                continue
        else:
            points, paid = plain_score[box, roll], 0
        value = points + paid * params[P_BONUS]
        upper_after = upper
        if box_face[box] > 0:
            if upper < threshold and upper + points >= threshold:
                value += params[P_UPPER_BONUS]
            upper_after = min(threshold, upper + points)
        value += values[filled | (1 << box), _next_aux(aux, box, points, paid, n_open - 1, params),
                        upper_after]
        if value > best_value:
            best_box, best_points, best_paid, best_value = box, points, paid, value
    return best_box, best_points, best_paid, best_value


@njit(cache=True, parallel=True)
def _simulate(n_games, seed, values, game, moves, sub_keeps, rolls_per_turn, empty_keep,
              scores, upper_bonus_won, extra_bonuses, kniffel_fifty):
    """Play n_games optimal games; game g draws its dice from a generator seeded by (seed, g)."""
    params, box_face = game[0], game[3]
    kniffel_face, add_die, smaller, n_smaller, keep_size = moves[1], moves[2], moves[3], moves[4], moves[6]
    n_boxes = params[P_N_BOXES]
    threshold = params[P_THRESHOLD]
    kniffel_box = params[scoring.P_KNIFFEL_BOX]
    for g in prange(n_games):
        rng, _ = _random_next(np.uint64(seed) * np.uint64(0x100000001B3) + np.uint64(g))
        col_aux = np.zeros(1, dtype=np.int64)
        col_upper = np.zeros(1, dtype=np.int64)
        work = np.empty((N_KEEPS, 1))
        stage_keeps = np.empty((rolls_per_turn, N_KEEPS))
        filled, aux, upper, upper_sum, total, extras = 0, 0, 0, 0, 0, 0
        for turn in range(n_boxes):
            n_open = n_boxes - turn
            col_aux[0] = aux
            col_upper[0] = upper
            _final_roll_values(filled, col_aux, col_upper, values, work, game, moves)
            for left in range(1, rolls_per_turn):
                _keep_values(work, add_die)
                stage_keeps[left, :] = work[:, 0]
                _best_sub_keeps(work, smaller, n_smaller)
            roll, rng = _complete_roll(empty_keep, rng, add_die, keep_size)
            for left in range(rolls_per_turn - 1, 0, -1):
                best_keep, best_value = roll, -np.inf
                for s in range(sub_keeps.shape[1]):
                    k = sub_keeps[roll, s]
                    if k >= 0 and stage_keeps[left, k] > best_value:
                        best_keep, best_value = k, stage_keeps[left, k]
                if best_keep != roll:
                    roll, rng = _complete_roll(best_keep, rng, add_die, keep_size)
            box, points, paid, _ = _best_box(filled, aux, upper, roll, n_open, values, game,
                                             kniffel_face)
            total += points + paid * params[P_BONUS]
            extras += paid
            if box_face[box] > 0:
                if upper < threshold and upper + points >= threshold:
                    total += params[P_UPPER_BONUS]
                upper = min(threshold, upper + points)
                upper_sum += points
            if box == kniffel_box and points == 50:
                kniffel_fifty[g] = True
            aux = _next_aux(aux, box, points, paid, n_open - 1, params)
            filled |= 1 << box
        scores[g] = total
        upper_bonus_won[g] = upper_sum >= threshold
        extra_bonuses[g] = extras
