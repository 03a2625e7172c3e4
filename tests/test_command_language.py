"""Every command speaks the pad's language: `simulate`, `distribution`, `solve` and `rules` (the
list and --show) print German for a Kniffel pad and English for Yahtzee unless --lang says
otherwise, with no word of the other language; a lone player's column is "du" on a German card
(the record keeps "you")."""
import json
import re
import string

import pytest
from click.testing import CliRunner
from conftest import run, solved

from solver.cli import cli
from solver.lang import WORDS, Words, commands_de, commands_en
from solver.presets import all_presets, get_rules
from solver.rules.describe import describe

# Words only a German text has, and only an English one (checked as whole words, case and all).
GERMAN_WORDS = ["Würfe", "Punkte", "Feld", "Felder", "Zug", "Endsumme", "Spiele", "Zustände",
                "Tabelle", "gierig", "Perzentil", "Mittelwert", "Bonus oben", "und", "oder",
                "wenn", "mindestens", "Einstellungen", "Regelsatz"]
ENGLISH_WORDS = ["score", "states", "games", "table", "greedy", "percentile", "mean", "the",
                 "when", "boxes", "roll", "rolls", "points", "upper", "at least", "Settings"]
PAD = {"kniffel": "de", "yahtzee": "en"}
CASES = [("kniffel", [], "de"), ("yahtzee", [], "en"), ("kniffel", ["--lang", "en"], "en"),
         ("yahtzee", ["--lang", "de"], "de")]
IDS = ["kniffel", "yahtzee", "kniffel-en", "yahtzee-de"]


def _phrases(module, other):
    """The literal pieces (between fields and punctuation) of the words of `module` that have at
    least two words and appear in no word of the `other` language."""
    theirs = " ".join(_texts(other))
    for text in _texts(module.WORDS):
        for literal, *_ in string.Formatter().parse(text):
            for piece in re.split(r"[;:,.()]", literal):
                piece = piece.strip()
                if (len(piece.split()) >= 2 and re.search(r"[^\W\d_]{3}", piece)
                        and piece not in theirs):
                    yield piece


def _texts(words):
    for value in words.values():
        yield from value if isinstance(value, tuple) else [value]


FOREIGN = {"de": sorted(set(_phrases(commands_en, commands_de.WORDS))),
           "en": sorted(set(_phrases(commands_de, commands_en.WORDS)))}


