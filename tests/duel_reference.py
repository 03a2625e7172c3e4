"""Independent, slow, obviously-correct reference for the solo Kniffel Dice Duel.

Written from the rule text (docs/rules.md, "`dice-duel` — Kniffel Dice Duel, solo") alone, not
from solver/duel/, so the tests can check the fast solver on end games with a few chips still
in play.  Plain Python, standard
library only.

A position is a dict {chip type: (plate, aside, mine)} for all seven types.  Its value is the
expected final score (chips held + bonuses) under optimal play from the start of a turn,
found by plain recursion with memoisation.  A turn is evaluated exhaustively: every sorted
roll, every sub-multiset of dice that may be kept, every chip (or pair of chips) that may be
taken.
"""
from collections import Counter
from functools import lru_cache
from itertools import combinations, product

CHIP_VALUE = {"two_pairs": 5, "three_kind": 10, "small_straight": 20, "flush": 25,
              "full_house": 30, "four_kind": 40, "large_straight": 50}
ORDER = sorted(CHIP_VALUE, key=CHIP_VALUE.get)  # least valuable first
RED = {2, 4, 6}
DEFAULTS = {"rolls_per_turn": 3, "four_of_a_kind_two_pairs": False, "may_decline_chip": False,
            "gold_bonus": 50, "silver_bonus": 20, "full_stack_bonus": 30, "last_chip_bonus": 20}


@lru_cache(maxsize=None)
def outcomes(n):
    """{sorted faces of n dice: probability}."""
    found = Counter(tuple(sorted(faces)) for faces in product(range(1, 7), repeat=n))
    return {faces: count / 6 ** n for faces, count in found.items()}


def earned(dice, four_as_two_pairs):
    """Chip types a roll (not five of a kind) earns."""
    counts = sorted(Counter(dice).values(), reverse=True)
    faces = set(dice)
    runs = [set(range(s, s + 4)) for s in (1, 2, 3)]
    types = set()
    if counts[0] >= 2 and len(counts) > 1 and counts[1] >= 2:
        types.add("two_pairs")
    if four_as_two_pairs and counts[0] >= 4:
        types.add("two_pairs")
    if counts[0] >= 3:
        types.add("three_kind")
    if any(run <= faces for run in runs):
        types.add("small_straight")
    if all(d in RED for d in dice) or not any(d in RED for d in dice):
        types.add("flush")
    if counts == [3, 2]:
        types.add("full_house")
    if counts[0] >= 4:
        types.add("four_kind")
    if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}):
        types.add("large_straight")
    return types


def final_score(position, rules):
    held = [name for name in ORDER if position[name][2] > 0]
    score = sum(CHIP_VALUE[name] * position[name][2] for name in ORDER)
    score += rules["full_stack_bonus"] * sum(position[name][2] == 4 for name in ORDER)
    if len(held) == 7:
        score += rules["gold_bonus"]
    elif len(held) == 6:
        score += rules["silver_bonus"]
    return score


def end_of_turn(position, dice, rules):
    """[(next position, points won now)] for every legal choice after the final roll."""
    plate_chips = sum(position[n][0] for n in ORDER)
    if len(set(dice)) == 1:  # Kniffel: any two chips, from the plate or set aside
        pool = [(n, "plate") for n in ORDER for _ in range(position[n][0])]
        pool += [(n, "aside") for n in ORDER for _ in range(position[n][1])]
        takes = {tuple(sorted(pair)) for pair in combinations(pool, 2)}
        if len(pool) == 1:
            takes.add((pool[0],))
        if rules["may_decline_chip"]:
            takes |= {(chip,) for chip in pool} | {()}
    else:
        takes = {((n, "plate"),) for n in earned(dice, rules["four_of_a_kind_two_pairs"])
                 if position[n][0] > 0}
        if not takes or rules["may_decline_chip"]:
            takes.add(())
    results = []
    for take in takes:
        after = {n: list(position[n]) for n in ORDER}
        for name, place in take:
            after[name][0 if place == "plate" else 1] -= 1
            after[name][2] += 1
        if not take:  # no chip this turn: the most valuable plate chip is set aside
            top = max((n for n in ORDER if position[n][0] > 0), key=CHIP_VALUE.get)
            after[top][0] -= 1
            after[top][1] += 1
        emptied = any(place == "plate" for _, place in take) and \
            sum(after[n][0] for n in ORDER) == 0
        assert plate_chips > 0
        results.append(({n: tuple(c) for n, c in after.items()},
                        rules["last_chip_bonus"] if emptied else 0))
    return results


def value(position, **options):
    """Expected final score of `position` at the start of a turn, optimal solo play."""
    rules = dict(DEFAULTS, **options)
    key = tuple(position[n] for n in ORDER)
    return _value(key, tuple(sorted(rules.items())))


@lru_cache(maxsize=None)
def _value(key, rules_items):
    rules = dict(rules_items)
    position = dict(zip(ORDER, key))
    if sum(p for p, _, _ in key) == 0:
        return float(final_score(position, rules))
    final = {}

    def end_value(roll):
        if roll not in final:
            final[roll] = max(_value(tuple(after[n] for n in ORDER), rules_items) + won
                              for after, won in end_of_turn(position, roll, rules))
        return final[roll]

    @lru_cache(maxsize=None)
    def roll_value(roll, rolls_left):
        best = end_value(roll)
        if rolls_left:
            keeps = {tuple(sorted(k)) for size in range(5) for k in combinations(roll, size)}
            best = max([best] + [keep_value(k, rolls_left - 1) for k in keeps])
        return best

    @lru_cache(maxsize=None)
    def keep_value(keep, rolls_left):
        return sum(p * roll_value(tuple(sorted(keep + rest)), rolls_left)
                   for rest, p in outcomes(5 - len(keep)).items())

    return keep_value((), rules["rolls_per_turn"] - 1)
