"""The exact value of playing by a rule list (strategy/policy_eval.py): the optimal decisions
give the table back, a plain-Python evaluation agrees on small sub-games, a hand-worked case, and
seeded games of the same rules agree within 4 standard errors."""
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest
import reference as ref
from conftest import run, solved

from solver import dice
from solver.engine.states import Position, position_state
from solver.rules import UPPER
from solver.strategy.heuristic import heuristic
from solver.strategy.policy_eval import evaluate, play, policy_values
from solver.strategy.thumb import (
    BoxRule,
    KeepRule,
    RuleList,
    bonus_state,
    box_pars,
    compile_rules,
    decide_box,
    decide_keep,
)

# Cards with few open boxes (the rest filled), for the plain-Python comparison.
SUB_GAMES = {
    "kniffel": [
        {"ones": 2, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "three_kind": 20,
         "four_kind": 0, "full_house": 25, "small_straight": 30, "large_straight": 40,
         "kniffel": 50},  # sixes and chance open, Kniffel 50: extra bonus and jokers
        {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "three_kind": 20,
         "four_kind": 0, "small_straight": 30, "large_straight": 40, "chance": 20},
    ],
    "yahtzee": [
        {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "three_kind": 20,
         "four_kind": 0, "small_straight": 30, "large_straight": 40, "kniffel": 50},
    ],
}


def _reference_policy_value(name, rule_list, card):
    """The rule list's expected score still to come from `card`, by plain recursion over the
    positions (reference.py's dice and scoring, the rules' decisions in plain Python)."""
    table = solved(name)
    rules = table.rules
    r = ref._read_rules(rules.as_dict())
    kniffel_key = rules.boxes[rules.kniffel_box]

    def allowed_of(roll, open_boxes, kniffel_box, bonuses):
        best = {}
        for box, points, bonus in ref.rules_score_options(r, roll, open_boxes, kniffel_box,
                                                          bonuses):
            if box not in best or (points, bonus) > best[box]:
                best[box] = (points, bonus)
        return best

    @lru_cache(maxsize=None)
    def value(open_boxes, upper_total, kniffel_box, bonuses):
        if not open_boxes:
            return 0.0
        filled = set(rules.boxes) - open_boxes
        faces = sum(f for f, box in enumerate(UPPER, 1) if box in open_boxes)
        state = bonus_state(upper_total, faces, rules.upper_bonus_threshold)
        final = []
        for roll in ref.ROLLS:
            options = allowed_of(roll, open_boxes, kniffel_box, bonuses)
            points_of = {b: options[b][0] for b in sorted(options, key=rules.boxes.index)}
            box = decide_box(rule_list, rules, points_of, filled, len(open_boxes), state)
            points, bonus = options[box]
            earned, after = ref._after_filling(r, box, points, bonus, open_boxes, upper_total,
                                               kniffel_box, bonuses, 0)
            final.append(earned + value(*after[:4]))
        current = final
        for left in range(1, rules.rolls_per_turn):
            nxt = []
            for i, roll in enumerate(ref.ROLLS):
                kept = decide_keep(rule_list, rules, filled, roll, state, left)
                if len(kept) == 5:
                    nxt.append(final[i])
                else:
                    nxt.append(sum(p * current[j]
                                   for j, p in ref.KEEP_OUTCOMES[ref.KEEP_INDEX[kept]]))
            current = nxt
        return sum(p * v for p, v in zip(ref.ROLL_PROBABILITY, current))

    open_boxes = frozenset(rules.boxes) - set(card)
    upper = sum(p for b, p in card.items() if b in UPPER)
    kniffel_box = "open" if kniffel_key in open_boxes else str(card[kniffel_key])
    start = ref._normalise(r, open_boxes, upper, kniffel_box, 0, 0)
    return value(*start[:4])


def _filled_mask(rules, card):
    return sum(1 << rules.boxes.index(b) for b in card)


@pytest.mark.parametrize("name", list(SUB_GAMES))
def test_rules_agree_with_plain_python_on_sub_games(name):
    table = solved(name)
    rules = table.rules
    for card in SUB_GAMES[name]:
        values = policy_values(table, heuristic(rules), within=_filled_mask(rules, card))
        state = position_state(Position(card), rules)
        expected = _reference_policy_value(name, heuristic(rules), card)
        assert values[state.filled, state.aux, state.upper] == pytest.approx(expected, abs=1e-9)
        # A poorer player loses against the optimal value, never gains.
        assert expected < table.value(state)


