"""Calibration of the Dice Duel advice's chance in self-play: every seat follows the advice
exactly as a user gets it (multiplayer.match.Advisor), each decision's shown chance is noted,
and at the end of the game set against the share the seat won.  By decile of the shown chance:
decisions, games, mean shown, mean observed and their difference with its standard error
clustered by game (a game's decisions share its outcome); for the estimated chances, the exact
ones, and all.  The estimated chances' worst miss is what estimate.MARGIN widens the interval
by (margin()).

Writes JSON (default benchmarks/results/duel_calibration.json: the summary) after every block
of games, and the decisions beside it (--rows); a stopped run goes on from there with the same
command.  Game g uses seed 100000 + g (games apart
from the tournament's).

    nice python benchmarks/duel_calibration.py --games 300 --tables DIR
"""
import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from solver.bench import machine  # noqa: E402

SEEDS = 100_000
BLOCK = 25  # games a worker plays before the results are saved


def one_thread():
    """This process computes on one thread (the workers are the parallelism)."""
    from solver.duel.multiplayer import rollout
    from solver.engine import backward
    rollout.default_threads = backward.default_threads = lambda: 1


def _block(args):
    """Worker: self-play games first..first+count-1 -> rows (game, seat, shown, exact, chips,
    share won)."""
    players, first, count, games, tables = args
    one_thread()
    from solver.duel.multiplayer import horizon as multi_horizon
    from solver.duel.multiplayer import match as mm
    from solver.duel.rules import get_rules
    rules = get_rules()
    table = multi_horizon.load(rules, directory=tables) if tables else None
    advisor = mm.Advisor(rules, games=games, horizon=table)
    rows = []
    for g in range(first, first + count):
        shares = mm.play_game(rules, [mm.ADVISOR] * players, SEEDS + g, advisor)
        rows += [[g, seat, chance, exact, chips, float(shares[seat])]
                 for seat, chance, exact, chips, _ in advisor.shown]
    return rows


def margin(estimated, least=100):
    """The widening of an estimate's interval that this calibration supports: the largest miss
    (observed - shown, either way) of a decile of at least `least` estimated decisions, rounded
    up to half a percentage point."""
    misses = [abs(b["miss"]) for b in estimated["bins"] if b["decisions"] >= least]
    return math.ceil(200 * max(misses, default=0.0)) / 200


def summarise(rows):
    from solver.duel.multiplayer.match import calibration
    rows = np.array(rows, dtype=np.float64)
    out = {"games": int(len(np.unique(rows[:, 0]))) if len(rows) else 0}
    for name, part in (("estimated", rows[rows[:, 3] == 0]), ("exact", rows[rows[:, 3] == 1]),
                       ("all", rows)):
        bins = calibration(part[:, [0, 2, 5]]) if len(part) else []
        filled = [b for b in bins if b["decisions"]]
        out[name] = {"decisions": len(part), "bins": bins,
                     "worst_miss": max((abs(b["miss"]) for b in filled), default=None),
                     "mean_miss": float((part[:, 5] - part[:, 2]).mean()) if len(part) else None}
    out["margin"] = margin(out["estimated"])
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="self-play games")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--rollouts", type=int, default=None,
                        help="games per option (default: the advice's own)")
    parser.add_argument("--tables", help="store holding the horizon table (default: none)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", default=str(HERE / "results" / "duel_calibration.json"))
    parser.add_argument("--rows", help="where the decisions are kept, for a stopped run to go "
                        "on (default: OUT with .rows.json; --out holds the summary)")
    args = parser.parse_args()
    path = Path(args.out)
    rows_path = Path(args.rows or path.with_suffix(".rows.json"))
    result = json.loads(path.read_text()) if path.exists() else {}
    key = f"{args.players}p"
    entry = result.setdefault(key, {})
    saved = json.loads(rows_path.read_text()) if rows_path.exists() else {}
    rows = saved.setdefault(key, entry.pop("rows", []))  # an older run kept them in --out
    done = {int(r[0]) for r in rows}
    jobs = [(args.players, first, min(BLOCK, args.games - first), args.rollouts, args.tables)
            for first in range(0, args.games, BLOCK) if first not in done]
    from solver.duel.multiplayer import estimate
    entry["advice"] = {"games_per_option": args.rollouts or estimate.GAMES,
                       "horizon_table": bool(args.tables), "margin": estimate.MARGIN}
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.processes) as pool:
        for found in pool.map(_block, jobs):
            rows += found
            entry["wall_seconds"] = entry.get("wall_seconds", 0) + time.perf_counter() - start
            start = time.perf_counter()
            _save(result, entry, saved, rows, path, rows_path)
            print(key, entry["summary"]["games"], entry["summary"]["estimated"]["worst_miss"],
                  flush=True)
    if rows:  # the summary of what was saved, also when nothing was left to play
        _save(result, entry, saved, rows, path, rows_path)
    print(f"wrote {args.out}")


def _save(result, entry, saved, rows, path, rows_path):
    rows_path.write_text(json.dumps(saved) + "\n")
    entry["summary"] = summarise(rows)
    result["machine"] = machine()
    path.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
