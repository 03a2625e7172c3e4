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
def server():
    """The page's server in this process (one for the module), on a free port of loopback."""
    from solver.web.app import create_app
    with served(create_app(preloaded=[solved("kniffel")])) as base:
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
        sizes = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
        assert sizes[0] <= sizes[1], (state, lang, width, sizes)
        assert page.evaluate(SQUEEZED) == [], (state, lang, width)
        text = page.evaluate("document.body.innerText.replace("
                             "document.getElementById('line').innerText, '')")
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
        page.select_option("#goal", "expected")
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
