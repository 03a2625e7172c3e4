"""The advice shown at the table, noted in the Dice Duel record and used by the analysis: a
player who followed every piece of advice is charged nothing, the noted estimate is the
advice's own (the same seed and games give the same numbers), and the analysis comes in parts
within the server's budget; errors of the page's requests in the page's language; hostile
advice, notes and dice give only our own errors."""
import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from solver import advise as duel_advice
from solver.cli import cli
from solver.duel.multiplayer import analysis as multi_analysis
from solver.duel.multiplayer import record as multi_record
from solver.duel.multiplayer.advice import SeatWinGoal
from solver.duel.multiplayer.notes import checked_note, make_note
from solver.game.card import GameError
from solver.lang import WORDS

ADVISED = Path(__file__).parent / "data" / "duel-3p-advised.json"


@pytest.fixture(scope="module")
def advised():
    """A whole 3-player game in which every decision followed the advice shown (noted)."""
    return json.loads(ADVISED.read_text())


def decisions(record):
    return [d for turn in record["turns"] for d in turn["decisions"]]


def test_a_player_who_followed_every_piece_of_advice_is_charged_nothing(advised):
    result = multi_analysis.analyze(advised)
    assert result["finished"] and result["total"] == len(decisions(advised))
    assert all(row["advised"] and row["lost"] == 0.0 for row in result["decisions"])
    assert result["lost"] == [0.0, 0.0, 0.0]


def test_kniffel_analyze_prints_percentages_in_the_chosen_language(advised, tmp_path):
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(advised))
    for lang, zero in (("en", "0%"), ("de", "0\u00a0%")):
        out = CliRunner().invoke(cli, ["analyze", str(path), "--lang", lang]).output
        assert WORDS[lang]["duel.no_loss"] in out
        assert WORDS[lang]["duel.given_away"].format(name="P1", lost=zero) in out, out


