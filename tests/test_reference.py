"""The numba kernels agree with the plain-Python reference solver (tests/reference.py) on
sub-games with 1-4 open boxes, for every preset and option."""
import zlib

import numpy as np
import pytest
import reference
from conftest import solved
from helpers import random_card

from solver.engine.states import Position, position_state
from solver.presets import get_rules
from solver.rules import PRESETS

# every preset, and every option of a rules file at a non-default value somewhere
RULE_SETS = [(name, {}) for name in PRESETS] + [
    ("kniffel-basic", {"five_of_a_kind_is_full_house": True}),
    ("kniffel", {"five_of_a_kind_is_full_house": True}),
    ("yahtzee", {"rolls_per_turn": 2}),
    ("kniffel", {"extra_bonus_requires": "filled", "joker_requires": "filled"}),
    ("kniffel-championship", {"extra_bonus": 0}),
    ("kitkniff", {"extra_bonus_cap": 200, "rolls_per_turn": 1}),
    ("kitkniff", {"extra_bonus": 0}),
    ("yahtzee", {"joker": "none"}),
    ("yahtzee", {"joker": "max-any", "joker_requires": "fifty", "extra_bonus": 25}),
    ("knobeln", {"jokers_per_turn": 2}),
    ("kniffel-basic", {"upper_bonus_threshold": 40, "upper_bonus": 50, "jokers": 2}),
    ("yatzy", {"jokers": 2, "rolls_per_turn": 4, "upper_bonus_threshold": 45}),
    # extra_kniffel_must_fit under each kind of further-Kniffel rule it can change
    ("kniffel-championship", {"extra_kniffel_must_fit": True}),
    ("kniffel-championship",
     {"extra_kniffel_must_fit": True, "five_of_a_kind_is_full_house": True}),
    ("kniffel-basic", {"extra_kniffel_must_fit": True, "jokers": 1}),
    ("kniffel", {"extra_kniffel_must_fit": True}),
    ("yahtzee-free", {"extra_kniffel_must_fit": True}),
    ("yahtzee", {"extra_kniffel_must_fit": True, "joker_requires": "fifty"}),
]


def reference_value(rules, card, bonuses, jokers=0):
    """The reference's value of a card, from the resolved rules (Rules.as_dict())."""
    kniffel = rules.boxes[rules.kniffel_box]
    upper = sum(card.get(b, 0) for b in rules.boxes[:6])
    return reference.state_value_rules(
        rules.as_dict(), [b for b in rules.boxes if b not in card], upper,
        kniffel_box="open" if kniffel not in card else str(card[kniffel]),
        bonuses_paid=bonuses, jokers_left=jokers)


@pytest.mark.parametrize("name, options", RULE_SETS, ids=[
    name + "".join(f"-{k}={v}" for k, v in o.items()) for name, o in RULE_SETS])
def test_kernels_match_reference_on_sub_games(name, options):
    rules = get_rules(name, **options)
    table = solved(rules)
    rng = np.random.default_rng(zlib.crc32(repr((name, options)).encode()))
    checked = 0
    for n_open in (1, 2, 3, 4):
        for trial in range(12 if n_open < 4 else 4):
            must = ()
            # an upper box and the Kniffel box open: jokers, bonus, first Kniffel
            if trial % 3 == 1:
                must = (rules.boxes[int(rng.integers(6))],)
            if trial % 3 == 2 and n_open >= 2:
                must = (rules.boxes[int(rng.integers(6))], rules.boxes[rules.kniffel_box])
            card, bonuses, jokers = random_card(rules, rng, n_open, must)
            state = position_state(Position(card, bonuses, jokers), rules)
            expected = reference_value(rules, card, bonuses, jokers)
            assert table.value(state) == pytest.approx(expected, abs=1e-9), (card, bonuses, jokers)
            checked += 1
    assert checked == 40


def test_presets_by_name_agree_with_resolved_rules():
    # the reference's own preset table (written from docs/rules.md) matches ours, field by field
    for name in PRESETS:
        assert reference.PRESET_RULES[name] == get_rules(name).as_dict()


