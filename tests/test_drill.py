"""The drill (solver/history/drill.py, `kniffel drill`, the page /drill): positions from the
player's own costly decisions, costliest first, then the built-in set dearest first; each answer
priced as `kniffel analyze` prices the same decision; a wrong answer back after AGAIN other
answers, a right one later; everything kept in the history (schema 2, migrated from 1); hostile
answers refused with one line."""
import json
import sqlite3

import pytest
from conftest import run, solved
from helpers import played
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.ask.analysis import analyze
from solver.ask.answer import answer
from solver.ask.tables import Tables
from solver.game.card import GameError
from solver.history import drill, store
from solver.history.games import keep_game, questions

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx")  # starlette's test client


@pytest.fixture
def tables():
    return Tables(preloaded=[solved("kniffel")])


def sixes_first(turn, dice, best):
    """Enters the first roll of each of the first three rounds where it scores most now, never
    rolling on (three costly decisions of one kind or another)."""
    if turn.record["round"] <= 3:
        options = turn.options()
        box = max(options, key=lambda b: options[b][0])
        return {"box": box, "jokers": []}
    return None


def kept_game(db, tables, name="Ida", seed=5, mistake=sixes_first):
    """A game of `name` with costly decisions, kept in the history at `db`: its analysis."""
    record = played(solved("kniffel"), name, seed, mistake)
    result = analyze(record, tables)
    keep_game(db, record, result, "play")
    return record, result


def answer_of(question, best=True, tables=None):
    """The best answer to `question` (or a wrong one: the dearest box) as a decision."""
    advice = answer(drill.question_request(question, why=False), tables)
    option = advice.options[0] if best else advice.options[-1]
    return ({"keep": option["keep"]} if option["action"] == "keep" else {"box": option["box"]})


def test_own_costly_decisions_come_first_costliest_first_then_the_built_in_set(tmp_path, tables):
    db = tmp_path / "h.sqlite"
    record, result = kept_game(db, tables)
    costly = sorted((d for d in result["decisions"] if d["loss"] >= drill.MIN_LOSS),
                    key=lambda d: -d["loss"])
    assert len(costly) >= 2
    asked = questions(record)
    with store.open_history(db) as history:
        fresh = []  # the positions asked for the first time (a due one comes back between)
        while len(fresh) < len(costly) + 2:
            item = drill.next_question(history, "Ida")
            if item["asked_before"] == 0:
                fresh.append(item)
            drill.answer_item(history, "Ida", item["id"], answer_of(item["question"], True,
                                                                     tables), tables)
    own = fresh[:len(costly)]
    assert [i["source"] for i in own] == ["game"] * len(costly)
    assert [i["price"] for i in own] == pytest.approx([d["loss"] for d in costly])
    assert own[0]["question"] == asked[result["decisions"].index(costly[0])]
    assert own[0]["round"] == costly[0]["round"]
    built_in = drill.built_in()
    assert [i["source"] for i in fresh[len(costly):]] == ["built-in"] * 2
    assert fresh[len(costly)]["question"] == built_in[0]["question"]  # the dearest first
    assert fresh[len(costly)]["price"] == pytest.approx(built_in[0]["price"])


def test_an_answer_costs_what_analyze_says_the_same_decision_gave_away(tmp_path, tables):
    """The drill prices the answer the player gave in the game exactly as analyze priced it."""
    db = tmp_path / "h.sqlite"
    record, result = kept_game(db, tables)
    with store.open_history(db) as history:
        item = drill.next_question(history, "Ida")
        number = questions(record).index(item["question"])
        made = result["decisions"][number]["choice"]
        decision = {"keep": made["keep"]} if "keep" in made else {"box": made["box"]}
        judged = drill.answer_item(history, "Ida", item["id"], decision, tables)
    assert not judged["right"]
    assert judged["cost"] == pytest.approx(result["decisions"][number]["loss"], abs=1e-9)
    assert judged["advice"].why is not None  # the why of every option


