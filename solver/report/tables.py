"""Printable strategy tables from a solved value table (`kniffel tables`).

A table is made of sections; each section builder takes a ValueTable and returns a Section: a
Markdown text for people and flat records (one dict per row) for CSV and JSON.  SECTIONS lists
the builders in the order they are written; adding a section is adding a builder to it.

- opening: every first roll of the game, the best choice with each number of rolls left;
- cheatsheet: for typical cards, what each open box costs, to choose a box for the final roll;
- box_by_turn: how often the optimal player fills each box in each turn (exact).

The whole value table is exported on demand (export_values): too large to keep in the repository.
Every number comes from the table through solver.advice, so it is what `kniffel advise` says.
"""
import csv
import hashlib
import io
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from tqdm import tqdm

from .. import __version__
from .. import dice
from ..advice.position import advise, assemble, box_values, final_roll_values, keep_values
from ..rules import UPPER
from ..engine.states import Position, position_state
from ..engine.store import atomic_write as _write
from ..lang import Words

FORMATS = ("md", "csv", "json")
SAME = 1e-9  # futures equal up to the rounding of (points + future) - points
DIGITS = 6  # decimals of the numbers in CSV and JSON (the last bits of a float64 may differ by CPU)


@dataclass
class Section:
    """One section of the tables: `markdown` for reading, `records` for programs."""

    name: str  # file stem, e.g. "opening"
    title: str
    markdown: str
    records: list = field(default_factory=list)
    notes: dict = field(default_factory=dict)  # what the record columns mean (JSON only)


# ---------------------------------------------------------------------------------------------
# Opening turn


def opening_advice(table):
    """{rolls left: [Advice for each of the 252 rolls]} on the empty card at the start of a game.

    The same Advice as advise(Position(), table, roll, rolls_left), computed with the value of
    every keep shared between the rolls."""
    state = position_state(Position(), table.rules)
    values, points, bonus = box_values(state, table)
    stop, final = final_roll_values(state, table)
    result = {}
    for left in range(table.rules.rolls_per_turn - 1, -1, -1):
        keeps = keep_values(stop, final, left) if left else None
        result[left] = [assemble(table, state, r, left, values[:, r], points[:, r], bonus[:, r], keeps)
                        for r in range(dice.N_ROLLS)]
    return result


def describe(option):
    """A short text for an advice option: "keep 3 3 5", "keep nothing", "score sixes 18 +35"."""
    if option["action"] == "keep":
        return "keep " + (" ".join(map(str, option["keep"])) or "nothing")
    text = f"score {option['box']} {option['points']}"
    if option["bonus"]:
        text += f" +{option['bonus']}"
    if "joker" in option:
        taken, given = option["joker"]["from"], option["joker"]["to"]
        pairs = zip(taken, given) if isinstance(taken, list) else [(taken, given)]
        text = "joker " + ",".join(f"{a}>{b}" for a, b in pairs) + ", " + text
    return text


def roll_text(roll):
    return "".join(map(str, dice.KEEPS[roll]))


def opening_section(table):
    """The best choice for each of the 252 first rolls, with each number of rolls left."""
    rules = table.rules
    by_left = opening_advice(table)
    lefts = list(by_left)
    records = []
    for r in range(dice.N_ROLLS):
        record = {"roll": roll_text(r), "probability": _round(dice.ROLL_PROB[r])}
        for left in lefts:
            options = by_left[left][r].options
            best, second = options[0], options[1]
            record.update({f"best_{left}": describe(best),
                           f"expected_{left}": _round(best["expected_final_score"]),
                           f"margin_{left}": _round(best["expected_final_score"] - second["expected_final_score"]),
                           f"second_{left}": describe(second)})
        records.append(record)
    notes = {"roll": "the five dice of the first roll of the game, sorted",
             "probability": "chance of throwing this roll with five dice"}
    for left in lefts:
        notes.update({f"best_{left}": f"best choice with {left} roll(s) left",
                      f"expected_{left}": "expected final score of the game after the best choice",
                      f"margin_{left}": "expected final score lost by the second-best choice instead",
                      f"second_{left}": "the second-best choice"})
    head = [f"# Opening turn: {rules.key}", "",
            f"{rules.description}. Optimal expected score of a game: **{table.expected_score:.4f}**.", "",
            f"For each roll on the empty card: the best choice if the roll came with "
            f"{_spoken_list(lefts)} rolls left (the first roll of the game has {lefts[0]} "
            "left). *E* is the expected final score of the "
            "game (points on the card at the end, bonuses included) after that choice when every "
            "later decision is optimal: `expected_final_score` of `kniffel advise` on the empty "
            "card. *margin* is what the second-best choice would cost. `keep` lists the dice to "
            "hold before rerolling the others; `score` fills a box now. *P* is the chance of the "
            "roll.", ""]
    columns = ["roll", "P"]
    for left in lefts:
        columns += [f"{left} left: best", "E", "margin"]
    lines = head + [_md_row(columns), _md_row(["---", "---:"] + ["---", "---:", "---:"] * len(lefts))]
    for record in records:
        cells = [record["roll"], f"{record['probability']:.4f}"]
        for left in lefts:
            cells += [record[f"best_{left}"], f"{record[f'expected_{left}']:.3f}",
                      f"{record[f'margin_{left}']:.3f}"]
        lines.append(_md_row(cells))
    return Section("opening", f"Opening turn ({rules.key})", "\n".join(lines) + "\n", records, notes)


