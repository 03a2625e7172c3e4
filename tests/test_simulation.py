"""Seeded simulation of optimal play matches the solved value within 4 standard errors."""
import pytest
from conftest import solved

from solver.simulate import simulate

GAMES = 20_000


def test_simulated_mean_matches_solved_value(preset):
    table = solved(preset)
    seed = 20261129
    sim = simulate(table, GAMES, seed=seed)
    z = (sim.mean - table.expected_score) / sim.standard_error
    assert abs(z) < 4, f"seed {seed}: mean {sim.mean:.3f} vs {table.expected_score:.3f} (z = {z:.2f})"


def test_simulation_is_reproducible():
    table = solved("kniffel")
    a = simulate(table, 500, seed=3)
    b = simulate(table, 500, seed=3)
    c = simulate(table, 500, seed=4)
    assert (a.scores == b.scores).all() and (a.scores != c.scores).any()
