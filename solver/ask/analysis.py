"""What each decision of a game cost (`kniffel analyze`, the page's analysis): the optimal choice,
the choice made and the difference, and for a goal the chance each gave up, asked of the one
door (answer.py) as every question is.

The loss of a decision is the expected final score of the best choice at that point minus the
expected final score of the choice made, both from the solved table (a keep with rolls left is
worth the keep's value, a box the points, bonuses and the value of the card it leaves).  Only the
recorded dice are used, never the program's random numbers.
"""
import math
from dataclasses import replace

from ..advice.choices import describe_choice, matching_option, option_as_decision
from ..advice.goal import POINTS
from ..advice.limits import WHY_BUDGET
from ..advice.position import COST_TOLERANCE, box_values, checked_query, ranked
from ..advice.why import bonus_work
from ..dice import KEEP_INDEX
from ..game.card import parse_box
from ..game.record import record_players, record_rules, replay
from ..lang import Words
from .answer import answer
from .request import Request

OPTIMAL_TOLERANCE = COST_TOLERANCE  # ties in the table are equal to float rounding
WHY_DECISIONS = 3  # with why: each player's costliest decisions explained


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


def analyze(record, tables, goal=None, from_round=1, work_budget=None, why=False):
    """Every decision of a game record with its loss, and totals per player; `tables` the
    cache (ask/tables.py) of the tables it reads.

    Returns {"rules", "players": [{"name", "score", "finished", "loss", "decisions", "optimal",
    "written"}], "decisions": [{"player", "name", "round", "dice", "rolls_left", "choice", "best",
    "expected_choice", "expected_best", "loss", "optimal"}]}.  ValueError (GameError) when the
    record cannot be replayed.  Turns written without dice (another player's, as written) count in
    "written", not judged.

    With a `goal` (advice/goal.py) other than points, each decision also has "chance_best",
    "chance_choice", "chance_loss" and "best_for_goal" (the choice best for the goal): the chance of
    the goal (winning against the other players as they stood at that decision, or reaching the
    target) with the best choice for that goal and with the choice made, each followed by play for
    the goal; and each player "chance_loss", the sum, and "goal".  Only decisions from round
    `from_round` on get the chance (early in a game each turn's win objective is a long solve); a
    decision whose chance cannot be had here (answer.py's fallback) has none.

    work_budget: the work (reference seconds, counted as advice/cost.py counts it, never timed)
    that the goal's chances, then the whys' upper bonus chances may take in all, or None for no
    limit: a whole game's chances to win take a minute, more than a server lets one request
    compute.  The latest rounds whose work fits are judged, and the result says from which round
    on ("goal_from_round") and, when later than `from_round`, why ("goal_note": the words' key
    and fields, solver/lang's "analyze.goal_from" or "analyze.goal_none").  why: each player's
    costliest decisions get "why" too, within what is left (_explain_costliest)."""
    decisions, judged, queries = [], [], []
    by_goal = goal not in (None, POINTS)
    rules = record_rules(record["rules"])
    table = tables(rules)

    def visit(point, decision):
        query = checked_query(point.position, rules, point.dice, point.rolls_left)
        advice = ranked(query, table, POINTS)
        chosen = choice_value(table, point.state, point.dice, decision, advice)
        loss = advice.expected_final_score - chosen
        choice = {k: decision[k] for k in ("keep", "box", "jokers", "points") if k in decision}
        queries.append(query)
        decisions.append({"player": point.player, "name": players[point.player],
                          "round": point.round, "dice": list(point.dice),
                          "rolls_left": point.rolls_left, "choice": choice,
                          "best": option_as_decision(advice.options[0]), "expected_choice": chosen,
                          "expected_best": advice.expected_final_score, "loss": max(0.0, loss),
                          "optimal": loss <= OPTIMAL_TOLERANCE})
        if loss < -1e-6:  # the best option is the maximum: a negative loss would be a bug
            raise ValueError(f"choice worth more than the best option at {point}")
        if by_goal and point.round >= from_round:
            judged.append((decisions[-1], query, point, decision))

    players = record_players(record)
    game = replay(record, visit, strict=True)  # every field must agree with the moves
    first, note, left = _judge_affordable(judged, goal, table, tables, from_round, work_budget)
    result = {"rules": rules.key, "players": _players(game, decisions, rules, by_goal),
              "decisions": decisions}
    if why:
        _explain_costliest(result, queries, len(game.columns), tables, left)
    if by_goal:
        result.update(goal=str(goal), goal_from_round=first)
        if note is not None:
            result["goal_note"] = note
    return result


