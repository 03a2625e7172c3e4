"""The target objective and its table: for every reachable turn-start state s and every number
of points still needed d, W(s, d) = the best chance that the points still to come reach d, and
E(s, d) = the expected points still to come under that play.  One backward pass answers every
target from every position: P(final >= T) = W(s, T - points on the card); it is solved by
engine/target/solve.py (this module loads and saves, without the compiler, so advice from a
saved table starts quickly).

Storage is ragged: the state g = row_of[filled, aux, upper] holds span[g] values of d
(base[g] + 1 .. base[g] + span[g]) from offset[g] on, up to its last chance >= target.CUT;
beyond them W is 0 and for d <= 0 it is 1, and there E(s, d) is the expected-score value V(s),
which the table carries.  base is 0 but in a sub-game solved for one position, whose states
hold only the d that can follow it (engine/target_ranges._level_bands); it is not saved (the saved
tables are whole ones) and a d below it reads as reached.

Solved in float64 (a whole table's levels kept in float32 once no level reads them, the
precision saved: engine/target/solve.py); saved by the table store (engine/store.py) with W, E
and V in float32 and the indexes in int32 where they fit (STORED_DTYPE: the whole kniffel table
would pass 1 GB in float64), as NAME.target.bin and its header NAME.target.json. A load maps the
arrays from the file instead of reading them, so advice from a table of hundreds of megabytes
starts at once; the store checks so large a file's checksums once and remembers it
(NAME.target.verified).
"""
import numpy as np

from ..store import Artifact, TableError, load_arrays, save_arrays, table_paths

ARRAYS = ("w", "e", "offset", "span", "row_of", "expected")
STORED_DTYPE = {"w": np.float32, "e": np.float32, "expected": np.float32,
                "span": np.int32, "row_of": np.int32}  # offset as solved (int64)
TARGET = Artifact("target", "target table", "kniffel solve --objective target --rules {key}",
                  mapped=ARRAYS)
CHUNK = 1 << 22  # chances checked at a time


class TargetTable:
    """W and E of every reachable turn-start state and points still needed (module docstring)."""

    kind = "target"

    def __init__(self, rules, arrays, seconds=None, level_seconds=None, within=0, rounding=None):
        self.rules = rules
        self.rounding = rounding or {}  # the most W and E moved when the solve kept them in float32
        self.within = within  # a sub-game's filled-box mask (0: the whole game)
        for name in ARRAYS:
            setattr(self, name, arrays[name])
        self.base = arrays.get("base")
        if self.base is None:
            self.base = np.zeros(len(self.span), dtype=np.int64)
        self.seconds = seconds
        self.level_seconds = level_seconds

    @property
    def expected_values(self):
        """The expected-score values V it carries (every table kind does: ask/tables.py)."""
        return self.expected

    def lookup(self, state, need):
        """(W, E) of a State with `need` points still needed (any integer)."""
        return self.lookup_raw(state.filled, state.aux, state.upper, need)

    def lookup_raw(self, filled, aux, upper, need):
        """(W, E) of the turn start (filled, aux, upper) with `need` points still needed."""
        v = float(self.expected[filled, aux, upper])
        if need <= 0:
            return 1.0, v
        g = self.row_of[filled, aux, upper]
        if g < 0 or need > self.base[g] + self.span[g]:
            return 0.0, v
        if need <= self.base[g]:
            return 1.0, v
        k = self.offset[g] + need - self.base[g] - 1
        return float(self.w[k]), float(self.e[k])

    def chances(self, state, needs):
        """W for each value in `needs` (an int array) at a State, vectorised."""
        needs = np.asarray(needs, dtype=np.int64)
        g = self.row_of[state.filled, state.aux, state.upper]
        lo = int(self.base[g]) if g >= 0 else 0
        n = int(self.span[g]) if g >= 0 else 0
        inside = (needs > lo) & (needs <= lo + n)
        out = np.where(needs <= lo, 1.0, 0.0)
        out[inside] = self.w[self.offset[g] + needs[inside] - lo - 1]
        return out

    def probability(self, state, final):
        """The best chance of a final score >= `final` from a State (card_total included)."""
        return self.lookup(state, final - state.card_total)[0]

    @property
    def entries(self):
        return int(self.w.shape[0])

    def save(self, directory=None):
        """Write the table atomically into the store (W and E as float32); returns the .bin path."""
        if np.any(self.base):
            raise ValueError("a target table solved for one position only is not saved")
        arrays, error = {}, {}
        for name in ARRAYS:
            solved = np.asarray(getattr(self, name))
            array = arrays[name] = np.ascontiguousarray(solved, dtype=STORED_DTYPE.get(name))
            if array.dtype.kind == "i" and not np.array_equal(array, solved):
                raise ValueError(f"target table array {name} does not fit {array.dtype}")
            if array.dtype == np.float32:  # what float32 storage changes, for the header
                moved = 0.0 if array is solved or not array.size else float(
                    np.nanmax(np.abs(array - solved)))  # solved in float32: rounded already
                error[name] = max(self.rounding.get(name, 0.0), moved)
        fields = {"entries": self.entries, "stored_max_abs_error": error,
                  "solve_seconds": self.seconds, "within": self.within}
        return save_arrays(self.rules, TARGET, arrays, fields, directory)


def _check_chances(arrays):
    """TableError unless every chance W is a number in [0, 1] (a NaN would reach --json)."""
    w = arrays["w"]
    for start in range(0, len(w), CHUNK):
        part = np.asarray(w[start:start + CHUNK])
        if not (np.isfinite(part).all() and (part >= 0).all() and (part <= 1).all()):
            raise TableError("is damaged: a chance that is not in 0-1")


def load_target_table(rules, directory=None, sub_game=False):
    """The saved target table for `rules`, its arrays mapped from the file; TableError if missing
    or failing any check (or, unless `sub_game`, if it holds a sub-game only), its message
    naming the command that builds the table."""
    header, arrays = load_arrays(rules, TARGET, directory, dict.fromkeys(ARRAYS), _check_chances)
    within = header.get("within", 0)
    if within and not sub_game:
        raise TableError(f"target table {table_paths(rules, directory, TARGET)[0]} holds a "
                         f"sub-game only; build the whole table with: {TARGET.rebuild(rules)}")
    seconds = header.get("solve_seconds")
    return TargetTable(rules, arrays,
                       seconds=seconds if isinstance(seconds, (int, float)) else None,
                       within=within if isinstance(within, int) else 0)
