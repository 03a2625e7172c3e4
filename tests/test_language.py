"""One language at the table (solver/lang): the words of both languages match, and a Kniffel game
in German shows no box key and no English row label in `play`, `advise`, `analyze` and the
printed pages (the same in English for Yahtzee); the coach's errors follow the language."""
import json
import re
import string

import pytest
from click.testing import CliRunner
from conftest import run, solved
from hypothesis import example, given, settings
from hypothesis import strategies as st

from solver.cli import cli
from solver.duel.chips import TYPES
from solver.lang import WORDS, Words, pad_language, percent
from solver.rules import PRESETS

ENGLISH_ROWS = ["upper total", "bonus (63+)", "extra Kniffel", "extra Yahtzee", "jokers left"]
GERMAN_ROWS = ["Summe oben", "Bonus (ab 63)", "Endsumme", "Kniffel-Bonus", "Joker übrig"]
GERMAN_WORDS = ["halte", "Würfe", "Wurf", "kostet", "am besten", "Trainer", "Runde", "Punkte"]
ENGLISH_WORDS = ["keep", "reroll", "rolls left", "best", "cost", "coach", "Round", "points",
                 "total"]


def box_keys_in(text, rules, lang):
    """Box keys that appear in `text` as words.  In German every key but the preset's own name
    (kniffel, the command and rule set) counts; in English the keys that are not also English
    words (three_kind ..., not "sixes" or "chance")."""
    keys = ([k for k in rules.boxes if k != "kniffel"] if lang == "de"
            else [k for k in rules.boxes if "_" in k])
    return [k for k in keys if re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", text)]


def foreign_words(text, lang):
    rows, words = (ENGLISH_ROWS, ENGLISH_WORDS) if lang == "de" else (GERMAN_ROWS, GERMAN_WORDS)
    found = [r for r in rows if r in text]
    return found + [w for w in words if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]


def test_both_languages_have_the_same_words_with_the_same_fields():
    de, en = WORDS["de"], WORDS["en"]
    assert set(de) == set(en) and set(de["box"]) == set(en["box"])
    assert set(de["chip"]) == set(en["chip"]) == set(TYPES)

    def fields(text):
        return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name)

    for key in en:
        if key in ("box", "chip"):
            continue
        assert type(de[key]) is type(en[key]), key
        pairs = zip(de[key], en[key]) if isinstance(en[key], tuple) else [(de[key], en[key])]
        for a, b in pairs:
            assert fields(a) == fields(b), key


def test_pad_language_of_every_preset():
    assert {name: pad_language(rules) for name, rules in PRESETS.items()} == {
        "kniffel": "de", "kniffel-basic": "de", "kniffel-championship": "de", "kitkniff": "de",
        "yahtzee": "en", "yahtzee-free": "en", "knobeln": "de", "yatzy": "en"}


@pytest.mark.parametrize("p, text", [
    (0, "0%"), (-1e-17, "0%"), (1, "100%"), (1 - 1e-15, "100%"), (0.571234, "57.1%"),
    (0.0345, "3.45%"), (0.00042, "0.042%"), (0.99996, "99.996%"), (0.1, "10.0%"),
    (0.5e-6, "0.000050%")])
def test_percent_has_sensible_decimals_and_no_minus_zero(p, text):
    assert percent(p) == text


def test_coach_errors_follow_the_language():
    from solver.game.card import Game, GameError
    game = Game("kniffel", ["Anna"], real_dice=True)
    turn = game.next_turn()
    turn.roll([1, 2, 3, 4, 6])
    with pytest.raises(GameError) as caught:
        turn.keep([6, 6])
    assert caught.value.text("de") == "6 6 kann nicht gehalten werden: die Würfel sind 1 2 3 4 6"
    assert str(caught.value) == "cannot keep 6 6: the dice are 1 2 3 4 6"
    turn.score("chance")
    turn = game.next_turn()
    turn.roll([1, 2, 3, 4, 5])
    with pytest.raises(GameError) as caught:
        turn.score("chance")
    assert caught.value.text("de") == "Chance ist schon belegt (16)"
    turn.score("three_kind")
    with pytest.raises(GameError) as caught:
        turn.score("fours")
    assert caught.value.text("de") == "der Zug ist vorbei"


# What a player reads is standard output.  Standard error carries the program's own diagnostics
# in English, as its "kniffel: error:" lines do: the one-time "compiling the why coach's
# kernels, once..." comes or not depending on the kernel cache, so it is no part of the text.
def _play(args, keys):
    result = CliRunner().invoke(cli, ["play", *args], input="\n".join(keys) + "\n")
    return result.exit_code, result.stdout



def _text_of_a_game(tmp_path, rules_name, lang_args):
    """play (a game cut short by the end of input, with the coach, a bad box and a filled one),
    analyze of its record, advise with and without dice: all the text a player reads."""
    record = tmp_path / f"{rules_name}.json"
    keys = ["?", "66", "", "xyz", "3", "2", "13", "13", "u", "", "1"]  # 13: Chance by number
    code, out = _play(["--rules", rules_name, "--seed", "3", "--coach", "--record", str(record),
                       "--players", "Anna,Ben", *lang_args], keys)
    assert code == 0, out  # end of input: a short line, exit 0 (not 130)
    texts = [out]
    result = CliRunner().invoke(cli, ["analyze", str(record), *lang_args])
    assert result.exit_code == 0, result.output
    texts.append(result.stdout)
    for extra in (["--dice", "66666", "--rolls-left", "0", "--all"], ["--dice", "13356"],
                  ["--card", "kniffel=50,ones=3,sixes=24", "--dice", "22222", "--rolls-left", "0",
                   "--all"], []):
        result = CliRunner().invoke(cli, ["advise", "--rules", rules_name, *extra, *lang_args])
        assert result.exit_code == 0, result.output
        texts.append(result.stdout)
    return "\n".join(texts)


