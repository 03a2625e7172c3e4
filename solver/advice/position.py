"""Ranked choices for one position: which dice to keep, which box to fill, and what each is worth.

Plain numpy on one state: this path runs from a saved table and must not import numba.  The
rule logic for five of a kind is the same code the kernels compile (scoring.py).
"""
import math
from dataclasses import dataclass, replace
from functools import lru_cache
from operator import itemgetter

import numpy as np

from .. import dice as _dice  # `dice` is a parameter name of advise()
from ..rules import UPPER, scoring
from ..engine.states import Position, position_state
from ..rules.cards import parse_card

COST_TOLERANCE = 1e-9  # a choice this close to the best is the best: ties differ by rounding


@dataclass
class Advice:
    rules: str
    card_total: int
    expected_final_score: float
    options: list
    position: dict | None = None  # position_facts(): what the advice was asked about

    def as_dict(self, top=None):
        options = self.options if top is None else self.options[:top]
        return {"rules": self.rules, "card_total": self.card_total,
                "expected_final_score": self.expected_final_score, "position": self.position,
                "options": options}


def cost_text(cost):
    """What a choice costs against the best, as every text view shows it: "best" or "cost 1.28"."""
    return "best" if cost <= COST_TOLERANCE else f"cost {cost:.2f}"


def position_facts(card, kniffel_bonuses, state, rules, roll=None, rolls_left=None):
    """The position as the advice understood it (its JSON "position"): `card` is the validated
    {box: points} (parse_card's), `state` its State, `roll` the roll index in hand or None."""
    filled, open_boxes, open_most = _card_layout(rules, state.filled)
    upper, threshold = state.upper_total, rules.upper_bonus_threshold
    if upper >= threshold:
        needs = 0
    else:
        needs = threshold - upper if upper + open_most >= threshold else None
    return {"filled": {box: card[box] for box in filled}, "open": list(open_boxes),
            "upper_subtotal": upper, "upper_bonus_needs": needs, "kniffel_bonuses": kniffel_bonuses,
            "jokers_left": state.aux // rules.aux_block if rules.jokers else None,
            "dice": list(_dice.KEEPS[roll]) if roll is not None else None, "rolls_left": rolls_left}


_LAYOUTS = {}  # (rules key, filled mask) -> _card_layout; batch advice asks for many


def _card_layout(rules, mask):
    """(filled boxes, open boxes, the most points the open upper boxes can still bring)."""
    layout = _LAYOUTS.get((rules.key, mask))
    if layout is None:
        filled = tuple(box for b, box in enumerate(rules.boxes) if mask >> b & 1)
        open_boxes = tuple(box for box in rules.boxes if box not in filled)
        most = sum(max(rules.possible_points(box)) for box in open_boxes if box in UPPER)
        layout = _LAYOUTS[rules.key, mask] = (filled, open_boxes, most)
    return layout


def box_values(state, table, rolls=None):
    """(values, points, bonus) for every box and each final roll in `rolls` (default: all 252).

    values[b, i] is the expected future score of entering roll rolls[i] in box b now (points +
    bonuses + the next state's value); -inf where the box is filled or the rules forbid it."""
    rules = table.rules
    params = rules.params()
    rolls = np.arange(_dice.N_ROLLS) if rolls is None else np.asarray(rolls)
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

    kniffel_columns = np.flatnonzero(_dice.KNIFFEL_FACE[rolls]).tolist()
    for box in range(rules.n_boxes):
        if state.filled >> box & 1:
            continue
        points[box] = rules.plain_score[box, rolls]
        values[box], bonus[box] = enter(box, points[box])
        for i in kniffel_columns:
            r = int(rolls[i])
            allowed, pts, paid = scoring.kniffel_roll(box, _dice.KNIFFEL_FACE[r], r, state.filled,
                                                      state.aux, state.n_open, params,
                                                      rules.plain_score, rules.joker_score,
                                                      rules.box_face)
            points[box, i] = pts
            values[box, i], bonus[box, i] = enter_kniffel(box, int(pts), paid) if allowed else (-np.inf, 0)
    return values, points, bonus


def _best_one_die_change(roll_values):
    """For every roll, the best value among the rolls one die different (a Knobeln joker)."""
    four = _dice.SIZE_SLICES[4]
    best_add = roll_values[_dice.ADD_DIE[four]].max(axis=1)
    present = np.arange(_dice.DICE) < _dice.N_SMALLER[: _dice.N_ROLLS, None]
    subs = np.where(present, _dice.SMALLER[: _dice.N_ROLLS] - four.start, 0)
    return np.where(present, best_add[subs], -np.inf).max(axis=1)


