"""Write the screenshots of docs/screenshots/: every printed page of `kniffel tables --format pdf`
(kniffel, German) as a small PNG, and the web coach on a 390 x 844 phone.

    python scripts/screenshots.py            # needs Chromium, pdftoppm (poppler-utils), playwright
    python scripts/screenshots.py --out DIR  # write them into DIR instead

The PNGs are kept small (pages at 50 dpi, the phone at its own 1x size, one screen high) so the
folder stays well under 2 MB; README.md and docs/reference.md link them.
"""
import argparse
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}


def pages(table_dir, out):
    """Print the kniffel pages to PDF and each page to out/page-NN.png."""
    from solver.cli import main
    with tempfile.TemporaryDirectory() as scratch:
        try:
            main(["tables", "--format", "pdf", "--out", scratch, "--quiet", "--tables",
                  str(table_dir)])
        except SystemExit as exc:
            if exc.code:
                raise
        for old in out.glob("page-*.png"):
            old.unlink()
        subprocess.run(["pdftoppm", "-r", "50", "-png",
                        str(Path(scratch) / "kniffel" / "strategy.pdf"), str(out / "page")],
                       check=True)


def _server(table_dir):
    import uvicorn

    from solver.web.app import create_app
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(str(table_dir), history=Path(table_dir) / "history.sqlite")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}/"


def _wait(page, step):
    page.wait_for_function(f"document.body.dataset.step !== '{step}' && "
                           "!document.body.classList.contains('busy')")


def _click(page, selector):
    step = page.evaluate("document.body.dataset.step || '0'")
    page.click(selector)
    _wait(page, step)


LONG_NAMES = ["Annemarie", "Bernhard", "Christine", "Dorothea"]


def phone(table_dir, out):
    """The web coach on a phone: set-up, four players with long names mid-turn, "New" asking,
    real dice, the joker tag, game over with the analysis; the advice to win and for points in
    German and English, eight players, another player's turn written as box and points, and
    the analysis of a game where only one player's dice were seen; the why of a choice; the
    history and the drill."""
    from playwright.sync_api import sync_playwright
    server, url = _server(table_dir)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"], headless=True)
        page = browser.new_page(viewport=PHONE)
        page.goto(url)
        page.wait_for_selector("body[data-ready]")
        page.evaluate("localStorage.clear()")
        page.reload()
        page.wait_for_selector("body[data-ready]")
        page.click("#house-rules summary")
        page.screenshot(path=str(out / "phone-setup.png"))
        for i, name in enumerate(LONG_NAMES):
            if i:
                page.click("#add-player")
            page.fill(f"#player-list input >> nth={i}", name)
        page.fill("#seed", "3")
        _click(page, "#start")
        _click(page, "#roll")
        page.screenshot(path=str(out / "phone-four-players.png"), full_page=True)
        page.click("#new-game")
        page.screenshot(path=str(out / "phone-new-asks.png"))
        page.click("#new-no")
        _load(page, _record(["Anna", "Ben"], [((2, 2, 2, 2, 2), "kniffel"),
                                              ((1, 2, 3, 4, 6), "kniffel")]),
              [4, 4, 4, 4, 4])
        page.click("#advice li.more")
        page.screenshot(path=str(out / "phone-joker.png"))
        _load(page, _record(["Anna"], [], real=True), None)
        page.screenshot(path=str(out / "phone-real-dice.png"))
        boxes = ("ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
                 "full_house", "small_straight", "large_straight", "kniffel", "chance")
        turns = [((d,) * 3 + (1, 2), box)
                 for d, box in zip((1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1, 6), boxes)]
        _load(page, _record(["Anna", "Ben"], [t for t in turns for _ in (0, 1)]), None)
        page.wait_for_selector("#analysis h2")
        page.screenshot(path=str(out / "phone-game-over.png"))
        states(page, out)
        drill(page, out, url)
        browser.close()
    server.should_exit = True


def states(page, out):
    """The states a phone meets every turn, each in both languages where words differ."""
    for lang in ("de", "en"):
        _load(page, _late(LONG_NAMES, 10), [2, 2, 3, 5, 6], lang, "win")
        page.screenshot(path=str(out / f"phone-win-{lang}.png"))
        _load(page, _late(LONG_NAMES, 10), [2, 2, 3, 5, 6], lang)
        page.screenshot(path=str(out / f"phone-points-{lang}.png"))
    _load(page, _late(LONG_NAMES + ["Emanuel", "Friederike", "Gottfried", "Hildegard"], 4), None,
          "en")
    page.screenshot(path=str(out / "phone-eight-players-en.png"), full_page=True)
    _load(page, _late(["Annemarie", "Bernhard"], 13), None, "en")
    page.wait_for_selector("#analysis h2")
    page.locator("#analysis").scroll_into_view_if_needed()  # one screen: the analysis
    page.screenshot(path=str(out / "phone-game-over-en.png"))
    from solver.game import session
    record, hand = session.apply_move(_late(["Anna", "Bernhard", "Christine"], 12, written=True),
                                      None, {"roll": list(DICE["chance"])})
    # Anna's last turn: Bernhard's now
    record, _ = session.apply_move(record, hand, {"box": "chance"})
    _load(page, record, None)
    page.click("#card td.writable[data-player='1']")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(out / "phone-write.png"))
    why(page, out)
    history(page, out)


