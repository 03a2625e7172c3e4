"""The Kniffel Dice Duel's rules in words a player can read (`kniffel rules --show dice-duel`).

Which rolls earn a chip is found by testing plain descriptions against the rules' own table
(`DuelRules.roll_types`); values, counts, colours and bonuses come from the rules data.
"""
import numpy as np

from .. import dice
from ..lang import WORDS
from ..rules.describe import (
    COUNTS,
    HOUSE,
    RUN_4,
    RUN_5,
    TOP,
    TWO_PAIRS,
    changed_options,
    condition_text,
    rolls_text,
    runs,
    settings,
    text_table,
    wrap,
)
from ..rules.describe import FACE_VALUES as FACES
from .rules import CHIPS_PER_TYPE, N_TYPES, PRESETS, RED_FACES, TYPES, VALUES


def _conditions():
    """(text, rolls) for the chip types, tried in order (see rules.describe.condition_text)."""
    red = sum(COUNTS[:, f - 1] for f in RED_FACES)
    black = [int(f) for f in FACES if f not in RED_FACES]
    return [
        ("two different faces twice or more (a full house counts, four of a kind not)", TWO_PAIRS),
        ("two different faces twice or more, or four of a kind (a full house counts)",
         TWO_PAIRS | (TOP >= 4)),
        ("at least three dice of one face", TOP >= 3),
        (RUN_4 + " (a large straight counts)", runs(4)),
        (f"all five dice red ({', '.join(map(str, RED_FACES))}) or all black "
         f"({', '.join(map(str, black))})", (red == 0) | (red == dice.DICE)),
        ("three dice of one face and two of another", HOUSE),
        ("at least four dice of one face", TOP >= 4),
        (RUN_5, runs(5)),
    ]


def describe_duel(rules):
    """The rules of the Kniffel Dice Duel (a DuelRules object) as text a player can read."""
    out = [f"{rules.key}: {rules.description}"] + changed_options(rules, PRESETS)
    out.append("")
    out += wrap(f"A solo game without a scorecard: {N_TYPES * CHIPS_PER_TYPE} chips lie on the "
                f"plate, {CHIPS_PER_TYPE} of each of {N_TYPES} types. Dice faces "
                f"{', '.join(map(str, RED_FACES))} are red, the others black.")

    out += ["", "Chips"]
    not_five = dice.KNIFFEL_FACE == 0  # five of a kind is a Kniffel, not a chip's roll
    conditions = [(text, rolls[not_five]) for text, rolls in _conditions()]
    rows = []
    for t, (name, value) in enumerate(zip(TYPES, VALUES)):
        earned = ((rules.roll_types >> t) & 1 == 1)[not_five]
        german, english = WORDS["de"]["chip"][name], WORDS["en"]["chip"][name]
        rows.append((name, german, english, value, CHIPS_PER_TYPE,
                     condition_text(earned, conditions)))
    out += text_table(rows, ("chip", "German", "English", "value", "chips", "earned by"))

    out += ["", "Turn"]
    out += wrap(rolls_text(rules.rolls_per_turn) + " At the end of the turn:")
    kniffel = ("- Five of a kind (a Kniffel) earns no chip type of its own; instead take any 2 "
               "chips, each from the plate or from the chips set aside, two of one type allowed"
               + (", or just one, or none" if rules.may_decline_chip
                  else "; if only one chip is left in all, take that one") + ".")
    take = ("you may take one chip of a type the dice earn, from the plate, or none"
            if rules.may_decline_chip else "take one chip of a type the dice earn, from the plate")
    out += wrap(kniffel)
    out += wrap(f"- Any other roll: {take}; a roll that earns several types lets you choose.")
    out += wrap("- A turn that ends without a chip (nothing earned, or no chip of an earned type "
                "left on the plate" + (", or none taken" if rules.may_decline_chip else "")
                + ") sets the most valuable chip left on the plate aside. Set-aside chips can "
                "only be taken with a Kniffel.")
    out += wrap("The game ends when the plate is empty; chips still set aside then belong to "
                "nobody.")

    out += ["", "Score"]
    out += wrap(f"The values of the chips held, +{rules.full_stack_bonus} for each type of which "
                f"all {CHIPS_PER_TYPE} chips are held, +{rules.gold_bonus} (gold) when all "
                f"{N_TYPES} types are held or +{rules.silver_bonus} (silver) when exactly "
                f"{N_TYPES - 1} are, and +{rules.last_chip_bonus} for the move that takes the "
                f"last chip from the plate (setting it aside earns nothing). Best possible "
                f"score: {int(np.asarray(rules.best_score))}.")

    out += ["", f"With 2-{rules.max_players} players"]
    aside = ("a round (every seat's turn) in which no player took a chip"
             if rules.set_aside == "round" else "every turn without a chip")
    out += wrap("Seats play in turn order, seat 0 first. A Kniffel takes any one chip, from the "
                "plate or set aside, and the same player plays another turn. After "
                f"{aside}, the most valuable plate chip is set aside. The game ends when the "
                "plate is empty; the highest score wins, a tie for first "
                + ("shares the win." if rules.ties == "share" else "wins nothing."))

    out += ["", "Settings (a rules file names the preset and changes some of these; "
            "docs/rules.md explains each)"] + settings(rules)
    return "\n".join(out)
