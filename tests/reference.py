"""Independent, slow, obviously-correct reference solver for small sub-games.

Written from the rules text (docs/rules.md) alone (not from the code in ``solver/``) so that the
fast solver's tests can compare against it on sub-games with a few (1-4) open boxes.  Plain Python,
standard library only, floats throughout.

Model: a position at the start of a turn is (open boxes, upper total capped at the bonus
threshold, state of the Kniffel box, extra-Kniffel bonuses already paid, Knobeln jokers left).
Its value is the expected sum of all future points under optimal play, computed by plain
recursion with memoisation over the positions that follow it.  A turn is evaluated
exhaustively: every sorted roll, every sub-multiset that may be kept, every box that may be
filled, every die a Knobeln joker may change.

Two entry points:
  state_value_rules(rules, ...)  any fully resolved rules dict (the keys of RULE_KEYS);
  state_value(preset, ...)       the older per-preset interface, now a thin wrapper.
And one for a risk dial: certainty_equivalent_rules(rules, theta, ...), log E[exp(theta X)] /
theta of the points X to come under the play best for that exponential utility (no jokers).
"""
from functools import lru_cache
from itertools import combinations, product
from math import exp, factorial, log
from operator import index, itemgetter, mul
from typing import NamedTuple

__all__ = ["BOXES_13", "BOXES_YATZY", "PRESETS", "PRESET_RULES", "RULE_KEYS", "preset_rules",
           "state_value", "state_value_rules", "score_options", "rules_score_options",
           "certainty_equivalent_rules"]

UPPER_BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")
BOXES_13 = UPPER_BOXES + (
    "three_kind", "four_kind", "full_house", "small_straight", "large_straight",
    "kniffel", "chance",
)
BOXES_YATZY = UPPER_BOXES + (
    "one_pair", "two_pairs", "three_kind", "four_kind", "small_straight",
    "large_straight", "full_house", "chance", "yatzy",
)
# Presets accepted by the older `state_value` interface (it has no jokers_left, so no knobeln).
PRESETS = (
    "kniffel", "kniffel-basic", "kniffel-championship", "kitkniff", "yahtzee",
    "yahtzee-free", "yatzy",
)

# Face of each upper box (ones -> 1 ... sixes -> 6).
UPPER_FACE = {box: face for face, box in enumerate(UPPER_BOXES, start=1)}

# ---------------------------------------------------------------------------------------------
# Rules dicts
# ---------------------------------------------------------------------------------------------

JOKER_MODES = ("none", "max-any", "free", "forced", "free-after-upper", "must-match")
RULE_KEYS = (
    "preset", "box_set", "upper_bonus_threshold", "upper_bonus", "extra_bonus",
    "extra_bonus_requires", "extra_bonus_cap", "joker", "joker_requires",
    "five_of_a_kind_is_full_house", "rolls_per_turn", "jokers", "jokers_per_turn",
    "extra_kniffel_must_fit",
)
_DEFAULT_RULES = {
    "box_set": "13", "upper_bonus_threshold": 63, "upper_bonus": 35, "extra_bonus": 0,
    "extra_bonus_requires": "fifty", "extra_bonus_cap": None, "joker": "none",
    "joker_requires": "fifty", "five_of_a_kind_is_full_house": False, "rolls_per_turn": 3,
    "jokers": 0, "jokers_per_turn": 1, "extra_kniffel_must_fit": False,
}
# The scorecard presets of docs/rules.md ("The presets"), as differences from the defaults.
_PRESET_CHANGES = {
    "kniffel": {"extra_bonus": 50, "joker": "max-any"},
    "kniffel-basic": {},
    "kniffel-championship": {"extra_bonus": 50, "joker": "must-match"},
    "kitkniff": {"extra_bonus": 100, "extra_bonus_cap": 900, "joker": "free",
                 "joker_requires": "filled"},
    "yahtzee": {"extra_bonus": 100, "joker": "forced", "joker_requires": "filled"},
    "yahtzee-free": {"extra_bonus": 100, "joker": "free-after-upper", "joker_requires": "filled"},
    "knobeln": {"jokers": 3},
    "yatzy": {"box_set": "yatzy", "upper_bonus": 50},
}
PRESET_RULES = {name: {"preset": name, **_DEFAULT_RULES, **changes}
                for name, changes in _PRESET_CHANGES.items()}


