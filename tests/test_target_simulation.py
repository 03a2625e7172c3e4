"""Seeded simulation: playing the target-T policy (the advice's choices, at every decision)
reaches T as often as the table says, within 4 standard errors (20,000 games each T)."""
from dataclasses import replace

import numpy as np
import pytest
from test_target import target_table

from solver import dice
from solver.advice.position import sub_keep_indices
from solver.advice.target import GRAIN, box_pairs, final_pairs, keep_pairs
from solver.engine.states import Position, position_state
from solver.presets import get_rules


class TargetPlayer:
    """The target policy of a (sub-game) table, with each (state, need)'s turn worked once.
    kniffel-basic: no extra-Kniffel rules, so aux stays 0 and the next state is simple."""

    def __init__(self, table):
        self.table, self.rules, self.turns = table, table.rules, {}

    def turn(self, state, need):
        key = (state.filled, state.upper, need)
        if key not in self.turns:
            stop, final = final_pairs(state, self.table, need)
            keeps = {left: keep_pairs(stop, final, left) for left in range(1, self.rules.rolls_per_turn)}
            w, e, points, bonus = box_pairs(state, self.table, need)
            q = np.floor(w * GRAIN + 0.5)
            box = np.lexsort((-e, -q), axis=0)[0]  # per roll: the best box (chance, then points)
            self.turns[key] = (keeps, box, points, bonus)
        return self.turns[key]

    def play(self, state, need, rng):
        """Points scored from a turn start to the end of the game."""
        gained = 0
        while state.n_open:
            keeps, box, points, bonus = self.turn(state, need - gained)
            roll = tuple(sorted(rng.integers(1, 7, size=5).tolist()))
            for left in range(self.rules.rolls_per_turn - 1, 0, -1):
                kw, ke = keeps[left]
                r = dice.KEEP_INDEX[roll]
                indices = sub_keep_indices(r)[1]
                choices = list(indices.tolist()) + [r]  # keep some dice, or stop (all five)
                best = max(choices, key=lambda k: (np.floor(kw[k] * GRAIN + 0.5), ke[k]))
                if best == r:
                    break
                kept = dice.KEEPS[best]
                roll = tuple(sorted(kept + tuple(rng.integers(1, 7, size=5 - len(kept)).tolist())))
            r = dice.KEEP_INDEX[roll]
            b = int(box[r])
            gained += int(points[b, r] + bonus[b, r])
            upper = state.upper
            if self.rules.box_face[b]:
                upper = min(self.rules.upper_bonus_threshold, upper + int(points[b, r]))
            state = replace(state, filled=state.filled | (1 << b), upper=upper, n_open=state.n_open - 1)
        return gained


@pytest.mark.parametrize("target", [40, 55, 70])
def test_target_policy_reaches_the_target_as_often_as_the_table_says(target):
    rules = get_rules("kniffel-basic")
    card = {b: 0 for b in rules.boxes if b not in ("sixes", "four_kind", "chance")}
    state = position_state(Position(card), rules)
    table = target_table(rules, state.filled)
    p = table.probability(state, target)
    assert 0.05 < p < 0.95
    player = TargetPlayer(table)
    rng = np.random.default_rng(target)
    games = 20000
    hits = sum(player.play(state, target - state.card_total, rng) >= target - state.card_total
               for _ in range(games))
    se = np.sqrt(p * (1 - p) / games)
    assert abs(hits / games - p) < 4 * se, (hits / games, p, se)
