"""The target objective and its table: for every reachable turn-start state s and every number
of points still needed d, W(s, d) = the best chance that the points still to come reach d, and
E(s, d) = the expected points still to come under that play.  One backward pass answers every
target from every position: P(final >= T) = W(s, T - points on the card).

Storage is ragged: a filled-box set f holds length[f] values of d (1..length[f]) for each of its
states; beyond them W is 0 (below target.CUT) and for d <= 0 it is 1, and there E(s, d) is the
expected-score value V(s), which the table carries.

Solved in float64; saved with W and E in float32 (STORED_DTYPE: the whole kniffel table would
pass 1 GB in float64), as NAME.target.bin, the arrays one after the other, plus a
NAME.target.json header (format version, package version, rules, each array's place, sha256).
A load maps the arrays from the file instead of reading them, so advice from a table of
hundreds of megabytes starts at once; and the checksum of so large a file is checked once, then
remembered in NAME.target.verified with the file's size and modification time (a changed file
is checked again).
"""
import hashlib
import io
import json
import time

import numpy as np

from .. import __version__, dice
from ..rules import UPPER
from . import target
from .objective import EXPECTED_SCORE, Objective
from .states import aux_reachable, upper_reachable
from .store import TableError, atomic_write, table_dir

FORMAT_VERSION = 2
ARRAYS = ("w", "e", "offset", "length", "row_of", "expected")
STORED_DTYPE = {"w": np.float32, "e": np.float32}  # the others as solved (int64, float64)
ALIGN = 64  # each array starts at a multiple of this in the .bin file
HASH_CHUNK = 1 << 24


def score_bound(rules):
    """The most points a game of `rules` can score: every box at its most (plain or joker), the
    upper bonus, and an extra-Kniffel bonus for every box after the Kniffel box (up to the cap)."""
    game = rules.kernel_arrays()
    boxes = sum(max(int(game[1][b].max()), int(game[2][b].max())) for b in range(rules.n_boxes))
    return boxes + rules.upper_bonus + rules.extra_bonus * min(rules.n_boxes - 1, rules.cap_count)


class TargetValues:
    """The target solve's values while it runs: the state index, the ranges, each level's
    packed (W, E) and the buffers of the level being solved."""

    def __init__(self, rules, expected, terminal=None):
        self.expected = expected
        up, aux = upper_reachable(rules), aux_reachable(rules)
        self.row_of, self.set_first, self.set_count = target._index_states(
            rules.n_boxes, up, aux, rules.kernel_arrays())
        n_states = int(self.set_count.sum())
        self.offset = np.zeros(n_states, dtype=np.int64)
        self.length = np.zeros(1 << rules.n_boxes, dtype=np.int64)
        self.levels = {}  # level -> packed (w, e)
        self.next = (np.zeros(0), np.zeros(0))  # the level above the one being solved
        self.out = None
        if terminal is not None and len(terminal):  # the full card's W: every state shares it
            full = (1 << rules.n_boxes) - 1
            self.length[full] = len(terminal)
            self.offset[self.set_first[full]:self.set_first[full] + self.set_count[full]] = 0
            self.next = (np.asarray(terminal, dtype=np.float64), np.zeros(len(terminal)))
            self.levels[rules.n_boxes] = self.next


class TargetObjective(Objective):
    """P(points still to come >= d) for every d, ties broken by the expected score."""

    name = "target"

    def __init__(self, expected, tile=target.TILE, tie_break=True, terminal=None):
        self.expected = expected  # the expected-score values (E outside each state's range)
        self.tile = tile
        self.tie_break = tie_break
        self.terminal = terminal

    def values_array(self, rules, reachable):
        return TargetValues(rules, self.expected, self.terminal)

    def context(self, rules):
        game = rules.kernel_arrays()
        gain = np.array([max(int(game[1][b].max()), int(game[2][b].max()))
                         + (rules.upper_bonus if rules.boxes[b] in UPPER else 0)
                         + rules.extra_bonus for b in range(rules.n_boxes)], dtype=np.int64)
        return upper_reachable(rules), aux_reachable(rules), game, dice.kernel_arrays(), gain

    def start_level(self, rules, sets, values, context):
        target._level_lengths(sets, values.length, context[4], rules.n_boxes)
        pos = 0
        for f in sets.tolist():  # this level's states, set after set, at their full range
            first, count, n = values.set_first[f], values.set_count[f], values.length[f]
            values.offset[first:first + count] = pos + n * np.arange(count)
            pos += n * count
        values.out = (np.empty(pos), np.empty(pos))

    def solve_sets(self, rules, sets, values, context):
        up, aux, game, moves, _ = context
        data = (values.next[0], values.next[1], values.offset, values.length, values.row_of,
                values.expected)
        target._solve_sets(sets, values.out[0], values.out[1], data, up, aux, game, moves,
                           rules.rolls_per_turn, self.tile, self.tie_break)

    def end_level(self, rules, sets, values, context):
        packed = target._trim_level(sets, values.out[0], values.out[1], values.offset,
                                    values.length, values.set_first, values.set_count)
        values.levels[bin(int(sets[0])).count("1")] = packed
        values.next, values.out = packed, None


