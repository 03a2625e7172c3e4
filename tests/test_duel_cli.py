"""`kniffel solve/advise/rules --rules dice-duel`: JSON contracts, batch, errors, the table
store."""
import json
import subprocess
import sys

import numpy as np
import pytest
from conftest import run, solved

from solver.duel.states import N_STATES, START, parse_chips
from solver.engine.store import TableError, table_paths
from solver.engine.values import load_table
from solver.presets import get_rules


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    directory = tmp_path_factory.mktemp("duel-store")
    solved("dice-duel").save(directory)
    return directory



def test_solve_reports_and_saves_the_table(capsys, store):
    code, out, _ = run(capsys, "solve", "--rules", "dice-duel", "--tables", str(store), "--json")
    data = json.loads(out)
    assert code == 0 and data["solved"] is False  # the module's store already holds it
    assert data["states"] == N_STATES == 1_171_875
    assert data["expected_score"] == solved("dice-duel").expected_score
    assert data["expected_score"] == solved("dice-duel").values[START]
    code, out, _ = run(capsys, "solve", "--rules", "dice-duel", "--tables", str(store),
                       "--lang", "en")
    assert f"dice-duel: expected score {data['expected_score']:.7f}, 1,171,875 states" in out


def test_table_store_round_trip_and_checks(store, tmp_path):
    rules = get_rules("dice-duel")
    table = load_table(rules, store)
    assert np.array_equal(table.values, solved(rules).values)
    for src, dst in zip(table_paths(rules, store), table_paths(rules, tmp_path)):
        dst.write_bytes(src.read_bytes())
    other = get_rules("dice-duel", may_decline_chip=True)
    for src, dst in zip(table_paths(rules, tmp_path), table_paths(other, tmp_path)):
        dst.write_bytes(src.read_bytes())
    with pytest.raises(TableError, match="other rules"):
        load_table(other, tmp_path)
    npy = table_paths(rules, tmp_path)[0]
    blob = bytearray(npy.read_bytes())
    blob[-100] ^= 0xFF
    npy.write_bytes(bytes(blob))
    with pytest.raises(TableError, match="damaged"):
        load_table(rules, tmp_path)


def test_advise_json_contract(capsys, store):
    spec = "ls=0/1/3,4k=2/0/2"
    code, out, _ = run(capsys, "advise", "--rules", "dice-duel", "--tables", str(store), "--chips",
                       spec, "--dice", "3,3,3,3,3", "--rolls-left", "0", "--json")
    data = json.loads(out)
    assert code == 0 and data["rules"] == "dice-duel" and data["chips_value"] == 2 * 40 + 3 * 50
    assert data["chips"]["large_straight"] == {"plate": 0, "aside": 1, "mine": 3}
    options = data["options"]
    assert options[0]["expected_final_score"] == data["expected_final_score"]
    assert [o["expected_final_score"] for o in options] == sorted(
        (o["expected_final_score"] for o in options), reverse=True)
    # a Kniffel: any two chips, from the plate (6 types with chips there) or the one set aside
    assert all(o["action"] == "take" and len(o["chips"]) == 2 for o in options)
    assert len(options) == 7 * 6 // 2 + 6  # 7 sources: 21 mixed pairs, 6 same-type pairs
    assert {"type": "large_straight", "from": "aside"} in options[0]["chips"]
    code, out, _ = run(capsys, "advise", "--rules", "dice-duel", "--tables", str(store), "--chips",
                       spec, "--json")
    table = solved("dice-duel")
    assert json.loads(out)["expected_final_score"] == table.values[parse_chips(spec).index]


