"""The table store: every artifact the package saves goes through this module, in one format.

An artifact (the expected-score values of a rule set, of both games; its target table; the
opponents' distributions of stats/opponents.py) is a named set of numpy arrays made for one
rule set, saved as two files in the store directory:
- the data, NAME.npy for the expected-score values and NAME.KIND.bin for the others: each array
  a .npy record (its own .npy header, then its values), one after the other, each at a multiple
  of 64 bytes; so a one-array artifact is a plain .npy file (the package ships the default
  preset's gzipped in solver/data/, written by scripts/ship_table.py);
- the header NAME[.KIND].json: format version, package version, kind, the resolved rules, each
  array's dtype, shape, offset and sha256, then the kind's own fields.
A save writes the data, then the header, each through `atomic_write` (a temporary file renamed:
a crash leaves nothing that passes the checks); the temporaries of killed saves are swept.

A load refuses, with a TableError naming the file and the command that builds it again,
anything but what a save of this package version wrote for exactly these rules.  Before a byte
of values is read: both files are regular files (a FIFO or a link to /dev/zero is never read),
the JSON header is at most MAX_HEADER_BYTES, each .npy record's header at most
MAX_NPY_HEADER_BYTES and the same as the JSON's, and the file's size exactly what the records
need (a header claiming a huge array is refused without allocating it).  Then the checksums,
of every array at every load, but for an artifact whose arrays are mapped from the file (the
target table, hundreds of megabytes; the opponents' probabilities): hashing it at every load
would make advice wait, so it is hashed, and its values checked, at its first load (or the save
that wrote it), and that is remembered in NAME.KIND.verified with the file's size and
modification time; a changed file is hashed again.  Loading needs numpy only, never numba.
"""
import errno
import gzip
import hashlib
import io
import json
import math
import os
import stat
import struct
import sys
import tempfile
import time
import tokenize
import zlib
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..version import __version__

FORMAT_VERSION = 4  # one version for every kind (it was 1 for values, 3 for target tables)
STALE_SECONDS = 15 * 60  # a temporary file this old belongs to no save still running
ALIGN = 64  # each .npy record starts at a multiple of this
MAX_HEADER_BYTES = 1 << 20  # a JSON header (or a .verified stamp) longer than this is refused
MAX_NPY_HEADER_BYTES = 1 << 16  # a .npy record's own header, likewise


class TableError(Exception):
    """A saved artifact that is missing, damaged, stale or made for other rules."""


class Artifact(NamedTuple):
    """What the store needs to know of one kind of artifact."""

    kind: str  # the header's "kind" and the files' NAME.KIND.* (None in the names: "values")
    what: str  # how a message names it
    command: str  # what builds it again, "{key}" standing for the rules' key
    mapped: tuple = ()  # arrays mapped from the file instead of read (checksum: once, see above)

    def rebuild(self, rules):
        """The command that builds this artifact for `rules` again."""
        return self.command.format(key=rules.key)


VALUE_TABLE = Artifact("values", "table", "kniffel solve --rules {key}")


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
    """The store directory: `directory`, else the default one."""
    return Path(directory) if directory else default_table_dir()


def table_paths(rules, directory=None, artifact=VALUE_TABLE):
    """(data, header) paths of `artifact` (the expected-score table) for `rules` in the store."""
    base = table_dir(directory) / rules.key
    if artifact.kind == VALUE_TABLE.kind:
        return base.with_suffix(".npy"), base.with_suffix(".json")
    name = f"{rules.key}.{artifact.kind}"
    return base.with_name(name + ".bin"), base.with_name(name + ".json")


# --- saving ---------------------------------------------------------------------------------

def save_arrays(rules, artifact, arrays, fields, directory=None):
    """Write `arrays` ({name: array}) as `artifact` for `rules` into the store, atomically, with
    the header's own `fields`; returns the data path."""
    directory = table_dir(directory)
    directory.mkdir(parents=True, exist_ok=True)
    places = {}
    data, sidecar = table_paths(rules, directory, artifact)
    remove_stale_temporary_files(directory)
    atomic_write(data, lambda handle: _write_records(handle, arrays, places))
    header = {"format_version": FORMAT_VERSION, "package_version": __version__,
              "kind": artifact.kind, "rules": rules.as_dict(), "rules_key": rules.key,
              "arrays": places, **fields}
    atomic_write(sidecar, (json.dumps(header, indent=2) + "\n").encode())
    if artifact.mapped:
        _write_stamp(data, places)
    return data


