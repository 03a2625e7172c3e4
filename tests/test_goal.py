"""The goal as one value (advice/goal.py), read once by the one reader of a question
(ask/request.py) from every form an asker writes it in, and only one-line errors out of hostile
input."""
import json

import pytest
from conftest import run, solved
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import advise, win_goal
from solver.advice.goal import POINTS, TargetGoal, WinGoal
from solver.ask.request import RequestError, read_request
from solver.presets import get_rules

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                    | st.text(),
                    lambda inner: (st.lists(inner, max_size=3)
                                   | st.dictionaries(st.text(), inner, max_size=3)),
                    max_leaves=8)


def goal_of(**fields):
    return read_request(fields).goal


def test_every_form_gives_the_same_goal():
    assert goal_of() == goal_of(goal="points") == goal_of(goal=POINTS) == POINTS
    assert goal_of(goal="target:250") == goal_of(target=250) == goal_of(goal=" Target:250 ") \
        == TargetGoal(250)
    win = WinGoal(({"final": 231},), "lose")
    assert goal_of(opponents=[{"final": 231}], ties="lose") == win
    assert goal_of(goal="win", opponents=["final=231"], ties="lose") == win  # the command line's
    assert goal_of(goal=win_goal([{"final": 231}], "lose")) == win


@pytest.mark.parametrize("fields, words", [
    ({"target": "x"}, "target must be 0-975"),
    ({"goal": "target:-3"}, "goal target:T: T must be 0-975"),
    ({"goal": "win:2"}, "goal must be points, win or target:T"),
    ({"goal": 17}, "goal must be points, win or target:T"),
    ({"goal": "win"}, "goal win needs opponents"),
    ({"target": 200, "opponents": [{"final": 3}]}, "do not go together"),
    ({"ties": "lose"}, "ties goes with opponents"),
    ({"budget": 2}, "budget goes with opponents, target or why"),
    ({"target": 200, "budget": 0}, "budget: the budget must be more than 0"),
])
def test_a_bad_goal_is_one_line_naming_the_field(fields, words):
    with pytest.raises(RequestError, match=words):
        goal_of(**fields)


def test_target_is_checked_against_the_rules():
    assert read_request({"rules": "kniffel", "target": 250}).goal == TargetGoal(250)
    for bad in (-1, 976, True, "250", 2.5):
        with pytest.raises(ValueError, match="target must be 0-975"):
            read_request({"rules": get_rules("kniffel"), "target": bad})


@settings(max_examples=200, deadline=None)
@given(opponents=JSON, ties=st.one_of(st.sampled_from(["share", "lose"]), JSON))
def test_hostile_opponents_raise_only_request_error(opponents, ties):
    try:
        goal = goal_of(opponents=opponents, ties=ties)
    except RequestError as exc:
        assert "\n" not in str(exc)
        return
    assert goal.kind == "win" and goal.ties in ("share", "lose")
    assert all(isinstance(o, dict) for o in goal.opponents)


def test_points_advice_json_is_what_the_cli_prints(capsys, table_dir):
    table = solved("kniffel")
    advice = advise({"ones": 3}, table, dice=[1, 3, 3, 5, 6], rolls_left=2)
    code, out, err = run(capsys, "advise", "--card", "ones=3", "--dice", "1,3,3,5,6", "--json",
                         "--top", "4")
    assert code == 0, err
    assert out == advice.to_json(4) + "\n"
    data = json.loads(out)
    assert set(data) == {"rules", "card_total", "expected_final_score", "position", "options"}
    assert advice.goal == POINTS and advice.probability is None
