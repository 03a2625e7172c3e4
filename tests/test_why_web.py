"""The why on the web page of `kniffel serve`: the API gives it when asked ("why": true, in an
advice line or a game request) as `kniffel advise --why` does, and the page shows a choice's
why when its "Why?" is tapped, at 390 px, in German and English."""
import json
import math
import os
from pathlib import Path

import pytest
from conftest import run, solved
from helpers import web_client

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx")

TURNS = [((1, 1, 2, 4, 6), "ones"), ((2, 2, 3, 5, 6), "twos"), ((1, 3, 3, 3, 6), "threes"),
         ((2, 3, 4, 5, 5), "small_straight"), ((1, 2, 2, 5, 6), "chance")]
HAND = [3, 4, 4, 5, 6]  # round 6, two rolls to come


def game_after(turns, rules="kniffel"):
    """A real-dice game record after `turns` = [(dice, box), ...]."""
    from solver.game import session
    record, hand = session.new_record(rules, ["Anna"], None, True), None
    for dice, box in turns:
        record, hand = session.apply_move(record, None, {"roll": list(dice)})
        record, hand = session.apply_move(record, hand, {"box": box})
    return record


@pytest.fixture(scope="module")
def client():
    from solver.web.app import create_app
    return web_client(create_app(preloaded=[solved("kniffel")]))


def post(client, path, data):
    response = client.post(path, content=json.dumps(data).encode())
    return response.status_code, response.json()


def test_the_api_gives_the_why_when_asked(client, capsys, tmp_path):
    """A game request with "why": true carries each option's why, and its advice line asks
    for it too: POST /api/advise of that line answers what `kniffel advise --batch` does."""
    record = game_after(TURNS)
    code, plain = post(client, "/api/game", {"record": record, "hand": HAND})
    assert code == 200 and "why" not in plain["advice"]
    code, state = post(client, "/api/game", {"record": record, "hand": HAND, "why": True})
    assert code == 200 and state["advice_line"]["why"] is True
    advice = state["advice"]
    assert advice["why"]["upper_bonus_chance"] > 0 and all("why" in o for o in advice["options"])
    code, answer = post(client, "/api/advise", state["advice_line"])
    (tmp_path / "line.jsonl").write_text(json.dumps(state["advice_line"]) + "\n")
    solved("kniffel").save(tmp_path / "tables")
    status, out, err = run(capsys, "advise", "--batch", str(tmp_path / "line.jsonl"),
                           "--tables", str(tmp_path / "tables"))
    assert code == 200 and status == 0 and answer == json.loads(out) == advice
    code, error = post(client, "/api/game", {"record": record, "hand": HAND, "why": "yes"})
    assert code == 400 and error["error"] == "why must be true or false, got 'yes'"


EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "kniffel-game.json"


def test_the_analysis_gives_the_why_of_the_costliest_decisions_when_asked(client):
    """POST /api/analyze with "why": true: each player's costliest decisions (that gave points
    away) carry what the choice made and the best one play for, their box chances summing to 1,
    the upper bonus's chances where their work fits the analysis's budget (the costliest
    first), else saying the work it would take; without it the analysis is as before; a "why"
    that is not true or false is refused naming it."""
    from solver.ask.analysis import WHY_DECISIONS
    from solver.web.tasks import ANALYSIS_WORK
    record = json.loads(EXAMPLE.read_text())
    code, plain = post(client, "/api/analyze", {"record": record})
    assert code == 200 and not any("why" in d for d in plain["decisions"])
    code, why = post(client, "/api/analyze", {"record": record, "why": True})
    assert code == 200 and "preparing" not in why and "job" not in why
    assert [{k: v for k, v in d.items() if k != "why"} for d in why["decisions"]] \
        == plain["decisions"] and why["players"] == plain["players"]
    explained = [d for d in why["decisions"] if "why" in d]
    for player in range(len(why["players"])):
        costly = sorted((d for d in why["decisions"] if d["player"] == player
                         and not d["optimal"]), key=lambda d: -d["loss"])
        assert [d for d in explained if d["player"] == player] == sorted(
            costly[:WHY_DECISIONS], key=lambda d: why["decisions"].index(d))
    assert explained and all(set(d["why"]) <= {"choice", "best", "upper_bonus_chance",
                                                "over_budget"} for d in explained)
    for d in explained:
        for key in ("choice", "best"):
            boxes = d["why"][key]["boxes"]
            assert boxes and math.fsum(b["probability"] for b in boxes) == pytest.approx(1)
            assert ("open" in d["why"][key]) == ("box" in d[key])
        known = d["why"]["upper_bonus_chance"] is not None
        assert known == (d["why"]["choice"]["upper_bonus_chance"] is not None)
        assert known != ("over_budget" in d["why"])  # left out: it says how much work
        if not known:
            over = d["why"]["over_budget"]
            assert over["work"] > over["budget"] and over["budget"] <= ANALYSIS_WORK
    assert any(d["why"]["upper_bonus_chance"] is not None for d in explained)
    for value in ("yes", 1, None, [True]):
        code, error = post(client, "/api/analyze", {"record": record, "why": value})
        assert code == 400 and error["error"].startswith("why must be true or false"), value
    code, again = post(client, "/api/analyze", {"record": record, "why": False})
    assert code == 200 and again["decisions"] == plain["decisions"]


