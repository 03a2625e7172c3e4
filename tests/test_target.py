"""The target table (P(final >= T) with optimal play for T): against the plain-Python
reference on sub-games, a lone chance box worked by hand, its shape, and the store."""
import json
import zlib
from fractions import Fraction

import numpy as np
import pytest
import target_reference
from conftest import solved
from helpers import random_card, target_table

from solver import dice
from solver.advice import steps
from solver.advice.chance_view import ChanceView
from solver.engine.states import Position, position_state
from solver.engine.store import TableError
from solver.engine.target.solve import SubGame, solve_target
from solver.engine.target.table import load_target_table
from solver.presets import get_rules


def test_lone_chance_box_by_hand():
    rules = get_rules("kniffel-basic")
    card = {b: 0 for b in rules.boxes if b != "chance"}
    state = position_state(Position(card), rules)
    table = target_table(rules, state.filled)
    w = lambda d: table.lookup(state, d)[0]  # noqa: E731
    assert w(0) == 1.0 and w(5) == pytest.approx(1.0, abs=1e-14)  # five dice show at least 5
    # 6 fails only when all three rolls show five ones (reroll everything after 11111)
    assert w(6) == pytest.approx(float(1 - Fraction(1, 6**5) ** 3), abs=1e-13)
    # 30 needs five sixes: keep every six, each die has three tries
    assert w(30) == pytest.approx(float(Fraction(91, 216) ** 5), abs=1e-13)
    assert w(31) == 0.0
    # ... and the points under that play: a die ends a six (91/216) or a third throw of 1-5
    assert (table.lookup(state, 30)[1]
            == pytest.approx(float(5 * (Fraction(91, 216) * 6 + Fraction(125, 216) * 3)),
                             abs=1e-12))
    # a safe target plays for points: the expected-score value
    assert (table.lookup(state, 3)[1]
            == pytest.approx(float(table.expected[state.filled, state.aux, state.upper]),
                             abs=1e-12))


RULE_SETS = [("kniffel", {}), ("kniffel-basic", {}), ("yahtzee", {}), ("kitkniff", {}),
             ("yatzy", {}), ("knobeln", {}), ("kniffel-championship", {}),
             ("knobeln", {"jokers_per_turn": 2})]


@pytest.mark.parametrize("name, options", RULE_SETS, ids=[
    name + "".join(f"-{k}={v}" for k, v in o.items()) for name, o in RULE_SETS])
@pytest.mark.slow
def test_target_matches_reference_on_sub_games(name, options):
    rules = get_rules(name, **options)
    rng = np.random.default_rng(zlib.crc32(repr((name, "target", options)).encode()))
    kniffel = rules.boxes[rules.kniffel_box]
    for n_open in (1, 2, 3, 4):
        for trial in range(3 if n_open < 3 else (2 if n_open == 3 else 1)):
            must = ()
            if trial % 3 == 1:
                must = (rules.boxes[int(rng.integers(6))],)
            if trial % 3 == 2 and n_open >= 2:
                must = (rules.boxes[int(rng.integers(6))], kniffel)
            card, bonuses, jokers = random_card(rules, rng, n_open, must)
            state = position_state(Position(card, bonuses, jokers), rules)
            table = target_table(rules, state.filled)
            upper = sum(card.get(b, 0) for b in rules.boxes[:6])
            rows = table.row_of[state.filled]
            # the longest range in the set, and past it
            D = int(table.span[rows[rows >= 0]].max()) + 5
            w, e = target_reference.target_pair(
                rules.as_dict(), [b for b in rules.boxes if b not in card], upper, D,
                kniffel_box="open" if kniffel not in card else str(card[kniffel]),
                bonuses_paid=bonuses, jokers_left=jokers)
            got = np.array([table.lookup(state, d) for d in range(1, D + 1)])
            w_ref = np.where(w < 1e-12, 0.0, w)  # the table stores chances below 1e-12 as 0
            np.testing.assert_allclose(got[:, 0], w_ref, atol=1e-9, rtol=0, err_msg=str(card))
            np.testing.assert_allclose(got[:, 1], e, atol=1e-7, rtol=0, err_msg=str(card))


YATZY_TIE_CARD = {"ones": 2, "twos": 8, "threes": 15, "fours": 8, "sixes": 12, "one_pair": 2,
                  "two_pairs": 0, "three_kind": 12, "small_straight": 15, "large_straight": 20,
                  "full_house": 11, "yatzy": 50}


