"""The opening by pattern: the 252 first rolls grouped by what the optimal player keeps.

Each roll's best keep on the empty card (from the solved table, as `kniffel advise` gives it) is
named by the first pattern of PATTERN_ORDER that holds exactly those dice; rolls whose best keep
no pattern names are the exceptions, listed one by one.  Groups are ordered by how likely they are.
"""
from dataclasses import dataclass

from .. import dice
from .thumb import PATTERNS

# (pattern, arg, English label, German label): the first that holds exactly the best keep.
PATTERN_ORDER = (
    ("stop", 0, "keep all five", "alle fünf behalten"),
    ("run5", 4, "keep four to a large straight", "vier zur großen Straße halten"),
    ("run4", 4, "keep four to a small straight", "vier zur kleinen Straße halten"),
    ("run4", 3, "keep three to a straight", "drei zur Straße halten"),
    ("kind", 4, "keep the four alike", "die vier gleichen halten"),
    ("kind", 3, "keep the three alike", "die drei gleichen halten"),
    ("two_pairs", 0, "keep both pairs", "beide Paare halten"),
    ("kind", 2, "keep the (higher) pair", "das (höhere) Paar halten"),
    ("face", 6, "keep the sixes", "die Sechsen halten"),
    ("face", 5, "keep the fives", "die Fünfen halten"),
    ("face", 4, "keep the fours", "die Vieren halten"),
    ("face", 3, "keep the threes", "die Dreien halten"),
    ("face", 2, "keep the twos", "die Zweien halten"),
    ("face", 1, "keep the ones", "die Einsen halten"),
    ("high", 5, "keep the fives and sixes", "Fünfen und Sechsen halten"),
    ("nothing", 0, "reroll all five", "alle fünf neu würfeln"),
)


def _pattern_keep(pattern, arg, roll):
    if pattern == "stop":
        return roll
    kept = PATTERNS[pattern][0](roll, arg)
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


def opening_patterns(by_left, rolls_left, german=False):
    """OpeningPatterns for one number of rolls left, from opening_advice's result."""
    groups, exceptions = {}, []
    for r, advice in enumerate(by_left[rolls_left]):
        roll = dice.KEEPS[r]
        best = advice.options[0]
        kept = roll if best["action"] == "score" else tuple(sorted(best["keep"]))
        p = float(dice.ROLL_PROB[r])
        text = "".join(map(str, roll))
        for pattern, arg, english, deutsch in PATTERN_ORDER:
            if _pattern_keep(pattern, arg, roll) == kept:
                label = deutsch if german else english
                groups.setdefault(label, []).append((text, p))
                break
        else:
            exceptions.append((text, "".join(map(str, kept)) or "-", p))
    found = [PatternGroup(label, sum(p for _, p in rolls), sorted(rolls, key=lambda x: -x[1]))
             for label, rolls in groups.items()]
    found.sort(key=lambda g: -g.probability)
    exceptions.sort(key=lambda e: -e[2])
    return OpeningPatterns(rolls_left, found, exceptions)
