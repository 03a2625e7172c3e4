"""Playing to win when the exact sub-game (win.py) would take too long: every option's chance to
win as an interval [low, high] and an estimate inside it, in well under a second.

u(x) is the chance that a final score x wins against the opponents (win.win_utility), a
nondecreasing step function: u(x) = u(0) + sum_T q(T) [x >= T] with q(T) = u(T) - u(T - 1) >= 0.
Then for a turn start s with c points on the card:
  high(s) = u(0) + sum_T q(T) W*(s, T - c)   W* the target table: for each T the best chance of
            reaching it, so no strategy can beat this mixture (it would have to play for every
            T at once).  The turn in hand is played exactly against it (MixtureView: candidate
            (a) of issue 24, the turn exact, the next turn starts valued by the mixture), which
            keeps it a bound, tighter than mixing each option's own best chances;
  low(s)  = sum_x P(s)(x) u(c + x)          P(s) the distribution of the points still to come
            when playing for points (stats/opponents.py): the exact chance of that strategy.
            Within the turn in hand the keeps and the box follow the expected score too
            (LowView), so an option's low is the exact chance to win when taking it and playing
            for points afterwards.
The exact chance of every option lies in [low, high].  The estimate is low + alpha (high - low),
alpha measured by benchmarks/win_loss.py against the exact chances (solver/data/win_estimate.json;
0.5 until it was measured).  The advice ranks its options by that estimate, the chance it shows
(ties by high); without the lower ends (coach(low=False), the tournament) they are ranked by high.
"""
import json
from pathlib import Path

import numpy as np

from ...engine.grain import quantise
from ..chance_view import ChanceView
from ..steps import PointsView

ESTIMATE = Path(__file__).resolve().parent.parent / "data" / "win_estimate.json"


_LAST = {}  # the last MixtureView made: the decisions of one turn share it (and what it looked up)


def mixture_view(table, U, card_total):
    """MixtureView(table, U, card_total), the same one for the same arguments as last time."""
    key = (id(table), U.tobytes(), card_total)
    if _LAST.get("key") != key:
        _LAST.clear()
        _LAST.update(key=key, view=MixtureView(table, U, card_total))
    return _LAST["view"]


def utility_of_score(M, u):
    """U[x] = the chance that a final score x wins, x = 0 .. M (U[M] = 1), from win_utility's
    (M, u) (u[d - 1] for x = M - d)."""
    U = np.ones(M + 1)
    n = min(len(u), M)
    U[M - n:M] = u[:n][::-1]
    U[:M - n] = 0.0  # below every opponent's lowest score
    return U


class MixtureView(ChanceView):
    """(high, E): u(0) + sum_T q(T) W*(s', T - c') from the target table `table`, E the expected
    score after (the target table's expected-score values); compared as ChanceView's pairs.
    Its answers are remembered: the decisions of one turn ask for the same turn starts."""

    def __init__(self, table, U, card_total):
        super().__init__(table, None)
        q = np.diff(U)
        T = np.flatnonzero(q > 0) + 1  # every step: dropping one would lower the bound
        self.u0, self.q, self.need_of = float(U[0]), q[T - 1], T - card_total
        self.seen = {}

    def after(self, filled, aux, upper, gains):
        upper, gains = np.broadcast_arrays(np.asarray(upper), np.asarray(gains, dtype=np.int64))
        key = (filled, aux, upper.tobytes(), gains.tobytes(), upper.shape)
        if key not in self.seen:
            self.seen[key] = self._after(filled, aux, upper, gains)
        return self.seen[key]

    def _after(self, filled, aux, upper, gains):
        t = self.table
        ups, gs = upper.reshape(-1), gains.reshape(-1)
        need = self.need_of[None, :] - gs[:, None]  # (states, T)
        g = t.row_of[filled, aux, ups]
        known = g >= 0
        g = np.where(known, g, 0)
        lo = np.where(known, t.base[g], 0)[:, None]
        span = np.where(known, t.span[g], 0)[:, None]
        w = (need <= lo).astype(np.float64)  # below a state's band the target is reached
        inside = (need > lo) & (need <= lo + span)
        w[inside] = t.w[(t.offset[g][:, None] + need - lo - 1)[inside]]
        high = np.minimum(1.0, self.u0 + w @ self.q)
        e = gs + np.asarray(t.expected[filled, aux, ups], dtype=np.float64)
        return high.reshape(upper.shape), e.reshape(upper.shape)


