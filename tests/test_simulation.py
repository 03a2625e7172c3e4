"""Seeded simulation of optimal play matches the solved value within 4 standard errors."""
import numpy as np
import pytest
from conftest import solved

from solver.presets import get_rules
from solver.stats.simulate import simulate, simulate_tally
from solver.stats.summary import PERCENTILES, summarize

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
    assert abs(z) < 4, (f"seed {seed}: mean {sim.mean:.3f} vs {table.expected_score:.3f} "
                        f"(z = {z:.2f})")
    return sim


@pytest.mark.slow
def test_simulated_mean_matches_solved_value(preset):
    sim = _check(get_rules(preset))
    if get_rules(preset).jokers:
        assert 0 < sim.jokers_used.mean() <= get_rules(preset).jokers


@pytest.mark.parametrize("name, options", HOUSE_RULES,
                         ids=[f"{n}-{'-'.join(o)}" for n, o in HOUSE_RULES])
@pytest.mark.slow
def test_simulated_mean_matches_house_rules(name, options):
    _check(get_rules(name, **options))


def test_a_seed_past_2_63_after_a_small_one():
    """The seed kernel is compiled for the first seed's type: a seed past 2**63 after a small
    one raised OverflowError ("int too big to convert") instead of playing."""
    table = solved("kniffel-basic")
    small = simulate(table, 5, seed=1)
    big = simulate(table, 5, seed=2**64 - 1)
    assert big.scores.shape == (5,) and (big.scores != small.scores).any()
    assert (simulate(table, 5, seed=2**64 - 1).scores == big.scores).all()


def test_simulation_is_reproducible():
    table = solved("kniffel")
    a = simulate(table, 500, seed=3)
    b = simulate(table, 500, seed=3)
    c = simulate(table, 500, seed=4)
    assert (a.scores == b.scores).all() and (a.scores != c.scores).any()


@pytest.mark.parametrize("strategy", ["optimal", "greedy"])
def test_blocks_play_the_same_games_and_figures(strategy):
    """`kniffel simulate` plays in blocks and summarizes a score histogram (bounded memory for
    any --games): the same games, so the same figures, as one block, and the histogram's
    figures are those of every score."""
    table = solved("knobeln")
    sim = simulate(table, 2_000, seed=11, strategy=strategy)
    whole = summarize(simulate_tally(table, 2_000, seed=11, strategy=strategy))
    assert summarize(simulate_tally(table, 2_000, seed=11, strategy=strategy, block=333)) == whole
    scores = sim.scores
    assert whole["games"] == 2_000 and whole["mean"] == scores.mean()
    assert whole["sd"] == pytest.approx(scores.std(ddof=1), rel=1e-14)
    assert (whole["min"], whole["max"]) == (scores.min(), scores.max())
    assert list(whole["percentiles"].values()) == \
        np.percentile(scores, PERCENTILES, method="inverted_cdf").astype(int).tolist()
    assert whole["at_least"]["250"]["p"] == (scores >= 250).mean()
    assert whole["upper_bonus"]["p"] == sim.upper_bonus.mean()
    assert whole["kniffel_box_50"]["p"] == sim.kniffel_fifty.mean()
    assert whole["extra_kniffel_bonus"]["p"] == (sim.extra_bonuses > 0).mean()
    assert whole["jokers_used_mean"] == sim.jokers_used.mean()
