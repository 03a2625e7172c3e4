"""README.md is short and its links resolve; the report tables of docs/results.md (and the variant
table of docs/rules.md) are what the scripts compute now."""
import re
from pathlib import Path

import pytest
from conftest import solved
from helpers import load_script

from solver.presets import all_presets

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results.md"
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchor(heading):
    """The anchor a Markdown renderer (GitHub's) gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_readme_is_short_with_only_the_set_up_figures_generated():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 400
    assert re.findall(r"<!-- ([\w-]+):begin", readme) == ["setup-figures"]
    assert "## Contents" in readme.split("## Set-up: two commands")[0]


@pytest.mark.parametrize("name", ["README.md", "docs/results.md", "docs/reference.md"])
def test_every_relative_link_resolves(name):
    path = ROOT / name
    links = LINK.findall(path.read_text(encoding="utf-8"))
    assert links
    for link in links:
        if link.startswith(("http://", "https://")):
            continue
        target, _, anchor = link.partition("#")
        target = (path.parent / target).resolve() if target else path
        assert target.exists(), f"{name}: {link} does not exist"
        if anchor:
            headings = re.findall(r"^#+ (.+)$", target.read_text(encoding="utf-8"), re.MULTILINE)
            assert anchor in {_anchor(h) for h in headings}, f"{name}: no heading for {link}"


def test_preset_table_is_current():
    script = load_script("preset_table")
    block = script.table_markdown([solved(name) for name in all_presets()])
    results = RESULTS.read_text(encoding="utf-8")
    assert script.replace_block(results, block) == results, "run scripts/preset_table.py"
    assert "| `yahtzee` |" in block and "254.5877287" in block


def test_variant_tables_are_current():
    script = load_script("preset_table")
    presets = {name: solved(name) for name in all_presets()}
    variants = [solved(rules) for rules in script.variant_rules()]
    block = script.variants_markdown(variants, presets)
    for path in (RESULTS, ROOT / "docs" / "rules.md"):
        text = path.read_text(encoding="utf-8")
        assert script.VARIANTS_BEGIN in text, f"{path.name} lacks the variant table"
        assert script.replace_block(text, block, script.VARIANTS_BEGIN,
                                    script.VARIANTS_END) == text, \
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
    results = RESULTS.read_text(encoding="utf-8")
    block = script.block()
    assert script.replace_block(results, block) == results, "run python scripts/win_report.py"
    assert "| `yatzy` | 2 | 2 of 2 |" in block and "standard errors above" in block
