"""`kniffel simulate` and `kniffel distribution`."""
import time

import click

from ..lang import Words
from .common import (
    CommandError,
    InputError,
    check_output_file,
    command_position,
    emit_json,
    expected_table,
    json_option,
    lang_option,
    position_options,
    quiet_option,
    rules_option,
    scorecard_rules,
    tables_option,
)


@click.command("simulate")
@rules_option()
@tables_option()
@click.option("--games", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Games to play.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="Random seed (0 to 2**64 - 1): the same seed plays the same games.")
@click.option("--strategy", type=click.Choice(["optimal", "greedy", "heuristic"]),
              default="optimal", show_default=True,
              help="optimal: the solved strategy; greedy: keep the most common "
              "face, fill the box with the most points now; heuristic: a sensible human's rules "
              "of thumb (no Knobeln jokers).")
@click.option("--compare", type=click.Choice(["greedy", "optimal", "heuristic"]),
              help="Also play this strategy on the same dice seed and show both.")
@json_option()
@quiet_option()
@lang_option()
def simulate_command(rules_name, tables, games, seed, strategy, compare, as_json, quiet, lang):
    """Play many games by computer and report the scores, with 95% confidence intervals.

    \b
    Example:
      kniffel simulate --games 100000 --seed 1 --compare heuristic
      kniffel simulate --rules yahtzee --games 20000 --json
    """
    from ..stats.simulate import simulate_tally
    from ..stats.summary import summarize
    rules = scorecard_rules(rules_name, "simulate")
    strategies = [strategy] + ([compare] if compare and compare != strategy else [])
    if "heuristic" in strategies and rules.jokers:
        raise InputError(f"the heuristic strategy does not play Knobeln jokers ({rules.key})")
    table = expected_table(rules, tables, quiet=quiet or as_json)
    progress = False if (quiet or as_json) else None
    results = {name: summarize(simulate_tally(table, games, seed, strategy=name, progress=progress))
               for name in strategies}
    if as_json:
        emit_json({"rules": rules.key, "expected_score": table.expected_score,
                    "strategies": results})
        return
    _print_simulation(rules, table, results, Words(lang, rules))


def grouped(n, words):
    """A whole number with its thousands marked as the language of `words` marks them:
    "536,448" in English, "536 448" in German (where "." is the decimal point, as in advise)."""
    return f"{n:,}".replace(",", words("number.thousands"))


def _print_simulation(rules, table, results, words):
    names = list(results)
    first = results[names[0]]
    kniffel = words.box(rules.boxes[rules.kniffel_box])
    click.echo(words("simulate.head", rules=rules.key, n=first["games"],
                     games=grouped(first["games"], words), seed=first["seed"],
                     expected=table.expected_score))
    rows = [(words("simulate.mean"), lambda r: f"{r['mean']:.2f} ± {r['mean_ci95']:.2f}"),
            (words("simulate.sd"), lambda r: f"{r['sd']:.2f}")]
    rows += [(words("simulate.percentile", q=q), lambda r, q=q: str(r["percentiles"][q]))
             for q in first["percentiles"]]
    rows += [(words("simulate.upper_bonus"), lambda r: _percent(r["upper_bonus"])),
             (words("simulate.kniffel_50", kniffel=kniffel),
              lambda r: _percent(r["kniffel_box_50"])),
             (words("simulate.extra_bonus", kniffel=kniffel),
              lambda r: _percent(r["extra_kniffel_bonus"]))]
    rows += [(words("simulate.at_least", target=t), lambda r, t=t: _percent(r["at_least"][t]))
             for t in first["at_least"]]
    if rules.jokers:
        rows.append((words("simulate.jokers_used"), lambda r: f"{r['jokers_used_mean']:.2f}"))
    width = max(len(label) for label, _ in rows)
    click.echo(f"  {'':<{width}}  "
               + "  ".join(f"{words(f'simulate.strategy.{n}'):>16}" for n in names))
    for label, cell in rows:
        click.echo(f"  {label:<{width}}  " + "  ".join(f"{cell(results[n]):>16}" for n in names))


