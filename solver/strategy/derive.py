"""Rules of thumb chosen by their exact price: forward selection over a pool of candidate rules,
then removal of every rule that does not pay, each step judged by the exact expected score of the
whole list (policy_eval.evaluate).

The pool (`pool(rules)`) lists rules a person can remember, most specific first (a made straight
before a draw to it, four alike before a pair, scratch rules last); a list keeps its rules in pool
order, so a rule's place in the decision list is fixed by the pool.  The search:

1. forward: going down the pool, a rule joins the list when the list with it scores at least
   MIN_GAIN more than without it (at most MAX_RULES rules); the score after each rule that joins
   is the curve "exact score against the number of rules";
2. removal: each rule's price (the list's score without it) is computed exactly; the rules
   priced below MIN_PRICE go, and the rules beyond MAX_PRINTED (the cheapest first), and the
   prices are computed again until every rule pays;
3. (unless second_pass is False) a second forward pass over the rules left out, each kept only
   if the list stays within MAX_PRINTED, and every price is checked again at the end.
4. the ladder: the list with its cheapest rules dropped one at a time, each scored, so that the
   curve (`frontier`: the best list of at most n rules evaluated) is exact below the list's size.

Every evaluation is cached by the list it scored (`Cache`, saved after each one), so an
interrupted derivation starts again where it stopped and the stored record counts every
evaluation and its CPU seconds.
"""
import json
import time
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from .policy_eval import evaluate
from .thumb import COURSE_BOX, PAR_BOX, UPPER_BOXES, BoxRule, KeepRule, RuleList

MIN_GAIN = 0.05  # points a rule must add to join the list in the forward pass
MIN_PRICE = 0.01  # points a printed rule must be worth (so that its price prints as positive)
MAX_RULES = 40  # the longest list of the curve
MAX_PRINTED = 30  # the longest list a page prints
WITHIN = (20, 10, 5)  # the curve's counts: rules to come within these points of the optimum

_STRAIGHTS = ("small_straight", "large_straight")


_K, _B = KeepRule, BoxRule
# The candidate rules for the 13-box scorecards, in decision-list order (data: pool_13 gives it).
POOL_13 = (
    _K("kind", 5, ("kniffel",)),
    _B("kniffel", 50),
    _K("run5", 5, ("large_straight",)),
    _B("large_straight", 1),
    _K("run4", 4, _STRAIGHTS),
    _B("small_straight", 1),
    _K("full_house", 0, ("full_house",)),
    _B("full_house", 1),
    _K("kind", 4),
    _B(UPPER_BOXES, 4),
    _B(UPPER_BOXES, 3, bonus="not_reached"),
    _B("four_kind", 24),
    _B("three_kind", 24),
    _K("run5", 4, ("large_straight",), open_min=4),
    _K("kind_open", 3),
    _K("kind", 3),
    _B(UPPER_BOXES, 3),
    _B("four_kind", 18),
    _B("three_kind", 20),
    _B("chance", 22),
    _B(COURSE_BOX, 0, bonus="open"),
    _B(PAR_BOX, 0),
    _K("face", 6, ("sixes",), bonus="open"),
    _K("two_pairs", 0, ("full_house",)),
    _K("kind_open", 2, bonus="open"),
    _K("kind_open", 2),
    _K("aim", bonus="settled"),
    _K("aim", open_max=8),
    _K("kind_high", 2),
    _K("run4", 3, _STRAIGHTS, open_min=6),
    _K("run4", 3, _STRAIGHTS, rolls_left=2),
    _K("aim"),
    _K("kind", 2, bonus="open"),
    _K("kind", 2),
    _K("face", 5, ("fives",)),
    _K("kind_open", 1, bonus="open"),
    _K("high", 5),
    _K("kind_open", 1),
    _B(UPPER_BOXES, 2, bonus="par"),
    _B("chance", 18, open_max=5),
    _B("ones", 0),
    _B("twos", 3, bonus="par"),
    _B("kniffel", 0, open_max=5),
    _B("four_kind", 0, open_max=6),
    _B("twos", 0),
    _B("three_kind", 0, open_max=4),
    _B("kniffel", 0),
    _B("chance", 0),
    _B(COURSE_BOX, 0),
    _B(PAR_BOX, 0),
    _B(None, 0),
)


