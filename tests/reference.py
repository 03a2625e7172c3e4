"""Independent, slow, obviously-correct reference solver for small sub-games.

Written from /work/shared/RULES.md alone (not from the code in ``solver/``) so that the fast
solver's tests can compare against it on sub-games with a few (1-4) open boxes.  Plain Python,
standard library only, floats throughout.

Model: a position at the start of a turn is (open boxes, upper total capped at the bonus
threshold, state of the Kniffel box, extra-Kniffel bonuses already paid).  Its value is the
expected sum of all future points under optimal play, computed by plain recursion with
memoisation over the positions that follow it.  A turn is evaluated exhaustively: every sorted
roll, every sub-multiset that may be kept, every box that may be filled.
"""

from functools import lru_cache
from itertools import combinations, product
from math import factorial

__all__ = ["BOXES_13", "BOXES_YATZY", "PRESETS", "state_value", "score_options"]

UPPER_BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")
BOXES_13 = UPPER_BOXES + (
    "three_kind", "four_kind", "full_house", "small_straight", "large_straight",
    "kniffel", "chance",
)
BOXES_YATZY = UPPER_BOXES + (
    "one_pair", "two_pairs", "three_kind", "four_kind", "small_straight",
    "large_straight", "full_house", "chance", "yatzy",
)
PRESETS = (
    "kniffel", "kniffel-basic", "kniffel-championship", "kitkniff", "yahtzee",
    "yahtzee-free", "yatzy",
)

# Face of each upper box (ones -> 1 ... sixes -> 6).
UPPER_FACE = {box: face for face, box in enumerate(UPPER_BOXES, start=1)}

UPPER_BONUS_THRESHOLD = 63
UPPER_BONUS = {"yatzy": 50}           # every other preset: 35
UPPER_BONUS_DEFAULT = 35

# Preset `kniffel`: with the joker an extra Kniffel may be entered anywhere at the box's
# maximum, whatever its face (RULES.md preset 1 lists these numbers).
KNIFFEL_JOKER_MAX = {
    "ones": 5, "twos": 10, "threes": 15, "fours": 20, "fives": 25, "sixes": 30,
    "three_kind": 30, "four_kind": 30, "full_house": 25, "small_straight": 30,
    "large_straight": 40, "chance": 30,
}

# KitKniff / Yahtzee-style joker scores of the lower boxes for a five of a kind with sum `total`.
def _joker_lower_score(box, total):
    if box in ("three_kind", "four_kind", "chance"):
        return total
    return {"full_house": 25, "small_straight": 30, "large_straight": 40}[box]


LOWER_JOKER_BOXES = ("three_kind", "four_kind", "full_house", "small_straight",
                     "large_straight", "chance")

# Bonus for an extra Kniffel (paid only while the Kniffel box holds 50) and its cap in bonuses.
EXTRA_KNIFFEL_BONUS = {"kniffel": 50, "kniffel-championship": 50, "kitkniff": 100,
                       "yahtzee": 100, "yahtzee-free": 100}
KITKNIFF_MAX_BONUSES = 9   # "maximal 900 Zusatzpunkte" = 9 bonuses of 100


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
    """Score of `roll` in `box` by the plain 13-box table of RULES.md."""
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
    """Score of `roll` in `box` by the Scandinavian Yatzy table (RULES.md preset 8)."""
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


