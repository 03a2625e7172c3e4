"""kniffel: exact optimal strategy for Kniffel, Yahtzee and their relatives.

    >>> import solver
    >>> table = solver.get_table("yahtzee")          # loads, or solves and saves
    >>> table.expected_score                          # 254.5877...

numba is imported only when something is solved, so advising from a saved table stays fast.
"""
__version__ = "0.1.0"


def solve(rules=None, progress=None):
    """Solve all reachable states of `rules` (a preset name, rules file or Rules)."""
    from .presets import resolve_rules
    rules = resolve_rules(rules)
    if rules.game == "dice-duel":
        from .duel.solve import solve as _solve
    else:
        from .engine.backward import solve as _solve
    return _solve(rules, progress=progress)


def load_table(rules=None, directory=None):
    """The saved table for `rules` (TableError if missing or failing a check)."""
    from .presets import resolve_rules
    from .engine.store import load_table as _load
    return _load(resolve_rules(rules), directory)


def get_table(rules=None, directory=None, progress=None, announce=None, warn=None):
    """Load the saved table for `rules`, solving and saving it first when it is missing or invalid.

    announce(reason): called before solving, with why the saved table could not be used.
    warn(message): when given, a table that cannot be saved (a read-only store) is still
    returned, after warn says so; without it the OSError is raised."""
    from .presets import resolve_rules
    from .engine.store import TableError, load_table as _load, table_dir
    rules = resolve_rules(rules)
    try:
        return _load(rules, directory)
    except TableError as exc:
        if announce:
            announce(str(exc))
        table = solve(rules, progress=progress)
        try:
            table.save(directory)
        except OSError as exc:
            if warn is None:
                raise
            warn(f"the {rules.key} table could not be saved in {table_dir(directory)} "
                 f"({exc.strerror or exc}); it will be solved again next time")
        return table


def advise(position, table, dice=None, rolls_left=None, objective=None):
    """Ranked options for `position` (see solver.advise.advise).

    objective: None (the expected score), {"target": T} (ranked by P(final >= T); `table` is
    then the target table, get_target_table) or {"win": {"opponents": [{"card": {...}} |
    {"final": S}, ...], "ties": "share"|"lose"}} (ranked by P(win); `table` the expected-score
    table).  With an objective the answer is a dict, as `kniffel advise --json` prints it."""
    if objective is None:
        from .advice.position import advise as _advise
        return _advise(position, table, dice=dice, rolls_left=rolls_left)
    if "target" in objective:
        from .advice.target import advise_target
        return advise_target(position, table, objective["target"], dice=dice, rolls_left=rolls_left)
    from .advice.win import advise_win
    win = objective["win"]
    return advise_win(position, table, win["opponents"], win.get("ties", "share"), dice=dice,
                      rolls_left=rolls_left)


def solve_target(rules=None, progress=None):
    """Solve the target table of a scorecard rule set: P(final >= T) for every T and state."""
    from .presets import resolve_rules
    from .engine.target_solve import solve_target as _solve
    rules = resolve_rules(rules)
    return _solve(rules, progress=progress, expected=get_table(rules, progress=progress).values)


def get_target_table(rules=None, directory=None, progress=None):
    """Load the saved target table for `rules`, solving and saving it first when needed."""
    from .presets import resolve_rules
    from .engine.store import TableError
    from .engine.target_solve import solve_target as _solve
    from .engine.target_table import load_target_table
    rules = resolve_rules(rules)
    try:
        return load_target_table(rules, directory)
    except TableError:
        table = _solve(rules, progress=progress,
                       expected=get_table(rules, directory, progress=progress).values)
        table.save(directory)
        return table
