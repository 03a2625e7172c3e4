"""The Dice Duel page (/duel) on a phone, as a person uses it: headless Chromium at 360 and 390
px for 2, 3 and 4 players (long names), German and English: setup, a turn with advice, the end
of a whole 3-player game and its analysis.  Every state fits the screen (no horizontal scroll,
nothing past the right edge, no text squeezed into a narrow box) and shows no word of the other
language; "New" asks first, a reload resumes, real dice go in on the keypad.  Screenshots of each
state go to build/screenshots/duel-*.png, or to $KNIFFEL_SCREENSHOTS (docs/screenshots/ holds the
ones made with KNIFFEL_SCREENSHOTS=docs/screenshots)."""
import json
import os
import re
from pathlib import Path

import pytest
from browser import blank_page, need_a_browser, served

need_a_browser()

pytestmark = pytest.mark.slow  # every test here drives a browser

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(os.environ.get("KNIFFEL_SCREENSHOTS") or ROOT / "build" / "screenshots")
NAMES = ["Annemarie", "Bernhard", "Christine", "Dorothea"]
# Words only one language's page may show (the other's would be a word left untranslated).
ONLY = {"de": ["Würfel", "Gewinnchance", "nimm", "halte", "Teller", "Punkte", "Am Zug", "exakt",
               "Schätzung", "Zurück", "Rechne", "Auswerten", "verschenkt"],
        "en": ["take", "keep", "Chance to win", "Turn", "plate", "points", "exact", "estimate",
               "reroll", "Roll", "Stop", "Undo", "Analyze", "gave away", "'s turn"]}


@pytest.fixture(scope="module")
def server():
    """The app on a port of its own, its duel advice quick (64 games per option)."""
    from solver.duel.multiplayer import advice, analysis
    from solver.web.app import create_app
    # the coach's kernels are compiled first (the browser fixture's web_kernels): no request
    # waits for their job
    saved, advice.GAMES = advice.GAMES, 64
    games, analysis.ANALYSIS_GAMES = analysis.ANALYSIS_GAMES, 32  # the analyses quick too
    try:
        with served(create_app(time_limit=10)) as base:
            yield base
    finally:
        advice.GAMES, analysis.ANALYSIS_GAMES = saved, games


@pytest.fixture
def page(browser, server):
    with blank_page(browser, server) as page:
        yield page


def idle(page):
    page.wait_for_function("document.body.dataset.ready "
                           "&& !document.body.classList.contains('busy')")


def open_duel(page, server, lang, query=""):
    page.evaluate(f"localStorage.setItem('kniffel-duel-language', '{lang}')")
    page.goto(server + "duel" + query)
    idle(page)


LAYOUT = """() => {
  const problems = [];
  if (document.scrollingElement.scrollWidth > innerWidth) problems.push('scrolls sideways');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el.offsetParent && getComputedStyle(el).position !== 'fixed') continue;
    const range = document.createRange(); range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    if (!rects.length) continue;
    const right = Math.max(...rects.map((r) => r.right));
    const left = Math.min(...rects.map((r) => r.left));
    if (right > innerWidth + 0.5 || left < -0.5) problems.push('cut: ' + text);
    const lines = new Set(rects.map((r) => Math.round(r.top))).size;
    const em = parseFloat(getComputedStyle(el).fontSize);
    // squeezed: a text broken into three or more lines in a box a few letters wide
    if (lines >= 3 && el.getBoundingClientRect().width < 8 * em) problems.push('squeezed: ' + text);
  }
  return problems;
}"""


# Every tap target shown at least 44 px tall: buttons, menus, fields, switches, the header's link.
SHORT_TARGETS = """() => [...document.querySelectorAll(
    'button, select, input:not([type=file]), header a')]
  .filter((el) => el.getClientRects().length)
  .map((el) => [el.id || el.textContent, Math.round(el.getBoundingClientRect().height)])
  .filter(([name, height]) => height < 44)"""


