"""Strategy tables (`kniffel tables`): committed files current, numbers as advise gives them,
hand-worked cheat-sheet costs, the value export."""
import csv
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from conftest import run, solved
from helpers import load_script

from solver import advise, dice
from solver.engine.states import Position, position_state
from solver.lang import Words
from solver.report.tables import SITUATIONS, box_costs, opening_advice, opening_section, situations
from solver.report.values import export_values, value_rows
from solver.rules import UPPER

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_committed_tables_are_current(tmp_path):
    script = load_script("strategy_tables")
    script.generate(tmp_path, [solved(name) for name in script.PRESETS])
    assert script.differences(tmp_path, ROOT / "tables") == [], "run scripts/strategy_tables.py"
    assert sum(p.stat().st_size for p in (ROOT / "tables").rglob("*")) < 3_000_000


def test_opening_is_what_advise_says():
    table = solved("kniffel")
    by_left = opening_advice(table)
    assert list(by_left) == [2, 1, 0]
    for left, advices in by_left.items():
        for r in range(0, dice.N_ROLLS, 5):
            assert advices[r].options == advise(Position(), table, dice.KEEPS[r], left).options


def test_opening_hand_worked():
    """kniffel-basic: 66666 on the first turn with no rolls left goes in the Kniffel box, worth 50
    plus the value of the card holding only kniffel=50 (looked up through the state index)."""
    table = solved("kniffel-basic")
    section = opening_section(table)
    rows = {row["roll"]: row for row in section.records}
    assert len(rows) == dice.N_ROLLS
    assert sum(row["probability"] for row in rows.values()) == pytest.approx(1, abs=1e-4)
    assert rows["11111"]["probability"] == round(1 / 6**5, 6)
    assert rows["12345"]["probability"] == round(120 / 6**5, 6)
    after = table.value(position_state(Position({"kniffel": 50}), table.rules))
    six = rows["66666"]
    assert six["best_0"] == "score kniffel 50"
    assert six["expected_0"] == round(50 + after, 6)
    options = advise(Position(), table, (2, 3, 4, 5, 6), 0).options
    big = rows["23456"]
    assert big["best_0"] == "score large_straight 40"
    assert (big["margin_0"]
            == round(options[0]["expected_final_score"] - options[1]["expected_final_score"], 6))
    assert big["margin_0"] > 0
    assert "| 66666 |" in section.markdown and f"{table.expected_score:.4f}" in section.markdown


def test_cheatsheet_costs_hand_worked():
    """Only ones and chance open, the bonus out of reach: the last two turns by hand.
    Chance alone: hold a die above the value of rolling it again: 3.5, then 4.25, then 14/3 a
    die, 70/3 for five.  Ones alone: each die shows a one within three rolls with 1 - (5/6)^3."""
    table = solved("kniffel-basic")
    card = {"twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6, "three_kind": 0,
            "four_kind": 0, "full_house": 0, "small_straight": 0, "large_straight": 0, "kniffel": 0}
    value = Fraction(7, 2)
    for _ in range(2):
        value = sum(max(Fraction(face), value) for face in range(1, 7)) / 6
    chance_only = 5 * value
    ones_only = 5 * (1 - Fraction(5, 6) ** 3)
    assert chance_only == Fraction(70, 3)
    sheet = box_costs(table, card)
    assert set(sheet.costs) == {"ones", "chance"}
    assert sheet.costs["ones"] == pytest.approx({p: 0.0 for p in range(5)}, abs=1e-9)
    assert sheet.costs["chance"] == pytest.approx({None: float(chance_only - ones_only)}, abs=1e-9)
    # Five of a kind, the Kniffel box being filled: 11111 in ones (5 + 70/3 > 5 + ones_only),
    # 66666 in chance (30 + ones_only > 0 + 70/3).
    assert sheet.five_of_a_kind[1] == "score ones 5"
    assert sheet.five_of_a_kind[6] == "score chance 30"
    assert sheet.expected_final_score == pytest.approx(20 + float(
        table.value(position_state(Position(card), table.rules))), abs=1e-12)


