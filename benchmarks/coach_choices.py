"""The win coach's choices on seeded tournament games, a fingerprint to compare before and after a
change that must not alter them; writes JSON (default benchmarks/results/coach_choices.json).

The games are win_tournament.py's (the same seeds: a game's dice depend on the seed, its number
and the choices made), the coach in its seat against players who play for points:
  compiled  --games games of the compiled coach (win_tournament.py --policy approximate):
            every game's final scores, and the sha256 of the scores (int64, little-endian,
            one row a game)
  budget    --budget-games games of the budget coach (--policy budget: advice/win/coach.py, the
            code the CLI and the web coach call): every decision of each game as "turn
            rolls_left dice choice method" (turn 0 the first played; choice keep:DICE or
            box:NAME), the final scores, and the sha256 of the decisions (their compact JSON)
The compiled coach needs the target table (kniffel solve --objective target) and builds the
opponents' store (half a minute); its games are played afresh each run (no parts file is kept).

--compare BEFORE.json, after writing, prints for each part "identical" or the first game (and
decision) that differs and how many games differ, and exits 1 when any differs; settings not
given on the command line are then taken from BEFORE.json (the same games).

    python benchmarks/coach_choices.py --games 1000 --budget-games 100 \\
        --out benchmarks/results/coach_choices_before.json
    python benchmarks/coach_choices.py --compare benchmarks/results/coach_choices_before.json
"""
import argparse
import hashlib
import importlib.util
import itertools
import json
import os
import platform
import re
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

DEFAULTS = {"rules": "yatzy", "players": 2, "seat": 1, "seed": 24, "budget": 1.0,
            "start_card": None, "games": 1000, "budget_games": 100}
SETTINGS = ("rules", "players", "seat", "seed", "budget", "start_card")