def test_a_noted_estimate_is_the_advice_again_from_its_seed_and_games(advised):
    """Estimating a noted decision again with the note's seed and games gives its very numbers:
    the analysis and the advice are one estimate."""
    estimated = [(i, d) for i, d in enumerate(decisions(advised)) if not d["advice"]["exact"]]
    assert estimated
    index, decision = estimated[len(estimated) // 2]
    seen = []

    def visit(game, d):
        if len(seen) == index:
            note = d["advice"]
            goal = SeatWinGoal(games=note["games"], seed=note["seed"])
            advice = duel_advice(game.table, game.rules, list(game.dice), game.rolls_left, goal)
            seen.append((advice, note))
        else:
            seen.append(None)

    multi_record.replay(advised, visit)
    advice, note = seen[index]
    assert advice.probability == note["best"]
    from solver.duel.multiplayer.notes import chosen_option
    assert chosen_option(advice.options, decision)["probability"] == note["chance"]


def test_advice_is_noted_only_for_its_own_position_and_option():
    from solver.web.duel import duel_state, new_duel
    record, _ = new_duel({"players": ["A", "B"], "seed": 4})
    record, hand = multi_record.apply_move(record, None, {"roll": True})
    game = multi_record.rebuild(record, hand)
    answer = duel_advice(game.table, game.rules, list(game.dice), game.rolls_left,
                         SeatWinGoal(games=64, seed=2)).as_dict()
    keep = answer["options"][-1]["keep"] if answer["options"][-1]["action"] == "keep" else []
    noted, _ = multi_record.apply_move(record, hand, {"keep": keep}, answer)
    note = decisions(noted)[-1]["advice"]
    assert note["games"] == 64 and note["seed"] == 2 and note["chance"] <= note["best"]
    other = {**answer, "rolls_left": answer["rolls_left"] - 1}  # another position: not noted
    plain, _ = multi_record.apply_move(record, hand, {"keep": keep}, other)
    assert "advice" not in decisions(plain)[-1]
    # a note survives replay and undo; a malformed one written by hand is dropped on replay
    assert decisions(multi_record.rebuild(noted).record())[-1]["advice"] == note
    forged = copy.deepcopy(noted)
    decisions(forged)[-1]["advice"] = {"chance": 2.0, "best": 0.5, "exact": True}
    assert "advice" not in decisions(multi_record.rebuild(forged).record())[-1]
    assert duel_state(noted, None)["record"] == noted  # the page's state keeps the note


def test_the_analysis_in_parts_adds_up_to_the_whole(advised):
    whole = multi_analysis.analyze(advised)
    rows, lost = [], [0.0] * 3
    for first in range(0, whole["total"], 40):
        part = multi_analysis.analyze(advised, first=first, count=40)
        assert all(first <= r["index"] < first + 40 for r in part["decisions"])
        rows += part["decisions"]
        lost = [a + b for a, b in zip(lost, part["lost"])]
    assert rows == whole["decisions"] and lost == whole["lost"]


def test_a_game_without_advice_is_analysed_part_by_part(monkeypatch):
    """A record with no advice noted (coach off): every part of 8 decisions, as the page asks,
    is estimated (the opening, whose estimates are the slowest); how long a part takes is the
    benchmarks' to measure, not a test's."""
    from helpers import greedy_game
    record = greedy_game(3, seed=5)
    total = len(decisions(record))
    for first in range(0, min(total, 24), 8):
        part = multi_analysis.analyze(record, first=first, count=8)
        assert len(part["decisions"]) == 8 and not any(r["advised"] for r in part["decisions"])
        assert all(0.0 <= r["probability"] <= r["best"] <= 1.0 for r in part["decisions"])


# --- hostile input: only our own errors -------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers(-10, 10**20) | st.floats()
                    | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
ADVICE = st.fixed_dictionaries({}, optional={
    "probability": JSON | st.floats(0, 1), "exact": JSON, "games": JSON | st.integers(0, 99),
    "seed": JSON | st.integers(0, 9), "players": JSON, "to_move": JSON, "dice": JSON,
    "rolls_left": JSON, "chips": JSON, "round_chip_taken": JSON,
    "options": st.lists(st.fixed_dictionaries({}, optional={
        "action": st.sampled_from(["keep", "take", "no_chip", "stop"]) | JSON, "keep": JSON,
        "chip": JSON, "from": JSON, "probability": JSON | st.floats(0, 1),
        "ends": JSON}), max_size=4) | JSON})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(advice=ADVICE | JSON, decision=JSON, note=JSON)
def test_hostile_advice_and_notes_never_break_a_move(advice, decision, note):
    position = {"players": 2, "to_move": 0, "dice": [1, 2, 3, 4, 5], "rolls_left": 2}
    made = make_note(advice, position, decision if isinstance(decision, dict) else {})
    assert made is None or checked_note(made) == made
    checked = checked_note(note)
    assert checked is None or 0 <= checked["chance"] <= 1 and 0 <= checked["best"] <= 1


@pytest.fixture(scope="module")
def rolled():
    from solver.web.duel import new_duel
    record, _ = new_duel({"players": ["A", "B"], "seed": 4})
    return multi_record.apply_move(record, None, {"roll": True})


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(advice=ADVICE | JSON, move=st.sampled_from([{"keep": [1]}, {"no_chip": True},
                                                    {"take": "two_pairs"}, {"keep": []}]))
def test_a_move_with_hostile_advice_is_a_move_or_a_game_error(rolled, advice, move):
    record, hand = rolled
    try:
        new, _ = multi_record.apply_move(record, hand, move, advice)
    except GameError:
        return
    assert multi_record.rebuild(new).record() == new


@settings(max_examples=80, deadline=None)
@example(faces=[None] * 5)  # a face that is None: once taken for "no bad face"
@given(faces=st.lists(JSON, max_size=7) | JSON)
def test_typed_dice_are_taken_or_refused_in_the_players_words(faces):
    from solver.web.duel import new_duel
    record, _ = new_duel({"players": ["A", "B"], "real_dice": True})
    try:
        multi_record.apply_move(record, None, {"roll": faces})
    except GameError as exc:
        assert exc.text("de") != exc.text("en") or not isinstance(faces, list)


# --- the page's requests: answers and errors in its language -----------------------------------

def _client(tmp_path, budget=None):
    pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
    pytest.importorskip("httpx", reason="starlette's test client needs httpx")
    from starlette.testclient import TestClient

    from solver.web.app import create_app
    return TestClient(create_app(tmp_path, time_limit=budget), base_url="http://127.0.0.1",
                      headers={"content-type": "application/json"})


def _post(client, path, data):
    response = client.post(path, content=json.dumps(data).encode())
    return response.status_code, response.json()


@pytest.mark.filterwarnings("ignore:.*httpx")
def test_the_duel_routes_answer_in_the_pages_language(tmp_path, advised):
    client = _client(tmp_path)
    code, st = _post(client, "/api/duel/new", {"players": ["A", "B", "C"], "real_dice": True})
    assert code == 200
    for lang in ("de", "en"):  # what the old page sent for "77": no dice at all
        code, answer = _post(client, "/api/duel/game", {"record": st["record"], "hand": None,
                                                        "move": {"roll": []}, "language": lang})
        dice_count = WORDS[lang]["duel.error.dice_count"][1]
        assert code == 400 and answer["error"] == dice_count.format(n=5, got=0)
        code, answer = _post(client, "/api/duel/game", {"record": st["record"], "hand": None,
                                                        "move": {"roll": [7, 7]}, "language": lang})
        assert code == 400 and answer["error"] == WORDS[lang]["duel.error.face"].format(face=7)
        code, answer = _post(client, "/api/duel/new", {"players": ["x" * 41, "B"],
                                                       "language": lang})
        assert code == 400 and answer["error"] == WORDS[lang]["duel.error.names"].format(most=40)
        code, answer = _post(client, "/api/duel/analyze", {"record": advised, "first": -1,
                                                           "language": lang})
        request_error = WORDS[lang]["duel.web.error.request"]
        assert code == 400 and answer["error"].startswith(request_error[:10])
    damaged = {**advised, "turns": [None]}  # a record file that is not one: said in German too
    code, answer = _post(client, "/api/duel/game", {"record": damaged, "language": "de"})
    assert code == 400 and answer["error"] == WORDS["de"]["duel.web.unreadable"]
    code, answer = _post(client, "/api/duel/analyze", {"record": damaged, "language": "en"})
    assert code == 400 and "turn 1" in answer["error"]  # to a program, the English detail
    code, answer = _post(client, "/api/duel/new", {"players": ["A", "B"], "seed": -1,
                                                   "language": "de"})
    assert code == 400 and answer["error"] == WORDS["de"]["duel.error.seed"]
    code, part = _post(client, "/api/duel/analyze", {"record": advised, "first": 8, "count": 8,
                                                     "language": "de"})
    assert code == 200 and [r["index"] for r in part["decisions"]] == list(range(8, 16))
    assert part["total"] == len(decisions(advised)) and part["lost"] == [0.0, 0.0, 0.0]


@pytest.mark.filterwarnings("ignore:.*httpx")
def test_the_duel_budget_error_is_in_the_pages_language(tmp_path, web_kernels):
    """The server's time guard, in the page's language; the coach's kernels compiled first
    (web_kernels), else the new game is answered at once with the job that compiles them."""
    client = _client(tmp_path, budget=0.001)  # no advice fits in a millisecond
    for lang in ("de", "en"):
        code, answer = _post(client, "/api/duel/new", {"players": ["A", "B"], "seed": 1,
                                                       "coach": True, "language": lang})
        assert code == 422
        assert answer["error"] == WORDS[lang]["duel.web.error.budget"].format(seconds="0.001")


def test_kniffel_play_with_the_coach_notes_its_advice_in_the_record(tmp_path, monkeypatch):
    """The terminal game notes the advice it showed with each decision, as the page does."""
    from solver.duel.multiplayer import advice as advice_module
    monkeypatch.setattr(advice_module, "GAMES", 16)
    path = tmp_path / "duel.json"
    result = CliRunner().invoke(cli, ["play", "--rules", "dice-duel", "--players", "Anna,Ben",
                                      "--seed", "4", "--coach", "--record", str(path),
                                      "--lang", "en"], input="\n\nq\n")
    assert result.exit_code == 0, result.output
    made = decisions(json.loads(path.read_text()))
    assert len(made) == 2 and all(checked_note(d.get("advice")) == d["advice"] for d in made)
    result = multi_analysis.analyze(json.loads(path.read_text()))
    assert all(row["advised"] for row in result["decisions"])


def test_warming_the_duel_compiles_its_kernels_and_marks_them_ready(monkeypatch, tmp_path):
    """ask/warm.warm("duel") runs the duel's steps (duel/warm.py): the rollout and search kernels
    are compiled, and the feature is marked ready in the kernel cache; until then it is not."""
    from solver.ask import warm
    from solver.duel.multiplayer import dense_kernels, kernels
    from solver.engine import kernel_cache
    monkeypatch.setattr(kernel_cache, "kernel_cache_dir", lambda: tmp_path)  # no marker yet
    assert not warm.ready("duel")
    said = []
    warm.warm("duel", None, lambda done, of: said.append((done, of)))
    assert kernels.rollouts.signatures and kernels.turn_by.signatures
    assert warm.ready("duel") and said == [(i, 5) for i in range(1, 6)]
    # the dense solve's levels below: its own (float64) and a horizon table's as mapped
    below = {(str(sig[5].dtype), sig[5].mutable)
             for sig in dense_kernels.solve_superblocks.signatures}
    assert below >= {("float64", True), ("float32", False)}


def test_the_shared_exact_memo_gives_the_numbers_of_a_fresh_solve(advised):
    """The exact decisions of an analysis share one memo (exact.shared_solver): a game's late
    positions, met in either order, get the chances a solver of their own gives."""
    from solver.duel.multiplayer import exact
    tables = []
    multi_record.replay(advised, lambda game, d: tables.append(game.table)
                        if exact.size_bound(game.table) <= 2000 else None)
    tables = list(dict.fromkeys(tables))[:6]
    assert len(tables) >= 3
    rules = multi_record.record_rules(advised["rules"])
    for order in (tables, tables[::-1]):
        exact._SHARED.clear()
        for table in order:
            fresh = exact.ExactSolver(rules, exact.EXACT_LIMIT, "best", table.to_move)
            with exact.shared_solver(table, rules) as shared:
                assert list(shared.start(table)) == list(fresh.start(table))


def test_chances_print_as_percentages_in_each_language():
    from solver.duel.words import chance_text
    from solver.lang import Words
    assert [chance_text(p, Words("en")) for p in (0.406, 0.0, 1.0, 5.95)] == [
        "40.6%", "0%", "100%", "595%"]
    assert [chance_text(p, Words("de")) for p in (0.406, 0.0123)] == ["40,6\u00a0%", "1,23\u00a0%"]