def test_a_wrong_answer_comes_back_after_two_others_a_right_one_later(tmp_path, tables):
    """Spaced repetition counted in answers: A wrong as the 1st answer is asked again as the
    4th (AGAIN = 2 others between); B right as the 2nd comes back as the 6th (GAPS[0] = 3
    others between: C, A again and D)."""
    db = tmp_path / "h.sqlite"
    with store.open_history(db) as history:
        order, gaps = [], []
        for n in range(1, 7):
            item = drill.next_question(history, "Neu")
            order.append(item["id"])
            judged = drill.answer_item(history, "Neu", item["id"],
                                       answer_of(item["question"], n != 1, tables), tables)
            assert judged["right"] is (n != 1)
            gaps.append(judged["again_after"])
        summary = drill.drill_summary(history, "Neu")
    a, b, c, _, d, _ = order
    assert order == [a, b, c, a, d, b] and len({a, b, c, d}) == 4
    assert drill.AGAIN == 2 and drill.GAPS[0] == 3
    assert gaps[0] == drill.AGAIN and gaps[1] == gaps[3] == drill.GAPS[0]
    assert gaps[5] == drill.GAPS[1]  # B right twice in a row: later still
    assert summary["answers"] == 6 and summary["right"] == 5 and summary["positions"] == 4


def test_the_built_in_positions_are_priced_by_their_temptation_dearest_first(tables):
    """Each built-in position's price is what its tempting move gives away, recomputed here;
    dearest first, at most PER_KIND of a kind; each tempting move is a real mistake."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    from drill_positions import PER_KIND

    from solver.advice.choices import matching_option
    positions = drill.built_in()
    assert len(positions) >= 20
    prices = [p["price"] for p in positions]
    assert prices == sorted(prices, reverse=True) and prices[-1] > 1
    kinds = [p["kind"] for p in positions]
    assert max(kinds.count(k) for k in kinds) <= PER_KIND and len(set(kinds)) >= 5
    for p in positions[:: max(1, len(positions) // 8)]:
        advice = answer(drill.question_request(p["question"], why=False), tables)
        tempting = matching_option(advice.options, p["tempting"])
        price = advice.options[0]["expected_final_score"] - tempting["expected_final_score"]
        assert price == pytest.approx(p["price"], abs=1e-6)


def test_a_history_of_schema_1_is_migrated_with_its_games(tmp_path, tables):
    """A file written by the kniffel before the drill (schema 1) keeps its games and gains the
    drill's tables, in one transaction; then the drill works on it."""
    db = tmp_path / "old.sqlite"
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("BEGIN")
    store.MIGRATIONS[0](con)
    con.execute(f"PRAGMA application_id = {store.APPLICATION_ID}")
    con.execute("PRAGMA user_version = 1")
    con.execute("COMMIT")
    con.close()
    original = store.SCHEMA_VERSION
    try:  # the game kept as the old kniffel kept it: schema 1 alone
        store.SCHEMA_VERSION = 1
        kept_game(db, tables)
    finally:
        store.SCHEMA_VERSION = original
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 1
    con.close()
    with store.open_history(db, write=False) as history:
        assert history.db.execute("PRAGMA user_version").fetchone()[0] == 2
        assert history.db.execute("SELECT count(*) FROM games").fetchone()[0] == 1
        item = drill.next_question(history, "Ida")
    assert item["source"] == "game"


@given(st.text(max_size=40))
@settings(max_examples=300, deadline=None)
def test_any_typed_answer_is_a_move_or_one_line(text):
    """parse_answer: a decision, or a GameError (the player's words) and nothing else."""
    question = drill.built_in()[0]["question"]
    for rolls_left in (0, 2):
        try:
            decision = drill.parse_answer(text, {**question, "rolls_left": rolls_left})
        except GameError as exc:
            assert "\n" not in exc.text("de")
            continue
        assert set(decision) in ({"keep"}, {"box"})


