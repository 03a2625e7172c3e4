"""Seeded games of several players who play for points, all games in step, turn by turn (the
simulation's kernel), for tournaments against a coach who takes its own turns in between
(benchmarks/win_tournament.py), and the win shares of such games.  The coach plays through its
own advice (coach_turn: any policy, a game at a time) or compiled (coach_turns: the win coach's
approximation or the risk dial, every game at once, about a millisecond a game)."""
import math
from types import SimpleNamespace

import numpy as np

from .. import dice
from ..engine.seeded_dice import seed_games
from ..engine.states import Position, State
from ..engine.threads import run_parallel
from ..rules import scoring
from ..rules.bounds import score_bound
from . import coach_kernels
from . import simulate_kernels as kernels
from .simulate import sub_keep_table


class Players:
    """The players' state arrays, one row per seat and game: games first_game, first_game + 1,
    ... of the seed (a game's dice depend on its number only, so a run in parts plays the same
    games as one run)."""

    def __init__(self, rules, n_seats, games, seed, first_game=0):
        shape = (n_seats, games)
        self.filled = np.zeros(shape, dtype=np.int64)
        self.aux = np.full(shape, rules.start_aux, dtype=np.int64)
        self.upper = np.zeros(shape, dtype=np.int64)
        self.upper_sum = np.zeros(shape, dtype=np.int64)
        self.total = np.zeros(shape, dtype=np.int64)
        self.extras = np.zeros(shape, dtype=np.int64)
        self.used = np.zeros(shape, dtype=np.int64)
        self.fifty = np.zeros(shape, dtype=np.bool_)
        self.rng = np.empty(shape, dtype=np.uint64)
        for seat in range(n_seats):
            row = np.empty(games, dtype=np.uint64)
            seed_games(first_game, np.uint64(seed * 1000 + seat), row)
            self.rng[seat] = row

    def turn(self, table, seat):
        """Every game's seat `seat` plays one turn for points."""
        rules = table.rules
        args = [a[seat] for a in (self.filled, self.aux, self.upper, self.upper_sum, self.total,
                                  self.extras, self.used, self.rng, self.fifty)]
        kernels._simulate_turn(table.values, rules.kernel_arrays(), dice.kernel_arrays(),
                               sub_keep_table(), rules.rolls_per_turn, dice.EMPTY_KEEP, *args)
        for a, name in zip(args, ("filled", "aux", "upper", "upper_sum", "total", "extras",
                                  "used", "rng", "fifty")):
            getattr(self, name)[seat] = a

    def state(self, rules, seat, game):
        filled = int(self.filled[seat, game])
        return State(filled, int(self.aux[seat, game]), int(self.upper[seat, game]),
                     int(self.upper_sum[seat, game]), int(self.total[seat, game]),
                     rules.n_boxes - bin(filled).count("1"))


class RiskDial:
    """Candidate (c) of issue 24, the best published heuristic (dlangk/yatzy's variance-scaled
    risk dial): each turn for the exponential utility exp(theta x), theta = the expected final
    score the coach trails the leading other player by over the sum of both variances, clamped
    to [LOW, HIGH], the nearest of THETAS (their grid), 0 in the first FROM_TURN turns.  Holds
    the certainty equivalents of every theta (objective.CertaintyEquivalent, seconds each)."""

    THETAS = (-0.05, -0.04, -0.03, -0.02, -0.015, -0.01, -0.005, 0.0,
              0.005, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.07)
    LOW, HIGH, FROM_TURN = -0.05, 0.07, 2

    def __init__(self, table, threads=None, within=0, low=LOW, high=HIGH, from_turn=FROM_TURN):
        """within: a filled-box mask, the tables of its sub-game only (tests)."""
        from ..engine.backward import backward_pass
        from ..engine.objective import CertaintyEquivalent
        self.thetas = np.array(self.THETAS)
        self.ce = np.empty((len(self.thetas),) + table.values.shape)
        for k, theta in enumerate(self.THETAS):
            self.ce[k] = table.values if theta == 0 else backward_pass(
                table.rules, CertaintyEquivalent(theta), threads=threads, within=within)[0]
        self.dial = np.array([self.THETAS.index(0.0), self.THETAS.index(0.01), low, high,
                              from_turn], dtype=np.float64)


