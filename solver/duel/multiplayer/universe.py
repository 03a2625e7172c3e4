"""Dense numbering of 2-player Dice Duel positions: a position's number is computed from where
its chips are, with no dictionary, so a solver keeps its values in flat arrays.

A type's chips are (plate p, aside a, seat 0 s0, seat 1 s1), p + a + s0 + s1 = 4, its chips in
play j = p + a.  The set-aside rule ties the types together: a type has chips aside only once
every more valuable plate is empty.  So with L the least valuable type with chips aside (or
none), the types below L have nothing aside, type L has a >= 1 and the types above L have
empty plates: each type's configuration is one of a short list fixed by (its class towards L,
its j), and the positions of one L and one j-vector form a block, a product of those lists
(mixed radix, the least valuable type lowest).

A *universe* is the set of configurations each type may have: every one (the horizon table of
all positions with at most `top` chips in play) or those still reachable from one position
(its own solve: plates only shrink, set-aside chips only leave, the seats only gain).  Either
way a move from a position of the universe stays in it.  Blocks are numbered level by level
(chips in play k = sum of j), within a level by j-vector, then by L, so each level is one
range; the positions of one j-vector (a *superblock*, every L) depend on no other superblock
of their level.  A position's number times 4 plus (2 * taken + seat to move) is its place in
the value arrays.
"""
from collections import namedtuple
from functools import lru_cache

import numpy as np

from ...engine.jit import njit
from ..chips import CHIPS_PER_TYPE, N_TYPES

RADIX = CHIPS_PER_TYPE + 1  # j = 0..4 chips in play of a type
N_JCODES = RADIX ** N_TYPES  # j-vectors, numbered sum j_t * 5**t
NO_ASIDE = N_TYPES  # L when nothing is set aside
BELOW, LOWEST, ABOVE = 0, 1, 2  # a type's class towards L: a = 0; a >= 1; p = 0
MAX_LIST = 6  # the longest list of one class and j (class LOWEST, j = 2: 2 * 3)
CODES = 4  # per position: seat to move + 2 * taken

Universe = namedtuple("Universe", "count local config offset level_start top")
Universe.__doc__ = """A set of positions and their numbering (module docstring), as the kernels
take it.  count[t, class, j]: configurations of type t in that class with j chips in play;
local[t, class, p, a, s0]: a configuration's place in its list (-1: not in the universe);
config[t, class, j, i]: the i-th configuration (p, a, s0, s1); offset[L, jcode]: the first
position of a block (-1: none), L = NO_ASIDE for nothing aside; level_start[k]: the first
position with k chips in play (level_start[top + 1]: the number of positions); top: the most
chips in play."""


def type_class(t, low):
    """The class of type t when L = low."""
    return BELOW if t < low else LOWEST if t == low else ABOVE


def _fits(cls, p, a):
    return (cls == BELOW and a == 0) or (cls == LOWEST and a >= 1) or (cls == ABOVE and p == 0)


def make_universe(allowed, top):
    """The Universe of the configurations `allowed(t, p, a, s0, s1)` allows, up to `top` chips
    in play."""
    count = np.zeros((N_TYPES, 3, RADIX), dtype=np.int64)
    local = np.full((N_TYPES, 3, RADIX, RADIX, RADIX), -1, dtype=np.int64)
    config = np.full((N_TYPES, 3, RADIX, MAX_LIST, 4), -1, dtype=np.int64)
    for t in range(N_TYPES):
        for cls in (BELOW, LOWEST, ABOVE):
            for p in range(RADIX):
                for a in range(RADIX - p):
                    for s0 in range(RADIX - p - a):
                        s1 = CHIPS_PER_TYPE - p - a - s0
                        if not _fits(cls, p, a) or not allowed(t, p, a, s0, s1):
                            continue
                        j = p + a
                        i = count[t, cls, j]
                        local[t, cls, p, a, s0] = i
                        config[t, cls, j, i] = (p, a, s0, s1)
                        count[t, cls, j] += 1
    offset = np.full((N_TYPES + 1, N_JCODES), -1, dtype=np.int64)
    level_start = np.zeros(top + 2, dtype=np.int64)
    caps = np.array([max([j for j in range(RADIX) if count[t, :, j].any()], default=-1)
                     for t in range(N_TYPES)], dtype=np.int64)
    _number_blocks(count, caps, _jcode_order(), _jcode_levels(), top, offset, level_start)
    return Universe(count, local, config, offset, level_start, top)


@lru_cache(maxsize=4)
def full_universe(top):
    """Every position with at most `top` chips in play (the horizon table's)."""
    return make_universe(lambda t, p, a, s0, s1: True, top)