# A list whose rules depend on the round, the upper bonus and open boxes (thumb.Condition).
CONDITIONAL = RuleList("conditional", (
    KeepRule("face", 6, ("sixes",), bonus="behind"),
    KeepRule("kind", 3, open_max=2),
    KeepRule("face", 6, ("sixes",), bonus="par", open_min=3),
    KeepRule("high", 5, bonus="settled"),
    KeepRule("run4", 3, rolls_left=2),
    KeepRule("kind_open", 2, rolls_left=1),
    KeepRule("kind_open", 1, bonus="open"),
    KeepRule("aim", bonus="settled", rolls_left=2),
    KeepRule("kind", 2, ("chance", "sixes")),
    KeepRule("aim", open_max=2),
), (
    BoxRule("upper", 3, bonus="not_reached"),
    BoxRule("chance", 24, open_max=2),
    BoxRule("sixes", 12, bonus="par"),
    BoxRule(None, 20, ("sixes",)),
    BoxRule("course", 0, bonus="open", open_min=4),
    BoxRule("chance", 0, open_min=3),
    BoxRule("par", 0, open_max=2),
    BoxRule("sixes", 0, bonus="open"),
))


@pytest.mark.parametrize("name", list(SUB_GAMES))
def test_conditional_rules_agree_with_plain_python_on_sub_games(name):
    """Conditions on the round, the bonus state and open boxes: the kernels' decisions are the
    plain-Python ones (thumb.decide_keep, decide_box with the card's bonus state)."""
    table = solved(name)
    rules = table.rules
    for card in SUB_GAMES[name]:
        values = policy_values(table, CONDITIONAL, within=_filled_mask(rules, card))
        state = position_state(Position(card), rules)
        expected = _reference_policy_value(name, CONDITIONAL, card)
        assert values[state.filled, state.aux, state.upper] == pytest.approx(expected, abs=1e-9)
        assert expected < table.value(state)


def test_bonus_states_by_hand():
    """need 19 with only sixes open: three sixes (18) miss, four (24) make it: behind; need 18:
    on par; need 0: reached; need 31 > 5 * 6: lost."""
    assert [bonus_state(63 - n, 6, 63) for n in (19, 18, 0, -3, 31, 30)] == [2, 1, 0, 0, 3, 2]


@pytest.mark.parametrize("name", ["kniffel", "yahtzee"])
def test_the_optimal_decisions_give_the_table_back(name):
    """Every decision by the table's argmax, on a sub-game of 6 open boxes: the policy's value
    is the table's at every state of it."""
    table = solved(name)
    rules = table.rules
    card = {"ones": 2, "threes": 9, "fives": 15, "three_kind": 20, "large_straight": 40,
            "kniffel": 50, "chance": 24}
    within = _filled_mask(rules, card)
    values = policy_values(table, None, within=within)
    mask = ~np.isnan(values)
    assert mask.sum() > 1000
    masks = np.arange(1 << rules.n_boxes)
    assert np.isnan(values[(masks & within) != within]).all()
    np.testing.assert_allclose(values[mask], table.values[mask], rtol=0, atol=1e-9)


def test_chance_alone_by_hand():
    """Only chance open, keeping every die of 4 or more: a die is worth 3.5, then
    (3 * 3.5 + 4 + 5 + 6) / 6 = 4.25, then (3 * 4.25 + 15) / 6 = 4.625; five dice 23.125
    (optimal: 70/3, keeping 5s and 6s first)."""
    table = solved("kniffel-basic")
    rules = table.rules
    card = {box: 0 for box in rules.boxes if box != "chance"}
    rule_list = RuleList("high", (KeepRule("high", 4),), ())
    values = policy_values(table, rule_list, within=_filled_mask(rules, card))
    state = position_state(Position(card), rules)
    die = Fraction(7, 2)
    for _ in range(2):
        die = (3 * die + 15) / 6
    assert 5 * die == Fraction(185, 8)
    assert values[state.filled, state.aux, state.upper] == pytest.approx(float(5 * die), abs=1e-12)
    assert table.value(state) == pytest.approx(70 / 3, abs=1e-12)


