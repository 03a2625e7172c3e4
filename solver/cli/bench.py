"""`kniffel bench`: how fast this machine solves and advises."""

import click

from .common import CommandError, InputError, emit_json, json_option, quiet_option, rules_option


@click.command("bench")
@rules_option("rules_names", multiple=True, metavar="PRESET",
              help="Scorecard preset to measure; repeat for several (default: kniffel).")
@click.option("--all", "all_presets", is_flag=True, help="Measure every preset (several minutes).")
@click.option("--quick", is_flag=True,
              help="Fewer repeats, games and positions (about half a minute).")
@click.option("--repeat", type=click.IntRange(min=1), help="Repeats of each timing (best is kept).")
@click.option("--games", type=click.IntRange(min=1), help="Games a simulation timing.")
@click.option("--batch-lines", type=click.IntRange(min=1), help="Positions for the batch timing.")
@click.option("--cold", is_flag=True,
              help="Also time a solve with an empty numba cache (compiles, ~15 s).")
@json_option("Print JSON instead of a table.")
@quiet_option()
def bench_command(rules_names, all_presets, quick, repeat, games, batch_lines, cold, as_json,
                  quiet):
    """Benchmark solving, advising, batch advice and simulation on this machine.

    \b
    Example:
      kniffel bench
      kniffel bench --quick --json
      kniffel bench --rules yahtzee --rules yatzy --cold
    """
    from ..bench import DEFAULTS, QUICK, BenchError, results_table, run_suite
    from ..presets import all_presets as every_preset
    from ..rules import PRESETS
    presets = list(PRESETS) if all_presets else list(rules_names or ("kniffel",))
    for name in presets:
        if name in every_preset() and name not in PRESETS:  # the suite's steps are scorecard ones
            raise InputError(f"kniffel bench measures the scorecard games only, not {name} "
                             f"(time `kniffel solve --rules {name}` instead)")
        if name not in PRESETS:
            raise InputError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")
    settings = dict(QUICK if quick else DEFAULTS)
    settings.update({k: v for k, v in (("repeat", repeat), ("games", games),
                                       ("batch_lines", batch_lines))
                     if v is not None})
    try:
        results = run_suite(presets, cold=cold, progress=False if (quiet or as_json) else None,
                            **settings)
    except BenchError as exc:
        raise CommandError(f"benchmark failed: {exc}") from None
    if as_json:
        emit_json(results)
    else:
        click.echo(results_table(results))
