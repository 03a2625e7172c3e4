"""The opening by pattern: the 252 first rolls grouped by what the optimal player keeps.

Each roll's best keep on the empty card (from the solved table, as `kniffel advise` gives it) is
named by the first pattern of PATTERN_ORDER that holds exactly those dice; rolls whose best keep
no pattern names are the exceptions, listed one by one.  Groups are ordered by how likely they are.
"""
from dataclasses import dataclass

from .. import dice
from ..lang import Words
from .thumb import PATTERNS

# (pattern, arg): the first that holds exactly the best keep names it (its words: solver/lang,
# "opening.<pattern>.<arg>").
PATTERN_ORDER = (
    ("stop", 0), ("run5", 4), ("run4", 4), ("run4", 3), ("kind", 4), ("kind", 3), ("two_pairs", 0),
    ("kind", 2), ("face", 6), ("face", 5), ("face", 4), ("face", 3), ("face", 2), ("face", 1),
    ("high", 5), ("nothing", 0),
)


def _pattern_keep(pattern, arg, roll):
    if pattern == "stop":
        return roll
    kept = PATTERNS[pattern](roll, arg)
    return None if kept is None else tuple(sorted(kept))


@dataclass
class PatternGroup:
    label: str  # in the page's language
    probability: float  # of the first roll being one of these
    rolls: list  # (roll text, probability)


@dataclass
class OpeningPatterns:
    rolls_left: int
    groups: list  # PatternGroup, most likely first
    exceptions: list  # (roll text, keep text, probability), most likely first


def opening_patterns(by_left, rolls_left, lang="en"):
    """OpeningPatterns for one number of rolls left, from opening_advice's result; the group
    labels in `lang`."""
    words = Words(lang)
    groups, exceptions = {}, []
    for r, advice in enumerate(by_left[rolls_left]):
        roll = dice.KEEPS[r]
        best = advice.options[0]
        kept = roll if best["action"] == "score" else tuple(sorted(best["keep"]))
        p = float(dice.ROLL_PROB[r])
        text = "".join(map(str, roll))
        for pattern, arg in PATTERN_ORDER:
            if _pattern_keep(pattern, arg, roll) == kept:
                label = words(f"opening.{pattern}.{arg}")
                groups.setdefault(label, []).append((text, p))
                break
        else:
            exceptions.append((text, "".join(map(str, kept)) or "-", p))
    found = [PatternGroup(label, sum(p for _, p in rolls), sorted(rolls, key=lambda x: -x[1]))
             for label, rolls in groups.items()]
    found.sort(key=lambda g: -g.probability)
    exceptions.sort(key=lambda e: -e[2])
    return OpeningPatterns(rolls_left, found, exceptions)
