"""Property-based requests to every endpoint of `kniffel serve` (the Dice Duel's too) with its
limits (a budget per request, at most 7 opponents, JSON bodies only, the Host and Origin checks):
the answer is always JSON, an error is a 4xx with {"error": ...}, never a traceback or another 5xx.

The in-process app (one worker thread, a budget of two seconds) answers from the shipped
kniffel table; the only 5xx allowed is the designed 503 of a table being solved (a house rule
the fuzz happens to make valid), with its Retry-After."""
import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

pytest.importorskip("httpx")

from solver.rules import BOX_ALIASES, BOXES_13  # noqa: E402

FUZZ = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large, HealthCheck.filter_too_much])
FEW = settings(FUZZ, max_examples=60)
HUGE = st.sampled_from([2**63 - 1, 2**63, 2**64, 10**30, -(2**63) - 1, -(10**30)])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 400) | st.integers() | HUGE | st.floats()
    | st.text(max_size=12),
    lambda inner: (st.lists(inner, max_size=4)
                   | st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=10)
CARD_DICTS = st.dictionaries(st.sampled_from(sorted(set(BOXES_13) | set(BOX_ALIASES)))
                             | st.text(max_size=8),
                             st.integers(-5, 60) | JSON_VALUES, max_size=8)
DICE_LISTS = st.lists(st.integers(-1, 8) | HUGE | JSON_VALUES, max_size=7)
BOX = st.sampled_from(BOXES_13)
CARD = st.dictionaries(BOX, st.sampled_from([0, 1, 2, 3, 6, 9, 12, 25, 30, 40, 50]),
                       max_size=13) | CARD_DICTS
OPPONENT = st.fixed_dictionaries({}, optional={"card": CARD | JSON_VALUES,
                                               "final": st.integers(-5, 400) | JSON_VALUES,
                                               "kniffel_bonuses": st.integers(-1, 3),
                                               "x": JSON_VALUES})
ADVISE = st.fixed_dictionaries({}, optional={
    "rules": st.sampled_from(["kniffel", "nope", "", "dice-duel"]), "card": CARD | JSON_VALUES,
    "dice": DICE_LISTS | JSON_VALUES | st.integers(11111, 66666),
    "rolls_left": st.integers(-1, 3) | JSON_VALUES,
    "target": st.integers(-5, 2000) | HUGE | JSON_VALUES,
    "opponents": st.lists(OPPONENT, max_size=9) | JSON_VALUES,
    "ties": st.sampled_from(["share", "lose", "x"])})
NEW = st.fixed_dictionaries({}, optional={
    "rules": st.sampled_from(["kniffel", "yatzy-x", ""]) | JSON_VALUES,
    "options": st.dictionaries(st.sampled_from(["x", "name", ""]), JSON_VALUES,
                               max_size=2) | JSON_VALUES,
    "players": st.lists(st.text(max_size=5), max_size=10) | JSON_VALUES, "real_dice": JSON_VALUES,
    "seed": st.integers(-1, 2**64) | JSON_VALUES, "language": JSON_VALUES,
    "goal": st.sampled_from(["points", "win", "x"]) | JSON_VALUES, "seeed": JSON_VALUES})
HEADERS = st.fixed_dictionaries({}, optional={
    "host": st.sampled_from(["127.0.0.1", "localhost:1", "evil.example", "127.0.0.1:x",
                             "", "[::1]"]),
    "origin": st.sampled_from(["http://127.0.0.1", "null", "http://evil.example", "x"]),
    "content-type": st.sampled_from(["application/json", "text/plain",
                                     "application/json; charset=utf-8",
                                     "multipart/form-data", ""])})


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from starlette.testclient import TestClient

    from solver.ask.warm import warm
    from solver.web.app import create_app
    app = create_app(tmp_path_factory.mktemp("fuzz-store"), time_limit=2)
    for feature in ("win", "duel"):  # compiled first, as a server's jobs do: no request pays
        warm(feature, app.state.tables)
    return TestClient(app, base_url="http://127.0.0.1",
                      headers={"content-type": "application/json"})


