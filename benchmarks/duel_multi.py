"""Benchmark the Dice Duel advice for 2-4 players; writes JSON (default
benchmarks/results/duel_multi.json).

  exact      for positions of real games (greedy self-play, seeded) with k chips still in play
             (plate and set aside): the size bound, the positions exact.py's search visits, and
             its seconds, for 3 and 4 players (2 players: the dense solver, duel_dense.py)
  latency    one whole advice (`solver.advise` as a user asks it: the default games, seed 0) at
             the start, the middle (about half the chips gone) and the end (the exact zone) of
             a game, per number of players; for 2 players also a position inside the horizon
             table, and each 2-player stage again with the table of --tables: first call and
             the best of --repeat warm calls, with what it answered (exact or how many games
             per option)
  reference  the solo Dice Duel solve in the same process (the expected-score solve, warm), so
             the times can be read as ratios to it

    python benchmarks/duel_multi.py --repeat 2 --tables DIR
"""
import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from solver.bench import machine  # noqa: E402
from solver.duel.multiplayer import advice as multi_advice  # noqa: E402
from solver.duel.multiplayer import dense, estimate, horizon  # noqa: E402
from solver.duel.multiplayer import exact as multi_exact  # noqa: E402
from solver.duel.multiplayer import game as mg  # noqa: E402
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
                         "exact_by_default": bound <= multi_exact.EXACT_LIMIT,
                         "spec": table.spec()})
            print(rows[-1], flush=True)
            if seconds > max_seconds:
                break
    return rows


def latency(rules, repeat, counts=(2, 3, 4), table=None):
    rows = []
    for players in counts:
        by_chips = positions_by_chips(rules, players, seed=10 + players)
        chips = sorted(by_chips)
        small = max(k for k in chips if _exact_zone(by_chips[k], rules, None))
        stages = [("start", max(chips)), ("middle", chips[len(chips) // 2]), ("end", small)]
        tables = [None] if players > 2 or table is None else [None, table]
        if players == 2 and table is not None:  # inside the table: a chip on each of the
            plate = (0,) * (7 - table.top) + (1,) * table.top  # most valuable types
            held = tuple((4 - p) // 2 for p in plate), tuple(4 - p - (4 - p) // 2 for p in plate)
            by_chips["table"] = mg.Table(plate, (0,) * 7, held, 0, False)
            stages.append(("table", "table"))
        for read in tables:
            for stage, k in stages:
                if stage == "table" and read is None:
                    continue
                rows.append(_timed(rules, by_chips[k], stage, read, repeat))
                print(rows[-1], flush=True)
    return rows


def _exact_zone(table, rules, horizon):
    if table.players == 2:
        return dense.dense_work(table, horizon) <= dense.DENSE_LIMIT
    return multi_exact.size_bound(table) <= multi_exact.EXACT_LIMIT


def _timed(rules, table, stage, horizon, repeat):
    times = []
    for _ in range(repeat + 1):
        dense._CACHE.clear()  # each call as a first question of its game
        multi_exact._SHARED.clear()
        start = time.perf_counter()
        answer = multi_advice.win_chances(table, rules, [2, 3, 4, 5, 5], 2,
                                          horizon=horizon).as_dict()
        times.append(time.perf_counter() - start)
    return {"players": table.players, "stage": stage, "chips_in_play": table.in_play,
            "horizon_levels": horizon.top if horizon is not None else 0,
            "first_seconds": times[0], "warm_seconds": min(times[1:]), "exact": answer["exact"],
            "games_per_option": answer.get("games"), "options": len(answer["options"]),
            "load_average": os.getloadavg()[0]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=30.0,
                        help="stop growing the exact endgames after one takes this long")
    parser.add_argument("--players", type=int, action="append", help="default: 2, 3 and 4")
    parser.add_argument("--tables", help="store holding the horizon table (2 players)")
    parser.add_argument("--out", default=str(HERE / "results" / "duel_multi.json"))
    args = parser.parse_args()
    rules = get_rules()
    counts = args.players or (2, 3, 4)
    table = horizon.load(rules, directory=args.tables) if args.tables else None
    start = time.perf_counter()
    late = mg.Table((0,) * 6 + (1,), (0,) * 7, ((2,) * 6 + (1,), (2,) * 7), 0, False)
    for position in (mg.new_table(2), late):  # compile every kernel
        multi_advice.win_chances(position, rules, [2, 3, 4, 5, 5], 2, games=2)
    compile_seconds = time.perf_counter() - start
    from solver import solve
    solve(rules, progress=False)
    start = time.perf_counter()
    solve(rules, progress=False)
    reference = time.perf_counter() - start
    result = {"machine": machine(), "rules": rules.key, "compile_seconds": compile_seconds,
              "exact_limit": multi_exact.EXACT_LIMIT, "dense_limit": dense.DENSE_LIMIT,
              "games_per_option": estimate.GAMES,
              "reference_solo_solve_warm_seconds": reference,
              "exact": exact_sizes(rules, args.max_seconds, [c for c in counts if c > 2]),
              "latency": latency(rules, args.repeat, counts, table)}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
