"""The tables of solved values in README.md and docs/rules.md are what scripts/preset_table.py
computes now."""
from pathlib import Path

import pytest
from conftest import solved
from helpers import load_script

from solver.presets import all_presets

ROOT = Path(__file__).resolve().parent.parent


def test_readme_preset_table_is_current():
    script = load_script("preset_table")
    block = script.table_markdown([solved(name) for name in all_presets()])
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert script.replace_block(readme, block) == readme, "run scripts/preset_table.py"
    assert "| `yahtzee` |" in block and "254.5877287" in block


def test_variant_tables_are_current():
    script = load_script("preset_table")
    presets = {name: solved(name) for name in all_presets()}
    variants = [solved(rules) for rules in script.variant_rules()]
    block = script.variants_markdown(variants, presets)
    for path in (ROOT / "README.md", ROOT / "docs" / "rules.md"):
        text = path.read_text(encoding="utf-8")
        assert script.VARIANTS_BEGIN in text, f"{path.name} lacks the variant table"
        assert script.replace_block(text, block, script.VARIANTS_BEGIN, script.VARIANTS_END) == text, \
            f"{path.name}: run scripts/preset_table.py"
    strict = variants[0]
    assert strict.rules.preset == "kniffel-championship" and strict.rules.extra_kniffel_must_fit
    assert f"{strict.expected_score:.7f}" in block
    # forbidding some scratches can only cost, and costs little: a further Kniffel is rare
    change = strict.expected_score - presets["kniffel-championship"].expected_score
    assert -0.01 < change < 0
    # published values (tests/test_published.py): Holderied's program, +100 without a joker
    assert variants[1].expected_score == pytest.approx(245.904728, abs=1e-6)
    assert variants[2].expected_score == pytest.approx(253.9702412, abs=1e-6)


def test_the_win_report_is_what_the_benchmarks_measured():
    # every figure of "Playing to win" comes from benchmarks/results/ through the script
    script = load_script("win_report")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = script.block()
    assert script.replace_block(readme, block) == readme, "run python scripts/win_report.py"
    assert "| `yatzy` | 2 | 2 of 2 |" in block and "standard errors above" in block
