"""The target objective as the advice steps (steps.py) read it: every option's chance of a
final score >= T with optimal play for T afterwards, and its expected final score under that
same play.  Compared by the chance at the grain of engine/target.py, ties by the expected score.

Plain numpy on one (state, points still needed) column of a saved target table.
"""
import numpy as np

GRAIN = 2.0 ** 30  # engine/target.py: chances equal at this grain are a tie
NO_CHANCE = (-1.0, -1e300)  # a filled or forbidden box: below every (chance, expected) pair


def better(aw, ae, bw, be):
    """Where (bw, be) beats (aw, ae): a higher chance at the grain, or a tie and more points."""
    qa, qb = np.floor(aw * GRAIN + 0.5), np.floor(bw * GRAIN + 0.5)
    return (qb > qa) | ((qb == qa) & (be > ae))


class ChanceView:
    """(W, E) from a TargetTable with `need` points still needed at the turn start: two
    components, compared lexicographically at GRAIN."""

    fill = NO_CHANCE

    def __init__(self, table, need):
        self.rules, self.table, self.need = table.rules, table, need

    def after(self, filled, aux, upper, gains):
        """(W, E) of scoring `gains` points into the turn start (filled, aux, upper); upper and
        gains are ints or arrays of the same shape.  Reads the table itself (lookup's band)."""
        if np.ndim(upper) == 0 and np.ndim(gains) == 0:
            w, e = lookup(self.table, filled, aux, upper, [self.need - gains])
            return w[0], gains + e[0]
        gains = np.broadcast_to(gains, np.shape(upper) or np.shape(gains))
        upper = np.broadcast_to(upper, gains.shape)
        w, e = np.empty(gains.shape), np.empty(gains.shape)
        for u in sorted(set(upper.tolist())):  # few: one lookup per next state
            at = upper == u
            w[at], e[at] = lookup(self.table, filled, aux, u, self.need - gains[at])
            e[at] = gains[at] + e[at]
        return w, e

    @staticmethod
    def best(a, b):
        take = better(a[0], a[1], b[0], b[1])
        return np.where(take, b[0], a[0]), np.where(take, b[1], a[1])

    @staticmethod
    def allowed(value):
        return value[0] >= 0

    def start(self, state):
        """(W, E) of the turn start `state` itself."""
        w, e = lookup(self.table, state.filled, state.aux, state.upper, [self.need])
        return float(w[0]), float(e[0])

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
        return rank(options)


def lookup(table, filled, aux, upper, need):
    """(W, E) arrays of the turn start (filled, aux, upper) for an int array of points needed."""
    need = np.asarray(need, dtype=np.int64)
    v = float(table.expected[filled, aux, upper])
    g = table.row_of[filled, aux, upper]
    lo = int(table.base[g]) if g >= 0 else 0  # below a state's band: reached (target_table.py)
    n = int(table.span[g]) if g >= 0 else 0
    w = np.where(need <= lo, 1.0, 0.0)
    e = np.full(need.shape, v)
    inside = (need > lo) & (need <= lo + n)
    if inside.any():
        k = table.offset[g] + need[inside] - lo - 1
        w[inside] = table.w[k]
        e[inside] = table.e[k]
    return w, e


def rank(options):
    """Options best first: by the chance at the grain, then by the expected final score."""
    return sorted(options, key=lambda o: (np.floor(o["probability"] * GRAIN + 0.5),
                                          o["expected_final_score"]), reverse=True)
