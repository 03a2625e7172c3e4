"""Rules of thumb as data: a short decision list for the keeps and one for the boxes.

A `RuleList` is what a person would pin to the wall: for each roll with rolls to come, the first
keep rule that applies says which dice to hold ("keep the pair", "keep four to a straight if
the small straight is open"); after the last roll, the first box rule that applies says where the
dice go ("large straight into Large Straight", "at least three sixes into Sixes").  The same
list drives the exact policy evaluation (policy_eval.py), the seeded simulation and the printed
page; `compile_rules` turns it into the integer arrays the kernels read.

Keep rules depend on the roll, box rules on the roll's points and which boxes are open; both may
carry conditions a strong player watches (`Condition`): that some box is still open, how many
boxes are open (the round), and where the upper section stands against its bonus, in four plain
states (BONUS_STATES): reached, on par (three of each open face still gets it), behind (only
more than three of a face gets it), lost.  "Scratch" rules are box rules with min_points 0 late
in the list: where the dice go (a zero if they score nothing there) when nothing better fits.
A keep rule may also name the rolls left, and a few patterns (OPEN_PATTERNS) look at which upper
boxes are open ("the most common face whose box is open"); a box rule may send the dice where
they score most above the box's par (box_pars), a number per box printed with the rule, and the
keep rule "aim" holds what a turn played for the open box furthest ahead of its par holds.
"""
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .. import dice
from ..rules.scoring import upper_bonus_reached

# ---------------------------------------------------------------------------------------------
# Keep patterns: roll (sorted faces) -> the dice to hold, or None where the pattern does not fit.

_RUNS4 = ((2, 3, 4, 5), (3, 4, 5, 6), (1, 2, 3, 4))  # small straights, open-ended first
_RUNS5 = ((2, 3, 4, 5, 6), (1, 2, 3, 4, 5))


def _most_common(roll):
    """(face, count) of the most common face, the higher face on a tie."""
    return max(((roll.count(f), f) for f in set(roll)))[::-1]


def _of_a_kind(roll, n):
    face, count = _most_common(roll)
    return (face,) * count if count >= n else None


def _face(roll, f):
    count = roll.count(f)
    return (f,) * count if count else None


def _run(roll, n, runs):
    """n dice of one run (one of each face), from the run with most faces present."""
    best = None
    for run in runs:
        present = tuple(f for f in run if f in roll)
        if len(present) >= n and (best is None or len(present) > len(best)):
            best = present
    return best


def _two_pairs(roll):
    pairs = sorted(f for f in set(roll) if roll.count(f) >= 2)
    if len(pairs) < 2:
        return None
    return tuple(sorted((pairs[-2],) * 2 + (pairs[-1],) * 2))


def _full_house(roll):
    counts = sorted(roll.count(f) for f in set(roll))
    return roll if counts == [2, 3] else None


def _high(roll, t):
    kept = tuple(f for f in roll if f >= t)
    return kept or None


def _pair_high(roll, n):
    """The most common face if it has at least n dice and is 4 or more."""
    face, count = _most_common(roll)
    return (face,) * count if count >= n and face >= 4 else None


def _of_an_open_kind(roll, n, open_faces):
    """All dice of the most common face whose upper box is open (the higher face on a tie), if it
    shows on at least n dice."""
    counts = [(roll.count(f), f) for f in set(roll) if open_faces >> (f - 1) & 1]
    if not counts:
        return None
    count, face = max(counts)
    return (face,) * count if count >= n else None


# name -> function(roll, arg): the dice the pattern keeps, or None (its words: solver/lang,
# "pattern.<name>"); OPEN_PATTERNS: name -> function(roll, arg, open_faces) for the patterns that
# also look at which upper boxes are open (bit f-1 of open_faces: face f's box is open).
OPEN_PATTERNS = {
    "kind_open": _of_an_open_kind,
}
ALL_OPEN = 0b111111  # every upper box open
# "aim at the open box where the dice are furthest ahead of its par and keep what a turn played
# for that box alone keeps": it reads the whole card and the rolls left, so it has no table
# (compile_rules marks it AIM_KEEP; box_turns holds what it reads).
AIM = "aim"
AIM_KEEP = -2
PATTERNS = {
    "kind": _of_a_kind,
    "kind_high": _pair_high,
    "face": _face,
    "run4": lambda roll, n: _run(roll, n, _RUNS4),
    "run5": lambda roll, n: _run(roll, n, _RUNS5),
    "two_pairs": lambda roll, _: _two_pairs(roll),
    "full_house": lambda roll, _: _full_house(roll),
    "high": _high,
    "nothing": lambda roll, _: (),
}


