"""`kniffel advise`: one position, or many (--batch), of a scorecard game or the Dice Duel."""

import click

from .common import (CommandError, InputError, command_rules, command_tables, emit_json, expected_table, json_option, lang_option, parse_position, position_options, rules_option, tables_option)

TEXT_TOP = 10  # options the text shows unless --top or --all says otherwise


@click.command("advise")
@rules_option()
@tables_option()
@click.option("--card", default="", help='Filled boxes, e.g. "ones=3,fives=15,kniffel=50", or as '
              'on the pad: "1er=3,5er=15,Kniffel=50" (also Einser … Sechser, 3er-Pasch, '
              '4er-Pasch, FH, kl. Straße, gr. Straße, Chance; Yatzy: Paar, 2 Paare, Yatzy).')
@click.option("--chips", help='Dice Duel: TYPE=PLATE/ASIDE/MINE per type, e.g. "ls=0/1/3,fl=2/0/2" '
              "(unlisted types: all 4 on the plate).")
@click.option("--players", type=int, help="Dice Duel: seats at the table (2-4); --chips then gives "
              "TYPE=PLATE/ASIDE/SEAT0/SEAT1/... and the advice is the chance to win.")
@click.option("--to-move", type=int, help="Dice Duel, 2+ players: the seat whose turn it is (0 starts).")
@click.option("--round-chip-taken", is_flag=True, help="Dice Duel, 2+ players: a chip was taken "
              "earlier in this round.")
@click.option("--opponent-model", type=click.Choice(["best", "greedy"]), default="best",
              show_default=True, help="Dice Duel, 2+ players: the others play for their own best "
              "chance, or take the most valuable chip (exact answers; estimates play greedy).")
@click.option("--dice", "dice_text", help="The five dice, e.g. 1,3,3,5,6 or 13356.")
@click.option("--rolls-left", type=int, help="Rolls still allowed this turn (2 after the first roll).")
@position_options
@click.option("--top", type=click.IntRange(min=1),
              help=f"Show only the K best options (text default: {TEXT_TOP}; --json: all).")
@click.option("--all", "show_all", is_flag=True, help="Text: show every option.")
# --batch is read as bytes: each line is decoded on its own, so a byte that is not UTF-8 spoils
# only its own line.
@click.option("--batch", type=click.File("rb"), help="JSON lines of positions (FILE or -), one result per line.")
@json_option()
@click.option("--target", type=int, help="Play for a final score of at least T: rank by the chance "
              "of reaching it (needs the target table: `kniffel solve --objective target`, once).")
@click.option("--opponent", "opponents", multiple=True, metavar="CARD|empty|final=S",
              help="Play to win against this player (repeat, up to 7): their card, empty before "
              "they have scored, or final=S once they have finished.")
@click.option("--ties", type=click.Choice(["share", "lose"]),
              help="With --opponent: a tie for first is a shared win (1/k, the default) or a loss.")
@click.option("--budget", type=str, default="1", show_default=True, metavar="SECONDS",
              help="With --opponent (or --target without its table): the seconds the answer may "
              "take; the exact sub-game where its predicted cost fits, else an approximation "
              "with an interval (marked ≈).")