def _percent(proportion):
    return f"{100 * proportion['p']:.2f}% ± {100 * proportion['ci95']:.2f}"


@click.command("distribution")
@rules_option()
@tables_option()
@click.option("--card", default="",
              help='Filled boxes, e.g. "ones=3,fives=15" (default: empty card).')
@position_options
@json_option("Print JSON (summary and every probability).")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, writable=True),
              help="Also write score,probability,cdf to this CSV file.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, writable=True),
              help="Also draw the distribution to this image file (needs the [plot] extra).")
@quiet_option()
@lang_option()
def distribution_command(rules_name, tables, card, kniffel_bonuses, jokers_left, as_json, csv_path,
                 plot_path, quiet, lang):
    """The exact distribution of the final score under the optimal strategy.

    Follows every dice outcome of the optimal strategy from the position (default: the empty
    card), so the figures are exact, not sampled.

    \b
    Example:
      kniffel distribution --rules yahtzee --csv yahtzee.csv
      kniffel distribution --card "kniffel=50,sixes=24" --json
    """
    from ..stats.distribution import histogram, score_distribution, write_csv
    from ..stats.plot import PlotUnavailable, check_plot_path, plot_distribution
    rules = scorecard_rules(rules_name, "distribution")
    position = command_position(rules, card, kniffel_bonuses, jokers_left).position
    if csv_path:  # the output files before the work, not after it
        check_output_file(csv_path, "--csv")
    if plot_path:
        check_output_file(plot_path, "--plot")
        try:
            check_plot_path(plot_path)
        except PlotUnavailable as exc:
            raise CommandError(str(exc)) from None
        except ValueError as exc:
            raise InputError(str(exc)) from None
    table = expected_table(rules, tables, quiet=quiet or as_json)
    start = time.perf_counter()
    dist = score_distribution(table, position, progress=False if (quiet or as_json) else None)
    seconds = time.perf_counter() - start
    if csv_path:
        write_csv(dist, csv_path)
    if plot_path:
        try:
            plot_distribution(dist, plot_path)
        except PlotUnavailable as exc:
            raise CommandError(str(exc)) from None
    summary = dist.summary()
    if as_json:
        nonzero = dist.probs.nonzero()[0]
        summary["distribution"] = {str(dist.offset + i): float(dist.probs[i]) for i in nonzero}
        summary["seconds"] = seconds
        emit_json(summary)
        return
    _print_distribution(summary, histogram(dist), seconds, Words(lang, rules))


def _print_distribution(s, bins, seconds, words):
    click.echo(words("distribution.head", rules=s["rules"], states=grouped(s["states"], words),
                     seconds=seconds))
    click.echo(words("distribution.summary", mean=s["mean"], expected=s["expected_value"],
                     sd=s["sd"], median=s["median"], low=s["min"], high=s["max"]))
    click.echo(f"  {words('distribution.percentiles')}  "
               + "  ".join(f"{q}%: {v}" for q, v in s["percentiles"].items()))
    kniffel = words.box(words.rules.boxes[words.rules.kniffel_box])
    events = [(words("distribution.upper_bonus"), s["upper_bonus"]),
              (words("distribution.kniffel_50", kniffel=kniffel), s["kniffel_box_50"]),
              (words("distribution.extra_bonus", kniffel=kniffel), s["extra_kniffel_bonus"]),
              (words("distribution.rolled", kniffel=kniffel), s["kniffel_rolled"])]
    events += [(words("distribution.at_least", target=t), p) for t, p in s["at_least"].items()]
    width = max(len(label) for label, _ in events)
    for label, p in events:
        click.echo(f"  P({label}){'':<{width - len(label)}}  {100 * p:8.4f}%")
    top = max(p for _, _, p in bins)
    click.echo(f"  {words('distribution.score'):<10} {words('distribution.probability')}")
    for i, (low, high, p) in enumerate(bins):
        label = f"<= {high}" if i == 0 else f">= {low}" if i == len(bins) - 1 else f"{low}-{high}"
        click.echo(f"  {label:<9} {100 * p:7.3f}%  {'#' * round(40 * p / top)}")
