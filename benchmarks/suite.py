"""How long the README's test command takes here: `python -m pytest -q` in this checkout, with the
warm expected-score solve of kniffel measured in the same run as the reference (the machine is
shared: the ratio says more than the seconds).  Writes JSON (default benchmarks/results/suite.json).

    python benchmarks/suite.py
    python benchmarks/suite.py --out /tmp/suite.json -- -x tests/test_rules.py   # pytest arguments
"""
import argparse
import json
import os
import platform
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))


def reference_seconds(repeats=3):
    """The best of `repeats` warm expected-score solves of kniffel (after one that compiles)."""
    from solver import solve
    solve("kniffel", progress=False)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        solve("kniffel", progress=False)
        best = min(best, time.perf_counter() - start)
    return best


def pytest_counts(stdout):
    """(summary line, {"passed": n, "failed": n, ...}) of pytest's output."""
    summary = stdout.strip().splitlines()[-1] if stdout.strip() else ""
    return summary, {kind: int(n) for n, kind in
                     re.findall(r"(\d+) (passed|failed|skipped|xfailed|xpassed|errors?)", summary)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE / "results" / "suite.json"))
    parser.add_argument("pytest_args", nargs="*",
                        help="after --: arguments for pytest instead of -q")
    args = parser.parse_args()
    reference = reference_seconds()
    load_before = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", *(args.pytest_args or ["-q"])], cwd=ROOT,
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    summary, counts = pytest_counts(done.stdout)
    result = {
        "command": "python -m pytest " + " ".join(args.pytest_args or ["-q"]),
        "exit_code": done.returncode,
        "summary": summary,
        "counts": counts,
        "wall_seconds": wall,
        "cpu_seconds": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        "reference_solve_seconds": reference,
        "wall_over_reference": wall / reference,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)]},
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    if done.returncode:
        sys.stdout.write(done.stdout[-3000:])
        sys.exit(done.returncode)


if __name__ == "__main__":
    main()
