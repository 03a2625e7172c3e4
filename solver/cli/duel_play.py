"""`kniffel play --rules dice-duel --players "Anna,Ben"` and `kniffel analyze` of such a record:
the Dice Duel for 2 or more players in the terminal (the game: solver/duel/multi_record.py).

Every answer a player types is checked by the game; a mistake is explained and asked again.  The
record is saved after every decision and when the game stops (q, Ctrl-C, end of input)."""
import sys
import time

import click

from .common import InputError, check_output_file, emit_json

HELP_ROLL = ("type the dice to keep (e.g. 335), Enter = reroll all, s = stop and take a chip, "
             "? = coach, u = undo, q = save and quit")
HELP_END = "type a chip (name, short name or value; add ' aside' for a set-aside one), n = no chip, " \
           "? = coach, u = undo, q = save and quit"


class _Quit(Exception):
    pass


class _Undo(Exception):
    pass


def play_duel(rules, names, seed, real_dice, record_path, coach):
    """Start a new game and play it (exit 130 when interrupted)."""
    import random
    from ..duel.multi_record import new_game
    from ..game.card import GameError
    try:
        game = new_game(rules, names, seed, real_dice)
    except GameError as exc:
        raise InputError(str(exc)) from None
    if seed is None and not real_dice:
        game.seed = random.SystemRandom().randrange(2**32)
    record_path = record_path or time.strftime("kniffel-duel-%Y%m%d-%H%M%S.json")
    check_output_file(record_path, "--record")
    _run(game.record(), record_path, coach)


def resume_duel(record, path, record_path, coach):
    from ..duel.multi_record import rebuild
    from ..game.card import GameError
    try:
        game = rebuild(record)
    except GameError as exc:
        raise InputError(f"{path}: {exc}") from None
    if game.over:
        raise InputError(f"{path}: the game is over; see kniffel analyze {path}")
    _run(record, record_path or path, coach)


def _run(record, path, coach):
    from ..game.record import save_record
    session = _Session(record, coach)
    save_record(record, path)
    status = "finished"
    try:
        session.loop(path)
    except _Quit:
        status = "quit"
    except (KeyboardInterrupt, EOFError, click.exceptions.Abort):
        click.echo()
        status = "interrupted"
    save_record(session.record, path)
    click.echo(f"game record: {path}")
    if status == "interrupted":
        sys.exit(130)


class _Session:
    def __init__(self, record, coach):
        self.record, self.hand, self.coach = record, None, coach

    def game(self):
        from ..duel.multi_record import rebuild
        return rebuild(self.record, self.hand)

    def move(self, move):
        from ..duel.multi_record import apply_move
        self.record, self.hand = apply_move(self.record, self.hand, move)

    def loop(self, path):
        from ..game.card import GameError
        from ..game.record import save_record
        while True:
            game = self.game()
            if game.over:
                show_table(game)
                return
            try:
                self.step(game)
            except _Undo:
                self.move({"undo": True})
            except GameError as exc:
                click.echo(f"  {exc}")
            save_record(self.record, path)

    def step(self, game):
        if game.dice is None:
            if game.rolls_left == game.rules.rolls_per_turn:  # the turn's start
                show_table(game)
                click.echo(f"{game.players[game.table.to_move]}'s turn")
            if game.real_dice:
                n = 5 - len(game.kept)
                text = _ask(f"dice thrown ({n} dice, or all five)")
                self.move({"roll": [int(c) for c in text if c.isdigit()]})
            else:
                self.move({"roll": True})
            return
        click.echo(f"  dice {' '.join(map(str, game.dice))}, {game.rolls_left} roll"
                   f"{'s' if game.rolls_left != 1 else ''} left")
        if self.coach:
            _coach(game, top=3)
        if game.rolls_left > 0:
            text = _ask(HELP_ROLL if not self.coach else "keep (Enter = reroll all, s = stop)")
            if text == "?":
                _coach(game)
                return  # asked again, with the dice shown again
            if text != "s":
                self.move({"keep": [int(c) for c in text if c.isdigit()]})
                return
        self.end(game)

    def end(self, game):
        text = _ask(HELP_END if not self.coach else "chip (n = none)")
        if text == "?":
            _coach(game, final=True)
            text = _ask("chip (n = none)")
        if text == "n":
            self.move({"no_chip": True})
            return
        name, _, where = text.partition(" ")
        self.move({"take": name, "from": "aside" if where.strip() == "aside" else "plate"})


def _ask(prompt):
    text = click.prompt(prompt, default="", show_default=False, prompt_suffix=" ").strip().lower()
    if text == "q":
        raise _Quit
    if text == "u":
        raise _Undo
    return text


def _coach(game, top=None, final=False):
    from ..duel.multi_advice import advise
    from .advise_multi import answer_lines
    answer = advise(game.table, game.rules, list(game.dice), 0 if final else game.rolls_left)
    lines = answer_lines(answer, top)
    first = next(i for i, line in enumerate(lines) if line.startswith("chance to win"))
    for line in lines[first:]:  # the position is on the screen already
        click.echo("  " + line)


def show_table(game):
    """The chips as the table shows them: plate, set aside, in front of each player."""
    from ..duel import multi_game as mg
    from ..duel.chips import TYPES, VALUES
    table = game.table
    click.echo("  " + " ".join(f"{name[:6]:>6}" for name in TYPES) + "   points")
    click.echo("  " + " ".join(f"{v:>6}" for v in VALUES))
    points = mg.scores(table, game.rules)  # the last-chip bonus once it is won
    rows = [("plate", table.plate, ""), ("aside", table.aside, "")]
    rows += [(name, seat, points[i]) for i, (name, seat) in enumerate(zip(game.players, table.seats))]
    for label, counts, score in rows:
        click.echo("  " + " ".join(f"{c:>6}" for c in counts) + f"   {score}  {label}")
    if game.over:
        shares = mg.win_shares(table, game.rules)
        winners = [n for n, s in zip(game.players, shares) if s > 0]
        click.echo("game over: " + (" and ".join(winners) + " win" + ("s" if len(winners) == 1 else "")
                                    if winners else "a tie: nobody wins (ties = lose)"))


def analyze_duel(record, path, as_json):
    """`kniffel analyze` of a Dice Duel record."""
    from ..duel.multi_analysis import analyze, report_lines
    from ..game.card import GameError
    try:
        result = analyze(record, progress=None)  # a bar on a terminal: ~0.3 s a decision
    except GameError as exc:
        raise InputError(f"{path}: {exc}") from None
    if as_json:
        emit_json(result)
        return
    for line in report_lines(result):
        click.echo(line)