def _judge_affordable(judged, goal, table, tables, from_round, work_budget):
    """The chances of `goal` added to the `judged` decisions of the rounds whose work fits
    (_affordable); returns _affordable's (first round judged, note) and what is left of
    `work_budget` (None: no limit)."""
    first, note, spent = _affordable(judged, goal, table.rules, table, tables, from_round,
                                     work_budget)
    for row, query, point, decision in judged:
        if point.round >= first:
            _judge_for_goal(row, goal, query, point, decision, tables)
    return first, note, None if work_budget is None else max(0.0, work_budget - spent)


def _players(game, decisions, rules, by_goal):
    """Each player's totals of the judged `decisions` (analyze's "players")."""
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
    return summary


def _affordable(judged, goal, rules, table, tables, from_round, work_budget):
    """(the first round whose decisions' chances are judged, the note why it is later than
    `from_round` or None, the predicted work of the rounds judged): the latest rounds whose
    predicted work fits `work_budget` (a win's work as advice/win/coach.answer_work counts it;
    another goal's is not counted)."""
    if work_budget is None or not judged or goal.kind != "win":
        return from_round, None, 0.0
    from ..advice.win.coach import answer_work
    from ..stats.opponents import get_store
    has_store = get_store(table, tables.directory, build_missing=False) is not None
    by_round = {}
    for _, _, point, _ in judged:
        if point.opponents:
            work = answer_work(rules, point.position.card, point.opponents, goal.budget,
                               has_store)
            by_round[point.round] = by_round.get(point.round, 0.0) + work
    first, spent = max(p.round for _, _, p, _ in judged) + 1, 0.0
    for number in sorted(by_round, reverse=True):
        if spent + by_round[number] > work_budget:
            break
        spent, first = spent + by_round[number], number
    else:
        return from_round, None, spent
    more = sum(work for number, work in by_round.items() if number < first)
    key = "analyze.goal_from"
    if not spent:  # not even the last round fits: its own work is the figure
        key, more = "analyze.goal_none", by_round[max(by_round)]
    return first, {"key": key, "fields": {"round": first, "work": round(more),
                                          "budget": f"{work_budget:g}"}}, spent


def _judge_for_goal(row, goal, query, point, decision, tables):
    """The chance of `goal` with the best choice for it and with the choice made, added to the
    decision's `row`; nothing where the chance is not known (a win with no opponent to play
    against, a chance the door could not answer here, an approximation's unknown end)."""
    if goal.kind == "win":
        if not point.opponents:
            return
        goal = goal.with_opponents(point.opponents)
    advice = answer(Request(query, goal), tables)
    if advice.fallback is not None:
        return
    option = matching_option(advice.options, decision)
    if option is None:  # replay checked the decision: it is one of the options
        raise ValueError(f"{describe_choice(decision)} is not among the options at {point}")
    if None not in (advice.probability, option["probability"]):  # else not known
        row.update(chance_best=advice.probability, chance_choice=option["probability"],
                   chance_loss=max(0.0, advice.probability - option["probability"]),
                   best_for_goal=option_as_decision(advice.options[0]))


