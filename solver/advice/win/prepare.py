"""The win coach's tables built in the background: the target table and the opponents' store of
a rule set take minutes on a fresh install, and until they are there the win advice is an
interval (advice/win/coach.py).  `kniffel serve` starts a build of the presets it serves at
start-up, `kniffel advise --opponent` and `kniffel play --goal win` when they find the tables
missing; each says how far the build is and when the exact advice will be ready (status).

The build runs in a process of its own (`python -m solver.advice.win.prepare KEY ...`): its
kernels hold the GIL-free cores for minutes, and a server's requests must not wait for them.
- One builder per rule set and store: it holds NAME.target.lock (an exclusive lock on the
  file; a second builder finds it held and leaves).
- It writes NAME.target.progress.json (atomically) as it goes: its pid, the stage, the share
  of the work done and the seconds to go (from the levels solved so far, each weighted by its
  share of the work: C(n, k) filled-box sets of k open boxes, each about k times dearer).
- The tables are saved as every artifact is (engine/store.py: a temporary file renamed, the
  header last, checksums checked at load), so an interrupted build leaves nothing half-written
  that a load would take for a table; a killed builder's progress file names a dead pid and is
  not read as a build under way.
"""
import json
import os
import subprocess
import sys
import time
from math import comb

from ...engine.store import TableError, atomic_write, table_dir

TARGET_SHARE = 0.9  # of the whole build: the target table (the opponents' store the rest)
NO_PREPARE = "KNIFFEL_NO_PREPARE"  # set (to anything): no build is started (tests, scripts)


def _paths(rules, directory=None):
    folder = table_dir(directory)
    return folder / f"{rules.key}.target.lock", folder / f"{rules.key}.target.progress.json"


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # another user's process: it exists
    return True


