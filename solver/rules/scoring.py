"""Scoring of a five-of-a-kind and the bookkeeping state it drives, in plain Python.

These functions are the one place where the extra-Kniffel rules (bonus, jokers, the bonus cap,
extra_kniffel_must_fit) and the upper bonus live, and entering a box is one function (enter_box).
The advisor calls them as they are (enter_upper on arrays too); engine/final_rolls.py compiles
the same functions with numba, so the solver and the advisor cannot disagree about a rule.

The per-state bookkeeping beyond the filled boxes and the upper total is one small integer, `aux`:
    aux = jokers_left * block + flag * n_deficit + deficit,   block = n_flag * n_deficit
- jokers_left: Knobeln jokers (set one die to any face after the last roll) still in hand;
- flag: 1 while the Kniffel box holds 50 (only tracked when a rule depends on it);
- deficit: for a capped extra-Kniffel bonus, how many of the still open boxes could *not* be paid
  a bonus any more (open boxes - bonuses still allowed, at least 0).  Keeping the deficit rather
  than the number of bonuses paid merges every state whose future is the same.
"""

from collections import namedtuple

import numpy as np

RuleArrays = namedtuple("RuleArrays", "params plain_score joker_score box_face scoring_rolls "
                                      "n_scoring_rolls")
RuleArrays.__doc__ = """The rules as the kernels take them (Rules.kernel_arrays()): params (laid out
by the P_ indices below), plain_score[box, roll] and joker_score[box, face], box_face[box] (0: a
lower box), scoring_rolls[box, :n_scoring_rolls[box]] (the rolls that score points in box)."""

UPPER_MASK = 63  # filled & UPPER_MASK: the six upper boxes' bits, the first index of upper_reach

# Indices into the integer `params` array built by Rules.kernel_arrays().
P_N_BOXES = 0
P_KNIFFEL_BOX = 1
P_JOKER = 2
P_JOKER_NEEDS_FIFTY = 3
P_BONUS = 4
P_BONUS_NEEDS_FIFTY = 5
P_CAP_COUNT = 6
P_N_FLAG = 7
P_N_DEFICIT = 8
P_THRESHOLD = 9
P_UPPER_BONUS = 10
P_AUX_BLOCK = 11  # n_flag * n_deficit: aux values per number of jokers left
P_JOKERS = 12  # Knobeln jokers per game
P_JOKERS_PER_TURN = 13
P_MUST_FIT = 14  # extra_kniffel_must_fit: a further Kniffel goes into a fitting box if one is open
N_PARAMS = 15

JOKER_NONE = 0
JOKER_MAX_ANY = 1  # kniffel: any open box at its maximum
JOKER_FREE = 2  # kitkniff: any open box, lower boxes at joker values, matching upper box 5f
JOKER_FORCED = 3  # yahtzee: matching upper box, else a lower box, else an upper box for 0
JOKER_FREE_AFTER_UPPER = 4  # yahtzee-free: joker only once the matching upper box is filled
JOKER_MUST_MATCH = 5  # championship: plain table; the bonus only in a box the Kniffel satisfies
JOKER_MODES = ("none", "max-any", "free", "forced", "free-after-upper", "must-match")


def fives_score_plain(params):
    """True when a five of a kind always scores by the plain table in any box (no extra-Kniffel
    bonus, no joker, no fitting-box rule), so the solver needs no special pass for it."""
    return params[P_BONUS] == 0 and params[P_JOKER] == JOKER_NONE and params[P_MUST_FIT] == 0


def next_aux(aux, box, points, paid, n_open_after, params):
    """The aux index after `box` is filled with `points`; `paid` is 1 if a bonus was paid.
    Jokers left are carried over unchanged (using one is a move of its own)."""
    jokers = aux // params[P_AUX_BLOCK]
    flag = (aux % params[P_AUX_BLOCK]) // params[P_N_DEFICIT]
    deficit = aux % params[P_N_DEFICIT]
    if box == params[P_KNIFFEL_BOX]:
        flag = 1 if (points == 50 and params[P_N_FLAG] == 2) else 0
        deficit = max(0, n_open_after - params[P_CAP_COUNT])
    else:
        deficit = max(0, deficit + paid - 1)
    if flag == 0 and params[P_BONUS_NEEDS_FIFTY] == 1:
        deficit = 0  # no bonus can ever be paid again: the count is irrelevant
    return jokers * params[P_AUX_BLOCK] + flag * params[P_N_DEFICIT] + deficit


