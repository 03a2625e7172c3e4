"""Choose the drill's built-in positions (solver/data/drill_positions.json) by price.

Seeded games of optimal Kniffel play give the positions; at each decision the move that tempts
most is priced against the best with the solved table:
- after the last roll, the box that scores the most points now (the first in the card's order
  on a tie), where any scores;
- with rolls left, holding the most of a kind (the higher face on a tie), where two or more
  of a kind are there to hold.
A position is instructive when its temptation gives away the most expected points.  The
dearest POSITIONS are kept, at most PER_KIND of each kind of mistake (history/kinds.py), so that
a new player meets each kind; dearest first.  The same seed gives the same file.

    python scripts/drill_positions.py            # rewrite solver/data/drill_positions.json
    python scripts/drill_positions.py --check    # exit 1 unless the file is what it would write
"""
import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.advice.choices import matching_option, option_as_decision  # noqa: E402
from solver.history.drill import BUILT_IN, question_request  # noqa: E402
from solver.history.kinds import decision_kinds  # noqa: E402

GAMES, SEED = 60, 2026  # seeded optimal games whose decisions are the candidates
POSITIONS, PER_KIND = 40, 8


def tempting(question, advice, rules):
    """The move that tempts most at `question` (module docstring), as a record's decision; None
    where nothing tempts (no points now, no two of a kind to hold)."""
    dice = question["dice"]
    if question["rolls_left"] == 0:
        boxes = [o for o in advice.options if o["action"] == "score"]
        top = max(boxes, key=lambda o: (o["points"], -rules.boxes.index(o["box"])))
        return {"box": top["box"]} if top["points"] > 0 else None
    count, face = max((dice.count(f), f) for f in set(dice))
    return {"keep": [face] * count} if 2 <= count < 5 else None


def candidates(tables, rules):
    """Every decision of GAMES seeded optimal games, with its temptation's price."""
    from solver.ask.answer import answer
    rng = np.random.default_rng(SEED)
    found = []
    for _ in range(GAMES):
        card, bonuses = {}, 0
        for _turn in range(rules.n_boxes):
            dice = sorted(rng.integers(1, 7, 5).tolist())
            for rolls_left in range(rules.rolls_per_turn - 1, -1, -1):
                question = {"rules": rules.key, "card": dict(card), "kniffel_bonuses": bonuses,
                            "jokers_left": None, "dice": dice, "rolls_left": rolls_left}
                advice = answer(question_request(question, why=False), tables)
                best = advice.options[0]
                temptation = tempting(question, advice, rules)
                chosen = temptation and matching_option(advice.options, temptation)
                if chosen:
                    price = best["expected_final_score"] - chosen["expected_final_score"]
                    found.append({"question": question, "price": price,
                                  "tempting": option_as_decision(chosen),
                                  "best": option_as_decision(best)})
                if best["action"] == "score":
                    card[best["box"]] = best["points"]
                    bonuses += best.get("extra_bonus", 0) // max(1, rules.extra_bonus)
                    break
                kept = best["keep"]
                dice = sorted(kept + rng.integers(1, 7, 5 - len(kept)).tolist())
    return found


def chosen(found, rules):
    """The dearest POSITIONS of `found`, at most PER_KIND of a kind, dearest first."""
    by_kind, out, keys = {}, [], set()
    from solver.history.drill import question_key
    for c in sorted(found, key=lambda c: -c["price"]):
        decision = {"choice": c["tempting"], "best": c["best"], "loss": c["price"],
                    "optimal": c["price"] <= 1e-9}
        kinds = decision_kinds(decision, c["question"]["card"], rules)
        kind = kinds[0] if kinds else None
        key = question_key(c["question"])
        if kind is None or by_kind.get(kind, 0) >= PER_KIND or key in keys:
            continue
        by_kind[kind] = by_kind.get(kind, 0) + 1
        keys.add(key)
        out.append({**c, "price": round(c["price"], 9), "kind": kind})
        if len(out) == POSITIONS:
            break
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 unless the file is what this script would write")
    args = parser.parse_args(argv)
    from solver.ask.tables import Tables
    from solver.presets import read_rules
    rules = read_rules("kniffel")
    tables = Tables()
    positions = chosen(candidates(tables, rules), rules)
    text = json.dumps({"rules": rules.key, "games": GAMES, "seed": SEED,
                       "expected_score": tables(rules).expected_score,
                       "positions": positions}, indent=1) + "\n"
    if args.check:
        current = BUILT_IN.read_text(encoding="utf-8") == text
        print(f"{BUILT_IN.relative_to(ROOT)} is {'current' if current else 'out of date'}")
        sys.exit(0 if current else 1)
    BUILT_IN.write_text(text, encoding="utf-8")
    print(f"wrote {len(positions)} positions to {BUILT_IN.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
