"""numba kernels that follow the optimal strategy of a solved table forward: every way a turn can
end and its probability, for the exact score distribution (see distribution.py).

The decisions are taken exactly as the simulation takes them (same keep order, first best box),
so the simulated games are samples of the distribution computed here.
"""
import numpy as np

from ..dice import N_KEEPS, N_ROLLS
from ..engine.final_rolls import completes_upper_bonus, enter_box, enter_upper, next_aux
from ..engine.jit import njit
from ..engine.positions import box_options, joker_moves, position_stages
from ..rules import scoring
from ..rules.scoring import P_N_BOXES, P_THRESHOLD

# Bits of an outcome's flags: what happened in the turn besides the points.
UPPER_BONUS = 1  # the upper total reached the bonus threshold
KNIFFEL_FIFTY = 2  # the Kniffel box got 50
EXTRA_BONUS = 4  # an extra-Kniffel bonus was paid
KNIFFEL_ROLLED = 8  # the turn ended on five of a kind
N_FLAG_VALUES = 16
GAIN_RANGE = 1024  # more than any turn can score (box + upper bonus + extra bonus)
MAX_OUTCOMES = 2 * N_ROLLS  # before merging: each final roll, once thrown and once kept
_HASH_SIZE = 1024  # open addressing for merging outcomes; a power of two above MAX_OUTCOMES


@njit(cache=True)
def _final_roll_mass(values_keep, sub_keeps, moves, rolls_per_turn, rolled, stopped):
    """Probability of each final roll under the best keeps of `values_keep` (stage_keeps):
    rolled[r] for rolls thrown at the last roll, stopped[r] for rolls kept whole earlier."""
    add_die, roll_prob = moves.add_die, moves.roll_prob
    rolled[:] = roll_prob
    stopped[:] = 0.0
    keep_mass = np.empty(N_KEEPS)
    for left in range(rolls_per_turn - 1, 0, -1):
        keep_mass[:] = 0.0
        for r in range(N_ROLLS):
            mass = rolled[r]
            if mass == 0.0:
                continue
            best_keep, best_value = r, -np.inf
            for s in range(sub_keeps.shape[1]):
                k = sub_keeps[r, s]
                if k >= 0 and values_keep[left, k] > best_value:
                    best_keep, best_value = k, values_keep[left, k]
            if best_keep == r:  # holding all five dice ends the turn
                stopped[r] += mass
            else:
                keep_mass[best_keep] += mass
        # Throw the free dice one at a time: a keep's mass goes in sixths to the keeps one die
        # larger, which have smaller indices, so one descending sweep reaches the rolls.
        for k in range(N_KEEPS - 1, N_ROLLS - 1, -1):
            mass = keep_mass[k]
            if mass != 0.0:
                share = mass / 6.0
                for face in range(6):
                    keep_mass[add_die[k, face]] += share
        rolled[:] = keep_mass[:N_ROLLS]


@njit(cache=True)
def _best_boxes(filled, aux, upper, values, game, moves, n_open, best):
    """best[r]: the box the optimal player fills with final roll r (the first of equal values),
    by the arithmetic of kernels.box_options, which decides five-of-a-kind rolls here too."""
    params, plain_score, box_face = game.params, game.plain_score, game.box_face
    kniffel_face = moves.kniffel_face
    n_boxes = params[P_N_BOXES]
    threshold = params[P_THRESHOLD]
    upper_bonus = params[scoring.P_UPPER_BONUS]
    aux_after = np.empty(n_boxes, dtype=np.int64)
    for box in range(n_boxes):
        aux_after[box] = next_aux(aux, box, 0, 0, n_open - 1, params)
    value = np.empty(n_boxes)
    points = np.empty(n_boxes, dtype=np.int64)
    bonus = np.empty(n_boxes, dtype=np.int64)
    paid = np.empty(n_boxes, dtype=np.int64)
    for r in range(N_ROLLS):
        if kniffel_face[r] > 0:
            box_options(filled, aux, upper, r, values, game, kniffel_face, value, points, bonus,
                        paid)
            best[r] = np.argmax(value)
            continue
        top, choice = -np.inf, -1
        for box in range(n_boxes):
            if (filled >> box) & 1:
                continue
            pts = plain_score[box, r]
            extra = 0
            upper_after = upper
            if box_face[box] > 0:
                upper_after, extra = enter_upper(upper, pts, threshold, upper_bonus)
            v = pts + extra + values[filled | (1 << box), aux_after[box], upper_after]
            if v > top:
                top, choice = v, box
        best[r] = choice


