"""What `kniffel serve` refuses of a scorecard request and what it does when a win advice cannot
be had: a record whose fields or seeded dice contradict its moves is refused by /api/game as by
/api/analyze and `kniffel analyze`; a value of the wrong type is never taken for another; a win
advice stopped at the budget falls back to points with a notice; the warm-up compiles every
kernel a request can need; and a worker replaced never blocks the event loop."""
import json
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

from conftest import run  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx")


def client_of(app):
    from starlette.testclient import TestClient
    return TestClient(app, base_url="http://127.0.0.1",
                      headers={"content-type": "application/json"})


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from solver.web.app import create_app
    return client_of(create_app(tmp_path_factory.mktemp("requests-store")))


def post(client, path, data):
    response = client.post(path, content=json.dumps(data).encode())
    return response.status_code, response.json()


@pytest.fixture(scope="module")
def game(client):
    """(record, hand) of a seeded game of two, a few decisions in, with dice in hand."""
    code, st = post(client, "/api/new", {"players": ["a", "b"], "seed": 11})
    for move in [{"roll": True}, {"keep": []}, {"roll": True}, {"box": "chance"}, {"roll": True}]:
        code, st = post(client, "/api/game",
                        {"record": st["record"], "hand": st["hand"], "move": move})
        assert code == 200, st
    return st["record"], st["hand"]


def _changed(record, path, value):
    record = json.loads(json.dumps(record))
    place = record
    for step in path[:-1]:
        place = place[step]
    place[path[-1]] = value
    return record


CONTRADICTIONS = [  # (where in the record, the value that contradicts its moves)
    (("scores",), {"a": 99, "b": 0}), (("finished",), True), (("format",), "kniffel-gam"),
    (("turns", 0, "card_total"), 7),
    (("turns", 0, "decisions", 1, "extra_bonuses"), 2), (("rules_key",), "yahtzee"),
]


@pytest.mark.parametrize("path, value", CONTRADICTIONS, ids=lambda x: str(x)[:20])
def test_a_record_that_contradicts_its_moves_is_refused_by_game_as_by_analyze(client, game, path,
                                                                              value):
    record, hand = game
    bad = _changed(record, path, value)
    analyzed, analysis = post(client, "/api/analyze", {"record": bad})
    played, state = post(client, "/api/game", {"record": bad, "hand": hand})
    assert analyzed == played == 400, (analysis, state)
    assert "is not what the moves give" in state["error"]
    assert post(client, "/api/game", {"record": record, "hand": hand})[0] == 200  # the real one


@pytest.mark.parametrize("value, said", [
    (99, "record format version 99, this kniffel reads 1"),
    ("1", 'format_version "1" is a string, expected the number 1'),
    (1.5, "format_version 1.5 is a number with a fraction, expected the number 1"),
    (None, "format_version is null, expected the number 1"),
    (True, "format_version is true, expected the number 1")])
def test_a_format_version_that_is_not_1_says_what_it_is(client, game, value, said, tmp_path,
                                                        capsys):
    """It was "has record format version 1, this kniffel reads 1" for the string "1"."""
    from conftest import run
    record, hand = game
    bad = _changed(record, ("format_version",), value)
    for path, body in (("/api/game", {"record": bad, "hand": hand}), ("/api/analyze",
                                                                      {"record": bad})):
        code, answer = post(client, path, body)
        assert code == 400 and said in answer["error"], (path, answer)
    file = tmp_path / "game.json"
    file.write_text(json.dumps(bad))
    code, out, err = run(capsys, "analyze", str(file))
    assert code == 2 and err.strip() == f"kniffel: error: {file}: {said}"