def check_page(page, lang, name, width):
    """The page fits `width`, speaks only `lang`, writes its numbers so, and every tap target is
    44 px tall at least; a screenshot `name`."""
    page.set_viewport_size({"width": width, "height": 844})
    assert page.evaluate(LAYOUT) == [], (name, width)
    assert page.evaluate(SHORT_TARGETS) == [], (name, width)
    text = page.inner_text("body")
    other = "en" if lang == "de" else "de"
    foreign = [w for w in ONLY[other] if re.search(rf"(?<![\w]){re.escape(w)}(?![\w])", text)]
    assert not foreign, (name, foreign, text)
    if lang == "de":
        assert not re.search(r"\d\.\d+\s?%", text), text  # German decimal comma
    else:
        assert not re.search(r"\d,\d+\s?%", text), text
    if width == 390:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"duel-{name}-{lang}.png"), full_page=True)


def test_setup_and_a_turn_with_advice_fit_phones_for_2_3_4_players(page, server):
    """Setup, then a turn with the coach's advice, for 2-4 players with long names, at 360 and
    390 px, in both languages: it fits, speaks one language, and says what its chance is."""
    from solver.lang import WORDS
    for lang in ("de", "en"):
        open_duel(page, server, lang)
        page.wait_for_selector("#setup:not([hidden])")
        for width in (360, 390):
            check_page(page, lang, "setup", width)
    for n, lang in ((2, "en"), (3, "de"), (4, "de"), (4, "en")):
        open_duel(page, server, lang, f"?players={','.join(NAMES[:n])}&seed=3&roll=1")
        page.wait_for_selector("#advice li")
        chance = page.text_content("#advice .chance")
        if "exakt" in chance or "exact" in chance:
            exact = WORDS[lang]["duel.web.chance_exact" + ("_many" if n > 2 else "")]
            assert exact.split("{")[0] in chance
        else:  # the estimate says under whose play it holds: the simple rule's
            assert WORDS[lang]["duel.web.chance_greedy"].split("{")[0] in chance
            assert chance.endswith(WORDS[lang]["duel.web.chance_greedy"].rsplit("}", 1)[-1])
        for width in (360, 390):
            check_page(page, lang, f"{n}p-turn", width)
    # near the end of a 3-player game the chance is exact, with the convention for a seat that
    # can no longer win said in words
    record = json.loads((ROOT / "tests" / "data" / "duel-3p-advised.json").read_text())
    record = {**record, "turns": record["turns"][:-2], "finished": False, "scores": None}
    for lang in ("de", "en"):
        page.evaluate("r => localStorage.setItem('kniffel-duel', "
                      "JSON.stringify({record: r, hand: null}))", record)
        open_duel(page, server, lang)
        if not page.query_selector("#dice .die"):
            page.click("#roll")
            idle(page)
        page.wait_for_selector("#advice li")
        exact = WORDS[lang]["duel.web.chance_exact_many"]
        chance = page.text_content("#advice .chance")
        assert chance.startswith(exact.split("{")[0]) and chance.endswith(exact.split("}")[-1])
        check_page(page, lang, "3p-endgame", 390)
    open_duel(page, server, "en", "?players=Anna,Ben&seed=3&roll=1")
    page.select_option("#language", "de")  # switching mid-game: everything at once
    page.wait_for_selector("#advice li")
    check_page(page, "de", "2p-switched", 390)


def test_new_asks_a_reload_resumes_and_real_dice_go_in_on_the_keypad(page, server):
    """A 3-player game with real dice: faces tapped on the keypad (a typed 7 is refused in the
    page's language, not sent), buttons wait while the server works, a reload resumes the
    game, and "New" asks before it leaves it."""
    from solver.lang import WORDS
    open_duel(page, server, "de")
    page.fill("#names", "Anna,Ben,Carla")
    page.check("#real-dice")
    page.click("#start")
    idle(page)
    page.wait_for_selector("#pad button")
    page.keyboard.type("7")
    assert page.text_content("#message") == WORDS["de"]["duel.web.face_range"].format(face="7")
    for face in "2234":
        page.click(f"#pad button[data-pad='{face}']")
    page.evaluate("""() => { window.sawWaiting = false; new MutationObserver(() => {
        if (document.body.classList.contains('busy') && document.querySelector('#undo').disabled
            && document.querySelector('#save').disabled) window.sawWaiting = true;
      }).observe(document.body, {attributes: true, subtree: true}); }""")
    page.click("#pad button[data-pad='6']")  # the fifth face sends the roll; the buttons wait
    idle(page)
    assert page.evaluate("window.sawWaiting")
    assert not page.evaluate("document.querySelector('#undo').disabled")
    page.wait_for_selector("#dice .die")
    assert [d.text_content() for d in page.query_selector_all("#dice .die")] == list("22346")
    check_page(page, "de", "3p-real-dice", 390)
    turn = page.text_content("#turn")
    page.reload()
    idle(page)
    page.wait_for_selector("#dice .die")
    assert page.text_content("#turn") == turn
    assert [d.text_content() for d in page.query_selector_all("#dice .die")] == list("22346")
    page.click("#new-game")
    assert page.is_visible("#new-confirm") and page.is_visible("#play")
    check_page(page, "de", "new-asks", 390)
    page.click("#new-no")
    assert not page.is_visible("#new-confirm") and page.is_visible("#play")
    page.click("#new-game")
    page.click("#new-yes")
    assert page.is_visible("#setup") and page.is_visible("#back-to-game")
    page.click("#back-to-game")  # still saved until Start
    assert page.text_content("#turn") == turn


