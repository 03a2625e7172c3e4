"""Scorecard states: which are reachable, how they are indexed, and the State of a Position.

A turn-start state is (filled, aux, upper): the bit mask of filled boxes, the aux index of
scoring.py (Kniffel box holds 50; bonus deficit) and the upper total capped at the bonus
threshold.  The value table is a dense array V[filled, aux, upper]; unreachable entries are NaN.
"""
from dataclasses import dataclass, field

import numpy as np

from .. import dice
from ..rules import UPPER, scoring
from ..rules.cards import parse_card
from ..rules.scoring import capped_upper, upper_bonus_reached


def upper_reachable(rules):
    """reach[upper_mask, u]: can the filled upper boxes `upper_mask` total u (capped)?"""
    return upper_reachable_from(rules, 0, 0)


def upper_reachable_from(rules, filled, upper):
    """reach[upper_mask, u] as upper_reachable's, for the turn starts that can follow one with
    the filled boxes `filled` and capped upper total `upper` only: u is `upper` plus what the
    upper boxes filled since may add (capped), and a mask without that turn start's is empty."""
    threshold = rules.upper_bonus_threshold
    start = filled & ((1 << len(UPPER)) - 1)
    reach = np.zeros((1 << len(UPPER), threshold + 1), dtype=np.bool_)
    for mask in range(1 << len(UPPER)):
        if mask & start != start:
            continue
        totals = {int(capped_upper(upper, threshold))}
        for i in range(len(UPPER)):
            if (mask & ~start) >> i & 1:
                totals = {int(capped_upper(t + (i + 1) * c, threshold)) for t in totals
                          for c in range(dice.DICE + 1)}
        reach[mask, sorted(totals)] = True
    return reach


def aux_reachable(rules):
    """reach[kniffel_filled, n_filled, aux]: which aux values a turn start can have."""
    n = rules.n_boxes
    cap = rules.cap_count
    reach = np.zeros((2, n + 1, rules.n_aux), dtype=np.bool_)
    for n_filled in range(n + 1):
        reach[0, n_filled, 0] = True  # Kniffel box open: nothing to remember yet
        n_open = n - n_filled
        if n_filled == 0:
            continue
        for flag in range(rules.n_flag):
            if flag == 0 and rules.extra_bonus_requires == "fifty" or rules.extra_bonus == 0:
                deficits = {0}
            else:  # between 0 and n_filled - 1 bonuses paid (the Kniffel box itself earns none)
                deficits = {max(0, n_open - (cap - paid))
                            for paid in range(max(0, n_filled - 1) + 1) if paid <= cap}
            for d in deficits:
                reach[1, n_filled, flag * rules.n_deficit + d] = True
    # Any number of jokers may be left (a little more than is reachable early in the game, which
    # keeps every joker level of a set in the same solve).
    reach[:, :, :] = np.tile(reach[:, :, : rules.aux_block], (1, 1, rules.jokers + 1))
    return reach


def reachable_mask(rules):
    """Boolean array shaped like the value table: True for every reachable turn-start state."""
    upper = upper_reachable(rules)
    aux = aux_reachable(rules)
    n = rules.n_boxes
    filled = np.arange(1 << n)
    n_filled = np.array([bin(m).count("1") for m in range(1 << n)])
    kniffel_filled = (filled >> rules.kniffel_box) & 1
    return (aux[kniffel_filled, n_filled][:, :, None]
            & upper[filled & scoring.UPPER_MASK][:, None, :])


@dataclass(frozen=True)
class Position:
    """A scorecard (box -> points) plus what a turn start must also know."""

    card: dict = field(default_factory=dict)
    kniffel_bonuses: int = 0
    jokers_left: int | None = None  # Knobeln jokers still in hand; None: all of them


@dataclass(frozen=True)
class State:
    filled: int
    aux: int
    upper: int  # capped at the threshold
    upper_total: int  # uncapped, for display
    card_total: int  # points on the card with every bonus earned so far
    n_open: int


def position_state(position, rules):
    """Validate a Position (its card as written, parse_card reads it) and return its State
    (ValueError naming the problem)."""
    return card_state(parse_card(position.card, rules), position.kniffel_bonuses,
                      position.jokers_left, rules)


def card_state(card, kniffel_bonuses, jokers_left, rules):
    """The State of a card read by parse_card ({box key: points}) with its extra-Kniffel
    bonuses paid and jokers left (None: all); ValueError naming what no game can reach."""
    filled = 0
    for box in card:
        filled |= 1 << rules.boxes.index(box)
    n_open = rules.n_boxes - len(card)
    if n_open == 0:
        raise ValueError("every box is filled: the game is over")
    bonuses = kniffel_bonuses
    if isinstance(bonuses, bool) or not isinstance(bonuses, int) or bonuses < 0:
        raise ValueError(f"kniffel bonuses must be a whole number >= 0, got {bonuses!r}")
    kniffel = rules.boxes[rules.kniffel_box]
    if bonuses:
        if rules.extra_bonus == 0:
            raise ValueError(f"{rules.preset} pays no extra-Kniffel bonus")
        if kniffel not in card or (rules.extra_bonus_requires == "fifty" and card[kniffel] != 50):
            raise ValueError(f"an extra-Kniffel bonus needs the {kniffel} box filled"
                             + (" with 50" if rules.extra_bonus_requires == "fifty" else ""))
        if bonuses > min(len(card) - 1, rules.cap_count):
            raise ValueError(f"{bonuses} extra-Kniffel bonuses are impossible on this card")
    upper_total = sum(card.get(b, 0) for b in UPPER)
    upper = int(capped_upper(upper_total, rules.upper_bonus_threshold))
    flag = int(rules.n_flag == 2 and card.get(kniffel) == 50)
    # deficit: open boxes beyond the bonuses still allowed (see scoring.py)
    deficit = 0
    if kniffel in card and (flag or rules.extra_bonus_requires == "filled") and rules.extra_bonus:
        deficit = max(0, n_open - (rules.cap_count - bonuses))
    jokers = rules.jokers if jokers_left is None else jokers_left
    if isinstance(jokers, bool) or not isinstance(jokers, int) or not 0 <= jokers <= rules.jokers:
        if rules.jokers == 0:
            raise ValueError(f"{rules.preset} has no jokers")
        raise ValueError(f"jokers left must be 0-{rules.jokers}, got {jokers!r}")
    aux = jokers * rules.aux_block + flag * rules.n_deficit + deficit
    return State(filled, aux, upper, upper_total, card_total(card, bonuses, rules), n_open)


def card_total(card, kniffel_bonuses, rules):
    """Points on a validated card {box: points}: the boxes, the upper bonus once earned and the
    extra-Kniffel bonuses paid (a full card too, which has no State)."""
    upper_total = sum(card.get(b, 0) for b in UPPER)
    bonus = (rules.upper_bonus if upper_bonus_reached(upper_total, rules.upper_bonus_threshold)
             else 0)
    return sum(card.values()) + bonus + kniffel_bonuses * rules.extra_bonus
