"""Advice to win the Dice Duel for 2 or more players: for the seat to move, every option (keeps,
stop, which chip to take or none) with its chance to win, ties shared as the rules say.

Exact while the game left is small enough: with 2 players and shared ties from the horizon
table (horizon.py) or by the dense solve of every position still reachable (dense.py, at most
DENSE_LIMIT values); otherwise, and for 3-4 players, by the search of exact.py (size_bound at
most EXACT_LIMIT).  Beyond that estimated by rollouts (estimate.py): a fixed number of games,
the greedy choice unless another option beats it measurably, the chance shown played afresh.
The answer is the contract of `kniffel advise --rules dice-duel --batch` and POST /api/advise
for lines with "players" (docs: docs/reference.md, "Kniffel Dice Duel").
"""
from dataclasses import dataclass

from ... import dice as _dice  # `dice` is a parameter name below
from ...advice.goal import Goal
from ...advice.position import Advice
from ...dice import sub_keep_indices
from ..chips import CHIPS_PER_TYPE, N_TYPES
from ..states import chip_counts, spec_entries, typed_counts
from . import exact as multi_exact
from . import game as mg
from . import horizon as multi_horizon
from .dense import DENSE_LIMIT, cached_solver, dense_rules
from .estimate import CANDIDATES, GAMES, estimate
from .exact import shared_solver, size_bound

MAX_GAMES = 1 << 16  # the most games per option a query may ask for


@dataclass(frozen=True)
class SeatWinGoal(Goal):
    """The seat to move's chance to win a Dice Duel of several players, exact or estimated by
    rollouts (each chance then with its interval and the games played out); its Advice's
    position is the table (players, seat to move, chips, dice).  games: games per option of
    the rollouts' decision stage (default estimate.GAMES; work, never seconds); seed: the
    rollouts' dice; model: how the exact search plays the other seats ("best" or "greedy",
    exact.MODELS)."""
    kind = "win"
    games: int = None
    seed: int = 0
    model: str = "best"

    def kernels(self, query, tables):
        return "duel"

    def ranked(self, query, tables):
        """The Advice for the seat to move of a checked query (its position the game's table;
        win_chances with this goal's settings); of the store of `tables` (ask/tables.Tables, or
        None: the usual store) only the horizon table is read, when one is saved there."""
        dice = None if query.roll is None else list(_dice.KEEPS[query.roll])
        return win_chances(query.position, query.rules, dice, query.rolls_left,
                           games=self.games, seed=self.seed, model=self.model,
                           tables=None if tables is None else tables.directory)

    def answer_dict(self, advice, options):
        out = {"probability": advice.probability, "exact": advice.exact}
        if not advice.exact:  # games and seed: the same estimate again (estimate.estimate)
            out.update(interval=advice.interval, games=advice.games, seed=self.seed)
        out.update(advice.duel)  # win_chances sets it on every answer
        if advice.note:
            out["note"] = advice.note
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


def win_chances(table, rules, dice=None, rolls_left=None, games=None, seed=0, limit=None,
                policies=None, solo_values=None, model="best", tables=None, horizon=None):
    """The Advice for the seat to move of `table` (a checked multi_game.Table), options best
    first, each with its chance to win ("probability") and, estimated, its "interval".

    dice/rolls_left: as the solo advice (None: the turn's start).  Exact when the game left is
    within `limit` (module docstring; limit 0: always estimate), else rollouts of `games`
    games per option (estimate.py), seats playing `policies` (kernels.GREEDY/SOLO per seat;
    default all GREEDY).  model: how the exact search models the other seats, "best" (each
    maximises its own chance) or "greedy" (the most valuable chip, as the rollouts play every
    seat).  horizon: a HorizonTable to read, else the one saved in `tables` (if any)."""
    if model not in multi_exact.MODELS:
        raise ValueError(f"opponent_model must be one of {', '.join(multi_exact.MODELS)}, "
                         f"got {model!r}")
    if games is not None and (isinstance(games, bool) or not isinstance(games, int)
                              or not 2 <= games <= MAX_GAMES):
        raise ValueError(f"games must be a whole number 2-{MAX_GAMES}, got {games!r}")
    roll, rolls_left = checked_roll(rules, dice, rolls_left)
    goal = SeatWinGoal(games=games, seed=seed, model=model)
    if horizon is None and table.players == 2 and dense_rules(rules):
        horizon = multi_horizon.cached(rules, tables)
    answer = None
    if limit != 0:
        answer = _exact(table, rules, roll, rolls_left, limit, model, horizon)
    if answer is None:
        answer = estimate(table, rules, roll, rolls_left, GAMES if games is None else games,
                          seed, policies, solo_values, horizon)
        answer["method"], answer["play"] = _estimate_method(answer, table, horizon)
    position = {"players": table.players, "to_move": table.to_move,
                "round_chip_taken": table.taken, "chips": table.counts()}
    if roll is not None:
        position.update(dice=list(_dice.KEEPS[roll]), rolls_left=rolls_left)
    note = None
    if (horizon is None and table.players == 2 and dense_rules(rules)
            and table.in_play > multi_horizon.DEFAULT_TOP):
        note = ("no horizon table saved: estimates play on to the end of the game and exact "
                "solves start from one chip; `kniffel solve --rules dice-duel --objective "
                "horizon` builds it")
    advice = Advice(rules.key, None, None, answer["options"], goal, position,
                    answer["probability"], answer["method"], answer.get("interval"),
                    note=note, games=answer.get("games"))
    advice.duel = {key: answer[key] for key in ("play", "horizon", "close_call", "screen_games")
                   if key in answer}
    return advice


def _estimate_method(answer, table, horizon):
    """(method, play) of an estimate: how it was played out, and under whose play its chance
    holds."""
    ends = (f"exact from {horizon.top} chips in play on (horizon table)"
            if horizon is not None and table.players == 2 else "to the end of the game")
    games, decided = answer["games"], answer["decide_games"]
    # the decision stage grows on a close call (estimate.py): its games as played, not as asked
    stage = (f"{answer['screen_games']} games per option, {decided} more for the greedy choice "
             f"and the best {CANDIDATES}, " if decided else "")
    method = (f"estimate: {stage}{games} fresh for the chance shown; every seat plays the "
              f"greedy rule, {ends}")
    if horizon is not None and table.players == 2:
        answer["horizon"] = horizon.top
        return method, "greedy_then_best"
    return method, "greedy"


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


def _exact(table, rules, roll, rolls_left, limit, model, horizon):
    """The exact answer, or None when the game left is over the limit."""
    if model == "best" and table.players == 2 and dense_rules(rules):
        solver = cached_solver(table, rules, horizon, DENSE_LIMIT if limit is None else limit)
        if solver is None:
            return None
        answer = _exact_answer(solver, table, rules, roll, rolls_left)
        answer["method"] = solver.method()
        answer["play"] = "best"
        return answer
    limit = multi_exact.EXACT_LIMIT if limit is None else limit
    if size_bound(table) > limit:
        return None
    with shared_solver(table, rules, limit, model) as solver:
        answer = _exact_answer(solver, table, rules, roll, rolls_left)
        others = "each seat maximising its own chance" if model == "best" else \
            "the other seats taking the most valuable chip"
        answer["method"] = f"exact over {len(solver.memo)} positions, {others}"
        answer["play"] = "best" if model == "best" else "greedy_others"
        return answer


def _exact_answer(solver, table, rules, roll, rolls_left):
    mover = table.to_move
    answer = {"probability": float(solver.start(table)[mover])}
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
