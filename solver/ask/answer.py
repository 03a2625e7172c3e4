"""A Request answered: its goal's ranking (advice/goal.py and the Dice Duel's goals), and the
one place that decides what happens when a goal cannot be answered here (its work over the
budget, a table it needs missing, the server's guard stopping it): the advice for points
instead, its `fallback` saying which goal was asked and why, in words of both languages (and
its `building`, when the tables the goal needs are being built)."""
from dataclasses import replace

from ..advice.goal import POINTS
from ..advice.limits import Unanswerable
from ..engine.cancel import Cancelled
from ..lang import LANGUAGES


def answer(request, tables):
    """The Advice of `request` (ask/request.py) from the cache `tables` (ask/tables.py): its
    goal's, or for points with a `fallback` (fallback()) when a scorecard goal cannot be
    answered here.  A Dice Duel goal has no fallback: its error goes to the asker."""
    goal = request.goal
    try:
        return server_fitted(goal, request.query, tables).ranked(request.query, tables)
    except (Unanswerable, Cancelled) as why:
        if goal is POINTS or request.rules.game != "scorecard":
            raise
        advice = POINTS.ranked(request.query, tables)
        advice.fallback = fallback(goal, why)
        from ..advice.win.prepare import status  # the goal's tables being built, if they are
        advice.building = status(request.rules, tables.directory)
        return advice


def server_fitted(goal, query, tables):
    """The `goal` within the budget of the server that answers it (advice/cost.BUDGET, shared
    by SHARING workers; none outside a server): its seconds cut to the server's share, and for
    a win OverBudget when even its cheapest answer is predicted over it."""
    from ..advice.cost import BUDGET, SHARING, check_win_budget
    budget, sharing = BUDGET.get(), max(1, SHARING.get())
    if budget is None or goal.kind not in ("target", "win") or query.rules.game != "scorecard":
        return goal
    if goal.kind == "win":
        from ..stats.opponents import get_store
        has_store = get_store(tables(query.rules), build_missing=False) is not None
        check_win_budget(query.rules, query.position.card, goal.opponents, budget, sharing,
                         has_store)
    return replace(goal, budget=min(goal.budget, budget / sharing))


def fallback(goal, why):
    """{"goal": what was asked, "reason": {language: why it was not answered}}: the reason in
    every language, so that each asker says it in its own."""
    if isinstance(why, Cancelled):
        why = Unanswerable(f"the work was stopped ({why})", "fallback.stopped")
    return {"goal": str(goal), "reason": {lang: why.text(lang) for lang in LANGUAGES}}


def fallback_text(advice, words):
    """The line that says why the advice is for points, in `words`' language (a lang.Words),
    or None when it is the goal's own."""
    if advice.fallback is None:
        return None
    return words("fallback.points", why=advice.fallback["reason"][words.lang])
