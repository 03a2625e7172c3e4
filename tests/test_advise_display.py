"""What advise shows a player: the position it understood, the bonuses and jokers of each score
option, the dice a keep rerolls, the cost of each choice (advise, the coach, analyze), the best
ten options by default, and the box names written on a pad."""
import json
import re

import orjson
import pytest
from click.testing import CliRunner
from conftest import run, solved
from helpers import HAND_MADE, hand_worked_losses
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import advise
from solver.advice.position import cost_text
from solver.ask.analysis import analyze, report_lines
from solver.ask.batch import answer_lines
from solver.ask.tables import Tables
from solver.cli import cli
from solver.engine.states import Position
from solver.lang import Words
from solver.presets import get_rules
from solver.rules import BOX_ALIASES, BOX_SETS, box_key
from solver.rules.cards import parse_card
from solver.rules.scorecard import PAD_NAMES


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    directory = tmp_path_factory.mktemp("store")
    for name in ("kniffel", "knobeln", "dice-duel"):
        solved(name).save(directory)
    return directory


def advise_json(capsys, store, *args):
    code, out, err = run(capsys, "advise", "--lang", "en", "--tables", str(store), "--json", *args)
    assert code == 0, err
    return json.loads(out)


def score_option(advice, box, joker=None):
    return next(o for o in advice.options if o["action"] == "score" and o["box"] == box
                and o.get("joker") == joker)


# --- the position it understood ----------------------------------------------------------------

def test_position_object_hand_worked(capsys, store):
    data = advise_json(capsys, store, "--card", "ones=3,fives=15,full_house=25,kniffel=50",
                       "--dice", "65133", "--rolls-left", "2")
    assert data["position"] == {
        "filled": {"ones": 3, "fives": 15, "full_house": 25, "kniffel": 50},
        "open": ["twos", "threes", "fours", "sixes", "three_kind", "four_kind", "small_straight",
                 "large_straight", "chance"],
        "upper_subtotal": 18, "upper_bonus_needs": 45, "kniffel_bonuses": 0, "jokers_left": None,
        "dice": [1, 3, 3, 5, 6], "rolls_left": 2}
    # the card in any order, and the default rolls left (the most a turn can have after a roll)
    data = advise_json(capsys, store, "--card", "chance=22,sixes=24", "--dice", "12345")
    assert data["position"]["filled"] == {"sixes": 24, "chance": 22}
    assert data["position"]["rolls_left"] == 2
    # no dice: the value at the start of a turn
    data = advise_json(capsys, store, "--card", "kniffel=50,sixes=30", "--kniffel-bonuses", "1")
    assert data["position"]["dice"] is None and data["position"]["rolls_left"] is None
    assert data["position"]["kniffel_bonuses"] == 1


@pytest.mark.parametrize("card, needs", [
    ({"sixes": 30, "fives": 25, "fours": 20}, 0),  # 75: reached
    ({"sixes": 30, "fives": 25, "fours": 8}, 0),  # 63 exactly
    ({"sixes": 30, "fives": 25}, 8),
    # 48 on threes to sixes: the open ones and twos can still bring 5 + 10 = 15, just enough
    ({"sixes": 24, "fives": 15, "fours": 0, "threes": 9}, 15),
    ({"sixes": 24, "fives": 15, "fours": 0, "threes": 6}, None),  # 45 + 15 < 63: out of reach
    ({"fours": 0, "fives": 0, "sixes": 0}, None),  # 5 + 10 + 15 < 63
    ({}, 63),
])
def test_what_the_upper_bonus_still_needs(card, needs):
    table = solved("kniffel")
    facts = advise(Position(card), table).position
    assert facts["upper_bonus_needs"] == needs
    assert facts["upper_subtotal"] == sum(card.values())


