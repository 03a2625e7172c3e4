"""Dice Duel states: where the chips are, numbered densely so the value table is one array.

A state gives, for each chip type, how many chips are on the plate, set aside, and mine (4 in
all).  Only the most valuable plate chip is ever set aside and plates only shrink, so a type
has chips set aside only when every more valuable type's plate is empty.  The states that obey
this are numbered as follows (types least valuable first, t = 0..6):

- no chip set aside: index = sum of plate[t] * 5**t                      (5**7 = 78,125 states)
- else, with k the least valuable type that has chips set aside: a mixed-radix number whose
  digit for t < k is plate[t] (0-4), for t = k the pair (plate, aside) with aside >= 1 (10
  pairs), for t > k aside[t] (0-4; their plates are empty), after an offset of
  78,125 + k * 156,250                                               (7 x 156,250 states)

1,171,875 states in all; 78,125 of them have an empty plate (the game is over).
`rank` and `unrank` are plain Python that numba also compiles (duel/solo/kernels.py).
"""
from dataclasses import dataclass

import numpy as np

from .chips import CHIPS_PER_TYPE, N_TYPES, TYPES, VALUES, type_key

RADIX = CHIPS_PER_TYPE + 1  # 0-4 chips of a type in one place
PAIRS = CHIPS_PER_TYPE * (CHIPS_PER_TYPE + 1) // 2  # (plate, aside) with aside >= 1: 10
N_PLAIN = RADIX ** N_TYPES
BLOCK = PAIRS * RADIX ** (N_TYPES - 1)
N_STATES = N_PLAIN + N_TYPES * BLOCK
START = sum(CHIPS_PER_TYPE * RADIX ** t for t in range(N_TYPES))  # every chip on the plate


def rank(plate, aside):
    """The table index of a state given as plate and aside counts per type."""
    low = -1
    for t in range(N_TYPES):
        if aside[t] > 0:
            low = t
            break
    index = 0
    weight = 1
    for t in range(N_TYPES):
        if low < 0 or t < low:
            index += plate[t] * weight
            weight *= RADIX
        elif t == low:  # (plate, aside) with aside >= 1, by aside, then plate: 0..9
            pair = (aside[t] - 1) * (2 * CHIPS_PER_TYPE + 2 - aside[t]) // 2 + plate[t]
            index += pair * weight
            weight *= PAIRS
        else:
            index += aside[t] * weight
            weight *= RADIX
    return index if low < 0 else N_PLAIN + low * BLOCK + index


def unrank(index, plate, aside):
    """Write the plate and aside counts of state `index` into the two arrays."""
    low = -1
    if index >= N_PLAIN:
        low = (index - N_PLAIN) // BLOCK
        index = (index - N_PLAIN) % BLOCK
    for t in range(N_TYPES):
        if low < 0 or t < low:
            plate[t], aside[t] = index % RADIX, 0
            index //= RADIX
        elif t == low:
            pair = index % PAIRS
            index //= PAIRS
            a = 1
            while pair >= CHIPS_PER_TYPE + 1 - a:  # aside a has 5 - a plate counts
                pair -= CHIPS_PER_TYPE + 1 - a
                a += 1
            plate[t], aside[t] = pair, a
        else:
            plate[t], aside[t] = 0, index % RADIX
            index //= RADIX


def all_states():
    """(plate, aside): int8 arrays (N_STATES x 7) of every state, in index order."""
    plate = np.zeros((N_STATES, N_TYPES), dtype=np.int8)
    aside = np.zeros((N_STATES, N_TYPES), dtype=np.int8)
    digits = np.arange(N_PLAIN)
    for t in range(N_TYPES):
        plate[:N_PLAIN, t] = digits % RADIX
        digits //= RADIX
    pairs = [(p, a) for a in range(1, CHIPS_PER_TYPE + 1) for p in range(CHIPS_PER_TYPE + 1 - a)]
    pair_plate = np.array([p for p, _ in pairs])
    pair_aside = np.array([a for _, a in pairs])
    for low in range(N_TYPES):
        rows = slice(N_PLAIN + low * BLOCK, N_PLAIN + (low + 1) * BLOCK)
        digits = np.arange(BLOCK)
        for t in range(N_TYPES):
            if t < low:
                plate[rows, t] = digits % RADIX
                digits //= RADIX
            elif t == low:
                plate[rows, t] = pair_plate[digits % PAIRS]
                aside[rows, t] = pair_aside[digits % PAIRS]
                digits //= PAIRS
            else:
                aside[rows, t] = digits % RADIX
                digits //= RADIX
    return plate, aside


