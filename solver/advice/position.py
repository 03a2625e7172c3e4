"""Ranked choices for one position, for every objective: which dice to keep, which box to fill,
and what each is worth (the objective's value: points, or a chance as "probability", and the
expected final score).  The turn's steps are steps.py's, read through the objective's view.

Plain numpy on one state: this path runs from a saved table and must not import numba.
"""
import json
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from .. import dice as _dice  # `dice` is a parameter name of checked_query()
from ..dice import joker_targets, sub_keep_indices, sub_keep_rerolls
from ..engine.states import Position, card_state
from ..rules import UPPER, scoring
from ..rules.cards import parse_card
from . import steps

COST_TOLERANCE = 1e-9  # a choice this close to the best is the best: ties differ by rounding


@dataclass
class Advice:
    """The ranked options of one position for one objective (`goal`), of every game: each option
    has the objective's value ("expected_final_score" for points; "probability" and, where it
    has one, the expected final score under that play for a target or a win) and, where the
    answer is not exact, its interval.  The goal lays out the JSON."""
    rules: str
    card_total: int
    expected_final_score: float
    options: list
    goal: object  # the objective (advice/goal.py), which lays out the JSON
    position: dict | None = None  # position_facts(): what the advice was asked about
    probability: float | None = None  # the objective's chance (target, win); None for points
    method: str | None = None  # win: "exact" or "approximate" (advice/win/coach.py)
    interval: list | None = None  # approximate: [low, high] of the chance (win/approximation.py)
    note: str | None = None  # what the answer could not do, and how to make it (a table to build)
    games: int | None = None  # estimated by rollouts: the games played out per option
    building: dict | None = None  # the win tables' build under way (ask/build.status)
    offer: dict | None = None  # the win tables missing: what their build would cost (ask/build)
    preparing: str | None = None  # the feature whose kernels a server compiles (ask/warm.py)
    fallback: dict | None = None  # the goal asked, when it could not be answered and this is
    # the advice for points instead: {"goal", "reason", "words"} (ask/answer.py)
    why: dict | None = None  # asked for: what the turn plays for (advice/why.py); each option
    # then has its own "why"
    view: object = field(default=None, repr=False, compare=False)  # the view it was ranked by

    @property
    def exact(self):
        """Whether the values are exact (else each chance has its interval)."""
        return self.interval is None

    def as_dict(self, top=None):
        """The advice as `kniffel advise --json` prints it (the `top` best options, or all)."""
        options = self.options if top is None else self.options[:top]
        return self.goal.answer_dict(self, options)

    def to_json(self, top=None):
        """Exactly the text `kniffel advise --json` prints."""
        return json.dumps(self.as_dict(top))


class Query(NamedTuple):
    """A position checked once (checked_query; ask/request.py for a question): its State, the
    roll in hand (an index, or None at the turn start), the rolls left, the position (a
    scorecard's Position with its card read; the Dice Duel's chips or table, its state None)
    and the rules."""
    state: object
    roll: int | None
    rolls_left: int | None
    position: object
    rules: object


def cost_text(cost):
    """What a choice costs against the best, as every text view shows it: "best" or "cost 1.28"."""
    return "best" if cost <= COST_TOLERANCE else f"cost {cost:.2f}"


def position_facts(card, kniffel_bonuses, state, rules, roll=None, rolls_left=None):
    """The position as the advice understood it (its JSON "position"): `card` is the validated
    {box: points} (parse_card's), `state` its State, `roll` the roll index in hand or None."""
    filled, open_boxes, open_most = card_layout(rules, state.filled)
    upper = state.upper_total
    needs = scoring.upper_bonus_needs(upper, open_most, rules.upper_bonus_threshold)
    return {"filled": {box: card[box] for box in filled}, "open": list(open_boxes),
            "upper_subtotal": upper, "upper_bonus_needs": needs, "kniffel_bonuses": kniffel_bonuses,
            "jokers_left": state.aux // rules.aux_block if rules.jokers else None,
            "dice": list(_dice.KEEPS[roll]) if roll is not None else None, "rolls_left": rolls_left}


