"""What a win request's work is, counted before it starts: the work of win_advice from the open
boxes of our card and of each opponent's, in reference seconds.

The work has two parts, each growing about geometrically with the open boxes (each one doubles
the filled-box sets to solve): the sub-game re-solve from our position, and each opponent's
final-score distribution (an opponent who has finished costs nothing).  Both were measured warm
on this project's reference machine by benchmarks/win_cost.py (solver/data/win_cost.json); each
is fitted here as work = c + exp(a + b * open boxes): c the smallest time measured (the fixed
overhead), (a, b) least squares on log(seconds - c) over the larger half of the open-box
counts, where the growth dominates.

A budget is counted in this work, never in the time a machine takes: the same question gets the
same answer on any machine and at any load (a slower or busier machine only takes longer).  So
the figures are the reference machine's and are never scaled by this machine's cores or load;
the web server's own time limit (web/work.py) is a guard, not a budget.
"""
import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from .limits import Unanswerable

MEASURED = Path(__file__).resolve().parent.parent / "data" / "win_cost.json"

# The approximation's slowest warm answer measured by benchmarks/win_latency.py (0.36 s), with
# room to spare: the coach's answer when the sub-game is dearer.
APPROXIMATE_WORK = 0.5


class OverBudget(Unanswerable):
    """Work predicted over the budget: `work` predicted and `budget`, both in reference seconds;
    `key` names its words in solver/lang, so that text(lang) says it in the player's language."""

    def __init__(self, message, work=None, budget=None, key=None):
        super().__init__(message)
        self.work, self.budget, self.key = work, budget, key

    def text(self, lang="en"):
        """The message in `lang`: from the words of `key`, else the message as given."""
        from ..lang import Words
        if self.key is None or self.work is None or self.budget is None:
            return str(self)
        budget = f"{self.budget:g}"
        return Words(lang)(self.key, seconds=self.work,
                           budget=budget.replace(".", ",") if lang == "de" else budget)


def _fit(points):
    """(c, a, b) of seconds = c + exp(a + b * n) over [(n, seconds)] (module docstring)."""
    n = np.array([p[0] for p in points], dtype=float)
    seconds = np.array([p[1] for p in points], dtype=float)
    c = float(seconds.min())
    large = n >= np.median(np.unique(n))
    y = np.log(np.maximum(seconds[large] - c, 1e-6))
    b, a = np.polyfit(n[large], y, 1)
    return c, float(a), float(b)


@lru_cache(maxsize=1)
def model():
    """{"sub_game": (c, a, b), "opponent": (c, a, b)}: the fits of the reference machine."""
    measured = json.loads(MEASURED.read_text(encoding="utf-8"))
    return {"sub_game": _fit(measured["sub_game"]), "opponent": _fit(measured["opponent"])}


def _work(part, n_open):
    c, a, b = model()[part]
    return c + float(np.exp(a + b * n_open))


def sub_game_work(rules, card):
    """The work of the exact sub-game re-solve alone from our `card` (advice/win/coach.py
    decides with it: the opponents' distributions come from stats/opponents.py's store there)."""
    return _work("sub_game", max(0, rules.n_boxes - len(card)))


def win_work(rules, card, opponents):
    """The work of win_advice's exact answer for our `card` (a dict of the filled boxes) against
    `opponents` ({"final": S} or {"card": {...}}): an estimate, not a bound."""
    return sub_game_work(rules, card) + opponents_work(rules, opponents)


def opponent_work(rules, n_open):
    """The work of one final-score distribution (stats/opponents.py) from a card with n_open
    open boxes."""
    return _work("opponent", max(0, min(rules.n_boxes, n_open)))


def opponents_work(rules, opponents):
    """The work of the opponents' final-score distributions computed afresh (without the store
    of stats/opponents.py): nothing for a finished opponent."""
    return sum(opponent_work(rules, rules.n_boxes - len(opponent["card"]))
               for opponent in opponents
               if isinstance(opponent, dict) and isinstance(opponent.get("card"), dict))


def successors_work(rules, n_open, count=2):
    """The work of the points-play distributions of `count` turn starts with n_open open boxes
    each, in one pass for them all (opponents.points_to_come_many): one opponent's for one; for
    the turn starts a turn can end in about one opponent's a turn earlier, whose pass meets them
    all a level down."""
    return opponent_work(rules, n_open + (count > 1))


def coach_work(rules, card, opponents, has_store):
    """The work of the win coach's cheapest answer (advice/win/coach.py): the exact sub-game or
    the approximation, whichever is less, plus each opponent's distribution that must be
    computed afresh (none when the store of stats/opponents.py is there)."""
    work = min(sub_game_work(rules, card), APPROXIMATE_WORK)
    return work if has_store else work + opponents_work(rules, opponents)


def check_win_budget(rules, card, opponents, budget, has_store=None):
    """OverBudget when the win work of this position is more than `budget` (reference seconds;
    None: no budget).  has_store: None for the exact answer (win_work), else the coach's
    cheapest answer (coach_work)."""
    if budget is None:
        return
    work = (win_work(rules, card, opponents) if has_store is None
            else coach_work(rules, card, opponents, has_store))
    if work > budget:
        raise OverBudget(f"the win advice here needs about {work:.0f} s of work (an estimate, "
                         f"counted on the reference machine), over the budget of {budget:g} s; "
                         "ask again with fewer open boxes or opponents who have finished, or "
                         "play for points", work, budget, "budget.win")
