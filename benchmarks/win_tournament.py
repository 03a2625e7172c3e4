"""Tournament: seeded whole games of the win coach against players who play for points; writes
JSON (default benchmarks/results/win_tournament.json).

Each game: every round, each player in seat order takes a turn.  The players who play for
points follow the expected-score strategy (the simulation's kernel, all games in step).  The
coach, in its seat, decides every keep and box to win, against the others' cards as they stand
at its turn:
  --policy approximate  the coach's approximation everywhere (candidate (a): the turn in hand
                        played exactly against the target table's mixture), compiled
                        (stats/coach_kernels.py: the choices of win_advice(force="approximate"),
                        checked option by option by tests/test_coach_kernels.py); fast enough
                        for 100,000 games
  --policy budget       as the coach answers with --budget SECONDS (advice/win/coach.py, the
                        code the CLI and the web coach call): the exact sub-game wherever its
                        predicted cost fits the budget, else the approximation (much slower to
                        play: a second, smaller tournament)
  --policy risk         candidate (c), the best published heuristic (dlangk/yatzy's
                        variance-scaled risk dial, stats/tournament.RiskDial), compiled
  --policy points       the coach's seat plays for points too (expected-score vs expected-score:
                        must give 1/n within its interval)
Reported per run: the coach's win share (ties shared 1/k) with its 95% interval (normal, from
the games' shares), for 2 players also head to head without draws (wins / (wins + losses),
as dlangk/yatzy reports it) with its standard error, and the mean scores.

The compiled runs play in parts of --part games and keep the scores so far in
results/parts/ (not in git): an interrupted run goes on from its last part, and the games are
the same as in one run (a game's dice depend on the seed and its number only).

    python benchmarks/win_tournament.py --rules yatzy --players 2 --seat 1 --games 100000
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
sys.path.insert(0, str(HERE.parent))


def play(preset, n_players, seat, games, seed, policy, budget, start_card=None, record=None):
    """(final scores [games, n_players], coach decisions' method counts, seconds).  start_card:
    every player starts from this card (a dict), the coach's target table is then its sub-game's
    (an end-game tournament, quick to set up); default the empty card and the saved table.
    record: a list, when given, to which each decision of the coach is appended as (game, turn,
    rolls left, dice, the option taken, method)."""
    import solver
    from solver.advice.goal import WinGoal
    from solver.advice.win.coach import win_advice
    from solver.engine.states import Position, card_total, position_state
    from solver.engine.target.table import load_target_table
    from solver.stats import opponents as opp
    from solver.stats.tournament import Players, coach_turn
    table = solver.get_table(preset)
    rules = table.rules
    start = Position(start_card or {})
    first = position_state(start, rules)
    if policy == "points":
        target = None
    elif start_card:
        from solver.engine.target.solve import solve_target
        target = solve_target(rules, progress=False, within=first.filled, expected=table.values)
    else:
        target = load_target_table(rules)
    store = opp.get_store(table) if policy != "points" else None
    players = Players(rules, n_players, games, seed)
    for name, value in (("filled", first.filled), ("aux", first.aux), ("upper", first.upper),
                        ("upper_sum", first.upper_total), ("total", first.card_total)):
        getattr(players, name)[:] = value
    coach = [start for _ in range(games)]
    gens = [np.random.default_rng([seed, g]) for g in range(games)]
    methods = {}

    def decide(position, opponents, dice, left):
        goal = WinGoal(tuple(opponents), "share")
        advice = win_advice(position, table, goal, dice, left, budget, target, store,
                            force="approximate" if policy == "approximate" else None, low=False)
        methods[advice.method] = methods.get(advice.method, 0) + 1
        if record is not None:  # game and turn: the loop's below, at the time of the call
            record.append((g, turn, left, tuple(dice), advice.options[0], advice.method))
        return advice.options

    started = time.perf_counter()
    for turn in range(first.n_open):
        for s in range(n_players):
            if s != seat or policy == "points":
                players.turn(table, s)
                continue
            for g in range(games):
                others = [{"state": players.state(rules, o, g)} for o in range(n_players)
                          if o != seat]
                coach[g] = coach_turn(decide, rules, coach[g], others, gens[g])
    scores = players.total.T.copy()
    if policy != "points":
        scores[:, seat] = [card_total(p.card, p.kniffel_bonuses, rules) for p in coach]
    return scores, methods, time.perf_counter() - started


def play_compiled(preset, n_players, seat, games, seed, policy, part, parts_file, threads=None):
    """(final scores [games, n_players], seconds of play and games played in this process) of the
    compiled policies ("approximate", "points"), in parts of `part` games, resumed from
    `parts_file`."""
    import solver
    from solver.engine.target.table import load_target_table
    from solver.stats import opponents as opp
    from solver.stats.tournament import Players, RiskDial, coach_turns
    table = solver.get_table(preset)
    rules = table.rules
    done = np.load(parts_file) if parts_file.is_file() else np.zeros((0, n_players), dtype=np.int64)
    if len(done) >= games:
        return done[:games], 0.0, 0
    target = store = risk = None
    if policy == "approximate":
        target = load_target_table(rules)
        store = opp.build(table, min_open=1)  # every state the others can meet (half a minute)
    if policy == "risk":
        risk = RiskDial(table, threads)  # a table per theta (seconds each)
    seconds, before = 0.0, len(done)
    while len(done) < games:
        first, n = len(done), min(part, games - len(done))
        started = time.perf_counter()
        players = Players(rules, n_players, n, seed, first_game=first)
        for turn in range(rules.n_boxes):
            for s in range(n_players):
                if s == seat and policy != "points":
                    coach_turns(players, seat, turn, table, target, store, risk, threads)
                else:
                    players.turn(table, s)
        seconds += time.perf_counter() - started
        done = np.concatenate([done, players.total.T])
        parts_file.parent.mkdir(parents=True, exist_ok=True)
        np.save(str(parts_file) + ".tmp.npy", done)
        os.replace(str(parts_file) + ".tmp.npy", parts_file)
        print(f"{len(done)} games, {seconds:.0f} s", file=sys.stderr, flush=True)
    return done, seconds, len(done) - before


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="yatzy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seat", type=int, default=1, help="the coach's seat (0: first)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--policy", choices=["approximate", "risk", "budget", "points"],
                        default="approximate")
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--start-card", help="every player starts from this card, e.g. "
                        "ones=3,twos=6 (an end-game tournament: the target table of its sub-game)")
    parser.add_argument("--part", type=int, default=5000, help="games per part (compiled policies)")
    parser.add_argument("--threads", type=int,
                        help="threads of the compiled coach (default: all cores)")
    parser.add_argument("--out", default=str(HERE / "results" / "win_tournament.json"))
    args = parser.parse_args()
    from solver.stats.tournament import summarise
    start_card = None
    if args.start_card:
        from solver.presets import read_rules
        from solver.rules.cards import parse_card
        start_card = parse_card(args.start_card, read_rules(args.rules))
    key = f"{args.rules}/{args.players}p/seat{args.seat}/{args.policy}"
    if start_card:
        key += "/from " + ",".join(f"{b}={p}" for b, p in start_card.items())
    if start_card and args.policy == "risk":
        parser.error("--policy risk plays whole games only (no --start-card)")
    if args.policy == "budget" or start_card:
        scores, methods, seconds = play(args.rules, args.players, args.seat, args.games,
                                        args.seed, args.policy, args.budget, start_card)
        played = args.games
    else:
        parts = HERE / "results" / "parts" / (key.replace("/", "_") + f"_seed{args.seed}.npy")
        scores, seconds, played = play_compiled(args.rules, args.players, args.seat, args.games,
                                        args.seed, args.policy, args.part, parts, args.threads)
        methods = {{"approximate": "approximate (compiled)", "risk": "risk dial (compiled)"}
                   .get(args.policy, args.policy): args.games}
    result = dict(summarise(scores, args.seat), seed=args.seed, policy=args.policy,
                  budget=args.budget, methods=methods, seconds=seconds, start_card=start_card,
                  seconds_per_game=seconds / max(1, played), threads=args.threads,
                  load_average=os.getloadavg()[0],
                  machine=platform.machine(), cores=os.cpu_count())
    path = Path(args.out)
    results = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    results[key] = result
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(key, json.dumps(result))


if __name__ == "__main__":
    main()
