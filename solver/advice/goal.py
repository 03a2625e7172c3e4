"""What a player plays for, as one value parsed once and passed everywhere (the CLI, the batch
reader, the coach, the web app): points (the expected final score), a target ("target:T": the
chance of a final score >= T) or a win against other players (the chance of finishing first, a
tie shared or lost).

Each objective is its own class behind one interface, so that no caller branches on which one
it holds: `table_kind` (the table its advice reads: the target table for a target, the
expected-score table for points and for a win, whose sub-game is solved per position),
`table(...)` (that table, or its fallback), `view(query, table)` (how advice/steps.py reads its
value), `ranked(query, table)` (its Advice, with its own fallback within its budget) and
`as_json()` / `answer_dict()` (the advice JSON).
`kind` is the objective's name on the command line and in the JSON."""
from dataclasses import dataclass, replace

from .limits import DEFAULT_BUDGET, MAX_OPPONENTS, OPPONENT_FIELDS, TIES, check_budget


class Goal:
    """The interface every objective has (module docstring)."""
    kind = None
    table_kind = "expected"
    needs_opponents = False  # its chance is asked only where the other players are known

    def view(self, query, table):
        """(the view of this objective from `table` for the checked `query`, its position facts
        or None): what advice/steps.py reads."""
        raise NotImplementedError

    def table(self, rules, tables, target_tables):
        """(the table this objective's advice reads for `rules`, why its own is missing or None):
        tables(rules) gives the expected-score table, target_tables(rules) the saved target
        table (TableError when there is none)."""
        return tables(rules), None

    def ranked(self, query, table):
        """The Advice of the checked `query` from `table` (advice/position.py ranks it)."""
        from .position import ranked
        return ranked(query, table, self)

    def as_json(self):
        """The "objective" of the advice JSON: None for points."""
        return None

    def answer_dict(self, advice, options):
        """The advice as `kniffel advise --json` prints it, with `options` (a chance objective's
        layout: the objective and its chance first)."""
        out = {"rules": advice.rules, "card_total": advice.card_total, "objective": self.as_json(),
               "probability": advice.probability,
               "expected_final_score": advice.expected_final_score, "options": options}
        extra = {"method": advice.method, "interval": advice.interval, "note": advice.note,
                 "building": advice.building}
        return {**out, **{k: v for k, v in extra.items() if v is not None}}

    def __str__(self):
        return self.kind


@dataclass(frozen=True)
class PointsGoal(Goal):
    """The expected final score."""
    kind = "points"

    def view(self, query, table):
        from ..rules.cards import parse_card
        from .position import position_facts
        from .steps import PointsView
        values = table.values if hasattr(table, "values") else table.expected  # a target table's own
        facts = position_facts(parse_card(query.position.card, table.rules),
                               query.position.kniffel_bonuses, query.state, table.rules,
                               query.roll, query.rolls_left)
        return PointsView(table.rules, values), facts

    def answer_dict(self, advice, options):
        out = {"rules": advice.rules, "card_total": advice.card_total,
               "expected_final_score": advice.expected_final_score, "position": advice.position,
               "options": options}
        return out if advice.note is None else {**out, "note": advice.note}  # a win not afforded