def final_roll_values(state, table):
    """(stop, final): per roll, the best box now, and the best with the jokers a turn that threw
    every roll may still play (equal when there are no jokers)."""
    rules = table.rules
    jokers = state.aux // rules.aux_block
    levels = [box_values(replace(state, aux=state.aux - used * rules.aux_block), table)[0].max(axis=0)
              for used in range(min(jokers, rules.jokers_per_turn) + 1)]
    stop = levels[0]
    # with_jokers[i]: best value at jokers - i left, using up to `passes` jokers this turn
    with_jokers = list(levels)
    for passes in range(1, len(levels)):
        with_jokers = [np.maximum(with_jokers[i], _best_one_die_change(with_jokers[i + 1]))
                       for i in range(len(levels) - passes)] + with_jokers[len(levels) - passes:]
    return stop, with_jokers[0]


def keep_values(stop, final, rolls_left):
    """Value of every keep (462) with `rolls_left` rolls to come. Holding all five dice ends the
    turn (`stop`); a roll thrown with every roll used is worth `final` (jokers included).
    Same arithmetic as the kernels (mean of the six keeps one die larger), so the same bits."""
    keeps = np.empty(_dice.N_KEEPS)
    keeps[: _dice.N_ROLLS] = final
    for stage in range(rolls_left):
        for size in range(_dice.DICE - 1, -1, -1):
            rows = _dice.SIZE_SLICES[size]
            children = _dice.ADD_DIE[rows]
            total = keeps[children[:, 0]].copy()
            for face in range(1, _dice.FACES):
                total += keeps[children[:, face]]
            keeps[rows] = total / 6.0
        keeps[: _dice.N_ROLLS] = stop
        if stage == rolls_left - 1:
            return keeps
        for size in range(1, _dice.DICE + 1):  # best sub-keep, growing one die at a time
            rows = _dice.SIZE_SLICES[size]
            subs = _dice.REMOVE_DIE[rows]
            candidates = np.where(subs >= 0, keeps[np.maximum(subs, 0)], -np.inf)
            keeps[rows] = np.maximum(keeps[rows], candidates.max(axis=1))
    return keeps


def joker_targets(roll, changes):
    """{target roll: (faces taken, faces given)} reachable from `roll` with 1..changes jokers,
    each with the fewest jokers."""
    found = {}
    frontier = {roll: ((), ())}
    for _ in range(changes):
        nxt = {}
        for current, (taken, given) in frontier.items():
            for face in set(current):
                rest = list(current)
                rest.remove(face)
                for new in range(1, _dice.FACES + 1):
                    target = tuple(sorted(rest + [new]))
                    if new != face and target != roll and target not in found and target not in nxt:
                        nxt[target] = (taken + (face,), given + (new,))
        found.update(nxt)
        frontier = nxt
    return found


def advise(position, table, dice=None, rolls_left=None):
    """Every choice for `position` (a Position) with its expected final score, best first.

    dice: five faces, or None for the value at the start of the turn.
    rolls_left: rolls still allowed (0 .. rolls_per_turn - 1); default the most there can be.
    """
    if not isinstance(position, Position):
        position = Position(card=position)
    state, roll, rolls_left = checked_query(position, table.rules, dice, rolls_left)
    facts = position_facts(parse_card(position.card, table.rules), position.kniffel_bonuses, state,
                           table.rules, roll, rolls_left)
    if roll is None:
        return Advice(table.rules.key, state.card_total, state.card_total + table.value(state), [],
                      facts)
    values, points, bonus = box_values(state, table, [roll])
    keeps = keep_values(*final_roll_values(state, table), rolls_left) if rolls_left else None
    return assemble(table, state, roll, rolls_left, values[:, 0], points[:, 0], bonus[:, 0], keeps,
                    facts)


