"""Exact chances to win of the 2-player Dice Duel by a dense backward pass: every position still
reachable from the one asked, numbered arithmetically (universe.py) and solved level by level
of chips in play, many positions side by side (dense_kernels.py), through the package's one
backward pass (engine/backward.py).

It answers what exact.ExactSolver answers (the same interface: start, outcome, turn), for 2
players with shared ties, where the game is zero-sum; other rules and more players stay with
exact.py.  Within a level, the positions of one j-vector go by chips set aside, most first, and
each position's four codes (seat to move, round's flag) in the order the turns without a chip
need: (seat 1, no chip yet), (seat 0, no chip yet), (seat 1, a chip taken), (seat 0, a chip
taken); the moves that take a chip read the level below.  When the horizon table
(horizon.py) holds the lower levels, the solve starts above it and reads it.
"""
import threading

import numpy as np

from ... import dice
from ...engine.backward import backward_pass
from ...engine.objective import Objective
from . import game as mg
from .dense_kernels import solve_superblocks
from .exact import better
from .kernels import turn_by
from .rollout import game_arrays
from .universe import CODES, position_index, reachable_universe, superblocks

DENSE_LIMIT = 320_000  # the most work a position's own dense solve takes on: values (positions
# times codes) to solve, each counted twice above a horizon table (its reads miss the cache):
# about 1 s on 2 idle cores at worst (benchmarks/duel_dense.py)
TABLE_WEIGHT = 2


def dense_rules(rules):
    """Whether the dense solver applies to `rules` (2 players, ties shared: zero-sum)."""
    return rules.ties == "share"


class LevelValues:
    """The value arrays of a dense solve, one per level (chips in play), float64 while solved."""

    def __init__(self):
        self.levels = {}
        self.current = None


class DenseObjective(Objective):
    """The backward pass's objective of a dense solve of `universe`, levels lowest..highest
    (default: its top); `below`: (universe, level array) read as level lowest - 1 (the horizon
    table's), or None when the solve starts at level 1."""

    name = "duel_dense"

    def __init__(self, universe, lowest=1, below=None, highest=None):
        self.universe, self.lowest, self.below = universe, lowest, below
        self.highest = universe.top if highest is None else highest
        self.store = LevelValues()

    def reachable(self, rules):
        return None

    def levels(self, rules, within=0):
        found = superblocks(self.universe)
        return [(k, found[k]) for k in range(self.lowest, self.highest + 1)]

    def values_array(self, rules, reachable):
        return self.store

    def context(self, rules):
        return game_arrays(rules), dice.kernel_arrays()

    def level_size(self, k):
        start = self.universe.level_start
        return CODES * int(start[k + 1] - start[k])

    def start_level(self, rules, items, values, context):
        k = _level(items[0])
        values.current = k
        values.levels[k] = np.full(self.level_size(k), np.nan)

    def below_of(self, values, k):
        """(universe, array) that level k's takes read."""
        if k == self.lowest and self.below is not None:
            return self.below
        return self.universe, values.levels.get(k - 1, _EMPTY)

    def solve_sets(self, rules, items, values, context):
        k = values.current
        below, below_values = self.below_of(values, k)
        solve_superblocks(items, k, self.universe, values.levels[k], below, below_values,
                          below is self.universe, *context)


_EMPTY = np.zeros(0)


def _level(jcode):
    return sum(int(d) for d in np.base_repr(int(jcode), 5))


