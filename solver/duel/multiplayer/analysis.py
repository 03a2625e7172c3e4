"""What each decision of a recorded multiplayer Dice Duel cost: the chance to win of the best
option and of the one taken, exact or estimated as the advice gives them."""
from tqdm import tqdm

from . import game as mg
from .advice import SeatWinGoal, win_chances
from .notes import checked_note, chosen_option
from .record import replay

ANALYSIS_GAMES = 512  # games per option of a decision estimated here (one no advice was noted for)


def _decision_count(record):
    turns = record.get("turns") if isinstance(record, dict) else None
    return sum(len(t["decisions"]) for t in turns if isinstance(t, dict)
               and isinstance(t.get("decisions"), list)) if isinstance(turns, list) else 0


def analyze(record, games=None, seed=0, progress=False, first=0, count=None, tables=None):
    """{"players", "decisions": [...], "lost": per seat, "scores", "total"}: for every decision,
    the seat, dice, rolls left, the choice, its chance to win and the best chance.

    A decision with the advice noted in the record (notes.py) is judged by the advice's own
    numbers, so following the advice costs nothing; any other is estimated here, exactly or by
    `games` (default ANALYSIS_GAMES) games per option of estimate.py's decision stage from
    `seed`.  first, count: only decisions first..first+count-1 (of all the record's, "total"),
    for a page that shows its progress; the others are replayed unjudged.  progress: the tqdm
    bar on stderr on (True), off (False) or on a terminal only (None).  tables: the store whose
    horizon table the estimates read (None: the usual one)."""
    rows = []
    goal = SeatWinGoal(games=games or ANALYSIS_GAMES, seed=seed)
    total = _decision_count(record)
    last = total if count is None else min(total, first + count)
    bar = tqdm(total=max(0, last - first), unit="decision", desc="analysing", leave=False,
               disable=None if progress is None else not progress)
    index = [0]

    def visit(game, decision):
        number = index[0]
        index[0] += 1
        if not first <= number < last:
            return
        table, left = game.table, game.rolls_left
        note = checked_note(decision.get("advice"))
        if note is not None:
            chance, best, exact = note["chance"], note["best"], note["exact"]
        else:
            chance, best, exact = _estimate(game, decision, goal, tables)
        if chance is not None and chance > best:  # an option's estimate above the advised one's
            best = chance  # fresh chance (noise): nothing is known to be lost
        rows.append({"index": number, "seat": table.to_move,
                     "player": game.players[table.to_move], "dice": list(game.dice),
                     "rolls_left": left,
                     "choice": {k: v for k, v in decision.items()
                                if k not in ("dice", "rolls_left", "advice")},
                     "probability": chance, "best": best,
                     "lost": None if chance is None else max(0.0, best - chance),
                     "exact": exact, "advised": note is not None})
        bar.update()

    with bar:
        game = replay(record, visit, strict=True)  # every field must agree with the moves
    lost = [0.0] * len(game.players)
    for row in rows:
        lost[row["seat"]] += row["lost"] or 0.0
    return {"players": game.players, "finished": game.over,
            "scores": mg.scores(game.table, game.rules) if game.over else None,
            "wins": mg.win_shares(game.table, game.rules) if game.over else None,
            "decisions": rows, "lost": lost, "total": total}


def _estimate(game, decision, goal, tables):
    """(chance of the choice, best chance, exact) of a decision no advice was noted for: the
    advice at the rolls left, whose stop option lists every end move (as the advice shown at
    the table would have)."""
    advice = win_chances(game.table, game.rules, list(game.dice), game.rolls_left,
                         games=goal.games, seed=goal.seed, model=goal.model, tables=tables)
    chosen = chosen_option(advice.options, decision)
    return (None if chosen is None else chosen["probability"]), advice.probability, advice.exact


def report_lines(result, words):
    """The analysis as text in `words` (solver/lang's Words): the decisions that cost a chance,
    then totals per player."""
    from ..words import chance_text, decision_text
    lines = []
    for i, row in enumerate(result["decisions"]):
        if row["lost"] and row["lost"] > 1e-9:
            lines.append(words("duel.analysis_row", i=row.get("index", i) + 1, player=row["player"],
                               dice=words.faces(row["dice"]),
                               left=words("rolls_left", n=row["rolls_left"]),
                               choice=decision_text(row["choice"], words),
                               p=chance_text(row["probability"], words),
                               best=chance_text(row["best"], words),
                               how="" if row["exact"] else words("duel.estimates")))
    if not lines:
        lines.append(words("duel.no_loss"))
    if len(result["players"]) > 2 and any(row["exact"] for row in result["decisions"]):
        lines.append(words("duel.kingmaker"))
    for name, lost in zip(result["players"], result["lost"]):
        lines.append(words("duel.given_away", name=name, lost=chance_text(lost, words)))
    if result["finished"]:
        lines.append(words("duel.final", scores=", ".join(
            f"{n} {s}" for n, s in zip(result["players"], result["scores"]))))
    return lines
