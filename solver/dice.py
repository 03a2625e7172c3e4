"""Dice multisets and the tables that move between them (pure numpy, built once at import).

A *keep* is a multiset of 0-5 dice held back before a reroll; a *roll* is a keep of all five.
Keeps are numbered so that the 252 rolls come first (index = roll index), followed by the keeps
of 4, 3, 2, 1 and 0 dice.  Every table here is indexed by that numbering.
"""
from collections import namedtuple
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np

FACES = 6
DICE = 5


def _keeps_by_size():
    keeps = []
    for size in range(DICE, -1, -1):
        keeps.extend(combinations_with_replacement(range(1, FACES + 1), size))
    return keeps


KEEPS = _keeps_by_size()
"""Sorted tuples of faces, rolls (five dice) first."""
N_KEEPS = len(KEEPS)  # 462
N_ROLLS = sum(1 for k in KEEPS if len(k) == DICE)  # 252
N_FOUR_KEEPS = sum(1 for k in KEEPS if len(k) == DICE - 1)  # 126, right after the rolls
KEEP_INDEX = {keep: i for i, keep in enumerate(KEEPS)}

KEEP_SIZE = np.array([len(k) for k in KEEPS], dtype=np.int64)
KEEP_COUNTS = np.array([[k.count(f) for f in range(1, FACES + 1)] for k in KEEPS], dtype=np.int64)
ROLL_COUNTS = KEEP_COUNTS[:N_ROLLS]


def _roll_probability(roll):
    ways = factorial(DICE)
    for f in range(1, FACES + 1):
        ways //= factorial(roll.count(f))
    return ways / FACES**DICE


ROLL_PROB = np.array([_roll_probability(r) for r in KEEPS[:N_ROLLS]])

KNIFFEL_FACE = np.array([r[0] if len(set(r)) == 1 else 0 for r in KEEPS[:N_ROLLS]], dtype=np.int64)
"""Face of a five-of-a-kind roll, 0 for every other roll."""

ADD_DIE = np.full((N_KEEPS, FACES), -1, dtype=np.int64)
"""ADD_DIE[k, f-1]: the keep k plus one die showing f (-1 for rolls, which hold five dice)."""
REMOVE_DIE = np.full((N_KEEPS, FACES), -1, dtype=np.int64)
"""REMOVE_DIE[k, f-1]: the keep k less one die showing f (-1 when k has no f)."""
for _i, _keep in enumerate(KEEPS):
    for _f in range(1, FACES + 1):
        if len(_keep) < DICE:
            ADD_DIE[_i, _f - 1] = KEEP_INDEX[tuple(sorted(_keep + (_f,)))]
        if _f in _keep:
            _less = list(_keep)
            _less.remove(_f)
            REMOVE_DIE[_i, _f - 1] = KEEP_INDEX[tuple(_less)]
del _i, _keep, _f

N_SMALLER = (REMOVE_DIE >= 0).sum(axis=1)
"""How many distinct keeps one die smaller each keep has."""
SMALLER = np.zeros((N_KEEPS, DICE), dtype=np.int64)
"""SMALLER[k, :N_SMALLER[k]]: those keeps (REMOVE_DIE without the gaps, for branch-free loops)."""
for _i in range(N_KEEPS):
    _subs = REMOVE_DIE[_i][REMOVE_DIE[_i] >= 0]
    SMALLER[_i, : len(_subs)] = _subs
del _i, _subs

SIZE_SLICES = {size: slice(int(np.argmax(KEEP_SIZE == size)),
                           int(N_KEEPS - np.argmax(KEEP_SIZE[::-1] == size)))
               for size in range(DICE + 1)}
"""Keeps of each size stand together; SIZE_SLICES[size] selects them."""
EMPTY_KEEP = KEEP_INDEX[()]


Moves = namedtuple("Moves", "roll_counts kniffel_face add_die smaller n_smaller roll_prob "
                            "keep_size")
Moves.__doc__ = "The dice tables as the kernels take them (kernel_arrays())."


