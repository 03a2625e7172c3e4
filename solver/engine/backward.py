"""The backward pass over DP levels (number of filled boxes), one kernel call per level and
chunk of filled-box sets, for any objective (objective.py)."""
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from tqdm import tqdm

from ..rules import PRESETS, Rules, RulesError
from .objective import EXPECTED_SCORE
from .states import reachable_mask
from .store import ValueTable
from .threads import default_threads


def sets_by_level(n_boxes):
    """Filled-box masks grouped by how many boxes are filled."""
    masks = np.arange(1 << n_boxes, dtype=np.int64)
    counts = np.array([bin(m).count("1") for m in range(1 << n_boxes)])
    return [masks[counts == level] for level in range(n_boxes + 1)]


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
    """Solve every reachable turn-start state of `rules` for `objective`, from the last open box
    back to the empty card.  Returns (values, reachable mask, level_seconds).

    within: a filled-box mask; only the sets that contain it are solved (a sub-game)."""
    start = time.perf_counter()
    n = rules.n_boxes
    reachable = reachable_mask(rules)
    values = objective.values_array(rules, reachable)
    context = objective.context(rules)
    levels = [sets[(sets & within) == within] for sets in sets_by_level(n)]
    disable = None if progress is None else not progress
    threads = threads or default_threads()
    n_chunks = 4 * threads  # several chunks a thread, so uneven sets even out

    def solve_chunk(sets):
        objective.solve_sets(rules, sets, values, context)

    level_seconds = []  # (open boxes, seconds since start) after each level: the cost curve
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for level in tqdm(range(n - 1, -1, -1), desc=label or f"solving {rules.key}", unit="level",
                          disable=disable, leave=False):
            # contiguous copies: strided and one-element slices would make numba compile the
            # kernel twice, once for each memory layout
            if len(levels[level]) == 0:
                continue
            objective.start_level(rules, levels[level], values, context)
            list(pool.map(solve_chunk, [np.ascontiguousarray(levels[level][i::n_chunks])
                                        for i in range(n_chunks)]))
            objective.end_level(rules, levels[level], values, context)
            level_seconds.append((n - level, time.perf_counter() - start))
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
