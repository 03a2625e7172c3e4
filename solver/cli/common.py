"""What every command shares: the one-line errors, rules and table loading, output checks,
JSON output."""
import json
import os
import sys
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


def command_rules(name):
    """The Rules of a --rules value (presets.read_rules, the one reader of a rules name);
    InputError (exit 2) naming a bad one."""
    from ..presets import read_rules
    from ..rules import RulesError
    try:
        return read_rules(name)
    except RulesError as exc:
        raise InputError(str(exc)) from None


# How the command line spells the fields of a question (ask/request.py), for its messages.
FLAGS = {"rules": "--rules", "card": "--card", "dice": "--dice", "rolls_left": "--rolls-left",
         "kniffel_bonuses": "--kniffel-bonuses", "jokers_left": "--jokers-left",
         "goal": "--goal", "target": "--target", "opponents": "--opponent", "ties": "--ties",
         "budget": "--budget", "chips": "--chips", "players": "--players",
         "to_move": "--to-move", "round_chip_taken": "--round-chip-taken",
         "opponent_model": "--opponent-model", "why": "--why"}


def command_request(fields, names=None):
    """The Request of a command's options (ask/request.py: the one reader of a question);
    InputError (exit 2) naming the option that is wrong (`names`: the command's own spellings
    beyond FLAGS)."""
    from ..ask.request import read_request
    try:
        return read_request(fields, names={**FLAGS, **(names or {})})
    except ValueError as exc:  # RequestError, and RulesError of a rules file
        raise InputError(str(exc)) from None


def scorecard_rules(name, command):
    """Rules for a command that plays on a scorecard (not the Dice Duel)."""
    rules = command_rules(name)
    if rules.game != "scorecard":
        raise InputError(f"kniffel {command} is for the scorecard games, not {rules.key} "
                         f"(which has solve, advise, play and analyze)")
    return rules


def _loading(quiet):
    """get_table's progress, announce and warn for a command: progress and the reason for a
    solve on stderr unless quiet; a table that cannot be saved is a warning (the answer is
    still given)."""
    def announce(rules, reason):
        if not quiet:
            why = "" if reason.startswith("no table") else f" ({reason})"
            click.echo(f"kniffel: solving the {rules.key} table, once{why}...", err=True)

    def warn(message):
        click.echo(f"kniffel: warning: {message}", err=True)

    def compiling(feature):
        if not quiet:
            coach = {"win": "win coach", "duel": "Dice Duel coach",
                     "why": "why coach"}.get(feature, feature)
            click.echo(f"kniffel: compiling the {coach}'s kernels, once...", err=True)

    return {"progress": False if quiet else None, "announce": announce, "warn": warn,
            "compiling": compiling}


def command_tables(tables, quiet=False):
    """The one cache of loaded tables (ask/tables.Tables) of a command's --tables store: the
    expected-score table is solved first when missing, the target table only loaded."""
    from ..ask.tables import Tables
    return Tables(tables, **_loading(quiet))


def build_win_tables(rules, tables, quiet=False, parts=None):
    """Build the win coach's missing tables of `rules` (or `parts` of them) in the store of the
    cache `tables` (ask/build.py), saying first what they cost, with a progress bar on stderr
    unless quiet; a build stopped before goes on from its checkpoint.  CommandError when
    another process is building them."""
    from ..ask import build
    missing = build.missing(rules, tables) if parts is None else list(parts)
    if not missing:
        return
    offer = build.offer(rules, tables, missing)
    if not quiet and offer is not None:
        size = offer["disk_bytes"] / 1e9
        click.echo(f"kniffel: building the win coach's tables of {rules.key} ({', '.join(missing)}"
                   f"; about {size:.1f} GB on disk and {offer['seconds'] / 60:.0f} min on this "
                   "machine, an estimate), once...", err=True)
    from tqdm import tqdm
    with tqdm(total=100, unit="%", disable=quiet, file=sys.stderr, leave=False,
              bar_format="{l_bar}{bar}| {n:.0f}% [{elapsed}<{remaining}{postfix}]") as bar:
        def report(stage, fraction, eta):
            bar.n = round(100 * fraction, 1)
            bar.set_postfix_str(stage, refresh=False)
            bar.refresh()

        result = build.build(rules, tables, missing, report=report)
    if result == "busy":
        raise CommandError(f"the win coach's tables of {rules.key} are being built by another "
                           "process; ask again when it is done")


def expected_table(rules, tables, quiet=False):
    """Load the table, solving it first (with progress on stderr) when missing or invalid."""
    from ..ask.tables import get_table
    loading = _loading(quiet)
    del loading["compiling"]  # a table alone compiles no feature's kernels
    return get_table(rules, tables, **loading)


