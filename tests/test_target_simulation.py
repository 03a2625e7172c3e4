"""Seeded simulation: playing the target-T policy (the advice's choices, at every decision)
reaches T as often as the table says, within 4 standard errors (20,000 games each T)."""
import numpy as np
import pytest
from helpers import target_table

from solver.advice.target_player import TargetPlayer
from solver.engine.states import Position, position_state
from solver.presets import get_rules

pytestmark = pytest.mark.slow  # every test here plays thousands of games


@pytest.mark.parametrize("name, target", [("kniffel-basic", 40), ("kniffel-basic", 55),
                                          ("kniffel-basic", 70), ("yahtzee", 60)])
def test_target_policy_reaches_the_target_as_often_as_the_table_says(name, target):
    rules = get_rules(name)
    card = {b: 0 for b in rules.boxes if b not in ("sixes", "four_kind", "chance", "kniffel")}
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
