"""Win advice within a budget (advice/win/coach.py, win_approx.py): where the exact sub-game is
affordable it is today's answer; elsewhere every option's exact chance lies in the interval;
the lower end is the chance of playing for points (checked against a seeded simulation); with
every opponent finished and ties lost the answer is the target table's, exactly."""
import numpy as np
import pytest
from conftest import solved
from helpers import late, target_table

from solver import win_goal
from solver.advice.position import checked_query, ranked  # the exact sub-game for a win
from solver.advice.goal import WinGoal
from solver.advice.win.coach import check_budget, win_advice
from solver.engine.states import Position, position_state
from solver.presets import get_rules

DICE = (2, 3, 3, 5, 6)


def key(option):
    return (option["action"], tuple(option.get("keep", ())), option.get("box"))


def cases():
    for name in ("kniffel", "yatzy"):
        for n_open, rolls_left, seed in ((2, 2, 1), (3, 1, 2), (3, 0, 3), (2, None, 4)):
            yield name, n_open, rolls_left, seed


@pytest.mark.parametrize("name,n_open,rolls_left,seed", list(cases()))
def test_exact_where_affordable_and_interval_holds_the_exact_chance(name, n_open, rolls_left, seed):
    rules = get_rules(name)
    table = solved(rules)
    position = Position(late(rules, n_open, seed))
    rival = Position(late(rules, n_open + 1, seed + 100))
    opponents = [{"card": rival.card}, {"final": position_state(position, rules).card_total + 60}]
    dice = None if rolls_left is None else DICE
    goal = win_goal(opponents)
    exact = ranked(checked_query(position, table.rules, dice, rolls_left), table, goal)
    chosen = win_advice(position, table, goal, dice, rolls_left, budget=600)
    assert chosen.method == "exact" and chosen.as_dict()["method"] == "exact"
    assert chosen.probability == pytest.approx(exact.probability, abs=1e-9)
    assert [key(o) for o in chosen.options] == [key(o) for o in exact.options]
    for a, b in zip(chosen.options, exact.options):
        assert a["probability"] == pytest.approx(b["probability"], abs=1e-9)
    filled = position_state(position, rules).filled
    approx = win_advice(position, table, goal, dice, rolls_left,
                        target_table=target_table(rules, filled), force="approximate")
    assert approx.method == "approximate"
    low, high = approx.as_dict()["interval"]
    assert low - 1e-12 <= exact.probability <= high + 1e-12
    exact_of = {key(o): o["probability"] for o in exact.options}
    assert len(approx.options) == len(exact_of)
    for option in approx.options:
        low, high = option["interval"]
        assert low - 1e-12 <= exact_of[key(option)] <= high + 1e-12
        assert low <= option["probability"] <= high


@pytest.mark.parametrize("name", ["kniffel", "yatzy"])
def test_finished_opponents_ties_lost_is_exact_from_the_target_table(name):
    rules = get_rules(name)
    table = solved(rules)
    position = Position(late(rules, 3, 7))
    total = position_state(position, rules).card_total
    opponents = [{"final": total + 30}, {"final": total + 45}]
    targets = target_table(rules, position_state(position, rules).filled)
    goal = win_goal(opponents, "lose")
    for dice, rolls_left in ((DICE, 2), (DICE, 0), (None, None)):
        exact = ranked(checked_query(position, table.rules, dice, rolls_left), table, goal)
        answer = win_advice(position, table, goal, dice, rolls_left, target_table=targets,
                            budget=1e-3)
        assert answer.method == "exact" and "interval" not in answer.as_dict()
        assert answer.probability == pytest.approx(exact.probability, abs=1e-9)
        exact_of = {key(o): o["probability"] for o in exact.options}
        for option in answer.options:
            assert option["probability"] == pytest.approx(exact_of[key(option)], abs=1e-9)


def test_without_a_target_table_ranked_for_points_with_the_exact_low_end():
    rules = get_rules("kniffel")
    table = solved(rules)
    position = Position(late(rules, 3, 11))
    opponents = [{"card": late(rules, 3, 12)}]
    answer = win_advice(position, table, win_goal(opponents), DICE, 1, target_table=None,
                        force="approximate")
    assert answer.method == "approximate" and "kniffel solve --objective target" in answer.note
    scores = [o["expected_final_score"] for o in answer.options]
    assert scores == sorted(scores, reverse=True)
    assert all(o["interval"][1] == 1.0 and o["probability"] == o["interval"][0]
               for o in answer.options)


@pytest.mark.parametrize("bad", [0, -1, float("nan"), 1e9, "x", None])
def test_bad_budget(bad):
    with pytest.raises(ValueError, match="budget"):
        check_budget(bad)


def test_bad_opponents():
    rules = get_rules("kniffel")
    table = solved(rules)
    with pytest.raises(ValueError, match="at most 7"):
        win_advice(Position(), table, win_goal([{"final": 200}] * 8))
    with pytest.raises(ValueError):
        win_advice(Position(), table, win_goal([{"card": {"ones": 7}}]))
    with pytest.raises(ValueError):
        win_advice(Position(), table, win_goal([{"final": 100000}]))
    with pytest.raises(ValueError):
        win_advice(Position(), table, WinGoal())
