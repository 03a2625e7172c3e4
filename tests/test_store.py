"""The one table store (engine/store.py): every kind of artifact is saved in one format, and a
load refuses anything else with a TableError, quickly, before it reads or allocates values:
a FIFO or a link to /dev/zero, headers out of bounds, a .npy claiming gigabytes, a truncated
or edited file, another kind or other rules."""
import contextlib
import hashlib
import io
import json
import os
import shutil
import signal
import struct
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.engine import store, table_cache
from solver.engine import values as value_tables
from solver.engine.store import Artifact, TableError, load_arrays, save_arrays, table_paths
from solver.presets import get_rules

RULES = get_rules("yahtzee")
READ = Artifact("sample", "sample", "make-sample --rules {key}")
MAPPED = Artifact("mapped", "mapped sample", "make-mapped --rules {key}", mapped=("big",))
ARRAYS = {"small": np.arange(7, dtype=np.int32), "big": np.linspace(0, 1, 1001),
          "grid": np.arange(12, dtype=np.float32).reshape(3, 4)}
SHAPES = dict.fromkeys(ARRAYS)


@contextlib.contextmanager
def quickly(seconds=10):
    """Fail (not hang) when the block takes longer than `seconds`."""
    def expired(*_):
        raise AssertionError(f"took over {seconds} s: the store read a file it should refuse")
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def refused(artifact, directory, match=None):
    """The TableError of loading `artifact` from `directory` (within seconds)."""
    with quickly(), pytest.raises(TableError, match=match) as info:
        load_arrays(RULES, artifact, directory, SHAPES)
    return str(info.value)


@pytest.fixture(params=[READ, MAPPED], ids=["read", "mapped"])
def saved(request, tmp_path):
    """(artifact, store directory, data path, header path) of ARRAYS saved as `artifact`."""
    data = save_arrays(RULES, request.param, ARRAYS, {"note": 1}, tmp_path)
    assert (data, data.with_suffix(".json")) == table_paths(RULES, tmp_path, request.param)
    return request.param, tmp_path, data, data.with_suffix(".json")


def test_round_trip(saved):
    artifact, directory, data, sidecar = saved
    header, arrays = load_arrays(RULES, artifact, directory, SHAPES)
    assert header["kind"] == artifact.kind and header["note"] == 1
    assert header["rules"] == RULES.as_dict() and header["format_version"] == store.FORMAT_VERSION
    for name, array in ARRAYS.items():
        assert arrays[name].dtype == array.dtype and np.array_equal(arrays[name], array)
        assert isinstance(arrays[name], np.memmap) == (name in artifact.mapped)
        assert arrays[name].flags.writeable == (name not in artifact.mapped)
        place = header["arrays"][name]
        assert place["offset"] % store.ALIGN == 0
        assert place["sha256"] == hashlib.sha256(array.tobytes()).hexdigest()
    again = load_arrays(RULES, artifact, directory, SHAPES)[1]  # the mapped one: from its stamp
    assert all(np.array_equal(again[name], ARRAYS[name]) for name in ARRAYS)


def test_one_array_is_a_plain_npy_file(tmp_path):
    data = save_arrays(RULES, READ, {"values": ARRAYS["grid"]}, {}, tmp_path)
    buffer = io.BytesIO()
    np.save(buffer, ARRAYS["grid"], allow_pickle=False)
    assert data.read_bytes() == buffer.getvalue()


def test_missing_names_the_command(tmp_path):
    message = refused(READ, tmp_path, "no sample for yahtzee")
    assert "make-sample --rules yahtzee" in message


@pytest.mark.parametrize("which", ["header", "data"])
def test_a_fifo_is_refused_without_waiting_for_a_writer(saved, which):
    artifact, directory, data, sidecar = saved
    path = sidecar if which == "header" else data
    path.unlink()
    os.mkfifo(path)
    message = refused(artifact, directory, "not a regular file")
    assert str(path) in message and artifact.rebuild(RULES) in message


@pytest.mark.parametrize("which", ["header", "data"])
def test_a_link_to_dev_zero_is_refused(saved, which):
    artifact, directory, data, sidecar = saved
    path = sidecar if which == "header" else data
    path.unlink()
    os.symlink("/dev/zero", path)
    refused(artifact, directory, "not a regular file")


