"""`kniffel play --rules dice-duel --players "Anna,Ben"` and `kniffel analyze` of such a record:
the Dice Duel for 2 or more players in the terminal (the game: solver/duel/multiplayer/record.py).

Every answer a player types is checked by the game; a mistake is explained and asked again.  The
record is saved after every decision and when the game stops (q, Ctrl-C, end of input)."""
import sys
import time

import click

from ..lang import Words
from .common import InputError, check_output_file, emit_json


class _Quit(Exception):
    pass


class _Undo(Exception):
    pass


def play_duel(rules, names, seed, real_dice, record_path, coach, lang=None, tables=None):
    """Start a new game and play it (exit 130 when interrupted); lang: de, en or None (the
    rules' pad language); tables: the cache of tables (ask/tables.Tables) whose store's
    horizon table the coach reads, if it holds one."""
    import random

    from ..duel.multiplayer.record import new_game
    from ..game.card import GameError
    words = Words(lang, rules)
    try:
        game = new_game(rules, names, seed, real_dice)
    except GameError as exc:
        raise InputError(exc.text(words.lang)) from None
    if seed is None and not real_dice:
        game.seed = random.SystemRandom().randrange(2**32)
    record_path = record_path or time.strftime("kniffel-duel-%Y%m%d-%H%M%S.json")
    check_output_file(record_path, "--record")
    _run(game.record(), record_path, coach, words, tables)


def resume_duel(record, path, record_path, coach, lang=None, tables=None):
    """Go on with a saved game (its record `record`, read from `path`); tables: as
    play_duel's."""
    from ..duel.multiplayer.record import check_record, rebuild
    from ..game.card import GameError
    try:
        check_record(record)  # every field as its moves give it
        game = rebuild(record)
    except GameError as exc:
        raise InputError(f"{path}: {exc}") from None
    words = Words(lang, game.rules)
    if game.over:
        raise InputError(f"{path}: " + words("duel.over", path=path))
    _run(record, record_path or path, coach, words, tables)


def _run(record, path, coach, words, tables):
    from ..game.record import save_record
    from ..terminal.card import LineTooLong, limit_input
    session = _Session(record, coach, words, tables)
    save_record(record, path)
    limit_input()
    status = "finished"
    try:
        session.loop(path)
    except LineTooLong:  # no move: the game stops, saved, and the command says why
        click.echo()
        save_record(session.record, path)
        raise
    except _Quit:
        status = "quit"
    except (KeyboardInterrupt, EOFError, click.exceptions.Abort):
        click.echo()
        status = "interrupted"
    save_record(session.record, path)
    click.echo(words("duel.record", path=path))
    if status == "interrupted":
        sys.exit(130)


class _Session:
    def __init__(self, record, coach, words, tables):
        self.record, self.hand, self.coach, self.words = record, None, coach, words
        self.tables = tables
        self.advised = None  # the advice shown for the decision in hand: noted with it

    def game(self):
        from ..duel.multiplayer.record import rebuild
        return rebuild(self.record, self.hand)

    def move(self, move):
        from ..duel.multiplayer.record import apply_move
        self.record, self.hand = apply_move(self.record, self.hand, move, self.advised)
        self.advised = None

    def loop(self, path):
        from ..game.card import GameError
        from ..game.record import save_record
        while True:
            game = self.game()
            if game.over:
                show_table(game, self.words)
                return
            try:
                self.step(game)
            except _Undo:
                self.move({"undo": True})
            except GameError as exc:
                click.echo("  " + exc.text(self.words.lang))
            save_record(self.record, path)

    def step(self, game):
        words = self.words
        if game.dice is None:
            if game.rolls_left == game.rules.rolls_per_turn:  # the turn's start
                show_table(game, words)
                click.echo(words("duel.turn", name=game.players[game.table.to_move]))
            if game.real_dice:
                text = _ask(words("duel.prompt_dice", n=5 - len(game.kept)))
                self.move({"roll": [int(c) for c in text if c.isdigit()]})
            else:
                self.move({"roll": True})
            return
        click.echo("  " + words("dice_left", dice=words.faces(game.dice),
                                left=words("rolls_left", n=game.rolls_left)))
        if self.coach:
            self.advised = _coach(game, words, self.tables, top=3)
        if game.rolls_left > 0:
            text = _ask(words("duel.help_roll" if not self.coach else "duel.prompt_keep"))
            if text == "?":
                self.advised = _coach(game, words, self.tables)
                return  # asked again, with the dice shown again
            if text != "s":
                self.move({"keep": [int(c) for c in text if c.isdigit()]})
                return
        self.end(game)

    def end(self, game):
        words = self.words
        text = _ask(words("duel.help_end" if not self.coach else "duel.prompt_chip"))
        if text == "?":
            _coach(game, words, self.tables, final=True)
            text = _ask(words("duel.prompt_chip"))
        if text == "n":
            self.move({"no_chip": True})
            return
        name, where = _chip_answer(text, words)
        self.move({"take": name, "from": where})


