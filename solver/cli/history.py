"""`kniffel history`: what the games kept in the history say, per player."""
import sqlite3

import click

from .common import InputError, check_output_file, emit_json, json_option, lang_option


@click.command("history")
@click.option("--db", "db", type=click.Path(dir_okay=False),
              help="The history database (default: $KNIFFEL_DB, else history.sqlite in the user "
              "data directory).")
@click.option("--player", help="Only this player.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="Also draw each player's points given away per game to this image file "
              "(needs the [plot] extra).")
@json_option()
@lang_option()
def history_command(db, player, plot_path, as_json, lang):
    """Per player: games, mean score, the points given away per game and their trend, and the
    three recurring kinds of mistake that gave the most away, each with an example position.

    Every game played with `kniffel play` or on the web page and every record given to
    `kniffel analyze` is kept (unless --no-history).

    \b
    Example:
      kniffel history
      kniffel history --player Anna --plot anna.png
      kniffel history --json
    """
    from ..history.store import HistoryError, default_path, open_history
    from ..history.summary import summary
    from ..lang import Words
    from ..stats.plot import PlotUnavailable, check_plot_path
    if plot_path:
        check_output_file(plot_path, "--plot")
        try:
            check_plot_path(plot_path)
        except (PlotUnavailable, ValueError) as exc:
            raise InputError(str(exc)) from None
    path = db or default_path()
    try:
        with open_history(path, write=False) as history:
            result = summary(history, player)
    except HistoryError as exc:
        raise InputError(f"history: {exc}") from None
    except sqlite3.DatabaseError as exc:  # a page found damaged while it is read
        raise InputError(f"history: {path}: damaged, not read and left as it is ({exc})") \
            from None
    words = Words(lang or "en")
    if plot_path and result["players"]:
        from ..history.plot import plot_losses
        plot_losses(result, plot_path, words)
    if as_json:
        emit_json(result)
        return
    from ..history.summary import history_lines
    for line in history_lines(result, words, path, player):
        click.echo(line)
    if plot_path and result["players"]:
        click.echo(words("history.plot", path=plot_path))
