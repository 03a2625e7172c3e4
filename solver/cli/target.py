"""`kniffel advise --target T` (the hook in advise.py calls here) and `kniffel chances`."""
import click

from .common import (RULES_HELP, TABLES_HELP, CommandError, InputError, _emit_json,
                     _parse_position, _scorecard_rules, _table)


def check_target_options(rules, target, chips=None, opponents=()):
    """Bad --target or --opponent input: one clear line, exit 2."""
    if target is not None and opponents:
        raise InputError("--target and --opponent do not go together: pick one objective")
    if rules.game != "scorecard" or chips is not None:
        raise InputError(f"--{'target' if target is not None else 'opponent'} is for the scorecard "
                         "games, not the Dice Duel")
    if opponents:
        parse_opponents(rules, opponents)
        return
    from ..rules.bounds import score_bound
    most = score_bound(rules)
    if not 0 <= target <= most:
        raise InputError(f"--target must be 0-{most} (the most a {rules.key} game can score), "
                         f"got {target}")


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


def _target_table(rules, tables):
    """The saved target table; a missing one is a clear error naming the command that builds
    it (the whole kniffel table takes many minutes: not a side effect of one question)."""
    from ..engine.store import TableError
    from ..engine.target_table import load_target_table
    try:
        return load_target_table(rules, tables)
    except TableError as exc:
        raise CommandError(str(exc)) from None


def advise_target_command(rules, tables, position, dice_text, rolls_left, target, top, as_json,
                          opponents, ties, describe):
    """Print the target (or, with opponents, the win) advice for one position; describe(option)
    is advise's text for an option."""
    from ..advice.position import advise as expected_advise, checked_query
    from ..advice.target import advise_target
    from ..dice import parse_dice
    try:
        roll = parse_dice(dice_text) if dice_text is not None else None
        if roll is None and rolls_left is not None:
            raise ValueError("--rolls-left needs --dice")
        checked_query(position, rules, roll, rolls_left)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    if opponents:
        from ..advice.win import advise_win
        advice = advise_win(position, _table(rules, tables, quiet=as_json),
                            parse_opponents(rules, opponents), ties, dice=roll, rolls_left=rolls_left)
    else:
        table = _target_table(rules, tables)
        advice = advise_target(position, table, target, dice=roll, rolls_left=rolls_left)
    if as_json:
        shown = advice["options"] if top is None else advice["options"][:top]
        _emit_json(dict(advice, options=shown))
        return
    plain = expected_advise(position, _table(rules, tables, quiet=True), dice=roll, rolls_left=rolls_left)
    goal = f"{target} points" if not opponents else f"a win against {len(opponents)} (ties {ties})"
    chance = "chance" if not opponents else "P(win)"
    click.echo(f"{rules.key}: card total {advice['card_total']}, playing for {goal}: "
               f"{chance} {100 * advice['probability']:.4f}%, expected final score "
               f"{advice['expected_final_score']:.3f}")
    cost = plain.expected_final_score - advice["expected_final_score"]
    click.echo(f"playing safe costs {cost:.3f} expected points against playing for points "
               f"({plain.expected_final_score:.3f})")
    if roll is None:
        return
    left = rolls_left if rolls_left is not None else rules.rolls_per_turn - 1
    click.echo(f"dice {' '.join(map(str, roll))}, {left} roll{'s' if left != 1 else ''} left")
    shown = advice["options"] if top is None else advice["options"][:top]
    width = max(len(describe(o)) for o in shown)
    click.echo(f"  {'#':>2}  {'choice':<{width}}  {chance:>9}  {'expected':>9}")
    for rank, option in enumerate(shown, 1):
        click.echo(f"  {rank:>2}  {describe(option):<{width}}  {100 * option['probability']:>8.4f}%"
                   f"  {option['expected_final_score']:>9.3f}")
    if len(shown) < len(advice["options"]):
        click.echo(f"  ({len(advice['options']) - len(shown)} more; drop --top to see all)")


@click.command()
@click.option("--rules", "rules_name", default="kniffel", show_default=True, help=RULES_HELP)
@click.option("--tables", type=click.Path(file_okay=False), help=TABLES_HELP)
@click.option("--card", default="", help='Filled boxes, e.g. "ones=3,fives=15,kniffel=50".')
@click.option("--kniffel-bonuses", type=int, default=0, help="Extra-Kniffel bonuses already paid.")
@click.option("--jokers-left", type=int, help="Knobeln jokers still in hand (default: all).")
@click.option("--step", type=click.IntRange(min=1), default=25, show_default=True,
              help="Targets every STEP points.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
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
    rules = _scorecard_rules(rules_name, "chances")
    position = _parse_position(rules, card, kniffel_bonuses, jokers_left)
    from ..engine.states import position_state
    try:
        position_state(position, rules)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    quiet = as_json or as_csv
    target = _target_table(rules, tables)
    curve = chance_curve(position, _table(rules, tables, quiet=quiet), target, step)
    if plot:
        from ..stats.chances import plot_curve
        from ..stats.plot import PlotUnavailable
        try:
            plot_curve(curve, plot)
        except PlotUnavailable as exc:
            raise CommandError(str(exc)) from None
    if as_json:
        _emit_json(curve)
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
