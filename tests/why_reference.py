"""A plain-Python reference for advice/why.py: where a turn ends, with exact fractions.

Written from the rules of play, not from solver/advice: a keep's dice are rerolled by listing
every ordered outcome of the free dice (each 1/6 ** n), a decision takes the best of its
choices by the table's values (the points a box adds to the card, read from the card itself,
plus the value of the turn start that follows), ties going to the first choice in the order a
player lists them (fewer dice kept first, stopping last; boxes in the card's order).  The
chances are Fractions: exact sums of products of sixths.  No jokers (Knobeln).
"""
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product

from reference import plain_score_13

from solver.engine.states import card_state, card_total


def _sub_keeps(roll):
    """The distinct multisets of 0-4 dice of `roll`, fewest dice first, then in order."""
    found = {tuple(sorted(sub)) for n in range(5) for sub in combinations(roll, n)}
    return sorted(found, key=lambda keep: (len(keep), keep))


def _rerolls(kept):
    """{sorted roll: Fraction} after holding `kept` and throwing the other dice."""
    n = 5 - len(kept)
    out = {}
    for faces in product(range(1, 7), repeat=n):
        roll = tuple(sorted(kept + faces))
        out[roll] = out.get(roll, 0) + Fraction(1, 6 ** n)
    return out


class Turn:
    """The rest of one turn from `card` (box: points) under the expected-score `table`."""

    def __init__(self, table, card):
        self.table, self.rules, self.card = table, table.rules, dict(card)
        self.base = card_total(self.card, 0, self.rules)
        self.open = [box for box in self.rules.boxes if box not in self.card]
        self.best_box = lru_cache(maxsize=None)(self._best_box)
        self.best = lru_cache(maxsize=None)(self._best)
        self.keep_value = lru_cache(maxsize=None)(self._keep_value)

    def box_value(self, box, roll):
        """(value, points): `roll` entered in `box` now: what it adds to the card (bonuses
        included) plus the value of the turn start after it.  The plain 13-box table of the
        rules text (tests/reference.py): the tests' positions hold no Kniffel to be a joker."""
        points = plain_score_13(box, roll)
        after = dict(self.card, **{box: points})
        gain = card_total(after, 0, self.rules) - self.base
        if len(after) == self.rules.n_boxes:
            return float(gain), points
        return gain + self.table.value(card_state(after, 0, None, self.rules)), points

    def _best_box(self, roll):
        best = None
        for box in self.open:
            value, points = self.box_value(box, roll)
            if best is None or value > best[0]:
                best = (value, box, points)
        return best

    def _best(self, roll, left):
        """(value, choice) of `roll` with `left` rolls to come: a keep (tuple) or None (stop)."""
        stop = self.best_box(roll)[0]
        if left == 0:
            return stop, None
        best = None
        for keep in _sub_keeps(roll):
            value = self.keep_value(keep, left)
            if best is None or value > best[0]:
                best = (value, keep)
        return (stop, None) if stop > best[0] else best

    def _keep_value(self, kept, left):
        return sum(float(p) * self.best(roll, left - 1)[0]
                   for roll, p in _rerolls(kept).items())

    def ends(self, kept, left):
        """{box: [Fraction chance, Fraction sum of chance x points]} when `kept` is held and
        the rest rerolled with `left` rolls to come (the reroll one of them), played best."""
        out = {}
        self._follow(kept, left, Fraction(1), out)
        return out

    def _follow(self, kept, left, weight, out):
        for roll, p in _rerolls(kept).items():
            choice = self.best(roll, left - 1)[1]
            if choice is not None:
                self._follow(choice, left - 1, weight * p, out)
                continue
            _, box, points = self.best_box(roll)
            chance, total = out.setdefault(box, [Fraction(0), Fraction(0)])
            out[box] = [chance + weight * p, total + weight * p * points]

