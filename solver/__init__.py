"""kniffel: exact optimal strategy for Kniffel, Yahtzee and their relatives.

    >>> import solver
    >>> table = solver.get_table("yahtzee")          # loads, or solves and saves
    >>> table.expected_score                          # 254.5877...
    >>> solver.advise({"ones": 3}, table, dice=[1, 1, 3, 5, 6]).options[0]

Every call takes an objective: None or "points" (the expected final score), a target
("target:250", Goal("target", 250)) or a win (solver.win_goal([{"final": 231}])).  Its table kind
follows: the target table for a target, the expected-score table for points and a win.

numba is imported only when something is solved, so advising from a saved table stays fast.
"""
__version__ = "0.1.0"


def solve(rules=None, progress=None, *, objective=None, **sub_game):
    """Solve the table of `objective` for `rules` (a preset name, rules file or Rules): every
    reachable state's expected score, or with a target objective the target table (sub_game:
    `within`, `expected`, ... of a sub-game, see engine/target_solve.py)."""
    from .presets import resolve_rules
    from .advice.tables import solve as run
    return run(resolve_rules(rules), objective, progress=progress, **sub_game)


def load_table(rules=None, directory=None, *, objective=None):
    """The saved table of `objective` for `rules` (TableError if missing or failing a check)."""
    from .presets import resolve_rules
    from .advice.goal import as_goal
    rules = resolve_rules(rules)
    if as_goal(objective).table_kind == "target":
        from .advice.tables import target_table
        return target_table(rules, directory)
    from .engine.store import load_table as load
    return load(rules, directory)


def get_table(rules=None, directory=None, progress=None, announce=None, warn=None, *,
              objective=None):
    """Load the saved table of `objective` for `rules`, solving and saving it first when it is
    missing or invalid (a target table takes many minutes).

    announce(reason): called before solving the expected-score table, with why the saved one
    could not be used.  warn(message): when given, a table that cannot be saved (a read-only
    store) is still returned, after warn says so; without it the OSError is raised."""
    from .presets import resolve_rules
    from .advice.goal import as_goal
    from .advice.tables import expected_table, solve as run, target_table
    from .engine.store import TableError
    rules = resolve_rules(rules)
    if as_goal(objective).table_kind != "target":
        return expected_table(rules, directory, progress=progress, announce=announce, warn=warn)
    try:
        return target_table(rules, directory)
    except TableError:
        expected = expected_table(rules, directory, progress=progress, announce=announce, warn=warn)
        table = run(rules, "target", progress=progress, expected=expected.values)
        table.save(directory)
        return table


def advise(position, table, dice=None, rolls_left=None, objective=None):
    """The ranked options for `position` (a card {box: points} or a Position) as an Advice:
    advice.position.advise.  objective: None/"points", "target:T", a Goal or the JSON
    "objective" of an answer ({"target": T}, {"win": {"opponents": [...], "ties": ...}});
    `table` is get_table(rules, objective)."""
    from .advice.position import advise as run
    return run(position, table, dice=dice, rolls_left=rolls_left, objective=objective)


def win_goal(opponents, ties="share"):
    """The win objective against `opponents` ([{"final": S} | {"card": {...}}, ...])."""
    from .advice.goal import win_goal as make
    return make(opponents, ties)