@pytest.mark.parametrize("name", ["kniffel", "yahtzee", "kniffel-basic", "yatzy"])
def test_cheatsheet_picks_the_best_box_for_every_roll(name):
    """Points - cost, largest wins: for every final roll on every card of the sheet, the box it
    picks is worth what advise's best option is, and advise's value - best net is one constant."""
    table = solved(name)
    rules = table.rules
    for _, card in SITUATIONS[rules.box_set]:
        sheet = box_costs(table, card)
        kniffel_open = rules.boxes[rules.kniffel_box] not in card
        offsets = []
        for r in range(dice.N_ROLLS):
            if dice.KNIFFEL_FACE[r] and not kniffel_open:
                continue
            net = {}
            for box, costs in sheet.costs.items():
                points = int(rules.plain_score[rules.boxes.index(box), r])
                net[box] = points - costs[None if None in costs else points]
            choice = max(net, key=net.get)
            options = advise(Position(card), table, dice.KEEPS[r], 0).options
            by_box = {o["box"]: o["expected_final_score"] for o in options}
            assert by_box[choice] == pytest.approx(options[0]["expected_final_score"], abs=1e-9)
            offsets.append(options[0]["expected_final_score"] - net[choice])
        assert max(offsets) - min(offsets) < 1e-9
        if not kniffel_open:
            assert sorted(sheet.five_of_a_kind) == list(range(1, 7))


def test_cheatsheet_markdown_shows_every_open_box():
    """The committed sheet of kniffel, in the pad's language (German): every open box by name."""
    table = solved("kniffel")
    words = Words("de", table.rules)
    text = (ROOT / "tables" / "kniffel" / "cheatsheet.md").read_text()
    for number, (title, card) in enumerate(situations(table.rules, "de"), 1):
        part = text.split(f"## {number}. {title}")[1].split("## ")[0]
        sheet = box_costs(table, card)
        for box in table.rules.boxes:
            assert (f"| {words.box(box)} |" in part) == (box not in card), (title, box)
        assert f"Erwartete Endpunktzahl {sheet.expected_final_score:.2f}." in part
        assert not any(f"| {box} |" in part for box in table.rules.boxes if "_" in box)


def test_value_export_round_trip(tmp_path):
    table = solved("kniffel-basic")
    rules = table.rules
    paths = export_values(table, tmp_path)
    assert [p.name for p in paths] == ["values.csv", "values.npy", "values.json"]
    header = json.loads(paths[2].read_text())
    rows = np.load(paths[1], allow_pickle=False)
    assert header["rows"] == len(rows) == table.states == 357_632
    assert header["boxes"] == list(rules.boxes)
    assert list(header["columns"]) == ["filled_mask", "open_boxes", "n_open", "upper_total",
                                       "expected_remaining"]
    rebuilt = np.full(table.values.shape, np.nan)
    rebuilt[rows["filled_mask"], 0, rows["upper_total"]] = rows["expected_remaining"]
    np.testing.assert_array_equal(rebuilt, table.values)
    with paths[0].open() as handle:
        records = list(csv.DictReader(handle))
    assert len(records) == table.states
    assert records[0]["open_boxes"] == " ".join(rules.boxes)
    assert float(records[0]["expected_remaining"]) == table.expected_score
    # Only chance open: the last turn is worth 70/3 whatever the upper total (no bonus in reach
    # below 63; at 63 the bonus is already on the card).
    chance_only = [r for r in records if r["open_boxes"] == "chance"]
    assert len(chance_only) == 1 + rules.upper_bonus_threshold - 0  # every upper total 0..63
    for record in chance_only:
        assert record["n_open"] == "1"
        assert float(record["expected_remaining"]) == pytest.approx(70 / 3, abs=1e-12)


@pytest.mark.parametrize("name, fields", [
    ("yahtzee", {"kniffel_fifty"}), ("kitkniff", {"kniffel_fifty", "bonus_deficit"}),
    ("knobeln", {"jokers_left"}), ("kniffel-basic", set())])
