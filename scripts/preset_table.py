"""Solve every preset and write their expected scores into README.md (between the markers).

    python scripts/preset_table.py            # rewrite the table in README.md
    python scripts/preset_table.py --check    # exit 1 if README.md is out of date
"""
import argparse
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
BEGIN = "<!-- preset-table:begin (scripts/preset_table.py writes this) -->"
END = "<!-- preset-table:end -->"


def table_markdown(tables):
    """Markdown table of presets: name, description, states and expected score (7 decimals)."""
    lines = ["| preset | rules | reachable states | optimal expected score |",
             "|---|---|---:|---:|"]
    for table in tables:
        rules = table.rules
        lines.append(f"| `{rules.key}` | {rules.description} | {table.states:,} | "
                     f"{table.expected_score:.7f} |")
    return "\n".join(lines)


def replace_block(text, block):
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{block}\n{END}{tail}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check README.md is current")
    args = parser.parse_args()
    from solver import solve
    from solver.presets import all_presets
    block = table_markdown([solve(name, progress=False) for name in all_presets()])
    text = README.read_text()
    if BEGIN not in text or END not in text:
        sys.exit(f"README.md lacks the markers {BEGIN} ... {END}")
    new = replace_block(text, block)
    if args.check:
        sys.exit(0 if new == text else "README.md preset table is out of date: run scripts/preset_table.py")
    README.write_text(new)
    print(block)


if __name__ == "__main__":
    main()