@dataclass(frozen=True)
class TargetGoal(Goal):
    """The chance of a final score of at least `target`.  Its advice reads the target table;
    given the expected-score table instead (no target table built), it solves the position's
    sub-game when its predicted cost fits `budget` seconds."""
    target: int = None
    budget: float = DEFAULT_BUDGET
    kind = "target"
    table_kind = "target"

    def view(self, query, table):
        from .chance_view import ChanceView
        return ChanceView(table, self.target - query.state.card_total), None

    def table(self, rules, tables, target_tables):
        """The saved target table, else the expected-score table (ranked then solves the
        position's sub-game within the budget) and the TableError saying why."""
        from ..engine.store import TableError
        try:
            return target_tables(rules), None
        except TableError as exc:
            return tables(rules), exc

    def ranked(self, query, table):
        if hasattr(table, "values"):  # the expected-score table: no target table to read
            from .win.coach import target_sub_game
            stand_in = win_goal([{"final": max(0, self.target - 1)}], "lose", self.budget)
            return target_sub_game(query, table, self, stand_in)
        return super().ranked(query, table)

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
    given), a tie shared or lost (`ties`), answered within `budget` seconds: the exact sub-game
    where it fits, else the approximation with its interval (advice/win/coach.py)."""
    opponents: tuple = ()
    ties: str = "share"
    budget: float = DEFAULT_BUDGET
    kind = "win"
    needs_opponents = True

    def view(self, query, table):
        from .win.sub_game import win_view
        return win_view(query, table, self), None

    def ranked(self, query, table):
        from .win.coach import win_advice
        return win_advice(query, table, self)

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


def parse_goal(text, ties="share"):
    """"points", "win" or "target:T" -> Goal; ValueError naming the forms."""
    text = (text or "").strip().lower()
    if text == "points":
        return POINTS
    if text == "win":
        return WinGoal(ties=ties)
    if text.startswith("target:"):
        try:
            target = int(text.split(":", 1)[1])
        except ValueError:
            target = None
        if target is not None and target >= 0:
            return TargetGoal(target)
    raise ValueError(f"goal must be points, win or target:T (T a final score), got {text!r}")


def target_goal(target, rules, budget=DEFAULT_BUDGET):
    """TargetGoal(T) with T checked against the most `rules` can score, its sub-game (without a
    target table) within `budget` seconds; ValueError if not."""
    from ..rules.bounds import score_bound
    most = score_bound(rules)
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= most:
        raise ValueError(f"target must be 0-{most}, got {target!r}")
    return TargetGoal(target, check_budget(budget))


def win_goal(opponents, ties="share", budget=DEFAULT_BUDGET):
    """WinGoal against `opponents` (a list of {"final": S} or {"card": {...}}, with the
    card's "kniffel_bonuses" and "jokers_left" when they matter), its advice within `budget`
    seconds; ValueError naming a bad one."""
    if ties not in TIES:
        raise ValueError(f"ties must be share or lose, got {ties!r}")
    budget = check_budget(budget)
    shape = 'opponents must be a list of {"card": {...}} or {"final": S}'
    if not isinstance(opponents, (list, tuple)):
        raise ValueError(shape)
    if not opponents:
        raise ValueError("the win objective needs at least one opponent")
    if len(opponents) > MAX_OPPONENTS:
        raise ValueError(f"at most {MAX_OPPONENTS} opponents (8 players), got {len(opponents)}")
    for opponent in opponents:
        if not isinstance(opponent, dict) or ("card" in opponent) == ("final" in opponent):
            raise ValueError(shape)
        unknown = set(opponent) - OPPONENT_FIELDS
        if unknown or ("final" in opponent and len(opponent) > 1):
            raise ValueError(f"{shape}; got the field(s) {', '.join(sorted(set(opponent)))}")
        if "final" in opponent and (isinstance(opponent["final"], bool)
                                    or not isinstance(opponent["final"], int)):
            raise ValueError(f"an opponent's final score must be a whole number, got {opponent['final']!r}")
        if "card" in opponent and not isinstance(opponent["card"], dict):
            raise ValueError("an opponent's card must be an object of box: points")
    return WinGoal(tuple(opponents), ties, budget)


def as_goal(objective):
    """A Goal from what callers pass: None (points), a Goal, "points" | "win" | "target:T"
    ("target" or "expected" alone: the table kind, for solve and get_table), or
    the JSON "objective" of an advice ({"target": T} or {"win": {"opponents": [...], "ties": ...}})."""
    if objective is None:
        return POINTS
    if isinstance(objective, Goal):
        return objective
    if objective in ("target", "expected"):  # a table kind: the target table holds every T
        return TargetGoal() if objective == "target" else POINTS
    if isinstance(objective, str):
        return parse_goal(objective)
    if isinstance(objective, dict) and "target" in objective:
        return TargetGoal(int(objective["target"]))
    if isinstance(objective, dict) and "win" in objective:
        win = objective["win"]
        return win_goal(win["opponents"], win.get("ties", "share"))
    raise ValueError(f"an objective is points, a target or a win, got {objective!r}")


def matching_option(options, decision):
    """The option of `options` that is the recorded `decision` ({"keep"} or {"box", "jokers"}),
    or None."""
    if "keep" in decision:
        keep = sorted(decision["keep"])
        return next((o for o in options if o["action"] == "keep" and o["keep"] == keep), None)
    jokers = sorted(map(list, decision.get("jokers") or []))
    for option in options:
        if option["action"] != "score" or option["box"] != decision["box"]:
            continue
        given = []
        if "joker" in option:
            taken, to = option["joker"]["from"], option["joker"]["to"]
            given = [list(p) for p in zip(taken, to)] if isinstance(taken, list) else [[taken, to]]
        if sorted(given) == jokers:
            return option
    return None


def chance_given_up(advice, option):
    """The chance `option` of a goal's `advice` gives up against the best: 0 for the first
    option, None where a chance is not known (win/approximation.with_interval: no tie, and no
    loss to tell)."""
    if option is advice.options[0]:
        return 0.0
    best, chance = advice.probability, option["probability"]
    return None if best is None or chance is None else best - chance
