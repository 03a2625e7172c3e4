"""The page of `kniffel serve` in a real browser: headless Chromium (the system's) driven by
Playwright.  Whole games played by clicking, undo, reload and resume, and the advice on the page
checked against `kniffel advise`; screenshots at phone and desktop size go to build/screenshots/
(or $KNIFFEL_SCREENSHOTS) for a person to look at."""
import json
import os
from pathlib import Path

import pytest
from browser import blank_page, need_a_browser, served
from conftest import run, solved

need_a_browser()

pytestmark = pytest.mark.slow  # every test here drives a browser

SHOTS = Path(os.environ.get("KNIFFEL_SCREENSHOTS")
             or Path(__file__).resolve().parent.parent / "build" / "screenshots")
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def server():
    from solver.web.app import create_app
    with served(create_app(preloaded=[solved("kniffel"), solved("yahtzee")])) as base:
        yield base


@pytest.fixture
def page(browser, server):
    with blank_page(browser, server) as page:
        page.goto(server)
        page.wait_for_selector("body[data-ready]")
        yield page


def shot(page, name, size):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(size)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.set_viewport_size(PHONE)


def click(page, selector):
    """Click and wait until the page has shown the server's answer (and is idle again)."""
    step = page.evaluate("document.body.dataset.step || '0'")
    page.click(selector)
    page.wait_for_function(f"document.body.dataset.step !== '{step}' "
                           "&& !document.body.classList.contains('busy')")
    message = page.text_content("#message")
    assert not message, message


def start(page, players, seed=None, real=False):
    for i, name in enumerate(players):
        if i:
            page.click("#add-player")
        page.fill(f"#player-list input >> nth={i}", name)
    if real:
        page.check("input[name=dice-mode][value=real]")
    elif seed is not None:
        page.fill("#seed", str(seed))
    click(page, "#start")


def shown_position(page):
    """The position as the page shows it (card cells, dice, rolls left) as a batch line."""
    player = page.get_attribute("#turn-line", "data-player")
    card = {}
    for cell in page.query_selector_all(f"#card td[data-player='{player}'][data-points]"):
        card[cell.get_attribute("data-box")] = int(cell.get_attribute("data-points"))
    dice = sorted(int(d.get_attribute("data-face"))
                  for d in page.query_selector_all("#dice .die[data-face]"))
    return {"card": card, "dice": dice,
            "rolls_left": int(page.get_attribute("#turn-line", "data-rolls-left"))}


def check_advice_is_kniffel_advise(page, capsys, tmp_path):
    line = shown_position(page)
    (tmp_path / "line.jsonl").write_text(json.dumps(line) + "\n")
    solved("kniffel").save(tmp_path / "tables")
    code, out, err = run(capsys, "advise", "--batch", str(tmp_path / "line.jsonl"),
                         "--tables", str(tmp_path / "tables"))
    assert code == 0, err
    expected = json.loads(out)["options"]
    rows = page.query_selector_all("#advice li[data-action]")
    assert len(rows) >= 2
    for row, option in zip(rows, expected):
        assert row.get_attribute("data-action") == option["action"]
        if option["action"] == "keep":
            assert row.get_attribute("data-keep") == "".join(map(str, option["keep"]))
        else:
            assert row.get_attribute("data-box") == option["box"]
        assert float(row.get_attribute("data-efs")) == pytest.approx(option["expected_final_score"],
                                                                     abs=1e-9)
    best = page.text_content("#advice li.best .efs")
    # German page
    assert best.startswith(f"{expected[0]['expected_final_score']:.2f}".replace(".", ","))


def play_best_turn(page):
    """One turn (or its rest) by the best choices: roll, then the best choice until a box is
    entered."""
    player = page.get_attribute("#turn-line", "data-player")
    round_number = page.text_content("#turn-line")
    if not page.query_selector("#dice .die[data-face]"):
        click(page, "#roll")
    while page.get_attribute("#turn-line", "data-player") == player \
            and page.text_content("#turn-line") .split("·")[0] == round_number.split("·")[0] \
            and page.query_selector("#analysis[hidden]"):
        click(page, "#advice li.best")


