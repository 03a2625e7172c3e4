"""The steps of one turn's advice, written once for every objective: the value of entering a
roll in each box, the best box per roll, a Knobeln joker's one-die change, the final roll with
the jokers a turn may still play, and the keep lattice.

Plain numpy on one state: this path runs from a saved table and must not import numba.  The
arithmetic is the kernels' (the mean of the six keeps one die larger, the best sub-keep grown
one die at a time), so the answers are the same bits.

A step reads its objective through a *view*: a value is a tuple of arrays (one per component)
and the view says how to look up the state after a box, what marks a forbidden option, and which
of two values is better.  PointsView (here) is the expected score, compared by plain max;
target.ChanceView is the chance of a target with the expected score as tie-break, compared
lexicographically at GRAIN (the win objective is a target on a sub-game).
"""
from dataclasses import replace
from operator import itemgetter

import numpy as np

from .. import dice
from ..rules import scoring

_by_value = itemgetter("expected_final_score")


class PointsView:
    """The expected final score from an expected-score `values` array: one component."""

    fill = (-np.inf,)  # a filled or forbidden box

    def __init__(self, rules, values):
        self.rules, self.values = rules, values

    def after(self, filled, aux, upper, gains):
        """The value of scoring `gains` points into the turn start (filled, aux, upper)."""
        return (gains + self.values[filled, aux, upper],)

    @staticmethod
    def best(a, b):
        """The better of two values, element by element."""
        return (np.maximum(a[0], b[0]),)

    @staticmethod
    def allowed(value):
        """Where a value is an option that may be taken."""
        return value[0] != -np.inf

    def start(self, state):
        """The value of the turn start `state` itself (a tuple of floats)."""
        return (float(self.values[state.filled, state.aux, state.upper]),)

    @staticmethod
    def fields(base, value, keep=False):
        """An option's figures in its JSON, from its value (a tuple of floats)."""
        return {"expected_final_score": base + value[0]}

    @staticmethod
    def headline(base, value):
        """(probability, expected final score) of the advice from its best value."""
        return None, base + value[0]

    @staticmethod
    def rank(options):
        """Best first; stable: among equal values the options keep their order (rerolling the
        most dice first, stopping last: the order in which simulate and distribution choose)."""
        options.sort(key=_by_value, reverse=True)
        return options


def box_values(state, view, rolls=None):
    """(value, points, bonus) per box and roll in `rolls` (default all 252): entering the roll in
    the box now and the objective's value of what follows; the view's fill where the box is
    filled or the rules forbid it.  value is a tuple of arrays (boxes x rolls)."""
    rules = view.rules
    params = rules.params()
    rolls = np.arange(dice.N_ROLLS) if rolls is None else np.asarray(rolls)
    shape = (rules.n_boxes, len(rolls))
    value = tuple(np.full(shape, f) for f in view.fill)
    points, bonus = np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.int64)
    threshold = rules.upper_bonus_threshold
    n_after = state.n_open - 1
    fives = np.flatnonzero(dice.KNIFFEL_FACE[rolls]).tolist()
    for box in range(rules.n_boxes):
        if state.filled >> box & 1:
            continue
        after = state.filled | (1 << box)
        aux = scoring.next_aux(state.aux, box, 0, 0, n_after, params)
        pts = rules.plain_score[box, rolls].astype(np.int64)
        extra, upper = 0, state.upper
        if rules.box_face[box]:
            upper, extra = scoring.enter_upper(state.upper, pts, threshold, rules.upper_bonus)
        for part, got in zip(value, view.after(after, aux, upper, pts + extra)):
            part[box] = got
        points[box], bonus[box] = pts, extra
        for i in fives:  # five of a kind: the rules of scoring.py decide
            _five_of_a_kind(state, view, box, int(rolls[i]), value, points, bonus, i)
    return value, points, bonus


