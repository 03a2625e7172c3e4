"""numba kernels: the turn "widget" (final roll -> keeps -> turn start) batched over the states
of a filled-box set for the solver, and one position at a time for batch advice and simulation.

Kernels take arrays and write into preallocated outputs.  Two tuples of arrays travel together:
- `game`: the rules as data, from Rules.kernel_arrays(): (params, plain_score, joker_score,
  box_face, scoring_rolls, n_scoring_rolls), params laid out as in scoring.py;
- `moves`: the dice tables, from dice.kernel_arrays(): (roll_counts, kniffel_face, add_die,
  smaller, n_smaller, roll_prob, keep_size).
Nothing here does I/O.
"""
import numpy as np
from numba import njit

from . import scoring
from .dice import N_KEEPS, N_ROLLS

_kniffel_roll = njit(cache=True)(scoring.kniffel_roll)
_next_aux = njit(cache=True)(scoring.next_aux)
_fives_score_plain = njit(cache=True)(scoring.fives_score_plain)

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
def _bonus_classes(filled, game):
    """class_of[u] for every upper total u: totals of one class have the same future.

    The upper total matters only for the bonus, and only through which sums s of the points
    the open upper boxes can still add would reach it (u + s >= threshold).  That is decided by
    the smallest reachable s >= threshold - u, which is the class (one past the most the boxes
    can add when no s reaches: the "hopeless" totals).  Classes are runs of consecutive totals,
    and filling a box keeps two totals of one class in one class, so one solve per class will do.
    """
    params, box_face = game[0], game[3]
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
    for u in range(threshold + 1):  # need = threshold - u falls as u rises
        need = threshold - u
        if need <= most:
            smallest = need
            while not reach[smallest]:
                smallest += 1
        class_of[u] = smallest
    return class_of


@njit(cache=True)
def _state_columns(filled, upper_reach, aux_reach, class_of, game):
    """The (aux, upper) columns of one filled-box set to solve, aux-major: per aux, the smallest
    reachable upper total of each bonus class (see _bonus_classes and _copy_class_columns)."""
    params = game[0]
    threshold = params[P_THRESHOLD]
    kniffel_filled = (filled >> params[scoring.P_KNIFFEL_BOX]) & 1
    n_filled = _popcount(filled)
    n_aux = aux_reach.shape[2]
    col_aux = np.empty(n_aux * (threshold + 1), dtype=np.int64)
    col_upper = np.empty(n_aux * (threshold + 1), dtype=np.int64)
    n_cols = 0
    for aux in range(n_aux):
        if aux_reach[kniffel_filled, n_filled, aux]:
            last_class = -1
            for upper in range(threshold + 1):
                if upper_reach[filled & 63, upper] and class_of[upper] != last_class:
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
            if upper_reach[filled & 63, upper]:
                values[filled, col_aux[j], upper] = values[filled, col_aux[j], solved]
            upper += 1


@njit(cache=True)
def _final_roll_values(filled, col_aux, col_upper, values, out, game, moves, successor):
    """out[r, j]: best box value for final roll r in column j (score + bonuses + next state).
    successor: scratch of shape (n_boxes, 6, n_cols)."""
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
    # (columns are aux-major, so each group is a contiguous run of upper totals).  Without a
    # bonus or a joker a five of a kind scores by the plain table, done above.
    start = n_cols if _fives_score_plain(params) else 0
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


WIDE = 64  # columns: narrower filled-box sets are solved side by side until they fill this many


@njit(cache=True)
def _set_columns(filled, upper_reach, aux_reach, game):
    """(class_of, col_aux, col_upper) of one filled-box set (see _bonus_classes)."""
    class_of = _bonus_classes(filled, game)
    col_aux, col_upper = _state_columns(filled, upper_reach, aux_reach, class_of, game)
    return class_of, col_aux, col_upper


