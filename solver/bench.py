"""The benchmark suite: how fast this machine solves, advises and simulates (`kniffel bench`).

Every measurement runs in fresh Python processes, as a user meets it:
  cold_seconds            first solve with an empty numba cache (compiles the kernels; optional)
  first_call_seconds      first solve in a new process with the numba cache present
  warm_seconds            best of `repeat` further solves in that same process
  threads_1_warm_seconds  the same on one thread
  peak_rss_mb             peak resident memory of that process
  scaling                 seconds to solve every state with at most k open boxes, k = 1 ..
  advise_process          `kniffel advise` from a saved table, whole process (best / median)
  batch                   `kniffel advise --batch` positions per second (random positions)
                          after start-up (a one-line batch: imports, loading the table)
  simulate                games per second of `solver.simulate`, optimal and greedy: the first
                          call of a new process (loads the compiled kernel) and the best warm call

With rounds > 1, solve, advise and batch are timed again in further rounds, every preset once
a round, and the best figures are kept: on a shared machine a slow minute slows every repeat
of one round alike.

benchmarks/solve.py runs the suite on every preset and writes benchmarks/results/solve.json.
"""
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tqdm import tqdm

from .version import __version__

SOLVE_SNIPPET = """
import json, resource, sys, time
t0 = time.perf_counter()
import numba
from solver.engine.backward import solve
from solver.engine.threads import default_threads
from solver.presets import get_rules
import_seconds = time.perf_counter() - t0
rules = get_rules(sys.argv[1])  # the engine takes rules, never a name
t = time.perf_counter(); table = solve(rules, progress=False); first = time.perf_counter() - t
warm, scaling = [], None
for _ in range(int(sys.argv[2])):
    t = time.perf_counter(); again = solve(rules, progress=False)
    warm.append(time.perf_counter() - t)
    if scaling is None or again.seconds < scaling[0]:
        scaling = (again.seconds, again.level_seconds)
one = []
if warm:
    for _ in range(max(1, int(sys.argv[2]) // 2)):
        t = time.perf_counter(); solve(rules, progress=False, threads=1)
        one.append(time.perf_counter() - t)
print(json.dumps({"import_seconds": import_seconds, "first_call_seconds": first,
                  "warm_seconds": min(warm) if warm else None, "warm_all": warm,
                  "threads_1_warm_seconds": min(one) if one else None,
                  "threads": default_threads(),
                  "states": table.states, "expected_score": table.expected_score,
                  "scaling": ([{"open_boxes": k, "seconds": s} for k, s in scaling[1]]
                              if scaling else None),
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

BATCH_SNIPPET = """
import json, sys
import numpy as np
from solver import dice
from solver.presets import read_rules
rules = read_rules(sys.argv[1])
rng = np.random.default_rng(1)
for _ in range(int(sys.argv[2])):
    n = int(rng.integers(0, rules.n_boxes - 1))
    boxes = rng.choice(rules.n_boxes, n, replace=False)
    card = {rules.boxes[b]: int(rules.plain_score[b, rng.integers(dice.N_ROLLS)]) for b in boxes}
    print(json.dumps({"card": card, "dice": list(dice.KEEPS[int(rng.integers(dice.N_ROLLS))]),
                      "rolls_left": int(rng.integers(0, rules.rolls_per_turn))}))
"""

SIMULATE_SNIPPET = """
import json, sys, time
from solver import load_table
from solver.stats.simulate import simulate
preset, store, games, repeat, strategy = (sys.argv[1], sys.argv[2], int(sys.argv[3]),
                                          int(sys.argv[4]), sys.argv[5])
table = load_table(preset, store)
t = time.perf_counter(); simulate(table, games, seed=0, strategy=strategy)
first = time.perf_counter() - t
warm = []
for seed in range(1, repeat + 1):
    t = time.perf_counter(); result = simulate(table, games, seed=seed, strategy=strategy)
    warm.append(time.perf_counter() - t)
print(json.dumps({"games": games, "first_call_seconds": first, "warm_seconds": min(warm),
                  "games_per_second": games / min(warm), "mean_score": result.mean}))
