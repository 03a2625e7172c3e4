"""The coach users get against the compiled coach of the tournaments, paired: the same games (the
same seeds, so the same dice wherever their choices agree: common random numbers); writes JSON
(default benchmarks/results/coach_paired.json).

Both play win_tournament.py's games, the coach in its seat against players who play for points:
  compiled  the tournament's coach (stats/coach_kernels.py, win_tournament.py --policy
            approximate): the approximation everywhere, ranked by the upper end
  budget    the coach the CLI and the web answer with (advice/win/coach.py's win_advice as
            `kniffel advise --opponent` calls it: budget --budget seconds, the saved target
            table and opponents' store, the lower ends and the estimate; options ranked by the
            estimate): the exact sub-game wherever its predicted cost fits the budget, else the
            approximation
The budget coach throws its dice with the compiled coach's generator (engine/seeded_dice.py,
its seat's stream of each game), so the two meet the same dice until their choices part; the
other players' dice and choices are their own streams', the same in both.

docs/results.md shows it (scripts/win_report.py).  Reported: each coach's win share (ties \
shared) and the difference budget - compiled with its
paired standard error (the sd of the games' differences over sqrt(games)); and, at every
decision of the budget coach, the compiled coach's choice in the same place (its turn plan from
the same turn start against the same cards), how often they differ by decision kind (keep with
2 or 1 rolls left, box) and by round, and by the budget coach's method there.

The games are played in parts of --part and each part is saved in results/parts/ (not in git)
as it ends: an interrupted run goes on from its last part.  Run it niced, it takes seconds a
game (the budget coach); two runs of the same command side by side share the parts:

    nice -n 19 python benchmarks/coach_paired.py --games 2000 --part 25
"""
import argparse
import json
import math
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

KINDS = ("keep, 2 rolls left", "keep, 1 roll left", "box")


def _choice(rules, option):
    """A budget coach's option as a choice: keep:DICE, stop (keeps all five) or box:NAME."""
    if option["action"] == "keep":
        return "stop" if len(option["keep"]) == 5 else "keep:" + "".join(map(str, option["keep"]))
    return "box:" + option["box"]


class Setting:
    """What both coaches share: the tables, the store, the target table, the kernels' arrays."""

    def __init__(self, preset, budget, compiled=True):
        import solver
        from solver import dice
        from solver.engine.target.table import load_target_table
        from solver.stats import opponents as opp
        from solver.stats.simulate import sub_keep_table
        self.table = solver.get_table(preset)
        self.rules = self.table.rules
        if not compiled:  # a summary of the parts saved: the rules are all it needs
            return
        self.target = load_target_table(self.rules)
        self.store = opp.get_store(self.table)  # the saved one, as the CLI reads it
        self.every = opp.build(self.table, min_open=1)  # every state: the compiled coach's
        self.budget = budget
        self.moves, self.game, self.sub_keeps = (dice.kernel_arrays(), self.rules.kernel_arrays(),
                                                 sub_keep_table())


def compiled_games(setting, n_players, seat, seed, first, n):
    """Final scores [n, players] of games first .. first + n - 1 with the compiled coach."""
    from solver.stats.tournament import Players, coach_turns
    players = Players(setting.rules, n_players, n, seed, first_game=first)
    for turn in range(setting.rules.n_boxes):
        for s in range(n_players):
            if s == seat:
                coach_turns(players, seat, turn, setting.table, setting.target, setting.every,
                            threads=1)
            else:
                players.turn(setting.table, s)
    return players.total.T.copy()


def _compiled_plan(setting, state, others):
    """The compiled coach's plan of the turn from `state` against the turn-start States `others`:
    (fin_box, stage_w, stage_e) as coach_kernels.coach_turns plays them."""
    from solver import dice
    from solver.rules.bounds import score_bound
    from solver.stats import coach_kernels as ck
    values, store, target = setting.table.values, setting.every, setting.target
    flats = np.array([(o.filled * values.shape[1] + o.aux) * values.shape[2] + o.upper
                      for o in others], dtype=np.int64)
    U = np.empty(score_bound(setting.rules) + 2)
    M = ck.utility(np.array([o.card_total for o in others], dtype=np.int64), flats,
                   np.array([o.n_open == 0 for o in others]), store.keys, store.low, store.start,
                   store.probs, U)
    rolls = setting.rules.rolls_per_turn
    fin_w, fin_e = np.empty(dice.N_ROLLS), np.empty(dice.N_ROLLS)
    fin_box = np.empty(dice.N_ROLLS, dtype=np.int64)
    stage_w, stage_e = np.empty((rolls, dice.N_KEEPS)), np.empty((rolls, dice.N_KEEPS))
    ck.turn_plan(state.filled, state.aux, state.upper, state.card_total, U, M, target.row_of,
                 target.base, target.span, target.offset, target.w, target.expected,
                 setting.game, setting.moves, setting.sub_keeps, rolls, fin_w, fin_e, fin_box,
                 stage_w, stage_e)
    return fin_box, stage_w, stage_e


