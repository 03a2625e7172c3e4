"""What the backward pass maximises.  An objective says what a state's values are and solves the
filled-box sets of one level from the level above; the level loop, the threads and the turn
widget's keep lattice (turn.py) are shared by every objective.

Two objectives are built on it: the expected final score (ExpectedScore, here: one value per
turn-start state; with a risk dial theta as its parameter, the certainty equivalent of an
exponential utility, CertaintyEquivalent) and the chance of reaching a target score
(target_solve.TargetObjective: a vector per state over the points still needed, where a box's
points shift that vector instead of being added, ties broken by the expected score).  The Dice Duel
(duel/solo/solve.py) and the evaluation of a rule list (strategy/policy_eval.py) run their level
loops through the same backward pass.
"""
from collections import namedtuple
from functools import lru_cache

import numpy as np

from .. import dice
from . import expected
from .states import aux_reachable, reachable_mask, upper_reachable


def sets_by_level(n_boxes):
    """Filled-box masks grouped by how many boxes are filled."""
    return [masks.copy() for masks in _sets_by_level(n_boxes)]


def _read_only(array):
    array.flags.writeable = False
    return array


@lru_cache(maxsize=None)
def _sets_by_level(n_boxes):
    masks = np.arange(1 << n_boxes, dtype=np.int64)
    bitwise_count = getattr(np, "bitwise_count", None)  # numpy 2.0 and newer
    counts = bitwise_count(masks) if bitwise_count is not None else \
        np.array([bin(m).count("1") for m in range(1 << n_boxes)])
    return tuple(_read_only(masks[counts == level]) for level in range(n_boxes + 1))


# A warm solve of a small game is a few hundred milliseconds, so the per-solve set-up (the
# reachable states, the kernel tables: Python loops, milliseconds) is kept per rule set.  Not
# marked read-only: numba would compile every kernel that reads them again for that type.
@lru_cache(maxsize=32)
def _reachable(rules):
    return reachable_mask(rules)


@lru_cache(maxsize=32)
def _context(rules):
    return Context(upper_reachable(rules), aux_reachable(rules), rules.kernel_arrays(),
                   dice.kernel_arrays())


class Objective:
    """One objective of the backward pass (see the module docstring)."""

    name = None

    def reachable(self, rules):
        """The reachable states of `rules` (by default the scorecard's turn starts), or None."""
        return reachable_mask(rules)

    def levels(self, rules, within=0):
        """[(level, items)] in the order they are solved, each level's items solved at once from
        the levels before it.  By default a scorecard's filled-box sets (those that contain
        `within`), the last open box first; the level is the number of open boxes."""
        n = rules.n_boxes
        by_level = _sets_by_level(n)
        return [(n - level, by_level[level][(by_level[level] & within) == within])
                for level in range(n - 1, -1, -1)]

    def values_array(self, rules, reachable):
        """A new value array for `rules`, holding the finished game's values."""
        raise NotImplementedError

    def context(self, rules):
        """The arrays the kernel reads besides the values (computed once per solve)."""
        raise NotImplementedError

    def solve_sets(self, rules, sets, values, context):
        """Solve the filled-box sets `sets` (one level, a contiguous int64 array) into `values`,
        reading the level above.  Runs on several threads at once on disjoint sets: the kernel
        must release the GIL and its values must not depend on how the sets are split."""
        raise NotImplementedError

    def start_level(self, rules, sets, values, context):
        """Before a level's sets are solved (all of them, `sets`): nothing by default."""

    def end_level(self, rules, sets, values, context):
        """After a level's sets are solved: nothing by default."""


Context = namedtuple("Context", "upper_reach aux_reach game moves")
Context.__doc__ = "What the expected-score kernels read besides the values."


class ExpectedScore(Objective):
    """values[filled, aux, upper]: the expected score still to come from a turn start."""

    name = "expected_score"

    def reachable(self, rules):
        return _reachable(rules)

    def values_array(self, rules, reachable):
        values = np.full(reachable.shape, np.nan)
        values[-1][reachable[-1]] = 0.0  # the game is over: nothing more to score
        return values

    def context(self, rules):
        return _context(rules)

    theta = 0.0

    def solve_sets(self, rules, sets, values, context):
        expected._solve_sets(sets, values, context.upper_reach, context.aux_reach, context.game,
                             context.moves, rules.rolls_per_turn, self.theta)


EXPECTED_SCORE = ExpectedScore()


class CertaintyEquivalent(ExpectedScore):
    """values[filled, aux, upper]: log E[exp(theta X)] / theta of the points X still to come
    under the play that is best for the exponential utility with risk dial `theta` (the
    expected-score kernels with theta as a parameter: expected.py)."""

    name = "certainty_equivalent"

    def __init__(self, theta):
        if not theta or not np.isfinite(theta):
            raise ValueError(f"theta must be a nonzero number (0 is the expected score), "
                             f"got {theta!r}")
        self.theta = float(theta)
