"""`kniffel tables`: printable strategy tables."""

import click

from .common import (RULES_HELP, TABLES_HELP, _emit_json, _scorecard_rules, _table,
                     check_output_dir)


@click.command(name="tables")
@click.option("--rules", "rules_names", multiple=True, metavar="NAME|FILE",
              help=RULES_HELP + " Repeat for several (default: kniffel).")
@click.option("--tables", type=click.Path(file_okay=False), help=TABLES_HELP)
@click.option("--out", type=click.Path(file_okay=False), default="tables", show_default=True,
              help="Directory to write into, one subdirectory per rule set.")
@click.option("--format", "formats", type=click.Choice(["md", "csv", "json"]), multiple=True,
              help="File format; repeat for several (default: md).")
@click.option("--values", is_flag=True, help="Also export the whole value table: values.csv, "
              "values.npy and values.json (tens of MB).")
@click.option("--json", "as_json", is_flag=True, help="Print the written files as JSON.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def tables_command(rules_names, tables, out, formats, values, as_json, quiet):
    """Write strategy tables: the opening turn and a box-choice cheat sheet.

    \b
    Example:
      kniffel tables --rules kniffel --rules yahtzee --out my-tables
      kniffel tables --rules kniffel-basic --format csv --values
    """
    from pathlib import Path
    from ..strategy_tables import export_values, write_tables
    rule_sets = [_scorecard_rules(name, "tables") for name in rules_names or ("kniffel",)]
    check_output_dir(out, "--out")
    progress = not (quiet or as_json)
    written = []
    for rules in rule_sets:
        table = _table(rules, tables, quiet=not progress)
        directory = Path(out) / rules.key
        written += write_tables(table, directory, formats or ("md",), progress=progress)
        if values:
            written += export_values(table, directory, progress=progress)
    if as_json:
        _emit_json([{"path": str(p), "bytes": p.stat().st_size} for p in written])
        return
    for path in written:
        click.echo(f"{path.stat().st_size:>12,}  {path}")
