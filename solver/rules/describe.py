"""The rules of a scorecard game in words a player can read (`kniffel rules --show`).

Wherever the rules are data, the text comes from the data: a box's condition and points are
found by testing which plain description gives exactly its row of the score table (all 252
rolls), the joker points come from the joker table, bonuses, caps and requirements from the
Rules fields; the names of the boxes are solver/lang's, and so is every sentence
(solver/lang/commands_*.py, keys rules.*): the text is in the pad's language of the rules unless
`lang` says otherwise.  English prose names boxes by their keys (as a rules file writes them),
German prose by their names on the pad.
The Dice Duel's text is in duel/describe.py, which uses the helpers here (in English unless
given `words`).
"""
import json

import numpy as np

from .. import dice
from ..lang import WORDS, Words, box_name, pad_language
from . import scoring
from .scorecard import PRESETS, UPPER, must_fit_can_matter

ENGLISH = Words("en")  # the helpers' words when given none (the Dice Duel's text)


def box_names(rules, box):
    """(name, other name) of a box: its name on the game's pad, then in the other language
    (solver/lang, with the names the preset's pad gives its boxes)."""
    pad = pad_language(rules)
    other = "en" if pad == "de" else "de"
    return box_name(box, rules, pad), box_name(box, rules, other)


def box_ref(rules, box, words):
    """A box as the prose of `words` names it: its key in English, its name in German."""
    return box if words.lang == "en" else box_name(box, rules, words.lang)


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


RUN_4 = WORDS["en"]["rules.needs.run_4"]  # English, for the Dice Duel's chips
RUN_5 = WORDS["en"]["rules.needs.run_5"]
# (word key, its fields, rolls that meet it): the first that is exactly a box's scoring rolls
# describes it.
_CONDITIONS = [
    ("none", {}, np.ones(len(COUNTS), dtype=bool)),
    ("pair", {}, TOP >= 2),
    ("two_pairs", {}, TWO_PAIRS),
    ("three", {}, TOP >= 3),
    ("four", {}, TOP >= 4),
    ("house", {}, HOUSE),
    ("house_or_five", {}, HOUSE | (TOP == 5)),
    ("run_4", {}, runs(4)),
    ("run_5", {}, runs(5)),
    ("exactly", {"faces": "1-2-3-4-5"}, _exactly([1, 2, 3, 4, 5])),
    ("exactly", {"faces": "2-3-4-5-6"}, _exactly([2, 3, 4, 5, 6])),
    ("five", {}, TOP == 5),
] + [("face", {"face": int(f)}, COUNTS[:, f - 1] > 0) for f in FACE_VALUES]

# (word key, its fields, points of each roll, whether the range shown starts at 0: an upper box
# takes any roll)
_POINTS = [
    ("sum", {}, TOTAL, False),
    ("pair", {}, 2 * _highest_with(2), False),
    ("two_pairs", {}, 2 * ((COUNTS >= 2) * FACE_VALUES).sum(axis=1), False),
    ("three", {}, 3 * _highest_with(3), False),
    ("four", {}, 4 * _highest_with(4), False),
] + [("face", {"face": int(f)}, f * COUNTS[:, f - 1], True) for f in FACE_VALUES]


def box_conditions(words=ENGLISH):
    """(text, rolls) of the plain conditions of the boxes, in the language of `words`."""
    return [(words(f"rules.needs.{key}", **fields), rolls) for key, fields, rolls in _CONDITIONS]


def condition_text(scoring_rolls, conditions=None, words=ENGLISH):
    """Which rolls a box (or chip) needs, from the rolls that score there: the first of
    `conditions` ((text, rolls), default: the boxes' plain ones) that gives exactly them."""
    for text, rolls in box_conditions(words) if conditions is None else conditions:
        if np.array_equal(rolls, scoring_rolls):
            return text
    return words("rules.needs.rolls", n=int(scoring_rolls.sum()))


def points_text(scores, words=ENGLISH):
    """How many points a box gives, from its row of the score table."""
    got = scores[scores > 0]
    if got.size == 0:
        return "0"
    if got.min() == got.max():
        return str(int(got[0]))
    for key, fields, points, from_zero in _POINTS:
        if np.array_equal(points[scores > 0], got):
            low = 0 if from_zero and np.array_equal(points, scores) else int(got.min())
            return f"{words(f'rules.points.{key}', **fields)}, {low}-{int(got.max())}"
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


