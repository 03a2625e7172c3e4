"""Estimated chances to win in the multiplayer Dice Duel: each option played out to the end of
the game many times, every seat (the one to move too, after the option) by a fast policy.

The fast policy takes the most valuable chip the dice give and keeps dice for the most valuable
chip at the end of the turn (GREEDY); the tournament also seats a player who follows the solo
game's optimal table (SOLO).  Game g of every option throws dice from the same seed (common
random numbers), so differences between options are measured more sharply than the chances.
An estimate is the mean win share of its games, with a 95% Wilson interval.
"""
from collections import namedtuple
from functools import lru_cache
from math import sqrt

import numpy as np

from ... import dice
from ...engine.cancel import CANCEL, Cancelled, cancel_check
from ...engine.threads import default_threads, map_parallel
from ...stats.simulate import sub_keep_table
from ..chips import VALUES
from . import kernels as mk
from .game import PLATE

Z95 = 1.959963984540054


MultiGame = namedtuple("MultiGame", "params roll_category category_mask values")
MultiGame.__doc__ = """The multiplayer rules as the kernels take them: params (rolls_per_turn,
may_decline_chip, set_aside == "turn", last_chip_bonus, gold, silver, full_stack, ties ==
"share"), each roll's chip category, each category's mask, the chip values."""


def game_arrays(rules):
    """The rules as the kernels take them (a MultiGame)."""
    roll_category, category_mask = rules.categories
    params = np.array([rules.rolls_per_turn, rules.may_decline_chip, rules.set_aside == "turn",
                       rules.last_chip_bonus, rules.gold_bonus, rules.silver_bonus,
                       rules.full_stack_bonus, rules.ties == "share"], dtype=np.int64)
    return MultiGame(params, roll_category, category_mask, np.array(VALUES, dtype=np.int64))


@lru_cache(maxsize=None)
def kernel_moves():
    """The dice tables as the kernels take them (dice.Moves)."""
    return dice.kernel_arrays()


@lru_cache(maxsize=8)
def _cached(rules):
    game = game_arrays(rules)
    greedy = mk.greedy_tables(game.values.astype(np.float64), game.roll_category,
                              game.category_mask, kernel_moves(),
                              rules.rolls_per_turn)
    return game, greedy, sub_keep_table()


NO_SOLO = np.zeros(1)  # the solo table, when no seat plays by it
MAX_LEVELS = 8  # the kernels take a horizon table's levels as this many arrays (horizon.MAX_TOP)
PART = 128  # the most games of one kernel call: a server's guard (engine/cancel.CANCEL) is asked
# between them, so a stopped request ends within milliseconds; the dice are the same either way


def horizon_arrays(horizon):
    """(universe, levels, top) of a horizon table as the rollout kernel takes it: the levels
    padded to MAX_LEVELS read-only float32 arrays (one array type, one compiled kernel); no
    table (None): top 0, so the games play on to the end."""
    if horizon is None:
        return _no_horizon()
    levels = [_read_only(np.asarray(level, dtype=np.float32)) for level in horizon.levels]
    levels += [_read_only(np.zeros(0, dtype=np.float32))] * (MAX_LEVELS - len(levels))
    return horizon.universe, tuple(levels), horizon.top


@lru_cache(maxsize=1)
def _no_horizon():
    from .universe import empty_universe
    return empty_universe(), (_read_only(np.zeros(0, dtype=np.float32)),) * MAX_LEVELS, 0


def _read_only(array):
    array.flags.writeable = False
    return array


def wilson(mean, n):
    """95% Wilson interval of a share measured as `mean` over n games."""
    if n == 0:
        return [0.0, 1.0]
    centre = (mean + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
    half = Z95 / (1 + Z95 ** 2 / n) * sqrt(mean * (1 - mean) / n + Z95 ** 2 / (4 * n * n))
    return [max(0.0, centre - half), min(1.0, centre + half)]


def table_arrays(table):
    """(plate, aside, seats) of a multi_game.Table as int64 arrays."""
    return (np.array(table.plate, dtype=np.int64), np.array(table.aside, dtype=np.int64),
            np.array(table.seats, dtype=np.int64))


def move_code(move):
    """A multi_game move as the kernels write it: (type or NO_CHIP, source 0 plate / 1 aside)."""
    if move[0] == "no_chip":
        return mk.NO_CHIP, 0
    return move[1], 0 if move[2] == PLATE else 1


class Rollouts:
    """Plays options of one decision out, a given number of games each; game g of every
    option throws the same dice (its seed and g)."""

    def __init__(self, table, rules, seed=0, policies=None, solo_values=NO_SOLO, threads=None,
                 horizon=None):
        self.rules = rules
        self.horizon = horizon_arrays(horizon)
        self.arrays = table_arrays(table)
        self.to_move, self.taken = table.to_move, table.taken
        self.game, self.greedy, self.sub_keeps = _cached(rules)
        self.seed = seed
        self.policies = np.array(policies if policies is not None else [mk.GREEDY] * table.players,
                                 dtype=np.int64)
        self.solo_values = solo_values
        self.threads = threads or default_threads()

    def _play(self, option, first, count):
        """Shares (count x seats) of games first.. of one option: (roll, left, keep, t, s)."""
        roll, left, keep, t, s = option
        out = np.empty((count, len(self.arrays[2])))
        plate, aside, seats = self.arrays
        mk.rollouts(plate, aside, seats, self.to_move, self.taken, roll, left, keep, t, s, first,
                    self.seed, self.policies, self.game, self.greedy, self.solo_values,
                    kernel_moves(), self.sub_keeps, self.horizon, out)
        return out

    def games(self, options, count, first=0):
        """The seats' shares in games first..first+count-1 of every option (options x count x
        seats), on the runner's threads (an option's games split when options are few, and in
        parts of at most PART games: game g throws the same dice whoever plays it).  Cancelled
        when the cancel check of engine/cancel.CANCEL says so between two parts."""
        out = np.empty((len(options), count, len(self.arrays[2])))
        pieces = max(1, -(-self.threads // max(1, len(options))), -(-count // PART))
        bounds = [count * i // pieces for i in range(pieces + 1)]
        parts = [(i, lo, hi) for i in range(len(options)) for lo, hi in zip(bounds, bounds[1:])
                 if hi > lo]
        stop = cancel_check(CANCEL.get())  # read here: the threads do not share the context

        def play(part):
            if stop():
                raise Cancelled("the rollouts were stopped")
            i, lo, hi = part
            out[i, lo:hi] = self._play(options[i], first + lo, hi - lo)

        map_parallel(play, parts, self.threads)
        return out