# ---------------------------------------------------------------------------------------------
# Box-choice cheat sheet

# Typical cards (box -> points); the points of filled lower boxes only shift every choice by the
# same amount, except that the Kniffel box tells whether it holds 50.
SITUATIONS = {  # box set -> [(situation, card)]; the titles: solver/lang "situation.<id>"
    "13": [
        ("start", {}),
        ("small_par", {"ones": 3, "twos": 6, "threes": 9}),
        ("behind",
         {"fours": 8, "fives": 10, "three_kind": 17, "chance": 21}),
        ("ahead",
         {"fives": 20, "sixes": 24, "full_house": 25, "large_straight": 40, "kniffel": 50,
          "chance": 23}),
        ("upper_done",
         {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}),
        ("lower_done",
         {"three_kind": 24, "four_kind": 20, "full_house": 25, "small_straight": 30,
          "large_straight": 40, "kniffel": 0, "chance": 22}),
        ("late",
         {"ones": 3, "threes": 9, "fours": 12, "fives": 15, "sixes": 18, "three_kind": 25,
          "full_house": 25, "large_straight": 40, "chance": 22}),
    ],
    "yatzy": [
        ("start", {}),
        ("small_par", {"ones": 3, "twos": 6, "threes": 9}),
        ("upper_done",
         {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}),
        ("lower_done_yatzy",
         {"one_pair": 10, "two_pairs": 14, "three_kind": 12, "four_kind": 16, "small_straight": 15,
          "large_straight": 20, "full_house": 18, "chance": 22, "yatzy": 0}),
    ],
}


def situations(rules, lang=None):
    """[(title, card)]: the typical cards of `rules`, titled in `lang` (default: the pad's)."""
    words = Words(lang, rules)
    return [(words(f"situation.{name}"), card) for name, card in SITUATIONS.get(rules.box_set, [])]


@dataclass
class BoxCosts:
    """What filling each open box costs on one card, for the final roll of a turn.

    costs[box]: {points: cost}; fill the box where points - cost is largest.  The cost is the
    expected final score given up against the best future any fill leaves (bonuses included), so
    the cheapest fill costs 0.  Rolls of five of a kind are left out once the Kniffel box is
    filled (extra-Kniffel rules apply); `five_of_a_kind` then names their best option per face."""

    title: str
    card: dict
    card_total: int
    expected_final_score: float
    upper_total: int
    costs: dict  # box -> {points: cost}; points None: any points, the same cost
    five_of_a_kind: dict


def box_costs(table, card, title=""):
    """BoxCosts of the card `card` (box -> points) at the start of a turn."""
    rules = table.rules
    state = position_state(Position(card), rules)
    values, points, _ = box_values(state, table)
    future = values - points  # bonus + value of the next state: depends on the box's points only
    kniffel_open = not state.filled >> rules.kniffel_box & 1
    rolls = [r for r in range(dice.N_ROLLS) if kniffel_open or not dice.KNIFFEL_FACE[r]]
    by_box = {}
    for b, box in enumerate(rules.boxes):
        if state.filled >> b & 1:
            continue
        found = {}
        for r in rolls:
            p, f = int(points[b, r]), float(future[b, r])
            if abs(found.setdefault(p, f) - f) > SAME:
                raise AssertionError(f"{box}={p}: the future differs between rolls")
        found = dict(sorted(found.items()))
        if box not in UPPER and max(found.values()) - min(found.values()) <= SAME:
            found = {None: found[min(found)]}  # any points: the same cost
        by_box[box] = found
    reference = max(max(found.values()) for found in by_box.values())
    costs = {box: {p: reference - f for p, f in found.items()} for box, found in by_box.items()}
    five = {}
    if not kniffel_open:
        for face in range(1, dice.FACES + 1):
            best = advise(Position(card), table, (face,) * dice.DICE, 0).options[0]
            five[face] = describe(best)
    expected = state.card_total + table.value(state)
    return BoxCosts(title, dict(card), state.card_total, expected, state.upper_total, costs, five)


