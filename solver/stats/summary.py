"""Summary statistics of simulated games, with 95% confidence intervals.

The figures come from a Tally: a histogram of the final scores and counts of events, merged
block by block, so a simulation of any number of games needs the memory of one block.  Scores
are whole numbers, so the mean, the standard deviation and the percentiles (inverted CDF) come
out exactly from the histogram, the same as from every score.
"""
import math
from dataclasses import dataclass, field

import numpy as np

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)
THRESHOLDS = (200, 250, 300, 400)
Z95 = 1.959963984540054  # two-sided 95% normal quantile


@dataclass
class Tally:
    """What the summary needs of simulated games: counts[score] and the events' counts."""
    seed: int
    games: int = 0
    counts: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    upper_bonus: int = 0  # games that earned the upper bonus
    kniffel_fifty: int = 0  # games whose Kniffel box got 50
    extra_bonus: int = 0  # games with at least one extra-Kniffel bonus
    jokers_used: int = 0  # Knobeln jokers played, over all games

    def add(self, sim):
        """Merge a block of games (a Simulation)."""
        block = np.bincount(sim.scores)
        if len(block) > len(self.counts):
            self.counts = np.concatenate([self.counts,
                                          np.zeros(len(block) - len(self.counts), np.int64)])
        self.counts[: len(block)] += block
        self.games += len(sim.scores)
        self.upper_bonus += int(sim.upper_bonus.sum())
        self.kniffel_fifty += int(sim.kniffel_fifty.sum())
        self.extra_bonus += int((sim.extra_bonuses > 0).sum())
        self.jokers_used += int(sim.jokers_used.sum())
        return self


def _proportion(hits, n):
    p = hits / n
    return {"p": p, "ci95": Z95 * math.sqrt(p * (1 - p) / n)}


def summarize(tally):
    """Mean (with its 95% interval), SD, percentiles and event probabilities of a Tally."""
    n, counts = tally.games, tally.counts
    scores = np.flatnonzero(counts)
    count = [int(c) for c in counts[scores]]
    scores = [int(s) for s in scores]
    # Python integers: exact sums at any number of games, one rounding in each division
    total = sum(c * s for c, s in zip(count, scores))
    squares = sum(c * s * s for c, s in zip(count, scores))
    sd = math.sqrt((n * squares - total * total) / (n * (n - 1))) if n > 1 else 0.0
    cumulative = np.cumsum(count)
    # the inverted CDF: the smallest score that at least q% of the games reach or stay below
    percentiles = {str(q): scores[int(np.searchsorted(cumulative, max(1, -(-q * n // 100))))]
                   for q in PERCENTILES}
    return {
        "games": n,
        "seed": tally.seed,
        "mean": total / n,
        "mean_ci95": Z95 * sd / math.sqrt(n),
        "sd": sd,
        "min": scores[0],
        "max": scores[-1],
        "percentiles": percentiles,
        "upper_bonus": _proportion(tally.upper_bonus, n),
        "kniffel_box_50": _proportion(tally.kniffel_fifty, n),
        "extra_kniffel_bonus": _proportion(tally.extra_bonus, n),
        "jokers_used_mean": tally.jokers_used / n,
        "at_least": {str(t): _proportion(int(counts[t:].sum()), n) for t in THRESHOLDS},
    }
