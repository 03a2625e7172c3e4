"""Bad input to the win advice within a budget: opponents beyond 7, an impossible opponent card,
a budget <= 0 or absurd.  The CLI says one clear line and exits 2, a batch line answers
{"error": ...} (no line lost), the one reader raises RequestError only (hypothesis); a goal
that cannot be answered within its budget is answered for points, saying why (ask/answer.py)."""
import io
import json

import pytest
from conftest import run, solved
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import win_goal
from solver.advice.limits import check_budget
from solver.ask.request import RequestError, read_request

LATE = ("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,chance=22,full_house=25,"
        "small_straight=30,three_kind=20")


@pytest.mark.parametrize("budget", ["0", "-1", "abc", "1e9", "nan", "inf", ""])
def test_cli_bad_budget(capsys, budget):
    code, out, err = run(capsys, "advise", "--card", LATE, "--dice", "66612", "--opponent",
                         "final=200", "--budget", budget)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("kniffel: error: --budget")


def test_cli_too_many_opponents(capsys):
    code, out, err = run(capsys, "advise", "--card", LATE, "--dice", "66612",
                         *["--opponent", "final=200"] * 8)
    assert code == 2 and "at most 7" in err and err.count("\n") == 1


def test_cli_impossible_opponent_card(capsys):
    code, out, err = run(capsys, "advise", "--card", LATE, "--dice", "66612", "--opponent",
                         "ones=7")
    assert code == 2 and err.startswith("kniffel: error: --opponent") and err.count("\n") == 1


def test_cli_answers_with_its_method(capsys):
    solved("kniffel")
    code, out, err = run(capsys, "advise", "--card", LATE, "--dice", "66612", "--opponent",
                         "final=240", "--json")
    assert code == 0
    answer = json.loads(out)
    assert answer["method"] == "exact" and 0 <= answer["probability"] <= 1


def test_batch_bad_lines_answer_errors(capsys, monkeypatch):
    lines = [{"card": {"ones": 3}, "dice": [6, 6, 6, 1, 2], "opponents": [{"final": 200}],
              "budget": 0},
             {"card": {"ones": 3}, "dice": [6, 6, 6, 1, 2], "opponents": [{"final": 200}] * 8},
             {"card": {"ones": 3}, "dice": [6, 6, 6, 1, 2], "opponents": [{"card": {"ones": 7}}]},
             {"card": {"ones": 3}, "dice": [6, 6, 6, 1, 2], "opponents": [{"final": 200}],
              "budget": "soon"}]
    text = "".join(json.dumps(line) + "\n" for line in lines).encode()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text)))
    code, out, err = run(capsys, "advise", "--batch", "-")
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(answers) == len(lines)
    assert [a["error"].split(":")[0] for a in answers] == [f"line {n}" for n in range(1, 5)]
    assert "budget" in answers[0]["error"] and "at most 7" in answers[1]["error"]


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                 st.text(max_size=8), st.lists(st.integers(), max_size=2)))
def test_budget_values_raise_only_value_error(value):
    try:
        seconds = check_budget(value)
    except ValueError as exc:
        assert "budget" in str(exc)
    else:
        assert 0 < seconds <= 3600


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.dictionaries(st.sampled_from(["final", "card", "x"]),
                                          st.one_of(st.integers(), st.text(max_size=3))),
                          st.integers(), st.none()), max_size=9))
def test_opponents_raise_only_request_error(opponents):
    try:
        goal = read_request({"opponents": opponents}).goal
    except RequestError as exc:
        assert "\n" not in str(exc)
    else:
        assert 1 <= len(goal.opponents) <= 7


def test_target_without_its_table_solves_the_sub_game_within_the_budget(capsys, tmp_path):
    """--target T with no saved target table: late in a game the position's sub-game fits the
    budget and is solved; the answer equals the target table's (the sub-game's W*)."""
    from helpers import target_table

    from solver import advise
    from solver.advice.goal import TargetGoal
    from solver.engine.states import Position, position_state
    from solver.presets import get_rules
    from solver.rules.cards import parse_card
    rules = get_rules("kniffel")
    solved(rules).save(tmp_path)
    code, out, err = run(capsys, "advise", "--card", LATE, "--dice", "66612", "--target", "240",
                         "--json", "--tables", str(tmp_path))
    assert code == 0, err
    answer = json.loads(out)
    position = Position(parse_card(LATE, rules))
    table = target_table(rules, position_state(position, rules).filled)
    expected = advise(position, table, [6, 6, 6, 1, 2], 2, TargetGoal(240))
    assert answer["objective"] == {"target": 240} and answer["method"] == "exact"
    assert abs(answer["probability"] - expected.probability) < 1e-9
    code, out, err = run(capsys, "advise", "--dice", "66612", "--target", "240", "--tables",
                         str(tmp_path), "--lang", "en")  # early: the sub-game is over the budget
    assert code == 0 and "advice for points: no target table for these rules" in out
    assert out.count("--build builds them now") == 1, out  # the offer: what a build costs


