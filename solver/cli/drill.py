"""`kniffel drill`: positions from the player's own costly decisions (or the built-in set), one
at a time; the coach prices each answer and says why, and the ones answered wrongly come back
(history/drill.py)."""
import click

from .common import InputError, command_tables, emit_json, json_option, lang_option, tables_option

QUIT = ("q", "quit", "exit")


@click.command("drill")
@click.option("--db", "db", type=click.Path(dir_okay=False),
              help="The history database (default: $KNIFFEL_DB, else history.sqlite in the user "
              "data directory); the drill's results are kept there too.")
@click.option("--player", help="Whose drill: their own costly decisions (default: the player "
              "with the most games kept, else \"you\").")
@click.option("--count", type=click.IntRange(1, 1000), default=10, show_default=True,
              help="Positions to answer (q stops sooner; every answer is kept at once).")
@tables_option()
@json_option("For programs: each position as a JSON line, an answer read a line from stdin "
             "(as typed), its judgement as a JSON line.")
@lang_option()
def drill_command(db, player, count, tables, as_json, lang):
    """Answer positions one at a time: the dice to keep (e.g. 55) or a box (e.g. sixes).  The
    coach says what the answer gives away and why; a position answered wrongly comes back after
    two others, one answered rightly later and later.

    The positions are your own costly decisions from the games kept in the history (kniffel
    play, the web page, kniffel analyze), then a built-in set of Kniffel positions where the
    tempting move gives away the most.

    \b
    Example:
      kniffel drill
      kniffel drill --player Anna --count 5 --lang de
    """
    from ..history.store import HistoryError, open_history
    from ..terminal.card import limit_input
    limit_input()
    try:
        history = open_history(db)
    except HistoryError as exc:
        raise InputError(f"drill: {exc}") from None
    with history:
        from ..history.drill import default_player
        player = player if player is not None else default_player(history)
        session = Session(history, player, command_tables(tables, quiet=as_json), lang, as_json)
        session.run(count)


class Session:
    """One sitting of the drill: ask, judge, say why, until `count` or q or the end of input."""

    def __init__(self, history, player, tables, lang, as_json):
        from ..lang import Words
        self.history, self.player, self.tables = history, player, tables
        self.lang, self.as_json = lang, as_json
        self.words = Words(lang)  # until a position names its rules (their box names)
        self.right = self.answered = 0
        self.cost = 0.0

    def run(self, count):
        from ..history.drill import next_question
        for number in range(1, count + 1):
            item = next_question(self.history, self.player)
            if item is None or not self.ask(item, number, count):
                break
        if not self.as_json:
            self.say_summary()

    def ask(self, item, number, count):
        """Show `item`, read answers until one is a move; False when the player stops."""
        from ..game.card import GameError
        from ..history.drill import DrillError, answer_item, parse_answer, question_request
        from ..history.store import HistoryError
        from ..lang import Words
        question = item["question"]
        request = question_request(question, why=False)
        self.words = Words(self.lang, request.rules)
        shown = self.show(item, number, count, request)
        while True:
            text = self.read(shown)
            if text is None or text.strip().lower() in QUIT:
                return False
            try:
                decision = parse_answer(text, question)
                judged = answer_item(self.history, self.player, item["id"], decision,
                                     self.tables)
            except (DrillError, GameError) as exc:
                self.error(exc)
                continue
            except HistoryError as exc:
                raise InputError(f"drill: {exc}") from None
            self.judged(item, judged)
            return True

    def show(self, item, number, count, request):
        """The position (text, or its JSON line); returns the prompt."""
        from ..ask.answer import answer
        w, question = self.words, item["question"]
        if self.as_json:
            emit_json({"id": item["id"], "player": self.player, "number": number,
                       "source": item["source"], "game": item["game"], "round": item["round"],
                       "asked_before": item["asked_before"], "question": question})
            return ""
        from .advice_text import position_lines
        advice = answer(request, self.tables)
        where = (w("drill.from_game", game=item["game"], round=item["round"])
                 if item["game"] is not None else w("drill.built_in"))
        again = w("drill.again", n=item["asked_before"]) if item["asked_before"] else ""
        click.echo(w("drill.head", number=number, count=count, where=where) + again)
        for line in position_lines(request.rules, advice.position, w):
            click.echo(line)
        return w("drill.prompt_keep" if question["rolls_left"] else "drill.prompt_box")

    def read(self, prompt):
        from ..terminal.card import InputClosed, Terminal
        try:
            return Terminal().ask(prompt) if not self.as_json else _read_line()
        except (EOFError, InputClosed):
            return None

    def error(self, exc):
        from ..game.card import GameError
        text = exc.text(self.words.lang) if isinstance(exc, GameError) else str(exc)
        if self.as_json:
            emit_json({"error": text})
        else:
            click.echo(f"  ! {text}")

    def judged(self, item, judged):
        from ..advice.choices import describe_choice
        from ..history.drill import judgement_why
        w = self.words
        self.answered += 1
        self.right += judged["right"]
        self.cost += judged["cost"]
        choice, best = describe_choice(judged["choice"], w), describe_choice(judged["best"], w)
        if self.as_json:
            # as POST /api/drill/answer says it: the two options, each with its why
            emit_json({"id": item["id"], "right": judged["right"], "cost": judged["cost"],
                       "choice": judged["choice"], "best": judged["best"],
                       "again_after": judged["again_after"], "why": judged["advice"].why})
            return
        click.echo("  " + (w("drill.right", best=best) if judged["right"]
                           else w("drill.wrong", choice=choice, cost=judged["cost"], best=best)))
        for line in judgement_why(judged, w):
            click.echo(line)
        click.echo("  " + w("drill.comes_back", n=judged["again_after"]))
        click.echo()

    def say_summary(self):
        from ..history.drill import drill_summary
        found = drill_summary(self.history, self.player)
        click.echo(self.words("drill.summary", n=self.answered, right=self.right,
                              cost=self.cost, positions=found["positions"],
                              due=found["due_now"]))


def _read_line():
    import sys
    if sys.stdin is None:
        return None
    line = sys.stdin.readline()
    return line.rstrip("\n") if line else None