def score_options(preset, roll, open_boxes, kniffel_box="open", bonuses_paid=0,
                  five_of_a_kind_is_full_house=False):
    """All legal ways to fill a box with the final `roll`.

    Returns a set of (box, points entered in the box, extra-Kniffel bonus paid now).
    Scratching (0) is listed wherever the rules allow it, even when dominated, so that the
    maximisation and not this function decides what is best.  The upper bonus is not included
    here; it follows from the points entered in upper boxes.
    """
    open_boxes = frozenset(open_boxes)
    if preset == "yatzy":
        return {(box, points, 0) for box in open_boxes
                for points in (0, plain_score_yatzy(box, roll))}

    def plain():
        return {(box, points, 0) for box in open_boxes
                for points in (0, plain_score_13(box, roll, five_of_a_kind_is_full_house))}

    face = roll[0]
    is_five_of_a_kind = all(d == face for d in roll)
    # An extra Kniffel needs the Kniffel box filled; while it is open, five of a kind is an
    # ordinary roll scored by the plain table (Kniffel box 50, straights 0, ...).
    if preset == "kniffel-basic" or not is_five_of_a_kind or kniffel_box == "open":
        return plain()

    holds_50 = kniffel_box == "50"
    matching_upper = UPPER_BOXES[face - 1]
    total = sum(roll)

    if preset == "kniffel":
        if not holds_50:
            return plain()   # default: bonus and joker only while the box holds 50
        bonus = EXTRA_KNIFFEL_BONUS["kniffel"]
        # Joker: any open box at its maximum; the plain score is never higher but list it too.
        return {(box, points, bonus) for box in open_boxes
                for points in (0, plain_score_13(box, roll, five_of_a_kind_is_full_house),
                               KNIFFEL_JOKER_MAX[box])}

    if preset == "kniffel-championship":
        # Plain table; the bonus needs the box to hold 50 and the Kniffel entered in a box it
        # satisfies (scores > 0 there).  A scratch earns no bonus.
        options = set()
        for box in open_boxes:
            options.add((box, 0, 0))
            points = plain_score_13(box, roll, five_of_a_kind_is_full_house)
            if points > 0:
                options.add((box, points, EXTRA_KNIFFEL_BONUS[preset] if holds_50 else 0))
        return options

    pays = holds_50
    if preset == "kitkniff":
        pays = holds_50 and bonuses_paid < KITKNIFF_MAX_BONUSES
    bonus = EXTRA_KNIFFEL_BONUS[preset] if pays else 0

    if preset == "kitkniff":
        # Free joker once the box is filled; any box may be scratched; bonus wherever it goes.
        options = set()
        for box in open_boxes:
            candidates = {0, plain_score_13(box, roll, five_of_a_kind_is_full_house)}
            if box in LOWER_JOKER_BOXES:
                candidates.add(_joker_lower_score(box, total))
            elif box == matching_upper:
                candidates.add(total)
            options |= {(box, points, bonus) for points in candidates}
        return options

    if preset == "yahtzee":
        # Forced joker: matching upper box if open; else any open lower box at joker values;
        # else 0 in an open upper box.
        if matching_upper in open_boxes:
            return {(matching_upper, total, bonus)}
        open_lower = [box for box in LOWER_JOKER_BOXES if box in open_boxes]
        if open_lower:
            return {(box, _joker_lower_score(box, total), bonus) for box in open_lower}
        return {(box, 0, bonus) for box in open_boxes}

    if preset == "yahtzee-free":
        if matching_upper in open_boxes:
            # No joker: plain table, any box; the +100 is still paid.
            return {(box, points, bonus) for box, points, _ in plain()}
        options = set()
        for box in open_boxes:
            options.add((box, 0, bonus))
            if box in LOWER_JOKER_BOXES:
                options.add((box, _joker_lower_score(box, total), bonus))
        return options

    raise ValueError(f"unknown preset {preset!r}")


# ---------------------------------------------------------------------------------------------
# Recursion over positions
# ---------------------------------------------------------------------------------------------

def _after_filling(preset, box, points, upper_total, kniffel_box, bonuses_paid, bonus):
    """Next position's (upper_total, kniffel_box, bonuses_paid) and the upper bonus earned now."""
    upper_bonus_now = 0
    if box in UPPER_FACE:
        new_upper = min(upper_total + points, UPPER_BONUS_THRESHOLD)
        if upper_total < UPPER_BONUS_THRESHOLD <= new_upper:
            upper_bonus_now = UPPER_BONUS.get(preset, UPPER_BONUS_DEFAULT)
        upper_total = new_upper
    if box == "kniffel":
        kniffel_box = "50" if points == 50 else "0"
    if preset == "kniffel-basic" and kniffel_box != "open":
        # No extra-Kniffel rule: a box holding 50 and one holding 0 are the same position.
        kniffel_box = "0"
    if bonus and preset == "kitkniff":
        bonuses_paid = min(bonuses_paid + 1, KITKNIFF_MAX_BONUSES)
    return upper_total, kniffel_box, bonuses_paid, upper_bonus_now