def preset_rules(name, **overrides):
    """A fresh rules dict for preset `name`, with `overrides` applied (keys of RULE_KEYS)."""
    if name not in PRESET_RULES:
        raise ValueError(f"unknown preset {name!r}; expected one of {tuple(PRESET_RULES)}")
    unknown = set(overrides) - set(RULE_KEYS)
    if unknown:
        raise ValueError(f"unknown rule keys {sorted(unknown)}")
    return {**PRESET_RULES[name], **overrides}


# Preset `kniffel` (max-any joker): an extra Kniffel may be entered anywhere at the box's
# maximum, whatever its face (docs/rules.md, the `kniffel` preset, lists these numbers).
JOKER_MAX = {
    "ones": 5, "twos": 10, "threes": 15, "fours": 20, "fives": 25, "sixes": 30,
    "three_kind": 30, "four_kind": 30, "full_house": 25, "small_straight": 30,
    "large_straight": 40, "chance": 30,
}
LOWER_JOKER_BOXES = ("three_kind", "four_kind", "full_house", "small_straight",
                     "large_straight", "chance")


class _Rules(NamedTuple):
    """The behaviour-relevant part of a rules dict, hashable (memo key).

    The preset name and the per-game joker count are left out: behaviour never depends on the
    name, and the jokers still in hand are part of the position.
    """
    box_set: str
    threshold: int
    upper_bonus: int
    extra_bonus: int
    extra_requires: str
    cap_count: object        # max extra-Kniffel bonuses per game, None = unlimited
    joker: str
    joker_requires: str
    five_of_a_kind_is_full_house: bool
    rolls_per_turn: int
    jokers_per_turn: int
    must_fit: bool           # a further Kniffel must go into a box where it scores, if one is open

    @property
    def boxes(self):
        return BOXES_YATZY if self.box_set == "yatzy" else BOXES_13

    @property
    def kniffel_key(self):
        return "yatzy" if self.box_set == "yatzy" else "kniffel"

    @property
    def has_extra_rule(self):
        """Whether a five of a kind while the Kniffel box is filled is anything but plain."""
        return self.extra_bonus > 0 or self.joker not in ("none", "must-match")

    @property
    def asks_fifty(self):
        """Whether some rule distinguishes a Kniffel box holding 50 from one holding 0."""
        bonus = self.extra_bonus > 0 and self.extra_requires == "fifty"
        joker = self.joker not in ("none", "must-match") and self.joker_requires == "fifty"
        return bonus or joker