ANSWERS = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                       lambda inner: st.lists(inner, max_size=6)
                       | st.dictionaries(st.sampled_from(["keep", "box", "x"]), inner,
                                         max_size=3), max_leaves=10)


@given(ANSWERS)
@settings(max_examples=150, deadline=None)
def test_any_json_answer_is_judged_or_refused_with_one_line(tmp_path_factory, decision):
    tables = Tables(preloaded=[solved("kniffel")])
    db = tmp_path_factory.mktemp("hostile") / "h.sqlite"
    with store.open_history(db) as history:
        item = drill.next_question(history, "X")
        try:
            judged = drill.answer_item(history, "X", item["id"], decision, tables, why=False)
        except (drill.DrillError, GameError) as exc:
            assert "\n" not in str(exc)
            assert drill.answers_given(history, "X") == 0  # nothing kept of a refused one
            return
    assert judged["cost"] >= 0


def test_kniffel_drill_in_the_terminal_brings_a_wrong_answer_back(tmp_path, capsys):
    """`kniffel drill`: a typed answer judged with its cost and why, the wrong one back as the
    fourth position; q stops; a bad line is said and asked again; in German too."""
    db = tmp_path / "h.sqlite"
    from click.testing import CliRunner

    from solver.cli import cli
    store_dir = tmp_path / "tables"
    solved("kniffel").save(store_dir)
    first, second, third = drill.built_in()[:3]
    wrong = first["tempting"]["box"]
    result = CliRunner().invoke(cli, ["drill", "--db", str(db), "--player", "Ola", "--tables",
                                      str(store_dir), "--lang", "en"], input=f"zz\n{wrong}\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Position 1 of 10, a built-in position" in out
    assert "unknown box 'zz'" in out
    assert f"gives away {first['price']:.2f} points" in out
    assert "It comes back after 2 other positions." in out
    assert "Drill: 0 of 1 right" in out
    script = "".join(_typed(p["best"]) + "\n" for p in (second, third))
    result = CliRunner().invoke(cli, ["drill", "--db", str(db), "--player", "Ola", "--tables",
                                      str(store_dir), "--lang", "de", "--count", "3"],
                                input=script)
    assert result.exit_code == 0, result.output
    assert result.output.count("Richtig:") == 2
    assert "Stellung 3 von 3, eine eingebaute Stellung; einmal beantwortet" in result.output


def _typed(decision):
    return "".join(map(str, decision["keep"])) if "keep" in decision else decision["box"]


def test_kniffel_drill_json_for_programs(tmp_path):
    from click.testing import CliRunner

    from solver.cli import cli
    store_dir = tmp_path / "tables"
    solved("kniffel").save(store_dir)
    first = drill.built_in()[0]
    result = CliRunner().invoke(cli, ["drill", "--db", str(tmp_path / "h.sqlite"), "--json",
                                      "--count", "1", "--tables", str(store_dir)],
                                input=f"nonsense\n{_typed(first['best'])}\n")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert lines[0]["question"] == first["question"] and lines[0]["player"] == "you"
    assert "error" in lines[1] and len(lines) == 3
    assert lines[2]["id"] == lines[0]["id"] and lines[2]["right"] is True
    assert sum(b["probability"] for b in lines[2]["best"]["why"]["boxes"]) == pytest.approx(1)


def test_a_foreign_file_is_refused_with_one_line_and_left_alone(tmp_path, capsys):
    db = tmp_path / "notes.sqlite"
    db.write_bytes(b"my notes, not a database")
    code, out, err = run(capsys, "drill", "--db", str(db))
    assert code == 2 and err.count("\n") == 1 and "not an SQLite database" in err
    assert db.read_bytes() == b"my notes, not a database"


def web(tmp_path, history=None):
    from helpers import web_client

    from solver.web.app import create_app
    db = tmp_path / "h.sqlite" if history is None else history
    return web_client(create_app(tmp_path / "tables", preloaded=[solved("kniffel")],
                                 history=db))


def test_the_drill_api_asks_judges_and_says_why(tmp_path):
    client = web(tmp_path)
    position = client.post("/api/drill/next", json={"language": "de"}).json()
    assert position["player"] == "you" and position["item"]["source"] == "built-in"
    boxes = position["position"]["boxes"]
    assert {b["key"] for b in boxes if b["points"] is None} == \
        {b["key"] for b in boxes if b["now"] is not None}
    assert boxes[0]["label"] == {"de": "Einser", "en": "Ones"}
    wrong = drill.built_in()[0]["tempting"]
    judged = client.post("/api/drill/answer", json={
        "player": "you", "id": position["item"]["id"], "answer": {"box": wrong["box"]},
        "language": "de"}).json()
    assert judged["right"] is False and judged["again_after"] == drill.AGAIN
    assert judged["cost"] == pytest.approx(drill.built_in()[0]["price"], abs=1e-6)
    for option in (judged["best"], judged["choice"]):
        assert sum(b["probability"] for b in option["why"]["boxes"]) == pytest.approx(1)
    assert judged["summary"]["answers"] == 1
    filled = next(b["key"] for b in boxes if b["points"] is not None)
    refused = client.post("/api/drill/answer", json={
        "player": "you", "id": position["item"]["id"], "answer": {"box": filled},
        "language": "de"})
    assert refused.status_code == 400 and "schon belegt" in refused.json()["error"]
    assert client.get("/drill").status_code == 200


def test_a_drill_answer_to_a_huge_id_is_a_400(tmp_path):
    response = web(tmp_path).post("/api/drill/answer", json={
        "player": "you", "id": 10 ** 30, "answer": {"box": "chance"}})
    assert response.status_code == 400 and "id must be" in response.json()["error"]


def test_a_server_without_history_has_no_drill(tmp_path):
    response = web(tmp_path, history=False).post("/api/drill/next", json={})
    assert response.status_code == 409 and "no history" in response.json()["error"]


FIELDS = st.dictionaries(st.sampled_from(["player", "id", "answer", "language", "other"]),
                         ANSWERS, max_size=5)


@pytest.fixture(scope="module")
def hostile_client(tmp_path_factory):
    return web(tmp_path_factory.mktemp("drill-web"))


@given(FIELDS)
@settings(max_examples=150, deadline=None)
def test_any_drill_request_gets_an_answer_or_a_4xx(hostile_client, fields):
    client = hostile_client
    for path in ("/api/drill/next", "/api/drill/answer"):
        response = client.post(path, json=fields)
        assert response.status_code in (200, 400, 409, 422), response.text
        assert "error" in response.json() or response.status_code == 200


def test_the_reference_states_the_drills_figures():
    """docs/reference.md names the drill's constants as the code has them."""
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "scripts"))
    from drill_positions import GAMES, PER_KIND
    text = " ".join((root / "docs" / "reference.md").read_text().split())
    assert f"at least {drill.MIN_LOSS} points" in text
    assert f"comes back after {drill.AGAIN} other answers" in text
    assert "a right one after " + ", ".join(map(str, drill.GAPS[:-1])) \
        + f" and then {drill.GAPS[-1]} others" in text
    assert f"in {GAMES} seeded games" in text and f"at most {PER_KIND} of one kind" in text


def test_a_drill_answer_before_the_why_kernels_starts_their_job(tmp_path, monkeypatch):
    """In a server whose workers have not compiled the bonus chance's kernels, the answer is
    judged all the same, says "preparing" and carries the job that compiles them."""
    from solver.ask import warm
    client = web(tmp_path)
    position = client.post("/api/drill/next", json={}).json()

    def not_ready(feature, tables=None, compiling=None):
        raise warm.NotReady(feature)
    monkeypatch.setattr(warm, "need", not_ready)
    judged = client.post("/api/drill/answer", json={
        "player": "you", "id": position["item"]["id"],
        "answer": {"box": drill.built_in()[0]["best"]["box"]}}).json()
    assert judged.get("preparing") == "why" and judged["job"]["feature"] == "why", judged
    assert judged["right"] is True