def test_jokers_left_only_where_the_rules_have_jokers():
    knobeln = solved("knobeln")
    assert advise(Position({"ones": 3}), knobeln).position["jokers_left"] == 3
    assert advise(Position({"ones": 3}, jokers_left=1), knobeln, (2, 3, 4, 5, 5),
                  0).position["jokers_left"] == 1
    assert advise(Position({"ones": 3}), solved("kniffel")).position["jokers_left"] is None


def test_text_starts_with_the_position(capsys, store):
    code, out, _ = run(capsys, "advise", "--lang", "en", "--tables", str(store), "--card",
                       "ones=3,fives=15,full_house=25,kniffel=50", "--kniffel-bonuses", "1",
                       "--dice", "13356", "--rolls-left", "1")
    lines = out.splitlines()
    assert lines[0] == "kniffel: card total 143"
    assert lines[1] == "  filled: Ones 3, Fives 15, Full House 25, Kniffel 50"
    assert lines[2].startswith("  open:   Twos, Threes, Fours, Sixes, Three of a Kind,")
    assert "Large Straight, Chance" in lines[3]
    assert lines[4] == "  upper:  18; the bonus (+35 at 63) needs 45 more"
    assert lines[5] == "  extra-Kniffel bonuses: 1 (+50)"
    assert lines[6] == "dice 1 3 3 5 6, 1 roll left"
    code, out, _ = run(capsys, "advise", "--lang", "en", "--rules", "knobeln",
                       "--tables", str(store), "--card", "sixes=30,fives=25,fours=20",
                       "--jokers-left", "2")
    assert "  upper:  75; the bonus (+35 at 63) reached" in out.splitlines()
    assert "  jokers left: 2" in out.splitlines() and "extra-Kniffel" not in out
    assert out.splitlines()[-1].startswith("expected final score at the start of the turn: ")
    code, out, _ = run(capsys, "advise", "--lang", "en", "--tables", str(store),
                       "--card", "fours=0,fives=0,sixes=0")
    assert "  upper:  0; the bonus (+35 at 63) out of reach" in out.splitlines()


# --- what a score option pays, and the Kniffel joker ----------------------------------------------

def test_bonus_split_into_upper_and_extra_kniffel():
    table = solved("kniffel")
    # 40 in the upper boxes and a Kniffel of sixes: 30 more reach 63 (+35) and pay +50
    card = {"fours": 16, "fives": 15, "threes": 9, "kniffel": 50}
    advice = advise(Position(card), table, (6, 6, 6, 6, 6), 0)
    sixes = score_option(advice, "sixes")
    assert (sixes["points"], sixes["upper_bonus"], sixes["extra_bonus"],
            sixes["bonus"]) == (30, 35, 50, 85)
    assert "kniffel_joker" not in sixes  # the matching upper box: the plain table's 30
    # an ordinary roll completing the upper bonus: 40 + 24 = 64
    advice = advise(Position({"fours": 16, "fives": 15, "threes": 9}), table, (1, 2, 3, 3, 3), 0)
    threes_filled = score_option(advice, "ones")
    assert (threes_filled["upper_bonus"], threes_filled["extra_bonus"]) == (0, 0)
    advice = advise(Position({"fours": 16, "fives": 20, "threes": 9}), table, (6, 6, 6, 2, 2), 0)
    sixes = score_option(advice, "sixes")
    assert (sixes["points"], sixes["upper_bonus"], sixes["extra_bonus"],
            sixes["bonus"]) == (18, 35, 0, 35)
    for option in advice.options:
        assert option["bonus"] == option["upper_bonus"] + option["extra_bonus"]