def pool_13():
    """The candidate rules for the 13-box scorecards, in decision-list order."""
    return POOL_13


def pool_yatzy():
    """The candidate rules for Yatzy's 15 boxes, in decision-list order."""
    K, B = KeepRule, BoxRule
    return (
        K("kind", 5, ("yatzy",)),
        B("yatzy", 50),
        K("run5", 5, _STRAIGHTS),
        B("large_straight", 1),
        B("small_straight", 1),
        K("full_house", 0, ("full_house",)),
        B("full_house", 18),
        K("kind", 4),
        B(UPPER_BOXES, 4),
        B(UPPER_BOXES, 3, bonus="not_reached"),
        B("four_kind", 16),
        K("run5", 4, _STRAIGHTS, open_min=5),
        K("kind_open", 3),
        K("kind", 3),
        B("three_kind", 12),
        B(UPPER_BOXES, 3),
        B("full_house", 1),
        K("face", 6, ("sixes",), bonus="open"),
        K("two_pairs", 0, ("two_pairs", "full_house")),
        B("two_pairs", 14),
        K("kind_open", 2, bonus="open"),
        K("kind_open", 2),
        K("aim", bonus="settled"),
        K("aim", open_max=8),
        K("kind_high", 2),
        B("one_pair", 10),
        K("run5", 3, _STRAIGHTS, rolls_left=2),
        K("kind", 2),
        B("chance", 20),
        B(COURSE_BOX, 0, bonus="open"),
        B(PAR_BOX, 0),
        K("kind_open", 1, bonus="open"),
        K("aim"),
        K("high", 5),
        K("kind_open", 1),
        B(UPPER_BOXES, 2, bonus="par"),
        B("ones", 0),
        B("yatzy", 0, open_max=6),
        B("twos", 0),
        B("small_straight", 0, open_max=5),
        B("large_straight", 0, open_max=5),
        B("one_pair", 0),
        B("four_kind", 0),
        B("chance", 0),
        B(COURSE_BOX, 0),
        B(PAR_BOX, 0),
        B(None, 0),
    )


def pool(rules):
    """The candidate pool for the box set of `rules`."""
    return pool_yatzy() if rules.box_set == "yatzy" else pool_13()


def build(candidates, chosen, name="rules of thumb"):
    """The RuleList of the pool indices `chosen`, in pool order."""
    picked = [candidates[i] for i in sorted(chosen)]
    return RuleList(name, tuple(r for r in picked if isinstance(r, KeepRule)),
                    tuple(r for r in picked if isinstance(r, BoxRule)))


class Cache:
    """Exact scores of rule lists already evaluated, kept in a JSON file (None: in memory only)
    written after each new evaluation: {list as JSON: [score, CPU seconds]}."""

    def __init__(self, path=None):
        self.path = Path(path) if path else None
        self.data = json.loads(self.path.read_text()) if self.path and self.path.is_file() else {}
        self.used = {}

    def score(self, table, rule_list, threads=None):
        """The exact score of `rule_list` (from the file if it was evaluated before)."""
        key = json.dumps({"keeps": rule_list.as_dict()["keeps"],
                          "boxes": rule_list.as_dict()["boxes"]}, sort_keys=True)
        if key not in self.data:
            cpu = time.process_time()
            value = evaluate(table, rule_list, threads=threads)
            self.data[key] = [value, time.process_time() - cpu]
            if self.path:
                tmp = self.path.with_suffix(".tmp")
                tmp.write_text(json.dumps(self.data))
                tmp.replace(self.path)
        self.used[key] = self.data[key]
        return self.data[key][0]

    @property
    def evaluations(self):
        """Distinct lists this derivation evaluated."""
        return len(self.used)

    @property
    def cpu_seconds(self):
        """CPU seconds of the evaluations this derivation used (in whichever run made them)."""
        return sum(cpu for _, cpu in self.used.values())