def test_an_analysis_whose_bonus_chances_wait_for_their_kernels_carries_their_job(monkeypatch):
    """Where the kernels of the upper bonus's chances are not compiled (a server's worker compiles
    none in a request), the analysis's whys come without them, say "preparing": "why" (not over
    a budget), and the answer carries the job that compiles them, as a game's state does."""
    from solver.ask import warm
    from solver.web import work
    from solver.web.app import create_app
    monkeypatch.setattr(warm, "ready", lambda feature: False)
    monkeypatch.setattr(warm, "COMPILES", [False])
    app = create_app(preloaded=[solved("kniffel")])
    started = []

    def start_job(kind, subject):  # the job is not run here: what the answer says of it is
        started.append((kind, subject))
        return work.Busy("compiling", 2, job={"kind": kind, "feature": subject})

    monkeypatch.setattr(app.state.pool, "start_job", start_job)
    code, result = post(web_client(app), "/api/analyze",
                        {"record": json.loads(EXAMPLE.read_text()), "why": True})
    assert code == 200 and result["preparing"] == "why" and started == [("warm", "why")]
    assert result["job"] == {"kind": "warm", "feature": "why"}
    explained = [d["why"] for d in result["decisions"] if "why" in d]
    assert explained and all(w["upper_bonus_chance"] is None and "over_budget" not in w
                             for w in explained)
    assert all(math.fsum(b["probability"] for b in w["best"]["boxes"]) == pytest.approx(1)
               for w in explained)


# --- the page, in a browser --------------------------------------------------------------------

SHOTS = Path(os.environ.get("KNIFFEL_SCREENSHOTS")
             or Path(__file__).resolve().parent.parent / "build" / "screenshots")


def page_percent(p, lang):
    """A chance as the page writes it (common.js percent)."""
    from solver.lang import percent
    text = percent(p)
    return text.replace(".", ",").replace("%", "\u00a0%") if lang == "de" else text


@pytest.fixture
def browser_page(request):
    """The session's headless Chromium (tests/browser.py), or the test skipped without one."""
    from browser import need_a_browser
    need_a_browser()
    return request.getfixturevalue("browser")


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_page_shows_a_choices_why_when_tapped(browser_page, lang, capsys, tmp_path):
    """Tap "Why?" of the best choice (a keep) and of a box: each opens below its row with the
    boxes its turn ends in, the upper bonus's chance (a box: before and after) and the boxes a
    box leaves open, the figures of `advise --why`; the page fits 390 px; a second tap closes."""
    from browser import PHONE, blank_page, served

    from solver.lang import Words
    from solver.web.app import create_app
    record = game_after(TURNS)
    with served(create_app(preloaded=[solved("kniffel")])) as base, \
            blank_page(browser_page, base) as page:
        page.set_viewport_size(PHONE)
        page.evaluate("localStorage.setItem('kniffel-game', "
                      f"{json.dumps(json.dumps(dict(record=record, hand=HAND, language=lang)))})")
        page.goto(base)
        page.wait_for_selector("body[data-ready]")
        line = json.loads(page.text_content("#line"))
        (tmp_path / "line.jsonl").write_text(json.dumps({**line, "why": True}) + "\n")
        solved("kniffel").save(tmp_path / "tables")
        code, out, _ = run(capsys, "advise", "--batch", str(tmp_path / "line.jsonl"),
                           "--tables", str(tmp_path / "tables"))
        answer = json.loads(out)
        w = Words(lang, solved("kniffel").rules)
        page.click("#advice li.best .why-button")
        page.wait_for_selector("#advice li.best .why li")
        best = answer["options"][0]
        items = page.eval_on_selector_all("#advice li.best .why li",
                                          "els => els.map(e => e.textContent)")
        assert len(items) == len(best["why"]["boxes"])
        top = best["why"]["boxes"][0]
        assert items[0].startswith(f"{w.box(top['box'])} {page_percent(top['probability'], lang)}")
        text = page.text_content("#advice li.best .why")
        assert page_percent(best["why"]["upper_bonus_chance"], lang) in text
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"phone-why-{lang}.png"), full_page=True)
        page.click("#advice li.more")  # every choice: a box among them
        box = next(o for o in answer["options"] if o["action"] == "score")
        row = f"#advice li[data-box='{box['box']}']"
        page.click(f"{row} .why-button")
        page.wait_for_selector(f"{row} .why")
        text = page.text_content(f"{row} .why")
        assert page_percent(box["why"]["upper_bonus_chance"], lang) in text
        assert page_percent(answer["why"]["upper_bonus_chance"], lang) in text
        assert w("why.open", boxes=", ".join(map(w.box, box["why"]["open"]))) in text
        assert not page.query_selector("#advice li.best .why")  # one why open at a time
        page.click(f"{row} .why-button")
        assert not page.query_selector(f"{row} .why")