@pytest.mark.parametrize("rules_name, lang_args, lang", [
    ("kniffel", [], "de"), ("yahtzee", [], "en"), ("kniffel", ["--lang", "en"], "en"),
    ("yahtzee", ["--lang", "de"], "de")])
def test_the_text_of_play_advise_and_analyze_is_in_one_language(tmp_path, table_dir, rules_name,
                                                                    lang_args, lang):
    solved(rules_name).save(table_dir)
    text = _text_of_a_game(tmp_path, rules_name, lang_args)
    rules = PRESETS[rules_name]
    assert box_keys_in(text, rules, lang) == []
    assert foreign_words(text, lang) == []
    words = Words(lang, rules)
    for row in ("card.upper_total", "card.total"):
        assert words(row) in text
    assert words("card.bonus", threshold=63) in text
    assert words("play.input_ended") in text
    assert Words(lang, rules).box("three_kind") in text


def test_an_unknown_box_in_german_names_the_german_boxes(tmp_path, table_dir):
    solved("kniffel").save(table_dir)
    code, out = _play(["--seed", "3", "--record", str(tmp_path / "g.json")], ["", "", "", "xyz"])
    assert code == 0
    start = out.index("'xyz'")  # the message, wrapped at word boundaries to the terminal
    message = " ".join(out[start - 40:start + 400].split())
    assert "unbekanntes Feld 'xyz'; die Felder: Einser" in message and "Dreierpasch" in message
    assert "three_kind" not in out


@pytest.mark.parametrize("rules_name, lang",
                         [("kniffel", "de"), ("yahtzee", "en"), ("kniffel-basic", "de")])
def test_printed_pages_are_in_one_language(rules_name, lang):
    from solver.report.pages import page_html
    page = page_html(solved(rules_name))
    text = re.sub(r"<[^>]+>", " ", page.split("</style>")[1])
    assert box_keys_in(text, PRESETS[rules_name], lang) == []
    assert foreign_words(text, lang) == []
    words = Words(lang, PRESETS[rules_name])
    assert words("page.opening") in text and words("situation.start") in text


def test_the_web_page_gets_every_word_from_the_word_lists():
    """The page's script and HTML name words (t("web.x"), data-t="web.x"); every one exists in
    both languages, and the page spells out no English text of its own."""
    from pathlib import Path
    static = Path(__file__).resolve().parent.parent / "solver" / "web" / "static"
    used = {k for k in re.findall(r"""\bt\("([\w.-]+)""", (static / "app.js").read_text())
            if not k.endswith(".")}
    used |= set(re.findall(r'data-t(?:-placeholder)?="([\w.-]+)"',
                           (static / "index.html").read_text()))
    assert len(used) > 40
    for key in used:
        assert key in WORDS["de"] and key in WORDS["en"], key
    script = (static / "app.js").read_text()
    for english in ("Game over", "gave away", "keep ", "reroll all", "Kniffel joker", "upper\"",
                    "extra Kniffel", "cost ", "Round ", "Undo"):
        assert f'"{english}' not in script and f"`{english}" not in script, english


def test_opponent_final_must_be_a_number(capsys, table_dir):
    code, out, err = run(capsys, "advise", "--dice", "12345", "--opponent", "final=abc")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "final=S needs the opponent's final score S as a whole number" in err
    assert "invalid literal" not in err


def test_analyze_json_keeps_its_keys(capsys, tmp_path, table_dir):
    solved("kniffel").save(table_dir)
    record = tmp_path / "g.json"
    _play(["--seed", "5", "--record", str(record)], ["", "", "", "three_kind"])
    code, out, err = run(capsys, "analyze", str(record), "--json", "--lang", "de")
    assert code == 0, err
    data = json.loads(out)
    assert data["decisions"][-1]["choice"]["box"] == "three_kind" and "loss" in data["players"][0]


def test_every_house_rule_and_choice_has_words():
    """The web page's house rules show words, not option names: every option of the presets and
    every value the page offers (app.js CHOICES) has them in both languages."""
    from pathlib import Path

    from solver.rules import SCORECARD_OPTIONS as OPTION_PRESETS
    script = (Path(__file__).resolve().parent.parent / "solver" / "web" / "static"
              / "app.js").read_text()
    choices = re.search(r"const CHOICES = (\{.*?\});", script, re.S).group(1)
    values = set(re.findall(r'"([\w-]+)"', choices)) - set(OPTION_PRESETS)
    assert {"none", "max-any", "fifty", "filled"} <= values
    for lang in WORDS:
        for option in OPTION_PRESETS:
            assert f"option.{option}" in WORDS[lang], option
        for value in values:
            assert f"value.{value}" in WORDS[lang], value


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=12))
@example("0\x1f")  # str.strip takes the control character, int() would not
def test_any_opponent_final_is_a_number_or_one_clear_error(text):
    from solver.ask.request import RequestError, read_opponents
    try:
        opponents = read_opponents([f"final={text}"], PRESETS["kniffel"])
    except RequestError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("opponents ")
    else:
        assert opponents == [{"final": int(text.strip())}] and text.strip().isdecimal()
