"""The advice of a scorecard position for any objective, as solver.advise (the one door) answers
it and as the batch, the coach and `analyze` ask for it: the position checked once, then its
goal's own ranking (advice/goal.py: a win within its time budget, a target without a target
table from its sub-game within its budget)."""
from .goal import as_goal
from .position import Query, checked_query


def answer(position, table, dice=None, rolls_left=None, objective=None):
    """The Advice of `position` (a card {box: points}, a Position, or a Query checked before)
    for `objective` (a Goal or what goal.as_goal reads; default points) from `table` (the
    table of the goal's table_kind; for a target, the expected-score table falls back to the
    sub-game)."""
    goal = as_goal(objective)
    query = position if isinstance(position, Query) else checked_query(position, table.rules, dice,
                                                                       rolls_left)
    return goal.ranked(query, table)