def resume(page, server, lang, record):
    page.evaluate("r => localStorage.setItem('kniffel-duel', "
                  "JSON.stringify({record: r, hand: null}))", record)
    open_duel(page, server, lang)
    page.wait_for_selector("#analyze:not([hidden])")


def test_whole_2_and_4_player_games_without_advice_are_analysed_in_parts(page, server):
    """Games played without the coach (nothing noted): the page asks for the analysis in parts,
    shows how far it is, then the decisions that cost a chance and each player's total."""
    from solver.lang import WORDS
    for n, lang in ((2, "de"), (4, "en")):
        record = json.loads((ROOT / "tests" / "data" / f"duel-{n}p-greedy.json").read_text())
        resume(page, server, lang, record)
        page.evaluate("""() => { window.progress = new Set(); new MutationObserver(() =>
            window.progress.add(document.querySelector('#analysis').textContent)).observe(
            document.querySelector('#analysis'),
            {childList: true, subtree: true, characterData: true}); }""")
        page.click("#analyze")
        page.wait_for_selector("#analysis h2")
        total = sum(len(t["decisions"]) for t in record["turns"])
        steps = page.evaluate("[...window.progress]")
        said = WORDS[lang]["duel.web.analysing"]
        assert said.format(done=8, total=total) in steps
        assert said.format(done=0, total=total) in steps
        assert page.query_selector_all("#analysis li.loss")  # the greedy keeps cost something
        text = page.inner_text("#analysis")
        for name in record["players"]:
            total_line = WORDS[lang]["duel.web.analysis_total"].format(name=name, lost="@")
            assert total_line.split("@")[0] in text
        for width in (360, 390):
            check_page(page, lang, f"{n}p-analysis", width)


def test_the_analysis_of_a_whole_3_player_game_answers(page, server):
    """A whole 3-player game played by the advice (its advice noted in the record), resumed at
    its end: the analysis answers in parts with its progress, charges nobody, in both languages."""
    from solver.lang import WORDS
    record = json.loads((ROOT / "tests" / "data" / "duel-3p-advised.json").read_text())
    for lang in ("de", "en"):
        resume(page, server, lang, record)
        page.click("#analyze")
        page.wait_for_selector("#analysis h2")
        text = page.inner_text("#analysis")
        assert WORDS[lang]["duel.web.no_advice_loss"] in text
        for name in record["players"]:
            lost = "0%" if lang == "en" else "0\u00a0%"
            assert WORDS[lang]["duel.web.analysis_total"].format(name=name, lost=lost) in text
        for width in (360, 390):
            check_page(page, lang, "3p-analysis", width)


WATCH_BUSY = """() => { window.sawBusy = 0; new MutationObserver(() => {
    if (document.body.classList.contains('busy') && document.querySelector('#undo').disabled)
      window.sawBusy++;
  }).observe(document.body, {attributes: true, subtree: true}); }"""


