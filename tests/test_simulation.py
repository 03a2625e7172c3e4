"""Seeded simulation of optimal play matches the solved value within 4 standard errors."""
import pytest
from conftest import solved

from solver.presets import get_rules
from solver.stats.simulate import simulate

GAMES = 20_000

# every option of a rules file, each at a non-default value somewhere
HOUSE_RULES = [
    ("kniffel-basic", {"five_of_a_kind_is_full_house": True}),
    ("kniffel", {"extra_bonus_requires": "filled", "joker_requires": "filled"}),
    ("kniffel-championship", {"extra_bonus": 0}),
    ("kitkniff", {"extra_bonus_cap": 200}),
    ("yahtzee", {"joker": "none", "rolls_per_turn": 2}),
    ("knobeln", {"jokers": 2, "jokers_per_turn": 2}),
    ("yatzy", {"upper_bonus_threshold": 50, "upper_bonus": 30, "jokers": 1, "rolls_per_turn": 4}),
]


def _check(rules, seed=20261129):
    table = solved(rules)
    sim = simulate(table, GAMES, seed=seed)
    z = (sim.mean - table.expected_score) / sim.standard_error
    assert abs(z) < 4, f"seed {seed}: mean {sim.mean:.3f} vs {table.expected_score:.3f} (z = {z:.2f})"
    return sim


def test_simulated_mean_matches_solved_value(preset):
    sim = _check(get_rules(preset))
    if get_rules(preset).jokers:
        assert 0 < sim.jokers_used.mean() <= get_rules(preset).jokers


@pytest.mark.parametrize("name, options", HOUSE_RULES,
                         ids=[f"{n}-{'-'.join(o)}" for n, o in HOUSE_RULES])
def test_simulated_mean_matches_house_rules(name, options):
    _check(get_rules(name, **options))


def test_simulation_is_reproducible():
    table = solved("kniffel")
    a = simulate(table, 500, seed=3)
    b = simulate(table, 500, seed=3)
    c = simulate(table, 500, seed=4)
    assert (a.scores == b.scores).all() and (a.scores != c.scores).any()
