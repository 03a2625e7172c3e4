"""Independent, slow reference for the target objective on small sub-games.

For a position at the start of a turn and every d = 1..D points still needed: W = the best
chance that the points still to come reach d, E = the expected points still to come under that
play, where options whose chances round to the same multiple of 2^-30 are a tie broken by the
higher E.  Plain
recursion over positions with memoisation, one numpy vector over d per position, and the turn
evaluated exhaustively as in reference.py (every roll, every keep, every box the rules allow,
every die a Knobeln joker may change), whose rule code (written from the rules text) it reuses.
"""
from functools import lru_cache

import numpy as np
import reference as ref

GRAIN = 2.0 ** 30
# P(roll i after keeping k) as a matrix, and P(roll i) as a vector: a turn's averages as products
KEEP_MATRIX = np.zeros((len(ref.KEEPS), len(ref.ROLLS)))
for _k, _outcomes in enumerate(ref.KEEP_OUTCOMES):
    for _i, _p in _outcomes:
        KEEP_MATRIX[_k, _i] += _p
ROLL_PROBABILITY = np.array(ref.ROLL_PROBABILITY, dtype=float)


def _better(a, b):
    """Where the pair b = (W, E) beats a: a higher chance, or a tie and more points."""
    qa, qb = np.floor(a[0] * GRAIN + 0.5), np.floor(b[0] * GRAIN + 0.5)
    return (qb > qa) | ((qb == qa) & (b[1] > a[1]))


def _best(pairs):
    """The elementwise best of a list of (W, E) pairs, taken in order: at each d the first pair
    no later one beats (the highest chance on the grain, then the most points)."""
    w, e = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
    q = np.floor(w * GRAIN + 0.5)
    top = q == q.max(axis=0)
    most = np.where(top, e, -np.inf).max(axis=0)
    pick = np.argmax(top & (e == most), axis=0)  # the first of the ties
    d = np.arange(w.shape[1])
    return w[pick, d], e[pick, d]


def _shift(pair, value, earned, D):
    """The (W, E) over d = 1..D after `earned` points now, from the next position's pair."""
    w, e = pair
    d = np.arange(1, D + 1)
    rest = d - earned  # points still needed afterwards
    inside = (rest >= 1) & (rest <= D)
    out_w = np.where(rest <= 0, 1.0, 0.0)
    out_e = np.full(D, earned + value)
    out_w[inside] = w[rest[inside] - 1]
    out_e[inside] = earned + e[rest[inside] - 1]
    return out_w, out_e


@lru_cache(maxsize=None)
def _pair(r, D, open_boxes, upper_total, kniffel_box, bonuses_paid, jokers_left):
    """(W, E) over d = 1..D of a normalised position at the start of a turn."""
    if not open_boxes:
        return np.zeros(D), np.zeros(D)
    options = [ref.rules_score_options(r, roll, open_boxes, kniffel_box, bonuses_paid)
               for roll in ref.ROLLS]
    after = {}

    def filling(option, jokers):
        key = (option, jokers)
        if key not in after:
            earned, position = ref._after_filling(r, *option, open_boxes, upper_total,
                                                  kniffel_box, bonuses_paid, jokers)
            after[key] = _shift(_pair(r, D, *position), ref._value(r, *position), earned, D)
        return after[key]

    uses = min(r.jokers_per_turn, jokers_left)
    best = {j: [_best([filling(o, j) for o in sorted(opts)]) for opts in options]
            for j in range(jokers_left - uses, jokers_left + 1)}
    roll_value = best[jokers_left - uses]
    for used in range(uses - 1, -1, -1):
        now = best[jokers_left - used]
        roll_value = [_best([now[i]] + [roll_value[n] for n in ref.ROLL_NEIGHBOURS[i]])
                      for i in range(len(ref.ROLLS))]
    stop = best[jokers_left]
    for _ in range(r.rolls_per_turn - 1):
        keep_w = KEEP_MATRIX @ np.array([v[0] for v in roll_value])  # each keep's outcomes
        keep_e = KEEP_MATRIX @ np.array([v[1] for v in roll_value])
        roll_value = [_best([stop[i]] + [(keep_w[k], keep_e[k]) for k in ref.ROLL_REROLL_KEEPS[i]])
                      for i in range(len(ref.ROLLS))]
    w = ROLL_PROBABILITY @ np.array([v[0] for v in roll_value])
    e = ROLL_PROBABILITY @ np.array([v[1] for v in roll_value])
    return w, e


def target_pair(rules, open_boxes, upper_total, D, kniffel_box="open", bonuses_paid=0,
                jokers_left=0):
    """(W, E) over d = 1..D from the start of a turn (arguments as reference.state_value_rules)."""
    r = ref._read_rules(rules)
    open_boxes = frozenset(open_boxes)
    if not r.has_extra_rule and r.kniffel_key not in open_boxes:
        kniffel_box = "0"
    return _pair(r, D, *ref._normalise(r, open_boxes, upper_total, str(kniffel_box),
                                       bonuses_paid, jokers_left))
