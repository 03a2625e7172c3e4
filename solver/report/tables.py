"""Printable strategy tables from a solved value table (`kniffel tables`).

A table is made of sections; each section builder takes a ValueTable and returns a Section: a
Markdown text for people and flat records (one dict per row) for CSV and JSON.  SECTIONS lists
the builders in the order they are written; adding a section is adding a builder to it.

- opening: every first roll of the game, the best choice with each number of rolls left;
- cheatsheet: for typical cards, what each open box costs, to choose a box for the final roll;
- box_by_turn: how often the optimal player fills each box in each turn (exact).

The whole value table is exported on demand (values.py): too large to keep in the repository.
Every number comes from the table through solver.advice, so it is what `kniffel advise` says.
"""
import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from .. import dice
from ..advice.goal import POINTS, points_advice
from ..advice.position import assemble, box_values, final_roll_values, keep_values
from ..engine.states import Position, position_state
from ..engine.store import atomic_write as _write
from ..lang import Words
from ..rules import UPPER
from ..version import __version__

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

    The same Advice as points_advice(Position(), table, roll, rolls_left), computed with the value
    of every keep shared between the rolls."""
    state = position_state(Position(), table.rules)
    values, points, bonus = box_values(state, table)
    stop, final = final_roll_values(state, table)
    result = {}
    for left in range(table.rules.rolls_per_turn - 1, -1, -1):
        keeps = keep_values(stop, final, left) if left else None
        result[left] = [assemble(table, state, r, left, values[:, r], points[:, r], bonus[:, r],
                                 keeps, POINTS)
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


def describe_in(option, w):
    """describe() in the words `w` (lang.Words), with box names: for the Markdown text."""
    if option["action"] == "keep":
        return w("md.keep", dice=w.faces(option["keep"]))
    text = w("md.score", box=w.box(option["box"]), points=option["points"])
    if option["bonus"]:
        text += f" +{option['bonus']}"
    if "joker" in option:
        taken, given = option["joker"]["from"], option["joker"]["to"]
        pairs = zip(taken, given) if isinstance(taken, list) else [(taken, given)]
        text = w("md.joker", changes=",".join(f"{a}>{b}" for a, b in pairs), text=text)
    return text


def roll_text(roll):
    return "".join(map(str, dice.KEEPS[roll]))


def opening_section(table, lang=None):
    """The best choice for each of the 252 first rolls, with each number of rolls left; the
    Markdown in `lang` (default: the pad's language), the records as data (box keys)."""
    rules = table.rules
    w = Words(lang, rules)
    by_left = opening_advice(table)
    lefts = list(by_left)
    records, texts = [], []
    for r in range(dice.N_ROLLS):
        record = {"roll": roll_text(r), "probability": _round(dice.ROLL_PROB[r])}
        for left in lefts:
            options = by_left[left][r].options
            best, second = options[0], options[1]
            record.update({f"best_{left}": describe(best),
                           f"expected_{left}": _round(best["expected_final_score"]),
                           f"margin_{left}": _round(best["expected_final_score"]
                                                    - second["expected_final_score"]),
                           f"second_{left}": describe(second)})
            texts.append(describe_in(best, w))
        records.append(record)
    notes = {"roll": "the five dice of the first roll of the game, sorted",
             "probability": "chance of throwing this roll with five dice"}
    for left in lefts:
        notes.update({f"best_{left}": f"best choice with {left} roll(s) left",
                      f"expected_{left}": "expected final score of the game after the best choice",
                      f"margin_{left}": "expected final score lost by the second-best choice "
                                        "instead",
                      f"second_{left}": "the second-best choice"})
    head = [w("md.opening_title", preset=rules.key), "",
            w("md.opening_score", description=w.description(rules), score=table.expected_score), "",
            w("md.opening_text", lefts=_spoken_list(lefts, w), first=lefts[0]), ""]
    columns = [w("md.roll"), "P"]
    for left in lefts:
        columns += [w("md.left_best", left=left), "E", w("md.margin")]
    lines = head + [_md_row(columns),
                    _md_row(["---", "---:"] + ["---", "---:", "---:"] * len(lefts))]
    for number, record in enumerate(records):
        cells = [record["roll"], f"{record['probability']:.4f}"]
        for i, left in enumerate(lefts):
            cells += [texts[number * len(lefts) + i], f"{record[f'expected_{left}']:.3f}",
                      f"{record[f'margin_{left}']:.3f}"]
        lines.append(_md_row(cells))
    return Section("opening", f"Opening turn ({rules.key})", "\n".join(lines) + "\n", records,
                   notes)


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
            best = points_advice(Position(card), table, (face,) * dice.DICE, 0).options[0]
            five[face] = describe(best)
    expected = state.card_total + table.value(state)
    return BoxCosts(title, dict(card), state.card_total, expected, state.upper_total, costs, five)


def cheatsheet_section(table, lang=None):
    """Which box for the final roll, on a few typical cards: the cost of each open box."""
    rules = table.rules
    w = Words(lang, rules)
    records, parts = [], []
    shown = situations(rules, w.lang)
    for number, (title, card) in enumerate(situations(rules, "en"), 1):
        try:
            sheet = box_costs(table, card, shown[number - 1][0])
        except ValueError:  # a card these rules cannot have (a rules file changed the scoring)
            continue
        parts.append(_cheatsheet_markdown(number, sheet, table, w))
        for box, found in sheet.costs.items():
            for p, cost in found.items():
                records.append({"situation": number, "title": title, "box": box,
                                "points": p, "cost": _round(cost)})
    head = [w("md.cheat_title", preset=rules.key), "", f"{w.description(rules)}.", "",
            w("md.cheat_text", kniffel=w.box(rules.boxes[rules.kniffel_box]))
            + (w("md.cheat_jokers") if rules.jokers else ""), ""]
    notes = {"situation": "number of the card in the Markdown sheet", "title": "the card",
             "box": "an open box",
             "points": "points in the box (empty or null: any points, the same cost)",
             "cost": "expected final score given up by this fill, against the cheapest fill"}
    return Section("cheatsheet", f"Box-choice cheat sheet ({rules.key})",
                   "\n".join(head + parts), records, notes)


def _cheatsheet_markdown(number, sheet, table, w):
    rules = table.rules
    filled = ", ".join(f"{w.box(box)} {p}" for box, p in sheet.card.items()) or w("nothing")
    lines = [f"## {number}. {sheet.title}", "",
             w("md.sheet_head", turn=len(sheet.card) + 1, filled=filled, upper=sheet.upper_total,
               bonus=rules.upper_bonus, threshold=rules.upper_bonus_threshold,
               expected=sheet.expected_final_score), ""]
    upper = [box for box in sheet.costs if box in UPPER]
    if upper:
        lines += [_md_row([w("md.upper_head"), "0", "1", "2", "3", "4", w("md.five_dice")]),
                  _md_row(["---"] + ["---:"] * 6)]
        for box in upper:
            face = UPPER.index(box) + 1
            cells = [w.box(box)]
            for count in range(dice.DICE + 1):
                cost = sheet.costs[box].get(face * count)
                cells.append("" if cost is None else f"{face * count - cost:.2f}")
            lines.append(_md_row(cells))
        lines.append("")
    lower = [box for box in sheet.costs if box not in UPPER]
    if lower:
        lines += [_md_row([w("md.lower_head"), w("page.cost")]), _md_row(["---", "---:"])]
        for box in lower:
            found = sheet.costs[box]
            if None in found:
                text = f"{found[None]:.2f}"
            else:
                text = ", ".join(w("md.cost_with", cost=c, points=p) for p, c in found.items())
            lines.append(_md_row([w.box(box), text]))
        lines.append("")
    if sheet.five_of_a_kind:
        best = {face: describe_in(points_advice(Position(sheet.card), table, (face,) * dice.DICE,
                                                0).options[0], w)
                for face in sheet.five_of_a_kind}
        lines += [w("md.five", list="; ".join(f"{str(face) * dice.DICE}: {text}"
                                             for face, text in best.items())), ""]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Which box in which turn


def box_turn_section(table, lang=None):
    """How often the optimal player fills each box in each turn, exactly (from the forward pass
    over every state the strategy meets from the empty card)."""
    from ..stats.distribution import forward  # numba: only when the tables are built
    rules = table.rules
    w = Words(lang, rules)
    fill = forward(table).box_by_turn()
    records = []
    ranked_lines = []
    for turn, row in enumerate(fill, 1):
        order = sorted(range(rules.n_boxes), key=lambda b: (-row[b], b))
        for rank, box in enumerate(order, 1):
            records.append({"turn": turn, "rank": rank, "box": rules.boxes[box],
                            "probability": _round(row[box])})
        top = [f"{w.box(rules.boxes[b])} {100 * row[b]:.1f}%" for b in order
               if row[b] >= 0.0005][:5]
        ranked_lines.append(_md_row([turn, ", ".join(top)]))
    head = [w("md.turn_title", preset=rules.key), "",
            w("md.turn_text", description=w.description(rules)), "",
            _md_row([w("md.turn"), w("md.likely")]), _md_row(["---:", "---"])]
    matrix = ["", w("md.all_boxes"), "",
              _md_row([w("md.turn")] + [w.box(b) for b in rules.boxes]),
              _md_row(["---:"] * (rules.n_boxes + 1))]
    for turn, row in enumerate(fill, 1):
        matrix.append(_md_row([turn] + [f"{100 * p:.1f}" for p in row]))
    notes = {"turn": "turn of the game, 1 = first",
             "rank": "1 = the box filled most often in this turn",
             "box": "the box", "probability": "probability that the box is filled in this turn"}
    return Section("box_by_turn", f"Which box in which turn ({rules.key})",
                   "\n".join(head + ranked_lines + matrix) + "\n", records, notes)


def pattern_section(table, lang=None):
    """The first rolls grouped by what the optimal player keeps (strategy/opening.py)."""
    from ..strategy.opening import opening_patterns
    w = Words(lang, table.rules)
    by_left, records = opening_advice(table), []
    lines = [w("md.pattern_title", preset=table.rules.key), "", w("md.pattern_text"), ""]
    for left in [n for n in (2, 1) if n in by_left]:
        found, shown = opening_patterns(by_left, left), opening_patterns(by_left, left, w.lang)
        lines += [f"## {w('rolls_left', n=left)}", "",
                  _md_row([w("md.pattern_keep"), "P", w("md.rolls")]),
                  _md_row(["---", "---:", "---"])]
        for group, label in zip(found.groups, (g.label for g in shown.groups)):
            rolls = " ".join(r for r, _ in group.rolls)
            records.append({"rolls_left": left, "keep": group.label,
                            "probability": _round(group.probability), "rolls": rolls})
            lines.append(_md_row([label, f"{100 * group.probability:.1f}%", rolls]))
        for roll, kept, p in found.exceptions:
            records.append({"rolls_left": left, "keep": f"exception: keep {kept}",
                            "probability": _round(p), "rolls": roll})
        listed = ", ".join(w("md.exception", roll=r, keep=k) for r, k, _ in found.exceptions)
        lines += ["", w("md.exceptions", list=listed or w("md.none")), ""]
    notes = {"rolls_left": "rolls still to come", "keep": "the pattern of the best keep",
             "probability": "chance that the first roll is one of these", "rolls": "the rolls"}
    return Section("opening_patterns", f"Opening by pattern ({table.rules.key})",
                   "\n".join(lines), records, notes)


# The sections of `kniffel tables`, in order: name -> builder(table) -> Section.
SECTIONS = {"opening": opening_section, "opening_patterns": pattern_section,
            "cheatsheet": cheatsheet_section, "box_by_turn": box_turn_section}


# ---------------------------------------------------------------------------------------------
# Writing


def build_sections(table, progress=False, lang=None):
    """Every Section of SECTIONS for `table`, the Markdown in `lang` (default: the pad's)."""
    names = list(SECTIONS)
    return [SECTIONS[name](table, lang) for name in tqdm(names, desc=f"tables {table.rules.key}",
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
        return (json.dumps(head, ensure_ascii=False)[:-1] + ', "records": [\n' + records
                + "\n]}\n").encode()
    raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")


def write_tables(table, directory, formats=("md",), progress=False, lang=None):
    """Write every section of `table` into `directory` in each format (the Markdown in `lang`,
    default the pad's language); returns the paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for section in build_sections(table, progress, lang):
        for fmt in formats:
            path = directory / f"{section.name}.{fmt}"
            _write(path, section_bytes(section, fmt, table.rules.key))
            paths.append(path)
    return paths


def _round(x):
    return round(float(x), DIGITS) + 0.0  # + 0.0: no "-0.0"


def _spoken_list(items, w):
    """[2, 1, 0] -> "2, 1 or 0" (in the words `w`)."""
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + w("md.or") + items[-1]


def _md_row(cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"
