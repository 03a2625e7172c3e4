"""The backward pass over DP levels (for a scorecard, the number of filled boxes), one kernel call
per level and chunk of its items, for any objective (objective.py): the expected score, the
target, the Dice Duel and the evaluation of a rule list all run their levels here."""
import time

import numpy as np
from tqdm import tqdm

from ..rules import PRESETS, Rules, RulesError
from .objective import EXPECTED_SCORE, sets_by_level  # noqa: F401  (sets_by_level: for callers)
from .store import ValueTable
from .threads import default_threads, map_parallel


def scorecard_rules(rules):
    """Rules, a scorecard preset name, or None (kniffel) -> Rules."""
    if rules is None:
        return PRESETS["kniffel"]
    if isinstance(rules, Rules):
        return rules
    if rules in PRESETS:
        return PRESETS[rules]
    raise RulesError(f"{getattr(rules, 'key', rules)} is not a scorecard rule set")


def backward_pass(rules, objective, progress=None, threads=None, label=None, within=0):
    """Solve every level of `objective` (objective.py) for `rules`, each from the levels solved
    before it: for a scorecard, from the last open box back to the empty card.  Returns (values,
    reachable mask (None when the objective has none), level_seconds).

    within: a filled-box mask; only the sets that contain it are solved (a sub-game)."""
    start = time.perf_counter()
    reachable = objective.reachable(rules)
    values = objective.values_array(rules, reachable)
    context = objective.context(rules)
    disable = None if progress is None else not progress
    threads = threads or default_threads()
    n_chunks = 4 * threads  # several chunks a thread, so uneven work evens out

    def solve_chunk(items):
        objective.solve_sets(rules, items, values, context)

    level_seconds = []  # (level, seconds since start) after each level: the cost curve
    for step, items in tqdm(objective.levels(rules, within), desc=label or f"solving {rules.key}",
                            unit="level", disable=disable, leave=False):
        if len(items) == 0:
            continue
        objective.start_level(rules, items, values, context)
        # strided chunks spread the heavy items; contiguous copies, since strided and
        # one-element slices would make numba compile the kernel twice, once for each layout
        map_parallel(solve_chunk, [np.ascontiguousarray(items[i::n_chunks])
                                   for i in range(n_chunks)], threads)
        objective.end_level(rules, items, values, context)
        level_seconds.append((step, time.perf_counter() - start))
    return values, reachable, level_seconds


def solve(rules=None, progress=None, threads=None):
    """Solve every reachable turn-start state of `rules` for the expected score; returns a
    ValueTable.

    progress: True/False to force the tqdm bar on stderr on or off; None shows it on a terminal.
    threads: kernel calls run at once (default: every CPU); the values are the same for any."""
    rules = scorecard_rules(rules)
    start = time.perf_counter()
    values, reachable, level_seconds = backward_pass(rules, EXPECTED_SCORE, progress, threads)
    return ValueTable(rules, values, states=int(reachable.sum()),
                      seconds=time.perf_counter() - start, level_seconds=level_seconds)