def _chip_answer(text, words):
    """(chip name, "plate" or "aside") of a typed answer: a chip's name (German names have
    spaces), then "aside" or the language's word for it."""
    name, _, last = text.rpartition(" ")
    if name and last in ("aside", words("duel.aside_word").lower()):
        return name, "aside"
    return text, "plate"


def _ask(prompt):
    text = click.prompt(prompt, default="", show_default=False, prompt_suffix=" ").strip().lower()
    if text == "q":
        raise _Quit
    if text == "u":
        raise _Undo
    return text


def _coach(game, words, tables, top=None, final=False):
    from ..ask.answer import answer as ask
    from ..ask.request import read_request
    from .duel_text import chance_lines
    request = read_request({"rules": game.rules, "chips": game.table, "dice": list(game.dice),
                            "rolls_left": 0 if final else game.rolls_left})
    answer = ask(request, tables).as_dict()
    for line in chance_lines(answer, top, words):  # the position is on the screen already
        click.echo("  " + line)
    return answer


def show_table(game, words):
    """The chips as the table shows them: a row per chip type with its value and how many lie on
    the plate, set aside and in front of each player; then each player's points."""
    from ..duel.chips import TYPES, VALUES
    from ..duel.multiplayer import game as mg
    table = game.table
    heads = [words("duel.plate"), words("duel.aside")] + list(game.players)
    columns = [table.plate, table.aside] + list(table.seats)
    names = [words.chip(t) for t in TYPES]
    first = max(map(len, names + [words("duel.chip"), words("duel.points")]))
    widths = [max(len(h), 3) for h in heads]
    value = words("duel.value")

    def row(label, mid, cells):
        return "  " + f"{label:<{first}}  {mid:>{len(value)}}  " + "  ".join(
            f"{c:>{w}}" for c, w in zip(cells, widths))

    click.echo(row(words("duel.chip"), value, heads))
    for t, name in enumerate(names):
        click.echo(row(name, VALUES[t], [c[t] for c in columns]))
    points = mg.scores(table, game.rules)  # the last-chip bonus once it is won
    click.echo(row(words("duel.points"), "", ["", ""] + list(points)))
    if game.over:
        shares = mg.win_shares(table, game.rules)
        winners = [n for n, s in zip(game.players, shares) if s > 0]
        click.echo(words("duel.wins", names=words("and").join(winners), n=len(winners))
                   if winners else words("duel.tie"))


def analyze_duel(record, path, as_json, lang=None, tables=None):
    """`kniffel analyze` of a Dice Duel record; tables: the store whose horizon table the
    estimates read (None: the usual one)."""
    from ..duel.multiplayer.analysis import analyze, report_lines
    from ..game.card import GameError
    try:
        # a bar on a terminal (advised decisions: none)
        result = analyze(record, progress=None, tables=tables)
    except GameError as exc:
        raise InputError(f"{path}: {exc}") from None
    if as_json:
        emit_json(result)
        return
    from ..duel.multiplayer.record import record_rules
    for line in report_lines(result, Words(lang, record_rules(record.get("rules")))):
        click.echo(line)
