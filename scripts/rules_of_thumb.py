"""Derive each preset's rules of thumb by exact evaluation and write what the pages and the \
results read.

    python scripts/rules_of_thumb.py --derive --preset kniffel   # one preset (minutes): forward
                                       # selection, removal, exact prices, the sensible human's
                                       # list and the greedy baseline; writes
                                       # solver/data/rule_prices/kniffel.json
    python scripts/rules_of_thumb.py --derive                    # every preset with a rules page
    python scripts/rules_of_thumb.py --plot     # rewrite docs/results.md's block and the plot
    python scripts/rules_of_thumb.py --check    # exit 1 if docs/results.md is out of date

Every exact evaluation is cached in --cache (default: a folder in the system's temporary
directory), so an interrupted derivation picks up where it stopped.  tests/test_rules_of_thumb.py
re-evaluates a stored list and checks the block.
"""
import argparse
import json
import shlex
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
RESULTS_DOC = ROOT / "docs" / "results.md"
PLOT = ROOT / "docs" / "rules_of_thumb.png"
BEGIN = "<!-- rules-of-thumb:begin (scripts/rules_of_thumb.py writes this) -->"
END = "<!-- rules-of-thumb:end -->"
GREEDY_GAMES = 100_000
CACHE = Path(tempfile.gettempdir()) / "kniffel-rules-of-thumb"


def page_presets():
    """The scorecard presets that have a rules-of-thumb page (every one without Knobeln jokers)."""
    from solver.rules import PRESETS
    return [name for name, rules in PRESETS.items() if not rules.jokers]


def derive_record(name, cache_dir=CACHE, threads=None, progress=True, pool_from=None,
                  single_pass=False):
    """The stored record of preset `name`, derived now (solver/strategy/derive.py).  pool_from:
    another preset whose stored list is the pool (its rules in order, no second forward pass):
    a cheaper derivation for rules close to that preset's.  single_pass: no second forward
    pass (fewer evaluations)."""
    from solver import get_table
    from solver.stats.simulate import simulate
    from solver.strategy.derive import (
        MIN_GAIN,
        MIN_PRICE,
        Cache,
        derive,
        frontier,
        pool,
        within_counts,
    )
    from solver.strategy.heuristic import heuristic
    from solver.strategy.rule_prices import DEFINITION
    table = get_table(name, progress=False)
    cache_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    cache = Cache(cache_dir / f"{name}.json")
    candidates = None
    if pool_from:
        from solver.strategy.rule_prices import path_of
        from solver.strategy.thumb import RuleList
        source = RuleList.from_dict(json.loads(path_of(pool_from).read_text())["rule_list"])
        candidates = source.keeps + source.boxes
    found = derive(table, candidates, cache=cache, progress=progress, threads=threads,
                   second_pass=pool_from is None and not single_pass)
    human = heuristic(table.rules)
    human_score = cache.score(table, human, threads)
    greedy = simulate(table, GREEDY_GAMES, seed=0, strategy="greedy", progress=False)
    # Where the list loses its points: its keeps with the optimal boxes, its boxes with the
    # optimal keeps (exact evaluations of the two hybrids).
    from solver.strategy.policy_eval import evaluate
    hybrids = {f"optimal_{part}": evaluate(table, found.rules, threads, optimal=part)
               for part in ("boxes", "keeps")}
    rows = {kind: [{"without": w, "price": found.score - w} for w in found.without[kind]]
            for kind in ("keeps", "boxes")}
    optimum = table.expected_score
    return {"preset": name, "definition": DEFINITION,
            "rules_dict": json.loads(json.dumps(table.rules.as_dict())),
            "rule_list": found.rules.as_dict(), "score": found.score, "optimal": optimum,
            **rows,
            "curve": [list(p) for p in found.curve],
            "frontier": [list(p) for p in frontier(found.cache)],
            "within": within_counts(frontier(found.cache), optimum),
            "heuristic": {"rules": human.size, "score": human_score, "exact": True},
            "greedy": {"score": greedy.mean, "exact": False,
                       "ci95": 1.96 * greedy.standard_error, "games": GREEDY_GAMES, "seed": 0},
            "hybrids": hybrids,
            "search": {"pool": len(candidates or pool(table.rules)), "pool_from": pool_from,
                       "second_pass": pool_from is None and not single_pass,
                       "min_gain": MIN_GAIN, "min_price": MIN_PRICE},
            "evaluations": cache.evaluations, "cpu_seconds": round(cache.cpu_seconds, 1),
            "seconds": round(time.perf_counter() - start, 1),
            "command": f"python scripts/rules_of_thumb.py --derive --preset {name}"
                       + (f" --pool-from {pool_from}" if pool_from else "")
                       + (" --single-pass" if single_pass else "")}