@pytest.mark.slow
def test_simulation_of_the_rules_agrees_with_their_exact_value():
    table = solved("kniffel")
    rule_list = heuristic(table.rules)
    exact = evaluate(table, rule_list)
    games = play(table.rules, rule_list, 20_000, seed=3)
    se = games.scores.std(ddof=1) / np.sqrt(len(games.scores))
    assert abs(games.scores.mean() - exact) < 4 * se
    assert 200 < exact < table.expected_score - 10
    again = play(table.rules, rule_list, 20_000, seed=3, threads=1)
    np.testing.assert_array_equal(again.scores, games.scores)


def test_box_rules_in_order():
    rules = solved("kniffel").rules
    rule_list = RuleList("t", (), (BoxRule("sixes", 18), BoxRule(None, 10), BoxRule("ones", 0)))
    assert decide_box(rule_list, rules, {"ones": 0, "sixes": 12, "chance": 26}) == "chance"
    assert decide_box(rule_list, rules, {"ones": 0, "sixes": 18, "chance": 26}) == "sixes"
    assert decide_box(rule_list, rules, {"ones": 0, "twos": 4, "chance": 9}) == "ones"
    assert decide_box(RuleList("t"), rules, {"twos": 4, "chance": 9}) == "twos"
    upper = RuleList("t", (), (BoxRule("upper", 3),))
    assert decide_box(upper, rules, {"twos": 6, "fives": 15, "chance": 21}) == "fives"
    assert decide_box(upper, rules, {"twos": 6, "fives": 10, "chance": 21}) == "twos"
    assert decide_box(upper, rules, {"twos": 4, "fives": 10, "chance": 21}) == "twos"  # fallback


def test_keep_patterns():
    rules = solved("kniffel").rules
    heur = heuristic(rules)
    assert decide_keep(heur, rules, set(), (1, 2, 3, 4, 6)) == (1, 2, 3, 4)
    assert decide_keep(heur, rules, {"small_straight", "large_straight"}, (1, 2, 3, 4, 6)) == (6,)
    assert decide_keep(heur, rules, set(), (2, 2, 5, 5, 6)) == (2, 2, 5, 5)
    assert decide_keep(heur, rules, set(), (3, 3, 3, 3, 3)) == (3, 3, 3, 3, 3)
    assert decide_keep(heur, rules, set(), (1, 2, 2, 5, 6)) == (2, 2)


def test_box_pars_and_the_par_rule():
    """A box's par is its mean points in a turn played for it alone: for an upper box, five
    dice with three rolls each show the face with chance 1 - (5/6)^3; for the Kniffel, the
    published 4.6029 % of making five alike in three rolls."""
    rules = solved("kniffel").rules
    par = dict(zip(rules.boxes, box_pars(rules)))
    for face, box in enumerate(UPPER, 1):
        assert par[box] == pytest.approx(5 * face * (1 - (5 / 6) ** 3), abs=1e-12)
    assert par["kniffel"] == pytest.approx(50 * 0.046029, abs=50 * 5e-7)
    by_par = RuleList("t", (), (BoxRule("par", 0),))
    # 1 1 1 4 5: ones 3 (par 2.1) beats chance 12 (par 23.3) and three of a kind 12
    assert decide_box(by_par, rules, {"ones": 3, "three_kind": 12, "chance": 12}) == "ones"
    # a roll that fits nothing goes where it falls least short of par: the Kniffel (0 - 2.3)
    assert decide_box(by_par, rules, {"twos": 0, "kniffel": 0, "chance": 14}) == "kniffel"
    assert decide_box(by_par, rules, {"ones": 0, "kniffel": 0, "chance": 14}) == "ones"
    # on the bonus course an upper box's par is three of its face: two sixes (12) are 0.6 below
    # the one-box par of the Sixes (12.6) but 6 below the course (18), where 20 in the Chance
    # is 3.3 below its par
    by_course = RuleList("t", (), (BoxRule("course", 0),))
    assert decide_box(by_par, rules, {"sixes": 12, "chance": 20}) == "sixes"
    assert decide_box(by_course, rules, {"sixes": 12, "chance": 20}) == "chance"
    assert decide_box(by_course, rules, {"sixes": 18, "chance": 20}) == "sixes"


