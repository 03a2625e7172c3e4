"""Input that was treated unevenly (issue 25): each case is one clear error, or one answer, the
same on the command line, in a --batch line and on the web; records whose fields contradict
their moves are refused by `analyze`; edited table files are refused with their reason.

The kniffel table comes from the package (solver/data), so nothing here solves a value table."""
import hashlib
import io
import json
import os

import numpy as np
import pytest
from conftest import run

from solver.engine.store import TableError, table_paths
from solver.engine.values import load_shipped, load_table
from solver.rules import PRESETS

KNIFFEL = PRESETS["kniffel"]
# a card with one box open: its win sub-game and a finished opponent cost milliseconds
LATE = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18, "three_kind": 20,
        "four_kind": 20, "full_house": 25, "small_straight": 30, "large_straight": 40, "kniffel": 0}
AS_TEXT = {box: str(points) for box, points in LATE.items()}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return tmp_path_factory.mktemp("consistency-store")  # empty: the shipped kniffel table serves


@pytest.fixture(scope="module")
def client(store):
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from solver.web.app import create_app
    return TestClient(create_app(store), base_url="http://127.0.0.1",
                      headers={"content-type": "application/json"})


def batch(capsys, store, tmp_path, line):
    """The answer of `kniffel advise --batch` to one line (a dict)."""
    path = tmp_path / "line.jsonl"
    path.write_text(json.dumps(line) + "\n")
    code, out, err = run(capsys, "advise", "--batch", str(path), "--tables", str(store))
    assert code == 0, err
    return json.loads(out)


def everywhere(capsys, store, tmp_path, client, line):
    """The batch's answer to `line`, checked to be the web's word for word (400 for an error)."""
    answer = batch(capsys, store, tmp_path, line)
    response = client.post("/api/advise", content=json.dumps(line))
    assert response.json() == answer
    assert response.status_code == (400 if "error" in answer else 200)
    return answer


def test_points_as_strings_work_in_a_win_line_as_in_a_plain_line(capsys, store, tmp_path, client):
    plain = everywhere(capsys, store, tmp_path, client, {"card": AS_TEXT, "dice": [1, 2, 3, 4, 5],
                                                         "rolls_left": 0})
    assert plain["options"][0]["box"] == "chance"
    line = {"card": AS_TEXT, "dice": [6, 6, 6, 6, 5], "rolls_left": 0,
            "opponents": [{"final": 230}, {"card": {**AS_TEXT, "ones": "0", "twos": "0"}}]}
    as_text = everywhere(capsys, store, tmp_path, client, line)
    as_numbers = everywhere(capsys, store, tmp_path, client,
                            {**line, "card": LATE,
                             "opponents": [{"final": 230},
                                           {"card": {**LATE, "ones": 0, "twos": 0}}]})
    assert as_text["probability"] == as_numbers["probability"] > 0
    assert ([o["probability"] for o in as_text["options"]]
            == [o["probability"] for o in as_numbers["options"]])


@pytest.mark.parametrize("extra", [{}, {"opponents": [{"final": 200}]}, {"target": 200}])
def test_dice_as_a_number_is_one_clear_error_before_any_table(capsys, store, tmp_path, client,
                                                              extra):
    answer = everywhere(capsys, store, tmp_path, client,
                        {"card": LATE, "dice": 55566, "rolls_left": 0, **extra})
    assert answer == {"error": "line 1: dice must be a list of 5 faces 1-6, e.g. [1, 3, 3, 5, 6], "
                               "got '55566'"}  # not "no target table": the line is checked first


def test_more_than_seven_opponents_are_refused_everywhere(capsys, store, tmp_path, client):
    answer = everywhere(capsys, store, tmp_path, client,
                        {"card": LATE, "opponents": [{"final": 100}] * 8})
    assert answer == {"error": "line 1: at most 7 opponents (8 players), got 8"}
    code, out, err = run(capsys, "advise", "--card", "ones=3", *["--opponent", "final=100"] * 8)
    assert code == 2 and err == "kniffel: error: at most 7 opponents (8 players), got 8\n"


