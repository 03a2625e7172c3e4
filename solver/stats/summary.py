"""Summary statistics of simulated games, with 95% confidence intervals."""
import math

import numpy as np

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)
THRESHOLDS = (200, 250, 300, 400)
Z95 = 1.959963984540054  # two-sided 95% normal quantile


def _proportion(hits, n):
    p = hits / n
    return {"p": p, "ci95": Z95 * math.sqrt(p * (1 - p) / n)}


def summarize(sim):
    """Mean (with its 95% interval), SD, percentiles and event probabilities of a Simulation."""
    scores = sim.scores
    n = len(scores)
    sd = float(scores.std(ddof=1)) if n > 1 else 0.0
    percentiles = np.percentile(scores, PERCENTILES, method="inverted_cdf")
    return {
        "games": n,
        "seed": sim.seed,
        "mean": float(scores.mean()),
        "mean_ci95": Z95 * sd / math.sqrt(n),
        "sd": sd,
        "min": int(scores.min()),
        "max": int(scores.max()),
        "percentiles": {str(q): int(v) for q, v in zip(PERCENTILES, percentiles)},
        "upper_bonus": _proportion(int(sim.upper_bonus.sum()), n),
        "kniffel_box_50": _proportion(int(sim.kniffel_fifty.sum()), n),
        "extra_kniffel_bonus": _proportion(int((sim.extra_bonuses > 0).sum()), n),
        "jokers_used_mean": float(sim.jokers_used.mean()),
        "at_least": {str(t): _proportion(int((scores >= t).sum()), n) for t in THRESHOLDS},
    }
