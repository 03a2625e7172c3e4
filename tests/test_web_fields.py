"""Every field of every web request, checked by type and value once: a value the field takes is
answered (2xx), any other is refused with a 4xx whose message names the field, never a 500 and
never answered as if the field were absent ("goal": "Win", "language": 12345 and garbage in a
Dice Duel record's "format_version", "finished" or "scores" were, in the issue's field fuzz).

A request is a real one (a game started, a move made, a record the server wrote) with one field
set to a value hypothesis draws: from the values the field takes, or from every JSON value but
those.  The in-process app answers (one worker thread) from the shipped kniffel table."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("httpx")

FIELDS = settings(max_examples=40, deadline=None, derandomize=True,
                  suppress_health_check=[HealthCheck.function_scoped_fixture,
                                         HealthCheck.too_slow, HealthCheck.filter_too_much])
ANY = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8) | st.sampled_from(["de", "en", "win", "Win", "points", "1", "true"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=6)


def whole(low, high):
    """A whole number low..high (a JSON number, not true or false)."""
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def one_of(*values):
    return lambda v: isinstance(v, str) and v in values


def boolean(v):
    return isinstance(v, bool)


def name_list(v):
    return isinstance(v, list) and 1 <= len(v) <= 8 and all(
        isinstance(p, str) and p.strip() and len(p) <= 40 for p in v)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from starlette.testclient import TestClient

    from solver.ask.warm import warm
    from solver.web.app import create_app
    app = create_app(tmp_path_factory.mktemp("fields-store"), time_limit=5)
    for feature in ("win", "duel"):  # compiled first, as a server's jobs do
        warm(feature, app.state.tables)
    return TestClient(app, base_url="http://127.0.0.1",
                      headers={"content-type": "application/json"})


def post(client, path, body):
    response = client.post(path, content=json.dumps(body))
    return response.status_code, response.json()


@pytest.fixture(scope="module")
def game(client):
    """(record, hand) of a seeded game of two, one box filled, the next dice in hand."""
    code, state = post(client, "/api/new", {"players": ["a", "b"], "seed": 3})
    for move in [{"roll": True}, {"box": "chance"}, {"roll": True}]:
        code, state = post(client, "/api/game", {"record": state["record"],
                                                 "hand": state["hand"], "move": move})
        assert code == 200, state
    return state["record"], state["hand"]


@pytest.fixture(scope="module")
def duel(client):
    """A Dice Duel record of two players, one turn played."""
    code, state = post(client, "/api/duel/new", {"players": ["a", "b"], "seed": 7})
    for move in [{"roll": True}, {"keep": []}, {"roll": True}, None]:
        if move is None:
            option = state["turn"]["moves"][0]
            move = {"no_chip": True} if option["action"] == "no_chip" else \
                {"take": option["chip"], "from": option["from"]}
        code, state = post(client, "/api/duel/game", {"record": state["record"],
                                                      "hand": state["hand"], "move": move})
        assert code == 200, state
    return state["record"]


# (route, where: "" the request, "record" the record it carries, the field, whether a value is
# one the field takes, the words that name the field in a refusal); SAME: the value the request
# has there (a record's summary is what its moves give, nothing else)
SAME = "same"
CASES = [
    ("/api/new", "", "language", one_of("de", "en"), "language"),
    ("/api/new", "", "goal", one_of("points", "win"), "goal"),
    ("/api/new", "", "seed", lambda v: v is None or whole(0, 2**63 - 1)(v), "seed"),
    ("/api/new", "", "real_dice", lambda v: v is False, "real_dice|seed"),  # true: no seed then
    ("/api/new", "", "players", name_list, "players"),
    ("/api/new", "", "rules", one_of("kniffel"), "rules"),  # another preset: its table's solve
    ("/api/game", "", "language", one_of("de", "en"), "language"),
    ("/api/game", "", "goal", one_of("points", "win"), "goal"),
    ("/api/game", "", "move", lambda v: v is None, "move"),
    ("/api/game", "record", "format_version", SAME, "format_version|format version"),
    ("/api/game", "record", "finished", SAME, "finished"),
    ("/api/game", "record", "scores", SAME, "scores"),
    ("/api/game", "record", "real_dice", SAME, "real_dice"),
    # null: dice not checked against a seed (a record written by hand has none)
    ("/api/game", "record", "seed", lambda v: v is None or (v == 3 and whole(3, 3)(v)), "seed"),
    ("/api/game", "record", "package_version",
     lambda v: isinstance(v, str) and len(v) <= 40, "package_version"),
    ("/api/game", "record", "unread", lambda v: False, "unread"),
    ("/api/analyze", "", "goal", one_of("points", "win"), "goal"),
    ("/api/analyze", "", "from_round", whole(1, 13), "from_round"),
    ("/api/analyze", "record", "finished", SAME, "finished"),
    ("/api/analyze", "record", "format_version", SAME, "format_version|format version"),
    ("/api/duel/new", "", "language", one_of("de", "en"), "language"),
    ("/api/duel/new", "", "coach", boolean, "coach"),
    ("/api/duel/game", "", "language", one_of("de", "en"), "language"),
    ("/api/duel/game", "", "coach", boolean, "coach"),
    ("/api/duel/game", "", "advice", lambda v: v is None or isinstance(v, dict), "advice"),
    ("/api/duel/game", "", "hand", lambda v: v is None, "hand|dice"),  # not the seed's roll
    ("/api/duel/game", "record", "format_version", SAME, "format_version|format version"),
    ("/api/duel/game", "record", "finished", SAME, "finished"),
    ("/api/duel/game", "record", "scores", SAME, "scores"),
    ("/api/duel/game", "record", "package_version",
     lambda v: isinstance(v, str) and len(v) <= 40, "package_version"),
    ("/api/duel/game", "record", "unread", lambda v: False, "unread"),
    ("/api/duel/analyze", "", "language", one_of("de", "en"), "language"),
    ("/api/duel/analyze", "", "first", whole(0, 10**6), "first"),
    ("/api/duel/analyze", "record", "finished", SAME, "finished"),
    ("/api/duel/analyze", "record", "scores", SAME, "scores"),
    ("/api/duel/analyze", "record", "format_version", SAME, "format_version|format version"),
    ("/api/analyze", "", "why", boolean, "why"),  # last: the tests below name cases by index
    ("/api/game", "", "why", boolean, "why"),
]


def base(path, game, duel):
    """A request to `path` that is answered (2xx)."""
    record, hand = game
    return {"/api/new": {"players": ["a", "b"], "seed": 1},
            "/api/game": {"record": record, "hand": hand},
            "/api/analyze": {"record": record},
            "/api/duel/new": {"players": ["a", "b"], "seed": 1},
            "/api/duel/game": {"record": duel},
            "/api/duel/analyze": {"record": duel, "count": 0}}[path]


def with_value(request, where, field, value):
    request = json.loads(json.dumps(request))
    (request[where] if where else request)[field] = value
    return request


def check(client, game, duel, case, value):
    path, where, field, takes, named = case
    request = base(path, game, duel)
    if takes == SAME:  # the value it has, of the same type (true is not 1)
        same = (request[where] if where else request)[field]
        takes = lambda v: type(v) is type(same) and v == same  # noqa: E731
    code, answer = post(client, path, with_value(request, where, field, value))
    assert code != 500, (case[:3], value, answer)
    if takes(value):
        assert code == 200, (case[:3], value, answer)
    else:
        assert 400 <= code < 500, (case[:3], value, answer)
        assert any(word in answer["error"] for word in named.split("|")), (case[:3], answer)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}:{c[1] or 'body'}.{c[2]}")
@FIELDS
@given(data=st.data())
def test_a_field_is_answered_if_it_takes_the_value_else_refused_naming_it(client, game, duel,
                                                                          case, data):
    value = data.draw(ANY, label="value")
    check(client, game, duel, case, value)


@pytest.mark.parametrize("case, value", [
    (CASES[1], "Win"), (CASES[0], 12345), (CASES[7], "Win"), (CASES[6], 12345),
    (CASES[16], "Win"), (CASES[17], 12345), (CASES[20], 12345),
    (CASES[26], "1"), (CASES[27], "false"), (CASES[28], [1, 2]),
    (CASES[9], "1"), (CASES[10], "false"), (CASES[11], {"a": 1}), (CASES[15], 0)],
    ids=lambda x: str(x)[:40])
def test_the_issues_values_are_refused(client, game, duel, case, value):
    """The issue's examples, each on its own."""
    check(client, game, duel, case, value)


def test_the_values_that_are_taken_are_answered(client, game, duel):
    """Each field with a value it takes (the fuzz draws them rarely)."""
    for case, value in [(CASES[0], "de"), (CASES[1], "win"), (CASES[2], 2**63 - 1),
                        (CASES[4], ["a", "b", "c"]), (CASES[7], "points"),
                        (CASES[17], 13), (CASES[21], True), (CASES[24], {}), (CASES[32], 3),
                        (CASES[-2], True), (CASES[-1], True)]:
        check(client, game, duel, case, value)
