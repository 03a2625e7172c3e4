"""The rules of a scorecard game in words a player can read (`kniffel rules --show`).

Wherever the rules are data, the text comes from the data: a box's condition and points are
found by testing which plain description gives exactly its row of the score table (all 252
rolls), the joker points come from the joker table, bonuses, caps and requirements from the
Rules fields; the names of the boxes are solver/lang's.
The Dice Duel's text is in duel/describe.py, which uses the helpers here.
"""
import json

import numpy as np

from .. import dice
from ..lang import box_name, pad_language
from . import scoring
from .scorecard import PRESETS, UPPER, must_fit_can_matter


def box_names(rules, box):
    """(name, other name) of a box: its name on the game's pad, then in the other language
    (solver/lang, with the names the preset's pad gives its boxes)."""
    pad = pad_language(rules)
    other = "en" if pad == "de" else "de"
    return box_name(box, rules, pad), box_name(box, rules, other)


# ---------------------------------------------------------------------------------------------
# Plain descriptions of rolls, tested against score rows

COUNTS = dice.ROLL_COUNTS  # 252 rolls x 6 face counts
FACE_VALUES = np.arange(1, dice.FACES + 1)
TOTAL = COUNTS @ FACE_VALUES
TOP = COUNTS.max(axis=1)
PRESENT = COUNTS > 0
HOUSE = (COUNTS == 3).any(axis=1) & (COUNTS == 2).any(axis=1)
TWO_PAIRS = (COUNTS >= 2).sum(axis=1) == 2  # two different faces, each at least twice


def runs(length):
    """Rolls holding `length` faces in a row."""
    return np.any([PRESENT[:, s:s + length].all(axis=1) for s in range(dice.FACES - length + 1)],
                  axis=0)


def _exactly(faces):
    return (PRESENT == np.isin(FACE_VALUES, faces)).all(axis=1) & (TOP == 1)


def _highest_with(at_least):
    return ((COUNTS >= at_least) * FACE_VALUES).max(axis=1)


RUN_4 = "four faces in a row: 1-2-3-4, 2-3-4-5 or 3-4-5-6"
RUN_5 = "five faces in a row: 1-2-3-4-5 or 2-3-4-5-6"
# (text, rolls that meet it): the first that is exactly a box's scoring rolls describes it.
_CONDITIONS = [
    ("none", np.ones(len(COUNTS), dtype=bool)),
    ("at least two dice of one face", TOP >= 2),
    ("two different faces twice or more (a full house counts, four of a kind not)", TWO_PAIRS),
    ("at least three dice of one face", TOP >= 3),
    ("at least four dice of one face", TOP >= 4),
    ("three dice of one face and two of another", HOUSE),
    ("three dice of one face and two of another, or five of a kind", HOUSE | (TOP == 5)),
    (RUN_4, runs(4)),
    (RUN_5, runs(5)),
    ("exactly 1-2-3-4-5", _exactly([1, 2, 3, 4, 5])),
    ("exactly 2-3-4-5-6", _exactly([2, 3, 4, 5, 6])),
    ("five of a kind", TOP == 5),
] + [(f"none: only the {f}s count", COUNTS[:, f - 1] > 0) for f in FACE_VALUES]

# (text, points of each roll, whether the range shown starts at 0: an upper box takes any roll)
_POINTS = [
    ("the sum of the dice", TOTAL, False),
    ("2 × the highest face shown twice", 2 * _highest_with(2), False),
    ("the sum of the two pairs", 2 * ((COUNTS >= 2) * FACE_VALUES).sum(axis=1), False),
    ("3 × the face shown three times", 3 * _highest_with(3), False),
    ("4 × the face shown four times", 4 * _highest_with(4), False),
] + [(f"{f} × the number of {f}s", f * COUNTS[:, f - 1], True) for f in FACE_VALUES]