def test_a_target_batch_line_without_its_table_solves_the_sub_game_as_the_cli(capsys, tmp_path):
    """A batch line {"target": T} with no saved target table takes the same fallback as
    `advise --target T`: the sub-game within the line's budget, the same JSON; early in a game
    (over the budget) the advice for points, its fallback naming the build."""
    from solver.presets import get_rules
    from solver.rules.cards import parse_card
    rules = get_rules("kniffel")
    solved(rules).save(tmp_path)
    code, out, err = run(capsys, "advise", "--card", LATE, "--dice", "66612", "--target", "240",
                         "--json", "--tables", str(tmp_path))
    assert code == 0, err
    card = parse_card(LATE, rules)
    lines = tmp_path / "lines.jsonl"
    lines.write_text(json.dumps({"card": card, "dice": [6, 6, 6, 1, 2], "target": 240}) + "\n"
                     + json.dumps({"dice": [6, 6, 6, 1, 2], "target": 240, "budget": 0.5}) + "\n")
    code, batch, err = run(capsys, "advise", "--batch", str(lines), "--tables", str(tmp_path))
    assert code == 0, err
    late, early = map(json.loads, batch.splitlines())
    assert late == json.loads(out) and late["method"] == "exact"
    reason = early["fallback"]["reason"]["en"]
    assert early["fallback"]["goal"] == "target:240" and "probability" not in early
    assert reason.startswith("no target table for these rules") and "budget of 0.5 s" in reason


def test_without_the_store_early_advice_is_for_points_and_says_why(capsys, tmp_path):
    """No store of the opponents' distributions and an opponent early in the game (a minute to
    compute afresh): the CLI answers within its budget with the advice for points and a note
    (text and JSON), a batch line too, each saying why; nothing is computed."""
    from solver.presets import get_rules
    solved(get_rules("kniffel")).save(tmp_path)
    base = ("advise", "--dice", "66612", "--opponent", "ones=3", "--tables", str(tmp_path))
    code, out, err = run(capsys, *base, "--lang", "en")
    assert code == 0, err
    assert "advice for points" in out and "--build builds them now" in out
    assert "P(win)" not in out
    code, out, err = run(capsys, *base, "--json")
    answer = json.loads(out)
    assert code == 0 and "probability" not in answer and "objective" not in answer
    assert "budget of 1 s" in answer["fallback"]["reason"]["en"]
    assert answer["options"][0]["keep"] == [6, 6, 6]
    # with a budget that affords it, the same question is a win advice
    code, out, err = run(capsys, "advise", "--card", LATE, "--dice", "66612", "--opponent", LATE,
                         "--tables", str(tmp_path), "--json")
    assert code == 0 and json.loads(out)["method"] == "exact"
    line = {"dice": [6, 6, 6, 1, 2], "rolls_left": 2, "opponents": [{"card": {"ones": 3}}]}
    from solver.ask.batch import answer_lines
    from solver.ask.tables import Tables
    text = b"".join(answer_lines([json.dumps(line)], get_rules("kniffel"), Tables(tmp_path)))
    reason = json.loads(text)["fallback"]["reason"]["en"]
    assert reason.startswith("the chance to win here needs") and "budget" in reason


def test_the_coachs_cheapest_answer_is_counted_in_work():
    """advice/cost.py: with the store, the coach's cheapest answer (the approximation) fits a
    budget the exact answer does not; without it, an early opponent's distribution is over it."""
    from solver.advice import cost
    from solver.presets import get_rules
    rules = get_rules("kniffel")
    assert (cost.coach_work(rules, {}, [{"card": {}}], True)
            < cost.win_work(rules, {}, [{"final": 1}]))
    assert (cost.coach_work(rules, {}, [{"card": {}}], False)
            > cost.coach_work(rules, {}, [{"card": {}}], True))
    cost.check_win_budget(rules, {}, [{"card": {}}], 1.0, has_store=True)  # fits with the store
    with pytest.raises(cost.OverBudget):
        cost.check_win_budget(rules, {}, [{"card": {}}], 1.0, has_store=False)


def test_the_win_coach_never_reads_the_clock(monkeypatch):
    """The same question, the same answer at any load: a clock that runs a hundred seconds
    between two readings (a machine at load 100) changes nothing of a win advice that must
    choose between its exact sub-game and its approximation, and compute distributions."""
    import time

    from solver.advice.win.coach import win_advice
    rules = solved("kniffel").rules
    # 5 open boxes, a budget below the exact sub-game's work: the approximation, with as many of
    # its successors' distributions as half the budget affords (one here; none would give
    # another interval)
    card = dict.fromkeys(rules.boxes[:8], 0)
    goal = win_goal([{"final": 60}], budget=0.045)

    def ask():
        advice = win_advice(card, solved("kniffel"), goal, [6, 6, 6, 1, 2], 2,
                            target_table=None)
        assert advice.method == "approximate" and advice.interval[0] is not None
        return advice.to_json()

    quiet = ask()
    now = [0.0]

    def crawling():
        now[0] += 100.0
        return now[0]

    monkeypatch.setattr(time, "perf_counter", crawling)
    monkeypatch.setattr(time, "monotonic", crawling)
    monkeypatch.setattr(time, "time", crawling)
    assert ask() == quiet


@pytest.mark.parametrize("budget", ["0", "abc", "1e9"])
def test_play_bad_budget(capsys, budget):
    code, out, err = run(capsys, "play", "--players", "Anna,Ben", "--coach", "--goal", "win",
                         "--budget", budget)
    assert code == 2 and err.count("\n") == 1 and err.startswith("kniffel: error: --budget")


def test_cli_budget_alone_is_not_ignored(capsys):
    code, out, err = run(capsys, "advise", "--dice", "66612", "--budget", "5")
    assert code == 2 and err == "kniffel: error: --budget goes with --opponent, --target or --why\n"
