"""Win advice within a time budget: the exact sub-game (win.py) where its predicted cost fits
the budget, else the interval approximation (win_approx.py); the answer says which.

    advice = advise_win_budgeted(position, table, opponents, budget=1.0, target_table=...)
    advice["method"]      "exact" or "approximate"
    advice["interval"]    [low, high] of the position's chance (approximate only), and each
                          option's "interval" likewise
    advice["note"]        present when no target table was given: the upper end is then 1 and
                          the options are ranked by the expected score (`kniffel solve
                          --objective target` builds the table)

The exact answer also comes from the target table alone when every opponent has finished and a
tie cannot be shared: u is then one step, u(x) = [x >= T], and the mixture of win_approx.py is
the target table's exact chance of reaching T (its turn in hand played exactly against it).
"""
import time

import numpy as np

from ..engine.states import Position
from ..stats import opponents as opp
from . import cost
from .win import win_utility
from .target import advise_target
from .win_approx import interval_advice, mixture_lookup, points_lookup, utility_of_score

MAX_OPPONENTS = 7
MAX_BUDGET = 3600.0  # seconds; more is a mistake (an hour for one decision)
AFFORD_OPEN = 7  # our successors' distributions are computed afresh up to this many open boxes
NO_TABLE_NOTE = ("no target table for these rules: the upper end of each chance is not known "
                 "and the options are ranked by the expected score; `kniffel solve --objective "
                 "target` builds the table once")


def check_budget(budget):
    """The budget in seconds as a float; ValueError unless 0 < budget <= MAX_BUDGET."""
    try:
        seconds = float(budget)
    except (TypeError, ValueError):
        raise ValueError(f"the budget must be a number of seconds, got {budget!r}") from None
    if not 0 < seconds <= MAX_BUDGET:
        raise ValueError(f"the budget must be more than 0 and at most {MAX_BUDGET:g} seconds, "
                         f"got {budget!r}")
    return seconds


def opponent_distributions(table, opponents, store):
    """[(lowest final score, probs)] of each opponent ({"final": S} or {"card": ...}), fast."""
    from ..engine.target_table import score_bound
    if not opponents:
        raise ValueError("the win objective needs at least one opponent")
    if len(opponents) > MAX_OPPONENTS:
        raise ValueError(f"at most {MAX_OPPONENTS} opponents (8 players), got {len(opponents)}")
    out = []
    for opponent in opponents:
        if not isinstance(opponent, dict) or sum(k in opponent for k in ("final", "card", "state")) != 1:
            raise ValueError('each opponent is {"card": {...}} or {"final": S}')
        if "final" in opponent:
            final, most = opponent["final"], score_bound(table.rules)
            if isinstance(final, bool) or not isinstance(final, int) or not 0 <= final <= most:
                raise ValueError(f"an opponent's final score must be 0-{most}, got {final!r}")
            out.append((final, np.ones(1)))
            continue
        state = opp.state_of(table.rules, opponent)  # ValueError for an impossible card
        low, probs = opp.points_to_come(table, state, store)
        out.append((state.card_total + low, probs))
    return out


def predicted_exact_seconds(rules, position, opponents):
    """The exact sub-game's predicted seconds (cost.py; the opponents' distributions come from
    the store here, so only the sub-game counts)."""
    return cost.win_seconds(rules, position.card, [])


def advise_win_budgeted(position, table, opponents, ties="share", dice=None, rolls_left=None,
                        budget=1.0, target_table=None, store=None, force=None, low=True):
    """Every option for `position` ranked by the chance to win against `opponents` within
    `budget` seconds (module docstring); force="exact" | "approximate" overrides the choice
    (for measurements); low=False leaves the lower ends out where approximate (the ranking
    does not need them: a tournament plays faster; each "probability" is then the upper end)."""
    from .position import checked_query
    from .win import advise_win
    budget = check_budget(budget)
    if ties not in ("share", "lose"):
        raise ValueError(f"ties must be share or lose, got {ties!r}")
    if not isinstance(position, Position):
        position = Position(card=position)
    rules = table.rules
    checked_query(position, rules, dice, rolls_left)  # ValueError before any work
    store = store if store is not None else opp.get_store(table, build_missing=False)
    distributions = opponent_distributions(table, opponents, store)
    M, u = win_utility(distributions, ties)
    single_step = ties == "lose" and all(len(p) == 1 for _, p in distributions)
    method = force or ("exact" if single_step and target_table is not None else
                       "exact" if predicted_exact_seconds(rules, position, opponents) <= budget
                       else "approximate")
    if method == "exact" and not (single_step and target_table is not None and force is None):
        advice = advise_win(position, table, opponents, ties, dice=dice, rolls_left=rolls_left,
                            distributions=distributions)
        return dict(advice, method="exact")
    U = utility_of_score(M, u)
    if not low and target_table is not None:
        advice = advise_target(position, target_table, 0, dice, rolls_left, lookup=mixture_lookup(U))
        return dict(advice, method=method, objective={"win": {"opponents": opponents, "ties": ties}})
    low = points_lookup(U, table.values, _successor_distributions(table, store, time.perf_counter(),
                                                                  budget))
    advice = interval_advice(position, target_table, U, low, dice, rolls_left, table)
    advice["objective"] = {"win": {"opponents": opponents, "ties": ties}}
    if method == "exact":  # one step: the mixture is the target table's exact chance
        advice["method"] = "exact"
        for option in [advice] + advice["options"]:
            option["probability"] = option.pop("interval")[1]
        return advice
    advice["method"] = "approximate"
    if target_table is None:
        advice["note"] = NO_TABLE_NOTE
    return advice


def _successor_distributions(table, store, started, budget):
    """distribution_of(filled, aux, upper) for points_lookup: the store, else computed afresh
    while the budget lasts and the state has at most AFFORD_OPEN open boxes, else None."""
    n_boxes, values = table.rules.n_boxes, table.values
    n_aux, n_upper = values.shape[1], values.shape[2]
    seen = {}

    def distribution_of(filled, aux, upper):
        key = (filled, aux, upper)
        if key not in seen:
            n_open = n_boxes - bin(filled).count("1")
            flat = (filled * n_aux + aux) * n_upper + upper
            found = store.find(flat) if store is not None else None
            if found is None and (store is not None and flat in store.recent or n_open <= AFFORD_OPEN
                                  and time.perf_counter() - started < 0.5 * budget):
                from ..engine.states import State
                found = opp.points_to_come(table, State(filled, aux, upper, upper, 0, n_open), store)
            seen[key] = found
        return seen[key]

    return distribution_of