def cheatsheet_section(table):
    """Which box for the final roll, on a few typical cards: the cost of each open box."""
    rules = table.rules
    records, parts = [], []
    for number, (title, card) in enumerate(situations(rules, "en"), 1):
        try:
            sheet = box_costs(table, card, title)
        except ValueError:  # a card these rules cannot have (a rules file changed the scoring)
            continue
        parts.append(_cheatsheet_markdown(number, sheet, rules))
        for box, found in sheet.costs.items():
            for p, cost in found.items():
                records.append({"situation": number, "title": title, "box": box,
                                "points": p, "cost": _round(cost)})
    head = [f"# Box-choice cheat sheet: {rules.key}", "",
            f"{rules.description}.", "",
            "After the last roll of a turn: for every open box take the points your dice score "
            "there minus the box's **cost**, and fill the box where that is largest. The cost is "
            "the expected final score given up by filling that box (upper bonus and the rest of "
            "the game under optimal play included), counted from the cheapest fill, so the "
            "cheapest costs 0. For the upper boxes, whose cost depends on the points, the table "
            "shows *points - cost* for 0-5 dice of the box's face right away. A box that scores "
            "nothing for your dice costs its cost at 0 points (a scratch). Exact for every roll on "
            f"these cards (five of a kind once the {rules.boxes[rules.kniffel_box]} box is filled: "
            "see the line under the card)."
            + (" Knobeln jokers are not shown." if rules.jokers else ""), ""]
    notes = {"situation": "number of the card in the Markdown sheet", "title": "the card",
             "box": "an open box", "points": "points in the box (empty or null: any points, the same cost)",
             "cost": "expected final score given up by this fill, against the cheapest fill"}
    return Section("cheatsheet", f"Box-choice cheat sheet ({rules.key})",
                   "\n".join(head + parts), records, notes)


def _cheatsheet_markdown(number, sheet, rules):
    filled = ", ".join(f"{box} {p}" for box, p in sheet.card.items()) or "nothing"
    lines = [f"## {number}. {sheet.title}", "",
             f"Turn {len(sheet.card) + 1}. Filled: {filled}. Upper total {sheet.upper_total} "
             f"(bonus {rules.upper_bonus} at {rules.upper_bonus_threshold}). Expected final "
             f"score {sheet.expected_final_score:.2f}.", ""]
    upper = [box for box in sheet.costs if box in UPPER]
    if upper:
        lines += [_md_row(["upper box: points - cost", "0", "1", "2", "3", "4", "5 dice"]),
                  _md_row(["---"] + ["---:"] * 6)]
        for box in upper:
            face = UPPER.index(box) + 1
            cells = [box]
            for count in range(dice.DICE + 1):
                cost = sheet.costs[box].get(face * count)
                cells.append("" if cost is None else f"{face * count - cost:.2f}")
            lines.append(_md_row(cells))
        lines.append("")
    lower = [box for box in sheet.costs if box not in UPPER]
    if lower:
        lines += [_md_row(["lower box", "cost"]), _md_row(["---", "---:"])]
        for box in lower:
            found = sheet.costs[box]
            if None in found:
                text = f"{found[None]:.2f}"
            else:
                text = ", ".join(f"{c:.2f} with {p}" for p, c in found.items())
            lines.append(_md_row([box, text]))
        lines.append("")
    if sheet.five_of_a_kind:
        lines += ["Five of a kind: " + "; ".join(f"{str(face) * dice.DICE}: {text}"
                                                 for face, text in sheet.five_of_a_kind.items()), ""]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Which box in which turn


