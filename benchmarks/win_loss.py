"""Loss of the win approximation against the exact sub-game; writes JSON (default
benchmarks/results/win_loss.json) and the estimate's calibration (solver/data/win_estimate.json).

Positions: seeded games of players who play for points (stats/tournament.py) are stopped at the
first roll of the round where our player (seat 0 or the last seat, alternately) has 7, 8 or 9
open boxes; the opponents' cards are theirs at that moment.  For each position the exact
sub-game (advice/win/sub_game.py) gives every option's exact chance to win; each candidate picks an
option and loses the exact best chance minus the exact chance of its pick, in percentage points:
  a       the interval approximation's ranking (the turn in hand exact against the target
          table's mixture: advice/win/approximation.py), what the coach plays
  b       each option valued by the mixture of its own best chances of each T (one target
          advice per T: too slow for the coach, measured for comparison)
  c       the risk dial, the best published heuristic (dlangk/yatzy's variance-scaled
          exponential utility: stats/tournament.RiskDial), playing this turn for the utility
          exp(theta x) it dials here
  points  the expected-score choice (the lower end's strategy), for reference
Reported per candidate and per (rules, players): mean, 99th percentile and largest loss; and the
intervals' widths and where the exact chance lies in them, from which the estimate's alpha (the
median of (exact - low) / (high - low) over every option with high > low) is written.

    python benchmarks/win_loss.py --positions 300          # the issue's size
    python benchmarks/win_loss.py --positions 12 --out ... # a reduced run
"""
import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
CANDIDATES = ("a", "b", "c", "points")
DEFAULT_OUT = HERE / "results" / "win_loss.json"
sys.path.insert(0, str(HERE.parent))
ESTIMATE = HERE.parent / "solver" / "data" / "win_estimate.json"


def positions(rules, table, n_players, count, seed):
    """[(Position, opponents, dice)] with 7-9 open boxes for us (module docstring), seeded: our
    card played for points by the advice (a real card), the others by the simulation's kernel."""
    from solver import advise
    from solver.engine.states import Position
    from solver.stats.tournament import Players, coach_turn
    rng = np.random.default_rng(seed)

    def for_points(position, opponents, dice, left):
        return advise(position, table, dice=dice, rolls_left=left).options

    out = []
    for i in range(count):
        n_open = 7 + i % 3
        seat = 0 if i % 2 == 0 else n_players - 1
        players = Players(rules, n_players, 1, seed * 7919 + i)
        me = Position()
        for _ in range(rules.n_boxes - n_open):
            for s in range(n_players):
                if s == seat:
                    me = coach_turn(for_points, rules, me, [], rng)
                else:
                    players.turn(table, s)
        for s in range(seat):  # the players before us this round
            players.turn(table, s)
        opponents = [{"state": players.state(rules, s, 0)} for s in range(n_players) if s != seat]
        out.append((me, opponents, sorted(rng.integers(1, 7, 5).tolist())))
    return out


