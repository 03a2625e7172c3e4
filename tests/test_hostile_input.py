"""Hostile input: every case of the issue's "Batch input loses data", "Tracebacks" and "Files and
the table store" lists, one focused test each.

The rule for bad input: one line on stderr starting with "kniffel: error: ", exit code 2, never a
traceback; a batch answers every input line, whatever its bytes, with exactly one output line, in
order ({"error": "line N: ..."} for a bad line).

Most tests drive the CLI in-process (conftest.run); the ones that need a real standard input, a
closed one, a umask or a memory limit start `python -m solver.cli` in a subprocess.
"""
import builtins
import errno
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest
from conftest import run, solved

# Inner-module imports, kept in this one block so they can be re-pointed when solver/ is
# restructured.
from solver.report.values import export_values  # noqa: E402

BASIC = "kniffel-basic"
BASIC_STATES = 357_632
BASIC_EXPECTED = 245.8707745
BIG = 10**30  # beyond any 64-bit integer
# A nearly full kniffel-basic card: `distribution` from here takes well under a second.
NEARLY_FULL = ("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,chance=20,kniffel=50,"
               "three_kind=20")


# --- helpers ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A table store holding solved kniffel-basic and dice-duel tables (never modified)."""
    directory = tmp_path_factory.mktemp("hostile-store")
    for name in (BASIC, "dice-duel"):
        solved(name).save(directory)
    return directory


@pytest.fixture
def own_store(store, tmp_path):
    """A private copy of the kniffel-basic table, for tests that damage or edit it."""
    directory = tmp_path / "own-store"
    directory.mkdir()
    for path in store.glob(f"{BASIC}.*"):
        shutil.copy(path, directory / path.name)
    return directory


def cli(*args, stdin=None, preexec_fn=None, timeout=120, shell_prefix=None):
    """Run `python -m solver.cli ARGS` in a new process; returns (exit code, stdout, stderr) as
    bytes, bytes, str.  shell_prefix: a sh script that runs "$@" (the command), e.g. with a
    redirection."""
    command = [sys.executable, "-m", "solver.cli", *map(str, args)]
    if shell_prefix:
        command = ["sh", "-c", shell_prefix, "sh", *command]
    done = subprocess.run(command, input=stdin, capture_output=True, preexec_fn=preexec_fn,
                          timeout=timeout, stdin=None if stdin is not None else subprocess.DEVNULL)
    return done.returncode, done.stdout, done.stderr.decode(errors="replace")


def assert_one_line_error(code, out, err, exit_code=2):
    assert "Traceback" not in err, err
    assert code == exit_code, (code, err)
    assert err.startswith("kniffel: error: "), err
    assert len(err.strip().splitlines()) == 1, err
    assert not out, out


def batch_answers(out):
    text = out.decode() if isinstance(out, bytes) else out
    return [json.loads(line) for line in text.split("\n")[:-1]]


def write_bytes(path, data):
    path.write_bytes(data)
    return path


def sidecar(directory, name=BASIC):
    return directory / f"{name}.json"


def edit_header(directory, **changes):
    path = sidecar(directory)
    header = json.loads(path.read_text())
    header.update(changes)
    path.write_text(json.dumps(header))


# --- 2. batch input loses data --------------------------------------------------------------

BATCHES = {  # game: (extra CLI options, a good line)
    "scorecard": ([], b'{"card":{}}'),
    "dice-duel": (["--rules", "dice-duel"], b"{}"),
}


@pytest.mark.parametrize("game", list(BATCHES))
def test_batch_non_utf8_line_is_one_error_line(store, game):
    """printf '{"card":{}}\\n\\xff\\n{"card":{}}\\n' | kniffel advise --batch -"""
    options, good = BATCHES[game]
    code, out, err = cli("advise", *options, "--tables", store, "--batch", "-",
                         stdin=good + b"\n\xff\n" + good + b"\n")
    assert "Traceback" not in err and code == 0, err
    answers = batch_answers(out)
    assert len(answers) == 3
    assert "expected_final_score" in answers[0] and "expected_final_score" in answers[2]
    assert answers[1]["error"].startswith("line 2")


