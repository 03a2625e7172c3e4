import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # tests/reference.py

# Nothing of the user's: before any module of the package is imported (the kernel cache is
# chosen at import), every test process works in a table store and a history of its own (a
# temporary folder, gone with the session's other temporaries), reads no preset of the user's
# own, and caches the compiled kernels beside the checkout (.pytest_cache/, git ignores it),
# which later runs reuse: a fresh kernel cache would compile every kernel again, minutes a run.
_ROOT = Path(__file__).resolve().parent.parent
_SESSION = Path(tempfile.mkdtemp(prefix="kniffel-tests-"))
atexit.register(shutil.rmtree, _SESSION, ignore_errors=True)
os.environ["KNIFFEL_TABLES"] = str(_SESSION / "tables")
os.environ["KNIFFEL_PRESETS"] = str(_SESSION / "presets")  # empty: the built-in presets only
os.environ["KNIFFEL_DB"] = str(_SESSION / "history.sqlite")  # the games played by the tests
os.environ.setdefault("KNIFFEL_KERNEL_CACHE", str(_ROOT / ".pytest_cache" / "kniffel-kernels"))
os.environ.pop("NUMBA_CACHE_DIR", None)

from solver.presets import read_rules  # noqa: E402
from solver.rules import PRESETS  # noqa: E402

_SOLVED = {}

def solved(rules):
    """The solved table of `rules` (a name or Rules), solved once per test session."""
    from solver import solve  # the scorecard games or the Dice Duel
    rules = read_rules(rules)
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


@pytest.fixture(scope="session")
def web_kernels(tmp_path_factory):
    """The win coach's and the Dice Duel's kernels compiled (or loaded from the cache) once per
    session and marked ready (ask/warm.py), as a first win or duel request to `kniffel serve`
    has them compiled by a job: a browser test's page then gets its answer, not the job."""
    from solver.ask.tables import Tables
    from solver.ask.warm import warm
    tables = Tables(tmp_path_factory.mktemp("warm-up"))
    for feature in ("win", "duel"):
        warm(feature, tables)


@pytest.fixture(scope="module")
def browser(tmp_path_factory, web_kernels):
    """One headless Chromium a test module, with a fresh profile (tests/browser.py)."""
    from browser import chromium
    with chromium(tmp_path_factory.mktemp("chromium")) as context:
        yield context


_FORWARD = {}


@pytest.fixture(autouse=True, scope="session")
def shared_empty_card_forward_passes():
    """The forward pass of a table from the empty card (seconds to half a minute, 0.1-0.3 GB),
    followed once per session and shared, as `solved` shares the tables: the distribution, the
    strategy tables, the pages and the opponents' store all start from it."""
    from solver.engine.states import Position
    from solver.stats import distribution, opponents
    original = distribution.forward

    def forward(table, position=None, threads=None, progress=False, settled=None):
        if position is not None and position != Position() or settled is not None:
            return original(table, position, threads, progress, settled)
        key = (table.rules, table.expected_score)
        if key not in _FORWARD:
            _FORWARD[key] = original(table, position, threads, progress)
        return _FORWARD[key]

    distribution.forward = opponents.forward = forward
    yield
    distribution.forward = opponents.forward = original
    _FORWARD.clear()
