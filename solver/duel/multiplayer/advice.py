"""Advice to win the Dice Duel for 2 or more players: for the seat to move, every option (keeps,
stop, which chip to take or none) with its chance to win, ties shared as the rules say.

Exact (multi_exact.py) while the positions still reachable are few (size_bound at most
EXACT_LIMIT); beyond that estimated by rollouts (multi_rollout.py) within a time budget, each
chance with its 95% interval.  The answer is the contract of `kniffel advise --rules dice-duel
--batch` and POST /api/advise for lines with "players" (docs: docs/reference.md,
"Kniffel Dice Duel").
"""
from dataclasses import dataclass

import numpy as np

from ... import dice as _dice  # `dice` is a parameter name below
from ...advice.goal import Goal
from ...advice.position import Advice
from ...dice import sub_keep_indices
from ..chips import CHIPS_PER_TYPE, N_TYPES
from ..states import chip_counts, spec_entries, typed_counts
from . import exact as multi_exact
from . import game as mg
from .exact import shared_solver, size_bound
from .rollout import Rollouts, move_code, wilson

BUDGET = 1.5  # seconds of rollouts per decision (advice at the table)


@dataclass(frozen=True)
class SeatWinGoal(Goal):
    """The seat to move's chance to win a Dice Duel of several players, exact or estimated by
    rollouts (each chance then with its interval and the games played out); its Advice's
    position is the table (players, seat to move, chips, dice).  budget: seconds of rollouts
    (default BUDGET), or exactly `games` games per option; seed: the rollouts' dice; model: how
    the exact search plays the other seats ("best" or "greedy", exact.MODELS)."""
    kind = "win"
    budget: float = None
    games: int = None
    seed: int = 0
    model: str = "best"

    def kernels(self, query, tables):
        return "duel"

    def ranked(self, query, tables):
        """The Advice for the seat to move of a checked query (its position the game's table;
        win_chances with this goal's settings); no table of `tables` is read."""
        dice = None if query.roll is None else list(_dice.KEEPS[query.roll])
        return win_chances(query.position, query.rules, dice, query.rolls_left,
                           budget=self.budget, games=self.games, seed=self.seed, model=self.model)

    def answer_dict(self, advice, options):
        out = {"probability": advice.probability, "exact": advice.exact}
        if not advice.exact:  # games and seed: the same estimate again (rollout.Rollouts.run)
            out.update(interval=advice.interval, games=advice.games, seed=self.seed)
        return {**out, "method": advice.method, "options": options, **advice.position}


SEAT_WIN = SeatWinGoal()


def parse_counts(players, chips):
    """(plate, aside, seats) from {TYPE: [plate, aside, seat0, ...]} or the text form
    "ls=0/1/2/1,fl=2/0/1/1" (unlisted types: all chips on the plate).  ValueError if malformed;
    multi_game.check_table checks that a game can reach them."""
    if chips is None:
        chips = {}
    if isinstance(chips, str):
        entries = spec_entries(chips, "PLATE/ASIDE/SEAT0/SEAT1/...", "ls=0/1/2/1")
    elif isinstance(chips, dict):
        entries = list(chips.items())
    else:
        raise ValueError("chips must be an object {type: [plate, aside, seat0, seat1, ...]}")
    plate, aside = [CHIPS_PER_TYPE] * N_TYPES, [0] * N_TYPES
    seats = [[0] * N_TYPES for _ in range(players)]

    def numbers(key, counts):
        if not isinstance(counts, list) or len(counts) != players + 2:
            raise ValueError(f"{key} needs {players + 2} counts: plate, aside and one per seat")
        return chip_counts(key, counts)

    for t, counts in typed_counts(entries, numbers):
        plate[t], aside[t] = counts[0], counts[1]
        for i in range(players):
            seats[i][t] = counts[2 + i]
    return tuple(plate), tuple(aside), tuple(tuple(s) for s in seats)