def _write_records(handle, arrays, places):
    """Write {name: array} to the open data file as .npy records, each from a multiple of
    ALIGN, and set places[name] to its place and checksum.  Straight from the arrays to the
    file: a target table of a gigabyte is not copied into memory again to be saved."""
    for name, array in arrays.items():
        array = np.ascontiguousarray(array)
        handle.write(b"\0" * (-handle.tell() % ALIGN))
        np.save(handle, array, allow_pickle=False)
        places[name] = {"dtype": array.dtype.str, "shape": list(array.shape),
                        "offset": handle.tell() - array.nbytes,
                        "sha256": hashlib.sha256(array.reshape(-1).view(np.uint8)).hexdigest()}


def _write_stamp(data, places):
    """Remember that `data` (as it is now: size, modification time) has the checksums of
    `places`."""
    try:
        info = data.stat()
        atomic_write(data.with_suffix(".verified"), json.dumps(
            {"sha256": _checksums(places), "size": info.st_size,
             "mtime_ns": info.st_mtime_ns}).encode())
    except OSError:
        pass  # a read-only store: the checksums are computed at every load


def _checksums(places):
    return {name: place["sha256"] for name, place in places.items()}


# --- loading --------------------------------------------------------------------------------

def load_arrays(rules, artifact, directory, shapes, check=None):
    """(header, {name: array}) of `artifact` saved for `rules` after every check (module
    docstring); TableError, naming the file and the command that rebuilds it, when it is
    missing or fails one.  shapes: {name: (shape, dtype) or None} of the arrays; check(arrays)
    raises a TableError for values that cannot be right (run with the checksums)."""
    data, sidecar = table_paths(rules, directory, artifact)
    if not data.exists() or not sidecar.exists():
        raise TableError(f"no {artifact.what} for {rules.key} in {data.parent} "
                         f"(make it with: {artifact.rebuild(rules)})")
    remove_stale_temporary_files(data.parent)
    try:
        header = read_header(sidecar, artifact.what)
        places = _checked_places(header, data, rules, artifact, shapes)
        with open_regular(data, artifact.what) as handle:
            _check_layout(handle, os.fstat(handle.fileno()).st_size, places, data, artifact.what)
            arrays = _read(handle, data, places, artifact, check)
    except TableError as exc:
        raise TableError(f"{exc}; build it again with: {artifact.rebuild(rules)}") from None
    except (OSError, ValueError) as exc:
        raise TableError(f"{artifact.what} {data} cannot be read: {exc}; build it again with: "
                         f"{artifact.rebuild(rules)}") from None
    return header, arrays


def load_packed(rules, artifact, packed, sidecar, shapes, check=None):
    """(header, arrays) of an artifact whose data file is gzipped (`packed`, the package's own
    read-only copy) under the same checks as load_arrays; TableError when one fails."""
    header = read_header(sidecar, artifact.what)
    places = _checked_places(header, packed, rules, artifact, shapes)
    size = max((p["offset"] + _nbytes(p) for p in places.values()), default=0)
    try:
        with open_regular(packed, artifact.what) as raw, gzip.open(raw, "rb") as unpacked:
            blob = unpacked.read(size + 1)  # a file that unpacks to more is refused, not unpacked
    except (OSError, EOFError, zlib.error) as exc:
        raise TableError(f"{artifact.what} {packed} cannot be read: {exc}") from None
    handle = io.BytesIO(blob)
    _check_layout(handle, len(blob), places, packed, artifact.what)
    return header, _read(handle, packed, places, artifact._replace(mapped=()), check)