def box_turn_section(table):
    """How often the optimal player fills each box in each turn, exactly (from the forward pass
    over every state the strategy meets from the empty card)."""
    from ..stats.distribution import forward  # numba: only when the tables are built
    rules = table.rules
    fill = forward(table).box_by_turn()
    records = []
    ranked_lines = []
    for turn, row in enumerate(fill, 1):
        order = sorted(range(rules.n_boxes), key=lambda b: (-row[b], b))
        for rank, box in enumerate(order, 1):
            records.append({"turn": turn, "rank": rank, "box": rules.boxes[box],
                            "probability": _round(row[box])})
        top = [f"{rules.boxes[b]} {100 * row[b]:.1f}%" for b in order if row[b] >= 0.0005][:5]
        ranked_lines.append(_md_row([turn, ", ".join(top)]))
    head = [f"# Which box in which turn: {rules.key}", "",
            f"{rules.description}. The probability that the optimal player fills each box in each "
            "turn of a game, computed exactly over every way the dice can fall (not simulated). "
            "Each row and each column sums to 100%.", "",
            _md_row(["turn", "most likely boxes"]), _md_row(["---:", "---"])]
    matrix = ["", "All boxes, percent:", "",
              _md_row(["turn"] + list(rules.boxes)), _md_row(["---:"] * (rules.n_boxes + 1))]
    for turn, row in enumerate(fill, 1):
        matrix.append(_md_row([turn] + [f"{100 * p:.1f}" for p in row]))
    notes = {"turn": "turn of the game, 1 = first", "rank": "1 = the box filled most often in this turn",
             "box": "the box", "probability": "probability that the box is filled in this turn"}
    return Section("box_by_turn", f"Which box in which turn ({rules.key})",
                   "\n".join(head + ranked_lines + matrix) + "\n", records, notes)


def pattern_section(table):
    """The first rolls grouped by what the optimal player keeps (strategy/opening.py)."""
    from ..strategy.opening import opening_patterns
    by_left, records = opening_advice(table), []
    lines = [f"# Opening by pattern: {table.rules.key}", "", "The 252 first rolls on the empty card "
             "grouped by the pattern that names the best keep, most likely first; the rolls whose "
             "best keep no pattern names are the exceptions.", ""]
    for left in [n for n in (2, 1) if n in by_left]:
        found = opening_patterns(by_left, left)
        lines += [f"## {left} roll{'s' if left > 1 else ''} left", "",
                  _md_row(["keep", "P", "rolls"]), _md_row(["---", "---:", "---"])]
        for group in found.groups:
            rolls = " ".join(r for r, _ in group.rolls)
            records.append({"rolls_left": left, "keep": group.label,
                            "probability": _round(group.probability), "rolls": rolls})
            lines.append(_md_row([group.label, f"{100 * group.probability:.1f}%", rolls]))
        for roll, kept, p in found.exceptions:
            records.append({"rolls_left": left, "keep": f"exception: keep {kept}",
                            "probability": _round(p), "rolls": roll})
        lines += ["", "Exceptions: " + (", ".join(f"{r} keep {k}" for r, k, _ in found.exceptions)
                                        or "none") + ".", ""]
    notes = {"rolls_left": "rolls still to come", "keep": "the pattern of the best keep",
             "probability": "chance that the first roll is one of these", "rolls": "the rolls"}
    return Section("opening_patterns", f"Opening by pattern ({table.rules.key})",
                   "\n".join(lines), records, notes)


# The sections of `kniffel tables`, in order: name -> builder(table) -> Section.
SECTIONS = {"opening": opening_section, "opening_patterns": pattern_section,
            "cheatsheet": cheatsheet_section, "box_by_turn": box_turn_section}


# ---------------------------------------------------------------------------------------------
# Writing


def build_sections(table, progress=False):
    """Every Section of SECTIONS for `table`."""
    names = list(SECTIONS)
    return [SECTIONS[name](table) for name in tqdm(names, desc=f"tables {table.rules.key}",
                                                   disable=not progress, leave=False)]


def section_bytes(section, fmt, rules_key):
    """The file contents of `section` in format `fmt` (md, csv or json)."""
    if fmt == "md":
        return section.markdown.encode()
    if fmt == "csv":
        buffer = io.StringIO()
        columns = list(section.records[0]) if section.records else list(section.notes)
        writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(section.records)
        return buffer.getvalue().encode()
    if fmt == "json":
        head = {"rules": rules_key, "section": section.name, "title": section.title,
                "package_version": __version__, "columns": section.notes}
        records = ",\n".join(json.dumps(r, ensure_ascii=False) for r in section.records)
        return (json.dumps(head, ensure_ascii=False)[:-1] + ', "records": [\n' + records + "\n]}\n").encode()
    raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")


