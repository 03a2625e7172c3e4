"""What a player plays for, as one value parsed once and passed everywhere (the CLI, the batch
reader, the coach, the web app): points (the expected final score), a target ("target:T": the
chance of a final score >= T) or a win against other players (the chance of finishing first, a
tie shared or lost).

A Goal also says which table its advice reads (`table_kind`): the target table for a target,
the expected-score table for points and for a win (whose sub-game is solved per position)."""
from dataclasses import dataclass, replace

TIES = ("share", "lose")
OPPONENT_FIELDS = {"card", "final", "kniffel_bonuses", "jokers_left"}
MAX_OPPONENTS = 7  # eight players, as the card has columns for
DEFAULT_BUDGET = 1.0  # seconds a win advice may take (advice/win/coach.py)
MAX_BUDGET = 3600.0  # more is a mistake: an hour for one decision


@dataclass(frozen=True)
class Goal:
    kind: str  # "points", "target" or "win"
    target: int = None
    ties: str = "share"
    opponents: tuple = ()  # win: ({"final": S} | {"card": {...}, ...}, ...), as given
    budget: float = DEFAULT_BUDGET  # win: seconds the advice may take (exact where it fits)

    @property
    def table_kind(self):
        """The table this goal's advice reads: "target" or "expected"."""
        return "target" if self.kind == "target" else "expected"

    @property
    def chance_name(self):
        return {"target": f"P(>= {self.target})", "win": "P(win)"}.get(self.kind)

    def with_opponents(self, opponents):
        """The win goal against `opponents` (the coach knows them only at each decision)."""
        return replace(self, opponents=tuple(opponents))

    def as_json(self):
        """The "objective" of the advice JSON: None for points."""
        if self.kind == "target":
            return {"target": self.target}
        if self.kind == "win":
            return {"win": {"opponents": list(self.opponents), "ties": self.ties}}
        return None

    def __str__(self):
        return f"target:{self.target}" if self.kind == "target" else self.kind


POINTS = Goal("points")


def parse_goal(text, ties="share"):
    """"points", "win" or "target:T" -> Goal; ValueError naming the forms."""
    text = (text or "").strip().lower()
    if text in ("points", "win"):
        return Goal(text, ties=ties)
    if text.startswith("target:"):
        try:
            target = int(text.split(":", 1)[1])
        except ValueError:
            target = None
        if target is not None and target >= 0:
            return Goal("target", target, ties)
    raise ValueError(f"goal must be points, win or target:T (T a final score), got {text!r}")


def target_goal(target, rules):
    """Goal("target", T) with T checked against the most `rules` can score; ValueError if not."""
    from ..rules.bounds import score_bound
    most = score_bound(rules)
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= most:
        raise ValueError(f"target must be 0-{most}, got {target!r}")
    return Goal("target", target)


def check_budget(budget):
    """A time budget in seconds as a float; ValueError unless 0 < budget <= MAX_BUDGET."""
    if isinstance(budget, bool):
        budget = None
    try:
        seconds = float(budget)
    except (TypeError, ValueError):
        raise ValueError(f"the budget must be a number of seconds, got {budget!r}") from None
    if not 0 < seconds <= MAX_BUDGET:
        raise ValueError(f"the budget must be more than 0 and at most {MAX_BUDGET:g} seconds, "
                         f"got {budget!r}")
    return seconds


def win_goal(opponents, ties="share", budget=DEFAULT_BUDGET):
    """Goal("win") against `opponents` (a list of {"final": S} or {"card": {...}}, with the
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
    return Goal("win", ties=ties, opponents=tuple(opponents), budget=budget)


def as_goal(objective):
    """A Goal from what callers pass: None (points), a Goal, "points" | "win" | "target:T"
    ("target" or "expected" alone: the table kind, for solve and get_table), or
    the JSON "objective" of an advice ({"target": T} or {"win": {"opponents": [...], "ties": ...}})."""
    if objective is None:
        return POINTS
    if isinstance(objective, Goal):
        return objective
    if objective in ("target", "expected"):  # a table kind: the target table holds every T
        return Goal("target") if objective == "target" else POINTS
    if isinstance(objective, str):
        return parse_goal(objective)
    if isinstance(objective, dict) and "target" in objective:
        return Goal("target", int(objective["target"]))
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
