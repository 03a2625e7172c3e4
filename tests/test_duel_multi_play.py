"""The Dice Duel for 2 or more players played: the record, seeded and real dice, undo, replay,
resume and analysis, through the game code and the CLI."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import greedy_game, load_script

from solver.cli import cli
from solver.duel.multiplayer import analysis as multi_analysis
from solver.duel.multiplayer import game as mg
from solver.duel.multiplayer import record as multi_record
from solver.duel.rules import get_rules
from solver.game.card import GameError


def test_a_seeded_game_replays_to_its_scores_and_every_chip_is_accounted_for():
    record = greedy_game(2, seed=2)
    game = multi_record.replay(json.loads(json.dumps(record)))
    assert game.over and record["scores"] == mg.scores(game.table, game.rules)
    held = [sum(seat[t] for seat in game.table.seats) + game.table.aside[t] for t in range(7)]
    assert held == [4] * 7 and sum(game.table.plate) == 0
    assert greedy_game(2, seed=2) == record  # the same seed and decisions: the same game


def test_undo_takes_back_the_last_decision_and_rolls_the_same_dice_again():
    rules = get_rules()
    record, hand = multi_record.new_game(rules, ["A", "B"], 5).record(), None
    record, hand = multi_record.apply_move(record, hand, {"roll": True})
    first = hand
    record, hand = multi_record.apply_move(record, hand, {"keep": first[:2]})
    back, again = multi_record.apply_move(record, hand, {"undo": True})
    assert again == first and back["turns"] == []
    record, hand = multi_record.apply_move(back, again, {"keep": first[:2]})
    record, second = multi_record.apply_move(record, hand, {"roll": True})
    kept = multi_record.apply_move(back, again, {"keep": first[:2]})
    record2, hand2 = multi_record.apply_move(*kept, {"roll": True})
    assert second == hand2


def test_bad_moves_are_refused():
    rules = get_rules()
    record = multi_record.new_game(rules, ["A", "B"], 5).record()
    with pytest.raises(GameError, match="roll"):
        multi_record.apply_move(record, None, {"keep": [1]})
    with pytest.raises(GameError, match="seeded"):
        multi_record.apply_move(record, None, {"roll": [1, 2, 3, 4, 5]})
    record, hand = multi_record.apply_move(record, None, {"roll": True})
    with pytest.raises(GameError, match="not possible|unknown"):
        multi_record.apply_move(record, hand, {"take": "xx"})
    with pytest.raises(GameError, match="players"):
        multi_record.new_game(rules, ["A"] * 5)
    with pytest.raises(GameError):
        multi_record.replay({**record, "turns": [{"player": 1, "decisions": []}]})


def test_real_dice_take_the_new_dice_or_all_five():
    rules = get_rules()
    record = multi_record.new_game(rules, ["A", "B"], None, real_dice=True).record()
    record, hand = multi_record.apply_move(record, None, {"roll": [2, 3, 4, 5, 5]})
    record, hand = multi_record.apply_move(record, hand, {"keep": [2, 3, 4, 5]})
    record, hand = multi_record.apply_move(record, hand, {"roll": [6]})
    record, hand = multi_record.apply_move(record, hand, {"take": "ls"})
    game = multi_record.rebuild(record)
    assert game.table.seats[0][6] == 1 and game.table.to_move == 1


@pytest.fixture(scope="module")
def finished():
    return greedy_game(2, seed=3)


def test_analysis_of_a_whole_game(monkeypatch, finished):
    from solver.duel.multiplayer import exact as multi_exact
    monkeypatch.setattr(multi_exact, "EXACT_LIMIT", 500)  # estimates but the last few turns
    record = finished
    result = multi_analysis.analyze(record, games=16)
    assert result["finished"] and len(result["decisions"]) == sum(
        len(t["decisions"]) for t in record["turns"])
    assert all(row["lost"] is None or row["lost"] >= 0 for row in result["decisions"])
    assert sum(result["wins"]) == pytest.approx(1.0)


def test_play_resume_and_analyze_through_the_cli(tmp_path, monkeypatch, finished):
    from solver.duel.multiplayer import exact as multi_exact
    monkeypatch.setattr(multi_analysis, "ANALYSIS_GAMES", 64)
    monkeypatch.setattr(multi_exact, "EXACT_LIMIT", 500)
    path = tmp_path / "duel.json"
    runner = CliRunner()
    result = runner.invoke(cli, ["play", "--rules", "dice-duel", "--players", "Anna,Ben,Carla",
                                 "--seed", "4", "--record", str(path), "--lang", "en"],
                           input="\n\nq\n")
    assert result.exit_code == 0, result.output
    assert "Anna's turn" in result.output and "plate" in result.output
    record = json.loads(path.read_text())
    assert record["players"] == ["Anna", "Ben", "Carla"] and record["turns"]
    result = runner.invoke(cli, ["play", "--resume", str(path)], input="q\n")
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["play", "--rules", "dice-duel", "--players", "A,B,C,D,E"])
    assert result.exit_code == 2 and "2-4 Spieler" in result.output  # the pad's language
    result = runner.invoke(cli, ["play", "--rules", "dice-duel", "--players", "A,B,C,D,E",
                                 "--lang", "en"])
    assert result.exit_code == 2 and "2-4 players" in result.output
    done = tmp_path / "done.json"
    done.write_text(json.dumps(finished))
    result = runner.invoke(cli, ["analyze", str(done), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["finished"] is True


def test_tournament_blocks_and_the_results_figures(tmp_path):
    """The tournament's worker plays seeded games with the advice as users get it (the same
    seed: the same result, beside greedy self-play on it), and the docs/results.md block is
    what scripts/duel_figures.py writes from the results."""
    tournament = load_script("duel_tournament", "benchmarks")
    rows, decisions = tournament._block((2, 1, "greedy", 0, 1, 16, None))
    assert len(rows) == 1 and all(r[1] in (0.0, 0.5, 1.0) and r[2] in (0.0, 0.5, 1.0)
                                  for r in rows)
    assert tournament._block((2, 1, "greedy", 0, 1, 16, None))[0] == rows
    assert decisions and {d[0] for d in decisions} == {True, False}  # exact at the end
    summary = tournament.decision_summary(tournament.tally(decisions))
    assert set(summary) <= {"decisions", "exact_share", "start", "middle", "end"}
    assert summary == tournament.decision_summary(decisions)  # an older run's list alike
    figures = load_script("duel_figures")
    results = (Path(__file__).resolve().parent.parent / "docs" / "results.md").read_text(
        encoding="utf-8")
    assert figures.replace_block(results, figures.current_block()) == results, \
        "run scripts/duel_figures.py"


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 9), st.text(max_size=4),
                 st.lists(st.integers(-1, 7), max_size=6),
                 st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_records_and_moves_give_only_game_errors(data):
    """A record with any field of any decision (or the top level) replaced, and any move: the
    game answers or raises GameError with one line, never anything else."""
    rules = get_rules()
    record, hand = multi_record.new_game(rules, ["A", "B"], 3).record(), None
    for _ in range(data.draw(st.integers(0, 6))):
        try:
            record, hand = multi_record.apply_move(record, hand, {"roll": True} if hand is None
                                                   else {"keep": hand[:2]})
        except GameError:
            break
    record = json.loads(json.dumps(record))
    if data.draw(st.booleans()) and record["turns"]:
        decision = record["turns"][0]["decisions"][0]
        junk = data.draw(JUNK)  # drawn before the field, as the one-line form did
        decision[data.draw(st.sampled_from(["dice", "rolls_left", "keep", "take", "from"]))] = junk
    else:
        junk = data.draw(JUNK)
        field = data.draw(st.sampled_from(["rules", "players", "seed", "real_dice", "turns"]))
        record[field] = junk
    move = data.draw(st.one_of(JUNK, st.just({"roll": True}), st.just({"undo": True}),
                               st.fixed_dictionaries({}, optional={
        "roll": JUNK, "keep": JUNK, "take": JUNK, "from": JUNK, "no_chip": JUNK, "undo": JUNK})))
    try:
        multi_record.apply_move(record, data.draw(st.one_of(st.none(), JUNK)), move)
    except GameError as exc:
        assert str(exc) and "\n" not in str(exc)
