"""`kniffel advise`: one position, or many (--batch), of a scorecard game or the Dice Duel."""

import click

from .common import (
    FLAGS,
    InputError,
    build_win_tables,
    command_request,
    command_rules,
    command_tables,
    json_option,
    lang_option,
    position_options,
    rules_option,
    tables_option,
)

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
@click.option("--to-move", type=int, help="Dice Duel, 2+ players: the seat whose turn it is "
              "(0 starts).")
@click.option("--round-chip-taken", is_flag=True, help="Dice Duel, 2+ players: a chip was taken "
              "earlier in this round.")
@click.option("--opponent-model", type=click.Choice(["best", "greedy"]),
              help="Dice Duel, 2+ players: the others play for their own best "
              "chance (the default), or take the most valuable chip (exact answers; estimates play "
              "greedy).")
@click.option("--dice", "dice_text", help="The five dice, e.g. 1,3,3,5,6 or 13356.")
@click.option("--rolls-left", type=int,
              help="Rolls still allowed this turn (2 after the first roll).")
@position_options
@click.option("--top", type=click.IntRange(min=1),
              help=f"Show only the K best options (text default: {TEXT_TOP}; --json: all).")
@click.option("--all", "show_all", is_flag=True, help="Text: show every option.")
# --batch is read as bytes: each line is decoded on its own, so a byte that is not UTF-8 spoils
# only its own line.
@click.option("--batch", metavar="FILE|-",
              help="JSON lines of positions (a file, or - for standard input), one result per "
              "line.")
@json_option()
@click.option("--target", type=int, help="Play for a final score of at least T: rank by the chance "
              "of reaching it (needs the target table: `kniffel solve --objective target`, once).")
@click.option("--opponent", "opponents", multiple=True, metavar="CARD|empty|final=S",
              help="Play to win against this player (repeat, up to 7): their card, empty before "
              "they have scored, or final=S once they have finished.")
@click.option("--ties", type=click.Choice(["share", "lose"]),
              help="With --opponent: a tie for first is a shared win (1/k, the default) or a loss.")
@click.option("--budget", type=str, metavar="SECONDS",
              help="With --opponent (or --target without its table): the work the answer may "
              "take, in seconds of the reference machine, counted before it starts and never "
              "timed (the same question gets the same answer on any machine, at any load); "
              "the exact sub-game where its work fits, else an approximation with an interval "
              "(marked ≈); default 1.  With --why: the work its upper bonus's chances may take "
              "(default 10: every turn but a game's first).")
@click.option("--build", "build_tables", is_flag=True,
              help="With --opponent or --target: first build the win coach's missing tables "
              "of these rules (gigabytes and minutes: an answer without them says how many), "
              "with a progress bar; a build stopped goes on where it stopped.")
@click.option("--why", is_flag=True,
              help="Also what the turn plays for: under each option, played best after it, the "
              "exact chance that the turn ends in each box and the points entered there; for "
              "points also the upper bonus's chance after it (within --budget), and for a box "
              "the boxes it leaves open.")
@lang_option()
def advise_command(rules_name, tables, card, chips, players, to_move, round_chip_taken,
                   opponent_model, dice_text, rolls_left, kniffel_bonuses, jokers_left, top,
                   show_all, batch, as_json, target, opponents, ties, budget, build_tables, why,
                   lang):
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
      kniffel advise --dice 66612 --opponent "ones=3" --build
      kniffel advise --card "ones=3,fives=15" --dice 13456 --rolls-left 1 --why
    """
    if show_all and top is not None:
        raise InputError("--all and --top exclude each other")
    shown = None if show_all else top or TEXT_TOP  # how many options the text shows
    asked = {"card": card or None, "chips": chips, "players": players, "to_move": to_move,
             "round_chip_taken": round_chip_taken or None, "opponent_model": opponent_model,
             "dice": dice_text, "rolls_left": rolls_left, "kniffel_bonuses": kniffel_bonuses,
             "jokers_left": jokers_left, "target": target, "opponents": list(opponents) or None,
             "ties": ties, "budget": budget, "why": why or None}
    asked = {field: value for field, value in asked.items() if value is not None}
    if batch is not None:
        if build_tables:
            raise InputError("--build is not read with --batch: build the tables first "
                             "(kniffel solve --objective target --rules NAME)")
        if asked:
            flags = [FLAGS[f] for f in asked]
            raise InputError(f"{' and '.join(flags)} {'is' if len(flags) == 1 else 'are'} not "
                             "read with --batch: each line gives its own (\"target\", "
                             "\"opponents\", ...)")
        _advise_batch(batch, command_rules(rules_name), tables, top)
        return
    request = command_request({"rules": rules_name, **asked})  # read once, checked before work
    rules, loaded = request.rules, command_tables(tables, quiet=as_json)
    if build_tables:
        if request.goal.kind not in ("win", "target") or rules.game != "scorecard":
            raise InputError("--build goes with --opponent or --target (the win coach's tables)")
        build_win_tables(rules, loaded, quiet=as_json)
    from ..ask.answer import answer
    advice = answer(request, loaded)
    if as_json:
        click.echo(advice.to_json(top))
        return
    from ..lang import Words
    from .advice_text import advice_lines, echo_lines
    echo_lines(advice_lines(request, advice, loaded, shown, Words(lang, rules)))


def _advise_batch(stream, default_rules, tables, top):
    """One JSON result per input line; a bad line gets {"error": ...} and the rest go on.  Each
    line is answered as soon as it comes when no more input is waiting (a terminal, a program
    that writes a line and waits for its answer); a file or a full pipe in chunks."""
    from ..ask.batch import InputLines, answer_lines
    from ..inputs import MAX_BATCH_LINE
    loaded = command_tables(tables, quiet=True)  # a line never starts a target build
    with _batch_input(stream) as source:
        lines = InputLines(source)
        for text in answer_lines(lines, default_rules, loaded, top, ready=lines.ready):
            click.echo(text)
    if lines.too_long is not None:
        raise InputError(f"--batch line {lines.too_long} is longer than {MAX_BATCH_LINE // 1024} "
                         "KiB: not a question; the batch stops there")


def _batch_input(name):
    """The binary stream of --batch: standard input for "-" (a pipe or a terminal, read as it
    comes), else a regular file (a device such as /dev/zero, a FIFO or a folder: InputError)."""
    import contextlib
    import sys

    from ..inputs import FileRefused, open_regular
    if name == "-":
        if sys.stdin is None:  # closed at start-up (`<&-`): Python's stand-in is None
            raise InputError("--batch -: standard input is closed, there are no lines to read")
        return contextlib.nullcontext(getattr(sys.stdin, "buffer", sys.stdin))
    try:
        return open_regular(name, "--batch file")
    except FileRefused as exc:
        hint = "; a pipe's lines go to --batch - (standard input)" if "FIFO" in str(exc) else ""
        raise InputError(f"{exc}{hint}") from None
