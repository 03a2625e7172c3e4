"""A tournament of seeded whole Dice Duel games: the advice exactly as a user gets it
(multiplayer.match.Advisor: advice.win_chances at every decision, its default games per option,
rollout seed 0, and the horizon table saved in --tables, if any) in each seat, against opponents
who all play greedy (keep for and take the most valuable chip) or all follow the solo game's
optimal table.  Beside each pairing, the share the opponents' own strategy wins in that seat in
self-play on the same seeds, and the advisor's gain over it (paired by seed, with its standard
error): the figure of merit.

Writes JSON (default benchmarks/results/duel_tournament.json) after every block of games: a
stopped run goes on from the blocks it saved with the same command.  Game g of a pairing uses
seed g.  Each worker process computes on one thread (the advice's own threads would only
compete with the other workers).

    nice python benchmarks/duel_tournament.py --players 2 --games 4000 --tables DIR
    python benchmarks/duel_tournament.py --players 3 --games 300 --out reduced.json
"""
import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from solver.bench import machine  # noqa: E402
from solver.duel.multiplayer.kernels import GREEDY, SOLO  # noqa: E402
from solver.duel.multiplayer.rollout import wilson  # noqa: E402

OPPONENTS = {"greedy": GREEDY, "solo": SOLO}
BLOCK = 25  # games a worker plays before the results are saved


def one_thread():
    """This process computes on one thread (the workers are the parallelism)."""
    from solver.duel.multiplayer import rollout
    from solver.engine import backward
    rollout.default_threads = backward.default_threads = lambda: 1


def _block(args):
    """Worker: games first..first+count-1 of one pairing -> per game (advisor's share, the
    opponents' self-play share in that seat), and the advisor's decisions."""
    players, seat, opponent, first, count, games, tables = args
    one_thread()
    from solver import get_table
    from solver.duel.multiplayer import horizon as multi_horizon
    from solver.duel.multiplayer import match as mm
    from solver.duel.rules import get_rules
    rules = get_rules()
    solo = get_table(rules, progress=False).values if opponent == "solo" else mm.NO_SOLO
    table = multi_horizon.load(rules, directory=tables) if tables else None
    policies = [OPPONENTS[opponent]] * players
    policies[seat] = mm.ADVISOR
    advisor = mm.Advisor(rules, games=games, horizon=table)
    rows, decisions = [], []
    for g in range(first, first + count):
        share = float(mm.play_game(rules, policies, g, advisor, solo)[seat])
        base = float(mm.play_game(rules, [OPPONENTS[opponent]] * players, g, None, solo)[seat])
        rows.append([g, share, base])
        decisions += [[exact, chips, seconds] for _, _, exact, chips, seconds in advisor.shown]
    return rows, decisions


def summary(rows, players):
    """Win share, its interval, the self-play share and the gain over it (paired by seed)."""
    rows = np.array(rows)
    share, base = rows[:, 1], rows[:, 2]
    gain = share - base
    n = len(rows)
    return {"games": n, "win_share": float(share.mean()),
            "interval": wilson(float(share.mean()), n), "fair_share": 1 / players,
            "self_play": float(base.mean()), "gain": float(gain.mean()),
            "gain_se": float(gain.std(ddof=1) / np.sqrt(n)) if n > 1 else None}


STAGES = (("start", 19, 28), ("middle", 11, 18), ("end", 0, 10))  # by chips in play


def tally(decisions, into=None):
    """The advisor's decisions [exact, chips in play, seconds] added to a tally: how many, how
    many exact, and per stage of the game the count, the seconds summed and the most (one
    thread; the latency on two cores is benchmarks/duel_multi.py's)."""
    into = into or {"decisions": 0, "exact": 0, "stages": {}}
    for exact, chips, seconds in decisions:
        into["decisions"] += 1
        into["exact"] += int(exact)
        stage = next(name for name, lo, hi in STAGES if lo <= chips <= hi)
        row = into["stages"].setdefault(stage, {"decisions": 0, "seconds": 0.0, "max": 0.0})
        row["decisions"] += 1
        row["seconds"] += seconds
        row["max"] = max(row["max"], seconds)
    return into


