"""The scorecard page on a phone, looked at as a person would: at 360 and 390 px wide, in German
and in English, every state (set-up, a turn, the advice for points and to win, 4 players with
long names, 8 players, the analysis, another player's turn written) fits the screen with no
horizontal scrolling, no text squeezed into a narrow box, and no word or number format of the
other language.  With $KNIFFEL_SCREENSHOTS set, each state at 390 px is saved there too
(scripts/screenshots.py writes the ones docs/screenshots/ holds)."""
import json
import os
import re
from pathlib import Path

import pytest
from browser import blank_page, need_a_browser, served
from conftest import solved

need_a_browser()

pytestmark = pytest.mark.slow  # drives a browser
SHOTS = Path(os.environ.get("KNIFFEL_SCREENSHOTS") or "build/screenshots")

WIDTHS = (360, 390)
LONG_NAMES = ["Annemarie", "Bernhard", "Christine", "Dorothea"]
BOXES = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
         "full_house", "small_straight", "large_straight", "kniffel", "chance"]
DICE = {"ones": (1, 1, 1, 2, 3), "twos": (2, 2, 2, 3, 4), "threes": (3, 3, 3, 1, 2),
        "fours": (4, 4, 4, 5, 6), "fives": (5, 5, 5, 2, 3), "sixes": (6, 6, 6, 1, 2),
        "three_kind": (6, 6, 6, 5, 4), "four_kind": (5, 5, 5, 5, 2), "full_house": (3, 3, 2, 2, 2),
        "small_straight": (1, 2, 3, 4, 6), "large_straight": (1, 2, 3, 4, 5),
        "kniffel": (4, 4, 4, 4, 4), "chance": (6, 5, 4, 3, 3)}

# What a person would call squeezed or cut, in the page as shown: an element whose own text (over
# 3 characters) wraps in a box under 40 px along its writing direction, an advice option's text
# that wraps inside less than 60 % of the screen's width, and anything reaching past the screen.
SQUEEZED = """() => {
  const vw = window.innerWidth, bad = [];
  for (const el of document.querySelectorAll("body *")) {
    if (!el.getClientRects().length) continue;  // not shown
    const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join("");
    const r = el.getBoundingClientRect(), style = getComputedStyle(el);
    const vertical = style.writingMode.startsWith("vertical");
    const [along, across] = vertical ? [r.height, r.width] : [r.width, r.height];
    if (own.length > 3 && along < 40 && across > 1.6 * (parseFloat(style.lineHeight) || 20))
      bad.push(`wrapped in ${Math.round(along)} px: ${own}`);
    if (r.right > vw + 1 || r.left < -1) bad.push(`outside the screen: <${el.tagName}> ${own}`);
  }
  for (const what of document.querySelectorAll("#advice li .what")) {
    const r = what.getBoundingClientRect(), line = parseFloat(getComputedStyle(what).lineHeight);
    if (r.width < 0.6 * vw && r.height > 1.6 * line) bad.push(`option text wrapped in ${Math.round(r.width)} px: ${what.textContent}`);
  }
  return bad;
}"""  # noqa: E501 - the page's own JavaScript, as it runs


# Every tap target shown at least 44 px tall, as a finger needs it: buttons, menus, fields, the
# card's boxes, the advice's rows, the folds and the header's link.
SHORT_TARGETS = """() => [...document.querySelectorAll(
    'button, select, input:not([type=file]), #card td[data-box], #advice li, summary, header a')]
  .filter((el) => el.getClientRects().length)
  .map((el) => [el.id || el.tagName + '.' + el.className,
                Math.round(el.getBoundingClientRect().height)])
  .filter(([name, height]) => height < 44)"""


def _foreign_words(lang):
    """Words of the page's other language that this one never uses (4+ letters, whole words)."""
    from solver.lang import Words
    other = "en" if lang == "de" else "de"

    def words(text):
        return set(re.findall(r"[^\W\d_]{4,}", re.sub(r"\{[^}]*\}", " ", text)))

    own = set().union(*map(words, Words(lang).all_strings()))
    from solver.rules import PRESETS
    names = set().union(*(set(name.split("-")) for name in PRESETS))  # rule sets' names: not words
    return (set().union(*map(words, Words(other).all_strings())) - own - names
            - {"Kniffel", "Yahtzee"})