def _int_option(rules, key, low, high=None):
    value = rules[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (
            high is not None and value > high):
        raise ValueError(f"rules[{key!r}] = {value!r}: expected an int in [{low}, {high or '...'}]")
    return value


def _choice_option(rules, key, choices):
    if rules[key] not in choices:
        raise ValueError(f"rules[{key!r}] = {rules[key]!r}: expected one of {choices}")
    return rules[key]


def _read_rules(rules):
    """Validate a rules dict and return its hashable _Rules."""
    keys = set(rules)
    if keys != set(RULE_KEYS):
        raise ValueError(f"rules keys: missing {sorted(set(RULE_KEYS) - keys)}, "
                         f"unknown {sorted(keys - set(RULE_KEYS))}")
    box_set = _choice_option(rules, "box_set", ("13", "yatzy"))
    extra_bonus = _int_option(rules, "extra_bonus", 0)
    cap = rules["extra_bonus_cap"]
    if cap is not None:
        cap = _int_option(rules, "extra_bonus_cap", 0)
    # "at most cap // extra_bonus bonuses per game"; without a bonus the cap means nothing.
    cap_count = cap // extra_bonus if cap is not None and extra_bonus > 0 else None
    joker = _choice_option(rules, "joker", JOKER_MODES)
    five_fh = rules["five_of_a_kind_is_full_house"]
    if not isinstance(five_fh, bool):
        raise ValueError("rules['five_of_a_kind_is_full_house'] must be a bool")
    if box_set == "yatzy":
        if five_fh:
            raise ValueError("five_of_a_kind_is_full_house applies to the 13-box games only")
        # docs/rules.md defines joker points for the 13 boxes only; must-match only gates the
        # bonus.
        if joker not in ("none", "must-match"):
            raise ValueError(f"joker {joker!r} is not defined for the yatzy box set")
    _int_option(rules, "jokers", 0)
    must_fit = rules["extra_kniffel_must_fit"]
    if not isinstance(must_fit, bool):
        raise ValueError("rules['extra_kniffel_must_fit'] must be a bool")
    return _Rules(
        box_set=box_set,
        threshold=_int_option(rules, "upper_bonus_threshold", 0),
        upper_bonus=_int_option(rules, "upper_bonus", 0),
        extra_bonus=extra_bonus,
        extra_requires=_choice_option(rules, "extra_bonus_requires", ("fifty", "filled")),
        cap_count=cap_count,
        joker=joker,
        joker_requires=_choice_option(rules, "joker_requires", ("fifty", "filled")),
        five_of_a_kind_is_full_house=five_fh,
        rolls_per_turn=_int_option(rules, "rolls_per_turn", 1, 5),
        jokers_per_turn=_int_option(rules, "jokers_per_turn", 1),
        must_fit=must_fit,
    )


# ---------------------------------------------------------------------------------------------
# Dice: sorted rolls, keeps and the outcome distribution of each keep
# ---------------------------------------------------------------------------------------------

def _multiset_probability(dice):
    """Probability that len(dice) fair dice show exactly this multiset (multinomial / 6^n)."""
    ways = factorial(len(dice))
    for face in set(dice):
        ways //= factorial(dice.count(face))
    return ways / 6 ** len(dice)


ROLLS = sorted({tuple(sorted(r)) for r in product(range(1, 7), repeat=5)})      # 252
ROLL_INDEX = {roll: i for i, roll in enumerate(ROLLS)}
ROLL_PROBABILITY = [_multiset_probability(roll) for roll in ROLLS]
KEEPS = sorted({tuple(sorted(k)) for n in range(6)
                for k in product(range(1, 7), repeat=n)})                      # 462
KEEP_INDEX = {keep: i for i, keep in enumerate(KEEPS)}


def _keep_outcomes(keep):
    """Distribution of the sorted roll after keeping `keep` and rerolling the other dice.

    Enumerates all 6^(5 - len(keep)) equally likely reroll outcomes, so it is correct by
    construction; returned as [(roll index, probability), ...].
    """
    n_reroll = 5 - len(keep)
    weight = 1 / 6 ** n_reroll
    distribution = {}
    for reroll in product(range(1, 7), repeat=n_reroll):
        i = ROLL_INDEX[tuple(sorted(keep + reroll))]
        distribution[i] = distribution.get(i, 0.0) + weight
    return sorted(distribution.items())


# Built once per process: ~23k enumerated outcomes in total.
KEEP_OUTCOMES = [_keep_outcomes(keep) for keep in KEEPS]
# For each roll, the distinct sub-multisets the player may keep (keeping all five = stop).
ROLL_KEEPS = [
    sorted({KEEP_INDEX[tuple(sorted(sub))]
            for n in range(6) for sub in combinations(roll, n)})
    for roll in ROLLS
]


# ---------------------------------------------------------------------------------------------
# Scoring, straight from the rule text (count-based)
# ---------------------------------------------------------------------------------------------

def _counts(roll):
    """c[f] = number of dice showing f (index 0 unused)."""
    c = [0] * 7
    for face in roll:
        c[face] += 1
    return c


def _contains_run(c, run):
    return all(c[face] >= 1 for face in run)


def plain_score_13(box, roll, five_of_a_kind_is_full_house=False):
    """Score of `roll` in `box` by the plain 13-box table of docs/rules.md."""
    c = _counts(roll)
    total = sum(roll)
    if box in UPPER_FACE:
        face = UPPER_FACE[box]
        return face * c[face]
    if box == "three_kind":
        return total if max(c) >= 3 else 0
    if box == "four_kind":
        return total if max(c) >= 4 else 0
    if box == "full_house":
        is_house = sorted(n for n in c if n) == [2, 3]
        if five_of_a_kind_is_full_house and max(c) == 5:
            is_house = True
        return 25 if is_house else 0
    if box == "small_straight":
        runs = ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6))
        return 30 if any(_contains_run(c, run) for run in runs) else 0
    if box == "large_straight":
        runs = ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6))
        return 40 if any(_contains_run(c, run) for run in runs) else 0
    if box == "kniffel":
        return 50 if max(c) == 5 else 0
    if box == "chance":
        return total
    raise ValueError(f"unknown 13-box key {box!r}")


