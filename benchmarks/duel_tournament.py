"""A tournament of seeded whole Dice Duel games for 2, 3 and 4 players: the advisor in each seat
against opponents who all take the most valuable chip each turn (greedy), and against opponents
who all follow the solo game's optimal table adapted to these rules (solo).  Writes JSON
(default benchmarks/results/duel_tournament.json): per pairing the advisor's win share with its
95% interval beside 1/n and beside the share the opponents' strategy wins in that seat when every
seat plays it (self-play, same seeds), games, and seconds; and the advisor's decision times.

The advisor here runs at a fixed budget (multi_match.Advisor: --rollouts games for each end move
and each of the --candidates best keeps by the greedy tables, exact once the game's size bound is
at most --limit), far below the advice at the table (multi_advice: 1.5 s of rollouts per
decision), so that the whole tournament fits the machine's time.  Below multi_match.MIN_GAMES
rollouts per option the advisor plays the greedy choice until the exact endgame (fewer games
only added noise: measured with --only 2:0:greedy at 1,000 games).  Games run in --processes
worker processes; game g of a pairing uses seed g, the same for every pairing.

    python benchmarks/duel_tournament.py --games 2000 --rollouts 0  # the full tournament
    python benchmarks/duel_tournament.py --games 100 --out reduced.json
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


def pairings():
    """(players, advisor seat, opponent) for every pairing of the tournament."""
    return [(n, seat, opponent) for opponent in OPPONENTS for n in (2, 3, 4) for seat in range(n)]


def chosen(only):
    """The pairings to play: all, or those --only names ("2:0:greedy")."""
    if not only:
        return pairings()
    wanted = {tuple(part if i == 2 else int(part) for i, part in enumerate(o.split(":"))) for o in only}
    unknown = wanted - set(pairings())
    if unknown:
        raise SystemExit(f"no such pairing: {sorted(unknown)}; pairings are PLAYERS:SEAT:OPPONENT "
                         "with 2-4 players, seat 0..players-1 and greedy or solo")
    return [p for p in pairings() if p in wanted]


def _play_block(args):
    """Worker: games first..first+count-1 of one pairing -> (advisor's shares, decision times)."""
    players, seat, opponent, first, count, rollouts, candidates, limit = args
    from solver import get_table
    from solver.duel.multiplayer import match as mm
    from solver.duel.rules import get_rules
    rules = get_rules()
    solo = get_table(rules, progress=False).values if opponent == "solo" else mm.NO_SOLO
    policies = [OPPONENTS[opponent]] * players
    policies[seat] = mm.ADVISOR
    advisor = mm.Advisor(rules, games=rollouts, candidates=candidates, limit=limit, seed=first * 7919)
    shares = [float(mm.play_game(rules, policies, g, advisor, solo)[seat])
              for g in range(first, first + count)]
    return shares, advisor.seconds


def self_play_share(players, seat, opponent, games):
    """The share the opponents' own strategy wins in `seat` when every seat plays it (the same
    seeds as the pairing's games): what the advisor's share is to be read against."""
    from solver import get_table
    from solver.duel.multiplayer import match as mm
    from solver.duel.rules import get_rules
    rules = get_rules()
    solo = get_table(rules, progress=False).values if opponent == "solo" else mm.NO_SOLO
    policies = [OPPONENTS[opponent]] * players
    shares = [mm.play_game(rules, policies, g, None, solo)[seat] for g in range(games)]
    mean = float(np.mean(shares))
    return {"share": mean, "interval": wilson(mean, games), "games": games}


def run_pairing(pool, players, seat, opponent, args):
    start = time.perf_counter()
    block = max(1, args.games // (4 * args.processes))
    jobs = [(players, seat, opponent, first, min(block, args.games - first), args.rollouts,
             args.candidates, args.limit) for first in range(0, args.games, block)]
    shares, seconds = [], []
    for part, times in pool.map(_play_block, jobs):
        shares += part
        seconds += times
    mean = float(np.mean(shares))
    row = {"players": players, "advisor_seat": seat, "opponent": opponent, "games": len(shares),
           "win_share": mean, "interval": wilson(mean, len(shares)), "fair_share": 1 / players,
           "wall_seconds": time.perf_counter() - start}
    row["self_play"] = self_play_share(players, seat, opponent, args.games)
    return row, seconds


def decision_summary(seconds):
    """Decision times of the advisor by the game's stage (chips in play: 28-19, 18-10, 9-0)."""
    out = {}
    for stage, lo, hi in (("start", 19, 28), ("middle", 10, 18), ("end", 0, 9)):
        times = [s for chips, s in seconds if lo <= chips <= hi]
        if times:
            out[stage] = {"decisions": len(times), "mean_seconds": float(np.mean(times)),
                          "p95_seconds": float(np.percentile(times, 95)),
                          "max_seconds": float(np.max(times))}
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--rollouts", type=int, default=16, help="games per option and decision")
    parser.add_argument("--candidates", type=int, default=3, help="keeps tried besides the greedy one")
    parser.add_argument("--limit", type=int, default=2000, help="size bound solved exactly")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", default=str(HERE / "results" / "duel_tournament.json"))
    parser.add_argument("--only", action="append", metavar="PLAYERS:SEAT:OPPONENT",
                        help="play only these pairings, e.g. 2:0:greedy (repeat)")
    parser.add_argument("--add-self-play", action="store_true",
                        help="only add the self-play shares to the pairings of --out")
    args = parser.parse_args()
    if args.add_self_play:
        result = json.loads(Path(args.out).read_text())
        for row in result["pairings"]:
            row["self_play"] = self_play_share(row["players"], row["advisor_seat"],
                                               row["opponent"], row["games"])
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
        return
    start = time.perf_counter()
    rows, seconds = [], []
    with ProcessPoolExecutor(max_workers=args.processes) as pool:
        for players, seat, opponent in chosen(args.only):
            row, times = run_pairing(pool, players, seat, opponent, args)
            rows.append(row)
            seconds += times
            print(json.dumps(row), flush=True)
            # written after every pairing: an interrupted run keeps what it finished
            write(args, rows, seconds, time.perf_counter() - start, len(rows) == len(pairings()))
    print(f"wrote {args.out}")


def write(args, rows, seconds, wall, complete):
    result = {"machine": machine(), "rules": "dice-duel", "games_per_pairing": args.games,
              "advisor": {"rollouts_per_option": args.rollouts, "candidates": args.candidates,
                          "exact_size_bound": args.limit, "processes": args.processes},
              "full_tournament": args.games >= 2000 and complete, "complete": complete,
              "wall_seconds": wall, "pairings": rows, "decision_seconds": decision_summary(seconds)}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
