"""The objectives of `kniffel advise` (--target T, --opponent ... --ties) read into one Goal,
their text, and `kniffel chances`."""
import click

from .common import (CommandError, InputError, emit_json, expected_table, json_option, lang_option, parse_position, position_options, rules_option, scorecard_rules, tables_option, target_table)


def command_goal(rules, target=None, opponents=(), ties="share", budget="1"):
    """The Goal of --target / --opponent (points when neither) within --budget seconds, checked
    once: InputError (exit 2) naming bad input."""
    from ..advice.goal import POINTS, check_budget, target_goal, win_goal
    try:
        check_budget(budget)
    except ValueError as exc:
        raise InputError(f"--budget: {exc}") from None
    if target is None and not opponents:
        return POINTS
    if target is not None and opponents:
        raise InputError("--target and --opponent do not go together: pick one objective")
    if rules.game != "scorecard":
        raise InputError(f"--{'target' if target is not None else 'opponent'} is for the scorecard "
                         "games, not the Dice Duel")
    if opponents:
        try:
            return win_goal(parse_opponents(rules, opponents), ties, budget)
        except ValueError as exc:
            raise InputError(f"--opponent: {exc}") from None
    from ..rules.bounds import score_bound
    try:
        return target_goal(target, rules, budget)
    except ValueError:
        raise InputError(f"--target must be 0-{score_bound(rules)} (the most a {rules.key} game "
                         f"can score), got {target}") from None


def parse_opponents(rules, specs):
    """--opponent values -> [{"final": S} | {"card": {...}}], InputError naming a bad one."""
    from ..advice.goal import MAX_OPPONENTS
    from ..engine.states import Position, position_state
    from ..rules.cards import parse_card
    from ..rules.bounds import score_bound
    if len(specs) > MAX_OPPONENTS:
        raise InputError(f"at most {MAX_OPPONENTS} opponents (8 players), got {len(specs)}")
    opponents = []
    for spec in specs:
        text = spec.strip()
        try:
            if not text:  # a blank value is more likely a shell variable left unset than a new game
                raise ValueError('no card given: write the card, "empty" for a player who has not '
                                 'scored yet, or final=S')
            if text.lower() == "empty":
                text = ""
            if text.startswith("final="):
                number = text.split("=", 1)[1].strip()
                if not number.isdecimal() or not number.isascii():
                    raise ValueError(f"final=S needs the opponent's final score S as a whole "
                                     f"number, e.g. final=231, got {number!r}")
                final = int(number)
                if not 0 <= final <= score_bound(rules):
                    raise ValueError(f"final score must be 0-{score_bound(rules)}")
                opponents.append({"final": final})
                continue
            card = parse_card(text, rules)
            position_state(Position(card), rules)
            opponents.append({"card": card})
        except ValueError as exc:
            raise InputError(f"--opponent {spec!r}: {exc}") from None
    return opponents


def print_goal_advice(rules, query, table, advice, shown, lang=None):
    """The text of a target or win advice, read as plain advise's (the position, the `shown`
    best options with their cost, the "more" line) with the chance of the goal, and the
    trade-off against playing for points.  `table` is the one the advice read: its
    expected-score values rank the same position for points."""
    from .. import advise
    from ..lang import Words
    from .advice_text import echo_lines, goal_lines
    w = Words(lang, rules)
    plain = advise(query, table)  # for points, from the same table
    goal = advice.goal
    echo_lines(goal_lines(rules, advice, plain, shown, goal.heading(w), goal.chance_word(w), w,
                          goal.word(w)))


@click.command()
@rules_option()
@tables_option()
@click.option("--card", default="", help='Filled boxes, e.g. "ones=3,fives=15,kniffel=50".')
@position_options
@click.option("--step", type=click.IntRange(min=1), default=25, show_default=True,
              help="Targets every STEP points.")
@json_option()
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV instead of text.")
@click.option("--plot", type=click.Path(dir_okay=False), help="Also draw the two curves into a PNG.")
@lang_option()
def chances(rules_name, tables, card, kniffel_bonuses, jokers_left, step, as_json, as_csv, plot, lang):
    """The best chance of each final score T next to the chance under expected-score play.

    \b
    Example:
      kniffel chances --rules yahtzee
      kniffel chances --card "ones=3,sixes=24" --step 10 --csv
    """
    from ..stats.chances import chance_curve
    rules = scorecard_rules(rules_name, "chances")
    position = parse_position(rules, card, kniffel_bonuses, jokers_left)
    from ..engine.states import position_state
    try:
        position_state(position, rules)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    quiet = as_json or as_csv
    target = target_table(rules, tables)
    curve = chance_curve(position, expected_table(rules, tables, quiet=quiet), target, step)
    if plot:
        from ..stats.chances import plot_curve
        from ..stats.plot import PlotUnavailable
        try:
            plot_curve(curve, plot)
        except PlotUnavailable as exc:
            raise CommandError(str(exc)) from None
    if as_json:
        emit_json(curve)
        return
    if as_csv:
        click.echo("target,best_probability,expected_play_probability")
        for row in curve["rows"]:
            click.echo(f"{row['target']},{row['best_probability']!r},{row['expected_play_probability']!r}")
        return
    from ..lang import Words
    w = Words(lang, rules)
    names = w("chances.columns")
    click.echo(w("chances.head", rules=rules.key, total=curve["card_total"]))
    click.echo(f"  {'T':>5}  {names[0]:>9}  {names[1]:>13}  {names[2]:>9}")
    for row in curve["rows"]:
        best, plain = row["best_probability"], row["expected_play_probability"]
        # the best chance is at least expected play's: a difference below 0 is float rounding
        click.echo(f"  {row['target']:>5}  {w.percent(best):>9}  {w.percent(plain):>13}  "
                   f"{w.percent(max(0.0, best - plain)):>9}")
