"""Win advice within a budget of work (advice/cost.py: counted, never timed, so the same question
gets the same answer on any machine and at any load): the exact sub-game (sub_game.py) where
its work fits the budget, else the interval approximation (approximation.py); the Advice says
which.

    advice = win_advice(position, table, goal, dice, rolls_left, budget=1.0, target_table=...)
    advice.method     "exact" or "approximate"
    advice.interval   [low, high] of the position's chance (approximate only), and each
                      option's "interval" likewise
    advice.note       without a target table: the upper end is then 1 and the options are
                      ranked by the expected score (`kniffel solve --objective target` builds it)

The exact answer also comes from the target table alone when every opponent has finished and a
tie cannot be shared: u is then one step, u(x) = [x >= T], and MixtureView is the target
table's exact chance of reaching T with the turn in hand played exactly against it.
"""
import numpy as np

from ...engine.states import State
from ...stats import opponents as opp
from .. import cost
from ..limits import MAX_OPPONENTS, Unanswerable, check_budget
from .sub_game import win_utility

# below the store (opponents.MIN_OPEN): our next turn starts afresh, in milliseconds
AFFORD_OPEN = 4
NO_TABLE_NOTE = ("no target table for these rules: the upper end of each chance is not known "
                 "and the options are ranked by the expected score; `kniffel solve --objective "
                 "target` builds the table once")


def opponent_distributions(table, opponents, store):
    """[(lowest final score, probs)] of each opponent ({"final": S}, {"card": ...} or, from
    programs that follow the states themselves, {"state": State}), fast (stats/opponents.py)."""
    from ...rules.bounds import score_bound
    if not opponents:
        raise ValueError("the win objective needs at least one opponent")
    if len(opponents) > MAX_OPPONENTS:  # also for goals made without win_goal (programs)
        raise ValueError(f"at most {MAX_OPPONENTS} opponents (8 players), got {len(opponents)}")
    out = []
    for opponent in opponents:
        if not isinstance(opponent, dict) \
                or sum(k in opponent for k in ("final", "card", "state")) != 1:
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


def check_without_store(rules, opponents, budget):
    """OverBudget when, without the store of the opponents' distributions, computing them afresh
    is more work than `budget` (early in a game: up to a minute each).  The door
    (ask/answer.py) then advises for points and says why."""
    work = cost.opponents_work(rules, opponents)
    if work > budget:
        raise cost.OverBudget(
            f"the chance to win here needs the other players' final-score distributions: about "
            f"{work:.0f} s of work without the win coach's tables (an estimate, counted on the "
            f"reference machine), over the budget of {budget:g} s", work, budget,
            "budget.distributions")


def answer_work(rules, card, opponents, budget, has_store):
    """The work (reference seconds, counted as advice/cost.py counts it) of win_advice's
    answer for our `card` against `opponents` within `budget`, as win_advice chooses it: none
    where it is refused at once (check_without_store: the door then answers for points); the
    exact sub-game where it fits; else the approximation with the successors' distributions it
    may compute afresh (what is left of the budget), each with the opponents' distributions
    computed afresh when there is no store."""
    fresh = 0.0 if has_store else cost.opponents_work(rules, opponents)
    if fresh > budget:
        return 0.0
    sub_game = cost.sub_game_work(rules, card)
    if sub_game <= budget:
        return fresh + sub_game
    return fresh + cost.APPROXIMATE_WORK + max(0.0, budget - fresh)


def choose_method(rules, query, distributions, goal, budget, target_table):
    """"exact" (and how: "sub-game" or "table") or "approximate" for this query: the sub-game
    (float64, today's answer) where it fits the budget, else the target table where it is exact
    (one step of u; the saved table holds float32 chances)."""
    if cost.sub_game_work(rules, query.position.card) <= budget:
        return "exact", "sub-game"
    if goal.ties == "lose" and target_table is not None \
            and all(len(p) == 1 for _, p in distributions):
        return "exact", "table"
    return "approximate", None


def win_advice(position, table, goal, dice=None, rolls_left=None, budget=None, target_table="saved",
               store=None, force=None, low=True):
    """The Advice of the win `goal` (goal.win_goal's, or with {"state": State} opponents) for
    `position` within `budget` seconds (default the goal's) (module docstring); `table` the
    expected-score table; target_table: a TargetTable, None, or "saved" (the one saved beside
    `table`, when there is one).
    force="exact" | "approximate" overrides the choice (measurements); low=False leaves the
    lower ends out where approximate (the ranking does not need them: a tournament plays faster;
    each "probability" is then the upper end).  position: a Position (card) or a Query checked
    before."""
    from ..position import Query, best_value, checked_query, ranked
    from .approximation import LowView, mixture_view, utility_of_score, with_interval
    from .sub_game import win_view
    budget = check_budget(goal.budget if budget is None else budget)
    rules = table.rules
    if isinstance(target_table, str):
        target_table = saved_target_table(table)
    query = position if isinstance(position, Query) else checked_query(position, rules, dice,
                                                                       rolls_left)
    store = store if store is not None else opp.get_store(table, build_missing=False)
    if store is None:
        check_without_store(rules, goal.opponents, budget)
    distributions = opponent_distributions(table, list(goal.opponents), store)
    method, how = choose_method(rules, query, distributions, goal, budget, target_table)
    method = force or method
    if method == "exact" and how != "table":
        view = win_view(query, table, goal, distributions)
        advice = ranked(query, table, goal, view)
        advice.method = "exact"
        return advice
    U = utility_of_score(*win_utility(distributions, goal.ties))
    c = query.state.card_total
    high = None
    if target_table is not None:
        high = ranked(query, target_table, goal, mixture_view(target_table, U, c))
        if method == "exact" or not low:
            high.method = method
            return high
    spent = cost.opponents_work(rules, goal.opponents) if store is None else 0.0
    of = _successor_distributions(table, store, budget, spent)
    view = LowView(rules, table.values, U, c, of)
    of.fill_missing(lambda: best_value(query, view))  # the lows not known, if affordable
    answer = with_interval(ranked(query, table, goal, view), high)
    answer.method = "approximate"
    answer.note = NO_TABLE_NOTE if target_table is None else None
    return answer


