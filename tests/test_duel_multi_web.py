"""The web coach's Dice Duel for 2 or more players: a game through /api/duel/*, undo and resume
from the record, the advice line on /api/advise, and bad requests (400, one message)."""
import json

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from starlette.testclient import TestClient

    from solver.web.app import create_app
    # as the page talks: to the address served, with JSON bodies (web/guard.py refuses others)
    return TestClient(create_app(tmp_path_factory.mktemp("web-duel")), base_url="http://127.0.0.1",
                      headers={"content-type": "application/json"})


def step(client, st, move):
    """POST /api/duel/game: `move` made in the game of the state `st` (its record and hand)."""
    return post(client, "/api/duel/game", {"record": st["record"], "hand": st["hand"],
                                           "move": move})


def chosen(move):
    """The move of /api/duel/game that makes the turn's end move `move` (a state's)."""
    if move["action"] == "no_chip":
        return {"no_chip": True}
    return {"take": move["chip"], "from": move["from"]}


def post(client, path, data):
    response = client.post(path, content=json.dumps(data).encode())
    return response.status_code, response.json()


def test_a_game_with_undo_and_resume(client):
    code, st = post(client, "/api/duel/new", {"players": ["Anna", "Ben", "Carla"], "seed": 9})
    assert code == 200 and st["plate"] == [4] * 7 and len(st["seats"]) == 3 and st["to_move"] == 0
    code, st = step(client, st, {"roll": True})
    assert code == 200 and len(st["hand"]) == 5 and st["turn"]["rolls_left"] == 2
    first = st["hand"]
    code, st = post(client, "/api/duel/game", {"record": st["record"], "hand": st["hand"],
                                                "move": {"keep": []}})
    code, back = post(client, "/api/duel/game", {"record": st["record"], "hand": st["hand"],
                                                  "move": {"undo": True}})
    assert code == 200 and back["hand"] == first
    code, st = post(client, "/api/duel/game", {"record": back["record"], "hand": back["hand"],
                                                "move": {"keep": []}})
    code, st = post(client, "/api/duel/game", {"record": st["record"], "hand": None,
                                                "move": {"roll": True}, "coach": True})
    assert code == 200 and st["advice"]["options"] and 0 <= st["advice"]["probability"] <= 1
    code, st = step(client, st, {"keep": []})
    code, st = step(client, st, {"roll": True})
    code, st = step(client, st, chosen(st["turn"]["moves"][0]))
    assert code == 200 and st["to_move"] == 1 and st["record"]["turns"][0]["player"] == 0
    code, resumed = post(client, "/api/duel/game", {"record": json.loads(json.dumps(st["record"])),
                                                    "hand": None})
    assert resumed["seats"] == st["seats"] and resumed["plate"] == st["plate"]


@pytest.mark.parametrize("path, body", [
    ("/api/duel/new", {"players": ["A"] * 5}),
    ("/api/duel/new", {"players": "Anna"}),
    ("/api/duel/new", {"players": ["A", "B"], "options": {"ties": "maybe"}}),
    ("/api/duel/new", {"players": ["A", "B"], "seed": -1}),
    ("/api/duel/game", {"record": {"format": "nope"}}),
    ("/api/duel/game", {"record": None}),
])
def test_bad_requests_are_400_with_one_message(client, path, body):
    code, answer = post(client, path, body)
    assert code == 400 and list(answer) == ["error"] and "\n" not in answer["error"]


def test_bad_moves_are_400(client):
    _, st = post(client, "/api/duel/new", {"players": ["A", "B"], "seed": 1})
    for move in ({"keep": [1]}, {"roll": [1, 2, 3, 4, 5]}, {"take": "ls"}, {"fly": 1}, [1]):
        code, answer = step(client, st, move)
        assert code == 400 and "error" in answer, (move, answer)
    code, answer = post(client, "/api/duel/game", {"record": st["record"], "hand": [1, 2, 3]})
    assert code == 400


def test_advise_takes_the_contract_line(client):
    line = {"players": 2, "to_move": 0, "dice": [2, 3, 4, 5, 6], "rolls_left": 0,
            "chips": {"ls": [1, 0, 2, 1], "2p": [0, 0, 2, 2], "3k": [0, 0, 2, 2],
                      "ss": [0, 0, 2, 2], "fl": [0, 0, 2, 2], "fh": [0, 0, 2, 2],
                      "4k": [0, 0, 2, 2]}}
    code, answer = post(client, "/api/advise", line)
    assert code == 200 and answer["exact"] and answer["probability"] == 1.0
    code, answer = post(client, "/api/advise", {**line, "to_move": 3})
    assert code == 400 and "seat" in answer["error"]
    code, answer = post(client, "/api/advise", {"rules": "kniffel", "players": 2})
    assert code == 400 and "Dice Duel" in answer["error"]
    assert client.get("/duel").status_code == 200


# --- malformed records and requests (issue 34): a 4xx with one message, never a 500 -----------