def test_batch_non_utf8_line_loses_no_answer_of_its_chunk(store):
    """A bad byte in the middle of a 1,500-line batch (more than one 1,024-line chunk, so the
    worker processes answer it): every other line is still answered, in order."""
    lines = [b'{"card":{"ones":%d}}' % (3 * (i % 2)) for i in range(1500)]
    lines[700] = b'{"card":{"ones":3}} \xc3\x28'
    code, out, err = cli("advise", "--tables", store, "--batch", "-",
                         stdin=b"\n".join(lines) + b"\n")
    assert "Traceback" not in err and code == 0, err
    answers = batch_answers(out)
    assert len(answers) == 1500
    assert answers[700]["error"].startswith("line 701")
    assert all("error" not in a for i, a in enumerate(answers) if i != 700)
    assert [a["card_total"] for a in answers[:4]] == [0, 3, 0, 3]


@pytest.mark.parametrize("game", list(BATCHES))
def test_batch_blank_lines_keep_output_aligned(store, game):
    options, good = BATCHES[game]
    code, out, err = cli("advise", *options, "--tables", store, "--batch", "-",
                         stdin=good + b"\n\n   \n" + good + b"\n")
    assert code == 0 and "Traceback" not in err, err
    answers = batch_answers(out)
    assert len(answers) == 4, answers
    assert answers[1]["error"].startswith("line 2") and answers[2]["error"].startswith("line 3")
    assert "expected_final_score" in answers[3]


@pytest.mark.parametrize("game", list(BATCHES))
def test_batch_crlf_line_endings(store, game):
    """Already works: CRLF files are answered line for line."""
    options, good = BATCHES[game]
    code, out, err = cli("advise", *options, "--tables", store, "--batch", "-",
                         stdin=good + b"\r\n" + good + b"\r\n")
    assert code == 0 and len(batch_answers(out)) == 2, err


# --- 3. tracebacks: rules files that are not UTF-8 -----------------------------------------------

@pytest.fixture
def not_utf8(tmp_path):
    """Rules files (JSON and TOML) holding a byte that is not UTF-8."""
    return {"json": write_bytes(tmp_path / "latin1.json",
                                b'{"preset": "kniffel-basic", "x": "\xff"}'),
            "toml": write_bytes(tmp_path / "latin1.toml", b'preset = "kniffel-basic"\n# \xff\n')}


@pytest.mark.parametrize("kind", ["json", "toml"])
@pytest.mark.parametrize("command", [["advise", "--rules"], ["rules", "--show"]])
def test_rules_file_not_utf8_is_one_line(capsys, store, not_utf8, kind, command):
    code, out, err = run(capsys, *command, str(not_utf8[kind]),
                         *(["--tables", str(store)] if command[0] == "advise" else []))
    assert_one_line_error(code, out, err)
    assert not_utf8[kind].name in err
    where = not_utf8[kind].read_bytes().index(b"\xff") + 1  # counted from 1, as a person counts
    assert f"(byte {where} of the file)" in err


@pytest.mark.parametrize("game", list(BATCHES))
def test_rules_file_not_utf8_in_a_batch_line(capsys, store, not_utf8, tmp_path, game):
    """The batch goes on (it did before), and the error names the rules file (it was
    Python's bare "'utf-8' codec can't decode byte 0xff ...")."""
    options, good = BATCHES[game]
    lines = tmp_path / "q.jsonl"
    lines.write_bytes(json.dumps({"rules": str(not_utf8["json"])}).encode() + b"\n" + good + b"\n")
    code, out, err = run(capsys, "advise", *options, "--tables", str(store), "--batch", str(lines))
    assert code == 0 and "Traceback" not in err
    answers = batch_answers(out)
    assert len(answers) == 2 and "expected_final_score" in answers[1]
    assert answers[0]["error"].startswith("line 1") and not_utf8["json"].name in answers[0]["error"]


def test_rules_file_not_utf8_in_a_game_record(capsys, store, not_utf8, tmp_path):
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"rules": str(not_utf8["json"]), "turns": []}))
    code, out, err = run(capsys, "analyze", str(record), "--tables", str(store))
    assert_one_line_error(code, out, err)


# --- 3. "preset" given as a list or an object -----------------------------------------------

