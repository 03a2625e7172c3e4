"""Known answers: published optimal expected scores (Glenn 2006, Verhoeff 1999, Holderied's
Kniffel program, independent solvers), and hand-worked single-box games."""
import numpy as np
import pytest
from conftest import solved

from solver.engine.states import reachable_mask
from solver.presets import get_rules


@pytest.mark.parametrize("name, options, expected", [
    ("kniffel-basic", {}, 245.8707745),
    ("kniffel-basic", {"five_of_a_kind_is_full_house": True}, 245.904728),
    ("yahtzee", {}, 254.5877287),
    ("yahtzee-free", {}, 254.5896095),
    ("yahtzee", {"joker": "none"}, 253.9702412),
    ("yatzy", {}, 248.4399894),
])
def test_published_expected_score(name, options, expected):
    table = solved(get_rules(name, **options))
    assert table.expected_score == pytest.approx(expected, abs=1e-6)


def test_reachable_state_count_13_boxes():
    # published: 536,448 reachable turn-start states with the bonus flag.
    assert reachable_mask(get_rules("yahtzee")).sum() == 536_448
    assert solved("yahtzee").states == 536_448


def test_exactly_the_reachable_states_are_solved(preset):
    table = solved(preset)
    assert np.array_equal(~np.isnan(table.values), reachable_mask(table.rules))


def test_single_box_games_by_hand():
    # Chance alone: each die is played on its own, so the value is five times a one-die game.
    table = solved("kniffel-basic")
    chance = table.rules.boxes.index("chance")
    filled = ((1 << 13) - 1) & ~(1 << chance)
    # one die, three rolls: last roll 3.5; second: keep 4+ -> (4+5+6)/6 + 3/6*3.5 = 4.25;
    # first: keep 5+ -> (5+6)/6 + 4/6*4.25 = 4.6667; five independent dice: 5 * 14/3
    assert table.values[filled, 0, 63] == pytest.approx(5 * 14 / 3, abs=1e-12)
    # Kniffel box alone: 50 * P(five of a kind within three rolls) = 50 * 2783176/60466176
    kniffel = table.rules.boxes.index("kniffel")
    filled = ((1 << 13) - 1) & ~(1 << kniffel)
    assert table.values[filled, 0, 63] == pytest.approx(50 * 2783176 / 60466176, abs=1e-12)