def _compiled_choice(setting, plan, roll, left):
    """The compiled coach's choice at `roll` with `left` rolls to come, as _choice names it."""
    from solver import dice
    from solver.stats import coach_kernels as ck
    fin_box, stage_w, stage_e = plan
    if left == 0:
        return "box:" + setting.rules.boxes[fin_box[roll]]
    keep = ck.best_keep.py_func(roll, left, setting.sub_keeps, stage_w, stage_e)
    return "stop" if keep == roll else "keep:" + "".join(map(str, dice.KEEPS[keep]))


def budget_turn(setting, position, others, rng_state, round_, record):
    """One turn of the budget coach from `position` against the States `others`, with the
    compiled coach's dice (complete_roll from `rng_state`); each decision appended to `record`
    as [round, rolls left, budget's choice, compiled's choice there, method].  Returns (the
    Position after, the generator state after)."""
    from solver import dice
    from solver.advice.goal import WinGoal
    from solver.advice.win.coach import win_advice
    from solver.engine.seeded_dice import complete_roll
    from solver.engine.states import Position, position_state
    rules, moves = setting.rules, setting.moves
    goal = WinGoal(tuple({"state": o} for o in others), "share")
    plan = _compiled_plan(setting, position_state(position, rules), others)
    roll, rng_state = complete_roll(dice.EMPTY_KEEP, np.uint64(rng_state), moves.add_die,
                                    moves.keep_size)
    left = rules.rolls_per_turn - 1
    while True:
        advice = win_advice(position, setting.table, goal, list(dice.KEEPS[roll]), left,
                            setting.budget, setting.target, setting.store)
        best = advice.options[0]
        mine = _choice(rules, best)
        record.append([round_, left, mine, _compiled_choice(setting, plan, roll, left),
                       advice.method])
        if best["action"] != "keep":
            if left > 0:  # a box with rolls to come: the compiled coach's stop, then its box
                record[-1][2] = "stop"
                record.append([round_, 0, mine, _compiled_choice(setting, plan, roll, 0),
                               advice.method])
            break
        keep = dice.KEEP_INDEX[tuple(sorted(best["keep"]))]
        if keep == roll:
            left = 0
            continue
        roll, rng_state = complete_roll(keep, np.uint64(rng_state), moves.add_die, moves.keep_size)
        left -= 1
    card = dict(position.card)
    card[best["box"]] = best["points"]
    paid = best.get("extra_bonus", 0) // rules.extra_bonus if rules.extra_bonus else 0
    return Position(card, position.kniffel_bonuses + paid, position.jokers_left), rng_state


def budget_games(setting, n_players, seat, seed, first, n):
    """(final scores [n, players], decisions per game) of games first .. first + n - 1 with the
    budget coach."""
    from solver.engine.states import Position, card_total
    from solver.stats.tournament import Players
    rules = setting.rules
    players = Players(rules, n_players, n, seed, first_game=first)
    coach = [Position() for _ in range(n)]
    records = [[] for _ in range(n)]
    for turn in range(rules.n_boxes):
        for s in range(n_players):
            if s != seat:
                players.turn(setting.table, s)
                continue
            for g in range(n):
                others = [players.state(rules, o, g) for o in range(n_players) if o != seat]
                coach[g], players.rng[seat, g] = budget_turn(
                    setting, coach[g], others, players.rng[seat, g], turn + 1, records[g])
    scores = players.total.T.copy()
    scores[:, seat] = [card_total(p.card, p.kniffel_bonuses, rules) for p in coach]
    return scores, records


