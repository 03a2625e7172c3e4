"""Dice Duel advice for one position: which dice to keep, when to stop, which chips to take.

Plain numpy from a saved table (no numba): the end-of-turn moves come from the same rule code
the kernels compile (duel_rules.chip_moves / apply_move), the keep arithmetic from advice.py.
"""
from operator import itemgetter

import numpy as np
import orjson

from ... import dice as _dice  # `dice` is a parameter name of solo_advice()
from ...advice.goal import Goal
from ...advice.position import Advice, keep_values
from ...dice import sub_keep_indices
from ..rules import ASIDE, MAX_MOVES, N_TYPES, TYPES, apply_move, chip_moves
from ..states import Chips, parse_chips, rank, validate_chips
from ...advice.query import read_query
from ...rules import RulesError


class ChipsGoal(Goal):
    """The solo Dice Duel's objective, the expected final score of one player's chips; its
    Advice's position is the chips (`chips_facts`)."""
    kind = "points"

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
            option = {"action": "take",
                      "chips": [{"type": TYPES[c // 2], "from": "aside" if c % 2 == ASIDE else "plate"}
                                for c in move[:2] if c >= 0],
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


def checked_query(chips, rules, dice=None, rolls_left=None):
    """Validate a query: (Chips, roll index or None, rolls left); ValueError naming the problem."""
    if not isinstance(chips, Chips):
        chips = parse_chips(chips)
    validate_chips(chips)
    if dice is None:
        if rolls_left is not None:
            raise ValueError("rolls left needs dice")
        return chips, None, None
    if chips.over:
        raise ValueError("the game is over: the plate is empty")
    roll, rolls_left = _dice.checked_roll(dice, rolls_left, rules.rolls_per_turn)
    return chips, roll, rolls_left


def solo_advice(chips, table, dice=None, rolls_left=None):
    """Every choice for `chips` (a Chips or SPEC) with its expected final score, best first: an
    Advice.

    dice: five faces, or None for the value at the start of the turn.  With rolls left: every
    distinct keep and "stop" (end the turn now, best move); with none: every legal move."""
    chips, roll, rolls_left = checked_query(chips, table.rules, dice, rolls_left)
    if roll is None:
        return Advice(table.rules.key, chips.chips_value, float(table.values[chips.index]), [],
                      CHIPS, chips_facts(chips))
    moves = sorted(end_moves(chips, table, roll), key=_by_value, reverse=True)
    if rolls_left == 0:
        options = moves
    else:
        final = final_roll_values(chips, table)
        keeps = keep_values(final, final, rolls_left)
        stop = {"action": "stop", "then": {k: v for k, v in moves[0].items() if k != "expected_final_score"},
                "expected_final_score": moves[0]["expected_final_score"]}
        keep_list, indices = sub_keep_indices(roll)
        options = [stop] + [{"action": "keep", "keep": list(keep), "expected_final_score": value}
                            for keep, value in zip(keep_list, keeps[indices].tolist())]
        options.sort(key=_by_value, reverse=True)  # stable: stopping first on a tie
    return Advice(table.rules.key, chips.chips_value, options[0]["expected_final_score"], options,
                  CHIPS, chips_facts(chips))


_by_value = itemgetter("expected_final_score")

FIELDS = {"rules", "chips", "dice", "rolls_left"}
MULTI_FIELDS = {"players", "to_move", "round_chip_taken", "opponent_model"}  # 2+ players


def answer_lines(lines, default_rules, tables, top=None):
    """Yield one JSON text per line (bytes or str) of JSON queries {"rules"?, "chips"?, "dice"?,
    "rolls_left"?}: the advice, or {"error": "line N: ..."} for a bad line (blank, not UTF-8, not
    a query).  tables(rules) gives the table."""
    for number, line in enumerate(lines, 1):
        try:
            if not line.strip():
                raise ValueError("empty line")  # still answered: output line N is input line N
            query, rules = read_query(
                line, FIELDS | MULTI_FIELDS, default_rules, "dice-duel",
                lambda r: f"{r.key} is not Dice Duel; give such lines their own run")
            if MULTI_FIELDS & set(query) and query.get("players") != 1:
                yield orjson.dumps(multi_line(query, rules, top)).decode()
                continue
            if MULTI_FIELDS & set(query):
                raise ValueError("to_move and round_chip_taken need 2 or more players")
            dice = query.get("dice")
            if dice is not None and not isinstance(dice, list):
                raise ValueError("dice must be a list of five faces")
            chips = checked_query(query.get("chips", ""), rules, dice, query.get("rolls_left"))[0]
            advice = solo_advice(chips, tables(rules), dice, query.get("rolls_left"))
            yield orjson.dumps(advice.as_dict(top)).decode()
        except (ValueError, RulesError, TypeError, orjson.JSONDecodeError, OSError) as exc:
            yield orjson.dumps({"error": f"line {number}: {exc}"}).decode()


def multi_line(query, rules, top=None):
    """The advice (a dict) of one batch line with "players" (multi_advice.py)."""
    from ..multiplayer import advice as multi_advice
    if "players" not in query:
        raise ValueError("a line with to_move or round_chip_taken needs players")
    table = multi_advice.parse_table(rules, query["players"], query.get("chips"),
                                     query.get("to_move", 0), query.get("round_chip_taken", False))
    dice = query.get("dice")
    goal = multi_advice.SeatWinGoal(model=query.get("opponent_model", "best"))
    answer = goal.ranked(table, rules, dice, query.get("rolls_left"))  # as the one door answers it
    return answer.as_dict(top)

