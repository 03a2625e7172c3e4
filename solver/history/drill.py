"""The drill: positions a player answers one at a time, priced by the coach, the ones answered
wrongly asked again soon (spaced repetition), everything kept in the history database.

Where the positions come from, in this order:
1. the player's own positions that are due again (`due`: asked again once the player has given
   that many answers in all; the earliest due first);
2. the player's own costly decisions not drilled yet, costliest first: every decision kept in
   the history (store.py) that gave away at least MIN_LOSS expected points;
3. once those are drilled (a new player has none), the built-in set (written by
   scripts/drill_positions.py into solver/data/drill_positions.json): Kniffel positions from
   seeded optimal games where the move that tempts most (the most points now, or holding the
   most of a kind) gives away the most, dearest first;
4. when nothing is due and nothing new is left, the position due soonest.

Repetition is counted in answers, never in time: a position answered wrongly comes back after
AGAIN other answers, one answered rightly after GAPS[streak - 1] (the streak of right answers in
a row, the last gap for longer streaks).  The same answers give the same drill on any machine.

An answer is right when it gives nothing away (within the tolerance of the table's float
rounding, ask/analysis.py's OPTIMAL_TOLERANCE): an equally good move is as right as the one
listed first.  Rules with jokers are not drilled (an answer would have to name the joker moves).
"""
import hashlib
import json
import time
from functools import lru_cache
from pathlib import Path

from ..advice.choices import matching_option, option_as_decision
from ..ask.analysis import OPTIMAL_TOLERANCE
from ..ask.answer import answer
from ..ask.request import read_request
from ..game.record import record_rules
from .games import questions

AGAIN = 2  # other answers before a position answered wrongly comes back
GAPS = (3, 8, 20, 50)  # other answers before a rightly answered one comes back, by its streak
MIN_LOSS = 0.5  # the expected points a decision of one's own gave away to be drilled
BUILT_IN = Path(__file__).resolve().parent.parent / "data" / "drill_positions.json"
QUESTION_FIELDS = ("rules", "card", "kniffel_bonuses", "jokers_left", "dice", "rolls_left")


class DrillError(ValueError):
    """An answer that is no move of the position asked, or a position not in the drill: one
    line."""


def question_key(question):
    """SHA-256 of a question (its fields, the dice sorted): the same position is one item."""
    fields = {k: question.get(k) for k in QUESTION_FIELDS}
    fields["dice"] = sorted(fields["dice"])
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@lru_cache(maxsize=1)
def built_in():
    """The built-in positions, dearest first: each {"question", "price", "tempting", "kind"}."""
    return json.loads(BUILT_IN.read_text(encoding="utf-8"))["positions"]


def default_player(history):
    """Whose drill it is when no player is named: the player with the most games kept, else
    "you" (a lone player's name in a record)."""
    from .summary import player_names
    names = player_names(history)
    return names[0] if names else "you"


def answers_given(history, player):
    """How many answers `player` has given in the drill: the clock of its repetition."""
    return history.db.execute("SELECT count(*) FROM drill_answers WHERE player = ?",
                              (player,)).fetchone()[0]


def next_question(history, player):
    """The next position for `player` (module docstring), as {"id", "question", "source",
    "game", "round", "price", "streak", "answered", "asked_before"} ("game" and "round": where
    the player's own decision was taken, else None).  A new position is entered in the drill
    when first asked; the built-in set is always there, so there is always one."""
    done = answers_given(history, player)
    row = _item_row(history, "player = ? AND due <= ? ORDER BY due, id", (player, done))
    if row is None:
        new = _new_position(history, player)
        if new is not None:
            with history.writing() as db:
                db.execute(
                    "INSERT OR IGNORE INTO drill (player, key, question, source, decision, "
                    "price, streak, due) VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
                    (player, question_key(new["question"]), json.dumps(new["question"]),
                     new["source"], new.get("decision"), new["price"], done))
            row = _item_row(history, "player = ? AND key = ?",
                            (player, question_key(new["question"])))
    if row is None:
        row = _item_row(history, "player = ? ORDER BY due, id", (player,))
    return None if row is None else _item(history, row, done)


