"""The exact expected score of playing by a rule list: a backward pass over every reachable
state in which each decision is the rule list's instead of the best one (policy evaluation), and
seeded games played by the same rules.

The evaluation visits the states of the solved table (the same reachable set) from the last box
back to the empty card, by the backward pass of engine/backward.py; each filled-box set is one
kernel call over its (aux, upper) columns.
"""
from dataclasses import dataclass

import numpy as np

from .. import dice
from ..dice import sub_keep_indices
from ..engine.backward import backward_pass
from ..engine.objective import Objective
from ..engine.seeded_dice import seed_games
from ..engine.threads import run_parallel
from . import policy_kernels as kernels
from .thumb import RuleList, compile_rules

_EMPTY = RuleList("none")


def _check_supported(rules):
    if rules.jokers:
        raise ValueError(f"{rules.key}: rules of thumb do not play Knobeln jokers")


def _sub_keeps():
    """sub_keeps[r]: the keeps roll r can hold, in the optimal player's tie order (fewest dice
    first, all five last), as stats.simulate.sub_keep_table has them."""
    table = np.full((dice.N_ROLLS, 32), -1, dtype=np.int64)
    for r in range(dice.N_ROLLS):
        found = sub_keep_indices(r)[1].tolist() + [r]
        table[r, : len(found)] = found
    return table


class PolicyObjective(Objective):
    """The expected score still to come when every decision is a rule list's (or, without one,
    the table's optimal decisions): a level's filled-box sets, each one kernel call."""

    name = "policy"

    def __init__(self, table, compiled, optimal):
        self.table, self.compiled, self.optimal = table, compiled, optimal

    def reachable(self, rules):
        return None  # the table's NaN say which states are reachable

    def values_array(self, rules, reachable):
        policy = np.full(self.table.values.shape, np.nan)
        full = (1 << rules.n_boxes) - 1
        policy[full] = np.where(np.isnan(self.table.values[full]), np.nan, 0.0)
        return policy

    def context(self, rules):
        return rules.kernel_arrays(), dice.kernel_arrays(), _sub_keeps()

    def solve_sets(self, rules, sets, values, context):
        game, moves, sub_keeps = context
        c = self.compiled
        kernels._evaluate_sets(sets, self.table.values, values, game, moves, sub_keeps,
                               rules.rolls_per_turn, dice.EMPTY_KEEP, c.keep_index, c.keep_when,
                               c.box_of, c.box_min, c.box_when, c.box_par, c.aim_gain, c.aim_keep,
                               self.optimal)


def policy_values(table, rule_list=None, threads=None, progress=False, within=0, optimal=""):
    """The expected score still to come from every reachable state when every decision is taken
    by `rule_list` (None: by the optimal decisions of `table`, which gives table.values back up
    to rounding).  An array shaped like table.values, NaN where the table is.  within: a mask of
    filled boxes; only the states with those boxes filled are evaluated (a sub-game), the rest
    stay NaN.  optimal: "boxes" or "keeps" to take those decisions as the optimal player does
    and the others by the rules (where a rule list loses its points)."""
    rules = table.rules
    _check_supported(rules)
    bits = (kernels.OPTIMAL_BOXES | kernels.OPTIMAL_KEEPS if rule_list is None else
            {"": 0, "boxes": kernels.OPTIMAL_BOXES, "keeps": kernels.OPTIMAL_KEEPS}[optimal])
    objective = PolicyObjective(table, compile_rules(rule_list or _EMPTY, rules), bits)
    return backward_pass(rules, objective, progress, threads, within=within,
                         label=f"evaluating {getattr(rule_list, 'name', 'optimal')}")[0]


def evaluate(table, rule_list=None, threads=None, optimal=""):
    """The exact expected final score of a game played by `rule_list` from the empty card
    (optimal: see policy_values)."""
    return float(policy_values(table, rule_list, threads, optimal=optimal)[table.rules.start_index])


@dataclass
class RuleGames:
    """Seeded games played by a rule list (the fields of stats.simulate.Simulation)."""

    seed: int
    scores: np.ndarray
    upper_bonus: np.ndarray
    extra_bonuses: np.ndarray
    kniffel_fifty: np.ndarray
    jokers_used: np.ndarray


def play(rules, rule_list, games, seed=0, threads=None, bar=None, first_game=0):
    """Play games first_game .. first_game + games - 1 by `rule_list`, each seeded by (seed, its
    number) alone: reproducible for a seed whatever the threads or blocks."""
    _check_supported(rules)
    compiled = compile_rules(rule_list, rules)
    scores = np.zeros(games, dtype=np.int64)
    upper_bonus = np.zeros(games, dtype=np.bool_)
    extra = np.zeros(games, dtype=np.int64)
    fifty = np.zeros(games, dtype=np.bool_)
    rng = np.empty(games, dtype=np.uint64)
    seed_games(first_game, np.uint64(seed), rng)  # uint64 as in stats/simulate.py
    game, moves = rules.kernel_arrays(), dice.kernel_arrays()

    def work(part):
        kernels._play_rules(rng[part], game, moves, rules.rolls_per_turn, dice.EMPTY_KEEP,
                            compiled.keep_index, compiled.keep_when, compiled.box_of,
                            compiled.box_min, compiled.box_when, compiled.box_par,
                            compiled.aim_gain, compiled.aim_keep, scores[part],
                            upper_bonus[part], extra[part], fifty[part])
        if bar is not None:
            bar.update(part.stop - part.start)

    run_parallel(work, games, threads)
    return RuleGames(seed, scores, upper_bonus, extra, fifty, np.zeros(games, dtype=np.int64))