@njit(cache=True)
def _final_columns(filled, values, col_aux, col_upper, game, moves, work, stop, buffers):
    """The final-roll values of one filled-box set into rows 0..251 of `work` (after Knobeln
    jokers; `stop`: without one); work and stop have the set's columns."""
    params = game[0]
    n_cols = col_aux.shape[0]
    successor = buffers[1][: params[P_N_BOXES] * 6 * n_cols].reshape((params[P_N_BOXES], 6, n_cols))
    if params[scoring.P_JOKERS] > 0:
        _final_roll_values(filled, col_aux, col_upper, values, stop, game, moves, successor)
        _apply_jokers(work, stop, n_cols // (params[scoring.P_JOKERS] + 1),
                      params[scoring.P_JOKERS_PER_TURN], moves[2], moves[3], moves[4])
    else:
        _final_roll_values(filled, col_aux, col_upper, values, work, game, moves, successor)


@njit(cache=True)
def _solve_group(sets, n_cols, values, upper_reach, aux_reach, game, moves, rolls_per_turn, buffers):
    """Solve the turn-start states of the filled-box sets `sets` (n_cols columns in all)
    together: each set's final-roll values fill its own columns, then the keep stages run once
    over all of them (they treat every column alike, and wide rows keep the vector units busy).
    `buffers` is reused scratch space (fresh large allocations per set cost more than the
    arithmetic of small sets)."""
    jokers = game[0][scoring.P_JOKERS] > 0
    work = buffers[0][: N_KEEPS * n_cols].reshape((N_KEEPS, n_cols))
    stop = buffers[2][: N_ROLLS * n_cols].reshape((N_ROLLS, n_cols))
    expected = buffers[3][:n_cols]
    col_aux = np.empty(n_cols, dtype=np.int64)  # every set's columns, one set after another
    col_upper = np.empty(n_cols, dtype=np.int64)
    class_of = np.empty((sets.shape[0], game[0][P_THRESHOLD] + 1), dtype=np.int64)
    bounds = np.zeros(sets.shape[0] + 1, dtype=np.int64)
    for s in range(sets.shape[0]):
        classes, aux_s, upper_s = _set_columns(sets[s], upper_reach, aux_reach, game)
        start, n = bounds[s], aux_s.shape[0]
        bounds[s + 1] = start + n
        class_of[s] = classes
        col_aux[start:start + n] = aux_s
        col_upper[start:start + n] = upper_s
        if sets.shape[0] == 1:  # wide enough alone: no copies
            _final_columns(sets[s], values, aux_s, upper_s, game, moves, work, stop, buffers)
            continue
        own = buffers[4][: N_KEEPS * n].reshape((N_KEEPS, n))
        own_stop = buffers[5][: N_ROLLS * n].reshape((N_ROLLS, n))
        _final_columns(sets[s], values, aux_s, upper_s, game, moves, own, own_stop, buffers)
        for r in range(N_ROLLS):
            for j in range(n):
                work[r, start + j] = own[r, j]
                if jokers:
                    stop[r, start + j] = own_stop[r, j]
    _turn_stages(work, stop if jokers else work, moves, rolls_per_turn, expected)
    for s in range(sets.shape[0]):
        for j in range(bounds[s], bounds[s + 1]):
            values[sets[s], col_aux[j], col_upper[j]] = expected[j]
        _copy_class_columns(sets[s], values, upper_reach, col_aux[bounds[s]:bounds[s + 1]],
                            col_upper[bounds[s]:bounds[s + 1]], class_of[s])


