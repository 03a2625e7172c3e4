"""The `kniffel` command: JSON contracts, bad input (one line, exit 2), the table store."""
import json
import subprocess
import sys

import numpy as np
import pytest
from conftest import run, solved


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A table store holding solved yahtzee and kniffel tables."""
    directory = tmp_path_factory.mktemp("store")
    for name in ("yahtzee", "kniffel"):
        solved(name).save(directory)
    return directory



def test_solve_json_reports_the_table(capsys, tmp_path):
    code, out, _ = run(capsys, "solve", "--rules", "yahtzee", "--tables", str(tmp_path), "--json")
    assert code == 0
    data = json.loads(out)
    contract = {"rules", "expected_score", "states", "seconds", "path"}
    assert contract <= set(data)
    assert data["rules"] == "yahtzee" and data["states"] == 536_448
    assert data["expected_score"] == pytest.approx(254.5877287, abs=1e-6)
    assert (tmp_path / "yahtzee.npy").exists() and (tmp_path / "yahtzee.json").exists()
    assert not list(tmp_path.glob("*.tmp")), "temporary files left behind"
    # a second call loads the valid table; --force solves again
    code, out, _ = run(capsys, "solve", "--rules", "yahtzee", "--tables", str(tmp_path), "--json")
    assert json.loads(out)["solved"] is False
    code, out, _ = run(capsys, "solve", "--rules", "yahtzee", "--tables", str(tmp_path), "--json",
                       "--force")
    assert json.loads(out)["solved"] is True


def test_advise_json_contract(capsys, store):
    code, out, _ = run(capsys, "advise", "--rules", "yahtzee", "--tables", str(store),
                       "--card", "ones=3,fives=15,full_house=25,kniffel=50",
                       "--dice", "1,3,3,5,6", "--rolls-left", "2", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["rules"] == "yahtzee" and data["card_total"] == 93
    options = data["options"]
    assert options[0]["expected_final_score"] == data["expected_final_score"]
    assert [o["expected_final_score"] for o in options] == sorted(
        (o["expected_final_score"] for o in options), reverse=True)
    assert {o["action"] for o in options} == {"keep", "score"}
    keep = next(o for o in options if o["action"] == "keep")
    assert set(keep) == {"action", "keep", "reroll", "expected_final_score"}
    score = next(o for o in options if o["action"] == "score")
    assert set(score) == {"action", "box", "points", "bonus", "upper_bonus", "extra_bonus",
                          "expected_final_score"}
    code, out, _ = run(capsys, "advise", "--rules", "yahtzee", "--tables", str(store),
                       "--dice", "13356", "--rolls-left", "0", "--json", "--top", "3")
    assert len(json.loads(out)["options"]) == 3


def test_advise_without_dice_is_the_turn_start_value(capsys, store):
    code, out, _ = run(capsys, "advise", "--rules", "yahtzee", "--tables", str(store), "--json")
    data = json.loads(out)
    assert data["expected_final_score"] == pytest.approx(254.5877287, abs=1e-6)
    assert data["options"] == []
    code, out, _ = run(capsys, "advise", "--rules", "kniffel", "--tables", str(store),
                       "--card", "dreierpasch=20,kleine_strasse=30,kniffel=50",
                       "--kniffel-bonuses", "1")
    assert code == 0 and "150 Punkte auf dem Block" in out  # the kniffel pad's language: German


def test_advise_text_shows_ranked_choices_with_cost(capsys, store):
    code, out, _ = run(capsys, "advise", "--rules", "yahtzee", "--tables", str(store),
                       "--dice", "1,3,3,5,6", "--rolls-left", "2", "--top", "2")
    assert code == 0
    lines = out.splitlines()
    assert lines[-3].split()[:4] == ["1", "keep", "3", "3,"] and lines[-3].endswith("best")
    assert "more: --all shows every option" in lines[-1]


@pytest.mark.parametrize("args, message", [
    (["--card", "full_house=20"], "full_house=20 is impossible"),
    (["--card", "ones=7"], "ones=7 is impossible"),
    (["--card", "bogus=3"], "unknown box 'bogus'"),
    (["--card", "ones"], "must look like box=points"),
    (["--card", "ones=3,einser=3"], "given twice"),
    (["--dice", "1,2,3"], "exactly 5 dice"),
    (["--dice", "1,2,3,4,7"], "not 1-6"),
    (["--dice", "abcde"], "five faces"),
    (["--dice", "12345", "--rolls-left", "3"], "rolls left must be 0-2"),
    (["--dice", "12345", "--rolls-left", "-1"], "rolls left must be 0-2"),
    (["--rolls-left", "1"], "needs --dice"),
    (["--rules", "nope"], "unknown rules 'nope'"),
    (["--kniffel-bonuses", "1"], "needs the kniffel box filled"),
    (["--no-such-option"], "No such option"),
    (["--jokers-left", "1"], "yahtzee has no jokers"),
    (["--rules", "missing.toml"], "cannot read rules file"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, store, args, message):
    code, out, err = run(capsys, "advise", "--rules", "yahtzee", "--tables", str(store), *args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("kniffel: error: ")
    assert message in err


def test_rules_file_with_unknown_option_is_rejected(capsys, tmp_path, store):
    path = tmp_path / "house.json"
    path.write_text(json.dumps({"preset": "kniffel-basic", "lucky_sevens": True}))
    code, _, err = run(capsys, "advise", "--rules", str(path), "--tables", str(store))
    assert code == 2 and "unknown rules option 'lucky_sevens'" in err
    path.write_text("{not json")
    code, _, err = run(capsys, "solve", "--rules", str(path), "--tables", str(store))
    assert code == 2 and "not valid JSON" in err


def test_rules_file_json_and_toml(capsys, tmp_path):
    toml = tmp_path / "house.toml"
    toml.write_text('preset = "kniffel-basic"\nfive_of_a_kind_is_full_house = true\n')
    code, out, _ = run(capsys, "solve", "--rules", str(toml), "--tables", str(tmp_path), "--json")
    data = json.loads(out)
    assert data["expected_score"] == pytest.approx(245.904728, abs=1e-6)
    assert data["rules"].startswith("kniffel-basic-")  # its own table name
    js = tmp_path / "house.json"
    js.write_text(json.dumps({"preset": "kniffel-basic", "five_of_a_kind_is_full_house": True}))
    code, out, _ = run(capsys, "solve", "--rules", str(js), "--tables", str(tmp_path), "--json")
    assert json.loads(out)["rules"] == data["rules"] and json.loads(out)["solved"] is False


def test_batch_answers_every_line_and_reports_bad_ones(capsys, store, tmp_path):
    lines = [
        {"card": {"ones": 3}, "dice": [2, 2, 2, 5, 6], "rolls_left": 1},
        {"card": {"full_house": 20}},
        "not json",
        {"rules": "kniffel", "card": {"kniffel": 50}, "dice": [3, 3, 3, 3, 3], "rolls_left": 0},
        {"dice": [1, 2, 3]},
        {},
    ]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
                    + "\n")
    code, out, _ = run(capsys, "advise", "--rules", "yahtzee", "--tables", str(store),
                       "--batch", str(path))
    assert code == 0
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == len(lines)
    assert [("error" in r) for r in results] == [False, True, True, False, True, False]
    assert "full_house=20" in results[1]["error"]
    assert results[3]["rules"] == "kniffel" and results[3]["options"][0]["bonus"] >= 50
    assert results[5]["expected_final_score"] == pytest.approx(254.5877287, abs=1e-6)
    single = run(capsys, "advise", "--rules", "yahtzee", "--tables", str(store), "--card", "ones=3",
                 "--dice", "22256", "--rolls-left", "1", "--json")[1]
    assert json.loads(single) == results[0]


def test_knobeln_joker_advice_from_the_command_line(capsys, tmp_path):
    solved("knobeln").save(tmp_path)
    code, out, _ = run(capsys, "advise", "--rules", "knobeln", "--tables", str(tmp_path),
                       "--jokers-left", "2", "--dice", "2,3,4,5,5", "--rolls-left", "0", "--json")
    options = json.loads(out)["options"]
    straight = [o for o in options if o.get("joker") and o["box"] == "large_straight"
                and o["points"] == 40]
    assert straight and straight[0]["joker"] in ({"from": 5, "to": 1}, {"from": 5, "to": 6})
    code, _, err = run(capsys, "advise", "--rules", "knobeln", "--tables", str(tmp_path),
                       "--jokers-left", "4")
    assert code == 2 and "jokers left must be 0-3" in err
    query = json.dumps({"card": {}, "dice": [2, 3, 4, 5, 5], "rolls_left": 0, "jokers_left": 2})
    done = subprocess.run([sys.executable, "-m", "solver.cli", "advise", "--rules", "knobeln",
                           "--tables", str(tmp_path), "--batch", "-"], input=query + "\n",
                          capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["options"] == options


def test_rules_show(capsys, tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('preset = "knobeln"\njokers = 2\n')
    code, out, _ = run(capsys, "rules", "--show", str(path), "--json")
    data = json.loads(out)
    assert data["rules"]["jokers"] == 2 and data["name"].startswith("knobeln-")
    code, out, _ = run(capsys, "rules", "--show", "yatzy")
    assert "upper_bonus" in out and "50" in out and "two_pairs" in out
    path.write_text('preset = "knobeln"\njoker_requires = "filled"\n')
    code, _, err = run(capsys, "rules", "--show", str(path))
    assert code == 2 and "has no effect" in err


def test_rules_lists_presets(capsys):
    code, out, _ = run(capsys, "rules", "--json")
    names = [p["name"] for p in json.loads(out)]
    assert names[:2] == ["kniffel", "kniffel-basic"] and "yatzy" in names
    assert all(p["description"] for p in json.loads(out))


def test_every_command_has_an_example_in_help(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "Example:" in out
    for command in ("solve", "advise", "simulate", "rules"):
        code, out, _ = run(capsys, command, "--help")
        assert code == 0 and "Example:" in out and "kniffel " + command in out


def test_advise_from_saved_table_does_not_import_numba(store):
    script = ("import sys, io, contextlib\n"
              "from solver.cli import main\n"
              "try:\n"
              f"    main(['advise', '--rules', 'yahtzee', '--tables', {str(store)!r}, "
              "'--dice', '13356', '--json'])\n"
              "except SystemExit:\n    pass\n"
              "print('numba' in sys.modules, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert done.stderr.strip().splitlines()[-1] == "False"
    assert json.loads(done.stdout)["options"][0]["keep"] == [3, 3]


def test_console_script_errors_without_traceback(store):
    done = subprocess.run([sys.executable, "-m", "solver.cli", "advise", "--tables", str(store),
                           "--card", "ones=7"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def random_queries(rules, count, seed):
    """Batch queries: random cards (points from real rolls), dice and rolls left."""
    rng = np.random.default_rng(seed)
    queries = []
    for _ in range(count):
        boxes = rng.choice(rules.n_boxes, int(rng.integers(0, rules.n_boxes - 1)), replace=False)
        card = {rules.boxes[b]: int(rules.plain_score[b, rng.integers(252)]) for b in boxes}
        queries.append({"card": card, "dice": [int(d) for d in rng.integers(1, 7, 5)],
                        "rolls_left": int(rng.integers(0, rules.rolls_per_turn))})
    return queries


def test_batch_worker_processes_answer_like_one_process():
    from solver.ask.batch import answer_lines
    from solver.ask.tables import Tables
    from solver.presets import get_rules
    rules = get_rules("yahtzee")
    table = solved(rules)
    lines = [json.dumps(q) if i % 500 else "{bad json"
             for i, q in enumerate(random_queries(rules, 2500, seed=3))]
    one = b"\n".join(answer_lines(lines, rules, Tables(preloaded=[table]),
                                  processes=1)).decode().splitlines()
    two = b"\n".join(answer_lines(lines, rules, Tables(preloaded=[table]), processes=2,
                                  chunk=600)).decode().splitlines()
    assert one == two and len(one) == 2500
    assert sum("error" in json.loads(t) for t in one) == 5


@pytest.mark.parametrize("name, options, top", [
    ("yahtzee", {}, None), ("kniffel", {}, 3), ("knobeln", {}, None),
    ("knobeln", {"jokers_per_turn": 2}, 10)])
def test_batch_text_is_the_advice_json_byte_for_byte(name, options, top):
    import orjson

    from solver import advise
    from solver.ask.batch import answer_lines
    from solver.ask.tables import Tables
    from solver.engine.states import Position
    from solver.presets import get_rules
    rules = get_rules(name, **options)
    table = solved(rules)
    queries = random_queries(rules, 300, seed=8)
    texts = b"\n".join(answer_lines([json.dumps(q) for q in queries], rules,
                                    Tables(preloaded=[table]), top,
                                    processes=1)).decode().splitlines()
    for query, text in zip(queries, texts):
        advice = advise(Position(query["card"]), table, dice=query["dice"],
                        rolls_left=query["rolls_left"])
        assert text == orjson.dumps(advice.as_dict(top)).decode()


@pytest.mark.slow
def test_simulate_reports_optimal_and_greedy(capsys, store):
    code, out, _ = run(capsys, "simulate", "--rules", "yahtzee", "--tables", str(store), "--games",
                       "20000", "--seed", "7", "--compare", "greedy", "--json")
    assert code == 0
    data = json.loads(out)
    optimal, greedy = data["strategies"]["optimal"], data["strategies"]["greedy"]
    se = optimal["sd"] / 20000 ** 0.5
    assert abs(optimal["mean"] - 254.5877287) < 4 * se  # the solved value
    assert optimal["mean_ci95"] == pytest.approx(1.959964 * se, rel=1e-6)
    assert greedy["mean"] < optimal["mean"] - 50  # what optimal play is worth
    assert (optimal["percentiles"]["1"] <= optimal["percentiles"]["50"]
            <= optimal["percentiles"]["99"])
    assert 0.6 < optimal["upper_bonus"]["p"] < 0.75 and optimal["at_least"]["200"]["p"] > 0.8
    code, again, _ = run(capsys, "simulate", "--rules", "yahtzee", "--tables", str(store),
                         "--games", "20000", "--seed", "7", "--json", "--quiet")
    assert json.loads(again)["strategies"]["optimal"] == optimal  # same seed, same games
    code, text, _ = run(capsys, "simulate", "--rules", "yahtzee", "--tables", str(store), "--games",
                        "500", "--compare", "greedy")
    assert code == 0 and "mean (95% CI)" in text and "greedy" in text
    code, _, err = run(capsys, "simulate", "--games", "0")
    assert code == 2 and err.startswith("kniffel: error:")


def test_unwritable_table_store_is_one_line(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, out, err = run(capsys, "solve", "--rules", "kniffel-basic",
                         "--tables", str(blocker / "x"), "--quiet")
    assert code == 1 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("kniffel: error: ") and "Traceback" not in err