@lang_option()
def advise_command(rules_name, tables, card, chips, players, to_move, round_chip_taken,
                   opponent_model, dice_text, rolls_left, kniffel_bonuses, jokers_left, top,
                   show_all, batch, as_json, target, opponents, ties, budget, lang):
    """Best dice to keep or box to fill, with the expected final score of every choice.

    \b
    Example:
      kniffel advise --card "ones=3,kniffel=50" --dice 1,3,3,5,6 --rolls-left 2
      kniffel advise --card "1er=3,kl. Straße=30" --dice 66653 --rolls-left 0 --all
      kniffel advise --card "chance=22" --dice 66653 --rolls-left 0 --json --top 3
      kniffel advise --rules knobeln --jokers-left 2 --dice 2,3,4,5,5 --rolls-left 0
      echo '{"card": {"ones": 3}, "dice": [2,2,2,5,6], "rolls_left": 1}' | kniffel advise --batch -
      kniffel advise --rules dice-duel --chips "ls=0/1/3,4k=2/0/2" --dice 23456 --rolls-left 0
      kniffel advise --rules dice-duel --players 2 --chips "ls=0/1/2/1" --to-move 1 --dice 23456
      kniffel advise --card "ones=3,sixes=24" --dice 66612 --target 250
      kniffel advise --card "$(cat mine)" --dice 66612 --opponent final=231 --ties lose
      kniffel advise --dice 66612 --opponent "ones=3" --opponent "sixes=24" --budget 0.5
    """
    if show_all and top is not None:
        raise InputError("--all and --top exclude each other")
    shown = None if show_all else top or TEXT_TOP  # how many options the text shows
    rules = command_rules(rules_name)
    ties = _objective_options(target, opponents, ties, batch, budget)
    if players not in (None, 1) or to_move is not None or round_chip_taken \
            or rules.game == "dice-duel" or chips is not None:
        scorecard_only = {"--card": card, "--kniffel-bonuses": kniffel_bonuses,
                          "--jokers-left": jokers_left is not None, "--target": target is not None,
                          "--opponent": opponents}
        _advise_any_duel(rules, tables, players, chips, to_move, round_chip_taken, dice_text,
                         rolls_left, shown, batch, as_json, top, opponent_model, scorecard_only,
                         lang)
        return
    from .objectives import command_goal
    goal = command_goal(rules, target, opponents, ties, budget)  # the objective, parsed once
    if batch is not None:
        _advise_batch(batch, rules, tables, top)
        return
    query = checked_position(rules, parse_position(rules, card, kniffel_bonuses, jokers_left),
                             dice_text, rolls_left)  # validated once, before any solving
    from .. import load_table
    from ..advice.goal import POINTS
    table, missing = goal.table(rules, lambda r: expected_table(r, tables, quiet=as_json),
                                lambda r: load_table(r, tables, objective="target"))
    try:
        advice, goal = _within_budget(query, table, goal, "en" if as_json else lang)
    except ValueError as why:  # a target without its table, its sub-game over the budget
        if missing is None:
            raise
        raise CommandError(f"{missing}; {why}") from None
    if as_json:
        click.echo(advice.to_json(top))
    elif goal == POINTS:
        from ..lang import Words
        from .advice_text import building_lines, echo_lines, expected_lines
        words = Words(lang, rules)
        echo_lines(expected_lines(rules, advice, shown, words) +
                   ([advice.note] if advice.note else []) + building_lines(advice, words))
    else:
        from .objectives import print_goal_advice
        print_goal_advice(rules, query, table, advice, shown, lang)


def _within_budget(query, table, goal, lang):
    """(Advice, its goal): the goal's advice, or the advice for points with a note saying why
    when the win's chance cannot be had within its budget (advice/cost.OverBudget)."""
    from .. import advise
    from ..advice.cost import OverBudget
    from ..advice.goal import POINTS
    try:
        advice = advise(query, table, objective=goal)
        if advice.note and goal.kind == "win":  # no target table: say how far its build is
            advice.building = _building(table)
        return advice, goal
    except OverBudget as exc:
        from ..lang import Words
        advice = advise(query, table)
        advice.note = Words(lang, table.rules)("advise.points_instead", seconds=exc.seconds or 0,
                                               budget=exc.budget or 0)
        advice.building = _building(table)  # the opponents' store comes with the target table
        return advice, POINTS


def _building(table):
    """The background build of the win tables of `table`'s rules: one under way, else one
    started now (advice/win/prepare.py; None for rules it does not build)."""
    from ..advice.win.prepare import ensure, store_directory
    return ensure(table.rules, store_directory(table))


def _advise_any_duel(rules, tables, players, chips, to_move, round_chip_taken, dice_text,
                     rolls_left, shown, batch, as_json, top, opponent_model, scorecard_only, lang):
    """`advise` for the Dice Duel: solo, or 2-4 players (--players, --to-move,
    --round-chip-taken); scorecard_only names the options given that only a scorecard takes."""
    given = [name for name, value in scorecard_only.items() if value]
    if players not in (None, 1) or to_move is not None or round_chip_taken:
        from .advise_multi import print_multi_advice
        if given or batch is not None:
            raise InputError("--card, --kniffel-bonuses, --jokers-left, --target, --opponent and "
                             "--batch do not go with --players (a batch line gives \"players\")")
        print_multi_advice(rules, players, chips, to_move, round_chip_taken, dice_text, rolls_left,
                           shown, as_json, top, opponent_model, lang)
        return
    if "--target" in given or "--opponent" in given:
        raise InputError(f"{'--target' if '--target' in given else '--opponent'} is for the "
                         "scorecard games, not the Dice Duel")
    if given:
        raise InputError("--card, --kniffel-bonuses and --jokers-left are not Dice Duel options")
    _advise_duel(rules, tables, chips, dice_text, rolls_left, top, shown, batch, as_json, lang)


