"""Dice Duel advice for one position: which dice to keep, when to stop, which chips to take.

Plain numpy from a saved table (no numba): the end-of-turn moves come from the same rule code
the kernels compile (duel_rules.chip_moves / apply_move), the keep arithmetic from advice.py.
"""
from operator import itemgetter

import numpy as np

from ... import dice as _dice  # `dice` is a parameter name of solo_advice()
from ...advice.goal import Goal
from ...advice.position import Advice, Query, keep_values
from ...dice import sub_keep_indices
from ..rules import ASIDE, MAX_MOVES, N_TYPES, TYPES, apply_move, chip_moves
from ..states import Chips, parse_chips, rank, validate_chips


class ChipsGoal(Goal):
    """The solo Dice Duel's objective, the expected final score of one player's chips; its
    Advice's position is the chips (`chips_facts`)."""
    kind = "points"

    def ranked(self, query, tables):
        """The Advice of a checked query (ask/request.py) from the solved table of its rules."""
        return ranked_chips(query, tables(query.rules))

    def answer_dict(self, advice, options):
        return {"rules": advice.rules, **advice.position,
                "expected_final_score": advice.expected_final_score, "options": options}


CHIPS = ChipsGoal()


def chips_facts(chips):
    """The chips as the advice JSON shows them."""
    return {"chips": chips.as_dict(), "chips_value": chips.chips_value, "over": chips.over}


def end_moves(chips, table, roll):
    """Every legal move after final roll `roll` (a roll index), as option dicts with their
    expected final score, in rule order (not ranked)."""
    rules = table.rules
    roll_category, category_mask = rules.categories
    category = int(roll_category[roll])
    plate, aside = list(chips.plate), list(chips.aside)
    moves = np.empty((MAX_MOVES, 3), dtype=np.int64)
    new_plate, new_aside = [0] * N_TYPES, [0] * N_TYPES
    options = []
    for move in moves[:chip_moves(plate, aside, category == 0, int(category_mask[category]),
                                  rules.may_decline_chip, moves)].tolist():
        last = apply_move(plate, aside, move, new_plate, new_aside)
        value = float(table.values[rank(new_plate, new_aside)]) + last * rules.last_chip_bonus
        if move[2] >= 0:
            option = {"action": "no_chip", "set_aside": TYPES[move[2]]}
        else:
            taken = [{"type": TYPES[c // 2], "from": "aside" if c % 2 == ASIDE else "plate"}
                     for c in move[:2] if c >= 0]
            option = {"action": "take", "chips": taken,
                      "last_chip_bonus": last * rules.last_chip_bonus}
        option["expected_final_score"] = value
        options.append(option)
    return options


def final_roll_values(chips, table):
    """Value of each of the 252 rolls when the turn ends with it (best move taken)."""
    categories = table.rules.categories[0]
    best = {}
    for c in np.unique(categories).tolist():
        roll = int(np.argmax(categories == c))  # any roll of the category: same moves
        best[c] = max(o["expected_final_score"] for o in end_moves(chips, table, roll))
    return np.array([best[c] for c in categories.tolist()])


def solo_advice(chips, table, dice=None, rolls_left=None):
    """Every choice for `chips` (a Chips or SPEC) with its expected final score, best first: an
    Advice (ask/request.py checks a question; this, a program's position).

    dice: five faces, or None for the value at the start of the turn.  With rolls left: every
    distinct keep and "stop" (end the turn now, best move); with none: every legal move."""
    if not isinstance(chips, Chips):
        chips = parse_chips(chips)
    validate_chips(chips)
    roll = None
    if dice is not None:
        if chips.over:
            raise ValueError("the game is over: the plate is empty")
        roll, rolls_left = _dice.checked_roll(dice, rolls_left, table.rules.rolls_per_turn)
    elif rolls_left is not None:
        raise ValueError("rolls left needs dice")
    return ranked_chips(Query(None, roll, rolls_left, chips, table.rules), table)


def ranked_chips(query, table):
    """The Advice of a checked query (its position the chips) from the solved `table`."""
    chips, roll, rolls_left = query.position, query.roll, query.rolls_left
    if roll is None:
        return Advice(table.rules.key, chips.chips_value, float(table.values[chips.index]), [],
                      CHIPS, chips_facts(chips))
    moves = sorted(end_moves(chips, table, roll), key=_by_value, reverse=True)
    if rolls_left == 0:
        options = moves
    else:
        final = final_roll_values(chips, table)
        keeps = keep_values(final, final, rolls_left)
        then = {k: v for k, v in moves[0].items() if k != "expected_final_score"}
        stop = {"action": "stop", "then": then,
                "expected_final_score": moves[0]["expected_final_score"]}
        keep_list, indices = sub_keep_indices(roll)
        options = [stop] + [{"action": "keep", "keep": list(keep), "expected_final_score": value}
                            for keep, value in zip(keep_list, keeps[indices].tolist())]
        options.sort(key=_by_value, reverse=True)  # stable: stopping first on a tie
    return Advice(table.rules.key, chips.chips_value, options[0]["expected_final_score"], options,
                  CHIPS, chips_facts(chips))


_by_value = itemgetter("expected_final_score")
