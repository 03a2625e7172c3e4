"""Why an option is worth what it is: what the turn plays for.  Under the play an option leads
to (the goal's best play from there, read through its view, advice/steps.py), the exact chance
that the turn ends in each box and the points it scores there; for the expected score also the
chance of the upper bonus by the end of the game after the option (and before it: with the
best option), and for a box, the boxes it leaves open.

Exact, no simulation: a forward pass over the turn's remaining rolls carries the probability of
every keep and roll (the dice thrown one at a time, each face 1/6) through the decisions the
view ranks best, breaking ties as the simulation and the score distribution do (the keep with
the fewest dice first, holding all five last; the first box of equal value), so that seeded
play samples exactly these chances.  The turn's part is plain numpy (no numba); the upper bonus
after the turn is a distribution computation (stats/distribution.bonus_chances), for the
expected score only: another goal's play is not the table's.
"""
import math
from collections import namedtuple
from dataclasses import replace
from functools import lru_cache

import numpy as np

from .. import dice
from ..rules import scoring
from . import cost, steps
from .position import card_layout

Outcome = namedtuple("Outcome", "probability box points bonus completes successor")
Outcome.__doc__ = """One way a turn ends: its probability, the box filled (an index), the box's
points, the bonus the entry earns (upper plus extra-Kniffel), whether it completes the upper
bonus, and the turn start that follows (filled, aux, capped upper)."""


@lru_cache(maxsize=1)
def keep_order():
    """order[r, i]: the keeps roll r may hold (0-5 dice) in the order ties go to the first:
    the advice's order of keeps (fewest dice first), holding all five (stopping) last; -1 pads.
    The simulation's and the distribution's order (stats/simulate.sub_keep_table)."""
    order = np.full((dice.N_ROLLS, 32), -1, dtype=np.int64)
    for r in range(dice.N_ROLLS):
        found = dice.sub_keep_indices(r)[1].tolist() + [r]
        order[r, :len(found)] = found
    return order


def _beats(view, a, b):
    """Where value b is strictly better than value a under `view` (so a tie keeps a)."""
    kept = view.best(a, b)
    return np.logical_or.reduce([x != y for x, y in zip(kept, a)])


def first_best(view, values):
    """(index, value): per column, the first row of `values` (a tuple of rows x columns
    arrays) that no later row beats, and its value."""
    best = tuple(part[0].copy() for part in values)
    index = np.zeros(values[0].shape[1], dtype=np.int64)
    for row in range(1, values[0].shape[0]):
        candidate = tuple(part[row] for part in values)
        index[_beats(view, best, candidate)] = row
        best = view.best(best, candidate)
    return index, best