def plain_score_yatzy(box, roll):
    """Score of `roll` in `box` by the Scandinavian Yatzy table (docs/rules.md, `yatzy`)."""
    c = _counts(roll)
    total = sum(roll)
    if box in UPPER_FACE:
        face = UPPER_FACE[box]
        return face * c[face]
    pair_faces = [f for f in range(1, 7) if c[f] >= 2]
    if box == "one_pair":
        return 2 * max(pair_faces) if pair_faces else 0
    if box == "two_pairs":
        # Two *different* faces each shown at least twice; four of a kind is one face only.
        # Five dice allow at most two such faces, so the choice is unique.
        return 2 * sum(pair_faces) if len(pair_faces) == 2 else 0
    if box == "three_kind":
        faces = [f for f in range(1, 7) if c[f] >= 3]
        return 3 * faces[0] if faces else 0
    if box == "four_kind":
        faces = [f for f in range(1, 7) if c[f] >= 4]
        return 4 * faces[0] if faces else 0
    if box == "small_straight":
        return 15 if sorted(roll) == [1, 2, 3, 4, 5] else 0
    if box == "large_straight":
        return 20 if sorted(roll) == [2, 3, 4, 5, 6] else 0
    if box == "full_house":
        return total if sorted(n for n in c if n) == [2, 3] else 0
    if box == "chance":
        return total
    if box == "yatzy":
        return 50 if max(c) == 5 else 0
    raise ValueError(f"unknown Yatzy key {box!r}")


def _plain_score(r, box, roll):
    if r.box_set == "yatzy":
        return plain_score_yatzy(box, roll)
    return plain_score_13(box, roll, r.five_of_a_kind_is_full_house)


def _joker_points(mode, box, face):
    """Points of box `box` for a five of a kind of `face` played as an active joker."""
    if mode == "max-any":
        return JOKER_MAX[box]
    if box in UPPER_FACE:
        if mode == "free-after-upper":
            return 0   # active only when the matching upper box is filled: others score 0
        return 5 * face if UPPER_FACE[box] == face else 0
    if box in ("three_kind", "four_kind", "chance"):
        return 5 * face
    return {"full_house": 25, "small_straight": 30, "large_straight": 40}[box]


def rules_score_options(r, roll, open_boxes, kniffel_box, bonuses_paid):
    """All legal ways to fill a box with the final `roll` under resolved rules `r`.

    Returns a set of (box, points entered in the box, extra-Kniffel bonus paid now).
    Scratching (0) is listed wherever the rules allow it, even when dominated, so that the
    maximisation and not this function decides what is best.  The upper bonus is not included
    here; it follows from the points entered in upper boxes.
    """
    if isinstance(r, dict):
        r = _read_rules(r)
    open_boxes = frozenset(open_boxes)
    face = roll[0]
    # An extra Kniffel needs the Kniffel box filled; while it is open, five of a kind is an
    # ordinary roll scored by the plain table (Kniffel box 50, straights 0, ...).
    if kniffel_box == "open" or any(d != face for d in roll):
        return {(box, points, 0) for box in open_boxes
                for points in (0, _plain_score(r, box, roll))}
    options = _further_kniffel_options(r, roll, open_boxes, kniffel_box, bonuses_paid)
    if r.must_fit:
        # extra_kniffel_must_fit: while some box it may go into gives it points, it must be
        # entered (for those points) in one of them; only with none may it go anywhere for 0.
        fitting = {option for option in options if option[1] > 0}
        if fitting:
            return fitting
    return options


def _further_kniffel_options(r, roll, open_boxes, kniffel_box, bonuses_paid):
    """rules_score_options for five of a kind while the Kniffel box is filled (without the
    must-fit restriction)."""
    face = roll[0]
    holds_50 = kniffel_box == "50"
    matching_upper = UPPER_BOXES[face - 1]
    bonus = r.extra_bonus if (
        r.extra_bonus > 0
        and (r.extra_requires == "filled" or holds_50)
        and (r.cap_count is None or bonuses_paid < r.cap_count)) else 0
    joker_active = (
        r.joker not in ("none", "must-match")
        and (r.joker_requires == "filled" or holds_50)
        and (r.joker != "free-after-upper" or matching_upper not in open_boxes))

    if not joker_active:
        options = set()
        for box in open_boxes:
            points = _plain_score(r, box, roll)
            # must-match: the bonus needs a box the Kniffel satisfies (plain score > 0).  That
            # box's scratch is then paid too, but it is dominated by entering the score.
            paid = bonus if (r.joker != "must-match" or points > 0) else 0
            options |= {(box, 0, paid), (box, points, paid)}
        return options

    if r.joker == "forced":
        # Matching upper box if open (only there); else any open lower box; else 0 upstairs.
        if matching_upper in open_boxes:
            return {(matching_upper, 5 * face, bonus)}
        open_lower = [box for box in LOWER_JOKER_BOXES if box in open_boxes]
        if open_lower:
            return {(box, _joker_points("forced", box, face), bonus) for box in open_lower}
        return {(box, 0, bonus) for box in open_boxes}

    # max-any, free, free-after-upper: any open box at its joker points, or scratched.  The
    # joker points are never below the plain score here, so the plain score need not be listed.
    return {(box, points, bonus) for box in open_boxes
            for points in (0, _joker_points(r.joker, box, face))}


