import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # tests/reference.py

from solver.rules import PRESETS
from solver.presets import resolve_rules  # noqa: E402

_SOLVED = {}


def solved(rules):
    """The solved table of `rules` (a name or Rules), solved once per test session."""
    from solver import solve  # the scorecard games or the Dice Duel
    rules = resolve_rules(rules)
    if rules not in _SOLVED:
        _SOLVED[rules] = solve(rules, progress=False)
    return _SOLVED[rules]


def run(capsys, *args):
    """Run the kniffel CLI in-process; returns (exit code, stdout, stderr)."""
    from solver.cli import main
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(params=list(PRESETS))
def preset(request):
    return request.param


@pytest.fixture
def table_dir(tmp_path, monkeypatch):
    """An empty table store, also set as KNIFFEL_TABLES for subprocesses."""
    monkeypatch.setenv("KNIFFEL_TABLES", str(tmp_path / "tables"))
    return tmp_path / "tables"


@pytest.fixture(scope="session")
def kniffel_opponents(tmp_path_factory):
    """A folder holding kniffel's opponents' store, built once per session (about 20 s): the
    tests that only use the store copy it instead of building it again."""
    from solver.stats.opponents import build, save
    folder = tmp_path_factory.mktemp("opponents")
    save(build(solved("kniffel")), folder)
    return folder


@pytest.fixture
def table_dir_with_opponents(table_dir, kniffel_opponents):
    """The table store of `table_dir` holding kniffel's opponents' store."""
    import shutil
    shutil.copytree(kniffel_opponents, table_dir, dirs_exist_ok=True)
    return table_dir


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """One headless Chromium a test module, with a fresh profile (tests/browser.py)."""
    from browser import chromium
    with chromium(tmp_path_factory.mktemp("chromium")) as context:
        yield context
