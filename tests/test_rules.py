"""Score tables checked by hand, presets, options and rules files."""
import pytest

from solver import dice
from solver.presets import get_rules, read_rules
from solver.rules import PRESETS, RulesError, box_key


def points(rules, box, roll):
    r = dice.KEEP_INDEX[tuple(sorted(roll))]
    return int(rules.plain_score[rules.boxes.index(box), r])


@pytest.mark.parametrize("box, roll, expected", [
    ("threes", (3, 3, 1, 3, 6), 9),
    ("three_kind", (3, 3, 1, 3, 6), 16),
    ("three_kind", (3, 3, 1, 2, 6), 0),
    ("four_kind", (5, 5, 5, 5, 5), 25),
    ("full_house", (2, 2, 3, 3, 3), 25),
    ("full_house", (4, 4, 4, 4, 4), 0),
    ("small_straight", (1, 2, 3, 4, 6), 30),
    ("small_straight", (3, 4, 5, 6, 6), 30),
    ("small_straight", (1, 2, 3, 5, 6), 0),
    ("large_straight", (2, 3, 4, 5, 6), 40),
    ("large_straight", (1, 2, 3, 4, 6), 0),
    ("kniffel", (6, 6, 6, 6, 6), 50),
    ("chance", (1, 2, 3, 4, 6), 16),
])
def test_kniffel_plain_table(box, roll, expected):
    assert points(PRESETS["kniffel"], box, roll) == expected


def test_five_of_a_kind_as_full_house_option():
    rules = get_rules("kniffel-basic", five_of_a_kind_is_full_house=True)
    assert points(rules, "full_house", (4, 4, 4, 4, 4)) == 25


@pytest.mark.parametrize("box, roll, expected", [
    ("one_pair", (2, 2, 5, 5, 6), 10),
    ("two_pairs", (2, 2, 5, 5, 6), 14),
    ("two_pairs", (5, 5, 5, 5, 6), 0),  # four of a kind is not two pairs
    ("two_pairs", (2, 2, 5, 5, 5), 14),
    ("three_kind", (4, 4, 4, 1, 2), 12),
    ("four_kind", (6, 6, 6, 6, 6), 24),
    ("small_straight", (1, 2, 3, 4, 5), 15),
    ("small_straight", (2, 3, 4, 5, 6), 0),
    ("large_straight", (2, 3, 4, 5, 6), 20),
    ("full_house", (2, 2, 3, 3, 3), 13),
    ("full_house", (3, 3, 3, 3, 3), 0),
    ("yatzy", (1, 1, 1, 1, 1), 50),
])
def test_yatzy_plain_table(box, roll, expected):
    assert points(PRESETS["yatzy"], box, roll) == expected


def test_joker_tables():
    k = PRESETS["kniffel"]
    assert [int(k.joker_score[k.boxes.index(b), 2])
            for b in ("ones", "sixes", "three_kind", "chance")] == [5, 30, 30, 30]
    y = PRESETS["yahtzee"]
    assert ([int(y.joker_score[y.boxes.index(b), 2])
             for b in ("ones", "twos", "three_kind", "full_house", "large_straight")]
            == [0, 10, 10, 25, 40])


def test_options_are_checked():
    with pytest.raises(RulesError, match="unknown rules option"):
        get_rules("kniffel", lucky=True)
    with pytest.raises(RulesError, match="does not apply"):
        get_rules("yatzy", five_of_a_kind_is_full_house=True)
    with pytest.raises(RulesError, match="rolls_per_turn must be 1-5"):
        get_rules("kniffel", rolls_per_turn=6)
    with pytest.raises(RulesError, match="must be true or false"):
        get_rules("kniffel", five_of_a_kind_is_full_house="yes")
    with pytest.raises(RulesError, match="unknown rules 'nope'"):
        read_rules("nope")


def test_rules_key_names_each_rule_set():
    assert get_rules("kniffel").key == "kniffel"
    a = get_rules("kniffel", five_of_a_kind_is_full_house=True).key
    b = get_rules("kniffel", upper_bonus=50).key
    assert a.startswith("kniffel-") and b.startswith("kniffel-") and a != b


def test_box_names():
    k = PRESETS["kniffel"]
    assert (box_key("Dreierpasch", k) == "three_kind"
            and box_key("kleine_straße", k) == "small_straight")
    assert box_key("yahtzee", k) == "kniffel" and box_key("kniffel", PRESETS["yatzy"]) == "yatzy"
    with pytest.raises(ValueError, match="unknown box"):
        box_key("jackpot", k)