@dataclass
class Derived:
    """The chosen rule list, its exact score, each rule's price (keeps, boxes: score without
    it), the forward curve [(rules, score)] and the cache that counted the evaluations."""

    rules: RuleList
    score: float
    without: dict
    curve: list
    cache: Cache


def _prices(table, candidates, chosen, score_of):
    """{pool index: the list's exact score without that rule}."""
    return {i: score_of(build(candidates, chosen - {i})) for i in sorted(chosen)}


def _forward(candidates, chosen, current, limit, score_of, curve=None):
    """Down the pool, each rule not yet chosen joins while the list has fewer than `limit` rules
    if it adds at least MIN_GAIN points; (chosen, score) after the pass, each join appended to
    `curve` as (rules, score)."""
    for i in range(len(candidates)):
        if len(chosen) >= limit:
            break
        if i in chosen:
            continue
        value = score_of(build(candidates, chosen | {i}))
        if value >= current + MIN_GAIN:
            chosen, current = chosen | {i}, value
            if curve is not None:
                curve.append((len(chosen), value))
    return chosen, current


def derive(table, candidates=None, cache=None, progress=False, threads=None, second_pass=True):
    """Forward selection, removal and a second forward pass (unless second_pass is False) for
    `table` (see the module's text)."""
    candidates = candidates or pool(table.rules)
    cache = cache or Cache()
    bar = tqdm(desc=f"{table.rules.key}: lists evaluated", unit="list", disable=not progress,
               leave=False)

    def score_of(rule_list):
        bar.update()
        return cache.score(table, rule_list, threads)

    chosen = set()
    current = score_of(build(candidates, chosen))
    curve = [(0, current)]
    chosen, current = _forward(candidates, chosen, current, MAX_RULES, score_of, curve)
    for second in (False, True):
        while True:  # removal until every rule pays and the list fits a page
            without = _prices(table, candidates, chosen, score_of)
            price = {i: current - s for i, s in without.items()}
            drop = {i for i in chosen if price[i] < MIN_PRICE}
            keep = sorted(chosen - drop, key=lambda i: -price[i])
            drop |= set(keep[MAX_PRINTED:])
            if not drop:
                break
            chosen -= drop
            current = score_of(build(candidates, chosen))
        if second or not second_pass:
            break
        # the second pass over the rules left out
        chosen, current = _forward(candidates, chosen, current, MAX_PRINTED, score_of)
    # The ladder: the printed list with its cheapest rules dropped one by one (by their price),
    # each list scored exactly: the curve below the printed list's size (frontier()).
    rest = set(chosen)
    for i in sorted(chosen, key=lambda i: -without[i])[:-1]:
        rest = rest - {i}
        score_of(build(candidates, rest))
    bar.close()
    final = build(candidates, chosen)
    keep_ids = [i for i in sorted(chosen) if isinstance(candidates[i], KeepRule)]
    box_ids = [i for i in sorted(chosen) if isinstance(candidates[i], BoxRule)]
    return Derived(final, current, {"keeps": [without[i] for i in keep_ids],
                                    "boxes": [without[i] for i in box_ids]}, curve, cache)


def frontier(cache):
    """[(n, score)]: for n = 1, 2, ..., the best exact score of any list of at most n rules this
    derivation evaluated (the curve "score against the number of rules" that the removal steps
    and the second pass improve on the forward one)."""
    best = {}
    for key, (score, _) in cache.used.items():
        data = json.loads(key)
        n = len(data["keeps"]) + len(data["boxes"])
        best[n] = max(best.get(n, -1.0), score)
    out, top = [], -1.0
    for n in range(1, max(best, default=0) + 1):
        top = max(top, best.get(n, -1.0))
        out.append((n, top))
    return out


def within_counts(curve, optimum):
    """{points: the fewest rules of the curve within that many points of the optimum, or None}."""
    return {str(d): next((n for n, s in curve if s >= optimum - d), None) for d in WITHIN}