def test_each_tap_sends_one_request_and_shows_that_it_works(page, server):
    """Requests counted in the browser, at 360 and 390 px in both languages: a tap on Roll,
    on a chip or on the coach switch sends one request, a double tap too (the second tap comes
    while the buttons wait); holding a die or Stop sends none; "keep marked, roll the rest"
    sends one move, the keep and the throw at once, with the advice shown for the keep.
    While a request is under way the page shows it (busy, the buttons waiting)."""
    import time
    sent = []

    def note(request):
        if "/api/duel/" in request.url:
            sent.append(dict(request.post_data_json, path=request.url.split("/api/duel/")[1]))

    page.on("request", note)
    answers = []

    def tap(selector, twice=False):
        """The requests a tap on `selector` sends, once the page is idle again."""
        first = len(sent)
        page.evaluate(WATCH_BUSY)
        started = time.monotonic()
        page.evaluate("([sel, twice]) => { const b = document.querySelector(sel); b.click(); "
                      "if (twice) b.click(); }", [selector, twice])
        idle(page)
        if len(sent) > first:
            answers.append(time.monotonic() - started)
            assert page.evaluate("window.sawBusy") > 0, selector
        return sent[first:]

    for lang in ("de", "en"):
        for width in (360, 390):
            open_duel(page, server, lang, "?players=Anna,Ben&seed=3")
            page.set_viewport_size({"width": width, "height": 844})
            rolled = tap("#roll", twice=True)
            assert [(r["path"], r["move"]) for r in rolled] == [("game", {"roll": True})], rolled
            assert page.query_selector_all("#dice .die")
            assert tap("#dice .die") == []  # held: nothing sent
            kept = tap("#roll", twice=True)
            assert [sorted(r["move"]) for r in kept] == [["keep", "roll"]], kept
            assert kept[0]["move"]["roll"] is True and kept[0]["coach"] is True, kept
            assert kept[0]["advice"] is not None  # the keep's advice, noted with it
            if page.is_visible("#stop"):
                assert tap("#stop") == []
            took = tap("#moves button", twice=True)
            assert len(took) == 1 and set(took[0]["move"]) & {"take", "no_chip"}, took
            coach = tap("#coach")
            assert len(coach) == 1 and coach[0]["move"] is None and coach[0]["coach"] is False
            assert len(tap("#coach")) == 1
    page.remove_listener("request", note)
    print(f"answers after a tap: {min(answers):.2f}-{max(answers):.2f} s ({len(answers)} taps)")


def _once_busy(job):
    """A route that answers its first request 503 with `job`, as the server does while the
    coach's kernels are compiled (once), and lets the others through."""
    answered = []

    def fulfil(route):
        if answered:
            route.continue_()
            return
        answered.append(route.request.url)
        route.fulfill(status=503, json={"error": "preparing", "retry_after": 2, "job": job})
    return fulfil


def test_a_request_waiting_for_the_coachs_kernels_shows_their_progress_then_goes_on(page, server):
    """The server's jobs, its answers played by the test: a new game answered 503 with the job
    that compiles the coach's kernels shows below the set-up what is prepared, how far and how
    long, in the page's language, and starts the game by itself once the job is done."""
    from solver.lang import Words
    job = {"kind": "warm", "rules": None, "title": None, "feature": "duel", "state": "running",
           "error": None, "fraction": 0.5, "eta_seconds": 20, "levels_done": None, "levels": None,
           "seconds": 20.0}
    for lang in ("de", "en"):
        words = Words(lang)
        for width in (360, 390):
            page.evaluate("localStorage.removeItem('kniffel-duel')")  # the set-up, no game
            open_duel(page, server, lang)
            page.set_viewport_size({"width": width, "height": 844})
            page.route("**/api/duel/new", _once_busy(job))
            page.route("**/api/jobs", lambda route: route.fulfill(
                json={"jobs": [dict(job, state="done")]}))
            page.evaluate("""() => { window.jobSeen = [];
                const job = document.getElementById('job');
                new MutationObserver(() => { if (!job.hidden) window.jobSeen.push([
                  job.querySelector('p').textContent, !!job.closest('#setup'),
                  job.getBoundingClientRect().bottom <= innerHeight,
                  document.documentElement.scrollWidth]); }).observe(
                job, {attributes: true, childList: true, subtree: true}); }""")
            page.click("#start")
            page.wait_for_selector("#play:not([hidden])")
            idle(page)
            percent = "50,0\u00a0%" if lang == "de" else "50.0%"
            said = words("job.done_eta", what=words("job.warm_duel"), percent=percent,
                         eta=words("eta.seconds", n=20))
            seen = page.evaluate("window.jobSeen")
            assert seen and seen[0] == [said, True, True, width], seen
            assert page.is_hidden("#job")
            page.unroute("**/api/duel/new")
            page.unroute("**/api/jobs")