FOREIGN = {lang: _foreign_words(lang) for lang in ("de", "en")}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The page's server in this process (one for the module), on a free port of loopback, where
    no win coach's table is known: not in a store of its own, not in the session's default store
    (win_advice looks there too), not kept in memory by a test before (the opponents' store and
    the target tables are kept per process).  Another test's tables would change what its early
    win advice knows."""
    from solver.advice.win import coach
    from solver.stats import opponents
    from solver.web.app import create_app
    store = tmp_path_factory.mktemp("phone-store")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KNIFFEL_TABLES", str(store))
        patch.setattr(opponents, "_STORES", {})
        patch.setattr(coach, "_TARGETS", {})
        with served(create_app(store, preloaded=[solved("kniffel")])) as base:
            yield base


def shot(page, name):
    """The whole page at 390 px, from the top, into SHOTS."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture
def page(browser, server):
    with blank_page(browser, server) as page:
        yield page


def _record(players, rounds, rules="kniffel"):
    """A real-dice game after `rounds` whole rounds (each player's boxes in a turned order)."""
    from solver.game import session
    record, hand = session.new_record(rules, players, None, True), None
    for r in range(rounds):
        for p in range(len(players)):
            box = BOXES[(r + p) % len(BOXES)]
            record, hand = session.apply_move(record, None, {"roll": list(DICE[box])})
            record, hand = session.apply_move(record, hand, {"box": box})
    return record


def _open(page, server, lang, record=None, hand=None, goal="points"):
    """The page in `lang` (chosen in the menu before), with the game `record` resumed."""
    page.goto(server + "static/style.css")
    page.evaluate("localStorage.clear()")
    page.evaluate(f"localStorage.setItem('kniffel-language', '{lang}')")
    if record is not None:
        saved = json.dumps(dict(record=record, hand=hand, language=lang, goal=goal))
        page.evaluate(f"localStorage.setItem('kniffel-game', {json.dumps(saved)})")
    page.goto(server)
    page.wait_for_selector("body[data-ready]")
    page.wait_for_function("!document.body.classList.contains('busy')")