# Where the upper section stands against its bonus: need = threshold - upper total, F = the sum
# of the faces of the open upper boxes.  reached: need <= 0; par: 0 < need <= 3F; behind:
# 3F < need <= 5F; lost: need > 5F.  A rule's `bonus` names the states it applies in.
BONUS_STATES = ("reached", "par", "behind", "lost")
BONUS_CONDITIONS = {"": 0b1111, "open": 0b0110, "par": 0b0010, "behind": 0b0100,
                    "settled": 0b1001, "not_reached": 0b1110}


def bonus_state(upper, open_faces, threshold):
    """The index in BONUS_STATES of an upper section at total `upper` with open upper faces
    summing to `open_faces`: the bonus made, on its course (three of each open face reach
    it), within reach (five of each), or out of reach.  Plain Python that the policy kernels
    compile (rules/scoring.py decides the bonus)."""
    if upper_bonus_reached(upper, threshold):
        return 0
    if upper_bonus_reached(upper + 3 * open_faces, threshold):
        return 1
    return 2 if upper_bonus_reached(upper + 5 * open_faces, threshold) else 3


@dataclass(frozen=True)
class KeepRule:
    """Hold the dice `pattern` (with `arg`) picks, if it fits the roll and the conditions hold:
    when `when` names boxes, at least one of them is open; at least open_min and (open_max > 0)
    at most open_max boxes open; the upper section in a state of `bonus` (BONUS_CONDITIONS);
    (rolls_left > 0) with exactly rolls_left rolls to come."""

    pattern: str
    arg: int = 0
    when: tuple = ()
    open_min: int = 0
    open_max: int = 0
    bonus: str = ""
    rolls_left: int = 0

    def keep(self, roll, open_faces=ALL_OPEN):
        """The dice to hold for `roll` (sorted tuple) with the upper boxes of `open_faces` open
        (bit f-1: face f), or None if the pattern does not fit."""
        if self.pattern in OPEN_PATTERNS:
            return OPEN_PATTERNS[self.pattern](tuple(roll), self.arg, open_faces)
        return PATTERNS[self.pattern](tuple(roll), self.arg)


UPPER_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes")  # the upper boxes, face 1 to 6
PAR_BOX = "par"  # BoxRule.box of "the open box where the dice score most above its par"
# BoxRule.box of the same rule with an upper box's par at three of its face: the course to the
# upper bonus (63 = three of each face), which the one-box par (2.1 of the face) does not see
COURSE_BOX = "course"
UPPER_BOXES = "upper"  # BoxRule.box of "min_points or more dice of a face: its upper box"


@dataclass(frozen=True)
class BoxRule:
    """Fill `box` if the dice score at least `min_points` there (0: whatever they score).
    box None: the open box where the dice score most (the first on a tie), if at least
    `min_points`; box UPPER_BOXES: the open upper box of the highest face showing on at least
    `min_points` dice; box PAR_BOX: the open box where the dice score most above its par
    (box_pars: the box's mean points in a turn played for it alone); box COURSE_BOX: the same
    with an upper box's par at three of its face (course_pars)."""

    box: str = None
    min_points: int = 0
    when: tuple = ()
    open_min: int = 0
    open_max: int = 0
    bonus: str = ""


def _conditions(rule):
    """The condition fields of a rule as plain data, only those that are set."""
    out = {}
    if rule.when:
        out["when"] = list(rule.when)
    for key in ("open_min", "open_max", "bonus", "rolls_left"):
        if getattr(rule, key, 0):
            out[key] = getattr(rule, key)
    return out


