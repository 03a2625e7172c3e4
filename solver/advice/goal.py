"""What a player plays for, as the coach and the analysis take it: points (the expected final
score), a target ("target:T": the chance of a final score >= T) or a win against the other
players on the card ("win": the chance of finishing first, a tie shared or lost)."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Goal:
    kind: str  # "points", "target" or "win"
    target: int = None
    ties: str = "share"

    @property
    def chance_name(self):
        return {"target": f"P(>= {self.target})", "win": "P(win)"}.get(self.kind)

    def __str__(self):
        return f"target:{self.target}" if self.kind == "target" else self.kind


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


def goal_advice(goal, position, table, target_table=None, opponents=(), dice=None, rolls_left=None):
    """The ranked options for `goal` (a dict as advise_target's: each option with "probability"
    and "expected_final_score"); table: the expected-score table, target_table for a target,
    opponents ({"card"...} | {"final"...}) for a win."""
    if goal.kind == "target":
        from .target import advise_target
        return advise_target(position, target_table, goal.target, dice=dice, rolls_left=rolls_left)
    if goal.kind == "win":
        from .win import advise_win
        return advise_win(position, table, list(opponents), goal.ties, dice=dice, rolls_left=rolls_left)
    raise ValueError("goal_advice is for the target and win goals")


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
