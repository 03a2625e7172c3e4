"""The Dice Duel's chips: their types (least valuable first), values and the names players type."""

TYPES = ("two_pairs", "three_kind", "small_straight", "flush", "full_house", "four_kind",
         "large_straight")
"""Chip types, least valuable first (the state and the tables use this order)."""
VALUES = (5, 10, 20, 25, 30, 40, 50)
N_TYPES = len(TYPES)
CHIPS_PER_TYPE = 4
RED_FACES = (2, 4, 6)  # 1, 3, 5 are black; a flush is five dice of one colour

# Names a player may type for a chip type (the value printed on the chip works too).
TYPE_ALIASES = {
    "2p": "two_pairs", "pairs": "two_pairs", "zwei_paare": "two_pairs",
    "3k": "three_kind", "three_of_a_kind": "three_kind", "dreierpasch": "three_kind",
    "ss": "small_straight", "kleine_strasse": "small_straight", "kleine_straße": "small_straight",
    "fl": "flush",
    "fh": "full_house", "fullhouse": "full_house",
    "4k": "four_kind", "four_of_a_kind": "four_kind", "viererpasch": "four_kind",
    "ls": "large_straight", "grosse_strasse": "large_straight", "große_straße": "large_straight",
    "große_strasse": "large_straight", "grosse_straße": "large_straight",
    **{str(value): name for name, value in zip(TYPES, VALUES)},
}


def type_key(name):
    """The chip type for a name a player typed (key, short name, German name or chip value)."""
    key = str(name).strip().lower().replace("-", "_").replace(" ", "_")
    key = TYPE_ALIASES.get(key, key)
    if key not in TYPES:
        raise ValueError(f"unknown chip type {name!r}; types: {', '.join(TYPES)} "
                         "(or 2p, 3k, ss, fl, fh, 4k, ls, or the chip's value)")
    return key
