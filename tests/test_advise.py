"""Advice agrees with the table, and hand-checked positions get the moves the rules allow."""
import numpy as np
import pytest
from conftest import solved

from solver import advise, dice
from solver.advice.position import final_roll_values, keep_values
from solver.engine.states import Position, position_state


def _random_cards(rules, rng, count):
    """Random plausible scorecards: random boxes filled with points from a real roll."""
    cards = []
    while len(cards) < count:
        n_filled = int(rng.integers(0, rules.n_boxes))
        boxes = rng.choice(rules.n_boxes, size=n_filled, replace=False)
        card = {}
        for b in boxes:
            r = int(rng.integers(dice.N_ROLLS))
            card[rules.boxes[b]] = int(rules.plain_score[b, r])
        cards.append(card)
    return cards


@pytest.mark.slow
def test_best_option_at_turn_start_equals_state_value(preset):
    table = solved(preset)
    rules = table.rules
    rng = np.random.default_rng(7)
    for card in _random_cards(rules, rng, 12):
        position = Position(card)
        start = advise(position, table)
        # Average over the first roll of the best option with every roll still to come.
        expected = sum(dice.ROLL_PROB[r] * advise(position, table,
                                                  dice=dice.KEEPS[r]).expected_final_score
                       for r in range(dice.N_ROLLS))
        assert expected == pytest.approx(start.expected_final_score, abs=1e-9), card


def test_option_values_are_consistent_with_table(preset):
    table = solved(preset)
    rules = table.rules
    rng = np.random.default_rng(11)
    for card in _random_cards(rules, rng, 20):
        state = position_state(Position(card), rules)
        roll = dice.KEEPS[int(rng.integers(dice.N_ROLLS))]
        advice = advise(Position(card), table, dice=roll, rolls_left=0)
        for option in advice.options:
            # points + bonus + value of the state after the move, rebuilt from the card
            after = dict(card, **{option["box"]: option["points"]})
            upper_before = sum(card.get(b, 0) for b in rules.boxes[:6])
            upper_after = sum(after.get(b, 0) for b in rules.boxes[:6])
            crossed = upper_before < rules.upper_bonus_threshold <= upper_after
            extra = option["bonus"] - crossed * rules.upper_bonus
            paid = extra // rules.extra_bonus if rules.extra_bonus else 0
            assert extra == paid * rules.extra_bonus
            used = 0
            if "joker" in option:
                taken = option["joker"]["from"]
                used = len(taken) if isinstance(taken, list) else 1
            rest = 0.0 if len(after) == rules.n_boxes else \
                table.value(position_state(Position(after, paid, rules.jokers - used), rules))
            assert option["expected_final_score"] == pytest.approx(
                state.card_total + option["points"] + option["bonus"] + rest, abs=1e-9)
        # with one roll left, the best option's value is the best keep value of the next stage
        keeps = keep_values(*final_roll_values(state, table), 1)
        one_left = advise(Position(card), table, dice=roll, rolls_left=1)
        best_keep = max(keeps[dice.KEEP_INDEX[k]] for k in _all_sub_keeps(roll))
        assert (one_left.expected_final_score
                == pytest.approx(state.card_total + best_keep, abs=1e-9))


def test_knobeln_jokers_in_advice():
    table = solved("knobeln")
    rng = np.random.default_rng(5)
    for card in _random_cards(table.rules, rng, 6):
        for jokers in (0, 1, 3):
            position = Position(card, jokers_left=jokers)
            state = position_state(position, table.rules)
            stop, final = final_roll_values(state, table)
            r = int(rng.integers(dice.N_ROLLS))
            last = advise(position, table, dice=dice.KEEPS[r], rolls_left=0)
            # the best final move, jokers included, is worth the joker-aware roll value
            assert last.expected_final_score == pytest.approx(state.card_total + final[r], abs=1e-9)
            assert (final >= stop).all() and (jokers > 0 or (final == stop).all())
            if jokers == 0:
                assert not any("joker" in o for o in last.options)
    # the example: two jokers left, 2,3,4,5,5 -> a joker completes the large straight
    advice = advise(Position({}, jokers_left=2), table, dice=(2, 3, 4, 5, 5), rolls_left=0)
    straight = [o for o in advice.options
                if o.get("joker") and o["box"] == "large_straight" and o["points"] == 40]
    assert {(o["joker"]["from"], o["joker"]["to"]) for o in straight} == {(5, 1), (5, 6)}