def _played(client, moves=3):
    """A record of a 2-player game a few decisions in (seeded dice, the first legal moves)."""
    code, st = post(client, "/api/duel/new", {"players": ["a", "b"], "seed": 4})
    for _ in range(moves):
        if st["hand"] is None:
            code, st = post(client, "/api/duel/game", {"record": st["record"], "hand": None,
                                                       "move": {"roll": True}})
        code, st = step(client, st, chosen(st["turn"]["moves"][0]))
        assert code == 200
    return st["record"]


BAD_DECISIONS = {  # how the last decision of a record is spoiled -> words of the message
    "no choice": (lambda d: {"dice": d["dice"], "rolls_left": d["rolls_left"]}, "exactly one"),
    "no_chip false": (lambda d: {"dice": d["dice"], "rolls_left": d["rolls_left"],
                                 "no_chip": False}, "no_chip must be true"),
    "no_chip false and take": (lambda d: {**d, "no_chip": False}, "exactly one"),
    "keep and take": (lambda d: {**d, "keep": []}, "exactly one"),
    "from with keep": (lambda d: {"dice": d["dice"], "keep": [], "from": "plate"}, "exactly one"),
    "unknown field": (lambda d: {**d, "chips": 3}, "no field"),
    "no_chip 1": (lambda d: {"dice": d["dice"], "no_chip": 1}, "no_chip must be true"),
    "take a list": (lambda d: {"dice": d["dice"], "take": ["flush"]}, "unknown"),
    "from a list": (lambda d: {"dice": d["dice"], "take": "flush", "from": ["plate"]},
                    "from must be"),
}


@pytest.mark.parametrize("spoil", list(BAD_DECISIONS))
def test_a_malformed_decision_is_a_400_on_every_route(client, spoil):
    """The issue: none of keep/take/no_chip, or "no_chip": false, was a 500 (KeyError 'take')
    from /api/duel/analyze."""
    record = _played(client)
    change, words = BAD_DECISIONS[spoil]
    record["turns"][-1]["decisions"][-1] = change(record["turns"][-1]["decisions"][-1])
    for path, body in [("/api/duel/analyze", {"record": record}),
                       ("/api/duel/game", {"record": record, "hand": None}),
                       ("/api/duel/game", {"record": record, "hand": None,
                                           "move": {"undo": True}})]:
        code, answer = post(client, path, body)
        assert code == 400 and words in answer["error"], (path, answer)
        assert "\n" not in answer["error"], (path, answer)


@pytest.mark.parametrize("spoil", ["no choice", "no_chip false", "unknown field"])
def test_analyze_of_a_malformed_dice_duel_file_is_exit_2_with_one_line(client, capsys, tmp_path,
                                                                        spoil):
    from conftest import run
    record = _played(client)
    change, words = BAD_DECISIONS[spoil]
    record["turns"][-1]["decisions"][-1] = change(record["turns"][-1]["decisions"][-1])
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(record))
    code, out, err = run(capsys, "analyze", str(path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and words in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("path, body, words", [
    ("/api/duel/new", {"players": ["a", "b"], "seeed": 1}, "no field"),
    ("/api/duel/new", {"players": ["a", "b"], "options": []}, "options must be"),
    ("/api/duel/new", {"players": ["a", "b"], "real_dice": "yes"}, "the seed is"),
    ("/api/duel/new", {"players": ["a", "b"], "coach": "yes"}, "coach must be"),
    ("/api/duel/game", {"record": None, "hnad": None}, "no field"),
    ("/api/duel/analyze", {"record": None, "goal": "win"}, "no field"),
])
def test_unknown_fields_and_wrong_types_are_refused(client, path, body, words):
    code, answer = post(client, path, body)
    assert code == 400 and words in answer["error"], answer


def test_a_good_record_is_still_analysed(client):
    record = _played(client, 2)
    code, answer = post(client, "/api/duel/analyze", {"record": record, "language": "de"})
    assert code == 200 and len(answer["decisions"]) == 2


def test_dice_that_are_not_the_seeds_are_refused(client, capsys, tmp_path):
    from conftest import run
    record = _played(client, 2)
    first = record["turns"][0]["decisions"][0]
    changed = [1 if d != 1 else 2 for d in first["dice"]]
    bad = json.loads(json.dumps(record))
    bad["turns"][0]["decisions"][0] = {"dice": changed, "no_chip": True}
    for path, body in [("/api/duel/analyze", {"record": bad}),
                       ("/api/duel/game", {"record": bad, "hand": None})]:
        code, answer = post(client, path, body)
        assert code == 400 and "seed rolled" in answer["error"], answer
    code, st = step(client, {"record": record, "hand": None}, {"roll": True})
    wrong = [6, 6, 6, 6, 6] if sorted(st["hand"]) != [6] * 5 else [5] * 5
    code, answer = post(client, "/api/duel/game", {"record": record, "hand": wrong})
    assert code == 400 and "seed rolled" in answer["error"], answer
    assert post(client, "/api/duel/game", {"record": record, "hand": st["hand"]})[0] == 200
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(bad))
    code, out, err = run(capsys, "analyze", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "seed rolled" in err, err