def condition_text(scoring_rolls, conditions=_CONDITIONS):
    """Which rolls a box (or chip) needs, from the rolls that score there."""
    for text, rolls in conditions:
        if np.array_equal(rolls, scoring_rolls):
            return text
    return f"{int(scoring_rolls.sum())} of the 252 distinct rolls"


def points_text(scores):
    """How many points a box gives, from its row of the score table."""
    got = scores[scores > 0]
    if got.size == 0:
        return "0"
    if got.min() == got.max():
        return str(int(got[0]))
    for text, points, from_zero in _POINTS:
        if np.array_equal(points[scores > 0], got):
            low = 0 if from_zero and np.array_equal(points, scores) else int(got.min())
            return f"{text}, {low}-{int(got.max())}"
    return f"{int(got.min())}-{int(got.max())}"


def five_roll(face):
    """The roll index of five dice showing `face`."""
    return int(np.flatnonzero(dice.KNIFFEL_FACE == face)[0])


# ---------------------------------------------------------------------------------------------
# Text layout

def text_table(rows, header):
    """Rows under a header, in columns, indented by two spaces."""
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    lines = ["  " + "  ".join(str(c).ljust(w) for c, w in zip(header, widths)).rstrip(),
             "  " + "  ".join("-" * w for w in widths)]
    return lines + ["  " + "  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip()
                    for row in rows]


def wrap(text, indent="  ", width=96):
    """`text` in lines of at most `width`; a text starting "- " is a bullet, continued under it."""
    later = indent + "  " if text.startswith("- ") else indent
    lines, line = [], indent
    for word in text.split():
        if len(line) + len(word) + 1 > width and line.strip():
            lines.append(line.rstrip())
            line = later
        line += word + " "
    if line.strip():
        lines.append(line.rstrip())
    return lines


def rolls_text(n):
    """How a turn of up to `n` rolls goes."""
    if n == 1:
        return "One roll a turn, of all five dice."
    return (f"Up to {n} rolls a turn. The first roll throws all five dice; before each further "
            "roll keep any of them (none to all) and roll the rest again; you may stop after "
            "any roll.")


def changed_options(rules, presets):
    """The line naming the options a rule set changes from its preset (empty when none)."""
    base = presets[rules.preset].as_dict()
    changed = {k: v for k, v in rules.as_dict().items() if base.get(k) != v}
    if not changed:
        return []
    return wrap(f"(The preset {rules.preset} with options changed: "
                + ", ".join(f"{k} = {json.dumps(v)}" for k, v in changed.items())
                + "; the line above describes the preset.)")


def settings(rules):
    """Every field of the rules, as a rules file would set it."""
    data = rules.as_dict()
    width = max(map(len, data))
    return [f"  {key:<{width}}  {json.dumps(value)}" for key, value in data.items()]


# ---------------------------------------------------------------------------------------------
# The scorecard games

_JOKER_SENTENCES = {
    "none": "No joker: it scores by the box table above, like any other roll.",
    "max-any": ("Joker at any box's maximum: it may go into any open box for the most points "
                "that box can hold, whatever the face of the dice."),
    "free": ("Free joker: it may go into any open box: the lower boxes at the joker points "
             "below, the upper box of its face at 5 × face, any other upper box for 0."),
    "forced": ("Forced joker: it must go into the upper box of its face if that box is open; if "
               "not, into an open lower box (at the joker points below) if there is one; only "
               "if neither is open, into an open upper box, for 0."),
    "free-after-upper": ("Joker once the upper box of its face is filled: then it may go into "
                         "any open box, the lower boxes at the joker points below, upper boxes "
                         "for 0; while that upper box is still open it scores by the box table "
                         "above."),
    "must-match": "No joker: it scores by the box table above, like any other roll.",
}


