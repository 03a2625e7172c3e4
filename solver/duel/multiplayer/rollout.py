"""Estimated chances to win in the multiplayer Dice Duel: each option played out to the end of
the game many times, every seat (the one to move too, after the option) by a fast policy.

The fast policy takes the most valuable chip the dice give and keeps dice for the most valuable
chip at the end of the turn (GREEDY); the tournament also seats a player who follows the solo
game's optimal table (SOLO).  Game g of every option throws dice from the same seed (common
random numbers), so differences between options are measured more sharply than the chances.
An estimate is the mean win share of its games, with a 95% Wilson interval.
"""
import time
from collections import namedtuple
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from math import sqrt

import numpy as np

from ... import dice
from ...engine.threads import default_threads
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
    """Plays options of one decision out, in chunks, until a time budget or a game count is
    spent; the same games (seeds) for every option."""

    def __init__(self, table, rules, seed=0, policies=None, solo_values=NO_SOLO, threads=None):
        self.rules = rules
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
                    kernel_moves(), self.sub_keeps, out)
        return out

    def games(self, options, count):
        """The mover's share in each of games 0..count-1 of every option (options x count)."""
        return np.array([self._play(o, 0, count)[:, self.to_move] for o in options])

    def run(self, options, budget=1.5, games=None, chunk=64):
        """Sum of shares per option (options x seats) and the games played each.  Plays chunks of
        `chunk` games of every option until `games` (if given) or `budget` seconds are spent."""
        n_games = 0
        totals = np.zeros((len(options), len(self.arrays[2])))
        start = time.perf_counter()
        with ThreadPoolExecutor(max_workers=self.threads) as pool:
            while True:
                size = chunk if games is None else min(chunk, games - n_games)
                if size <= 0:
                    break
                parts = pool.map(lambda o: self._play(o, n_games, size).sum(axis=0), options)
                totals += np.array(list(parts))
                n_games += size
                if games is None and time.perf_counter() - start >= budget:
                    break
        return totals, n_games