def open_regular(path, what):
    """`path` opened to read if it is a regular file, else TableError: checked on the opened file
    (fstat; a FIFO opens at once with O_NONBLOCK), so no swap after a check gets read."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
                 | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise TableError(f"{what} {path} is not a regular file")
        set_blocking = getattr(os, "set_blocking", None)  # not on every platform
        if set_blocking is not None:
            set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_header(sidecar, what="table"):
    """The parsed JSON object in `sidecar`, read only if it is a regular file of at most
    MAX_HEADER_BYTES (TableError when it cannot be read)."""
    try:
        with open_regular(sidecar, f"{what} header") as handle:
            text = handle.read(MAX_HEADER_BYTES + 1)
        if len(text) > MAX_HEADER_BYTES:
            raise ValueError(f"over {MAX_HEADER_BYTES} bytes")
        header = json.loads(text.decode("utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise TableError(f"{what} header {sidecar} cannot be read: {exc}") from None
    if not isinstance(header, dict):
        raise TableError(f"{what} header {sidecar} cannot be read: not a JSON object")
    return header


def check_header(header, path, rules, artifact):
    """TableError unless the header of the artifact at `path` names this format version, this
    package's version, the kind of `artifact` and exactly `rules`."""
    what, found = artifact.what, header.get("format_version")
    if found != FORMAT_VERSION:
        newer = isinstance(found, int) and not isinstance(found, bool) and found > FORMAT_VERSION
        raise TableError(f"{what} {path} has format version {found!r}, this kniffel reads "
                         f"{FORMAT_VERSION} (made by {'a newer' if newer else 'another'} kniffel)")
    if header.get("package_version") != __version__:
        raise TableError(f"{what} {path} was made by kniffel {header.get('package_version')}, "
                         f"this is {__version__}")
    if header.get("kind") != artifact.kind:
        raise TableError(f"{what} {path} holds {header.get('kind')!r}, not {artifact.kind!r}")
    if header.get("rules") != rules.as_dict():
        raise TableError(f"{what} {path} was made for other rules")


def _checked_places(header, path, rules, artifact, shapes):
    """The header's {name: place} after check_header: the arrays named in `shapes`, each place
    well-formed (numbers, a numeric dtype) and of the shape and dtype `shapes` gives (if any)."""
    check_header(header, path, rules, artifact)
    places = header.get("arrays")
    try:
        for name, place in places.items():
            dtype, shape = np.dtype(place["dtype"]), place["shape"]
            if (dtype.kind not in "biuf" or not isinstance(place["sha256"], str)
                    or not all(_count(n) for n in [place["offset"], *shape])):
                raise ValueError(f"array {name}")
            if shapes.get(name) and (tuple(shape), dtype) != shapes[name]:
                raise TableError(f"{artifact.what} {path} has the wrong shape or dtype for its "
                                 f"rules ({name}: {tuple(shape)} {dtype}, the rules give "
                                 f"{shapes[name][0]} {shapes[name][1]})")
        if set(shapes) != set(places):
            raise ValueError(f"{sorted(places)}, not {sorted(shapes)}")
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise TableError(f"{artifact.what} {path} is damaged: its header's arrays "
                         f"({exc})") from None
    return places


def _count(n):
    return isinstance(n, int) and not isinstance(n, bool) and n >= 0


def _nbytes(place):
    return np.dtype(place["dtype"]).itemsize * math.prod(place["shape"])


def _check_layout(handle, size, places, path, what):
    """TableError unless the records in `handle` (`size` bytes) are those of `places`, one after
    the other, and end where the file does: read their .npy headers only."""
    end = 0
    for name, place in sorted(places.items(), key=lambda item: item[1]["offset"]):
        handle.seek(end + -end % ALIGN)
        try:
            shape, fortran, dtype = _npy_header(handle)
        except (ValueError, SyntaxError, EOFError, struct.error, tokenize.TokenError) as exc:
            raise TableError(f"{what} {path} is damaged: array {name}: {exc}") from None
        if (tuple(shape), fortran, dtype) != (tuple(place["shape"]), False,
                                              np.dtype(place["dtype"])):
            raise TableError(f"{what} {path} has the wrong shape or dtype: its array {name} is "
                             f"{tuple(shape)} {dtype}, its header says {tuple(place['shape'])} "
                             f"{np.dtype(place['dtype'])}")
        if handle.tell() != place["offset"]:
            raise TableError(f"{what} {path} is damaged: array {name} is not where its header says")
        end = place["offset"] + _nbytes(place)
    if size != end:
        raise TableError(f"{what} {path} is damaged: {size} bytes, its header gives {end}")