class LowView:
    """(E, low): the expected points after and the exact chance to win when playing for points
    from the turn start after; compared by E first (the expected-score strategy), low breaking
    ties.  distribution_of(filled, aux, upper) -> (lowest, probs) of the points still to come,
    or None where it could not be afforded (then low is NaN: not known; 0 bounds it)."""

    fill = (-np.inf, -1.0)

    def __init__(self, rules, values, U, card_total, distribution_of):
        self.rules, self.values, self.U, self.card_total = rules, values, U, card_total
        self.distribution_of = distribution_of

    def after(self, filled, aux, upper, gains):
        upper, gains = np.broadcast_arrays(np.asarray(upper), np.asarray(gains, dtype=np.int64))
        e = gains + np.asarray(self.values[filled, aux, upper], dtype=np.float64)
        low = np.full(upper.shape, np.nan)
        for u in np.unique(upper).tolist():
            found = self.distribution_of(filled, aux, u)
            if found is None:
                continue
            lowest, probs = found
            at = upper == u
            scores = self.card_total + gains[at][:, None] + lowest + np.arange(len(probs))[None, :]
            low[at] = self.U[np.minimum(len(self.U) - 1, scores)] @ probs
        return e, low

    @staticmethod
    def best(a, b):
        take = (b[0] > a[0]) | ((b[0] == a[0]) & (b[1] > a[1]))  # a NaN low breaks no tie
        return np.where(take, b[0], a[0]), np.where(take, b[1], a[1])

    @staticmethod
    def allowed(value):
        return value[0] != -np.inf

    def start(self, state):
        e, low = self.after(state.filled, state.aux, state.upper, 0)
        return float(e), float(low)

    @staticmethod
    def fields(base, value, keep=False):
        return {"expected_final_score": base + value[0], "probability": value[1]}

    @staticmethod
    def headline(base, value):
        return value[1], base + value[0]

    rank = staticmethod(PointsView.rank)  # by the expected score, as the strategy it follows


def alpha():
    """Where the estimate sits in [low, high] (module docstring)."""
    try:
        return float(json.loads(ESTIMATE.read_text(encoding="utf-8"))["alpha"])
    except (OSError, ValueError, KeyError):
        return 0.5


def option_key(option):
    """What names an option across two advices of the same position."""
    joker = option.get("joker")
    return (option["action"], tuple(option.get("keep", ())), option.get("box"), repr(joker))


def with_interval(low, high=None):
    """The Advice `low` (LowView's) with every option's "interval" [low, high] and "probability"
    the estimate, ranked by the estimate (ties: by `high`, MixtureView's); without `high` (no
    target table) ranked for points, high 1 and the estimate the low end.  A low not known (NaN:
    its distributions did not fit the budget) is 0 where `high` bounds the chance; without
    `high` nothing is known of it: that option's "probability" and low end are None (and the
    position's where no option's is known)."""
    a = alpha() if high is not None else 0.0
    lows = {option_key(o): o for o in low.options}
    ranked = high.options if high is not None else low.options
    options = []
    for option in ranked:
        mine = lows[option_key(option)]
        lo = mine["probability"]
        hi = option["probability"] if high is not None else 1.0
        if lo != lo:  # NaN: not known
            if high is None:
                options.append(dict(option, probability=None, interval=[None, hi]))
                continue
            lo = 0.0
        lo = min(lo, hi)
        options.append(dict(option, probability=lo + a * (hi - lo), interval=[lo, hi],
                            expected_final_score=mine["expected_final_score"]))
    if high is not None:
        # best first by the estimate, the chance the advice shows (the list reads in the order of
        # its figures), an estimate tie by the upper end, then the expected score; a stable sort
        options.sort(key=lambda o: (quantise(o["probability"]), quantise(o["interval"][1]),
                                    o["expected_final_score"]), reverse=True)
    position_high = high.probability if high is not None else 1.0
    known = [o["interval"][0] for o in options if o["interval"][0] is not None]
    start = (low.probability if low.probability == low.probability
             else (0.0 if high is not None else None))
    position_low = max(known) if known else None if options else (
        None if start is None else min(start, position_high))
    if options:
        best = options[0]["probability"]
    else:
        best = None if position_low is None else position_low + a * (position_high - position_low)
    expected = options[0]["expected_final_score"] if options else low.expected_final_score
    low.options, low.probability, low.expected_final_score = options, best, expected
    low.interval = [position_low, position_high]
    return low


def method_words(advice, words):
    """The line on an approximate `advice`'s chance in `words`' language: the interval it lies
    in and what its ends mean, or that it is not known within the budget."""
    low, high = advice.interval
    if low is None:
        return words("advise.method_unknown")
    return words("advise.method_approx", low=words.percent(low), high=words.percent(high))