PRESET_FILES = {
    "json-list": ("p.json", json.dumps({"preset": [BASIC]})),
    "json-object": ("p.json", json.dumps({"preset": {"name": BASIC}})),
    "toml-list": ("p.toml", f'preset = ["{BASIC}"]\n'),
    "toml-object": ("p.toml", f'preset = {{ name = "{BASIC}" }}\n'),
}


@pytest.mark.parametrize("case", list(PRESET_FILES))
@pytest.mark.parametrize("command", [["advise", "--rules"], ["rules", "--show"]])
def test_preset_list_or_object_is_one_line(capsys, store, tmp_path, case, command):
    name, text = PRESET_FILES[case]
    path = tmp_path / name
    path.write_text(text)
    code, out, err = run(capsys, *command, str(path),
                         *(["--tables", str(store)] if command[0] == "advise" else []))
    assert_one_line_error(code, out, err)
    assert "preset" in err


def test_preset_list_in_a_batch_line_says_preset(capsys, store, tmp_path):
    """Caught before, but as Python's "unhashable type: 'list'"."""
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"preset": [BASIC]}))
    lines = tmp_path / "q.jsonl"
    lines.write_text(json.dumps({"rules": str(path)}) + "\n{}\n")
    code, out, err = run(capsys, "advise", "--tables", str(store), "--batch", str(lines))
    answers = batch_answers(out)
    assert code == 0 and len(answers) == 2 and "expected_final_score" in answers[1]
    assert "preset" in answers[0]["error"]


def test_preset_list_in_a_game_record(capsys, store, tmp_path):
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"rules": {"preset": [BASIC]}, "turns": []}))
    code, out, err = run(capsys, "analyze", str(record), "--tables", str(store))
    assert_one_line_error(code, out, err)


# --- 3. option values beyond 64-bit integers ----------------------------------------------

@pytest.mark.parametrize("rules", [
    {"preset": BASIC, "upper_bonus": BIG},
    {"preset": "kniffel", "extra_bonus": BIG},
    {"preset": "dice-duel", "gold_bonus": BIG},
], ids=["upper_bonus", "extra_bonus", "duel-gold_bonus"])
def test_option_beyond_64_bits_is_one_line(capsys, store, tmp_path, rules):
    path = tmp_path / "big.json"
    path.write_text(json.dumps(rules))  # "upper_bonus": 1000000000000000000000000000000
    code, out, err = run(capsys, "advise", "--rules", str(path), "--tables", str(store))
    assert_one_line_error(code, out, err)
    assert list(rules)[1] in err


@pytest.mark.parametrize("suffix", ["json", "toml"])
def test_rules_show_rejects_an_option_beyond_64_bits(capsys, tmp_path, suffix):
    """`rules --show` accepted (exit 0) what every other command cannot use."""
    path = tmp_path / f"big.{suffix}"
    path.write_text(json.dumps({"preset": BASIC, "upper_bonus": BIG}) if suffix == "json"
                    else f'preset = "{BASIC}"\nupper_bonus = {BIG}\n')
    code, out, err = run(capsys, "rules", "--show", str(path))
    assert_one_line_error(code, out, err)


@pytest.mark.parametrize("value", [2**63 - 1, 2**62])
def test_rules_show_rejects_an_option_that_overflows_the_kernels(capsys, tmp_path, value):
    """Found by fuzzing: values that fit 64 bits but not the kernels' int64 sums are accepted
    and solve to garbage (upper_bonus 2**63 - 1: expected score 8.78e18).  A sane upper limit."""
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"preset": BASIC, "upper_bonus": value}))
    code, out, err = run(capsys, "rules", "--show", str(path))
    assert_one_line_error(code, out, err)
    assert "upper_bonus" in err


def test_option_beyond_64_bits_in_a_batch_line(capsys, store, tmp_path):
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"preset": BASIC, "upper_bonus": BIG}))
    lines = tmp_path / "q.jsonl"
    lines.write_text(json.dumps({"rules": str(path), "card": {}}) + "\n" + '{"card": {}}\n')
    code, out, err = run(capsys, "advise", "--rules", BASIC, "--tables", str(store),
                         "--batch", str(lines))
    assert code == 0 and "Traceback" not in err
    answers = batch_answers(out)
    assert len(answers) == 2
    assert answers[0]["error"].startswith("line 1") and "upper_bonus" in answers[0]["error"]
    assert answers[1]["expected_final_score"] == pytest.approx(BASIC_EXPECTED, abs=1e-6)


