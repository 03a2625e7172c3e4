"""The `kniffel` command: parse, call the library, print text or JSON.  No game logic here."""
import json
import sys
import time

import click

from .. import __version__

EXIT_USAGE = 2


class InputError(click.ClickException):
    """Bad input from the user: one line on stderr, exit code 2."""

    exit_code = EXIT_USAGE

    def show(self, file=None):
        click.echo(f"kniffel: error: {self.format_message()}", err=True)


class CommandError(click.ClickException):
    """Input was fine but the command cannot do it here: one line on stderr, exit code 1."""

    def show(self, file=None):
        click.echo(f"kniffel: error: {self.format_message()}", err=True)


def _rules(name):
    from ..presets import resolve_rules
    from ..rules import RulesError
    try:
        return resolve_rules(name)
    except RulesError as exc:
        raise InputError(str(exc)) from None


def _scorecard_rules(name, command):
    """Rules for a command that plays on a scorecard (not the Dice Duel)."""
    rules = _rules(name)
    if rules.game != "scorecard":
        raise InputError(f"kniffel {command} is for the scorecard games, not {rules.key} "
                         f"(which has solve and advise)")
    return rules


def _table(rules, tables, quiet=False):
    """Load the table, solving it first (with progress on stderr) when missing or invalid."""
    from .. import get_table

    def announce(reason):
        if not quiet:
            why = "" if reason.startswith("no table") else f" ({reason})"
            click.echo(f"kniffel: solving the {rules.key} table, once{why}...", err=True)

    return get_table(rules, tables, progress=False if quiet else None, announce=announce)


def _emit_json(data):
    click.echo(json.dumps(data))


RULES_HELP = "Preset name (see `kniffel rules`) or a JSON/TOML rules file."
TABLES_HELP = "Table store directory (default: $KNIFFEL_TABLES, else the user cache)."


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kniffel")
def cli():
    """Exact optimal strategy for Kniffel, Yahtzee and relatives.

    \b
    Example:
      kniffel advise --dice 1,3,3,5,6 --rolls-left 2
    """


