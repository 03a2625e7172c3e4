"""The --lang option of the commands a player reads: play, analyze, advise, chances, tables."""
import click

from ..lang import LANGUAGES

LANG_HELP = ("Language of the text: de or en (default: the pad's language of the rules, German "
             "for Kniffel, English for Yahtzee and Yatzy). JSON keys and box keys stay as they are.")


def lang_option(command):
    """Add --lang (de|en; None = the rules' pad language) to a click command."""
    return click.option("--lang", type=click.Choice(LANGUAGES), default=None, help=LANG_HELP)(command)
