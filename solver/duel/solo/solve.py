"""Dice Duel: solve every state (one backward pass), and play games with the solved strategy.

Each turn ends in a state with fewer plate chips, or as many plate chips and fewer set aside
(taking a chip lowers the plate count; setting one aside moves it from plate to aside).  So
level = 2 * plate chips + set-aside chips falls by at least one every turn, and solving the
levels in rising order finds every state's successors already solved.
"""
import time
from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

from ... import dice
from ...engine.backward import backward_pass
from ...engine.objective import Objective
from ...engine.threads import run_parallel
from ...engine.values import ValueTable
from ...rules import RulesError
from ...stats.simulate import Games, sub_keep_table
from ..rules import CHIPS_PER_TYPE, N_TYPES, PRESETS, DuelRules, final_score
from ..states import N_STATES, all_states
from . import kernels as duel_kernels


def duel_rules(rules):
    """DuelRules or a Dice Duel preset name -> DuelRules (RulesError for anything else)."""
    if isinstance(rules, DuelRules):
        return rules
    if isinstance(rules, str) and rules in PRESETS:
        return PRESETS[rules]
    raise RulesError(f"{getattr(rules, 'key', rules)} is not a Dice Duel rule set")


class DuelObjective(Objective):
    """The solo Dice Duel's expected final score: values[state index] at the start of a turn.
    A level is 2 * plate chips + set-aside chips (module docstring), solved in rising order."""

    name = "duel"

    def reachable(self, rules):
        return None  # every state is solved

    def levels(self, rules, within=0):
        plate, aside = all_states()
        level = 2 * plate.sum(axis=1) + aside.sum(axis=1)
        live = np.flatnonzero(plate.sum(axis=1) > 0)
        live = live[np.argsort(level[live], kind="stable")]
        bounds = np.searchsorted(level[live], np.arange(level.max() + 2))
        return [(lev, live[bounds[lev]:bounds[lev + 1]]) for lev in range(1, level.max() + 1)]

    def values_array(self, rules, reachable):
        plate, aside = all_states()
        values = np.full(N_STATES, np.nan)
        over = plate.sum(axis=1) == 0
        values[over] = final_score(CHIPS_PER_TYPE - aside[over], rules)
        return values

    def context(self, rules):
        return rules.kernel_arrays(), dice.kernel_arrays()

    def solve_sets(self, rules, states, values, context):
        game, moves = context
        duel_kernels._solve_states(states, values, game, moves, rules.rolls_per_turn)


def solve(rules="dice-duel", progress=None, threads=None):
    """Solve every state of the solo Dice Duel; returns a ValueTable whose values[index] is the
    expected final score (chips, bonuses) at the start of a turn in state `index`.

    progress: True/False to force the tqdm bar on stderr on or off; None shows it on a terminal.
    threads: kernel calls run at once (default: every CPU); the values are the same for any."""
    rules = duel_rules(rules)
    start = time.perf_counter()
    values, _, level_seconds = backward_pass(rules, DuelObjective(), progress, threads)
    return ValueTable(rules, values, states=N_STATES, seconds=time.perf_counter() - start,
                      level_seconds=level_seconds)


@dataclass
class DuelSimulation(Games):
    mine: np.ndarray  # chips held at the end, per type
    last_chip: np.ndarray  # bool: the game's last move took the last plate chip
    turns: np.ndarray
    kniffels: np.ndarray


def simulate(table, games, seed=0, threads=None, progress=False):
    """Play `games` solo games with the optimal strategy of `table` (reproducible for a seed,
    whatever the number of threads)."""
    rules = duel_rules(table.rules)
    mine = np.zeros((games, N_TYPES), dtype=np.int64)
    last_chip = np.zeros(games, dtype=np.int64)
    turns = np.zeros(games, dtype=np.int64)
    kniffels = np.zeros(games, dtype=np.int64)
    game, moves, sub_keeps = rules.kernel_arrays(), dice.kernel_arrays(), sub_keep_table()

    def play(block):
        duel_kernels._simulate(block.start, seed, table.values, game, moves, sub_keeps,
                               rules.rolls_per_turn, dice.EMPTY_KEEP, mine[block], last_chip[block],
                               turns[block], kniffels[block])

    chunk = 5_000  # games between progress updates
    with tqdm(total=games, unit="game", desc="optimal play", leave=False,
              disable=None if progress is None else not progress) as bar:
        for first in range(0, games, chunk):
            stop = min(games, first + chunk)
            run_parallel(lambda part: play(slice(first + part.start, first + part.stop)),
                         stop - first, threads)
            bar.update(stop - first)
    scores = final_score(mine, rules) + rules.last_chip_bonus * last_chip
    return DuelSimulation(seed, scores, mine, last_chip.astype(bool), turns, kniffels)
