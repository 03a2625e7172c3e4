"""A picture of the points each player gave away game by game (`kniffel history --plot`; needs
the optional matplotlib, as stats/plot.py)."""
import numpy as np

from ..stats.plot import PlotUnavailable

WINDOW = 10  # the games of the moving mean drawn over each player's points


def plot_losses(result, path, words):
    """Draw summary.summary's `result` to `path` (its suffix the format): per player the points
    given away in each game, oldest first, with their moving mean over WINDOW games; labels in
    `words`' language (a lang.Words)."""
    try:
        import matplotlib
        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable("--plot needs matplotlib: pip install 'kniffel[plot]'") from None
    figure, axes = plt.subplots(figsize=(9, 4.5))
    for player in result["players"]:
        losses = np.array(player["losses"])
        games = np.arange(1, len(losses) + 1)
        line, = axes.plot(games, losses, marker="o", markersize=3, linewidth=0.8, alpha=0.5)
        width = min(WINDOW, len(losses))
        mean = np.convolve(losses, np.ones(width) / width, mode="valid")
        axes.plot(games[width - 1:], mean, color=line.get_color(), linewidth=2,
                  label=words("history.plot_legend", name=player["name"], n=width))
    axes.set_xlabel(words("history.plot_x"))
    axes.set_ylabel(words("history.plot_y"))
    axes.set_title(words("history.plot_title"))
    axes.set_ylim(bottom=0)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
