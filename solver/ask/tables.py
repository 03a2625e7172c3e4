"""The tables a question reads, of every game and kind: solved, loaded and cached.

A table's kind is "expected" (the expected-score values of a scorecard game or of the Dice
Duel) or "target" (the target table: the best chance of every final score, engine/target/).
Every table answers the same small interface: `rules`, `kind`, `expected_values` (the
expected-score values V it carries) and `save(directory)`.  `Tables` is the one cache of loaded
tables that every front end shares (each kind once per rule set, also across threads).
"""
import threading

from ..engine.store import TableError, table_dir

KINDS = ("expected", "target")


def _checked_kind(kind):
    if kind not in KINDS:
        raise ValueError(f"a table's kind is expected or target, got {kind!r}")
    return kind


def solve(rules, progress=None, *, kind="expected", **sub_game):
    """Solve the table of `kind` for `rules` (a Rules or DuelRules): every reachable state's
    expected score, or the target table (sub_game: `within`, `expected`, ... of a sub-game,
    engine/target/solve.py), which reads the expected-score values first."""
    if _checked_kind(kind) == "target":
        from ..engine.target.solve import solve_target
        expected = sub_game.pop("expected", None)
        if expected is None:
            expected = get_table(rules, progress=progress).values
        return solve_target(rules, progress=progress, expected=expected, **sub_game)
    if rules.game == "dice-duel":
        from ..duel.solo.solve import solve as run
    else:
        from ..engine.backward import solve as run
    return run(rules, progress=progress)


def load_table(rules, directory=None, *, kind="expected"):
    """The saved table of `kind` for `rules`; TableError if it is missing or fails a check (for
    the target table, naming the command that builds it)."""
    if _checked_kind(kind) == "target":
        from ..engine.target.table import load_target_table
        return load_target_table(rules, directory)
    from ..engine.values import load_table as load
    return load(rules, directory)


def get_table(rules, directory=None, progress=None, announce=None, warn=None, *,
              kind="expected"):
    """The saved table of `kind` for `rules`, solved and saved first when it is missing or
    invalid (a target table takes many minutes).

    announce(rules, reason): called before solving, with why the saved table could not be used.
    warn(message): when given, a table that cannot be saved (a read-only store, a full disk) is
    still returned, after warn says so; without it the OSError is raised."""
    try:
        return load_table(rules, directory, kind=kind)
    except TableError as exc:
        if announce:
            announce(rules, str(exc))
    extra = {}
    if kind == "target":
        extra["expected"] = get_table(rules, directory, progress, announce, warn).values
    table = solve(rules, progress, kind=kind, **extra)
    try:
        table.save(directory)
    except OSError as exc:
        if warn is None:
            raise
        warn(f"the {rules.key} table could not be saved in {table_dir(directory)} "
             f"({exc.strerror or exc}); it will be solved again next time")
    return table


class Tables:
    """The tables of one store directory, each kind loaded once per rule set and shared, also
    by threads (a web server's requests).  tables(rules) is the expected-score table (solved
    and saved first when missing, with `progress`, `announce` and `warn` as get_table takes
    them); tables.target(rules) the saved target table (only loaded: its build takes many
    minutes; a TableError names the command); tables.saved_target(rules) the same, or None;
    tables.points(rules) any loaded table with the expected-score values.

    tables.warm(feature) makes sure the kernels of a feature are compiled (ask/warm.need):
    compiling(feature) says so first."""

    def __init__(self, directory=None, preloaded=(), progress=False, announce=None, warn=None,
                 compiling=None):
        self.directory = directory
        self.loaded = {(table.kind, table.rules): table for table in preloaded}
        self.lock = threading.Lock()
        self.options = {"progress": progress, "announce": announce, "warn": warn}
        self.compiling = compiling

    def warm(self, feature):
        """The kernels of `feature` compiled unless they are (ask/warm.need)."""
        from .warm import need
        need(feature, self, self.compiling)

    def forget(self, kind, rules):
        """Let go of a loaded table (one built again, to be loaded anew)."""
        self.loaded.pop((kind, rules), None)

    def __call__(self, rules):
        return self.get("expected", rules)

    def target(self, rules):
        return self.get("target", rules)

    def points(self, rules):
        """A table of `rules` that holds the expected-score values: one loaded already, of any
        kind (a target table carries them), else the expected-score table."""
        for kind in KINDS:
            found = self.loaded.get((kind, rules))
            if found is not None:
                return found
        return self(rules)

    def saved_target(self, rules):
        """The target table of `rules` when the store holds one, else None."""
        try:
            return self.target(rules)
        except TableError:
            return None

    def get(self, kind, rules):
        """The table of `kind` for `rules`, loaded once (an expected-score table solved when
        missing; a target table only loaded)."""
        key = (kind, rules)
        table = self.loaded.get(key)
        if table is None:
            with self.lock:  # one load per rule set, even when requests race
                table = self.loaded.get(key)
                if table is None:
                    table = self.loaded[key] = self._load(kind, rules)
        return table

    def _load(self, kind, rules):
        if kind == "target":
            return load_table(rules, self.directory, kind="target")
        return get_table(rules, self.directory, **self.options)
