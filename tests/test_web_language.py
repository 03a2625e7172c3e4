"""What the server tells the scorecard page comes in the page's language: budget notices, a
wrong hand, a busy server or work over the budget (as words the page looks up); and the win
advice lists its options in the order of the chances it shows."""
import json
from types import SimpleNamespace

import pytest

pytest.importorskip("starlette")

from conftest import solved  # noqa: E402

# as the page talks: host and JSON bodies
from helpers import build_under_way, web_client  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from solver.web.app import create_app
    return web_client(create_app(tmp_path_factory.mktemp("web-tables"),
                                 preloaded=[solved("kniffel")]))


def post(client, path, data):
    response = client.post(path, content=json.dumps(data).encode())
    return response.status_code, response.json()


def test_a_budget_says_why_in_either_language_with_its_decimal_sign():
    from solver.advice.cost import OverBudget
    win = OverBudget("english", 70.4, 0.5, "budget.win")
    assert win.text("de") == ("der Rat auf Sieg ist hier etwa 70 s Arbeit (eine Schätzung, "
                              "gezählt auf der Referenzmaschine), mehr als das Budget von 0,5 s; "
                              "frag wieder, wenn weniger Felder offen sind oder die anderen "
                              "fertig sind, oder spiel auf Punkte")
    assert win.text("en").startswith("the win advice here is about 70 s of work")
    assert "0.5 s" in win.text("en")
    assert OverBudget("only a message").text("de") == "only a message"  # no words: as it came


@pytest.mark.parametrize("lang, words, budget", [("de", "Rat für Punkte: ", "Budget von 1 s"),
                                                 ("en", "advice for points: ", "budget of 1 s")])
def test_the_win_notice_of_a_game_is_in_its_language(client, monkeypatch, tmp_path, lang, words,
                                                     budget):
    """Round 1 with the goal "win" and no store of the opponents' distributions: advised for
    points, and the notice says why in the page's language."""
    from solver.game.card import Game
    from solver.stats import opponents
    monkeypatch.setattr(opponents, "get_store", lambda *args, **kwargs: None)  # no store
    from solver.web.tasks import _task_state
    record = json.loads(json.dumps(
        Game(solved("kniffel").rules, ["Ann", "Ben"], seed=3).record()))
    state = _task_state(client.app.state.tables, {"goal": "win", "language": lang}, record,
                        None, {"roll": True}, None)
    assert state["goal"] == "points" and state["notice"].startswith(words), state.get("notice")
    assert budget in state["notice"]


@pytest.mark.parametrize("lang, words", [
    ("de", "Vorerst Rat für Punkte: die Tabellen des Sieg-Trainers"),
    ("en", "Advice for points for now: the win coach's tables")])
def test_while_the_win_tables_build_the_notice_says_when(client, monkeypatch, lang, words):
    """A build under way (its progress file, a live process): the notice says how far it is and
    when the win advice comes, in the page's language, and no command line a web user cannot
    run; no offer to build what is being built."""
    from solver.game.card import Game
    from solver.stats import opponents
    monkeypatch.setattr(opponents, "get_store", lambda *args, **kwargs: None)  # no store
    rules = solved("kniffel").rules
    tables = client.app.state.tables
    path = build_under_way(rules, tables.directory)
    try:
        from solver.web.tasks import _task_state
        record = json.loads(json.dumps(Game(rules, ["Ann", "Ben"], seed=3).record()))
        state = _task_state(tables, {"goal": "win", "language": lang}, record, None,
                            {"roll": True}, None)
    finally:
        path.unlink()
    notice = state["notice"]
    assert state["goal"] == "points" and notice.startswith(words), notice
    assert ("40 % fertig" if lang == "de" else "40% done") in notice and "2 min" in notice
    assert "kniffel solve" not in notice and "--budget" not in notice and "offer" not in state


@pytest.mark.parametrize("lang, words", [
    ("de", "Der exakte Rat auf Sieg braucht die Tabellen des Sieg-Trainers für Kniffel"),
    ("en", "The exact win advice needs the win coach's tables of Kniffel")])