def test_one_door_answers_both_dice_duel_games_as_the_cli_prints(capsys, store):
    """solver.advise with a Dice Duel table: the chips of one player (expected final score) or
    a table of several players (chances to win), one Advice type whose JSON is the CLI's."""
    import solver
    from solver.duel.multiplayer.advice import parse_table
    table, spec = solved("dice-duel"), "ls=0/1/3,4k=2/0/2"
    solo = solver.advise(spec, table, dice=[2, 3, 4, 5, 6], rolls_left=1)
    code, out, _ = run(capsys, "advise", "--rules", "dice-duel", "--tables", str(store), "--chips",
                       spec, "--dice", "23456", "--rolls-left", "1", "--json")
    assert code == 0 and json.loads(out) == solo.as_dict() and solo.exact
    late = "ls=1/0/2/1,2p=0/0/2/2,3k=0/0/2/2,ss=0/0/2/2,fl=0/0/2/2,fh=0/0/2/2,4k=0/0/2/2"
    several = parse_table(table.rules, 2, late)  # few positions left: exact
    multi = solver.advise(several, table, dice=[2, 3, 4, 5, 5], rolls_left=1)
    code, out, _ = run(capsys, "advise", "--rules", "dice-duel", "--players", "2", "--chips",
                       late, "--dice", "23455", "--rolls-left", "1", "--json")
    assert code == 0 and json.loads(out) == multi.as_dict()
    assert multi.exact and multi.probability == multi.options[0]["probability"]
    assert type(multi) is type(solo)


def test_advise_text_ranks_keeps_and_stop(capsys, store):
    code, out, _ = run(capsys, "advise", "--rules", "dice-duel", "--tables", str(store),
                       "--dice", "23456", "--rolls-left", "2", "--top", "3", "--lang", "en")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("dice-duel: chips all on the plate; held 0 points")
    assert "stop: take Large straight" in lines[3] and lines[3].split()[-1] == "best"
    assert "keep 2 3 4 5, reroll 6" in lines[4] and lines[4].split()[-2] == "cost"
    assert lines[-1] == "  … and 29 more: --all shows every option"


@pytest.mark.parametrize("args, message", [
    (["--chips", "ls=1/1/1"], "add up to 4"),
    (["--chips", "2p=0/1/3"], "can be set aside only once"),
    (["--chips", "zz=4/0/0"], "unknown chip type"),
    (["--card", "ones=3"], "not Dice Duel options"),
    (["--dice", "12345", "--rolls-left", "3"], "rolls left must be 0-2"),
    (["--chips", ",".join(f"{t}=0/0/4" for t in ("2p", "3k", "ss", "fl", "fh", "4k", "ls")),
      "--dice", "12345"], "the game is over"),
])
def test_bad_duel_input_is_one_line_and_exit_2(capsys, store, args, message):
    code, out, err = run(capsys, "advise", "--rules", "dice-duel", "--tables", str(store), *args)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_chips_need_dice_duel_rules(capsys, store):
    code, _, err = run(capsys, "advise", "--tables", str(store), "--chips", "ls=0/0/4")
    assert code == 2 and "--chips needs --rules dice-duel" in err
    code, _, err = run(capsys, "simulate", "--rules", "dice-duel", "--tables", str(store))
    assert code == 2 and "scorecard" in err


def test_batch_answers_every_line(capsys, store, tmp_path):
    lines = [{"chips": "ls=0/1/3,4k=2/0/2", "dice": [3, 3, 3, 3, 3], "rolls_left": 0},
             {"chips": {"large_straight": [0, 1, 3],
                        "four_kind": {"plate": 2, "aside": 0, "mine": 2}},
              "dice": [3, 3, 3, 3, 3], "rolls_left": 0},
             {"chips": "ls=1/1/1"},
             {"rules": "yahtzee", "dice": [1, 2, 3, 4, 5]},
             {"card": {"ones": 3}}]
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(json.dumps(q) for q in lines) + "\n\n")
    code, out, _ = run(capsys, "advise", "--rules", "dice-duel", "--tables", str(store), "--batch",
                       str(path), "--top", "2")
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(answers) == 6  # the blank last line too: output line N is input line N
    assert answers[0] == answers[1] and len(answers[0]["options"]) == 2
    assert "line 3:" in answers[2]["error"] and "add up to 4" in answers[2]["error"]
    assert "not Dice Duel" in answers[3]["error"]
    assert "not Dice Duel options: card" in answers[4]["error"]
    assert answers[5] == {"error": "line 6: empty line"}
    # and a Dice Duel line in a scorecard batch is an error line, not a crash
    path.write_text(json.dumps({"rules": "dice-duel", "dice": [1, 2, 3, 4, 5]}) + "\n")
    code, out, _ = run(capsys, "advise", "--tables", str(store), "--batch", str(path))
    assert code == 0 and "has no scorecard" in json.loads(out)["error"]