def measure(preset, n_players, count, seed, sub_games=False, b_positions=None, start=0):
    """Yield one record per position, from position `start` on (the earlier ones measured
    before): the losses in pp of each candidate, the options' interval widths and where the
    exact chance lies in them, and the seconds of the exact and the approximate advice."""
    import solver
    from solver.advice.goal import WinGoal
    from solver.advice.win.coach import win_advice
    from solver.engine.states import position_state
    from solver.engine.target.solve import solve_target
    from solver.engine.target.table import load_target_table
    from solver.stats import opponents as opp
    from solver.stats.tournament import RiskDial
    table = solver.get_table(preset)
    rules = table.rules
    target = None if sub_games else load_target_table(rules)
    store = opp.get_store(table)
    risk = RiskDial(table)
    for i, (position, opponents, dice) in enumerate(positions(rules, table, n_players, count,
                                                               seed)):
        if i < start:
            continue
        goal = WinGoal(tuple(opponents), "share")
        if sub_games:  # the target table of the position's sub-game: the same W* there
            target = solve_target(rules, progress=False,
                                  within=position_state(position, rules).filled,
                                  expected=table.values)
        t = time.perf_counter()
        exact = win_advice(position, table, goal, dice, 2, 600, target, store, force="exact")
        t_exact = time.perf_counter() - t
        exact_of = {_key(o): o["probability"] for o in exact.options}
        t = time.perf_counter()
        approx = win_advice(position, table, goal, dice, 2, 600, target, store, force="approximate")
        record = {"seconds": {"exact": t_exact, "approximate": time.perf_counter() - t}}
        best = exact.probability
        record["a"] = 100 * (best - exact_of[_key(approx.options[0])])
        if b_positions is None or i < b_positions:  # (b) takes one target advice per T
            mixed = mixture_of_options(position, dice, target, goal, table, store)
            record["b"] = 100 * (best - exact_of[max(mixed, key=mixed.get)])
        record["c"] = 100 * (best - exact_of[risk_choice(risk, table, position, opponents, dice)])
        by_points = max(approx.options, key=lambda o: o["expected_final_score"])
        record["points"] = 100 * (best - exact_of[_key(by_points)])
        spans = [(o["interval"], exact_of[_key(o)]) for o in approx.options]
        record["widths"] = [100 * (high - low) for (low, high), _ in spans]
        record["ratios"] = [round((x - low) / (high - low), 5) for (low, high), x in spans
                            if high - low > 1e-12]
        print(preset, n_players, i, {k: round(record[k], 4) for k in CANDIDATES if k in record},
              {k: round(v, 2) for k, v in record["seconds"].items()}, flush=True)
        yield record


def summary(records, count):
    """A case's figures from its position records (measure's)."""
    return {"positions": len(records), "positions_asked": count,
            "losses_pp": {k: _stats([r[k] for r in records if k in r])
                          for k in CANDIDATES if any(k in r for r in records)},
            "interval_width_pp": _stats([w for r in records for w in r["widths"]]),
            "seconds_mean": {k: float(np.mean([r["seconds"][k] for r in records]))
                             for k in ("exact", "approximate")}}


def risk_choice(risk, table, position, opponents, dice):
    """Candidate (c)'s option (its _key) at the first roll `dice` of `position`: the turn
    played for the utility the RiskDial `risk` dials against `opponents`."""
    from solver import dice as dice_tables
    from solver.engine.states import position_state
    from solver.stats import coach_kernels as ck
    from solver.stats.simulate import sub_keep_table
    rules = table.rules
    me = position_state(position, rules)
    others = [o["state"] for o in opponents]
    shape = table.values.shape
    flat = lambda s: (s.filled * shape[1] + s.aux) * shape[2] + s.upper  # noqa: E731
    d = risk.dial
    k = ck.risk_dial(rules.n_boxes - me.n_open, flat(me), np.array([flat(o) for o in others]),
                     np.array([o.n_open == 0 for o in others]),
                     np.array([me.card_total] + [o.card_total for o in others]), risk.ce,
                     risk.thetas, int(d[0]), int(d[1]), d[2], d[3], int(d[4]))
    fin_w, fin_e = np.empty(dice_tables.N_ROLLS), np.empty(dice_tables.N_ROLLS)
    fin_box = np.empty(dice_tables.N_ROLLS, dtype=np.int64)
    stage_w = np.empty((rules.rolls_per_turn, dice_tables.N_KEEPS))
    stage_e = np.empty_like(stage_w)
    sub = sub_keep_table()
    ck.risk_plan(me.filled, me.aux, me.upper, risk.ce[k], risk.thetas[k], rules.kernel_arrays(),
                 dice_tables.kernel_arrays(), sub, rules.rolls_per_turn, fin_w, fin_e, fin_box,
                 stage_w, stage_e)
    roll = dice_tables.KEEP_INDEX[tuple(sorted(dice))]
    keep = ck.best_keep.py_func(roll, rules.rolls_per_turn - 1, sub, stage_w, stage_e)
    if keep == roll:  # keeping all five ends the turn: the box
        return ("score", (), rules.boxes[fin_box[roll]])
    return ("keep", tuple(dice_tables.KEEPS[keep]), None)