@pytest.fixture(scope="module")
def record(client):
    start = client.post("/api/new", json={"seed": 3, "players": ["a", "b"]}).json()
    rolled = client.post("/api/game",
                         json={"record": start["record"], "move": {"roll": True}}).json()
    return client.post("/api/game", json={"record": rolled["record"], "hand": rolled["hand"],
                                          "move": {"box": "chance"}}).json()["record"]


def answered(response):
    """The property: JSON always; 2xx without "error", 4xx with it; no 5xx but a job to wait
    for (503, Retry-After, the job's progress: a table being solved)."""
    body = response.json()
    if response.status_code == 503:
        assert "being prepared" in body["error"] and int(response.headers["retry-after"]) > 0
        assert body["job"]["state"] in ("running", "done", "failed"), body
    else:
        assert response.status_code < 500, (response.status_code, body)
    assert ("error" in body) == (response.status_code >= 400), (response.status_code, body)
    return body


@FUZZ
@example(line={"card": {"ones": 3}, "dice": 55566})
@example(line={"card": {"ones": 3}, "unknown": 1})
@example(line={"opponents": [{"card": {}}] * 8})
@example(line={"opponents": [{"card": {}}]})  # minutes of work: over the budget
@given(line=ADVISE)
def test_advise(client, line):
    body = answered(client.post("/api/advise", content=json.dumps(line)))
    if isinstance(line.get("opponents"), list) and len(line["opponents"]) > 7:
        assert "error" in body


@FEW
@given(data=NEW)
def test_new(client, data):
    body = answered(client.post("/api/new", content=json.dumps(data)))
    if "seeed" in data:
        assert "error" in body


PATHS = [(), ("record",), ("record", "turns", 0), ("record", "turns", 0, "decisions", 0)]
KEYS = ["record", "hand", "move", "language", "goal", "rules", "turns", "players", "seed",
        "scores", "format", "format_version", "round", "card_total", "dice", "box", "keep",
        "points", "jokers", "extra_bonuses", "x"]


def mutated(data, path, key, value):
    data = json.loads(json.dumps(data))
    place = data
    for step in path:
        place = place[step]
    place[key] = value
    return data


@FUZZ
@given(path=st.sampled_from(PATHS), key=st.sampled_from(KEYS), value=JSON_VALUES,
       move=st.fixed_dictionaries({}, optional={"roll": JSON_VALUES, "keep": DICE_LISTS,
                                                "box": BOX | JSON_VALUES, "undo": JSON_VALUES}),
       goal=st.sampled_from(["points", "win"]))
def test_game_and_analyze(client, record, path, key, value, move, goal):
    game = mutated({"record": record, "move": move, "goal": goal}, path, key, value)
    answered(client.post("/api/game", content=json.dumps(game)))
    analysis = mutated({"record": record}, path, key, value)
    answered(client.post("/api/analyze", content=json.dumps(analysis)))


@FEW
@given(headers=HEADERS,
       path=st.sampled_from(["/api/info", "/api/jobs", "/", "/api/advise", "/api/new"]),
       body=st.sampled_from([b"", b"{}", b"[]", b"\xff", b'{"card": {}}']))
def test_any_headers(client, headers, path, body):
    if path in ("/api/info", "/api/jobs", "/"):
        response = client.get(path, headers=headers)
        if path == "/" and response.status_code == 200:
            return  # the page, not JSON
    else:
        response = client.post(path, content=body, headers=headers)
    answered(response)
    host, origin = headers.get("host", "127.0.0.1"), headers.get("origin")
    if host.split(":")[0] in ("evil.example", "") or origin in ("null", "http://evil.example", "x"):
        assert response.status_code == 403