def test_the_aim_rule_by_hand():
    """aim: the open box whose one-box turn from this roll is furthest ahead of its par, and
    that turn's keep.  A chance turn holds a die worth more than a fresh one: 4 or more with one
    roll to come (a die's mean 3.5), 5 or more with two (E max(die, 3.5) = 4.25)."""
    rules = solved("kniffel").rules
    aim = RuleList("t", (KeepRule("aim"),))
    only = lambda *boxes: set(rules.boxes) - set(boxes)  # noqa: E731 (the filled boxes)
    assert decide_keep(aim, rules, only("chance"), (1, 4, 5, 6, 6), rolls_left=2) == (5, 6, 6)
    assert decide_keep(aim, rules, only("chance"), (1, 4, 5, 6, 6), rolls_left=1) == (4, 5, 6, 6)
    # three sixes: Sixes 18 + 2 dice x 6 x (1 - (5/6)^2) = 21.7, 9.0 above its par of 12.6;
    # Chance 18 + 2 x 4.25 = 26.5, 3.2 above its par of 23.3: aim at the Sixes
    assert decide_keep(aim, rules, only("sixes", "chance"), (1, 2, 6, 6, 6),
                       rolls_left=2) == (6, 6, 6)
    assert decide_keep(aim, rules, only("chance"), (1, 2, 6, 6, 6), rolls_left=2) == (6, 6, 6)
    assert decide_keep(aim, rules, only("ones", "chance"), (1, 1, 1, 2, 3),
                       rolls_left=2) == (1, 1, 1)
    assert decide_keep(aim, rules, only("ones", "chance"), (1, 1, 1, 2, 3), rolls_left=0) == ()
    assert compile_rules(aim, rules).keep_index[0, 0, 0] == -2  # the kernels' mark


def test_keep_patterns_that_watch_the_card():
    """kind_open looks only at faces whose upper box is open; rolls_left picks the roll."""
    rules = solved("kniffel").rules
    open_pairs = RuleList("t", (KeepRule("kind_open", 2),))
    assert decide_keep(open_pairs, rules, set(), (2, 2, 5, 5, 6)) == (5, 5)
    assert decide_keep(open_pairs, rules, {"fives"}, (2, 2, 5, 5, 6)) == (2, 2)
    assert decide_keep(open_pairs, rules, {"twos", "fives"}, (2, 2, 5, 5, 6)) == ()
    assert decide_keep(open_pairs, rules, {"sixes"}, (1, 3, 4, 5, 6)) == ()  # no pair
    late = RuleList("t", (KeepRule("high", 5, rolls_left=1), KeepRule("run4", 3)))
    assert decide_keep(late, rules, set(), (1, 2, 3, 5, 6), rolls_left=1) == (5, 6)
    assert decide_keep(late, rules, set(), (1, 2, 3, 5, 6), rolls_left=2) == (2, 3, 5)
    # the kernels' arrays: one keep per mask of open upper faces for kind_open
    compiled = compile_rules(open_pairs, rules)
    roll = dice.KEEP_INDEX[(2, 2, 5, 5, 6)]
    assert dice.KEEPS[compiled.keep_index[0, 0b111111, roll]] == (5, 5)
    assert dice.KEEPS[compiled.keep_index[0, 0b101111, roll]] == (2, 2)
    assert compiled.keep_index[0, 0b101101, roll] == -1


def test_cli_simulate_heuristic(capsys, table_dir):
    solved("kniffel-basic").save(table_dir)
    code, out, _ = run(capsys, "simulate", "--rules", "kniffel-basic", "--games", "2000",
                       "--strategy", "heuristic", "--compare", "greedy", "--json")
    assert code == 0
    import json
    result = json.loads(out)
    assert result["strategies"]["heuristic"]["mean"] > result["strategies"]["greedy"]["mean"] + 20
    code, out, err = run(capsys, "simulate", "--rules", "knobeln", "--strategy", "heuristic")
    assert code == 2 and out == "" and err.startswith("kniffel: error:")


def test_a_stored_list_on_a_sub_game_is_its_plain_python_value():
    """The stored kniffel list, played on a card with three boxes open, by the kernels and by
    the plain recursion above: the conditions it uses read the same."""
    from solver.strategy.rule_prices import printed_rule_list, stored_prices
    table = solved("kniffel")
    rule_list = printed_rule_list(table.rules)
    assert stored_prices(table.rules, rule_list) is not None
    card = SUB_GAMES["kniffel"][1]
    values = policy_values(table, rule_list, within=_filled_mask(table.rules, card))
    state = position_state(Position(card), table.rules)
    expected = _reference_policy_value("kniffel", rule_list, card)
    assert values[state.filled, state.aux, state.upper] == pytest.approx(expected, abs=1e-9)