_LAYOUTS = {}  # (rules key, filled mask) -> card_layout; batch advice asks for many


def card_layout(rules, mask):
    """(filled boxes, open boxes, the most points the open upper boxes can still bring)."""
    layout = _LAYOUTS.get((rules.key, mask))
    if layout is None:
        filled = tuple(box for b, box in enumerate(rules.boxes) if mask >> b & 1)
        open_boxes = tuple(box for box in rules.boxes if box not in filled)
        most = sum(max(rules.possible_points(box)) for box in open_boxes if box in UPPER)
        layout = _LAYOUTS[rules.key, mask] = (filled, open_boxes, most)
    return layout


def box_values(state, table, rolls=None):
    """(values, points, bonus) for every box and each final roll in `rolls` (default: all 252),
    for the expected score: values[b, i] is the expected future score of entering roll rolls[i]
    in box b now (points + bonuses + the next state's value); -inf where the box is filled or
    the rules forbid it."""
    (values,), points, bonus = steps.box_values(state, steps.PointsView(table.rules, table.values),
                                                rolls)
    return values, points, bonus


def final_roll_values(state, table):
    """(stop, final) of the expected score per roll: steps.final_values."""
    (stop,), (final,) = steps.final_values(state, steps.PointsView(table.rules, table.values))
    return stop, final


def keep_values(stop, final, rolls_left):
    """The expected-score value of every keep (462) with `rolls_left` rolls to come."""
    return steps.keep_values(steps.PointsView, (stop,), (final,), rolls_left)[0]


def ranked(query, table, goal, view=None, computed=None):
    """Every choice for the checked `query` (checked_query's) ranked by `goal`, best first: an
    Advice; the one place a scorecard goal's options are ranked (its view tells how).  table:
    the table the goal reads.  view: the goal's view when the caller made it (win/coach.py's),
    else goal.view's.  computed: (box values, points, bonus, keep values) of the roll in hand
    when the caller computed them for many rolls at once (the strategy tables)."""
    view, facts = (view, None) if view is not None else goal.view(query, table)
    state, roll = query.state, query.roll
    if roll is None:
        probability, expected = view.headline(state.card_total, view.start(state))
        return Advice(view.rules.key, state.card_total, expected, [], goal, facts, probability,
                      view=view)
    if computed is None:
        value, points, bonus = steps.box_values(state, view, [roll])
        keeps = (steps.keep_values(view, *steps.final_values(state, view), query.rolls_left)
                 if query.rolls_left else None)
    else:
        value, points, bonus, keeps = computed
    options = ranked_options(query, view, value, points, bonus, keeps)
    probability, expected = options[0].get("probability"), options[0]["expected_final_score"]
    return Advice(view.rules.key, state.card_total, expected, options, goal, facts, probability,
                  view=view)


def best_value(query, view):
    """The best value of a checked `query` under `view` (a tuple of floats): its best option's,
    without writing the options (a text's comparison line)."""
    state, roll, rolls_left = query.state, query.roll, query.rolls_left
    if roll is None:
        return view.start(state)
    stop, final = steps.final_values(state, view)
    if not rolls_left:
        return tuple(part[roll] for part in final)
    keeps = steps.keep_values(view, stop, final, rolls_left)
    best = tuple(part[roll] for part in keeps)  # all five held: stop now
    for i in sub_keep_indices(roll)[1].tolist():
        best = view.best(best, tuple(part[i] for part in keeps))
    return best


def checked_query(position, rules, dice=None, rolls_left=None):
    """A position of a program checked once: a Query whose Position holds the card as
    parse_card reads it (ask/request.py reads what a person or a batch line gives and calls
    this); ValueError naming the problem."""
    if not isinstance(position, Position):
        position = Position(card=position)
    card = parse_card(position.card, rules)
    state = card_state(card, position.kniffel_bonuses, position.jokers_left, rules)
    position = Position(card, position.kniffel_bonuses, position.jokers_left)
    if dice is None:
        if rolls_left is not None:
            raise ValueError("rolls left needs dice")
        return Query(state, None, None, position, rules)
    roll, rolls_left = _dice.checked_roll(dice, rolls_left, rules.rolls_per_turn)
    return Query(state, roll, rolls_left, position, rules)


