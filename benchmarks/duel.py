"""Benchmark the Dice Duel solve and advice; writes JSON (default benchmarks/results/duel.json).

In fresh processes:
  cold_seconds         first solve with an empty numba cache (compiles the kernels)
  first_call_seconds   first solve in a new process with the numba cache present
  warm_seconds         best of --repeat further solves in that same process (null for --repeat 0,
                       and so the one-thread solve and the simulation)
  threads_1_warm_seconds  one warm solve on one thread
  peak_rss_mb          peak resident memory of that process
  states               states in the table (all reachable), and how many were solved (not over)
  advise_process       `kniffel advise --rules dice-duel` from a saved table, whole process
  simulate_games_per_second  optimal play, warm

    python benchmarks/duel.py --repeat 3
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
TARGET_SECONDS = 60  # the target for the solve on 2 cores

SOLVE_SNIPPET = """
import json, resource, sys, time
from solver.duel.solo.solve import simulate, solve
from solver.duel.states import all_states
from solver.engine.threads import default_threads
t = time.perf_counter(); table = solve(sys.argv[1], progress=False); first = time.perf_counter() - t
warm = []
for _ in range(int(sys.argv[2])):
    t = time.perf_counter()
    solve(sys.argv[1], progress=False)
    warm.append(time.perf_counter() - t)
one = None
if warm:
    t = time.perf_counter()
    solve(sys.argv[1], progress=False, threads=1)
    one = time.perf_counter() - t
    simulate(table, 200, seed=1)  # compile
    t = time.perf_counter()
    sim = simulate(table, 10000, seed=1)
    games = 10000 / (time.perf_counter() - t)
plate, _ = all_states()
print(json.dumps({"first_call_seconds": first, "warm_seconds": min(warm) if warm else None,
                  "warm_all": warm, "threads_1_warm_seconds": one, "threads": default_threads(),
                  "states": table.states, "states_solved": int((plate.sum(axis=1) > 0).sum()),
                  "expected_score": table.expected_score,
                  "simulate_games_per_second": games if warm else None,
                  "simulated_mean": sim.mean if warm else None,
                  "simulated_standard_error": sim.standard_error if warm else None,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run_json(snippet, args, env):
    out = subprocess.run([sys.executable, "-c", snippet, *args], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)


def time_process(cmd, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return {"best_seconds": min(times), "median_seconds": sorted(times)[len(times) // 2]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="dice-duel")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-cold", action="store_true", help="skip the empty-cache compile run")
    parser.add_argument("--out", default=str(HERE / "results" / "duel.json"))
    args = parser.parse_args()

    import numba

    from solver import __version__
    from solver.engine.threads import default_threads
    results = {"machine": {"python": platform.python_version(), "platform": platform.platform(),
                           "processor": platform.processor() or platform.machine(),
                           "cpus": os.cpu_count(), "numba": numba.__version__,
                           "threads": default_threads()},
               "package_version": __version__, "rules": args.rules,
               "target_seconds": TARGET_SECONDS}
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as scratch:
        if not args.no_cold:
            cold_env = dict(env, KNIFFEL_KERNEL_CACHE=str(Path(scratch) / "numba"))
            cold = run_json(SOLVE_SNIPPET, [args.rules, "0"], cold_env)
            results["cold_seconds"] = cold["first_call_seconds"]
        results.update(run_json(SOLVE_SNIPPET, [args.rules, str(args.repeat)], env))
        tables = str(Path(scratch) / "tables")
        advise = [sys.executable, "-m", "solver.cli", "advise", "--rules", args.rules, "--tables",
                  tables, "--chips", "ls=0/1/3,4k=2/0/2", "--dice", "2,3,4,5,6",
                  "--rolls-left", "2", "--json"]
        subprocess.run(advise, check=True, capture_output=True)  # solves and saves the table
        results["advise_process"] = time_process(advise, max(3, args.repeat))
    results["within_target"] = results["first_call_seconds"] < TARGET_SECONDS
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    warm = "" if results["warm_seconds"] is None else (  # --repeat 0: the first call alone
        f"warm {results['warm_seconds']:.2f} s "
        f"(1 thread {results['threads_1_warm_seconds']:.2f} s), "
        f"simulate {results['simulate_games_per_second']:,.0f} games/s, ")
    print(f"{args.rules}: {results['states']:,} states ({results['states_solved']:,} solved), "
          f"expected {results['expected_score']:.4f}; {warm}"
          f"first call {results['first_call_seconds']:.2f} s, "
          f"cold {results.get('cold_seconds', float('nan')):.1f} s, "
          f"peak {results['peak_rss_mb']:.0f} MB, "
          f"advise {results['advise_process']['best_seconds']:.3f} s", file=sys.stderr)
    print(args.out)


if __name__ == "__main__":
    main()