def score_options(preset, roll, open_boxes, kniffel_box="open", bonuses_paid=0,
                  five_of_a_kind_is_full_house=False):
    """rules_score_options for a preset name (older interface)."""
    rules = preset_rules(preset, five_of_a_kind_is_full_house=five_of_a_kind_is_full_house)
    r = _read_rules(rules)
    open_boxes = frozenset(open_boxes)
    if not r.has_extra_rule:
        kniffel_box = "open" if r.kniffel_key in open_boxes else "0"
    return rules_score_options(r, roll, open_boxes, str(kniffel_box), bonuses_paid)


# ---------------------------------------------------------------------------------------------
# Recursion over positions
# ---------------------------------------------------------------------------------------------

def _normalise(r, open_boxes, upper_total, kniffel_box, bonuses_paid, jokers_left):
    """Canonical form of a position, so that positions of equal value share one cache entry.

    Each step only forgets information that cannot change the future:
    - upper total: capped at the threshold; set to 0 when even 5f in every open upper box
      (the most any rule pays there) cannot reach the threshold any more;
    - Kniffel box holding 0 or 50: merged when no rule asks for 50;
    - bonuses paid: only the cap makes them matter;
    - jokers: at most jokers_per_turn can be played in each remaining turn.
    """
    upper_total = min(upper_total, r.threshold)
    reachable = sum(5 * UPPER_FACE[box] for box in open_boxes if box in UPPER_FACE)
    if upper_total + reachable < r.threshold:
        upper_total = 0
    if kniffel_box != "open" and not r.asks_fifty:
        kniffel_box = "0"
    bonuses_paid = 0 if r.cap_count is None else min(bonuses_paid, r.cap_count)
    jokers_left = min(jokers_left, len(open_boxes) * r.jokers_per_turn)
    return open_boxes, upper_total, kniffel_box, bonuses_paid, jokers_left


def _after_filling(r, box, points, bonus, open_boxes, upper_total, kniffel_box, bonuses_paid,
                   jokers_left):
    """Points earned now (box + extra bonus + upper bonus) and the normalised next position."""
    earned = points + bonus
    if box in UPPER_FACE:
        new_upper = upper_total + points
        if upper_total < r.threshold <= new_upper:
            earned += r.upper_bonus
        upper_total = new_upper
    if box == r.kniffel_key:
        kniffel_box = "50" if points == 50 else "0"
    if bonus:
        bonuses_paid += 1
    return earned, _normalise(r, open_boxes - {box}, upper_total, kniffel_box, bonuses_paid,
                              jokers_left)


def _one_die_changes(roll):
    """Sorted rolls that differ from `roll` in exactly one die (what one Knobeln joker does)."""
    out = set()
    for i in range(5):
        for face in range(1, 7):
            if face != roll[i]:
                out.add(ROLL_INDEX[tuple(sorted(roll[:i] + (face,) + roll[i + 1:]))])
    return sorted(out)


ROLL_NEIGHBOURS = [_one_die_changes(roll) for roll in ROLLS]
# Keeps that reroll at least one die.  Keeping all five ends the turn at once (no joker), so
# it is handled as "stop and score", not as a pass to a later roll.
ROLL_REROLL_KEEPS = [[k for k in keeps if len(KEEPS[k]) < 5] for keeps in ROLL_KEEPS]


def _getter(indices):
    """values -> the tuple of values[i] for i in `indices` (itemgetter, a tuple for one too)."""
    if len(indices) == 1:
        (i,) = indices
        return lambda values: (values[i],)
    return itemgetter(*indices)