def _looks_right(page, lang, state):
    """At each phone width: fits, nothing squeezed, one language and its number format."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        sizes = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert sizes[0] <= sizes[1], (state, lang, width, sizes)
        assert page.evaluate(SQUEEZED) == [], (state, lang, width)
        assert page.evaluate(SHORT_TARGETS) == [], (state, lang, width)
        text = page.evaluate("document.body.innerText.replace("
                             "(document.getElementById('line') || {innerText: ''}).innerText, '')")
        foreign = {w for w in re.findall(r"[^\W\d_]{4,}", text) if w in FOREIGN[lang]}
        assert not foreign, (state, lang, width, foreign)
        wrong = re.findall(r"\d\.\d" if lang == "de" else r"\d,\d", text)
        assert not wrong, (state, lang, width, wrong, text)
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.input_value("#language") == lang  # the menu never snaps back
    # on request: scripts/screenshots.py writes the docs' ones
    if os.environ.get("KNIFFEL_SCREENSHOTS"):
        shot(page, f"phone-{state}-{lang}")


def test_every_state_fits_a_phone_in_one_language(page, server):
    for lang in ("de", "en"):
        # the set-up with four long names and the house rules open
        _open(page, server, lang)
        for i, name in enumerate(LONG_NAMES):
            if i:
                page.click("#add-player")
            page.fill(f"#player-list input >> nth={i}", name)
        page.click("#house-rules summary")
        _looks_right(page, lang, "setup")
        # four players, goal "win", dice in hand late in the game: the win advice
        _open(page, server, lang, _record(LONG_NAMES, 10), [2, 2, 3, 5, 6], "win")
        assert page.query_selector("#advice.win li.best"), page.inner_text("#advice-head")
        chances = [li.inner_text() for li in page.query_selector_all("#advice li[data-action]")]
        assert len(chances) >= 4 and all(("Sieg" if lang == "de" else "win") in c for c in chances)
        shown = [float(re.search(r"([\d.,]+)\s?%", c).group(1).replace(",", ".")) for c in chances]
        assert shown == sorted(shown, reverse=True), shown  # in the order of the chances shown
        _looks_right(page, lang, "win")
        page.click("#advice li.more")  # every choice, the boxes with their points too
        assert len(page.query_selector_all("#advice li[data-action]")) > 6
        _looks_right(page, lang, "win-all")
        # the same game for points: the advice list, the card with the open boxes
        page.select_option("#goal", "points")
        page.wait_for_function("!document.body.classList.contains('busy') "
                               "&& !document.querySelector('#advice.win')")
        assert page.query_selector_all("#advice li[data-action]")
        _looks_right(page, lang, "points")
        # eight players at the start of a turn
        _open(page, server, lang,
              _record(LONG_NAMES + ["Emanuel", "Friederike", "Gottfried", "Hildegard"], 4))
        assert len(page.query_selector_all("#card thead th")) == 9
        _looks_right(page, lang, "eight-players")
        # a finished game of two: the analysis
        _open(page, server, lang, _record(["Annemarie", "Bernhard"], 13))
        page.wait_for_selector("#analysis h2")
        _looks_right(page, lang, "analysis")


EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "kniffel-game.json"


def _page_percent(p, lang):
    """A chance as the page writes it (common.js percent): "31,5 %" in German."""
    from solver.lang import percent
    text = percent(p)
    return text.replace(".", ",").replace("%", "\u00a0%") if lang == "de" else text


def _why_shown(page, row, d, lang):
    """The why open below the analysis's `row` says what /api/analyze's why `d` says: the boxes
    each choice's turn ends in with their chances, the upper bonus's chance (or the work that
    left it out), the boxes a box leaves open."""
    from solver.lang import Words
    from solver.rules import PRESETS
    w, why = Words(lang, PRESETS["kniffel"]), d["why"]
    items = page.eval_on_selector_all(f"{row} .why li", "els => els.map(e => e.textContent)")
    said = [f"{w.box(b['box'])} {_page_percent(b['probability'], lang)} ("
            for key in ("choice", "best") for b in why[key]["boxes"]]
    assert len(items) == len(said) and all(map(str.startswith, items, said)), (items, said)
    text = page.text_content(f"{row} .why")
    for key in ("web.why_choice", "web.why_best"):
        assert w(key, choice="@").split("@")[0] in text
    if why["upper_bonus_chance"] is None:
        over = why["over_budget"]
        budget = f"{over['budget']:g}"
        assert w("why.over_budget", seconds=over["work"],
                 budget=budget.replace(".", ",") if lang == "de" else budget) in text
    else:
        assert _page_percent(why["choice"]["upper_bonus_chance"], lang) in text
        assert _page_percent(why["best"]["upper_bonus_chance"], lang) in text
    if "box" in d["choice"]:
        assert w("why.open", boxes=w.boxes(why["choice"]["open"]) or w("nothing")) in text


def test_the_analysis_says_why_of_its_costliest_decisions(page, server):
    """A finished game (docs/examples): in the analysis the rows of each player's costliest
    decisions have the advice's "Why?", the others none; tapped, it opens below its row what
    the choice made and the best one for points play for, as /api/analyze's why says; one is
    open at a time, a second tap closes it; every why fits a phone, in either language."""
    record = json.loads(EXAMPLE.read_text())
    for lang in ("de", "en"):
        with page.expect_response("**/api/analyze") as answered:
            _open(page, server, lang, record)
        result = answered.value.json()
        page.wait_for_selector("#analysis li .why-button")
        decisions = result["decisions"]
        explained = [i for i, d in enumerate(decisions) if "why" in d]
        rows = page.eval_on_selector_all("#analysis li:has(> .why-button)",
                                         "els => els.map(e => Number(e.dataset.decision))")
        assert rows == explained and len(explained) == 3, (rows, explained)  # Ben's three
        kinds = {("box" if "box" in decisions[i]["choice"] else "keep")
                 + ("" if decisions[i]["why"]["upper_bonus_chance"] is not None else "-over"): i
                 for i in explained}
        assert {"keep", "keep-over", "box"} <= set(kinds), kinds
        for kind, i in sorted(kinds.items()):
            row = f"#analysis li[data-decision='{i}']"
            page.click(f"{row} .why-button")
            page.wait_for_selector(f"{row} .why")
            assert len(page.query_selector_all("#analysis .why")) == 1
            assert page.get_attribute(f"{row} .why-button", "aria-expanded") == "true"
            _why_shown(page, row, decisions[i], lang)
            _looks_right(page, lang, f"analysis-why-{kind}")
        page.click(f"{row} .why-button")
        assert not page.query_selector("#analysis .why")


def test_the_language_menu_changes_everything_at_once_and_stays(page, server):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server + "static/style.css")
    page.evaluate("localStorage.clear()")
    page.goto(server)
    page.wait_for_selector("body[data-ready]")
    assert page.input_value("#language") == "de"  # a Kniffel rule set: its pad's language at first
    page.select_option("#language", "en")  # chosen: it stays, with the Kniffel rules too
    page.select_option("#preset", "kniffel")
    assert page.input_value("#language") == "en"
    assert "Player 1" in page.input_value("#player-list input >> nth=0")
    setup = page.inner_text("#setup")
    assert "House rules" in setup and "Hausregeln" not in setup
    page.fill("#seed", "7")
    page.click("#add-player")
    page.click("#start")
    page.wait_for_function("document.body.dataset.step "
                           "&& !document.body.classList.contains('busy')")
    page.click("#roll")
    page.wait_for_function("document.querySelector('#dice .die[data-face]') "
                           "&& !document.body.classList.contains('busy')")
    page.select_option("#language", "de")  # mid-game: the turn line, card, advice and names switch
    page.wait_for_function("document.getElementById('turn-line').textContent.startsWith('Runde') "
                           "&& !document.body.classList.contains('busy')")
    text = page.inner_text("main")
    assert "Spieler 1" in text and "Spieler 2" in text and "Player" not in text
    assert "Summe oben" in text and "Möglichkeiten" in text and re.search(r"\d,\d\d", text)
    page.click("#new-game")
    page.click("#new-yes")
    page.select_option("#language", "en")  # after "New": the set-up in English, at once
    setup = page.inner_text("#setup")
    assert "House rules" in setup and "Players" in setup and "Spieler" not in setup
    assert (page.text_content("#preset-description")
            and "Regeln" not in page.text_content("#preset-description"))
    page.click("#back-to-game")
    page.wait_for_function("document.getElementById('turn-line').textContent.startsWith('Round') "
                           "&& !document.body.classList.contains('busy')")
    assert "upper total" in page.inner_text("#card")
    page.reload()  # the choice survives a reload
    page.wait_for_selector("body[data-ready]")
    assert page.input_value("#language") == "en"


def _written_record(players, last):
    """A real-dice game after 12 rounds, player p's box last[p] still open: the first player's
    turns thrown and entered with their dice, the others' written as a box and its points."""
    from solver.game import session
    record, hand = session.new_record("kniffel", players, None, True), None
    orders = [[b for b in BOXES if b != box] for box in last]
    for r in range(12):
        for p in range(len(players)):
            box = orders[p][r]
            if p == 0:
                record, hand = session.apply_move(record, None, {"roll": list(DICE[box])})
                record, hand = session.apply_move(record, hand, {"box": box})
            else:
                points = sum(DICE[box]) if box == "chance" else 0
                record, hand = session.apply_move(record, None,
                                                  {"write": {"box": box, "points": points}})
    return record