@FEW
@example(path="new", data={"players": ["a", "b"], "seed": 1})
@given(path=st.sampled_from(["new", "game", "analyze"]),
       data=st.dictionaries(st.sampled_from(["players", "seed", "record", "hand", "move",
                                             "coach", "x"]),
                            JSON_VALUES, max_size=4))
def test_dice_duel_endpoints(client, path, data):
    answered(client.post(f"/api/duel/{path}", content=json.dumps(data)))


@pytest.fixture(scope="module")
def duel_record(client):
    """A Dice Duel record of two players, one turn each (a keep, then a chip or none)."""
    state = client.post("/api/duel/new", json={"players": ["a", "b"], "seed": 7}).json()
    for move in [{"roll": True}, {"keep": []}, {"roll": True}, None, {"roll": True}, None]:
        if move is None:  # the first end move the rules allow
            option = state["turn"]["moves"][0]
            move = {"no_chip": True} if option["action"] == "no_chip" else \
                {"take": option["chip"], "from": option["from"]}
        state = client.post("/api/duel/game", json={"record": state["record"],
                                                    "hand": state["hand"], "move": move}).json()
    return state["record"]


@pytest.fixture
def quick_analysis(monkeypatch):
    """The Dice Duel analysis with 8 rollouts an option for a decision no advice was noted for."""
    from solver.duel.multiplayer import analysis
    monkeypatch.setattr(analysis, "ANALYSIS_GAMES", 8)


DUEL_PATHS = [(), ("turns", 0), ("turns", 0, "decisions", 0), ("turns", 0, "decisions", 1),
              ("turns", 1, "decisions", 0)]
DUEL_KEYS = ["record", "hand", "move", "coach", "language", "format", "format_version", "rules",
             "players", "seed", "real_dice", "finished", "scores", "turns", "player", "decisions",
             "dice", "rolls_left", "keep", "take", "from", "no_chip", "x"]
DUEL_MOVES = st.fixed_dictionaries({}, optional={
    "roll": st.booleans() | DICE_LISTS, "keep": DICE_LISTS,
    "take": st.sampled_from(["flush", "fh", "x"]) | JSON_VALUES,
    "from": st.sampled_from(["plate", "aside"]) | JSON_VALUES, "no_chip": JSON_VALUES,
    "undo": JSON_VALUES})


@settings(FUZZ, max_examples=40)
@example(path=("turns", 1, "decisions", 0), key="no_chip", value=False, move={}, delete=True)
@example(path=("turns", 0, "decisions", 1), key="take", value=None, move={}, delete=True)
@given(path=st.sampled_from(DUEL_PATHS), key=st.sampled_from(DUEL_KEYS), value=JSON_VALUES,
       move=DUEL_MOVES, delete=st.booleans())
def test_dice_duel_records_and_moves(client, duel_record, quick_analysis, path, key, value, move,
                                     delete):
    """A real Dice Duel record with one field changed (or its choice removed): /api/duel/game
    and /api/duel/analyze answer it or refuse it with a 4xx, never a 500 (the issue's KeyError
    'take' was one)."""
    record = mutated(duel_record, path, key, value)
    if delete:  # a decision without its choice: none of keep/take/no_chip
        place = record
        for step in path:
            place = place[step]
        for choice in ("keep", "take", "no_chip", "from"):
            if choice != key:
                place.pop(choice, None)
    answered(client.post("/api/duel/game",
                         content=json.dumps({"record": record, "move": move or None})))
    answered(client.post("/api/duel/analyze", content=json.dumps({"record": record})))
    answered(client.post("/api/duel/game", content=json.dumps(mutated(
        {"record": duel_record, "hand": None, "move": move}, (), key, value))))


