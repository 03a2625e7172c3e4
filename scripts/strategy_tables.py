"""Regenerate the committed strategy tables in tables/ (Markdown, CSV and JSON per preset).

    python scripts/strategy_tables.py            # rewrite tables/
    python scripts/strategy_tables.py --check    # exit 1 if tables/ is out of date

tests/test_strategy_tables.py regenerates them into a temporary directory and compares bytes.
The whole value table is not committed (tens of MB): `kniffel tables --values` writes it.
"""
import argparse
import filecmp
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "tables"
PRESETS = ("kniffel", "kniffel-basic", "yahtzee")
FORMATS = ("md", "csv", "json")


def index_markdown(tables):
    """tables/README.md: what is here and how it is made."""
    from solver.report.tables import SECTIONS
    lines = ["# Strategy tables", "",
             "Written by `scripts/strategy_tables.py` from the solved value tables (do not edit by "
             "hand; a test checks they are current). Each preset has one file per section in "
             "Markdown (to read or print), CSV and JSON. `kniffel tables --rules NAME` writes them "
             "for any preset or rules file, and `kniffel tables --values` adds the whole value "
             "table (values.csv, values.npy + values.json). `strategy.html` holds the print-ready "
             "A4 pages (`kniffel tables --format html`): rules of thumb with their exact price, "
             "the opening by pattern, and what each box costs on the typical cards.", "",
             "| preset | rules | expected score | pages | " + " | ".join(SECTIONS) + " |",
             "|---|---|---:|---|" + "---|" * len(SECTIONS)]
    for table in tables:
        key = table.rules.key
        links = [f"[md]({key}/{name}.md) · [csv]({key}/{name}.csv) · [json]({key}/{name}.json)"
                 for name in SECTIONS]
        lines.append(f"| `{key}` | {table.rules.description} | {table.expected_score:.4f} | "
                     f"[html]({key}/strategy.html) | " + " | ".join(links) + " |")
    return "\n".join(lines) + "\n"


def generate(directory, tables):
    """Write the tables of every ValueTable in `tables` and the index into `directory`."""
    from solver.report.pages import page_html
    from solver.report.tables import write_tables
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for table in tables:
        write_tables(table, directory / table.rules.key, FORMATS)
        (directory / table.rules.key / "strategy.html").write_text(page_html(table))
    (directory / "README.md").write_text(index_markdown(tables))


def differences(a, b):
    """Relative paths of files that differ, or exist on one side only, between two trees."""
    files = {p.relative_to(a) for p in Path(a).rglob("*") if p.is_file()}
    files |= {p.relative_to(b) for p in Path(b).rglob("*") if p.is_file()}
    return sorted(str(f) for f in files if not ((a / f).is_file() and (b / f).is_file()
                                                 and filecmp.cmp(a / f, b / f, shallow=False)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check tables/ is current")
    args = parser.parse_args(argv)
    from solver.engine.backward import solve
    tables = [solve(name, progress=False) for name in PRESETS]
    if args.check:
        with tempfile.TemporaryDirectory() as scratch:
            generate(scratch, tables)
            stale = differences(Path(scratch), TABLES)
        sys.exit(f"tables/ is out of date ({', '.join(stale)}): run scripts/strategy_tables.py"
                 if stale else 0)
    generate(TABLES, tables)
    for path in sorted(TABLES.rglob("*")):
        if path.is_file():
            print(f"{path.stat().st_size:>9,}  {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