def mixture_of_options(position, dice, target, goal, table, store):
    """Candidate (b): each option valued by u(0) + sum_T q(T) W*_option(T), its own best chance
    of each T mixed (one target advice per T with q(T) > 0)."""
    from solver import advise
    from solver.advice.goal import TargetGoal
    from solver.advice.win.approximation import utility_of_score
    from solver.advice.win.coach import opponent_distributions
    from solver.advice.win.sub_game import win_utility
    U = utility_of_score(*win_utility(opponent_distributions(table, list(goal.opponents), store),
                                      goal.ties))
    q = np.diff(U)
    value = {}
    for T in (np.flatnonzero(q > 0) + 1).tolist():
        for option in advise(position, target, dice, 2, TargetGoal(T)).options:
            k = _key(option)
            value[k] = value.get(k, U[0]) + q[T - 1] * option["probability"]
    return value


def _key(option):
    return (option["action"], tuple(option.get("keep", ())), option.get("box"))


def _stats(values):
    v = np.asarray(values, dtype=float)
    return {"mean": float(v.mean()), "p99": float(np.percentile(v, 99)), "max": float(v.max()),
            "n": int(len(v))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300, help="per (rules, players)")
    parser.add_argument("--rules", action="append", help="default: kniffel and yatzy")
    parser.add_argument("--players", action="append", type=int, help="default: 2 and 4")
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--b-positions", type=int, help="measure candidate (b) on the first N "
                        "positions of each case only (default all): it takes one target advice "
                        "per score T, some 20 s a position")
    parser.add_argument("--sub-games", action="store_true", help="the target table of each "
                        "position's sub-game (solved per position: the same W* as the whole "
                        "table's there) instead of the saved whole table")
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="any other path: a trial run, "
                        "the estimate's alpha (solver/data/win_estimate.json) is left alone")
    args = parser.parse_args()
    path = Path(args.out)
    # every position's record is kept in a sidecar file, written every few positions: an
    # interrupted run resumes where it stopped (same seed and settings: the same positions)
    records_path = path.with_name("positions_" + path.name)
    done = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    same = all(done.get(k) == v for k, v in (("positions_per_case", args.positions),
                                              ("seed", args.seed),
                                              ("b_positions", args.b_positions)))
    records = (json.loads(records_path.read_text(encoding="utf-8"))
               if same and records_path.is_file() else {})
    for preset in args.rules or ["kniffel", "yatzy"]:
        for n in args.players or [2, 4]:
            case = records.setdefault(f"{preset}/{n}p", [])
            for record in measure(preset, n, args.positions, args.seed, args.sub_games,
                                  args.b_positions, start=len(case)):
                case.append(record)
                if len(case) % 5 == 0 or len(case) == args.positions:
                    write(args, path, records_path, records)
    write(args, path, records_path, records)


def write(args, path, records_path, records):
    """The JSON of the positions measured so far, and the estimate's alpha from all their
    options."""
    every = [x for case in records.values() for r in case for x in r["ratios"]]
    alpha = float(np.median(every)) if every else 0.5
    out = {"benchmark": "win_loss", "positions_per_case": args.positions, "seed": args.seed,
           "b_positions": args.b_positions,
           "target_tables": "per position's sub-game" if args.sub_games else "saved whole table",
           "alpha": alpha, "goal_mean_pp": 0.05, "machine": platform.machine(),
           "cores": os.cpu_count(), "load_average": os.getloadavg()[0],
           "results": {case: summary(rs, args.positions) for case, rs in records.items() if rs}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    records_path.write_text(json.dumps(records) + "\n", encoding="utf-8")
    if path.resolve() != DEFAULT_OUT.resolve():
        print(f"wrote {path} (the estimate's alpha only from the default --out)", flush=True)
        return
    ESTIMATE.write_text(json.dumps({"alpha": alpha, "from": "benchmarks/win_loss.py",
                                    "options": len(every),
                                    "positions_per_case": min(len(c) for c in records.values()
                                                              if c)},
                                   indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}", flush=True)

if __name__ == "__main__":
    main()