def history(page, out):
    """The history of a player who scratched the Kniffel box in three games (kept by the
    server from the page's analyses): its lines and the points given away game by game."""
    from solver import get_table
    from solver.advice.goal import POINTS
    from solver.ask.answer import answer
    from solver.ask.request import Request
    from solver.ask.tables import Tables
    from solver.game import session
    tables = Tables(preloaded=[get_table("kniffel", progress=False)])
    for seed in (5, 6, 7):
        record, hand = session.new_record("kniffel", ["Kai"], seed), None
        while True:
            game, turn = session.rebuild(record, hand)
            if turn is None:
                break
            if hand is None:
                record, hand = session.apply_move(record, None, {"roll": True})
                continue
            query = Request(_query(turn, hand), POINTS)
            best = answer(query, tables).options[0]
            if turn.record["round"] == 1 and turn.rolls_left == 0 and len(set(hand)) > 1:
                best = {"action": "score", "box": "kniffel"}  # the mistake he always makes
            move = ({"keep": best["keep"]} if best["action"] == "keep"
                    else {"box": best["box"], "jokers": []})
            record, hand = session.apply_move(record, hand, move)
            hand = None if "box" in move else hand
        _load(page, record, None)
        page.wait_for_selector("#analysis h2")
    _click_history(page)
    page.screenshot(path=str(out / "phone-history-de.png"))


def _query(turn, hand):
    from solver.advice.position import checked_query
    return checked_query(turn.position, turn.rules, list(hand), turn.rolls_left)


def _click_history(page):
    page.click("#history-button")
    page.wait_for_selector("#history .player-history svg polyline")
    page.evaluate("window.scrollTo(0, 0)")


def why(page, out):
    """The why of the best choice, opened by its "Why?" (round 6 of a game, in both
    languages): the boxes its turn ends in, the upper bonus's chance after it."""
    for lang in ("de", "en"):
        _load(page, _late(["Anna"], 5), [3, 4, 4, 5, 6], lang)
        _click(page, "#advice li.best .why-button")
        page.locator("#advice li.best").scroll_into_view_if_needed()
        page.screenshot(path=str(out / f"phone-why-{lang}.png"))


BOXES = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
         "full_house", "small_straight", "large_straight", "kniffel", "chance"]
DICE = {"ones": (1, 1, 1, 2, 3), "twos": (2, 2, 2, 3, 4), "threes": (3, 3, 3, 1, 2),
        "fours": (4, 4, 4, 5, 6), "fives": (5, 5, 5, 2, 3), "sixes": (6, 6, 6, 1, 2),
        "three_kind": (6, 6, 6, 5, 4), "four_kind": (5, 5, 5, 5, 2), "full_house": (3, 3, 2, 2, 2),
        "small_straight": (1, 2, 3, 4, 6), "large_straight": (1, 2, 3, 4, 5),
        "kniffel": (4, 4, 4, 4, 4), "chance": (6, 5, 4, 3, 3)}


def _late(players, rounds, written=False):
    """A real-dice game after `rounds` rounds, each player's boxes in a turned order; written:
    the first player's turns entered with their dice, the others' written as box and points."""
    from solver.game import session
    record = session.new_record("kniffel", players, None, True)
    for r in range(rounds):
        for p in range(len(players)):
            box = BOXES[(r + p) % len(BOXES)]
            if written and p:
                move = {"write": {"box": box, "points": sum(DICE[box]) if box == "chance" else 0}}
                record, _ = session.apply_move(record, None, move)
                continue
            record, hand = session.apply_move(record, None, {"roll": list(DICE[box])})
            record, _ = session.apply_move(record, hand, {"box": box})
    return record


def _record(players, turns, real=True):
    from solver.game import session
    record = session.new_record("kniffel", players, None, real)
    for dice, box in turns:
        record, hand = session.apply_move(record, None, {"roll": list(dice)})
        record, _ = session.apply_move(record, hand, {"box": box})
    return record


def _load(page, record, hand, lang="de", goal="points"):
    saved = json.dumps({"record": record, "hand": hand, "language": lang, "goal": goal})
    page.evaluate(f"localStorage.setItem('kniffel-game', {json.dumps(saved)})")
    page.evaluate(f"localStorage.setItem('kniffel-language', '{lang}')")  # the language chosen
    page.reload()
    page.wait_for_selector("body[data-ready]")
    page.wait_for_function("!document.body.classList.contains('busy')")


def drill(page, out, url):
    """The drill of the player whose history the screenshots kept (Kai, who scratches the
    Kniffel box in round 1): his costliest decision asked again, answered as he played it, the
    coach's verdict and why (German)."""
    page.evaluate("localStorage.setItem('kniffel-language', 'de')")
    page.evaluate("localStorage.setItem('kniffel-drill-player', 'Kai')")
    page.goto(url + "drill")
    page.wait_for_selector("body[data-ready]")
    page.click("#boxes li[data-box='kniffel']")
    page.wait_for_selector("#verdict:not([hidden])")
    page.locator("#dice").scroll_into_view_if_needed()
    page.screenshot(path=str(out / "phone-drill-de.png"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT,
                        help="the folder (default docs/screenshots)")
    parser.add_argument("--phone-only", action="store_true",
                        help="only the web coach's (the printed pages need pdftoppm)")
    args = parser.parse_args(argv)
    out = args.out
    sys.path.insert(0, str(ROOT))
    from solver import get_table
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as table_dir:
        get_table("kniffel", table_dir, progress=False).save(table_dir)
        if not args.phone_only:
            pages(table_dir, out)
        phone(table_dir, out)
    for path in sorted(out.glob("*.png")):
        print(f"{path.stat().st_size:>9,}  {path}")
    print(f"{sum(p.stat().st_size for p in out.glob('*.png')):>9,}  in all")


if __name__ == "__main__":
    main()

