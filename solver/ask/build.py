"""The win coach's tables, built when a person asks for them and never before: the target table
(engine/target/) and the opponents' store (stats/opponents.py) of one rule set take gigabytes
and minutes, so the answer without them says what they would cost (offer) and the person
decides: `kniffel advise ... --build`, `kniffel solve --objective target`, or the page's button
(a job of the server, web/work.py).  Until then the win advice is an interval or, where even
that is over the budget, advice for points that says why (ask/answer.py).

- One build per rule set and store at a time: the builder holds NAME.target.lock (an exclusive
  lock on the file; a second builder finds it held and says "busy").
- It writes NAME.target.progress.json (atomically) as it goes: its pid, the stage, the share of
  the work done and the seconds to go, so that any asker (the page, another command) can say
  how far it is (status); a killed builder's file names a dead pid and is not read as a build.
- The target solve keeps a checkpoint of every finished level (engine/target/checkpoint.py):
  a killed build goes on from the last level it saved, and removes its checkpoint once the
  table is saved.  Every file is written as the store writes files (a temporary file renamed):
  nothing half-written is ever taken for a table.
"""
import json
import os
import time
from functools import lru_cache
from math import comb
from pathlib import Path

from ..engine.store import atomic_write, table_dir
from ..lang import LANGUAGES

BUILD_FIGURES = Path(__file__).resolve().parent.parent / "data" / "win_build.json"
PARTS = ("target", "opponents")  # what a build makes, in this order


def _paths(rules, directory=None):
    folder = table_dir(directory)
    return folder / f"{rules.key}.target.lock", folder / f"{rules.key}.target.progress.json"


def missing(rules, tables, parts=PARTS):
    """The `parts` (of PARTS) of `rules`' win tables that the store of the cache `tables` does
    not hold (or holds damaged): [] when the asker has all it needs.  The target table alone
    is looked for without the expected-score table."""
    from ..stats import opponents
    out = [] if "target" not in parts or tables.saved_target(rules) is not None else ["target"]
    if "opponents" in parts and opponents.get_store(tables(rules), tables.directory,
                                                    build_missing=False) is None:
        out.append("opponents")
    return out


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process: it exists
    return True


