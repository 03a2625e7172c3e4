"""Playing to win when the exact sub-game (win.py) would take too long: every option's chance to
win as an interval [low, high] and an estimate inside it, in well under a second.

u(x) is the chance that a final score x wins against the opponents (win.win_utility), a
nondecreasing step function: u(x) = u(0) + sum_T q(T) [x >= T] with q(T) = u(T) - u(T - 1) >= 0.
Then for a turn start s with c points on the card:
  high(s) = u(0) + sum_T q(T) W*(s, T - c)   W* the target table: for each T the best chance of
            reaching it, so no strategy can beat this mixture (it would have to play for every
            T at once); the turn in hand is played exactly against it (candidate (a) of the
            issue: within the current turn exact, the next turn starts valued by the mixture),
            which keeps it a bound and makes it tighter than the mixture of the options;
  low(s)  = sum_x P(s)(x) u(c + x)          P(s) the distribution of the points still to come
            when playing for points (stats/opponents.py): the exact chance of that strategy,
            which any choice can at least reach.  Within the turn in hand the keeps and the box
            follow the expected score too, so an option's low is the exact chance to win when
            taking it and playing for points afterwards.
The exact chance of every option lies in [low, high].  The options are ranked by high (the
mixture policy: what candidate (a) plays), and the estimate is low + alpha (high - low), alpha
measured by benchmarks/win_loss.py against the exact chances (solver/data/win_estimate.json;
0.5 when none was measured).
"""
import json
from pathlib import Path

import numpy as np

from .target import _lookup, advise_target

ESTIMATE = Path(__file__).resolve().parent.parent / "data" / "win_estimate.json"


def utility_of_score(M, u):
    """U[x] = the chance that a final score x wins, x = 0 .. M (U[M] = 1), from win_utility's
    (M, u) (u[d - 1] for x = M - d)."""
    U = np.ones(M + 1)
    n = min(len(u), M)
    U[M - n:M] = u[:n][::-1]
    U[:M - n] = 0.0  # below every opponent's lowest score
    return U


def _mixture(U):
    """(u(0), T, q): the steps of U (every one: dropping any would lower the bound)."""
    q = np.diff(U)
    T = np.flatnonzero(q > 0) + 1
    return float(U[0]), T, q[T - 1]


def mixture_lookup(U):
    """box_pairs' lookup for high: (u(0) + sum_T q(T) W*(s', T - c'), V(s')) with need = -c'.
    The same U gives the same lookup, which remembers its answers (the decisions of one turn
    ask for the same next turn starts)."""
    key = U.tobytes()
    if _MIXTURES.get("key") != key:
        _MIXTURES.clear()
        _MIXTURES.update(key=key, lookup=_mixture_lookup(U))
    return _MIXTURES["lookup"]


_MIXTURES = {}


def _mixture_lookup(U):
    base, T, q = _mixture(U)
    seen = {}

    def lookup(table, filled, aux, upper, need):
        need = np.asarray(need, dtype=np.int64)
        key = (id(table), filled, aux, upper, need.tobytes())
        if key not in seen:
            w, _ = _lookup(table, filled, aux, upper, need[:, None] + T[None, :])
            v = float(table.expected[filled, aux, upper])
            seen[key] = (np.minimum(1.0, base + w @ q), np.full(need.shape, v))
        return seen[key]

    return lookup


def points_lookup(U, values, distribution_of):
    """box_pairs' lookup for low: (sum_x P(s')(x) U[c' + x], V(s')) with need = -c';
    distribution_of(filled, aux, upper) -> (low, probs) of the points to come, or None where it
    could not be afforded (then 0, a bound below)."""
    top = len(U) - 1

    def lookup(table, filled, aux, upper, need):
        need = np.asarray(need, dtype=np.int64)
        v = float(values[filled, aux, upper])
        found = distribution_of(filled, aux, upper)
        if found is None:
            return np.zeros(need.shape), np.full(need.shape, v)
        low, probs = found
        scores = np.minimum(top, -need[:, None] + low + np.arange(len(probs))[None, :])
        return U[scores] @ probs, np.full(need.shape, v)

    return lookup


def alpha():
    """Where the estimate sits in [low, high] (module docstring)."""
    try:
        return float(json.loads(ESTIMATE.read_text(encoding="utf-8"))["alpha"])
    except (OSError, ValueError, KeyError):
        return 0.5


def _key(option):
    if option["action"] == "keep":
        return ("keep", tuple(option["keep"]))
    joker = option.get("joker")
    return ("score", option["box"], repr(joker))


def interval_advice(position, target_table, U, low_lookup, dice=None, rolls_left=None,
                    table=None):
    """The advice dict with every option's "interval" [low, high] and "probability" the
    estimate, ranked by high (candidate (a)); without a target table (None) ranked by the
    expected score, high 1 and the estimate the low end.  table: the expected-score table."""
    low = advise_target(position, table, 0, dice, rolls_left, lookup=low_lookup, swap=True)
    if target_table is None:
        high = {_key(o): 1.0 for o in low["options"]}
        ranked, a = sorted(low["options"], key=lambda o: -o["expected_final_score"]), 0.0
        position_high = 1.0
    else:
        mixed = advise_target(position, target_table, 0, dice, rolls_left,
                              lookup=mixture_lookup(U))
        high = {_key(o): o["probability"] for o in mixed["options"]}
        ranked, a = mixed["options"], alpha()
        position_high = mixed["probability"]
    lows = {_key(o): o["probability"] for o in low["options"]}
    evs = {_key(o): o["expected_final_score"] for o in low["options"]}
    options = []
    for option in ranked:
        k = _key(option)
        lo, hi = min(lows[k], high[k]), high[k]
        options.append(dict(option, probability=lo + a * (hi - lo), interval=[lo, hi],
                            expected_final_score=evs[k]))
    if not options:  # a turn start
        lo = min(low["probability"], position_high)
        return dict(low, probability=lo + a * (position_high - lo), interval=[lo, position_high],
                    options=[])
    position_low = max(o["interval"][0] for o in options)
    best = options[0]
    return dict(low, probability=best["probability"], interval=[position_low, position_high],
                expected_final_score=best["expected_final_score"], options=options)