def fitting_boxes(rules):
    """The boxes where five of a kind scores points by the plain table (the Kniffel box aside),
    the upper boxes as one entry, "the upper box of its face"."""
    found, upper = [], False
    for b, box in enumerate(rules.boxes):
        if b == rules.kniffel_box:
            continue
        faces = [int(f) for f in FACE_VALUES if rules.plain_score[b, five_roll(f)] > 0]
        if not faces:
            continue
        if rules.box_face[b] > 0:
            upper = upper or faces == [rules.box_face[b]]
        elif len(faces) == dice.FACES:
            found.append(box)
        else:
            found.append(f"{box} (faces {', '.join(map(str, faces))})")
    return (["the upper box of its face"] if upper else []) + found


def _joker_points_text(rules):
    """The joker table in words, one entry per box or group of upper boxes."""
    table = rules.joker_score
    parts = []
    upper = [b for b in range(rules.n_boxes) if rules.box_face[b] > 0]
    own_only = all(table[b, f] == (5 * f if f == rules.box_face[b] else 0)
                   for b in upper for f in FACE_VALUES)
    if all(table[b, 1:].max() == 0 for b in upper):
        parts.append("upper boxes 0")
    elif own_only:
        parts.append("the upper box of its face 5 × face, other upper boxes 0")
    else:
        for b in upper:
            row = table[b, 1:]
            parts.append(f"{rules.boxes[b]} {int(row[0])}" if row.min() == row.max()
                         else f"{rules.boxes[b]} " + "/".join(map(str, row.tolist()))
                         + " (faces 1-6)")
    for b, box in enumerate(rules.boxes):
        if rules.box_face[b] > 0 or b == rules.kniffel_box:
            continue
        row = table[b, 1:]
        if row.min() == row.max():
            parts.append(f"{box} {int(row[0])}")
        elif np.array_equal(row, 5 * FACE_VALUES):
            parts.append(f"{box} 5 × face (the sum)")
        else:
            parts.append(f"{box} " + "/".join(map(str, row.tolist())) + " (faces 1-6)")
    return "; ".join(parts)


def _further_kniffel(rules, five, the_box, fifty):
    """The bullets on a further Kniffel: joker, where it may go, extra bonus."""
    out = wrap("- " + _JOKER_SENTENCES[rules.joker])
    joker = rules.joker not in ("none", "must-match")
    if joker:
        needs = (f"only while {the_box} holds {fifty}; after a scratched {five} box a further "
                 f"{five} scores by the table" if rules.joker_requires == "fifty"
                 else f"whether {the_box} holds {fifty} or 0")
        out += wrap(f"- The joker applies {needs}.")
        counts = rules.upper_bonus and rules.joker_score[rules.box_face > 0].any()
        out += wrap(f"- Joker points: {_joker_points_text(rules)}."
                    + (" Upper-box points count towards the upper bonus." if counts else ""))
    if rules.extra_kniffel_must_fit:
        where = ("a box where it scores points (by the joker points while the joker applies, "
                 "else by the box table)" if joker else
                 "a box where it scores points by the box table: "
                 + ", ".join(fitting_boxes(rules)))
        out += wrap(f"- It must be entered in {where}, while one of them is open (any one, your "
                    "choice); only when none is open may it go into another open box, for 0.")
    elif must_fit_can_matter(rules) and rules.joker != "forced":
        out += wrap("- It may also be entered in any other open box, for 0 (the option "
                    "extra_kniffel_must_fit forbids that while a box it fits is open).")
    if rules.extra_bonus:
        needs = (f"while {the_box} holds {fifty}" if rules.extra_bonus_requires == "fifty"
                 else f"whether {the_box} holds {fifty} or 0")
        where = ("whatever box it goes into, even for 0" if rules.joker != "must-match"
                 else "only when it is entered in a box where it scores points by the box table: "
                      + ", ".join(fitting_boxes(rules)))
        most = rules.n_boxes - 1  # further Kniffels a game can have at most
        if rules.extra_bonus_cap is None:
            cap = "no limit"
        elif rules.cap_count == 0:
            cap = f"but the cap of {rules.extra_bonus_cap} points means it is never paid"
        elif rules.cap_count >= most:
            cap = (f"the cap of {rules.extra_bonus_cap} points is never reached (a game has at "
                   f"most {most})")
        else:
            cap = (f"at most {rules.cap_count * rules.extra_bonus} bonus points a game "
                   f"({rules.cap_count} bonus{'es' if rules.cap_count != 1 else ''})")
        out += wrap(f"- Extra bonus: +{rules.extra_bonus} for each further {five} {needs}, "
                    f"paid {where}; {cap}.")
    else:
        out += wrap("- No extra bonus.")
    return out