def _npy_header(handle):
    """(shape, fortran order, dtype) of the .npy record at the handle's position, its header's
    length checked against MAX_NPY_HEADER_BYTES before it is read."""
    version = np.lib.format.read_magic(handle)
    size_format = {(1, 0): "<H", (2, 0): "<I"}.get(version)
    if size_format is None:
        raise ValueError(f".npy format version {version}")
    start = handle.tell()
    raw = handle.read(struct.calcsize(size_format))
    (length,) = struct.unpack(size_format, raw)
    if length > MAX_NPY_HEADER_BYTES:
        raise ValueError(f".npy header of {length} bytes")
    handle.seek(start)
    read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
            else np.lib.format.read_array_header_2_0)
    return read(handle, max_header_size=MAX_NPY_HEADER_BYTES)


def _read(handle, path, places, artifact, check):
    """The arrays of a checked layout, mapped or read, after their checksums and `check` (for a
    mapped artifact: unless its stamp names the file as it is now, see the module docstring)."""
    arrays = {}
    for name, place in places.items():
        dtype, shape = np.dtype(place["dtype"]), tuple(place["shape"])
        if name in artifact.mapped and _nbytes(place):
            arrays[name] = np.memmap(path, dtype=dtype, mode="r", offset=place["offset"],
                                     shape=shape)
        else:
            array = arrays[name] = np.empty(shape, dtype)  # writable, as numpy.load's arrays are
            handle.seek(place["offset"])
            handle.readinto(array.data.cast("B"))
    if artifact.mapped and _stamped(path, places):
        return arrays
    for name, place in places.items():
        if hashlib.sha256(arrays[name].data).hexdigest() != place["sha256"]:
            raise TableError(f"{artifact.what} {path} is damaged (checksum mismatch: {name})")
    try:
        if check:
            check(arrays)
    except TableError as exc:  # "is damaged: ...": named here
        raise TableError(f"{artifact.what} {path} {exc}") from None
    if artifact.mapped:
        _write_stamp(path, places)
    return arrays


def _stamped(path, places):
    """Whether the stamp of `path` names it as it is now, with the checksums of `places`."""
    info = os.stat(path)
    try:
        known = read_header(path.with_suffix(".verified"), "stamp")
    except TableError:
        return False
    return known == {"sha256": _checksums(places), "size": info.st_size,
                     "mtime_ns": info.st_mtime_ns}


# --- files ------------------------------------------------------------------------------------

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


_WRITING = set()  # the temporary files of this process's atomic writes under way


def remove_unfinished_writes():
    """Remove the temporary files of the atomic writes still under way (in other threads): for a
    process that ends at once (cli._leave), whose threads never reach their own clean-up."""
    for tmp in list(_WRITING):
        Path(tmp).unlink(missing_ok=True)


def atomic_write(path, data):
    """Write `data` (bytes, or a function that writes to the open file) to `path` through a
    temporary file and a rename: never half a file.  The
    file gets the mode of any file a program creates (0666 less the umask), not mkstemp's 0600.
    An error names `path`, not the temporary file."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    _WRITING.add(tmp)
    try:
        with os.fdopen(fd, "wb") as handle:
            if callable(data):
                data(handle)
            else:
                handle.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # before the rename: never visible as a private file
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OSError(_errno(exc), _reason(exc), str(path)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        _WRITING.discard(tmp)


def _errno(exc):
    """The errno of a write's OSError; for one without (numpy's short write) ENOSPC where it
    was cut short, else EIO: never "[Errno None]"."""
    if exc.errno is not None:
        return exc.errno
    return errno.ENOSPC if "written" in str(exc) else errno.EIO


def _reason(exc):
    """The words of a write's OSError: its strerror, or for one without (numpy's short write,
    "8388608 requested and 0 written", on a full disk) its own text and what it likely means."""
    if exc.strerror:
        return exc.strerror
    text = str(exc) or type(exc).__name__
    return f"the write was cut short ({text}): is the disk full?" if "written" in text else text


def _umask():
    # os.umask can only be read by setting it: not thread-safe, but nothing writes files from
    # more than one thread here.
    mask = os.umask(0)
    os.umask(mask)
    return mask