def test_kniffel_joker_is_marked_where_it_pays_what_the_table_would_not():
    table = solved("kniffel")  # max-any: any open box at its maximum, with 50 in the Kniffel box
    advice = advise(Position({"kniffel": 50}), table, (2, 2, 2, 2, 2), 0)
    marked = {o["box"]: o["points"] for o in advice.options if o.get("kniffel_joker")}
    # plain: full house, straights 0, other upper boxes 0, three/four of a kind and chance 10
    assert marked == {"ones": 5, "threes": 15, "fours": 20, "fives": 25, "sixes": 30,
                      "three_kind": 30, "four_kind": 30, "full_house": 25, "small_straight": 30,
                      "large_straight": 40, "chance": 30}
    assert (score_option(advice, "twos")["points"] == 10
            and "kniffel_joker" not in score_option(advice, "twos"))
    assert all(o["extra_bonus"] == 50 for o in advice.options)
    # sixes: three/four of a kind and chance are 30 by the plain table too
    advice = advise(Position({"kniffel": 50}), table, (6, 6, 6, 6, 6), 0)
    assert {o["box"] for o in advice.options if o.get("kniffel_joker")} == {
        "ones", "twos", "threes", "fours", "fives", "full_house", "small_straight",
        "large_straight"}
    # a scratched Kniffel box: no joker, no bonus (both need the 50)
    advice = advise(Position({"kniffel": 0}), table, (6, 6, 6, 6, 6), 0)
    assert not any("kniffel_joker" in o or o["extra_bonus"] for o in advice.options)
    assert score_option(advice, "large_straight")["points"] == 0
    # the first Kniffel scores by the plain table
    advice = advise(Position({}), table, (6, 6, 6, 6, 6), 0)
    assert not any("kniffel_joker" in o for o in advice.options)


def test_forced_joker_of_yahtzee():
    table = solved("yahtzee")  # the matching upper box first, then a lower box
    advice = advise(Position({"kniffel": 50}), table, (4, 4, 4, 4, 4), 0)
    assert [(o["box"], o.get("kniffel_joker")) for o in advice.options] == [("fours", None)]
    advice = advise(Position({"kniffel": 50, "fours": 12}), table, (4, 4, 4, 4, 4), 0)
    large = score_option(advice, "large_straight")
    assert large["points"] == 40 and large["kniffel_joker"] is True and large["extra_bonus"] == 100
    assert {o["box"] for o in advice.options} == {"three_kind", "four_kind", "full_house",
                                                  "small_straight", "large_straight", "chance"}
    # a scratched Yahtzee box: the joker still applies ("filled"), the bonus needs the 50
    advice = advise(Position({"kniffel": 0, "fours": 12}), table, (4, 4, 4, 4, 4), 0)
    large = score_option(advice, "large_straight")
    assert large["points"] == 40 and large["kniffel_joker"] is True and large["extra_bonus"] == 0


def test_keep_says_which_dice_are_rerolled():
    table = solved("kniffel")
    advice = advise(Position({}), table, (6, 5, 1, 3, 3), 2)
    keeps = {tuple(o["keep"]): o["reroll"] for o in advice.options if o["action"] == "keep"}
    assert (keeps[(3, 3)] == [1, 5, 6] and keeps[()] == [1, 3, 3, 5, 6]
            and keeps[(1, 3, 5, 6)] == [3])
    assert len(keeps) == 2 * 3 * 2 * 2 - 1  # 0-1 ones, 0-2 threes, ...; all five is a score option
    for keep, reroll in keeps.items():
        assert sorted(keep + tuple(reroll)) == [1, 3, 3, 5, 6]


