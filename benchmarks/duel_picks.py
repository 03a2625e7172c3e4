"""What the estimated advice's picks gain a decision over the greedy pick, scored on fresh dice:
at decisions of seeded greedy 2-player games where the advice estimates (as a user gets it),
the advised option and the greedy choice are played out again on --score fresh games each (the
same dice for both, numbered apart from the advice's own), and their paired difference is the
pick's gain (0 where the advice keeps the greedy choice).  Every seat plays greedy in the
scoring games, up to the horizon table of --tables if one is given, then its best: the measure
the issue on the advisor used for the old advice (then -0.06 ± 0.04 pp a decision at 2,048
games per option).  Writes JSON (default benchmarks/results/duel_picks.json).

    nice python benchmarks/duel_picks.py --games 40 --tables DIR
"""
import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from solver.bench import machine  # noqa: E402
from solver.dice import KEEP_INDEX, KEEPS  # noqa: E402
from solver.duel.multiplayer import advice as multi_advice  # noqa: E402
from solver.duel.multiplayer import estimate  # noqa: E402
from solver.duel.multiplayer import game as mg  # noqa: E402
from solver.duel.multiplayer import horizon as multi_horizon  # noqa: E402
from solver.duel.multiplayer.rollout import Rollouts  # noqa: E402
from solver.duel.rules import get_rules  # noqa: E402

SCORE_FIRST = 3 << 30  # game numbers of the scoring games: apart from the advice's stages


def decisions(rules, game, rng):
    """(position, roll, rolls left) of every decision of one seeded greedy game."""
    table = mg.new_table(2)
    while table.last is None:
        roll = int(rng.integers(252))
        for left in (2, 1, 0):
            yield table, roll, left
            labels, _, greedy = estimate.options_of(table, rules, roll, left)
            if left == 0 or not isinstance(labels[greedy], list):
                break
            keep = tuple(labels[greedy])
            roll = _reroll(keep, rng)
        category = int(rules.categories[0][roll])
        moves = mg.end_moves(table, int(rules.categories[1][category]), category == 0, rules)
        takes = [m for m in moves if m[0] == "take"]
        table = mg.after_move(table, max(takes, key=lambda m: m[1]) if takes else moves[0],
                              category == 0, rules)


def _reroll(keep, rng):
    faces = tuple(sorted(keep + tuple(int(f) for f in rng.integers(1, 7, 5 - len(keep)))))
    return KEEP_INDEX[faces]


def score(rules, table, roll, left, horizon, games):
    """(the pick's gain: the advised option's mean - greedy's on fresh games, whether it
    switched, whether the greedy choice stood on a close call), or None where the advice is
    exact."""
    advice = multi_advice.win_chances(table, rules, list(KEEPS[roll]), left,
                                      horizon=horizon).as_dict()
    if advice["exact"]:
        return None
    labels, options, greedy = estimate.options_of(table, rules, roll, left)
    first = advice["options"][0]
    if first["action"] == "keep":
        label = first["keep"]
    else:
        label = mg.parse_move(first["then"] if first["action"] == "stop" else first)
    picked = labels.index(label)
    if picked == greedy:
        return 0.0, False, advice.get("close_call", False)
    runner = Rollouts(table, rules, 0, threads=1, horizon=horizon)
    shares = runner.games([options[picked], options[greedy]], games, first=SCORE_FIRST)
    gain = shares[0, :, table.to_move] - shares[1, :, table.to_move]
    return float(gain.mean()), True, False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="seeded greedy games sampled")
    parser.add_argument("--score", type=int, default=4096, help="fresh games a pick is scored on")
    parser.add_argument("--tables", help="store holding the horizon table (default: none)")
    parser.add_argument("--out", default=str(HERE / "results" / "duel_picks.json"))
    args = parser.parse_args()
    rules = get_rules()
    horizon = multi_horizon.load(rules, directory=args.tables) if args.tables else None
    gains, switched, close = [], 0, 0
    start = time.perf_counter()
    for game in range(args.games):
        rng = np.random.default_rng(game)
        for table, roll, left in decisions(rules, game, rng):
            found = score(rules, table, roll, left, horizon, args.score)
            if found is None:
                continue
            gain, moved, was_close = found
            gains.append(gain)
            switched += moved
            close += was_close
        print(game, len(gains), np.mean(gains) if gains else None, flush=True)
    gains = np.array(gains)
    result = {"machine": machine(), "games": args.games, "score_games": args.score,
              "games_per_option": multi_advice.GAMES,
              "horizon_levels": horizon.top if horizon is not None else 0,
              "decisions": len(gains), "switched": switched,
              "close_calls": close, "gain": float(gains.mean()),
              "gain_se": float(gains.std(ddof=1) / np.sqrt(len(gains))),
              "wall_seconds": time.perf_counter() - start}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
