"""What a player's games say (`kniffel history`): per player the games kept, the mean score,
the points given away per game and their trend, and the three recurring kinds of mistake
(kinds.py) that gave the most away, each with its cost per game and the costliest decision of
that kind as an example position.  Read with SQL from the history (store.py): a history of
10,000 games answers within a second."""
import json

import numpy as np

from .games import positions

TOP_KINDS = 3  # the kinds of mistake shown per player
RECURRING = 2  # the decisions that make a kind of mistake recurring, not a one-off
RECENT = 10  # the games "recently" counts


def player_names(history):
    """Every player of the history, most games first."""
    rows = history.db.execute(
        "SELECT name FROM players GROUP BY name ORDER BY count(*) DESC, name").fetchall()
    return [name for (name,) in rows]


def player_summary(history, name):
    """What the games of player `name` say (module docstring), as a dict: "games",
    "finished", "mean_score" (of the finished games), "loss_per_game", "recent" (the mean of
    the last RECENT games), "trend" (points given away per game, the least-squares slope per
    game: below 0 when getting better), "losses" (per game, oldest first), "kinds"."""
    db = history.db
    rows = db.execute(
        "SELECT p.loss, p.score, p.finished FROM players p JOIN games g ON g.id = p.game "
        "WHERE p.name = ? ORDER BY g.stored, g.id", (name,)).fetchall()
    if not rows:
        return None
    losses = np.array([r[0] for r in rows])
    scores = [r[1] for r in rows if r[2]]
    trend = float(np.polyfit(np.arange(len(losses)), losses, 1)[0]) if len(losses) > 1 else None
    return {"name": name, "games": len(rows), "finished": len(scores),
            "mean_score": float(np.mean(scores)) if scores else None,
            "loss_per_game": float(losses.mean()), "recent": float(losses[-RECENT:].mean()),
            "trend": trend, "losses": losses.tolist(), "kinds": _kinds(history, name, len(rows))}


def _kinds(history, name, games):
    """The TOP_KINDS recurring kinds of mistake of `name` (in RECURRING decisions or more) by
    the points their decisions gave away."""
    db = history.db
    found = db.execute(
        "SELECT kind, sum(loss), count(*) FROM kinds WHERE name = ? GROUP BY kind "
        "HAVING count(*) >= ? ORDER BY sum(loss) DESC, kind LIMIT ?",
        (name, RECURRING, TOP_KINDS)).fetchall()
    return [{"kind": kind, "loss": total, "cost_per_game": total / games, "decisions": count,
             "example": _example(history, name, kind)} for kind, total, count in found]


def _example(history, name, kind):
    """The costliest decision of `kind` by `name`: where (game, round), the card it was taken
    on, the dice, the rolls left, the choice, the best and what it cost."""
    db = history.db
    # the decision first, from the player's index of kinds; then its rows by their keys (one
    # query joining all three would read the decisions in the planner's order)
    (decision,) = db.execute("SELECT decision FROM kinds WHERE name = ? AND kind = ? "
                             "ORDER BY loss DESC LIMIT 1", (name, kind)).fetchone()
    row = db.execute(
        "SELECT d.game, d.number, d.round, d.dice, d.rolls_left, d.choice, d.best, d.loss, "
        "g.record, g.rules FROM decisions d JOIN games g ON g.id = d.game WHERE d.id = ?",
        (decision,)).fetchone()
    game, number, round_, dice, rolls_left, choice, best, loss, record, rules = row
    return {"game": game, "round": round_, "rules": rules,
            "card": _card(record, number), "dice": [int(f) for f in dice],
            "rolls_left": rolls_left, "choice": json.loads(choice), "best": json.loads(best),
            "loss": loss}


def _card(record, number):
    """The card decision `number` of a kept record was taken on, or None where the record no
    longer replays (kept by another version, edited by hand)."""
    from ..game.card import GameError
    try:
        return positions(json.loads(record))[number]
    except (GameError, ValueError, KeyError, IndexError, TypeError):
        return None


def summary(history, player=None):
    """{"players": [player_summary of each player (or of `player` alone)]}."""
    names = [player] if player is not None else player_names(history)
    found = [player_summary(history, name) for name in names]
    return {"players": [s for s in found if s is not None]}


def advise_command(example, rules_key):
    """The `kniffel advise` line that asks about an example position again (with --why), or
    None where its card is not known."""
    if example["card"] is None:
        return None
    card = ",".join(f"{box}={points}" for box, points in example["card"].items())
    rules = "" if rules_key == "kniffel" else f" --rules {rules_key}"
    return (f'kniffel advise{rules} --card "{card}" --dice {"".join(map(str, example["dice"]))} '
            f"--rolls-left {example['rolls_left']} --why")


def history_lines(result, words, path, player=None):
    """The text of `kniffel history` from summary.summary's `result`, in `words`' language."""
    from ..advice.choices import describe_choice
    from .kinds import kind_words
    w = words
    if not result["players"]:
        return [w("history.no_player", name=player, path=path) if player
                else w("history.none", path=path)]
    lines = []
    for p in result["players"]:
        score = w("history.no_score") if p["mean_score"] is None else f"{p['mean_score']:.1f}"
        if w.comma:  # a page's German: 203,3
            score = score.replace(".", ",")
        lines.append(w("history.player", name=p["name"], n=p["games"], finished=p["finished"],
                       score=score))
        loss = w("history.loss", loss=p["loss_per_game"], recent=p["recent"],
                 n=min(RECENT, p["games"]))
        if p["trend"] is not None:
            direction = ("history.better" if p["trend"] < -0.005 else "history.worse"
                         if p["trend"] > 0.005 else "history.steady")
            loss += w("history.trend", trend=p["trend"], direction=w(direction))
        lines.append(loss)
        lines.append(w("history.kinds") if p["kinds"] else w("history.kinds_none"))
        for rank, kind in enumerate(p["kinds"], 1):
            example = kind["example"]
            lines.append(w("history.kind", rank=rank, kind=kind_words(kind["kind"], w),
                           cost=kind["cost_per_game"], n=kind["decisions"]))
            lines.append(w("history.example", round=example["round"],
                           choice=describe_choice(example["choice"], w),
                           best=describe_choice(example["best"], w), loss=example["loss"],
                           command=advise_command(example, example["rules"])
                           or w.faces(example["dice"])))
    return lines
