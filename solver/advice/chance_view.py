"""The target objective as the advice steps (steps.py) read it: every option's chance of a
final score >= T with optimal play for T afterwards, and its expected final score under that
same play.  Compared by the chance at the grain of engine/target/columns.py, ties by the expected
score.

Plain numpy on one (state, points still needed) column of a saved target table.
"""
import numpy as np

from ..engine.grain import quantise

NO_OPTION = (-1.0, -1e300)  # a filled or forbidden box: below every (chance, expected) pair


def better(aw, ae, bw, be):
    """Where (bw, be) beats (aw, ae): a higher chance at the grain, or a tie and more points."""
    qa, qb = quantise(aw), quantise(bw)
    return (qb > qa) | ((qb == qa) & (be > ae))


class ChanceView:
    """(W, E) from a TargetTable with `need` points still needed at the turn start: two
    components, compared lexicographically at the grain (quantise)."""

    fill = NO_OPTION

    def __init__(self, table, need):
        self.rules, self.table, self.need = table.rules, table, need

    def after(self, filled, aux, upper, gains):
        """(W, E) of scoring `gains` points into the turn starts (filled, aux, upper); upper and
        gains are ints or arrays of one shape.  Reads the table itself: a state's W and E are
        stored for the points still needed inside its band (base, base + span]; below it the
        target is reached (W = 1), above it out of reach (W = 0), E the expected-score value."""
        t = self.table
        upper, gains = np.broadcast_arrays(np.asarray(upper), np.asarray(gains, dtype=np.int64))
        need = self.need - gains
        g = t.row_of[filled, aux, upper]
        known = g >= 0
        g = np.where(known, g, 0)
        lo = np.where(known, t.base[g], 0)
        inside = (need > lo) & (need <= lo + np.where(known, t.span[g], 0))
        w = np.where(need <= lo, 1.0, 0.0)
        e = np.array(t.expected[filled, aux, upper], dtype=np.float64)
        k = t.offset[g[inside]] + need[inside] - lo[inside] - 1
        w[inside] = t.w[k]
        e[inside] = t.e[k]
        return w, gains + e

    @staticmethod
    def best(a, b):
        take = better(a[0], a[1], b[0], b[1])
        return np.where(take, b[0], a[0]), np.where(take, b[1], a[1])

    @staticmethod
    def allowed(value):
        return value[0] >= 0

    def start(self, state):
        """(W, E) of the turn start `state` itself."""
        w, e = self.after(state.filled, state.aux, state.upper, 0)
        return float(w), float(e)

    @staticmethod
    def fields(base, value, keep=False):
        """An option's figures in its JSON (keeps name the chance first, as they always did)."""
        if keep:
            return {"probability": value[0], "expected_final_score": base + value[1]}
        return {"expected_final_score": base + value[1], "probability": value[0]}

    @staticmethod
    def headline(base, value):
        return value[0], base + value[1]

    @staticmethod
    def rank(options):
        return rank_by_chance(options)


def rank_by_chance(options):
    """Options best first: by the chance at the grain, then by the expected final score."""
    return sorted(options, key=lambda o: (quantise(o["probability"]), o["expected_final_score"]),
                  reverse=True)
