"""Exact chances to win in the multiplayer Dice Duel, for positions with few chips in play.

Backward induction over the positions the game can still reach, in which every seat maximises
its own chance to win (ties between its options go to the next seats in turn order, see
kernels.prefers).  For 2 players with shared ties the game is zero-sum and the values are
the game's value.  The positions form no cycle, so the search ends: every turn takes a chip
(fewer chips in play), or hands the turn on within the round, or ends a round, which either sets
a plate chip aside (fewer plate chips) or, after a round with a chip, starts a new round with the
flag cleared, from which the flag comes back only by taking a chip.  So (chips in play, plate
chips, [flag, seat] within the round) falls along every path: a well-founded order.

A path can be a few hundred turns long, deeper than Python's recursion limit, so the search
keeps its own stack: a position's turn is a generator that yields each later position whose
chances it needs and receives them, and `ExactSolver._run` solves those positions depth first,
in the order a recursion would, with one stack entry per position being solved.

Plain Python walks the positions (the rules of game.py); each turn's keep arithmetic runs
in the numba kernel kernels.turn_by.
"""
import threading
from contextlib import contextmanager
from math import comb

import numpy as np

from ... import dice
from . import game as mg
from .kernels import greedy_key, prefers, turn_by, turn_greedy

# the largest size_bound solved exactly: about 2 s at worst (benchmarks/duel_multi.py)
EXACT_LIMIT = 30_000


class TooLarge(Exception):
    """The position has more successors than the exact solver takes on."""


def size_bound(table):
    """An upper bound on the positions reachable from `table`: per type, the ways to share out
    its chips in play among plate, aside and the seats; times seats and the round flag."""
    n = table.players
    bound = 2 * n
    for p, a in zip(table.plate, table.aside):
        c = p + a
        bound *= comb(c + n + 1, n + 1)
    return bound


def better(a, b, mover):
    """Does the seat to move prefer chance vector b to a (kernels.prefers, in Python)?"""
    return prefers(np.asarray(a)[None], 0, np.asarray(b)[None], 0, mover)


MODELS = ("best", "greedy")  # how the other seats are modelled to play