"""

QUICK = {"repeat": 2, "batch_lines": 5_000, "games": 5_000}
DEFAULTS = {"repeat": 3, "batch_lines": 30_000, "games": 20_000}


class BenchError(RuntimeError):
    """A benchmark process failed."""


def machine():
    """What the figures were measured on."""
    import numba

    from .engine.threads import default_threads
    return {"python": platform.python_version(), "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(), "cpus": os.cpu_count(),
            "numba": numba.__version__, "threads": default_threads()}


def run_json(snippet, args, env=None):
    """Run a Python snippet in a new process; its stdout is one JSON object."""
    done = subprocess.run([sys.executable, "-c", snippet, *args], env=env, capture_output=True,
                          text=True)
    if done.returncode:
        raise BenchError(_last_line(done.stderr))
    return json.loads(done.stdout)


def time_process(cmd, repeat, stdin=None):
    """Best and median wall time of running `cmd` `repeat` times."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        with open(stdin or os.devnull) as source:
            done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  stdin=source)
        times.append(time.perf_counter() - t)
        if done.returncode:
            raise BenchError(_last_line(done.stderr.decode(errors="replace")))
    return {"best_seconds": min(times), "median_seconds": sorted(times)[len(times) // 2]}


def _last_line(text):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "a benchmark process failed"


def steps(cold):
    """The measurements of one preset, in the order measure_preset runs them."""
    return (["cold"] if cold else []) + ["solve", "advise", "batch", "simulate optimal",
                                         "simulate greedy"]


def measure_preset(preset, scratch, repeat=DEFAULTS["repeat"], batch_lines=DEFAULTS["batch_lines"],
                   games=DEFAULTS["games"], cold=False, on_step=None):
    """Every measurement of the suite for one preset; `scratch` is an empty working directory.
    on_step(name) is called as each measurement starts."""
    scratch = Path(scratch)
    on_step = on_step or (lambda name: None)
    env = dict(os.environ)
    store = str(scratch / "tables")
    entry = {}
    if cold:
        on_step("cold")
        cold_env = dict(env, KNIFFEL_KERNEL_CACHE=str(scratch / f"numba-{preset}"))
        entry["cold_seconds"] = run_json(SOLVE_SNIPPET, [preset, "0"],
                                         cold_env)["first_call_seconds"]
    lines = scratch / f"{preset}.jsonl"
    made = subprocess.run([sys.executable, "-c", BATCH_SNIPPET, preset, str(batch_lines)],
                          capture_output=True, text=True)
    if made.returncode:
        raise BenchError(_last_line(made.stderr))
    lines.write_text(made.stdout)
    first_line = scratch / f"{preset}-one.jsonl"
    first_line.write_text(made.stdout.split("\n", 1)[0] + "\n")
    entry.update(time_solve_advise_batch(preset, scratch, repeat, batch_lines, on_step))
    entry["simulate"] = {}
    for strategy in ("optimal", "greedy"):
        on_step(f"simulate {strategy}")
        entry["simulate"][strategy] = run_json(SIMULATE_SNIPPET, [preset, store, str(games),
                                                                  str(repeat), strategy], env)
    return entry


def time_solve_advise_batch(preset, scratch, repeat, batch_lines, on_step):
    """The solve, advise and batch figures of one preset (its batch input is in `scratch`)."""
    store = str(Path(scratch) / "tables")
    cli = [sys.executable, "-m", "solver.cli"]
    on_step("solve")
    entry = run_json(SOLVE_SNIPPET, [preset, str(repeat)], dict(os.environ))
    on_step("advise")
    advise = cli + ["advise", "--rules", preset, "--tables", store, "--dice", "1,3,3,5,6",
                    "--rolls-left", "2", "--json"]
    time_process(advise, 1)  # solves and saves the table (the first time)
    entry["advise_process"] = time_process(advise, repeat)
    on_step("batch")
    # Start-up is everything before the first answer (imports, loading and checking the
    # table), timed with a one-line batch; the rate is what each further position costs.
    batch = cli + ["advise", "--rules", preset, "--tables", store, "--batch"]
    start_only = time_process(batch + [str(Path(scratch) / f"{preset}-one.jsonl")], 2)
    whole = time_process(batch + [str(Path(scratch) / f"{preset}.jsonl")], 2)
    entry["batch"] = _batch_rates(batch_lines, start_only["best_seconds"], whole["best_seconds"])
    return entry


def _batch_rates(lines, startup_seconds, process_seconds):
    work = max(process_seconds - startup_seconds, 1e-9)
    return {"lines": lines, "process_seconds": process_seconds, "startup_seconds": startup_seconds,
            "per_second": (lines - 1) / work, "per_second_with_startup": lines / process_seconds}


def keep_best(entry, again):
    """Merge a further round's solve, advise and batch figures into `entry`: the best of each."""
    entry["warm_all"] = entry["warm_all"] + again["warm_all"]
    if again["warm_seconds"] < entry["warm_seconds"]:
        entry["warm_seconds"], entry["scaling"] = again["warm_seconds"], again["scaling"]
    for key in ("first_call_seconds", "threads_1_warm_seconds", "import_seconds"):
        entry[key] = min(entry[key], again[key])
    entry["peak_rss_mb"] = max(entry["peak_rss_mb"], again["peak_rss_mb"])
    if again["advise_process"]["best_seconds"] < entry["advise_process"]["best_seconds"]:
        entry["advise_process"] = again["advise_process"]
    # the best start-up and the best whole run, each over every round: the rate from the two
    # best times is not inflated by one slow start-up measurement
    batch, more = entry["batch"], again["batch"]
    entry["batch"] = _batch_rates(batch["lines"],
                                  min(batch["startup_seconds"], more["startup_seconds"]),
                                  min(batch["process_seconds"], more["process_seconds"]))
    entry["rounds"] = entry.get("rounds", 1) + 1


def run_suite(presets, repeat=DEFAULTS["repeat"], batch_lines=DEFAULTS["batch_lines"],
              games=DEFAULTS["games"], cold=False, progress=None, rounds=1):
    """Measure every preset in `presets`; returns {"machine", "package_version", "settings",
    "presets": {name: entry}}.  progress: a tqdm bar of the steps on stderr (None: on a terminal).
    rounds: times solve, advise and batch are measured (every preset once a round; best kept)."""
    results = {"machine": machine(), "package_version": __version__,
               "settings": {"repeat": repeat, "batch_lines": batch_lines, "games": games,
                            "cold": cold, "rounds": rounds},
               "presets": {}}
    total = len(presets) * (len(steps(cold)) + 3 * (rounds - 1))
    with tqdm(total=total, desc="bench", unit="step", leave=False,
              disable=None if progress is None else not progress) as bar, \
            tempfile.TemporaryDirectory(prefix="kniffel-bench-") as scratch:
        for preset in presets:
            started = []  # the steps of this preset begun so far

            def on_step(name, preset=preset, started=started):
                if started:
                    bar.update(1)  # the previous step is done
                started.append(name)
                bar.set_postfix_str(f"{preset}: {name}")
            work = Path(scratch) / preset
            work.mkdir()
            results["presets"][preset] = measure_preset(preset, work, repeat, batch_lines, games,
                                                        cold, on_step)
            bar.update(1)
        for _ in range(rounds - 1):
            for preset in presets:
                bar.set_postfix_str(f"{preset}: solve, advise, batch again")
                again = time_solve_advise_batch(preset, Path(scratch) / preset, repeat, batch_lines,
                                                lambda name: None)
                keep_best(results["presets"][preset], again)
                bar.update(3)
    return results


def _rounds_text(settings):
    rounds = settings.get("rounds", 1)
    return f" in each of {rounds} rounds (solve, advise, batch)" if rounds > 1 else ""


def summary_rows(entry):
    """[(label, text)] of the headline figures of one preset's entry, in print order."""
    sim = entry.get("simulate", {})

    def games(strategy, key):
        return f"{sim[strategy][key]:,.0f}/s" if strategy in sim else "-"

    def first(strategy):
        s = sim.get(strategy)
        return f"{s['first_call_seconds']:.2f} s" if s else "-"

    return [("states", f"{entry['states']:,}"),
            ("warm solve", f"{entry['warm_seconds']:.3f} s"),
            ("1 thread", f"{entry['threads_1_warm_seconds']:.3f} s"),
            ("first call", f"{entry['first_call_seconds']:.2f} s"),
            ("cold (compile)",
             f"{entry['cold_seconds']:.1f} s" if "cold_seconds" in entry else "-"),
            ("peak RSS", f"{entry['peak_rss_mb']:.0f} MB"),
            ("advise (process)", f"{entry['advise_process']['best_seconds']:.3f} s"),
            ("batch", f"{entry['batch']['per_second']:,.0f}/s"),
            ("simulate optimal", games("optimal", "games_per_second")),
            ("optimal first call", first("optimal")),
            ("simulate greedy", games("greedy", "games_per_second")),
            ("greedy first call", first("greedy"))]


def results_table(results):
    """The results as an aligned text table: one row per figure, one column per preset."""
    m = results["machine"]
    s = results["settings"]
    names = list(results["presets"])
    columns = {name: dict(summary_rows(entry)) for name, entry in results["presets"].items()}
    labels = [label for label, _ in summary_rows(next(iter(results["presets"].values())))]
    width = max(map(len, labels))
    widths = [max(len(name), *(len(columns[name][label]) for label in labels)) for name in names]
    lines = [f"kniffel {results['package_version']} on {m['cpus']} CPUs ({m['processor']}), "
             f"Python {m['python']}, numba {m['numba']}, {m['threads']} threads; best of "
             f"{s['repeat']}{_rounds_text(s)}, {s['games']:,} games a simulation, "
             f"{s['batch_lines']:,} batch positions",
             f"  {'':<{width}}  " + "  ".join(f"{n:>{w}}" for n, w in zip(names, widths))]
    for label in labels:
        lines.append(f"  {label:<{width}}  " + "  ".join(f"{columns[n][label]:>{w}}"
                                                       for n, w in zip(names, widths)))
    return "\n".join(lines)