def status(rules, directory=None):
    """The build of `rules`' win tables under way in `directory`'s store, by any process:
    {"stage": "target" or "opponents", "fraction": 0-1, "eta_seconds": seconds to go or None
    (not known yet), "elapsed": seconds}; None when none is running."""
    _, progress = _paths(rules, directory)
    try:
        data = json.loads(progress.read_text(encoding="utf-8"))
        pid = int(data["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not _alive(pid):
        return None
    now = time.time()
    eta = data.get("eta_seconds")
    if isinstance(eta, (int, float)):  # counted from its last update
        eta = max(0.0, eta - (now - float(data.get("updated", now))))
    else:
        eta = None
    return {"stage": data.get("stage", "target"),
            "fraction": min(1.0, max(0.0, float(data.get("fraction", 0.0)))),
            "eta_seconds": eta, "elapsed": max(0.0, now - float(data.get("started", now)))}


@lru_cache(maxsize=1)
def _measured():
    try:
        return json.loads(BUILD_FIGURES.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"presets": {}, "threads": 1}


def _states(table):
    """The reachable turn-start states of an expected-score table (the work of each part grows
    with them and with the points a game can score)."""
    import numpy as np
    return int(np.isfinite(table.values).sum())


def offer(rules, tables, parts=PARTS):
    """What building `parts` of `rules`' win tables would cost, before it starts: {"rules",
    "title" (by language), "parts", "disk_bytes", "seconds", "basis"}, an estimate.  From the
    build of the same preset measured by benchmarks/win_build.py (solver/data/win_build.json),
    else scaled from the measured preset nearest in size by reachable states times the highest
    score (the work and the size of both grow with them); its seconds are for this machine's
    cores (the kernels share a level's work among them).  None when nothing was measured."""
    from ..engine.threads import default_threads
    from ..rules.bounds import score_bound
    measured = _measured()
    presets = measured.get("presets", {})
    size = _states(tables(rules)) * score_bound(rules)
    if rules.key in presets:
        base, scale, basis = presets[rules.key], 1.0, "measured"
    elif presets:
        base = min(presets.values(), key=lambda m: abs(m["size"] - size))
        scale, basis = size / base["size"], "scaled"
    else:
        return None
    cores = measured.get("threads", 1) / max(1, min(default_threads(), 64))
    title = {lang: rules.definition.titled(lang) for lang in LANGUAGES}
    return {"rules": rules.key, "title": title, "parts": list(parts),
            "disk_bytes": int(scale * sum(base[f"{part}_bytes"] for part in parts)),
            "seconds": scale * cores * sum(base[f"{part}_seconds"] for part in parts),
            "basis": basis}


class Progress:
    """What a builder writes to NAME.target.progress.json and tells `report` (fraction, eta):
    the target solve's levels, each weighted by its share of the work (C(n, k) filled-box sets
    of k open boxes, each about k times dearer), then the opponents' store."""

    def __init__(self, path, n_boxes, target_share, report=None):
        self.path, self.started, self.report = path, time.time(), report
        weights = [comb(n_boxes, k) * k for k in range(1, n_boxes + 1)]  # solved 1 open first
        total = sum(weights)
        self.done_after = [sum(weights[:i]) / total for i in range(len(weights) + 1)]
        self.target_share = target_share
        self.levels, self.first_level, self.level_started = 0, None, None

    def write(self, stage, fraction, eta):
        now = time.time()
        atomic_write(self.path, json.dumps({
            "pid": os.getpid(), "stage": stage, "fraction": fraction, "eta_seconds": eta,
            "started": self.started, "updated": now}).encode())
        if self.report is not None:
            self.report(stage, fraction, eta)

    def level(self):
        """The target solve's cancel check (engine/cancel.CANCEL): asked before each level it
        solves (a resumed solve starts above the levels it saved), it notes the levels done;
        never cancels."""
        now = time.time()
        done = self.done_after[min(self.levels, len(self.done_after) - 1)]
        if self.first_level is None:
            self.first_level, self.level_started = done, now
        self.levels += 1
        eta = None
        if done > self.first_level:  # the rate of this run's levels, the rest of the build
            rate = (now - self.level_started) / (done - self.first_level)
            eta = rate * (1 - done) + rate * (1 - self.target_share) / self.target_share
        self.write("target", self.target_share * done, eta)
        return False

    def skip(self, levels):
        """Levels a resumed solve finds saved: counted as done."""
        self.levels = min(levels, len(self.done_after) - 1)


def build(rules, tables, parts=None, report=None):
    """Build what is missing of `rules`' win tables (`parts`, default every one missing) in the
    store of the cache `tables`, writing the progress file as it goes and calling
    report(stage, fraction, eta_seconds): "built", "present" (nothing missing) or "busy"
    (another builder holds the lock).  Interrupted, it leaves its checkpoint (the next build
    goes on from it) and no temporary file."""
    from ..engine.cancel import CANCEL
    from ..engine.target.checkpoint import remove_checkpoint
    from ..engine.target.solve import solve_target
    from ..stats import opponents
    directory = tables.directory
    lock_path, progress_path = _paths(rules, directory)
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    lock = _Lock(lock_path)
    if not lock.acquire():
        return "busy"
    try:
        todo = missing(rules, tables) if parts is None else list(parts)
        if not todo:
            return "present"
        measured = offer(rules, tables, PARTS) or {}
        share = _target_share(rules)
        progress = Progress(progress_path, rules.n_boxes, share if "target" in todo else 0.0,
                            report)
        progress.write(todo[0], 0.0, measured.get("seconds"))
        expected = tables(rules)
        if "target" in todo:
            progress.skip(_levels_saved(rules, directory))
            token = CANCEL.set(progress.level)
            try:
                target = solve_target(rules, progress=False, expected=expected.values,
                                      checkpoint=table_dir(directory))
            finally:
                CANCEL.reset(token)
            target.save(directory)
            remove_checkpoint(rules, directory)
            tables.forget("target", rules)
        if "opponents" in todo:
            spent = time.time() - progress.started
            progress.write("opponents", progress.target_share,
                           spent * (1 - share) / share if "target" in todo else None)
            opponents.save(opponents.build(expected, progress=False), directory)
        progress.write("done", 1.0, 0.0)
        return "built"
    finally:
        progress_path.unlink(missing_ok=True)
        lock.release()


def _levels_saved(rules, directory):
    """The levels a resumed target solve will find in its checkpoint (the last, as solved, is
    not counted: it is one of them)."""
    from ..engine.store import table_paths
    from ..engine.target.checkpoint import level_artifact
    return sum(all(p.exists() for p in table_paths(rules, directory, level_artifact(level)))
               for level in range(rules.n_boxes))


def _target_share(rules):
    """The target table's share of a whole build's time (measured; a half where not)."""
    presets = _measured().get("presets", {})
    found = presets.get(rules.key) or next(iter(presets.values()), None)
    if not found:
        return 0.5
    return found["target_seconds"] / (found["target_seconds"] + found["opponents_seconds"])


class _Lock:
    """An exclusive lock on `path` while held (flock; where there is none, a file made
    exclusively, removed on release)."""

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


def building_text(words, building):
    """The line that says how far a build is (status()'s dict) in `words`' language."""
    eta = building.get("eta_seconds")
    done = int(100 * building["fraction"])  # whole percent: a build's progress, not a chance
    done = f"{done} %" if words.lang == "de" else f"{done}%"
    if eta is None:
        return words("build.under_way", done=done)
    return words("build.under_way_eta", done=done, eta=duration_text(words, eta))


def duration_text(words, seconds):
    """`seconds` as a person says it: "40 s", "3 min", "2 h 10 min"."""
    if seconds < 90:
        return words("eta.seconds", n=max(10, int(round(seconds / 10.0)) * 10))
    minutes = int(round(seconds / 60.0))
    if minutes < 120:
        return words("eta.minutes", n=minutes)
    return words("eta.hours", h=minutes // 60, m=minutes % 60)


def size_text(words, n_bytes):
    """A size on disk as a person says it: "640 MB", "1.6 GB" ("1,6 GB" in German)."""
    if n_bytes >= 1e9:
        text = f"{n_bytes / 1e9:.1f} GB"
    else:
        text = f"{max(1, round(n_bytes / 1e6))} MB"
    return text.replace(".", ",") if words.lang == "de" else text


def offer_text(words, offer):
    """The line that offers the build (offer()'s dict), in `words`' language."""
    return words("build.offer", title=offer["title"][words.lang],
                 size=size_text(words, offer["disk_bytes"]),
                 time=duration_text(words, offer["seconds"]))


def tables_text(words, advice):
    """The line on the win coach's tables of an advice: how far their build is, or what it
    would cost (None when they are there)."""
    if advice.building is not None:
        return building_text(words, advice.building)
    if advice.offer is not None:
        return offer_text(words, advice.offer)
    return None