def applies(rule, filled_boxes, n_open, state, rolls_left=0):
    """Whether a rule's conditions hold with `filled_boxes` filled, n_open boxes open, the
    upper section in BONUS_STATES[state] and (keep rules) rolls_left rolls to come."""
    if getattr(rule, "rolls_left", 0) and rule.rolls_left != rolls_left:
        return False
    if rule.when and all(box in filled_boxes for box in rule.when):
        return False
    if n_open < rule.open_min or (rule.open_max and n_open > rule.open_max):
        return False
    return bool(BONUS_CONDITIONS[rule.bonus] >> state & 1)


@dataclass(frozen=True)
class RuleList:
    """A decision list: keep rules for the rolls with rolls to come, box rules for the last.

    No keep rule applies: reroll all five.  No box rule applies: the first open box that may
    take the dice (in card order)."""

    name: str
    keeps: tuple = ()
    boxes: tuple = ()
    notes: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def size(self):
        return len(self.keeps) + len(self.boxes)

    def prefix(self, n_keeps, n_boxes, name=None):
        """The first n_keeps keep rules and n_boxes box rules."""
        return RuleList(name or f"{self.name}[:{n_keeps},{n_boxes}]", self.keeps[:n_keeps],
                        self.boxes[:n_boxes])

    def as_dict(self):
        """Plain data for JSON."""
        return {"name": self.name,
                "keeps": [{"pattern": r.pattern, "arg": r.arg, "when": list(r.when)}
                          | _conditions(r) for r in self.keeps],
                "boxes": [{"box": r.box, "min_points": r.min_points} | _conditions(r)
                          for r in self.boxes]}

    @classmethod
    def from_dict(cls, data):
        """The inverse of as_dict."""
        def extra(r):
            return dict(when=tuple(r.get("when", ())), open_min=r.get("open_min", 0),
                        open_max=r.get("open_max", 0), bonus=r.get("bonus", ""))
        return cls(data["name"],
                   tuple(KeepRule(r["pattern"], r["arg"], rolls_left=r.get("rolls_left", 0),
                                  **extra(r)) for r in data["keeps"]),
                   tuple(BoxRule(r["box"], r["min_points"], **extra(r)) for r in data["boxes"]))


def check_rule_list(rule_list, rules):
    """ValueError if a rule names a box these rules do not have or an unknown pattern."""
    for r in rule_list.keeps:
        if r.pattern not in PATTERNS and r.pattern not in OPEN_PATTERNS and r.pattern != AIM:
            raise ValueError(f"unknown keep pattern {r.pattern!r}")
    for r in rule_list.keeps + rule_list.boxes:
        if r.bonus not in BONUS_CONDITIONS:
            raise ValueError(f"unknown bonus condition {r.bonus!r}")
        for box in r.when:
            if box not in rules.boxes:
                raise ValueError(f"{rules.key} has no box {box!r}")
    for r in rule_list.boxes:
        if r.box not in (None, UPPER_BOXES, PAR_BOX, COURSE_BOX) and r.box not in rules.boxes:
            raise ValueError(f"{rules.key} has no box {r.box!r}")


# ---------------------------------------------------------------------------------------------
# The arrays the kernels read


@dataclass
class CompiledRules:
    """keep_index[i, m, r]: keep (dice.KEEPS index) of keep rule i for roll r with the upper boxes
    of mask m open (bit f-1: face f), -1 if it does not fit;
    keep_when[i]: its conditions (_condition_row: boxes of which one must be open, least and
    most open boxes, bonus states); box_of[i]: box of box rule i (-1: the box scoring most, -2:
    the upper box of the face with box_min[i] dice or more, -3: the box scoring most above its
    par, -4: the same on the bonus course); box_min[i]: its least points (dice for -2);
    box_when[i]: its conditions; box_par[0, b]: box b's par (box_pars), box_par[1, b]: on the
    bonus course (course_pars); aim_gain, aim_keep: what the aim rule reads (box_turns; its keep
    rule's keep_index is AIM_KEEP)."""

    keep_index: np.ndarray
    keep_when: np.ndarray
    box_of: np.ndarray
    box_min: np.ndarray
    box_when: np.ndarray
    box_par: np.ndarray
    aim_gain: np.ndarray
    aim_keep: np.ndarray


