"""What each decision of a recorded multiplayer Dice Duel cost: the chance to win of the best
option and of the one taken, exact or estimated as the advice gives them."""
from tqdm import tqdm

from ..answer import duel_advice
from .advice import SeatWinGoal
from . import game as mg
from .record import replay

ANALYSIS_BUDGET = 0.3  # seconds of rollouts per estimated decision (a record has ~100)


def _same(option, decision):
    if "keep" in decision:
        return option["action"] == "keep" and option["keep"] == sorted(decision["keep"])
    if decision.get("no_chip"):
        return option["action"] == "no_chip"
    return option["action"] == "take" and option["chip"] == _chip(decision) \
        and option["from"] == decision.get("from", "plate")


def _chip(decision):
    from ..chips import type_key
    return type_key(decision["take"])


def analyze(record, budget=None, seed=0, progress=False):
    """{"players", "decisions": [...], "lost": per seat, "scores"}: for every decision, the seat,
    dice, rolls left, the choice, its chance to win and the best chance (exact or estimated).
    progress: the tqdm bar on stderr on (True), off (False) or on a terminal only (None)."""
    rows = []
    goal = SeatWinGoal(budget=ANALYSIS_BUDGET if budget is None else budget, seed=seed)
    turns = record.get("turns") if isinstance(record, dict) else None
    total = sum(len(t["decisions"]) for t in turns if isinstance(t, dict)
                and isinstance(t.get("decisions"), list)) if isinstance(turns, list) else 0
    bar = tqdm(total=total, unit="decision", desc="analysing", leave=False,
               disable=None if progress is None else not progress)

    def visit(game, decision):
        table, rules = game.table, game.rules
        left = game.rolls_left
        if "keep" in decision:
            advice = duel_advice(table, rules, list(game.dice), left, goal)
            best = advice.probability
        else:  # the end moves, at whatever rolls were left
            advice = duel_advice(table, rules, list(game.dice), 0, goal)
            best = advice.probability if left == 0 else duel_advice(
                table, rules, list(game.dice), left, goal).probability
        chosen = next((o for o in advice.options if _same(o, decision)), None)
        chance = chosen["probability"] if chosen else None
        rows.append({"seat": table.to_move, "player": game.players[table.to_move],
                     "dice": list(game.dice), "rolls_left": left,
                     "choice": {k: v for k, v in decision.items() if k not in ("dice", "rolls_left")},
                     "probability": chance, "best": best,
                     "lost": None if chance is None else max(0.0, best - chance),
                     "exact": advice.exact})
        bar.update()

    with bar:
        game = replay(record, visit)
    lost = [0.0] * len(game.players)
    for row in rows:
        lost[row["seat"]] += row["lost"] or 0.0
    return {"players": game.players, "finished": game.over,
            "scores": mg.scores(game.table, game.rules) if game.over else None,
            "wins": mg.win_shares(game.table, game.rules) if game.over else None,
            "decisions": rows, "lost": lost}


def report_lines(result, words):
    """The analysis as text in `words` (solver/lang's Words): the decisions that cost a chance,
    then totals per player."""
    from ..words import decision_text
    lines = []
    for i, row in enumerate(result["decisions"], 1):
        if row["lost"] and row["lost"] > 1e-9:
            lines.append(words("duel.analysis_row", i=i, player=row["player"],
                               dice=words.faces(row["dice"]),
                               left=words("rolls_left", n=row["rolls_left"]),
                               choice=decision_text(row["choice"], words), p=row["probability"],
                               best=row["best"], how="" if row["exact"] else words("duel.estimates")))
    if not lines:
        lines.append(words("duel.no_loss"))
    for name, lost in zip(result["players"], result["lost"]):
        lines.append(words("duel.given_away", name=name, lost=lost))
    if result["finished"]:
        lines.append(words("duel.final", scores=", ".join(
            f"{n} {s}" for n, s in zip(result["players"], result["scores"]))))
    return lines
