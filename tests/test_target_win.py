"""The win objective: against finished players with ties lost it is the target objective for
one point more than the best of them, exactly; against a player still playing it beats the
expected-score strategy's chance (from the exact distributions)."""
import json

import numpy as np
import pytest
from conftest import solved
from helpers import target_table

from solver import advise, win_goal
from solver.advice.goal import TargetGoal
from solver.advice.win.sub_game import win_utility
from solver.engine.states import Position, position_state
from solver.presets import get_rules
from solver.stats.distribution import score_distribution


def late_card(rules):
    return {b: 0 for b in rules.boxes[:-3]} | {"twos": 6, "fours": 12, "three_kind": 18}


@pytest.mark.parametrize("name", ["kniffel", "yatzy"])
def test_finished_opponents_ties_lose_is_the_target(name):
    rules = get_rules(name)
    position = Position(late_card(rules))
    state = position_state(position, rules)
    table = target_table(rules, state.filled)
    for best in (state.card_total + 10, state.card_total + 40):
        opponents = [{"final": best - 25}, {"final": best}]
        win = advise(position, solved(rules), dice=(2, 3, 3, 5, 6),
                     objective=win_goal(opponents, "lose"))
        aim = advise(position, table, dice=(2, 3, 3, 5, 6), objective=TargetGoal(best + 1))
        assert [(o["probability"], o["expected_final_score"]) for o in win.options] == \
               [(o["probability"], o["expected_final_score"]) for o in aim.options]
        start = advise(position, solved(rules), objective=win_goal(opponents, "lose"))
        assert start.probability == table.lookup(state, best + 1 - state.card_total)[0]


def test_shared_ties_utility():
    # one finished opponent on 200: 201 or more wins, 200 is half a win
    M, u = win_utility([(200, np.ones(1))], "share")
    assert M == 201 and list(u) == [0.5]
    # two opponents each on 100 or 101 (1/2 each): a final 101 wins 1 (both lower, 1/4),
    # 1/2 (one tie, 1/2) or 1/3 (both tie, 1/4): 1/4 + 1/4 + 1/12
    M, u = win_utility([(100, np.array([0.5, 0.5]))] * 2, "share")
    assert M == 102 and u[0] == pytest.approx(1 / 4 + 1 / 4 + 1 / 12, abs=1e-15)
    assert u[1] == pytest.approx(1 / 12, abs=1e-15)  # 100: only when both tie (1/4), 1/3 each


@pytest.mark.parametrize("ties", ["share", "lose"])
def test_win_beats_expected_play_against_a_player(ties):
    rules = get_rules("kniffel")
    table = solved(rules)
    position = Position(late_card(rules))
    rival = {b: 0 for b in rules.boxes[:-3]} | {"sixes": 24, "four_kind": 20}
    opponents = [{"card": rival}]
    win = advise(position, table, objective=win_goal(opponents, ties)).probability
    # the expected-score player's chance from the same position, from both distributions
    ours = score_distribution(table, position)
    theirs = score_distribution(table, Position(rival))
    M, u = win_utility([(theirs.offset, theirs.probs)], ties)
    plain = 0.0
    for x, p in zip(ours.offset + np.arange(len(ours.probs)), ours.probs):
        d = M - x  # u[d - 1] is the chance that x wins
        plain += p * (1.0 if d <= 0 else (u[d - 1] if d <= len(u) else 0.0))
    assert 0.05 < plain < 0.95  # a real contest
    assert win >= plain - 1e-12
    assert win > plain + 1e-4  # playing to win gains something here


def test_python_api_objective():
    import solver
    rules = get_rules("kniffel")
    position = Position(late_card(rules))
    state = position_state(position, rules)
    table = target_table(rules, state.filled)
    aim = solver.advise(position, table, dice=(1, 2, 3, 4, 6),
                        objective=f"target:{state.card_total + 30}")
    assert aim.as_dict()["objective"] == {"target": state.card_total + 30}
    assert json.loads(aim.to_json())["objective"] == {"target": state.card_total + 30}
    win = solver.advise(position, solved(rules), dice=(1, 2, 3, 4, 6),
                        objective=solver.win_goal([{"final": state.card_total + 29}], "lose"))
    assert [o["probability"] for o in win.options] == [o["probability"] for o in aim.options]


def test_trimmed_utility_cuts_what_is_sure_and_what_is_hopeless():
    from solver.advice.win.sub_game import trimmed_utility
    u = np.array([1.0, 1.0 - 1e-13, 0.9, 0.5, 1e-3, 1e-13, 0.0])  # d = 1 .. 7 below M = 100
    M, cut = trimmed_utility(100, u)
    assert M == 98 and cut.tolist() == [0.9, 0.5, 1e-3]  # scores 98 and 99 count as sure wins
    M, cut = trimmed_utility(100, np.ones(3))
    assert M == 97 and len(cut) == 0  # every score counts as a win: reaching 97 is enough
    M, cut = trimmed_utility(100, np.zeros(3))
    assert M == 100 and len(cut) == 0


@pytest.mark.parametrize("name, card, rival", [
    # our last two boxes against a player with nine open: M is far above what we can still add
    ("kniffel", {"ones": 3, "twos": 6, "threes": 9, "fives": 15, "sixes": 18, "three_kind": 21,
                 "four_kind": 0, "full_house": 25, "small_straight": 30, "large_straight": 40,
                 "kniffel": 50}, {"ones": 2, "twos": 4, "threes": 6, "fours": 8}),
    ("yatzy", {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "sixes": 18, "one_pair": 10,
               "two_pairs": 14, "three_kind": 12, "four_kind": 0, "small_straight": 15,
               "large_straight": 20, "full_house": 0, "yatzy": 50}, {"ones": 2, "fives": 10}),
])
@pytest.mark.slow
def test_the_win_sub_game_solved_for_the_d_that_matter_is_the_whole_one(name, card, rival):
    """The win advice solves only the states that can follow our card and the d still needed that
    our remaining points can reach (its table counts d from L on); each option's P(win) and
    expected score are those of the sub-game solved for every state and d, to the bit."""
    from solver.advice.win.sub_game import (
        opponent_distribution,
        points_to_come_bound,
        trimmed_utility,
    )
    from solver.engine.target.solve import solve_target
    rules = get_rules(name)
    table = solved(rules)
    position = Position(card)
    state = position_state(position, rules)
    M, u = trimmed_utility(*win_utility([opponent_distribution(table, {"card": rival})], "share"))
    assert M - state.card_total - points_to_come_bound(rules, position) - 1 > 50  # L: d cut off
    whole = solve_target(rules, progress=False, expected=table.values, within=state.filled,
                         terminal=u)
    for roll, rolls_left in (((2, 2, 5, 5, 5), 2), ((1, 3, 4, 5, 6), 0), (None, None)):
        win = advise(position, table, roll, rolls_left, win_goal([{"card": rival}], "share", 3600))
        aim = advise(position, whole, roll, rolls_left, TargetGoal(M))
        assert win.probability == aim.probability > 0
        assert [(o["probability"], o["expected_final_score"]) for o in win.options] == \
            [(o["probability"], o["expected_final_score"]) for o in aim.options]
