"""The history (solver/history/): games played at the terminal and records analysed are kept in
SQLite with each decision's price, `kniffel history` reports them with the prices `kniffel
analyze` gives, the kinds of mistake are ranked by what they cost, and the database is never
harmed: a damaged or foreign file refused and left untouched, two writers at once both kept,
10,000 games answered within a second."""
import json
import multiprocessing
import re
import sqlite3

import pytest
from conftest import run, solved
from helpers import load_script, played

from solver.history import store
from solver.history.games import game_kinds, keep_game
from solver.history.kinds import decision_kinds
from solver.history.summary import summary

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx")  # starlette's test client

BOXES = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
         "full_house", "small_straight", "large_straight", "kniffel", "chance"]


def history_json(capsys, db, *more):
    code, out, err = run(capsys, "history", "--db", str(db), "--json", *more)
    assert code == 0, err
    return json.loads(out)


def web_game(client, seed):
    """A seeded game of Anna played through the page's API (POST /api/new, /api/game: roll,
    then the first box the turn may take), then analysed as the page does at its end: the
    record."""
    def post(path, data):
        response = client.post(path, content=json.dumps(data).encode())
        assert response.status_code == 200, response.text
        return response.json()

    state = post("/api/new", {"rules": "kniffel", "options": {}, "players": ["Anna"],
                              "real_dice": False, "seed": seed})
    while not state["over"]:
        if state["hand"] is None:
            state = post("/api/game", {"record": state["record"], "hand": None,
                                       "move": {"roll": True}})
        box = state["turn"]["boxes"][0]["box"]
        state = post("/api/game", {"record": state["record"], "hand": state["hand"],
                                   "move": {"box": box, "jokers": []}})
    assert post("/api/analyze", {"record": state["record"]})["kept"] is True
    return state["record"]


def test_games_at_the_terminal_and_on_the_page_are_kept_with_analyzes_prices(capsys, tmp_path):
    """Three seeded games played through `kniffel play --coach` (each turn: keep all, then the
    next box) and one through the web page's API are in `kniffel history --json`: Anna's
    games, scores and the points she gave away in each, as `kniffel analyze --json` prices each
    saved record; GET /api/history says it in the page's language."""
    from click.testing import CliRunner
    from helpers import web_client

    from solver.cli import cli
    from solver.web.app import create_app
    db = tmp_path / "history.sqlite"
    script = "".join(f"a\n{box}\n" for box in BOXES)
    store_dir = tmp_path / "tables"
    solved("kniffel").save(store_dir)
    records = []
    for seed in (1, 2, 3):
        record = tmp_path / f"game{seed}.json"
        result = CliRunner().invoke(cli, ["play", "--seed", str(seed), "--coach", "--players",
                                          "Anna", "--record", str(record), "--db", str(db),
                                          "--tables", str(store_dir)], input=script)
        assert result.exit_code == 0, result.output
        records.append(record)
    client = web_client(create_app(preloaded=[solved("kniffel")], history=db))
    records.append(tmp_path / "web.json")
    records[-1].write_text(json.dumps(web_game(client, 4)))
    losses, scores = [], []
    for record in records:
        code, out, _ = run(capsys, "analyze", str(record), "--json", "--no-history",
                           "--tables", str(store_dir))
        analysis = json.loads(out)
        losses.append(analysis["players"][0]["loss"])
        scores.append(analysis["players"][0]["score"])
    (anna,) = history_json(capsys, db)["players"]
    assert anna["name"] == "Anna" and anna["games"] == anna["finished"] == 4
    assert anna["losses"] == pytest.approx(losses, abs=1e-12)
    assert anna["mean_score"] == pytest.approx(sum(scores) / 4)
    assert anna["loss_per_game"] == pytest.approx(sum(losses) / 4, abs=1e-12)
    page = client.get("/api/history?language=de").json()["players"][0]
    assert page["losses"] == anna["losses"] and page["lines"][0].startswith("Anna: 4 Spiele")
    lines = " ".join(page["lines"])  # a page's German numbers: a decimal comma
    assert f"{anna['loss_per_game']:.2f}".replace(".", ",") in lines
    assert not re.search(r"\d\.\d", lines.split("kniffel advise")[0]), lines
    # analysing a kept game again keeps it once
    run(capsys, "analyze", str(records[0]), "--db", str(db), "--tables", str(store_dir))
    assert history_json(capsys, db)["players"][0]["games"] == 4


def scratcher(turn, dice, best):
    """Always scratches the Kniffel box first (after the rolls, a five of a kind aside), and
    rerolls all dice at the first roll of round 3 (a smaller mistake of another kind)."""
    round_ = turn.record["round"]
    if round_ == 1 and turn.rolls_left == 0 and len(set(dice)) > 1:
        return {"box": "kniffel", "jokers": []}
    if round_ == 3 and turn.rolls_left == 2 and best["action"] == "keep" and best["keep"]:
        return {"keep": []}
    return None