# The same sums and maxima as written out per term, in the same order (so the same floats),
# with the lookups done by itemgetter: the reference stays plain Python and quicker.
KEEP_AVERAGES = [(_getter([i for i, _ in outcomes]), [p for _, p in outcomes])
                 for outcomes in KEEP_OUTCOMES]
REROLL_KEEP_VALUES = [_getter(keeps) for keeps in ROLL_REROLL_KEEPS]
NEIGHBOUR_VALUES = [_getter(n) for n in ROLL_NEIGHBOURS]


@lru_cache(maxsize=None)
def _value(r, open_boxes, upper_total, kniffel_box, bonuses_paid, jokers_left):
    """Memoised value of a normalised position at the start of a turn."""
    if not open_boxes:
        return 0.0
    options = [rules_score_options(r, roll, open_boxes, kniffel_box, bonuses_paid)
               for roll in ROLLS]

    # Value of the future after each possible filling, keyed by (option, jokers carried); few
    # distinct ones per turn, so cache them locally instead of recomputing per roll.
    after = {}

    def filling_value(option, jokers):
        key = (option, jokers)
        if key not in after:
            earned, position = _after_filling(r, *option, open_boxes, upper_total, kniffel_box,
                                              bonuses_paid, jokers)
            after[key] = earned + _value(r, *position)
        return after[key]

    # best[j][i]: score roll i now, carrying j jokers into the rest of the game.
    uses = min(r.jokers_per_turn, jokers_left)
    best = {j: [max(filling_value(o, j) for o in opts) for opts in options]
            for j in range(jokers_left - uses, jokers_left + 1)}

    # After the last roll, with `used` jokers already played this turn: score now, or play one
    # more joker (one die to another face) while the turn's and the game's limits allow.
    roll_value = best[jokers_left - uses]
    for used in range(uses - 1, -1, -1):
        now = best[jokers_left - used]
        roll_value = [max(now[i], max(neighbours(roll_value)))
                      for i, neighbours in enumerate(NEIGHBOUR_VALUES)]

    # Each earlier roll: stop and score now (no joker), or reroll at least one die.
    stop = best[jokers_left]
    for _ in range(r.rolls_per_turn - 1):
        keep_value = [sum(map(mul, probs, rolls(roll_value))) for rolls, probs in KEEP_AVERAGES]
        roll_value = [max(stop[i], max(keeps(keep_value)))
                      for i, keeps in enumerate(REROLL_KEEP_VALUES)]
    return sum(p * v for p, v in zip(ROLL_PROBABILITY, roll_value))


def state_value_rules(rules: dict, open_boxes, upper_total: int, kniffel_box: str = "open",
                      bonuses_paid: int = 0, jokers_left: int = 0) -> float:
    """Expected future score under optimal play from the start of a turn, for a fully
    resolved rules dict (exactly the keys of RULE_KEYS, as the fast solver's Rules.as_dict()).

    open_boxes: box keys still open.  upper_total: points in the upper boxes so far (>= 0).
    kniffel_box: "open", "0" or "50" for the Kniffel box (yatzy: the yatzy box); "open" exactly
    when that box is open, except that with no extra-Kniffel rule a filled box may be given as
    anything, e.g. the default "open" (it cannot matter).  bonuses_paid: extra-Kniffel
    bonuses paid so far (matters with a cap).  jokers_left: Knobeln die-jokers still in hand
    (<= rules["jokers"]).
    Returns the expected sum of all FUTURE points: box scores, the upper bonus if reached in
    the future, and future extra-Kniffel bonuses.
    """
    r = _read_rules(rules)
    # index() accepts numpy integers too, and rejects floats.
    upper_total, bonuses_paid = index(upper_total), index(bonuses_paid)
    jokers_left = index(jokers_left)
    if upper_total < 0 or bonuses_paid < 0:
        raise ValueError("upper_total and bonuses_paid must be >= 0")
    if not 0 <= jokers_left <= rules["jokers"]:
        raise ValueError(f"jokers_left must be in 0..{rules['jokers']}")
    open_boxes = frozenset(open_boxes)
    unknown = open_boxes - set(r.boxes)
    if unknown:
        raise ValueError(f"unknown boxes for box set {r.box_set}: {sorted(unknown)}")
    kniffel_box = str(kniffel_box)
    if not r.has_extra_rule and r.kniffel_key not in open_boxes:
        # A filled box's content cannot matter, so accept e.g. the default "open" there.
        kniffel_box = "0"
    if kniffel_box not in ("open", "0", "50"):
        raise ValueError('kniffel_box must be "open", "0" or "50"')
    if (kniffel_box == "open") != (r.kniffel_key in open_boxes):
        raise ValueError(f'kniffel_box must be "open" exactly when "{r.kniffel_key}" is open')
    return _value(r, *_normalise(r, open_boxes, upper_total, kniffel_box, bonuses_paid,
                                 jokers_left))


