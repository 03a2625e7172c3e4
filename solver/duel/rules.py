"""Kniffel Dice Duel (solo) as data: the chips, which rolls earn which chip, the legal moves at
the end of a turn, the bonuses, and the rule options.

A different game on the same dice: no scorecard, 28 chips (4 of each of 7 types) lie on a plate.
At the end of a turn the player takes one chip of a type the dice satisfy; five of a kind (a
"Kniffel") takes any 2 chips, from the plate or from the chips set aside; a turn without a chip
sets the most valuable plate chip aside.  The game ends when the plate is empty.

`chip_moves` and `apply_move` are plain Python on small integer arrays: the numba kernels compile
them (duel/solo/kernels.py) and the advisor calls them as they are, so both use the same rules.
"""
from collections import namedtuple
from dataclasses import asdict, dataclass, fields, replace
from functools import cached_property

import numpy as np

from .. import dice
from ..rules import RulesError, preset_key
from ..rules.base import check_whole_number
from ..rules.definitions import DEFINITIONS
from .chips import CHIPS_PER_TYPE, N_TYPES, RED_FACES, TYPES, VALUES  # noqa: F401  (re-exported)
from .states import N_STATES, START

# Sources of a chip in a move: chip code = 2 * type + source.
PLATE, ASIDE = 0, 1
MAX_MOVES = 128  # a Kniffel: at most 105 pairs + 14 single chips + no chip

DuelGame = namedtuple("DuelGame", "params roll_category category_mask")
DuelGame.__doc__ = """The Dice Duel's rules as the kernels take them (DuelRules.kernel_arrays()):
params, each roll's chip category and each category's mask."""


@dataclass(frozen=True)
class DuelRules:
    """Dice Duel rules, solo variant. Build one with `get_rules(name)` or a rules file."""

    preset: str = "dice-duel"
    rolls_per_turn: int = 3
    four_of_a_kind_two_pairs: bool = False  # does four of a kind count as two pairs?
    may_decline_chip: bool = False  # may a player who could take a chip take none (or, after
    # a Kniffel, only one)?  A turn without a chip then sets the top plate chip aside.
    gold_bonus: int = 50  # every type held
    silver_bonus: int = 20  # exactly one type missing
    full_stack_bonus: int = 30  # per type of which every chip is held
    last_chip_bonus: int = 20  # for taking the last chip from the plate
    # The game for 2 or more players (docs/rules.md); a solo game ignores these three, as its
    # every turn is a whole round and it has no one to tie with.
    max_players: int = 4  # seats a game may have, 2 up to this (at most 6)
    set_aside: str = "round"  # "round": after a round without any chip; "turn": after every
    # turn without a chip (the solo rule)
    ties: str = "share"  # a tie for first: "share" (1/k each) or "lose" (nobody wins)

    game = "dice-duel"  # not a field: tells the CLI and the table store which game this is

    @property
    def definition(self):
        """The preset's one definition (rules/definitions.py): its language and words."""
        return DEFINITIONS[self.preset]

    @property
    def description(self):
        """The preset's description in English (definition.describe(lang) in another)."""
        return self.definition.describe("en")

    def as_dict(self):
        return asdict(self)

    @property
    def key(self):
        """A name for this exact rule set: the preset name, plus a hash when options differ."""
        return preset_key(self, PRESETS)

    @property
    def start_index(self):
        """Where the table holds the value of a new game (every chip on the plate)."""
        return START

    @property
    def table_shape(self):
        """The shape of the value table: one value per turn-start state."""
        return (N_STATES,)

    @property
    def best_score(self):
        """The most a game can score: every chip, every bonus."""
        return final_score(np.full(N_TYPES, CHIPS_PER_TYPE), self) + self.last_chip_bonus

    @cached_property
    def roll_types(self):
        """roll_types[r]: bit t set when roll r earns a chip of type t (five of a kind: 0, it is
        a Kniffel and takes any chips instead)."""
        return np.array([_satisfied(counts, self) for counts in dice.ROLL_COUNTS], dtype=np.int64)

    @cached_property
    def categories(self):
        """(roll_category, category_mask): rolls that earn the same chips share a category, so the
        end of a turn is worked out once per category.  Category 0 is the Kniffel."""
        masks = sorted(set(self.roll_types[dice.KNIFFEL_FACE == 0].tolist()))
        category_mask = np.array([0] + masks, dtype=np.int64)
        roll_category = np.array([0 if dice.KNIFFEL_FACE[r] else 1 + masks.index(m)
                                  for r, m in enumerate(self.roll_types.tolist())], dtype=np.int64)
        return roll_category, category_mask

    def params(self):
        """Integer parameters of the kernels: (may_decline_chip, last_chip_bonus)."""
        return np.array([self.may_decline_chip, self.last_chip_bonus], dtype=np.int64)

    def kernel_arrays(self):
        """The rules as the kernels take them (a DuelGame)."""
        return DuelGame(self.params(), *self.categories)


def _satisfied(counts, rules):
    """Bit mask of the chip types a roll (face counts) earns; 0 for five of a kind."""
    top = counts.max()
    if top == 5:
        return 0
    present = counts > 0

    def run(length):
        return any(present[s:s + length].all() for s in range(dice.FACES - length + 1))

    red = sum(counts[f - 1] for f in RED_FACES)
    earned = {
        "two_pairs": (counts >= 2).sum() >= 2 or (rules.four_of_a_kind_two_pairs and top >= 4),
        "three_kind": top >= 3,
        "small_straight": run(4),
        "flush": red in (0, dice.DICE),
        "full_house": (counts == 3).any() and (counts == 2).any(),
        "four_kind": top >= 4,
        "large_straight": run(5),
    }
    return sum(1 << t for t, name in enumerate(TYPES) if earned[name])


