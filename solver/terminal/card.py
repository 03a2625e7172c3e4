"""What the terminal game shows and reads: the card as on the paper pad, the end of a game, and
the terminal itself (prompts, lines wrapped to its width)."""
import shutil
import sys
import textwrap

import click

from ..ask.analysis import analyze
from ..game.session import start_expectation
from ..inputs import MAX_TYPED_LINE
from ..lang import Words
from ..rules.scoring import upper_bonus_reached


class Quit(Exception):
    """The player typed q."""


class InputClosed(EOFError):
    """Standard input is closed (`kniffel play <&-`): no move can ever be read."""


class Undo(Exception):
    """The player typed u: take back the roll just typed (real dice) or the last decision."""


class LineTooLong(click.ClickException):
    """A line of input longer than any move (MAX_TYPED_LINE): `kniffel play < /dev/zero` would
    read for ever.  The game stops (saved); one line on stderr, exit code 2."""

    exit_code = 2

    def show(self, file=None):
        click.echo(f"kniffel: error: {self.format_message()}", err=True)


class LimitedLines:
    """Standard input that is not a terminal (a pipe, a file), read a line at a time, each at
    most `limit` bytes (LineTooLong beyond): what `input()` and click's prompt read through."""

    def __init__(self, stream, limit=MAX_TYPED_LINE):
        self.stream, self.limit = stream, limit

    def readline(self, size=-1):
        raw = getattr(self.stream, "buffer", None)
        line = (raw.readline(self.limit + 1) if raw is not None
                else self.stream.readline(self.limit + 1))
        if len(line) > self.limit and not line.endswith(b"\n" if raw is not None else "\n"):
            raise LineTooLong(f"a line of input longer than {self.limit} characters is no move "
                              "(is standard input a file of moves?): the game stops")
        return line.decode("utf-8", "replace") if raw is not None else line

    def __getattr__(self, name):
        return getattr(self.stream, name)


def limit_input():
    """Read standard input through LimitedLines unless it is a terminal (whose lines the
    terminal itself keeps short) or already so read."""
    stream = sys.stdin
    if stream is None or isinstance(stream, LimitedLines):
        return
    try:
        if stream.isatty():
            return
    except (AttributeError, ValueError, OSError):
        pass
    sys.stdin = LimitedLines(stream)


class Terminal:
    """Reads and writes through click (works with a terminal and with CliRunner's input)."""

    def ask(self, prompt):
        if sys.stdin is None:  # Python's stand-in for a standard input closed at start-up
            raise InputClosed
        try:
            return click.prompt(prompt, default="", show_default=False, prompt_suffix=" ")
        except click.exceptions.Abort as exc:  # click turns Ctrl-C and end of input into Abort
            if isinstance(exc.__context__, EOFError):
                raise EOFError from None
            raise

    def say(self, text=""):
        """Print `text`, each line wrapped at word boundaries to the terminal's width."""
        click.echo(wrapped(text, self.width))

    def table(self, text=""):
        """Print a line of a table as it is: its columns must stay aligned."""
        click.echo(text)

    @property
    def width(self):
        """Columns of the terminal (COLUMNS first, else the terminal's, else 80)."""
        return shutil.get_terminal_size((80, 24)).columns


def wrapped(text, width):
    """`text` with each line longer than `width` - 1 broken at word boundaries (a word longer
    than a line stays whole: never broken mid-word), its continuations indented as the line
    plus two spaces.  One column is left free: a terminal wraps a line that fills it."""
    width = max(20, width - 1)
    out = []
    for line in str(text).split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        out.extend(textwrap.wrap(line, width, subsequent_indent=indent + "  ",
                                 break_long_words=False, break_on_hyphens=False) or [line])
    return "\n".join(out)


def shown_name(name, players, words):
    """A player's name as shown among `players` names: a lone player's "you" (game/card.py; the
    record keeps it) in the language of `words` ("du"), any other name as it is."""
    return words("player.you") if name == "you" and players == 1 else name


def card_lines(game, words=None):
    """The card as on the paper pad: a row per box, a column per player, sums and bonuses."""
    rules = game.rules
    w = words or Words(None, rules)
    columns = game.columns
    heads = [shown_name(c.name, len(columns), w) for c in columns]
    width = max(6, *map(len, heads))
    names = {box: w.box(box) for box in rules.boxes}  # as on the pad
    label = max(len(n) for n in names.values()) + 4

    def row(text, cells):
        return f"  {text:<{label}}" + "".join(f" {c:>{width}}" for c in cells)

    lines = [row("", heads)]
    for b, box in enumerate(rules.boxes):
        lines.append(row(f"{b + 1:>2} {names[box]}", [str(c.card.get(box, "-")) for c in columns]))
        if b == 5:
            upper = [sum(c.card.get(x, 0) for x in rules.boxes[:6]) for c in columns]
            lines.append(row("   " + w("card.upper_total"), [str(u) for u in upper]))
            lines.append(row("   " + w("card.bonus", threshold=rules.upper_bonus_threshold),
                             [str(upper_bonus_reached(u, rules.upper_bonus_threshold)
                                  * rules.upper_bonus) for u in upper]))
    if rules.extra_bonus:
        lines.append(row("   " + w("card.extra", kniffel=names[rules.boxes[rules.kniffel_box]]),
                         [str(c.kniffel_bonuses * rules.extra_bonus) for c in columns]))
    if rules.jokers:
        lines.append(row("   " + w("card.jokers_left"), [str(c.jokers_left) for c in columns]))
    lines.append(row("   " + w("card.total"), [str(c.total(rules)) for c in columns]))
    return lines


def summary_lines(game, tables, words=None):
    """The end of a game: each player's points given away, and optimal play's expected score."""
    w = words or Words(None, game.rules)
    result = analyze(game.record(), tables)
    lines = [w("summary.start", value=start_expectation(tables(game.rules)))]
    for p in result["players"]:
        lines.append(w("summary.player", name=shown_name(p["name"], len(result["players"]), w),
                       score=p["score"], loss=p["loss"], optimal=p["optimal"],
                       n=p["decisions"]))
    return lines
