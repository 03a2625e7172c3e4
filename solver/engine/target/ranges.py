"""Which d each state of the target solve holds (engine/target/columns.py's kernels solve them): the
state index, each set's last d that can matter (length), the bands of a sub-game asked about one
position (each state's base and its set's width), and the trim after a level (span: up to each
state's last chance >= CUT)."""
import numpy as np

from ...rules.scoring import P_N_BOXES, P_THRESHOLD, P_UPPER_BONUS, UPPER_MASK
from ..expected import set_columns
from ..final_rolls import completes_upper_bonus, upper_bonus_reached
from ..grain import CUT
from ..jit import njit, popcount


@njit(cache=True)
def _index_states(n_boxes, upper_reach, aux_reach, game):
    """(row_of, set_first, set_count): row_of[filled, aux, upper] is the state index g of the
    column a turn start is solved in (every upper total of a bonus class shares its class's
    column; -1 unreachable); set f's columns are g = set_first[f] .. + set_count[f], in the
    order of expected.set_columns."""
    n_sets = 1 << n_boxes
    threshold = game.params[P_THRESHOLD]
    row_of = np.full((n_sets, aux_reach.shape[2], threshold + 1), -1, dtype=np.int64)
    set_first = np.zeros(n_sets, dtype=np.int64)
    set_count = np.zeros(n_sets, dtype=np.int64)
    g = 0
    for f in range(n_sets):
        class_of, col_aux, col_upper = set_columns(f, upper_reach, aux_reach, game)
        set_first[f] = g
        set_count[f] = col_aux.shape[0]
        for j in range(col_aux.shape[0]):
            upper = col_upper[j]
            while upper < class_of.shape[0] and class_of[upper] == class_of[col_upper[j]]:
                if upper_reach[f & UPPER_MASK, upper]:
                    row_of[f, col_aux[j], upper] = g
                upper += 1
            g += 1
    return row_of, set_first, set_count


@njit(cache=True)
def _level_lengths(sets, length, gain, n_boxes):
    """length[f] := the most points still to come from set f that can matter: the best over its
    open boxes of the box's most points and bonuses plus the next set's (trimmed) length."""
    for s in range(sets.shape[0]):
        f = sets[s]
        best = 0
        for box in range(n_boxes):
            if (f >> box) & 1 == 0:
                best = max(best, gain[box] + length[f | (1 << box)])
        length[f] = best


@njit(cache=True)
def _level_bands(sets, root_filled, root_upper, extras, most, length, width, base, set_first,
                 upper_reach, aux_reach, game, box_most, extra_bonus):
    """The d a sub-game asked about one turn start (root_filled, root_upper; `most` points
    short; up to `extras` extra-Kniffel bonuses still to come) can need at each state of
    `sets`: the points scored since that turn start, P, are d = most - P, and a state's boxes
    and upper total bound P.  Below the threshold the upper total has grown by exactly the upper
    points since; at it, by at least what the bonus needed; the boxes filled since scored at
    most their most each.  State g (a column: a bonus class, its upper totals' bands joined)
    is solved at d = base[g] + 1 .. base[g] + width[f] (the widest band of its set)."""
    params, box_face = game.params, game.box_face
    threshold, bonus = params[P_THRESHOLD], params[P_UPPER_BONUS]
    for s in range(sets.shape[0]):
        f = sets[s]
        new = f & ~root_filled
        most_upper, most_lower = 0, 0
        for box in range(params[P_N_BOXES]):
            if (new >> box) & 1:
                if box_face[box] > 0:
                    most_upper += box_most[box]
                else:
                    most_lower += box_most[box]
        most_other = most_lower + extra_bonus * min(extras, popcount(new))
        class_of, col_aux, col_upper = set_columns(f, upper_reach, aux_reach, game)
        widest = 0
        for j in range(col_aux.shape[0]):
            low, high = 1 << 30, -1  # the fewest and the most points since the root
            upper = col_upper[j]
            while upper < class_of.shape[0] and class_of[upper] == class_of[col_upper[j]]:
                if upper_reach[f & UPPER_MASK, upper]:
                    if not upper_bonus_reached(upper, threshold):
                        lo, hi = upper - root_upper, upper - root_upper
                    else:
                        lo, hi = max(0, threshold - root_upper), most_upper
                    if completes_upper_bonus(root_upper, upper - root_upper, threshold):
                        lo += bonus
                        hi += bonus
                    low, high = min(low, lo), max(high, hi + most_other)
                upper += 1
            first_d, last_d = max(1, most - high), min(length[f], most - low)
            base[set_first[f] + j] = max(0, first_d - 1)
            widest = max(widest, last_d - first_d + 1)
        width[f] = widest


@njit(cache=True)
def _trim_level(sets, out_w, out_e, offset, base, width, length, span, set_first, set_count):
    """Shorten each state's range to its last d with a chance >= CUT (smaller chances := 0) and
    pack the level state after state: returns (w, e), rewrites offset and span, and sets
    length[f] to the last d that set f's states keep (all a later level can read)."""
    total = 0
    for s in range(sets.shape[0]):
        f = sets[s]
        for g in range(set_first[f], set_first[f] + set_count[f]):
            last = 0
            for i in range(width[f]):
                k = offset[g] + i
                if out_w[k] < CUT:
                    out_w[k] = 0.0
                else:
                    last = i + 1
            span[g] = last
            total += last
    w = np.empty(total)
    e = np.empty(total)
    pos = 0
    for s in range(sets.shape[0]):
        f = sets[s]
        longest = 0
        for g in range(set_first[f], set_first[f] + set_count[f]):
            n = span[g]
            w[pos:pos + n] = out_w[offset[g]:offset[g] + n]
            e[pos:pos + n] = out_e[offset[g]:offset[g] + n]
            offset[g] = pos
            pos += n
            if n > 0:
                longest = max(longest, base[g] + n)
        length[f] = longest
    return w, e