class TargetTable:
    """W and E of every reachable turn-start state and points still needed (module docstring)."""

    def __init__(self, rules, arrays, seconds=None, level_seconds=None, within=0):
        self.rules = rules
        self.within = within  # a sub-game's filled-box mask (0: the whole game)
        for name in ARRAYS:
            setattr(self, name, arrays[name])
        self.seconds = seconds
        self.level_seconds = level_seconds

    def lookup(self, state, need):
        """(W, E) of a State with `need` points still needed (any integer)."""
        return self.lookup_raw(state.filled, state.aux, state.upper, need)

    def lookup_raw(self, filled, aux, upper, need):
        """(W, E) of the turn start (filled, aux, upper) with `need` points still needed."""
        v = float(self.expected[filled, aux, upper])
        if need <= 0:
            return 1.0, v
        if need > self.length[filled]:
            return 0.0, v
        k = self.offset[self.row_of[filled, aux, upper]] + need - 1
        return float(self.w[k]), float(self.e[k])

    def chances(self, state, needs):
        """W for each value in `needs` (an int array) at a State, vectorised."""
        needs = np.asarray(needs, dtype=np.int64)
        n = int(self.length[state.filled])
        k = self.offset[self.row_of[state.filled, state.aux, state.upper]]
        inside = (needs >= 1) & (needs <= n)
        out = np.where(needs <= 0, 1.0, 0.0)
        out[inside] = self.w[k + needs[inside] - 1]
        return out

    def probability(self, state, final):
        """The best chance of a final score >= `final` from a State (card_total included)."""
        return self.lookup(state, final - state.card_total)[0]

    @property
    def entries(self):
        return int(self.w.shape[0])

    def save(self, directory=None):
        """Write the table atomically into the store (W and E as float32); returns the .bin path."""
        directory = table_dir(directory)
        directory.mkdir(parents=True, exist_ok=True)
        parts, places, position, error = [], {}, 0, {}
        for name in ARRAYS:
            array = np.ascontiguousarray(getattr(self, name), dtype=STORED_DTYPE.get(name))
            if name in STORED_DTYPE:  # what float32 storage changes, for the header
                solved = np.asarray(getattr(self, name), dtype=np.float64)
                error[name] = float(np.abs(array - solved).max()) if array.size else 0.0
            pad = -position % ALIGN
            parts.append(b"\0" * pad)
            position += pad
            places[name] = {"dtype": array.dtype.str, "shape": list(array.shape), "offset": position}
            parts.append(array.tobytes())
            position += array.nbytes
        blob = b"".join(parts)
        digest = hashlib.sha256(blob).hexdigest()
        header = {
            "format_version": FORMAT_VERSION,
            "package_version": __version__,
            "objective": "target",
            "rules": self.rules.as_dict(),
            "rules_key": self.rules.key,
            "entries": self.entries,
            "arrays": places,
            "stored_max_abs_error": error,  # the largest change float32 storage made
            "bytes": len(blob),
            "sha256": digest,
            "solve_seconds": self.seconds,
            "within": self.within,
        }
        data, sidecar, stamp = target_paths(self.rules, directory)
        atomic_write(data, blob)
        atomic_write(sidecar, (json.dumps(header, indent=2) + "\n").encode())
        _write_stamp(data, stamp, digest)
        return data


def _write_stamp(data, stamp, digest):
    """Remember that `data` (as it is now: size, modification time) has the checksum `digest`."""
    try:
        info = data.stat()
        atomic_write(stamp, json.dumps({"sha256": digest, "size": info.st_size,
                                        "mtime_ns": info.st_mtime_ns}).encode())
    except OSError:
        pass  # a read-only store: the checksum is computed at every load


def _checked_once(data, stamp, digest):
    """Whether the file `data` has the checksum `digest`: from the stamp when it names the file
    as it is now, else by reading the whole file (and then stamping it)."""
    info = data.stat()
    try:
        known = json.loads(stamp.read_text())
        if known == {"sha256": digest, "size": info.st_size, "mtime_ns": info.st_mtime_ns}:
            return True
    except (OSError, ValueError):
        pass
    sha = hashlib.sha256()
    with data.open("rb") as handle:
        for chunk in iter(lambda: handle.read(HASH_CHUNK), b""):
            sha.update(chunk)
    if sha.hexdigest() != digest:
        return False
    _write_stamp(data, stamp, digest)
    return True


