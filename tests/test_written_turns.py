"""Another player's turn written as the players write it (a box and its points, no dice): the
game takes it only at a turn's start in a real-dice game, undo takes it back, and the analysis
judges only the turns whose dice it saw."""
import pytest
from conftest import solved

from solver.ask import analysis
from solver.ask.tables import Tables
from solver.game import session
from solver.game.card import GameError
from solver.lang import Words


def _game(rules="kniffel", real=True):
    return session.new_record(rules, ["Anna", "Ben"], None if real else 1, real)


def test_written_turns_count_but_are_not_judged():
    record, hand = _game(), None
    boxes = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
             "full_house", "small_straight", "large_straight", "kniffel", "chance"]
    for box in boxes:
        record, hand = session.apply_move(record, None, {"roll": [1, 2, 3, 4, 5]})
        record, hand = session.apply_move(record, hand, {"box": box})
        points = {"small_straight": 30, "large_straight": 40, "chance": 15}.get(box, 0)
        record, hand = session.apply_move(record, None, {"write": {"box": box, "points": points}})
    result = analysis.analyze(record, Tables(preloaded=[solved("kniffel")]))
    anna, ben = result["players"]
    assert (anna["decisions"], anna["written"]) == (13, 0)
    assert (ben["decisions"], ben["written"], ben["loss"], ben["score"]) == (0, 13, 0, 85)
    assert all(d["name"] == "Anna" for d in result["decisions"])
    lines = analysis.report_lines(result, Words("en"))
    assert lines[-1] == "Ben: score 85; 13 turns written without dice, not judged"
    assert lines[-2].startswith("Anna: ")


def test_a_turn_is_written_only_at_its_start_with_real_dice_and_no_jokers():
    record, hand = session.apply_move(_game(), None, {"roll": [2, 2, 2, 3, 3]})
    with pytest.raises(GameError) as dice_in_hand:
        session.apply_move(record, hand, {"write": {"box": "chance", "points": 12}})
    assert dice_in_hand.value.text("de").startswith("ein Zug wird nur zu Beginn eingetragen")
    with pytest.raises(GameError, match="virtual dice"):
        session.apply_move(_game(real=False), None, {"write": {"box": "chance", "points": 12}})
    with pytest.raises(GameError, match="jokers"):
        session.apply_move(_game("knobeln"), None, {"write": {"box": "chance", "points": 12}})
    with pytest.raises(GameError) as wrong:
        session.apply_move(_game(), None, {"write": {"box": "full_house", "points": 20}})
    assert wrong.value.text("de") == "20 Punkte passen nicht in Full House; möglich: 0, 25"


def test_undo_takes_a_written_turn_back_without_dice():
    record, _ = session.apply_move(_game(), None, {"write": {"box": "kniffel", "points": 50}})
    assert record["turns"][0]["decisions"] == [{"written": True, "box": "kniffel", "points": 50,
                                                "extra_bonuses": 0}]
    back, hand = session.undo(record, None)
    assert back["turns"] == [] and hand is None