def test_seeded_dice_that_are_not_the_seeds_are_refused(client, game, capsys, tmp_path):
    record, hand = game
    first = record["turns"][0]["decisions"][0]["dice"]
    other = [6 if d != 6 else 1 for d in first]
    bad = _changed(record, ("turns", 0, "decisions", 0, "dice"), other)
    bad = _changed(bad, ("turns", 0, "decisions", 0, "keep"), [])
    for path, body in [("/api/game", {"record": bad, "hand": hand}),
                       ("/api/analyze", {"record": bad})]:
        code, answer = post(client, path, body)
        assert code == 400 and "not what this game's seed rolled" in answer["error"], answer
    # the dice in hand too: a seeded game's next roll is the seed's
    wrong_hand = [1, 1, 1, 1, 1] if sorted(hand) != [1] * 5 else [2] * 5
    code, answer = post(client, "/api/game", {"record": record, "hand": wrong_hand})
    assert code == 400 and "seed rolled" in answer["error"]
    # kniffel analyze of the file: exit 2, one line
    file = tmp_path / "game.json"
    file.write_text(json.dumps(bad))
    code, out, err = run(capsys, "analyze", str(file))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "seed rolled" in err, err
    # a game of real dice has no seed to match
    real = {**bad, "real_dice": True, "seed": None}
    assert post(client, "/api/game", {"record": real})[0] == 200


@pytest.mark.parametrize("body, words", [
    ({"real_dice": "yes"}, "real_dice must be true or false"),
    ({"real_dice": 1}, "real_dice must be true or false"),
    ({"options": []}, "options must be"),
    ({"options": ""}, "options must be"),
    ({"goal": "best"}, "goal must be points or win"),
])
def test_new_refuses_values_of_the_wrong_type(client, body, words):
    code, answer = post(client, "/api/new", {"players": ["a"], **body})
    assert code == 400 and words in answer["error"], answer


def test_points_as_text_are_refused_in_a_record(client, game):
    """A record's points are numbers ("12" is not 12), as the turn's start card is; a batch line
    (/api/advise) takes points as text on purpose, as `kniffel advise --batch` does."""
    record, hand = game
    points = record["turns"][0]["decisions"][-1]["points"]
    bad = _changed(record, ("turns", 0, "decisions", -1, "points"), str(points))
    for path, body in [("/api/game", {"record": bad, "hand": hand}),
                       ("/api/analyze", {"record": bad})]:
        code, answer = post(client, path, body)
        assert code == 400 and "the record says" in answer["error"], answer


def test_a_win_advice_stopped_by_the_guard_falls_back_to_points(tmp_path, monkeypatch):
    """The issue: /api/game with objective win answered 422 for the move itself.  The worker's
    guard stops the solve (engine/cancel.Cancelled, as the pool's cancel flag makes a backward
    pass raise it); the one door answers for points and says why, in one call."""
    from solver.advice.goal import WinGoal
    from solver.engine.cancel import Cancelled

    def stopped(self, query, tables):
        raise Cancelled("stopped after 2 levels")

    monkeypatch.setattr(WinGoal, "ranked", stopped)
    from solver.web.app import create_app
    client = client_of(create_app(tmp_path))
    code, st = post(client, "/api/new", {"players": ["a", "b"], "seed": 2, "goal": "win",
                                         "language": "en"})
    assert code == 200 and st["goal"] == "points" and "stopped" in st["notice"], st
    code, st = post(client, "/api/game", {"record": st["record"], "move": {"roll": True},
                                          "goal": "win", "language": "de"})
    assert code == 200 and st["hand"] and st["advice"]["options"], st
    assert st["notice"].startswith("Rat für Punkte: ") and "angehalten" in st["notice"]


def test_replacing_a_worker_does_not_wait_for_it_on_the_event_loop():
    """ProcessWorker._end killed the process, then joined it for up to a second on the loop."""
    from solver.web.work import ProcessWorker

    class Slow:
        pid = 0

        def is_alive(self):
            return True

        def kill(self):
            pass

        def join(self, timeout=None):
            time.sleep(1)
            self.joined = threading.current_thread()

    class Closed:
        def close(self):
            pass

        def cancel(self):
            pass

    worker = ProcessWorker.__new__(ProcessWorker)
    worker.process, worker.connection, worker.warming = Slow(), Closed(), Closed()
    start = time.monotonic()
    worker._end()
    assert time.monotonic() - start < 0.3