def coach_turns(players, seat, turn, table, target=None, store=None, risk=None, threads=None):
    """The coach in seat `seat` takes its turn number `turn` (0: the first) in every game,
    against the others' cards as they stand (stats/coach_kernels.py): the win coach's
    approximation (candidate (a), what win_advice(force="approximate", low=False) plays, ranked
    by the upper end) with target, the TargetTable of table's rules, and store, a
    StateDistributions holding every state the others can meet (opponents.build(table, min_open=1));
    or with risk, a RiskDial, candidate (c).  The games are split over `threads` threads."""
    rules = table.rules
    if rules.params()[scoring.P_JOKERS]:
        raise ValueError("the compiled coach does not play Knobeln jokers")
    games = players.filled.shape[1]
    longest = score_bound(rules) + 2  # U[x] for every final score x, and U[M] = 1 past them
    if risk is not None:
        target, store = _NO_TARGET, _NO_STORE
        ce, thetas, dial = risk.ce, risk.thetas, risk.dial
    else:
        ce, thetas, dial = np.empty((0, 1, 1, 1)), np.zeros(0), np.zeros(5)

    def work(part):
        coach_kernels.coach_turns(
            np.arange(part.start, part.stop), seat, turn, players.filled, players.aux,
            players.upper, players.upper_sum, players.total, players.extras, players.rng,
            players.fifty, store.keys, store.low, store.start, store.probs, target.row_of,
            target.base, target.span, target.offset, target.w, target.expected, ce, thetas, dial,
            rules.kernel_arrays(), dice.kernel_arrays(), sub_keep_table(), rules.rolls_per_turn,
            dice.EMPTY_KEEP, np.empty(longest))

    run_parallel(work, games, threads, per_thread=1)


# stand-ins of a store and a target table, of their types, where the policy reads neither
_NO_STORE = SimpleNamespace(keys=np.zeros(0, dtype=np.int64), low=np.zeros(0, dtype=np.int64),
                            start=np.zeros(1, dtype=np.int64), probs=np.zeros(0))
_NO_TARGET = SimpleNamespace(
    row_of=np.zeros((1, 1, 1), dtype=np.int32), base=np.zeros(0, dtype=np.int64),
    span=np.zeros(0, dtype=np.int32), offset=np.zeros(0, dtype=np.int64),
    w=np.zeros(0, dtype=np.float32), expected=np.zeros((1, 1, 1), dtype=np.float32))


def coach_turn(decide, rules, position, opponents, rng):
    """One turn from `position` (a Position) of a player who asks decide(position, opponents,
    dice, rolls_left) for ranked options (the best first) and takes the best; the dice from the
    numpy Generator `rng`.  Returns the next Position."""
    dice = sorted(rng.integers(1, 7, 5).tolist())
    left = rules.rolls_per_turn - 1
    while True:
        best = decide(position, opponents, dice, left)[0]
        if best["action"] == "keep":
            dice = sorted(best["keep"] + rng.integers(1, 7, 5 - len(best["keep"])).tolist())
            left -= 1
            continue
        card = dict(position.card)
        card[best["box"]] = best["points"]
        paid = best.get("extra_bonus", 0) // rules.extra_bonus if rules.extra_bonus else 0
        return Position(card, position.kniffel_bonuses + paid, position.jokers_left)


def summarise(scores, seat):
    """The seat's win share (ties shared) with its 95% interval; head to head for 2 players."""
    games, n = scores.shape
    best = scores.max(axis=1)
    at_top = scores == best[:, None]
    share = np.where(at_top[:, seat], 1.0 / at_top.sum(axis=1), 0.0)
    mean, sd = float(share.mean()), float(share.std(ddof=1))
    half = 1.96 * sd / math.sqrt(games)
    out = {"games": games, "win_share": mean, "ci95": [mean - half, mean + half],
           "fair_share": 1.0 / n, "mean_score_seat": float(scores[:, seat].mean()),
           "mean_score_others": float(np.delete(scores, seat, axis=1).mean())}
    if n == 2:
        mine, other = scores[:, seat], scores[:, 1 - seat]
        wins, losses = int((mine > other).sum()), int((mine < other).sum())
        h2h = wins / max(1, wins + losses)
        out.update(wins=wins, losses=losses, draws=games - wins - losses, head_to_head=h2h,
                   head_to_head_se=math.sqrt(h2h * (1 - h2h) / max(1, wins + losses)))
    return out