def shares(scores, seat):
    """Each game's win share of `seat` (ties shared)."""
    best = scores.max(axis=1)
    top = scores == best[:, None]
    return np.where(top[:, seat], 1.0 / top.sum(axis=1), 0.0)


def _kind(left, rules):
    return KINDS[2] if left == 0 else KINDS[0] if left == rules.rolls_per_turn - 1 else KINDS[1]


def summary(parts, seat, rules):
    """The paired figures of the parts played (module docstring)."""
    compiled = np.concatenate([np.array(p["compiled"]) for p in parts])
    budget = np.concatenate([np.array(p["budget"]) for p in parts])
    a, b = shares(compiled, seat), shares(budget, seat)
    d = b - a
    n = len(d)
    se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    by_kind, by_round, by_method = {}, {}, {}
    differ_games = 0
    groups = {}  # the games by where their choices part: the difference of each group
    for g, record in enumerate(r for p in parts for r in p["decisions"]):
        methods = {method for _, _, mine, theirs, method in record if mine != theirs}
        group = ("the same choices" if not methods
                 else "approximate only" if methods == {"approximate"}
                 else "exact only" if methods == {"exact"} else "both")
        groups.setdefault(group, []).append(d[g])
    for p in parts:
        for record in p["decisions"]:
            differ_games += any(mine != theirs for _, _, mine, theirs, _ in record)
            for round_, left, mine, theirs, method in record:
                for table, key in ((by_kind, _kind(left, rules)), (by_round, str(round_)),
                                   (by_method, method)):
                    row = table.setdefault(key, [0, 0])
                    row[0] += 1
                    row[1] += mine != theirs
    decisions = sum(row[0] for row in by_kind.values())
    differ = sum(row[1] for row in by_kind.values())

    def rows(table):
        return {k: {"decisions": v[0], "differ": v[1], "share": v[1] / max(1, v[0])}
                for k, v in table.items()}

    def share_of(s):
        return {"win_share": float(s.mean()),
                "se": float(s.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")}

    out = {"games": n,
           "compiled_coach": dict(share_of(a), mean_score=float(compiled[:, seat].mean())),
           "budget_coach": dict(share_of(b), mean_score=float(budget[:, seat].mean())),
           "difference": float(d.mean()), "difference_se": se,
           "unpaired_se": (float(math.sqrt(a.var(ddof=1) / n + b.var(ddof=1) / n)) if n > 1
                           else None),
           "games_same_scores": int((compiled == budget).all(axis=1).sum()),
           "games_with_a_different_choice": differ_games,
           "decisions": decisions, "decisions_differ": differ,
           "by_kind": rows(by_kind),
           "by_round": dict(sorted(rows(by_round).items(), key=lambda kv: int(kv[0]))),
           "by_method": rows(by_method),
           "by_where_they_part": {k: {"games": len(v), "difference": float(np.mean(v)),
                                      "se": (float(np.std(v, ddof=1) / math.sqrt(len(v)))
                                             if len(v) > 1 else None)}
                                  for k, v in groups.items()}}
    return out


def _claim(path):
    """Whether this process may play the part saved at `path`: a claim file made exclusively
    (two runs side by side share the parts; a claim left by a run that died is taken over
    after STALE_CLAIM seconds)."""
    claim = path.with_suffix(".claim")
    try:
        if time.time() - claim.stat().st_mtime > STALE_CLAIM:
            claim.unlink()
    except OSError:
        pass
    try:
        os.close(os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        return True
    except FileExistsError:
        return False


STALE_CLAIM = 3 * 3600


def markdown(result):
    """The lines docs/results.md shows of a result: the paired difference, then where the
    choices differ (by decision kind, by the budget coach's method, by round)."""
    pp = 100.0
    lines = ["| games | budget coach (CLI, web) | compiled coach (tournament) | budget - compiled "
             "(paired SE) | unpaired SE | decisions that differ | s per game (budget) |",
             "|---:|---:|---:|---:|---:|---:|---:|",
             f"| {result['games']:,} | {pp * result['budget_coach']['win_share']:.2f}% | "
             f"{pp * result['compiled_coach']['win_share']:.2f}% | "
             f"{pp * result['difference']:+.2f} pp "
             f"(± {pp * result['difference_se']:.2f}) | ± {pp * result['unpaired_se']:.2f} pp | "
             f"{result['decisions_differ']:,} of {result['decisions']:,} "
             f"({pp * result['decisions_differ'] / max(1, result['decisions']):.1f}%; in "
             f"{result['games_with_a_different_choice']:,} games) | "
             f"{result['seconds_per_game']['budget']:.1f} |", ""]
    for title, table in (("decision", result["by_kind"]),
                         ("budget coach's method", result["by_method"]),
                         ("round", result["by_round"])):
        keys = list(table)
        lines.append(f"| {title} | " + " | ".join(keys) + " |")
        lines.append("|---|" + "---:|" * len(keys))
        lines.append("| differ | " + " | ".join(
            f"{table[k]['differ']:,} of {table[k]['decisions']:,} ({pp * table[k]['share']:.1f}%)"
            for k in keys) + " |")
        lines.append("")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="yatzy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seat", type=int, default=1, help="the coach's seat (0: first)")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--budget", type=float, default=1.0, help="the budget coach's seconds")
    parser.add_argument("--part", type=int, default=50, help="games per saved part")
    parser.add_argument("--out", default=str(HERE / "results" / "coach_paired.json"))
    parser.add_argument("--parts", help="the folder of the saved parts (default: results/parts/"
                        "coach_paired_SETTINGS)")
    parser.add_argument("--summary-only", action="store_true", help="play nothing: summarise the "
                        "parts saved so far (of a run still going, or stopped)")
    args = parser.parse_args(argv)
    key = f"{args.rules}_{args.players}p_seat{args.seat}_seed{args.seed}_budget{args.budget:g}"
    parts_dir = (Path(args.parts) if args.parts
                 else HERE / "results" / "parts" / f"coach_paired_{key}")
    parts_dir.mkdir(parents=True, exist_ok=True)
    setting = Setting(args.rules, args.budget, compiled=not args.summary_only)
    seconds = {"compiled": 0.0, "budget": 0.0}
    for first in range(0, 0 if args.summary_only else args.games, args.part):
        n = min(args.part, args.games - first)
        path = parts_dir / f"{first:07d}_{n}.json"
        if path.is_file() or not _claim(path):
            continue  # played, or being played by another run of the same games
        started = time.perf_counter()
        compiled = compiled_games(setting, args.players, args.seat, args.seed, first, n)
        middle = time.perf_counter()
        budget, records = budget_games(setting, args.players, args.seat, args.seed, first, n)
        ended = time.perf_counter()
        part = {"first": first, "games": n, "compiled": compiled.tolist(),
                "budget": budget.tolist(), "decisions": records,
                "seconds": {"compiled": middle - started, "budget": ended - middle},
                "load_average": os.getloadavg()[0]}
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(part), encoding="utf-8")
        os.replace(tmp, path)
        path.with_suffix(".claim").unlink(missing_ok=True)
        print(f"games {first}-{first + n - 1}: {ended - middle:.0f} s budget, "
              f"{middle - started:.1f} s compiled", file=sys.stderr, flush=True)
    parts = []
    for path in sorted(parts_dir.glob("*.json")):
        part = json.loads(path.read_text(encoding="utf-8"))
        if part["first"] < args.games:
            parts.append(part)
    parts.sort(key=lambda p: p["first"])
    for name in seconds:
        seconds[name] = sum(p["seconds"][name] for p in parts)
    played = sum(p["games"] for p in parts)
    if not parts:
        parser.error("no part played yet")
    result = dict(summary(parts, args.seat, setting.rules), rules=args.rules, players=args.players,
                  seat=args.seat, seed=args.seed, budget=args.budget,
                  seconds_per_game={k: v / max(1, played) for k, v in seconds.items()},
                  load_average=[min(p["load_average"] for p in parts),
                                max(p["load_average"] for p in parts)],
                  machine=platform.machine(), cores=os.cpu_count(),
                  command=f"python benchmarks/coach_paired.py --rules {args.rules} --players "
                          f"{args.players} --seat {args.seat} --games {played} --seed "
                          f"{args.seed} --budget {args.budget:g}")
    out = Path(args.out)
    results = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else {}
    results[key] = result
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(key, json.dumps({k: result[k] for k in ("games", "difference", "difference_se",
                                                  "decisions", "decisions_differ")}))


if __name__ == "__main__":
    main()