@pytest.mark.parametrize("args, message", [
    (["--opponent", ""], "--opponent '': no card given"),
    (["--opponent", "   "], "--opponent '   ': no card given"),
    (["--opponent", "final=\u0663"], "as a whole number, e.g. final=231, got '\u0663'"),
    (["--opponent", "ones=\u0663"], "points for 'ones' must be a whole number"),
    (["--card", "ones=\u0663", "--dice", "12345"], "points for 'ones' must be a whole number"),
    (["--dice", "\u0663\u0663\u0663\u0663\u0663"], "dice must be five faces 1-6"),
    (["--ties", "lose"], "--ties goes with --opponent"),
    (["--target", "250", "--batch", "-"], "--target is not read with --batch"),
    (["--opponent", "final=100", "--batch", "-"], "--opponent is not read with --batch"),
])
def test_bad_command_line_input_is_one_line_exit_2(capsys, store, args, message):
    code, out, err = run(capsys, "advise", "--tables", str(store), *args)
    assert code == 2 and err.startswith("kniffel: error: ") and message in err, err
    assert len(err.splitlines()) == 1 and out == ""


def test_non_ascii_digits_are_refused_in_batch_lines_too(capsys, store, tmp_path, client):
    answer = everywhere(capsys, store, tmp_path, client, {"card": {"ones": "\u0663"}})
    assert answer["error"].startswith("line 1: points for 'ones' must be a whole number")


def test_an_empty_opponent_is_written_empty():
    from solver.ask.request import read_opponents
    assert read_opponents(["empty", "final=7", "ones=3"], KNIFFEL) == [
        {"card": {}}, {"final": 7}, {"card": {"ones": 3}}]


def test_serve_host_empty_is_refused(capsys):
    code, out, err = run(capsys, "serve", "--host", "", "--port", "0")
    assert code == 2 and "--host \"\" would listen on every interface" in err


@pytest.mark.parametrize("path, body, words", [
    ("new", {"rules": "kniffel", "seeed": 3}, "takes no field(s) 'seeed'"),
    ("game", {"record": {}, "mvoe": {}}, "takes no field(s) 'mvoe'"),
    ("analyze", {"record": {}, "goals": "win"}, "takes no field(s) 'goals'"),
])
def test_web_requests_with_unknown_fields_are_400(client, path, body, words):
    response = client.post(f"/api/{path}", content=json.dumps(body))
    assert response.status_code == 400 and words in response.json()["error"]


@pytest.fixture(scope="module")
def record():
    from solver.game.card import Game
    game = Game(KNIFFEL, ["a", "b"], None, real_dice=True)  # dice chosen here: no seed rolls them
    for box in ("chance", "ones", "twos"):
        turn = game.next_turn()
        turn.roll([1, 2, 3, 4, 5])
        turn.score(box)
    return game.record()


@pytest.mark.parametrize("edit, words", [
    (lambda r: r["turns"][0].update(round=0), "round 0 is not what the moves give, 1"),
    (lambda r: r["turns"][0].update(round=1e30), "round 1e+30"),
    (lambda r: r["turns"][0].update(round=True), "round true"),
    (lambda r: r["turns"][1].update(card_total=99), "card_total 99"),
    (lambda r: r["turns"][0]["decisions"][0].update(extra_bonuses=1), "extra_bonuses 1"),
    (lambda r: r.update(scores={"a": 300, "b": 1}), "scores"),
    (lambda r: r.update(format="other-game"), "format \"other-game\""),
    (lambda r: r.update(format_version=99), "version 99"),
    (lambda r: r.update(finished=True), "finished true"),
    (lambda r: r.update(rules_key="yatzy"), "rules_key"),
])
def test_analyze_refuses_fields_that_contradict_the_moves(capsys, store, tmp_path, client, record,
                                                          edit, words):
    assert client.post("/api/analyze", content=json.dumps({"record": record})).status_code == 200
    edited = json.loads(json.dumps(record))
    edit(edited)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(edited))
    code, out, err = run(capsys, "analyze", str(path), "--tables", str(store))
    assert code == 2 and words in err and len(err.splitlines()) == 1, err
    response = client.post("/api/analyze", content=json.dumps({"record": edited}))
    assert response.status_code == 400 and words in response.json()["error"]