def describe(rules):
    """The rules of a scorecard game (a Rules object) as text a player can read."""
    kb = rules.kniffel_box
    five, _ = box_names(rules, rules.boxes[kb])
    out = [f"{rules.key}: {rules.description}"] + changed_options(rules, PRESETS)

    out += ["", "Turn"]
    out += wrap(rolls_text(rules.rolls_per_turn) + " Then fill exactly one open box, with the "
                "points the dice give there or with 0 (a scratch); any open box may be scratched"
                + (f" (the forced joker restricts that for a further {five}, see below)"
                   if rules.joker == "forced" else "")
                + f". The game ends when all {rules.n_boxes} boxes are filled.")

    upper_boxes = [b for b in rules.boxes if b in UPPER]
    out += ["", f"Boxes ({upper_boxes[0]} to {upper_boxes[-1]} are the upper section, the rest "
                "the lower)"]
    rows = []
    for b, box in enumerate(rules.boxes):
        name, other = box_names(rules, box)
        scores = rules.plain_score[b]
        rows.append((box, name, other, condition_text(scores > 0), points_text(scores)))
    out += text_table(rows, ("box", "name", "also", "needs", "points"))
    out.append("  A roll that does not meet a box's condition scores 0 there.")

    out += ["", "Upper bonus"]
    out += wrap(f"+{rules.upper_bonus} when {upper_boxes[0]} to {upper_boxes[-1]} add up to at "
                f"least {rules.upper_bonus_threshold}." if rules.upper_bonus else "None.")

    fifty = int(rules.plain_score[kb, five_roll(1)])
    the_box = f"the {five} box"
    out += ["", f"Five of a kind ({five})"]
    text = (f"Five of a kind scores {fifty} in {the_box}. While {the_box} is open, five of a "
            "kind scores by the box table in whatever box it goes into. ")
    if scoring.fives_score_plain(rules.params()):
        out += wrap(text + f"A further {five} (rolled once {the_box} is filled) scores by the "
                    "table too, in any box: no extra bonus, no joker.")
    else:
        out += wrap(text + f"A further {five}, rolled once {the_box} is filled (with {fifty} "
                           "or 0):")
        out += _further_kniffel(rules, five, the_box, fifty)

    out += _jokers_and_final_score(rules)

    out += ["", "Settings (a rules file names a preset and changes some of these; docs/rules.md "
            "explains each)"] + settings(rules)
    return "\n".join(out)


def _jokers_and_final_score(rules):
    """The sections "Knobeln jokers" and "Final score" of describe(), as lines."""
    out = ["", "Knobeln jokers"]
    if rules.jokers:
        n, per = rules.rolls_per_turn, rules.jokers_per_turn
        when = ("After the turn's roll" if n == 1 else "After the last roll of a turn (only when "
                + ("both rolls" if n == 2 else f"all {n} rolls")
                + " of the turn were thrown, not after stopping early)")
        out += wrap(f"{rules.jokers} a game. {when}, before a box is filled, a joker turns one "
                    f"die into any other face; at most {per} joker{'s' if per > 1 else ''} a turn. "
                    "Jokers still in hand at the end score nothing.")
    else:
        out.append("  None.")

    out += ["", "Final score"]
    parts = ["the points in the boxes"]
    if rules.upper_bonus:
        parts.append("the upper bonus")
    if rules.extra_bonus and rules.cap_count:
        parts.append("the extra bonuses")
    out += wrap(" + ".join(parts).capitalize() + ".")
    return out
