"""Whole-process `kniffel advise` and `kniffel advise --batch` throughput, optionally beside
another checkout of the project (the same commands with that checkout first on PYTHONPATH), in
alternating rounds so that both meet the same minutes of a shared machine.

Cases: one position for points (text and --json), for a target (--target T, when the kniffel
target table is saved), for a win against a finished player late in a game (--opponent), and
a batch of N scorecard lines (lines per second).  Beside them, `python -c "import numpy"` as a
process: the floor of any whole-process figure on this machine.  The tables come from the
store of KNIFFEL_TABLES (solved first by a warm-up run when missing).

    python benchmarks/advise.py --rounds 5
    python benchmarks/advise.py --against ../other-checkout --rounds 5 --out /tmp/advise.json
"""
import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LATE = ("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three_kind=20,four_kind=0,"
        "full_house=25,small_straight=30")
CASES = {
    "points_text": ["advise", "--card", "ones=3,kniffel=50", "--dice", "1,3,3,5,6",
                    "--rolls-left", "2"],
    "points_json": ["advise", "--card", "ones=3,kniffel=50", "--dice", "1,3,3,5,6",
                    "--rolls-left", "2", "--json"],
    "target_text": ["advise", "--card", "ones=3,sixes=24", "--dice", "6,6,6,1,2",
                    "--target", "250"],
    "target_json": ["advise", "--card", "ones=3,sixes=24", "--dice", "6,6,6,1,2",
                    "--target", "250", "--json"],
    "win_json": ["advise", "--card", LATE, "--dice", "5,5,5,6,6", "--rolls-left", "1",
                 "--opponent", "final=200", "--json"],
}


def batch_file(lines, seed=1):
    """A file of `lines` random scorecard positions with dice (kniffel), one JSON a line."""
    import random
    rng = random.Random(seed)
    boxes = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
             "full_house", "small_straight", "large_straight", "kniffel", "chance"]
    most = {"ones": 5, "twos": 10, "threes": 15, "fours": 20, "fives": 25, "sixes": 30}
    path = Path(tempfile.mkdtemp()) / "batch.jsonl"
    with path.open("w") as out:
        for _ in range(lines):
            filled = rng.sample(boxes[:6], rng.randint(0, 5))
            card = {b: rng.randrange(0, most[b] + 1, most[b] // 5) for b in filled}
            out.write(json.dumps({"card": card, "dice": [rng.randint(1, 6) for _ in range(5)],
                                  "rolls_left": rng.randint(0, 2)}) + "\n")
    return path


def run(args, source):
    """[wall, CPU] seconds of `python -m solver.cli ARGS` with `source` first on PYTHONPATH
    (CPU: user + system of the process and its children, what a busy machine disturbs least);
    the exit code must be 0."""
    env = dict(os.environ, PYTHONPATH=str(source))
    return timed([sys.executable, "-m", "solver.cli", *args], env, f"{' '.join(args)} ({source})")


def timed(command, env, name):
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    wall = time.perf_counter() - start
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise RuntimeError(f"{name}: {done.stderr.strip()[-300:]}")
    return [wall, now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime]


def revision(source):
    """The commit of a checkout (with "+changes" when a tracked file differs), not its path."""
    def git(*args):
        return subprocess.run(["git", "-C", str(source), *args], capture_output=True,
                              text=True).stdout.strip()
    changed = git("status", "--porcelain", "--untracked-files=no")
    return git("rev-parse", "--short", "HEAD") + ("+changes" if changed else "")


def floor_seconds():
    return timed([sys.executable, "-c", "import numpy"], os.environ, "import numpy")


def measure(sources, cases, rounds):
    """{source label: {case: [seconds per round]}}, the sources in turn within each round."""
    times = {label: {case: [] for case in cases} for label in sources}
    times["floor"] = {"import_numpy": []}
    for label, source in sources.items():  # warm-up: tables solved, kernels compiled, caches hot
        for case, args in cases.items():
            run(args, source)
    for _ in range(rounds):
        times["floor"]["import_numpy"].append(floor_seconds())
        for case, args in cases.items():
            for label, source in sources.items():
                times[label][case].append(run(args, source))
    return times


def summary(times, batch_lines, sources):
    """Per case the median wall and CPU seconds (and lines per second for the batch); against
    another checkout, each case's median ratio (this / against) of the pairs of a round."""
    result = {}
    for label, cases in times.items():
        result[label] = {case: {"wall_median_s": statistics.median(w for w, _ in t),
                                "cpu_median_s": statistics.median(c for _, c in t),
                                "wall_min_s": min(w for w, _ in t),
                                "wall_max_s": max(w for w, _ in t)}
                         for case, t in cases.items()}
        if "batch" in cases:
            batch = result[label]["batch"]
            batch["lines_per_s"] = batch_lines / batch["wall_median_s"]
            batch["lines_per_cpu_s"] = batch_lines / batch["cpu_median_s"]
    if len(sources) == 2:
        a, b = sources
        result[f"ratio_{a}_over_{b}"] = {
            case: {what: statistics.median(x[i] / y[i]
                                           for x, y in zip(times[a][case], times[b][case]))
                   for i, what in enumerate(("wall", "cpu"))}
            for case in times[a]}
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout to measure beside this one")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batch-lines", type=int, default=5000)
    parser.add_argument("--no-target", action="store_true", help="skip the --target cases")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "advise.json")
    args = parser.parse_args()
    sources = {"this": ROOT}
    if args.against:
        sources["against"] = args.against.resolve()
    cases = {k: v for k, v in CASES.items() if not (args.no_target and k.startswith("target"))}
    cases["batch"] = ["advise", "--batch", str(batch_file(args.batch_lines))]
    times = measure(sources, cases, args.rounds)
    out = {"machine": {"cpus": os.cpu_count(), "arch": platform.machine(),
                       "python": platform.python_version()},
           "rounds": args.rounds, "batch_lines": args.batch_lines,
           "sources": {label: revision(path) for label, path in sources.items()},
           "cases": {case: " ".join(a if case != "batch" else a[:2] + ["LINES.jsonl"])
                     for case, a in cases.items()},
           "results": summary(times, args.batch_lines, sources), "times": times}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out["results"], indent=1))


if __name__ == "__main__":
    main()