def test_kitkniff_cap_against_reference():
    rules = get_rules("kitkniff")
    table = solved(rules)
    base = {"ones": 5, "twos": 10, "threes": 15, "fours": 20, "fives": 25, "sixes": 30,
            "three_kind": 30, "four_kind": 30, "kniffel": 50}
    for bonuses in (4, 5, 6, 7, 8):  # 4 boxes open: the cap of 9 binds from 6 bonuses paid on
        state = position_state(Position(base, bonuses), rules)
        expected = reference_value(rules, base, bonuses)
        assert table.value(state) == pytest.approx(expected, abs=1e-9)
    values = [table.value(position_state(Position(base, b), rules)) for b in (4, 5, 6, 7, 8)]
    assert values[0] == values[1]  # 5 or 4 bonuses still allowed for 4 open boxes: no limit yet
    assert values[1] > values[2] > values[3] > values[4]  # fewer bonuses left, less to expect


# Cards where a further 11111 may go into a box it fits (chance, for 5) or one it does not
# (for 0), and scratching is the better move: the option must change the value, and the kernels
# must still agree with the reference.
_FULL = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
         "three_kind": 20, "four_kind": 0, "full_house": 25, "small_straight": 30,
         "large_straight": 40, "chance": 22}
MUST_FIT_CARDS = [  # (preset, card, the two open boxes)
    ("kniffel-championship", {**_FULL, "kniffel": 0}, ("large_straight", "chance")),  # no bonus
    ("kniffel-basic", {**_FULL, "kniffel": 50}, ("large_straight", "chance")),
    ("kniffel", {**_FULL, "kniffel": 0}, ("large_straight", "chance")),  # no joker after a 0
    ("kitkniff", {**_FULL, "kniffel": 50}, ("twos", "chance")),  # the free joker gives twos 0
]
for _, _card, _open in MUST_FIT_CARDS:
    for _box in _open:
        del _card[_box]


@pytest.mark.parametrize("name, card, open_boxes", MUST_FIT_CARDS,
                         ids=[c[0] for c in MUST_FIT_CARDS])
def test_must_fit_changes_the_value_as_the_reference_says(name, card, open_boxes):
    assert set(get_rules(name).boxes) - set(card) == set(open_boxes)
    values = {}
    for must_fit in (False, True):
        rules = get_rules(name, **({"extra_kniffel_must_fit": True} if must_fit else {}))
        state = position_state(Position(card), rules)
        values[must_fit] = solved(rules).value(state)
        assert values[must_fit] == pytest.approx(reference_value(rules, card, 0), abs=1e-9)
    # forbidding the scratch of a box it does not fit can only cost
    assert values[False] - values[True] > 1e-6


@pytest.mark.parametrize("name", ["kniffel", "yatzy", "yahtzee"])
def test_certainty_equivalent_matches_reference(name):
    # the risk dial theta of the exponential utility (objective.CertaintyEquivalent, the
    # expected-score kernels with theta as a parameter) against the reference's own recursion
    from solver.engine.backward import backward_pass
    from solver.engine.objective import CertaintyEquivalent
    rules = get_rules(name)
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    for theta in (-0.04, 0.02, 0.3):
        for n_open in (1, 2, 3):
            card, bonuses, _ = random_card(rules, rng, n_open, (rules.boxes[int(rng.integers(6))],))
            state = position_state(Position(card, bonuses), rules)
            values = backward_pass(rules, CertaintyEquivalent(theta), within=state.filled)[0]
            kniffel = rules.boxes[rules.kniffel_box]
            expected = reference.certainty_equivalent_rules(
                rules.as_dict(), theta, [b for b in rules.boxes if b not in card],
                sum(card.get(b, 0) for b in rules.boxes[:6]),
                "open" if kniffel not in card else str(card[kniffel]), bonuses)
            got = values[state.filled, state.aux, state.upper]
            assert got == pytest.approx(expected, abs=1e-9), (theta, card, bonuses)
            mean = solved(rules).value(state)  # risk seeking raises the certainty equivalent
            assert (got > mean - 1e-9) if theta > 0 else (got < mean + 1e-9)
