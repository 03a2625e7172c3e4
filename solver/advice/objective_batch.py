"""`--batch` lines that name an objective: {"target": T, "budget": SECONDS} or {"opponents":
[{"card": {...}} | {"final": S}], "ties": "share"|"lose", "budget": SECONDS}; the other lines go
to advice/batch.py as they are, in runs, so the output keeps the input's order and every line
its number."""
from itertools import chain, groupby

import orjson

from ..engine.states import Position
from .goal import DEFAULT_BUDGET, POINTS, target_goal, win_goal
from .answer import answer
from .query import read_query

FIELDS = {"rules", "card", "dice", "rolls_left", "kniffel_bonuses", "jokers_left", "target",
          "opponents", "ties", "budget"}
OBJECTIVE_FIELDS = ("target", "opponents")
PLAIN_FIELDS = FIELDS - {"target", "opponents", "ties", "budget"}  # batch.FIELDS: a line for points


def names_objective(line):
    """Whether a batch line (bytes or str) is a JSON object with a "target" or "opponents" field.
    Decided from the parsed keys, never from the text: a card or a rules name may contain those
    words.  A line that does not parse is not one (advice/batch.py answers its error)."""
    try:
        query = orjson.loads(line)
    except (orjson.JSONDecodeError, TypeError):
        return False
    return isinstance(query, dict) and any(field in query for field in OBJECTIVE_FIELDS)


def objective_lines(lines, default_rules, tables, target_tables, plain_lines, top=None):
    """Yield the answer texts (bytes) in input order.  Objective lines are answered here, with
    target_tables(rules) (the saved target table, or TableError: a batch line never builds one)
    and tables(rules); each run of other lines goes to plain_lines(run, start), `start` being the
    number of its first line, so error messages name the input's line numbers."""
    numbered = enumerate(lines, 1)  # blank lines too: every line gets its one answer (batch.py)
    for named, run in groupby(numbered, key=lambda item: names_objective(item[1])):
        if not named:
            start, first = next(run)
            yield from plain_lines(chain([first], (line for _, line in run)), start)
            continue
        for number, line in run:
            yield orjson.dumps(answer_line(line, number, default_rules, tables, target_tables, top))


def answer_line(line, number, default_rules, tables, target_tables, top=None):
    """The advice dict of one objective line, or {"error": "line N: ..."}."""
    from ..engine.store import TableError
    from ..rules import RulesError
    try:
        return answer_query(line, default_rules, tables, target_tables, True).as_dict(top)
    except (ValueError, TypeError, RulesError, TableError, OSError) as exc:
        return {"error": f"line {number}: {exc}"}


def answer_query(query, default_rules, tables, target_tables, objective=None):
    """The Advice of one batch line (bytes, str or its parsed dict), for any objective: its Goal
    read once, then advise.  objective: whether the line names one (default: from its keys);
    a line without one takes batch.FIELDS only.  ValueError (RulesError, TableError) naming a
    bad line."""
    if objective is None:
        objective = isinstance(query, dict) and any(f in query for f in OBJECTIVE_FIELDS)
    query, rules = read_query(query, FIELDS if objective else PLAIN_FIELDS, default_rules,
                              "scorecard", lambda r: f"{r.key} has no scorecard; ask with --rules {r.key}")
    goal = line_goal(query, rules) if objective else POINTS
    card = query.get("card", {})
    if not isinstance(card, dict):
        raise ValueError("card must be an object of box: points")
    from ..rules.cards import parse_card
    from .position import checked_query
    # the card read as a plain line reads it (points as strings too), and the whole line, its
    # dice and its opponents checked before any table is looked for or any work starts
    position = Position(parse_card(card, rules), query.get("kniffel_bonuses", 0), query.get("jokers_left"))
    checked = checked_query(position, rules, query.get("dice"), query.get("rolls_left"))
    table, missing = goal.table(rules, tables, target_tables)
    if goal.needs_opponents:
        goal = server_fitted(goal.with_opponents(read_opponents(goal.opponents, rules)), position,
                             table)
    elif missing is not None:
        goal = server_fitted(goal, position, table)
    try:
        return answer(checked, table, objective=goal)
    except ValueError as why:  # a target without its table, its sub-game over the budget
        if missing is None:
            raise
        raise ValueError(f"{missing}; {why}") from None


def server_fitted(goal, position, table):
    """The `goal` within the budget of the server that runs this line (advice/cost.BUDGET,
    shared by SHARING workers; none outside a server): its budget cut to the server's share,
    and for a win OverBudget when even its cheapest answer is predicted over it."""
    from dataclasses import replace
    from ..stats.opponents import get_store
    from .cost import BUDGET, SHARING, check_win_budget
    budget, sharing = BUDGET.get(), max(1, SHARING.get())
    if budget is None:
        return goal
    if goal.needs_opponents:
        has_store = get_store(table, build_missing=False) is not None
        check_win_budget(table.rules, position.card, goal.opponents, budget, sharing, has_store)
    return replace(goal, budget=min(goal.budget, budget / sharing))


def line_goal(query, rules):
    """The Goal a batch line names: {"target": T} or {"opponents": [...], "ties": ...}."""
    if ("target" in query) == ("opponents" in query):
        raise ValueError("a line takes target or opponents, not both")
    if "target" in query:
        return target_goal(query["target"], rules, query.get("budget", DEFAULT_BUDGET))
    return win_goal(query["opponents"], query.get("ties", "share"),
                    query.get("budget", DEFAULT_BUDGET))


def read_opponents(opponents, rules):
    """The opponents of a win goal with each card read (points as strings too, as a line's own
    card) and checked, and each final score checked: ValueError before any work starts."""
    from ..engine.states import position_state
    from ..rules.bounds import score_bound
    from ..rules.cards import parse_card
    read = []
    for opponent in opponents:
        if "final" in opponent:
            if not 0 <= opponent["final"] <= score_bound(rules):
                raise ValueError(f"an opponent's final score must be 0-{score_bound(rules)}, "
                                 f"got {opponent['final']}")
            read.append(opponent)
            continue
        card = parse_card(opponent["card"], rules)
        position_state(Position(card, opponent.get("kniffel_bonuses", 0), opponent.get("jokers_left")), rules)
        read.append({**opponent, "card": card})
    return read