def test_the_others_turns_are_written_as_box_and_points_and_not_judged(page, server):
    """A real table: Anna enters her dice, Bernhard's and Christine's turns are written as the
    card says (a box and its points, no dice); the analysis judges Anna's turns only."""
    players = ["Anna", "Bernhard", "Christine"]
    _open(page, server, "de", _written_record(players, ["chance", "full_house", "chance"]))
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.get_attribute("#turn-line", "data-player") == "0"
    for face in DICE["chance"][:4]:  # Anna throws: her dice on the pad
        page.click(f"#pad button[data-pad='{face}']")
    step = page.evaluate("document.body.dataset.step")
    page.click(f"#pad button[data-pad='{DICE['chance'][4]}']")
    page.wait_for_function(f"document.body.dataset.step !== '{step}' "
                           "&& !document.body.classList.contains('busy')")
    step = page.evaluate("document.body.dataset.step")
    page.click("#card td.open[data-player='0'][data-box='chance']")
    page.wait_for_function(f"document.body.dataset.step !== '{step}' "
                           "&& !document.body.classList.contains('busy')")
    assert page.get_attribute("#turn-line", "data-player") == "1"
    # Bernhard: his open box on the card, then its points (a full house: two buttons)
    assert "ohne Würfel" in page.text_content("#write-help")
    page.click("#card td.writable[data-player='1'][data-box='full_house']")
    assert (page.is_visible("#write")
            and "Full House für Bernhard" in page.text_content("#write-label"))
    assert ([b.text_content() for b in page.query_selector_all("#write-points button")]
            == ["0", "25"])
    # two buttons, no bonus
    assert page.is_hidden("#write-input") and page.is_hidden("#write-bonus")
    _looks_right(page, "de", "write")
    step = page.evaluate("document.body.dataset.step")
    page.click("#write-points button[data-points='25']")
    page.wait_for_function(f"document.body.dataset.step !== '{step}' "
                           "&& !document.body.classList.contains('busy')")
    assert page.get_attribute("#card td[data-player='1'][data-box='full_house']",
                              "data-points") == "25"
    assert page.is_hidden("#write") and page.get_attribute("#turn-line", "data-player") == "2"
    # Christine: points typed (many possible), a wrong number refused before it is sent
    page.click("#card td.writable[data-player='2'][data-box='chance']")
    assert page.is_hidden("#write-points button") and page.is_visible("#write-input")
    page.fill("#write-input", "3")
    page.click("#write-ok")
    assert "passt nicht" in page.text_content("#message")
    step = page.evaluate("document.body.dataset.step")
    page.fill("#write-input", "22")
    page.click("#write-ok")
    page.wait_for_function(f"document.body.dataset.step !== '{step}' "
                           "&& !document.body.classList.contains('busy')")
    page.wait_for_selector("#analysis h2")
    text = page.inner_text("#analysis")
    assert "Bernhard: " in text and "nicht bewertet" in text and "von 13" in text, text
    assert text.count("nicht bewertet") == 2 and "0 von" not in text, text
    _looks_right(page, "de", "written-analysis")


