"""Checkpoints of a whole-game target solve (solve_target(checkpoint=DIRECTORY) in
engine/target/solve.py): each level (the number of filled boxes) is saved as it is finished, so
a killed build resumes from the last level it saved instead of starting again.

Every file is an artifact of the table store (engine/store.py: atomic writes, checksums, the
rules and the package version checked, damaged files refused), in the checkpoint directory:
- NAME.target-level-K.bin/.json for level K: its (W, E) in the dtype the finished table keeps
  them in (float32 for the whole game: engine/target/solve.py), its states' offset, span and
  base, its sets' length and width, and the rounding so far (the most the levels above it moved
  when kept in float32).  Written once, when K is finished: a level's own data only.
- NAME.target-next.bin/.json: the (W, E) of the last finished level as solved (float64), which
  the next level reads (a level solved from float32 values would not be the same to the bit);
  replaced after each level, so the checkpoint holds one level in float64 only.  (A solve
  that keeps its levels in float64 saves them so and needs no target-next.)
Each header also names the expected values (a digest), the tie rule and the kept dtype the
levels were solved with; a file made with others is not used.

A resume uses the levels from the full card down to the one target-next holds, each passing
every check; if one of them fails (a damaged file is never trusted), nothing is used and every
level is solved again (no level can be solved again from another's float32 values).  An
interrupted save leaves no temporary file (store.atomic_write removes it; one a SIGKILL left is
swept by a later save).  The files stay until remove_checkpoint, which the caller calls once
the whole table is saved."""
import hashlib

import numpy as np

from ..objective import sets_by_level
from ..store import Artifact, TableError, load_arrays, save_arrays, table_paths

COMMAND = "kniffel solve --objective target --rules {key}"
NEXT = Artifact("target-next", "target solve checkpoint (last level)", COMMAND)
STATE_ARRAYS = ("offset", "span", "base")  # TargetValues arrays, one entry per state
SET_ARRAYS = ("length", "width")  # TargetValues arrays, one entry per filled-box set


def level_artifact(level):
    """The store artifact of the checkpoint of level `level` (its number of filled boxes)."""
    return Artifact(f"target-level-{level}", f"target solve checkpoint (level {level})", COMMAND)


def checkpoint_fields(expected, tie_break, kept):
    """The header fields a checkpoint is used with only: a digest of the expected values (E
    where every option ties), the tie rule and the dtype finished levels are kept in."""
    expected = np.ascontiguousarray(expected)
    digest = hashlib.sha256(f"{expected.dtype.str} {expected.shape}".encode())
    digest.update(expected.reshape(-1).view(np.uint8))
    return {"expected_sha256": digest.hexdigest(), "tie_break": bool(tie_break),
            "kept": np.dtype(kept).str}


def _states(values, sets):
    """The state indexes of the filled-box sets `sets`, set after set."""
    first, count = values.set_first[sets], values.set_count[sets]
    before = np.cumsum(count) - count  # each set's place among these states
    return np.repeat(first - before, count) + np.arange(int(count.sum()))


def save_level(rules, directory, values, sets, fields):
    """Save the level of `sets` that `values` (TargetValues) has just finished (after
    TargetObjective.end_level): its own files only, never the levels saved before it."""
    level = bin(int(sets[0])).count("1")
    w, e = values.levels[level]  # as solved: float64
    kept = np.dtype(fields["kept"])
    states = _states(values, sets)
    arrays = {"w": w.astype(kept, copy=False), "e": e.astype(kept, copy=False),
              **{name: getattr(values, name)[states] for name in STATE_ARRAYS},
              **{name: getattr(values, name)[sets] for name in SET_ARRAYS},
              "rounding": np.array([values.rounding["w"], values.rounding["e"]])}
    save_arrays(rules, level_artifact(level), arrays, {**fields, "level": level}, directory)
    del arrays
    if kept != np.float64:  # after the level's own file: a kill in between resumes above it
        save_arrays(rules, NEXT, {"w": w, "e": e}, {**fields, "level": level}, directory)


