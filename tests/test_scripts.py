"""Every script in scripts/ runs in the test suite at a tiny size, writing into a temporary folder
(never into the repository), so a refactor cannot leave one importing a name that no longer
exists.  check_setup.sh installs a virtualenv, so CI runs it (.ci/run); here only its syntax and
the README commands it reads are checked."""
import copy
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import solved
from helpers import load_script

from solver.presets import all_presets, read_rules

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
RESULTS = ROOT / "docs" / "results.md"
SCRIPTS = sorted(path.stem for path in (ROOT / "scripts").glob("*.py"))


def _stale_copy(source, folder, begin, end):
    """A copy of `source` in `folder` whose block between the markers is out of date."""
    text = source.read_text(encoding="utf-8")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    path = Path(folder) / source.name
    path.write_text(f"{head}{begin}\nstale\n{end}{tail}", encoding="utf-8")
    return path


def _solve_from_the_session(monkeypatch, target, rules):
    """Replace the solve function `target` by one that gives a copy (which a script may change)
    of the session's table of each of `rules`, so no table is solved twice."""
    tables = {table.rules: table for table in map(solved, rules)}
    monkeypatch.setattr(target, lambda r, progress=False: copy.copy(tables[read_rules(r)]))


def test_every_script_has_a_smoke_test():
    tests = [name for name in globals() if name.startswith("test_")]
    missing = [s for s in SCRIPTS + ["check_setup"]
               if not any(t.startswith(f"test_{s}") for t in tests)]
    assert not missing, f"scripts without a smoke test here: {missing}"


@pytest.mark.parametrize("name", SCRIPTS)
def test_each_script_imports_and_answers_help(name, capsys):
    script = load_script(name)
    with pytest.raises(SystemExit) as exit:
        script.main(["--help"])
    assert exit.value.code == 0
    assert "usage:" in capsys.readouterr().out


@pytest.mark.slow
def test_drill_positions_check_finds_the_shipped_file_current():
    """The drill's built-in positions are what scripts/drill_positions.py writes (60 seeded
    games: about 15 s)."""
    with pytest.raises(SystemExit) as exit:
        load_script("drill_positions").main(["--check"])
    assert exit.value.code == 0


def test_check_setup_parses_and_finds_the_two_set_up_commands():
    assert subprocess.run(["bash", "-n", str(ROOT / "scripts" / "check_setup.sh")]).returncode == 0
    text = README.read_text(encoding="utf-8")
    section = text.split("## Set-up: two commands\n", 1)[1].split("\n## ", 1)[0]
    assert re.findall(r"```sh\n(.*?)\n```", section, re.DOTALL) == [
        "pip install . && kniffel advise --dice 1,3,3,5,6 --rolls-left 2",
        'pip install -e ".[test]" && python -m pytest -q']


def test_duel_figures_writes_the_current_block(tmp_path):
    script = load_script("duel_figures")
    path = _stale_copy(RESULTS, tmp_path, script.BEGIN, script.END)
    with pytest.raises(SystemExit):
        script.main(["--check", "--out", str(path)])
    script.main(["--out", str(path)])
    assert path.read_text(encoding="utf-8") == RESULTS.read_text(encoding="utf-8")


def test_layout_figures_measures_the_package(capsys):
    """The one-door figures hold: one module reads a question, one function decides the
    fallback, one comparison with the upper-bonus threshold, no hasattr dispatch, nothing below
    the front ends imports the package root, at most one function ranks a goal's options."""
    script = load_script("layout_figures")
    script.main([])
    figures = json.loads(capsys.readouterr().out)
    assert figures["readme_lines"] == len(README.read_text().splitlines()) <= 400
    assert figures["modules"] > 50 and figures["edges"] > figures["modules"]
    assert figures["parsers_of_a_request"] == ["solver/ask/request.py"]
    assert figures["fallback_deciders"] == ["solver.ask.answer.answer"]
    assert figures["upper_bonus_crossings"] == [
        next(f for f in figures["upper_bonus_crossings"]
             if f.startswith("solver/rules/scoring.py"))]
    assert figures["hasattr_dispatches"] == [] == figures["package_root_imports_below_front_ends"]
    assert len(figures["functions_ranking_options"]) <= len(figures["goal_classes"])


