"""Every file the program reads is a regular file read up to a limit, and every line it reads from
a pipe or standard input is at most a limit long: `/dev/zero`, a FIFO, a folder or a file too
large is refused with one line and exit 2, never read into memory or waited on (the issue: a
MemoryError after gigabytes, or a hang for ever).

The command line runs in-process (conftest.run) where its standard input does not matter; a
test that needs a real standard input (`kniffel play < /dev/zero`) starts a process."""
import json
import os
import subprocess
import sys
import threading
from contextlib import contextmanager

import pytest
from conftest import run
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.ask.batch import InputLines
from solver.inputs import FileRefused, json_kind, read_regular

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev/zero")


@contextmanager
def fifo(tmp_path, name="fifo"):
    """A FIFO at tmp_path/name; should a reader block on it (the bug), a writer opens it after a
    while and closes, so that the test fails instead of hanging."""
    path = tmp_path / name
    os.mkfifo(path)
    done = threading.Event()

    def unblock():
        if not done.wait(20):
            with open(path, "wb"):
                pass

    thread = threading.Thread(target=unblock, daemon=True)
    thread.start()
    try:
        yield path
    finally:
        done.set()


def one_line(code, out, err):
    assert code == 2, (code, err)
    assert err.startswith("kniffel: error: ") and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and "MemoryError" not in err


# --- solver/inputs.py ---------------------------------------------------------------------------

def test_a_device_a_fifo_and_a_folder_are_refused_unread(tmp_path):
    with fifo(tmp_path) as path:
        for name, kind in (("/dev/zero", "a device"), (path, "a FIFO"), (tmp_path, "a folder")):
            with pytest.raises(FileRefused, match=f"is {kind}, not a regular file"):
                read_regular(name, 100, "game record")


@settings(max_examples=40, deadline=None)
@given(size=st.integers(0, 300), limit=st.integers(0, 300))
def test_a_regular_file_is_read_whole_up_to_its_limit(tmp_path_factory, size, limit):
    path = tmp_path_factory.mktemp("sized") / "file"
    path.write_bytes(b"x" * size)
    if size <= limit:
        assert read_regular(path, limit) == b"x" * size
    else:
        with pytest.raises(FileRefused, match="larger than"):
            read_regular(path, limit)


def test_a_missing_file_is_one_line_naming_it(tmp_path):
    with pytest.raises(FileRefused, match="cannot read rules file .*missing.toml"):
        read_regular(tmp_path / "missing.toml", 10, "rules file")


@pytest.mark.parametrize("value, kind", [("1", "a string"), (1, "a whole number"),
                                         (1.5, "a number with a fraction"), (None, "null"),
                                         (False, "true or false"), ([], "a list"),
                                         ({}, "an object")])
def test_json_kinds_are_named(value, kind):
    assert json_kind(value) == kind


# --- the lines of a batch -------------------------------------------------------------------------

class Chunks:
    """A binary stream that gives `chunks` one read at a time (no file descriptor), then, when
    `endless`, NUL bytes for ever (as /dev/zero)."""

    def __init__(self, chunks, endless=False):
        self.chunks, self.endless, self.read_bytes = list(chunks), endless, 0

    def read(self, size):
        data = self.chunks.pop(0) if self.chunks else (b"\0" * size if self.endless else b"")
        self.read_bytes += len(data)
        return data


LINES = st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=12)


@settings(max_examples=150, deadline=None)
@given(lines=LINES, limit=st.integers(1, 30), size=st.integers(1, 64))
def test_batch_lines_pass_whole_until_one_is_too_long(lines, limit, size):
    """Lines within the limit come out as they went in, in order; the first longer one ends the
    input, its number in too_long, and no line after it comes out."""
    data = b"".join(line + b"\n" for line in lines)
    stream = Chunks([data[i:i + size] for i in range(0, len(data), size)])
    reader = InputLines(stream, size=size, limit=limit)
    got = list(reader)
    long = next((i for i, line in enumerate(lines) if len(line) > limit), None)
    if long is None:
        assert got == [line + b"\n" for line in lines] and reader.too_long is None
    else:
        assert got == [line + b"\n" for line in lines[:long]] and reader.too_long == long + 1


