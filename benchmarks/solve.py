"""Benchmark solving and advising; writes JSON (default benchmarks/results/solve.json).

For each preset, in fresh processes:
  cold_seconds         first solve with an empty numba cache (compiles the kernels)
  first_call_seconds   first solve in a new process with the numba cache present
  warm_seconds         best of --repeat further solves in that same process
  threads_1_warm_seconds  the same on one thread
  peak_rss_mb          peak resident memory of that process
  scaling              seconds to solve every state with at most k open boxes, k = 1 ..
  advise_process       `kniffel advise` from a saved table, whole process (best / median)
  batch                `kniffel advise --batch` positions per second (30,000 random positions)

    python benchmarks/solve.py --presets yahtzee kniffel knobeln yatzy --repeat 5
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
PEERS = {"note": "published open-source solvers, the same yahtzee solve on this machine, float64 "
                 "(figures quoted in the issue tracker, not measured by this script)",
         "rust_2_threads_seconds": 3.6, "c_1_thread_seconds": 5.3}

SOLVE_SNIPPET = """
import json, resource, sys, time
t0 = time.perf_counter()
import numba
from solver.dp import solve
from solver.threads import default_threads
import_seconds = time.perf_counter() - t0
t = time.perf_counter(); table = solve(sys.argv[1], progress=False); first = time.perf_counter() - t
warm, scaling = [], None
for _ in range(int(sys.argv[2])):
    t = time.perf_counter(); again = solve(sys.argv[1], progress=False); warm.append(time.perf_counter() - t)
    if scaling is None or again.seconds < scaling[0]:
        scaling = (again.seconds, again.level_seconds)