@settings(FUZZ, max_examples=20)
@example(path=("turns", 0, "decisions", 1), key="no_chip", value=False)
@given(path=st.sampled_from(DUEL_PATHS[1:]), key=st.sampled_from(DUEL_KEYS), value=JSON_VALUES)
def test_analyze_of_a_changed_dice_duel_file_is_an_answer_or_one_line(client, duel_record,
                                                                      quick_analysis,
                                                                      tmp_path_factory, capsys,
                                                                      path, key, value):
    """`kniffel analyze` of the same records: exit 0, or 2 with one line; never a traceback."""
    from conftest import run
    file = tmp_path_factory.mktemp("duel-file") / "duel.json"
    file.write_text(json.dumps(mutated(duel_record, path, key, value)))
    code, out, err = run(capsys, "analyze", str(file), "--json")
    assert (code, err) == (0, "") or (code == 2 and len(err.strip().splitlines()) == 1), (code, err)


# --- the hostile values: lists nested 900 deep, strings where numbers belong ------------

def nested(depth, kind):
    """The JSON text of a value `depth` lists (or objects) deep: written as text, because
    json.dumps would recurse as deep."""
    if kind == "list":
        return "[" * depth + "1" + "]" * depth
    return '{"a": ' * depth + "1" + "}" * depth


DEEP = st.builds(nested, st.integers(65, 1000), st.sampled_from(["list", "object"]))
MARK = "kniffel-test-mark"
NUMBER_TEXTS = st.sampled_from(["12", "3", "0", "7", "-1", "false", "true", "1e3", " 2", ""])


def placed(data, path, key, text):
    """The JSON text of `data` with data[path][key] the JSON text `text`."""
    return json.dumps(mutated(data, path, key, MARK)).replace(json.dumps(MARK), text)


