"""A slow plain-Python reference for the Dice Duel with 2 or more players (docs/rules.md), written
from the rules again without the package's game code, for tiny endgames: one or two chips left.

Chances to win per seat at a turn's start, by backward induction in which the seat to move takes
the option with its own best chance (ties: the next seats' chances in turn order, the package's
stated rule).  The turn is worked by enumerating every reroll outcome with its multinomial
probability, not by the keep lattice the kernels use.
"""
from collections import Counter
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product

VALUES = (5, 10, 20, 25, 30, 40, 50)
EPS = 1e-12


def earned(roll, four_of_a_kind_two_pairs=False):
    """Chip types (0..6) a final roll earns; None for five of a kind (a Kniffel)."""
    counts = Counter(roll)
    top = max(counts.values())
    if top == 5:
        return None
    faces = set(roll)
    red = sum(1 for d in roll if d % 2 == 0)
    types = set()
    if sum(1 for c in counts.values() if c >= 2) >= 2 or (four_of_a_kind_two_pairs and top >= 4):
        types.add(0)
    if top >= 3:
        types.add(1)
    if any(set(range(s, s + 4)) <= faces for s in (1, 2, 3)):
        types.add(2)
    if red in (0, 5):
        types.add(3)
    if sorted(counts.values()) == [2, 3]:
        types.add(4)
    if top >= 4:
        types.add(5)
    if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}):
        types.add(6)
    return types


def outcomes(n_dice):
    """[(sorted faces, probability)] of throwing n_dice dice."""
    found = Counter()
    for faces in product(range(1, 7), repeat=n_dice):
        found[tuple(sorted(faces))] += 1
    return [(f, c / 6 ** n_dice) for f, c in found.items()]


ROLLS = sorted({tuple(sorted(r)) for r in product(range(1, 7), repeat=5)})


def points(seat, last, rules):
    held = sum(1 for c in seat if c)
    score = sum(c * v for c, v in zip(seat, VALUES)) + 30 * sum(1 for c in seat if c == 4)
    score += 50 if held == 7 else 20 if held == 6 else 0
    return score + (rules["last_chip_bonus"] if last else 0)


def shares(seats, last, rules):
    scores = [points(s, i == last, rules) for i, s in enumerate(seats)]
    best = max(scores)
    k = scores.count(best)
    win = 1.0 / k if k == 1 or rules["ties"] == "share" else 0.0
    return tuple(win if s == best else 0.0 for s in scores)


def prefer(a, b, mover):
    """Is b better than a for the seat to move (ties: the next seats in turn order)?"""
    n = len(a)
    for i in range(n):
        s = (mover + i) % n
        if b[s] - a[s] > EPS:
            return True
        if b[s] - a[s] < -EPS:
            return False
    return False


def best_of(vectors, mover):
    best = vectors[0]
    for v in vectors[1:]:
        if prefer(best, v, mover):
            best = v
    return best


class Reference:
    """rules: {"last_chip_bonus", "ties", "set_aside" ("round"|"turn"), "may_decline_chip"}."""

    def __init__(self, rules):
        self.rules = rules
        self.value = lru_cache(maxsize=None)(self._value)

    def moves(self, plate, aside, roll):
        kinds = earned(roll)
        if kinds is None:
            return [("plate", t) for t in range(7) if plate[t]] + \
                   [("aside", t) for t in range(7) if aside[t]], True
        found = [("plate", t) for t in sorted(kinds) if plate[t]]
        if not found or self.rules["may_decline_chip"]:
            found.append(None)
        return found, False

    def after(self, state, move, kniffel):
        """(next state, None) or (None, final shares)."""
        plate, aside, seats, mover, taken = state
        plate, aside, seats = list(plate), list(aside), [list(s) for s in seats]
        n = len(seats)
        if move is not None:
            (plate if move[0] == "plate" else aside)[move[1]] -= 1
            seats[mover][move[1]] += 1
            if sum(plate) == 0:
                return None, shares(seats, mover, self.rules)
            if kniffel:
                return (tuple(plate), tuple(aside), tuple(map(tuple, seats)), mover, True), None
            taken = True
        elif self.rules["set_aside"] == "turn":
            self.top_aside(plate, aside)
        mover += 1
        if mover == n:
            if self.rules["set_aside"] == "round" and not taken:
                self.top_aside(plate, aside)
            mover, taken = 0, False
        if self.rules["set_aside"] == "turn":
            taken = False
        if sum(plate) == 0:
            return None, shares(seats, -1, self.rules)
        return (tuple(plate), tuple(aside), tuple(map(tuple, seats)), mover, taken), None

    @staticmethod
    def top_aside(plate, aside):
        t = max(i for i in range(7) if plate[i])
        plate[t] -= 1
        aside[t] += 1

    def end_value(self, state, roll):
        moves, kniffel = self.moves(state[0], state[1], roll)
        found = []
        for move in moves:
            nxt, final = self.after(state, move, kniffel)
            found.append(final if nxt is None else self.value(nxt))
        return best_of(found, state[3])

    def roll_values(self, state, rolls_left):
        """{roll: chances} with rolls_left rolls still to come."""
        mover = state[3]
        if rolls_left == 0:
            return {r: self.end_value(state, r) for r in ROLLS}
        later = self.roll_values(state, rolls_left - 1)
        keeps = self.keep_values(later, state)
        found = {}
        for r in ROLLS:
            options = [self.end_value(state, r)]
            for size in range(5):
                for keep in set(combinations(r, size)):
                    options.append(keeps[keep])
            found[r] = best_of(options, mover)
        return found

    def keep_values(self, later, state):
        n = len(state[2])
        keeps = {}
        for size in range(5):
            table = outcomes(5 - size)
            for keep in combinations_with_replacement(range(1, 7), size):
                total = [0.0] * n
                for faces, p in table:
                    v = later[tuple(sorted(keep + faces))]
                    for i in range(n):
                        total[i] += p * v[i]
                keeps[keep] = tuple(total)
        return keeps

    def _value(self, state):
        first = self.roll_values(state, 2)
        n = len(state[2])
        total = [0.0] * n
        for faces, p in outcomes(5):
            for i in range(n):
                total[i] += p * first[faces][i]
        return tuple(total)