def test_one_player_seeded_game_by_clicking(page, capsys, tmp_path):
    shot(page, "phone-setup", PHONE)
    start(page, ["Ann"], seed=11)
    click(page, "#roll")
    check_advice_is_kniffel_advise(page, capsys, tmp_path)
    shot(page, "phone-turn", PHONE)
    shot(page, "desktop-turn", DESKTOP)
    page.click("#dice .die >> nth=0")  # hold a die: marked
    assert page.get_attribute("#dice .die >> nth=0", "aria-pressed") == "true"
    click(page, "#advice li.best")
    turns = 1
    while page.query_selector("#analysis[hidden]"):
        if page.query_selector("#dice .die[data-face]") \
                and page.get_attribute("#turn-line", "data-rolls-left") != "3":
            if turns in (4, 9):
                check_advice_is_kniffel_advise(page, capsys, tmp_path)
            click(page, "#advice li.best")
        else:
            turns += 1
            click(page, "#roll")
    page.wait_for_selector("#analysis h2")
    record = json.loads(page.evaluate("localStorage.getItem('kniffel-game')"))["record"]
    from solver.game.record import replay
    total = replay(record).totals()["Ann"]
    assert page.text_content("#card tr.total td >> nth=1") == str(total)
    assert "0,0 Punkte verschenkt" in page.text_content("#analysis")
    shot(page, "phone-end", PHONE)
    shot(page, "desktop-end", DESKTOP)


def test_two_players_undo_a_box_reload_and_resume(page, server):
    start(page, ["Ann", "Ben"], seed=4)
    click(page, "#roll")
    hand = page.get_attribute("#turn-line", "data-hand")
    click(page, "#card td.open[data-player='0'][data-box='chance']")  # a box entered by mistake
    assert (page.text_content("#card td[data-player='0'][data-box='chance']")
            == str(sum(map(int, hand))))
    assert "Ben" in page.text_content("#turn-line")
    click(page, "#undo")
    assert ("Ann" in page.text_content("#turn-line")
            and page.get_attribute("#turn-line", "data-hand") == hand)
    assert page.get_attribute("#card td[data-player='0'][data-box='chance']", "data-points") is None
    for _ in range(3):  # a few turns each, then the page is reloaded mid-turn
        play_best_turn(page)
    click(page, "#roll")
    before = (page.text_content("#turn-line"), page.get_attribute("#turn-line", "data-hand"),
              page.inner_text("#card"), page.inner_text("#advice"))
    shot(page, "phone-two-players", PHONE)
    shot(page, "desktop-two-players", DESKTOP)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    after = (page.text_content("#turn-line"), page.get_attribute("#turn-line", "data-hand"),
             page.inner_text("#card"), page.inner_text("#advice"))
    assert after == before
    while page.query_selector("#analysis[hidden]"):
        if page.query_selector("#dice .die[data-face]") \
                and page.get_attribute("#turn-line", "data-rolls-left") != "3":
            click(page, "#advice li.best")
        else:
            click(page, "#roll")
    page.wait_for_selector("#analysis h2")
    text = page.text_content("#analysis")
    assert "Ann:" in text and "Ben:" in text and text.count("0,0 Punkte verschenkt") == 2


def test_real_dice_typed_in_and_corrected(page):
    start(page, ["Ann"], real=True)
    for face in (6, 6, 1, 2):
        page.click(f"#pad button[data-pad='{face}']")
    click(page, "#pad button[data-pad='6']")
    assert page.get_attribute("#turn-line", "data-hand") == "12666"
    click(page, "#undo")  # a mistyped roll: type it again
    assert page.get_attribute("#turn-line", "data-hand") == ""
    page.keyboard.type("6613")  # typed on a keyboard this time
    step = page.evaluate("document.body.dataset.step")
    page.keyboard.press("6")
    page.wait_for_function(f"document.body.dataset.step !== '{step}' "
                           "&& !document.body.classList.contains('busy')")
    assert page.get_attribute("#turn-line", "data-hand") == "13666"
    assert page.get_attribute("#advice li.best", "data-keep") == "666"
    click(page, "#advice li.best")  # keep 6 6 6: now the two other dice are typed
    assert (page.query_selector_all("#entry-dice .die")
            and len(page.query_selector_all("#entry-dice .die")) == 2)
    page.click("#pad button[data-pad='6']")
    click(page, "#pad button[data-pad='6']")
    assert page.get_attribute("#turn-line", "data-hand") == "66666"
    assert page.get_attribute("#advice li.best", "data-box") == "kniffel"