# --- the page at the table: what it says, where, and in which language -------------------------

IN_VIEW = """(selector) => {
  const el = document.querySelector(selector), r = el.getBoundingClientRect();
  const header = document.querySelector('header').getBoundingClientRect();
  return r.height > 0 && r.top >= header.bottom - 1 && r.bottom <= innerHeight + 1;
}"""


def _sized(page, width):
    page.set_viewport_size({"width": width, "height": 844})


def _said(page, before=""):
    """The message the page shows once it has answered (it differs from `before`)."""
    page.wait_for_function("document.getElementById('message').textContent !== "
                           f"{json.dumps(before)} && !document.body.classList.contains('busy')")
    return page.text_content("#message")


def test_the_set_up_says_what_is_wrong_next_to_start(page, server):
    """Empty names, a name twice and a house rule the rules cannot take: each said in the
    page's language, in the set-up next to Start (on the screen, below the header), the rule
    marked; no English of the server's."""
    from solver.lang import Words
    for lang in ("de", "en"):
        words = Words(lang)
        for width in WIDTHS:
            _open(page, server, lang)
            _sized(page, width)
            page.fill("#player-list input >> nth=0", "  ")
            page.click("#start")
            assert _said(page) == words("web.no_names")
            assert page.evaluate(IN_VIEW, "#message") and page.query_selector("#setup #message")
            page.fill("#player-list input >> nth=0", "Anna")
            page.click("#add-player")
            page.fill("#player-list input >> nth=1", "Anna")
            page.click("#start")
            assert _said(page, words("web.no_names")) == words("web.same_names")
            page.fill("#player-list input >> nth=1", "Ben")
            page.click("#house-rules summary")
            page.fill("[data-option=upper_bonus_threshold]", "200")  # the rules allow 1-105
            page.click("#start")
            said = _said(page, words("web.same_names"))
            assert said == words("web.bad_house_rule_range", low=1, high=105, option=words(
                "option.upper_bonus_threshold")), said
            assert page.evaluate(IN_VIEW, "#message") and page.query_selector("#setup #message")
            assert page.get_attribute("[data-option=upper_bonus_threshold]", "aria-invalid")
            assert page.is_hidden("#play")
        _looks_right(page, lang, "setup-message")


JOB_WATCH = """() => {
  window.jobSeen = [];
  const job = document.getElementById('job');
  new MutationObserver(() => {
    if (job.hidden || !job.getClientRects().length) return;
    const r = job.getBoundingClientRect(), bar = job.querySelector('progress');
    window.jobSeen.push({text: job.querySelector('p').textContent, inSetup: !!job.closest('#setup'),
      inView: r.top >= document.querySelector('header').getBoundingClientRect().bottom - 1
        && r.bottom <= innerHeight + 1, bar: !bar.hidden && bar.getBoundingClientRect().width > 0,
      width: document.documentElement.scrollWidth});
  }).observe(job, {attributes: true, childList: true, subtree: true, characterData: true});
}"""


