"""The scorecard games' rules as data: the Rules dataclass, the presets and their options, the
score tables, and box names.

Kernels never see a Rules object: `Rules.kernel_arrays()` turns it into score tables and a small
integer parameter vector (see scoring.py for its layout).
"""
import re
import unicodedata
from dataclasses import asdict, dataclass, replace
from functools import cached_property

import numpy as np

from .. import dice
from . import scoring
from .base import RulesError, check_whole_number, preset_key
from .definitions import DEFINITIONS

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
BOXES_13 = UPPER + ("three_kind", "four_kind", "full_house", "small_straight", "large_straight",
                    "kniffel", "chance")
BOXES_YATZY = UPPER + ("one_pair", "two_pairs", "three_kind", "four_kind", "small_straight",
                       "large_straight", "full_house", "chance", "yatzy")
BOX_SETS = {"13": BOXES_13, "yatzy": BOXES_YATZY}

# The names a player may write for a box, as box_key compacts them (lower case, umlauts and ß
# spelled out, other accents dropped, no spaces, dots, hyphens or underscores): German pads,
# English cards, Scandinavian Yatzy.  "kniffel" stands for the five-of-a-kind box of either card.
BOX_ALIASES = {
    **dict.fromkeys(("1er", "einer", "einser", "einsen", "aces", "1s", "enere", "ettor"), "ones"),
    **dict.fromkeys(("2er", "zweier", "zweien", "2s", "toere", "tvaor"), "twos"),
    **dict.fromkeys(("3er", "dreier", "dreien", "3s", "treere", "treor"), "threes"),
    **dict.fromkeys(("4er", "vierer", "vieren", "4s", "firere", "fyror"), "fours"),
    **dict.fromkeys(("5er", "fuenfer", "funfer", "fuenfen", "5s", "femmere", "femmor"), "fives"),
    **dict.fromkeys(("6er", "sechser", "sechsen", "6s", "seksere", "sexor"), "sixes"),
    **dict.fromkeys(("3erpasch", "dreierpasch", "3pasch", "threeofakind", "3ofakind", "3kind",
                     "treens", "trelike", "tretal", "triss"), "three_kind"),
    **dict.fromkeys(("4erpasch", "viererpasch", "4pasch", "fourofakind", "4ofakind", "4kind",
                     "fireens", "firelike", "fyrtal"), "four_kind"),
    **dict.fromkeys(("fh", "fullhouse", "fuldthus", "hus", "kak"), "full_house"),
    **dict.fromkeys(("klstrasse", "klstr", "kleinestrasse", "kleinestr", "smstraight",
                     "smallstraight", "lillestraight", "litenstraight", "litenstege"),
                    "small_straight"),
    **dict.fromkeys(("grstrasse", "grstr", "grossestrasse", "grossestr", "lgstraight",
                     "largestraight", "storestraight", "storstraight", "storstege"),
                    "large_straight"),
    **dict.fromkeys(("kniffel", "yahtzee", "yatzy", "kitkniff", "knobel"), "kniffel"),
    **dict.fromkeys(("chance", "chans", "sjanse", "krempel"), "chance"),
    **dict.fromkeys(("paar", "einpaar", "1paar", "onepair", "pair", "par", "etpar", "ettpar",
                     "1par"), "one_pair"),
    **dict.fromkeys(("zweipaare", "2paare", "twopairs", "twopair", "2pairs", "topar", "tvapar",
                     "2par"), "two_pairs"),
}
# A few of the names above, as a pad prints them, for help texts and the unknown-box error.
PAD_NAMES = {"13": "1er … 6er, Einser … Sechser, 3er-Pasch, 4er-Pasch, FH, kl. Straße, "
                   "gr. Straße, Kniffel, Chance",
             "yatzy": "1er … 6er, Einser … Sechser, Paar, 2 Paare, 3er-Pasch, 4er-Pasch, "
                      "kl. Straße, gr. Straße, FH, Chance, Yatzy"}