def test_layout_figures_find_what_they_count(tmp_path):
    """The detectors see every spelling they count: a crossing through a name assigned from the
    threshold, a crossing of the kernels' params, a hasattr, a question read from a mapping,
    a caught Unanswerable (and not a value a called function returned)."""
    import ast
    script = load_script("layout_figures")
    source = tmp_path / "solver" / "mod.py"
    source.parent.mkdir()
    source.write_text(
        "def a(rules, upper):\n    need = rules.upper_bonus_threshold - upper\n"
        "    return need <= 0\n"
        "def b(params, u):\n    t = params[P_THRESHOLD]\n    return u >= t\n"
        "def c(x):\n    return hasattr(x, 'values')\n"
        "def d(fields):\n    return Query(fields['card'], fields.get('dice'))\n"
        "def e():\n    try:\n        pass\n    except Unanswerable:\n        pass\n"
        "def f(params, u):\n    up, bonus = enter_upper(u, 3, params[P_THRESHOLD], 35)\n"
        "    return up > 2\n")
    trees = {source: ast.parse(source.read_text())}
    script.ROOT = tmp_path
    crossings, _ = script._threshold_uses(trees)
    assert crossings == ["solver/mod.py:3", "solver/mod.py:6"]
    assert script._request_parsers(trees) == ["solver/mod.py"]
    assert script._fallback_deciders(trees) == ["solver.mod.e"]


def test_make_examples_writes_the_committed_game(tmp_path):
    script = load_script("make_examples")
    path = tmp_path / "game.json"
    script.main(["--out", str(path)])
    assert path.read_text(encoding="utf-8") == script.GAME.read_text(encoding="utf-8")
    path.write_text("{}", encoding="utf-8")
    with pytest.raises(SystemExit, match="stale"):
        script.main(["--check", "--out", str(path)])


def test_preset_table_writes_both_documents(tmp_path, monkeypatch, capsys):
    script = load_script("preset_table")
    _solve_from_the_session(monkeypatch, "solver.solve",
                            list(all_presets()) + script.variant_rules())
    sources = {RESULTS: (script.BEGIN, script.END), ROOT / "docs" / "rules.md":
               (script.VARIANTS_BEGIN, script.VARIANTS_END)}
    for source, (begin, end) in sources.items():
        _stale_copy(source, tmp_path, begin, end)
    with pytest.raises(SystemExit, match="out of date: results.md, rules.md"):
        script.main(["--check", "--out", str(tmp_path)])
    script.main(["--out", str(tmp_path)])
    for source in sources:
        assert ((tmp_path / source.name).read_text(encoding="utf-8")
                == source.read_text(encoding="utf-8"))
    assert "| `kniffel` |" in capsys.readouterr().out


def test_readme_figures_writes_the_set_up_block(tmp_path):
    script = load_script("readme_figures")
    path = _stale_copy(README, tmp_path, script.BEGIN, script.END)
    script.main(["--out", str(path)])
    assert path.read_text(encoding="utf-8") == README.read_text(encoding="utf-8")


def test_rule_prices_lists_the_stored_records(capsys):
    script = load_script("rule_prices")
    assert "kniffel" in script.page_presets() and "knobeln" not in script.page_presets()
    script.main(["--list", "kniffel", "yatzy"])
    assert capsys.readouterr().out.splitlines() == ["kniffel: current", "yatzy: current"]
    with pytest.raises(SystemExit):
        script.main(["knobeln"])  # no rules page: refused before any evaluation


def test_rules_of_thumb_writes_the_current_block(tmp_path):
    script = load_script("rules_of_thumb")
    path = _stale_copy(RESULTS, tmp_path, script.BEGIN, script.END)
    script.main(["--out", str(path)])
    assert path.read_text(encoding="utf-8") == RESULTS.read_text(encoding="utf-8")