WARM_CHECK = r"""
import gc, json, orjson
from numba.core.registry import CPUDispatcher
from solver.ask.warm import warm
from solver.web.tasks import ServerTables as Tables, answer_request
from solver.web import duel

def compiled():
    return {(d.py_func.__module__, d.py_func.__qualname__, str(s))
            for d in gc.get_objects() if isinstance(d, CPUDispatcher) for s in d.signatures}

tables = Tables(None)
for feature in ("win", "duel"):
    warm(feature, tables)
before = compiled()
boxes = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
         "full_house", "small_straight", "large_straight", "kniffel", "chance"]
card, other = {b: 0 for b in boxes[:10]}, {b: 0 for b in boxes[3:]}
for line in [{"card": card, "dice": [1, 2, 3, 4, 6], "rolls_left": 2, "opponents": [{"card": other}]},
             {"card": card, "dice": [1, 2, 3, 4, 6], "rolls_left": 0, "opponents": [{"card": other}, {"final": 90}]},
             {"card": card, "opponents": [{"card": {**other, "kniffel": 50}, "kniffel_bonuses": 1}], "ties": "lose"},
             {"card": card, "dice": [6, 6, 6, 6, 6], "rolls_left": 1, "target": 200},
             {"players": 3, "dice": [1, 2, 3, 4, 5], "rolls_left": 1}]:
    status, answer, preparing = answer_request(orjson.dumps(line), tables)
    assert status == 200 and preparing is None, answer
record, _ = duel.new_duel({"players": ["a", "b"], "seed": 1})
state = duel.duel_step(record, None, {"roll": True}, True)
duel.duel_step(state["record"], state["hand"], {"keep": []}, True)
print(json.dumps(sorted(map(list, compiled() - before))))
"""  # noqa: E501 - the script as it runs


@pytest.mark.slow  # a fresh process: imports, the warm-up, the requests (kernels from the cache)
def test_warming_a_feature_compiles_every_kernel_its_requests_need(tmp_path):
    """A server never compiles inside a request (its time limit would stop it half done): the
    job of ask/warm.py compiles a feature's kernels first.  After warm("win") and warm("duel"),
    the requests of each kind compile nothing more (numba adds a signature to a kernel when it
    compiles or loads)."""
    done = subprocess.run([sys.executable, "-c", WARM_CHECK], capture_output=True, text=True,
                          timeout=600,
                          env={**__import__("os").environ, "KNIFFEL_TABLES": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


# --- an analysis's chances to win within its own budget of work ---------------------------------

EXAMPLE = "docs/examples/kniffel-game.json"  # two players, finished


def example_record():
    from pathlib import Path
    return json.loads((Path(__file__).resolve().parent.parent / EXAMPLE).read_text())


@pytest.mark.slow  # two analyses to win: about two seconds
def test_a_win_analysis_counts_the_latest_rounds_its_work_budget_affords_and_says_so():
    """A whole game's chances to win are a minute of work, past a server's time limit (it was
    refused "over the budget", then stopped at the time limit): the analysis judges the latest
    rounds whose work fits its budget and says from which round on, and why."""
    from solver import Tables
    from solver.ask.analysis import analyze
    from solver.lang import Words
    from solver.web.tasks import analysis_goal
    record = example_record()
    goal, _ = analysis_goal({"goal": "win"}, record)
    result = analyze(record, Tables(), goal, 1, work_budget=1.0)
    first = result["goal_from_round"]
    assert 1 < first <= 14 and result["goal_note"]["key"] in ("analyze.goal_from",
                                                              "analyze.goal_none")
    assert all(d["round"] >= first for d in result["decisions"] if "chance_loss" in d)
    for lang in ("en", "de"):
        text = Words(lang)(result["goal_note"]["key"], **result["goal_note"]["fields"])
        assert "{" not in text and "1 s" in text  # every field filled in, the budget named
    unbudgeted = analyze(record, Tables(), goal, 13)  # the command line's: as asked
    assert unbudgeted["goal_from_round"] == 13 and "goal_note" not in unbudgeted


def test_the_page_gets_the_note_of_an_analysis_cut_to_its_budget(client, monkeypatch):
    from solver.web import tasks
    monkeypatch.setattr(tasks, "ANALYSIS_WORK", 1.0)
    code, result = post(client, "/api/analyze", {"record": example_record(), "goal": "win"})
    assert code == 200, result
    assert result["goal_from_round"] > 1 and result["goal_note"]["fields"]["budget"] == "1"
    code, result = post(client, "/api/analyze", {"record": example_record(), "goal": "win",
                                                 "from_round": 13})
    assert code == 200 and result["goal_from_round"] == 13 and "goal_note" not in result