class TurnPlay:
    """How the rest of a turn is played from the turn start `state` under `view`: the box each
    final roll goes into (per joker used), the keep each roll takes with `left` rolls to come
    (1 .. rolls_left - 1), and the jokers a roll thrown with every roll used plays (Knobeln)."""

    def __init__(self, state, view, rolls_left):
        rules = view.rules
        self.state, self.view, self.rules = state, view, rules
        block = rules.aux_block
        self.passes = min(state.aux // block, rules.jokers_per_turn)
        self.box, levels = [], []  # per jokers used this turn: each roll's box and its value
        for used in range(self.passes + 1):
            after = replace(state, aux=state.aux - used * block)
            index, value = first_best(view, steps.box_values(after, view)[0])
            self.box.append(index)
            levels.append(value)
        self.history = _joker_history(view, levels)
        self.keep = {}
        if rolls_left > 1:
            stop, final = steps.final_values(state, view)
            order = keep_order()
            for left in range(1, rolls_left):
                keeps = steps.keep_values(view, stop, final, left)
                values = tuple(np.where(order.T >= 0, part[order.T], fill)
                               for part, fill in zip(keeps, view.fill))
                index = first_best(view, values)[0]
                self.keep[left] = order[np.arange(dice.N_ROLLS), index]

    def joker_choice(self, roll):
        """(the roll scored, jokers used) of a roll thrown with every roll used: the kernels'
        joker_moves (engine/positions.py), each change to the last roll one die away whose
        value the change realises."""
        h, used, m = self.history, 0, self.passes
        while m > 0 and _beats(self.view, _at(h[0][used], roll), _at(h[m][used], roll)):
            target = _at(h[m][used], roll)
            found = roll
            for sub in dice.SMALLER[roll, :dice.N_SMALLER[roll]].tolist():
                for other in dice.ADD_DIE[sub].tolist():
                    if _at(h[m - 1][used + 1], other) == target:
                        found = other
            roll, used, m = found, used + 1, m - 1
        return roll, used


def _at(value, i):
    return tuple(float(part[i]) for part in value)


def _joker_history(view, levels):
    """history[m][used]: the value of each final roll with up to m more one-die changes, having
    used `used` jokers this turn (levels[used]: no more change), as position_final builds it."""
    history = [list(levels)]
    for m in range(1, len(levels)):
        prev = history[-1]
        history.append([view.best(prev[used], steps.best_one_die_change(view, prev[used + 1]))
                        if used + 1 < len(levels) else prev[used] for used in range(len(levels))])
    return history


def _throw(mass):
    """Mass on keeps (462) thrown: each missing die one at a time, a sixth to each face; the
    chance of each roll (252)."""
    mass = mass.copy()
    for size in range(dice.DICE):
        rows = dice.SIZE_SLICES[size]
        share = mass[rows] / 6.0
        for face in range(dice.FACES):
            np.add.at(mass, dice.ADD_DIE[rows, face], share)
    return mass[:dice.N_ROLLS]


def final_rolls(play, keep, left):
    """(thrown, kept): the chance of each final roll when `keep` (a keep index) is rerolled
    with `left` rolls to come (the reroll one of them), `play` deciding every later keep; thrown
    with every roll used, or kept whole before (no joker then)."""
    mass = np.zeros(dice.N_KEEPS)
    mass[keep] = 1.0
    thrown, kept = _throw(mass), np.zeros(dice.N_ROLLS)
    for rolls in range(left - 1, 0, -1):
        choice = play.keep[rolls]
        stop = choice == np.arange(dice.N_ROLLS)
        kept += np.where(stop, thrown, 0.0)
        mass = np.zeros(dice.N_KEEPS)
        np.add.at(mass, choice[~stop], thrown[~stop])
        thrown = _throw(mass)
    return thrown, kept


def enter(rules, state, box, roll, used=0):
    """The Outcome (probability 1) of final roll `roll` entered in `box` from `state` after
    `used` jokers: scoring.enter_box, the rule of every kernel."""
    aux = state.aux - used * rules.aux_block
    _, points, bonus, _, upper, aux_after = scoring.enter_box(
        box, roll, int(dice.KNIFFEL_FACE[roll]), state.filled, aux, state.upper, state.n_open,
        rules.params(), rules.plain_score, rules.joker_score, rules.box_face)
    completes = bool(rules.box_face[box]) and bool(scoring.completes_upper_bonus(
        state.upper, points, rules.upper_bonus_threshold))
    return Outcome(1.0, box, int(points), int(bonus), completes,
                   (state.filled | 1 << box, int(aux_after), int(upper)))


def turn_outcomes(play, keep, left):
    """Every way the turn ends when `keep` is rerolled with `left` rolls to come and `play`
    decides the rest: [Outcome], ways that end alike merged, their probabilities summing to 1."""
    thrown, kept = final_rolls(play, keep, left)
    found = {}
    for roll in np.flatnonzero(thrown).tolist():
        final, used = play.joker_choice(roll) if play.passes else (roll, 0)
        _add(found, enter(play.rules, play.state, int(play.box[used][final]), final, used),
             thrown[roll])
    for roll in np.flatnonzero(kept).tolist():
        _add(found, enter(play.rules, play.state, int(play.box[0][roll]), roll), kept[roll])
    return [outcome._replace(probability=p) for outcome, p in found.items()]


def _add(found, outcome, probability):
    found[outcome] = found.get(outcome, 0.0) + float(probability)


def option_outcomes(query, view, option, play=None):
    """The Outcomes of one ranked `option` (a dict of position.ranked_options) of the checked
    `query` under `view`: a box ends the turn at once (after its jokers); a keep is rerolled
    and the view's best play decides the rest.  play: the TurnPlay when the caller made it."""
    rules, state, roll = view.rules, query.state, query.roll
    if option["action"] == "score":
        box = rules.boxes.index(option["box"])
        if "joker" not in option:
            return [enter(rules, state, box, roll)]
        taken, given = option["joker"]["from"], option["joker"]["to"]
        taken, given = (taken, given) if isinstance(taken, list) else ([taken], [given])
        faces = list(dice.KEEPS[roll])
        for a, b in zip(taken, given):
            faces[faces.index(a)] = b
        return [enter(rules, state, box, dice.KEEP_INDEX[tuple(sorted(faces))], len(taken))]
    play = play or TurnPlay(state, view, query.rolls_left)
    return turn_outcomes(play, dice.KEEP_INDEX[tuple(option["keep"])], query.rolls_left)


def start_outcomes(query, view):
    """The Outcomes of the whole turn from its start (no dice yet), played best."""
    rules = view.rules
    play = TurnPlay(query.state, view, rules.rolls_per_turn)
    return turn_outcomes(play, dice.EMPTY_KEEP, rules.rolls_per_turn)


def box_chances(outcomes, rules):
    """Per box the turn can end in, most likely first: {"box", "probability", "points" (the
    expected points entered there, when the turn ends there), "bonus" (likewise, the bonus the
    entry earns)}."""
    boxes = {}
    for o in outcomes:
        p, points, bonus = boxes.get(o.box, (0.0, 0.0, 0.0))
        boxes[o.box] = (p + o.probability, points + o.probability * o.points,
                        bonus + o.probability * o.bonus)
    return [{"box": rules.boxes[b], "probability": p, "points": points / p, "bonus": bonus / p}
            for b, (p, points, bonus) in sorted(boxes.items(), key=lambda item: -item[1][0])]


def bonus_after(table, state, outcome_lists, budget=None, progress=False):
    """(chances, work): the exact chance of the upper bonus by the end of the game after each
    list of Outcomes (the turn from `state` ending so, the expected-score play of `table` after
    it), and the work that took in reference seconds (advice/cost.py).  Certain once it is
    earned or out of reach; else the chance the turn completes it plus, for every turn start it
    leaves, the chance a later turn does (stats/distribution.bonus_chances, one pass for them
    all).  chances is None where that pass is more work than `budget` (None: no limit)."""
    rules = table.rules
    needs = _bonus_needs(rules, state)
    if needs is None or needs == 0:  # out of reach, or earned
        return [0.0 if needs is None else 1.0] * len(outcome_lists), 0.0
    starts = sorted({o.successor for outcomes in outcome_lists for o in outcomes})
    later, work = {}, bonus_work(rules, state, len(starts))
    if state.n_open > 1:
        if budget is not None and work > budget:
            return None, work
        from ..engine.states import State
        from ..stats.distribution import bonus_chances, flat_index
        found = bonus_chances(table, [State(f, a, u, u, 0, state.n_open - 1)
                                      for f, a, u in starts], progress=progress)
        later = {start: found[flat_index(table, *start)] for start in starts}
    return [float(sum(o.probability * (o.completes + later.get(o.successor, 0.0))
                      for o in outcomes)) for outcomes in outcome_lists], work


def _bonus_needs(rules, state):
    """What the upper bonus still needs from the turn start `state`: 0 earned, None out of reach
    (scoring.upper_bonus_needs)."""
    most = card_layout(rules, state.filled)[2]
    return scoring.upper_bonus_needs(state.upper, most, rules.upper_bonus_threshold)


def bonus_work(rules, state, count=2):
    """The work (reference seconds, advice/cost.py) of bonus_after's chances from the turn start
    `state` when the turn can end in `count` turn starts (2: more than one, as nearly every
    turn can): none where the bonus is earned or out of reach, or in the game's last turn.  An
    analysis counts its whys' budget with it before asking (ask/analysis.py)."""
    needs = _bonus_needs(rules, state)
    if needs is None or needs == 0 or state.n_open <= 1:
        return 0.0
    return float(cost.successors_work(rules, state.n_open - 1, count))


def explain(query, advice, table=None, progress=False, budget=None):
    """Add the why to `advice` (the Advice of the checked `query`, ranked through its view):
    each option's "why" ({"boxes": box_chances, "upper_bonus_chance": the upper bonus's chance
    by the game's end after it, and for a box "open": the boxes left open}) and advice.why
    ({"play": the goal played, "exact": true, "upper_bonus_chance": with the best option, or at
    the turn's start; there also the turn's "boxes"}).  `table`: the expected-score table, for
    the upper bonus's chances when the advice is for points (None: they are null), computed
    when their work fits `budget` (reference seconds; else null, and advice.why's
    "over_budget": {"work", "budget"})."""
    view, rules, state = advice.view, query.rules, query.state
    if query.roll is None:
        lists = [start_outcomes(query, view)]
    else:
        play = TurnPlay(state, view, query.rolls_left) if query.rolls_left else None
        lists = [option_outcomes(query, view, option, play) for option in advice.options]
    bonus, work = None, 0.0
    if table is not None:
        bonus, work = bonus_after(table, state, lists, budget, progress)
    bonus = bonus or [None] * len(lists)
    open_now = [box for b, box in enumerate(rules.boxes) if not state.filled >> b & 1]
    why = {"play": str(advice.goal), "exact": True, "upper_bonus_chance": bonus[0]}
    if table is not None and bonus[0] is None:
        why["over_budget"] = {"work": work, "budget": budget}
    if query.roll is None:
        why["boxes"] = box_chances(lists[0], rules)
    for option, outcomes, chance in zip(advice.options, lists, bonus):
        option["why"] = {"boxes": box_chances(outcomes, rules), "upper_bonus_chance": chance}
        if option["action"] == "score":
            option["why"]["open"] = [box for box in open_now if box != option["box"]]
    advice.why = why
    return advice


WHY_BOXES = 5  # the boxes a text names, most likely first; the rest are summed up


def why_parts(option, why, words):
    """The why of one `option` in words (a lang.Words), as parts to join with "; ": the boxes its
    turn ends in (unless a box alone, which says itself), the upper bonus's chance after it
    (for a box, before it too: `why` is the advice's), the boxes a box leaves open."""
    w, mine = words, option["why"]
    parts = [] if option["action"] == "score" and "joker" not in option else [
        boxes_text(mine["boxes"], w)]
    if mine["upper_bonus_chance"] is not None:
        after = w.percent(mine["upper_bonus_chance"])
        parts.append(w("why.upper", chance=after) if option["action"] == "keep" else
                     w("why.upper_change", before=w.percent(why["upper_bonus_chance"]),
                       after=after))
    if "open" in mine:
        parts.append(w("why.open", boxes=w.boxes(mine["open"]) or w("nothing")))
    return parts


def boxes_text(boxes, words):
    """"Große Straße 38.0% (40), Chance 20.1% (23.4), …": the WHY_BOXES likeliest boxes, the
    points entered there (on average: one decimal unless whole), then the rest summed."""
    w = words
    said = [w("why.box", box=w.box(b["box"]), chance=w.percent(b["probability"]),
              points=_points(b["points"])) for b in boxes[:WHY_BOXES]]
    rest = boxes[WHY_BOXES:]
    if rest:
        said.append(w("why.rest", n=len(rest),
                      chance=w.percent(math.fsum(b["probability"] for b in rest))))
    return ", ".join(said)


def _points(points):
    whole = round(points)
    return str(whole) if abs(points - whole) < 1e-9 else f"{points:.1f}"


def over_budget_text(why, words):
    """The line that says the upper bonus's chances were left out over the budget, or None."""
    over = why.get("over_budget")
    if over is None:
        return None
    return words("why.over_budget", seconds=over["work"], budget=f"{over['budget']:g}")
