"""`kniffel solve` and `kniffel rules`."""
import time

import click

from ..lang import LANGUAGES, Words
from .common import (
    InputError,
    build_win_tables,
    command_rules,
    command_tables,
    emit_json,
    json_option,
    lang_option,
    quiet_option,
    rules_option,
    tables_option,
)
from .stats import grouped


@click.command("solve")
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
@lang_option()
def solve_command(rules_name, tables, force, as_json, quiet, objective, levels, lang):
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
        _horizon(rules, tables, levels, force, quiet or as_json, as_json, Words(lang, rules))
        return
    if objective == "target" and rules.game != "scorecard":
        raise InputError(f"the target objective is for the scorecard games, not {rules.key}")
    start = time.perf_counter()
    if objective == "target":  # the win coach's tables: the target table, the opponents' store
        table, solved = _win_tables(rules, tables, force, quiet or as_json)
    else:
        table, solved = _load_or_solve(rules, tables, objective, force, quiet or as_json)
    seconds = time.perf_counter() - start
    report = _report_target if objective == "target" else _report_expected
    report(rules, tables, table, solved, seconds, as_json, Words(lang, rules))


def _horizon(rules, tables, levels, force, quiet, as_json, words):
    """Build (or finish) the Dice Duel's horizon table up to `levels` chips in play, on a
    person's request (duel/multiplayer/horizon.py), and report it in `words`."""
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
    click.echo(words("solve.horizon", rules=rules.key, levels=top,
                     values=grouped(table.positions, words), gigabytes=size / 1e9,
                     done=_done(bool(built), seconds, words)))
    click.echo(words("solve.table", path=str(paths[0].parent)))


def _load_or_solve(rules, tables, objective, force, quiet):
    """(the expected-score table, whether it was solved now): the saved one unless `force`."""
    from .. import load_table, solve
    from ..engine.store import TableError
    if not force:
        try:
            return load_table(rules, tables, objective=objective), False
        except TableError:
            pass
    table = solve(rules, progress=False if quiet else None, objective=objective)
    table.save(tables)
    return table, True


def _win_tables(rules, tables, force, quiet):
    """(the target table, whether anything was built now): the win coach's tables built as
    `advise --build` builds them (ask/build.py: a build stopped before goes on where it
    stopped), all of them again with `force`."""
    from ..ask.build import PARTS, missing
    loaded = command_tables(tables, quiet)
    todo = list(PARTS) if force else missing(rules, loaded)
    if todo:
        build_win_tables(rules, loaded, quiet, todo)
    loaded.forget("target", rules)
    return loaded.target(rules), bool(todo)


def _report_expected(rules, tables, table, solved, seconds, as_json, words):
    from ..engine.store import table_paths
    path = str(table.path or table_paths(rules, tables)[0])
    if as_json:
        emit_json({"rules": rules.key, "expected_score": table.expected_score,
                   "states": table.states, "seconds": seconds, "path": path, "solved": solved})
        return
    click.echo(words("solve.expected", rules=rules.key, expected=table.expected_score,
                     states=grouped(table.states, words), done=_done(solved, seconds, words)))
    click.echo(words("solve.table", path=path))


def _done(solved, seconds, words):
    """"solved in 1.23 s", or loaded, in the language of `words`."""
    return words("solve.solved" if solved else "solve.loaded", seconds=seconds)


def _report_target(rules, tables, table, solved, seconds, as_json, words):
    from ..engine.store import table_paths
    from ..engine.target.table import TARGET
    path = str(table_paths(rules, tables, TARGET)[0])
    chances = {str(t): table.lookup_raw(0, 0, 0, t)[0] for t in (200, 250, 300)}
    if as_json:
        emit_json({"rules": rules.key, "objective": "target", "entries": table.entries,
                   "chance_from_empty_card": chances, "seconds": seconds, "path": path,
                   "solved": solved})
        return
    click.echo(words("solve.target", rules=rules.key, entries=grouped(table.entries, words),
                     done=_done(solved, seconds, words),
                     chances=", ".join(f"P(>= {t}) {100 * p:.2f}%" for t, p in chances.items())))
    click.echo(words("solve.table", path=path))


RULES_LANG_HELP = ("Language of the text: de or en (default: with --show, the pad's language of "
                   "the rules, German for Kniffel, English for Yahtzee and Yatzy; the list, which "
                   "holds presets of both, in English). JSON stays as it is.")


@click.command(name="rules")
@click.option("--show", "show", metavar="NAME|FILE",
              help="Print the rules of a preset or rules file as a player reads them "
                   "(with --json: every resolved field).")
@json_option()
@click.option("--lang", type=click.Choice(LANGUAGES), default=None, help=RULES_LANG_HELP)
def rules_command(show, as_json, lang):
    """List the rule presets with a one-line description each, or show one in full: the boxes
    and their points, the bonuses, what a further Kniffel may do (joker, extra bonus).

    The list is in English unless --lang says otherwise (it holds presets of both pads); a rule
    set shown in full is in its pad's language (the Dice Duel's rules in English for now).

    \b
    Example:
      kniffel rules
      kniffel rules --lang de
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
            click.echo(describe(rules, lang))
        return
    presets = all_presets()
    if as_json:
        emit_json([{"name": name, "description": r.description, "rules": r.as_dict()}
                    for name, r in presets.items()])
        return
    words = Words(lang or "en")  # the list mixes presets of both pads' languages
    width = max(map(len, presets))
    for name, r in presets.items():
        click.echo(f"{name:<{width}}  {r.definition.describe(words.lang)}")
    click.echo("\n" + words("rules.more"))