def _condition_row(rule, rules):
    """[mask of the boxes of which one must be open (0: none named), open_min, open_max (99: no
    limit), mask of the bonus states, rolls left (0: any)]."""
    mask = 0
    for box in rule.when:
        mask |= 1 << rules.boxes.index(box)
    return [mask, rule.open_min, rule.open_max or 99, BONUS_CONDITIONS[rule.bonus],
            getattr(rule, "rolls_left", 0)]


def compile_rules(rule_list, rules):
    """The kernels' arrays for `rule_list` under `rules`."""
    check_rule_list(rule_list, rules)
    n = len(rule_list.keeps)
    keep_index = np.full((max(n, 1), ALL_OPEN + 1, dice.N_ROLLS), -1, dtype=np.int64)
    keep_when = np.zeros((max(n, 1), 5), dtype=np.int64)
    for i, rule in enumerate(rule_list.keeps):
        # a pattern blind to the open boxes keeps the same dice under every mask
        masks = range(ALL_OPEN + 1) if rule.pattern in OPEN_PATTERNS else (ALL_OPEN,)
        keep_when[i] = _condition_row(rule, rules)
        if rule.pattern == AIM:
            keep_index[i] = AIM_KEEP
            continue
        for m in masks:
            for r in range(dice.N_ROLLS):
                kept = rule.keep(dice.KEEPS[r], m)
                if kept is not None:
                    keep_index[i, m, r] = dice.KEEP_INDEX[tuple(sorted(kept))]
        if len(masks) == 1:
            keep_index[i] = keep_index[i, ALL_OPEN]
    if n == 0:
        keep_index = keep_index[:0]
        keep_when = keep_when[:0]
    special = {None: -1, UPPER_BOXES: -2, PAR_BOX: -3, COURSE_BOX: -4}
    box_of = np.array([special[r.box] if r.box in special else rules.boxes.index(r.box)
                       for r in rule_list.boxes], dtype=np.int64)
    box_min = np.array([r.min_points for r in rule_list.boxes], dtype=np.int64)
    box_when = np.array([_condition_row(r, rules) for r in rule_list.boxes],
                        dtype=np.int64).reshape(-1, 5)
    pars, gain, keep = box_turns(rules)
    return CompiledRules(keep_index, keep_when, box_of, box_min, box_when,
                         np.stack([pars, course_pars(rules)]), gain, keep)


def box_pars(rules):
    """Each box's par: its exact mean points in one turn played for that box alone (all rolls
    of the turn, the best keeps; no bonus or joker counted), in card order."""
    return box_turns(rules)[0]


def course_pars(rules):
    """The pars of the rule COURSE_BOX: box_pars, with each upper box's at three of its face."""
    pars = box_pars(rules).copy()
    for face, box in enumerate(UPPER_NAMES, 1):
        if box in rules.boxes:
            pars[rules.boxes.index(box)] = 3 * face
    return pars


@lru_cache(maxsize=None)
def box_turns(rules):
    """(pars, gain, keep) of the turns played for one box alone: pars[b] as box_pars; with
    `left` rolls to come, keep[b, left, r] the dice (dice.KEEPS index, r itself: stop) such a
    turn holds from roll r and gain[b, left, r] its mean points less the par (read-only: cached
    per rule set, as every compile and the plain-Python reference ask for it)."""
    game = rules.kernel_arrays()
    sizes = dice.KEEP_SIZE
    pars = np.empty(rules.n_boxes)
    gain = np.zeros((rules.n_boxes, rules.rolls_per_turn, dice.N_ROLLS))
    keep_of = np.zeros((rules.n_boxes, rules.rolls_per_turn, dice.N_ROLLS), dtype=np.int64)
    choices = [np.concatenate([[r], dice.sub_keep_indices(r)[1]]).astype(np.int64)
               for r in range(dice.N_ROLLS)]  # stop first: a tie stops
    for b in range(rules.n_boxes):
        value = np.asarray(game.plain_score[b, :dice.N_ROLLS], dtype=float)
        for left in range(1, rules.rolls_per_turn):
            keep = np.zeros(dice.N_KEEPS)
            keep[:dice.N_ROLLS] = value
            for size in range(dice.DICE - 1, -1, -1):  # a keep's mean over the next die
                for k in np.flatnonzero(sizes == size):
                    keep[k] = keep[dice.ADD_DIE[k]].mean()
            for r in range(dice.N_ROLLS):
                best = choices[r][np.argmax(keep[choices[r]])]
                keep_of[b, left, r], value[r] = best, keep[best]
            gain[b, left] = value
        pars[b] = float(dice.ROLL_PROB @ value)
        gain[b, 1:] -= pars[b]
    for array in (pars, gain, keep_of):
        array.flags.writeable = False
    return pars, gain, keep_of


