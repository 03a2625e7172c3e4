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


def post(client, path, data):
    response = client.post(path, content=json.dumps(data).encode())
    return response.status_code, response.json()


def test_a_game_with_undo_and_resume(client):
    code, st = post(client, "/api/duel/new", {"players": ["Anna", "Ben", "Carla"], "seed": 9})
    assert code == 200 and st["plate"] == [4] * 7 and len(st["seats"]) == 3 and st["to_move"] == 0
    code, st = post(client, "/api/duel/game", {"record": st["record"], "hand": None, "move": {"roll": True}})
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
    code, st = post(client, "/api/duel/game", {"record": st["record"], "hand": st["hand"], "move": {"keep": []}})
    code, st = post(client, "/api/duel/game", {"record": st["record"], "hand": None, "move": {"roll": True}})
    move = st["turn"]["moves"][0]
    choice = {"no_chip": True} if move["action"] == "no_chip" else {"take": move["chip"], "from": move["from"]}
    code, st = post(client, "/api/duel/game", {"record": st["record"], "hand": st["hand"], "move": choice})
    assert code == 200 and st["to_move"] == 1 and st["record"]["turns"][0]["player"] == 0
    code, resumed = post(client, "/api/duel/game", {"record": json.loads(json.dumps(st["record"])), "hand": None})
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
        code, answer = post(client, "/api/duel/game", {"record": st["record"], "hand": None, "move": move})
        assert code == 400 and "error" in answer, (move, answer)
    code, answer = post(client, "/api/duel/game", {"record": st["record"], "hand": [1, 2, 3]})
    assert code == 400


def test_advise_takes_the_contract_line(client):
    line = {"players": 2, "to_move": 0, "dice": [2, 3, 4, 5, 6], "rolls_left": 0,
            "chips": {"ls": [1, 0, 2, 1], "2p": [0, 0, 2, 2], "3k": [0, 0, 2, 2], "ss": [0, 0, 2, 2],
                      "fl": [0, 0, 2, 2], "fh": [0, 0, 2, 2], "4k": [0, 0, 2, 2]}}
    code, answer = post(client, "/api/advise", line)
    assert code == 200 and answer["exact"] and answer["probability"] == 1.0
    code, answer = post(client, "/api/advise", {**line, "to_move": 3})
    assert code == 400 and "seat" in answer["error"]
    code, answer = post(client, "/api/advise", {"rules": "kniffel", "players": 2})
    assert code == 400 and "Dice Duel" in answer["error"]
    assert client.get("/duel").status_code == 200
