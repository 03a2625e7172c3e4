"""The backward pass over DP levels (for a scorecard, the number of filled boxes), one kernel call
per level and chunk of its items, for any objective (objective.py): the expected score, the
target, the Dice Duel and the evaluation of a rule list all run their levels here."""
import contextlib
import time

import numpy as np
from tqdm import tqdm

from ..rules import Rules, RulesError
from .cancel import CANCEL, Cancelled, cancel_check  # noqa: F401  (Cancelled: for callers)
from .objective import EXPECTED_SCORE, sets_by_level  # noqa: F401  (sets_by_level: for callers)
from .threads import default_threads, executor, map_parallel
from .values import ValueTable


def backward_pass(rules, objective, progress=None, threads=None, label=None, within=0, cancel=None,
                  done=0):
    """Solve every level of `objective` (objective.py) for `rules`, each from the levels solved
    before it: for a scorecard, from the last open box back to the empty card.  Returns (values,
    reachable mask (None when the objective has none), level_seconds).

    within: a filled-box mask; only the sets that contain it are solved (a sub-game).
    cancel: a callable or threading.Event, asked once before each level (default: CANCEL's);
    when true, the pass raises Cancelled (a level's kernels are not interrupted).
    done: levels solved before (a resumed solve, whose objective's levels() leaves them out):
    the progress bar starts there."""
    start = time.perf_counter()
    reachable = objective.reachable(rules)
    values = objective.values_array(rules, reachable)
    context = objective.context(rules)
    disable = None if progress is None else not progress
    threads = threads or default_threads()
    n_chunks = 4 * threads  # several chunks a thread, so uneven work evens out
    stop = cancel_check(cancel if cancel is not None else CANCEL.get())

    def solve_chunk(items):
        objective.solve_sets(rules, items, values, context)

    level_seconds = []  # (level, seconds since start) after each level: the cost curve
    # one pool for every level: a warm solve is a few hundred milliseconds, 13 pools cost ms
    with executor(threads) if threads > 1 else contextlib.nullcontext() as pool:
        levels = objective.levels(rules, within)
        bar = tqdm(levels, unit="level", desc=label or f"solving {rules.key}", disable=disable,
                   leave=False, initial=done, total=done + len(levels) if done else None)
        for count, (step, items) in enumerate(bar, start=done):
            if stop():
                raise Cancelled(f"stopped after {count} levels")
            if len(items) == 0:
                continue
            objective.start_level(rules, items, values, context)
            # strided chunks spread the heavy items; contiguous copies, since strided and
            # one-element slices would make numba compile the kernel twice, once for each layout
            map_parallel(solve_chunk, [np.ascontiguousarray(items[i::n_chunks])
                                       for i in range(n_chunks)], threads, pool)
            objective.end_level(rules, items, values, context)
            level_seconds.append((step, time.perf_counter() - start))
    return values, reachable, level_seconds


def solve(rules, progress=None, threads=None):
    """Solve every reachable turn-start state of `rules` (a scorecard Rules) for the expected
    score; returns a ValueTable.

    progress: True/False to force the tqdm bar on stderr on or off; None shows it on a terminal.
    threads: kernel calls run at once (default: every CPU); the values are the same for any."""
    if not isinstance(rules, Rules):  # read once, where the question was (presets.read_rules)
        raise RulesError(f"{rules!r} is not the rules of a scorecard game"[:200])
    start = time.perf_counter()
    values, reachable, level_seconds = backward_pass(rules, EXPECTED_SCORE, progress, threads)
    return ValueTable(rules, values, states=int(reachable.sum()),
                      seconds=time.perf_counter() - start, level_seconds=level_seconds)
