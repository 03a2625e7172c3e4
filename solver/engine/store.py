"""ValueTable: the solved values of every turn-start state, and the table store on disk.

A table is two files in the store: NAME.npy (float64 values) and NAME.json (what produced it:
format version, rules, package version, shape, dtype and the sha256 of the .npy).  Both are
written to a temporary file and renamed, the .json last, so a crash leaves no half table that
passes the checks.  The package may ship tables too (solver/data/NAME.npy.gz + NAME.json,
written by scripts/ship_table.py): read-only, used when the store has no valid table for exactly
those rules, under the same checks.
"""
import gzip
import hashlib
import io
import json
import os
import stat
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from .. import __version__

FORMAT_VERSION = 1
STALE_SECONDS = 15 * 60  # a temporary file this old belongs to no save still running


class TableError(Exception):
    """A saved table that is missing, damaged, stale or made for other rules."""


class ValueTable:
    """values[filled, aux, upper]: expected future score from the start of a turn (NaN: unreachable).

    Dice Duel tables (duel/solo/solve.py) are one-dimensional: values[state index] is the expected final
    score at the start of a turn."""

    def __init__(self, rules, values, states=None, seconds=None, level_seconds=None):
        self.rules = rules
        self.values = values
        self.states = states if states is not None else int(np.count_nonzero(~np.isnan(values)))
        self.seconds = seconds  # solve time, when solved in this process
        self.level_seconds = level_seconds  # [(open boxes, seconds since the solve started)]
        self.path = None  # the file it was loaded from

    @property
    def expected_score(self):
        """Optimal expected final score of a new game (the empty card, or every chip on the plate)."""
        return float(self.values[self.rules.start_index])

    def value(self, state):
        """Expected future score of a turn-start State."""
        return float(self.values[state.filled, state.aux, state.upper])

    def save(self, directory=None):
        """Write the table atomically into the store; returns the .npy path."""
        directory = table_dir(directory)
        directory.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        np.save(buffer, self.values, allow_pickle=False)
        blob = buffer.getvalue()
        header = {
            "format_version": FORMAT_VERSION,
            "package_version": __version__,
            "rules": self.rules.as_dict(),
            "rules_key": self.rules.key,
            "dtype": str(self.values.dtype),
            "shape": list(self.values.shape),
            "sha256": hashlib.sha256(blob).hexdigest(),
            "states": self.states,
            "expected_score": self.expected_score,
            "solve_seconds": self.seconds,
        }
        npy, sidecar = table_paths(self.rules, directory)
        remove_stale_temporary_files(directory)
        atomic_write(npy, blob)
        atomic_write(sidecar, (json.dumps(header, indent=2) + "\n").encode())
        return npy


def user_cache_dir():
    """This platform's user cache directory for kniffel (tables and compiled kernels)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "kniffel"


def default_table_dir():
    """KNIFFEL_TABLES, else the user cache directory of this platform."""
    if os.environ.get("KNIFFEL_TABLES"):
        return Path(os.environ["KNIFFEL_TABLES"])
    return user_cache_dir()


def table_dir(directory=None):
    return Path(directory) if directory else default_table_dir()


def table_paths(rules, directory=None):
    base = table_dir(directory) / rules.key
    return base.with_suffix(".npy"), base.with_suffix(".json")


def load_table(rules, directory=None, shipped=True):
    """Load the saved table for `rules`; TableError if it is missing or fails any check.

    Only the checksummed values are trusted: the state count is counted from them again, and
    the shape must be the one the rules give, whatever the header says.  When the store has no
    valid table, a table shipped in the package for exactly these resolved rules (solver/data/,
    read-only, the same checks) is used instead (shipped=False: the store only)."""
    try:
        return _load_stored(rules, directory)
    except TableError:
        if shipped:
            table = load_shipped(rules)
            if table is not None:
                return table
        raise


def _load_stored(rules, directory):
    npy, sidecar = table_paths(rules, directory)
    if not npy.exists() or not sidecar.exists():
        raise TableError(f"no table for {rules.key} in {npy.parent}")
    remove_stale_temporary_files(npy.parent)
    header = read_header(sidecar)
    try:
        _check_file(rules, npy)  # before reading: a file edited to be huge or endless is not read
        blob = npy.read_bytes()
    except OSError as exc:
        raise TableError(f"table {npy} cannot be read: {exc}") from None
    return _checked(rules, npy, header, blob)


def regular_file(path, what="table"):
    """TableError unless `path` is a regular file (a link to /dev/zero would be read forever)."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise TableError(f"{what} {path} is not a regular file")


