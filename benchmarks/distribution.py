"""Benchmark the exact score distribution (`kniffel distribution`); writes JSON (default
benchmarks/results/distribution.json).

Per preset, in a fresh process with the table already solved and the numba cache present:
  first_call_seconds   score_distribution from the empty card, first call in the process
  warm_seconds         best of --repeat further calls (null for --repeat 0)
  forward_seconds      the forward pass alone (warm), the larger part
  states               states the optimal player meets with positive probability
  peak_rss_mb          peak resident memory of the process
  mean_minus_table     the distribution's mean minus the table value (must be below 1e-9)

    python benchmarks/distribution.py --repeat 2
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
TARGET_SECONDS = 60  # the target for a 13-box preset on 2 cores

SNIPPET = """
import json, resource, sys, time
from solver import load_table
from solver.stats.distribution import forward, score_distribution
table = load_table(sys.argv[1], sys.argv[2])
t = time.perf_counter(); dist = score_distribution(table); first = time.perf_counter() - t
warm, fwd = [], []
for _ in range(int(sys.argv[3])):
    t = time.perf_counter(); score_distribution(table); warm.append(time.perf_counter() - t)
    t = time.perf_counter(); forward(table); fwd.append(time.perf_counter() - t)
s = dist.summary()
print(json.dumps({"first_call_seconds": first, "warm_seconds": min(warm, default=None),
                  "forward_seconds": min(fwd, default=None),
                  "states": dist.states, "mean": s["mean"], "sd": s["sd"], "median": s["median"],
                  "mean_minus_table": s["mean"] - table.expected_score,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", action="append",
                        help="preset (repeat; default: every scorecard preset)")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--out", default=str(HERE / "results" / "distribution.json"))
    args = parser.parse_args()
    from solver.rules import PRESETS
    presets = args.rules or list(PRESETS)
    results = {}
    with tempfile.TemporaryDirectory() as store:
        for preset in presets:
            subprocess.run([sys.executable, "-m", "solver.cli", "solve", "--rules", preset,
                            "--tables", store, "--quiet"], check=True, stdout=subprocess.DEVNULL)
            out = subprocess.run([sys.executable, "-c", SNIPPET, preset, store, str(args.repeat)],
                                 check=True, capture_output=True, text=True).stdout
            results[preset] = json.loads(out.strip().splitlines()[-1])
            entry = results[preset]
            warm = "" if entry["warm_seconds"] is None else f"{entry['warm_seconds']:.1f} s warm, "
            print(f"{preset}: {warm}{entry['first_call_seconds']:.1f} s first call",
                  file=sys.stderr)
    report = {"machine": {"cpus": len(os.sched_getaffinity(0)), "python": platform.python_version(),
                          "processor": platform.machine()},
              "date": time.strftime("%Y-%m-%d"), "target_seconds": TARGET_SECONDS,
              "presets": results}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    print(args.out)


if __name__ == "__main__":
    main()