@dataclass(frozen=True)
class Rules:
    """A fully resolved rule system. Build one with `get_rules(name)` or `load_rules_file(path)`."""

    preset: str
    box_set: str = "13"
    upper_bonus_threshold: int = 63
    upper_bonus: int = 35
    extra_bonus: int = 0
    extra_bonus_requires: str = "fifty"  # "fifty": box holds 50; "filled": holds 50 or 0
    extra_bonus_cap: int | None = None  # points, a multiple of extra_bonus; None = no cap
    joker: str = "none"  # one of scoring.JOKER_MODES
    joker_requires: str = "fifty"
    five_of_a_kind_is_full_house: bool = False
    rolls_per_turn: int = 3
    jokers: int = 0  # Knobeln jokers per game: after the last roll, set one die to any face
    jokers_per_turn: int = 1
    # A further Kniffel must go into a box where it scores points, while one is open (the
    # stricter reading of the championship rules; docs/rules.md).
    extra_kniffel_must_fit: bool = False

    game = "scorecard"  # not a field; Dice Duel rules (duel/rules.py) say "dice-duel"

    @cached_property
    def boxes(self):
        return BOX_SETS[self.box_set]

    @cached_property
    def n_boxes(self):
        return len(self.boxes)

    @cached_property
    def kniffel_box(self):
        return self.boxes.index("yatzy" if self.box_set == "yatzy" else "kniffel")

    @cached_property
    def cap_count(self):
        """How many extra-Kniffel bonuses may be paid in a game (n_boxes when unlimited)."""
        if self.extra_bonus == 0 or self.extra_bonus_cap is None:
            return self.n_boxes
        return min(self.n_boxes, self.extra_bonus_cap // self.extra_bonus)

    @cached_property
    def n_flag(self):
        """2 when some rule asks whether the Kniffel box holds 50, else 1."""
        bonus = self.extra_bonus > 0 and self.extra_bonus_requires == "fifty"
        joker = self.joker not in ("none", "must-match") and self.joker_requires == "fifty"
        return 2 if (bonus or joker) else 1

    @cached_property
    def n_deficit(self):
        return max(1, self.n_boxes - self.cap_count)

    @cached_property
    def aux_block(self):
        return self.n_flag * self.n_deficit

    @cached_property
    def start_aux(self):
        """The aux index of the empty card: every joker still in hand."""
        return self.jokers * self.aux_block

    @cached_property
    def n_aux(self):
        return (self.jokers + 1) * self.aux_block

    @property
    def start_index(self):
        """Where the table holds the value of the empty card."""
        return (0, self.start_aux, 0)

    @property
    def table_shape(self):
        """The shape of the value table: (filled boxes, aux, upper total)."""
        return (1 << self.n_boxes, self.n_aux, self.upper_bonus_threshold + 1)

    @property
    def definition(self):
        """The preset's one definition (rules/definitions.py): its language and words."""
        return DEFINITIONS[self.preset]

    @property
    def description(self):
        """The preset's description in English (describe(lang) in another language)."""
        return self.definition.describe("en")

    def as_dict(self):
        return asdict(self)

    @cached_property
    def key(self):
        """A name for this exact rule set: the preset name, plus a hash when options differ."""
        return preset_key(self, PRESETS)

    @cached_property
    def plain_score(self):
        """plain_score[b, r]: points of box b for roll r by the plain table (n_boxes x 252)."""
        return np.array([_plain_points(box, dice.ROLL_COUNTS, self) for box in self.boxes],
                        dtype=np.int64)

    @cached_property
    def joker_score(self):
        """joker_score[b, f]: points of box b for a Kniffel of face f played as a joker."""
        table = np.zeros((self.n_boxes, dice.FACES + 1), dtype=np.int64)
        if self.joker in ("none", "must-match"):
            return table
        for f in range(1, dice.FACES + 1):
            for b, box in enumerate(self.boxes):
                table[b, f] = _joker_points(box, f, self.joker)
        return table

    @cached_property
    def box_face(self):
        """Face counted by each upper box, 0 for lower boxes."""
        return np.array([UPPER.index(b) + 1 if b in UPPER else 0 for b in self.boxes],
                        dtype=np.int64)

    @cached_property
    def _params(self):
        p = np.zeros(scoring.N_PARAMS, dtype=np.int64)
        p[scoring.P_N_BOXES] = self.n_boxes
        p[scoring.P_KNIFFEL_BOX] = self.kniffel_box
        p[scoring.P_JOKER] = scoring.JOKER_MODES.index(self.joker)
        p[scoring.P_JOKER_NEEDS_FIFTY] = self.joker_requires == "fifty"
        p[scoring.P_BONUS] = self.extra_bonus
        p[scoring.P_BONUS_NEEDS_FIFTY] = self.extra_bonus_requires == "fifty"
        p[scoring.P_CAP_COUNT] = self.cap_count
        p[scoring.P_N_FLAG] = self.n_flag
        p[scoring.P_N_DEFICIT] = self.n_deficit
        p[scoring.P_THRESHOLD] = self.upper_bonus_threshold
        p[scoring.P_UPPER_BONUS] = self.upper_bonus
        p[scoring.P_AUX_BLOCK] = self.aux_block
        p[scoring.P_JOKERS] = self.jokers
        p[scoring.P_JOKERS_PER_TURN] = self.jokers_per_turn
        p[scoring.P_MUST_FIT] = self.extra_kniffel_must_fit
        return p

    def params(self):
        """The integer parameter vector the kernels and scoring functions read."""
        return self._params

    @cached_property
    def scoring_rolls(self):
        """(rolls, counts): rolls[b, :counts[b]] are the rolls for which box b scores points (the
        solver treats every other roll as a scratch).  Five of a kind is left out where a bonus
        or a joker gives it rules of its own (the solver then scores it in a pass of its own)."""
        scores = self.plain_score > 0
        if not scoring.fives_score_plain(self.params()):
            scores &= dice.KNIFFEL_FACE == 0
        rolls = np.zeros((self.n_boxes, dice.N_ROLLS), dtype=np.int64)
        for b in range(self.n_boxes):
            found = np.flatnonzero(scores[b])
            rolls[b, : len(found)] = found
        return rolls, scores.sum(axis=1).astype(np.int64)

    def kernel_arrays(self):
        """The rules as the kernels take them: a scoring.RuleArrays named tuple."""
        return scoring.RuleArrays(self.params(), self.plain_score, self.joker_score, self.box_face,
                            *self.scoring_rolls)

    def possible_points(self, box):
        """Every number of points `box` can hold under these rules (scratch 0 included)."""
        return self._possible_points[box]

    @cached_property
    def _possible_points(self):
        return {box: {0} | set(self.plain_score[b].tolist()) | set(self.joker_score[b, 1:].tolist())
                for b, box in enumerate(self.boxes)}


def _plain_points(box, counts, rules):
    """Points of `box` for each row of `counts` (rolls x 6 face counts), by the plain table."""
    faces = np.arange(1, dice.FACES + 1)
    total = counts @ faces
    top = counts.max(axis=1)
    present = counts > 0
    yatzy = rules.box_set == "yatzy"

    def highest_face_with(at_least):
        return ((counts >= at_least) * faces).max(axis=1)

    def has_run(length):
        return np.any([present[:, start:start + length].all(axis=1)
                       for start in range(dice.FACES - length + 1)], axis=0)

    if box in UPPER:
        f = UPPER.index(box) + 1
        return f * counts[:, f - 1]
    if box in ("three_kind", "four_kind"):
        at_least = 3 if box == "three_kind" else 4
        if yatzy:
            return at_least * highest_face_with(at_least)
        return np.where(top >= at_least, total, 0)
    if box == "full_house":
        is_house = (counts == 3).any(axis=1) & (counts == 2).any(axis=1)
        if yatzy:
            return np.where(is_house, total, 0)
        if rules.five_of_a_kind_is_full_house:
            is_house |= top == 5
        return np.where(is_house, 25, 0)
    if box == "small_straight":
        if yatzy:
            return np.where((present == [1, 1, 1, 1, 1, 0]).all(axis=1), 15, 0)
        return np.where(has_run(4), 30, 0)
    if box == "large_straight":
        if yatzy:
            return np.where((present == [0, 1, 1, 1, 1, 1]).all(axis=1), 20, 0)
        return np.where(has_run(5), 40, 0)
    if box in ("kniffel", "yatzy"):
        return np.where(top == 5, 50, 0)
    if box == "chance":
        return total
    if box == "one_pair":
        return 2 * highest_face_with(2)
    if box == "two_pairs":
        pairs = counts >= 2
        return np.where(pairs.sum(axis=1) == 2, 2 * (pairs * faces).sum(axis=1), 0)
    raise ValueError(f"unknown box {box!r}")


_JOKER_LOWER = {"full_house": 25, "small_straight": 30, "large_straight": 40}


def _joker_points(box, face, mode):
    if box in UPPER:
        box_face = UPPER.index(box) + 1
        if mode == "max-any":
            return 5 * box_face
        return 5 * face if (box_face == face and mode != "free-after-upper") else 0
    if box in _JOKER_LOWER:
        return _JOKER_LOWER[box]
    if box in ("three_kind", "four_kind", "chance"):
        return 30 if mode == "max-any" else 5 * face
    return 0


def preset_rules(found, presets=None):
    """The Rules of a scorecard Definition (rules/definitions.py): its options over its base
    preset's (of `presets`, default PRESETS) or over the defaults; RulesError naming a bad one."""
    presets = PRESETS if presets is None else presets
    base = presets[found.base] if found.base else Rules(found.name)
    options = dict(found.options)
    unknown = set(options) - set(SCORECARD_OPTIONS) - {"box_set"}
    if unknown:
        raise RulesError(f"preset {found.name}: unknown rules option(s) "
                         f"{', '.join(sorted(unknown))}; options: {', '.join(SCORECARD_OPTIONS)}")
    if found.base and "box_set" in options:
        raise RulesError(f"preset {found.name}: box_set comes with its preset {found.base}")
    rules = replace(base, preset=found.name, **options)
    _validate(rules)
    return rules


# Options a rules file may set, and the box sets on which each one has a meaning (None: all).
SCORECARD_OPTIONS = {
    "upper_bonus_threshold": None,
    "upper_bonus": None,
    "rolls_per_turn": None,
    "jokers": None,
    "jokers_per_turn": None,
    "five_of_a_kind_is_full_house": ("13",),
    "extra_bonus": ("13",),
    "extra_bonus_requires": ("13",),
    "extra_bonus_cap": ("13",),
    "joker": ("13",),
    "joker_requires": ("13",),
    "extra_kniffel_must_fit": ("13",),
}


def option_applies(key, rules):
    """Whether the option `key` has a meaning for the box set of `rules`."""
    return key in SCORECARD_OPTIONS and (SCORECARD_OPTIONS[key] is None
                                         or rules.box_set in SCORECARD_OPTIONS[key])


def add_preset(found):
    """The Rules of a scorecard Definition, made known by its name (a preset of one's own,
    registered by solver/presets.py)."""
    rules = PRESETS[found.name] = preset_rules(found)
    return rules


PRESETS = {}  # by name, from their one definitions (rules/definitions.py)


def get_rules(name, /, **options):
    """The scorecard preset `name` with `options` applied (RulesError on anything unknown or
    impossible).  presets.get_rules takes the names of both games."""
    if name not in PRESETS:
        raise RulesError(f"unknown rules {name!r}; presets: {', '.join(PRESETS)}")
    for key in options:
        if key not in SCORECARD_OPTIONS:
            raise RulesError(f"unknown rules option {key!r}; options: "
                             f"{', '.join(SCORECARD_OPTIONS)}")
        if not option_applies(key, PRESETS[name]):
            raise RulesError(f"option {key!r} does not apply to preset {name!r}")
    rules = replace(PRESETS[name], **options)
    _validate(rules)
    _check_applicable(rules, options)
    return rules


def _validate(rules):
    for key in SCORECARD_OPTIONS:
        value = getattr(rules, key)
        if key in ("five_of_a_kind_is_full_house", "extra_kniffel_must_fit"):
            if not isinstance(value, bool):
                raise RulesError(f"{key} must be true or false, got {value!r}")
        elif key in ("extra_bonus_requires", "joker_requires"):
            if value not in ("fifty", "filled"):
                raise RulesError(f"{key} must be 'fifty' or 'filled', got {value!r}")
        elif key == "joker":
            if value not in scoring.JOKER_MODES:
                raise RulesError(f"joker must be one of {', '.join(scoring.JOKER_MODES)}, "
                                 f"got {value!r}")
        elif key == "extra_bonus_cap" and value is None:
            continue
        else:
            check_whole_number(key, value)
    limits = {"rolls_per_turn": (1, 5), "upper_bonus_threshold": (1, 105), "jokers": (0, 13),
              "jokers_per_turn": (1, 13)}
    for key, (low, high) in limits.items():
        if not low <= getattr(rules, key) <= high:
            raise RulesError(f"{key} must be {low}-{high}, got {getattr(rules, key)}")
    if rules.extra_bonus_cap is not None and rules.extra_bonus \
            and rules.extra_bonus_cap % rules.extra_bonus:
        raise RulesError("extra_bonus_cap must be a multiple of extra_bonus")


def must_fit_can_matter(rules):
    """Whether extra_kniffel_must_fit can change a game: not under a max-any or forced joker in
    force whenever the Kniffel box is filled, where every box open to a further Kniffel already
    scores points for it."""
    return not (rules.joker in ("max-any", "forced") and rules.joker_requires == "filled")


def _check_applicable(rules, options):
    """An option set in a rules file that the resolved rules would never use is a mistake."""
    unused = {
        "extra_bonus_requires": rules.extra_bonus == 0,
        "extra_bonus_cap": rules.extra_bonus == 0,
        "joker_requires": rules.joker in ("none", "must-match"),
        "jokers_per_turn": rules.jokers == 0,
        "extra_kniffel_must_fit": not must_fit_can_matter(rules),
    }
    for key in options:
        if unused.get(key):
            needs = {"joker_requires": "a joker mode other than none or must-match",
                     "jokers_per_turn": "jokers > 0",
                     "extra_kniffel_must_fit": "a further Kniffel that may go into a box for 0 "
                                               "(not a max-any or forced joker with joker_requires "
                                               "'filled': every box it may take scores)"
                     }.get(key, "a non-zero extra_bonus")
            raise RulesError(f"option {key!r} has no effect here: it needs {needs}")
    if rules.jokers and rules.jokers_per_turn > rules.jokers:
        raise RulesError(f"jokers_per_turn ({rules.jokers_per_turn}) exceeds jokers "
                         f"({rules.jokers})")


def box_key(name, rules):
    """The box key for a name a player wrote: the key, or any spelling in BOX_ALIASES (ValueError
    naming the boxes otherwise)."""
    if name in rules.boxes:
        return name
    compact = _compact(name)
    key = _COMPACT_KEYS.get(compact) or BOX_ALIASES.get(compact)
    if key in ("kniffel", "yatzy"):
        key = rules.boxes[rules.kniffel_box]
    if key not in rules.boxes:
        what = (f"box {name!r} ({key}) is not on the {rules.key} card" if key
                else f"unknown box {name!r}")
        raise ValueError(f"{what}; boxes: {', '.join(rules.boxes)} "
                         f"(or as on the pad: {PAD_NAMES[rules.box_set]})")
    return key


_SPELLED_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "ø": "o"})
_COMPACT_KEYS = {key.replace("_", ""): key for boxes in BOX_SETS.values() for key in boxes}


def _compact(name):
    """A box name as BOX_ALIASES spells it: `Kl. Straße` -> `klstrasse`, `3er-Pasch` ->
    `3erpasch`."""
    text = unicodedata.normalize("NFC", str(name)).lower().translate(_SPELLED_OUT)
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]", "", text)


for _found in DEFINITIONS.values():
    if _found.game == "scorecard":
        add_preset(_found)