def _check_file(rules, npy):
    """TableError unless `npy` is a regular file whose .npy header gives the shape and dtype of
    `rules`' table and whose size is that header's and those values' (read: the header only)."""
    regular_file(npy)
    with open(npy, "rb") as handle:
        try:
            version = np.lib.format.read_magic(handle)
            read = {(1, 0): np.lib.format.read_array_header_1_0,
                    (2, 0): np.lib.format.read_array_header_2_0}.get(version)
            if read is None:
                raise ValueError(f".npy format version {version}")
            shape, _, dtype = read(handle)
        except (ValueError, SyntaxError, EOFError) as exc:
            raise TableError(f"table {npy} is damaged: {exc}") from None
        start = handle.tell()
    if dtype != np.float64 or tuple(shape) != tuple(rules.table_shape):
        raise TableError(f"table {npy} has the wrong shape or dtype for its rules "
                         f"({tuple(shape)} {dtype}, the rules give {tuple(rules.table_shape)} float64)")
    if os.stat(npy).st_size != start + 8 * int(np.prod(rules.table_shape)):
        raise TableError(f"table {npy} is damaged: its size does not match its header")


def _check_values(rules, path, values):
    """TableError unless every value is finite where the rules reach a state (NaN marks the
    states no game reaches, and only those)."""
    if np.isinf(values).any():
        raise TableError(f"table {path} is damaged: it holds infinite values")
    if values.ndim == 3:
        from .states import reachable_mask
        if not np.array_equal(~np.isnan(values), reachable_mask(rules)):
            raise TableError(f"table {path} is damaged: NaN where a state is reachable "
                             "(or a value where none is)")
    elif np.isnan(values[rules.start_index]):
        raise TableError(f"table {path} is damaged: NaN at the start of the game")


SHIPPED_DIR = Path(__file__).resolve().parent.parent / "data"


def shipped_paths(rules):
    """NAME.npy.gz (the store's .npy, gzipped byte for byte) and NAME.json (its header)."""
    return SHIPPED_DIR / f"{rules.key}.npy.gz", SHIPPED_DIR / f"{rules.key}.json"


def load_shipped(rules):
    """The table shipped in the package for exactly `rules`, or None (none shipped, or it fails
    a check: a stale shipped table is never used)."""
    packed, sidecar = shipped_paths(rules)
    if not packed.exists() or not sidecar.exists():
        return None
    try:
        header = json.loads(sidecar.read_text(encoding="utf-8"))
        blob = gzip.decompress(packed.read_bytes())
        return _checked(rules, packed, header, blob)
    except (OSError, ValueError, EOFError, gzip.BadGzipFile, TableError):
        return None


def read_header(sidecar, kind="table"):
    """The parsed JSON header of a stored table (TableError when it cannot be read)."""
    try:
        return json.loads(sidecar.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise TableError(f"{kind} header {sidecar} cannot be read: {exc}") from None


def check_header(header, path, rules, kind="table", version=FORMAT_VERSION):
    """Raise TableError unless the header of the stored `kind` at `path` names this format
    `version`, this package's version and exactly `rules` (both stores check their headers so)."""
    found = header.get("format_version") if isinstance(header, dict) else None
    if found != version:
        newer = isinstance(found, int) and not isinstance(found, bool) and found > version
        raise TableError(f"{kind} {path} has format version {found!r}, this kniffel reads "
                         f"{version} (made by {'a newer' if newer else 'another'} kniffel)")
    if header.get("package_version") != __version__:
        raise TableError(f"{kind} {path} was made by kniffel {header.get('package_version')}, "
                         f"this is {__version__}")
    if header.get("rules") != rules.as_dict():
        raise TableError(f"{kind} {path} was made for other rules")


def _checked(rules, path, header, blob):
    """The table in `blob` (.npy bytes) after every check against its header and `rules`."""
    check_header(header, path, rules)
    if hashlib.sha256(blob).hexdigest() != header.get("sha256"):
        raise TableError(f"table {path} is damaged (checksum mismatch)")
    try:
        values = np.load(io.BytesIO(blob), allow_pickle=False)
    except ValueError as exc:
        raise TableError(f"table {path} is damaged: {exc}") from None
    if values.dtype != np.float64 or values.shape != rules.table_shape:
        raise TableError(f"table {path} has the wrong shape or dtype for its rules")
    _check_values(rules, path, values)
    seconds = header.get("solve_seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        seconds = None
    table = ValueTable(rules, values, seconds=seconds)
    table.path = path
    return table


def remove_stale_temporary_files(directory):
    """Delete the hidden .NAME.XXXX.tmp files that saves killed mid-write (SIGKILL, a power cut)
    left in the store: no handler ran to remove them.  Fresh ones may belong to a running save."""
    now = time.time()
    try:
        candidates = list(Path(directory).glob(".*.tmp"))
    except OSError:
        return
    for path in candidates:
        try:
            if now - path.stat().st_mtime > STALE_SECONDS:
                path.unlink()
        except OSError:
            pass  # a read-only store, or another process swept it first


def atomic_write(path, data):
    """Write `data` to `path` through a temporary file and a rename: never half a file.  The
    file gets the mode of any file a program creates (0666 less the umask), not mkstemp's 0600.
    An error names `path`, not the temporary file."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # before the rename: never visible as a private file
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask():
    # os.umask can only be read by setting it: not thread-safe, but nothing writes files from
    # more than one thread here.
    mask = os.umask(0)
    os.umask(mask)
    return mask
