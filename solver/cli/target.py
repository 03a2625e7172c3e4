"""The objectives of `kniffel advise` (--target T, --opponent ... --ties) read into one Goal,
their text, and `kniffel chances`."""
import click

from .common import (CommandError, InputError, emit_json, expected_table, json_option,
                     parse_position, position_options, rules_option,
                     scorecard_rules, tables_option, target_table)


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
        return target_goal(target, rules)
    except ValueError:
        raise InputError(f"--target must be 0-{score_bound(rules)} (the most a {rules.key} game "
                         f"can score), got {target}") from None


def parse_opponents(rules, specs):
    """--opponent values -> [{"final": S} | {"card": {...}}], InputError naming a bad one."""
    from ..engine.states import Position, position_state
    from ..rules.cards import parse_card
    from ..rules.bounds import score_bound
    opponents = []
    for spec in specs:
        text = spec.strip()
        try:
            if text.startswith("final="):
                final = int(text.split("=", 1)[1])
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


def target_advice(rules, tables, query, goal, budget, quiet):
    """(table, Advice) of a --target: from the saved target table, else the sub-game from the
    position when it fits the budget (advice/win_coach.py), else the error naming the command
    that builds the table."""
    from ..advice.position import advise
    from ..engine.store import TableError
    from .. import load_table
    try:
        table = load_table(rules, tables, objective="target")
    except TableError as exc:
        from ..advice.win_coach import advise_target_sub_game
        table = expected_table(rules, tables, quiet=quiet)
        try:
            return table, advise_target_sub_game(query, table, goal.target, float(budget))
        except ValueError as why:
            raise CommandError(f"{exc}; {why}") from None
    return table, advise(query, table, objective=goal)


def print_goal_advice(rules, query, table, advice, top, describe):
    """The text of a target or win advice; `table` the one it read (its expected-score values
    give the comparison with playing for points, without a second table or advice);
    describe(option) is advise's text for an option."""
    from ..advice.position import best_value
    from ..advice.steps import PointsView
    goal = advice.goal
    values = table.values if goal.kind == "win" else table.expected
    plain = advice.card_total + best_value(query, PointsView(rules, values))[0]
    what = (f"{goal.target} points" if goal.kind == "target"
            else f"a win against {len(goal.opponents)} (ties {goal.ties})")
    chance = "chance" if goal.kind == "target" else "P(win)"
    approx = advice.method == "approximate"
    how = "" if advice.method is None else " (≈)" if approx else " (exact)"
    click.echo(f"{rules.key}: card total {advice.card_total}, playing for {what}: "
               f"{chance}{how} {100 * advice.probability:.4f}%, expected final score "
               f"{advice.expected_final_score:.3f}")
    if approx:
        low, high = advice.interval
        click.echo(f"≈: an estimate within [{100 * low:.2f}%, {100 * high:.2f}%] (low: playing for "
                   "points from here, exact; high: a bound no play can beat)")
    if advice.note:
        click.echo(f"note: {advice.note}")
    click.echo(f"playing safe costs {plain - advice.expected_final_score:.3f} expected points "
               f"against playing for points ({plain:.3f})")
    if query.roll is None:
        return
    from ..dice import KEEPS
    left = query.rolls_left
    click.echo(f"dice {' '.join(map(str, KEEPS[query.roll]))}, {left} roll{'s' if left != 1 else ''} left")
    shown = advice.options if top is None else advice.options[:top]
    width = max(len(describe(o)) for o in shown)
    click.echo(f"  {'#':>2}  {'choice':<{width}}  {chance:>9}  {'expected':>9}"
               + ("  interval" if approx else ""))
    for rank, option in enumerate(shown, 1):
        span = (f"  [{100 * option['interval'][0]:.2f}%, {100 * option['interval'][1]:.2f}%]"
                if approx else "")
        click.echo(f"  {rank:>2}  {describe(option):<{width}}  {100 * option['probability']:>8.4f}%"
                   f"  {option['expected_final_score']:>9.3f}{span}")
    if len(shown) < len(advice.options):
        click.echo(f"  ({len(advice.options) - len(shown)} more; drop --top to see all)")


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
def chances(rules_name, tables, card, kniffel_bonuses, jokers_left, step, as_json, as_csv, plot):
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
    click.echo(f"{rules.key}: card total {curve['card_total']}; P(final >= T)")
    click.echo(f"  {'T':>5}  {'best':>9}  {'expected play':>13}  {'gain':>8}")
    for row in curve["rows"]:
        best, plain = row["best_probability"], row["expected_play_probability"]
        click.echo(f"  {row['target']:>5}  {100 * best:>8.3f}%  {100 * plain:>12.3f}%  "
                   f"{100 * (best - plain):>7.3f}%")