def test_option_beyond_64_bits_in_a_game_record(capsys, store, tmp_path):
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"rules": {"preset": BASIC, "upper_bonus": BIG}, "turns": []}))
    code, out, err = run(capsys, "analyze", str(record), "--tables", str(store))
    assert_one_line_error(code, out, err)


# --- 3. analyze: a Dice Duel record, deeply nested JSON -------------------------------------

@pytest.mark.parametrize("rules", ["dice-duel", {"preset": "dice-duel"}], ids=["name", "object"])
def test_analyze_dice_duel_record_is_one_line(capsys, store, tmp_path, rules):
    record = tmp_path / "duel.json"
    record.write_text(json.dumps({"rules": rules, "turns": [
        {"player": 0, "decisions": [{"dice": [1, 2, 3, 4, 5], "keep": [1]}]}]}))
    code, out, err = run(capsys, "analyze", str(record), "--tables", str(store))
    assert_one_line_error(code, out, err)
    assert "dice-duel" in err


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    '{"rules": "kniffel-basic", "turns": ' + "[" * 100_000 + "]" * 100_000 + "}",
], ids=["array", "inside-a-record"])
def test_analyze_deeply_nested_json_is_one_line(capsys, store, tmp_path, text):
    record = tmp_path / "deep.json"
    record.write_text(text)
    code, out, err = run(capsys, "analyze", str(record), "--tables", str(store))
    assert_one_line_error(code, out, err)


# --- 3. simulate: a seed beyond 64 bits, huge game counts ----------------------------------

def test_simulate_seed_beyond_64_bits_is_one_line(capsys, store):
    code, out, err = run(capsys, "simulate", "--rules", BASIC, "--tables", str(store),
                         "--games", "10", "--seed", "18446744073709551616", "--quiet")
    assert_one_line_error(code, out, err)


def test_simulate_largest_64_bit_seed_works(capsys, store):
    """Already works: 2**64 - 1 is a valid seed."""
    code, out, err = run(capsys, "simulate", "--rules", BASIC, "--tables", str(store),
                         "--games", "10", "--seed", str(2**64 - 1), "--json")
    assert code == 0 and json.loads(out)["strategies"]["optimal"]["games"] == 10


def _limit_memory():
    import resource
    limit = 3 * 1024**3  # 3 GB of address space: plenty for a bounded simulation
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.slow
@pytest.mark.parametrize("games", [10**12, 10**9])
def test_simulate_huge_game_counts_are_bounded_or_refused(store, games):
    """Either a clear limit (exit 2, one line) or bounded memory: under a 3 GB address-space
    limit the simulation must still be running, without an error, after a few seconds (it is
    then stopped).  It was: a MemoryError traceback at once (10**9 games grow past 18 GB)."""
    command = [sys.executable, "-m", "solver.cli", "simulate", "--rules", BASIC, "--tables",
               str(store), "--games", str(games), "--quiet", "--json"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, preexec_fn=_limit_memory)
    try:
        out, err = process.communicate(timeout=6)
    except subprocess.TimeoutExpired:
        process.kill()  # still running within the memory limit: bounded
        _, err = process.communicate()
        assert b"Traceback" not in err and b"Error" not in err, err.decode()
        return
    assert_one_line_error(process.returncode, out, err.decode())


# --- 3. distribution --plot with an extension matplotlib cannot write ----------------------