@dataclass(frozen=True)
class Chips:
    """Where the chips are: plate[t], aside[t], mine[t] per chip type (TYPES order)."""

    plate: tuple
    aside: tuple
    mine: tuple

    @property
    def index(self):
        return rank(self.plate, self.aside)

    @property
    def over(self):
        """The plate is empty: the game has ended."""
        return sum(self.plate) == 0

    @property
    def chips_value(self):
        """Points of the chips held now, bonuses aside."""
        return sum(m * v for m, v in zip(self.mine, VALUES))

    def as_dict(self):
        return {name: {"plate": p, "aside": a, "mine": m}
                for name, p, a, m in zip(TYPES, self.plate, self.aside, self.mine)}

    def spec(self):
        """The compact text form (types with every chip on the plate left out)."""
        return ",".join(f"{name}={p}/{a}/{m}" for name, p, a, m
                        in zip(TYPES, self.plate, self.aside, self.mine) if p != CHIPS_PER_TYPE)

    @classmethod
    def from_index(cls, index):
        plate, aside = [0] * N_TYPES, [0] * N_TYPES
        unrank(int(index), plate, aside)
        return cls(tuple(plate), tuple(aside),
                   tuple(CHIPS_PER_TYPE - p - a for p, a in zip(plate, aside)))


def parse_chips(spec):
    """A Chips from SPEC text ("ls=0/1/3,flush=2/0/2": TYPE=PLATE/ASIDE/MINE, unlisted types have
    all 4 chips on the plate) or from a JSON object {type: [plate, aside, mine]} or
    {type: {"plate": p, "aside": a, "mine": m}}.  ValueError naming the problem if impossible."""
    if spec is None:
        spec = ""
    if isinstance(spec, str):
        entries = spec_entries(spec, "PLATE/ASIDE/MINE", "ls=0/1/3")
    elif isinstance(spec, dict):
        entries = []
        for name, counts in spec.items():
            if isinstance(counts, dict):
                unknown = set(counts) - {"plate", "aside", "mine"}
                if unknown or len(counts) != 3:
                    raise ValueError(f"chips of {name!r} need exactly plate, aside and mine")
                counts = [counts["plate"], counts["aside"], counts["mine"]]
            if not isinstance(counts, list):
                raise ValueError(f"chips of {name!r} must be [plate, aside, mine]")
            entries.append((name, counts))
    else:
        raise ValueError("chips must be a SPEC string or an object of type: [plate, aside, mine]")
    plate, aside, mine = [CHIPS_PER_TYPE] * N_TYPES, [0] * N_TYPES, [0] * N_TYPES
    for t, numbers in typed_counts(entries, _counts):
        plate[t], aside[t], mine[t] = numbers
    return validate_chips(Chips(tuple(plate), tuple(aside), tuple(mine)))


def spec_entries(spec, form, example):
    """[(type name, [count texts])] of the text form "TYPE=COUNTS,...", the counts split at "/"
    (empty parts skipped); ValueError for a part without "=", showing `form` and `example`."""
    entries = []
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        name, sep, counts = part.partition("=")
        if not sep:
            raise ValueError(f"chips entry {part!r} must be TYPE={form}, e.g. {example}")
        entries.append((name, counts.split("/")))
    return entries


def typed_counts(entries, numbers):
    """(type index, counts) of each entry (type name, counts), no type twice; numbers(key,
    counts) checks the counts of a type and returns them."""
    seen = set()
    for name, counts in entries:
        key = type_key(name)
        if key in seen:
            raise ValueError(f"chip type {key} is given twice")
        seen.add(key)
        yield TYPES.index(key), numbers(key, counts)


def chip_counts(key, counts):
    """The counts of one type as whole numbers 0-4 (ints or digit strings); ValueError naming
    the first that is not one."""
    numbers = []
    for c in counts:
        if isinstance(c, str):
            c = c.strip()
            c = int(c) if c.isdigit() else c
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= CHIPS_PER_TYPE:
            raise ValueError(f"{key}: {c!r} is not a count 0-{CHIPS_PER_TYPE}")
        numbers.append(c)
    return numbers


def _counts(key, counts):
    if len(counts) != 3:
        raise ValueError(f"{key} needs three counts PLATE/ASIDE/MINE, e.g. {key}=2/0/2")
    numbers = chip_counts(key, counts)
    if sum(numbers) != CHIPS_PER_TYPE:
        raise ValueError(f"{key}: plate, aside and mine must add up to {CHIPS_PER_TYPE}, "
                         f"got {'/'.join(map(str, numbers))}")
    return numbers


def validate_chips(chips):
    """Return `chips` if a game can reach it, else raise ValueError saying why not."""
    for t in range(N_TYPES):
        if chips.plate[t] + chips.aside[t] + chips.mine[t] != CHIPS_PER_TYPE:
            raise ValueError(f"{TYPES[t]}: plate, aside and mine must add up to {CHIPS_PER_TYPE}")
        if chips.aside[t]:
            for u in range(t + 1, N_TYPES):
                if chips.plate[u]:
                    raise ValueError(
                        f"{TYPES[t]} chips can be set aside only once every more valuable plate "
                        f"is empty, but {TYPES[u]} has {chips.plate[u]} on the plate")
    return chips