@pytest.mark.parametrize("name, card", [
    # 16 to go: after 1-1-1-1-5 with one roll left, keep 5 ties with stopping (W within the
    # grain of 1) and wins on points, while keeping 1-1-1-1 is two grains worse.  A kernel that
    # let "keep all five and choose at the next roll" compete at the first roll chose 1-1-1-1
    # through that back door (W 1e-12 lower, E 4e-4 higher).
    ("yatzy", YATZY_TIE_CARD),
    ("kniffel", {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "sixes": 18, "three_kind": 20,
                 "four_kind": 0, "full_house": 25, "small_straight": 30, "kniffel": 50}),
])
def test_a_state_is_worth_its_turn_from_the_next_states(name, card):
    """W and E of a state in the table equal its turn evaluated by the advice code (every
    roll, keep and box, a roll kept whole ends the turn) from the next states' table values."""
    rules = get_rules(name)
    state = position_state(Position(card), rules)
    table = target_table(rules, state.filled)
    for d in range(1, int(table.span[table.row_of[state.filled, state.aux, state.upper]]) + 1):
        view = ChanceView(table, d)
        kw, ke = steps.keep_values(view, *steps.final_values(state, view), rules.rolls_per_turn)
        w, e = table.lookup(state, d)
        assert w == pytest.approx(kw[dice.EMPTY_KEEP], abs=1e-12), d
        assert e == pytest.approx(ke[dice.EMPTY_KEEP], abs=1e-10), d


@pytest.mark.parametrize("name, options, card", [
    ("kniffel", {}, {"ones": 2, "threes": 9, "fives": 15, "three_kind": 22, "four_kind": 0,
                     "small_straight": 30, "kniffel": 50, "chance": 21}),
    ("knobeln", {"jokers_per_turn": 2}, {"twos": 4, "fours": 8, "sixes": 24, "full_house": 25,
                                         "small_straight": 30, "large_straight": 0,
                                         "kniffel": 50, "chance": 19}),
    ("yatzy", {}, {"ones": 3, "twos": 6, "fours": 16, "one_pair": 8, "two_pairs": 14,
                   "three_kind": 9, "four_kind": 0, "large_straight": 20, "full_house": 0,
                   "chance": 24, "yatzy": 50}),
])
@pytest.mark.slow
def test_a_sub_game_from_one_upper_total_is_the_same_on_its_states(name, options, card):
    """Solving only the turn starts that can follow a position (its upper total and what the
    open upper boxes can add) leaves out states, and gives the ones it keeps the same values,
    to the bit."""
    rules = get_rules(name, **options)
    state = position_state(Position(card), rules)
    full = target_table(rules, state.filled)
    part = solve_target(rules, progress=False, within=SubGame(state.filled, upper=state.upper),
                        expected=solved(rules).values)
    kept = np.argwhere(part.row_of >= 0)
    kept = kept[(kept[:, 0] & state.filled) == state.filled]
    assert 0 < part.entries < full.entries
    for f, aux, upper in kept.tolist():
        a, b = part.row_of[f, aux, upper], full.row_of[f, aux, upper]
        assert part.span[a] == full.span[b]
        n = int(part.span[a])
        assert np.array_equal(part.w[part.offset[a]:part.offset[a] + n],
                              full.w[full.offset[b]:full.offset[b] + n])
        assert np.array_equal(part.e[part.offset[a]:part.offset[a] + n],
                              full.e[full.offset[b]:full.offset[b] + n])
    assert part.row_of[state.filled, state.aux, state.upper] >= 0  # the position itself

    def states(t):
        return len(np.unique(t.row_of[state.filled][t.row_of[state.filled] >= 0]))

    assert states(part) < states(full)  # ... alone in its set (but for its aux values)


