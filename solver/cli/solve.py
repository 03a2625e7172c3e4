"""`kniffel solve` and `kniffel rules`."""
import time

import click

from .common import (InputError, command_rules, emit_json, expected_table, json_option, quiet_option, rules_option, tables_option)


@click.command()
@rules_option()
@tables_option()
@click.option("--force", is_flag=True, help="Solve again even when a valid table exists.")
@json_option("Print a JSON object instead of text.")
@quiet_option()
@click.option("--objective", type=click.Choice(["expected", "target", "horizon"]),
              default="expected", show_default=True,
              help="expected: the expected-score table; target: the chance of "
              "reaching every score from every state (for advise --target and chances), and the "
              "store of opponents' distributions (for --opponent within its budget); horizon "
              "(dice-duel): the exact chance of every 2-player position with at most --levels "
              "chips in play, which the advice reads.")
@click.option("--levels", type=click.IntRange(1, 8), default=None, metavar="N",
              help="--objective horizon: chips in play the table covers (default 4; a stopped "
                   "build goes on from the levels it saved).")
def solve(rules_name, tables, force, as_json, quiet, objective, levels):
    """Solve every reachable state of a rule set and save the value table.

    \b
    Example:
      kniffel solve --rules yahtzee --json
      kniffel solve --rules dice-duel
      kniffel solve --objective target --rules kniffel
      kniffel solve --objective horizon --rules dice-duel --levels 4
    """
    rules = command_rules(rules_name)
    if levels is not None and objective != "horizon":
        raise InputError("--levels is for --objective horizon")
    if objective == "horizon":
        _horizon(rules, tables, levels, force, quiet or as_json, as_json)
        return
    if objective == "target" and rules.game != "scorecard":
        raise InputError(f"the target objective is for the scorecard games, not {rules.key}")
    start = time.perf_counter()
    table, solved = _load_or_solve(rules, tables, objective, force, quiet or as_json)
    if objective == "target":  # what the win coach needs besides: the opponents' store
        _opponent_store(rules, tables, force, quiet or as_json)
    seconds = time.perf_counter() - start
    report = _report_target if objective == "target" else _report_expected
    report(rules, tables, table, solved, seconds, as_json)


def _horizon(rules, tables, levels, force, quiet, as_json):
    """Build (or finish) the Dice Duel's horizon table up to `levels` chips in play, on a
    person's request (duel/multiplayer/horizon.py), and report it."""
    from ..duel.multiplayer import horizon
    if rules.game != "dice-duel":
        raise InputError(f"the horizon objective is for the Dice Duel, not {rules.key}")
    top = levels or horizon.DEFAULT_TOP
    start = time.perf_counter()
    try:
        table, built = horizon.build(rules, top, tables, progress=False if quiet else None,
                                     force=force)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    seconds = time.perf_counter() - start
    paths = horizon.level_paths(rules, top, tables)
    size = sum(path.stat().st_size for path in paths)
    if as_json:
        emit_json({"rules": rules.key, "objective": "horizon", "levels": top,
                   "values": table.positions, "bytes": size, "seconds": seconds,
                   "built": {str(k): s for k, s in built.items()}, "path": str(paths[0].parent)})
        return
    verb = (f"level{'s' if len(built) > 1 else ''} {', '.join(map(str, built))} solved"
            if built else "loaded (use --force to solve again)")
    click.echo(f"{rules.key}: horizon table of every 2-player position with at most {top} chips "
               f"in play, {table.positions:,} values ({size / 1e9:.2f} GB), {verb} in "
               f"{seconds:.1f} s")
    click.echo(f"table: {paths[0].parent}")


def _load_or_solve(rules, tables, objective, force, quiet):
    """(the table of `objective`, whether it was solved now): the saved one unless `force`."""
    from .. import load_table, solve
    from ..engine.store import TableError
    if not force:
        try:
            return load_table(rules, tables, objective=objective), False
        except TableError:
            pass
    extra = {"expected": expected_table(rules, tables, quiet).values} if objective == "target" else {}
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
               "from the empty card " + ", ".join(f"P(>= {t}) {100 * p:.2f}%" for t, p in chances.items()))
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
    click.echo("\nkniffel rules --show NAME prints the rules of one in full; docs/rules.md explains them.")