def test_screenshots_builds_its_game_records():
    # the pictures need Chromium and pdftoppm (the slow test below); the records shown do not
    script = load_script("screenshots")
    turns = [((2, 2, 2, 2, 2), "kniffel"), ((1, 2, 3, 4, 6), "kniffel")]
    record = script._record(["Anna", "Ben"], turns)
    assert record["players"] == ["Anna", "Ben"] and len(record["turns"]) == 2
    assert [t["decisions"][-1]["points"] for t in record["turns"]] == [50, 0]


@pytest.mark.slow
@pytest.mark.skipif(not ((shutil.which("chromium") or shutil.which("chromium-browser"))
                         and shutil.which("pdftoppm")), reason="needs Chromium and pdftoppm")
def test_screenshots_writes_every_picture(tmp_path):
    load_script("screenshots").main(["--out", str(tmp_path)])
    written = sorted(path.name for path in tmp_path.glob("*.png"))
    # the script's own pictures (the Dice Duel's come from tests/test_duel_browser.py)
    assert written == sorted(path.name for path in (ROOT / "docs" / "screenshots").glob("*.png")
                             if path.name.startswith(("page-", "phone-")))


def test_ship_table_writes_and_checks_the_shipped_pair(tmp_path, monkeypatch, capsys):
    _solve_from_the_session(monkeypatch, "solver.solve", ["kniffel"])
    script = load_script("ship_table")
    script.main(["--out", str(tmp_path)])
    assert sorted(path.name for path in tmp_path.iterdir()) == ["kniffel.json", "kniffel.npy.gz"]
    script.main(["--out", str(tmp_path), "--check"])
    assert "kniffel: current, bit-identical" in capsys.readouterr().out
    script.main(["--check"])  # the committed pair, compared and not written
    assert "kniffel: current" in capsys.readouterr().out


def test_strategy_tables_checks_the_committed_tables(tmp_path, monkeypatch):
    # writing every table takes minutes (tests/test_strategy_tables.py compares them, slow);
    # here the index it writes, and its --check against a copy of tables/ and a changed one
    script = load_script("strategy_tables")
    _solve_from_the_session(monkeypatch, "solver.engine.backward.solve", script.PRESETS)
    tables = [solved(name) for name in script.PRESETS]
    assert script.index_markdown(tables) == (script.TABLES / "README.md").read_text()
    committed = script.TABLES
    monkeypatch.setattr(script, "generate", lambda directory, _: shutil.copytree(
        committed, directory, dirs_exist_ok=True))
    with pytest.raises(SystemExit) as exit:  # --check writes into a temporary folder only
        script.main(["--check"])
    assert exit.value.code == 0
    changed = tmp_path / "tables"
    shutil.copytree(committed, changed)
    (changed / "kniffel" / "opening.md").write_text("changed")
    monkeypatch.setattr(script, "TABLES", changed)
    with pytest.raises(SystemExit, match=r"out of date \(kniffel/opening.md\)"):
        script.main(["--check"])


def test_target_report_names_a_table_not_built(tmp_path, monkeypatch, capsys):
    # building a target table takes minutes: --saved-only in an empty store builds none
    monkeypatch.setenv("KNIFFEL_TABLES", str(tmp_path / "tables"))
    script = load_script("target_report")
    path = _stale_copy(RESULTS, tmp_path, script.BEGIN, script.END)
    script.main(["--saved-only", "--rules", "kniffel", "--games", "0", "--out", str(path)])
    text = path.read_text(encoding="utf-8")
    assert "Not built for this report: `kniffel`" in text and "stale" not in text
    head = RESULTS.read_text(encoding="utf-8").split(script.BEGIN)[0]
    assert text.startswith(head + script.BEGIN)
    assert "Not built" in capsys.readouterr().out


def test_win_report_writes_the_current_block(tmp_path):
    script = load_script("win_report")
    path = _stale_copy(RESULTS, tmp_path, script.BEGIN, script.END)
    script.main(["--out", str(path)])
    assert path.read_text(encoding="utf-8") == RESULTS.read_text(encoding="utf-8")