@pytest.mark.parametrize("name, options, card", [
    ("kniffel", {}, {"twos": 6, "three_kind": 20, "full_house": 25, "small_straight": 30,
                     "kniffel": 50, "chance": 21}),  # extra Kniffels still to come
    ("knobeln", {"jokers_per_turn": 2}, {"fours": 8, "full_house": 25, "small_straight": 30,
                                         "large_straight": 0, "kniffel": 50, "chance": 19}),
    ("yatzy", {}, {"twos": 6, "one_pair": 8, "two_pairs": 14, "three_kind": 9, "four_kind": 0,
                   "large_straight": 20, "full_house": 0, "chance": 24, "yatzy": 50}),
])
@pytest.mark.slow
def test_a_sub_game_solved_for_one_position_reads_the_same_along_any_game_from_it(name, options,
                                                                                  card):
    """Solved for one position (most points short), each state holds only the d that the
    points scored since can leave.  Along random games from the position (any roll in any box
    it may go in), every turn's box values and final-roll values read from that table are the
    whole sub-game's, to the bit."""
    from dataclasses import replace

    from solver.advice.win.sub_game import extra_bonuses_to_come
    from solver.rules import scoring
    rules = get_rules(name, **options)
    position = Position(card)
    state = position_state(position, rules)
    most = int(round(solved(rules).values[state.filled, state.aux, state.upper]))
    whole = target_table(rules, state.filled)
    part = solve_target(rules, progress=False, expected=solved(rules).values,
                        within=SubGame(state.filled, state.upper, most,
                                       extra_bonuses_to_come(rules, position)))
    assert 0 < part.entries < whole.entries // 2
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    params, banded = rules.params(), 0
    for _ in range(60):
        at, need = state, most
        while at.n_open:
            g = part.row_of[at.filled, at.aux, at.upper]
            banded += int(part.base[g] > 0)
            assert part.lookup(at, need) == whole.lookup(at, need)
            for mine, theirs in zip(steps.final_values(at, ChanceView(part, need)),
                                    steps.final_values(at, ChanceView(whole, need))):
                assert np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1])
            (w, _), points, bonus = steps.box_values(at, ChanceView(part, need))
            r = int(rng.integers(dice.N_ROLLS))
            b = int(rng.choice(np.flatnonzero(w[:, r] >= 0)))
            paid = 0
            if dice.KNIFFEL_FACE[r]:
                paid = scoring.kniffel_roll(b, dice.KNIFFEL_FACE[r], r, at.filled, at.aux,
                                            at.n_open, params, rules.plain_score, rules.joker_score,
                                            rules.box_face)[2]
            pts = int(points[b, r])
            need -= pts + int(bonus[b, r])
            upper = (min(rules.upper_bonus_threshold, at.upper + pts) if rules.box_face[b]
                     else at.upper)
            at = replace(at, filled=at.filled | (1 << b), upper=upper, n_open=at.n_open - 1,
                         aux=scoring.next_aux(at.aux, b, pts, paid, at.n_open - 1, params))
    assert banded > 0  # the bands cut the range of states on these games


def test_table_shape_and_store(tmp_path):
    rules = get_rules("kniffel")
    card = {b: 0 for b in rules.boxes[:-4]} | {"twos": 6, "full_house": 25}
    state = position_state(Position(card), rules)
    table = target_table(rules, state.filled)
    needs = np.arange(-5, 400)
    w = table.chances(state, needs)
    assert np.all(w[needs <= 0] == 1.0)
    assert np.all(np.diff(w) <= 1e-8)  # never increases with the target (up to the tie grain)
    assert w[-1] == 0.0
    table.save(tmp_path)
    with pytest.raises(TableError, match="sub-game"):
        load_target_table(rules, tmp_path)
    again = load_target_table(rules, tmp_path, sub_game=True)
    # stored as float32: each chance within half a float32 step of 1 (6e-8) of the solve's
    assert np.abs(again.chances(state, needs) - w).max() <= 2.0 ** -24
    assert (np.abs(np.asarray(again.e, dtype=np.float64) - table.e).max()
            <= 2.0 ** -24 * np.abs(table.e).max())
    assert np.array_equal(again.offset, table.offset) and np.array_equal(again.span, table.span)
    assert np.array_equal(again.row_of, table.row_of)
    reached = np.isfinite(table.expected)  # V(s) in float32 too: within half a step of its own size
    assert np.array_equal(np.isfinite(again.expected), reached)
    assert np.all(np.abs(np.asarray(again.expected)[reached] - table.expected[reached])
                  <= 2.0 ** -24 * np.abs(table.expected[reached]))
    stamp = json.loads((tmp_path / f"{rules.key}.target.verified").read_text())
    data = tmp_path / f"{rules.key}.target.bin"
    assert stamp["size"] == data.stat().st_size  # the checksum is remembered for this file
    with pytest.raises(TableError):
        load_target_table(get_rules("yahtzee"), tmp_path)
    blob = bytearray(data.read_bytes())
    blob[-100] ^= 1
    data.write_bytes(bytes(blob))  # a new modification time: the stamp no longer names it
    with pytest.raises(TableError, match="damaged"):
        load_target_table(rules, tmp_path, sub_game=True)


