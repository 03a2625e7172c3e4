"""Where the advice's tables come from: one function per table kind, and Tables, the one cache
of loaded tables that the CLI, the batch reader, the coach and the web app share.

The expected-score table is solved and saved when it is missing (seconds to a minute); the
target table only ever loaded (its build takes many minutes: `kniffel solve --objective
target`, never a side effect of one question), a TableError naming that command otherwise.
"""
import threading


def solve(rules, objective=None, progress=None, **sub_game):
    """Solve the table of `objective`'s kind for `rules` (Rules): the expected-score table (the
    Dice Duel's for its rules), or with a target goal the target table (sub_game: a sub-game's
    `within`, see engine/target_solve.py), which reads the expected-score table first."""
    from .goal import as_goal
    if as_goal(objective).table_kind == "target":
        from ..engine.target_solve import solve_target
        expected = sub_game.pop("expected", None)
        if expected is None:
            expected = expected_table(rules, progress=progress).values
        return solve_target(rules, progress=progress, expected=expected, **sub_game)
    if rules.game == "dice-duel":
        from ..duel.solve import solve as run
    else:
        from ..engine.backward import solve as run
    return run(rules, progress=progress)


def expected_table(rules, directory=None, progress=None, announce=None, warn=None):
    """The saved expected-score table for `rules`, solved and saved first when it is missing or
    invalid.  announce(reason): called before solving, with why the saved table could not be
    used.  warn(message): when given, a table that cannot be saved (a read-only store) is still
    returned, after warn says so; without it the OSError is raised."""
    from ..engine.store import TableError, load_table, table_dir
    try:
        return load_table(rules, directory)
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


def target_table(rules, directory=None):
    """The saved target table for `rules`; TableError naming the command that builds it."""
    from ..engine.target_table import load_target_table
    return load_target_table(rules, directory)


class Tables:
    """The tables of one store directory, each kind loaded (or solved) once per rule set and
    shared, also by threads (a web server's requests).  tables(rules) is the expected-score
    table, tables.target(rules) the target table, tables.for_goal(goal, rules) the one a goal's
    advice reads.  announce/warn/progress go to expected_table when it solves."""

    def __init__(self, directory=None, preloaded=(), progress=False, announce=None, warn=None):
        self.directory = directory
        self.loaded = {("expected", table.rules): table for table in preloaded}
        self.lock = threading.Lock()
        self.options = {"progress": progress, "announce": announce, "warn": warn}

    def __call__(self, rules):
        return self._get("expected", rules)

    def target(self, rules):
        return self._get("target", rules)

    def for_goal(self, goal, rules):
        return self._get(goal.table_kind, rules)

    def _get(self, kind, rules):
        key = (kind, rules)
        table = self.loaded.get(key)
        if table is None:
            with self.lock:  # one load per rule set, even when requests race
                table = self.loaded.get(key)
                if table is None:
                    table = self.loaded[key] = (
                        target_table(rules, self.directory) if kind == "target"
                        else expected_table(rules, self.directory, **self.options))
        return table
