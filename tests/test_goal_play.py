"""The coach and the analysis with a goal (`kniffel play --goal`, `kniffel analyze --goal`): the
chance they show is the win objective's, computed with the other players as they stand."""
import json

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import run, solved

from solver import advise, win_goal
from solver.advice.choices import matching_option
from solver.ask.request import RequestError, read_request
from solver.cli import cli
from solver.game.card import Game
from solver.game.record import save_record
from solver.lang import percent


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    directory = tmp_path_factory.mktemp("store")
    solved("kniffel").save(directory)
    return directory


def late_game(rounds=10, seed=4):
    """A two-player kniffel game after `rounds` rounds, each player taking the first legal box."""
    rng = np.random.default_rng(seed)
    game = Game(solved("kniffel").rules, ["Anna", "Ben"], real_dice=True)
    for _ in range(2 * rounds):
        turn = game.next_turn()
        turn.roll(rng.integers(1, 7, 5).tolist())
        turn.score(next(iter(turn.options())))
    return game


def test_the_goal_of_the_coach_is_read_as_every_question_s():
    win = read_request({"goal": "win", "opponents": [{"final": 0}]}).goal
    assert str(win) == "win" and read_request({"goal": "target:250"}).goal.target == 250
    for bad in ["", "winning", "target:", "target:x"]:
        with pytest.raises(RequestError, match="points, win or target:T|T must be"):
            read_request({"goal": bad})


def test_the_coach_ranks_by_the_chance_to_win(store, tmp_path):
    game = late_game()
    path = tmp_path / "late.json"
    save_record(game.record(), path)
    dice = [6, 6, 6, 2, 3]
    result = CliRunner().invoke(cli, ["play", "--lang", "en", "--resume", str(path), "--coach",
                                      "--goal", "win", "--tables", str(store)],
                                input="66623\n666\n666\nq\ny\n")
    assert result.exit_code == 0, result.output
    assert "coach for win (2 rolls left, dice 2 3 6 6 6): P(win)" in result.output
    opponent = {"card": game.columns[1].card, "kniffel_bonuses": game.columns[1].kniffel_bonuses}
    expected = advise(game.columns[0].position(), solved("kniffel"), dice=dice, rolls_left=2,
                      objective=win_goal([opponent]))
    top = expected.options[0]
    assert (f"{percent(top['probability']):>8} {top['expected_final_score']:9.2f}  best"
            in result.output)
    mine = matching_option(expected.options, {"keep": [6, 6, 6]})
    assert f"coach: P(win) {percent(mine['probability'])}, " in result.output


@pytest.mark.parametrize("args, message", [
    (["--goal", "win"], "--goal win needs other players"),
    (["--goal", "win", "--players", "2"], "add --coach"),
    (["--goal", "nope", "--coach"], "--goal must be points, win or target:T"),
    (["--goal", "target:2000", "--coach"], "T must be 0-"),
])
def test_bad_goals_are_one_line_and_exit_2(store, tmp_path, args, message):
    if args[:2] == ["--goal", "win"] and "--players" not in args:
        args = args + ["--coach"]
    result = CliRunner().invoke(cli, ["play", "--lang", "en", *args, "--record",
                                      str(tmp_path / "g.json"), "--tables", str(store)],
                                input="q\n")
    assert result.exit_code == 2 and message in result.output, result.output
    assert "Traceback" not in result.output


def test_analyze_reports_the_loss_in_the_chance_to_win(store, tmp_path, capsys):
    game = late_game(rounds=11)
    rng = np.random.default_rng(9)
    while not game.over:  # the last two rounds: Ben enters his first legal box, Anna plays well
        turn = game.next_turn()
        turn.roll(rng.integers(1, 7, 5).tolist())
        turn.score(next(iter(turn.options())))
    path = tmp_path / "game.json"
    save_record(game.record(), path)
    code, out, err = run(capsys, "analyze", "--lang", "en", str(path), "--goal", "win",
                         "--from-round", "12", "--tables", str(store), "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["goal"] == "win"
    late = [d for d in result["decisions"] if d["round"] >= 12]
    assert late and all("chance_loss" in d for d in late)
    assert not any("chance_loss" in d for d in result["decisions"] if d["round"] < 12)
    for d in late:
        assert 0 <= d["chance_choice"] <= d["chance_best"] <= 1
        assert d["chance_loss"] == pytest.approx(d["chance_best"] - d["chance_choice"], abs=1e-15)
    # the last decision of the game: the opponent has finished, so P(win) is 0, 1/2 or 1
    last = result["decisions"][-1]
    assert last["chance_choice"] in (0.0, 0.5, 1.0)
    for p in result["players"]:
        assert p["chance_loss"] == pytest.approx(sum(d.get("chance_loss", 0) for d in late
                                                     if d["name"] == p["name"]))
    code, out, err = run(capsys, "analyze", "--lang", "en", str(path), "--goal", "win",
                         "--from-round", "12", "--tables", str(store))
    assert code == 0 and "% win" in out and "of the chance to win" in out


def test_a_target_without_its_table_is_coached_for_points_and_says_why(store, tmp_path):
    """It was: exit 2, "--goal target needs the target table".  The one door answers a goal it
    cannot answer here for points and says why, once a game: early in a game the sub-game
    that stands in for the table is over the budget."""
    result = CliRunner().invoke(cli, ["play", "--lang", "en", "--coach", "--goal", "target:200",
                                      "--seed", "5", "--record", str(tmp_path / "g.json"),
                                      "--tables", str(store)], input="\nq\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("advice for points: no target table for these rules") == 1
    said = " ".join(result.output.split())  # the terminal wraps its lines
    assert "needs the win coach's tables of Kniffel" in said  # what a build costs
    assert "--build builds them now" in said