def _item_row(history, where, args):
    return history.db.execute(
        "SELECT id, question, source, decision, price, streak, due FROM drill WHERE "
        + where + " LIMIT 1", args).fetchone()


def _item(history, row, done):
    item_id, question, source, decision, price, streak, due = row
    item = {"id": item_id, "question": json.loads(question), "source": source, "game": None,
            "round": None, "price": price, "streak": streak, "answered": done,
            "asked_before": history.db.execute(
                "SELECT count(*) FROM drill_answers WHERE item = ?", (item_id,)).fetchone()[0]}
    if decision is not None:
        found = history.db.execute("SELECT game, round FROM decisions WHERE id = ?",
                                   (decision,)).fetchone()
        if found is not None:
            item["game"], item["round"] = found
    return item


def _new_position(history, player):
    """A position of `player` not drilled yet: the costliest own decision, else the dearest
    built-in one; None when every one is drilled."""
    drilled = {key for (key,) in history.db.execute(
        "SELECT key FROM drill WHERE player = ?", (player,))}
    own = history.db.execute(
        "SELECT d.id, d.game, d.number, d.loss, g.record FROM decisions d "
        "JOIN players p ON p.game = d.game AND p.seat = d.seat "
        "JOIN games g ON g.id = d.game WHERE p.name = ? AND d.loss >= ? AND d.id NOT IN "
        "(SELECT decision FROM drill WHERE player = ? AND decision IS NOT NULL) "
        "ORDER BY d.loss DESC, d.id", (player, MIN_LOSS, player))  # drilled: not replayed
    for decision, game, number, loss, record in own:
        question = _own_question(json.loads(record), number)
        if question is not None and question_key(question) not in drilled:
            return {"question": question, "source": "game", "decision": decision, "price": loss}
    for position in built_in():
        if question_key(position["question"]) not in drilled:
            return {"question": position["question"], "source": "built-in",
                    "price": position["price"]}
    return None


def _own_question(record, number):
    """The question of decision `number` of a kept record; None where the record no longer
    replays (kept by another version) or its rules have jokers."""
    from ..game.card import GameError
    try:
        if record_rules(record["rules"]).jokers:
            return None
        return questions(record)[number]
    except (GameError, ValueError, KeyError, IndexError, TypeError):
        return None


def question_request(question, why=True):
    """The Request (ask/request.py) of a drill question, for points, with what the turn plays
    for when `why`."""
    fields = {k: question[k] for k in QUESTION_FIELDS if question.get(k) is not None}
    fields["rules"] = record_rules(question["rules"])
    return read_request({**fields, "why": why}, files=False)


def answer_item(history, player, item_id, decision, tables, why=True):
    """Judge `decision` ({"keep": faces} or {"box": B}) on drill item `item_id` of `player`
    with the one door's advice for points (`tables`: an ask.tables.Tables), keep the answer and
    set when the position comes back.  Returns {"right", "cost", "choice", "best", "advice",
    "rules", "again_after"}: choice and best the advice's options, advice the Advice (with its
    why), again_after the other answers before the position is asked again.  DrillError for
    an item not the player's or a move not possible."""
    row = history.db.execute("SELECT question, streak FROM drill WHERE id = ? AND player = ?",
                             (item_id, player)).fetchone()
    if row is None:
        raise DrillError(f"no position {item_id} in {player}'s drill")
    question, streak = json.loads(row[0]), row[1]
    request = question_request(question, why)
    advice = answer(request, tables)
    check_decision(decision, question, request.rules)
    chosen = matching_option(advice.options, decision)
    if chosen is None:
        raise DrillError(f"{json.dumps(decision)[:80]} is no move of this position")
    best = advice.options[0]
    cost = max(0.0, best["expected_final_score"] - chosen["expected_final_score"])
    right = cost <= OPTIMAL_TOLERANCE
    streak = streak + 1 if right else 0
    gap = GAPS[min(streak, len(GAPS)) - 1] if right else AGAIN
    with history.writing() as db:
        done = answers_given(history, player) + 1
        db.execute("UPDATE drill SET streak = ?, due = ? WHERE id = ?",
                   (streak, done + gap, item_id))
        db.execute("INSERT INTO drill_answers (item, player, answered, choice, best, cost, right) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (item_id, player, time.time(), json.dumps(option_as_decision(chosen)),
                    json.dumps(option_as_decision(best)), cost, int(right)))
    return {"right": right, "cost": cost, "choice": chosen, "best": best, "advice": advice,
            "rules": request.rules, "again_after": gap}