def write_tables(table, directory, formats=("md",), progress=False):
    """Write every section of `table` into `directory` in each format; returns the paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for section in build_sections(table, progress):
        for fmt in formats:
            path = directory / f"{section.name}.{fmt}"
            _write(path, section_bytes(section, fmt, table.rules.key))
            paths.append(path)
    return paths


# ---------------------------------------------------------------------------------------------
# The whole value table


def value_rows(table):
    """Every reachable turn-start state as a numpy structured array with readable fields:
    filled_mask (bit i: box i of the rules is filled), n_open, upper_total (capped at the
    bonus threshold), kniffel_fifty / bonus_deficit / jokers_left where the rules track them,
    expected_remaining (expected score still to come under optimal play)."""
    rules = table.rules
    filled, aux, upper = np.nonzero(~np.isnan(table.values))
    fields = [("filled_mask", np.int32), ("n_open", np.int8), ("upper_total", np.int16)]
    if rules.n_flag == 2:
        fields.append(("kniffel_fifty", np.int8))
    if rules.n_deficit > 1:
        fields.append(("bonus_deficit", np.int8))
    if rules.jokers:
        fields.append(("jokers_left", np.int8))
    fields.append(("expected_remaining", np.float64))
    rows = np.zeros(len(filled), dtype=fields)
    rows["filled_mask"] = filled
    n_filled = np.array([bin(m).count("1") for m in range(1 << rules.n_boxes)])
    rows["n_open"] = rules.n_boxes - n_filled[filled]
    rows["upper_total"] = upper
    within = aux % rules.aux_block
    if rules.n_flag == 2:
        rows["kniffel_fifty"] = within // rules.n_deficit
    if rules.n_deficit > 1:
        rows["bonus_deficit"] = within % rules.n_deficit
    if rules.jokers:
        rows["jokers_left"] = aux // rules.aux_block
    rows["expected_remaining"] = table.values[filled, aux, upper]
    return rows


COLUMN_NOTES = {
    "filled_mask": "bit i set: box i (of `boxes`) is filled",
    "open_boxes": "the open boxes, space-separated (CSV only)",
    "n_open": "number of open boxes",
    "upper_total": "upper-section total, capped at the bonus threshold",
    "kniffel_fifty": "1 if the Kniffel box holds 50",
    "bonus_deficit": "open boxes beyond the extra-Kniffel bonuses still allowed by the cap",
    "jokers_left": "Knobeln jokers still in hand",
    "expected_remaining": "expected score still to come from the start of a turn, optimal play",
}


def export_values(table, directory, progress=False):
    """Write the whole value table as values.csv, values.npy and values.json (the header of the
    .npy: rules, box order, columns); returns the paths."""
    rules = table.rules
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    rows = value_rows(table)
    open_text = [" ".join(box for b, box in enumerate(rules.boxes) if not mask >> b & 1)
                 for mask in range(1 << rules.n_boxes)]
    names = list(rows.dtype.names)
    columns = names[:1] + ["open_boxes"] + names[1:]
    buffer = io.StringIO()
    buffer.write(",".join(columns) + "\n")
    ints = [rows[name].tolist() for name in names[:-1]]
    values = rows["expected_remaining"].tolist()
    for i in tqdm(range(len(rows)), desc="values.csv", unit="row", unit_scale=True,
                  disable=not progress, leave=False, mininterval=0.5):
        first = ints[0][i]
        rest = ",".join(str(column[i]) for column in ints[1:])
        buffer.write(f"{first},{open_text[first]},{rest},{values[i]!r}\n")
    npy = io.BytesIO()
    np.save(npy, rows, allow_pickle=False)
    blob = npy.getvalue()
    header = {"rules_key": rules.key, "rules": rules.as_dict(), "package_version": __version__,
              "boxes": list(rules.boxes), "upper_bonus_threshold": rules.upper_bonus_threshold,
              "rows": len(rows), "expected_score": table.expected_score,
              "columns": {name: COLUMN_NOTES[name] for name in columns},
              "npy_dtype": [[name, rows.dtype[name].str] for name in names],
              "npy_sha256": hashlib.sha256(blob).hexdigest()}
    paths = [directory / "values.csv", directory / "values.npy", directory / "values.json"]
    _write(paths[0], buffer.getvalue().encode())
    _write(paths[1], blob)
    _write(paths[2], (json.dumps(header, indent=2) + "\n").encode())
    return paths


def _round(x):
    return round(float(x), DIGITS) + 0.0  # + 0.0: no "-0.0"


def _spoken_list(items):
    """[2, 1, 0] -> "2, 1 or 0"."""
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _md_row(cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"
