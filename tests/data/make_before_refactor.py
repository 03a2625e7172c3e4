"""Writes tests/data/before_refactor.json: the values, tables and advice answers of the engine
as they were before the objective refactor (issue 23), for tests/test_same_as_before.py to
compare with to the bit.  Run once, on the commit before the refactor:

    python tests/data/make_before_refactor.py

It uses that commit's API; the test reads only the JSON it wrote.
"""
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from helpers import random_card  # noqa: E402  (tests/test_reference.py's, then)

from solver import solve  # noqa: E402
from solver.advice.position import advise  # noqa: E402
from solver.advice.chance_view import advise_target  # noqa: E402
from solver.advice.win.sub_game import advise_win  # noqa: E402
from solver.engine.states import Position, position_state  # noqa: E402
from solver.engine.target.solve import solve_target  # noqa: E402
from solver.presets import get_rules  # noqa: E402

RULE_SETS = [("kniffel", {}), ("kniffel-basic", {}), ("kniffel-championship", {}),
             ("kitkniff", {}), ("yahtzee", {}), ("yahtzee-free", {}), ("knobeln", {}),
             ("yatzy", {}), ("knobeln", {"jokers_per_turn": 2})]


def digest(array):
    """sha256 of an array's bytes, with its dtype and shape."""
    array = np.ascontiguousarray(array)
    h = hashlib.sha256(f"{array.dtype.str}{array.shape}".encode())
    h.update(array.tobytes())
    return h.hexdigest()


def main():
    out = {"tables": [], "target_tables": [], "advice": []}
    rng = np.random.default_rng(20261202)
    for name, options in RULE_SETS:
        rules = get_rules(name, **options)
        table = solve(rules, progress=False)
        out["tables"].append({"rules": name, "options": options, "values": digest(table.values)})
        # advice for the expected score: random cards, every rolls_left, with and without dice
        for n_open in (1, 3, 6, 9, 12):
            card, bonuses, jokers = random_card(rules, rng, min(n_open, rules.n_boxes))
            position = Position(card, bonuses, jokers if rules.jokers else None)
            for rolls_left in (None, 0, 1, 2):
                dice = None if rolls_left is None else sorted(rng.integers(1, 7, size=5).tolist())
                answer = advise(position, table, dice=dice, rolls_left=rolls_left).as_dict()
                out["advice"].append({"objective": None, "rules": name, "options": options,
                                      "card": card, "kniffel_bonuses": bonuses,
                                      "jokers_left": position.jokers_left, "dice": dice,
                                      "rolls_left": rolls_left, "answer": answer})
        # the target objective on sub-games (4-5 open boxes), and advice from them
        for n_open in (4, 5):
            card, bonuses, jokers = random_card(rules, rng, n_open)
            position = Position(card, bonuses, jokers if rules.jokers else None)
            state = position_state(position, rules)
            sub = solve_target(rules, progress=False, within=state.filled, expected=table.values)
            arrays = {key: digest(value) for key, value in vars(sub).items()
                      if isinstance(value, np.ndarray)}
            out["target_tables"].append({"rules": name, "options": options, "card": card,
                                         "kniffel_bonuses": bonuses, "arrays": arrays})
            for target in (state.card_total + 40, state.card_total + 90):
                for rolls_left in (None, 0, 1, 2):
                    dice = None if rolls_left is None else sorted(rng.integers(1, 7, size=5).tolist())
                    answer = advise_target(position, sub, target, dice=dice, rolls_left=rolls_left)
                    out["advice"].append({"objective": {"target": target}, "rules": name,
                                          "options": options, "card": card,
                                          "kniffel_bonuses": bonuses,
                                          "jokers_left": position.jokers_left, "dice": dice,
                                          "rolls_left": rolls_left, "answer": answer})
        # the win objective late in a game (sub-games solved inside advise_win)
        for n_open in (3, 5):
            card, bonuses, jokers = random_card(rules, rng, n_open)
            position = Position(card, bonuses, jokers if rules.jokers else None)
            other, other_bonuses, _ = random_card(rules, rng, n_open)
            total = sum(card.values())
            opponents = [{"card": other, "kniffel_bonuses": other_bonuses},
                         {"final": int(total + 60)}]
            for ties in ("share", "lose"):
                for rolls_left in (None, 1):
                    dice = None if rolls_left is None else sorted(rng.integers(1, 7, size=5).tolist())
                    answer = advise_win(position, table, opponents, ties, dice=dice,
                                        rolls_left=rolls_left)
                    out["advice"].append({"objective": {"win": {"opponents": opponents,
                                                                "ties": ties}},
                                          "rules": name, "options": options, "card": card,
                                          "kniffel_bonuses": bonuses,
                                          "jokers_left": position.jokers_left, "dice": dice,
                                          "rolls_left": rolls_left, "answer": answer})
        print(name, options, len(out["advice"]), file=sys.stderr)
    duel = solve("dice-duel", progress=False)
    out["tables"].append({"rules": "dice-duel", "options": {}, "values": digest(duel.values)})
    # floats as repr (json does round-trip doubles exactly), so the test compares to the bit
    (HERE / "before_refactor.json").write_text(json.dumps(out, indent=None, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()

# The "policy_values" entries were added by the same commit: policy_values(table, heuristic(rules)
# or None, within=0b10101) (ones, threes, fives filled) for kniffel and yatzy, digested as above.
