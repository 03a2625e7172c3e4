"""What each decision of a game cost: the optimal choice, the choice made and the difference.

The loss of a decision is the expected final score of the best choice at that point minus the
expected final score of the choice made, both from the solved table (a keep with rolls left is
worth the keep's value, a box the points, bonuses and the value of the card it leaves).  Only the
recorded dice are used, never the program's random numbers.
"""
from dataclasses import replace

from ..advice.answer import answer
from ..advice.goal import POINTS, matching_option
from ..advice.position import COST_TOLERANCE, box_values
from ..dice import KEEP_INDEX
from ..lang import Words
from .card import parse_box
from .record import record_players, record_rules, replay

OPTIMAL_TOLERANCE = COST_TOLERANCE  # ties in the table are equal to float rounding


def choice_value(table, state, dice, decision, advice):
    """Expected final score of `decision` ({"keep": faces} or {"box", "jokers"?}) taken on `dice`
    at a turn that started in `state`; `advice` is advise() at that decision point."""
    if "keep" in decision:
        keep = sorted(decision["keep"])
        for option in advice.options:
            if option["action"] == "keep" and option["keep"] == keep:
                return option["expected_final_score"]
        raise ValueError(f"keep {keep} is not among the options")  # replay checked it: a bug
    # A box, after any jokers: the value of entering the changed roll with fewer jokers left.
    hand = list(dice)
    for old, new in decision.get("jokers") or []:
        hand.remove(old)
        hand.append(new)
    used = len(decision.get("jokers") or [])
    if used:
        state = replace(state, aux=state.aux - used * table.rules.aux_block)
    values, _, _ = box_values(state, table, [KEEP_INDEX[tuple(sorted(hand))]])
    box = table.rules.boxes.index(parse_box(decision["box"], table.rules))
    return state.card_total + float(values[box, 0])


def describe_choice(decision, words=None):
    """A short text for a recorded decision or an advice option, in `words`' language (a
    lang.Words; default English with box keys, as in records)."""
    w = words or Words("en")
    if "keep" in decision:
        return w("choice.keep", dice=w.faces(decision["keep"]))
    jokers = decision.get("jokers")
    if jokers is None and "joker" in decision:  # an advice option
        taken, given = decision["joker"]["from"], decision["joker"]["to"]
        jokers = list(zip(taken, given)) if isinstance(taken, list) else [(taken, given)]
    box = w.box(decision["box"]) if words is not None else decision["box"]
    text = w("choice.box", box=box, points=decision["points"]) if "points" in decision else box
    if jokers:
        text = w("choice.joker", changes=", ".join(f"{a}->{b}" for a, b in jokers), text=text)
    return text


def option_as_decision(option):
    """An advice option in the record's decision form ({"keep"} or {"box", "jokers"})."""
    if option["action"] == "keep":
        return {"keep": option["keep"]}
    jokers = []
    if "joker" in option:
        taken, given = option["joker"]["from"], option["joker"]["to"]
        jokers = [list(p) for p in zip(taken, given)] if isinstance(taken, list) else [[taken, given]]
    return {"box": option["box"], "jokers": jokers, "points": option["points"]}


def goal_ranking(goal, position, table, target_table=None, opponents=(), dice=None, rolls_left=None):
    """The Advice ranked by a target or win `goal` at one decision: `table` is the expected-score
    table, `target_table` the target table (a target), `opponents` the other players as they
    stand ({"card"...} | {"final"...}, a win)."""
    if goal.needs_opponents:
        goal = goal.with_opponents(opponents)
    return answer(position, target_table if goal.table_kind == "target" else table, dice,
                  rolls_left, goal)