def test_without_the_win_tables_the_page_offers_their_build(client, monkeypatch, lang, words):
    """No win tables and none being built: the state offers their build with its cost, in the
    page's language (the page shows it with a button, POST /api/build); nothing is started."""
    from solver.game.card import Game
    from solver.stats import opponents
    monkeypatch.setattr(opponents, "get_store", lambda *args, **kwargs: None)  # no store
    rules = solved("kniffel").rules
    tables = client.app.state.tables
    from solver.web.tasks import _task_state
    record = json.loads(json.dumps(Game(rules, ["Ann", "Ben"], seed=3).record()))
    state = _task_state(tables, {"goal": "win", "language": lang}, record, None, {"roll": True},
                        None)
    offer = state["offer"]
    assert offer["rules"] == "kniffel" and offer["text"].startswith(words), offer
    assert (" GB " in offer["text"] or " MB " in offer["text"]) and "min" in offer["text"]
    assert "kniffel solve" not in offer["text"] and "--build" not in offer["text"]
    assert client.get("/api/jobs").json()["jobs"] == []


def test_a_wrong_hand_is_refused_in_the_page_language(client):
    from solver.game.card import Game
    record = Game(solved("kniffel").rules, ["Ann"], seed=3).record()
    for lang, words in (("de", "Würfel in der Hand: es braucht genau 5, nicht 0"),
                        ("en", "hand: need exactly 5 dice, got 0")):
        code, answer = post(client, "/api/game", {"record": record, "hand": [], "language": lang})
        assert code == 400 and words in answer["error"], answer


def test_busy_and_over_budget_errors_carry_their_words():
    """The page says these in its language from their words (key and fields of solver/lang)."""
    from solver.lang import Words
    from solver.web import app, work
    stopped = app._error(work.Stopped("the work ran past this server's time limit of 10 s", 422,
                                      ("web.over_limit", {"seconds": 10})))
    assert (stopped["error"].startswith("the work ran past")
            and stopped["words"]["key"] == "web.over_limit")
    assert Words("de")(stopped["words"]["key"],
                       **stopped["words"]["fields"]).startswith("Die Rechnung")
    busy = app._error(work.Busy("all 1 workers are busy", words=("web.server_busy", {})),
                      retry_after=2)
    assert busy["words"] == {"key": "web.server_busy", "fields": {}} and busy["retry_after"] == 2
    assert "words" not in app._error(work.Failed("a plain error"))


def test_approximate_win_options_come_in_the_order_of_the_chance_shown():
    """Ranked by the estimate (the chance the list shows), not by the interval's upper end: an
    option with a higher upper end but a lower estimate comes after."""
    from solver.advice.win.approximation import alpha, with_interval

    def advice(options):
        return SimpleNamespace(options=options, probability=options[0]["probability"],
                               expected_final_score=options[0]["expected_final_score"])

    def keep(dice):
        return {"action": "keep", "keep": dice}

    # high ranks "3 3" first (upper end 0.0080), but its low end is far below "5 6"'s
    high = advice([dict(keep([3, 3]), probability=0.0080, expected_final_score=240.0),
                   dict(keep([5, 6]), probability=0.0076, expected_final_score=239.0),
                   dict(keep([6]), probability=0.0075, expected_final_score=238.0)])
    low = advice([dict(keep([5, 6]), probability=0.0070, expected_final_score=239.5),
                  dict(keep([6]), probability=0.0068, expected_final_score=238.5),
                  dict(keep([3, 3]), probability=0.0040, expected_final_score=240.5)])
    answer = with_interval(low, high)
    shown = [o["probability"] for o in answer.options]
    assert shown == sorted(shown, reverse=True), shown
    a = alpha()
    assert [o["keep"] for o in answer.options] == [[5, 6], [6], [3, 3]]
    assert answer.options[0]["probability"] == pytest.approx(0.0070 + a * (0.0076 - 0.0070))
    assert answer.probability == answer.options[0]["probability"]
