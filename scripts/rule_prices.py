"""Each printed rule of thumb's own exact price, for every preset with a rules-of-thumb page:
what the whole list's exact expected score loses when that one rule is dropped (one exact policy
evaluation per rule, solver/strategy/rule_prices.py).  Rewrites the prices in
solver/data/rule_prices/PRESET.json (scripts/rules_of_thumb.py --derive writes the whole record,
prices included; this script only prices the stored list again), which `kniffel tables` prints;
tests/test_rule_prices.py checks a stored figure against a fresh evaluation.

    python scripts/rule_prices.py                 # every preset that has a rules page
    python scripts/rule_prices.py yahtzee yatzy   # only these
    python scripts/rule_prices.py --list          # the presets and whether their file is current

A 13-box preset takes about 25 evaluations (seconds each), Yatzy's 15 boxes about four times as
long per evaluation; tables missing from the store are solved first.
"""
import argparse
import json
import shlex
import sys
import time
from pathlib import Path

from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def page_presets():
    """The scorecard presets that have a rules-of-thumb page (every one without Knobeln jokers)."""
    from solver.rules import PRESETS
    return [name for name, rules in PRESETS.items() if not rules.jokers]


def compute(name, threads):
    """The record of preset `name`, computed now, with the command and the time it took."""
    from solver import get_table
    from solver.strategy.policy_eval import evaluate
    from solver.strategy.rule_prices import price_record, printed_rule_list
    table = get_table(name, progress=False)
    rule_list = printed_rule_list(table.rules)
    bar = tqdm(total=rule_list.size, desc=f"{name}: rules priced", unit="rule", leave=False)
    start, cpu = time.perf_counter(), time.process_time()
    record = price_record(table, rule_list, lambda t, r: evaluate(t, r, threads=threads),
                          bar.update)
    bar.close()
    from solver.strategy.rule_prices import path_of
    stored = json.loads(path_of(name).read_text()) if path_of(name).is_file() else {}
    if stored.get("rule_list") == record["rule_list"] and "curve" in stored:
        return dict(stored, **record)  # the derivation's record, its prices made again
    record["evaluations"] = rule_list.size + 1
    record["seconds"] = round(time.perf_counter() - start, 1)
    record["cpu_seconds"] = round(time.process_time() - cpu, 1)
    record["command"] = f"python scripts/rule_prices.py {name}"
    return record


def main(argv=None):
    from solver.presets import read_rules
    from solver.strategy.rule_prices import path_of, printed_rule_list, stored_prices
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*", help="default: every preset with a rules page")
    parser.add_argument("--threads", type=int, default=None, help="evaluation threads")
    parser.add_argument("--list", action="store_true", help="only say which files are current")
    args = parser.parse_args(argv)
    names = args.presets or page_presets()
    unknown = sorted(set(names) - set(page_presets()))
    if unknown:
        parser.error(f"no rules page for {', '.join(unknown)}; "
                     f"presets: {', '.join(page_presets())}")
    for name in names:
        rules = read_rules(name)
        if args.list:
            current = stored_prices(rules, printed_rule_list(rules)) is not None
            print(f"{name}: {'current' if current else 'missing or out of date'}")
            continue
        record = compute(name, args.threads)
        path_of(name).parent.mkdir(parents=True, exist_ok=True)
        path_of(name).write_text(json.dumps(record, indent=1) + "\n")
        prices = [r["price"] for r in record["keeps"] + record["boxes"]]
        print(f"{name}: whole list {record['score']:.4f}; {len(prices)} rule prices "
              f"{min(prices):+.3f} .. {max(prices):+.3f}; {record['evaluations']} evaluations in "
              f"{record['seconds']} s ({record['cpu_seconds']} s CPU)  [{shlex.join(sys.argv)}]",
              flush=True)


if __name__ == "__main__":
    main()
