"""The Dice Duel page's one tap "keep and roll" is one request: the move {"keep": [...], "roll":
...} gives the same game as the keep and the roll sent one after the other."""
from collections import Counter

import pytest

from solver.duel.multiplayer import record as multi_record
from solver.duel.rules import get_rules
from solver.game.card import GameError


def _rolled(seed, real_dice=False):
    game = multi_record.new_game(get_rules(), ["A", "B"], seed, real_dice=real_dice)
    roll = [1, 2, 3, 4, 6] if real_dice else True
    return multi_record.apply_move(game.record(), None, {"roll": roll})


@pytest.mark.parametrize("seed", [1, 5, 9])
def test_keep_and_roll_at_once_is_the_keep_then_the_roll(seed):
    record, hand = _rolled(seed)
    keep = sorted(hand)[:2]
    advice = {"not": "this decision's"}  # noted only when it is the position's (notes.py)
    one = multi_record.apply_move(record, hand, {"keep": keep, "roll": True}, advice)
    two = multi_record.apply_move(*multi_record.apply_move(record, hand, {"keep": keep}, advice),
                                  {"roll": True})
    assert one == two and len(one[1]) == 5 and not Counter(keep) - Counter(one[1])
    assert list(multi_record.rebuild(*one).dice) == one[1]  # the record and hand go on


def test_keep_and_roll_with_real_dice_takes_the_new_faces():
    record, hand = _rolled(None, real_dice=True)
    one = multi_record.apply_move(record, hand, {"keep": [6], "roll": [5, 5, 5, 5]})
    two = multi_record.apply_move(*multi_record.apply_move(record, hand, {"keep": [6]}),
                                  {"roll": [5, 5, 5, 5]})
    assert one == two and sorted(one[1]) == [5, 5, 5, 5, 6]


def test_keep_and_roll_refuses_what_either_refuses():
    record, hand = _rolled(3)
    with pytest.raises(GameError, match="seeded"):  # seeded dice are drawn, not typed
        multi_record.apply_move(record, hand, {"keep": hand[:1], "roll": [1, 2, 3, 4]})
    with pytest.raises(GameError):  # dice not in hand
        multi_record.apply_move(record, hand, {"keep": [7], "roll": True})
