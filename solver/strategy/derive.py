"""Rules of thumb chosen by their exact price: forward selection over a pool of candidate rules.

The pools list rules a person can remember, most specific first (a made straight before a
draw to it, four alike before a pair).  Going down the pool, a rule joins the list (at its
place in pool order) when the exact expected score of the list with it (policy_eval.evaluate)
beats the list without it by at least MIN_GAIN; the box rules are chosen first (with no keep
rule, rerolling all five), then the keep rules.  At most MAX_KEEPS keep rules and MAX_BOXES box rules.
"""
from dataclasses import dataclass

from tqdm import tqdm

from .policy_eval import evaluate
from .thumb import UPPER_BOXES, BoxRule, KeepRule, RuleList

MIN_GAIN = 0.05  # points of expected score a rule must add to be worth remembering
MAX_KEEPS = 15
MAX_BOXES = 10
_STRAIGHTS = ("small_straight", "large_straight")

KEEP_POOL_13 = (
    KeepRule("kind", 5, ("kniffel",)),
    KeepRule("run5", 5, ("large_straight",)),
    KeepRule("run4", 4, _STRAIGHTS),
    KeepRule("full_house", 0, ("full_house",)),
    KeepRule("kind", 4),
    KeepRule("run5", 4, ("large_straight",)),
    KeepRule("kind", 3),
    KeepRule("two_pairs", 0, ("full_house",)),
    KeepRule("face", 6, ("sixes",)),
    KeepRule("kind_high", 2),
    KeepRule("run4", 3, _STRAIGHTS),
    KeepRule("kind", 2),
    KeepRule("face", 5, ("fives",)),
    KeepRule("high", 5),
    KeepRule("high", 4),
)

BOX_POOL_13 = (
    BoxRule("kniffel", 50),
    BoxRule("large_straight", 1),
    BoxRule("small_straight", 1),
    BoxRule("full_house", 1),
    BoxRule(UPPER_BOXES, 3),
    BoxRule("four_kind", 20),
    BoxRule("three_kind", 22),
    BoxRule("chance", 22),
    BoxRule("ones", 0),
    BoxRule("kniffel", 0),
    BoxRule(None, 0),
)


@dataclass
class Derived:
    """The chosen rule list and its curve: the exact score of each prefix (box rules first, then
    keep rules: (rules, score)), and the number of evaluations the selection took."""

    rules: RuleList
    curve: list  # [(n_rules, score)]
    tried: int


def derive(table, keep_pool=KEEP_POOL_13, box_pool=BOX_POOL_13, progress=False, threads=None):
    """Forward selection of rules of thumb for `table` (see the module's text)."""
    from .heuristic import heuristic
    scaffold = list(heuristic(table.rules).keeps)
    bar = tqdm(total=len(box_pool) + len(keep_pool), desc="choosing rules", unit="rule",
               disable=not progress, leave=False)

    def score(k, b):
        return evaluate(table, RuleList("candidate", tuple(k), tuple(b)), threads=threads)

    tried = 0
    boxes, current = [], score(scaffold, [])
    for rule in box_pool:
        bar.update()
        if len(boxes) < MAX_BOXES:
            value, tried = score(scaffold, boxes + [rule]), tried + 1
            if value >= current + MIN_GAIN:
                boxes, current = boxes + [rule], value
    keeps, current = [], score([], boxes)
    for rule in keep_pool:
        bar.update()
        if len(keeps) < MAX_KEEPS:
            value, tried = score(keeps + [rule], boxes), tried + 1
            if value >= current + MIN_GAIN:
                keeps, current = keeps + [rule], value
    bar.close()
    curve = [(n, score([], boxes[:n])) for n in range(len(boxes) + 1)]
    curve += [(len(boxes) + n, score(keeps[:n], boxes)) for n in range(1, len(keeps) + 1)]
    return Derived(RuleList("rules of thumb", tuple(keeps), tuple(boxes)), curve, tried)
