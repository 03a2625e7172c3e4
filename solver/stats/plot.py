"""A picture of a score distribution (needs the optional matplotlib: pip install
'kniffel[plot]')."""
from pathlib import Path


class PlotUnavailable(Exception):
    """matplotlib is not installed."""


def check_plot_path(path):
    """Before any work: PlotUnavailable without matplotlib, ValueError for a file type it
    cannot write (it picks the format from the suffix)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
    except ImportError:
        raise PlotUnavailable("--plot needs matplotlib: pip install 'kniffel[plot]'") from None
    suffix = Path(path).suffix.lstrip(".").lower()
    formats = FigureCanvasAgg.get_supported_filetypes()
    if suffix not in formats:
        what = f"cannot draw a .{suffix} file" if suffix else "the file type comes from its suffix"
        raise ValueError(f"--plot {path}: {what}; use one of .{', .'.join(sorted(formats))}")


def plot_distribution(dist, path):
    """Write a bar chart of P(final score) with the mean and median marked to `path` (PNG, SVG…)."""
    try:
        import matplotlib
        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable("--plot needs matplotlib: pip install 'kniffel[plot]'") from None
    summary = dist.summary()
    figure, axes = plt.subplots(figsize=(9, 4.5))
    axes.bar(dist.scores, dist.probs, width=1.0, color="#3b6ea5")
    axes.axvline(summary["mean"], color="#c0392b", label=f"mean {summary['mean']:.2f}")
    axes.axvline(summary["median"], color="#27ae60", linestyle="--",
                 label=f"median {summary['median']}")
    axes.set_xlim(summary["percentiles"]["1"] - 20, summary["percentiles"]["99"] + 40)
    axes.set_xlabel("final score")
    axes.set_ylabel("probability")
    axes.set_title(f"{dist.rules.key}: final score under the optimal strategy "
                   f"(sd {summary['sd']:.2f})")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