def test_a_house_rules_table_is_solved_with_its_progress_then_the_game_starts(page, server):
    """House rules whose value table is not in the store: /api/new answers 503 with the job
    that solves it; the set-up shows next to Start what is being solved and how far, in the
    page's language, polls the job and, once it is done, starts the game by itself."""
    from solver.lang import Words
    from solver.rules import PRESETS
    bonus = iter(range(41, 41 + 2 * len(WIDTHS)))  # each a table of its own, not solved yet
    for lang in ("de", "en"):
        what = Words(lang)("job.table", title=PRESETS["kniffel"].definition.titled(lang))
        for width in WIDTHS:
            _open(page, server, lang)
            _sized(page, width)
            page.click("#house-rules summary")
            value = next(bonus)
            page.fill("[data-option=upper_bonus]", str(value))
            page.evaluate(JOB_WATCH)
            sent = []

            def note(request, sent=sent):
                if "/api/" in request.url:
                    sent.append(request.url.split("/api/")[-1])

            page.on("request", note)
            page.click("#start")
            page.wait_for_selector("#play:not([hidden])")  # no second tap: the page asked again
            page.wait_for_function("!document.body.classList.contains('busy')")
            page.remove_listener("request", note)
            seen = page.evaluate("window.jobSeen")
            assert seen and all(s["text"].startswith(what) for s in seen), (what, seen)
            assert all(s["inSetup"] and s["inView"] and s["width"] <= width for s in seen), seen
            assert any(s["bar"] for s in seen), seen
            assert sent.count("new") == 2 and "jobs" in sent, sent
            record = json.loads(page.evaluate("localStorage.getItem('kniffel-game')"))["record"]
            assert record["rules"]["upper_bonus"] == value
            assert page.is_hidden("#job")


def _late_turn_of_another(players):
    """Bernhard's turn to be written (box and points), Anna's last turn played with dice."""
    from solver.game import session
    record, hand = session.apply_move(_written_record(players, ["chance", "full_house", "chance"]),
                                      None, {"roll": list(DICE["chance"])})
    record, _ = session.apply_move(record, hand, {"box": "chance"})
    return record


def test_the_dialog_that_writes_a_box_shows_below_the_sticky_header(page, server):
    """A box tapped at the foot of the card: the dialog that writes it scrolls into view below
    the sticky header, naming the box and the player."""
    from solver.lang import Words
    from solver.rules import PRESETS
    record = _late_turn_of_another(["Anna", "Bernhard", "Christine"])
    for lang in ("de", "en"):
        label = Words(lang)("web.write_box", name="Bernhard",
                            box=Words(lang, PRESETS["kniffel"]).box("full_house"))
        for width in WIDTHS:
            _open(page, server, lang, record)
            _sized(page, width)
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the card's foot
            page.click("#card td.writable[data-player='1'][data-box='full_house']")
            page.wait_for_selector("#write:not([hidden])")
            assert page.text_content("#write-label") == label
            assert page.evaluate(IN_VIEW, "#write-label"), page.evaluate(
                "[document.querySelector('#write-label').getBoundingClientRect().top, "
                "document.querySelector('header').getBoundingClientRect().bottom]")
            assert page.evaluate(IN_VIEW, "#write-points")
            page.click("#write-cancel")


def test_a_file_that_is_no_game_record_is_said_so_in_the_pages_language(page, server, tmp_path):
    """Load game (set-up) and Load record (a game): text that is not JSON, and JSON that is no
    record, each answered in the page's language where the player looks."""
    from solver.lang import Words
    files = [tmp_path / "notes.json", tmp_path / "other.json"]
    files[0].write_text("this is no JSON {")
    files[1].write_text('{"players": ["Anna"], "moves": 3}')
    record = _record(["Anna", "Ben"], 2)
    for lang in ("de", "en"):
        bad = Words(lang)("web.bad_file")
        for width in WIDTHS:
            for where, field, game in (("#setup", "#load-file", None), ("#play", "#load-file-2",
                                                                         record)):
                _open(page, server, lang, game)
                _sized(page, width)
                for file in files:
                    page.evaluate("document.getElementById('message').textContent = ''")
                    page.set_input_files(field, str(file))
                    assert _said(page) == bad, (lang, file.name)
                    assert page.query_selector(f"{where} #message"), where
                    assert page.evaluate(IN_VIEW, "#message"), (lang, width, where)


def _estimated(route):
    """The game's answer as if the win advice were an estimate: each option with the range its
    chance lies in (the server makes these with the win coach's tables, gigabytes)."""
    response = route.fetch()
    state = response.json()
    advice = state.get("advice")
    if advice and advice.get("objective", {}).get("win"):
        advice["method"] = "approximate"
        for item in [advice, *advice["options"]]:
            p = item["probability"]
            item["interval"] = [0.8 * p, min(1.0, 1.25 * p + 0.01)]
        advice["options"][1]["interval"][0] = None  # not known: "at most"
    route.fulfill(response=response, json=state)


