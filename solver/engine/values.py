"""The expected-score values of a rule set (both games), saved and loaded through the table store
(store.py), and the table shipped in the package for the default preset (solver/data/, written
by scripts/ship_table.py)."""
from pathlib import Path

import numpy as np

from .store import VALUE_TABLE, TableError, load_arrays, load_packed, save_arrays, table_paths


class ValueTable:
    """values[filled, aux, upper]: expected future score from the start of a turn (NaN:
    unreachable).

    Dice Duel tables (duel/solo/solve.py) are one-dimensional: values[state index] is the expected
    final score at the start of a turn."""

    kind = "expected"

    def __init__(self, rules, values, states=None, seconds=None, level_seconds=None):
        self.rules = rules
        self.values = values
        self.states = states if states is not None else int(np.count_nonzero(~np.isnan(values)))
        self.seconds = seconds  # solve time, when solved in this process
        self.level_seconds = level_seconds  # [(open boxes, seconds since the solve started)]
        self.path = None  # the file it was loaded from

    @property
    def expected_values(self):
        """The expected-score values V (every table kind carries them: ask/tables.py)."""
        return self.values

    @property
    def expected_score(self):
        """Optimal expected final score of a new game (the empty card, or every chip on the
        plate)."""
        return float(self.values[self.rules.start_index])

    def value(self, state):
        """Expected future score of a turn-start State."""
        return float(self.values[state.filled, state.aux, state.upper])

    def save(self, directory=None):
        """Write the table atomically into the store (NAME.npy, NAME.json); returns the .npy
        path."""
        return save_arrays(self.rules, VALUE_TABLE, {"values": self.values},
                           {"states": self.states, "expected_score": self.expected_score,
                            "solve_seconds": self.seconds}, directory)


def load_table(rules, directory=None, shipped=True):
    """Load the saved table for `rules`; TableError if it is missing or fails any check.

    Only the checksummed values are trusted: the state count is counted from them again, and
    the shape must be the one the rules give.  When the store has no valid table, a table
    shipped in the package for exactly these resolved rules (solver/data/, read-only, the same
    checks) is used instead (shipped=False: the store only)."""
    try:
        header, arrays = load_arrays(rules, VALUE_TABLE, directory, _value_shape(rules),
                                     lambda arrays: _check_values(rules, arrays["values"]))
        return _value_table(rules, header, arrays, table_paths(rules, directory)[0])
    except TableError:
        if shipped:
            table = load_shipped(rules)
            if table is not None:
                return table
        raise


def _value_shape(rules):
    return {"values": (tuple(rules.table_shape), np.dtype(np.float64))}


def _check_values(rules, values):
    """TableError unless every value is finite where the rules reach a state (NaN marks the
    states no game reaches, and only those)."""
    if np.isinf(values).any():
        raise TableError("is damaged: it holds infinite values")
    if values.ndim == 3:
        from .states import reachable_mask
        if not np.array_equal(~np.isnan(values), reachable_mask(rules)):
            raise TableError("is damaged: NaN where a state is reachable "
                             "(or a value where none is)")
    elif np.isnan(values[rules.start_index]):
        raise TableError("is damaged: NaN at the start of the game")


def _value_table(rules, header, arrays, path):
    seconds = header.get("solve_seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        seconds = None
    table = ValueTable(rules, arrays["values"], seconds=seconds)
    table.path = path
    return table


SHIPPED_DIR = Path(__file__).resolve().parent.parent / "data"


def shipped_paths(rules):
    """NAME.npy.gz (the store's .npy, gzipped byte for byte) and NAME.json (its header)."""
    return SHIPPED_DIR / f"{rules.key}.npy.gz", SHIPPED_DIR / f"{rules.key}.json"


def load_shipped(rules):
    """The table shipped in the package for exactly `rules`, or None (none shipped, or it fails
    a check: a stale shipped table is never used)."""
    packed, sidecar = shipped_paths(rules)
    if not packed.exists() or not sidecar.exists():
        return None
    try:
        header, arrays = load_packed(rules, VALUE_TABLE, packed, sidecar, _value_shape(rules),
                                     lambda arrays: _check_values(rules, arrays["values"]))
    except TableError:
        return None
    return _value_table(rules, header, arrays, packed)