def kernel_arrays():
    """The dice tables as the kernels take them: a Moves named tuple."""
    return Moves(ROLL_COUNTS, KNIFFEL_FACE, ADD_DIE, SMALLER, N_SMALLER, ROLL_PROB, KEEP_SIZE)


def parse_dice(text):
    """Parse '1,3,3,5,6' or '13356' into a sorted tuple of five faces; ValueError if impossible."""
    return validate_dice(dice_faces(text))


def dice_faces(text):
    """The whole numbers of '1,3,3,5,6' or '13356', not yet checked as dice (validate_dice
    does that); ValueError for anything else."""
    text = str(text).strip()
    parts = ([p for p in text.replace(" ", ",").split(",") if p] if "," in text or " " in text
             else list(text))
    if not all(p.isascii() and p.isdigit() for p in parts):  # int() would read "٣" as 3
        raise ValueError(f"dice must be five faces 1-6, e.g. 1,3,3,5,6 (got {text!r})")
    return [int(p) for p in parts]


def validate_dice(faces):
    """Return five faces as a sorted tuple, or raise ValueError naming the problem."""
    shape = (f"dice must be a list of {DICE} faces 1-6, e.g. [1, 3, 3, 5, 6], "
             f"got {str(faces)[:40]!r}")
    if isinstance(faces, (str, bytes, dict)):
        raise ValueError(shape)
    try:
        faces = list(faces)
    except TypeError:  # not a list of anything
        raise ValueError(shape) from None
    if len(faces) != DICE:
        raise ValueError(f"need exactly {DICE} dice, got {len(faces)}")
    for f in faces:
        if isinstance(f, bool) or not isinstance(f, (int, np.integer)) or not 1 <= f <= FACES:
            raise ValueError(f"die face {f!r} is not 1-6")
    return tuple(sorted(int(f) for f in faces))


def checked_roll(faces, rolls_left, rolls_per_turn):
    """(roll index, rolls left) of five dice in hand with `rolls_left` rolls still allowed
    (None: the most, rolls_per_turn - 1); ValueError naming the problem."""
    roll = KEEP_INDEX[validate_dice(faces)]
    max_left = rolls_per_turn - 1
    if rolls_left is None:
        rolls_left = max_left
    if isinstance(rolls_left, bool) or not isinstance(rolls_left, int) \
            or not 0 <= rolls_left <= max_left:
        raise ValueError(f"rolls left must be 0-{max_left}, got {rolls_left!r}")
    return roll, rolls_left


def sub_keeps(roll):
    """Distinct multisets of 0-4 dice that can be held from `roll`."""
    found = {()}
    for die in roll:
        found |= {tuple(sorted(k + (die,))) for k in found if len(k) < DICE - 1}
    return sorted(found, key=lambda k: (len(k), k))


@lru_cache(maxsize=None)
def sub_keep_indices(roll):
    """(keeps, their indices) for the distinct multisets of 0-4 dice that roll `roll` can hold."""
    keeps = sub_keeps(KEEPS[roll])
    return keeps, np.array([KEEP_INDEX[keep] for keep in keeps])


@lru_cache(maxsize=None)
def sub_keep_rerolls(roll):
    """The dice each keep of sub_keep_indices(roll) rerolls (the roll minus the keep), in its
    order."""
    rerolls = []
    for keep in sub_keep_indices(roll)[0]:
        rest = list(KEEPS[roll])
        for die in keep:
            rest.remove(die)
        rerolls.append(tuple(rest))
    return tuple(rerolls)


def joker_targets(roll, changes):
    """{target roll: (faces taken, faces given)} reachable from `roll` with 1..changes jokers
    (Knobeln: a joker turns one die to another face), each with the fewest jokers."""
    found = {}
    frontier = {roll: ((), ())}
    for _ in range(changes):
        nxt = {}
        for current, (taken, given) in frontier.items():
            for face in set(current):
                rest = list(current)
                rest.remove(face)
                for new in range(1, FACES + 1):
                    target = tuple(sorted(rest + [new]))
                    if new != face and target != roll and target not in found and target not in nxt:
                        nxt[target] = (taken + (face,), given + (new,))
        found.update(nxt)
        frontier = nxt
    return found