def _explain_costliest(result, queries, players, tables, budget=None):
    """Add "why" to each player's WHY_DECISIONS costliest decisions of `result` (analyze's) that
    gave points away, plain JSON: {"choice", "best"}: what the choice made and the best one play
    for (for points: each an option's why of `kniffel advise --why --json`, advice/why.py:
    {"boxes": [{"box", "probability", "points", "bonus"}], "upper_bonus_chance", for a box
    "open"}), "upper_bonus_chance" before, and "over_budget": {"work", "budget"} where the upper
    bonus's chances were over their budget (then null): each WHY_BUDGET, and with a `budget`
    (reference seconds) all of them together too, the costliest decisions first.  Where the
    chances wait for their kernels (a server's worker compiles none: ask/warm.py), result
    "preparing": "why" says so."""
    decisions, rows = result["decisions"], []
    for player in range(players):
        rows += sorted((i for i, d in enumerate(decisions)
                        if d["player"] == player and not d["optimal"]),
                       key=lambda i: -decisions[i]["loss"])[:WHY_DECISIONS]
    for i in sorted(rows, key=lambda i: -decisions[i]["loss"]):  # the costliest get the budget
        row, query = decisions[i], queries[i]
        asked = (WHY_BUDGET if budget is None
                 else min(WHY_BUDGET, math.floor(max(0.0, budget) * 10) / 10))  # 0.1 s steps
        advice = answer(Request(query, POINTS, asked), tables)
        chosen = matching_option(advice.options, row["choice"])
        row["why"] = {"choice": chosen["why"], "best": advice.options[0]["why"],
                      "upper_bonus_chance": advice.why["upper_bonus_chance"]}
        over = advice.why.get("over_budget")
        if over is not None:
            row["why"]["over_budget"] = {"work": float(over["work"]),
                                         "budget": float(over["budget"])}
        elif budget is not None and advice.why["upper_bonus_chance"] is not None:
            budget -= bonus_work(query.rules, query.state)  # predicted: never less than it took
        if advice.preparing == "why":
            result["preparing"] = "why"


def written_turns(game):
    """How many turns each player's column got written without their dice (seen by nobody:
    not judged)."""
    written = [0] * len(game.columns)
    for turn in game.turns:
        written[turn.player] += sum(d.get("written") is True for d in turn.record["decisions"])
    return written


def _why_lines(row, words):
    """A costly decision's why (analyze(why=True)): what the choice made and the best one play
    for, each on a line of its own."""
    from ..advice.why import why_parts
    w, before = words, {"upper_bonus_chance": row["why"]["upper_bonus_chance"]}
    lines = []
    for key, decision in (("choice", row["choice"]), ("best", row["best"])):
        option = {"action": "keep" if "keep" in decision else "score", "why": row["why"][key]}
        lines.append(w(f"analyze.why_{key}", why="; ".join(why_parts(option, before, w))))
    return lines


def report_lines(result, words=None):
    """The analysis as text: one line per decision, then a summary line per player; in the
    language of `words` (lang.Words; default: the pad's language of the record's rules)."""
    from ..rules import PRESETS
    w = words or Words(None, PRESETS.get(result["rules"]))
    several = len(result["players"]) > 1

    def shown(name):  # a lone player's "you" (records keep it) in the text's language
        return w("player.you") if name == "you" and not several else name

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
            cost = (w("best") if d["chance_loss"] < 5e-10
                    else w("cost_chance", chance=w.percent(d["chance_loss"])))
            chance = w("analyze.chance", chance=w.percent(d["chance_choice"]), goal=goal_word,
                       cost=cost)
        lines.append(f"{text}  {w.cost(d['loss'], OPTIMAL_TOLERANCE):<10}"
                     f"{'  ' + chance if chance else ''}{best}".rstrip())
        if "why" in d:
            lines += _why_lines(d, w)
    for p in result["players"]:
        score = (w("analyze.score", score=p["score"])
                 + ("" if p["finished"] else w("analyze.unfinished")))
        chance = (w("analyze.chance_sum", chance=w.percent(p["chance_loss"]), goal=goal_word)
                  if "chance_loss" in p else "")
        if not p["decisions"] and p.get("written"):  # no dice seen: nothing to judge
            lines.append(w("analyze.unseen", name=shown(p["name"]), score=score, n=p["written"]))
            continue
        lines.append(w("analyze.player", name=shown(p["name"]), score=score, loss=p["loss"],
                       chance=chance, n=p["optimal"], total=p["decisions"]))
    return lines