# --- a phone at the table: four players, the joker tag, "New", the words ----------------------

def _load_game(page, record, hand=None, language="de", goal="points"):
    """Put a game into the page's storage and open it, as a reload would."""
    page.evaluate(
        "localStorage.setItem('kniffel-game', "
        f"{json.dumps(json.dumps(dict(record=record, hand=hand, language=language, goal=goal)))})")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert not page.query_selector("#play[hidden]")


def _real_dice_game(players, turns, rules="kniffel"):
    """A real-dice game record after `turns` = [(dice, box), ...] taken in order."""
    from solver.game import session
    record, hand = session.new_record(rules, players, None, True), None
    for dice, box in turns:
        record, hand = session.apply_move(record, None, {"roll": list(dice)})
        record, hand = session.apply_move(record, hand, {"box": box})
    return record


def no_overflow(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_four_players_fit_a_phone_and_new_asks_first(page):
    page.set_viewport_size(PHONE)
    page.click("#house-rules summary")  # the house rules open: readable, and within the screen
    assert no_overflow(page), page.evaluate("document.documentElement.scrollWidth")
    options = page.inner_text("#options")
    assert "joker_requires" not in options and "Joker nur, wenn im Kniffel-Feld steht" in options
    start(page, ["Anna", "Bernd", "Carla", "Dieter"], seed=3)
    click(page, "#roll")
    assert no_overflow(page), page.evaluate("[document.documentElement.scrollWidth, "
                                            "window.innerWidth]")
    card = page.query_selector("#card").bounding_box()
    assert card["x"] >= 0 and card["x"] + card["width"] <= PHONE["width"]
    shot(page, "phone-four-players", PHONE)
    line = page.text_content("#turn-line")
    page.click("#new-game")  # asks first: the game is still there
    assert page.is_visible("#new-confirm") and page.is_hidden("#setup") and page.is_visible("#play")
    shot(page, "phone-new-asks", PHONE)
    page.click("#new-no")
    assert page.is_hidden("#new-confirm") and page.text_content("#turn-line") == line
    page.click("#new-game")
    page.click("#new-yes")  # the set-up, with the way back to the running game
    assert page.is_visible("#setup") and page.is_visible("#back-to-game")
    page.click("#back-to-game")
    assert page.is_visible("#play") and page.text_content("#turn-line") == line


def test_the_kniffel_joker_tag_only_where_the_joker_applies(page):
    # the Kniffel box scratched (0): under the kniffel rules no joker applies to five of a kind
    scratched = _real_dice_game(["Anna"], [((1, 2, 3, 4, 6), "kniffel")])
    _load_game(page, scratched, hand=[4, 4, 4, 4, 4])
    assert page.query_selector_all("#advice li[data-action=score]")
    page.click("#advice li.more")
    assert page.query_selector_all(".kniffel-joker") == []
    assert "Joker" not in page.inner_text("#advice")
    # the Kniffel box holding 50: the joker applies (full house, straights at their points)
    fifty = _real_dice_game(["Anna"], [((2, 2, 2, 2, 2), "kniffel")])
    _load_game(page, fifty, hand=[4, 4, 4, 4, 4])
    page.click("#advice li.more")
    tagged = {li.get_attribute("data-box") for li in page.query_selector_all("#advice li")
              if li.query_selector(".kniffel-joker")}
    assert {"full_house", "small_straight", "large_straight"} <= tagged and "fours" not in tagged
    assert "Kniffel-Joker" in page.inner_text("#advice")


def test_german_card_and_analysis_show_no_box_keys_or_english_rows(page):
    turns = [((d,) * 3 + (1, 2), box) for d, box in zip(
        (1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1, 6),
        ("ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
         "full_house", "small_straight", "large_straight", "kniffel", "chance"))]
    record = _real_dice_game(["Anna", "Ben"], [t for t in turns for _ in (0, 1)])
    _load_game(page, record)
    page.wait_for_selector("#analysis h2")
    text = (page.inner_text("#card") + "\n" + page.inner_text("#analysis") + "\n"
            + page.inner_text("#turn-line"))
    for key in ("three_kind", "four_kind", "full_house", "small_straight", "large_straight", "ones",
                "sixes", "chance"):
        assert key not in text, key
    for english in ("upper", "bonus (63+)", "extra Kniffel", "total", "gave away", "Game over",
                    "round "):
        assert english not in text, english
    assert "Summe oben" in text and "Endsumme" in text and "Auswertung" in text
    over = page.text_content("#turn-line")
    assert over.startswith("Spiel vorbei: Anna und Ben gewinnen mit "), over
    shot(page, "phone-game-over", PHONE)


def test_undo_at_the_first_roll_says_why_and_a_busy_tap_is_refused(page):
    start(page, ["Anna"], seed=5)
    click(page, "#roll")
    page.click("#undo")
    assert (page.text_content("#message")
            == "Nichts zurückzunehmen: das ist der erste Wurf des Spiels.")
    step = page.evaluate("document.body.dataset.step")
    page.evaluate("() => { const roll = document.getElementById('roll'); "
                  "roll.click(); roll.click(); }")  # a double tap
    page.wait_for_function(f"document.body.dataset.step !== '{step}' "
                           "&& !document.body.classList.contains('busy')")
    assert (page.text_content("#message")
            == "Der letzte Schritt läuft noch: bitte gleich noch einmal tippen.")
    win = page.query_selector("#goal option[value=win]")
    assert win.is_disabled() and "2" in win.text_content()  # one player: "win" is not offered


def test_real_dice_entry_says_what_to_do(page):
    start(page, ["Anna"], real=True)
    assert "antippen" in page.text_content("#entry-help")
    # one row to fill
    assert page.is_hidden("#roll") and page.query_selector_all("#dice .die") == []
    shot(page, "phone-real-dice", PHONE)


def test_english_yahtzee_card_and_analysis_show_no_box_keys_or_german_rows(page):
    boxes = ("ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
             "full_house", "small_straight", "large_straight", "kniffel", "chance")
    turns = [((d,) * 3 + (1, 2), box)
             for d, box in zip((1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1, 6), boxes)]
    record = _real_dice_game(["Ann", "Ben"], [t for t in turns for _ in (0, 1)], rules="yahtzee")
    _load_game(page, record, language="en")
    page.wait_for_selector("#analysis h2")
    text = (page.inner_text("#card") + "\n" + page.inner_text("#analysis") + "\n"
            + page.inner_text("#turn-line"))
    for key in ("three_kind", "four_kind", "full_house", "small_straight", "large_straight"):
        assert key not in text, key
    for german in ("Summe oben", "Endsumme", "Bonus (ab", "verschenkt", "Runde", "Spiel vorbei"):
        assert german not in text, german
    assert "upper total" in text and "Three of a Kind" in text and "Yahtzee" in text
    assert page.text_content("#turn-line").startswith("Game over: Ann and Ben win with ")


def test_duel_page_speaks_the_chosen_language(page, server):
    """The Dice Duel page (/duel) in the pad's German at first, then in English from the menu:
    chip names, the table, the turn and the coach's advice, with no chip key and no word of the
    other language's chip names."""
    import re

    from solver.duel.chips import TYPES
    from solver.lang import WORDS
    page.goto(server + "duel?players=Anna,Ben&seed=3&roll=1")
    page.wait_for_selector("#advice li")
    page.wait_for_function("!document.body.classList.contains('busy')")
    for lang, other in (("de", "en"), ("en", "de")):
        if lang == "en":
            page.select_option("#language", "en")
        text = page.inner_text("body")
        own = [n for k, n in WORDS[lang]["chip"].items() if n != WORDS[other]["chip"][k]]
        foreign = [n for k, n in WORDS[other]["chip"].items() if n != WORDS[lang]["chip"][k]]
        assert all(name in text for name in own), (lang, text)
        assert not [n for n in foreign if n in text], (lang, text)
        assert not [k for k in TYPES if re.search(rf"(?<![\w-]){k}(?![\w-])", text)], (lang, text)
        for key in ("duel.plate", "duel.points", "duel.web.stop"):
            assert WORDS[lang][key] in text, (lang, key)
        assert WORDS[lang]["duel.web.turn_of"].format(name="Anna") in text
        assert page.evaluate("document.documentElement.lang") == lang
    with page.expect_download() as download:  # the record, by the helper both pages share
        page.click("#save")
    assert download.value.suggested_filename.startswith("kniffel-duel-")
    assert json.loads(Path(download.value.path()).read_text())["players"] == ["Anna", "Ben"]
