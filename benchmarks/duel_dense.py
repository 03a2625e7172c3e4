"""Benchmark the dense exact solver of the 2-player Dice Duel; writes JSON (default
benchmarks/results/duel_dense.json).

  build      the horizon table built level by level into a fresh store (2 threads): each
             level's values, seconds and bytes on disk (--levels; a level's seconds include
             its save and the first load's checksum; a level already in --store is loaded,
             and keeps the figures of --out's last run)
  positions  per number of chips in play k, the position of k chips whose own dense solve is
             the largest (every chip on the plate, spread over the types: found by the size of
             its universe over every such spread): its values and the seconds of its solve,
             first call and best warm call, without a table and above each table level count
             built; the exact zone's K (the largest k whose largest solve is within
             dense.DENSE_LIMIT) and the K within 1 s
  reference  exact.py's dictionary search of one 7-chip position in the same run, and the
             dense solve of it, so the times read as a ratio
  levels     the sizes of all 28 levels of the whole game (counted, exact), for the whole-game
             extrapolation (scripts/duel_figures.py)

    nice python benchmarks/duel_dense.py --levels 4 --store /tmp/horizon
"""
import argparse
import itertools
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from solver.bench import machine  # noqa: E402
from solver.duel.multiplayer import dense, horizon  # noqa: E402
from solver.duel.multiplayer import game as mg  # noqa: E402
from solver.duel.multiplayer.universe import CODES, full_universe, reachable_universe  # noqa: E402
from solver.duel.rules import get_rules  # noqa: E402


def build(rules, levels, store):
    """Build the table into `store` level by level; per level its values, seconds, bytes."""
    rows = []
    for k in range(1, levels + 1):
        start = time.perf_counter()
        table, built = horizon.build(rules, k, store, progress=False, threads=2)
        path = horizon.level_paths(rules, k, store)[-1]
        rows.append({"level": k, "values": horizon.level_size(table.universe, k),
                     "solve_seconds": built.get(k), "seconds": time.perf_counter() - start,
                     "bytes": path.stat().st_size, "load_average": os.getloadavg()[0]})
        print(rows[-1], flush=True)
    return rows


def spreads(k):
    """Every plate of k chips (at most 4 a type), none set aside."""
    for plate in itertools.product(range(5), repeat=7):
        if sum(plate) == k:
            yield plate


def largest(k):
    """The position of k chips in play (all on the plate) with the largest universe."""
    def size(plate):
        seats = tuple((4 - p) // 2 for p in plate), tuple(4 - p - (4 - p) // 2 for p in plate)
        universe = reachable_universe(plate, (0,) * 7, seats)
        return int(universe.level_start[universe.top + 1]), seats
    bound = sorted(spreads(k), key=lambda p: -_product(p))[:12]  # the rule only removes
    best = max(bound, key=lambda p: size(p)[0])
    seats = size(best)[1]
    return mg.Table(best, (0,) * 7, seats, 0, False)


def _product(plate):
    out = 1
    for j in plate:
        out *= (j + 1) * (j + 2) * (j + 3) // 6
    return out


def timed(make, repeat):
    """(what make() made, the first call's seconds, the best of `repeat` calls after it, None
    when there were none)."""
    times = []
    for _ in range(repeat + 1):
        start = time.perf_counter()
        made = make()
        times.append(time.perf_counter() - start)
    return made, times[0], min(times[1:], default=None)


def positions(rules, tables, most, repeat):
    rows = []
    for k in range(2, most + 1):
        position = largest(k)
        for table in [None] + tables:
            work = dense.dense_work(position, table)
            top = table.top if table is not None else 0
            row = {"chips_in_play": k, "spec": position.spec(), "horizon_levels": top,
                   "values": dense.dense_size(position, top), "work": work,
                   "within_limit": work <= dense.DENSE_LIMIT}
            if work <= 4 * dense.DENSE_LIMIT:
                solver, first, warm = timed(lambda: dense.DenseSolver(position, rules, table,
                                                                      threads=2), repeat)
                row.update(first_seconds=first, warm_seconds=warm, solved=solver.positions)
            rows.append(row)
            print(row, flush=True)
    return rows


def reference(rules, repeat):
    from solver.duel.multiplayer.exact import solve_exact
    position = mg.Table((1, 1, 1, 0, 1, 1, 2), (0,) * 7,
                        ((2, 2, 1, 2, 1, 2, 1), (1, 1, 2, 2, 2, 1, 1)), 0, False)
    search, first, warm = timed(lambda: solve_exact(position, rules, limit=10**7), repeat)
    _, dense_first, dense_warm = timed(lambda: dense.DenseSolver(position, rules, threads=2),
                                       repeat)
    return {"spec": position.spec(), "exact_positions": len(search.memo),
            "exact_seconds": warm, "exact_first_seconds": first, "dense_seconds": dense_warm,
            "dense_first_seconds": dense_first}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, default=4, help="horizon levels to build")
    parser.add_argument("--store", required=True, help="a store directory for the table "
                        "(levels found there are loaded, not timed)")
    parser.add_argument("--most", type=int, default=12, help="most chips in play timed")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--out", default=str(HERE / "results" / "duel_dense.json"))
    args = parser.parse_args()
    rules = get_rules()
    built = build(rules, args.levels, args.store)
    out = Path(args.out)
    if out.exists():  # levels loaded, not built, this time: their build from the last run
        before = {row["level"]: row for row in json.loads(out.read_text()).get("build", [])}
        built = [before.get(row["level"], row) if row["solve_seconds"] is None else row
                 for row in built]
    result = {"machine": machine(), "rules": rules.key, "dense_limit": dense.DENSE_LIMIT,
              "table_weight": dense.TABLE_WEIGHT, "build": built}
    tables = [horizon.load(rules, k, args.store) for k in sorted({4, args.levels})
              if k <= args.levels]
    result["positions"] = positions(rules, [t for t in tables if t is not None], args.most,
                                    args.repeat)
    result["reference"] = reference(rules, args.repeat)
    whole = full_universe(28)
    result["levels"] = [CODES * int(whole.level_start[k + 1] - whole.level_start[k])
                        for k in range(29)]
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