def final_score(mine, rules):
    """Points of a final holding (chips held per type): chip values, full stacks, gold/silver.
    The last-chip bonus belongs to the move that empties the plate, not to the holding."""
    mine = np.asarray(mine)
    held = (mine > 0).sum(axis=-1)
    score = mine @ np.array(VALUES) + rules.full_stack_bonus * (mine == CHIPS_PER_TYPE).sum(axis=-1)
    return score + np.where(held == N_TYPES, rules.gold_bonus,
                            np.where(held == N_TYPES - 1, rules.silver_bonus, 0))


def chip_moves(plate, aside, kniffel, mask, may_decline, out):
    """The legal moves at the end of a turn; returns how many it wrote to out (MAX_MOVES x 3).

    A move is (first chip, second chip, type set aside), -1 where unused; a chip is
    2 * type + source (PLATE or ASIDE).  kniffel: the dice show five of a kind; mask: the types
    the dice earn otherwise.  A move without a chip sets the top plate chip aside."""
    n = 0
    if kniffel:
        total = 0
        for first in range(2 * N_TYPES):
            total += aside[first // 2] if first % 2 else plate[first // 2]
        for first in range(2 * N_TYPES):
            have = aside[first // 2] if first % 2 else plate[first // 2]
            if have == 0:
                continue
            if total == 1 or may_decline:
                out[n, 0], out[n, 1], out[n, 2] = first, -1, -1
                n += 1
            for second in range(first, 2 * N_TYPES):
                left = aside[second // 2] if second % 2 else plate[second // 2]
                if second == first:
                    left -= 1
                if left > 0:
                    out[n, 0], out[n, 1], out[n, 2] = first, second, -1
                    n += 1
    else:
        for t in range(N_TYPES):
            if (mask >> t) & 1 and plate[t] > 0:
                out[n, 0], out[n, 1], out[n, 2] = 2 * t, -1, -1
                n += 1
    if n == 0 or may_decline:
        top = N_TYPES - 1
        while plate[top] == 0:  # the plate is never empty during the game
            top -= 1
        out[n, 0], out[n, 1], out[n, 2] = -1, -1, top
        n += 1
    return n


def apply_move(plate, aside, move, new_plate, new_aside):
    """Write the chips after `move` (a row of chip_moves) into new_plate / new_aside; returns 1
    when the move takes the last chip from the plate (the last-chip bonus), else 0."""
    took_from_plate = False
    for t in range(N_TYPES):
        new_plate[t] = plate[t]
        new_aside[t] = aside[t]
    for i in range(2):
        chip = move[i]
        if chip >= 0:
            if chip % 2 == PLATE:
                new_plate[chip // 2] -= 1
                took_from_plate = True
            else:
                new_aside[chip // 2] -= 1
    if move[2] >= 0:
        new_plate[move[2]] -= 1
        new_aside[move[2]] += 1
    if not took_from_plate:
        return 0
    for t in range(N_TYPES):
        if new_plate[t] > 0:
            return 0
    return 1


PRESETS = {}  # by name, from their one definitions (rules/definitions.py)
DUEL_OPTIONS = tuple(f.name for f in fields(DuelRules) if f.name != "preset")
_BOOL_OPTIONS = ("four_of_a_kind_two_pairs", "may_decline_chip")
_CHOICE_OPTIONS = {"set_aside": ("round", "turn"), "ties": ("share", "lose")}
MAX_SEATS = 6  # the most seats `max_players` may allow


def get_rules(name="dice-duel", /, **options):
    """The Dice Duel preset `name` with `options` applied (RulesError on anything unknown)."""
    if name not in PRESETS:
        raise RulesError(f"unknown Dice Duel rules {name!r}")
    _check_options(options, f"preset {name!r}")
    return _checked(replace(PRESETS[name], **options))


def _check_options(options, where):
    """RulesError naming an option that is unknown or has a value no game can use."""
    for key, value in options.items():
        if key not in DUEL_OPTIONS:
            raise RulesError(f"option {key!r} does not apply to {where}; "
                             f"its options: {', '.join(DUEL_OPTIONS)}")
        if key in _BOOL_OPTIONS:
            if not isinstance(value, bool):
                raise RulesError(f"{key} must be true or false, got {value!r}")
        elif key in _CHOICE_OPTIONS:
            if value not in _CHOICE_OPTIONS[key]:
                raise RulesError(f"{key} must be one of {', '.join(_CHOICE_OPTIONS[key])}, "
                                 f"got {value!r}")
        else:
            check_whole_number(key, value)


def _checked(rules):
    if not 1 <= rules.rolls_per_turn <= 5:
        raise RulesError(f"rolls_per_turn must be 1-5, got {rules.rolls_per_turn}")
    if not 2 <= rules.max_players <= MAX_SEATS:
        raise RulesError(f"max_players must be 2-{MAX_SEATS}, got {rules.max_players}")
    return rules


def add_preset(found):
    """The DuelRules of a Dice Duel Definition (rules/definitions.py), made known by its name."""
    rules = PRESETS[found.name] = preset_rules(found)
    return rules


def preset_rules(found):
    """The DuelRules of a Dice Duel Definition: its options over its base preset's, or over
    the defaults; RulesError naming a bad one."""
    base = PRESETS[found.base] if found.base else DuelRules()
    options = dict(found.options)
    _check_options(options, f"preset {found.name}")
    return _checked(replace(base, preset=found.name, **options))


for _found in DEFINITIONS.values():
    if _found.game == "dice-duel":
        add_preset(_found)
