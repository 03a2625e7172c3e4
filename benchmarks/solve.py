"""Benchmark the full solve and the advisor; writes JSON (default benchmarks/results/solve.json).

For each preset, in fresh processes:
  cold_seconds         first solve with an empty numba cache (compiles the kernels)
  first_call_seconds   first solve in a new process with the numba cache present
  warm_seconds         best of --repeat further solves in that same process
  peak_rss_mb          peak resident memory of that process
and `kniffel advise` from a saved table, timed as whole processes (best of --repeat).

    python benchmarks/solve.py --presets yahtzee kniffel --repeat 5
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
PEERS = {"note": "published open-source solvers, same yahtzee solve on this machine, float64 "
                 "(figures from the issue tracker, not measured by this script)",
         "rust_2_threads_seconds": 3.6, "c_1_thread_seconds": 5.3}

SOLVE_SNIPPET = """
import json, resource, sys, time
t0 = time.perf_counter()
from solver.dp import solve
import_seconds = time.perf_counter() - t0
t = time.perf_counter(); table = solve(sys.argv[1], progress=False); first = time.perf_counter() - t
warm = []
for _ in range(int(sys.argv[2])):
    t = time.perf_counter(); solve(sys.argv[1], progress=False); warm.append(time.perf_counter() - t)
print(json.dumps({"import_seconds": import_seconds, "first_call_seconds": first,
                  "warm_seconds": min(warm) if warm else None, "warm_all": warm,
                  "states": table.states, "expected_score": table.expected_score,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run_solve(preset, repeat, env):
    out = subprocess.run([sys.executable, "-c", SOLVE_SNIPPET, preset, str(repeat)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def time_advise(preset, tables, repeat):
    cmd = [sys.executable, "-m", "solver.cli", "advise", "--rules", preset, "--tables", tables,
           "--dice", "1,3,3,5,6", "--rolls-left", "2", "--json"]
    subprocess.run(cmd, check=True, capture_output=True)  # solves and saves the table if needed
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return {"best_seconds": min(times), "median_seconds": sorted(times)[len(times) // 2]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", nargs="+", default=["yahtzee"])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-cold", action="store_true", help="skip the empty-cache compile run")
    parser.add_argument("--out", default=str(HERE / "results" / "solve.json"))
    args = parser.parse_args()

    from solver import __version__
    import numba
    results = {"machine": {"python": platform.python_version(), "platform": platform.platform(),
                           "processor": platform.processor() or platform.machine(),
                           "cpus": os.cpu_count(), "numba": numba.__version__,
                           "numba_threads": numba.config.NUMBA_NUM_THREADS},
               "package_version": __version__, "peers": PEERS, "presets": {}}
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as scratch:
        for preset in args.presets:
            entry = {}
            if not args.no_cold:
                cold_env = dict(env, NUMBA_CACHE_DIR=str(Path(scratch) / f"numba-{preset}"))
                entry["cold_seconds"] = run_solve(preset, 0, cold_env)["first_call_seconds"]
            entry.update(run_solve(preset, args.repeat, env))
            entry["advise_process"] = time_advise(preset, str(Path(scratch) / "tables"), args.repeat)
            results["presets"][preset] = entry
            print(f"{preset:22s} warm {entry['warm_seconds']:.3f} s  first call "
                  f"{entry['first_call_seconds']:.3f} s  cold {entry.get('cold_seconds', float('nan')):.1f} s  "
                  f"peak {entry['peak_rss_mb']:.0f} MB  advise {entry['advise_process']['best_seconds']:.3f} s",
                  file=sys.stderr)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    print(args.out)


if __name__ == "__main__":
    main()