def refused(response):
    """The property of a hostile request: a 4xx with {"error": ...}, never a 500."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])
    assert "error" in response.json(), response.text[:300]


RECORD_PLACES = [(path, key) for path in PATHS[1:] for key in KEYS] + [
    (("record", "turns", 0, "start"), "card"), (("record", "turns", 0, "decisions", 0), "dice"),
    (("record", "rules"), "upper_bonus"), ((), "hand"), ((), "move"), ((), "goal")]
# where the record holds a number (or true/false): a string there is refused
RECORD_NUMBERS = [(("record",), "seed"), (("record",), "real_dice"),
                  (("record",), "format_version"), (("record", "turns", 0), "round"),
                  (("record", "turns", 0), "player"), (("record", "turns", 0), "card_total"),
                  (("record", "turns", 0, "decisions", 0), "points"),
                  (("record", "turns", 0, "decisions", 0), "rolls_left"),
                  (("record", "turns", 0, "decisions", 0), "extra_bonuses"),
                  (("record", "turns", 0, "decisions", 0, "dice"), 0),
                  (("record", "turns", 0, "start", "card"), "chance")]


@settings(FUZZ, max_examples=80)
@example(where=(("record",), "turns"), deep=nested(900, "list"), path="game")
@example(where=(("record",), "turns"), deep=nested(900, "list"), path="analyze")
@given(where=st.sampled_from(RECORD_PLACES), deep=DEEP, path=st.sampled_from(["game", "analyze"]))
def test_a_record_nested_900_deep_is_a_400(client, record, where, deep, path):
    """It was a 500 (RecursionError: the repr of the value in an error message)."""
    refused(client.post(f"/api/{path}", content=placed({"record": record}, *where, deep)))


@settings(FUZZ, max_examples=80)
@example(where=(("record", "turns", 0, "decisions", 0), "points"), text="12", path="game")
@example(where=(("record", "turns", 0), "round"), text="3", path="analyze")
@example(where=(("record",), "real_dice"), text="false", path="analyze")
@example(where=(("record",), "seed"), text="7", path="game")
@given(where=st.sampled_from(RECORD_NUMBERS), text=NUMBER_TEXTS,
       path=st.sampled_from(["game", "analyze"]))
def test_a_string_where_a_record_holds_a_number_is_a_400(client, record, where, text, path):
    """"points": "12" is not 12, and "real_dice": "false" is not false (it was taken as true)."""
    refused(client.post(f"/api/{path}", content=placed({"record": record}, *where,
                                                       json.dumps(text))))


NEW_PLACES = {"seed": ((), "seed"), "real_dice": ((), "real_dice"),
              "upper_bonus": (("options",), "upper_bonus"), "players": (("players",), 0),
              "rules": ((), "rules"), "goal": ((), "goal"), "language": ((), "language")}
NEW_NUMBERS = ("seed", "real_dice", "upper_bonus")  # a number or true/false: not a string


@settings(FUZZ, max_examples=60)
@example(field="seed", text="7", deep=None)
@example(field="real_dice", text="false", deep=None)
@example(field="players", text="", deep=nested(900, "list"))
@given(field=st.sampled_from(sorted(NEW_PLACES)), text=NUMBER_TEXTS, deep=st.none() | DEEP)
def test_a_new_game_with_a_string_or_a_deep_value_is_a_400(client, field, text, deep):
    """/api/new: {"seed": "7"}, {"real_dice": "false"}, an option's number as a string, or any
    field nested too deep."""
    if deep is None and field not in NEW_NUMBERS:
        return  # words (names, a preset, a goal): the fuzz above throws strings at them
    data = {"players": ["a", "b"], "options": {}}
    refused(client.post("/api/new", content=placed(data, *NEW_PLACES[field],
                                                   deep or json.dumps(text))))


# where the Dice Duel's record holds a number it reads (its summary, "format_version", "finished"
# and "scores", it does not read: the replay makes them again)
DUEL_NUMBERS = [((), "seed"), ((), "real_dice"), (("turns", 0), "player"),
                (("turns", 0, "decisions", 0), "rolls_left"),
                (("turns", 0, "decisions", 0, "dice"), 0),
                (("turns", 0, "decisions", 1), "rolls_left")]


@settings(FUZZ, max_examples=60)
@example(where=((), "turns"), value=nested(900, "list"), path="game")
@example(where=((), "seed"), value='"7"', path="analyze")
@example(where=((), "real_dice"), value='"false"', path="game")
@given(where=st.sampled_from(DUEL_NUMBERS + [((), "turns"), ((), "players"), ((), "rules")]
                             + [(p, k) for p in DUEL_PATHS for k in ("dice", "keep", "x")]),
       value=DEEP | NUMBER_TEXTS.map(json.dumps), path=st.sampled_from(["game", "analyze"]))
def test_dice_duel_records_nested_deep_or_with_strings_for_numbers_are_a_400(
        client, duel_record, quick_analysis, where, value, path):
    deep = value.startswith(("[", "{"))
    if not deep and where not in DUEL_NUMBERS:
        return  # a string in place of a list: the fuzz above
    body = '{"record": ' + placed(duel_record, *where, value) + "}"
    refused(client.post(f"/api/duel/{path}", content=body))


@settings(FUZZ, max_examples=40)
@example(field="seed", value='"7"')
@example(field="real_dice", value='"false"')
@example(field="players", value=nested(900, "list"))
@given(field=st.sampled_from(["seed", "real_dice", "players", "options", "coach", "language"]),
       value=DEEP | NUMBER_TEXTS.map(json.dumps))
def test_a_new_dice_duel_with_a_string_or_a_deep_value_is_a_400(client, field, value):
    if field in ("language",) and not value.startswith(("[", "{")):
        return  # a language word: de or en, else refused (tests/test_web_fields.py)
    refused(client.post("/api/duel/new", content=placed({"players": ["a", "b"]}, (), field,
                                                         value)))


@settings(FUZZ, max_examples=30)
@example(field="card", deep=nested(900, "list"))
@given(field=st.sampled_from(["card", "dice", "opponents", "rules", "x"]), deep=DEEP)
def test_a_question_nested_deep_is_a_400(client, field, deep):
    refused(client.post("/api/advise", content=placed({"dice": [1, 2, 3, 4, 5]}, (), field, deep)))
