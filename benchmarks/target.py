"""Benchmark the target table (`kniffel solve --objective target`); writes JSON (default
benchmarks/results/target.json).

Per preset, each in a fresh process with the numba cache present (compiled kernels), on
--threads threads:
  expected_seconds        the expected-score solve, warm (the reference figure, same run)
  target_seconds          the target table from scratch (its expected-score values given)
  target_first_seconds    the same, the first call in its process (the compile is cached)
  ratio                   target_seconds / expected_seconds
  entries, stored_bytes   (state, d) values kept and the size of the saved .target.bin (W and E in
                          float32)
  peak_rss_mb             peak resident memory of the target-solve process (each level kept in
                          float32 once no level reads it, as the store saves it)
  float32_rounding        the most any W and E moved when kept in float32 (the solve reads
                          every level in float64, so this is all the precision given up)
  level_seconds           [open boxes, seconds since the start] after each level
  advise_target_seconds   `kniffel advise --target T` from the saved table, whole process
  python_numpy_start_seconds  `python -c "import numpy"`, whole process (the same run's floor)

With --sub-game K, for a card with K open boxes (the first boxes filled with 0), in a fresh
process: the target sub-game with and without the E plane (tie_break / chance_only), an
opponent's exact distribution (opponent_distribution_seconds), and the win objective at the
turn start against that opponent (win_turn_start_seconds; it solves the states that can follow
the card only), and again for the card with the last boxes filled instead, every upper box open
(win_turn_start_upper_open_seconds: every upper total can follow, the most such a solve has).

    python benchmarks/target.py --rules kniffel --threads 2
    python benchmarks/target.py --rules kniffel --sub-game 6 --sub-game 8 \
        --out benchmarks/results/target_sub.json

With --win-from-empty: the win objective from the empty card against one opponent at the empty
card, in a fresh process (win_from_empty_card_seconds, beside the same run's expected-score
solve).

    python benchmarks/target.py --rules kniffel --win-from-empty \
        --out benchmarks/results/target_win_empty.json
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

SNIPPET = """
import json, resource, sys, time
from solver.engine.backward import backward_pass, solve
from solver.engine.target.solve import solve_target
from solver.presets import read_rules
rules, threads, out = read_rules(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
solve(rules, progress=False, threads=threads)  # warm the expected-score kernels
expected = []
for _ in range(3):
    t = time.perf_counter(); table = solve(rules, progress=False, threads=threads)
    expected.append(time.perf_counter() - t)
t = time.perf_counter()
target = solve_target(rules, progress=False, threads=threads, expected=table.values)
first = time.perf_counter() - t
table.save(out)
path = target.save(out)
print(json.dumps({"expected_seconds": min(expected), "target_first_seconds": first,
                  "entries": target.entries, "stored_bytes": path.stat().st_size,
                  "level_seconds": target.level_seconds, "float32_rounding": target.rounding,
                  "chance_from_empty_card": {t: target.lookup_raw(0, 0, 0, t)[0]
                                             for t in (200, 250, 300, 350, 400)},
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


SUB_GAME = """
import json, resource, sys, time
import numpy as np
from solver.engine.backward import solve
from solver.engine.states import Position, position_state
from solver.engine.target.solve import solve_target
from solver import advise, win_goal
from solver.advice.limits import MAX_BUDGET
from solver.advice.win.sub_game import opponent_distribution
from solver.presets import read_rules
rules, threads, k = read_rules(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
goal = lambda rival: win_goal([{"card": rival}], budget=MAX_BUDGET)  # the exact sub-game
table = solve(rules, progress=False, threads=threads)
expected = []
for _ in range(3):
    t = time.perf_counter(); table = solve(rules, progress=False, threads=threads)
    expected.append(time.perf_counter() - t)
card = {b: 0 for b in rules.boxes[:rules.n_boxes - k]}
state = position_state(Position(card), rules)
out = {"expected_seconds": min(expected), "open_boxes": k}
for tie_break in (True, False):
    solve_target(rules, progress=False, threads=threads, expected=table.values, within=state.filled,
                 tie_break=tie_break)  # compile / warm
    t = time.perf_counter()
    sub = solve_target(rules, progress=False, threads=threads, expected=table.values,
                       within=state.filled, tie_break=tie_break)
    out["tie_break" if tie_break else "chance_only"] = {
        "seconds": time.perf_counter() - t, "entries": sub.entries,
        "us_per_column_thread": (time.perf_counter() - t) * threads / max(1, sub.entries) * 1e6}
rival = {b: 0 for b in rules.boxes[:rules.n_boxes - min(k, 9)]}
t = time.perf_counter(); opponent_distribution(table, {"card": rival})
out["opponent_distribution_seconds"] = time.perf_counter() - t
out["opponent_open_boxes"] = min(k, 9)
t = time.perf_counter()
out["win_turn_start_method"] = advise(Position(card), table, objective=goal(rival)).method
out["win_turn_start_seconds"] = time.perf_counter() - t
# the same with the last boxes filled instead: every upper box open, so that every upper total
# can follow (the most states a win sub-game with k open boxes solves)
late = {b: 0 for b in rules.boxes[k:]}
t = time.perf_counter()
advise(Position(late), table, objective=goal(rival))
out["win_turn_start_upper_open_seconds"] = time.perf_counter() - t
out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def run_sub_game(name, threads, k):
    """Figures for the sub-game of a card with `k` open boxes (see --sub-game)."""
    out = subprocess.run([sys.executable, "-c", SUB_GAME, name, str(threads), str(k)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


WIN_EMPTY = """
import json, resource, sys, time
from solver.engine.backward import solve
from solver.engine.states import Position
from solver.advice.goal import win_goal
from solver.advice.limits import MAX_BUDGET
from solver.advice.win.coach import win_advice
from solver.presets import read_rules
rules, threads = read_rules(sys.argv[1]), int(sys.argv[2])
solve(rules, progress=False, threads=threads)
t = time.perf_counter(); table = solve(rules, progress=False, threads=threads)
out = {"expected_seconds": time.perf_counter() - t}
t = time.perf_counter()
# the exact sub-game of the whole game: over any budget the coach affords, so forced
win = win_advice(Position({}), table, win_goal([{"card": {}}], budget=MAX_BUDGET), force="exact")
out["win_from_empty_card_seconds"] = time.perf_counter() - t
out["ratio"] = out["win_from_empty_card_seconds"] / out["expected_seconds"]
out["probability"] = win.probability
out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def run_win_from_empty(name, threads):
    """The win objective from the empty card against one opponent at the empty card."""
    out = subprocess.run([sys.executable, "-c", WIN_EMPTY, name, str(threads)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_preset(name, threads, store, advise=True):
    """One preset's figures (see the module docstring)."""
    env = dict(os.environ, KNIFFEL_TABLES=store)
    out = subprocess.run([sys.executable, "-c", SNIPPET, name, str(threads), store], env=env,
                         capture_output=True, text=True, check=True)
    entry = json.loads(out.stdout.strip().splitlines()[-1])
    entry["target_seconds"] = entry["target_first_seconds"]  # one solve: the kernels were cached
    entry["ratio"] = entry["target_seconds"] / entry["expected_seconds"]
    if not advise:
        return entry
    times = []
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "solver.cli", "advise", "--rules", name, "--dice",
                        "1,3,3,5,6", "--target", "250", "--json"], env=env, capture_output=True,
                       check=True)
        times.append(time.perf_counter() - t)
    entry["advise_target_seconds"] = min(times)
    times = []  # the floor under any whole-process figure: the interpreter and numpy alone
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import numpy"], check=True)
        times.append(time.perf_counter() - t)
    entry["python_numpy_start_seconds"] = min(times)
    return entry


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", action="append", help="preset (repeat; default kniffel)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--no-advise", action="store_true", help="skip the advise timing")
    parser.add_argument("--out", default=str(HERE / "results" / "target.json"))
    parser.add_argument("--store", help="keep the tables in this folder (default: a temporary one)")
    parser.add_argument("--sub-game", type=int, action="append", metavar="K",
                        help="instead of the whole table: the sub-game of a card with K open boxes "
                             "(target solve with and without the E plane, the win objective at its "
                             "turn start, an opponent's distribution); repeat for several K")
    parser.add_argument("--win-from-empty", action="store_true",
                        help="instead of the whole table: the win objective from the empty card "
                             "against one opponent at the empty card (a fresh process)")
    args = parser.parse_args()
    if args.win_from_empty:
        results = {"machine": {"cpus": os.cpu_count(),
                               "load_average_at_start": os.getloadavg()[0]},
                   "threads": args.threads,
                   "command": "python benchmarks/target.py " + " ".join(sys.argv[1:]),
                   "win_from_empty_card": {}}
        for name in args.rules or ["kniffel"]:
            entry = run_win_from_empty(name, args.threads)
            results["win_from_empty_card"][name] = entry
            print(name, json.dumps(entry), flush=True)
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
        return
    if args.sub_game:
        results = {"machine": {"cpus": os.cpu_count(),
                               "load_average_at_start": os.getloadavg()[0]},
                   "threads": args.threads,
                   "command": "python benchmarks/target.py " + " ".join(sys.argv[1:]),
                   "sub_games": {}}
        for name in args.rules or ["kniffel"]:
            for k in args.sub_game:
                entry = run_sub_game(name, args.threads, k)
                results["sub_games"][f"{name}/{k}"] = entry
                print(name, k, json.dumps(entry), flush=True)
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
        return
    results = {"machine": {"cpus": os.cpu_count(),
                           "processor": platform.processor() or platform.machine(),
                           "python": platform.python_version(),
                           "load_average_at_start": os.getloadavg()[0]},
               "threads": args.threads,
               "command": "python benchmarks/target.py " + " ".join(sys.argv[1:]),
               "presets": {}}
    with tempfile.TemporaryDirectory() as scratch:
        store = args.store or scratch
        for name in args.rules or ["kniffel"]:
            entry = run_preset(name, args.threads, store, advise=not args.no_advise)
            results["presets"][name] = entry
            print(name, json.dumps({k: v for k, v in entry.items() if k != "level_seconds"}),
                  flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
