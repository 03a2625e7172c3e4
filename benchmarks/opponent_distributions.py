"""Benchmark an opponent's final-score distribution at every turn (playing to win needs one per
opponent still playing, every decision); writes JSON (default
benchmarks/results/opponent_distributions.json).

Per preset, in this process with the expected-score table loaded:
  store_build_seconds    building the per-rules store (solver/stats/opponents.py), once (null
                         when it was saved before: --rebuild measures it)
  store_mb, store_states its size and the states it holds (those with >= min_open open boxes)
  by_open[n]             for --samples states with n open boxes that a player who plays for
                         points meets (drawn, seeded, from the forward pass of the empty card):
                           afresh_seconds  the forward + backward pass from that state (warm,
                                           the mean and the largest), as before the store
                           served_seconds  points_to_come as the coach calls it (store or afresh,
                                           first request of that state in the process)
                           max_abs_diff    store against afresh (must be 0 or rounding)
The goal: served_seconds <= 0.05 at every n.

    python benchmarks/opponent_distributions.py --rules kniffel --samples 3
"""
import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
GOAL_SECONDS = 0.05


def sample_states(table, passed, n_open, samples, rng):
    """Up to `samples` turn-start States with `n_open` open boxes, drawn by how likely a player
    who plays for points meets them."""
    from solver.engine.states import State
    rules = table.rules
    level = passed.levels[rules.n_boxes - n_open]
    p = level.weight / level.weight.sum()
    picks = rng.choice(len(level.states), size=min(samples, len(level.states)), replace=False, p=p)
    n_aux, n_upper = table.values.shape[1], table.values.shape[2]
    out = []
    for flat in level.states[picks].tolist():
        filled, rest = divmod(flat, n_aux * n_upper)
        aux, upper = divmod(rest, n_upper)
        out.append(State(filled, aux, upper, upper, 0, n_open))
    return out


def measure(preset, samples, seed, rebuild=False, most_open=None):
    import solver
    from solver.stats import opponents
    from solver.stats.distribution import forward
    table = solver.get_table(preset)
    rng = np.random.default_rng(seed)
    build_seconds = None  # the store was saved before (get_store loads it)
    store = opponents.load(table) if not rebuild else None
    if store is None:
        t = time.perf_counter()
        store = opponents.build(table)
        build_seconds = time.perf_counter() - t
        opponents.save(store)
    passed = forward(table)
    opponents._afresh(table, sample_states(table, passed, 2, 1, rng)[0])  # compile
    by_open = {}
    for n_open in range(1, (most_open or table.rules.n_boxes) + 1):
        afresh, served, diff = [], [], 0.0
        for state in sample_states(table, passed, n_open, samples, rng):
            store.recent.clear()
            t = time.perf_counter()
            low, probs = opponents.points_to_come(table, state, store)
            served.append(time.perf_counter() - t)
            t = time.perf_counter()
            low2, probs2 = opponents._afresh(table, state)
            afresh.append(time.perf_counter() - t)
            a, b = np.zeros(2000), np.zeros(2000)
            a[low:low + len(probs)], b[low2:low2 + len(probs2)] = probs, probs2
            diff = max(diff, float(np.abs(a - b).max()))
        by_open[n_open] = {"samples": len(served), "afresh_seconds_mean": float(np.mean(afresh)),
                           "afresh_seconds_max": float(np.max(afresh)),
                           "served_seconds_mean": float(np.mean(served)),
                           "served_seconds_max": float(np.max(served)), "max_abs_diff": diff,
                           "from_store": n_open >= store.min_open}
        print(preset, n_open, by_open[n_open], flush=True)
    return {"store_build_seconds": build_seconds, "store_mb": store.probs.nbytes / 1e6,
            "load_average": os.getloadavg()[0],
            "store_states": len(store.keys), "min_open": store.min_open, "by_open": by_open,
            "served_max_seconds": max(v["served_seconds_max"] for v in by_open.values()),
            "goal_seconds": GOAL_SECONDS}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", action="append", help="preset (repeat; default kniffel, yatzy)")
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--rebuild", action="store_true", help="build the store even if saved")
    parser.add_argument("--most-open", type=int, help="measure states with at most this many open "
                        "boxes (default: every number; a quick run)")
    parser.add_argument("--out", default=str(HERE / "results" / "opponent_distributions.json"))
    args = parser.parse_args()
    results = {p: measure(p, args.samples, args.seed, args.rebuild, args.most_open)
               for p in args.rules or ["kniffel", "yatzy"]}
    out = {"benchmark": "opponent_distributions", "machine": platform.machine(),
           "cores": os.cpu_count(), "python": platform.python_version(),
           "load_average": os.getloadavg()[0], "samples": args.samples, "results": results}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