@lru_cache(maxsize=None)
def _value(preset, five_of_a_kind_is_full_house, rolls_per_turn, open_boxes, upper_total,
           kniffel_box, bonuses_paid):
    """Memoised value of a normalised position (upper_total capped, bonuses_paid capped)."""
    if not open_boxes:
        return 0.0

    # Value of the future after each possible filling; few distinct fillings per turn, so cache
    # them locally instead of recomputing per roll.
    after = {}

    def filling_value(box, points, bonus):
        key = (box, points, bonus)
        if key not in after:
            upper, kbox, paid, upper_bonus_now = _after_filling(
                preset, box, points, upper_total, kniffel_box, bonuses_paid, bonus)
            after[key] = points + bonus + upper_bonus_now + _value(
                preset, five_of_a_kind_is_full_house, rolls_per_turn,
                open_boxes - {box}, upper, kbox, paid)
        return after[key]

    # After the last roll: best box for each roll.
    roll_value = [
        max(filling_value(*option)
            for option in score_options(preset, roll, open_boxes, kniffel_box, bonuses_paid,
                                        five_of_a_kind_is_full_house))
        for roll in ROLLS
    ]
    # Each earlier roll: best keep, valued by the expectation over the reroll.  Keeping all five
    # dice reproduces the roll, so stopping early is included.
    for _ in range(rolls_per_turn - 1):
        keep_value = [sum(p * roll_value[i] for i, p in outcomes) for outcomes in KEEP_OUTCOMES]
        roll_value = [max(keep_value[k] for k in keeps) for keeps in ROLL_KEEPS]
    return sum(p * v for p, v in zip(ROLL_PROBABILITY, roll_value))


def state_value(preset: str, open_boxes, upper_total: int, kniffel_box: str = "open",
                bonuses_paid: int = 0, five_of_a_kind_is_full_house: bool = False,
                rolls_per_turn: int = 3) -> float:
    """Expected score still to be gained under optimal play, from the start of a turn.

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
    boxes = BOXES_YATZY if preset == "yatzy" else BOXES_13
    unknown = open_boxes - set(boxes)
    if unknown:
        raise ValueError(f"unknown boxes for {preset}: {sorted(unknown)}")
    if preset == "yatzy":
        if five_of_a_kind_is_full_house:
            raise ValueError("five_of_a_kind_is_full_house applies to the 13-box games only")
        kniffel_box = "n/a"
    else:
        kniffel_box = str(kniffel_box)
        if preset == "kniffel-basic" and "kniffel" not in open_boxes:
            # No extra-Kniffel rule: whether the filled box holds 0 or 50 cannot matter, so
            # the default "open" is accepted here (e.g. state_value("kniffel-basic", {"chance"}, 0))
            # and both fillings share one cache entry.
            kniffel_box = "0"
        if kniffel_box not in ("open", "0", "50"):
            raise ValueError('kniffel_box must be "open", "0" or "50"')
        if (kniffel_box == "open") != ("kniffel" in open_boxes):
            raise ValueError('kniffel_box must be "open" exactly when "kniffel" is open')
    # Only the kitkniff cap makes bonuses_paid matter; normalise it away elsewhere so that
    # equal positions share one cache entry.
    bonuses_paid = min(bonuses_paid, KITKNIFF_MAX_BONUSES) if preset == "kitkniff" else 0
    return _value(preset, bool(five_of_a_kind_is_full_house), rolls_per_turn, open_boxes,
                  min(upper_total, UPPER_BONUS_THRESHOLD), kniffel_box, bonuses_paid)
