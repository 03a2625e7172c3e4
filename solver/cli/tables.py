"""`kniffel tables`: printable strategy tables."""

import click

from .common import (
    RULES_HELP,
    CommandError,
    InputError,
    check_output_dir,
    command_position,
    emit_json,
    expected_table,
    json_option,
    lang_option,
    quiet_option,
    rules_option,
    scorecard_rules,
    tables_option,
)

PAGE_FORMATS = ("html", "pdf")


@click.command(name="tables")
@rules_option("rules_names", multiple=True, metavar="NAME|FILE",
              help=RULES_HELP + " Repeat for several (default: kniffel).")
@tables_option()
@click.option("--out", type=click.Path(file_okay=False), default="tables", show_default=True,
              help="Directory to write into, one subdirectory per rule set.")
@click.option("--format", "formats", type=click.Choice(["md", "csv", "json"] + list(PAGE_FORMATS)),
              multiple=True, help="File format; repeat for several (default: md). html: "
              "print-ready A4 pages (strategy.html); pdf: the same pages printed by headless "
              "Chromium.")
@click.option("--card", default=None, help='html/pdf: the box costs of this card, e.g. '
              '"ones=3,fives=15" (default: a page for each typical card).')
@click.option("--values", is_flag=True, help="Also export the whole value table: values.csv, "
              "values.npy and values.json (tens of MB).")
@click.option("--prune", is_flag=True, help="Instead: delete the store's tables of house rules "
              "(those `kniffel serve` solves for a new game's options) but the --keep used last; "
              "the presets' tables stay.")
@click.option("--keep", type=click.IntRange(min=0), default=None, metavar="N",
              help="With --prune: how many tables of house rules stay (default: the 8 the server "
              "keeps).")
@json_option("Print the written (with --prune: the deleted) files as JSON.")
@quiet_option()
@lang_option()
def tables_command(rules_names, tables, out, formats, card, values, prune, keep, as_json, quiet,
                   lang):
    """Write strategy tables: the opening turn, a box-choice cheat sheet, and print-ready pages
    (rules of thumb with their exact price, the opening by pattern, what each box costs).
    With --prune: clean the table store of house rules' tables instead.

    \b
    Example:
      kniffel tables --rules kniffel --rules yahtzee --out my-tables
      kniffel tables --rules kniffel-basic --format csv --values
      kniffel tables --format html --card "ones=3,twos=6,kniffel=50"
      kniffel tables --prune --keep 2      # the two house rules used last stay
    """
    if prune or keep is not None:
        return _prune(tables, keep, as_json, quiet)
    from pathlib import Path

    from ..report.tables import write_tables
    from ..report.values import export_values
    rule_sets = [scorecard_rules(name, "tables") for name in rules_names or ("kniffel",)]
    check_output_dir(out, "--out")
    formats = formats or ("md",)
    pages = [f for f in formats if f in PAGE_FORMATS]
    if "pdf" in pages:
        from ..report.pdf import chromium
        if chromium() is None:
            raise CommandError("PDF needs Chromium (Debian: apt-get install chromium); "
                               "--format html writes the same pages to print from a browser")
    cards = {rules: [("", command_position(rules, card, None, None).position.card)]
             if card is not None else None
             for rules in rule_sets}
    progress = not (quiet or as_json)
    written = []
    for rules in rule_sets:
        table = expected_table(rules, tables, quiet=not progress)
        directory = Path(out) / rules.key
        text_formats = [f for f in formats if f not in PAGE_FORMATS]
        if text_formats:
            written += write_tables(table, directory, text_formats, progress=progress, lang=lang)
        if pages:
            written += _write_pages(table, directory, pages, cards[rules], lang)
        if values:
            written += export_values(table, directory, progress=progress)
    if as_json:
        emit_json([{"path": str(p), "bytes": p.stat().st_size} for p in written])
        return
    for path in written:
        click.echo(f"{path.stat().st_size:>12,}  {path}")


def _prune(tables, keep, as_json, quiet):
    """`kniffel tables --prune`: the store's house rules beyond `keep` deleted, listed."""
    ctx = click.get_current_context()
    others = [f"--{name.replace('_', '-')}"
              for name in ("rules_names", "out", "formats", "card", "values", "lang")
              if ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT]
    if not ctx.params["prune"]:
        raise InputError("--keep goes with --prune")
    if others:
        raise InputError(f"--prune cleans the table store: it takes --tables, --keep, --json and "
                         f"--quiet, not "
                         f"{', '.join(o.replace('--rules-names', '--rules') for o in others)}")
    from ..engine.store import table_dir
    from ..engine.table_cache import HOUSE_RULES_KEPT, prune_house_rules
    store = table_dir(tables)
    if store.exists() and not store.is_dir():
        raise InputError(f"--tables {store} is not a directory")
    removed = prune_house_rules(store, HOUSE_RULES_KEPT if keep is None else keep)
    if as_json:
        emit_json([{"rules": key, "deleted": [str(p) for p in paths]} for key, paths in removed])
        return
    if not quiet:
        for key, paths in removed:
            click.echo(f"deleted {key}: {', '.join(p.name for p in paths)}")
        click.echo(f"{len(removed)} table(s) of house rules deleted from {store}")


def _write_pages(table, directory, pages, cards, lang):
    """strategy.html and/or strategy.pdf in `directory`; the PDF alone is printed from an HTML
    file in a scratch folder, so an existing strategy.html is left as it is."""
    import tempfile
    from pathlib import Path

    from ..engine.store import atomic_write
    from ..report.pages import page_html
    from ..report.pdf import html_to_pdf
    directory.mkdir(parents=True, exist_ok=True)
    text = page_html(table, cards, lang).encode()
    written = []
    with tempfile.TemporaryDirectory() as scratch:
        html_path = (directory / "strategy.html" if "html" in pages
                     else Path(scratch) / "strategy.html")
        atomic_write(html_path, text)
        if "html" in pages:
            written.append(html_path)
        if "pdf" in pages:
            html_to_pdf(html_path, directory / "strategy.pdf")
            written.append(directory / "strategy.pdf")
    return written