class DenseSolver:
    """The chances to win of both seats at every position reachable from `table` (2 players,
    shared ties), solved when made; `horizon`: a loaded horizon table (horizon.py) whose levels
    are read instead of solved.  Interface of exact.ExactSolver: start, outcome, turn."""

    def __init__(self, table, rules, horizon=None, threads=None):
        if table.players != 2 or not dense_rules(rules):
            raise ValueError("the dense solver is for 2 players with shared ties")
        self.rules = rules
        self.horizon = horizon
        self.game = game_arrays(rules)
        self.moves = dice.kernel_arrays()
        self.universe = None
        self.levels = {}
        self.positions = 0
        if self.horizon is None or table.in_play > self.horizon.top:
            self._solve(table, threads)

    def _solve(self, table, threads):
        universe = reachable_universe(table.plate, table.aside, table.seats)
        lowest, below = 1, None
        if self.horizon is not None:
            lowest = self.horizon.top + 1
            below = (self.horizon.universe, self.horizon.level(self.horizon.top))
        objective = DenseObjective(universe, lowest, below)
        backward_pass(self.rules, objective, progress=False, threads=threads)
        self.universe, self.levels = universe, objective.store.levels
        self.positions = sum(int(np.count_nonzero(~np.isnan(v))) for v in self.levels.values())

    def covers(self, table):
        """Whether this solve (or its horizon table) holds `table`'s chances."""
        if self.horizon is not None and table.in_play <= self.horizon.top:
            return True
        return (self.universe is not None and table.in_play in self.levels
                and position_index(self.universe, *_arrays(table)) >= 0)

    def method(self):
        """How the chances were found, as the advice's "method" says it."""
        table = (f"horizon table of every position with at most {self.horizon.top} chips in "
                 "play" if self.horizon is not None else None)
        if not self.positions:
            return f"exact: {table}"
        return (f"exact: dense solve of {self.positions:,} positions".replace(",", " ")
                + (f" above the {table}" if table else "") + ", both seats playing their best")

    def mover_chance(self, table):
        """The chance of the seat to move at the start of its turn in `table`."""
        k = table.in_play
        if self.horizon is not None and k <= self.horizon.top:
            return self.horizon.chance(table)
        index = position_index(self.universe, *_arrays(table))
        if index < 0 or k not in self.levels:
            raise KeyError(f"position {table.spec()} is not reachable from this solve")
        code = table.to_move + 2 * flag(table, self.rules)
        return float(self.levels[k][CODES * (index - self.universe.level_start[k]) + code])

    def start(self, table):
        """Both seats' chances at the start of the turn (a numpy vector, seat order)."""
        mine = self.mover_chance(table)
        return np.array([mine, 1.0 - mine] if table.to_move == 0 else [1.0 - mine, mine])

    def outcome(self, table, move, kniffel):
        """The chances after `move` ends the turn (the final shares when it ends the game)."""
        after = mg.after_move(table, move, kniffel, self.rules)
        if after.last is not None:
            return np.array(mg.win_shares(after, self.rules))
        return self.start(after)

    def turn(self, table, with_stages=False):
        """(stages, start) as exact.ExactSolver.turn: the chances of every keep with s rolls
        to come, worked for this one position from the solved values."""
        roll_category, category_mask = self.rules.categories
        values = np.empty((len(category_mask), 2))
        for c, mask in enumerate(category_mask.tolist()):
            best = None
            for move in mg.end_moves(table, mask, c == 0, self.rules):
                value = self.outcome(table, move, c == 0)
                if best is None or better(best, value, table.to_move):
                    best = value
            values[c] = best
        final = np.ascontiguousarray(values[roll_category])
        stages = np.empty((self.rules.rolls_per_turn, dice.N_KEEPS, 2))
        start = np.empty(2)
        turn_by(final, table.to_move, self.moves, self.rules.rolls_per_turn, stages, start)
        return (stages if with_stages else None), start


def flag(table, rules):
    """The round's flag as the values hold it: with set_aside = "turn" rounds do not matter
    (game.after_move leaves the flag set after a Kniffel; the values are those without it)."""
    return table.taken and rules.set_aside == "round"


def _arrays(table):
    return (np.array(table.plate, dtype=np.int64), np.array(table.aside, dtype=np.int64),
            np.array(table.seats[0], dtype=np.int64))


_CACHE = {}  # (rules, horizon top) -> the last DenseSolver: a game's later positions are in it
_CACHE_LOCK = threading.Lock()


def cached_solver(table, rules, horizon=None, limit=DENSE_LIMIT):
    """A DenseSolver that holds `table`: the last one made for these rules and horizon when it
    does (the positions of one game follow each other), else a new one (plan: reading the
    horizon table or not, whichever is less work); None when that would be more than `limit`."""
    key = (rules, horizon.top if horizon is not None else 0)
    with _CACHE_LOCK:
        solver = _CACHE.get(key)
        if (solver is not None and solver.horizon in (None, horizon)
                and solver.covers(table)):
            return solver
        reads, work = plan(table, horizon)
        if work > limit:
            return None
        solver = DenseSolver(table, rules, reads)
        _CACHE[key] = solver
        return solver


def plan(table, horizon=None):
    """(the horizon table to read or None, the work as DENSE_LIMIT counts it) of the cheaper
    dense solve of `table`: above the table (its values counted TABLE_WEIGHT times: its reads
    miss the cache), or every level from one chip up."""
    plain = dense_size(table)
    if horizon is None:
        return None, plain
    if table.in_play <= horizon.top:
        return horizon, 0
    above = TABLE_WEIGHT * dense_size(table, horizon.top)
    return (horizon, above) if above < plain else (None, plain)


def dense_work(table, horizon=None):
    """The work of the cheaper dense solve of `table` (plan)."""
    return plan(table, horizon)[1]


def dense_size(table, horizon_top=0):
    """The values (positions times codes) a dense solve of `table` computes above level
    `horizon_top`: what it costs, known before it runs."""
    universe = reachable_universe(table.plate, table.aside, table.seats)
    start = universe.level_start
    return CODES * int(start[universe.top + 1] - start[min(horizon_top, universe.top) + 1])
