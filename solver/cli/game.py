"""`kniffel play` (the terminal game) and `kniffel analyze` (what each decision of a record cost)."""
import sys
import time

import click

from .common import (RULES_HELP, TABLES_HELP, InputError, _emit_json, _scorecard_rules, _table,
                     check_output_file)


@click.command()
@click.option("--rules", "rules_name", default="kniffel", show_default=True, help=RULES_HELP)
@click.option("--tables", type=click.Path(file_okay=False), help=TABLES_HELP)
@click.option("--seed", type=click.IntRange(min=0), help="Dice seed: the same seed rolls the same dice "
              "(default: a fresh one, saved in the record).")
@click.option("--real-dice", is_flag=True, help="Type the dice thrown at the table instead of rolling.")
@click.option("--players", default="1", show_default=True,
              help='How many players, or their names: --players 3 or --players "Anna,Ben".')
@click.option("--coach", is_flag=True, help="Show the best moves before every decision and what yours cost.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False),
              help="Game record file (default: kniffel-game-DATE-TIME.json here; with --resume, that file).")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False),
              help="Go on with the game saved in this record (its rules, players and dice).")
def play(rules_name, tables, seed, real_dice, players, coach, record_path, resume_path):
    """Play Kniffel in the terminal, alone or several on one card, with a coach on request.

    Keep dice by typing their faces (335), Enter rerolls all, a keeps all; choose a box by name,
    German name or number; ? shows every choice with its cost; u undoes the last step (the roll
    just typed, a keep or a box); q saves and quits (with several players, after a yes).  The
    game record is saved after every decision and on Ctrl-C; --resume goes on with it.

    \b
    Example:
      kniffel play --seed 7 --coach
      kniffel play --players "Anna,Ben" --real-dice --rules yahtzee
      kniffel play --resume kniffel-game-20250101-200000.json
    """
    import random
    from ..game.card import Game, GameError, parse_players
    from ..game.terminal import play as run, seeded_rng
    if resume_path is not None:
        _resume(resume_path, record_path, tables, coach,
                given=rules_name != "kniffel" or seed is not None or real_dice or players != "1")
        return
    rules = _scorecard_rules(rules_name, "play")
    if real_dice and seed is not None:
        raise InputError("--seed has no use with --real-dice")
    try:
        names = parse_players(players)
    except GameError as exc:
        raise InputError(str(exc)) from None
    if seed is None and not real_dice:
        seed = random.SystemRandom().randrange(2**32)
    record_path = record_path or time.strftime("kniffel-game-%Y%m%d-%H%M%S.json")
    check_output_file(record_path, "--record")
    table = _table(rules, tables)
    game = Game(rules, names, seed, real_dice)
    status = run(game, table, record_path, coach=coach, rng=None if real_dice else seeded_rng(seed))
    if status == "interrupted":
        sys.exit(130)


def _resume(path, record_path, tables, coach, given):
    """Go on with a saved game: rebuilt by replaying its record, seeded dice where they left off."""
    from ..game import session
    from ..game.card import GameError
    from ..game.record import load_record
    from ..game.terminal import play as run
    if given:
        raise InputError("--resume takes the rules, players, seed and dice from the record")
    try:
        record = load_record(path)
        game, _ = session.rebuild(record)
    except GameError as exc:
        raise InputError(f"{path}: {exc}") from None
    if game.over:
        raise InputError(f"{path}: the game is over; see kniffel analyze {path}")
    if game.rules.game != "scorecard":
        raise InputError(f"{path}: not a scorecard game")
    table = _table(game.rules, tables)
    rng = None if game.real_dice else session.seeded_rng(game.seed, record)
    status = run(game, table, record_path or path, coach=coach, rng=rng)
    if status == "interrupted":
        sys.exit(130)


@click.command()
@click.argument("record_file", type=click.Path(dir_okay=False))
@click.option("--tables", type=click.Path(file_okay=False), help=TABLES_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def analyze(record_file, tables, as_json):
    """What each decision of a recorded game cost against optimal play, and totals per player.

    \b
    Example:
      kniffel analyze kniffel-game-20250101-200000.json
      kniffel analyze game.json --json
    """
    from ..game.analysis import analyze as run, report_lines
    from ..game.card import GameError
    from ..game.record import load_record, record_rules
    try:
        record = load_record(record_file)
        rules = record_rules(record["rules"])
    except GameError as exc:
        raise InputError(str(exc)) from None
    table = _table(rules, tables, quiet=as_json)
    try:
        result = run(record, table)
    except GameError as exc:
        raise InputError(f"{record_file}: {exc}") from None
    if as_json:
        _emit_json(result)
        return
    for line in report_lines(result):
        click.echo(line)