def rolls_text(n, words=ENGLISH):
    """How a turn of up to `n` rolls goes."""
    return words("rules.one_roll") if n == 1 else words("rules.rolls", n=n)


def changed_options(rules, presets, words=ENGLISH):
    """The line naming the options a rule set changes from its preset (empty when none)."""
    base = presets[rules.preset].as_dict()
    changed = {k: v for k, v in rules.as_dict().items() if base.get(k) != v}
    if not changed:
        return []
    return wrap(words("rules.changed", preset=rules.preset,
                      changes=", ".join(f"{k} = {json.dumps(v)}" for k, v in changed.items())))


def settings(rules):
    """Every field of the rules, as a rules file would set it."""
    data = rules.as_dict()
    width = max(map(len, data))
    return [f"  {key:<{width}}  {json.dumps(value)}" for key, value in data.items()]


# ---------------------------------------------------------------------------------------------
# The scorecard games

def fitting_boxes(rules, words=ENGLISH):
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
            found.append(box_ref(rules, box, words))
        else:
            found.append(words("rules.box_faces", box=box_ref(rules, box, words),
                               faces=", ".join(map(str, faces))))
    return ([words("rules.upper_box_of_face")] if upper else []) + found


def _joker_points_text(rules, words):
    """The joker table in words, one entry per box or group of upper boxes."""
    table = rules.joker_score
    parts = []
    upper = [b for b in range(rules.n_boxes) if rules.box_face[b] > 0]
    own_only = all(table[b, f] == (5 * f if f == rules.box_face[b] else 0)
                   for b in upper for f in FACE_VALUES)
    if all(table[b, 1:].max() == 0 for b in upper):
        parts.append(words("rules.points_upper_0"))
    elif own_only:
        parts.append(words("rules.points_own_upper"))
    else:
        parts += [_joker_points_of(rules, b, words) for b in upper]
    for b in range(rules.n_boxes):
        if rules.box_face[b] > 0 or b == rules.kniffel_box:
            continue
        if np.array_equal(table[b, 1:], 5 * FACE_VALUES):
            parts.append(words("rules.points_sum", box=box_ref(rules, rules.boxes[b], words)))
        else:
            parts.append(_joker_points_of(rules, b, words))
    return "; ".join(parts)


def _joker_points_of(rules, b, words):
    """The joker points of box `b`: one number, or one for each face."""
    row, box = rules.joker_score[b, 1:], box_ref(rules, rules.boxes[b], words)
    if row.min() == row.max():
        return f"{box} {int(row[0])}"
    return words("rules.points_by_face", box=box, points="/".join(map(str, row.tolist())))


def _further_kniffel(rules, five, fifty, words):
    """The bullets on a further Kniffel: joker, where it may go, extra bonus."""
    out = wrap("- " + words(f"rules.joker.{rules.joker}"))
    joker = rules.joker not in ("none", "must-match")
    if joker:
        out += wrap(words("rules.joker_fifty" if rules.joker_requires == "fifty"
                          else "rules.joker_filled", five=five, fifty=fifty))
        counts = rules.upper_bonus and rules.joker_score[rules.box_face > 0].any()
        out += wrap(words("rules.joker_points", points=_joker_points_text(rules, words))
                    + (words("rules.joker_upper_counts") if counts else ""))
    if rules.extra_kniffel_must_fit:
        where = (words("rules.must_fit_joker") if joker else
                 words("rules.must_fit_table", boxes=", ".join(fitting_boxes(rules, words))))
        out += wrap(words("rules.must_fit", where=where))
    elif must_fit_can_matter(rules) and rules.joker != "forced":
        out += wrap(words("rules.may_scratch"))
    return out + _extra_bonus(rules, five, fifty, words)