def _successor_distributions(table, store, budget, spent=0.0):
    """distribution_of(filled, aux, upper) for LowView: the store, else computed afresh while
    their work fits half the budget and the state has at most AFFORD_OPEN open boxes, else None
    (not known); distribution_of.fill_missing(visit) then computes the ones not known in one
    pass for them all (opponents.points_to_come_many) when its work fits the budget less
    `spent` (the work before it): visit() asks for every one LowView needs; True when it
    computed any.  Work is counted (advice/cost.py), never timed."""
    n_boxes, values = table.rules.n_boxes, table.values
    n_aux, n_upper = values.shape[1], values.shape[2]
    seen, done = {}, [0.0]  # done[0]: the work of the distributions computed afresh so far

    def distribution_of(filled, aux, upper):
        key = (filled, aux, upper)
        if key not in seen:
            n_open = n_boxes - bin(filled).count("1")
            flat = (filled * n_aux + aux) * n_upper + upper
            found = store.find(flat) if store is not None else None
            if found is None and n_open <= AFFORD_OPEN:
                # counted as work even when remembered (store.recent): what a process computed
                # before must not change its answers
                work = cost.opponent_work(table.rules, n_open)
                if spent + done[0] + work <= 0.5 * budget:
                    done[0] += work
                    found = opp.points_to_come(
                        table, State(filled, aux, upper, upper, 0, n_open), store)
            seen[key] = found
        return seen[key]

    def fill_missing(visit):
        missing = [k for k, v in seen.items() if v is None]
        if not missing:
            visit()  # the turn starts the options can end in: none asked for yet
            missing = [k for k, v in seen.items() if v is None]
        if not missing:
            return False
        # by the prediction, as the method is chosen: a new process's first answer spends
        # seconds loading kernels, which the budget is not for
        n_open = n_boxes - bin(missing[0][0]).count("1")
        if cost.successors_work(table.rules, n_open, len(missing)) + spent + done[0] > budget:
            return False
        states = [State(f, a, u, u, 0, n_boxes - bin(f).count("1")) for f, a, u in missing]
        by_open = {}
        for state in states:
            by_open.setdefault(state.n_open, []).append(state)
        for group in by_open.values():
            found = opp.points_to_come_many(table, group, store)
            for state in group:
                seen[(state.filled, state.aux, state.upper)] = found[
                    (state.filled * n_aux + state.aux) * n_upper + state.upper]
        return True

    distribution_of.fill_missing = fill_missing
    return distribution_of


_TARGETS = {}


def saved_target_table(table):
    """The target table saved beside the expected-score `table` (its store directory), or None;
    loaded once per process (memory-mapped)."""
    from pathlib import Path

    from ...engine.store import TableError
    from ...engine.target.table import load_target_table
    directory = Path(table.path).parent if getattr(table, "path", None) else None
    key = (table.rules.key, str(directory))
    if key not in _TARGETS:
        for place in dict.fromkeys([directory, None]):  # a shipped table's: the default store
            try:
                _TARGETS[key] = load_target_table(table.rules, place)
                break
            except TableError:
                continue
        else:
            return None  # looked for again next time: it may be built meanwhile
    return _TARGETS[key]


def target_sub_game(query, table, goal, stand_in):
    """The Advice of the target `goal` (a TargetGoal) without a saved target table: the sub-game
    from the checked `query`, solved when its predicted cost fits the goal's budget (else
    Unanswerable, naming the command that builds the table), as the win `stand_in` against a
    finished player on T - 1 with ties lost (u(x) = [x >= T])."""
    budget = check_budget(goal.budget)
    work = cost.sub_game_work(table.rules, query.position.card)
    if work > budget:
        raise Unanswerable(
            "no target table for these rules, and the sub-game from this position is about "
            f"{work:.0f} s of work (an estimate, counted on the reference machine), over the "
            f"budget of {budget:g} s",
            "fallback.no_target_table", seconds=round(work), budget=f"{budget:g}")
    advice = win_advice(query, table, stand_in, budget=budget, target_table=None, force="exact")
    advice.goal = goal
    return advice
