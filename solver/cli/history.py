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
    three kinds of mistake that gave the most away, each with an example position.

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
    for line in history_lines(result, words, path, player):
        click.echo(line)
    if plot_path and result["players"]:
        click.echo(words("history.plot", path=plot_path))


def history_lines(result, words, path, player=None):
    """The text of `kniffel history` from summary.summary's `result`, in `words`' language."""
    from ..advice.choices import describe_choice
    from ..history.kinds import kind_words
    from ..history.summary import RECENT, advise_command
    w = words
    if not result["players"]:
        return [w("history.no_player", name=player, path=path) if player
                else w("history.none", path=path)]
    lines = []
    for p in result["players"]:
        score = w("history.no_score") if p["mean_score"] is None else f"{p['mean_score']:.1f}"
        lines.append(w("history.player", name=p["name"], n=p["games"], finished=p["finished"],
                       score=score))
        loss = w("history.loss", loss=p["loss_per_game"], recent=p["recent"],
                 n=min(RECENT, p["games"]))
        if p["trend"] is not None:
            direction = ("history.better" if p["trend"] < -0.005 else "history.worse"
                         if p["trend"] > 0.005 else "history.steady")
            loss += w("history.trend", trend=p["trend"], direction=w(direction))
        lines.append(loss)
        lines.append(w("history.kinds") if p["kinds"] else w("history.kinds_none"))
        for rank, kind in enumerate(p["kinds"], 1):
            example = kind["example"]
            lines.append(w("history.kind", rank=rank, kind=kind_words(kind["kind"], w),
                           cost=kind["cost_per_game"], n=kind["decisions"]))
            lines.append(w("history.example", round=example["round"],
                           choice=describe_choice(example["choice"], w),
                           best=describe_choice(example["best"], w), loss=example["loss"],
                           command=advise_command(example, example["rules"])
                           or w.faces(example["dice"])))
    return lines