def test_a_header_over_the_bound_is_refused(saved):
    artifact, directory, data, sidecar = saved
    header = json.loads(sidecar.read_text())
    header["padding"] = " " * store.MAX_HEADER_BYTES
    sidecar.write_text(json.dumps(header))
    refused(artifact, directory, "cannot be read: over")


def _forge(sidecar, name, **place):
    """Edit the header's place of array `name`, as someone who edits the files on purpose."""
    header = json.loads(sidecar.read_text())
    header["arrays"][name].update(place)
    sidecar.write_text(json.dumps(header))


def _npy_header(shape, dtype="<f8"):
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buffer, {"descr": dtype, "fortran_order": False, "shape": shape})
    return buffer.getvalue()


@pytest.mark.parametrize("forged", [False, True], ids=["npy-only", "npy-and-json"])
def test_a_npy_header_claiming_4_gb_is_refused_without_allocating(tmp_path, forged):
    data = save_arrays(RULES, READ, {"values": np.zeros(8)}, {}, tmp_path)
    sidecar = data.with_suffix(".json")
    claim = _npy_header((1 << 29,))  # 4 GiB of float64, in a file of a few hundred bytes
    data.write_bytes(claim + np.zeros(8).tobytes())
    if forged:
        _forge(sidecar, "values", shape=[1 << 29], offset=len(claim))
    with quickly(), pytest.raises(TableError,
                                  match="wrong shape|damaged: .* bytes, its header gives"):
        load_arrays(RULES, READ, tmp_path, {"values": None})


def test_a_npy_header_of_4_gb_is_not_read(tmp_path):
    data = save_arrays(RULES, READ, {"values": np.zeros(8)}, {}, tmp_path)
    # a version 2.0 .npy whose own header claims to be 4 GB long
    data.write_bytes(b"\x93NUMPY\x02\x00" + struct.pack("<I", 0xFFFFFFF0) + b"{" * 100)
    with quickly(), pytest.raises(TableError, match="damaged: array values: .npy header of"):
        load_arrays(RULES, READ, tmp_path, {"values": None})


@pytest.mark.parametrize("edit", [(b"(7,)", b"(7,("), (b"'<i4'", b"'<i4 "), (b"False", b"Fals(")])
def test_a_npy_header_that_does_not_parse_is_refused(saved, edit):
    """(numpy's header reader raises SyntaxError, ValueError or tokenize's TokenError)"""
    artifact, directory, data, sidecar = saved
    blob = data.read_bytes()
    assert edit[0] in blob
    data.write_bytes(blob.replace(*edit, 1))
    refused(artifact, directory, "damaged: array small")


