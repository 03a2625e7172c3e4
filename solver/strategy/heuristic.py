"""The "sensible human" baseline: a fixed rule list written the way a club player plays, without
any solved table.  Keep what makes the lower boxes (straights, full house, sets), else pairs, else
high dice; put each roll where it scores well, three or more of a face in its upper box, and
scratch the cheap boxes first.  It is a RuleList, so it is evaluated exactly and simulated by the
same code as every rule list (policy_eval.py)."""
from .thumb import UPPER_BOXES, BoxRule, KeepRule, RuleList

_UPPER_THREE = (BoxRule(UPPER_BOXES, 3),)  # three or more of a face: its upper box

HEURISTIC_13 = RuleList(
    "heuristic",
    keeps=(
        KeepRule("kind", 5, ("kniffel",)),
        KeepRule("run5", 5, ("large_straight",)),
        KeepRule("run4", 4, ("small_straight", "large_straight")),
        KeepRule("full_house", 0, ("full_house",)),
        KeepRule("kind", 3),
        KeepRule("two_pairs", 0, ("full_house",)),
        KeepRule("kind_high", 2),
        KeepRule("run4", 3, ("small_straight", "large_straight")),
        KeepRule("kind", 2),
        KeepRule("high", 5),
    ),
    boxes=(
        BoxRule("kniffel", 50),
        BoxRule("large_straight", 1),
        BoxRule("small_straight", 1),
        BoxRule("full_house", 1),
        BoxRule("four_kind", 20),
    ) + _UPPER_THREE + (
        BoxRule("three_kind", 22),
        BoxRule("chance", 22),
        BoxRule("four_kind", 1),
        BoxRule("three_kind", 1),
        BoxRule("ones", 0),
        BoxRule("kniffel", 0),
        BoxRule("twos", 0),
        BoxRule(None, 0),
    ),
)

HEURISTIC_YATZY = RuleList(
    "heuristic",
    keeps=(
        KeepRule("kind", 5, ("yatzy",)),
        KeepRule("run5", 5, ("small_straight", "large_straight")),
        KeepRule("run5", 4, ("small_straight", "large_straight")),
        KeepRule("full_house", 0, ("full_house",)),
        KeepRule("kind", 3),
        KeepRule("two_pairs", 0, ("two_pairs", "full_house")),
        KeepRule("kind_high", 2),
        KeepRule("kind", 2),
        KeepRule("high", 5),
    ),
    boxes=(
        BoxRule("yatzy", 50),
        BoxRule("large_straight", 1),
        BoxRule("small_straight", 1),
        BoxRule("full_house", 18),
        BoxRule("four_kind", 16),
    ) + _UPPER_THREE + (
        BoxRule("three_kind", 12),
        BoxRule("two_pairs", 14),
        BoxRule("one_pair", 10),
        BoxRule("chance", 20),
        BoxRule(UPPER_BOXES, 2),  # a pair into its upper box, rather than a zero elsewhere
        BoxRule(None, 8),  # else, the box scoring most, if it scores 8 or more
        BoxRule("ones", 0),
        BoxRule("yatzy", 0),
        BoxRule("twos", 0),
        BoxRule(None, 0),
    ),
)


def heuristic(rules):
    """The heuristic rule list for the box set of `rules`."""
    return HEURISTIC_YATZY if rules.box_set == "yatzy" else HEURISTIC_13