@pytest.mark.parametrize("name", ["kniffel", "knobeln"])
def test_advice_agrees_with_the_table(name):
    # the best option of each first roll, weighted by the roll's chance, is the turn start's value
    from solver import advise, dice
    from solver.advice.goal import TargetGoal
    rules = get_rules(name)
    card = {b: 0 for b in rules.boxes[:-3]} | {"twos": 6}
    position = Position(card, 0, 1 if rules.jokers else None)
    state = position_state(position, rules)
    table = target_table(rules, state.filled)
    for target in (state.card_total + 20, state.card_total + 45):
        start = advise(position, table, objective=TargetGoal(target))
        w, e = table.lookup(state, target - state.card_total)
        assert start.probability == w and start.expected_final_score == state.card_total + e
        total_w = total_e = 0.0
        for r, roll in enumerate(dice.KEEPS[:dice.N_ROLLS]):
            advice = advise(position, table, dice=roll, objective=f"target:{target}")
            best = advice.options[0]
            assert best["probability"] == advice.probability
            probs = [o["probability"] for o in advice.options]
            assert max(probs) - best["probability"] < 1e-9  # ranked by the chance first
            total_w += dice.ROLL_PROB[r] * best["probability"]
            total_e += dice.ROLL_PROB[r] * best["expected_final_score"]
        assert total_w == pytest.approx(w, abs=1e-12)
        assert total_e == pytest.approx(state.card_total + e, abs=1e-9)


@pytest.mark.parametrize("name", ["kniffel", "yahtzee", "yatzy"])
def test_best_chance_is_at_least_expected_play(name):
    from solver.stats.chances import chance_curve
    rules = get_rules(name)
    card = {b: 0 for b in rules.boxes[:-4]} | {"sixes": 18}
    position = Position(card)
    state = position_state(position, rules)
    curve = chance_curve(position, solved(rules), target_table(rules, state.filled), step=1)
    rows = curve["rows"]
    assert rows[0]["target"] == state.card_total and rows[0]["best_probability"] == 1.0
    best = np.array([r["best_probability"] for r in rows])
    plain = np.array([r["expected_play_probability"] for r in rows])
    assert np.all(np.diff(best) <= 1e-8)  # up to the tie grain (engine/target/columns.py)
    assert np.all(best >= plain - 1e-12)  # for every T
    assert np.any(best > plain + 0.01)  # and playing for T gains somewhere


def test_a_capped_sub_game_is_the_same_below_its_cap():
    """SubGame(most=D) solves d <= D only (the win objective's sub-game): there every value
    is the uncapped solve's, to the bit, and past D nothing is kept."""
    rules = get_rules("kniffel")
    card = {b: 0 for b in rules.boxes[:-4]} | {"twos": 6, "full_house": 25}
    state = position_state(Position(card), rules)
    full = target_table(rules, state.filled)
    capped = solve_target(rules, progress=False, within=SubGame(state.filled, most=40),
                          expected=solved(rules).values)
    needs = np.arange(-3, 41)
    assert np.array_equal(capped.chances(state, needs), full.chances(state, needs))
    assert ([capped.lookup(state, d)[1] for d in range(1, 41)]
            == [full.lookup(state, d)[1] for d in range(1, 41)])
    assert capped.span.max() <= 40 < full.span.max()
    assert capped.entries < full.entries


@pytest.mark.parametrize("given", [{"upper": 3, "most": 40}, {"extras": 1},
                                   {"upper": 3, "extras": 1}, {"most": 40, "extras": 1}])
def test_incomplete_sub_game_is_refused(given):
    """One position's bands need upper, most and extras: a sub-game with some of them only is
    refused, never solved without its bands."""
    with pytest.raises(ValueError, match="incomplete sub-game"):
        SubGame(0b11, **given)
    assert SubGame(0b11, upper=3).root is None and SubGame(0b11, most=40).root is None
    assert SubGame(0b11, 3, 40, 1).root == (0b11, 3, 1)


def test_levels_kept_in_float32_are_the_float64_solve_rounded():
    """A level no other level reads is kept in float32 (the default for a whole table, which is
    saved so): every W and E is then the float64 solve's, rounded once, not an error carried up
    the levels; the table says by how much the rounding moved them."""
    rules = get_rules("yahtzee")
    card = {b: 0 for b in rules.boxes[:rules.n_boxes - 4]}
    filled = position_state(Position(card), rules).filled
    exact = solve_target(rules, progress=False, within=filled, expected=solved(rules).values)
    kept = solve_target(rules, progress=False, within=filled, expected=solved(rules).values,
                        kept=np.float32)
    assert exact.w.dtype == np.float64 and kept.w.dtype == np.float32
    assert np.array_equal(kept.offset, exact.offset) and np.array_equal(kept.span, exact.span)
    assert np.array_equal(kept.w, exact.w.astype(np.float32))
    assert np.array_equal(kept.e, exact.e.astype(np.float32))
    assert kept.rounding["w"] == np.abs(kept.w.astype(np.float64) - exact.w).max() <= 2.0 ** -24
    assert kept.rounding["e"] == np.abs(kept.e.astype(np.float64) - exact.e).max() > 0
    assert kept.rounding["e"] <= 2.0 ** -24 * np.abs(exact.e).max()
