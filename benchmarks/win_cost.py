"""Measure what a win request costs, and fit the cost model that `kniffel serve` uses to refuse
work over its budget before it starts (solver/advice/cost.py).

Two parts of the work are timed, warm, in this process:
  sub_game   the win advice's sub-game solve from a card with n open boxes (one opponent who has
             finished, so no distribution is computed), for n = 1 .. --most-open
  opponent   one opponent's final-score distribution (score_distribution) from a card with k
             open boxes, for k = 1 .. the number of boxes
The points and this machine's core count are written to solver/data/win_cost.json (--model),
where solver/advice/cost.py fits its model to them (a constant plus a geometric growth in the open
boxes: each open box doubles the filled-box sets), and with that fit to
benchmarks/results/win_cost.json (--out).  The model is an estimate of this machine's times; the
serve budget compares it with seconds.

    python benchmarks/win_cost.py --most-open 8 --samples 2
"""
import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

MODEL = HERE.parent / "solver" / "data" / "win_cost.json"
# typical points of each box (a seeded expected-score game's), used to fill the closed boxes
TYPICAL = {"ones": 2, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
           "three_kind": 22, "four_kind": 16, "full_house": 25, "small_straight": 30,
           "large_straight": 40, "kniffel": 0, "chance": 23}


def card_with_open(rules, n_open, rng):
    """A card of `rules` with `n_open` boxes open (chosen by `rng`), the others at typical
    points."""
    boxes = list(rules.boxes)
    closed = rng.permutation(len(boxes))[: len(boxes) - n_open]
    card = {}
    for b in closed:
        box = boxes[b]
        points = TYPICAL.get(box, 0)
        if points not in rules.possible_points(box):
            points = 0
        card[box] = points
    return card


def win_objective(final):
    """The win objective against one opponent who has finished with `final` points, with a
    budget that lets every measured sub-game be solved exactly (its time is what is measured)."""
    from solver import win_goal
    from solver.advice.limits import MAX_BUDGET
    return win_goal([{"final": final}], budget=MAX_BUDGET)


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    function(*args, **kwargs)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="kniffel")
    parser.add_argument("--most-open", type=int, default=8)
    parser.add_argument("--samples", type=int, default=2)
    parser.add_argument("--opponent-most-open", type=int, help="the opponent part up to this many "
                        "open boxes (default: every box)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--model", type=Path, default=MODEL, help="where the points go (default "
                        "the package's, which the serve budget reads)")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "win_cost.json")
    args = parser.parse_args()
    from solver import advise, get_table
    from solver.advice.win import sub_game as win
    from solver.engine.states import Position
    from solver.stats.distribution import score_distribution
    table = get_table(args.rules, progress=False)
    rules = table.rules
    rng = np.random.default_rng(args.seed)
    advise(Position(card_with_open(rules, 1, rng)), table, objective=win_objective(200))  # compile
    sub_game, opponent = [], []
    for n in range(1, args.most_open + 1):
        for _ in range(args.samples):
            card = card_with_open(rules, n, rng)
            win._win_table.cache_clear()
            seconds = timed(advise, Position(card), table,
                            objective=win_objective(180 + int(rng.integers(60))))
            sub_game.append((n, seconds))
            print(f"sub-game, {n} open: {seconds:.3f} s", flush=True)
    score_distribution(table, Position(card_with_open(rules, 1, rng)))  # compile
    most_open = args.opponent_most_open or rules.n_boxes
    for k in range(1, most_open + 1):
        for _ in range(args.samples if k < rules.n_boxes else 1):
            seconds = timed(score_distribution, table, Position(card_with_open(rules, k, rng)))
            opponent.append((k, seconds))
            print(f"opponent, {k} open: {seconds:.3f} s", flush=True)
    result = {
        "what": "warm seconds of a win request's parts by open boxes, measured by "
                "benchmarks/win_cost.py; solver/advice/cost.py fits its model to them",
        "rules": rules.key,
        "cores": (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                  else os.cpu_count()),
        "machine": platform.processor() or platform.machine(), "python": platform.python_version(),
        "sub_game": sub_game, "opponent": opponent,
    }
    args.model.write_text(json.dumps(result, indent=1) + "\n")
    from solver.advice import cost
    result["fit"] = {part: dict(zip(("constant", "a", "b"), cost._fit(result[part])))  # model()'s
                     for part in ("sub_game", "opponent")}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result["fit"], indent=2))


if __name__ == "__main__":
    main()
