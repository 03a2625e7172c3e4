"""A whole seeded Dice Duel game in which every decision follows the advice shown, noted in its
record: tests/data/duel-3p-advised.json (the notes and analysis tests and the browser tests
read it).  Written again when the advice changes:

    python tests/duel_advised.py
"""
import json
from pathlib import Path

PATH = Path(__file__).parent / "data" / "duel-3p-advised.json"


def advised_game(players=3, seed=7, games=64):
    """The record of a game whose every decision took the advice's best option (games per
    option, rollout seed 0), the advice noted with each decision."""
    from solver.duel.answer import duel_advice
    from solver.duel.multiplayer import record as multi_record
    from solver.duel.multiplayer.advice import SeatWinGoal
    from solver.duel.rules import get_rules
    rules = get_rules()
    record = multi_record.new_game(rules, [f"P{i}" for i in range(players)], seed).record()
    hand = None
    while not record["finished"]:
        game = multi_record.rebuild(record, hand)
        if hand is None:
            record, hand = multi_record.apply_move(record, hand, {"roll": True})
            continue
        advice = duel_advice(game.table, rules, list(game.dice), game.rolls_left,
                             SeatWinGoal(games=games, seed=0)).as_dict()
        record, hand = multi_record.apply_move(record, hand, _move(advice["options"][0]), advice)
    return record


def _move(option):
    if option["action"] == "stop":
        option = option["then"]
    if option["action"] == "keep":
        return {"keep": option["keep"]}
    if option["action"] == "no_chip":
        return {"no_chip": True}
    return {"take": option["chip"], "from": option["from"]}


if __name__ == "__main__":
    PATH.write_text(json.dumps(advised_game()) + "\n")
    print(f"wrote {PATH}")
