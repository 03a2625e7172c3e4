"""Whole multiplayer Dice Duel games between seats that play by different strategies: the advisor
(exact endgames, rollouts before), the greedy player (the most valuable chip each turn) and the
solo-optimal player adapted to these rules.  benchmarks/duel_tournament.py plays many.

The fast seats play their turns in numba (multi_kernels.play_turn); the advisor's turns run here,
on the same dice generator, so a game is fixed by its seed and the strategies."""
import time

import numpy as np

from ...dice import EMPTY_KEEP, sub_keep_indices
from ...engine.seeded_dice import complete_roll, random_next
from . import game as mg
from . import kernels as mk
from .exact import TooLarge, better, size_bound, solve_exact
from .rollout import NO_SOLO, Rollouts, _cached, kernel_moves, move_code

ADVISOR = -1  # a seat's policy: the advisor (GREEDY, SOLO: multi_kernels)
Z = 2.0  # standard errors by which a candidate must beat the greedy choice
# Fewer games per option than this never move the advisor off the greedy choice: their paired
# standard error is itself too noisy (at 8 games the rule switched wrongly often enough to win
# 3.4 pp less than greedy in the 2-player seat 0 over 1,000 games; at 64 it never switched).
MIN_GAMES = 32


class Advisor:
    """The advisor at a fixed budget: exact once a game's size_bound is at most `limit` (one
    solver per game, reused for every later decision), else `games` rollouts for each of the end
    moves and of the `candidates` keeps the greedy tables rank highest, keeping the greedy
    choice unless another is measurably better."""

    def __init__(self, rules, games=32, candidates=3, limit=2_000, seed=0):
        self.rules, self.games, self.candidates, self.limit, self.seed = rules, games, candidates, limit, seed
        self.game_arrays, self.greedy, self.sub_keeps = _cached(rules)
        self.solver = None
        self.seconds = []  # (chips in play, seconds) per decision

    def new_game(self):
        self.solver = None

    def decide(self, table, roll, left):
        """("keep", keep index) or ("move", move) for the dice `roll` with `left` rolls to come."""
        start = time.perf_counter()
        if self.solver is None and size_bound(table) <= self.limit:
            try:
                self.solver = solve_exact(table, self.rules, limit=4 * self.limit)
            except TooLarge:
                self.solver = None
        choice = self._exact(table, roll, left) if self.solver is not None else \
            self._rollouts(table, roll, left)
        self.seconds.append((table.in_play, time.perf_counter() - start))
        return choice

    def _moves(self, table, roll):
        category = int(self.rules.categories[0][roll])
        return mg.end_moves(table, int(self.rules.categories[1][category]), category == 0,
                            self.rules), category == 0

    def _exact(self, table, roll, left):
        moves, kniffel = self._moves(table, roll)
        mover = table.to_move
        best_move, best = None, None
        for move in moves:
            value = self.solver.outcome(table, move, kniffel)
            if best is None or better(best, value, mover):
                best_move, best = move, value
        choice = ("move", best_move)
        if left > 0:
            stages, _ = self.solver.turn(table, with_stages=True)
            for k in sub_keep_indices(roll)[1].tolist():
                if better(best, stages[left, k], mover):
                    choice, best = ("keep", k), stages[left, k]
        return choice

    def _rollouts(self, table, roll, left):
        """The greedy choice, unless another candidate beats it in the same games by more than
        Z standard errors of the paired difference (policy improvement that noise cannot
        make worse than the greedy player)."""
        moves, _ = self._moves(table, roll)
        plate, aside = np.array(table.plate), np.array(table.aside)
        key = mk.greedy_key(plate, aside)
        t, s = mk.greedy_move(plate, aside, int(self.rules.categories[0][roll]),
                               self.rules.categories[1])
        greedy_move = ("no_chip",) if t < 0 else ("take", t, mg.PLATE if s == 0 else mg.ASIDE)
        labels = [("move", m) for m in moves]
        options = [(roll, 0, -1) + move_code(m) for m in moves]
        baseline = labels.index(("move", greedy_move))
        if left > 0:
            keeps = sub_keep_indices(roll)[1].tolist()
            stage = self.greedy[left, :, key]
            pick = mk.pick_keep(roll, left, self.sub_keeps, stage, self.greedy[0, roll, key])
            keeps.sort(key=lambda k: -stage[k])
            chosen = keeps[:self.candidates] + ([pick] if pick != roll and pick not in
                                               keeps[:self.candidates] else [])
            if pick != roll:
                baseline = len(labels) + chosen.index(pick)
            labels += [("keep", k) for k in chosen]
            options += [(roll, left, k, 0, 0) for k in chosen]
        if len(options) == 1 or self.games < MIN_GAMES:
            return labels[baseline]
        runner = Rollouts(table, self.rules, self.seed, threads=1)
        self.seed += 1  # fresh games for the next decision
        shares = runner.games(options, self.games)
        diff = shares - shares[baseline]
        mean = diff.mean(axis=1)
        error = diff.std(axis=1, ddof=1) / np.sqrt(self.games)
        best, best_mean = baseline, 0.0
        for i in range(len(options)):
            if mean[i] > best_mean and mean[i] > Z * error[i]:
                best, best_mean = i, mean[i]
        return labels[best]


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