def analyze(record, table, goal=None, target_table=None, from_round=1):
    """Every decision of a game record with its loss, and totals per player.

    Returns {"rules", "players": [{"name", "score", "finished", "loss", "decisions", "optimal", "written"}],
    "decisions": [{"player", "name", "round", "dice", "rolls_left", "choice", "best",
    "expected_choice", "expected_best", "loss", "optimal"}]}.  ValueError (GameError) when the
    record cannot be replayed; the table must be for the record's rules.  Turns written without
    dice (another player's, as written) count in "written", not judged.

    With a `goal` (advice/goal.py) other than points, each decision also has "chance_best",
    "chance_choice", "chance_loss" and "best_for_goal" (the choice best for the goal): the chance of the goal (winning against the other players
    as they stood at that decision, or reaching the target) with the best choice for that goal
    and with the choice made, each followed by play for the goal; and each player "chance_loss",
    the sum, and "goal".  Only decisions from round `from_round` on get the chance (early in a
    game each turn's win objective is a long solve)."""
    decisions = []
    by_goal = goal not in (None, POINTS)

    def visit(point, decision):
        advice = answer(point.position, table, dice=point.dice, rolls_left=point.rolls_left)
        chosen = choice_value(table, point.state, point.dice, decision, advice)
        loss = advice.expected_final_score - chosen
        choice = {k: decision[k] for k in ("keep", "box", "jokers", "points") if k in decision}
        decisions.append({"player": point.player, "name": players[point.player], "round": point.round,
                          "dice": list(point.dice), "rolls_left": point.rolls_left, "choice": choice,
                          "best": option_as_decision(advice.options[0]), "expected_choice": chosen,
                          "expected_best": advice.expected_final_score, "loss": max(0.0, loss),
                          "optimal": loss <= OPTIMAL_TOLERANCE})
        if loss < -1e-6:  # the best option is the maximum: a negative loss would be a bug
            raise ValueError(f"choice worth more than the best option at {point}")
        if by_goal and point.round >= from_round and (not goal.needs_opponents or point.opponents):
            ranked = goal_ranking(goal, point.position, table, target_table, point.opponents,
                                 point.dice, point.rolls_left)
            option = matching_option(ranked.options, decision)
            if option is None:  # replay checked the decision: it is one of the options
                raise ValueError(f"{describe_choice(decision)} is not among the options at {point}")
            if None not in (ranked.probability, option["probability"]):  # else not known: by points
                decisions[-1].update(chance_best=ranked.probability, chance_choice=option["probability"],
                                     chance_loss=max(0.0, ranked.probability - option["probability"]),
                                     best_for_goal=option_as_decision(ranked.options[0]))

    rules = record_rules(record["rules"])
    if rules != table.rules:
        raise ValueError(f"the table is for {table.rules.key}, the record for {rules.key}")
    players = record_players(record)
    game = replay(record, visit, strict=True)  # every field must agree with the moves
    written = written_turns(game)
    summary = []
    for index, column in enumerate(game.columns):
        mine = [d for d in decisions if d["player"] == index]
        summary.append({"name": column.name, "score": column.total(rules),
                        "finished": len(column.card) == rules.n_boxes,
                        "loss": sum(d["loss"] for d in mine), "decisions": len(mine),
                        "optimal": sum(d["optimal"] for d in mine), "written": written[index]})
        if by_goal:
            summary[-1]["chance_loss"] = sum(d.get("chance_loss", 0.0) for d in mine)
    result = {"rules": rules.key, "players": summary, "decisions": decisions}
    if by_goal:
        result["goal"] = str(goal)
    return result


def written_turns(game):
    """How many turns each player's column got written without their dice (seen by nobody:
    not judged)."""
    written = [0] * len(game.columns)
    for turn in game.turns:
        written[turn.player] += sum(d.get("written") is True for d in turn.record["decisions"])
    return written


def report_lines(result, words=None):
    """The analysis as text: one line per decision, then a summary line per player; in the
    language of `words` (lang.Words; default: the pad's language of the record's rules)."""
    from ..rules import PRESETS
    w = words or Words(None, PRESETS.get(result["rules"]))
    several = len(result["players"]) > 1
    name_width = max(len(p["name"]) for p in result["players"]) if several else 0
    count = sum(p["decisions"] for p in result["players"])
    goal = result.get("goal")
    goal_word = "" if not goal else w("goal.win") if goal == "win" else \
        w("goal.target", target=goal.split(":")[1])
    lines = [w("analyze.head", rules=result["rules"], n=count)]
    if goal:
        lines.append(w("analyze.goal_head", goal=goal_word))
    for d in result["decisions"]:
        who = f"{d['name']:<{name_width}}  " if several else ""
        text = w("analyze.row", round=d["round"], who=who, dice=w.faces(d["dice"]),
                 left=d["rolls_left"], choice=describe_choice(d["choice"], w))
        best = "" if d["optimal"] else w("analyze.best", choice=describe_choice(d["best"], w))
        chance = ""
        if "chance_loss" in d:  # in points of percent of the goal's chance
            cost = w("best") if d["chance_loss"] < 5e-10 else w("cost_chance", chance=w.percent(d["chance_loss"]))
            chance = w("analyze.chance", chance=w.percent(d["chance_choice"]), goal=goal_word, cost=cost)
        lines.append(f"{text}  {w.cost(d['loss'], OPTIMAL_TOLERANCE):<10}{'  ' + chance if chance else ''}{best}".rstrip())
    for p in result["players"]:
        score = w("analyze.score", score=p["score"]) + ("" if p["finished"] else w("analyze.unfinished"))
        chance = (w("analyze.chance_sum", chance=w.percent(p["chance_loss"]), goal=goal_word)
                  if "chance_loss" in p else "")
        if not p["decisions"] and p.get("written"):  # no dice seen: nothing to judge
            lines.append(w("analyze.unseen", name=p["name"], score=score, n=p["written"]))
            continue
        lines.append(w("analyze.player", name=p["name"], score=score, loss=p["loss"], chance=chance,
                       n=p["optimal"], total=p["decisions"]))
    return lines