def test_value_rows_fields_rebuild_the_table(name, fields):
    table = solved(name)
    rules = table.rules
    rows = value_rows(table)
    base = {"filled_mask", "n_open", "upper_total", "expected_remaining"}
    assert set(rows.dtype.names) == base | fields
    aux = np.zeros(len(rows), dtype=np.int64)
    if "kniffel_fifty" in fields:
        aux += rows["kniffel_fifty"] * rules.n_deficit
    if "bonus_deficit" in fields:
        aux += rows["bonus_deficit"]
    if "jokers_left" in fields:
        aux += rows["jokers_left"].astype(np.int64) * rules.aux_block
    np.testing.assert_array_equal(table.values[rows["filled_mask"], aux, rows["upper_total"]],
                                  rows["expected_remaining"])
    assert len(rows) == table.states
    first = rows[(rows["filled_mask"] == 0) & (rows["upper_total"] == 0)]
    assert table.expected_score in first["expected_remaining"]



@pytest.mark.slow
def test_cli_writes_the_committed_tables(capsys, tmp_path, table_dir):
    solved("kniffel-basic").save(table_dir)
    code, out, _ = run(capsys, "tables", "--rules", "kniffel-basic", "--out", str(tmp_path),
                       "--format", "md", "--format", "json", "--json")
    assert code == 0
    written = json.loads(out)
    names = sorted(Path(w["path"]).name for w in written)
    assert names == ["box_by_turn.json", "box_by_turn.md", "cheatsheet.json", "cheatsheet.md",
                     "opening.json", "opening.md", "opening_patterns.json", "opening_patterns.md"]
    for entry in written:
        path = Path(entry["path"])
        assert path.parent == tmp_path / "kniffel-basic" and entry["bytes"] == path.stat().st_size
        assert path.read_bytes() == (ROOT / "tables" / "kniffel-basic" / path.name).read_bytes()


@pytest.mark.parametrize("args", [("tables", "--rules", "nope"), ("tables", "--format", "docx"),
                                  ("tables", "--format", "html", "--card", "nope=3")])
def test_cli_bad_input_is_one_line_exit_2(capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("kniffel: error:") and len(err.strip().splitlines()) == 1


def test_upper_boxes_in_the_sheet_are_by_dice_count():
    table = solved("yahtzee")
    sheet = box_costs(table, {})
    for box in UPPER:
        face = UPPER.index(box) + 1
        assert sorted(sheet.costs[box]) == [face * c for c in range(dice.DICE + 1)]


@pytest.mark.slow
def test_box_by_turn_section_is_the_exact_forward_pass():
    from solver.report.tables import box_turn_section
    table = solved("kniffel-basic")
    section = box_turn_section(table)
    n = table.rules.n_boxes
    assert len(section.records) == n * n
    by_turn = {}
    for record in section.records:
        by_turn.setdefault(record["turn"], []).append(record)
    for turn, records in by_turn.items():
        assert [r["rank"] for r in records] == list(range(1, n + 1))
        probabilities = [r["probability"] for r in records]
        assert probabilities == sorted(probabilities, reverse=True)
        assert sum(probabilities) == pytest.approx(1, abs=1e-5)
    for box in table.rules.boxes:
        assert (sum(r["probability"] for r in section.records if r["box"] == box)
                == pytest.approx(1, abs=1e-5))
    # Turn 1 again, by following advise's best option over every dice outcome in plain Python.
    first = {r["box"]: r["probability"] for r in by_turn[1]}
    for box, p in turn_one_by_advice(table).items():
        assert first[box] == pytest.approx(p, abs=2e-6), box


def turn_one_by_advice(table):
    """P(box filled in the first turn) when every decision is advise's first option."""
    from itertools import product

    def completions(keep):
        found = {}
        for faces in product(range(1, 7), repeat=dice.DICE - len(keep)):
            roll = tuple(sorted(keep + faces))
            found[roll] = found.get(roll, 0) + 6.0 ** -len(faces)
        return found

    mass = completions(())
    boxes = {}
    for left in (2, 1, 0):
        after = {}
        for roll, p in mass.items():
            best = advise(Position(), table, dice=roll, rolls_left=left).options[0]
            if best["action"] == "score":
                boxes[best["box"]] = boxes.get(best["box"], 0) + p
                continue
            for new, q in completions(tuple(best["keep"])).items():
                after[new] = after.get(new, 0) + p * q
        mass = after
    return boxes