def test_a_player_who_always_scratches_kniffel_first_sees_that_kind_first(capsys, tmp_path):
    table = solved("kniffel")
    db = tmp_path / "history.sqlite"
    for seed in (5, 6, 7):
        record = played(table, "Kai", seed, scratcher)
        from solver.ask.analysis import analyze
        from solver.ask.tables import Tables
        keep_game(db, record, analyze(record, Tables(preloaded=[table])), "analyze")
    (kai,) = history_json(capsys, db, "--player", "Kai")["players"]
    first, *rest = kai["kinds"]
    assert first["kind"] == "scratch:kniffel" and first["decisions"] == 3
    assert first["cost_per_game"] > max(k["cost_per_game"] for k in rest)
    example = first["example"]
    assert example["round"] == 1 and example["choice"]["box"] == "kniffel"
    assert example["choice"]["points"] == 0 and example["card"] == {}
    code, out, _ = run(capsys, "history", "--db", str(db), "--lang", "de")
    assert code == 0 and "1. Kniffel gestrichen:" in out
    assert f'--dice {"".join(map(str, example["dice"]))} --rolls-left 0 --why' in out


def test_the_kinds_a_decision_shows():
    rules = solved("kniffel").rules

    def kinds(choice, best, card=None, loss=1.0):
        return decision_kinds({"choice": choice, "best": best, "loss": loss,
                               "optimal": loss <= 0}, card or {}, rules)

    assert kinds({"box": "kniffel", "points": 0}, {"box": "chance"}) == ["scratch:kniffel"]
    assert kinds({"box": "chance", "points": 22}, {"keep": [3, 3]}) == ["box:chance",
                                                                        "stop_early"]
    assert kinds({"keep": [2, 2]}, {"keep": [2, 3, 4]}) == ["pair_over_straight"]
    assert kinds({"keep": [3, 4, 5]}, {"keep": [5, 5]}) == ["straight_over_pair"]
    assert kinds({"keep": [5, 5, 6]}, {"keep": [5, 5]}) == ["kept_more"]
    assert kinds({"keep": []}, {"box": "chance"}) == ["roll_on"]
    behind = {"ones": 2, "twos": 4}  # 6 for three faces' worth: behind the course to 63
    assert kinds({"keep": [6]}, {"keep": [6, 6]}, behind) == ["kept_fewer", "behind_course"]
    assert kinds({"keep": [6]}, {"keep": [6, 6]}, {"ones": 3, "twos": 6}) == ["kept_fewer"]
    assert kinds({"keep": [6]}, {"keep": [6, 6]}, loss=0.0) == []


# --- the database itself ------------------------------------------------------------------------

def synthetic(seed, name="Sam", decisions=40):
    """A record, an analysis of it and its kinds, made up (the store keeps what it is given):
    the ones benchmarks/history.py times."""
    return load_script("history", "benchmarks").made_up(seed, name, decisions)


def test_a_damaged_or_foreign_file_is_refused_and_left_untouched(capsys, tmp_path):
    """A file that is not SQLite, another program's database, a damaged history and one of a
    newer schema: each refused with one line (exit 2), its bytes as they were."""
    text = tmp_path / "notes.txt"
    text.write_bytes(b"my shopping list\n" * 50)
    foreign = tmp_path / "other.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    damaged = tmp_path / "damaged.sqlite"
    with store.open_history(damaged) as history:
        history.store_game(*synthetic(1), "analyze")
    data = bytearray(damaged.read_bytes())
    for page in range(1, len(data) // 4096):  # every table's pages: their headers garbled
        data[page * 4096: page * 4096 + 12] = b"\xff" * 12
    damaged.write_bytes(bytes(data))
    newer = tmp_path / "newer.sqlite"
    with store.open_history(newer) as history:
        history.db.execute(f"PRAGMA user_version = {store.SCHEMA_VERSION + 1}")
    for path in (text, foreign, damaged, newer):
        before = path.read_bytes()
        for args in (["history", "--db", str(path)],
                     ["analyze", "docs/examples/kniffel-game.json", "--db", str(path)]):
            code, out, err = run(capsys, *args[:1], *_rooted(args[1:]))
            assert code == 2 and not out and err.count("\n") == 1, (path, err)
            assert str(path) in err and "left as it is" in err
        assert path.read_bytes() == before, path


def _rooted(args):
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    return [str(root / a) if a.startswith("docs/") else a for a in args]


def test_no_history_writes_nothing(capsys, tmp_path):
    db = tmp_path / "history.sqlite"
    code, _, _ = run(capsys, "analyze", *_rooted(["docs/examples/kniffel-game.json"]), "--db",
                     str(db), "--no-history")
    assert code == 0 and not db.exists()
    code, out, err = run(capsys, "history", "--db", str(db))
    assert code == 2 and "no history there yet" in err and not db.exists()


def test_the_schema_is_versioned_and_created_once(tmp_path):
    """A new file gets the schema of this version (user_version, application_id), in WAL; a
    file of an older version is migrated step by step (here from nothing: an empty file)."""
    path = tmp_path / "h.sqlite"
    path.write_bytes(b"")  # created and not yet written: a history to be
    with store.open_history(path) as history:
        db = history.db
        assert db.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA_VERSION
        assert db.execute("PRAGMA application_id").fetchone()[0] == store.APPLICATION_ID
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {name for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert tables == {"games", "players", "decisions", "kinds", "drill", "drill_answers"}
    assert len(store.MIGRATIONS) == store.SCHEMA_VERSION


def test_a_game_kept_again_further_on_replaces_its_start(tmp_path):
    """A game kept when saved unfinished is replaced by the same game kept later, further on."""
    table = solved("kniffel")
    record = played(table, "Ida", 9, lambda *a: None)
    from solver.ask.analysis import analyze
    from solver.ask.tables import Tables
    tables = Tables(preloaded=[table])
    start = {**{k: v for k, v in record.items() if k != "scores"}, "finished": False,
             "turns": record["turns"][:4]}  # as saved after four turns
    path = tmp_path / "h.sqlite"
    for r in (start, record, record):
        keep_game(path, r, analyze(r, tables), "play")
    with store.open_history(path, write=False) as history:
        (ida,) = summary(history)["players"]
        assert ida["games"] == ida["finished"] == 1
        kinds = game_kinds(record, analyze(record, tables))
        assert all(k == [] for k in kinds)  # the advice followed: no mistake


def _writer(path, first, count):
    with store.open_history(path) as history:
        for seed in range(first, first + count):
            history.store_game(*synthetic(seed), "play")


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    path = tmp_path / "h.sqlite"
    store.open_history(path).close()
    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_writer, args=(path, first, 40)) for first in (0, 1000)]
    for w in writers:
        w.start()
    for w in writers:
        w.join(120)
        assert w.exitcode == 0
    with store.open_history(path, write=False) as history:
        assert history.db.execute("SELECT count(*) FROM games").fetchone()[0] == 80
        assert history.db.execute("SELECT count(*) FROM decisions").fetchone()[0] == 80 * 40


