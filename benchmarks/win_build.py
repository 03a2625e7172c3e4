"""The build of the win coach's tables (ask/build.py: the target table, then the opponents'
store), per preset, in a fresh process and an empty store: the seconds of each part, the bytes
each takes on disk, and beside them the same run's expected-score solve (the reference figure
of this machine).  What the build offer says before a build starts is made of these figures:
they go to solver/data/win_build.json (--model), with the size each preset's work grows with
(reachable states times the highest score), and the whole run to --out.

    python benchmarks/win_build.py --rules kniffel
    python benchmarks/win_build.py --rules kniffel --rules yatzy --threads 2
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
MODEL = HERE.parent / "solver" / "data" / "win_build.json"

SNIPPET = """
import json, sys, time
from pathlib import Path
from solver.ask.build import _states, build
from solver.ask.tables import Tables
from solver.engine.backward import solve
from solver.presets import read_rules
from solver.rules.bounds import score_bound
rules, store, threads = read_rules(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
solve(rules, progress=False, threads=threads)  # the expected-score kernels, compiled or loaded
t = time.perf_counter(); table = solve(rules, progress=False, threads=threads)
expected_seconds = time.perf_counter() - t
table.save(store)
tables = Tables(store)
marks = {}
def report(stage, fraction, eta):
    marks.setdefault(stage, time.perf_counter())
start = time.perf_counter()
result = build(rules, tables, report=report)
end = time.perf_counter()
files = {p.name: p.stat().st_size for p in store.iterdir() if p.is_file()}
size = lambda kind: sum(n for name, n in files.items() if f".{kind}." in name)
print(json.dumps({
    "result": result, "expected_seconds": expected_seconds,
    "target_seconds": marks.get("opponents", end) - start,
    "opponents_seconds": end - marks.get("opponents", end),
    "target_bytes": size("target"), "opponents_bytes": size("opponents"),
    "states": _states(tables(rules)), "score_bound": score_bound(rules),
    "size": _states(tables(rules)) * score_bound(rules),
    "leftover_files": sorted(n for n in files if n.endswith(".tmp") or "-level-" in n
                             or "target-next" in n or n.endswith(".progress.json"))}))
"""


def _shown(arg):
    """A command-line argument as the results show it: a path by its name alone (the folders
    are this machine's)."""
    return Path(arg).name if os.path.isabs(arg) else arg


def run_preset(name, threads):
    """The figures of one preset's build, in a fresh process and a temporary store."""
    # a rules file too: its name alone in the folder's
    with tempfile.TemporaryDirectory(prefix=f"kniffel-win-build-{Path(name).name}-") as store:
        env = {**os.environ, "NUMBA_NUM_THREADS": str(threads)}
        started = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", SNIPPET, name, store, str(threads)],
                             capture_output=True, text=True, env=env, check=True)
        figures = json.loads(out.stdout.strip().splitlines()[-1])
        figures["process_seconds"] = time.perf_counter() - started
        return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", action="append", help="preset (repeat; default kniffel)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--model", type=Path, default=MODEL,
                        help="where the offer's figures go (merged with the presets there)")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "win_build.json")
    args = parser.parse_args()
    presets = {name: run_preset(name, args.threads) for name in args.rules or ["kniffel"]}
    machine = {"cpus": os.cpu_count(), "processor": platform.machine(),
               "python": platform.python_version(), "load_average": os.getloadavg()[0]}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    command = " ".join(_shown(a) for a in sys.argv)
    args.out.write_text(json.dumps({"machine": machine, "threads": args.threads,
                                    "command": command, "presets": presets}, indent=1) + "\n")
    try:
        model = json.loads(args.model.read_text())
    except (OSError, ValueError):
        model = {"presets": {}}
    keep = ("target_seconds", "opponents_seconds", "target_bytes", "opponents_bytes", "size",
            "expected_seconds")  # the last: the same run's reference (how busy the machine was)
    for name, figures in presets.items():
        model["presets"][name] = {k: figures[k] for k in keep}
    model.update({"threads": args.threads, "from": "benchmarks/win_build.py",
                  "machine": machine})
    args.model.write_text(json.dumps(model, indent=1, sort_keys=True) + "\n")
    print(json.dumps(presets, indent=1))


if __name__ == "__main__":
    main()