def test_advise_from_saved_table_does_not_import_numba(store):
    script = ("import sys\n"
              "from solver.cli import main\n"
              "try:\n"
              f"    main(['advise', '--rules', 'dice-duel', '--tables', {str(store)!r}, "
              "'--dice', '23456', '--json'])\n"
              "except SystemExit:\n    pass\n"
              "print('numba' in sys.modules, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert done.stderr.strip().splitlines()[-1] == "False"
    assert json.loads(done.stdout)["options"][0]["action"] == "stop"


def test_rules_list_and_show(capsys, tmp_path):
    code, out, _ = run(capsys, "rules", "--json")
    presets = {p["name"]: p for p in json.loads(out)}
    assert presets["dice-duel"]["rules"]["may_decline_chip"] is False
    assert presets["dice-duel"]["rules"]["four_of_a_kind_two_pairs"] is False
    path = tmp_path / "duel.toml"
    path.write_text('preset = "dice-duel"\nfour_of_a_kind_two_pairs = true\n')
    code, out, _ = run(capsys, "rules", "--show", str(path), "--json")
    data = json.loads(out)
    assert data["name"].startswith("dice-duel-")
    assert data["rules"]["four_of_a_kind_two_pairs"] is True
    assert data["chips"]["large_straight"] == 50
    path.write_text('preset = "dice-duel"\nupper_bonus = 20\n')
    code, _, err = run(capsys, "rules", "--show", str(path))
    assert code == 2 and "does not apply to preset 'dice-duel'" in err


def test_solve_builds_the_horizon_table_only_when_asked(capsys, tmp_path, monkeypatch):
    """`kniffel solve --objective horizon` builds the levels into the store (here on a
    sub-game's numbering: the full table takes minutes), a second call loads them, and the
    advice of a 2-player position reads the table from the store it is given."""
    from solver.duel.multiplayer import advice as multi_advice
    from solver.duel.multiplayer import game as mg
    from solver.duel.multiplayer import horizon
    from solver.duel.multiplayer import universe as mu
    start = mg.Table((1, 1, 1, 0, 1, 0, 1), (0,) * 7,
                     ((2, 2, 1, 2, 1, 2, 1), (1, 1, 2, 2, 2, 2, 2)))
    sub = mu.reachable_universe(start.plate, start.aside, start.seats)
    monkeypatch.setattr(horizon, "full_universe",
                        lambda top: sub._replace(level_start=sub.level_start[:top + 2], top=top))
    store = tmp_path / "store"
    assert horizon.cached(get_rules("dice-duel"), store) is None  # nothing built by itself
    code, out, _ = run(capsys, "solve", "--rules", "dice-duel", "--objective", "horizon",
                       "--levels", "3", "--tables", str(store), "--json")
    data = json.loads(out)
    assert code == 0 and data["levels"] == 3 and sorted(data["built"]) == ["1", "2", "3"]
    code, out, _ = run(capsys, "solve", "--rules", "dice-duel", "--objective", "horizon",
                       "--levels", "3", "--tables", str(store), "--lang", "en")
    assert code == 0 and "loaded (use --force to solve again)" in out
    late = mg.Table((0, 1, 1, 0, 0, 0, 1), (0,) * 7, ((3, 2, 1, 2, 2, 2, 1), (1, 1, 2, 2, 2, 2, 2)))
    answer = multi_advice.win_chances(late, get_rules("dice-duel"), [1, 1, 2, 2, 3], 1,
                                      tables=str(store)).as_dict()
    assert answer["exact"] and "horizon table" in answer["method"] and "note" not in answer
    for args, message in ((["--rules", "kniffel", "--objective", "horizon"], "Dice Duel"),
                          (["--rules", "dice-duel", "--levels", "2"], "--objective horizon")):
        code, _, err = run(capsys, "solve", *args)
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1