def test_distribution_plot_unsupported_extension_is_refused_first(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    empty = tmp_path / "empty-store"
    code, out, err = run(capsys, "distribution", "--rules", BASIC, "--tables", str(empty),
                         "--card", NEARLY_FULL, "--plot", str(tmp_path / "x.txt"), "--quiet")
    assert_one_line_error(code, out, err)
    assert not list(empty.glob("*.npy")), "the table was solved before --plot was checked"


# --- 3. play with standard input closed ---------------------------------------------------

def test_play_with_stdin_closed(store, tmp_path):
    """`kniffel play <&-`: no traceback (it was: RuntimeError: input(): lost sys.stdin).  Like
    the end of input it stops the game (exit 0: nothing interrupted it) with the record saved, and
    says why in one line."""
    record = tmp_path / "game.json"
    code, out, err = cli("play", "--lang", "en", "--rules", BASIC, "--tables", store, "--seed", "1",
                         "--record", record, shell_prefix='exec "$@" <&-')
    assert "Traceback" not in err, err
    assert code == 0, (code, err)
    assert len(err.strip().splitlines()) == 1 and "standard input is closed" in err, err
    assert json.loads(record.read_text())["finished"] is False


def test_play_with_stdin_at_end_saves_and_stops(store, tmp_path):
    """</dev/null stops the game, saved, with a short line and exit 0 (the end of input is not
    an interruption)."""
    record = tmp_path / "game.json"
    code, out, err = cli("play", "--lang", "en", "--rules", BASIC, "--tables", store, "--seed", "1",
                         "--record", record)
    assert code == 0 and "Traceback" not in err and record.exists()
    assert b"end of input: the game is saved and stops" in out


# --- 3. a value table whose shape does not fit its rules (matching checksum) ------------------

def _replace_values(directory, values):
    buffer = io.BytesIO()
    np.save(buffer, values, allow_pickle=False)
    blob = buffer.getvalue()
    (directory / f"{BASIC}.npy").write_bytes(blob)
    header = json.loads(sidecar(directory).read_text())
    place = header["arrays"]["values"]
    place["offset"] = len(blob) - values.nbytes
    edit_header(directory, arrays={"values": place | {
        "sha256": hashlib.sha256(blob[place["offset"]:]).hexdigest(), "shape": list(values.shape)}})


@pytest.mark.parametrize("shape", [(2, 2, 2), (1 << 13, 2, 64), (1 << 13,)])
def test_table_of_the_wrong_shape_is_not_used(capsys, own_store, shape):
    """A table whose array does not fit the rules is damaged, whatever its checksum says: it is
    solved again (it was: IndexError, or a silently wrong expected score of 0.0)."""
    _replace_values(own_store, np.zeros(shape))
    code, out, err = run(capsys, "advise", "--rules", BASIC, "--tables", str(own_store), "--json")
    assert code == 0 and "Traceback" not in err
    assert json.loads(out)["expected_final_score"] == pytest.approx(BASIC_EXPECTED, abs=1e-6)
    code, out, err = run(capsys, "advise", "--rules", BASIC, "--tables", str(own_store),
                         "--dice", "12345", "--rolls-left", "0", "--json")
    assert code == 0 and json.loads(out)["options"]


# --- 4. output paths are checked before the work -------------------------------------------

def _output_cases(tmp_path):
    missing = tmp_path / "no-such-dir"
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    return {
        "distribution --csv": ["distribution", "--rules", BASIC, "--card", NEARLY_FULL, "--quiet",
                               "--csv", str(missing / "x.csv")],
        "distribution --plot": ["distribution", "--rules", BASIC, "--card", NEARLY_FULL, "--quiet",
                                "--plot", str(missing / "x.png")],
        "tables --out": ["tables", "--rules", BASIC, "--quiet", "--out", str(blocker / "sub")],
        "play --record": ["play", "--rules", BASIC, "--seed", "1",
                          "--record", str(missing / "g.json")],
    }


@pytest.mark.parametrize("case", ["distribution --csv", "distribution --plot", "tables --out",
                                  "play --record"])
def test_output_paths_are_checked_before_the_work(capsys, tmp_path, case):
    """An output path that cannot be written is a one-line error (exit 2) before any solving:
    the empty table store stays empty."""
    if case == "distribution --plot":
        pytest.importorskip("matplotlib")
    empty = tmp_path / "empty-store"
    args = _output_cases(tmp_path)[case]
    code, out, err = run(capsys, *args, "--tables", str(empty))
    assert_one_line_error(code, out, err)
    assert not list(empty.glob("*.npy")), "the table was solved before the output path was checked"


# --- 4. stale temporary files of a killed save --------------------------------------------

def _stale_temp_files(directory):
    """What a save killed by SIGKILL leaves: hidden .NAME.npy.XXXX.tmp files (one an hour old,
    one made just now, which may belong to a save still running)."""
    old = directory / f".{BASIC}.npy.k1ll3d00.tmp"
    old.write_bytes(b"\0" * 4096)
    an_hour_ago = time.time() - 3600
    os.utime(old, (an_hour_ago, an_hour_ago))
    fresh = directory / f".{BASIC}.json.runn1ng0.tmp"
    fresh.write_bytes(b"{")
    return old, fresh


@pytest.mark.parametrize("command", [
    ["solve", "--rules", BASIC, "--force", "--quiet"],  # a save
    ["advise", "--rules", BASIC, "--json"],  # a load
], ids=["save", "load"])
def test_stale_temporary_table_files_are_removed(capsys, own_store, command):
    old, fresh = _stale_temp_files(own_store)
    code, _, err = run(capsys, *command, "--tables", str(own_store))
    assert code == 0, err
    assert not old.exists(), "a temporary file an hour old was left in the table store"
    assert fresh.exists(), "a fresh temporary file (a save still running?) was removed"


# --- 4. header fields outside the checksum ------------------------------------------------

@pytest.mark.parametrize("states", [42, "many", -1])
def test_edited_states_header_is_not_trusted(capsys, own_store, states):
    edit_header(own_store, states=states)
    code, out, err = run(capsys, "solve", "--rules", BASIC, "--tables", str(own_store), "--json")
    assert code == 0 and "Traceback" not in err, err
    assert json.loads(out)["states"] == BASIC_STATES
    code, out, err = run(capsys, "solve", "--rules", BASIC, "--tables", str(own_store), "--lang",
                         "en")
    assert code == 0 and f"{BASIC_STATES:,} states" in out


# --- 4. file modes --------------------------------------------------------------------------

def _mode(path):
    return os.stat(path).st_mode & 0o777


@pytest.mark.parametrize("umask", [0o022, 0o027])
def test_value_tables_follow_the_umask(tmp_path, umask):
    """Table files are ordinary files like game records (they were always 0600)."""
    directory = tmp_path / "tables"
    code, _, err = cli("solve", "--rules", BASIC, "--tables", directory, "--quiet",
                       preexec_fn=lambda: os.umask(umask))
    assert code == 0, err
    for path in (directory / f"{BASIC}.npy", directory / f"{BASIC}.json"):
        assert _mode(path) == 0o666 & ~umask, (path, oct(_mode(path)))


def test_every_written_file_follows_the_umask(store, tmp_path):
    """Value tables, game records and exported strategy tables alike (they were: 0600, the umask,
    and 0644 whatever the umask)."""
    umask = 0o027
    old = os.umask(umask)
    try:
        table = solved(BASIC)
        table.save(tmp_path / "tables")
        written = export_values(table, tmp_path / "export")
    finally:
        os.umask(old)
    record = tmp_path / "game.json"
    cli("play", "--rules", BASIC, "--tables", store, "--seed", "1", "--record", record,
        preexec_fn=lambda: os.umask(umask))
    modes = {path.name: oct(_mode(path))
             for path in [*(tmp_path / "tables").iterdir(), *written, record]}
    assert set(modes.values()) == {oct(0o640)}, modes


# --- 4. a read-only store holding a damaged table -------------------------------------------

@pytest.fixture
def read_only_store(own_store, monkeypatch):
    """own_store with a damaged table, then made read-only.  chmod alone does not stop root, so
    when running as root every write into the directory is refused as well (os.open, which
    tempfile uses, io.open, renames, unlinks)."""
    npy = own_store / f"{BASIC}.npy"
    blob = bytearray(npy.read_bytes())
    blob[-100] ^= 0xFF
    npy.write_bytes(bytes(blob))
    root = os.path.realpath(own_store)

    def inside(path):
        try:
            return os.path.realpath(os.fsdecode(path)).startswith(root)
        except TypeError:  # a file descriptor
            return False

    def deny(path):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))

    real_os_open, real_io_open = os.open, io.open
    writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def os_open(path, flags, *args, **kwargs):
        if flags & writing and inside(path):
            deny(path)
        return real_os_open(path, flags, *args, **kwargs)

    def io_open(file, mode="r", *args, **kwargs):
        if not isinstance(file, int) and set(mode) & set("wax+") and inside(file):
            deny(file)
        return real_io_open(file, mode, *args, **kwargs)

    def refuse(real):
        def wrapper(*paths, **kwargs):
            for path in paths[:2]:
                if isinstance(path, (str, bytes, os.PathLike)) and inside(path):
                    deny(path)
            return real(*paths, **kwargs)
        return wrapper

    own_store.chmod(0o555)
    if os.geteuid() == 0:
        monkeypatch.setattr(os, "open", os_open)
        monkeypatch.setattr(io, "open", io_open)
        monkeypatch.setattr(builtins, "open", io_open)
        for name in ("replace", "rename", "unlink", "remove", "chmod", "mkdir"):
            monkeypatch.setattr(os, name, refuse(getattr(os, name)))
    yield own_store
    monkeypatch.undo()
    own_store.chmod(0o755)