def load_tournament():
    """benchmarks/win_tournament.py as a module (a script beside this one, not a package)."""
    spec = importlib.util.spec_from_file_location("win_tournament", HERE / "win_tournament.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def scores_digest(scores):
    """sha256 of the final scores [games, players] as little-endian int64."""
    return hashlib.sha256(np.ascontiguousarray(scores, dtype="<i8").tobytes()).hexdigest()


def decisions_digest(decisions):
    """sha256 of the decisions (a list per game) as compact JSON."""
    return hashlib.sha256(json.dumps(decisions, separators=(",", ":")).encode()).hexdigest()


def compiled_run(tournament, settings, games):
    """Part (a): the compiled coach's final scores of `games` games."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:  # no parts of an earlier run to resume
        scores, _, _ = tournament.play_compiled(
            settings["rules"], settings["players"], settings["seat"], games, settings["seed"],
            "approximate", games, Path(scratch) / "parts.npy")
    return {"games": games, "seconds": time.perf_counter() - started,
            "sha256": scores_digest(scores), "scores": scores.tolist()}


def _choice(option):
    if option["action"] == "keep":
        return "keep:" + "".join(map(str, option["keep"]))
    return "box:" + option["box"]


def budget_run(tournament, settings, games):
    """Part (b): every decision of the budget coach in `games` games, and their final scores."""
    start_card = None
    if settings["start_card"]:
        from solver.presets import read_rules
        from solver.rules.cards import parse_card
        start_card = parse_card(settings["start_card"], read_rules(settings["rules"]))
    record = []
    started = time.perf_counter()
    scores, methods, _ = tournament.play(
        settings["rules"], settings["players"], settings["seat"], games, settings["seed"],
        "budget", settings["budget"], start_card, record=record)
    decisions = [[] for _ in range(games)]
    for game, turn, left, dice, option, method in record:
        dice = "".join(map(str, dice))
        decisions[game].append(f"{turn} {left} {dice} {_choice(option)} {method}")
    return {"games": games, "seconds": time.perf_counter() - started, "methods": methods,
            "sha256": decisions_digest(decisions), "decisions": decisions,
            "scores": scores.tolist()}


def _first_decision(before, after):
    """Where two games' different decision lists first differ: "decision i: before X, now Y"."""
    pairs = enumerate(itertools.zip_longest(before, after, fillvalue="(none)"))
    i, (b, a) = next((i, pair) for i, pair in pairs if pair[0] != pair[1])
    return f"decision {i}: before {b}, now {a}"


def compare_part(before, after, name):
    """(identical?, a line) for part `name` ("compiled" or "budget") of two runs."""
    if name not in before and name not in after:
        return True, f"{name}: not played"
    if name not in before or name not in after:
        return False, f"{name}: played in one run only"
    b, a = before[name], after[name]
    if b["games"] != a["games"]:
        return False, f"{name}: not comparable ({b['games']} games before, {a['games']} now)"
    keys = ("scores",) if name == "compiled" else ("decisions", "scores")
    differ = [g for g in range(b["games"]) if any(b[k][g] != a[k][g] for k in keys)]
    if not differ:
        return True, f"{name}: identical ({b['games']} games, sha256 {a['sha256']})"
    g = differ[0]
    if name == "compiled" or b["decisions"][g] == a["decisions"][g]:
        where = f"final scores before {b['scores'][g]}, now {a['scores'][g]}"
    else:
        where = _first_decision(b["decisions"][g], a["decisions"][g])
    return False, (f"{name}: {len(differ)} of {b['games']} games differ; the first, game {g}, "
                   f"at {where}")


def compare(before, after):
    """(identical?, the lines to print) of two runs (this script's JSON)."""
    if before["settings"] != after["settings"]:
        return False, [f"not comparable: settings before {before['settings']}, "
                       f"now {after['settings']}"]
    parts = [compare_part(before, after, name) for name in ("compiled", "budget")]
    return all(same for same, _ in parts), [line for _, line in parts]


def dumps(result):
    """JSON with each game's scores on one line (a diff of two runs shows the game)."""
    text = json.dumps(result, indent=1, sort_keys=True)
    return re.sub(r"\[\n\s*(-?\d+(?:,\n\s*-?\d+)*)\n\s*\]",
                  lambda m: "[" + re.sub(r",\n\s*", ", ", m.group(1)) + "]", text) + "\n"


def parse_args(argv):
    """The command line's settings, those left out taken from --compare's file, else DEFAULTS."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", help="default yatzy")
    parser.add_argument("--players", type=int, help="default 2")
    parser.add_argument("--seat", type=int, help="the coach's seat (0: first; default 1)")
    parser.add_argument("--seed", type=int, help="default 24")
    parser.add_argument("--budget", type=float, help="the budget coach's seconds (default 1)")
    parser.add_argument("--start-card", help="the budget coach's games start from this card, "
                        "e.g. ones=3,twos=6 (whole games only for the compiled coach: --games 0)")
    parser.add_argument("--games", type=int, help="games of the compiled coach (default 1000; "
                        "0: not played)")
    parser.add_argument("--budget-games", type=int, help="games of the budget coach (default "
                        "100, about 1.5 s each; 0: not played)")
    parser.add_argument("--out", default=str(HERE / "results" / "coach_choices.json"))
    parser.add_argument("--compare", help="a stored run (this script's JSON) to compare with")
    args = parser.parse_args(argv)
    before = json.loads(Path(args.compare).read_text(encoding="utf-8")) if args.compare else None
    stored = {}
    if before is not None:
        stored = dict(before["settings"], games=before.get("compiled", {}).get("games", 0),
                      budget_games=before.get("budget", {}).get("games", 0))
    for name, default in DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, stored.get(name, default))
    if args.start_card and args.games:
        parser.error("--start-card is for the budget coach only: add --games 0")
    return args, before


def main(argv=None):
    args, before = parse_args(argv)
    settings = {name: getattr(args, name) for name in SETTINGS}
    tournament = load_tournament()
    result = {"settings": settings, "load_average": os.getloadavg()[0],
              "machine": platform.machine(), "cores": os.cpu_count()}
    if args.games:
        result["compiled"] = compiled_run(tournament, settings, args.games)
        print(f"compiled: {args.games} games, {result['compiled']['seconds']:.0f} s, "
              f"sha256 {result['compiled']['sha256']}")
    if args.budget_games:
        result["budget"] = budget_run(tournament, settings, args.budget_games)
        print(f"budget: {args.budget_games} games, {result['budget']['seconds']:.0f} s, "
              f"sha256 {result['budget']['sha256']}")
    path = Path(args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(result), encoding="utf-8")
    print(f"written: {path}")
    if before is not None:
        same, lines = compare(before, result)
        print("\n".join(lines))
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