def records():
    """{preset: its stored record} for every preset with a page (None where there is none)."""
    from solver.strategy.rule_prices import path_of
    return {name: json.loads(path_of(name).read_text()) if path_of(name).is_file() else None
            for name in page_presets()}


def gap_closed(record):
    """The share (0-1) of the gap between the sensible human's list and the optimum that the
    derived list closes."""
    human = record["heuristic"]["score"]
    return (record["score"] - human) / (record["optimal"] - human)


def plot(data, path):
    """Exact score against the number of rules, one line per preset (matplotlib, the [plot]
    extra)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7.5, 4.2), dpi=120)
    for name, record in data.items():
        if record and "curve" in record:
            n, score = zip(*(record.get("frontier") or record["curve"]))
            gap = [record["optimal"] - s for s in score]
            ax.plot(n, gap, marker=".", label=name)
    for d in (20, 10, 5):
        ax.axhline(d, ls=":", color="grey")
    ax.set_ylim(0, 60)
    ax.set_xlabel("rules in the list (the best list of at most n rules the derivation found)")
    ax.set_ylabel("points below optimal play (exact)")
    ax.set_title("Rules of thumb: exact gap to the optimum against the number of rules")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)


def _n(value):
    return "—" if value is None else str(value)


def results_block(data):
    """docs/results.md's tables: each preset's derived list against the sensible human's list,
    the greedy baseline and the optimum; the curves; the kniffel rules in words."""
    from solver.presets import read_rules
    from solver.report.pages import box_rule_text, keep_rule_text, pars_text
    from solver.strategy.thumb import RuleList
    lines = ["| preset | optimal | derived rules | rules | gap | sensible human (rules) | "
             "greedy (simulated) | gap closed | rules for 20 / 10 / 5 points | its keeps, optimal "
             "boxes | its boxes, optimal keeps | evaluations, CPU |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
    for name, r in data.items():
        if not r or "curve" not in r:
            lines.append(f"| `{name}` | not derived yet: `python scripts/rules_of_thumb.py "
                         f"--derive --preset {name}` | | | | | | | | | | |")
            continue
        size = len(r["keeps"]) + len(r["boxes"])
        g = r["greedy"]
        w = r["within"]
        lines.append(f"| `{name}` | {r['optimal']:.1f} | {r['score']:.1f} | {size} | "
                     f"{r['optimal'] - r['score']:.1f} | {r['heuristic']['score']:.1f} "
                     f"({r['heuristic']['rules']}) | {g['score']:.1f} ± {g['ci95']:.1f} | "
                     f"{100 * gap_closed(r):.0f} % | "
                     f"{_n(w['20'])} / {_n(w['10'])} / {_n(w['5'])} | "
                     f"{r['hybrids']['optimal_boxes']:.1f} | {r['hybrids']['optimal_keeps']:.1f} | "
                     f"{r['evaluations']}, {r['cpu_seconds'] / 60:.0f} min |")
    derived = {name: r for name, r in data.items() if r and "curve" in r}
    close = [name for name, r in derived.items() if r["optimal"] - r["score"] <= 20]
    far = [name for name in derived if name not in close]
    lines += ["", f"Within 20 points of optimal play: {len(close)} of {len(derived)} derived lists"
              + (f"; not yet: {', '.join(f'`{n}`' for n in far)}." if far else ".")]
    lines += ["", "Scores are exact (policy evaluation) except greedy's (100,000 seeded games, "
              "± its 95 % interval). \"Rules for 20 / 10 / 5 points\": the fewest rules of any "
              "list the derivation evaluated that comes within that many points of the optimum "
              "(— : none did). The two hybrids say where the list loses its points: its keep rules "
              "with the optimal player's boxes, and its box rules with the optimal player's keeps "
              "(both exact). The curves: the best exact score of any list of at most n rules the "
              "derivation evaluated, for n = 1, 2, ... (the forward selection's own curve is in "
              "each record):", ""]
    for name, r in data.items():
        if r and "curve" in r:
            points = r.get("frontier") or r["curve"]
            lines.append(f"- `{name}`: " + ", ".join(f"{n}: {s:.1f}" for n, s in points))
    r = data.get("kniffel")
    if r:
        rules = read_rules("kniffel")
        rule_list = RuleList.from_dict(r["rule_list"])
        lines += ["", "The derived rules for `kniffel` (first match wins; price in points):", "",
                  "- keeps: " + "; ".join(f"{keep_rule_text(x, rules, 'en')} ({p['price']:+.2f})"
                                          for x, p in zip(rule_list.keeps, r["keeps"]))
                  + "; otherwise reroll all five.",
                  "- boxes: " + "; ".join(f"{box_rule_text(x, rules, 'en')} ({p['price']:+.2f})"
                                          for x, p in zip(rule_list.boxes, r["boxes"]))
                  + "; otherwise the first open box."]
        pars = pars_text(rule_list, rules, "en")
        lines += [f"- {pars}"] if pars else []
    lines += ["", "Made by `python scripts/rules_of_thumb.py --derive --preset P` for each preset "
              "(then `python scripts/rules_of_thumb.py` for this block)."]
    return "\n".join(lines)


def replace_block(text, block):
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{block}\n{END}{tail}"


def main(argv=None):
    from solver.strategy.rule_prices import path_of
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="example: python scripts/rules_of_thumb.py --derive --preset kniffel")
    parser.add_argument("--derive", action="store_true", help="choose and price the rules (slow)")
    parser.add_argument("--preset", action="append", default=None,
                        help="with --derive: only this preset (repeatable; default: every one "
                             "with a rules page)")
    parser.add_argument("--pool-from", default=None, metavar="PRESET",
                        help="with --derive: take PRESET's stored list as the pool (cheaper)")
    parser.add_argument("--single-pass", action="store_true",
                        help="with --derive: no second forward pass (fewer evaluations)")
    parser.add_argument("--threads", type=int, default=None, help="evaluation threads")
    parser.add_argument("--cache", type=Path, default=CACHE,
                        help="folder of the evaluation caches (an interrupted run resumes)")
    parser.add_argument("--plot", action="store_true",
                        help="also draw docs/rules_of_thumb.png from the stored records")
    parser.add_argument("--check", action="store_true", help="only check the block is current")
    parser.add_argument("--out", type=Path, default=RESULTS_DOC,
                        help="the file holding the block (default docs/results.md)")
    args = parser.parse_args(argv)
    names = args.preset or page_presets()
    unknown = sorted(set(names + ([args.pool_from] if args.pool_from else []))
                     - set(page_presets()))
    if unknown:
        parser.error(f"no rules page for {', '.join(unknown)}; "
                     f"presets: {', '.join(page_presets())}")
    if args.derive:
        for name in names:
            record = derive_record(name, args.cache, args.threads, pool_from=args.pool_from,
                                   single_pass=args.single_pass)
            path_of(name).write_text(json.dumps(record, indent=1) + "\n")
            print(f"{name}: {record['score']:.2f} with "
                  f"{len(record['keeps']) + len(record['boxes'])} "
                  f"rules (optimal {record['optimal']:.2f}); {record['evaluations']} evaluations, "
                  f"{record['cpu_seconds']} s CPU  [{shlex.join(sys.argv)}]", flush=True)
    data = records()
    if args.derive or args.plot:
        plot(data, PLOT)
    text = args.out.read_text()
    if BEGIN not in text or END not in text:
        sys.exit(f"{args.out.name} lacks the markers {BEGIN} ... {END}")
    new = replace_block(text, results_block(data))
    if args.check:
        sys.exit(0 if new == text else f"{args.out.name} rules-of-thumb table is out of date: "
                                       "run scripts/rules_of_thumb.py")
    args.out.write_text(new)
    print(results_block(data))


if __name__ == "__main__":
    main()