def aim_keep(rules, filled_boxes, roll, rolls_left):
    """The aim rule's dice (sorted tuple) for `roll` with rolls_left rolls to come: those a turn
    played for the open box furthest ahead of its par holds (the first such box in card order)."""
    _, gain, keep = box_turns(rules)
    r = dice.KEEP_INDEX[tuple(sorted(roll))]
    open_boxes = [b for b, box in enumerate(rules.boxes) if box not in filled_boxes]
    best = max(open_boxes, key=lambda b: (gain[b, rolls_left, r], -b))
    return tuple(dice.KEEPS[keep[best, rolls_left, r]])


# ---------------------------------------------------------------------------------------------
# Plain-Python decisions (the reference the kernels are tested against, and the printed page)


def decide_keep(rule_list, rules, filled_boxes, roll, state=0, rolls_left=0):
    """The dice to hold (sorted tuple; all five: stop) for `roll` with `filled_boxes` filled,
    the upper section in BONUS_STATES[state] and rolls_left rolls to come (0: rules that name
    the rolls left never apply)."""
    n_open = rules.n_boxes - len(set(filled_boxes))
    open_faces = sum(1 << (f - 1) for f, box in enumerate(UPPER_NAMES, 1)
                     if box in rules.boxes and box not in filled_boxes)
    for rule in rule_list.keeps:
        if not applies(rule, filled_boxes, n_open, state, rolls_left):
            continue
        if rule.pattern == AIM:
            if rolls_left:  # it needs the rolls left to know what the box's turn keeps
                return aim_keep(rules, filled_boxes, roll, rolls_left)
            continue
        kept = rule.keep(tuple(sorted(roll)), open_faces)
        if kept is not None:
            return tuple(sorted(kept))
    return ()


def decide_box(rule_list, rules, allowed, filled_boxes=None, n_open=None, state=0):
    """The box for the final roll; `allowed` maps each box the dice may go to -> its points
    (in card order); filled_boxes, n_open: the card's filled boxes and open count (default: the
    boxes not in `allowed`), state: the upper section's BONUS_STATES index."""
    faces = {box: f for f, box in enumerate(UPPER_NAMES, 1)}
    if filled_boxes is None:
        filled_boxes = set(rules.boxes) - set(allowed)
    if n_open is None:
        n_open = rules.n_boxes - len(set(filled_boxes))
    for rule in rule_list.boxes:
        if not applies(rule, filled_boxes, n_open, state):
            continue
        if rule.box == UPPER_BOXES:
            fits = [b for b in allowed if b in faces and allowed[b] >= rule.min_points * faces[b]]
            if fits:
                return max(fits, key=faces.get)
        elif rule.box in (PAR_BOX, COURSE_BOX):
            if allowed:
                pars = box_pars(rules) if rule.box == PAR_BOX else course_pars(rules)
                par = dict(zip(rules.boxes, pars))
                return max(allowed, key=lambda b: (allowed[b] - par[b], -rules.boxes.index(b)))
        elif rule.box is None:
            if allowed:
                best = max(allowed, key=lambda b: (allowed[b], -rules.boxes.index(b)))
                if allowed[best] >= rule.min_points:
                    return best
        elif rule.box in allowed and allowed[rule.box] >= rule.min_points:
            return rule.box
    return min(allowed, key=rules.boxes.index)