def _all_sub_keeps(roll):
    found = {()}
    for die in roll:
        found |= {tuple(sorted(k + (die,))) for k in found}
    return found


def test_every_distinct_keep_is_listed():
    table = solved("yahtzee")
    advice = advise(Position({}), table, dice=(1, 3, 3, 5, 6), rolls_left=2)
    keeps = [tuple(o["keep"]) for o in advice.options if o["action"] == "keep"]
    # distinct sub-multisets of 1,3,3,5,6 with 0-4 dice: 3*2*2*2*... = 24 in all,
    # minus the full hand
    assert len(keeps) == len(set(keeps)) == 3 * 2 * 2 * 2 - 1
    assert sum(o["action"] == "score" for o in advice.options) == 13
    assert advice.options[0] == {"action": "keep", "keep": [3, 3], "reroll": [1, 5, 6],
                                 "expected_final_score": advice.expected_final_score}


def test_forced_joker_allows_only_the_matching_upper_box():
    table = solved("yahtzee")
    advice = advise(Position({"kniffel": 50}), table, dice=(4, 4, 4, 4, 4), rolls_left=0)
    assert [(o["box"], o["points"], o["bonus"]) for o in advice.options] == [("fours", 20, 100)]


def test_kniffel_joker_scores_any_box_at_its_maximum():
    table = solved("kniffel")
    advice = advise(Position({"kniffel": 50}), table, dice=(2, 2, 2, 2, 2), rolls_left=0)
    points = {o["box"]: o["points"] for o in advice.options}
    assert points == {"ones": 5, "twos": 10, "threes": 15, "fours": 20, "fives": 25, "sixes": 30,
                      "three_kind": 30, "four_kind": 30, "full_house": 25, "small_straight": 30,
                      "large_straight": 40, "chance": 30}
    assert all(o["bonus"] >= 50 for o in advice.options)
    # with the Kniffel box scratched there is neither joker nor bonus
    plain = advise(Position({"kniffel": 0}), table, dice=(2, 2, 2, 2, 2), rolls_left=0)
    points = {o["box"]: (o["points"], o["bonus"]) for o in plain.options}
    assert points["full_house"] == (0, 0) and points["chance"] == (10, 0)


def test_championship_bonus_only_where_the_kniffel_fits():
    table = solved("kniffel-championship")
    advice = advise(Position({"kniffel": 50}), table, dice=(5, 5, 5, 5, 5), rolls_left=0)
    got = {o["box"]: (o["points"], o["bonus"]) for o in advice.options}
    assert got["fives"] == (25, 50) and got["chance"] == (25, 50) and got["four_kind"] == (25, 50)
    assert got["full_house"] == (0, 0) and got["large_straight"] == (0, 0) and got["ones"] == (0, 0)


def test_kitkniff_cap_stops_the_bonus():
    table = solved("kitkniff")
    card = {"kniffel": 50, "ones": 5, "twos": 10, "threes": 15, "fours": 20, "fives": 25,
            "sixes": 30, "three_kind": 30, "four_kind": 30, "full_house": 25}
    capped = advise(Position(card, 9), table, dice=(6,) * 5, rolls_left=0)
    assert {o["bonus"] for o in capped.options} == {0}
    open_cap = advise(Position(card, 8), table, dice=(6,) * 5, rolls_left=0)
    assert {o["bonus"] for o in open_cap.options} == {100}
    # 9 bonuses paid and 3 boxes open: nothing more to earn than the boxes themselves
    assert capped.card_total == sum(card.values()) + 35 + 900
