"""Choose the rules of thumb and price them exactly; write them where the pages and the results read.

    python scripts/rules_of_thumb.py --derive   # minutes: forward selection (kniffel), exact
                                                # prices, greedy simulated; writes
                                                # solver/strategy/derived.json, docs/rules_of_thumb.png
    python scripts/rules_of_thumb.py            # rewrite docs/results.md's block from derived.json
    python scripts/rules_of_thumb.py --check    # exit 1 if docs/results.md is out of date

tests/test_rules_of_thumb.py re-evaluates the stored prices and checks the block.
"""
import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS_DOC = ROOT / "docs" / "results.md"
DERIVED = ROOT / "solver" / "strategy" / "derived.json"
PLOT = ROOT / "docs" / "rules_of_thumb.png"
BEGIN = "<!-- rules-of-thumb:begin (scripts/rules_of_thumb.py writes this) -->"
END = "<!-- rules-of-thumb:end -->"
DERIVE = ("kniffel",)  # presets whose rules are chosen by forward selection
HEURISTIC_ONLY = ("kniffel-basic", "yahtzee")  # presets priced with the heuristic only
GREEDY_GAMES = 100_000


def entry(table, rule_list, curve, tried, progress):
    """The stored record of one preset: its rules, exact prices and the greedy simulation."""
    from solver.stats.simulate import simulate
    from solver.strategy.heuristic import heuristic
    from solver.strategy.policy_eval import evaluate
    heur = heuristic(table.rules)
    greedy = simulate(table, GREEDY_GAMES, seed=0, strategy="greedy", progress=progress)
    prices = [{"strategy": "optimal", "score": table.expected_score, "exact": True}]
    if rule_list is not heur:
        prices.append({"strategy": "thumb", "rules": rule_list.size,
                       "score": evaluate(table, rule_list), "exact": True})
    prices += [{"strategy": "heuristic", "rules": heur.size, "score": evaluate(table, heur),
                "exact": True},
               {"strategy": "greedy", "score": greedy.mean, "exact": False,
                "ci95": 1.96 * greedy.standard_error, "games": GREEDY_GAMES, "seed": 0}]
    return {"rules_dict": json.loads(json.dumps(table.rules.as_dict())),
            "rules": rule_list.as_dict(), "curve": [list(p) for p in curve],
            "evaluations": tried, "prices": prices}


def derive_all(progress=True):
    """Every stored record, computed now."""
    from solver.engine.backward import solve
    from solver.strategy.derive import derive
    from solver.strategy.heuristic import heuristic
    data = {}
    for name in HEURISTIC_ONLY:
        table = solve(name, progress=False)
        data[name] = entry(table, heuristic(table.rules), [], 0, progress)
    for name in DERIVE:
        table = solve(name, progress=False)
        found = derive(table, progress=progress)
        data[name] = entry(table, found.rules, found.curve, found.tried, progress)
    return {name: data[name] for name in DERIVE + HEURISTIC_ONLY}


def plot(data, path):
    """Score against the number of rules (matplotlib, the [plot] extra)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    record = data["kniffel"]
    prices = {p["strategy"]: p for p in record["prices"]}
    n, score = zip(*record["curve"])
    fig, ax = plt.subplots(figsize=(7, 3.6), dpi=120)
    ax.plot(n, score, marker="o", color="black", label="rules of thumb (exact)")
    ax.axhline(prices["optimal"]["score"], ls="--", color="black", label="optimal")
    ax.axhline(prices["heuristic"]["score"], ls=":", color="tab:blue", label="heuristic")
    ax.axhline(prices["greedy"]["score"], ls="-.", color="tab:red", label="greedy (simulated)")
    ax.set_xlabel("rules in the list (box rules first, then keep rules)")
    ax.set_ylabel("expected final score")
    ax.set_title("kniffel: exact score of playing by the first n rules")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)


def results_block(data):
    """docs/results.md's table of rules-of-thumb prices, and the kniffel rules in words."""
    from solver.strategy.derived import RuleList
    from solver.report.pages import box_rule_text, keep_rule_text
    from solver.presets import resolve_rules
    lines = ["| preset | strategy | rules | expected score | how |", "|---|---|---:|---:|---|"]
    labels = {"optimal": "optimal (solved table)", "thumb": "rules of thumb (derived)",
              "heuristic": "sensible human (hand-written)", "greedy": "greedy baseline"}
    for name, record in data.items():
        for p in record["prices"]:
            how = ("exact" if p["exact"] else
                   f"simulated, {p['games']:,} games, ± {p['ci95']:.2f} (95%)")
            lines.append(f"| `{name}` | {labels[p['strategy']]} | {p.get('rules', '')} | "
                         f"{p['score']:.1f} | {how} |")
    rules = resolve_rules("kniffel")
    rule_list = RuleList.from_dict(data["kniffel"]["rules"])
    lines += ["", "The derived rules for `kniffel` (first match wins):", "",
              "- keeps: " + "; ".join(keep_rule_text(r, rules, "en") for r in rule_list.keeps)
              + "; otherwise reroll all five.",
              "- boxes: " + "; ".join(box_rule_text(r, rules, "en") for r in rule_list.boxes)
              + "; otherwise the first open box."]
    return "\n".join(lines)


def replace_block(text, block):
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{block}\n{END}{tail}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--derive", action="store_true", help="choose and price the rules (slow)")
    parser.add_argument("--check", action="store_true", help="only check the block is current")
    parser.add_argument("--out", type=Path, default=RESULTS_DOC,
                        help="the file holding the block (default docs/results.md)")
    args = parser.parse_args(argv)
    if args.derive:
        data = derive_all()
        DERIVED.write_text(json.dumps(data, indent=1) + "\n")
        plot(data, PLOT)
    data = json.loads(DERIVED.read_text())
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
