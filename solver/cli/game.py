"""`kniffel play` (the terminal game) and `kniffel analyze` (what each decision of a record
cost)."""
import sys
import time

import click

from .common import (
    InputError,
    build_win_tables,
    check_output_file,
    command_request,
    command_rules,
    command_tables,
    emit_json,
    history_options,
    history_ready,
    json_option,
    keep_in_history,
    lang_option,
    rules_option,
    scorecard_rules,
    tables_option,
)


@click.command("play")
@rules_option()
@tables_option()
@click.option("--seed", type=click.IntRange(min=0), help="Dice seed: the same seed rolls the same "
              "dice (default: a fresh one, saved in the record).")
@click.option("--real-dice", is_flag=True,
              help="Type the dice thrown at the table instead of rolling.")
@click.option("--players", default="1", show_default=True,
              help='How many players, or their names: --players 3 or --players "Anna,Ben".')
@click.option("--coach", is_flag=True,
              help="Show the best moves before every decision and what yours cost.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False),
              help="Game record file (default: kniffel-game-DATE-TIME.json here; with --resume, "
              "that file).")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False),
              help="Go on with the game saved in this record (its rules, players and dice).")
@click.option("--goal", "goal_text", default="points", show_default=True,
              metavar="points|win|target:T",
              help="What the coach plays for: the expected final score, a win against the other "
              "players (with several), or a final score of at least T (needs the target table).")
@click.option("--ties", type=click.Choice(["share", "lose"]),
              help="With --goal win: a tie for first is a shared win (1/k, the default) or a "
              "loss.")
@click.option("--budget", type=str, metavar="SECONDS",
              help="With --goal win: the work each advice may take, in seconds of the reference "
              "machine, counted and never timed (the exact sub-game where it fits, else an "
              "approximation marked ≈); default 1.")
@click.option("--build", "build_tables", is_flag=True,
              help="With --goal win or target:T: first build the win coach's missing tables "
              "(gigabytes and minutes: the coach without them says how many), with a progress "
              "bar; a build stopped goes on where it stopped.")
@history_options
@lang_option()
def play_command(rules_name, tables, seed, real_dice, players, coach, record_path, resume_path,
                 goal_text, ties, budget, build_tables, db, no_history, lang):
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
      kniffel play --players "Anna,Ben" --coach --goal win --build
      kniffel play --rules dice-duel --players "Anna,Ben,Carla" --coach
    """
    import random

    from ..game.card import Game, GameError, parse_players
    from ..game.session import seeded_rng
    from ..terminal.game import play as run
    if resume_path is not None:
        given = rules_name != "kniffel" or seed is not None or real_dice or players != "1"
        _resume(resume_path, record_path, tables, coach, (goal_text, ties, budget, build_tables),
                lang, given=given, history=(db, no_history))
        return
    if real_dice and seed is not None:
        raise InputError("--seed has no use with --real-dice")
    if _is_duel(rules_name):
        from .duel_play import play_duel
        play_duel(command_rules(rules_name), _names(players), seed, real_dice, record_path, coach,
                  lang, command_tables(tables))
        return
    rules = scorecard_rules(rules_name, "play")
    try:
        names = parse_players(players)
    except GameError as exc:
        raise InputError(str(exc)) from None
    goal = _goal(rules, (goal_text, ties, budget), coach, len(names))
    if seed is None and not real_dice:
        seed = random.SystemRandom().randrange(2**32)
    record_path = record_path or time.strftime("kniffel-game-%Y%m%d-%H%M%S.json")
    check_output_file(record_path, "--record")
    kept = history_ready(db, no_history)
    game = Game(rules, names, seed, real_dice)
    loaded = command_tables(tables)
    loaded(rules)  # solved now when missing, before the first roll
    _build_for(goal, rules, loaded, build_tables)
    status = run(game, loaded, record_path, coach=coach,
                 rng=None if real_dice else seeded_rng(seed), goal=goal, lang=lang)
    _played(status, record_path, loaded, kept)


def _played(status, record_path, tables, kept):
    """After a game at the terminal: kept in the history (unless interrupted, or no decision was
    taken), then exit 130 when interrupted."""
    if status == "interrupted":
        sys.exit(130)
    from ..ask.analysis import analyze
    from ..game.record import load_record
    record = load_record(record_path)
    if kept is not False and any(turn.get("decisions") for turn in record["turns"]):
        keep_in_history(kept, record, analyze(record, tables), "play")


def _build_for(goal, rules, loaded, build_tables):
    """--build: the win coach's missing tables built before the first roll (a goal's only)."""
    if not build_tables:
        return
    if goal is None or goal.kind not in ("win", "target"):
        raise InputError("--build goes with --goal win or --goal target:T (the win coach's "
                         "tables)")
    build_win_tables(rules, loaded)


def _is_duel(rules_name):
    return command_rules(rules_name).game == "dice-duel"


def _names(players):
    from ..game.card import GameError, parse_players
    try:
        return parse_players(players)
    except GameError as exc:
        raise InputError(str(exc)) from None


def _goal(rules, given, coach=True, players=2):
    """The Goal of --goal, --ties and --budget, read as every question's (ask/request.py); a
    win's opponents come at each decision.  InputError naming a bad one."""
    from ..advice.goal import POINTS
    text, ties, budget = given
    if text is None or text.strip().lower() == "points":
        if ties is not None or budget is not None:
            raise InputError("--ties and --budget go with --goal win or --goal target:T")
        return POINTS
    fields = {"rules": rules, "goal": text, "ties": ties, "budget": budget}
    if text.strip().lower() == "win":
        if players < 2:
            raise InputError("--goal win needs other players: --players \"Anna,Ben\"")
        fields["opponents"] = [{"final": 0}]  # stands in: the coach knows them at each decision
    goal = command_request({k: v for k, v in fields.items() if v is not None},
                           {"opponents": "--goal win"}).goal
    if not coach:
        raise InputError("--goal is what the coach plays for: add --coach")
    return goal