def test_the_win_rows_say_in_words_what_their_chances_are(page, server):
    """Exact chances say "exact"; an estimate says "≈" and the range the exact chance lies in,
    a line below the heading says what both mean; chances not known say so, and why the list is
    ordered by points; every row fits 360 px."""
    from solver.lang import Words
    exact, early = _record(LONG_NAMES, 10), _record(LONG_NAMES[:2], 4)
    for lang in ("de", "en"):
        words = Words(lang)
        _open(page, server, lang, exact, [2, 2, 3, 5, 6], "win")  # late: exact
        rows = [li.inner_text() for li in page.query_selector_all("#advice li[data-action]")]
        tag = words("web.chance_exact", chance="@").split("@")[1]
        assert rows and all(tag in row for row in rows), rows
        assert page.is_hidden("#advice-legend")
        _looks_right(page, lang, "win-exact")
        page.route("**/api/game", _estimated)  # the same with estimates
        _open(page, server, lang, exact, [2, 2, 3, 5, 6], "win")
        rows = [li.inner_text() for li in page.query_selector_all("#advice li[data-action]")]
        between = words("web.chance_about", chance="@", low="@", high="@").split("@")
        assert "≈" in rows[0] and all(part in rows[0] for part in between), rows[0]
        assert words("web.chance_at_most", high="@").split("@")[0] in rows[1], rows[1]
        assert page.text_content("#advice-legend") == words("web.win_legend")
        _looks_right(page, lang, "win-estimated")
        page.unroute("**/api/game")
        _open(page, server, lang, early, [2, 2, 3, 5, 6], "win")  # early: not known here
        rows = [li.inner_text() for li in page.query_selector_all("#advice li[data-action]")]
        assert rows and all(words("chance_unknown") in row for row in rows), rows
        assert page.text_content("#advice-legend") == words("web.win_unknown_legend")
        _looks_right(page, lang, "win-early")


def _job(kind, state, fraction=None, eta=None, **more):
    """A job as the server describes it (GET /api/jobs, a 503's "job", a state's "job")."""
    return {"kind": kind, "rules": None, "title": None, "feature": None, "state": state,
            "error": None, "fraction": fraction, "eta_seconds": eta, "levels_done": None,
            "levels": None, "seconds": 12.0, **more}


def _fake_jobs(page, answers):
    """GET /api/jobs answers each of `answers` ({"jobs": [...]}) in turn, the last for ever."""
    def fulfil(route):
        route.fulfill(json=answers.pop(0) if len(answers) > 1 else answers[0])
    page.route("**/api/jobs", fulfil)


def _answers_with(extra):
    """POST /api/game answered by the server, its own job and offer left out and each of
    `extra` added to an answer in turn."""
    def fulfil(route):
        response = route.fetch()
        state = {k: v for k, v in response.json().items() if k not in ("job", "offer")}
        route.fulfill(response=response, json={**state, **(extra.pop(0) if extra else {})})
    return fulfil


def _building(job, sent):
    """POST /api/build answered as the server does, 503 with the build's job; its body noted."""
    def fulfil(route):
        sent.append(route.request.post_data_json)
        route.fulfill(status=503, json={"error": "building", "retry_after": 5, "job": job})
    return fulfil


def _games_asked(page):
    """The bodies of the POST /api/game requests the page sends from now on, and the listener."""
    asked = []

    def listener(request):
        if request.url.endswith("/api/game"):
            asked.append(request.post_data_json)
    page.on("request", listener)
    return asked, listener