def _five_of_a_kind(state, view, box, roll, value, points, bonus, i):
    """Column i of box_values' arrays for a five of a kind `roll` entered in `box`."""
    rules = view.rules
    allowed, p, extra, _, upper, aux = scoring.enter_box(
        box, roll, dice.KNIFFEL_FACE[roll], state.filled, state.aux, state.upper, state.n_open,
        rules.params(), rules.plain_score, rules.joker_score, rules.box_face)
    if not allowed:
        for part, f in zip(value, view.fill):
            part[box, i] = f
        points[box, i], bonus[box, i] = 0, 0
        return
    p = int(p)
    for part, got in zip(value, view.after(state.filled | (1 << box), aux, upper, p + extra)):
        part[box, i] = got
    points[box, i], bonus[box, i] = p, extra


def best_boxes(view, value):
    """The best box of each roll (rows: boxes, in order)."""
    best = tuple(part[0].copy() for part in value)
    for b in range(1, value[0].shape[0]):
        best = view.best(best, tuple(part[b] for part in value))
    return best


def best_one_die_change(view, value):
    """For every roll, the best value among the rolls one die different (a Knobeln joker)."""
    four = dice.SIZE_SLICES[4]
    children = dice.ADD_DIE[four]
    added = tuple(part[children[:, 0]] for part in value)
    for face in range(1, dice.FACES):
        added = view.best(added, tuple(part[children[:, face]] for part in value))
    out = tuple(np.full(dice.N_ROLLS, f) for f in view.fill)
    for t in range(dice.DICE):
        present = t < dice.N_SMALLER[: dice.N_ROLLS]
        sub = np.where(present, dice.SMALLER[: dice.N_ROLLS, t] - four.start, 0)
        out = view.best(out, tuple(np.where(present, part[sub], f)
                                   for part, f in zip(added, view.fill)))
    return out


def final_values(state, view):
    """(stop, final): per roll, the best box now, and the best with the jokers a turn that threw
    every roll may still play (equal when there are no jokers)."""
    rules = view.rules
    jokers = state.aux // rules.aux_block
    levels = [best_boxes(view, box_values(replace(state, aux=state.aux - used * rules.aux_block),
                                          view)[0])
              for used in range(min(jokers, rules.jokers_per_turn) + 1)]
    # with_jokers[i]: best value at jokers - i left, using up to `passes` jokers this turn
    with_jokers = list(levels)
    for passes in range(1, len(levels)):
        with_jokers = [view.best(with_jokers[i], best_one_die_change(view, with_jokers[i + 1]))
                       for i in range(len(levels) - passes)] + with_jokers[len(levels) - passes:]
    return levels[0], with_jokers[0]


def keep_values(view, stop, final, rolls_left):
    """The value of every keep (462) with `rolls_left` rolls to come.  Holding all five dice
    ends the turn (`stop`); a roll thrown with every roll used is worth `final`."""
    keeps = tuple(np.empty(dice.N_KEEPS) for _ in view.fill)
    for part, got in zip(keeps, final):
        part[: dice.N_ROLLS] = got
    for stage in range(rolls_left):
        for size in range(dice.DICE - 1, -1, -1):  # the mean of the six keeps one die larger
            rows = dice.SIZE_SLICES[size]
            children = dice.ADD_DIE[rows]
            for part in keeps:
                total = part[children[:, 0]].copy()
                for face in range(1, dice.FACES):
                    total += part[children[:, face]]
                part[rows] = total / 6.0
        for part, got in zip(keeps, stop):
            part[: dice.N_ROLLS] = got
        if stage == rolls_left - 1:
            break
        for size in range(1, dice.DICE + 1):  # best sub-keep, growing one die at a time
            _best_sub_keeps(view, keeps, dice.SIZE_SLICES[size])
    return keeps


def _best_sub_keeps(view, keeps, rows):
    """Each keep of `rows` (one size) at its best, itself or a keep one die smaller."""
    subs = dice.REMOVE_DIE[rows]
    best = tuple(part[rows] for part in keeps)
    for t in range(dice.FACES):
        ok = subs[:, t] >= 0
        s = np.maximum(subs[:, t], 0)
        best = view.best(best, tuple(np.where(ok, part[s], f) for part, f in zip(keeps, view.fill)))
    for part, got in zip(keeps, best):
        part[rows] = got