def _resume(path, record_path, tables, coach, goal_options, lang, given, history):
    """Go on with a saved game: rebuilt by replaying its record, seeded dice where they left off."""
    from ..game import session
    from ..game.card import GameError
    from ..game.record import load_record
    from ..terminal.game import play as run
    if given:
        raise InputError("--resume takes the rules, players, seed and dice from the record")
    from ..duel.multiplayer.record import is_duel_record
    try:
        record = load_record(path)  # its errors name the file
    except GameError as exc:
        raise InputError(str(exc)) from None
    try:
        if is_duel_record(record):
            from .duel_play import resume_duel
            return resume_duel(record, path, record_path, coach, lang, command_tables(tables))
        game, _ = session.rebuild(record)
    except GameError as exc:
        raise InputError(f"{path}: {exc}") from None
    if game.over:
        raise InputError(f"{path}: the game is over; see kniffel analyze {path}")
    if game.rules.game != "scorecard":
        raise InputError(f"{path}: not a scorecard game")
    goal = _goal(game.rules, goal_options[:3], coach, len(game.columns))
    kept = history_ready(*history)
    loaded = command_tables(tables)
    loaded(game.rules)
    _build_for(goal, game.rules, loaded, goal_options[3])
    rng = None if game.real_dice else session.seeded_rng(game.seed, record)
    status = run(game, loaded, record_path or path, coach=coach, rng=rng, goal=goal, lang=lang)
    _played(status, record_path or path, loaded, kept)


@click.command("analyze")
@click.argument("record_file", type=click.Path(dir_okay=False))
@tables_option()
@json_option()
@click.option("--goal", "goal_text", default="points", show_default=True,
              metavar="points|win|target:T",
              help="Also the chance of this goal with each choice: win (a record of several "
              "players; slow early in a game) or target:T (needs the target table).")
@click.option("--ties", type=click.Choice(["share", "lose"]),
              help="With --goal win: a tie for first is a shared win (1/k, the default) or a "
              "loss.")
@click.option("--from-round", type=click.IntRange(min=1), default=1, show_default=True,
              help="With --goal: the goal's chance for the decisions from this round on.")
@click.option("--why", is_flag=True,
              help="Also what each player's three costliest decisions played for, and the best "
              "choice instead (as advise --why: where the turn ends, the upper bonus's chance).")
@history_options
@lang_option()
def analyze_command(record_file, tables, as_json, goal_text, ties, from_round, why, db,
                    no_history, lang):
    """What each decision of a recorded game cost against optimal play, and totals per player.

    \b
    Example:
      kniffel analyze kniffel-game-20250101-200000.json
      kniffel analyze game.json --json
      kniffel analyze docs/examples/kniffel-game.json --goal win --from-round 10
      kniffel analyze docs/examples/kniffel-game.json --why
    """
    from ..ask.analysis import analyze as run
    from ..ask.analysis import report_lines
    from ..duel.multiplayer.record import is_duel_record
    from ..game.card import GameError
    from ..game.record import load_record, record_rules
    try:
        record = load_record(record_file)
        if is_duel_record(record):
            from .duel_play import analyze_duel
            return analyze_duel(record, record_file, as_json, lang, tables)
        rules = record_rules(record["rules"])
    except GameError as exc:
        raise InputError(str(exc)) from None
    from ..game.record import record_players
    try:
        players = record_players(record)
    except GameError as exc:
        raise InputError(str(exc)) from None
    goal = _goal(rules, (goal_text, ties, None), True, len(players))
    kept = history_ready(db, no_history)
    loaded = command_tables(tables, quiet=as_json)
    try:
        result = run(record, loaded, goal, from_round, why=why)
    except GameError as exc:
        raise InputError(f"{record_file}: {exc}") from None
    keep_in_history(kept, record, result, "analyze")
    if as_json:
        emit_json(result)
        return
    from ..lang import Words
    for line in report_lines(result, Words(lang, rules)):
        click.echo(line)