def test_the_win_coach_prepared_or_built_shows_its_progress_then_the_win_advice(page, server):
    """The contract of the server's jobs for the win coach, its answers played by the test: a
    state whose win advice waits for the coach's kernels (a "warm" job) shows the progress and,
    once done, asks for the state again; a state that offers to build the win coach's tables
    shows the offer, its button sends POST /api/build and follows the build's job likewise."""
    from solver.lang import Words
    from solver.rules import PRESETS
    record = _record(["Anna", "Ben"], 10)
    percent = {"de": "40,0\u00a0%", "en": "40.0%"}
    for lang in ("de", "en"):
        words = Words(lang)
        for width in WIDTHS:
            warm = _job("warm", "running", 0.4, 30, feature="win")
            # the first answer carries the job, the next the offer
            page.route("**/api/game", _answers_with(
                [{"job": warm}, {"offer": {"rules": "kniffel", "text": "OFFER-" + lang}}]))
            _fake_jobs(page, [{"jobs": [warm]}, {"jobs": [dict(warm, state="done")]}])
            asked, listener = _games_asked(page)
            _open(page, server, lang, record, [2, 2, 3, 5, 6], "win")
            _sized(page, width)
            page.wait_for_selector("#offer:not([hidden])")  # asked again after the warm job
            assert len(asked) == 2 and "move" not in asked[1], asked
            assert asked[1]["record"] == record and asked[1]["hand"] == [2, 2, 3, 5, 6]
            assert page.text_content("#offer-text") == "OFFER-" + lang
            assert page.text_content("#build") == words("web.build_button")
            assert page.evaluate(IN_VIEW, "#build"), (lang, width)
            _looks_right(page, lang, "offer")
            _sized(page, width)
            title = PRESETS["kniffel"].definition.titled(lang)
            build = _job("win", "running", 0.1, 600, rules="kniffel", title={lang: title})
            sent = []
            page.route("**/api/build", _building(build, sent))
            _fake_jobs(page, [{"jobs": [build]}, {"jobs": [dict(build, state="done")]}])
            page.evaluate(JOB_WATCH)
            page.click("#build")
            page.wait_for_function("window.jobSeen.length && document.getElementById('job').hidden"
                                   " && !document.body.classList.contains('busy')")
            assert sent == [{"rules": "kniffel", "options": {}}], sent
            seen = page.evaluate("window.jobSeen")
            assert seen[0]["text"] == words("job.done_eta", what=words("job.win", title=title),
                                            percent=percent[lang].replace("40", "10"),
                                            eta=words("eta.minutes", n=10)), seen
            assert all(s["inView"] and s["bar"] and s["width"] <= width for s in seen), seen
            assert page.is_hidden("#offer") and len(asked) == 3 and "move" not in asked[-1]
            for path in ("**/api/game", "**/api/jobs", "**/api/build"):
                page.unroute(path)
            page.remove_listener("request", listener)


def _answer_on_the_drill_page(page, decision):
    """Tap the answer `decision` ({"box"} or {"keep"}) on the drill page; wait for the verdict."""
    if "box" in decision:
        page.click(f"#boxes li[data-box='{decision['box']}']")
    else:
        for face in decision["keep"]:
            page.click(f"#dice .die[data-face='{face}']:not(.held)")
        page.click("#keep")
    page.wait_for_selector("#verdict:not([hidden])")


def test_a_drill_at_a_phone_brings_a_wrong_answer_back(browser, tmp_path):
    """The drill page (/drill) in both languages: the first position answered with its tempting
    move says what that gives away and why (the best move's turn and the answer's), the next
    two answered best are right, and the first comes back as the fourth; every state fits."""
    from solver.history import drill
    from solver.lang import Words
    from solver.web.app import create_app
    first, *others = drill.built_in()[:3]
    app = create_app(tmp_path / "store", preloaded=[solved("kniffel")],
                     history=tmp_path / "h.sqlite")
    with served(app) as base, blank_page(browser, base) as page:
        for lang, player in (("de", "Dora"), ("en", "Emil")):
            words = Words(lang)
            page.evaluate(f"localStorage.setItem('kniffel-language', '{lang}');"
                          f"localStorage.setItem('kniffel-drill-player', '{player}')")
            page.goto(base + "drill")
            page.wait_for_selector("body[data-ready]")
            assert page.text_content("#where") == words("web.drill_built_in")
            _looks_right(page, lang, "drill-question")
            _answer_on_the_drill_page(page, first["tempting"])
            result = page.text_content("#result")
            cost = f"{first['price']:.2f}".replace(".", "," if lang == "de" else ".")
            assert cost in result and words("web.drill_wrong").split("{")[1].split("}")[1] \
                in result, result
            assert page.locator("#why .why").count() == 2
            assert page.locator("#why .why li").count() >= 2
            _looks_right(page, lang, "drill-verdict")
            for position in others:
                page.click("#next")
                page.wait_for_selector("#verdict[hidden]", state="attached")
                _answer_on_the_drill_page(page, position["best"])
                assert page.get_attribute("#result", "class") == "right"
            page.click("#next")
            page.wait_for_selector("#verdict[hidden]", state="attached")
            again = words("web.drill_again", n=1)
            assert page.text_content("#where") == words("web.drill_built_in") + again
            faces = [int(d) for d in page.eval_on_selector_all("#dice .die", "ds => ds.map(d => "
                                                               "d.dataset.face)")]
            assert faces == sorted(first["question"]["dice"])