BATCH_CASES = [  # (rules, query) with jokers, bonuses and a scratched or empty Kniffel box
    ("kniffel", {"card": {"kniffel": 50}, "dice": [2, 2, 2, 2, 2], "rolls_left": 0}),
    ("kniffel", {"card": {"kniffel": 50, "fours": 16, "fives": 15, "threes": 9}, "dice": [6] * 5,
                 "rolls_left": 0, "kniffel_bonuses": 1}),
    ("kniffel", {"card": {"kniffel": 50, "sixes": 30}, "dice": [6] * 5, "rolls_left": 1}),
    ("kniffel", {"card": {"kniffel": 0}, "dice": [3] * 5, "rolls_left": 0}),
    ("kniffel", {"card": {"fives": 20, "fours": 16, "threes": 9}, "dice": [6, 6, 6, 2, 2],
                 "rolls_left": 0}),
    ("kniffel", {"card": {"sixes": 24, "fives": 15, "fours": 0, "threes": 6}}),
    ("kniffel", {"card": {"ones": 3}, "dice": [1, 3, 3, 5, 6], "rolls_left": 2}),
    ("yahtzee", {"card": {"kniffel": 0, "fours": 12}, "dice": [4] * 5, "rolls_left": 0}),
    ("knobeln", {"card": {"ones": 3}, "dice": [2, 3, 4, 5, 5], "rolls_left": 0, "jokers_left": 2}),
    ("knobeln", {"card": {"ones": 3}, "jokers_left": 1}),
    ("kniffel", {"card": {"kl. Straße": 30, "1er": "3", "Kniffel": 50}, "dice": [5] * 5,
                 "rolls_left": 0}),  # pad names and points as text, as parse_card takes them
]


@pytest.mark.parametrize("name, query", BATCH_CASES)
def test_batch_lines_carry_the_same_fields(name, query):
    table = solved(name)
    text = b"".join(answer_lines([json.dumps(query)], table.rules, Tables(preloaded=[table]),
                                 processes=1))
    position = Position(query["card"], query.get("kniffel_bonuses", 0), query.get("jokers_left"))
    advice = advise(position, table, query.get("dice"), query.get("rolls_left"))
    assert text == orjson.dumps(advice.as_dict())
    filled = parse_card(query["card"], table.rules)
    assert json.loads(text)["position"]["filled"] == {b: filled[b] for b in table.rules.boxes
                                                      if b in filled}


# --- the cost of a choice, and how many options the text shows ---------------------------------

def test_cost_text():
    assert cost_text(0.0) == "best" and cost_text(1e-12) == "best"
    assert cost_text(1.277) == "cost 1.28" and cost_text(2.6) == "cost 2.60"
    assert cost_text(14.72) == "cost 14.72"


ROW = re.compile(r"^\s+(\d+)  (.+?)\s+(\d+\.\d{3})  (best|cost \d+\.\d\d)$")


def option_rows(out):
    return [ROW.match(line).groups() for line in out.splitlines() if ROW.match(line)]


def test_text_shows_the_best_ten_then_how_to_see_all(capsys, store):
    args = ("advise", "--lang", "en", "--tables", str(store), "--card", "ones=3", "--dice", "13356",
            "--rolls-left", "2")
    data = advise_json(capsys, store, *args[5:])
    assert len(data["options"]) == 23 + 12  # every keep (see above), every open box
    code, out, _ = run(capsys, *args)
    rows = option_rows(out)
    assert [int(r[0]) for r in rows] == list(range(1, 11))
    assert out.splitlines()[-1] == "  … and 25 more: --all shows every option"
    best = data["expected_final_score"]
    for (_, text, _, cost), option in zip(rows, data["options"]):
        assert cost == cost_text(best - option["expected_final_score"])
    assert rows[0][3] == "best" and rows[1][3].startswith("cost ")
    assert rows[0][1] == "keep 3 3, reroll 1 5 6"
    code, out, _ = run(capsys, *args, "--all")
    assert len(option_rows(out)) == 35 and "--all shows" not in out
    assert "keep nothing, reroll all" in out
    code, out, _ = run(capsys, *args, "--top", "3")
    assert (len(option_rows(out)) == 3
            and out.splitlines()[-1] == "  … and 32 more: --all shows every option")
    code, _, err = run(capsys, *args, "--top", "3", "--all")
    assert code == 2 and err.startswith("kniffel: error: ")


def test_text_names_the_bonuses_and_the_kniffel_joker(capsys, store):
    code, out, _ = run(capsys, "advise", "--lang", "en", "--tables", str(store), "--card",
                       "fours=16,fives=15,threes=9,kniffel=50", "--dice", "66666",
                       "--rolls-left", "0")
    texts = [r[1] for r in option_rows(out)]
    assert "score Sixes for 30, +35 upper bonus, +50 extra Kniffel" in texts
    assert "score Large Straight for 40 as Kniffel joker, +50 extra Kniffel" in texts
    assert "score Chance for 30, +50 extra Kniffel" in texts