@njit(cache=True, nogil=True)
def _solve_sets(sets, values, upper_reach, aux_reach, game, moves, rolls_per_turn):
    """Solve every filled-box set in `sets` (all of one level), reading the level above.

    Releases the GIL: dp.py runs several calls at once on disjoint sets, one per thread.  Each
    column's arithmetic does not depend on which sets are solved beside it, so the values do
    not depend on the number of threads."""
    max_cols = values.shape[1] * values.shape[2]
    wide = max_cols + WIDE
    buffers = (np.empty(N_KEEPS * wide), np.empty(game[0][P_N_BOXES] * 6 * max_cols),
               np.empty(N_ROLLS * wide), np.empty(wide), np.empty(N_KEEPS * max_cols),
               np.empty(N_ROLLS * max_cols))
    start = 0
    while start < sets.shape[0]:
        stop, n_cols = start, 0
        while stop < sets.shape[0] and n_cols < WIDE:
            n_cols += _set_columns(sets[stop], upper_reach, aux_reach, game)[1].shape[0]
            stop += 1
        _solve_group(sets[start:stop], n_cols, values, upper_reach, aux_reach, game, moves,
                     rolls_per_turn, buffers)
        start = stop


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
def _box_options(filled, aux, upper, roll, values, game, kniffel_face, value, points, bonus, paid):
    """For a final roll, every box: value[b] (points + bonuses + next state; -inf where the box
    is filled or forbidden), points[b], bonus[b] (upper + extra-Kniffel bonus) and paid[b]
    (1 if an extra-Kniffel bonus is paid)."""
    params, plain_score, joker_score, box_face = game[0], game[1], game[2], game[3]
    threshold = params[P_THRESHOLD]
    n_open = params[P_N_BOXES] - _popcount(filled)
    for box in range(params[P_N_BOXES]):
        value[box], points[box], bonus[box], paid[box] = -np.inf, 0, 0, 0
        if (filled >> box) & 1:
            continue
        pays = 0
        if kniffel_face[roll] > 0:
            allowed, pts, pays = _kniffel_roll(box, kniffel_face[roll], roll, filled, aux, n_open,
                                               params, plain_score, joker_score, box_face)
            if not allowed:
                continue
        else:
            pts = plain_score[box, roll]
        extra = pays * params[P_BONUS]
        upper_after = upper
        if box_face[box] > 0:
            if upper < threshold and upper + pts >= threshold:
                extra += params[P_UPPER_BONUS]
            upper_after = min(threshold, upper + pts)
        points[box] = pts
        bonus[box] = extra
        paid[box] = pays
        value[box] = pts + extra + values[filled | (1 << box),
                                          _next_aux(aux, box, pts, pays, n_open - 1, params),
                                          upper_after]


@njit(cache=True)
def _position_final(filled, aux, upper, values, game, moves, work, history):
    """One position's final-roll values, with a column per number of jokers left (the rest of
    aux alike): history[m] = the values with up to m jokers this turn (history[0]: stop now)."""
    block = game[0][scoring.P_AUX_BLOCK]
    n_levels = work.shape[1]
    col_aux = np.empty(n_levels, dtype=np.int64)
    col_upper = np.empty(n_levels, dtype=np.int64)
    for level in range(n_levels):
        col_aux[level] = level * block + aux % block
        col_upper[level] = upper
    successor = np.empty((game[0][P_N_BOXES], 6, n_levels))
    _final_roll_values(filled, col_aux, col_upper, values, work, game, moves, successor)
    history[0] = work[:N_ROLLS]
    for m in range(1, history.shape[0]):
        _apply_jokers(work, history[m - 1], 1, 1, moves[2], moves[3], moves[4])
        history[m] = work[:N_ROLLS]