def test_read_only_store_with_a_damaged_table_still_answers(capsys, read_only_store):
    """Solved again, answered, and one warning that it could not be saved (it was: exit 1 with
    the name of a temporary file, and the answer thrown away)."""
    code, out, err = run(capsys, "advise", "--rules", BASIC, "--tables", str(read_only_store),
                         "--json")
    assert code == 0, err
    assert json.loads(out)["expected_final_score"] == pytest.approx(BASIC_EXPECTED, abs=1e-6)
    assert len(err.strip().splitlines()) == 1 and "save" in err.lower(), err
    assert ".tmp" not in err


def test_read_only_store_batch_warns_once(capsys, read_only_store, tmp_path):
    lines = tmp_path / "q.jsonl"
    lines.write_text('{"card": {}}\n{"card": {"ones": 3}}\n{"card": {}, "dice": [1, 2, 3, 4, 5]}\n')
    code, out, err = run(capsys, "advise", "--rules", BASIC, "--tables", str(read_only_store),
                         "--batch", str(lines))
    assert code == 0, err
    answers = batch_answers(out)
    assert len(answers) == 3 and not any("error" in a for a in answers)
    assert len(err.strip().splitlines()) == 1 and "save" in err.lower(), err


# --- 4. messages ------------------------------------------------------------------------------

