"""What every command shares: the one-line errors, rules and table loading, output checks,
JSON output."""
import json
import os
from pathlib import Path

import click

EXIT_USAGE = 2


class InputError(click.ClickException):
    """Bad input from the user: one line on stderr, exit code 2."""

    exit_code = EXIT_USAGE

    def show(self, file=None):
        click.echo(f"kniffel: error: {self.format_message()}", err=True)


class CommandError(click.ClickException):
    """Input was fine but the command cannot do it here: one line on stderr, exit code 1."""

    def show(self, file=None):
        click.echo(f"kniffel: error: {self.format_message()}", err=True)


def _rules(name):
    from ..presets import resolve_rules
    from ..rules import RulesError
    try:
        return resolve_rules(name)
    except RulesError as exc:
        raise InputError(str(exc)) from None


def _scorecard_rules(name, command):
    """Rules for a command that plays on a scorecard (not the Dice Duel)."""
    rules = _rules(name)
    if rules.game != "scorecard":
        raise InputError(f"kniffel {command} is for the scorecard games, not {rules.key} "
                         f"(which has solve and advise)")
    return rules


def _table(rules, tables, quiet=False):
    """Load the table, solving it first (with progress on stderr) when missing or invalid."""
    from .. import get_table

    def announce(reason):
        if not quiet:
            why = "" if reason.startswith("no table") else f" ({reason})"
            click.echo(f"kniffel: solving the {rules.key} table, once{why}...", err=True)

    def warn(message):  # the answer is still given; once per rule set, as tables are kept
        click.echo(f"kniffel: warning: {message}", err=True)

    return get_table(rules, tables, progress=False if quiet else None, announce=announce, warn=warn)


def check_output_file(path, option):
    """InputError unless `path` can be written (its directory exists and takes new files), so a
    command fails before its work, not after it.  (A race after the check still fails later.)"""
    target = Path(path)
    if target.is_dir():
        raise InputError(f"{option} {path}: is a directory")
    parent = target.parent
    if not parent.is_dir():
        raise InputError(f"{option} {path}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise InputError(f"{option} {path}: cannot be written here (permission denied)")


def check_output_dir(path, option):
    """InputError unless directory `path` exists or can be made: its nearest existing ancestor
    is a directory that takes new entries."""
    for ancestor in [Path(path), *Path(path).parents]:
        if ancestor.exists():
            if not ancestor.is_dir():
                raise InputError(f"{option} {path}: {ancestor} is not a directory")
            if not os.access(ancestor, os.W_OK | os.X_OK):
                raise InputError(f"{option} {path}: {ancestor} cannot be written (permission denied)")
            return


def _emit_json(data):
    click.echo(json.dumps(data))


RULES_HELP = "Preset name (see `kniffel rules`) or a JSON/TOML rules file."


TABLES_HELP = "Table store directory (default: $KNIFFEL_TABLES, else the user cache)."


def _parse_position(rules, card, kniffel_bonuses, jokers_left):
    from ..engine.states import Position
    from ..rules.cards import parse_card
    try:
        return Position(parse_card(card, rules), kniffel_bonuses, jokers_left)
    except ValueError as exc:
        raise InputError(str(exc)) from None