def ranked_options(query, view, value, points, bonus, keeps):
    """The options of the roll in hand ranked by `view`, from its box values (steps.box_values'
    column) and, with rolls left, the value of every keep (462): the box options, the joker
    moves when no roll is left, the keeps when some are."""
    state, roll, rolls_left, rules = query.state, query.roll, query.rolls_left, view.rules
    base = state.card_total
    options = score_options(rules, view, value, points, bonus, base, state.upper, roll)
    jokers = state.aux // rules.aux_block
    if rolls_left == 0 and jokers:
        options += joker_options(rules, view, state, roll, min(jokers, rules.jokers_per_turn))
    if rolls_left:
        keeps = [part.tolist() for part in keeps]
        keep_list, indices = sub_keep_indices(roll)
        options = [{"action": "keep", "keep": list(keep), "reroll": list(reroll),
                    **view.fields(base, [part[i] for part in keeps], keep=True)}
                   for keep, reroll, i in zip(keep_list, sub_keep_rerolls(roll),
                                              indices.tolist())] + options
    return view.rank(options)


def joker_options(rules, view, state, roll, changes):
    """The joker moves of the roll in hand: change up to `changes` dice, then score."""
    options = []
    for target, (taken, given) in joker_targets(_dice.KEEPS[roll], changes).items():
        after = replace(state, aux=state.aux - len(taken) * rules.aux_block)
        changed = _dice.KEEP_INDEX[target]
        value, points, bonus = steps.box_values(after, view, [changed])
        joker = ({"from": taken[0], "to": given[0]} if len(taken) == 1
                 else {"from": list(taken), "to": list(given)})
        options += [dict(option, joker=joker) for option in
                    score_options(rules, view, value, points, bonus, state.card_total, state.upper,
                                  changed)]
    return options


def assemble(table, state, roll, rolls_left, values, points, bonus, keeps, goal):
    """The expected-score Advice from the values of each box for the roll in hand and, with
    rolls left, the value of every keep (462), as strategy tables compute them for many rolls
    of one state."""
    view = steps.PointsView(table.rules, table.values)
    query = Query(state, roll, rolls_left, None, table.rules)
    computed = ((values[:, None],), points[:, None], bonus[:, None],
                None if keeps is None else (keeps,))
    return ranked(query, table, goal, view, computed)


def score_options(rules, view, value, points, bonus, base, upper, roll):
    """The score options of final roll `roll` (an index) at capped upper total `upper`, from
    steps.box_values' column for it: the bonus split into the upper bonus this box completes
    and the extra-Kniffel bonus, and a "kniffel_joker" mark where the joker rule gives a five of
    a kind points the plain table would not (see scoring.kniffel_roll)."""
    threshold = rules.upper_bonus_threshold
    five_of_a_kind = bool(_dice.KNIFFEL_FACE[roll])
    allowed = view.allowed(tuple(part[:, 0] for part in value)).tolist()
    values = list(zip(*(part[:, 0].tolist() for part in value)))
    options = []
    for b, (box, p, total) in enumerate(zip(rules.boxes, points[:, 0].tolist(),
                                           bonus[:, 0].tolist())):
        if not allowed[b]:
            continue
        completes = rules.box_face[b] and scoring.completes_upper_bonus(upper, p, threshold)
        upper_bonus = rules.upper_bonus if completes else 0
        option = {"action": "score", "box": box, "points": p, "bonus": total,
                  "upper_bonus": upper_bonus, "extra_bonus": total - upper_bonus}
        if five_of_a_kind and p != rules.plain_score[b, roll]:
            option["kniffel_joker"] = True
        option.update(view.fields(base, values[b]))
        options.append(option)
    return options