def test_bad_sidecar_message_names_the_sidecar(capsys, own_store):
    sidecar(own_store).write_text("{not json")
    code, out, err = run(capsys, "advise", "--rules", BASIC, "--tables", str(own_store))
    assert code == 0
    assert f"{BASIC}.json" in err, err


def test_newer_format_version_is_not_called_older(capsys, own_store):
    edit_header(own_store, format_version=99)
    code, out, err = run(capsys, "advise", "--rules", BASIC, "--tables", str(own_store))
    assert code == 0
    assert "older" not in err and "newer" in err, err


# --- also ---------------------------------------------------------------------------------------

def test_no_arguments_prints_help_and_exits_0(capsys):
    code, out, err = run(capsys)
    assert code == 0, err
    assert "Usage:" in out and "Commands:" in out
    assert err == ""


def test_no_arguments_in_a_new_process(tmp_path):
    code, out, err = cli()
    assert code == 0 and b"Commands:" in out and "error" not in err


def test_bench_dice_duel_works_or_says_why(capsys):
    """It was: "unknown preset 'dice-duel'", which `kniffel rules` lists as a preset."""
    code, out, err = run(capsys, "bench", "--rules", "dice-duel", "--repeat", "1", "--games", "50",
                         "--batch-lines", "2", "--quiet", "--json")
    assert "Traceback" not in err
    if code == 0:
        assert "dice-duel" in json.loads(out)["presets"]
        return
    assert_one_line_error(code, out, err)
    assert "dice-duel" in err and "unknown preset" not in err


# --- found by fuzzing (tests/test_fuzz.py), not in the list -------------------------

@pytest.mark.parametrize("name, text", [
    ("deep.json", '{"preset": ' + "[" * 100_000 + "]" * 100_000 + "}"),
    ("deep.toml", "preset = " + "[" * 100_000 + "]" * 100_000 + "\n"),
    ("deep-table.toml", "a = " + "{b = " * 3000 + "1" + "}" * 3000 + "\n"),
])
def test_rules_file_nested_too_deeply_is_one_line(capsys, tmp_path, name, text):
    """It was: RecursionError (and, named in a batch line, the whole batch dies)."""
    path = tmp_path / name
    path.write_text(text)
    code, out, err = run(capsys, "rules", "--show", str(path))
    assert_one_line_error(code, out, err)


