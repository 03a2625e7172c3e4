"""The horizon table of the 2-player Dice Duel: the exact chance of the seat to move at every
position with at most `top` chips in play (plate and set aside), built once when a person asks
(`kniffel solve --rules dice-duel --objective horizon`) and kept in the table store.

Each level (chips in play k) is one artifact of the store, NAME.duel-horizon-K.bin: float32,
CODES values per position of the full universe (universe.full_universe; a level's numbering
does not depend on `top`), checksummed, written atomically when the level is done.  So a build
stopped part-way keeps the levels it finished and goes on from the next, and a table of 5
levels reuses the 4 of a smaller one.  Level k is solved in float64 from level k - 1 as saved
(float32), then rounded once: the same bits whether or not a build was interrupted.

Advice reads the levels mapped from their files (dense.DenseSolver reads the top level as the
one below its own solve, rollout.py stops its games where they enter the table).
"""
import time

import numpy as np

from ...engine.backward import backward_pass
from ...engine.store import Artifact, TableError, load_arrays, save_arrays, table_dir, table_paths
from .dense import DenseObjective, dense_rules, flag
from .universe import CODES, full_universe, position_index

DEFAULT_TOP = 4  # levels `kniffel solve --objective horizon` builds unless told (docs/results.md)
MAX_TOP = 8  # the most levels the command takes (8: 8 GB on disk, see docs/results.md)


def level_artifact(k):
    """The store's Artifact of level k."""
    return Artifact(f"duel-horizon-{k}", f"Dice Duel horizon table (level {k})",
                    f"kniffel solve --rules {{key}} --objective horizon --levels {k}",
                    mapped=("values",))


def level_size(universe, k):
    """Values of level k (positions times codes)."""
    return CODES * int(universe.level_start[k + 1] - universe.level_start[k])


class HorizonTable:
    """The levels 1..top of a horizon table, mapped from the store."""

    def __init__(self, rules, universe, levels, seconds=None):
        self.rules, self.universe = rules, universe
        self.levels = tuple(levels)  # levels[k - 1]: level k's float32 values
        self.top = len(self.levels)
        self.seconds = seconds  # per level, as saved

    def level(self, k):
        """Level k's values (float32, CODES per position)."""
        return self.levels[k - 1]

    @property
    def positions(self):
        return int(self.universe.level_start[self.top + 1]) * CODES

    def chance(self, table):
        """The chance of the seat to move in `table` (a game.Table of 2 players with at most
        `top` chips in play)."""
        k = table.in_play
        index = position_index(self.universe, np.array(table.plate, dtype=np.int64),
                               np.array(table.aside, dtype=np.int64),
                               np.array(table.seats[0], dtype=np.int64))
        code = table.to_move + 2 * flag(table, self.rules)
        return float(self.level(k)[CODES * (index - self.universe.level_start[k]) + code])


def _load_level(rules, universe, k, directory):
    header, arrays = load_arrays(rules, level_artifact(k), directory,
                                 {"values": ((level_size(universe, k),), np.dtype(np.float32))})
    return np.asarray(arrays["values"]), header.get("solve_seconds")


def load(rules, top=None, directory=None):
    """The horizon table of `rules` with its levels 1..top (default: as many as are saved, in a
    row from 1), or None when one of them is missing or fails a check of the store."""
    if not dense_rules(rules):
        return None
    if top is None:
        top = 0
        while top < MAX_TOP and all(path.exists() for path in
                                    table_paths(rules, directory, level_artifact(top + 1))):
            top += 1
    if top == 0:
        return None
    universe = full_universe(top)
    levels, seconds = [], []
    for k in range(1, top + 1):
        try:
            values, spent = _load_level(rules, universe, k, directory)
        except TableError:
            return None
        levels.append(values)
        seconds.append(spent)
    return HorizonTable(rules, universe, levels, seconds)


_LOADED = {}  # (rules, store directory) -> HorizonTable


def cached(rules, directory=None):
    """The saved horizon table of `rules` in the store, loaded once a process (None while there
    is none: looked for again at the next call, so a table built meanwhile is found)."""
    key = (rules, str(table_dir(directory)))
    found = _LOADED.get(key)
    if found is None:
        found = load(rules, directory=directory)
        if found is not None:
            _LOADED[key] = found
    return found


def build(rules, top=DEFAULT_TOP, directory=None, progress=None, threads=None, cancel=None,
          force=False):
    """Build (or finish) the horizon table of `rules` up to level `top` in the store; returns
    (HorizonTable, {level: seconds} of the levels built now).  A level already saved is loaded,
    not solved again (force: every level is solved again)."""
    if not dense_rules(rules):
        raise ValueError("the horizon table is for shared ties (the 2-player game is then "
                         "zero-sum); these rules have ties = 'lose'")
    if not 1 <= top <= MAX_TOP:
        raise ValueError(f"the horizon table has 1-{MAX_TOP} levels, got {top}")
    universe = full_universe(top)
    levels, seconds, built = [], [], {}
    for k in range(1, top + 1):
        try:
            if force:
                raise TableError("solved again")
            values, spent = _load_level(rules, universe, k, directory)
        except TableError:
            start = time.perf_counter()
            values = _solve_level(rules, universe, k, levels[-1] if levels else None, progress,
                                  threads, cancel)
            spent = built[k] = time.perf_counter() - start
            save_arrays(rules, level_artifact(k), {"values": values},
                        {"level": k, "positions": level_size(universe, k) // CODES,
                         "solve_seconds": spent}, directory)
            values, _ = _load_level(rules, universe, k, directory)  # mapped, as advice reads it
        levels.append(values)
        seconds.append(spent)
    return HorizonTable(rules, universe, levels, seconds), built


def _solve_level(rules, universe, k, lower, progress, threads, cancel):
    """Level k in float64 from level k - 1 (float32, as saved), rounded to float32 once."""
    below = (universe, lower if lower is not None else np.zeros(0, dtype=np.float32))
    objective = DenseObjective(universe, k, below, highest=k)
    backward_pass(rules, objective, progress, threads, label=f"horizon level {k}", cancel=cancel)
    return objective.store.levels.pop(k).astype(np.float32)


def level_paths(rules, top, directory=None):
    """The data files of levels 1..top in the store (for a report of their size)."""
    return [table_paths(rules, directory, level_artifact(k))[0] for k in range(1, top + 1)]
