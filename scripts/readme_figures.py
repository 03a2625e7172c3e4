"""Write the set-up figures into README.md from the benchmark results: the first answer of a
fresh install (benchmarks/first_run.py -> benchmarks/results/first_run.json) and the test
suite's duration (benchmarks/suite.py -> benchmarks/results/suite.json) and the fast tier's
(benchmarks/suite.py --out benchmarks/results/suite_fast.json -- -q -m "not slow").

    python scripts/readme_figures.py           # rewrite the block in README.md
    python scripts/readme_figures.py --check   # exit 1 unless README.md is current
    python scripts/readme_figures.py --out FILE   # rewrite the block in another copy
"""
import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
README = ROOT / "README.md"
RESULTS_DOC = ROOT / "docs" / "results.md"  # the report blocks of the other scripts
BEGIN = "<!-- setup-figures:begin (scripts/readme_figures.py writes this) -->"
END = "<!-- setup-figures:end -->"


def figures_markdown(first_run, suite, fast):
    """The README lines for the three result dicts."""
    first = first_run["first_advise_seconds"]
    cpus = first_run["machine"]["cpus"]
    shipped = "from the table shipped in the package" if not first_run["first_advise_solved"] \
        else "after solving its table"
    other = first_run["other_first_advise_seconds"]
    minutes = suite["wall_seconds"] / 60
    return "\n".join([
        BEGIN,
        f"Measured on {cpus} cores: the first command installs in "
        f"{first_run['install_seconds']:.0f} s and gives its first answer {first:.1f} s later, "
        f"{shipped} (the next answer: "
        f"{first_run['second_advise_seconds']:.2f} s). The first advice for another preset "
        f"(`{first_run['other_preset']}`) compiles the kernels and solves its table once: "
        f"{other:.0f} s. The test command runs {sum(suite['counts'].values())} tests on every core "
        f"(pytest-xdist; `-n 0` runs them in one process) in {minutes:.1f} minutes"
        f"{_load(suite)}; while working, "
        "`python -m pytest -q -m \"not slow\"` runs the "
        f"{sum(fast['counts'].values())} fast ones in {fast['wall_seconds'] / 60:.1f} minutes "
        f"(`benchmarks/first_run.py`, `benchmarks/suite.py`).",
        *web_figures(first_run),
        END])


def _load(suite):
    """What else the cores did while the suite ran: its load average at the start (the machine is
    shared; an honest figure says so)."""
    load = suite.get("machine", {}).get("load_average_1min")
    return f" (the load average {load[0]:.1f} at its start: the cores were shared)" if load else ""


def web_figures(first_run):
    """The README line on the web coach's first game (empty caches), when it was measured."""
    if "first_start_seconds" not in first_run:
        return []
    prepared = first_run.get("win_coach_prepared_seconds")
    line = (f"On the same fresh install `kniffel serve` (the `[web]` extra) is up in "
            f"{first_run['serve_start_seconds']:.1f} s; the first tap on Start shows the game "
            f"{first_run['first_start_seconds']:.1f} s later and its first advice follows in "
            f"{first_run['first_advice_seconds']:.1f} s, with every cache empty.")
    if prepared is not None:
        line += (f" The first win request is answered for points at once "
                 f"({first_run['first_win_request_seconds']:.1f} s) while the page follows the "
                 f"job that compiles the win coach's kernels, once: {prepared:.0f} s.")
    return ["", line]


def replace_block(text, block, begin=BEGIN, end=END):
    """`text` with the block from `begin` to `end` replaced by `block` (ValueError when it has
    none)."""
    start, stop = text.index(begin), text.index(end) + len(end)
    return text[:start] + block + text[stop:]


def current_block():
    results = [json.loads((RESULTS / name).read_text()) for name in ("first_run.json", "suite.json",
                                                                      "suite_fast.json")]
    return figures_markdown(*results)


def rewrite_block(path, block, begin, end, script, description, argv=None):
    """The command line of a script that writes one block of the Markdown file `path`: rewrite
    it (or the file given with --out), or with --check exit 1 unless it is current."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="only check the block is current")
    parser.add_argument("--out", type=Path, default=path,
                        help=f"the file to write (default {path.relative_to(ROOT)})")
    args = parser.parse_args(argv)
    text = args.out.read_text(encoding="utf-8")
    new = replace_block(text, block, begin, end)
    if args.check:
        if new != text:
            sys.exit(f"{args.out.name}'s figures are stale: run python scripts/{script}")
        return
    args.out.write_text(new, encoding="utf-8")


def main(argv=None):
    rewrite_block(README, current_block(), BEGIN, END, "readme_figures.py",
                  __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    main()
