"""`kniffel play`: undo, a mistyped real roll corrected, --resume, the question before q with
several players, held dice marked, the pad's box names and the summary at the end."""
import json

import pytest
from click.testing import CliRunner
from conftest import solved

from solver.cli import cli
from solver.game import session
from solver.game.record import replay

BOXES = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
         "full_house", "small_straight", "large_straight", "kniffel", "chance"]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    directory = tmp_path_factory.mktemp("store")
    solved("kniffel").save(directory)
    return directory


def play(store, *args, input, lang="en"):
    result = CliRunner().invoke(cli, ["play", "--lang", lang, *args, "--tables", str(store)],
                                input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def test_undo_takes_back_a_box_and_retaking_rolls_the_same_dice(store, tmp_path):
    straight = play(store, "--seed", "3", "--record", str(tmp_path / "a.json"),
                    input="a\nones\na\ntwos\nq\n")
    undone = play(store, "--seed", "3", "--record", str(tmp_path / "b.json"),
                  input="a\nchance\nu\nones\na\ntwos\nq\n")
    assert undone.exit_code == 0, undone.output
    assert "undone: dice" in undone.output
    a, b = (json.loads((tmp_path / n).read_text()) for n in ("a.json", "b.json"))
    assert (b["turns"] == a["turns"]
            and [t["decisions"][-1]["box"] for t in b["turns"]] == ["ones", "twos"])
    assert straight.exit_code == 0


def test_undo_of_a_keep_and_the_held_dice_marked(store, tmp_path):
    path = tmp_path / "keep.json"
    first = session.seeded_rng(8).integers(1, 7, 5).tolist()
    keep = "".join(map(str, sorted(first)[:2]))
    result = play(store, "--seed", "8", "--record", str(path), input=f"u\n{keep}\nu\n{keep}\nq\n")
    assert "nothing to undo" in result.output
    assert result.exit_code == 0, result.output
    roll_lines = [line for line in result.output.splitlines() if "roll 2:" in line]
    assert roll_lines and all("(* held)" in line for line in roll_lines)
    assert roll_lines[0].split("(")[0] == roll_lines[-1].split("(")[0]  # the same dice again
    assert roll_lines[0].count("*") == 2 + 1  # two dice held, and the legend
    saved = json.loads(path.read_text())
    assert [d["keep"] for d in saved["turns"][0]["decisions"]] == [sorted(first)[:2]]


def test_a_mistyped_real_roll_is_typed_again(store, tmp_path):
    path = tmp_path / "real.json"
    result = play(store, "--real-dice", "--record", str(path),
                  input="13356\nu\n12345\na\nlarge_straight\nq\n")
    assert result.exit_code == 0, result.output
    assert "undone: type the roll again" in result.output
    turns = json.loads(path.read_text())["turns"]
    assert turns[0]["decisions"] == [{"dice": [1, 2, 3, 4, 5], "rolls_left": 2, "jokers": [],
                                      "box": "large_straight", "points": 40, "extra_bonuses": 0}]


def test_resume_goes_on_with_the_same_dice(store, tmp_path):
    whole = tmp_path / "whole.json"
    play(store, "--seed", "5", "--record", str(whole), input="\na\nchance\na\nones\nq\n")
    part = tmp_path / "part.json"
    play(store, "--seed", "5", "--record", str(part), input="\nq\n")  # stopped after a reroll
    result = play(store, "--resume", str(part), input="a\nchance\na\nones\nq\n")
    assert result.exit_code == 0, result.output
    assert json.loads(part.read_text())["turns"] == json.loads(whole.read_text())["turns"]
    bad = play(store, "--resume", str(part), "--players", "3", input="")
    assert bad.exit_code == 2 and "--resume takes the rules" in bad.output


def test_q_asks_first_with_several_players(store, tmp_path):
    path = tmp_path / "two.json"
    result = play(store, "--players", "Anna,Ben", "--seed", "1", "--record", str(path),
                  input="q\nn\nq\nyes\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("end the game for every player?") == 2
    assert json.loads(path.read_text())["finished"] is False


def test_a_whole_game_ends_with_the_summary_and_german_names(store, tmp_path):
    path = tmp_path / "whole.json"
    script = "".join(f"a\n{box}\n" for box in BOXES)
    result = play(store, "--seed", "2", "--record", str(path), input=script, lang="de")
    assert result.exit_code == 0, result.output
    assert "Dreierpasch" in result.output and "Große Straße" in result.output
    assert "Erwartete Endpunktzahl zu Beginn, bestes Spiel: 250.77." in result.output
    record = json.loads(path.read_text())
    score = replay(record).totals()["you"]
    line = next(line for line in result.output.splitlines() if line.startswith("du: "))
    assert line.startswith(f"du: {score}, ") and "von 13 Entscheidungen optimal" in line
    assert float(line.split(", ")[1].split()[0]) > 0  # scoring on the first roll is poor play