def _extra_bonus(rules, five, fifty, words):
    """The bullet on the extra bonus of a further Kniffel."""
    if not rules.extra_bonus:
        return wrap(words("rules.no_extra"))
    needs = words("rules.extra_fifty" if rules.extra_bonus_requires == "fifty"
                  else "rules.extra_filled", five=five, fifty=fifty)
    where = (words("rules.extra_anywhere") if rules.joker != "must-match" else
             words("rules.extra_fitting", boxes=", ".join(fitting_boxes(rules, words))))
    most = rules.n_boxes - 1  # further Kniffels a game can have at most
    if rules.extra_bonus_cap is None:
        cap = words("rules.cap_none")
    elif rules.cap_count == 0:
        cap = words("rules.cap_never_paid", cap=rules.extra_bonus_cap)
    elif rules.cap_count >= most:
        cap = words("rules.cap_never_reached", cap=rules.extra_bonus_cap, most=most)
    else:
        cap = words("rules.cap", points=rules.cap_count * rules.extra_bonus, n=rules.cap_count)
    return wrap(words("rules.extra", bonus=rules.extra_bonus, five=five, needs=needs,
                      where=where, cap=cap))


def describe(rules, lang=None):
    """The rules of a scorecard game (a Rules object) as text a player can read, in `lang`
    (de or en; default: the pad's language of the rules)."""
    words = Words(lang, rules)
    five, _ = box_names(rules, rules.boxes[rules.kniffel_box])
    out = [f"{rules.key}: {words.description(rules)}"]
    out += changed_options(rules, PRESETS, words)
    out += ["", words("rules.turn")]
    out += wrap(rolls_text(rules.rolls_per_turn, words) + words("rules.fill")
                + (words("rules.fill_forced", five=five) if rules.joker == "forced" else "")
                + words("rules.game_ends", n=rules.n_boxes))
    out += _boxes(rules, words)
    out += _five_of_a_kind(rules, five, words)
    out += _jokers_and_final_score(rules, words)
    out += ["", words("rules.settings")] + settings(rules)
    return "\n".join(out)


def _boxes(rules, words):
    """The sections "Boxes" (a table of every box) and "Upper bonus" of describe(), as lines."""
    upper = [box_ref(rules, b, words) for b in rules.boxes if b in UPPER]
    out = ["", words("rules.boxes", first=upper[0], last=upper[-1])]
    rows = []
    for b, box in enumerate(rules.boxes):
        name, other = box_names(rules, box)
        scores = rules.plain_score[b]
        rows.append((box, name, other, condition_text(scores > 0, words=words),
                     points_text(scores, words)))
    out += text_table(rows, [words(f"rules.column.{c}")
                             for c in ("box", "name", "also", "needs", "points")])
    out.append("  " + words("rules.scores_0"))
    out += ["", words("rules.upper_bonus")]
    out += wrap(words("rules.upper_bonus_text", bonus=rules.upper_bonus, first=upper[0],
                      last=upper[-1], threshold=rules.upper_bonus_threshold)
                if rules.upper_bonus else words("rules.no_bonus"))
    return out


def _five_of_a_kind(rules, five, words):
    """The section on five of a kind of describe(), as lines."""
    fifty = int(rules.plain_score[rules.kniffel_box, five_roll(1)])
    out = ["", words("rules.five", five=five)]
    text = words("rules.five_scores", five=five, fifty=fifty)
    if scoring.fives_score_plain(rules.params()):
        return out + wrap(text + words("rules.further_plain", five=five))
    return (out + wrap(text + words("rules.further", five=five, fifty=fifty))
            + _further_kniffel(rules, five, fifty, words))


def _jokers_and_final_score(rules, words=ENGLISH):
    """The sections "Knobeln jokers" and "Final score" of describe(), as lines."""
    out = ["", words("rules.jokers")]
    if rules.jokers:
        n, per = rules.rolls_per_turn, rules.jokers_per_turn
        when = (words("rules.jokers_one_roll") if n == 1 else
                words("rules.jokers_last_roll", rolls=words("rules.jokers_both") if n == 2
                      else words("rules.jokers_all", n=n)))
        out += wrap(words("rules.jokers_text", jokers=rules.jokers, when=when,
                          per=words("rules.jokers_per_turn", n=per)))
    else:
        out.append("  " + words("rules.no_jokers"))

    out += ["", words("rules.final")]
    parts = [words("rules.final_boxes")]
    if rules.upper_bonus:
        parts.append(words("rules.final_upper"))
    if rules.extra_bonus and rules.cap_count:
        parts.append(words("rules.final_extra"))
    text = " + ".join(parts)
    out += wrap(text[:1].upper() + text[1:] + ".")
    return out
