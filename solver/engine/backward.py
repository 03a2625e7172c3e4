"""The backward pass over DP levels (number of filled boxes), one kernel call per level."""
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from tqdm import tqdm

from . import dice, kernels
from .rules import resolve_rules
from .state import aux_reachable, reachable_mask, upper_reachable
from .table import ValueTable
from .threads import default_threads


def sets_by_level(n_boxes):
    """Filled-box masks grouped by how many boxes are filled."""
    masks = np.arange(1 << n_boxes, dtype=np.int64)
    counts = np.array([bin(m).count("1") for m in range(1 << n_boxes)])
    return [masks[counts == level] for level in range(n_boxes + 1)]


def solve(rules=None, progress=None, threads=None):
    """Solve every reachable turn-start state of `rules`; returns a ValueTable.

    progress: True/False to force the tqdm bar on stderr on or off; None shows it on a terminal.
    threads: kernel calls run at once (default: every CPU); the values are the same for any.
    """
    rules = resolve_rules(rules)
    start = time.perf_counter()
    n = rules.n_boxes
    reachable = reachable_mask(rules)
    values = np.full(reachable.shape, np.nan)
    values[-1][reachable[-1]] = 0.0  # the game is over: nothing more to score
    upper_reach = upper_reachable(rules)
    aux_reach = aux_reachable(rules)
    game = rules.kernel_arrays()
    moves = dice.kernel_arrays()
    levels = sets_by_level(n)
    disable = None if progress is None else not progress
    threads = threads or default_threads()
    n_chunks = 4 * threads  # several chunks a thread, so uneven sets even out

    def solve_chunk(sets):
        kernels._solve_sets(sets, values, upper_reach, aux_reach, game, moves, rules.rolls_per_turn)

    level_seconds = []  # (open boxes, seconds since start) after each level: the cost curve
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for level in tqdm(range(n - 1, -1, -1), desc=f"solving {rules.key}", unit="level",
                          disable=disable, leave=False):
            # contiguous copies: strided and one-element slices would make numba compile the
            # kernel twice, once for each memory layout
            list(pool.map(solve_chunk, [np.ascontiguousarray(levels[level][i::n_chunks])
                                        for i in range(n_chunks)]))
            level_seconds.append((n - level, time.perf_counter() - start))
    return ValueTable(rules, values, states=int(reachable.sum()),
                      seconds=time.perf_counter() - start, level_seconds=level_seconds)