@njit(cache=True)
def _position_stages(filled, aux, upper, values, game, moves, rolls_per_turn, work, history,
                     stage_keeps):
    """One position's turn (see _position_final for work and history): stage_keeps[left] = keep
    values with `left` rolls to come, for the jokers in hand."""
    block = game[0][scoring.P_AUX_BLOCK]
    _position_final(filled, aux, upper, values, game, moves, work, history)
    for left in range(1, rolls_per_turn):
        _keep_values(work, moves[2])
        work[:N_ROLLS] = history[0]  # keeping all five dice ends the turn
        stage_keeps[left, :] = work[:, aux // block]
        _best_sub_keeps(work, moves[3], moves[4], work, moves[5], work[0, :0])


GROUP = 32  # positions whose keep stages _advise_batch runs as the columns of one array


@njit(cache=True, nogil=True)
def _advise_batch(filled, aux, upper, rolls, rolls_left, values, game, moves, rolls_per_turn,
                  keeps, box_value, box_points, box_bonus, box_paid):
    """For each position i: keeps[i] = keep values with rolls_left[i] rolls to come (when > 0)
    and the box options of its roll in hand (see _box_options).

    The keep stages of GROUP positions run together, each position's columns (one per number of
    jokers left) side by side: one position alone has too few columns for the vector units."""
    params = game[0]
    block = params[scoring.P_AUX_BLOCK]
    n_levels = params[scoring.P_JOKERS] + 1
    passes = params[scoring.P_JOKERS_PER_TURN] if n_levels > 1 else 0
    staged = np.empty(filled.shape[0], dtype=np.int64)
    n_staged = 0
    for i in range(filled.shape[0]):
        _box_options(filled[i], aux[i], upper[i], rolls[i], values, game, moves[1], box_value[i],
                     box_points[i], box_bonus[i], box_paid[i])
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
            _position_final(filled[i], aux[i], upper[i], values, game, moves, final, history)
            for r in range(N_ROLLS):
                for level in range(n_levels):
                    stop[r, q * n_levels + level] = history[0, r, level]
                    work[r, q * n_levels + level] = history[passes, r, level]
        for left in range(1, rolls_per_turn):
            _keep_values(work, moves[2])
            work[:N_ROLLS] = stop  # keeping all five dice ends the turn
            for q in range(group.shape[0]):
                i = group[q]
                if rolls_left[i] == left:
                    column = q * n_levels + aux[i] // block
                    for k in range(N_KEEPS):
                        keeps[i, k] = work[k, column]
            _best_sub_keeps(work, moves[3], moves[4], work, moves[5], work[0, :0])


@njit(cache=True)
def _after_box(box, points, bonus, paid, total, upper, upper_sum, extras, box_face, threshold):
    """Running totals after a box is filled: (total, capped upper, upper sum, bonuses paid)."""
    total += points + bonus
    extras += paid
    if box_face[box] > 0:
        upper = min(threshold, upper + points)
        upper_sum += points
    return total, upper, upper_sum, extras


@njit(cache=True)
def _greedy_turn(rng, moves, rolls_per_turn, empty_keep):
    """The baseline's turn: keep the most common face (the higher on a tie), reroll the rest."""
    roll_counts, add_die, keep_size = moves[0], moves[2], moves[6]
    roll, rng = _complete_roll(empty_keep, rng, add_die, keep_size)
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
        roll, rng = _complete_roll(keep, rng, add_die, keep_size)
    return roll, rng


@njit(cache=True)
def _joker_moves(roll, col, shift, history, add_die, smaller, n_smaller):
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
def _seed_games(first_game, seed, rng):
    """rng[i]: the generator state of game first_game + i, seeded by (seed, game number) only."""
    for i in range(rng.shape[0]):
        rng[i], _ = _random_next(np.uint64(seed) * np.uint64(0x100000001B3) + np.uint64(first_game + i))


@njit(cache=True, nogil=True)
def _simulate_greedy(rng, values, game, moves, rolls_per_turn, empty_keep, scores, upper_bonus_won,
                     extra_bonuses, kniffel_fifty):
    """Whole games of the baseline: keep the most common face (the higher one on a tie) and fill
    the box with the most points now (the first such box on a tie).  One game per entry of rng."""
    params, box_face = game[0], game[3]
    kniffel_face = moves[1]
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
            _box_options(filled, aux, upper, roll, values, game, kniffel_face, option_value,
                         option_points, option_bonus, option_paid)
            box, best = -1, -1
            for b in range(n_boxes):
                if option_value[b] > -np.inf and option_points[b] + option_bonus[b] > best:
                    box, best = b, option_points[b] + option_bonus[b]
            points, paid = option_points[box], option_paid[box]
            total, upper, upper_sum, extras = _after_box(box, points, option_bonus[box], paid,
                                                         total, upper, upper_sum, extras,
                                                         box_face, threshold)
            if box == kniffel_box and points == 50:
                kniffel_fifty[g] = True
            aux = _next_aux(aux, box, points, paid, n_boxes - turn - 1, params)
            filled |= 1 << box
        scores[g] = total
        upper_bonus_won[g] = upper_sum >= threshold
        extra_bonuses[g] = extras


# --- simulation of whole games, many at once ---------------------------------------------------

@njit(cache=True)
def _group_columns(games, aux, upper, block, n_levels, n_upper):
    """Columns for the games of one filled-box set: one per (aux without jokers, upper) met,
    repeated for every number of jokers left (joker-major, as _apply_jokers wants them).
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
    values are computed once per distinct state, as columns, then each game plays its turn."""
    params, box_face = game[0], game[3]
    kniffel_face, add_die, smaller, n_smaller, keep_size = moves[1], moves[2], moves[3], moves[4], moves[6]
    n_boxes = params[P_N_BOXES]
    threshold = params[P_THRESHOLD]
    kniffel_box = params[scoring.P_KNIFFEL_BOX]
    block = params[scoring.P_AUX_BLOCK]
    n_levels = params[scoring.P_JOKERS] + 1
    passes = params[scoring.P_JOKERS_PER_TURN] if n_levels > 1 else 0
    n_open = n_boxes - _popcount(filled)
    col_aux, col_upper, game_column, n_base = _group_columns(games, aux, upper, block, n_levels,
                                                             values.shape[2])
    n_cols = col_aux.shape[0]
    work = np.empty((N_KEEPS, n_cols))
    successor = np.empty((n_boxes, 6, n_cols))
    _final_roll_values(filled, col_aux, col_upper, values, work, game, moves, successor)
    history = np.empty((passes + 1, N_ROLLS, n_cols))
    history[0] = work[:N_ROLLS]
    for m in range(1, passes + 1):
        _apply_jokers(work, history[m - 1], n_base, 1, add_die, smaller, n_smaller)
        history[m] = work[:N_ROLLS]
    stage_keeps = np.empty((rolls_per_turn, N_KEEPS, n_cols))
    for left in range(1, rolls_per_turn):
        _keep_values(work, add_die)
        work[:N_ROLLS] = history[0]  # keeping all five dice ends the turn
        stage_keeps[left] = work
        _best_sub_keeps(work, smaller, n_smaller, work, moves[5], work[0, :0])
    option_value = np.empty(n_boxes)
    option_points = np.empty(n_boxes, dtype=np.int64)
    option_bonus = np.empty(n_boxes, dtype=np.int64)
    option_paid = np.empty(n_boxes, dtype=np.int64)
    for i in range(games.shape[0]):
        g = games[i]
        col = game_column[i]
        state = rng[g]
        roll, state = _complete_roll(empty_keep, state, add_die, keep_size)
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
            roll, state = _complete_roll(best_keep, state, add_die, keep_size)
        rng[g] = state
        a = aux[g]
        if rolled_all and passes > 0:
            roll, spent = _joker_moves(roll, col, n_base, history, add_die, smaller, n_smaller)
            a -= spent * block
            used[g] += spent
        _box_options(filled, a, upper[g], roll, values, game, kniffel_face, option_value,
                     option_points, option_bonus, option_paid)
        box = np.argmax(option_value)
        points, paid = option_points[box], option_paid[box]
        total[g], upper[g], upper_sum[g], extras[g] = _after_box(
            box, points, option_bonus[box], paid, total[g], upper[g], upper_sum[g], extras[g],
            box_face, threshold)
        if box == kniffel_box and points == 50:
            kniffel_fifty[g] = True
        aux[g] = _next_aux(a, box, points, paid, n_open - 1, params)
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
