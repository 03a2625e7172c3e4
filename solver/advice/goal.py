"""What a player plays for, as one value the question carries (ask/request.py reads it): points
(the expected final score), a target (the chance of a final score >= T) or a win against other
players (the chance of finishing first, a tie shared or lost).  The Dice Duel's goals
(duel/solo/advice.py, duel/multiplayer/advice.py) have the same interface.

Each goal is its own class behind one interface, so that no caller branches on which one it
holds: `ranked(query, tables)` (its Advice of a checked position, reading the tables it needs
from the cache `tables`, ask/tables.py; Unanswerable when it cannot be answered here),
`view(query, table)` (how advice/steps.py reads its value) and `as_json()` / `answer_dict()`
(the advice JSON).  `kind` is the goal's name on the command line and in the JSON."""
from dataclasses import dataclass, replace

from .limits import DEFAULT_BUDGET


class Goal:
    """The interface every goal has (module docstring)."""
    kind = None

    def ranked(self, query, tables):
        """The Advice of the checked `query` (advice/position.Query), from the tables of the
        cache `tables`; Unanswerable when this goal cannot be answered here."""
        raise NotImplementedError

    def view(self, query, table):
        """(the view of this goal from `table` for the checked `query`, its position facts or
        None): what advice/steps.py reads."""
        raise NotImplementedError

    def kernels(self, query, tables):
        """The feature whose compiled kernels the answer for `query` needs (ask/warm.py), or
        None: the advice for points reads a saved table with numpy alone."""
        return None

    def as_json(self):
        """The "objective" of the advice JSON: None for points."""
        return None

    def answer_dict(self, advice, options):
        """The advice as `kniffel advise --json` prints it, with `options` (a chance goal's
        layout: the objective and its chance first)."""
        out = {"rules": advice.rules, "card_total": advice.card_total, "objective": self.as_json(),
               "probability": advice.probability,
               "expected_final_score": advice.expected_final_score, "options": options}
        extra = {"method": advice.method, "interval": advice.interval, "note": advice.note,
                 "building": advice.building, "offer": advice.offer, "why": advice.why}
        return {**out, **{k: v for k, v in extra.items() if v is not None}}

    def __str__(self):
        return self.kind


@dataclass(frozen=True)
class PointsGoal(Goal):
    """The expected final score."""
    kind = "points"

    def ranked(self, query, tables):
        from .position import ranked
        return ranked(query, tables.points(query.rules), self)

    def view(self, query, table):
        from .position import position_facts
        from .steps import PointsView
        facts = position_facts(query.position.card, query.position.kniffel_bonuses, query.state,
                               table.rules, query.roll, query.rolls_left)
        return PointsView(table.rules, table.expected_values), facts

    def answer_dict(self, advice, options):
        out = {"rules": advice.rules, "card_total": advice.card_total,
               "expected_final_score": advice.expected_final_score, "position": advice.position,
               "options": options}
        extra = {"note": advice.note, "fallback": advice.fallback, "building": advice.building,
                 "offer": advice.offer, "preparing": advice.preparing, "why": advice.why}
        return {**out, **{k: v for k, v in extra.items() if v is not None}}


@dataclass(frozen=True)
class TargetGoal(Goal):
    """The chance of a final score of at least `target`.  Its advice reads the target table;
    without one, it solves the position's sub-game when its work fits `budget` (seconds of the
    reference machine, advice/cost.py; else Unanswerable)."""
    target: int = None
    budget: float = DEFAULT_BUDGET
    kind = "target"

    def ranked(self, query, tables):
        target_table = tables.saved_target(query.rules)
        if target_table is None:
            from .win.coach import target_sub_game
            stand_in = WinGoal(({"final": max(0, self.target - 1)},), "lose", self.budget)
            return target_sub_game(query, tables(query.rules), self, stand_in)
        from .position import ranked
        return ranked(query, target_table, self)

    def kernels(self, query, tables):
        """The win coach's kernels where no target table is saved (the sub-game is solved)."""
        return None if tables.saved_target(query.rules) is not None else "win"

    def view(self, query, table):
        from .chance_view import ChanceView
        return ChanceView(table, self.target - query.state.card_total), None

    def as_json(self):
        return {"target": self.target}

    def heading(self, w):
        """What the advice plays for, in the words `w` (a lang.Words)."""
        return w("advise.goal_target", target=self.target)

    def word(self, w):
        """The goal in a few words."""
        return w("goal.target", target=self.target)

    def chance_word(self, w):
        """The name of the goal's chance."""
        return w("goal.chance_target", target=self.target)

    def __str__(self):
        return f"target:{self.target}"


@dataclass(frozen=True)
class WinGoal(Goal):
    """The chance to finish first against `opponents` ({"final": S} | {"card": {...}, ...}, as
    ask/request.py reads them), a tie shared or lost (`ties`), answered within `budget` (work
    in seconds of the reference machine, advice/cost.py): the exact sub-game where it fits,
    else the approximation with its interval (advice/win/coach.py)."""
    opponents: tuple = ()
    ties: str = "share"
    budget: float = DEFAULT_BUDGET
    kind = "win"

    def ranked(self, query, tables):
        from ..stats.opponents import get_store
        from .win.coach import win_advice
        table = tables(query.rules)
        return win_advice(query, table, self, target_table=tables.saved_target(query.rules),
                          store=get_store(table, tables.directory, build_missing=False))

    def kernels(self, query, tables):
        return "win"

    def view(self, query, table):
        from .win.sub_game import win_view
        return win_view(query, table, self), None

    def with_opponents(self, opponents):
        """The win goal against `opponents` (the coach knows them only at each decision)."""
        return replace(self, opponents=tuple(opponents))

    def as_json(self):
        return {"win": {"opponents": list(self.opponents), "ties": self.ties}}

    def heading(self, w):
        return w("advise.goal_win", n=len(self.opponents), ties=w(f"ties.{self.ties}"))

    def word(self, w):
        return w("goal.win")

    def chance_word(self, w):
        return w("goal.chance_win")


POINTS = PointsGoal()


def points_advice(position, table, dice=None, rolls_left=None):
    """The expected-score Advice of a program's position (a Position, checked here) from the
    expected-score `table`: for the pages and tables that rank many positions of one table."""
    from .position import checked_query, ranked
    return ranked(checked_query(position, table.rules, dice, rolls_left), table, POINTS)