def test_a_truncated_file_is_refused(saved):
    artifact, directory, data, sidecar = saved
    blob = data.read_bytes()
    for size in (len(blob) - 1, len(blob) // 2, 10, 0):
        data.write_bytes(blob[:size])
        refused(artifact, directory, "damaged")


def test_a_longer_file_is_refused(saved):
    artifact, directory, data, sidecar = saved
    data.write_bytes(data.read_bytes() + b"\0" * 8)
    refused(artifact, directory, "damaged")


def test_an_edited_byte_is_refused(saved):
    artifact, directory, data, sidecar = saved
    load_arrays(RULES, artifact, directory, SHAPES)  # a mapped artifact is stamped
    blob = bytearray(data.read_bytes())
    blob[-5] ^= 0x10  # a value of the last array
    data.write_bytes(bytes(blob))
    message = refused(artifact, directory, r"damaged \(checksum mismatch")
    assert str(data) in message and artifact.rebuild(RULES) in message


def test_an_edited_byte_is_found_when_the_stamp_was_copied_along(tmp_path):
    """A stamp names the file by size and modification time: a file edited in place keeps its
    size, so the new modification time is what sends it to be hashed again."""
    data = save_arrays(RULES, MAPPED, ARRAYS, {}, tmp_path)
    info = data.stat()
    blob = bytearray(data.read_bytes())
    blob[-5] ^= 0x10
    data.write_bytes(bytes(blob))
    assert data.stat().st_size == info.st_size
    refused(MAPPED, tmp_path, "checksum mismatch")


def test_another_kind_is_refused(tmp_path):
    data = save_arrays(RULES, MAPPED, ARRAYS, {}, tmp_path)
    for src, dst in zip((data, data.with_suffix(".json")), table_paths(RULES, tmp_path, READ)):
        shutil.copy(src, dst)
    refused(READ, tmp_path, "holds 'mapped', not 'sample'")


def test_other_rules_are_refused(saved):
    artifact, directory, data, sidecar = saved
    other = get_rules("yahtzee-free")
    for src, dst in zip((data, sidecar), table_paths(other, directory, artifact)):
        shutil.copy(src, dst)
    with quickly(), pytest.raises(TableError, match="other rules"):
        load_arrays(other, artifact, directory, SHAPES)


@pytest.mark.parametrize("edit", [
    {"arrays": None}, {"arrays": []}, {"arrays": {"small": {}}},
    {"format_version": "4"}, {"kind": None}, {"rules": "yahtzee"},
])
def test_an_edited_header_is_refused(saved, edit):
    artifact, directory, data, sidecar = saved
    header = json.loads(sidecar.read_text())
    sidecar.write_text(json.dumps(header | edit))
    refused(artifact, directory)


@pytest.mark.parametrize("place", [
    {"dtype": "O"}, {"dtype": "V8"}, {"dtype": "not a dtype"}, {"shape": [-1]},
    {"shape": [10 ** 30]}, {"shape": "7"}, {"offset": -64}, {"offset": 1.5}, {"sha256": None},
])
def test_an_edited_place_is_refused(saved, place):
    artifact, directory, data, sidecar = saved
    _forge(sidecar, "small", **place)
    refused(artifact, directory)


def test_the_shapes_the_caller_asks_for(saved):
    artifact, directory, data, sidecar = saved
    with pytest.raises(TableError, match="wrong shape or dtype for its rules"):
        load_arrays(RULES, artifact, directory, SHAPES | {"small": ((8,), np.dtype(np.int32))})
    with pytest.raises(TableError, match="damaged"):
        load_arrays(RULES, artifact, directory, SHAPES | {"more": None})


# --- every kind of artifact goes through the store --------------------------------------------

def _three_kinds(directory):
    """The expected-score table, a (tiny, made-up) target table and opponents' store of kniffel
    saved in `directory`: {kind: (loader returning the artifact or raising TableError, paths)}."""
    from solver.engine.target.table import TARGET, TargetTable, load_target_table
    from solver.engine.values import load_shipped, load_table
    from solver.stats import opponents
    table = load_shipped(get_rules("kniffel"))
    rules = table.rules
    table.save(directory)
    n = 3
    TargetTable(rules, {"w": np.full(n, 0.5), "e": np.zeros(n),
                        "offset": np.zeros(1, dtype=np.int64),
                        "span": np.full(1, n, dtype=np.int64),
                        "row_of": np.zeros((2, 2), dtype=np.int64),
                        "expected": np.zeros((2, 2))}).save(directory)
    keys, low, start = np.array([0, 5]), np.array([0, 1]), np.array([0, 2, 3])
    opponents.save(opponents.StateDistributions(rules, keys, low, start, np.array([0.5, 0.5, 1.0]),
                                                5, table.expected_score), directory)

    def opponents_store():
        found = opponents.load(table, directory)
        if found is None:
            raise TableError("opponents.load: None")
        return found

    return {"values": (lambda: load_table(rules, directory, shipped=False),
                       table_paths(rules, directory)),
            "target": (lambda: load_target_table(rules, directory),
                       table_paths(rules, directory, TARGET)),
            "opponents": (opponents_store, table_paths(rules, directory, opponents.OPPONENTS))}


def test_every_kind_has_the_one_format(tmp_path):
    kinds = _three_kinds(tmp_path)
    for kind, (load, (data, sidecar)) in kinds.items():
        header = json.loads(sidecar.read_text())
        assert header["kind"] == kind and header["format_version"] == store.FORMAT_VERSION
        assert header["rules"] == get_rules("kniffel").as_dict()
        assert all(set(place) == {"dtype", "shape", "offset", "sha256"}
                   for place in header["arrays"].values())
        load()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "kniffel.json", "kniffel.npy", "kniffel.opponents.bin", "kniffel.opponents.json",
        "kniffel.opponents.verified", "kniffel.target.bin", "kniffel.target.json",
        "kniffel.target.verified"]
    store_of = kinds["opponents"][0]()
    assert isinstance(store_of.probs, np.memmap) and store_of.find(5)[0] == 1
    assert isinstance(kinds["target"][0]().w, np.memmap)


