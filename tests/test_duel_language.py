"""The Dice Duel in one language (issue 27): in German no English chip name, no chip key and no
English word of the game appear in the text of `play`, `advise` (solo and for several players) and
`analyze`; in English none of the German ones; the web page takes every word it shows from the
server, and a refused move answers in the request's language."""
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import solved
from helpers import greedy_game

from solver.cli import cli
from solver.duel.chips import TYPES
from solver.duel.multiplayer import advice as multi_advice
from solver.duel.multiplayer import analysis as multi_analysis
from solver.duel.multiplayer import exact as multi_exact
from solver.lang import WORDS, Words

ENGLISH = ["plate", "set aside", "keep", "reroll", "take", "chance to win", "rolls left",
           "roll left", "points", "game over", "seat", "choice", "turn", "no chip", "estimate",
           "best", "cost"]
GERMAN = ["Teller", "beiseite", "halte", "nimm", "Gewinnchance", "Würfe", "Wurf", "Punkte",
          "Spielende", "Platz", "Wahl", "am Zug", "kein Chip", "Schätzung", "am besten", "kostet"]
STATIC = Path(__file__).parent.parent / "solver" / "web" / "static"


def chip_names(lang):
    """The chip names of `lang` that the other language does not spell the same."""
    other = WORDS["en" if lang == "de" else "de"]["chip"]
    return [name for key, name in WORDS[lang]["chip"].items() if name != other[key]]


def foreign(text, lang):
    """What in `text` belongs to the other language: its chip names and words, and chip keys."""
    other = "en" if lang == "de" else "de"
    found = [name for name in chip_names(other) if name in text]
    found += [w for w in (ENGLISH if lang == "de" else GERMAN)
              if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]
    return found + [k for k in TYPES if re.search(rf"(?<![\w-]){k}(?![\w-])", text)]


def own(text, lang):
    """Some chip names of `lang` appear (so the check above looked at chip text at all)."""
    return [name for name in chip_names(lang) if name in text]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    directory = tmp_path_factory.mktemp("duel-lang-store")
    solved("dice-duel").save(directory)
    return directory


@pytest.fixture
def quick(monkeypatch):
    """Advice without waiting: exact endgames up to 500 states, 16 games per option of the
    rollouts, 64 in the analysis (these tests read the words, not the chances)."""
    monkeypatch.setattr(multi_advice, "GAMES", 16)
    monkeypatch.setattr(multi_analysis, "ANALYSIS_GAMES", 64)
    monkeypatch.setattr(multi_exact, "EXACT_LIMIT", 500)


def invoke(*args, input=None):
    result = CliRunner().invoke(cli, list(args), input=input)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("lang", ["de", "en"])
def test_solo_advise_speaks_one_language(store, lang):
    text = "\n".join(invoke("advise", "--rules", "dice-duel", "--tables", str(store), "--all",
                            "--chips", chips, "--dice", dice, "--rolls-left", left, "--lang", lang)
                     for chips, dice, left in [("ls=0/1/3,4k=2/0/2", "66666", "0"),
                                               ("", "23456", "2"), ("ls=1/0/3", "11223", "0")])
    assert foreign(text, lang) == [] and len(own(text, lang)) >= 3


@pytest.mark.parametrize("lang", ["de", "en"])
def test_advise_for_several_players_speaks_one_language(lang):
    text = invoke("advise", "--rules", "dice-duel", "--players", "2", "--chips",
                  "ls=0/1/2/1,4k=0/0/2/2,fh=0/0/2/2,fl=0/0/2/2,ss=0/0/2/2,3k=1/0/2/1,2p=1/0/1/2",
                  "--to-move", "1", "--dice", "22333", "--rolls-left", "0", "--all", "--lang", lang)
    assert foreign(text, lang) == [] and own(text, lang)
    assert text.count("\n") >= 10  # the chips, the dice and the options


def test_the_default_language_is_the_pads_german():
    text = invoke("advise", "--rules", "dice-duel", "--players", "2", "--chips", "ls=1/0/2/1",
                  "--to-move", "0", "--dice", "23456", "--rolls-left", "0")
    assert foreign(text, "de") == [] and "Große Straße" in text


@pytest.mark.parametrize("lang", ["de", "en"])
def test_play_speaks_one_language(tmp_path, quick, lang):
    """A turn with the coach, a wrong chip typed (the error too), no chip refused, undo, quit."""
    path = tmp_path / "duel.json"
    text = invoke("play", "--rules", "dice-duel", "--players", "Anna,Ben", "--seed", "4", "--coach",
                  "--record", str(path), "--lang", lang, input="?\n\n\nfoo\nn\n?\nu\nq\n")
    assert foreign(text, lang) == [] and own(text, lang) == chip_names(lang)  # the table's rows
    error = WORDS[lang]["duel.error.unknown_chip"].split("{")[0]
    assert error in text
    text = invoke("play", "--resume", str(path), "--lang", lang, input="q\n")
    assert foreign(text, lang) == [] and WORDS[lang]["duel.record"].split("{")[0] in text