def test_coach_shows_the_cost_the_same_way(store, tmp_path):
    script = "?\n" + "\n".join(["a", "chance"]) + "\nq\n"
    result = CliRunner().invoke(cli, ["play", "--lang", "en", "--seed", "11", "--coach", "--record",
                                      str(tmp_path / "g.json"), "--tables", str(store)],
                                input=script)
    out = result.output
    ranking = [line for line in out.splitlines() if re.match(r"^\s+\d+\. ", line)]
    assert len(ranking) > 5 and not re.search(r"\s-\d+\.\d\d$", out, re.M)
    costs = [line.rsplit("  ", 1)[-1] for line in ranking]
    assert all(re.fullmatch(r"best|cost \d+\.\d\d", c) for c in costs)
    assert all(c == "best" for line, c in zip(ranking, costs) if line.lstrip().startswith("1. "))
    assert "cost" in " ".join(costs)
    assert any(", reroll " in line for line in ranking)
    assert re.search(r"coach: (best|cost \d+\.\d\d; best was .+)$", out, re.M)


def test_analyze_text_shows_cost_not_loss():
    table = solved("kniffel")
    lines = report_lines(analyze(HAND_MADE, Tables(preloaded=[table])), Words("en", table.rules))
    assert not any(re.search(r"\bloss\b", line) for line in lines[1:])
    chance = next(line for line in lines if "Chance (19)" in line)
    assert f"cost {float(hand_worked_losses()[0]):.2f}" in chance and "best: Ones (2)" in chance
    assert (sum(line.split()[-1] == "best" for line in lines[1:-1])
            == analyze(HAND_MADE, Tables(preloaded=[table]))["players"][0]["optimal"])


# --- box names as written on a pad -------------------------------------------------------------

PAD_SPELLINGS = {  # written out here, independently of BOX_ALIASES
    "ones": ["1er", "Einer", "Einser", "1er ", "EINSER", "Aces"],
    "twos": ["2er", "Zweier"], "threes": ["3er", "Dreier"], "fours": ["4er", "Vierer"],
    "fives": ["5er", "Fünfer", "Fuenfer", "FÜNFER"], "sixes": ["6er", "Sechser"],
    "three_kind": ["3er-Pasch", "3er Pasch", "Dreierpasch", "Dreier-Pasch", "dreier_pasch",
                   "Three of a kind", "3 of a kind"],
    "four_kind": ["4er-Pasch", "Viererpasch", "Vierer-Pasch", "4 of a kind"],
    "full_house": ["FH", "fh", "Full House", "Full-House", "full_house", "fullhouse"],
    "small_straight": ["kl. Straße", "Kl. Strasse", "kleine Straße", "Kleine_Strasse",
                       "kl.Straße", "Small Straight", "sm. straight"],
    "large_straight": ["gr. Straße", "große Straße", "Grosse Strasse", "GROSSE STRASSE",
                       "Large Straight", "lg straight"],
    "kniffel": ["Kniffel", "KNIFFEL", "Yahtzee", "yatzy"],
    "chance": ["Chance", "CHANCE", " chance "],
}
YATZY_SPELLINGS = {"one_pair": ["Paar", "1 Paar", "ein Paar", "One pair", "Et par", "ett par"],
                   "two_pairs": ["2 Paare", "Zwei Paare", "two pairs", "To par", "Två par"],
                   "full_house": ["Hus", "Kåk", "FH"], "twos": ["Tvåor", "Toere"],
                   "small_straight": ["Liten stege", "Lille straight", "kl. Straße"],
                   "yatzy": ["Yatzy", "Kniffel"]}