def foreign_words(text, lang):
    """The other language's words and phrases found in `text` (a text in `lang`)."""
    words = ENGLISH_WORDS if lang == "de" else GERMAN_WORDS
    found = [w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]
    flat = " ".join(text.split())  # a phrase may be wrapped over two lines
    return found + [p for p in FOREIGN[lang] if p in flat]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A table store holding yahtzee's table; kniffel's comes from the package (shipped)."""
    directory = tmp_path_factory.mktemp("store")
    solved("yahtzee").save(directory)
    return directory


def test_the_command_words_match_and_clash_with_no_other_word():
    """The same keys in both modules, each under its command's prefix, none that another word
    module has (the merge in solver/lang would let one hide the other); the fields of both
    languages match (test_language.py checks every word of the merge)."""
    from solver.lang import de, duel_de, duel_en, en, pages_de, pages_en, web_de, web_en
    assert set(commands_de.WORDS) == set(commands_en.WORDS)
    assert {key.split(".")[0] for key in commands_en.WORDS} == {
        "simulate", "distribution", "solve", "rules", "player", "number", "history", "kind",
        "drill"}
    for module in (de, en, web_de, web_en, pages_de, pages_en, duel_de, duel_en):
        assert not set(module.WORDS) & set(commands_en.WORDS), module.__name__
    for lang, module in (("de", commands_de), ("en", commands_en)):
        assert all(WORDS[lang][key] == value for key, value in module.WORDS.items())
    assert len(FOREIGN["de"]) > 60 and len(FOREIGN["en"]) > 60  # the check below has teeth


@pytest.mark.parametrize("name, args, lang", CASES, ids=IDS)
def test_simulate_speaks_the_pads_language(capsys, store, name, args, lang):
    code, out, err = run(capsys, "simulate", "--rules", name, "--tables", str(store), "--games",
                         "30", "--compare", "greedy", "--quiet", *args)
    assert code == 0, err
    words = Words(lang, get_rules(name))
    head = words("simulate.head", n=30, games=30, rules=name, seed=0,
                 expected=solved(name).expected_score)
    assert out.splitlines()[0] == head
    for key in ("simulate.mean", "simulate.sd", "simulate.upper_bonus", "simulate.strategy.greedy"):
        assert words(key) in out
    kniffel = "Kniffel" if name == "kniffel" else "Yahtzee"  # the pad's name of the box
    assert words("simulate.kniffel_50", kniffel=kniffel) in out
    assert foreign_words(out, lang) == []


def test_simulate_json_is_the_same_in_every_language(capsys, store):
    outs = [run(capsys, "simulate", "--tables", str(store), "--games", "20", "--json", *args)[1]
            for args in ([], ["--lang", "en"])]
    assert outs[0] == outs[1] and json.loads(outs[0])["rules"] == "kniffel"


# Every box filled (with 0) but chance: a distribution of one turn.
CHANCE_ONLY = ",".join(f"{box}=0" for box in get_rules("kniffel").boxes if box != "chance")


@pytest.mark.parametrize("name, args, lang", CASES, ids=IDS)
def test_distribution_speaks_the_pads_language(capsys, store, name, args, lang):
    code, out, err = run(capsys, "distribution", "--rules", name, "--tables", str(store),
                         "--card", CHANCE_ONLY, "--quiet", *args)
    assert code == 0, err
    words = Words(lang, get_rules(name))
    assert out.startswith(words("distribution.head", rules=name, states=0, seconds=0)
                          .split(" (")[0])
    for key in ("distribution.percentiles", "distribution.upper_bonus", "distribution.score",
                "distribution.probability"):
        assert words(key) in out
    assert "#" in out and foreign_words(out, lang) == []


@pytest.mark.parametrize("name, args, lang", CASES, ids=IDS)
def test_solve_speaks_the_pads_language(capsys, store, name, args, lang):
    code, out, err = run(capsys, "solve", "--rules", name, "--tables", str(store), *args)
    assert code == 0, err
    first, second = out.splitlines()
    states = "536 448" if lang == "de" else "536,448"  # "." is the decimal point in both
    words = Words(lang)
    assert re.sub(r"\d+\.\d\d s", "0.00 s", first) == words(
        "solve.expected", rules=name, expected=solved(name).expected_score, states=states,
        done=words("solve.loaded", seconds=0))
    assert second.startswith(words("solve.table", path=""))
    assert foreign_words(out, lang) == []


@pytest.mark.parametrize("args, lang", [([], "en"), (["--lang", "en"], "en"),
                                        (["--lang", "de"], "de")])
def test_the_rules_list_is_in_english_unless_lang_says_otherwise(capsys, args, lang):
    code, out, _ = run(capsys, "rules", *args)
    assert code == 0
    lines = out.splitlines()
    for name, rules in all_presets().items():
        line = next(line for line in lines if line.split()[0] == name)
        assert line.split(None, 1)[1] == rules.definition.describe(lang)
    assert lines[-1] == Words(lang)("rules.more") and "--show NAME" in lines[-1]
    assert foreign_words("\n".join(lines[-1:]), lang) == []


@pytest.mark.parametrize("name, args, lang", CASES + [("kniffel-championship", [], "de"),
                                                      ("yatzy", ["--lang", "de"], "de")])
def test_rules_show_speaks_the_pads_language(capsys, name, args, lang):
    code, out, _ = run(capsys, "rules", "--show", name, *args)
    rules = get_rules(name)
    assert code == 0 and out == describe(rules, lang) + "\n"
    words = Words(lang, rules)
    for key in ("rules.turn", "rules.upper_bonus", "rules.jokers", "rules.final"):
        assert f"\n{words(key)}\n" in out
    assert words("rules.five", five=words.box(rules.boxes[rules.kniffel_box])) in out
    assert out.splitlines()[0] == f"{rules.key}: {rules.definition.describe(lang)}"


@pytest.mark.parametrize("name, options", [
    ("kniffel", {}), ("kniffel-basic", {"five_of_a_kind_is_full_house": True}),
    ("kniffel-championship", {"extra_kniffel_must_fit": True}), ("kitkniff", {}),
    ("yahtzee", {}), ("yahtzee-free", {}), ("knobeln", {"rolls_per_turn": 2,
                                                        "jokers_per_turn": 2}),
    ("knobeln", {"rolls_per_turn": 1}), ("yatzy", {})])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_sentence_of_the_rules_text_is_in_one_language(name, options, lang):
    """Every preset, with the options that reach each branch (joker kinds, a cap, jokers after one
    or two rolls, boxes a further Kniffel must fit), in both languages: the section table stays
    (the box keys in the first column, every field in the settings), no sentence of the other
    language appears, and German prose names boxes as the pad does."""
    rules = get_rules(name, **options)
    text = describe(rules, lang)
    assert foreign_words(text, lang) == [], text
    words = Words(lang, rules)
    lines = text.splitlines()
    start = lines.index(words("rules.boxes", first=_ref(rules, "ones", lang),
                              last=_ref(rules, "sixes", lang)))
    assert [line.split()[0] for line in lines[start + 3:start + 3 + rules.n_boxes]] == list(
        rules.boxes)
    assert "distinct rolls" not in text and "verschiedenen Würfe" not in text
    settings = lines[lines.index(words("rules.settings")) + 1:]
    assert [line.split()[0] for line in settings] == list(rules.as_dict())
    if lang == "de":
        assert not re.search(r"\b(three_kind|four_kind|full_house|chance)\s\d", text)


def _ref(rules, box, lang):
    return box if lang == "en" else Words(lang, rules).box(box)


def test_the_dice_duel_rules_still_show(capsys):
    from solver.duel.describe import describe_duel
    code, out, _ = run(capsys, "rules", "--show", "dice-duel")
    assert code == 0 and out == describe_duel(get_rules("dice-duel")) + "\n"


# --- a lone player is "du" on a German card ---------------------------------------------------

def test_a_lone_player_is_du_on_a_german_card(tmp_path, store):
    from solver.game.card import Game
    from solver.terminal.card import card_lines
    game = Game("kniffel", ["you"], seed=1)
    assert card_lines(game, Words("de", game.rules))[0].split() == ["du"]
    assert card_lines(game, Words("en", game.rules))[0].split() == ["you"]
    two = Game("kniffel", ["you", "Anna"], seed=1)  # a name given, not the lone default
    assert card_lines(two, Words("de", two.rules))[0].split() == ["you", "Anna"]

    record = tmp_path / "game.json"
    result = CliRunner().invoke(cli, ["play", "--seed", "3", "--record", str(record), "--tables",
                                      str(store)], input="a\nchance\n")
    assert result.exit_code == 0, result.output
    heads = [line.split() for line in result.output.splitlines() if line.startswith("      ")]
    assert ["du"] in heads and ["you"] not in heads
    assert json.loads(record.read_text())["players"] == ["you"]  # the record keeps "you"
    for lang, name in (("de", "du"), ("en", "you")):
        result = CliRunner().invoke(cli, ["analyze", str(record), "--lang", lang, "--tables",
                                          str(store)])
        assert result.exit_code == 0, result.output
        assert result.output.splitlines()[-1].startswith(f"{name}: ")