one = []
if warm:
    for _ in range(max(1, int(sys.argv[2]) // 2)):
        t = time.perf_counter(); solve(sys.argv[1], progress=False, threads=1); one.append(time.perf_counter() - t)
print(json.dumps({"import_seconds": import_seconds, "first_call_seconds": first,
                  "warm_seconds": min(warm) if warm else None, "warm_all": warm,
                  "threads_1_warm_seconds": min(one) if one else None,
                  "threads": default_threads(),
                  "states": table.states, "expected_score": table.expected_score,
                  "scaling": [{"open_boxes": k, "seconds": s} for k, s in scaling[1]] if scaling else None,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

BATCH_SNIPPET = """
import json, sys
import numpy as np
from solver import dice
from solver.rules import resolve_rules
rules = resolve_rules(sys.argv[1])
rng = np.random.default_rng(1)
for _ in range(int(sys.argv[2])):
    n = int(rng.integers(0, rules.n_boxes - 1))
    boxes = rng.choice(rules.n_boxes, n, replace=False)
    card = {rules.boxes[b]: int(rules.plain_score[b, rng.integers(dice.N_ROLLS)]) for b in boxes}
    print(json.dumps({"card": card, "dice": list(dice.KEEPS[int(rng.integers(dice.N_ROLLS))]),
                      "rolls_left": int(rng.integers(0, rules.rolls_per_turn))}))
"""


def run_json(snippet, args, env):
    out = subprocess.run([sys.executable, "-c", snippet, *args], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)


def time_process(cmd, repeat, stdin=None):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       stdin=open(stdin) if stdin else None)
        times.append(time.perf_counter() - t)
    return {"best_seconds": min(times), "median_seconds": sorted(times)[len(times) // 2]}


def summary_markdown(results):
    """A Markdown summary of a results JSON (every figure read from it)."""
    machine = results["machine"]
    lines = [f"Measured on {machine['cpus']} CPUs ({machine['processor']}), Python {machine['python']}, "
             f"numba {machine['numba']}, {machine['threads']} threads; kniffel "
             f"{results['package_version']}. Peers: {results['peers']['note']}: Rust (2 threads) "
             f"{results['peers']['rust_2_threads_seconds']} s, C (1 thread) "
             f"{results['peers']['c_1_thread_seconds']} s.", "",
             "| preset | states | warm solve | 1 thread | first call | cold (compile) | peak RSS | "
             "advise (process) | batch |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, e in results["presets"].items():
        cold = f"{e['cold_seconds']:.1f} s" if "cold_seconds" in e else "-"
        lines.append(f"| `{name}` | {e['states']:,} | {e['warm_seconds']:.3f} s | "
                     f"{e['threads_1_warm_seconds']:.3f} s | {e['first_call_seconds']:.2f} s | {cold} | "
                     f"{e['peak_rss_mb']:.0f} MB | {e['advise_process']['best_seconds']:.3f} s | "
                     f"{e['batch']['per_second']:,.0f}/s |")
    first = next(iter(results["presets"].values()))
    if first.get("scaling"):
        lines += ["", f"Cost curve ({next(iter(results['presets']))}): seconds to solve every state "
                      "with at most k open boxes.", "",
                  "| k | " + " | ".join(str(p["open_boxes"]) for p in first["scaling"]) + " |",
                  "|---|" + "---:|" * len(first["scaling"]),
                  "| s | " + " | ".join(f"{p['seconds']:.3f}" for p in first["scaling"]) + " |"]
    first_run = HERE / "results" / "first_run.json"
    if first_run.exists():  # written by benchmarks/first_run.py
        f = json.loads(first_run.read_text())
        lines += ["", f"First run on a fresh virtual environment (benchmarks/first_run.py): install "
                      f"{f['install_seconds']:.1f} s + first `kniffel advise` {f['first_advise_seconds']:.1f} s "
                      f"(compiles, solves, saves) = {f['install_plus_first_advise_seconds']:.1f} s; "
                      f"the second advise {f['second_advise_seconds']:.2f} s."]
    return "\n".join(lines)


def write_summary(results, readme):
    begin, end = "<!-- results:begin (benchmarks/solve.py writes this) -->", "<!-- results:end -->"
    text = readme.read_text() if readme.exists() else f"# Benchmarks\n\n{begin}\n{end}\n"
    head, _, rest = text.partition(begin)
    _, _, tail = rest.partition(end)
    readme.write_text(f"{head}{begin}\n{summary_markdown(results)}\n{end}{tail}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", nargs="+", default=["yahtzee"])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--batch-lines", type=int, default=30000)
    parser.add_argument("--no-cold", action="store_true", help="skip the empty-cache compile run")
    parser.add_argument("--out", default=str(HERE / "results" / "solve.json"))
    parser.add_argument("--summary-only", action="store_true",
                        help="only rewrite benchmarks/README.md from the JSON in --out")
    args = parser.parse_args()
    if args.summary_only:
        write_summary(json.loads(Path(args.out).read_text()), HERE / "README.md")
        return

    from solver import __version__
    from solver.threads import default_threads
    import numba
    results = {"machine": {"python": platform.python_version(), "platform": platform.platform(),
                           "processor": platform.processor() or platform.machine(),
                           "cpus": os.cpu_count(), "numba": numba.__version__,
                           "threads": default_threads()},
               "package_version": __version__, "peers": PEERS, "presets": {}}
    env = dict(os.environ)
    cli = [sys.executable, "-m", "solver.cli"]
    with tempfile.TemporaryDirectory() as scratch:
        tables = str(Path(scratch) / "tables")
        for preset in args.presets:
            entry = {}
            if not args.no_cold:
                cold_env = dict(env, NUMBA_CACHE_DIR=str(Path(scratch) / f"numba-{preset}"))
                entry["cold_seconds"] = run_json(SOLVE_SNIPPET, [preset, "0"], cold_env)["first_call_seconds"]
            entry.update(run_json(SOLVE_SNIPPET, [preset, str(args.repeat)], env))
            advise = cli + ["advise", "--rules", preset, "--tables", tables, "--dice", "1,3,3,5,6",
                            "--rolls-left", "2", "--json"]
            subprocess.run(advise, check=True, capture_output=True)  # solves and saves the table
            entry["advise_process"] = time_process(advise, args.repeat)
            lines = Path(scratch) / f"{preset}.jsonl"
            lines.write_text(subprocess.run([sys.executable, "-c", BATCH_SNIPPET, preset,
                                             str(args.batch_lines)], capture_output=True, text=True,
                                            check=True).stdout)
            batch = cli + ["advise", "--rules", preset, "--tables", tables, "--batch", str(lines)]
            start_only = time_process(cli + ["advise", "--rules", preset, "--tables", tables,
                                             "--batch", os.devnull], 2)
            whole = time_process(batch, 2)
            work = whole["best_seconds"] - start_only["best_seconds"]
            entry["batch"] = {"lines": args.batch_lines, "process_seconds": whole["best_seconds"],
                              "startup_seconds": start_only["best_seconds"],
                              "per_second": args.batch_lines / work,
                              "per_second_with_startup": args.batch_lines / whole["best_seconds"]}
            results["presets"][preset] = entry
            print(f"{preset:22s} warm {entry['warm_seconds']:.3f} s (1 thread "
                  f"{entry['threads_1_warm_seconds']:.3f})  first call {entry['first_call_seconds']:.2f} s"
                  f"  cold {entry.get('cold_seconds', float('nan')):.1f} s  peak {entry['peak_rss_mb']:.0f} MB"
                  f"  advise {entry['advise_process']['best_seconds']:.3f} s"
                  f"  batch {entry['batch']['per_second']:,.0f}/s", file=sys.stderr)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    write_summary(results, HERE / "README.md")
    print(args.out)


if __name__ == "__main__":
    main()