def target_paths(rules, directory=None):
    """(NAME.target.bin, NAME.target.json, NAME.target.verified) in the table store."""
    base = table_dir(directory) / rules.key
    return tuple(base.with_name(base.name + suffix)
                 for suffix in (".target.bin", ".target.json", ".target.verified"))


def load_target_table(rules, directory=None, sub_game=False):
    """The saved target table for `rules`, its arrays mapped from the file; TableError if missing
    or failing any check (or, unless `sub_game`, if it holds a sub-game only), its message
    naming the command that builds the table."""
    try:
        return _load_target_table(rules, directory, sub_game)
    except TableError as exc:
        if "kniffel solve" in str(exc):
            raise
        raise TableError(f"{exc}; build it again with: kniffel solve --objective target "
                         f"--rules {rules.key}") from None


def _load_target_table(rules, directory, sub_game):
    data, sidecar, stamp = target_paths(rules, directory)
    if not data.exists() or not sidecar.exists():
        raise TableError(f"no target table for {rules.key} in {data.parent} "
                         f"(make it with: kniffel solve --objective target --rules {rules.key})")
    try:
        header = json.loads(sidecar.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise TableError(f"target table header {sidecar} cannot be read: {exc}") from None
    version = header.get("format_version") if isinstance(header, dict) else None
    if version != FORMAT_VERSION:
        raise TableError(f"target table {data} has format version {version!r}, this kniffel reads "
                         f"{FORMAT_VERSION}")
    if header.get("package_version") != __version__:
        raise TableError(f"target table {data} was made by kniffel {header.get('package_version')}, "
                         f"this is {__version__}")
    if header.get("rules") != rules.as_dict():
        raise TableError(f"target table {data} was made for other rules")
    if header.get("within") and not sub_game:
        raise TableError(f"target table {data} holds a sub-game only")
    try:
        if not isinstance(header.get("sha256"), str) or not _checked_once(data, stamp, header["sha256"]):
            raise TableError(f"target table {data} is damaged (checksum mismatch)")
        arrays = _mapped(data, header)
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise TableError(f"target table {data} is damaged: {exc}") from None
    return TargetTable(rules, arrays, seconds=header.get("solve_seconds"),
                       within=header.get("within", 0))


def _mapped(data, header):
    """The arrays of a checked .bin file, mapped read-only (ValueError when the places do not fit)."""
    size = data.stat().st_size
    if size != header["bytes"]:
        raise ValueError(f"{size} bytes, the header says {header['bytes']}")
    arrays = {}
    for name in ARRAYS:
        place = header["arrays"][name]
        dtype, shape = np.dtype(place["dtype"]), tuple(int(n) for n in place["shape"])
        if place["offset"] + dtype.itemsize * int(np.prod(shape)) > size:
            raise ValueError(f"array {name} runs past the end of the file")
        arrays[name] = np.memmap(data, dtype=dtype, mode="r", offset=place["offset"], shape=shape)
    return arrays


def solve_target(rules, progress=None, threads=None, expected=None, tile=target.TILE, within=0,
                 tie_break=True, terminal=None):
    """Solve the target table of `rules` (Rules); `expected`: its expected-score values, else
    solved here first (they are E where every option ties).  within: a filled-box mask, to
    solve only the sub-game of the sets that contain it (the other states stay empty).
    tie_break=False solves W alone (E is NaN), to measure what the E plane costs.
    terminal: W of the finished game for d = 1, 2, ... points short (default 0: a target must
    be reached); a utility of the final score, such as the chance to beat opponents (win.py)."""
    from .backward import backward_pass
    start = time.perf_counter()
    if expected is None:
        expected = backward_pass(rules, EXPECTED_SCORE, progress=False, threads=threads)[0]
    objective = TargetObjective(expected, tile, tie_break, terminal)
    values, _, level_seconds = backward_pass(rules, objective, progress, threads,
                                             label=f"target table {rules.key}", within=within)
    empty = (np.zeros(0), np.zeros(0))
    packed = [values.levels.get(level, empty) for level in range(rules.n_boxes + 1)]
    sizes = [w.shape[0] for w, _ in packed]
    base = np.concatenate([[0], np.cumsum(sizes)])
    n_filled = np.array([bin(f).count("1") for f in range(1 << rules.n_boxes)])
    for f in range(1 << rules.n_boxes):
        first, count = values.set_first[f], values.set_count[f]
        values.offset[first:first + count] += base[n_filled[f]]
    arrays = {"w": np.concatenate([w for w, _ in packed]), "e": np.concatenate([e for _, e in packed]),
              "offset": values.offset, "length": values.length, "row_of": values.row_of,
              "expected": expected}
    return TargetTable(rules, arrays, seconds=time.perf_counter() - start,
                       level_seconds=level_seconds, within=within)