@njit(cache=True)
def _turn_outcomes(state, values, game, moves, sub_keeps, rolls_per_turn, keys, probs):
    """Every distinct way the optimal turn from the flat state index `state` can end.

    Writes keys[:n] (ascending) and probs[:n] and returns n.  A key packs the successor's flat
    index, the points gained (box + bonuses) and the flags (decoded in distribution.forward).
    Long: the keep stages, the jokers and the box choice of one turn share scratch
    arrays and run in one compiled call (a call per stage would cost more than its work)."""
    params, box_face = game.params, game.box_face
    kniffel_face, add_die, smaller, n_smaller = (moves.kniffel_face, moves.add_die, moves.smaller,
                                                 moves.n_smaller)
    n_boxes = params[P_N_BOXES]
    threshold = params[P_THRESHOLD]
    kniffel_box = params[scoring.P_KNIFFEL_BOX]
    block = params[scoring.P_AUX_BLOCK]
    n_levels = params[scoring.P_JOKERS] + 1
    passes = params[scoring.P_JOKERS_PER_TURN] if n_levels > 1 else 0
    n_aux, n_upper = values.shape[1], values.shape[2]
    upper = state % n_upper
    aux = (state // n_upper) % n_aux
    filled = state // (n_upper * n_aux)
    n_open = 0
    for box in range(n_boxes):
        n_open += 1 - ((filled >> box) & 1)

    work = np.empty((N_KEEPS, n_levels))
    history = np.empty((passes + 1, N_ROLLS, n_levels))
    stage_keeps = np.empty((rolls_per_turn, N_KEEPS))
    position_stages(filled, aux, upper, values, game, moves, rolls_per_turn, work, history,
                     stage_keeps)
    rolled = np.empty(N_ROLLS)
    stopped = np.empty(N_ROLLS)
    _final_roll_mass(stage_keeps, sub_keeps, moves, rolls_per_turn, rolled, stopped)

    best = np.empty((passes + 1, N_ROLLS), dtype=np.int64)  # per jokers spent this turn
    ready = np.zeros(passes + 1, dtype=np.bool_)
    table_keys = np.full(_HASH_SIZE, -1, dtype=np.int64)
    table_probs = np.zeros(_HASH_SIZE)
    n = 0
    for thrown in (True, False):
        mass_of = rolled if thrown else stopped
        for r in range(N_ROLLS):
            mass = mass_of[r]
            if mass == 0.0:
                continue
            final, spent = r, 0
            if thrown and passes > 0:  # jokers need every roll thrown
                final, spent = joker_moves(r, aux // block, 1, history, add_die, smaller, n_smaller)
            aux_now = aux - spent * block
            if not ready[spent]:
                _best_boxes(filled, aux_now, upper, values, game, moves, n_open, best[spent])
                ready[spent] = True
            box = best[spent, final]
            _, pts, extra, pays, upper_after, aux_after = enter_box(
                box, final, kniffel_face[final], filled, aux_now, upper, n_open, params,
                game.plain_score, game.joker_score, box_face)
            flags = 0
            if box_face[box] > 0 and completes_upper_bonus(upper, pts, threshold):
                flags |= UPPER_BONUS
            if box == kniffel_box and pts == 50:
                flags |= KNIFFEL_FIFTY
            if pays:
                flags |= EXTRA_BONUS
            if kniffel_face[final] > 0:
                flags |= KNIFFEL_ROLLED
            successor = ((filled | (1 << box)) * n_aux + aux_after) * n_upper + upper_after
            key = (successor * GAIN_RANGE + pts + extra) * N_FLAG_VALUES + flags
            slot = (key * 0x9E3779B1) & (_HASH_SIZE - 1)
            while table_keys[slot] != -1 and table_keys[slot] != key:
                slot = (slot + 1) & (_HASH_SIZE - 1)
            if table_keys[slot] == -1:
                table_keys[slot] = key
                n += 1
            table_probs[slot] += mass
    # Ascending keys, so the order (and the float sums built on it) never depends on hashing.
    found = np.empty(n, dtype=np.int64)
    where = np.empty(n, dtype=np.int64)
    i = 0
    for slot in range(_HASH_SIZE):
        if table_keys[slot] != -1:
            found[i] = table_keys[slot]
            where[i] = slot
            i += 1
    order = np.argsort(found)
    for i in range(n):
        keys[i] = found[order[i]]
        probs[i] = table_probs[where[order[i]]]
    return n


@njit(cache=True, nogil=True)
def _outcomes_batch(states, values, game, moves, sub_keeps, rolls_per_turn, counts, keys, probs):
    """_turn_outcomes for each state: row i of keys/probs, counts[i] entries used."""
    for i in range(states.shape[0]):
        counts[i] = _turn_outcomes(states[i], values, game, moves, sub_keeps, rolls_per_turn,
                                   keys[i], probs[i])


@njit(cache=True)
def _push_forward(weight, offsets, successor, probs, flags, drop, occupancy):
    """occupancy[successor] += weight[i] * p for each outcome of state i, in order, leaving out
    outcomes with any flag in `drop` (to count games in which something never happens)."""
    for i in range(weight.shape[0]):
        w = weight[i]
        if w == 0.0:
            continue
        for o in range(offsets[i], offsets[i + 1]):
            if flags[o] & drop == 0:
                occupancy[successor[o]] += w * probs[o]


@njit(cache=True)
def _remaining_maxima(offsets, successor_pos, gain, next_max, out):
    """out[i]: the most points state i's distribution can reach (support width - 1)."""
    for i in range(out.shape[0]):
        best = 0
        for o in range(offsets[i], offsets[i + 1]):
            best = max(best, gain[o] + next_max[successor_pos[o]])
        out[i] = best


@njit(cache=True, nogil=True)
def _gather_distributions(first, last, offsets, successor_pos, gain, probs, next_dist,
                          next_start, dist, dist_start):
    """For states first..last-1: dist of remaining points = sum over outcomes of p times the
    successor's distribution shifted by the points gained.  Each state only writes its own
    slice, in a fixed order, so threads may split the states any way."""
    for i in range(first, last):
        base = dist_start[i]
        dist[base:dist_start[i + 1]] = 0.0
        for o in range(offsets[i], offsets[i + 1]):
            p = probs[o]
            shifted = base + gain[o]
            j = successor_pos[o]
            source = next_dist[next_start[j]:next_start[j + 1]]
            for s in range(source.shape[0]):
                dist[shifted + s] += p * source[s]