class ExactSolver:
    """Chances to win of every seat at the start of a turn, memoised per position.

    model "best": every seat maximises its own chance; "greedy": every seat but `advised`
    plays the greedy policy (keeps for and takes the most valuable chip, as the rollouts do)."""

    def __init__(self, rules, limit=EXACT_LIMIT, model="best", advised=0):
        self.rules = rules
        self.limit = limit
        self.memo = {}
        self.roll_category, self.category_mask = rules.categories
        self.moves = dice.kernel_arrays()
        self.model, self.advised = model, advised
        if model == "greedy":
            from .rollout import _cached
            _, self.greedy, self.sub_keeps = _cached(rules)

    def greedy_seat(self, table):
        return self.model == "greedy" and table.to_move != self.advised

    def start(self, table):
        """The seats' chances before the first roll of the turn (numpy vector)."""
        key = table.key()
        value = self.memo.get(key)
        if value is None:
            if len(self.memo) >= self.limit:
                raise TooLarge(f"more than {self.limit} positions")
            value = self._run(self._turn(table, False))[1]
            self.memo[key] = value
        return value

    def outcome(self, table, move, kniffel):
        """The chances after `move` ends the turn (the final shares when it ends the game)."""
        return self._run(self._outcome(table, move, kniffel))

    def turn(self, table, with_stages=False):
        """(stages, start): the chances of every keep with s rolls to come (stages[s]; stages[0]
        holds the final rolls' values) and before the first roll."""
        return self._run(self._turn(table, with_stages))

    def _run(self, steps):
        """The result of `steps`, a generator that yields the positions whose start chances it
        needs: each one not yet in the memo is solved depth first on an explicit stack (the
        order, memo and TooLarge of a recursion, without its depth)."""
        stack = [(None, steps)]
        value = None
        while True:
            key, position = stack[-1]
            try:
                table = position.send(value)
            except StopIteration as done:
                stack.pop()
                if not stack:
                    return done.value
                value = done.value[1]
                self.memo[key] = value
                continue
            key = table.key()
            value = self.memo.get(key)
            if value is None:
                if len(self.memo) >= self.limit:
                    raise TooLarge(f"more than {self.limit} positions")
                stack.append((key, self._turn(table, False)))

    def _outcome(self, table, move, kniffel):
        """Steps of `outcome`: yields the position after `move` unless the game ends there."""
        after = mg.after_move(table, move, kniffel, self.rules)
        if after.last is not None:
            return np.array(mg.win_shares(after, self.rules))
        return (yield after)

    def _category_values(self, table):
        """Steps of (values, moves): per roll category, the chances after the mover's best
        move, and that move."""
        n = table.players
        values = np.empty((len(self.category_mask), n))
        best_moves = []
        seen = {}
        greedy = self.greedy_seat(table)
        for c, mask in enumerate(self.category_mask.tolist()):
            kniffel = c == 0
            best, best_move = None, None
            moves = mg.end_moves(table, mask, kniffel, self.rules)
            if greedy:
                moves = [_greedy_move(table, moves)]
            for move in moves:
                memo_key = (move, kniffel and move[0] == "take")
                if memo_key not in seen:
                    seen[memo_key] = yield from self._outcome(table, move, kniffel)
                value = seen[memo_key]
                if best is None or better(best, value, table.to_move):
                    best, best_move = value, move
            values[c] = best
            best_moves.append(best_move)
        return values, best_moves

    def _turn(self, table, with_stages):
        """Steps of `turn`."""
        values, _ = yield from self._category_values(table)
        final = np.ascontiguousarray(values[self.roll_category])
        stages = np.empty((self.rules.rolls_per_turn, dice.N_KEEPS, table.players))
        start = np.empty(table.players)
        if self.greedy_seat(table) and not with_stages:
            key = greedy_key(np.array(table.plate), np.array(table.aside))
            turn_greedy(final, self.greedy, key, self.sub_keeps, self.moves,
                         self.rules.rolls_per_turn, start)
            return None, start
        turn_by(final, table.to_move, self.moves, self.rules.rolls_per_turn, stages, start)
        return (stages if with_stages else None), start


def _greedy_move(table, moves):
    """The greedy seat's move among `moves`: the most valuable chip, from the plate first."""
    takes = [m for m in moves if m[0] == "take"]
    if not takes:
        return moves[0]
    return max(takes, key=lambda m: (m[1], m[2] == mg.PLATE))


def solve_exact(table, rules, limit=EXACT_LIMIT, model="best"):
    """An ExactSolver that has solved `table` for its seat to move (TooLarge if it needs more
    than `limit` positions); model: how the other seats play (MODELS)."""
    solver = ExactSolver(rules, limit, model, table.to_move)
    solver.start(table)
    return solver


_SHARED = {}  # (rules, model, advised seat of the greedy model) -> ExactSolver
_SHARED_LOCK = threading.Lock()  # one solve at a time on a shared memo (worker threads)
SHARED_POSITIONS = 400_000  # a shared memo larger than this starts afresh (memory)


@contextmanager
def shared_solver(table, rules, limit=EXACT_LIMIT, model="best"):
    """solve_exact's solver, its memo kept for the next position of the same rules and model:
    the positions of one game share most of what follows them, so the advice of a whole game
    (its analysis) solves each once.  At most `limit` positions are new for `table`, as for a
    fresh solver; the solver is used under a lock (threads of the web app)."""
    key = (rules, model, table.to_move if model == "greedy" else None)
    with _SHARED_LOCK:
        solver = _SHARED.get(key)
        if solver is None or len(solver.memo) > SHARED_POSITIONS:
            solver = _SHARED[key] = ExactSolver(rules, limit, model, table.to_move)
        solver.limit = len(solver.memo) + limit
        solver.start(table)
        yield solver