def parse_table(rules, players, chips=None, to_move=0, round_chip_taken=False):
    """A checked multi_game.Table from the contract's fields (ValueError naming the problem)."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be a whole number 2-{rules.max_players}, got {players!r}")
    if not 2 <= players <= rules.max_players:
        raise ValueError(f"players must be 2-{rules.max_players} (max_players), got {players}")
    plate, aside, seats = parse_counts(players, chips)
    table = mg.Table(plate, aside, seats, to_move, round_chip_taken)
    return mg.check_table(table, rules)


def checked_roll(rules, dice, rolls_left):
    """(roll index or None, rolls left or None) of a query; ValueError naming the problem."""
    if dice is None:
        if rolls_left is not None:
            raise ValueError("rolls left needs dice")
        return None, None
    if not isinstance(dice, (list, tuple)):
        raise ValueError("dice must be a list of five faces")
    roll = _dice.KEEP_INDEX[_dice.validate_dice(dice)]
    max_left = rules.rolls_per_turn - 1
    if rolls_left is None:
        rolls_left = max_left
    if isinstance(rolls_left, bool) or not isinstance(rolls_left, int) \
            or not 0 <= rolls_left <= max_left:
        raise ValueError(f"rolls left must be 0-{max_left}, got {rolls_left!r}")
    return roll, rolls_left


def _end_moves(table, rules, roll):
    category = int(rules.categories[0][roll])
    mask = int(rules.categories[1][category])
    return mg.end_moves(table, mask, category == 0, rules), category == 0


def _keep_options(roll):
    keeps, indices = sub_keep_indices(roll)
    return [list(k) for k in keeps], indices.tolist()


def win_chances(table, rules, dice=None, rolls_left=None, budget=None, games=None, seed=0,
           limit=None, policies=None, solo_values=None, model="best"):
    """The Advice for the seat to move of `table` (a checked multi_game.Table), options best
    first, each with its chance to win ("probability") and, estimated, its "interval".

    dice/rolls_left: as the solo advice (None: the turn's start).  Exact when size_bound(table)
    <= limit; else rollouts for `budget` seconds (or exactly `games` games per option), seats
    playing `policies` (multi_kernels.GREEDY/SOLO per seat; default all GREEDY).  model: how the
    exact solver models the other seats, "best" (each maximises its own chance) or "greedy"
    (the most valuable chip, as the rollouts play every seat)."""
    if model not in multi_exact.MODELS:
        raise ValueError(f"opponent_model must be one of {', '.join(multi_exact.MODELS)}, got {model!r}")
    roll, rolls_left = checked_roll(rules, dice, rolls_left)
    goal = SeatWinGoal(budget=budget, games=games, seed=seed, model=model)  # its answer names the seed
    budget = BUDGET if budget is None else budget
    limit = multi_exact.EXACT_LIMIT if limit is None else limit
    if size_bound(table) <= limit:
        answer = _exact(table, rules, roll, rolls_left, limit, model)
    else:
        answer = _estimate(table, rules, roll, rolls_left, budget, games, seed, policies,
                           solo_values)
    position = {"players": table.players, "to_move": table.to_move,
                "round_chip_taken": table.taken, "chips": table.counts()}
    if roll is not None:
        position.update(dice=list(_dice.KEEPS[roll]), rolls_left=rolls_left)
    return Advice(rules.key, None, None, answer["options"], goal, position,
                  answer["probability"], answer["method"], answer.get("interval"),
                  games=answer.get("games"))


def _option(move_or_keep, chances, mover, table, rules, then=None):
    if isinstance(move_or_keep, list):
        option = {"action": "keep", "keep": move_or_keep}
    elif move_or_keep == "stop":
        option = {"action": "stop", "then": mg.move_dict(then, table, rules)}
    else:
        option = mg.move_dict(move_or_keep, table, rules)
    option["probability"] = float(chances[mover])
    option["chances"] = [float(c) for c in chances]
    return option


def _exact(table, rules, roll, rolls_left, limit, model):
    with shared_solver(table, rules, limit, model) as solver:
        return _exact_answer(solver, table, rules, roll, rolls_left, model)


def _exact_answer(solver, table, rules, roll, rolls_left, model):
    mover = table.to_move
    others = "each seat maximising its own chance" if model == "best" else \
        "the other seats taking the most valuable chip"
    answer = {"probability": float(solver.start(table)[mover]),
              "method": f"exact over {len(solver.memo)} positions, {others}"}
    if roll is None:
        answer["options"] = []
        return answer
    moves, kniffel = _end_moves(table, rules, roll)
    ends = [(m, solver.outcome(table, m, kniffel)) for m in moves]
    options = [_option(m, v, mover, table, rules) for m, v in ends]
    if rolls_left > 0:
        stages, _ = solver.turn(table, with_stages=True)
        best_move, best = _best_end(ends, mover)
        options = [_option("stop", best, mover, table, rules, then=best_move)]
        options[0]["ends"] = [_option(m, v, mover, table, rules) for m, v in ends]
        keeps, indices = _keep_options(roll)
        options += [_option(k, stages[rolls_left, i], mover, table, rules)
                    for k, i in zip(keeps, indices)]
    options.sort(key=lambda o: o["probability"], reverse=True)  # stable: stop first on a tie
    answer["probability"] = options[0]["probability"]
    answer["options"] = options
    return answer


def _best_end(ends, mover):
    from .exact import better
    best_move, best = ends[0]
    for move, value in ends[1:]:
        if better(best, value, mover):
            best_move, best = move, value
    return best_move, best


def _estimate(table, rules, roll, rolls_left, budget, games, seed, policies, solo_values):
    runner = Rollouts(table, rules, seed, policies,
                      solo_values if solo_values is not None else np.zeros(1))
    mover = table.to_move
    if roll is None:
        labels, options = [None], [(-1, 0, -1, 0, 0)]
    else:
        moves, _ = _end_moves(table, rules, roll)
        labels = list(moves)
        options = [(roll, 0, -1) + move_code(m) for m in moves]
        if rolls_left > 0:
            keeps, indices = _keep_options(roll)
            labels += keeps
            options += [(roll, rolls_left, i, 0, 0) for i in indices]
    totals, n = runner.run(options, budget=budget, games=games)
    means = totals / max(n, 1)
    method = f"estimate: {n} games per option played out by the greedy policy"
    if roll is None:
        p = float(means[0][mover])
        return {"probability": p, "interval": wilson(p, n), "games": n,
                "method": method, "options": []}
    found = []
    for label, mean in zip(labels, means):
        option = _option(label, mean, mover, table, rules)
        option["interval"] = wilson(option["probability"], n)
        found.append((label, mean, option))
    n_moves = len(moves)
    if rolls_left > 0:
        best_move, best = _best_end([(lab, m) for lab, m, _ in found[:n_moves]], mover)
        stop = _option("stop", best, mover, table, rules, then=best_move)
        stop["interval"] = wilson(stop["probability"], n)
        stop["ends"] = [o for _, _, o in found[:n_moves]]  # every chip the stop may take
        options = [stop] + [o for _, _, o in found[n_moves:]]
    else:
        options = [o for _, _, o in found]
    options.sort(key=lambda o: o["probability"], reverse=True)
    return {"probability": options[0]["probability"],
            "interval": options[0]["interval"], "games": n, "method": method, "options": options}