def parse_answer(text, question):
    """An answer as typed -> a decision: with rolls left, digits are the dice to keep (nothing:
    roll all five again) and anything else a box; after the last roll, a box (by name, alias or
    number).  GameError (one line) for neither."""
    from ..game.card import GameError, parse_box, parse_faces
    rules = record_rules(question["rules"])
    text = text.strip()
    if question["rolls_left"] and (text == "" or text[0].isdecimal()):
        return {"keep": list(parse_faces(text))}
    if text == "":
        raise GameError("error.drill_box", rules)
    return {"box": parse_box(text, rules)}


def check_decision(decision, question, rules):
    """DrillError unless `decision` is {"keep": [faces]} or {"box": B}; GameError (in the
    player's words) for a move the position does not allow."""
    from ..game.card import GameError, is_sub_multiset
    if not isinstance(decision, dict) or len(decision) != 1 or not (
            isinstance(decision.get("box"), str) or (
                isinstance(decision.get("keep"), list)
                and all(type(f) is int and 1 <= f <= 6 for f in decision["keep"]))):
        raise DrillError(f"an answer is {{\"keep\": [faces]}} or {{\"box\": name}}, got "
                         f"{json.dumps(decision, default=str)[:80]}")
    dice = question["dice"]
    if "keep" in decision:
        keep = sorted(decision["keep"])
        if not question["rolls_left"]:
            raise GameError("error.no_rolls_left", rules)
        if not is_sub_multiset(keep, dice):
            raise GameError("error.cannot_keep", rules, keep=keep, dice=dice)
        if len(keep) == len(dice):
            raise GameError("error.keep_five", rules)
    elif decision["box"] not in rules.boxes:
        raise DrillError(f"no box {decision['box'][:40]!r} in {rules.key}")
    elif decision["box"] in question["card"]:
        raise GameError("error.filled", rules, box=decision["box"],
                        points=question["card"][decision["box"]])


def drill_summary(history, player):
    """{"answers", "right", "positions", "due_now", "cost"}: what `player`'s drill holds."""
    db = history.db
    answers, right, cost = db.execute(
        "SELECT count(*), coalesce(sum(right), 0), coalesce(sum(cost), 0) FROM drill_answers "
        "WHERE player = ?", (player,)).fetchone()
    positions = db.execute("SELECT count(*) FROM drill WHERE player = ?", (player,)).fetchone()[0]
    due = db.execute("SELECT count(*) FROM drill WHERE player = ? AND due <= ?",
                     (player, answers)).fetchone()[0]
    return {"player": player, "answers": answers, "right": right, "positions": positions,
            "due_now": due, "cost": cost}


def judgement_why(judged, words, width=79):
    """What the best move's turn plays for, and the answer's where it was not the best
    (advice/why.py), as lines of text in `words`' language: a heading, then each move with the
    boxes its turn ends in, the upper bonus's chance and the boxes it leaves open."""
    import textwrap

    from ..advice.choices import describe_choice
    from ..advice.why import why_parts
    why = judged["advice"].why
    if not why or why.get("available") is False:
        return []
    lines = textwrap.wrap(words("why.head_points"), width=width, initial_indent="  ",
                          subsequent_indent="  ")
    wrap = textwrap.TextWrapper(width=width, initial_indent="    ", subsequent_indent="        ",
                                break_on_hyphens=False)
    for option in [judged["best"]] + ([] if judged["right"] else [judged["choice"]]):
        parts = why_parts(option, why, words)
        lines += wrap.wrap(describe_choice(option, words)
                           + (": " + "; ".join(parts) if parts else ""))
    return lines
