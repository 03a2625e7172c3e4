"""Monte-Carlo play of whole games: the optimal strategy of a solved table, or a greedy baseline."""
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from tqdm import tqdm

from .. import dice
from ..dice import sub_keep_indices
from ..engine.seeded_dice import seed_games
from ..engine.threads import run_parallel
from ..rules.scoring import upper_bonus_reached
from . import simulate_kernels as kernels
from .summary import Tally


@lru_cache(maxsize=1)
def sub_keep_table():
    """sub_keeps[r, i]: the distinct keeps (0-5 dice) that roll r can hold, padded with -1.

    The order is the preference among keeps of equal value, the same as the advisor's: fewest
    dice first, holding all five (stopping) last.  It matters: equal expected values can hide
    different score distributions."""
    table = np.full((dice.N_ROLLS, 32), -1, dtype=np.int64)
    for r in range(dice.N_ROLLS):
        found = sub_keep_indices(r)[1].tolist() + [r]  # holding all five: stop
        table[r, : len(found)] = found
    return table


@dataclass
class Games:
    """Simulated games: the seed that played them and each game's final score."""
    seed: int
    scores: np.ndarray  # final score of each game

    @property
    def mean(self):
        return float(self.scores.mean())

    @property
    def standard_error(self):
        return float(self.scores.std(ddof=1) / np.sqrt(len(self.scores)))


@dataclass
class Simulation(Games):
    upper_bonus: np.ndarray  # bool: the upper bonus was earned
    extra_bonuses: np.ndarray  # extra-Kniffel bonuses paid
    kniffel_fifty: np.ndarray  # bool: the Kniffel box got 50
    jokers_used: np.ndarray  # Knobeln jokers played


STRATEGIES = ("optimal", "greedy", "heuristic")
GAMES_A_BLOCK = 1_000_000  # games at a time in simulate_tally: about 70 MB, whatever the game count


def simulate(table, games, seed=0, threads=None, strategy="optimal", progress=False):
    """Play `games` games under `strategy` ("optimal": the decisions of `table`; "greedy": keep
    the most common face, fill the box with the most points now; "heuristic": the rule list of
    a sensible human, strategy/heuristic.py).  Reproducible for a given
    seed, whatever the number of threads.  progress: a tqdm bar on stderr (None: on a terminal)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    with _bar(games, strategy, progress) as bar:
        return _play(table, 0, games, seed, threads, strategy, bar)


def simulate_tally(table, games, seed=0, threads=None, strategy="optimal", progress=False,
                   block=GAMES_A_BLOCK):
    """The Tally (score histogram, event counts) of `games` games as `simulate` plays them, in
    blocks of `block` games: bounded memory for any number of games, and the same games, so
    the same figures, as one call of `simulate`."""
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    tally = Tally(seed)
    with _bar(games, strategy, progress) as bar:
        for first in range(0, games, block):
            tally.add(_play(table, first, min(block, games - first), seed, threads, strategy, bar))
    return tally


def _bar(games, strategy, progress):
    disable = None if progress is None else not progress
    return tqdm(total=games, unit="game", desc=f"{strategy} play", disable=disable, leave=False)


def _play(table, first_game, games, seed, threads, strategy, bar):
    """Games first_game .. first_game + games - 1 -> Simulation.  Each game is seeded by (seed,
    its number) alone and played on its own, so blocks of games play the same games as one."""
    rules = table.rules
    scores = np.zeros(games, dtype=np.int64)
    upper_bonus = np.zeros(games, dtype=np.bool_)
    extra = np.zeros(games, dtype=np.int64)
    fifty = np.zeros(games, dtype=np.bool_)
    jokers = np.zeros(games, dtype=np.int64)
    rng = np.empty(games, dtype=np.uint64)
    if strategy == "heuristic":
        from ..strategy.heuristic import heuristic
        from ..strategy.policy_eval import play as play_rules
        played = play_rules(rules, heuristic(rules), games, seed, threads, bar, first_game)
        return Simulation(seed, played.scores, played.upper_bonus, played.extra_bonuses,
                          played.kniffel_fifty, played.jokers_used)
    # as uint64 whatever its size: numba compiles the kernel once, for the type of the first
    # seed it meets, and a seed past 2**63 would not fit an int64 one
    seed_games(first_game, np.uint64(seed), rng)
    if strategy == "greedy":
        game, moves = rules.kernel_arrays(), dice.kernel_arrays()

        def play(part):
            kernels._simulate_greedy(rng[part], table.values, game, moves, rules.rolls_per_turn,
                                     dice.EMPTY_KEEP, scores[part], upper_bonus[part],
                                     extra[part], fifty[part])
            bar.update(part.stop - part.start)

        run_parallel(play, games, threads)
    else:
        _play_optimal(table, rng, scores, upper_bonus, extra, fifty, jokers, threads, bar)
    return Simulation(seed, scores, upper_bonus, extra, fifty, jokers)


def _play_optimal(table, rng, scores, upper_bonus, extra, fifty, jokers, threads, bar):
    """All games in step, turn by turn: games with the same filled boxes share the turn's keep
    values (one column per distinct state), which is most of the work.  Each thread plays its
    own block of games, so sharing stays within a block."""
    rules = table.rules
    game, moves, sub_keeps = rules.kernel_arrays(), dice.kernel_arrays(), sub_keep_table()
    games = len(rng)
    filled = np.zeros(games, dtype=np.int64)
    aux = np.full(games, rules.start_aux, dtype=np.int64)
    upper = np.zeros(games, dtype=np.int64)
    upper_sum = np.zeros(games, dtype=np.int64)
    per_turn = games / rules.n_boxes
    for _ in range(rules.n_boxes):
        def play(part):
            kernels._simulate_turn(table.values, game, moves, sub_keeps, rules.rolls_per_turn,
                                   dice.EMPTY_KEEP, filled[part], aux[part], upper[part],
                                   upper_sum[part], scores[part], extra[part], jokers[part],
                                   rng[part], fifty[part])

        run_parallel(play, games, threads, per_thread=1)
        bar.update(per_turn)
    upper_bonus[:] = upper_bonus_reached(upper_sum, rules.upper_bonus_threshold)
