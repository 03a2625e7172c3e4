"""`kniffel solve` and `kniffel rules`."""
import time

import click

from .common import (
    InputError,
    command_rules,
    emit_json,
    expected_table,
    json_option,
    quiet_option,
    rules_option,
    tables_option,
)


@click.command("solve")
@rules_option()
@tables_option()
@click.option("--force", is_flag=True, help="Solve again even when a valid table exists.")
@json_option("Print a JSON object instead of text.")
@quiet_option()
@click.option("--objective", type=click.Choice(["expected", "target"]), default="expected",
              show_default=True, help="expected: the expected-score table; target: the chance of "
              "reaching every score from every state (for advise --target and chances), and the "
              "store of opponents' distributions (for --opponent within its budget).")
def solve_command(rules_name, tables, force, as_json, quiet, objective):
    """Solve every reachable state of a rule set and save the value table.

    \b
    Example:
      kniffel solve --rules yahtzee --json
      kniffel solve --rules dice-duel
      kniffel solve --objective target --rules kniffel
    """
    rules = command_rules(rules_name)
    if objective == "target" and rules.game != "scorecard":
        raise InputError(f"the target objective is for the scorecard games, not {rules.key}")
    start = time.perf_counter()
    table, solved = _load_or_solve(rules, tables, objective, force, quiet or as_json)
    if objective == "target":  # what the win coach needs besides: the opponents' store
        _opponent_store(rules, tables, force, quiet or as_json)
    seconds = time.perf_counter() - start
    report = _report_target if objective == "target" else _report_expected
    report(rules, tables, table, solved, seconds, as_json)


def _load_or_solve(rules, tables, objective, force, quiet):
    """(the table of `objective`, whether it was solved now): the saved one unless `force`."""
    from .. import load_table, solve
    from ..engine.store import TableError
    if not force:
        try:
            return load_table(rules, tables, objective=objective), False
        except TableError:
            pass
    extra = ({"expected": expected_table(rules, tables, quiet).values} if objective == "target"
             else {})
    table = solve(rules, progress=False if quiet else None, objective=objective, **extra)
    table.save(tables)
    return table, True


def _opponent_store(rules, tables, force, quiet):
    """Build and save the store of opponents' distributions (stats/opponents.py) beside the
    tables unless a valid one is there: with the target table, the win advice answers within
    its budget from the first roll."""
    from ..stats import opponents
    expected = expected_table(rules, tables, quiet)
    if not force and opponents.load(expected, tables) is not None:
        return
    opponents.save(opponents.build(expected, progress=False if quiet else None), tables)


def _report_expected(rules, tables, table, solved, seconds, as_json):
    from ..engine.store import table_paths
    path = str(table.path or table_paths(rules, tables)[0])
    if as_json:
        emit_json({"rules": rules.key, "expected_score": table.expected_score,
                   "states": table.states, "seconds": seconds, "path": path, "solved": solved})
        return
    verb = "solved" if solved else "loaded (use --force to solve again)"
    click.echo(f"{rules.key}: expected score {table.expected_score:.7f}, "
               f"{table.states:,} states, {verb} in {seconds:.2f} s")
    click.echo(f"table: {path}")


def _report_target(rules, tables, table, solved, seconds, as_json):
    from ..engine.store import table_paths
    from ..engine.target.table import TARGET
    path = str(table_paths(rules, tables, TARGET)[0])
    chances = {str(t): table.lookup_raw(0, 0, 0, t)[0] for t in (200, 250, 300)}
    if as_json:
        emit_json({"rules": rules.key, "objective": "target", "entries": table.entries,
                   "chance_from_empty_card": chances, "seconds": seconds, "path": path,
                   "solved": solved})
        return
    verb = "solved" if solved else "loaded (use --force to solve again)"
    click.echo(f"{rules.key}: target table, {table.entries:,} entries, {verb} in {seconds:.2f} s; "
               "from the empty card " + ", ".join(f"P(>= {t}) {100 * p:.2f}%"
                                                  for t, p in chances.items()))
    click.echo(f"table: {path}")


@click.command(name="rules")
@click.option("--show", "show", metavar="NAME|FILE",
              help="Print the rules of a preset or rules file as a player reads them "
                   "(with --json: every resolved field).")
@json_option()
def rules_command(show, as_json):
    """List the rule presets with a one-line description each, or show one in full: the boxes
    and their points, the bonuses, what a further Kniffel may do (joker, extra bonus).

    \b
    Example:
      kniffel rules
      kniffel rules --show kniffel-championship
      kniffel rules --show house.toml --json
    """
    from ..presets import all_presets
    if show is not None:
        rules = command_rules(show)
        if as_json:
            data = {"name": rules.key, "description": rules.description, "rules": rules.as_dict()}
            if rules.game == "dice-duel":
                from ..duel.rules import TYPES, VALUES
                data["chips"] = dict(zip(TYPES, VALUES))
            else:
                data["boxes"] = list(rules.boxes)
            emit_json(data)
        elif rules.game == "dice-duel":
            from ..duel.describe import describe_duel
            click.echo(describe_duel(rules))
        else:
            from ..rules.describe import describe
            click.echo(describe(rules))
        return
    presets = all_presets()
    if as_json:
        emit_json([{"name": name, "description": r.description, "rules": r.as_dict()}
                    for name, r in presets.items()])
        return
    width = max(map(len, presets))
    for name, r in presets.items():
        click.echo(f"{name:<{width}}  {r.description}")
    click.echo("\nkniffel rules --show NAME prints the rules of one in full; docs/rules.md "
               "explains them.")