def decision_summary(tallied):
    """A tally (or the list of decisions an older run saved) as the figures read it."""
    if isinstance(tallied, list):
        tallied = tally(tallied)
    if not tallied or not tallied["decisions"]:
        return {}
    out = {"decisions": tallied["decisions"],
           "exact_share": tallied["exact"] / tallied["decisions"]}
    for stage, row in tallied["stages"].items():
        out[stage] = {"decisions": row["decisions"],
                      "mean_seconds": row["seconds"] / row["decisions"],
                      "max_seconds": row["max"]}
    return out


def run(args, result, pool):
    """Play the blocks not yet saved, saving after each."""
    jobs = []
    for first in range(0, args.games, BLOCK):  # the seats' blocks in turn: a stopped run
        for seat in range(args.players):  # has as many games of every seat
            key = f"{args.players}:{seat}:{args.opponent}"
            entry = result["pairings"].setdefault(key, {"rows": [], "decisions": None})
            if first not in {int(r[0]) for r in entry["rows"]}:
                jobs.append((key, (args.players, seat, args.opponent, first,
                                   min(BLOCK, args.games - first), args.rollouts, args.tables)))
    start = time.perf_counter()
    futures = [(key, pool.submit(_block, job)) for key, job in jobs]
    for key, future in futures:
        rows, decisions = future.result()
        entry = result["pairings"][key]
        entry["rows"] += rows
        old = entry["decisions"]
        entry["decisions"] = tally(decisions, tally(old) if isinstance(old, list) else old)
        result["wall_seconds"] = result.get("wall_seconds", 0) + time.perf_counter() - start
        start = time.perf_counter()
        write(args, result)
        print(key, summary(entry["rows"], args.players), flush=True)


def write(args, result):
    out = dict(result, machine=machine())
    for key, entry in result["pairings"].items():
        players = int(key.split(":")[0])
        entry["summary"] = summary(entry["rows"], players) if entry["rows"] else None
        entry["decision_summary"] = decision_summary(entry["decisions"])
    seats = [e["summary"] for k, e in result["pairings"].items()
             if k.startswith(f"{args.players}:") and e["summary"]]
    if seats and all(s["gain_se"] is not None for s in seats):
        out[f"gain_{args.players}p"] = {
            "seat_averaged": float(np.mean([s["gain"] for s in seats])),
            "se": float(np.sqrt(sum(s["gain_se"] ** 2 for s in seats)) / len(seats)),
            "games_per_seat": min(s["games"] for s in seats), "seats": len(seats)}
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="games per seat")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--opponent", default="greedy", choices=sorted(OPPONENTS))
    parser.add_argument("--rollouts", type=int, default=None,
                        help="games per option (default: the advice's own)")
    parser.add_argument("--tables", help="store holding the horizon table (default: none)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", default=str(HERE / "results" / "duel_tournament.json"))
    args = parser.parse_args()
    path = Path(args.out)
    result = json.loads(path.read_text()) if path.exists() else {}
    if "pairings" not in result or result.get("version") != 2:
        result = {"version": 2, "rules": "dice-duel", "pairings": {}}
    from solver.duel.multiplayer import estimate
    result.setdefault("advice", {})[f"{args.players}p"] = {
        "games_per_option": args.rollouts or estimate.GAMES, "horizon_table": bool(args.tables),
        "horizon_levels": _levels(args.tables), "processes": args.processes}
    with ProcessPoolExecutor(max_workers=args.processes) as pool:
        run(args, result, pool)
    write(args, result)
    print(f"wrote {args.out}")


def _levels(tables):
    if not tables:
        return 0
    from solver.duel.multiplayer import horizon as multi_horizon
    from solver.duel.rules import get_rules
    found = multi_horizon.load(get_rules(), directory=tables)
    return found.top if found is not None else 0


if __name__ == "__main__":
    main()