def test_rules_file_with_a_name_key_is_one_line(capsys, tmp_path):
    """{"preset": ..., "name": ...}: it was TypeError "get_rules() got multiple values for
    argument 'name'" (the option dict is passed as **kwargs next to the parameter `name`)."""
    path = tmp_path / "house.json"
    path.write_text(json.dumps({"preset": BASIC, "name": "mine"}))
    code, out, err = run(capsys, "rules", "--show", str(path))
    assert_one_line_error(code, out, err)
    assert "name" in err


def test_rules_name_too_long_for_a_path(capsys, store, tmp_path):
    """It was: exit 1 "File name too long" from Path.is_file(), and in a batch line (either
    game) an OSError that ends the whole batch."""
    long_name = "a" * 5000
    code, out, err = run(capsys, "advise", "--rules", long_name, "--tables", str(store))
    assert_one_line_error(code, out, err)
    for options, good in BATCHES.values():
        lines = tmp_path / "q.jsonl"
        lines.write_bytes(json.dumps({"rules": long_name}).encode() + b"\n" + good + b"\n")
        code, out, err = run(capsys, "advise", *options, "--tables", str(store),
                             "--batch", str(lines))
        answers = batch_answers(out)
        assert code == 0 and len(answers) == 2, err
        assert answers[0]["error"].startswith("line 1") and "expected_final_score" in answers[1]


def test_batch_line_with_null_rules_is_not_answered_for_other_rules(capsys, store):
    """{"rules": null} is read_rules(None): the kniffel preset, whatever --rules says (and
    its table is solved and saved).  It should mean the batch's rules, or be an error."""
    import tempfile
    with tempfile.TemporaryDirectory() as scratch:
        for path in store.glob(f"{BASIC}.*"):
            shutil.copy(path, scratch)
        lines = os.path.join(scratch, "q.jsonl")
        with open(lines, "w") as handle:
            handle.write('{"rules": null, "card": {}}\n')
        code, out, err = run(capsys, "advise", "--rules", BASIC, "--tables", scratch,
                             "--batch", lines)
        answer = batch_answers(out)[0]
        assert "error" in answer or answer["rules"] == BASIC, answer
        assert not os.path.exists(os.path.join(scratch, "kniffel.npy"))


def test_superscript_digits_typed_in_play(store, tmp_path):
    """str.isdigit() is true for "²", int("²") fails: it was a ValueError traceback from
    parse_players, and in the middle of a game from parse_faces / parse_box (the keep prompt)."""
    code, out, err = cli("play", "--rules", BASIC, "--tables", store, "--players", "²",
                         "--record", tmp_path / "a.json")
    assert "Traceback" not in err and code in (2, 0), err  # "²" is a name, or refused
    record = tmp_path / "b.json"
    code, out, err = cli("play", "--rules", BASIC, "--tables", store, "--seed", "1",
                         "--record", record, stdin="²\n1²\nj²3\n".encode())
    assert "Traceback" not in err and code == 0, err
    assert b"! " in out  # explained, asked again


@pytest.mark.parametrize("turn", [
    {"player": 0, "decisions": [{"dice": [1, 2, 3, 4, 5], "box": "²"}]},
    {"player": 0, "decisions": [{"dice": [1, 2, 3, 4, 5], "box": "ones", "jokers": 5}]},
    {"player": 0, "start": 5, "decisions": [{"dice": [1, 2, 3, 4, 5], "box": "ones"}]},
    {"player": 0, "start": "card", "decisions": [{"dice": [1, 2, 3, 4, 5], "box": "ones"}]},
], ids=["box-superscript", "jokers-not-a-list", "start-a-number", "start-a-string"])
def test_record_fields_of_the_wrong_type_are_one_line(capsys, store, tmp_path, turn):
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"rules": BASIC, "turns": [turn]}))
    code, out, err = run(capsys, "analyze", str(record), "--tables", str(store))
    assert_one_line_error(code, out, err)