@pytest.mark.parametrize("box, names", sorted(PAD_SPELLINGS.items()))
def test_pad_names_map_to_their_boxes(box, names):
    kniffel, yatzy = get_rules("kniffel"), get_rules("yatzy")
    for name in names:
        assert box_key(name, kniffel) == box
        assert box_key(name, yatzy) == ("yatzy" if box == "kniffel" else box)


def test_yatzy_names():
    yatzy = get_rules("yatzy")
    for box, names in YATZY_SPELLINGS.items():
        assert [box_key(name, yatzy) for name in names] == [box] * len(names)
    with pytest.raises(ValueError, match=r"box 'Paar' \(one_pair\) is not on the kniffel card"):
        box_key("Paar", get_rules("kniffel"))


def test_card_spec_with_pad_names(capsys, store):
    rules = get_rules("kniffel")
    assert parse_card("kl. Straße=30,1er=3, 3er-Pasch = 17;FH=25", rules) == {
        "small_straight": 30, "ones": 3, "three_kind": 17, "full_house": 25}
    data = advise_json(capsys, store, "--card", "kl. Straße=30,1er=3", "--dice", "12345")
    assert data["position"]["filled"] == {"ones": 3, "small_straight": 30}
    code, _, err = run(capsys, "advise", "--lang", "en", "--tables", str(store),
                       "--card", "1er=3,Einser=3")
    assert code == 2 and "'ones' is given twice" in err


def listed_names(text):
    """The names of a list such as PAD_NAMES: '1er … 6er' stands for both ends."""
    return [name for item in text.split(", ") for name in item.split(" … ")]


@pytest.mark.parametrize("box_set", sorted(PAD_NAMES))
def test_the_listed_names_are_accepted(box_set):
    rules = get_rules("yatzy" if box_set == "yatzy" else "kniffel")
    names = listed_names(PAD_NAMES[box_set])
    assert len(names) > 10
    for name in names:
        box_key(name, rules)  # no ValueError


def test_help_and_unknown_box_error_list_the_names(capsys, store):
    from solver.cli.advise import advise_command as command
    card_help = next(p.help for p in command.params if p.name == "card")
    pad_example = re.findall(r'"([^"]+)"', card_help)[1]
    assert parse_card(pad_example, get_rules("kniffel")) == {"ones": 3, "fives": 15, "kniffel": 50}
    kniffel_names = card_help[card_help.index("(also ") + 6:card_help.index("; Yatzy: ")]
    yatzy_names = card_help[card_help.index("; Yatzy: ") + 9:card_help.rindex(")")]
    for text, rules in ((kniffel_names, get_rules("kniffel")), (yatzy_names, get_rules("yatzy"))):
        assert len(listed_names(text)) >= 3
        for name in listed_names(text):
            box_key(name, rules)  # no ValueError
    code, out, _ = run(capsys, "advise", "--lang", "en", "--help")
    assert "kl. Straße" in out and "--all" in out
    code, out, err = run(capsys, "advise", "--lang", "en", "--tables", str(store),
                         "--card", "Sexer=3")
    assert code == 2 and err.count("\n") == 1 and "unknown box 'Sexer'" in err
    assert "kl. Straße" in err and "3er-Pasch" in err and "ones, twos" in err


def _variants(draw, name):
    """`name` with random case, and spaces, dots, hyphens or underscores between its letters."""
    out = [draw(st.sampled_from(["", " ", "  "]))]
    for char in name:
        out.append(draw(st.sampled_from([char.lower(), char.upper()])))
        out.append(draw(st.sampled_from(["", "", "", " ", "-", ".", "_", ". "])))
    return "".join(out) + draw(st.sampled_from(["", " ", "\t"]))


SPELLINGS = sorted({(name, box) for box, names in PAD_SPELLINGS.items() for name in names}
                   | {(name, box) for box, names in YATZY_SPELLINGS.items() for name in names}
                   | set(BOX_ALIASES.items())
                   | {(key, key) for boxes in BOX_SETS.values() for key in boxes})


@st.composite
def spelled(draw):
    name, box = draw(st.sampled_from(SPELLINGS))
    return _variants(draw, name), box