def test_tables_load_without_numba(tmp_path):
    """Advice from a saved table starts quickly: loading the values and the target table (mapped)
    imports no compiler."""
    import subprocess
    import sys
    _three_kinds(tmp_path)
    code = ("import sys\n"
            "from solver.engine.values import load_table\n"
            "from solver.engine.target.table import load_target_table\n"
            "from solver.presets import get_rules\n"
            f"rules, where = get_rules('kniffel'), {str(tmp_path)!r}\n"
            "load_table(rules, where, shipped=False), load_target_table(rules, where)\n"
            "print('numba' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == "False\n", done.stderr


@pytest.mark.parametrize("kind", ["values", "target", "opponents"])
@pytest.mark.parametrize("damage", ["fifo", "dev-zero", "edited", "other-kind"])
def test_every_kind_refuses_a_hostile_file(tmp_path, kind, damage):
    kinds = _three_kinds(tmp_path)
    load, (data, sidecar) = kinds[kind]
    if damage == "fifo":
        sidecar.unlink()
        os.mkfifo(sidecar)
    elif damage == "dev-zero":
        data.unlink()
        os.symlink("/dev/zero", data)
    elif damage == "edited":
        for stamp in tmp_path.glob("*.verified"):
            stamp.unlink()
        blob = bytearray(data.read_bytes())
        blob[-1] ^= 0x01
        data.write_bytes(bytes(blob))
    else:
        other = kinds["target" if kind != "target" else "opponents"][1]
        for src, dst in zip(other, (data, sidecar)):
            shutil.copy(src, dst)
    with quickly(), pytest.raises(TableError) as info:
        load()
    if kind != "opponents":  # opponents.load says None: the coach builds the store or does without
        command = "kniffel solve --rules kniffel" if kind == "values" else "--objective target"
        assert command in str(info.value) and str(tmp_path) in str(info.value)


@pytest.mark.parametrize("damage", ["longer", "fifo", "not-gzip"])
def test_a_hostile_shipped_table_is_not_used(tmp_path, monkeypatch, damage):
    """The shipped table is read under the same checks: one that unpacks to more bytes than its
    header gives is refused after unpacking that many (and one), a FIFO is not opened."""
    import gzip
    rules = get_rules("kniffel")
    packed, sidecar = value_tables.shipped_paths(rules)
    copy = tmp_path / "data"
    copy.mkdir()
    shutil.copy(sidecar, copy / sidecar.name)
    if damage == "longer":
        unpacked = gzip.decompress(packed.read_bytes())
        (copy / packed.name).write_bytes(gzip.compress(unpacked + bytes(len(unpacked))))
    elif damage == "fifo":
        os.mkfifo(copy / packed.name)
    else:
        (copy / packed.name).write_bytes(b"\x1f\x8b" + bytes(100))
    monkeypatch.setattr(value_tables, "SHIPPED_DIR", copy)
    with quickly():
        assert value_tables.load_shipped(rules) is None


# --- random bytes: a TableError, never another error, never a hang -------------------------

def _a_store(artifact):
    directory = Path(tempfile.mkdtemp(prefix="store-"))
    data = save_arrays(RULES, artifact, ARRAYS, {}, directory)
    return directory, data, data.with_suffix(".json")


FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(blob=st.binary(max_size=600), which=st.sampled_from(["header", "data"]),
       artifact=st.sampled_from([READ, MAPPED]))
def test_random_bytes_give_a_table_error(blob, which, artifact):
    directory, data, sidecar = _a_store(artifact)
    try:
        (sidecar if which == "header" else data).write_bytes(blob)
        refused(artifact, directory)
    finally:
        shutil.rmtree(directory)


@FUZZ
@given(position=st.floats(0, 1, exclude_max=True), bits=st.integers(1, 255),
       which=st.sampled_from(["header", "data"]), artifact=st.sampled_from([READ, MAPPED]))
def test_an_edited_byte_anywhere_is_refused_or_harmless(position, bits, which, artifact):
    """Any byte of either file edited: a TableError, or (a byte no check needs, such as the
    padding between records) the very same arrays."""
    directory, data, sidecar = _a_store(artifact)
    try:
        path = sidecar if which == "header" else data
        blob = bytearray(path.read_bytes())
        blob[int(position * len(blob))] ^= bits
        path.write_bytes(bytes(blob))
        with quickly():
            try:
                arrays = load_arrays(RULES, artifact, directory, SHAPES)[1]
            except TableError:
                return
        assert all(np.array_equal(arrays[name], ARRAYS[name]) for name in ARRAYS)
    finally:
        shutil.rmtree(directory)


@FUZZ
@given(prefix=st.sampled_from([b"\x93NUMPY\x01\x00", b"\x93NUMPY\x02\x00", b"\x93NUMPY\x03\x00"]),
       rest=st.binary(max_size=300))
def test_random_npy_records_give_a_table_error(prefix, rest):
    directory, data, sidecar = _a_store(READ)
    try:
        data.write_bytes(prefix + rest)
        refused(READ, directory)
    finally:
        shutil.rmtree(directory)


# --- the cache of house rules' tables (kniffel serve solves one per new set of options) --------

def _house_rules(n):
    """`n` house rules of kniffel (another upper bonus each)."""
    return [get_rules("kniffel", upper_bonus=30 + i) for i in range(n)]


def _fake_tables(directory, rules_list, start=1_000_000):
    """A small values artifact (the header is what the cache reads) for each of `rules_list`,
    used in that order (header modification times one second apart), with another artifact
    beside the first of house rules."""
    for i, rules in enumerate(rules_list):
        save_arrays(rules, store.VALUE_TABLE, {"values": np.zeros(3)}, {}, directory)
        os.utime(table_paths(rules, directory)[1], (start + i, start + i))
    save_arrays(next(r for r in rules_list if r.key != r.preset), READ, ARRAYS, {}, directory)


def test_house_rules_beyond_the_cap_are_deleted_least_recently_used_first(tmp_path):
    preset = get_rules("kniffel-basic")
    house = _house_rules(5)
    _fake_tables(tmp_path, [preset] + house)
    assert [key for _, key, _ in table_cache.house_rule_tables(tmp_path)] == [r.key for r in house]
    table_cache.mark_used(house[0], tmp_path)  # the oldest is used now: the last to go
    removed = table_cache.prune_house_rules(tmp_path, keep=2)
    assert [key for key, _ in removed] == [r.key for r in house[1:4]]
    for key, paths in removed:
        assert paths and not any(p.exists() for p in paths) and not list(tmp_path.glob(key + ".*"))
    left = {p.name for p in tmp_path.iterdir()}
    assert {f"{house[0].key}.json", f"{house[0].key}.sample.bin", f"{house[4].key}.npy"} <= left
    assert {"kniffel-basic.npy", "kniffel-basic.json"} <= left  # a preset's: never evicted
    assert (table_cache.prune_house_rules(tmp_path, keep=0)
            and table_cache.house_rule_tables(tmp_path) == [])
    assert {"kniffel-basic.npy", "kniffel-basic.json"} <= {p.name for p in tmp_path.iterdir()}


def test_the_server_marks_a_house_rules_table_used_at_each_request(tmp_path):
    from solver.engine.states import reachable_mask
    from solver.web.tasks import ServerTables as Tables
    rules = get_rules("kniffel-basic", upper_bonus=40)
    values = np.where(reachable_mask(rules), 1.0, np.nan)
    value_tables.ValueTable(rules, values).save(tmp_path)
    sidecar = table_paths(rules, tmp_path)[1]
    tables = Tables(tmp_path)
    for _ in range(2):  # the first loads it, the second finds it in memory: both are uses
        os.utime(sidecar, (1_000_000, 1_000_000))
        tables(rules)
        assert sidecar.stat().st_mtime > 1_000_000


def test_the_server_prunes_the_store_after_a_solve(tmp_path, monkeypatch):
    """A background solve (web/app.py's "solve" task) leaves at most HOUSE_RULES_KEPT tables of
    house rules, the one just solved among them."""
    import solver
    from solver.web.tasks import TASKS
    from solver.web.tasks import ServerTables as Tables
    house = _house_rules(table_cache.HOUSE_RULES_KEPT + 3)
    _fake_tables(tmp_path, house[:-1])

    class Solved:
        expected_score = 1.0

    def get_table(rules, directory, progress, warn=None):  # the solve, as far as the store sees it
        save_arrays(rules, store.VALUE_TABLE, {"values": np.zeros(3)}, {}, directory)
        return Solved()

    monkeypatch.setattr(solver, "get_table", get_table)
    TASKS["solve"](Tables(tmp_path), house[-1], None)
    kept = [key for _, key, _ in table_cache.house_rule_tables(tmp_path)]
    assert len(kept) == table_cache.HOUSE_RULES_KEPT and kept[-1] == house[-1].key
    assert house[0].key not in kept


# --- a store that cannot keep what is saved in it: read-only, or a full disk ---------------------

SHORT_WRITE = OSError("8388608 requested and 0 written")  # numpy's, on a full disk: no errno


def test_a_short_write_names_the_file_and_the_full_disk_not_errno_none(tmp_path):
    def write(handle):
        raise SHORT_WRITE

    with pytest.raises(OSError) as caught:
        store.atomic_write(tmp_path / "yahtzee.npy", write)
    assert caught.value.filename == str(tmp_path / "yahtzee.npy")
    assert "is the disk full?" in caught.value.strerror and "None" not in str(caught.value)
    assert not list(tmp_path.iterdir())  # the temporary file is gone


@pytest.mark.slow  # solves a table (about two seconds)
def test_the_command_line_says_a_full_disk_in_one_line(tmp_path, capsys, monkeypatch):
    """It was `kniffel: error: [Errno None] None: '.../kniffel-basic.npy'`."""
    from conftest import run

    def full(*args, **kwargs):
        raise SHORT_WRITE

    monkeypatch.setattr(store.np, "save", full)
    code, out, err = run(capsys, "solve", "--rules", "kniffel-basic", "--tables", str(tmp_path),
                         "--quiet")
    assert code == 1 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("kniffel: error: the write was cut short (8388608 requested and 0 "
                          "written): is the disk full?: ") and "None" not in err, err
    assert err.strip().endswith("kniffel-basic.npy")


def test_a_solve_job_hands_back_the_table_the_store_could_not_keep(tmp_path, monkeypatch):
    import solver
    from solver.web.tasks import TASKS
    from solver.web.tasks import ServerTables as Tables
    rules = get_rules("kniffel", upper_bonus=30)

    class Solved:
        expected_score = 1.0

    solved = Solved()

    def get_table(rules, directory, progress, warn=None):  # solved, then the save failed
        warn("the table could not be saved in x (Read-only file system)")
        return solved

    monkeypatch.setattr(solver, "get_table", get_table)
    tables = Tables(tmp_path)
    result = TASKS["solve"](tables, rules, None)
    assert result["table"] is solved and "Read-only" in result["unsaved"]
    assert tables.loaded["expected", rules] is solved


def test_the_pool_keeps_a_table_it_could_not_save_and_hands_it_to_its_workers():
    """A worker that misses a table the pool keeps (a job solved it, the store could not save
    it) gets it and answers; no second solve is started, and a failed job is not started again
    at every request (the issue: 503 for ever, a solve and a traceback each)."""
    import asyncio

    from solver.web import work
    rules = get_rules("kniffel", upper_bonus=31)
    solves = []

    class Table:
        def __init__(self, rules):
            self.rules = rules

    def ask(tables, rules, budget):
        if rules not in tables:  # the worker's own memory: a process has its own
            raise work.TableMissing(rules)
        return "answered"

    def keep(tables, table, budget):
        tables[table.rules] = table

    def job(tables, kind, subject, progress, guard):
        solves.append(subject)
        if subject.upper_bonus == 32:
            raise OSError(28, "No space left on device")
        return {"rules": subject.key, "table": Table(subject), "unsaved": "read-only store"}

    def error_of(exc):
        return exc if isinstance(exc, work.TableMissing) else work.Failed(str(exc), 503)

    pool = work.Pool(1, 4, None, ({"ask": ask, "keep": keep, "job": job}, error_of, None, None),
                     tables={}, processes=False)

    async def scenario():
        with pytest.raises(work.Busy):  # its job started (being prepared, or done already)
            await pool.run("ask", (rules,))
        while pool.jobs[("table", rules.key)].running():
            await asyncio.sleep(0.01)
        assert await pool.run("ask", (rules,)) == "answered"
        assert await pool.run("ask", (rules,)) == "answered" and len(solves) == 1
        other = get_rules("kniffel", upper_bonus=32)  # its job fails: not again at once
        with pytest.raises(work.Busy):
            await pool.run("ask", (other,))
        while pool.jobs[("table", other.key)].running():
            await asyncio.sleep(0.01)
        for _ in range(3):
            with pytest.raises(work.Busy, match="could not be prepared .*No space left"):
                await pool.run("ask", (other,))
        assert len(solves) == 2

    asyncio.run(scenario())
    assert list(pool.kept) == [rules]


def test_tables_prune_on_the_command_line(tmp_path, capsys):
    from conftest import run
    house = _house_rules(3)
    _fake_tables(tmp_path, [get_rules("kniffel-basic")] + house)
    code, out, err = run(capsys, "tables", "--prune", "--keep", "1", "--tables", str(tmp_path),
                         "--json")
    assert code == 0, err
    assert [entry["rules"] for entry in json.loads(out)] == [house[0].key, house[1].key]
    code, out, err = run(capsys, "tables", "--prune", "--keep", "0", "--tables", str(tmp_path))
    assert code == 0 and house[2].key in out and "1 table(s)" in out
    assert (tmp_path / "kniffel-basic.npy").exists()
    code, out, err = run(capsys, "tables", "--prune", "--tables", str(tmp_path))
    assert code == 0 and "0 table(s)" in out
    code, out, err = run(capsys, "tables", "--help")
    assert "kniffel tables --prune" in out


@pytest.mark.parametrize("args, words", [
    (["--prune", "--keep", "-1"], "-1"),
    (["--keep", "2"], "--keep goes with --prune"),
    (["--prune", "--format", "csv"], "--format"),
    (["--prune", "--rules", "yahtzee"], "--rules"),
])
def test_tables_prune_refuses_bad_input_in_one_line(tmp_path, capsys, args, words):
    from conftest import run
    code, out, err = run(capsys, "tables", *args, "--tables", str(tmp_path))
    assert code == 2 and words in err and "Traceback" not in err, err


def test_a_file_swapped_for_a_fifo_after_a_check_is_still_refused(tmp_path):
    """open_regular checks the file it opened (fstat), not the path before: a FIFO opens at
    once (non-blocking) and is refused."""
    fifo = tmp_path / "header.json"
    os.mkfifo(fifo)
    with quickly(), pytest.raises(TableError, match="not a regular file"):
        store.open_regular(fifo, "table header")
    regular = tmp_path / "plain.json"
    regular.write_text("{}")
    with store.open_regular(regular, "table header") as handle:
        assert handle.read() == b"{}"


def _limit_memory():
    import resource
    limit = 3 * 1024**3  # the issue's: a link to /dev/zero read until memory ran out
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.parametrize("damage", ["fifo", "dev-zero", "npy-claims-4-GB"])
def test_advise_answers_with_a_hostile_table_header_under_a_memory_limit(tmp_path, damage):
    """The issue's done-when: a FIFO or a link to /dev/zero as the table's JSON header (or a v2
    .npy header claiming 4 GB) leaves `kniffel advise` answering within 30 s under a 3 GB
    address-space limit: the store's table is refused and the shipped one used."""
    import subprocess
    import sys

    from solver import get_table
    rules = get_rules("kniffel")
    get_table(rules, progress=False).save(tmp_path)
    data, sidecar = table_paths(rules, tmp_path)
    if damage == "fifo":
        sidecar.unlink()
        os.mkfifo(sidecar)
    elif damage == "dev-zero":
        sidecar.unlink()
        os.symlink("/dev/zero", sidecar)
    else:
        header = b"{'descr': '<f8', 'fortran_order': False, 'shape': (536870912,), }"
        data.write_bytes(b"\x93NUMPY\x02\x00" + struct.pack("<I", len(header)) + header)
    done = subprocess.run([sys.executable, "-m", "solver.cli", "advise", "--tables", str(tmp_path),
                           "--dice", "66666", "--rolls-left", "0", "--json"],
                          capture_output=True, text=True, timeout=30, preexec_fn=_limit_memory)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["options"][0]["box"] == "kniffel"


def test_a_write_under_way_in_another_thread_is_removed_by_an_ending_process(tmp_path):
    """The CLI ends at once on SIGTERM (cli._leave): a thread's checkpoint half-written then
    never reaches its own clean-up, so the ending process removes its temporary file."""
    import threading
    started, release = threading.Event(), threading.Event()

    def slow(handle):
        handle.write(b"half")
        started.set()
        release.wait(10)

    def write():
        with contextlib.suppress(OSError):  # its temporary file went: the rename cannot be
            store.atomic_write(tmp_path / "level.bin", slow)

    writer = threading.Thread(target=write)
    writer.start()
    assert started.wait(10)
    assert [p.name for p in tmp_path.iterdir()][0].endswith(".tmp")
    store.remove_unfinished_writes()
    assert not list(tmp_path.iterdir())
    release.set()
    writer.join(10)  # its rename failed: nothing is left
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
