"""What a win request will cost, predicted before it starts: the seconds of win_advice from
the open boxes of our card and of each opponent's.

The work has two parts, each growing about geometrically with the open boxes (each one doubles
the filled-box sets to solve): the sub-game re-solve from our position, and each opponent's
final-score distribution (an opponent who has finished costs nothing).  Both were measured warm
on this project's reference machine by benchmarks/win_cost.py (solver/data/win_cost.json); each
is fitted here as seconds = c + exp(a + b * open boxes): c the smallest time measured (the
fixed overhead), (a, b) least squares on log(seconds - c) over the larger half of the open-box
counts, where the growth dominates.  It is an estimate of that machine's times, scaled by the
share of its cores this machine has; the web server refuses work it predicts over its budget
and still stops any work that runs past it.
"""
import contextvars
import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from .limits import Unanswerable

MEASURED = Path(__file__).resolve().parent.parent / "data" / "win_cost.json"
# The seconds a win request may take in this context (None: no limit), and how many such
# computations may share this machine's cores at once; the web server's workers set both around
# each request, and objective lines check them before the work starts.
BUDGET = contextvars.ContextVar("win_budget", default=None)
SHARING = contextvars.ContextVar("win_sharing", default=1)


# The approximation's slowest warm answer measured by benchmarks/win_latency.py (0.36 s), with
# room to spare: the coach's answer when the sub-game is dearer.
APPROXIMATE_SECONDS = 0.5


class OverBudget(Unanswerable):
    """Work predicted to take longer than the budget allows: `seconds` predicted, `budget`;
    `key` names its words in solver/lang (with `sharing`), so that text(lang) says it in the
    player's language."""

    def __init__(self, message, seconds=None, budget=None, key=None, sharing=1):
        super().__init__(message)
        self.seconds, self.budget, self.key, self.sharing = seconds, budget, key, sharing

    def text(self, lang="en"):
        """The message in `lang`: from the words of `key`, else the message as given."""
        from ..lang import Words
        if self.key is None or self.seconds is None or self.budget is None:
            return str(self)
        words = Words(lang)
        budget = f"{self.budget:g}"
        shared = words("budget.shared", n=self.sharing) if self.sharing > 1 else ""
        return words(self.key, seconds=self.seconds, budget=budget.replace(".", ",") if lang == "de"
                     else budget, shared=shared)


def _fit(points):
    """(c, a, b) of seconds = c + exp(a + b * n) over [(n, seconds)] (module docstring)."""
    n = np.array([p[0] for p in points], dtype=float)
    seconds = np.array([p[1] for p in points], dtype=float)
    c = float(seconds.min())
    large = n >= np.median(np.unique(n))
    y = np.log(np.maximum(seconds[large] - c, 1e-6))
    b, a = np.polyfit(n[large], y, 1)
    return c, float(a), float(b)


def _cores():
    from ..engine.threads import default_threads
    return default_threads()


@lru_cache(maxsize=1)
def model():
    """{"sub_game": (c, a, b), "opponent": (c, a, b), "scale": this machine's factor}."""
    measured = json.loads(MEASURED.read_text(encoding="utf-8"))
    return {"sub_game": _fit(measured["sub_game"]), "opponent": _fit(measured["opponent"]),
            "scale": max(1.0, measured["cores"] / _cores())}


def _seconds(part, n_open):
    c, a, b = model()[part]
    return (c + float(np.exp(a + b * n_open))) * model()["scale"]


def sub_game_seconds(rules, card):
    """Predicted seconds of the exact sub-game re-solve alone from our `card` (advice/win/coach.py
    decides with it: the opponents' distributions come from stats/opponents.py's store there)."""
    return _seconds("sub_game", max(0, rules.n_boxes - len(card)))


def win_seconds(rules, card, opponents):
    """Predicted seconds of win_advice for our `card` (a dict of the filled boxes) against
    `opponents` ({"final": S} or {"card": {...}}): an estimate, not a bound."""
    return (_seconds("sub_game", max(0, rules.n_boxes - len(card)))
            + opponents_seconds(rules, opponents))


def opponents_seconds(rules, opponents):
    """Predicted seconds of the opponents' final-score distributions computed afresh (without
    the store of stats/opponents.py): nothing for a finished opponent."""
    return sum(_seconds("opponent", max(0, rules.n_boxes - len(opponent["card"])))
               for opponent in opponents
               if isinstance(opponent, dict) and isinstance(opponent.get("card"), dict))


def successors_seconds(rules, n_open, count=2):
    """Predicted seconds of the points-play distributions of `count` turn starts with n_open
    open boxes each, in one pass for them all (opponents.points_to_come_many): one opponent's
    for one; for the turn starts a turn can end in about one opponent's a turn earlier, whose
    pass meets them all a level down."""
    return _seconds("opponent", min(rules.n_boxes, n_open + (count > 1)))


def coach_seconds(rules, card, opponents, has_store):
    """Predicted seconds of the win coach's cheapest answer (advice/win/coach.py): the exact
    sub-game or the approximation, whichever is sooner, plus each opponent's distribution that
    must be computed afresh (none when the store of stats/opponents.py is there)."""
    n_open = max(0, rules.n_boxes - len(card))
    seconds = min(_seconds("sub_game", n_open), APPROXIMATE_SECONDS * model()["scale"])
    return seconds if has_store else seconds + opponents_seconds(rules, opponents)


def check_win_budget(rules, card, opponents, budget, sharing=1, has_store=None):
    """OverBudget when the win work of this position is predicted to take more than `budget`
    seconds (None: no budget) while `sharing` such computations share the cores (the
    prediction is for one alone: it is multiplied by `sharing`).  has_store: None for the exact
    sub-game alone (win_seconds), else the coach's cheapest answer (coach_seconds)."""
    if budget is None:
        return
    seconds = (win_seconds(rules, card, opponents) if has_store is None
               else coach_seconds(rules, card, opponents, has_store)) * max(1, sharing)
    if seconds > budget:
        shared = f" with {sharing} requests computing at once" if sharing > 1 else ""
        raise OverBudget(f"the win advice here would take about {seconds:.0f} s{shared} (an "
                         f"estimate), over the budget of {budget:g} s; ask again with fewer open "
                         "boxes or opponents who have finished, or play for points",
                         seconds, budget, "budget.win", max(1, sharing))
