"""kniffel: exact optimal strategy for Kniffel, Yahtzee and their relatives.

    >>> import solver
    >>> table = solver.get_table("yahtzee")          # loads, or solves and saves
    >>> table.expected_score                          # 254.5877...
    >>> solver.advise({"ones": 3}, table, dice=[1, 1, 3, 5, 6]).options[0]

Every call takes an objective: None or "points" (the expected final score), a target
("target:250", TargetGoal(250)) or a win (solver.win_goal([{"final": 231}])).  Its table kind
follows: the target table for a target, the expected-score table for points and a win.  Tables
is the one cache of loaded tables that the CLI, the batch, the coach and the web app share.

numba is imported only when something is solved, so advising from a saved table stays fast.
"""
__version__ = "0.1.0"


def solve(rules=None, progress=None, *, objective=None, **sub_game):
    """Solve the table of `objective` for `rules` (a preset name, rules file or Rules): every
    reachable state's expected score (the Dice Duel's for its rules), or with a target objective
    the target table (sub_game: `within`, `expected`, ... of a sub-game, see
    engine/target/solve.py), which reads the expected-score table first."""
    from .presets import resolve_rules
    rules = resolve_rules(rules)
    if _kind(objective) == "target":
        from .engine.target.solve import solve_target
        expected = sub_game.pop("expected", None)
        if expected is None:
            expected = get_table(rules, progress=progress).values
        return solve_target(rules, progress=progress, expected=expected, **sub_game)
    if rules.game == "dice-duel":
        from .duel.solo.solve import solve as run
    else:
        from .engine.backward import solve as run
    return run(rules, progress=progress)


def _kind(objective):
    from .advice.goal import as_goal
    return as_goal(objective).table_kind


def load_table(rules=None, directory=None, *, objective=None):
    """The saved table of `objective` for `rules`; TableError if missing or failing a check
    (for the target table, naming the command that builds it)."""
    from .presets import resolve_rules
    rules = resolve_rules(rules)
    if _kind(objective) == "target":
        from .engine.target.table import load_target_table
        return load_target_table(rules, directory)
    from .engine.store import load_table as load
    return load(rules, directory)


def get_table(rules=None, directory=None, progress=None, announce=None, warn=None, *,
              objective=None):
    """Load the saved table of `objective` for `rules`, solving and saving it first when it is
    missing or invalid (a target table takes many minutes).

    announce(reason): called before solving, with why the saved table could not be used.
    warn(message): when given, a table that cannot be saved (a read-only store) is still
    returned, after warn says so; without it the OSError is raised."""
    from .presets import resolve_rules
    from .engine.store import TableError, table_dir
    rules = resolve_rules(rules)
    target = _kind(objective) == "target"
    try:
        return load_table(rules, directory, objective=objective)
    except TableError as exc:
        if announce:
            announce(str(exc))
    expected = get_table(rules, directory, progress, announce, warn).values if target else None
    table = solve(rules, progress, objective=objective, **({"expected": expected} if target else {}))
    try:
        table.save(directory)
    except OSError as exc:
        if warn is None:
            raise
        warn(f"the {rules.key} table could not be saved in {table_dir(directory)} "
             f"({exc.strerror or exc}); it will be solved again next time")
    return table


def advise(position, table, dice=None, rolls_left=None, objective=None):
    """The ranked options for `position` as an Advice, for every objective and both games: the
    one way to ask.

    A scorecard game: `position` a card {box: points} or a Position; objective None/"points",
    "target:T", a Goal or the JSON "objective" of an answer ({"target": T}, {"win":
    {"opponents": [...], "ties": ...}}); `table` is get_table(rules, objective=objective) (for
    a target without its table, the expected-score table: the sub-game within the goal's
    budget).  The Dice Duel (table.rules.game "dice-duel"): `position` the chips (a Chips or
    "ls=0/1/3,..."), its expected final score; or a game of several players (a
    duel.multiplayer.game.Table, `table` its rules or any solved Dice Duel table), each option's
    chance to win (objective a duel.multiplayer.advice.SeatWinGoal for the rollouts' budget,
    seed and the opponents' model).
    dice: five faces, or None for the turn's start; rolls_left: default the most there can be."""
    if getattr(table, "rules", table).game == "dice-duel":
        from .duel.answer import duel_advice
        return duel_advice(position, table, dice, rolls_left, objective)
    from .advice.answer import answer
    return answer(position, table, dice, rolls_left, objective)


def win_goal(opponents, ties="share", budget=1.0):
    """The win objective against `opponents` ([{"final": S} | {"card": {...}}, ...]), its advice
    within `budget` seconds (the exact sub-game where it fits, else the approximation)."""
    from .advice.goal import win_goal as make
    return make(opponents, ties, budget)


class Tables:
    """The tables of one store directory, each kind loaded once per rule set and shared, also
    by threads (a web server's requests).  tables(rules) is the expected-score table (solved and
    saved first when missing, with `progress`, `announce` and `warn` as get_table takes them),
    tables.target(rules) the saved target table (only loaded: its build takes many minutes, a
    TableError names the command), tables.for_goal(goal, rules) the one a goal's advice reads."""

    def __init__(self, directory=None, preloaded=(), progress=False, announce=None, warn=None):
        import threading  # here: `import solver` stays light for a one-shot advise
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
                        load_table(rules, self.directory, objective="target") if kind == "target"
                        else get_table(rules, self.directory, **self.options))
        return table