@pytest.mark.parametrize("lang", ["de", "en"])
def test_analyze_speaks_one_language(tmp_path, quick, lang):
    path = tmp_path / "done.json"
    path.write_text(json.dumps(greedy_game(2, seed=3)))
    text = invoke("analyze", str(path), "--lang", lang)
    assert foreign(text, lang) == []
    assert WORDS[lang]["duel.final"].split("{")[0] in text


@pytest.mark.parametrize("lang", ["de", "en"])
def test_analysis_rows_name_each_kind_of_decision(lang):
    """Every kind of decision a record holds, as the analysis prints it."""
    row = {"player": "Anna", "dice": [6, 6, 6, 6, 6], "rolls_left": 0, "probability": 0.25,
           "best": 0.5, "lost": 0.25, "exact": True, "seat": 0}
    choices = [{"keep": [6, 6]}, {"take": "large_straight", "from": "aside"}, {"take": "4k"},
               {"no_chip": True}]
    result = {"players": ["Anna", "Ben"], "lost": [1.0, 0.0], "finished": True, "scores": [90, 50],
              "decisions": [{**row, "choice": c} for c in choices]}
    lines = multi_analysis.report_lines(result, Words(lang))
    words = Words(lang)
    assert words.chip("large_straight") in lines[1] and words.chip("four_kind") in lines[2]
    assert words("duel.from_aside", chip=words.chip("large_straight")) in lines[1]
    assert words("duel.take_none") in lines[3] and words("duel.keep", dice="6 6") in lines[0]
    assert foreign("\n".join(lines), lang) == []


def test_web_words_cover_the_duel_page():
    """Every key the page asks for (data-t in duel.html, t("...") in duel.js) has words in both
    languages, and the page's elements with text carry one."""
    html = (STATIC / "duel.html").read_text()
    script = (STATIC / "duel.js").read_text()
    keys = set(re.findall(r'data-t(?:-placeholder)?="([^"]+)"', html))
    keys |= set(re.findall(r'\bt\("([^"]+)"', script))
    assert {"duel.web.title", "duel.web.turn_of", "duel.take", "duel.plate"} <= keys
    for lang in WORDS:
        assert keys <= set(WORDS[lang]), sorted(keys - set(WORDS[lang]))
    body = re.split(r"<body[^>]*>", html)[1]
    for text in re.findall(r">([^<>]*[A-Za-z][^<>]*)<", body):  # text outside data-t: DE, EN only
        assert text.strip() in ("DE", "EN") or re.search(
            rf'data-t="[^"]+"[^>]*>{re.escape(text)}<', body), text


@pytest.mark.filterwarnings("ignore:.*httpx")  # starlette's test client, either httpx
@pytest.mark.parametrize("lang, word", [("de", "geht nicht"), ("en", "is not possible")])
def test_a_refused_move_answers_in_the_requests_language(tmp_path, lang, word):
    from starlette.testclient import TestClient

    from solver.web.app import create_app
    client = TestClient(create_app(tmp_path), base_url="http://127.0.0.1",
                        headers={"content-type": "application/json"})

    def post(path, data):
        response = client.post(path, content=json.dumps(data).encode())
        return response.status_code, response.json()

    info = client.get("/api/info").json()
    assert info["duel_language"] == "de" and info["words"][lang]["chip"] == WORDS[lang]["chip"]
    code, st = post("/api/duel/new", {"players": ["Anna", "Ben"], "seed": 1, "language": lang})
    code, st = post("/api/duel/game", {"record": st["record"], "hand": None, "move": {"roll": True},
                                       "language": lang})
    record, hand = st["record"], st["hand"]
    for _ in range(2):  # to the last roll, keeping nothing
        code, st = post("/api/duel/game", {"record": record, "hand": hand, "move": {"keep": []},
                                           "language": lang})
        code, st = post("/api/duel/game", {"record": st["record"], "hand": None,
                                           "move": {"roll": True}, "language": lang})
        record, hand = st["record"], st["hand"]
    taken = {m.get("chip") for m in st["turn"]["moves"]}
    refused = next(t for t in TYPES if t not in taken)
    code, answer = post("/api/duel/game", {"record": record, "hand": hand, "language": lang,
                                           "move": {"take": refused}})
    assert code == 400 and word in answer["error"]
    assert WORDS[lang]["chip"][refused] in answer["error"]
    assert not foreign(answer["error"], lang)