def reachable_universe(plate, aside, seats):
    """The positions still reachable from a position (plate, aside, seats of 2 players): per
    type, at most its plate chips on the plate, no more aside than were aside or on the plate,
    and at least its chips in front of each seat."""
    def allowed(t, p, a, s0, s1):
        return (p <= plate[t] and a <= aside[t] + plate[t] - p and s0 >= seats[0][t]
                and s1 >= seats[1][t])
    return make_universe(allowed, sum(plate) + sum(aside))


def empty_universe():
    """A universe of no position (what the kernels read when there is no horizon table)."""
    return make_universe(lambda t, p, a, s0, s1: False, 0)


@lru_cache(maxsize=1)
def _jcode_levels():
    """Chips in play of every j-vector (read-only: one array for every caller)."""
    codes = np.arange(N_JCODES)
    level = np.zeros(N_JCODES, dtype=np.int64)
    for _ in range(N_TYPES):
        level += codes % RADIX
        codes //= RADIX
    level.flags.writeable = False
    return level


@njit(cache=True)
def _block_size(count, low, jcode):
    size = 1
    for t in range(N_TYPES):
        cls = BELOW if t < low else (LOWEST if t == low else ABOVE)
        size *= count[t, cls, jcode % RADIX]
        jcode //= RADIX
    return size


@lru_cache(maxsize=1)
def _jcode_order():
    """The j-vectors by chips in play, then by number (read-only)."""
    order = np.argsort(_jcode_levels(), kind="stable")
    order.flags.writeable = False
    return order


@njit(cache=True)
def _within_caps(jcode, caps):
    for t in range(N_TYPES):
        if jcode % RADIX > caps[t]:
            return False
        jcode //= RADIX
    return True


@njit(cache=True)
def _number_blocks(count, caps, order, levels, top, offset, level_start):
    """offset and level_start of the blocks up to `top` chips in play, level by level; caps[t]:
    the most chips in play type t has in any configuration (a quick test that skips most
    j-vectors of a small universe)."""
    position = 0
    k = 0
    for jcode in order:
        level = levels[jcode]
        if level > top:
            break
        while k < level:  # levels with no block of their own start where the next one does
            k += 1
            level_start[k] = position
        if level == 0 or not _within_caps(jcode, caps):
            continue  # level 0: every chip held, the game is over
        for low in range(N_TYPES + 1):
            size = _block_size(count, (low + N_TYPES) % (N_TYPES + 1), jcode)
            if size > 0:
                offset[(low + N_TYPES) % (N_TYPES + 1), jcode] = position
                position += size
    while k <= top:
        k += 1
        level_start[k] = position


def superblocks(universe):
    """{k: the j-vectors (jcodes, int64 array) of level k that hold positions of `universe`}."""
    levels = _jcode_levels()
    has = np.flatnonzero((universe.offset >= 0).any(axis=0))
    return {k: has[levels[has] == k].astype(np.int64) for k in range(universe.top + 1)}


@njit(cache=True)
def position_index(universe, plate, aside, seat0):
    """The number of the position with these chips in `universe`, or -1 if it has none."""
    count, local, offset = universe.count, universe.local, universe.offset
    low = NO_ASIDE
    for t in range(N_TYPES):
        if aside[t] > 0:
            low = t
            break
    jcode = 0
    weight = 1
    for t in range(N_TYPES):
        jcode += (plate[t] + aside[t]) * weight
        weight *= RADIX
    base = offset[low, jcode]
    if base < 0:
        return -1
    within = 0
    stride = 1
    for t in range(N_TYPES):
        cls = BELOW if t < low else (LOWEST if t == low else ABOVE)
        i = local[t, cls, plate[t], aside[t], seat0[t]]
        if i < 0:
            return -1
        within += i * stride
        stride *= count[t, cls, plate[t] + aside[t]]
    return base + within


@njit(cache=True)
def decode(universe, low, jcode, within, plate, aside, seat0, seat1):
    """Write the chips of position `within` of block (low, jcode) into the four arrays."""
    count, config = universe.count, universe.config
    for t in range(N_TYPES):
        cls = BELOW if t < low else (LOWEST if t == low else ABOVE)
        j = jcode % RADIX
        jcode //= RADIX
        n = count[t, cls, j]
        i = within % n
        within //= n
        plate[t] = config[t, cls, j, i, 0]
        aside[t] = config[t, cls, j, i, 1]
        seat0[t] = config[t, cls, j, i, 2]
        seat1[t] = config[t, cls, j, i, 3]


def level_of(plate, aside):
    """Chips in play: the level of a position."""
    return int(sum(plate) + sum(aside))
