"""Benchmark the Dice Duel advice for 2-4 players; writes JSON (default
benchmarks/results/duel_multi.json).

  exact      for positions of real games (greedy self-play, seeded) with k chips still in play
             (plate and set aside): the size bound, the positions the exact solver visits, and
             its seconds, per number of players and k (the kernels compiled beforehand)
  latency    one whole advice (`solver.advise` with the default budget) at the start, the
             middle (about half the chips gone) and the end (exact) of a game, per number of
             players: first call and the best of --repeat warm calls, with what it answered
             (exact or how many games per option)
  reference  the solo Dice Duel solve in the same process (the expected-score solve, warm), so
             the times can be read as ratios to it

    python benchmarks/duel_multi.py --repeat 2
"""
import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from solver import advise  # noqa: E402
from solver.bench import machine  # noqa: E402
from solver.duel.multiplayer import advice as multi_advice  # noqa: E402
from solver.duel.multiplayer import exact as multi_exact
from solver.duel.multiplayer import game as mg  # noqa: E402
from solver.duel.multiplayer import match as mm  # noqa: E402
from solver.duel.multiplayer.kernels import GREEDY  # noqa: E402
from solver.duel.rules import get_rules  # noqa: E402


def positions_by_chips(rules, players, seed):
    """{chips in play: the first turn-start position of a greedy self-play game with that many}
    (played through the Python rules with greedy moves, so every position is a real one)."""
    found = {}
    table = mg.new_table(players)
    rng = np.random.default_rng(seed)
    while table.last is None:
        found.setdefault(table.in_play, table)
        kniffel = rng.random() < 0.05
        mask = int(rng.integers(0, 128)) if rng.random() < 0.6 else 0
        moves = mg.end_moves(table, mask, kniffel, rules)
        takes = [m for m in moves if m[0] == "take"]
        move = max(takes, key=lambda m: m[1]) if takes else moves[0]
        table = mg.after_move(table, move, kniffel, rules)
    return found


def exact_sizes(rules, max_seconds, counts=(2, 3, 4)):
    rows = []
    for players in counts:
        by_chips = positions_by_chips(rules, players, seed=players)
        for k in sorted(by_chips):
            table = by_chips[k]
            bound = multi_exact.size_bound(table)
            if bound > 400_000:
                break
            start = time.perf_counter()
            solver = multi_exact.solve_exact(table, rules, limit=10**7)
            seconds = time.perf_counter() - start
            rows.append({"players": players, "chips_in_play": k, "size_bound": bound,
                         "positions": len(solver.memo), "seconds": seconds,
                         "exact_by_default": bound <= multi_exact.EXACT_LIMIT, "spec": table.spec()})
            print(rows[-1], flush=True)
            if seconds > max_seconds:
                break
    return rows


def latency(rules, repeat, counts=(2, 3, 4), budget=None):
    rows = []
    for players in counts:
        by_chips = positions_by_chips(rules, players, seed=10 + players)
        chips = sorted(by_chips)
        small = max(k for k in chips if multi_exact.size_bound(by_chips[k]) <= multi_exact.EXACT_LIMIT)
        for stage, k in (("start", max(chips)), ("middle", chips[len(chips) // 2]), ("end", small)):
            table = by_chips[k]
            times = []
            for _ in range(repeat + 1):
                start = time.perf_counter()
                answer = advise(table, rules, [2, 3, 4, 5, 5], 2,
                                objective=multi_advice.SeatWinGoal(budget=budget)).as_dict()
                times.append(time.perf_counter() - start)
            rows.append({"players": players, "stage": stage, "chips_in_play": k,
                         "first_seconds": times[0], "warm_seconds": min(times[1:]),
                         "exact": answer["exact"], "games_per_option": answer.get("games"),
                         "options": len(answer["options"])})
            print(rows[-1], flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=30.0,
                        help="stop growing the exact endgames after one takes this long")
    parser.add_argument("--players", type=int, action="append", help="default: 2, 3 and 4")
    parser.add_argument("--budget", type=float, help="seconds of rollouts per advice (default: "
                        "the advice's own, as at the table)")
    parser.add_argument("--out", default=str(HERE / "results" / "duel_multi.json"))
    args = parser.parse_args()
    rules = get_rules()
    counts = args.players or (2, 3, 4)
    start = time.perf_counter()
    mm.play_game(rules, [mm.ADVISOR, GREEDY], 0, mm.Advisor(rules))  # compile every kernel
    compile_seconds = time.perf_counter() - start
    from solver import solve
    solve(rules, progress=False)
    start = time.perf_counter()
    solve(rules, progress=False)
    reference = time.perf_counter() - start
    result = {"machine": machine(), "rules": rules.key, "compile_seconds": compile_seconds,
              "exact_limit": multi_exact.EXACT_LIMIT,
              "budget_seconds": multi_advice.BUDGET if args.budget is None else args.budget,
              "reference_solo_solve_warm_seconds": reference,
              "exact": exact_sizes(rules, args.max_seconds, counts),
              "latency": latency(rules, args.repeat, counts, args.budget)}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