def test_an_endless_line_is_refused_after_its_limit_not_read_for_ever():
    stream = Chunks([b'{"card": {}}\n'], endless=True)
    reader = InputLines(stream, size=4096, limit=64 * 1024)
    assert list(reader) == [b'{"card": {}}\n'] and reader.too_long == 2
    assert stream.read_bytes < 64 * 1024 + 2 * 4096  # the limit and a read, not gigabytes


# --- the command line ---------------------------------------------------------------------------

def test_analyze_and_resume_refuse_dev_zero_and_a_fifo(capsys, tmp_path):
    with fifo(tmp_path) as path:
        for args in (["analyze", "/dev/zero"], ["analyze", str(path)],
                     ["play", "--resume", "/dev/zero"], ["play", "--resume", str(path)]):
            code, out, err = run(capsys, *args)
            one_line(code, out, err)
            assert "not a regular file" in err and err.count(args[-1]) == 1, err


def test_rules_files_refuse_dev_zero_and_a_fifo(capsys, tmp_path):
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    with fifo(tmp_path, "house.toml") as path:
        for name in (zero, path):
            code, out, err = run(capsys, "advise", "--rules", str(name), "--dice", "12345",
                                 "--rolls-left", "0")
            one_line(code, out, err)
            assert "not a regular file" in err, err


def test_batch_refuses_dev_zero_and_a_fifo(capsys, tmp_path):
    with fifo(tmp_path) as path:
        for name in ("/dev/zero", str(path)):
            code, out, err = run(capsys, "advise", "--batch", name)
            one_line(code, out, err)
            assert f"--batch file {name} is a" in err, err
    assert "--batch - (standard input)" in err  # a pipe's lines go to standard input


def test_a_record_file_over_its_limit_is_refused(capsys, tmp_path):
    record = tmp_path / "huge.json"
    record.write_text(json.dumps({"rules": "kniffel", "turns": [], "x": "y" * (1 << 20)}))
    code, out, err = run(capsys, "analyze", str(record))
    one_line(code, out, err)
    assert "larger than 1 MiB" in err


def test_a_rules_file_over_its_limit_is_refused(capsys, tmp_path):
    rules = tmp_path / "big.json"
    rules.write_text(json.dumps({"preset": "kniffel", "x": "y" * (64 * 1024)}))
    code, out, err = run(capsys, "advise", "--rules", str(rules))
    one_line(code, out, err)
    assert "larger than 64 KiB" in err


def cli(*args, stdin, timeout=120):
    done = subprocess.run([sys.executable, "-m", "solver.cli", *map(str, args)], stdin=stdin,
                          capture_output=True, timeout=timeout)
    return done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode()


def test_batch_from_dev_zero_on_standard_input_is_one_line():
    """`kniffel advise --batch - < /dev/zero`: a line that never ends, refused at its limit."""
    with open("/dev/zero", "rb") as zero:
        code, out, err = cli("advise", "--batch", "-", stdin=zero)
    one_line(code, "", err)
    assert "--batch line 1 is longer than 256 KiB" in err and out == ""


def test_batch_from_a_closed_standard_input_is_one_line():
    done = subprocess.run(["sh", "-c", 'exec "$@" <&-', "sh", sys.executable, "-m", "solver.cli",
                           "advise", "--batch", "-"], capture_output=True, timeout=120)
    one_line(done.returncode, "", done.stderr.decode())
    assert "standard input is closed" in done.stderr.decode()


def test_batch_lines_before_a_line_too_long_are_answered(tmp_path):
    data = tmp_path / "lines"
    data.write_bytes(b'{"card": {}}\n{"card": {"ones": 3}}\n' + b"x" * (300 * 1024) + b"\n{}\n")
    with open(data, "rb") as source:
        code, out, err = cli("advise", "--batch", "-", stdin=source)
    one_line(code, "", err)
    assert "--batch line 3 is longer" in err
    assert [json.loads(line)["card_total"] for line in out.splitlines()] == [0, 3]


@pytest.mark.parametrize("rules", ["kniffel", "dice-duel"])
def test_play_from_dev_zero_stops_with_one_line_and_saves(tmp_path, rules):
    record = tmp_path / "game.json"
    players = ["--players", "a,b"] if rules == "dice-duel" else []
    with open("/dev/zero", "rb") as zero:
        code, out, err = cli("play", "--rules", rules, *players, "--seed", "1", "--record",
                             record, stdin=zero)
    one_line(code, "", err)
    assert "longer than 4096 characters" in err
    assert json.loads(record.read_text())["turns"] == []  # saved: nothing was played