def kniffel_roll(box, face, roll, filled, aux, n_open, params, plain_score, joker_score, box_face):
    """How a five-of-a-kind of `face` (roll index `roll`) may go into the open `box`.

    Returns (allowed, points, paid): whether the rules let it go there, the box points, and 1 if
    an extra-Kniffel bonus is paid for it.  `filled` is the bit mask of filled boxes.
    """
    kniffel_box = params[P_KNIFFEL_BOX]
    if kniffel_box < 0 or (filled >> kniffel_box) & 1 == 0:
        return True, plain_score[box, roll], 0  # a first Kniffel scores by the plain table
    flag = (aux % params[P_AUX_BLOCK]) // params[P_N_DEFICIT]
    mode = params[P_JOKER]
    joker = mode != JOKER_NONE and mode != JOKER_MUST_MATCH
    if joker and params[P_JOKER_NEEDS_FIFTY] == 1 and flag == 0:
        joker = False
    matching_upper = -1
    lower_open = False
    for b in range(params[P_N_BOXES]):
        if box_face[b] == face:
            matching_upper = b
        elif box_face[b] == 0 and (filled >> b) & 1 == 0:
            lower_open = True
    if joker and mode == JOKER_FREE_AFTER_UPPER and (filled >> matching_upper) & 1 == 0:
        joker = False
    forced = joker and mode == JOKER_FORCED
    upper_open = (filled >> matching_upper) & 1 == 0
    # The forced joker: the matching upper box if open; else a lower box if one is open; else
    # an upper box (for 0).
    allowed = True
    if forced:
        allowed = box == matching_upper if upper_open else (box_face[box] == 0) == lower_open
    points = joker_score[box, face] if joker else plain_score[box, roll]
    if allowed and params[P_MUST_FIT] == 1 and points == 0:
        # A fitting box is one the other rules allow and where the Kniffel scores points; while
        # one is open, no other box may take it.
        for b in range(params[P_N_BOXES]):
            if (filled >> b) & 1 == 0:
                b_allowed = True
                if forced:
                    b_allowed = (b == matching_upper if upper_open
                                 else (box_face[b] == 0) == lower_open)
                b_points = joker_score[b, face] if joker else plain_score[b, roll]
                if b_allowed and b_points > 0:
                    allowed = False
    paid = 0
    if params[P_BONUS] > 0 and (flag == 1 or params[P_BONUS_NEEDS_FIFTY] == 0):
        if aux % params[P_N_DEFICIT] < n_open:
            if mode != JOKER_MUST_MATCH or plain_score[box, roll] > 0:
                paid = 1
    return allowed, points, paid


def upper_bonus_reached(upper_total, threshold):
    """Whether an upper total (or the capped one, whose cap is the threshold) earns the upper
    bonus: the one place the rule is decided.  Numbers or arrays alike; the kernels compile it
    (engine/final_rolls.py registers it), the game, the advice and the statistics call it."""
    return upper_total >= threshold


def completes_upper_bonus(upper, points, threshold):
    """Whether `points` entered in an upper box at capped upper total `upper` complete the upper
    bonus: reached after, not before (numbers or arrays alike)."""
    return upper_bonus_reached(upper + points, threshold) > upper_bonus_reached(upper, threshold)


def upper_bonus_needs(upper_total, most_to_come, threshold):
    """The points the upper bonus still needs at `upper_total`, the open upper boxes able to add
    at most `most_to_come`: 0 once it is earned, None when it is out of reach."""
    if upper_bonus_reached(upper_total, threshold):
        return 0
    if not upper_bonus_reached(upper_total + most_to_come, threshold):
        return None
    return threshold - upper_total


def capped_upper(upper_total, threshold):
    """The upper total as the states keep it: capped at the threshold, beyond which the bonus
    is earned and nothing more depends on it (numbers or arrays alike)."""
    return np.minimum(threshold, upper_total)


def enter_upper(upper, points, threshold, upper_bonus):
    """(the capped upper total after, the upper bonus earned) when `points` go into an upper box
    at capped upper total `upper` (numbers or arrays alike).  Kernels pass the rules' threshold
    and bonus as numbers: read from params inside a loop, they would be loaded again at every
    step (numba cannot tell that the loop's stores leave params alone)."""
    return (capped_upper(upper + points, threshold),
            completes_upper_bonus(upper, points, threshold) * upper_bonus)


def enter_box(box, roll, face, filled, aux, upper, n_open, params, plain_score, joker_score,
              box_face):
    """Final roll `roll` entered in the open `box` (face: the roll's five-of-a-kind face, else 0):
    (allowed, points, bonus, paid, the capped upper total after, the aux after).  bonus: the
    upper bonus it completes plus the extra-Kniffel bonus; paid: 1 if that extra bonus is paid."""
    paid = 0
    if face > 0:
        allowed, points, paid = kniffel_roll(box, face, roll, filled, aux, n_open, params,
                                             plain_score, joker_score, box_face)
        if not allowed:
            return False, 0, 0, 0, upper, aux
    else:
        points = plain_score[box, roll]
    bonus = paid * params[P_BONUS]
    upper_after = upper
    if box_face[box] > 0:
        upper_after, upper_bonus = enter_upper(upper, points, params[P_THRESHOLD],
                                               params[P_UPPER_BONUS])
        bonus += upper_bonus
    return True, points, bonus, paid, upper_after, next_aux(aux, box, points, paid, n_open - 1,
                                                            params)
