"""Rules of thumb: a stored derived list scores what an exact evaluation gives now (the whole game,
and a sub-game against plain Python), the table of docs/results.md is the script's, the print-ready
pages (language, A4, the user's card), the opening by pattern covers every first roll with advise's
best keep."""
import json
from pathlib import Path

import pytest
from conftest import run, solved
from helpers import load_script

from solver import advise, dice
from solver.engine.states import Position
from solver.lang import Words
from solver.report.pages import page_html
from solver.report.tables import opening_advice
from solver.stats.simulate import simulate
from solver.strategy.derive import MAX_PRINTED
from solver.strategy.heuristic import heuristic
from solver.strategy.opening import PATTERN_ORDER, _pattern_keep, opening_patterns
from solver.strategy.policy_eval import evaluate
from solver.strategy.rule_prices import printed_rule_list, stored_prices
from solver.strategy.thumb import RuleList

ROOT = Path(__file__).resolve().parent.parent


def test_results_block_is_current():
    script = load_script("rules_of_thumb")
    results = script.RESULTS_DOC.read_text()
    assert script.replace_block(results, script.results_block(script.records())) == results, \
        "run scripts/rules_of_thumb.py"
    assert script.PLOT.is_file()


@pytest.mark.slow
def test_a_stored_list_scores_its_exact_value_now():
    """kniffel-basic: the stored list, the sensible human's list and a point of the curve's
    ladder, evaluated again from the empty card."""
    table = solved("kniffel-basic")
    rule_list = printed_rule_list(table.rules)
    record = stored_prices(table.rules, rule_list)
    assert rule_list.size <= MAX_PRINTED
    assert record["optimal"] == table.expected_score
    assert evaluate(table, rule_list) == pytest.approx(record["score"], abs=1e-9)
    heur = heuristic(table.rules)
    assert RuleList.from_dict(heur.as_dict()) == heur
    assert evaluate(table, heur) == pytest.approx(record["heuristic"]["score"], abs=1e-9)
    assert (record["greedy"]["score"] < record["heuristic"]["score"] < record["score"]
            < table.expected_score)


def test_stored_greedy_is_the_seeded_simulation():
    table = solved("kniffel-basic")
    greedy = stored_prices(table.rules, printed_rule_list(table.rules))["greedy"]
    games = simulate(table, greedy["games"], seed=greedy["seed"], strategy="greedy")
    assert games.mean == pytest.approx(greedy["score"], abs=1e-9)


def test_opening_patterns_cover_every_roll_with_the_best_keep():
    table = solved("kniffel")
    by_left = opening_advice(table)
    for left in (2, 1):
        found = opening_patterns(by_left, left)
        total = sum(g.probability for g in found.groups) + sum(p for *_, p in found.exceptions)
        assert total == pytest.approx(1, abs=1e-12)
        assert sum(len(g.rolls) for g in found.groups) + len(found.exceptions) == dice.N_ROLLS
        probabilities = [g.probability for g in found.groups]
        assert probabilities == sorted(probabilities, reverse=True)
        labels = {Words("en")(f"opening.{pattern}.{arg}"): (pattern, arg)
                  for pattern, arg in PATTERN_ORDER}
        for group in found.groups:
            pattern, arg = labels[group.label]
            for text, _ in group.rolls[:5]:
                roll = tuple(int(c) for c in text)
                best = advise(Position(), table, roll, left).options[0]
                kept = roll if best["action"] == "score" else tuple(best["keep"])
                assert _pattern_keep(pattern, arg, roll) == kept
    # 2 rolls left, one pair and nothing else worth more: the pair group is the largest
    assert opening_patterns(by_left, 2).groups[0].label == "keep the (higher) pair"


def test_pages_language_and_layout():
    german = page_html(solved("kniffel"))
    english = page_html(solved("yahtzee"))
    for text in (german, english):
        assert "@page { size: A4" in text and text.count("<section class='page'>") >= 3
        assert "http" not in text.replace("http://www.w3.org/2000/svg", "")  # nothing external
    assert "Große Straße" in german and "Faustregeln: Kniffel</h1>" in german
    assert "Large Straight" not in german and "Rules of thumb: Yahtzee</h1>" in english
    assert "Large Straight" in english and "Große Straße" not in english


def test_cli_html_for_a_card(capsys, tmp_path, table_dir):
    solved("kniffel").save(table_dir)
    code, out, _ = run(capsys, "tables", "--format", "html", "--card", "ones=3,twos=6,kniffel=50",
                       "--out", str(tmp_path), "--json")
    assert code == 0
    written = [Path(w["path"]) for w in json.loads(out)]
    assert [p.name for p in written] == ["strategy.html"]
    text = written[0].read_text()
    # rules and prices, opening (2 and 1 left), the card
    assert text.count("<section class='page'>") == 5
    assert "Einser 3, Zweier 6, Kniffel 50" in text


def test_cli_pdf(capsys, tmp_path, table_dir):
    from solver.report.pdf import chromium
    solved("kniffel-basic").save(table_dir)
    code, out, err = run(capsys, "tables", "--rules", "kniffel-basic", "--format", "pdf",
                         "--card", "", "--out", str(tmp_path), "--json")
    if chromium() is None:
        assert code == 1 and err.startswith("kniffel: error: PDF needs Chromium")
        return
    assert code == 0
    pdf = tmp_path / "kniffel-basic" / "strategy.pdf"
    assert pdf.read_bytes()[:5] == b"%PDF-"
    assert not (tmp_path / "kniffel-basic" / "strategy.html").exists()