def _load(rules, artifact, directory, shapes, fields, level=None):
    """(level, arrays) of `artifact` if it passes the store's checks and was made with `fields`
    (for `level`, unless None); None otherwise (missing, damaged, foreign: solved again)."""
    try:
        header, arrays = load_arrays(rules, artifact, directory, shapes)
    except TableError:
        return None
    found = header.get("level")
    if (type(found) is not int or not 0 <= found < rules.n_boxes
            or level is not None and found != level
            or any(header.get(name) != value for name, value in fields.items())):
        return None
    w, e = arrays["w"], arrays["e"]
    if w.ndim != 1 or w.shape != e.shape or w.dtype != e.dtype:
        return None
    return found, arrays


def _load_level(rules, directory, values, level, fields):
    """The checked arrays of level `level`'s file, or None."""
    sets = sets_by_level(rules.n_boxes)[level]
    n_states = int(values.set_count[sets].sum())
    index = ((n_states,), np.dtype(np.int64))
    shapes = {"w": None, "e": None, **dict.fromkeys(STATE_ARRAYS, index),
              **dict.fromkeys(SET_ARRAYS, ((len(sets),), np.dtype(np.int64))),
              "rounding": ((2,), np.dtype(np.float64))}
    found = _load(rules, level_artifact(level), directory, shapes, fields, level)
    if found is None or found[1]["w"].dtype != np.dtype(fields["kept"]):
        return None
    arrays = found[1]
    offset, span = arrays["offset"], arrays["span"]
    if np.any(offset < 0) or np.any(span < 0) or np.any(offset + span > len(arrays["w"])):
        return None
    return arrays


def _saved_levels(rules, directory, values, fields):
    """[(level, arrays)] of the usable checkpoint, from the level below the full card down, the
    last one's (W, E) as solved; [] when there is none."""
    n = rules.n_boxes
    exact = lowest = None
    if np.dtype(fields["kept"]) != np.float64:  # the last level as solved: target-next
        found = _load(rules, NEXT, directory, {"w": None, "e": None}, fields)
        if found is None or found[1]["w"].dtype != np.float64:
            return []
        lowest, exact = found
    parts = []
    for level in range(n - 1, -1 if lowest is None else lowest - 1, -1):
        arrays = _load_level(rules, directory, values, level, fields)
        if arrays is None:
            break
        parts.append((level, arrays))
    if exact is not None:
        if not parts or parts[-1][0] != lowest:
            return []  # a level above target-next's is missing or damaged
        last = parts[-1][1]
        if not all(np.array_equal(exact[name].astype(last[name].dtype), last[name], equal_nan=True)
                   for name in "we"):
            return []  # not the level as saved: never resumed from
        last["w"], last["e"] = exact["w"], exact["e"]
    return parts


def resume(rules, directory, values, fields):
    """Restore into `values` (a new TargetValues of the whole game of `rules`) the levels saved
    in `directory` with these `fields` (checkpoint_fields); returns how many it restored, from
    the full card down (0: none usable, `values` untouched).  The last one is held as solved
    (float64) in values.next, the others in the kept dtype, as an uninterrupted solve has them."""
    parts = _saved_levels(rules, directory, values, fields)
    by_level = sets_by_level(rules.n_boxes)
    for level, arrays in parts:
        sets = by_level[level]
        states = _states(values, sets)
        for name in STATE_ARRAYS:
            getattr(values, name)[states] = arrays[name]
        for name in SET_ARRAYS:
            getattr(values, name)[sets] = arrays[name]
        values.levels[level] = (arrays["w"], arrays["e"])
    if parts:
        level, arrays = parts[-1]
        values.next = values.levels[level]
        values.rounding = {"w": float(arrays["rounding"][0]), "e": float(arrays["rounding"][1])}
    return len(parts)


def checkpoint_paths(rules, directory):
    """Every path a checkpoint of `rules` may have in `directory` (most do not exist)."""
    artifacts = [NEXT] + [level_artifact(level) for level in range(rules.n_boxes + 1)]
    return [path for artifact in artifacts for path in table_paths(rules, directory, artifact)]


def remove_checkpoint(rules, directory):
    """Delete the checkpoint files of `rules` in `directory`: call it once the whole table is
    saved (TargetTable.save), not before, so a crash in between loses no level."""
    for path in checkpoint_paths(rules, directory):
        path.unlink(missing_ok=True)