@settings(max_examples=400, deadline=None)
@given(spelled())
def test_any_case_and_spacing_of_a_name_maps_to_its_box(case):
    text, box = case
    for rules in (get_rules("kniffel"), get_rules("yatzy")):
        five = rules.boxes[rules.kniffel_box]
        expected = five if box in ("kniffel", "yatzy") else box
        if expected in rules.boxes:
            assert box_key(text, rules) == expected, text
        else:
            with pytest.raises(ValueError, match="is not on the"):
                box_key(text, rules)


@settings(max_examples=400, deadline=None)
@given(st.text())
def test_random_names_raise_only_value_error(text):
    for rules in (get_rules("kniffel"), get_rules("yatzy")):
        try:
            assert box_key(text, rules) in rules.boxes
        except ValueError as exc:
            assert "box" in str(exc)


# --- a win chance not known, and a trade-off that costs nothing (issue 47) ---------------------

EVEN = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three_of_a_kind=20,four_of_a_kind=0"


def unknown_win(capsys, store, lang, *more):
    """`advise --opponent` where the budget affords no chance at all (no target table in the
    store, the low end's work over 0.05 s): the text, and the JSON of the same question."""
    args = ["advise", "--tables", str(store), "--card", EVEN, "--opponent", EVEN, "--budget",
            "0.05", *more]
    code, out, err = run(capsys, *args, "--lang", lang)
    assert code == 0, err
    code, text, err = run(capsys, *args, "--json")
    assert code == 0, err
    return out, json.loads(text)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_an_unknown_win_chance_says_what_is_known_and_no_cost_of_zero(capsys, store, lang):
    """It showed "unbekannt [unbekannt, 100%]" and "(0.000 mehr)": now "höchstens 100%" beside
    the unknown chance, and the choice the same as for points without a cost."""
    w = Words(lang)
    out, data = unknown_win(capsys, store, lang, "--dice", "66612", "--rolls-left", "2")
    assert data["probability"] is None and data["interval"] == [None, 1.0]  # the JSON as it was
    assert all(o["probability"] is None and o["interval"] == [None, 1.0] for o in data["options"])
    rows = [line for line in out.splitlines() if re.match(r"\s+\d+\s", line)]
    assert len(rows) == 10 and all(w("advise.at_most", chance="100%") in row for row in rows)
    assert f"[{w('chance_unknown')}" not in out and "0.000" not in out, out
    plain = data["options"][0]["expected_final_score"]
    assert out.rstrip().endswith(w("advise.goal_same_free", plain=plain)), out
    # that there is no target table is said once (the line on the win tables, or the hint)
    assert w("advise.method_unknown") in out and w("advise.no_target_table") not in out


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_trade_off_at_a_turn_start_costing_nothing_says_so(capsys, store, lang):
    out, data = unknown_win(capsys, store, lang)
    w = Words(lang)
    assert "0.000" not in out
    assert out.rstrip().endswith(w("advise.trade_start_same",
                                   plain=data["expected_final_score"])), out


def test_an_interval_in_words():
    from solver.cli.advice_text import interval_text
    assert interval_text([None, 1.0], Words("de")) == "höchstens 100%"
    assert interval_text([None, 0.625], Words("en")) == "at most 62.5%"
    assert interval_text([0.25, 0.5], Words("en")) == "[25.0%, 50.0%]"


def test_no_target_table_is_said_once_where_the_chance_is_not_known():
    from types import SimpleNamespace

    from solver.cli.advice_text import method_lines
    w = Words("en")
    advice = SimpleNamespace(method="approximate", interval=[None, 1.0], building=None,
                             offer=None, note="no target table")
    assert method_lines(advice, w) == [w("advise.method_unknown"), w("advise.target_table_hint")]
    advice.interval = [0.25, 1.0]  # a low end known: the line on the table as it was
    assert method_lines(advice, w)[1] == w("advise.no_target_table")
