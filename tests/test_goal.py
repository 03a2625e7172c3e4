"""The objective as one value (advice/goal.py): parsed once from every form callers pass, read
back from the advice JSON, and only ValueError out of hostile input."""
import json

import pytest
from hypothesis import given, settings, strategies as st

from conftest import run, solved
from solver import advise, win_goal
from solver.advice.goal import POINTS, TargetGoal, as_goal, parse_goal, target_goal
from solver.presets import get_rules

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
                    max_leaves=8)


def test_every_form_gives_the_same_goal():
    assert as_goal(None) == as_goal("points") == POINTS
    assert as_goal("target:250") == as_goal({"target": 250}) == TargetGoal(250) == parse_goal("target:250")
    win = win_goal([{"final": 231}], "lose")
    assert as_goal({"win": {"opponents": [{"final": 231}], "ties": "lose"}}) == win
    assert as_goal(win.as_json()) == win and as_goal(TargetGoal(7).as_json()) == TargetGoal(7)
    assert (POINTS.table_kind, TargetGoal(1).table_kind, win.table_kind) == ("expected", "target", "expected")


@pytest.mark.parametrize("bad", [{"target": "x"}, {"nothing": 1}, "target:-3", "win:2", 17])
def test_a_bad_objective_is_a_value_error(bad):
    with pytest.raises(ValueError):
        as_goal(bad)


def test_target_is_checked_against_the_rules():
    rules = get_rules("kniffel")
    assert target_goal(250, rules) == TargetGoal(250)
    for bad in (-1, 976, True, "250", 2.5):
        with pytest.raises(ValueError, match="target must be 0-975"):
            target_goal(bad, rules)


@settings(max_examples=200, deadline=None)
@given(opponents=JSON, ties=st.one_of(st.sampled_from(["share", "lose"]), JSON))
def test_hostile_opponents_raise_only_value_error(opponents, ties):
    try:
        goal = win_goal(opponents, ties)
    except ValueError:
        return
    assert goal.kind == "win" and goal.ties in ("share", "lose")
    assert all(isinstance(o, dict) for o in goal.opponents)


def test_points_advice_json_is_what_the_cli_prints(capsys, table_dir):
    table = solved("kniffel")
    advice = advise({"ones": 3}, table, dice=[1, 3, 3, 5, 6], rolls_left=2)
    code, out, err = run(capsys, "advise", "--card", "ones=3", "--dice", "1,3,3,5,6", "--json", "--top", "4")
    assert code == 0, err
    assert out == advice.to_json(4) + "\n"
    data = json.loads(out)
    assert set(data) == {"rules", "card_total", "expected_final_score", "position", "options"}
    assert advice.goal == POINTS and advice.probability is None
