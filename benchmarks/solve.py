"""Benchmark solving, advising, batch advice and simulation; writes JSON (default
benchmarks/results/solve.json) and the summary table in benchmarks/README.md.

The measurements are those of `kniffel bench` (solver/bench.py describes each), here for many
presets, with the compile (cold) run and more repeats:

    python benchmarks/solve.py --presets yahtzee kniffel knobeln yatzy --repeat 5 --rounds 3

Beside them, the roofline of one preset's warm solve (kniffel when it is measured; roofline.py):
per level the flops, bytes and seconds, against this machine's bandwidth and arithmetic peak,
measured after the suite.
"""
import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEERS = {"note": "published open-source solvers, the same yahtzee solve on this machine, float64 "
                 "(figures quoted in the issue tracker, not measured by this script)",
         "rust_2_threads_seconds": 3.6, "c_1_thread_seconds": 5.3}


def _roofline_module():
    """roofline.py beside this script (imported by path: the tests load this file on its own)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("roofline", HERE / "roofline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def summary_markdown(results):
    """A Markdown summary of a results JSON (every figure read from it)."""
    from solver.bench import summary_rows
    machine, settings = results["machine"], results["settings"]
    rounds = settings.get("rounds", 1)
    lines = [f"Measured on {machine['cpus']} CPUs ({machine['processor']}), "
             f"Python {machine['python']}, numba {machine['numba']}, {machine['threads']} threads; "
             f"kniffel {results['package_version']}; best of {settings['repeat']} repeats"
             + (f" in each of {rounds} rounds (solve, advise and batch; every preset once a round)"
                if rounds > 1 else "") +
             f". Peers: {results['peers']['note']}: Rust (2 threads) "
             f"{results['peers']['rust_2_threads_seconds']} s, C (1 thread) "
             f"{results['peers']['c_1_thread_seconds']} s.", ""]
    rows = {name: summary_rows(entry) for name, entry in results["presets"].items()}
    labels = [label for label, _ in next(iter(rows.values()))]
    lines += ["| preset | " + " | ".join(labels) + " |", "|---|" + "---:|" * len(labels)]
    lines += [f"| `{name}` | " + " | ".join(text for _, text in row) + " |"
              for name, row in rows.items()]
    first = next(iter(results["presets"].values()))
    if first.get("scaling"):
        lines += ["",
                  f"Cost curve ({next(iter(results['presets']))}): seconds to solve every state "
                  "with at most k open boxes.", "",
                  "| k | " + " | ".join(str(p["open_boxes"]) for p in first["scaling"]) + " |",
                  "|---|" + "---:|" * len(first["scaling"]),
                  "| s | " + " | ".join(f"{p['seconds']:.3f}" for p in first["scaling"]) + " |"]
    if results.get("roofline"):
        lines += [""] + _roofline_module().summary_lines(results["roofline"])
    first_run = HERE / "results" / "first_run.json"
    if first_run.exists():  # written by benchmarks/first_run.py
        f = json.loads(first_run.read_text())
        lines += ["",
                  f"First run on a fresh virtual environment (benchmarks/first_run.py): install "
                  f"{f['install_seconds']:.1f} s + first `kniffel advise` "
                  f"{f['first_advise_seconds']:.1f} s "
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
    parser.add_argument("--games", type=int, default=100000, help="games a simulation")
    parser.add_argument("--no-cold", action="store_true", help="skip the empty-cache compile run")
    parser.add_argument("--rounds", type=int, default=1,
                        help="time solve, advise and batch this many times, every preset once a "
                             "round, and keep the best (a shared machine has slow minutes)")
    parser.add_argument("--roofline", default=None,
                        help="the preset whose warm solve is set against the roofline (default: "
                             "kniffel when measured, else the first; 'none' to skip)")
    parser.add_argument("--out", default=str(HERE / "results" / "solve.json"))
    parser.add_argument("--summary-only", action="store_true",
                        help="only rewrite --readme from the JSON in --out")
    parser.add_argument("--readme", type=Path, default=HERE / "README.md",
                        help="the Markdown file whose results block is rewritten")
    args = parser.parse_args()
    if args.summary_only:
        write_summary(json.loads(Path(args.out).read_text()), args.readme)
        return
    from solver.bench import results_table, run_suite
    results = run_suite(args.presets, repeat=args.repeat, batch_lines=args.batch_lines,
                        games=args.games, cold=not args.no_cold, rounds=args.rounds)
    results["peers"] = PEERS
    preset = args.roofline or ("kniffel" if "kniffel" in args.presets else args.presets[0])
    if preset != "none":
        roofline = _roofline_module()
        scaling = results["presets"][preset]["scaling"]
        results["roofline"] = roofline.roofline(preset,
                                                [(p["open_boxes"], p["seconds"]) for p in scaling],
                                                roofline.machine_figures())
    print(results_table(results), file=sys.stderr)
    if results.get("roofline"):
        print("\n".join(_roofline_module().summary_lines(results["roofline"])), file=sys.stderr)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    write_summary(results, args.readme)
    print(args.out)


if __name__ == "__main__":
    main()
