"""The target objective and its table: for every reachable turn-start state s and every number
of points still needed d, W(s, d) = the best chance that the points still to come reach d, and
E(s, d) = the expected points still to come under that play.  One backward pass answers every
target from every position: P(final >= T) = W(s, T - points on the card); it is solved by
engine/target/solve.py (this module loads and saves, without the compiler, so advice from a
saved table starts quickly).

Storage is ragged: the state g = row_of[filled, aux, upper] holds span[g] values of d
(base[g] + 1 .. base[g] + span[g]) from offset[g] on, up to its last chance >= target.CUT;
beyond them W is 0 and for d <= 0 it is 1, and there E(s, d) is the expected-score value V(s),
which the table carries.  base is 0 but in a sub-game solved for one position, whose states
hold only the d that can follow it (engine/target_ranges._level_bands); it is not saved (the saved
tables are whole ones) and a d below it reads as reached.

Solved in float64; saved with W, E and V in float32 and the indexes in int32 where they fit
(STORED_DTYPE: the whole kniffel table would pass 1 GB in float64), as NAME.target.bin, the
arrays one after the other, plus a NAME.target.json header (format version, package version,
rules, each array's place, sha256).
A load maps the arrays from the file instead of reading them, so advice from a table of
hundreds of megabytes starts at once; and the checksum of so large a file is checked once, then
remembered in NAME.target.verified with the file's size and modification time (a changed file
is checked again).
"""
import hashlib
import json

import numpy as np

from ... import __version__
from ..store import TableError, atomic_write, check_header, read_header, regular_file, table_dir

FORMAT_VERSION = 3
ARRAYS = ("w", "e", "offset", "span", "row_of", "expected")
STORED_DTYPE = {"w": np.float32, "e": np.float32, "expected": np.float32,
                "span": np.int32, "row_of": np.int32}  # offset as solved (int64)
ALIGN = 64  # each array starts at a multiple of this in the .bin file
HASH_CHUNK = 1 << 24


class TargetTable:
    """W and E of every reachable turn-start state and points still needed (module docstring)."""

    def __init__(self, rules, arrays, seconds=None, level_seconds=None, within=0):
        self.rules = rules
        self.within = within  # a sub-game's filled-box mask (0: the whole game)
        for name in ARRAYS:
            setattr(self, name, arrays[name])
        self.base = arrays.get("base")
        if self.base is None:
            self.base = np.zeros(len(self.span), dtype=np.int64)
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
        g = self.row_of[filled, aux, upper]
        if g < 0 or need > self.base[g] + self.span[g]:
            return 0.0, v
        if need <= self.base[g]:
            return 1.0, v
        k = self.offset[g] + need - self.base[g] - 1
        return float(self.w[k]), float(self.e[k])

    def chances(self, state, needs):
        """W for each value in `needs` (an int array) at a State, vectorised."""
        needs = np.asarray(needs, dtype=np.int64)
        g = self.row_of[state.filled, state.aux, state.upper]
        lo = int(self.base[g]) if g >= 0 else 0
        n = int(self.span[g]) if g >= 0 else 0
        inside = (needs > lo) & (needs <= lo + n)
        out = np.where(needs <= lo, 1.0, 0.0)
        out[inside] = self.w[self.offset[g] + needs[inside] - lo - 1]
        return out

    def probability(self, state, final):
        """The best chance of a final score >= `final` from a State (card_total included)."""
        return self.lookup(state, final - state.card_total)[0]

    @property
    def entries(self):
        return int(self.w.shape[0])

    def save(self, directory=None):
        """Write the table atomically into the store (W and E as float32); returns the .bin path."""
        if np.any(self.base):
            raise ValueError("a target table solved for one position only is not saved")
        directory = table_dir(directory)
        directory.mkdir(parents=True, exist_ok=True)
        parts, places, position, error = [], {}, 0, {}
        for name in ARRAYS:
            solved = np.asarray(getattr(self, name))
            array = np.ascontiguousarray(solved, dtype=STORED_DTYPE.get(name))
            if array.dtype.kind == "i" and not np.array_equal(array, solved):
                raise ValueError(f"target table array {name} does not fit {array.dtype}")
            if array.dtype == np.float32:  # what float32 storage changes, for the header
                error[name] = float(np.nanmax(np.abs(array - solved))) if array.size else 0.0
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


def _check_chances(data, arrays):
    """TableError unless every chance W is a number in [0, 1] (a NaN would reach --json)."""
    w = arrays["w"]
    for start in range(0, len(w), HASH_CHUNK):
        part = np.asarray(w[start:start + HASH_CHUNK])
        if not (np.isfinite(part).all() and (part >= 0).all() and (part <= 1).all()):
            raise TableError(f"target table {data} is damaged: a chance that is not in 0-1")


def _checked_once(data, stamp, digest, also=lambda: None):
    """Whether the file `data` has the checksum `digest`: from the stamp when it names the file
    as it is now, else by reading the whole file, then `also()` (more checks, raising), and
    then stamping it."""
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
    also()
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
    header = read_header(sidecar, "target table")
    check_header(header, data, rules, "target table", FORMAT_VERSION)
    if header.get("within") and not sub_game:
        raise TableError(f"target table {data} holds a sub-game only")
    try:
        regular_file(data, "target table")
        arrays = _mapped(data, header)  # the places fit the file: checked before it is read
        if not isinstance(header.get("sha256"), str) or not _checked_once(
                data, stamp, header["sha256"], lambda: _check_chances(data, arrays)):
            raise TableError(f"target table {data} is damaged (checksum mismatch)")
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