def target_table(rules, tables):
    """The saved target table; a missing one is a clear error naming the command that builds
    it (the whole kniffel table takes many minutes: not a side effect of one question)."""
    from ..ask.tables import load_table
    from ..engine.store import TableError
    try:
        return load_table(rules, tables, kind="target")
    except TableError as exc:
        raise CommandError(str(exc)) from None


def check_output_file(path, option):
    """InputError unless `path` can be written (its directory exists and takes new files), so a
    command fails before its work, not after it.  (A race after the check still fails later.)"""
    target = Path(path)
    if target.is_dir():
        raise InputError(f"{option} {path}: is a directory")
    parent = target.parent
    if not parent.is_dir():
        raise InputError(f"{option} {path}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) \
            or (target.exists() and not os.access(target, os.W_OK)):
        raise InputError(f"{option} {path}: cannot be written here (permission denied)")


def check_output_dir(path, option):
    """InputError unless directory `path` exists or can be made: its nearest existing ancestor
    is a directory that takes new entries."""
    for ancestor in [Path(path), *Path(path).parents]:
        if ancestor.exists():
            if not ancestor.is_dir():
                raise InputError(f"{option} {path}: {ancestor} is not a directory")
            if not os.access(ancestor, os.W_OK | os.X_OK):
                raise InputError(f"{option} {path}: {ancestor} cannot be written "
                                 "(permission denied)")
            return


def emit_json(data):
    """Print `data` as one line of JSON (--json)."""
    click.echo(json.dumps(data))


RULES_HELP = "Preset name (see `kniffel rules`) or a JSON/TOML rules file."


TABLES_HELP = "Table store directory (default: $KNIFFEL_TABLES, else the user cache)."


def command_position(rules, card, kniffel_bonuses, jokers_left):
    """The checked position (advice/position.Query) of --card, --kniffel-bonuses and
    --jokers-left at a turn's start; InputError naming a bad one."""
    fields = {"rules": rules, "card": card, "kniffel_bonuses": kniffel_bonuses,
              "jokers_left": jokers_left}
    return command_request({k: v for k, v in fields.items() if v is not None}).query


# The options every command shares, each a decorator (as sqlite-utils writes them): a command
# takes @rules_option() and gets a `rules_name` parameter, and so on.
LANG_HELP = ("Language of the text: de or en (default: the pad's language of the rules, German "
             "for Kniffel, English for Yahtzee and Yatzy). JSON keys and box keys stay as they "
             "are.")


def rules_option(name="rules_name", **options):
    """--rules NAME|FILE -> `name` (default kniffel); options: click.option's, e.g. multiple."""
    options.setdefault("help", RULES_HELP)
    if not options.get("multiple"):
        options.setdefault("default", "kniffel")
        options.setdefault("show_default", True)
    return click.option("--rules", name, **options)


def tables_option():
    """--tables DIR -> tables."""
    return click.option("--tables", type=click.Path(file_okay=False), help=TABLES_HELP)


def json_option(help="Print JSON instead of text."):
    """--json -> as_json."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def quiet_option(help="No progress bar."):
    """--quiet -> quiet."""
    return click.option("--quiet", is_flag=True, help=help)


def lang_option():
    """--lang de|en -> lang (None: the pad's language of the rules; solver/lang)."""
    from ..lang import LANGUAGES
    return click.option("--lang", type=click.Choice(LANGUAGES), default=None, help=LANG_HELP)


def position_options(function):
    """--kniffel-bonuses and --jokers-left, what a position needs besides its card ->
    kniffel_bonuses, jokers_left."""
    function = click.option("--jokers-left", type=int,
                            help="Knobeln jokers still in hand (default: all).")(function)
    return click.option("--kniffel-bonuses", type=int,
                        help="Extra-Kniffel bonuses already paid (default 0).")(function)


def history_options(function):
    """--db and --no-history: where the games are kept (history/store.py), or that this one
    is not."""
    function = click.option("--no-history", "no_history", is_flag=True,
                            help="Keep no game in the history.")(function)
    return click.option("--db", "db", type=click.Path(dir_okay=False),
                        help="The history database (default: $KNIFFEL_DB, else history.sqlite "
                        "in the user data directory).")(function)


def history_ready(db, no_history):
    """Before any work: the history that will keep this game (its path, or None for the
    default place), or False with --no-history; InputError (one line, the file left as it
    is) when it cannot be used."""
    if no_history:
        return False
    from ..history.games import check_history
    from ..history.store import HistoryError
    try:
        check_history(db)
    except HistoryError as exc:
        raise InputError(f"history: {exc} (or --no-history)") from None
    return db


def keep_in_history(db, record, analysis, source):
    """Keep a game in the history readied by history_ready (nothing when it said False)."""
    if db is False:
        return
    from ..history.games import keep_game
    from ..history.store import HistoryError
    try:
        keep_game(db, record, analysis, source)
    except HistoryError as exc:
        raise InputError(f"history: {exc}") from None