def checked_query(position, rules, dice=None, rolls_left=None):
    """Validate a query: (State, roll index or None, rolls left); ValueError naming the problem."""
    if not isinstance(position, Position):
        position = Position(card=position)
    state = position_state(position, rules)
    if dice is None:
        if rolls_left is not None:
            raise ValueError("rolls left needs dice")
        return state, None, None
    roll = _dice.KEEP_INDEX[_dice.validate_dice(dice)]
    max_left = rules.rolls_per_turn - 1
    if rolls_left is None:
        rolls_left = max_left
    if isinstance(rolls_left, bool) or not isinstance(rolls_left, int) or not 0 <= rolls_left <= max_left:
        raise ValueError(f"rolls left must be 0-{max_left}, got {rolls_left!r}")
    return state, roll, rolls_left


def assemble(table, state, roll, rolls_left, values, points, bonus, keeps, position=None):
    """The ranked Advice from the values of each box for the roll in hand and, with rolls left,
    the value of every keep (462); `position` is its position_facts()."""
    rules = table.rules
    base = state.card_total
    options = score_options(rules, values, points, bonus, base, state.upper, roll)
    jokers = state.aux // rules.aux_block
    if rolls_left == 0 and jokers:  # the joker moves: change dice, then score
        targets = joker_targets(_dice.KEEPS[roll], min(jokers, rules.jokers_per_turn))
        for target, (taken, given) in targets.items():
            after = replace(state, aux=state.aux - len(taken) * rules.aux_block)
            v, p, b = box_values(after, table, [_dice.KEEP_INDEX[target]])
            joker = ({"from": taken[0], "to": given[0]} if len(taken) == 1
                     else {"from": list(taken), "to": list(given)})
            for option in score_options(rules, v[:, 0], p[:, 0], b[:, 0], base, state.upper,
                                         _dice.KEEP_INDEX[target]):
                options.append(dict(option, joker=joker))
    if rolls_left:
        keep_list, indices = sub_keep_indices(roll)
        options = [{"action": "keep", "keep": list(keep), "reroll": list(reroll),
                    "expected_final_score": base + value}
                   for keep, reroll, value in zip(keep_list, sub_keep_rerolls(roll),
                                                  keeps[indices].tolist())] + options
    # Stable: among equal values, rerolling the most dice comes first and stopping last, the
    # order in which simulate and distribution choose.
    options.sort(key=_by_value, reverse=True)
    return Advice(rules.key, base, options[0]["expected_final_score"], options, position)


_by_value = itemgetter("expected_final_score")


def score_options(rules, values, points, bonus, base, upper, roll):
    """The score options (values -inf: not allowed) of final roll `roll` (an index) at capped upper total `upper`: the bonus
    split into the upper bonus this box completes and the extra-Kniffel bonus, and a
    "kniffel_joker" mark where the joker rule gives a five of a kind points the plain table
    would not (see scoring.kniffel_roll)."""
    threshold = rules.upper_bonus_threshold
    five_of_a_kind = bool(_dice.KNIFFEL_FACE[roll])
    options = []
    for b, (box, v, p, total) in enumerate(zip(rules.boxes, values.tolist(), points.tolist(),
                                               bonus.tolist())):
        if v == -math.inf:
            continue
        upper_bonus = rules.upper_bonus if rules.box_face[b] and upper < threshold <= upper + p else 0
        option = {"action": "score", "box": box, "points": p, "bonus": total,
                  "upper_bonus": upper_bonus, "extra_bonus": total - upper_bonus}
        if five_of_a_kind and p != rules.plain_score[b, roll]:
            option["kniffel_joker"] = True
        option["expected_final_score"] = base + v
        options.append(option)
    return options


@lru_cache(maxsize=None)
def sub_keep_indices(roll):
    """(keeps, their indices) for the distinct multisets of 0-4 dice that roll `roll` can hold."""
    keeps = sub_keeps(_dice.KEEPS[roll])
    return keeps, np.array([_dice.KEEP_INDEX[keep] for keep in keeps])


@lru_cache(maxsize=None)
def sub_keep_rerolls(roll):
    """The dice each keep of sub_keep_indices(roll) rerolls (the roll minus the keep), in its order."""
    rerolls = []
    for keep in sub_keep_indices(roll)[0]:
        rest = list(_dice.KEEPS[roll])
        for die in keep:
            rest.remove(die)
        rerolls.append(tuple(rest))
    return tuple(rerolls)


def sub_keeps(roll):
    """Distinct multisets of 0-4 dice that can be held from `roll`."""
    found = {()}
    for die in roll:
        found |= {tuple(sorted(k + (die,))) for k in found if len(k) < _dice.DICE - 1}
    return sorted(found, key=lambda k: (len(k), k))