@pytest.mark.parametrize("options, message", [
    ({"joker_requires": "filled"}, "has no effect here"),  # kniffel-basic has no joker
    ({"extra_bonus_cap": 100}, "has no effect here"),  # nor an extra bonus
    ({"jokers_per_turn": 2}, "has no effect here"),  # nor jokers
    ({"jokers": 2, "jokers_per_turn": 3}, "exceeds jokers"),
    ({"rolls_per_turn": 0}, "rolls_per_turn must be 1-5"),
    ({"upper_bonus_threshold": 200}, "upper_bonus_threshold must be 1-105"),
    ({"upper_bonus": -5}, "whole number >= 0"),
    ({"joker": "wild"}, "joker must be one of"),
    ({"extra_bonus": 50, "extra_bonus_cap": 120}, "multiple of extra_bonus"),
])
def test_impossible_or_inapplicable_options(options, message):
    with pytest.raises(RulesError, match=message):
        get_rules("kniffel-basic", **options)


def test_house_rules_file(tmp_path):
    from solver.presets import read_rules
    path = tmp_path / "house.toml"
    path.write_text('preset = "kniffel"\nupper_bonus_threshold = 60\nextra_bonus = 100\n'
                    'extra_bonus_cap = 300\njoker = "free"\njoker_requires = "filled"\n'
                    'jokers = 1\nrolls_per_turn = 4\n')
    rules = read_rules(str(path))
    assert (rules.upper_bonus_threshold, rules.extra_bonus, rules.cap_count, rules.joker,
            rules.jokers, rules.rolls_per_turn) == (60, 100, 3, "free", 1, 4)
    assert rules.key != get_rules("kniffel", upper_bonus_threshold=60).key


@pytest.mark.parametrize("name, options, message", [
    ("yatzy", {"extra_kniffel_must_fit": True}, "does not apply"),
    # forced joker, once filled
    ("yahtzee", {"extra_kniffel_must_fit": True}, "has no effect here"),
    ("kniffel", {"extra_kniffel_must_fit": True, "joker_requires": "filled"}, "has no effect here"),
    ("kniffel-championship", {"extra_kniffel_must_fit": 1}, "must be true or false"),
])
def test_must_fit_option_is_checked(name, options, message):
    with pytest.raises(RulesError, match=message):
        get_rules(name, **options)


def test_must_fit_option_where_it_applies():
    for name, options in [("kniffel-championship", {}), ("kniffel", {}), ("kitkniff", {}),
                          ("yahtzee-free", {}), ("kniffel-basic", {}),
                          ("yahtzee", {"joker_requires": "fifty"})]:
        rules = get_rules(name, extra_kniffel_must_fit=True, **options)
        assert rules.extra_kniffel_must_fit and rules.key.startswith(f"{name}-")
        assert rules.as_dict()["extra_kniffel_must_fit"] is True
    assert PRESETS["kniffel-championship"].extra_kniffel_must_fit is False  # the default reading


def _live_turn(rules, card, dice):
    """A one-player game on `card` whose next turn threw `dice` with no rolls left."""
    from solver.game.card import Game
    game = Game(rules, ["you"], real_dice=True)
    game.columns[0].card.update(card)
    turn = game.next_turn()
    for _ in range(rules.rolls_per_turn):
        if turn.dice is not None:
            turn.keep(())
        turn.roll(dice)
    return turn


_CARD = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "three_kind": 20,
         "four_kind": 0, "full_house": 25, "large_straight": 40, "kniffel": 50}


def test_must_fit_in_a_live_game():
    """Championship, sixes, small_straight and chance open, the Kniffel box holding 50."""
    from solver.game.card import GameError
    plain = get_rules("kniffel-championship")
    strict = get_rules("kniffel-championship", extra_kniffel_must_fit=True)
    # 66666 fits sixes (30) and chance (30), +50 in either; not the small straight
    assert _live_turn(plain, _CARD, (6,) * 5).options() == {
        "sixes": (30, 1), "small_straight": (0, 0), "chance": (30, 1)}
    turn = _live_turn(strict, _CARD, (6,) * 5)
    assert turn.options() == {"sixes": (30, 1), "chance": (30, 1)}
    with pytest.raises(GameError, match="do not allow"):
        turn.score("small_straight")
    assert turn.score("chance") == (30, 1)
    # 55555 fits only chance (fives is filled): sixes and the straight are closed to it
    assert _live_turn(strict, _CARD, (5,) * 5).options() == {"chance": (25, 1)}
    # with chance filled, 55555 fits no open box: any open box, for 0 and no bonus
    assert _live_turn(strict, {**_CARD, "chance": 22}, (5,) * 5).options() == {
        "sixes": (0, 0), "small_straight": (0, 0)}
    # a Kniffel while the Kniffel box is open is not a further Kniffel: any box, plain points
    card = {k: v for k, v in _CARD.items() if k != "kniffel"}
    assert _live_turn(strict, card, (6,) * 5).options() == {
        "sixes": (30, 0), "small_straight": (0, 0), "kniffel": (50, 0), "chance": (30, 0)}