def state_value(preset: str, open_boxes, upper_total: int, kniffel_box: str = "open",
                bonuses_paid: int = 0, five_of_a_kind_is_full_house: bool = False,
                rolls_per_turn: int = 3) -> float:
    """Expected score still to be gained under optimal play, from the start of a turn.

    Older per-preset interface (no knobeln: it has no jokers_left); see state_value_rules.
    open_boxes: iterable of box keys still open (e.g. {"fives", "chance"}).
    upper_total: sum of points in the six upper boxes so far (uncapped int, >= 0).
    kniffel_box: "open", "0" (scratched) or "50" (holds 50). Must be "open" iff "kniffel" in
    open_boxes.  Ignored for `yatzy` (no joker, no bonus).
    bonuses_paid: extra-Kniffel bonuses already paid this game (matters only for the kitkniff cap).
    Returns the expected sum of all FUTURE points: box scores, the upper bonus if it is earned
    in the future (i.e. upper_total < threshold now and reaches it later), and future
    extra-Kniffel bonuses.
    """
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; expected one of {PRESETS}")
    if not 1 <= rolls_per_turn <= 5:
        raise ValueError("rolls_per_turn must be 1..5")
    if upper_total < 0 or bonuses_paid < 0:
        raise ValueError("upper_total and bonuses_paid must be >= 0")
    open_boxes = frozenset(open_boxes)
    if preset == "yatzy":
        if five_of_a_kind_is_full_house:
            raise ValueError("five_of_a_kind_is_full_house applies to the 13-box games only")
        kniffel_box = "open" if "yatzy" in open_boxes else "0"
    rules = preset_rules(preset, five_of_a_kind_is_full_house=bool(five_of_a_kind_is_full_house),
                         rolls_per_turn=rolls_per_turn)
    return state_value_rules(rules, open_boxes, upper_total, kniffel_box, bonuses_paid)


@lru_cache(maxsize=None)
def _utility(r, theta, open_boxes, upper_total, kniffel_box, bonuses_paid):
    """sign(theta) E[exp(theta X)] of a normalised position (no jokers), X the points to come,
    under the play that makes it largest: the largest E for theta > 0, the smallest for < 0."""
    sign = 1.0 if theta > 0 else -1.0
    if not open_boxes:
        return sign
    after = {}

    def filling_value(option):
        if option not in after:
            earned, position = _after_filling(r, *option, open_boxes, upper_total, kniffel_box,
                                              bonuses_paid, 0)
            after[option] = exp(theta * earned) * _utility(r, theta, *position[:4])
        return after[option]

    stop = [max(filling_value(o) for o in rules_score_options(r, roll, open_boxes, kniffel_box,
                                                              bonuses_paid))
            for roll in ROLLS]
    roll_value = stop
    for _ in range(r.rolls_per_turn - 1):
        keep_value = [sum(map(mul, probs, rolls(roll_value))) for rolls, probs in KEEP_AVERAGES]
        roll_value = [max(stop[i], max(keeps(keep_value)))
                      for i, keeps in enumerate(REROLL_KEEP_VALUES)]
    return sum(p * v for p, v in zip(ROLL_PROBABILITY, roll_value))


def certainty_equivalent_rules(rules: dict, theta: float, open_boxes, upper_total: int,
                               kniffel_box: str = "open", bonuses_paid: int = 0) -> float:
    """log E[exp(theta X)] / theta from the start of a turn, X the points still to come under
    the play best for the utility exp(theta x) (theta > 0) or -exp(theta x) (theta < 0); the
    arguments as state_value_rules' (rules without Knobeln jokers)."""
    r = _read_rules(rules)
    if not theta:
        raise ValueError("theta must be nonzero (0 is state_value_rules)")
    if rules["jokers"]:
        raise ValueError("no Knobeln jokers here")
    position = _normalise(r, frozenset(open_boxes), index(upper_total), str(kniffel_box),
                          index(bonuses_paid), 0)
    return log(abs(_utility(r, float(theta), *position[:4]))) / theta
