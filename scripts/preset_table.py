"""Solve every preset and some notable house-rule variants, and write their expected scores into
docs/results.md and docs/rules.md (between the markers).

    python scripts/preset_table.py            # rewrite the tables
    python scripts/preset_table.py --check    # exit 1 if a table is out of date
    python scripts/preset_table.py --out DIR  # rewrite DIR/results.md and DIR/rules.md instead
"""
import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"  # results.md holds both tables, rules.md the variants again
BEGIN = "<!-- preset-table:begin (scripts/preset_table.py writes this) -->"
END = "<!-- preset-table:end -->"
VARIANTS_BEGIN = "<!-- variant-table:begin (scripts/preset_table.py writes this) -->"
VARIANTS_END = "<!-- variant-table:end -->"

# (preset, options, what the rules file plays): house rules worth a solved value of their own.
VARIANTS = [
    ("kniffel-championship", {"extra_kniffel_must_fit": True},
     "the stricter championship reading: a further Kniffel must go into a box it fits while one "
     "is open"),
    ("kniffel-basic", {"five_of_a_kind_is_full_house": True},
     "five of a kind also counts as a full house (one published Kniffel program plays so)"),
    ("yahtzee", {"joker": "none"},
     "Yahtzee's +100 for each further Yahtzee while the Yahtzee box holds 50, without a joker"),
]


def table_markdown(tables):
    """Markdown table of presets: name, description, states and expected score (7 decimals)."""
    lines = ["| preset | rules | reachable states | optimal expected score |",
             "|---|---|---:|---:|"]
    for table in tables:
        rules = table.rules
        lines.append(f"| `{rules.key}` | {rules.description} | {table.states:,} | "
                     f"{table.expected_score:.7f} |")
    return "\n".join(lines)


def variant_rules():
    """The Rules of each entry of VARIANTS, in order."""
    from solver.presets import get_rules
    return [get_rules(preset, **options) for preset, options, _ in VARIANTS]


def variants_markdown(variant_tables, preset_tables):
    """Markdown table of the VARIANTS (their tables, in order): the rules file, what it plays,
    its expected score and the change from its preset's (preset_tables: name -> table)."""
    lines = ["| rules file | plays | optimal expected score | change from the preset |",
             "|---|---|---:|---:|"]
    for (preset, options, plays), table in zip(VARIANTS, variant_tables):
        rules_file = json.dumps({"preset": preset, **options})
        change = table.expected_score - preset_tables[preset].expected_score
        lines.append(f"| `{rules_file}` | {plays} | {table.expected_score:.7f} | {change:+.9f} |")
    return "\n".join(lines)


def replace_block(text, block, begin=BEGIN, end=END):
    """`text` with what stands between the markers begin and end replaced by `block`."""
    head, _, rest = text.partition(begin)
    _, _, tail = rest.partition(end)
    return f"{head}{begin}\n{block}\n{end}{tail}"


def updated(path, blocks):
    """The text of `path` with each (begin, end, block) written between its markers."""
    text = path.read_text(encoding="utf-8")
    for begin, end, block in blocks:
        if begin not in text or end not in text:
            sys.exit(f"{path.name} lacks the markers {begin} ... {end}")
        text = replace_block(text, block, begin, end)
    return text


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the tables are current")
    parser.add_argument("--out", type=Path, default=DOCS,
                        help="the folder of results.md and rules.md (default docs/)")
    args = parser.parse_args(argv)
    from solver import solve
    from solver.presets import all_presets
    presets = {name: solve(name, progress=False) for name in all_presets()}
    variants = [solve(rules, progress=False) for rules in variant_rules()]
    presets_block = table_markdown(list(presets.values()))
    variants_block = variants_markdown(variants, presets)
    files = {args.out / "results.md": [(BEGIN, END, presets_block),
                                       (VARIANTS_BEGIN, VARIANTS_END, variants_block)],
             args.out / "rules.md": [(VARIANTS_BEGIN, VARIANTS_END, variants_block)]}
    stale = []
    for path, blocks in files.items():
        new = updated(path, blocks)
        if new != path.read_text(encoding="utf-8"):
            stale.append(path.name)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    if args.check:
        sys.exit(f"out of date: {', '.join(stale)}: run scripts/preset_table.py" if stale else 0)
    print(presets_block + "\n\n" + variants_block)


if __name__ == "__main__":
    main()