@pytest.mark.slow
def test_ten_thousand_games_are_all_reported(capsys, tmp_path):
    """`kniffel history` of a history of 10,000 games (four players, 40 decisions each, a
    third of them with kinds of mistake) reports every game (how fast: benchmarks/history.py)."""
    path = tmp_path / "h.sqlite"
    with store.open_history(path) as history, history.writing():
        for seed in range(10_000):
            history.insert_game(*synthetic(seed, ("Ann", "Ben", "Cat", "Dan")[seed % 4]),
                                "play")
    result = history_json(capsys, path)
    assert [p["games"] for p in result["players"]] == [2500] * 4


def test_the_plot_of_the_points_given_away(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "h.sqlite"
    with store.open_history(path) as history, history.writing():
        for seed in range(12):
            history.insert_game(*synthetic(seed, ("Ann", "Ben")[seed % 2]), "play")
    picture = tmp_path / "losses.png"
    code, out, err = run(capsys, "history", "--db", str(path), "--plot", str(picture),
                         "--lang", "de")
    assert code == 0, err
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and str(picture) in out
    code, _, err = run(capsys, "history", "--db", str(path), "--plot", str(tmp_path / "x.nope"))
    assert code == 2 and err.count("\n") == 1 and not (tmp_path / "x.nope").exists()


@pytest.mark.slow
def test_the_page_shows_the_history(request, tmp_path):
    """The page's "History" shows per player the lines of `kniffel history` in its language
    and the points given away game by game, within 390 px."""
    from browser import PHONE, blank_page, need_a_browser, served
    need_a_browser()
    browser = request.getfixturevalue("browser")
    from pathlib import Path

    from solver.ask.analysis import analyze
    from solver.ask.tables import Tables
    from solver.web.app import create_app
    table = solved("kniffel")
    db = tmp_path / "history.sqlite"
    for seed in (5, 6, 7):
        record = played(table, "Kai", seed, scratcher)
        keep_game(db, record, analyze(record, Tables(preloaded=[table])), "web")
    with served(create_app(preloaded=[table], history=db)) as base, \
            blank_page(browser, base) as page:
        page.set_viewport_size(PHONE)
        page.goto(base)
        page.wait_for_selector("body[data-ready]")
        page.select_option("#language", "de")
        page.click("#history-button")
        page.wait_for_selector("#history .player-history svg polyline")
        text = page.text_content("#history")
        assert "Kai: 3 Spiele" in text and "1. Kniffel gestrichen:" in text
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        shots = Path(__file__).resolve().parent.parent / "build" / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / "phone-history-de.png"))
        page.click("#history-button")
        assert page.is_hidden("#history")


def test_the_reference_states_the_stores_figures():
    """docs/reference.md names the store's constants as the code has them."""
    from pathlib import Path

    from solver.history.summary import RECENT, RECURRING
    text = " ".join((Path(__file__).resolve().parent.parent / "docs" / "reference.md")
                    .read_text().split())
    assert f"`0x{store.APPLICATION_ID:08X}`" in text
    assert f"waits up to {store.BUSY_MS // 1000} s" in text
    assert f"in the last {RECENT} games" in text
    assert {2: "two"}[RECURRING] + " decisions or more" in text
    assert f"Schema version {store.SCHEMA_VERSION}:" in text
