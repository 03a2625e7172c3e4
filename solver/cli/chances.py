"""`kniffel chances`: the best chance of each final score beside the chance under
expected-score play."""
import click

from .common import (
    CommandError,
    command_position,
    emit_json,
    expected_table,
    json_option,
    lang_option,
    position_options,
    rules_option,
    scorecard_rules,
    tables_option,
    target_table,
)


@click.command("chances")
@rules_option()
@tables_option()
@click.option("--card", default="", help='Filled boxes, e.g. "ones=3,fives=15,kniffel=50".')
@position_options
@click.option("--step", type=click.IntRange(min=1), default=25, show_default=True,
              help="Targets every STEP points.")
@json_option()
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV instead of text.")
@click.option("--plot", type=click.Path(dir_okay=False),
              help="Also draw the two curves into a PNG.")
@lang_option()
def chances_command(rules_name, tables, card, kniffel_bonuses, jokers_left, step, as_json, as_csv,
                    plot, lang):
    """The best chance of each final score T next to the chance under expected-score play.

    \b
    Example:
      kniffel chances --rules yahtzee
      kniffel chances --card "ones=3,sixes=24" --step 10 --csv
    """
    from ..stats.chances import chance_curve
    rules = scorecard_rules(rules_name, "chances")
    position = command_position(rules, card, kniffel_bonuses, jokers_left).position
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
