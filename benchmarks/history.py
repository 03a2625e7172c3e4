"""How fast `kniffel history` answers a large history: N made-up finished games (four players,
40 decisions each, two thirds with kinds of mistake) kept in a fresh SQLite file, then
`kniffel history --json` timed as a process of its own (first call) and again (warm).  The
issue's target: 10,000 games within 1 s.  Writes JSON (default
benchmarks/results/history.json).

    python benchmarks/history.py
    python benchmarks/history.py --games 1000 --out /tmp/history.json
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from solver.history import store  # noqa: E402

TARGET_SECONDS = 1.0
NAMES = ("Ann", "Ben", "Cat", "Dan")


def made_up(seed, name, decisions=40):
    """A finished game's record, its analysis and each decision's kinds, made up (the store
    keeps what it is given)."""
    record = {"rules": {"preset": "kniffel"}, "seed": seed, "real_dice": False, "players": [name],
              "finished": True, "turns": [{"player": 0, "round": 1, "seed": seed}]}
    rows = [{"player": 0, "round": 1 + i // 3, "dice": [1, 2, 3, 4, 5], "rolls_left": i % 3,
             "choice": {"box": "chance", "points": 15}, "best": {"keep": [2, 3, 4, 5]},
             "loss": 0.25 * (i % 4), "optimal": i % 4 == 0} for i in range(decisions)]
    analysis = {"rules": "kniffel", "players": [{"name": name, "score": 200 + seed % 50,
                                                 "finished": True, "loss": 7.5,
                                                 "decisions": decisions, "optimal": 10}],
                "decisions": rows}
    kinds = [["box:chance", "stop_early"] if not r["optimal"] else [] for r in rows]
    return record, analysis, kinds


def timed_history(path):
    """Seconds of one `kniffel history --json` process, and its games per player."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "solver.cli", "history", "--db", str(path),
                           "--json"], capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    return seconds, [p["games"] for p in json.loads(done.stdout)["players"]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3, help="warm calls (the best is kept)")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "history.json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "history.sqlite"
        with store.open_history(path) as history, history.writing():
            for seed in range(args.games):
                history.insert_game(*made_up(seed, NAMES[seed % 4]), "play")
        first, games = timed_history(path)
        warm = [timed_history(path)[0] for _ in range(args.repeat)]
    result = {"games": args.games, "games_per_player": games,
              "first_call_seconds": first, "warm_seconds": min(warm) if warm else None,
              "target_seconds": TARGET_SECONDS,
              "meets_target": (min(warm) if warm else first) <= TARGET_SECONDS,
              "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                          "load_average_1min": round(os.getloadavg()[0], 2)}}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
