"""Latency of win advice at the first roll of rounds 1, 3, 5, 8 and 11 of 2-, 4- and 8-player
games, beside the same machine's expected-score advice; writes JSON (default
benchmarks/results/win_latency.json).

Positions: seeded games in which every player plays for points (the advice), stopped at the
first roll of the round, the coach in the last seat (every other card one turn further).  Per
position:
  process_seconds     `kniffel advise ... --opponent CARD ... --json` as a new process (the
                      tables and the opponents' store saved beforehand), wall time
  warm_seconds        the advice in a process that has answered other positions (tables loaded,
                      the kernels of both methods compiled and loaded: an early position and
                      the last rounds'), the first time for this position (win/coach.win_advice)
  repeat_seconds      the same advice again (what the turn's next decisions reuse), best of 2
  method              what the budget chose (exact / approximate)
  points_process_seconds, points_warm_seconds   the expected-score advice of the same position
The goal: warm_seconds <= 1 (the budget) at every position.

    python benchmarks/win_latency.py --rules kniffel --players 2 --players 4 --players 8
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
ROUNDS = (1, 3, 5, 8, 11)


def cards_at(table, n_players, round_, seed):
    """(our Position, [opponent Positions], dice) at the first roll of `round_` (1-based)."""
    from solver import advise
    from solver.engine.states import Position
    from solver.stats.tournament import coach_turn
    rng = np.random.default_rng([seed, n_players, round_])

    def for_points(position, opponents, dice, left):
        return advise(position, table, dice=dice, rolls_left=left).options

    players = [Position() for _ in range(n_players)]
    for r in range(round_):
        for s in range(n_players):
            if r == round_ - 1 and s == n_players - 1:
                break
            players[s] = coach_turn(for_points, table.rules, players[s], [], rng)
    return players[-1], players[:-1], sorted(rng.integers(1, 7, 5).tolist())


def card_text(position):
    return ",".join(f"{box}={points}" for box, points in position.card.items())


def process_seconds(args):
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "solver.cli", "advise", *args], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def measure(preset, n_players, seed, budget, rounds=ROUNDS):
    import solver
    from solver import advise, win_goal
    from solver.advice.win.coach import saved_target_table, win_advice
    from solver.stats import opponents as opp
    table = solver.get_table(preset)
    target = saved_target_table(table)  # None: the answer without it (ranked for points)
    store = opp.get_store(table)
    rows = {}
    for round_ in (2, table.rules.n_boxes - 1):  # load both methods' kernels, on other positions
        warm_up = cards_at(table, n_players, round_, seed + 1)
        win_advice(warm_up[0], table, win_goal([{"card": dict(o.card)} for o in warm_up[1]]),
                   warm_up[2], 2, budget, target, store)
    for round_ in rounds:
        me, others, dice = cards_at(table, n_players, round_, seed)
        opponents = [{"card": dict(o.card), "kniffel_bonuses": o.kniffel_bonuses} for o in others]
        base = ["--rules", preset, "--card", card_text(me), "--dice", "".join(map(str, dice)),
                "--rolls-left", "2", "--json"]
        if me.kniffel_bonuses:
            base += ["--kniffel-bonuses", str(me.kniffel_bonuses)]
        win_args = base + [a for o in others for a in ("--opponent", card_text(o))] + [
            "--budget", str(budget)]
        warm, method = [], None
        if store is not None:
            store.recent.clear()  # a new turn: the opponents' cards are new too
        for _ in range(3):  # the first: a new position in a warm process; then the same again
            t = time.perf_counter()
            method = win_advice(me, table, win_goal(opponents), dice, 2, budget, target,
                                store).method
            warm.append(time.perf_counter() - t)
        points_warm = []
        for _ in range(3):
            t = time.perf_counter()
            advise(me, table, dice=dice, rolls_left=2)
            points_warm.append(time.perf_counter() - t)
        rows[round_] = {"open_boxes": table.rules.n_boxes - len(me.card), "method": method,
                        "target_table": target is not None,
                        "warm_seconds": warm[0], "repeat_seconds": min(warm[1:]),
                        "process_seconds": process_seconds(win_args),
                        "points_warm_seconds": min(points_warm[1:]),
                        "points_process_seconds": process_seconds(base)}
        print(preset, n_players, round_, rows[round_], flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", action="append", help="default: kniffel")
    parser.add_argument("--players", action="append", type=int, help="default: 2, 4 and 8")
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--round", type=int, action="append", dest="rounds",
                        help="rounds measured (repeat; default 1, 3, 5, 8 and 11)")
    parser.add_argument("--out", default=str(HERE / "results" / "win_latency.json"))
    args = parser.parse_args()
    results = {f"{preset}/{n}p": measure(preset, n, args.seed, args.budget, args.rounds or ROUNDS)
               for preset in args.rules or ["kniffel"] for n in args.players or [2, 4, 8]}
    out = {"benchmark": "win_latency", "budget": args.budget, "seed": args.seed,
           "machine": platform.machine(), "cores": os.cpu_count(),
           "load_average": os.getloadavg()[0], "results": results}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
