"""Ranked choices for one position: which dice to keep, which box to fill, and what each is worth.

Plain numpy on one state: this path runs from a saved table and must not import numba.  The
rule logic for five of a kind is the same code the kernels compile (scoring.py).
"""
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import dice, scoring
from .state import Position, position_state


@dataclass
class Advice:
    rules: str
    card_total: int
    expected_final_score: float
    options: list

    def as_dict(self, top=None):
        options = self.options if top is None else self.options[:top]
        return {"rules": self.rules, "card_total": self.card_total,
                "expected_final_score": self.expected_final_score, "options": options}


@lru_cache(maxsize=1)
def _transition():
    return dice.keep_transition_matrix()


def box_values(state, table, rolls=None):
    """(values, points, bonus) for every box and each final roll in `rolls` (default: all 252).

    values[b, i] is the expected future score of entering roll rolls[i] in box b now (points +
    bonuses + the next state's value); -inf where the box is filled or the rules forbid it."""
    rules = table.rules
    params = rules.params()
    rolls = np.arange(dice.N_ROLLS) if rolls is None else np.asarray(rolls)
    threshold = rules.upper_bonus_threshold
    shape = (rules.n_boxes, len(rolls))
    values = np.full(shape, -np.inf)
    points = np.zeros(shape, dtype=np.int64)
    bonus = np.zeros(shape, dtype=np.int64)
    n_after = state.n_open - 1

    def enter(box, pts):
        """Values and bonuses of entering the plain points `pts` (one per roll) in `box`."""
        extra = 0
        upper = state.upper
        if rules.box_face[box]:
            extra = np.where((upper < threshold) & (upper + pts >= threshold), rules.upper_bonus, 0)
            upper = np.minimum(threshold, upper + pts)
        aux = scoring.next_aux(state.aux, box, 0, 0, n_after, params)
        return pts + extra + table.values[state.filled | (1 << box), aux, upper], extra

    def enter_kniffel(box, pts, paid):
        """Value and bonus of entering a five of a kind worth `pts` in `box` (plain ints)."""
        extra = paid * rules.extra_bonus
        upper = state.upper
        if rules.box_face[box]:
            if upper < threshold <= upper + pts:
                extra += rules.upper_bonus
            upper = min(threshold, upper + pts)
        aux = scoring.next_aux(state.aux, box, pts, paid, n_after, params)
        return pts + extra + float(table.values[state.filled | (1 << box), aux, upper]), extra

    kniffel_columns = np.flatnonzero(dice.KNIFFEL_FACE[rolls]).tolist()
    for box in range(rules.n_boxes):
        if state.filled >> box & 1:
            continue
        points[box] = rules.plain_score[box, rolls]
        values[box], bonus[box] = enter(box, points[box])
        for i in kniffel_columns:
            r = int(rolls[i])
            allowed, pts, paid = scoring.kniffel_roll(box, dice.KNIFFEL_FACE[r], r, state.filled,
                                                      state.aux, state.n_open, params,
                                                      rules.plain_score, rules.joker_score,
                                                      rules.box_face)
            points[box, i] = pts
            values[box, i], bonus[box, i] = enter_kniffel(box, int(pts), paid) if allowed else (-np.inf, 0)
    return values, points, bonus


def keep_values(final_values, rolls_left):
    """Value of every keep (462) with `rolls_left` rolls to come, from the best-box value per roll."""
    transition = _transition()
    roll_values = final_values
    for stage in range(rolls_left):
        keeps = transition @ roll_values
        if stage == rolls_left - 1:
            return keeps
        best = keeps.copy()
        for size in range(1, dice.DICE + 1):  # best sub-keep, growing one die at a time
            rows = dice.SIZE_SLICES[size]
            subs = dice.REMOVE_DIE[rows]
            candidates = np.where(subs >= 0, best[np.maximum(subs, 0)], -np.inf)
            best[rows] = np.maximum(best[rows], candidates.max(axis=1))
        roll_values = best[: dice.N_ROLLS]
    return final_values


def advise(position, table, dice=None, rolls_left=None):
    """Every choice for `position` (a Position) with its expected final score, best first.

    dice: five faces, or None for the value at the start of the turn.
    rolls_left: rolls still allowed (0 .. rolls_per_turn - 1); default the most there can be.
    """
    from . import dice as dice_tables

    rules = table.rules
    if not isinstance(position, Position):
        position = Position(card=position)
    state = position_state(position, rules)
    base = state.card_total
    if dice is None:
        return Advice(rules.key, base, base + table.value(state), [])
    roll = dice_tables.KEEP_INDEX[dice_tables.validate_dice(dice)]
    max_left = rules.rolls_per_turn - 1
    if rolls_left is None:
        rolls_left = max_left
    if isinstance(rolls_left, bool) or not isinstance(rolls_left, int) or not 0 <= rolls_left <= max_left:
        raise ValueError(f"rolls left must be 0-{max_left}, got {rolls_left!r}")
    if rolls_left:
        values, points, bonus = box_values(state, table)
        column = roll
    else:  # only the roll in hand matters
        values, points, bonus = box_values(state, table, [roll])
        column = 0
    options = []
    for box in np.flatnonzero(np.isfinite(values[:, column])):
        options.append({"action": "score", "box": rules.boxes[box], "points": int(points[box, column]),
                        "bonus": int(bonus[box, column]),
                        "expected_final_score": base + float(values[box, column])})
    if rolls_left:
        keeps = keep_values(values.max(axis=0), rolls_left)
        for keep in sub_keeps(dice_tables.KEEPS[roll]):
            options.append({"action": "keep", "keep": list(keep),
                            "expected_final_score": base + float(keeps[dice_tables.KEEP_INDEX[keep]])})
    options.sort(key=lambda o: -o["expected_final_score"])
    return Advice(rules.key, base, options[0]["expected_final_score"], options)


def sub_keeps(roll):
    """Distinct multisets of 0-4 dice that can be held from `roll`."""
    found = {()}
    for die in roll:
        found |= {tuple(sorted(k + (die,))) for k in found if len(k) < dice.DICE - 1}
    return sorted(found, key=lambda k: (len(k), k))