def test_must_fit_with_a_joker():
    """The fitting test uses the points the joker gives: KitKniff's free joker scores a further
    11111 in chance (5) and in the lower boxes, but 0 in another upper box."""
    strict = get_rules("kitkniff", extra_kniffel_must_fit=True)
    card = {**_CARD, "ones": 3, "small_straight": 30}
    del card["twos"]
    assert _live_turn(get_rules("kitkniff"), card, (1,) * 5).options() == {
        "twos": (0, 1), "sixes": (0, 1), "chance": (5, 1)}
    assert _live_turn(strict, card, (1,) * 5).options() == {"chance": (5, 1)}


# ---------------------------------------------------------------------------------------------
# The rules as a player reads them (kniffel rules --show)

def _section(text, title):
    """The lines of `text` under the heading line `title` (up to the next blank line)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start + 1:end]


DESCRIBED = [("kniffel", {}), ("kniffel-basic", {"five_of_a_kind_is_full_house": True}),
             ("kniffel-championship", {}),
             ("kniffel-championship", {"extra_kniffel_must_fit": True}), ("kitkniff", {}),
             ("yahtzee", {}), ("yahtzee-free", {}), ("knobeln", {}), ("yatzy", {})]


@pytest.mark.parametrize("name, options", DESCRIBED,
                         ids=[n + "".join(f"-{k}" for k in o) for n, o in DESCRIBED])
def test_described_boxes_and_bonuses_come_from_the_rules(name, options):
    from solver.rules.describe import box_names, describe
    rules = get_rules(name, **options)
    text = describe(rules, "en")  # the English text (a Kniffel pad's default is German)
    assert text.splitlines()[0] == f"{rules.key}: {rules.description}"
    rows = [line.split() for line in _section(text, "Boxes")[2:-1]]
    assert [row[0] for row in rows] == list(rules.boxes)
    for b, row in zip(range(rules.n_boxes), rows):
        line = " ".join(row)
        scores = rules.plain_score[b]
        assert box_names(rules, rules.boxes[b])[0].split()[0] in line
        assert "distinct rolls" not in line  # every condition found a plain description
        assert line.endswith(str(int(scores.max())))  # the most the box pays
        low = int(scores[scores > 0].min())
        if low != scores.max():  # a range: from the least a scoring roll pays (0 for upper boxes)
            assert f"{0 if b < 6 else low}-{int(scores.max())}" in line
    upper = " ".join(_section(text, "Upper bonus"))
    assert (f"+{rules.upper_bonus} when ones to sixes add up to at least "
            f"{rules.upper_bonus_threshold}") in upper
    settings = _section(text, "Settings")
    assert [line.split()[0] for line in settings] == list(rules.as_dict())
    five = " ".join(" ".join(_section(text, "Five of a kind")).split())
    if rules.extra_bonus:
        assert f"Extra bonus: +{rules.extra_bonus} for each further" in five
    if rules.jokers:
        assert " ".join(_section(text, "Knobeln jokers")).split()[0] == str(rules.jokers)


def test_described_points_by_hand():
    from solver.rules.describe import describe

    def row(rules, box):
        text = describe(rules, "en")
        return next(" ".join(line.split()) for line in _section(text, "Boxes")
                    if line.split()[0] == box)

    kniffel, yatzy = get_rules("kniffel"), get_rules("yatzy")
    assert row(kniffel, "small_straight").endswith("four faces in a row: 1-2-3-4, 2-3-4-5 or "
                                                   "3-4-5-6 30")
    assert (row(kniffel, "threes")
            == "threes Dreier Threes none: only the 3s count 3 × the number of 3s, 0-15")
    assert row(kniffel, "full_house").endswith("three dice of one face and two of another 25")
    fh = get_rules("kniffel", five_of_a_kind_is_full_house=True)
    assert row(fh, "full_house").endswith("two of another, or five of a kind 25")
    assert row(yatzy, "two_pairs").endswith("four of a kind not) the sum of the two pairs, 6-22")
    assert row(yatzy, "three_kind").endswith("3 × the face shown three times, 3-18")
    assert row(yatzy, "small_straight").endswith("exactly 1-2-3-4-5 15")
    assert row(get_rules("kitkniff"), "chance").startswith("chance Krempel Chance")


def _five_text(rules):
    from solver.rules.describe import describe
    return " ".join(" ".join(_section(describe(rules, "en"), "Five of a kind")).split())


def test_described_jokers():
    kniffel = get_rules("kniffel")
    text = _five_text(kniffel)
    assert "Joker at any box's maximum" in text and "only while the Kniffel box holds 50" in text
    for b, box in enumerate(kniffel.boxes):  # every box's joker points, from the joker table
        if box != "kniffel":
            assert (f"{box} {int(kniffel.joker_score[b, 1])};" in text
                    or f"{box} {int(kniffel.joker_score[b, 1])}." in text)
    assert "+50 for each further Kniffel while the Kniffel box holds 50, paid whatever box" in text
    yahtzee = _five_text(get_rules("yahtzee"))
    assert "Forced joker: it must go into the upper box of its face" in yahtzee
    assert "whether the Yahtzee box holds 50 or 0" in yahtzee
    assert "full_house 25; small_straight 30; large_straight 40; chance 5 × face" in yahtzee
    assert "extra_kniffel_must_fit" not in yahtzee  # the option cannot matter there
    kitkniff = _five_text(get_rules("kitkniff"))
    assert "Free joker" in kitkniff and "at most 900 bonus points a game (9 bonuses)" in kitkniff
    assert "upper boxes 0" in _five_text(get_rules("yahtzee-free"))
    basic = _five_text(get_rules("kniffel-basic"))
    assert "scores by the table too, in any box: no extra bonus, no joker" in basic


def test_described_championship_and_its_stricter_reading():
    plain = _five_text(get_rules("kniffel-championship"))
    fits = "the upper box of its face, three_kind, four_kind, chance"
    assert "No joker" in plain and (f"paid only when it is entered in a box where it scores "
                                    f"points by the box table: {fits};") in plain
    assert "It may also be entered in any other open box, for 0" in plain
    strict = _five_text(get_rules("kniffel-championship", extra_kniffel_must_fit=True))
    assert (f"It must be entered in a box where it scores points by the box table: {fits}, "
            "while one") in strict
    assert "may also be entered" not in strict
    with_house = _five_text(get_rules("kniffel-championship", extra_kniffel_must_fit=True,
                                      five_of_a_kind_is_full_house=True))
    assert "three_kind, four_kind, full_house, chance, while one" in with_house


def test_described_dice_duel():
    from solver.duel.describe import describe_duel
    from solver.duel.rules import TYPES, VALUES
    rules = get_rules("dice-duel")
    text = describe_duel(rules)
    rows = {line.split()[0]: " ".join(line.split()) for line in _section(text, "Chips")[2:]}
    assert list(rows) == list(TYPES)
    for name, value in zip(TYPES, VALUES):
        assert f" {value} 4 " in rows[name] and "distinct rolls" not in rows[name]
    assert rows["flush"].endswith("all five dice red (2, 4, 6) or all black (1, 3, 5)")
    assert "four of a kind not" in rows["two_pairs"]
    score = " ".join(_section(text, "Score"))
    assert (f"Best possible score: {int(rules.best_score)}." in " ".join(score.split())
            and int(rules.best_score) == 1000)
    other = describe_duel(get_rules("dice-duel", four_of_a_kind_two_pairs=True,
                                    may_decline_chip=True, gold_bonus=10))
    assert "or four of a kind (a full house counts)" in other and "or none taken" in other
    assert ("+10 (gold)" in " ".join(other.split())
            and "changed: four_of_a_kind_two_pairs = true" in other)


def test_rules_show_prints_the_readable_text(capsys):
    from conftest import run

    from solver.duel.describe import describe_duel
    from solver.rules.describe import describe
    code, out, _ = run(capsys, "rules", "--show", "kniffel-championship")
    assert code == 0 and out == describe(get_rules("kniffel-championship")) + "\n"
    code, out, _ = run(capsys, "rules", "--show", "dice-duel")
    assert code == 0 and out == describe_duel(get_rules("dice-duel")) + "\n"
    code, out, _ = run(capsys, "rules")
    assert code == 0 and out.splitlines()[0].split()[0] == "kniffel" and "--show NAME" in out