# --- edited table files -------------------------------------------------------------------------

def _store_with_table(tmp_path, blob=None):
    """A store holding the shipped kniffel table, its .npy replaced by `blob` (with the
    checksum of the header recomputed, as someone who edits the file on purpose would)."""
    load_shipped(KNIFFEL).save(tmp_path)
    npy, sidecar = table_paths(KNIFFEL, tmp_path)
    if blob is not None:
        npy.write_bytes(blob)
        header = json.loads(sidecar.read_text())
        values = header["arrays"]["values"]
        values["sha256"] = hashlib.sha256(blob[values["offset"]:]).hexdigest()
        sidecar.write_text(json.dumps(header))
    return npy


def _npy(values):
    buffer = io.BytesIO()
    np.save(buffer, values, allow_pickle=False)
    return buffer.getvalue()


def test_a_header_claiming_a_huge_shape_is_refused_before_reading(tmp_path):
    # an empty array whose header is edited to claim 800 GB: numpy would try to allocate them
    huge = _npy(np.zeros(0)).replace(b"(0,)", b"(99999999999,)")
    _store_with_table(tmp_path, huge)
    with pytest.raises(TableError, match="wrong shape or dtype"):
        load_table(KNIFFEL, tmp_path, shipped=False)


def test_a_table_linked_to_an_endless_file_is_refused(tmp_path):
    npy = _store_with_table(tmp_path)
    npy.unlink()
    os.symlink("/dev/zero", npy)
    with pytest.raises(TableError, match="not a regular file"):
        load_table(KNIFFEL, tmp_path, shipped=False)


def test_nan_values_are_refused_and_never_printed(capsys, tmp_path):
    values = load_shipped(KNIFFEL).values.copy()
    values[KNIFFEL.start_index] = np.nan
    _store_with_table(tmp_path, _npy(values))
    with pytest.raises(TableError, match="NaN where a state is reachable"):
        load_table(KNIFFEL, tmp_path, shipped=False)
    code, out, err = run(capsys, "advise", "--tables", str(tmp_path), "--json")
    assert code == 0 and "NaN" not in out  # the shipped table answers instead
    assert (json.loads(out)["expected_final_score"]
            == pytest.approx(load_shipped(KNIFFEL).expected_score))


def _target_store(tmp_path, w):
    """A (tiny, made-up) target table for kniffel saved in a store, with chances `w`."""
    from solver.engine.target.table import TARGET, TargetTable
    n = len(w)
    arrays = {"w": np.asarray(w, dtype=float), "e": np.zeros(n),
              "offset": np.zeros(1, dtype=np.int64),
              "span": np.full(1, n, dtype=np.int64), "row_of": np.zeros((2, 2), dtype=np.int64),
              "expected": np.zeros((2, 2))}
    data = TargetTable(KNIFFEL, arrays).save(tmp_path)
    assert (data, data.with_suffix(".json")) == table_paths(KNIFFEL, tmp_path, TARGET)
    return data, data.with_suffix(".json"), data.with_suffix(".verified")


def test_target_tables_linked_to_an_endless_file_or_holding_nan_are_refused(tmp_path):
    from solver.engine.target.table import load_target_table
    data, sidecar, stamp = _target_store(tmp_path / "nan", [0.5, float("nan")])
    stamp.unlink()
    with pytest.raises(TableError, match="a chance that is not in 0-1"):
        load_target_table(KNIFFEL, tmp_path / "nan")
    data, sidecar, stamp = _target_store(tmp_path / "zero", [0.5, 0.25])
    assert load_target_table(KNIFFEL, tmp_path / "zero").entries == 2  # as saved: accepted
    data.unlink()
    os.symlink("/dev/zero", data)
    with pytest.raises(TableError, match="not a regular file"):
        load_target_table(KNIFFEL, tmp_path / "zero")