def status(rules, directory=None):
    """The build of `rules`' win tables under way in `directory`'s store: {"stage": "target" or
    "opponents", "fraction": 0-1, "eta_seconds": seconds to go or None (not known yet),
    "elapsed": seconds}; None when no build is running (none started, or its process is gone)."""
    _, progress = _paths(rules, directory)
    try:
        data = json.loads(progress.read_text(encoding="utf-8"))
        pid = int(data["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not _alive(pid):
        return None
    elapsed = max(0.0, time.time() - float(data.get("started", time.time())))
    fraction = min(1.0, max(0.0, float(data.get("fraction", 0.0))))
    eta = data.get("eta_seconds")
    if isinstance(eta, (int, float)):  # counted from its last update
        eta = max(0.0, eta - (time.time() - float(data.get("updated", time.time()))))
    else:
        eta = None
    return {"stage": data.get("stage", "target"), "fraction": fraction, "eta_seconds": eta,
            "elapsed": elapsed}


def building_text(words, building):
    """The line that says how far a build is (status()'s dict) in `words`' language."""
    eta = building.get("eta_seconds")
    if eta is None:
        return words("advise.building_started")
    eta = (words("eta.seconds", n=max(10, int(round(eta / 10.0)) * 10)) if eta < 90
           else words("eta.minutes", n=int(round(eta / 60.0))))
    done = int(100 * building["fraction"])  # whole percent: a build's progress, not a chance
    return words("advise.building", done=f"{done} %" if words.lang == "de" else f"{done}%", eta=eta)


def store_directory(table):
    """The table store the expected-score `table` was loaded from (None: the default one, also
    for the table shipped in the package, whose other tables live in the default store)."""
    from pathlib import Path

    from ...engine.values import SHIPPED_DIR
    path = getattr(table, "path", None)
    if not path or Path(path).parent == SHIPPED_DIR:
        return None
    return Path(path).parent


def building_line(words, table, building=None):
    """building_text of the build under way for the rules of `table` (the expected-score table;
    its status unless `building` gives it), or None when none runs."""
    building = building or status(table.rules, store_directory(table))
    return None if building is None else building_text(words, building)


def tables_missing(rules, directory=None):
    """Whether the target table or the opponents' store of `rules` is missing (or fails its
    checks) in the store."""
    from ...engine.target.table import load_target_table
    from ...engine.values import load_table
    from ...stats import opponents
    try:
        load_target_table(rules, directory)
        expected = load_table(rules, directory)
    except TableError:
        return True
    return opponents.load(expected, directory) is None


def start(rule_sets, directory=None):
    """Start one background builder for the win tables of `rule_sets` (Rules of presets), built
    in turn, unless KNIFFEL_NO_PREPARE is set or a build of the first is running already: the
    Popen, or None.  It builds only what is missing, and leaves when another builder holds a
    rule set's lock."""
    keys = [r.key for r in rule_sets if r.preset == r.key]  # presets: named on a command line
    if not keys or os.environ.get(NO_PREPARE) or status(rule_sets[0], directory) is not None:
        return None
    command = [sys.executable, "-m", "solver.advice.win.prepare", *keys]
    if directory is not None:
        command += ["--tables", str(directory)]
    try:
        return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True,
                                env={**os.environ, "PYTHONPATH": _package_root()})
    except OSError:
        return None


def _package_root():
    """This package's folder on the child's path first (a checkout run with PYTHONPATH)."""
    from pathlib import Path
    root = str(Path(__file__).resolve().parents[3])
    rest = os.environ.get("PYTHONPATH")
    return root + (os.pathsep + rest if rest else "")


def ensure(rules, directory=None):
    """The build's status for a caller that found the win tables of `rules` missing: a running
    build's, else one started now (a preset's; None when none can be)."""
    found = status(rules, directory)
    if found is None and start([rules], directory) is not None:
        found = {"stage": "target", "fraction": 0.0, "eta_seconds": None, "elapsed": 0.0}
    return found


class _Lock:
    """An exclusive lock on `path` held while the object lives (flock; where there is none, a
    file made exclusively, removed on release)."""

    def __init__(self, path):
        self.path, self.handle = path, None

    def acquire(self):
        try:
            import fcntl
        except ImportError:  # no flock: the file itself is the lock
            try:
                os.close(os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                self.handle = True
                return True
            except FileExistsError:
                return False
        handle = open(self.path, "a+b")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self.handle = handle
        return True

    def release(self):
        if self.handle is True:
            self.path.unlink(missing_ok=True)
        elif self.handle is not None:
            self.handle.close()  # the lock goes with the descriptor
        self.handle = None


class Progress:
    """What the builder writes to NAME.target.progress.json (module docstring)."""

    def __init__(self, path, n_boxes):
        self.path, self.started = path, time.time()
        weights = [comb(n_boxes, k) * k for k in range(1, n_boxes + 1)]  # solved 1 open first
        total = sum(weights)
        self.done_after = [sum(weights[:i]) / total for i in range(len(weights) + 1)]
        self.levels = 0
        self.target_started = None

    def write(self, stage, fraction, eta):
        now = time.time()
        atomic_write(self.path, json.dumps({
            "pid": os.getpid(), "stage": stage, "fraction": fraction, "eta_seconds": eta,
            "started": self.started, "updated": now}).encode())

    def level(self):
        """The target solve's cancel check (engine/backward.CANCEL): asked before each level,
        it notes the levels done; never cancels."""
        now = time.time()
        if self.target_started is None:
            self.target_started = now
        done = self.done_after[min(self.levels, len(self.done_after) - 1)]
        self.levels += 1
        eta = None
        if done > 0:
            spent = now - self.target_started
            eta = spent / done * (1 - done) + spent / done * (1 - TARGET_SHARE) / TARGET_SHARE
        self.write("target", TARGET_SHARE * done, eta)
        return False


def build(rules, directory=None):
    """Build what is missing of `rules`' win tables in the store, writing the progress file as
    it goes: "built", "present" (nothing missing) or "busy" (another builder holds the lock)."""
    from ...engine import backward
    from ...engine.target.solve import solve_target
    from ...engine.target.table import load_target_table
    from ...stats import opponents
    lock_path, progress_path = _paths(rules, directory)
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    lock = _Lock(lock_path)
    if not lock.acquire():
        return "busy"
    try:
        if not tables_missing(rules, directory):
            return "present"
        progress = Progress(progress_path, rules.n_boxes)
        progress.write("target", 0.0, None)
        expected = _expected_table(rules, directory)
        try:
            load_target_table(rules, directory)
        except TableError:
            token = backward.CANCEL.set(progress.level)
            try:
                target = solve_target(rules, progress=False, expected=expected.values)
            finally:
                backward.CANCEL.reset(token)
            target.save(directory)
        spent = time.time() - (progress.target_started or progress.started)
        progress.write("opponents", TARGET_SHARE, spent * (1 - TARGET_SHARE) / TARGET_SHARE)
        if opponents.load(expected, directory) is None:
            opponents.save(opponents.build(expected, progress=False), directory)
        return "built"
    finally:
        progress_path.unlink(missing_ok=True)
        lock.release()


def _expected_table(rules, directory):
    """The expected-score table of `rules` in the store, solved and saved first when missing."""
    from ...engine.backward import solve
    from ...engine.values import load_table
    try:
        return load_table(rules, directory)
    except TableError:
        table = solve(rules, progress=False)
        table.save(directory)
        return table


def main(argv=None):
    """`python -m solver.advice.win.prepare KEY ... [--tables DIR]`: build each preset's win
    tables in turn (the background builder start() runs)."""
    import argparse

    from ...presets import read_rules
    parser = argparse.ArgumentParser(description="build the win coach's tables of these presets")
    parser.add_argument("presets", nargs="+")
    parser.add_argument("--tables")
    args = parser.parse_args(argv)
    os.environ.pop(NO_PREPARE, None)
    try:
        os.nice(10)  # in the background: a server's requests and the player's own work first
    except (AttributeError, OSError):
        pass
    for key in args.presets:
        try:
            build(read_rules(key), args.tables)
        except Exception as exc:  # noqa: BLE001 - one rule set failing leaves the others to build
            print(f"kniffel: building the win tables of {key} failed: {exc}", file=sys.stderr)


if __name__ == "__main__":
    main()
