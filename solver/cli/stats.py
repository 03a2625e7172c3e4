"""`kniffel simulate` and `kniffel distribution`."""
import time

import click

from .common import (
    CommandError,
    InputError,
    check_output_file,
    command_position,
    emit_json,
    expected_table,
    json_option,
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
def simulate_command(rules_name, tables, games, seed, strategy, compare, as_json, quiet):
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
    _print_simulation(rules, table, results)


def _print_simulation(rules, table, results):
    names = list(results)
    first = results[names[0]]
    click.echo(f"{rules.key}: {first['games']:,} games a strategy, seed {first['seed']}; "
               f"solved expected score {table.expected_score:.4f}")
    rows = [("mean (95% CI)", lambda r: f"{r['mean']:.2f} ± {r['mean_ci95']:.2f}"),
            ("standard deviation", lambda r: f"{r['sd']:.2f}")]
    rows += [(f"percentile {q}", lambda r, q=q: str(r["percentiles"][q]))
             for q in first["percentiles"]]
    rows += [("upper bonus", lambda r: _percent(r["upper_bonus"])),
             ("Kniffel box 50", lambda r: _percent(r["kniffel_box_50"])),
             ("extra-Kniffel bonus", lambda r: _percent(r["extra_kniffel_bonus"]))]
    rows += [(f"score >= {t}", lambda r, t=t: _percent(r["at_least"][t]))
             for t in first["at_least"]]
    if rules.jokers:
        rows.append(("jokers used", lambda r: f"{r['jokers_used_mean']:.2f}"))
    width = max(len(label) for label, _ in rows)
    click.echo(f"  {'':<{width}}  " + "  ".join(f"{n:>16}" for n in names))
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
def distribution_command(rules_name, tables, card, kniffel_bonuses, jokers_left, as_json, csv_path,
                 plot_path, quiet):
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
    _print_distribution(summary, histogram(dist), seconds)


def _print_distribution(s, bins, seconds):
    click.echo(f"{s['rules']}: exact final-score distribution of the optimal strategy "
               f"({s['states']:,} states, {seconds:.1f} s)")
    click.echo(f"  mean {s['mean']:.6f} (table: {s['expected_value']:.6f}), standard deviation "
               f"{s['sd']:.4f}, median {s['median']}, range {s['min']}-{s['max']}")
    click.echo("  percentiles  " + "  ".join(f"{q}%: {v}" for q, v in s["percentiles"].items()))
    events = [("upper bonus", s["upper_bonus"]), ("Kniffel box 50", s["kniffel_box_50"]),
              ("an extra-Kniffel bonus", s["extra_kniffel_bonus"]),
              ("a Kniffel rolled (turns to come)", s["kniffel_rolled"])]
    events += [(f"score >= {t}", p) for t, p in s["at_least"].items()]
    width = max(len(label) for label, _ in events)
    for label, p in events:
        click.echo(f"  P({label}){'':<{width - len(label)}}  {100 * p:8.4f}%")
    top = max(p for _, _, p in bins)
    click.echo("  score      probability")
    for i, (low, high, p) in enumerate(bins):
        label = f"<= {high}" if i == 0 else f">= {low}" if i == len(bins) - 1 else f"{low}-{high}"
        click.echo(f"  {label:<9} {100 * p:7.3f}%  {'#' * round(40 * p / top)}")
