"""`kniffel play` (the terminal game) and `kniffel analyze` (what each decision of a record cost)."""
import sys
import time

import click

from .common import (InputError, check_output_file, command_rules, emit_json, expected_table, json_option, lang_option, rules_option, scorecard_rules, tables_option)


@click.command()
@rules_option()
@tables_option()
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
@click.option("--goal", "goal_text", default="points", show_default=True, metavar="points|win|target:T",
              help="What the coach plays for: the expected final score, a win against the other "
              "players (with several), or a final score of at least T (needs the target table).")
@click.option("--ties", type=click.Choice(["share", "lose"]), default="share", show_default=True,
              help="With --goal win: a tie for first is a shared win (1/k) or a loss.")
@click.option("--budget", type=str, default="1", show_default=True, metavar="SECONDS",
              help="With --goal win: the seconds each advice may take (the exact sub-game where "
              "it fits, else an approximation marked ≈).")
@lang_option()
def play(rules_name, tables, seed, real_dice, players, coach, record_path, resume_path, goal_text, ties,
         budget, lang):
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
      kniffel play --players "Anna,Ben" --coach --goal win
      kniffel play --rules dice-duel --players "Anna,Ben,Carla" --coach
    """
    import random
    from ..game.card import Game, GameError, parse_players
    from ..game.terminal import play as run, seeded_rng
    goal = _goal(goal_text, ties, coach, budget)
    if resume_path is not None:
        _resume(resume_path, record_path, tables, coach, goal, lang,
                given=rules_name != "kniffel" or seed is not None or real_dice or players != "1")
        return
    if real_dice and seed is not None:
        raise InputError("--seed has no use with --real-dice")
    if _is_duel(rules_name):
        from .duel_play import play_duel
        play_duel(command_rules(rules_name), _names(players), seed, real_dice, record_path, coach,
                  lang)
        return
    rules = scorecard_rules(rules_name, "play")
    try:
        names = parse_players(players)
    except GameError as exc:
        raise InputError(str(exc)) from None
    if seed is None and not real_dice:
        seed = random.SystemRandom().randrange(2**32)
    record_path = record_path or time.strftime("kniffel-game-%Y%m%d-%H%M%S.json")
    check_output_file(record_path, "--record")
    game = Game(rules, names, seed, real_dice)
    target_table = _goal_tables(goal, game.rules, len(game.columns), tables)
    table = expected_table(rules, tables)
    _prepare_win(goal, table)
    status = run(game, table, record_path, coach=coach, rng=None if real_dice else seeded_rng(seed),
                 goal=goal, target_table=target_table, lang=lang)
    if status == "interrupted":
        sys.exit(130)


def _is_duel(rules_name):
    return command_rules(rules_name).game == "dice-duel"


def _names(players):
    from ..game.card import GameError, parse_players
    try:
        return parse_players(players)
    except GameError as exc:
        raise InputError(str(exc)) from None


def _goal(text, ties, coach=True, budget="1"):
    from dataclasses import replace
    from ..advice.goal import POINTS, check_budget, parse_goal
    try:
        seconds = check_budget(budget)
    except ValueError as exc:
        raise InputError(f"--budget: {exc}") from None
    try:
        goal = parse_goal(text, ties)
    except ValueError as exc:
        raise InputError(f"--goal: {exc}") from None
    if goal != POINTS:
        goal = replace(goal, budget=seconds)
    if goal != POINTS and not coach:
        raise InputError("--goal is what the coach plays for: add --coach")
    return goal


def _prepare_win(goal, table):
    """With --goal win: start building the win coach's tables in the background when they are
    missing (advice/win/prepare.py); the coach says how far the build is as it advises."""
    if getattr(goal, "kind", None) != "win":
        return
    from ..advice.win.coach import saved_target_table
    from ..advice.win.prepare import ensure, store_directory
    from ..stats.opponents import get_store
    if saved_target_table(table) is None or get_store(table, build_missing=False) is None:
        ensure(table.rules, store_directory(table))


def _goal_tables(goal, rules, n_players, tables):
    """The target table a goal needs (None for the others); InputError when it cannot be had."""
    if goal.needs_opponents and n_players < 2:
        raise InputError("--goal win needs other players: --players \"Anna,Ben\"")
    if goal.table_kind != "target":
        return None
    from ..engine.store import TableError
    from .. import load_table
    from ..rules.bounds import score_bound
    if goal.target > score_bound(rules):
        raise InputError(f"--goal target:T: T must be 0-{score_bound(rules)} for {rules.key}")
    try:
        return load_table(rules, tables, objective="target")
    except TableError as exc:
        raise InputError(f"--goal target needs the target table: {exc}") from None


def _resume(path, record_path, tables, coach, goal, lang, given):
    """Go on with a saved game: rebuilt by replaying its record, seeded dice where they left off."""
    from ..game import session
    from ..game.card import GameError
    from ..game.record import load_record
    from ..game.terminal import play as run
    if given:
        raise InputError("--resume takes the rules, players, seed and dice from the record")
    from ..duel.multiplayer.record import is_duel_record
    try:
        record = load_record(path)
        if is_duel_record(record):
            from .duel_play import resume_duel
            return resume_duel(record, path, record_path, coach, lang)
        game, _ = session.rebuild(record)
    except GameError as exc:
        raise InputError(f"{path}: {exc}") from None
    if game.over:
        raise InputError(f"{path}: the game is over; see kniffel analyze {path}")
    if game.rules.game != "scorecard":
        raise InputError(f"{path}: not a scorecard game")
    target_table = _goal_tables(goal, game.rules, len(game.columns), tables)
    table = expected_table(game.rules, tables)
    _prepare_win(goal, table)
    rng = None if game.real_dice else session.seeded_rng(game.seed, record)
    status = run(game, table, record_path or path, coach=coach, rng=rng, goal=goal,
                 target_table=target_table, lang=lang)
    if status == "interrupted":
        sys.exit(130)


@click.command()
@click.argument("record_file", type=click.Path(dir_okay=False))
@tables_option()
@json_option()
@click.option("--goal", "goal_text", default="points", show_default=True, metavar="points|win|target:T",
              help="Also the chance of this goal with each choice: win (a record of several "
              "players; slow early in a game) or target:T (needs the target table).")
@click.option("--ties", type=click.Choice(["share", "lose"]), default="share", show_default=True,
              help="With --goal win: a tie for first is a shared win (1/k) or a loss.")
@click.option("--from-round", type=click.IntRange(min=1), default=1, show_default=True,
              help="With --goal: the goal's chance for the decisions from this round on.")
@lang_option()
def analyze(record_file, tables, as_json, goal_text, ties, from_round, lang):
    """What each decision of a recorded game cost against optimal play, and totals per player.

    \b
    Example:
      kniffel analyze kniffel-game-20250101-200000.json
      kniffel analyze game.json --json
      kniffel analyze docs/examples/kniffel-game.json --goal win --from-round 10
    """
    from ..advice.goal import POINTS
    from ..game.analysis import analyze as run, report_lines
    from ..game.card import GameError
    from ..game.record import load_record, record_rules
    from ..duel.multiplayer.record import is_duel_record
    try:
        record = load_record(record_file)
        if is_duel_record(record):
            from .duel_play import analyze_duel
            return analyze_duel(record, record_file, as_json, lang)
        rules = record_rules(record["rules"])
    except GameError as exc:
        raise InputError(str(exc)) from None
    goal = _goal(goal_text, ties)
    target_table = None
    if goal != POINTS:
        from ..game.record import record_players
        try:
            players = record_players(record)
        except GameError as exc:
            raise InputError(str(exc)) from None
        target_table = _goal_tables(goal, rules, len(players), tables)
    table = expected_table(rules, tables, quiet=as_json)
    try:
        result = run(record, table, goal, target_table, from_round)
    except GameError as exc:
        raise InputError(f"{record_file}: {exc}") from None
    if as_json:
        emit_json(result)
        return
    from ..lang import Words
    for line in report_lines(result, Words(lang, rules)):
        click.echo(line)