@cli.command()
@click.option("--rules", "rules_name", default="kniffel", show_default=True, help=RULES_HELP)
@click.option("--tables", type=click.Path(file_okay=False), help=TABLES_HELP)
@click.option("--force", is_flag=True, help="Solve again even when a valid table exists.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of text.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def solve(rules_name, tables, force, as_json, quiet):
    """Solve every reachable state of a rule set and save the value table.

    \b
    Example:
      kniffel solve --rules yahtzee --json
      kniffel solve --rules dice-duel
    """
    from ..engine.store import TableError, load_table, table_paths
    rules = _rules(rules_name)
    start = time.perf_counter()
    table = None
    if not force:
        try:
            table = load_table(rules, tables)
        except TableError:
            table = None
    solved = table is None
    if solved:
        from .. import solve as run_solve
        table = run_solve(rules, progress=False if (quiet or as_json) else None)
        table.save(tables)
    seconds = time.perf_counter() - start
    path = str(table_paths(rules, tables)[0])
    if as_json:
        _emit_json({"rules": rules.key, "expected_score": table.expected_score,
                    "states": table.states, "seconds": seconds, "path": path, "solved": solved})
    else:
        verb = "solved" if solved else "loaded (use --force to solve again)"
        click.echo(f"{rules.key}: expected score {table.expected_score:.7f}, "
                   f"{table.states:,} states, {verb} in {seconds:.2f} s")
        click.echo(f"table: {path}")


def _parse_position(rules, card, kniffel_bonuses, jokers_left):
    from ..engine.states import Position, parse_card
    try:
        return Position(parse_card(card, rules), kniffel_bonuses, jokers_left)
    except ValueError as exc:
        raise InputError(str(exc)) from None


@cli.command()
@click.option("--rules", "rules_name", default="kniffel", show_default=True, help=RULES_HELP)
@click.option("--tables", type=click.Path(file_okay=False), help=TABLES_HELP)
@click.option("--card", default="", help='Filled boxes, e.g. "ones=3,fives=15,kniffel=50".')
@click.option("--chips", help='Dice Duel: TYPE=PLATE/ASIDE/MINE per type, e.g. "ls=0/1/3,fl=2/0/2" '
              "(unlisted types: all 4 on the plate).")
@click.option("--dice", "dice_text", help="The five dice, e.g. 1,3,3,5,6 or 13356.")
@click.option("--rolls-left", type=int, help="Rolls still allowed this turn (2 after the first roll).")
@click.option("--kniffel-bonuses", type=int, default=0, help="Extra-Kniffel bonuses already paid.")
@click.option("--jokers-left", type=int, help="Knobeln jokers still in hand (default: all).")
@click.option("--top", type=click.IntRange(min=1), help="Show only the K best options.")
@click.option("--batch", type=click.File("r"), help="JSON lines of positions (FILE or -), one result per line.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def advise(rules_name, tables, card, chips, dice_text, rolls_left, kniffel_bonuses, jokers_left, top,
           batch, as_json):
    """Best dice to keep or box to fill, with the expected final score of every choice.

    \b
    Example:
      kniffel advise --card "ones=3,kniffel=50" --dice 1,3,3,5,6 --rolls-left 2
      kniffel advise --card "chance=22" --dice 66653 --rolls-left 0 --json --top 3
      kniffel advise --rules knobeln --jokers-left 2 --dice 2,3,4,5,5 --rolls-left 0
      echo '{"card": {"ones": 3}, "dice": [2,2,2,5,6], "rolls_left": 1}' | kniffel advise --batch -
      kniffel advise --rules dice-duel --chips "ls=0/1/3,4k=2/0/2" --dice 23456 --rolls-left 0
    """
    from ..advice.position import advise as run_advise, checked_query
    from ..dice import parse_dice
    rules = _rules(rules_name)
    if rules.game == "dice-duel" or chips is not None:
        if card or kniffel_bonuses or jokers_left is not None:
            raise InputError("--card, --kniffel-bonuses and --jokers-left are not Dice Duel options")
        _advise_duel(rules, tables, chips, dice_text, rolls_left, top, batch, as_json)
        return
    if batch is not None:
        _advise_batch(batch, rules, tables, top)
        return
    position = _parse_position(rules, card, kniffel_bonuses, jokers_left)
    try:
        roll = parse_dice(dice_text) if dice_text is not None else None
        if roll is None and rolls_left is not None:
            raise ValueError("--rolls-left needs --dice")
        checked_query(position, rules, roll, rolls_left)  # validate before any solving
    except ValueError as exc:
        raise InputError(str(exc)) from None
    table = _table(rules, tables, quiet=as_json)
    advice = run_advise(position, table, dice=roll, rolls_left=rolls_left)
    if as_json:
        _emit_json(advice.as_dict(top))
        return
    _print_advice(advice, roll, rolls_left if rolls_left is not None else rules.rolls_per_turn - 1, top)


def _advise_duel(rules, tables, chips, dice_text, rolls_left, top, batch, as_json):
    from ..dice import parse_dice
    from ..duel.advice import advise as run_advise, advise_lines, checked_query
    if rules.game != "dice-duel":
        raise InputError("--chips needs --rules dice-duel (or a Dice Duel rules file)")
    if batch is not None:
        loaded = {}

        def table_for(line_rules):
            if line_rules.key not in loaded:
                loaded[line_rules.key] = _table(line_rules, tables, quiet=True)
            return loaded[line_rules.key]

        for text in advise_lines(batch, rules, table_for, top):
            click.echo(text)
        return
    try:
        roll = parse_dice(dice_text) if dice_text is not None else None
        if roll is None and rolls_left is not None:
            raise ValueError("--rolls-left needs --dice")
        position = checked_query(chips, rules, roll, rolls_left)[0]  # validate before any solving
    except ValueError as exc:
        raise InputError(str(exc)) from None
    advice = run_advise(position, _table(rules, tables, quiet=as_json), dice=roll, rolls_left=rolls_left)
    if as_json:
        _emit_json(advice.as_dict(top))
        return
    click.echo(f"{advice.rules}: chips {position.spec() or 'all on the plate'}; "
               f"held {position.chips_value} points")
    if position.over:
        click.echo(f"the game is over: {advice.expected_final_score:.0f} points with the bonuses "
                   f"(+{rules.last_chip_bonus} to whoever took the last plate chip)")
    elif roll is None:
        click.echo(f"expected final score at the start of the turn: {advice.expected_final_score:.4f}")
    if roll is None:
        return
    left = rolls_left if rolls_left is not None else rules.rolls_per_turn - 1
    _print_options(advice, roll, left, top, _describe_duel)


def _describe_duel(option):
    if option["action"] == "keep":
        return f"keep {' '.join(map(str, option['keep'])) or 'nothing'}, reroll"
    if option["action"] == "stop":
        return "stop: " + _describe_duel(option["then"])
    if option["action"] == "no_chip":
        return f"no chip: {option['set_aside']} set aside"
    chips = " + ".join(c["type"] + (" (set aside)" if c["from"] == "aside" else "")
                       for c in option["chips"])
    bonus = f" +{option['last_chip_bonus']} last chip" if option["last_chip_bonus"] else ""
    return f"take {chips}{bonus}"


def _print_advice(advice, roll, rolls_left, top):
    click.echo(f"{advice.rules}: card total {advice.card_total}")
    if roll is None:
        click.echo(f"expected final score at the start of the turn: {advice.expected_final_score:.4f}")
        return
    _print_options(advice, roll, rolls_left, top, _describe)


def _print_options(advice, roll, rolls_left, top, describe):
    click.echo(f"dice {' '.join(map(str, roll))}, {rolls_left} roll{'s' if rolls_left != 1 else ''} left")
    shown = advice.options if top is None else advice.options[:top]
    best = advice.expected_final_score
    width = max(len(describe(o)) for o in shown)
    click.echo(f"  {'#':>2}  {'choice':<{width}}  {'expected':>9}  {'cost':>7}")
    for rank, option in enumerate(shown, 1):
        value = option["expected_final_score"]
        click.echo(f"  {rank:>2}  {describe(option):<{width}}  {value:>9.3f}  {best - value:>7.3f}")
    if len(shown) < len(advice.options):
        click.echo(f"  ({len(advice.options) - len(shown)} more; drop --top to see all)")


def _describe(option):
    if option["action"] == "keep":
        held = " ".join(map(str, option["keep"])) or "nothing"
        return f"keep {held}, reroll"
    extra = f" +{option['bonus']} bonus" if option["bonus"] else ""
    joker = ""
    if "joker" in option:
        taken, given = option["joker"]["from"], option["joker"]["to"]
        pairs = zip(taken, given) if isinstance(taken, list) else [(taken, given)]
        joker = "joker " + ", ".join(f"{a}->{b}" for a, b in pairs) + ", "
    return f"{joker}score {option['box']} for {option['points']}{extra}"


def _advise_batch(stream, default_rules, tables, top):
    """One JSON result per input line; a bad line gets {"error": ...} and the rest go on."""
    from ..advice.batch import advise_lines
    loaded = {}

    def table_for(rules):
        if rules.key not in loaded:
            loaded[rules.key] = _table(rules, tables, quiet=True)
        return loaded[rules.key]

    # Read a terminal line by line, so each answer comes at once; files and pipes in chunks.
    chunk = 1 if stream.isatty() else 1024
    for text in advise_lines(stream, default_rules, table_for, top, chunk=chunk):
        click.echo(text)


@cli.command()
@click.option("--rules", "rules_name", default="kniffel", show_default=True, help=RULES_HELP)
@click.option("--tables", type=click.Path(file_okay=False), help=TABLES_HELP)
@click.option("--games", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Games to play.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Random seed: the same seed plays the same games.")
@click.option("--strategy", type=click.Choice(["optimal", "greedy"]), default="optimal",
              show_default=True, help="optimal: the solved strategy; greedy: keep the most common "
              "face, fill the box with the most points now.")
@click.option("--compare", type=click.Choice(["greedy", "optimal"]),
              help="Also play this strategy on the same dice seed and show both.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def simulate(rules_name, tables, games, seed, strategy, compare, as_json, quiet):
    """Play many games by computer and report the scores, with 95% confidence intervals.

    \b
    Example:
      kniffel simulate --games 100000 --seed 1 --compare greedy
      kniffel simulate --rules yahtzee --games 20000 --json
    """
    from ..stats.simulate import simulate as run
    from ..stats.summary import summarize
    rules = _scorecard_rules(rules_name, "simulate")
    table = _table(rules, tables, quiet=quiet or as_json)
    strategies = [strategy] + ([compare] if compare and compare != strategy else [])
    progress = False if (quiet or as_json) else None
    results = {name: summarize(run(table, games, seed, strategy=name, progress=progress))
               for name in strategies}
    if as_json:
        _emit_json({"rules": rules.key, "expected_score": table.expected_score,
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
    rows += [(f"percentile {q}", lambda r, q=q: str(r["percentiles"][q])) for q in first["percentiles"]]
    rows += [("upper bonus", lambda r: _percent(r["upper_bonus"])),
             ("Kniffel box 50", lambda r: _percent(r["kniffel_box_50"])),
             ("extra-Kniffel bonus", lambda r: _percent(r["extra_kniffel_bonus"]))]
    rows += [(f"score >= {t}", lambda r, t=t: _percent(r["at_least"][t])) for t in first["at_least"]]
    if rules.jokers:
        rows.append(("jokers used", lambda r: f"{r['jokers_used_mean']:.2f}"))
    width = max(len(label) for label, _ in rows)
    click.echo(f"  {'':<{width}}  " + "  ".join(f"{n:>16}" for n in names))
    for label, cell in rows:
        click.echo(f"  {label:<{width}}  " + "  ".join(f"{cell(results[n]):>16}" for n in names))


def _percent(proportion):
    return f"{100 * proportion['p']:.2f}% ± {100 * proportion['ci95']:.2f}"


@cli.command()
@click.option("--rules", "rules_name", default="kniffel", show_default=True, help=RULES_HELP)
@click.option("--tables", type=click.Path(file_okay=False), help=TABLES_HELP)
@click.option("--card", default="", help='Filled boxes, e.g. "ones=3,fives=15" (default: empty card).')
@click.option("--kniffel-bonuses", type=int, default=0, help="Extra-Kniffel bonuses already paid.")
@click.option("--jokers-left", type=int, help="Knobeln jokers still in hand (default: all).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (summary and every probability).")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, writable=True),
              help="Also write score,probability,cdf to this CSV file.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, writable=True),
              help="Also draw the distribution to this image file (needs the [plot] extra).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def distribution(rules_name, tables, card, kniffel_bonuses, jokers_left, as_json, csv_path,
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
    from ..stats.plot import PlotUnavailable, plot_distribution
    rules = _scorecard_rules(rules_name, "distribution")
    position = _parse_position(rules, card, kniffel_bonuses, jokers_left)
    _check_position(position, rules)
    table = _table(rules, tables, quiet=quiet or as_json)
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
        _emit_json(summary)
        return
    _print_distribution(summary, histogram(dist), seconds)


def _check_position(position, rules):
    from ..engine.states import position_state
    try:
        position_state(position, rules)
    except ValueError as exc:
        raise InputError(str(exc)) from None


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


@cli.command()
@click.option("--rules", "rules_name", default="kniffel", show_default=True, help=RULES_HELP)
@click.option("--tables", type=click.Path(file_okay=False), help=TABLES_HELP)
@click.option("--seed", type=click.IntRange(min=0), help="Dice seed: the same seed rolls the same dice "
              "(default: a fresh one, saved in the record).")
@click.option("--real-dice", is_flag=True, help="Type the dice thrown at the table instead of rolling.")
@click.option("--players", default="1", show_default=True,
              help='How many players, or their names: --players 3 or --players "Anna,Ben".')
@click.option("--coach", is_flag=True, help="Show the best moves before every decision and what yours cost.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False),
              help="Game record file (default: kniffel-game-DATE-TIME.json here).")
def play(rules_name, tables, seed, real_dice, players, coach, record_path):
    """Play Kniffel in the terminal, alone or several on one card, with a coach on request.

    Keep dice by typing their faces (335), Enter rerolls all, a keeps all; choose a box by name,
    German name or number; ? shows every choice with its cost; q saves and quits.  The game
    record is saved after every decision and on Ctrl-C.

    \b
    Example:
      kniffel play --seed 7 --coach
      kniffel play --players "Anna,Ben" --real-dice --rules yahtzee
    """
    import random
    from ..game.card import Game, GameError, parse_players
    from ..game.terminal import play as run, seeded_rng
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
    table = _table(rules, tables)
    game = Game(rules, names, seed, real_dice)
    status = run(game, table, record_path, coach=coach, rng=None if real_dice else seeded_rng(seed))
    if status == "interrupted":
        sys.exit(130)


@cli.command()
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
    from ..game.card import GameError, load_record, record_rules
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


@cli.command(name="tables")
@click.option("--rules", "rules_names", multiple=True, metavar="NAME|FILE",
              help=RULES_HELP + " Repeat for several (default: kniffel).")
@click.option("--tables", type=click.Path(file_okay=False), help=TABLES_HELP)
@click.option("--out", type=click.Path(file_okay=False), default="tables", show_default=True,
              help="Directory to write into, one subdirectory per rule set.")
@click.option("--format", "formats", type=click.Choice(["md", "csv", "json"]), multiple=True,
              help="File format; repeat for several (default: md).")
@click.option("--values", is_flag=True, help="Also export the whole value table: values.csv, "
              "values.npy and values.json (tens of MB).")
@click.option("--json", "as_json", is_flag=True, help="Print the written files as JSON.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def tables_command(rules_names, tables, out, formats, values, as_json, quiet):
    """Write strategy tables: the opening turn and a box-choice cheat sheet.

    \b
    Example:
      kniffel tables --rules kniffel --rules yahtzee --out my-tables
      kniffel tables --rules kniffel-basic --format csv --values
    """
    from pathlib import Path
    from ..strategy_tables import export_values, write_tables
    rule_sets = [_scorecard_rules(name, "tables") for name in rules_names or ("kniffel",)]
    progress = not (quiet or as_json)
    written = []
    for rules in rule_sets:
        table = _table(rules, tables, quiet=not progress)
        directory = Path(out) / rules.key
        written += write_tables(table, directory, formats or ("md",), progress=progress)
        if values:
            written += export_values(table, directory, progress=progress)
    if as_json:
        _emit_json([{"path": str(p), "bytes": p.stat().st_size} for p in written])
        return
    for path in written:
        click.echo(f"{path.stat().st_size:>12,}  {path}")


@cli.command()
@click.option("--rules", "rules_names", multiple=True, metavar="PRESET",
              help="Preset to measure; repeat for several (default: kniffel).")
@click.option("--all", "all_presets", is_flag=True, help="Measure every preset (several minutes).")
@click.option("--quick", is_flag=True, help="Fewer repeats, games and positions (about half a minute).")
@click.option("--repeat", type=click.IntRange(min=1), help="Repeats of each timing (best is kept).")
@click.option("--games", type=click.IntRange(min=1), help="Games a simulation timing.")
@click.option("--batch-lines", type=click.IntRange(min=1), help="Positions for the batch timing.")
@click.option("--cold", is_flag=True, help="Also time a solve with an empty numba cache (compiles, ~15 s).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def bench(rules_names, all_presets, quick, repeat, games, batch_lines, cold, as_json, quiet):
    """Benchmark solving, advising, batch advice and simulation on this machine.

    \b
    Example:
      kniffel bench
      kniffel bench --quick --json
      kniffel bench --rules yahtzee --rules yatzy --cold
    """
    from ..bench import DEFAULTS, QUICK, BenchError, run_suite, text_table
    from ..rules import PRESETS
    presets = list(PRESETS) if all_presets else list(rules_names or ("kniffel",))
    for name in presets:
        if name not in PRESETS:
            raise InputError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")
    settings = dict(QUICK if quick else DEFAULTS)
    settings.update({k: v for k, v in (("repeat", repeat), ("games", games), ("batch_lines", batch_lines))
                     if v is not None})
    try:
        results = run_suite(presets, cold=cold, progress=False if (quiet or as_json) else None, **settings)
    except BenchError as exc:
        raise CommandError(f"benchmark failed: {exc}") from None
    if as_json:
        _emit_json(results)
    else:
        click.echo(text_table(results))


@cli.command(name="rules")
@click.option("--show", "show", metavar="NAME|FILE", help="Print the fully resolved rules of a preset or file.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def rules_command(show, as_json):
    """List the rule presets with a one-line description each, or show one in full.

    \b
    Example:
      kniffel rules --json
      kniffel rules --show house.toml
    """
    from ..presets import all_presets
    if show is not None:
        rules = _rules(show)
        data = {"name": rules.key, "description": rules.description, "rules": rules.as_dict()}
        if rules.game == "dice-duel":
            from ..duel.rules import TYPES, VALUES
            data["chips"] = dict(zip(TYPES, VALUES))
        else:
            data["boxes"] = list(rules.boxes)
        if as_json:
            _emit_json(data)
            return
        click.echo(f"{rules.key}: {rules.description}")
        width = max(map(len, data["rules"]))
        for key, value in data["rules"].items():
            click.echo(f"  {key:<{width}}  {json.dumps(value)}")
        if "chips" in data:
            click.echo(f"  {'chips':<{width}}  " + ", ".join(f"{k} {v}" for k, v in data["chips"].items()))
        else:
            click.echo(f"  {'boxes':<{width}}  {', '.join(rules.boxes)}")
        return
    presets = all_presets()
    if as_json:
        _emit_json([{"name": name, "description": r.description, "rules": r.as_dict()}
                    for name, r in presets.items()])
        return
    width = max(map(len, presets))
    for name, r in presets.items():
        click.echo(f"{name:<{width}}  {r.description}")


def main(argv=None):
    """Console entry point: one-line errors with exit code 2, never a traceback for bad input."""
    try:
        cli.main(args=argv, prog_name="kniffel", standalone_mode=False)
    except click.exceptions.UsageError as exc:
        click.echo(f"kniffel: error: {exc.format_message()}", err=True)
        sys.exit(EXIT_USAGE)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("kniffel: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    except OSError as exc:  # e.g. a table store that cannot be written
        click.echo(f"kniffel: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), err=True)
        sys.exit(1)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)


if __name__ == "__main__":
    main()
