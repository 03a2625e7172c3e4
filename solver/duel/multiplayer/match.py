"""Whole multiplayer Dice Duel games between seats that play by different strategies: the advisor
(the advice as a user gets it), the greedy player (the most valuable chip each turn) and the
solo-optimal player adapted to these rules.  benchmarks/duel_tournament.py and
benchmarks/duel_calibration.py play many.

The fast seats play their turns in numba (kernels.play_turn); the advisor's turns run here, on
the same dice generator, so a game is fixed by its seed and the strategies."""
import time

import numpy as np

from ...dice import EMPTY_KEEP, KEEP_INDEX, KEEPS
from ...engine.seeded_dice import complete_roll, random_next
from . import game as mg
from . import kernels as mk
from .rollout import NO_SOLO, _cached, kernel_moves, move_code

ADVISOR = -1  # a seat's policy: the advisor (GREEDY, SOLO: kernels)


class Advisor:
    """A seat that takes the advice exactly as `kniffel advise` and the page give it
    (advice.win_chances with `games` per option and rollout seed `seed`, the horizon table
    `horizon`) and plays its first option.  It notes every advice it followed in `shown`: (seat,
    chance shown, exact, chips in play, seconds), for the calibration."""

    def __init__(self, rules, games=None, seed=0, horizon=None):
        self.rules, self.games, self.seed, self.horizon = rules, games, seed, horizon
        self.shown = []

    def new_game(self):
        self.shown = []

    def decide(self, table, roll, left):
        """("keep", keep index) or ("move", move) for the dice `roll` with `left` rolls to come."""
        from .advice import win_chances
        start = time.perf_counter()
        advice = win_chances(table, self.rules, list(KEEPS[roll]), left, games=self.games,
                             seed=self.seed, horizon=self.horizon)
        first = advice.options[0]
        self.shown.append((table.to_move, advice.probability, advice.exact, table.in_play,
                           time.perf_counter() - start))
        if first["action"] == "keep":
            return "keep", KEEP_INDEX[tuple(first["keep"])]
        return "move", mg.parse_move(first["then"] if first["action"] == "stop" else first)


def play_game(rules, policies, seed, advisor=None, solo_values=NO_SOLO):
    """One game from the empty table: policies[seat] is ADVISOR, GREEDY or SOLO.  Returns the
    seats' win shares (multi_game.win_shares)."""
    game, greedy, sub_keeps = _cached(rules)
    moves = kernel_moves()
    n = len(policies)
    plate = np.full(mg.N_TYPES, mg.CHIPS_PER_TYPE, dtype=np.int64)
    aside = np.zeros(mg.N_TYPES, dtype=np.int64)
    seats = np.zeros((n, mg.N_TYPES), dtype=np.int64)
    solo_work = np.empty((rules.rolls_per_turn, moves.add_die.shape[0], 1))
    policy = np.array(policies, dtype=np.int64)
    rng, _ = random_next(np.uint64(seed) * np.uint64(0x100000001B3) + np.uint64(7))
    to_move, taken, last = 0, False, -2
    if advisor is not None:
        advisor.new_game()
    while last == -2:
        if policy[to_move] != ADVISOR:
            to_move, taken, last, rng = mk.play_turn(plate, aside, seats, to_move, taken,
                                                     policy[to_move], rng, game, greedy,
                                                     solo_values, moves, sub_keeps, solo_work)
            rng = np.uint64(rng)  # numba hands a uint64 back as a Python int
            continue
        table = mg.Table(tuple(plate.tolist()), tuple(aside.tolist()),
                         tuple(map(tuple, seats.tolist())), to_move, taken)
        roll, rng = complete_roll(EMPTY_KEEP, rng, moves.add_die, moves.keep_size)
        rng = np.uint64(rng)
        left = rules.rolls_per_turn - 1
        while True:
            kind, what = advisor.decide(table, roll, left)
            if kind == "move":
                break
            roll, rng = complete_roll(what, rng, moves.add_die, moves.keep_size)
            rng = np.uint64(rng)
            left -= 1
        t, s = move_code(what)
        to_move, taken, last = mk.apply_move(plate, aside, seats, to_move, taken, t, s,
                                         game.roll_category[roll] == 0, game.params[2])
    out = np.empty(n)
    mk.shares(seats, last, game.params, game.values, out)
    return out


def calibration(rows, bins=10):
    """Shown against observed chances by bin of the shown chance: rows are (game, chance shown,
    share the seat won), one per decision.  Per bin: decisions, games, mean shown, mean observed
    and the standard error of observed - shown, clustered by game (the decisions of one game
    share its outcome)."""
    out = []
    rows = np.asarray(rows, dtype=np.float64).reshape(-1, 3)
    which = np.minimum((rows[:, 1] * bins).astype(np.int64), bins - 1)
    for b in range(bins):
        part = rows[which == b]
        if len(part) == 0:
            out.append({"bin": [b / bins, (b + 1) / bins], "decisions": 0})
            continue
        games, inverse = np.unique(part[:, 0], return_inverse=True)
        miss = np.bincount(inverse, weights=part[:, 2] - part[:, 1])  # per game, summed
        n = len(part)
        mean = miss.sum() / n
        counts = np.bincount(inverse)
        spread = np.sqrt(((miss - mean * counts) ** 2).sum()) / n if len(games) > 1 else None
        out.append({"bin": [b / bins, (b + 1) / bins], "decisions": n, "games": len(games),
                    "shown": float(part[:, 1].mean()), "observed": float(part[:, 2].mean()),
                    "miss": float(mean), "miss_se": None if spread is None else float(spread)})
    return out
