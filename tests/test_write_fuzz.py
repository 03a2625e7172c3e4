"""Property-based input to the written turn (another player's turn as a box and its points, no
dice): the move {"write": ...} of the game and of POST /api/game, and a record's written turn
replayed.  Only our own errors come out (GameError; over the web a 4xx with {"error"}), and
what is accepted is what some throw of five dice could write there."""
import copy
import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from solver.game import session
from solver.game.card import GameError, parse_box
from solver.game.record import replay
from solver.rules import BOXES_13

FUZZ = settings(max_examples=120, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda inner: (st.lists(inner, max_size=3)
                                   | st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                    max_leaves=8)
BOX = (st.sampled_from(BOXES_13) | st.sampled_from(["Chance", "full house", "3", "", "kniffel "])
       | JSON)
WRITE = st.fixed_dictionaries({}, optional={"box": BOX, "points": st.integers(-3, 80) | JSON,
                                            "extra_bonus": st.booleans() | JSON,
                                            "dice": JSON}) | JSON


def _game(real_dice=True):
    """Two players, Anna's first turn thrown and entered: Ben's turn to write."""
    record = session.new_record("kniffel", ["Anna", "Ben"], None if real_dice else 5, real_dice)
    if real_dice:
        record, hand = session.apply_move(record, None, {"roll": [6, 6, 6, 6, 6]})
    else:
        record, hand = session.apply_move(record, None, {"roll": True})
    record, _ = session.apply_move(record, hand, {"box": "kniffel"})
    return record


REAL, SEEDED = _game(), _game(False)


@FUZZ
@given(WRITE, st.booleans())
@example({"box": "full_house", "points": 25}, True)
@example({"box": "chance", "points": 4}, True)
@example({"box": "kniffel", "points": 50, "extra_bonus": True}, True)
def test_a_written_move_is_a_game_error_or_what_dice_could_write(write, real):
    record = REAL if real else SEEDED
    try:
        after, hand = session.apply_move(copy.deepcopy(record), None, {"write": write})
    except GameError:
        return
    assert real and hand is None and isinstance(write, dict)
    game = replay(json.loads(json.dumps(after)), strict=True)  # the record replays as written
    assert game.columns[1].card[parse_box(write["box"], game.rules)] == write["points"]
    assert game.columns[1].kniffel_bonuses == int(write.get("extra_bonus", False))


WRITTEN = st.fixed_dictionaries({"written": st.just(True)}, optional={
    "box": BOX, "points": st.integers(-3, 80) | JSON, "extra_bonuses": st.integers(-1, 2) | JSON,
    "x": JSON})


@FUZZ
@given(WRITTEN)
@example({"written": True, "box": "chance", "points": 22, "extra_bonuses": 0})
def test_a_records_written_turn_replays_or_is_a_game_error(decision):
    record = copy.deepcopy(REAL)
    record["turns"].append({"player": 1, "round": 1, "decisions": [decision]})
    try:
        game = replay(record)
    except GameError:
        return
    assert game.columns[1].card[parse_box(decision["box"], game.rules)] == decision["points"]


pytest.importorskip("httpx")
pytestmark = pytest.mark.filterwarnings("ignore:.*httpx")


@pytest.fixture(scope="module")
def client():
    from conftest import solved
    from helpers import web_client

    from solver.web.app import create_app
    return web_client(create_app(preloaded=[solved("kniffel")], time_limit=2))


@settings(FUZZ, max_examples=40)
@given(WRITE, st.sampled_from(["de", "en", None]))
@example({"box": "full_house", "points": 20}, "de")
def test_a_written_move_over_the_web_is_answered_in_json(client, write, language):
    data = {"record": REAL, "move": {"write": write},
            **({"language": language} if language else {})}
    response = client.post("/api/game", content=json.dumps(data).encode())
    body = response.json()
    assert response.status_code in (200, 400), (response.status_code, body)
    assert ("error" in body) == (response.status_code == 400), body
    if response.status_code == 200:
        from solver.rules import PRESETS
        assert (body["columns"][1]["card"][parse_box(write["box"], PRESETS["kniffel"])]
                == write["points"])
        assert body["turn"]["player"] == 0 and body["turn"]["write"] is not None  # Anna's turn next
