"""Time the target kernels on one level, per column (state, d): writes JSON (default
benchmarks/results/target_level.json).

The sub-game of a kniffel card with --open boxes open is solved from the full card down to the
level with --level open boxes; that level's sets are then solved --repeat times each way, on
one thread, and the fastest time is kept:
  pair          W and E (the table as saved)
  chance_only   W alone (turn.turn_stages; E is not solved)
  final_only    the box choice for every roll and the sum over rolls, W and E (rolls_per_turn=1)
A column is one (state, d) that the level solves (before each state's range is trimmed).
The expected-score solve, measured in the same run, is the reference.

    python benchmarks/target_level.py
    python benchmarks/target_level.py --open 9 --level 7 --repeat 3
"""
import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="kniffel")
    parser.add_argument("--open", type=int, default=9, help="open boxes of the sub-game's card")
    parser.add_argument("--level", type=int, default=7, help="open boxes of the level timed")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tile", type=int, help="columns a tile holds (default target.TILE)")
    parser.add_argument("--out", default=str(HERE / "results" / "target_level.json"))
    args = parser.parse_args()
    if not 1 <= args.level <= args.open <= 13:
        parser.error("need 1 <= --level <= --open <= 13")

    from solver.engine.backward import solve
    from solver.engine.final_rolls import TargetData
    from solver.engine.target import columns as target
    from solver.engine.target.solve import TargetObjective
    from solver.presets import read_rules
    rules = read_rules(args.rules)
    solve(rules, progress=False, threads=1)
    t = time.perf_counter()
    table = solve(rules, progress=False, threads=1)
    expected_seconds = time.perf_counter() - t
    objective = TargetObjective(table.values, tile=args.tile or target.TILE)
    values = objective.values_array(rules, None)
    context = objective.context(rules)
    n = rules.n_boxes
    mask = (1 << (n - args.open)) - 1  # the first boxes filled
    levels = {}
    for f in range(1 << n):
        if f & mask == mask:
            levels.setdefault(n - bin(f).count("1"), []).append(f)
    out = {"rules": rules.key, "open": args.open, "level": args.level, "threads": 1,
           "tile": objective.tile,
           "expected_seconds_one_thread": expected_seconds,
           "load_average_at_start": os.getloadavg()[0],
           "command": "python benchmarks/target_level.py " + " ".join(
               f"--{k} {v}" for k, v in (("rules", args.rules), ("open", args.open),
                                         ("level", args.level), ("repeat", args.repeat),
                                         ("tile", objective.tile)))}
    for open_boxes in range(0, args.level + 1):
        sets = np.array(levels[open_boxes], dtype=np.int64)
        objective.start_level(rules, sets, values, context)
        data = TargetData(values.next[0], values.next[1], values.offset, values.base,
                          values.span, values.row_of, values.expected)

        def run(rolls, tie_break):
            target._solve_sets(sets, values.out[0], values.out[1], values.width, data,
                               context.upper_reach, context.aux_reach, context.game,
                               context.moves, rolls, objective.tile, tie_break)

        if open_boxes == args.level:
            columns = int(sum(values.width[f] * values.set_count[f] for f in sets))
            out["columns"] = columns
            for name, rolls, tie_break in (("pair", rules.rolls_per_turn, True),
                                           ("chance_only", rules.rolls_per_turn, False),
                                           ("final_only", 1, True)):
                run(rolls, tie_break)  # compile / warm
                best = min(_timed(run, rolls, tie_break) for _ in range(args.repeat))
                out[name] = {"seconds": best, "us_per_column": best / columns * 1e6}
            break
        run(rules.rolls_per_turn, True)
        objective.end_level(rules, sets, values, context)
    print(json.dumps(out))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=2) + "\n")


def _timed(run, *args):
    start = time.perf_counter()
    run(*args)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