def checked_position(rules, position, dice_text, rolls_left):
    """The position, --dice and --rolls-left checked once: an advice Query; InputError (exit 2)
    naming the problem."""
    from ..advice.position import checked_query
    from ..dice import dice_faces
    try:
        roll = dice_faces(dice_text) if dice_text is not None else None  # checked_query checks them
        if roll is None and rolls_left is not None:
            raise ValueError("--rolls-left needs --dice")
        return checked_query(position, rules, roll, rolls_left)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def _objective_options(target, opponents, ties, batch, budget="1"):
    """--ties ("share" when not given); InputError for --ties without --opponent, --budget
    without --opponent or --target, and --target or --opponent with --batch (a line names its
    own): never silently ignored."""
    if ties is not None and not opponents:
        raise InputError("--ties goes with --opponent (in a --batch line: \"ties\")")
    if budget != "1" and not opponents and target is None:
        raise InputError("--budget goes with --opponent or --target (in a --batch line: \"budget\")")
    if batch is not None and (target is not None or opponents):
        raise InputError("--target and --opponent are not read with --batch: give \"target\" or "
                         "\"opponents\" in each line")
    return ties or "share"


def _advise_duel(rules, tables, chips, dice_text, rolls_left, top, shown, batch, as_json, lang):
    from ..dice import parse_dice
    from .. import advise
    from ..duel.solo.advice import answer_lines, checked_query
    if rules.game != "dice-duel":
        raise InputError("--chips needs --rules dice-duel (or a Dice Duel rules file)")
    if batch is not None:
        loaded = {}

        def table_for(line_rules):
            if line_rules.key not in loaded:
                loaded[line_rules.key] = expected_table(line_rules, tables, quiet=True)
            return loaded[line_rules.key]

        for text in answer_lines(batch, rules, table_for, top):
            click.echo(text)
        return
    try:
        roll = parse_dice(dice_text) if dice_text is not None else None
        if roll is None and rolls_left is not None:
            raise ValueError("--rolls-left needs --dice")
        position = checked_query(chips, rules, roll, rolls_left)[0]  # validate before any solving
    except ValueError as exc:
        raise InputError(str(exc)) from None
    advice = advise(position, expected_table(rules, tables, quiet=as_json), dice=roll, rolls_left=rolls_left)
    if as_json:
        emit_json(advice.as_dict(top))
        return
    from ..lang import Words
    _duel_lines(advice, position, rules, roll, rolls_left, shown, Words(lang, rules))


def _duel_lines(advice, position, rules, roll, rolls_left, shown, words):
    """The solo Dice Duel advice as text: the chips, then the ranked options of the roll, the
    `shown` best of them (None: all), each with what it costs against the best."""
    from ..duel.chips import CHIPS_PER_TYPE, TYPES
    from ..duel.words import option_text
    spec = ", ".join(words("duel.solo_chips", chip=words.chip(t), plate=p, aside=a, mine=m)
                     for t, p, a, m in zip(TYPES, position.plate, position.aside, position.mine)
                     if p != CHIPS_PER_TYPE)
    spec = words("duel.solo_spec", list=spec) if spec else words("duel.all_on_plate")
    click.echo(words("duel.solo_head", rules=advice.rules, spec=spec, points=position.chips_value))
    if position.over:
        click.echo(words("duel.solo_over", score=advice.expected_final_score,
                         bonus=rules.last_chip_bonus))
    elif roll is None:
        click.echo(words("duel.solo_start", value=advice.expected_final_score))
    if roll is None:
        return
    left = rolls_left if rolls_left is not None else rules.rolls_per_turn - 1
    roll = sorted(roll)
    click.echo(words("dice_left", dice=words.faces(roll), left=words("rolls_left", n=left)))
    options = advice.options if shown is None else advice.options[:shown]
    best = advice.expected_final_score
    texts = [option_text(option, words, roll) for option in options]
    width = max(map(len, texts))
    click.echo(f"  {'#':>2}  {words('advise.choice'):<{width}}  {words('advise.expected'):>9}")
    for rank, (option, text) in enumerate(zip(options, texts), 1):
        value = option["expected_final_score"]
        click.echo(f"  {rank:>2}  {text:<{width}}  {value:>9.3f}  {words.cost(best - value)}")
    if len(options) < len(advice.options):
        click.echo("  " + words("advise.more", n=len(advice.options) - len(options)))


def _advise_batch(stream, default_rules, tables, top):
    """One JSON result per input line; a bad line gets {"error": ...} and the rest go on."""
    from ..advice.batch import answer_lines
    from ..advice.objective_batch import objective_lines
    loaded = command_tables(tables, quiet=True)  # a line never starts a target build
    # Read a terminal line by line, so each answer comes at once; files and pipes in chunks.
    chunk = 1 if stream.isatty() else 1024

    def plain(run, start):
        return answer_lines(run, default_rules, loaded, top, chunk=chunk, start=start)

    for text in objective_lines(stream, default_rules, loaded, loaded.target, plain, top):
        click.echo(text)
