"""The command line of the target and win objectives: bad input is one line and exit 2; the win
advice of a late position in JSON."""
import json
import re

import pytest
from conftest import run, solved

from solver.lang import percent

LATE = ("ones=0,twos=6,threes=0,fours=12,fives=0,sixes=0,three_kind=20,four_kind=0,"
        "full_house=25,small_straight=30")


@pytest.mark.parametrize("args, message", [
    (["--target", "976"], "--target must be 0-975"),
    (["--target", "-1"], "--target must be 0-975"),
    (["--target", "200", "--opponent", "final=200"], "do not go together"),
    (["--rules", "dice-duel", "--target", "20"], "not Dice Duel options: --target"),
    (["--rules", "dice-duel", "--opponent", "final=20"], "not Dice Duel options: --opponent"),
    (["--opponent", "ones=7"], "--opponent 'ones=7': ones=7 is impossible"),
    (["--opponent", "final=abc"], "--opponent 'final=abc'"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, table_dir, args, message):
    code, out, err = run(capsys, "advise", "--dice", "1,2,3,4,5", *args)
    assert code == 2 and out == ""
    assert err.startswith("kniffel: error: ") and message in err and err.count("\n") == 1


def test_win_advice_json(capsys, table_dir):
    code, out, err = run(capsys, "advise", "--card", LATE, "--dice", "5,5,5,6,6",
                         "--rolls-left", "1", "--opponent", "final=150", "--ties", "lose", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["objective"] == {"win": {"opponents": [{"final": 150}], "ties": "lose"}}
    probs = [o["probability"] for o in data["options"]]
    assert data["probability"] == probs[0] == max(probs) and 0 < probs[0] < 1
    assert all("expected_final_score" in o for o in data["options"])
    code, out, err = run(capsys, "advise", "--lang", "en", "--card", LATE, "--dice", "5,5,5,6,6",
                         "--rolls-left", "1", "--opponent", "final=150", "--ties", "lose")
    assert code == 0 and "P(win)" in out and "playing safe costs" not in out
    assert out.splitlines()[0].startswith("kniffel: card total 93, playing for a win against "
                                          "1 player (ties lost): "
                                          f"P(win) {percent(data['probability'])}")
    assert out.splitlines()[-1].startswith(("playing to win is the riskier choice",
                                            "playing to win is the safer choice",
                                            "this choice is also the best for points"))
    # ten shown, as plain advise
    assert "  … and " in out and "more: --all shows every option" in out


def test_batch_lines_with_an_objective(capsys, table_dir, tmp_path):
    card = dict(pair.split("=") for pair in LATE.split(","))
    card = {k: int(v) for k, v in card.items()}
    lines = [json.dumps({"card": card, "dice": [5, 5, 5, 6, 6], "rolls_left": 1}),
             json.dumps({"card": card, "dice": [5, 5, 5, 6, 6], "rolls_left": 1,
                         "opponents": [{"final": 150}], "ties": "lose"}),
             json.dumps({"card": card, "target": 151, "opponents": []}),
             json.dumps({"card": card, "dice": [1, 2, 3, 4, 5], "rolls_left": 0})]
    batch = tmp_path / "in.jsonl"
    batch.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "advise", "--batch", str(batch), "--top", "2")
    assert code == 0, err
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == 4
    assert "objective" not in answers[0] and len(answers[0]["options"]) == 2
    assert answers[1]["objective"]["win"]["ties"] == "lose" and 0 < answers[1]["probability"] < 1
    assert answers[2] == {"error": "line 3: target and opponents do not go together: pick one goal"}
    assert "options" in answers[3] and "objective" not in answers[3]


def test_batch_objective_lines_never_build_a_target_table(capsys, tmp_path):
    """A "target" line without a saved target table is answered for points, its fallback naming
    the command that builds it (the build takes minutes, never started here); "target" inside a
    card or a rules name is no goal; the lines after it keep their input line numbers."""
    store = tmp_path / "store"
    lines = [json.dumps({"rules": "kniffel-basic", "target": 100}),
             json.dumps({"rules": "kniffel-basic", "card": {"target": 3}}),
             "",
             json.dumps({"rules": "kniffel-basic", "opponents": [{"final": 10, "card": {}}]}),
             json.dumps({"rules": "kniffel-basic", "opponents": [{"final": 10**6}]}),
             json.dumps({"rules": "kniffel-basic", "card": {"ones": 7}})]
    batch = tmp_path / "in.jsonl"
    batch.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "advise", "--tables", str(store), "--batch", str(batch))
    assert code == 0, err
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == 6
    assert answers[0]["fallback"]["goal"] == "target:100" and answers[0]["options"] == []
    offer = answers[0]["offer"]  # what building the target table would cost: never started here
    assert offer["rules"] == "kniffel-basic" and offer["parts"] == ["target"]
    assert offer["disk_bytes"] > 1e8 and offer["seconds"] > 10
    assert answers[1]["error"].startswith("line 2: ") and "target" in answers[1]["error"]
    assert answers[2] == {"error": "line 3: empty line"}
    assert answers[3]["error"].startswith('line 4: opponents must be a list of')
    assert answers[4]["error"].startswith("line 5: an opponent's final score must be 0-")
    assert answers[5]["error"].startswith("line 6: ")
    assert not list(store.glob("*target*"))  # nothing was built


@pytest.fixture
def late_sub_table(monkeypatch):
    """The target table of LATE's sub-game, served as the saved table (the whole kniffel table
    takes many minutes to build)."""
    from helpers import target_table

    from solver.engine.states import Position, position_state
    from solver.engine.target import table as store
    from solver.presets import get_rules
    from solver.rules.cards import parse_card
    rules = get_rules("kniffel")
    card = parse_card(LATE, rules)
    sub = target_table(rules, position_state(Position(card), rules).filled)
    monkeypatch.setattr(store, "load_target_table", lambda rules, directory=None: sub)
    return sub, card


def test_target_advice_text_and_json(capsys, table_dir, late_sub_table):
    from solver import advise
    sub, card = late_sub_table
    code, out, err = run(capsys, "advise", "--card", LATE, "--dice", "5,5,5,6,6",
                         "--rolls-left", "1", "--target", "160", "--json")
    assert code == 0, err
    data = json.loads(out)
    direct = advise(card, sub, [5, 5, 5, 6, 6], 1, objective="target:160")
    assert data == json.loads(direct.to_json()) and out == direct.to_json() + "\n"
    assert (data["objective"] == {"target": 160}
            and data["probability"] == data["options"][0]["probability"])
    assert all("reroll" in o for o in data["options"] if o["action"] == "keep")
    code, out, err = run(capsys, "advise", "--lang", "en", "--card", LATE, "--dice", "5,5,5,6,6",
                         "--rolls-left", "1", "--target", "160", "--top", "3")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("kniffel: card total 93, playing for a final score of 160+: "
                               f"P(>= 160) {percent(direct.probability)}, expected final score")
    # the position summary and the cost column, as plain advise shows them
    assert (lines[1].startswith("  filled: ")
            and any(line.startswith("  open:   ") for line in lines))
    assert "dice 5 5 5 6 6, 1 roll left" in lines
    head = next(line for line in lines if line.lstrip().startswith("#"))
    assert head.split()[-3:] == ["160)", "expected", "cost"]
    rows = [line for line in lines if re.match(r"^\s+\d+  ", line)]
    assert len(rows) == 3 and rows[0].endswith("  best")
    for row, option in zip(rows, direct.options):
        assert f"  {percent(option['probability'])}  " in row
        cost = direct.probability - option["probability"]
        assert row.endswith("best" if cost < 5e-10 else f"cost {percent(cost)}")
    assert f"  … and {len(direct.options) - 3} more: --all shows every option" in lines
    assert "playing safe costs" not in out
    code, every, err = run(capsys, "advise", "--lang", "en", "--card", LATE, "--dice", "5,5,5,6,6",
                           "--rolls-left", "1", "--target", "160", "--all")
    assert "keep 5 5 5, reroll 6 6" in every and "more: --all" not in every
    assert (len([line for line in every.splitlines() if re.match(r"^\s+\d+  ", line)])
            == len(direct.options))
    # the trade-off, worded by which choice is the riskier one (computed here again)
    from solver import advise
    from solver.advice.choices import matching_option, option_as_decision
    from solver.engine.states import Position
    plain = advise(Position(card), solved("kniffel"), [5, 5, 5, 6, 6], 1)
    mirror = matching_option(direct.options, option_as_decision(plain.options[0]))
    if abs(mirror["probability"] - direct.probability) < 5e-10:
        assert lines[-1].startswith("this choice is also the best for points")
    else:
        word = "riskier" if mirror["probability"] < 0.5 else "safer"
        assert lines[-1].startswith(f"playing to reach 160 is the {word} choice here")
        assert f"instead of {percent(mirror['probability'])}" in lines[-1]


def test_chances_is_at_least_expected_play_for_every_target(capsys, table_dir, late_sub_table):
    code, out, err = run(capsys, "chances", "--card", LATE, "--step", "5", "--json")
    assert code == 0, err
    curve = json.loads(out)
    rows = curve["rows"]
    assert len(rows) > 10
    for row in rows:
        assert row["best_probability"] >= row["expected_play_probability"] - 1e-9
        if row["target"] <= curve["card_total"]:
            assert row["best_probability"] == 1.0
    assert [r["best_probability"] for r in rows] == sorted((r["best_probability"] for r in rows),
                                                           reverse=True)
    code, out, err = run(capsys, "chances", "--card", LATE, "--step", "5", "--csv")
    assert code == 0 and out.splitlines()[0] == "target,best_probability,expected_play_probability"
    assert len(out.splitlines()) == len(rows) + 1


def test_a_missing_target_table_is_named_once_with_its_build(capsys, table_dir):
    """`chances` needs the whole target table: one line, exit 1; `advise --target` early in a
    game (its sub-game over the budget) advises for points and says why, once (it said it
    twice: "no target table ...; no target table ...")."""
    code, out, err = run(capsys, "chances")
    assert code == 1 and out == "" and err.count("\n") == 1, err
    assert "no target table for kniffel" in err and "kniffel solve --objective target" in err
    code, out, err = run(capsys, "advise", "--dice", "1,2,3,4,5", "--target", "200", "--lang", "en")
    assert code == 0 and out.count("no target table") == 1 and out.count("--build") == 1
    assert "advice for points: no target table for these rules" in out


def test_target_advice_checks_once_and_reads_one_table(capsys, table_dir, late_sub_table,
                                                       monkeypatch):
    """`advise --target`: the position and the dice are checked once, and only the target table
    is read (its text compares with points play from the expected values it holds)."""
    import solver.advice.position as position
    from solver import dice
    from solver.engine import values
    calls = []
    state, faces = position.card_state, dice.validate_dice
    monkeypatch.setattr(position, "card_state", lambda *a: calls.append("position") or state(*a))
    monkeypatch.setattr(dice, "validate_dice", lambda *a: calls.append("dice") or faces(*a))
    monkeypatch.setattr(values, "load_table",
                        lambda *a, **k: pytest.fail("the expected-score table was read"))
    code, out, err = run(capsys, "advise", "--card", LATE, "--dice", "5,5,5,6,6",
                         "--rolls-left", "1", "--target", "160")
    assert code == 0, err
    assert sorted(calls) == ["dice", "position"]
    assert "P(>= 160)" in out and "playing safe costs" not in out  # the trade-off worded by risk
