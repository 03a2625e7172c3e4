"""Kniffel Dice Duel (solo): state numbering, the solver against an independent reference and
hand-worked cases, advice consistent with the table, and seeded simulation of optimal play."""
import math

import duel_reference as reference
import numpy as np
import pytest
from conftest import solved

from solver import dice
from solver.duel.rules import CHIPS_PER_TYPE, TYPES, get_rules
from solver.duel.solo.advice import solo_advice as advise
from solver.duel.solo.solve import simulate
from solver.duel.states import N_STATES, START, Chips, all_states, parse_chips, rank, unrank
from solver.presets import get_rules as preset_rules
from solver.presets import read_rules
from solver.rules import RulesError

# Options under which declining a chip pays even in small end games (a big last-chip bonus).
DECLINE = {"may_decline_chip": True, "last_chip_bonus": 100, "gold_bonus": 0, "silver_bonus": 40}
ONE_ROLL = {"rolls_per_turn": 1, "four_of_a_kind_two_pairs": True}


def position(**given):
    """A reference position: the types named get (plate, aside, mine), the others are all mine."""
    return {name: given.get(name, (0, 0, CHIPS_PER_TYPE)) for name in TYPES}


def chips_of(pos):
    return Chips(*(tuple(pos[name][i] for name in TYPES) for i in range(3)))


# --- states ------------------------------------------------------------------------------------

def _count_states():
    """The states where a type has chips set aside only if no more valuable type has plate
    chips, counted type by type from the most valuable down (independent of the numbering)."""
    counts = {False: 1, True: 1}  # ways for the types below, given "a plate above is not empty"
    for _ in TYPES:
        counts = {above: sum(counts[above or p > 0] for p in range(5) for a in range(5 - p)
                             if a == 0 or not above) for above in (False, True)}
    return counts[False]


def _valid(plate, aside):
    # the plates of the more valuable types
    above = np.cumsum(plate[:, ::-1], axis=1, dtype=np.int8)[:, ::-1] - plate
    return (((aside == 0) | (above == 0)).all(axis=1)
            & (plate + aside <= CHIPS_PER_TYPE).all(axis=1)
            & (np.minimum(plate, aside) >= 0).all(axis=1))


def test_state_numbering_is_dense_and_complete():
    assert N_STATES == _count_states() == 1_171_875
    plate, aside = all_states()
    assert _valid(plate, aside).all()
    codes = (plate * 5 + aside) @ (25 ** np.arange(len(TYPES)))
    assert len(np.unique(codes)) == N_STATES  # all distinct, so every valid state has one index
    assert (plate[START] == CHIPS_PER_TYPE).all() and (aside[START] == 0).all()
    assert int((plate.sum(axis=1) == 0).sum()) == 5 ** 7  # the game is over in 78,125 of them
    rng = np.random.default_rng(8)
    for i in np.concatenate([rng.integers(0, N_STATES, 3000), [0, START, N_STATES - 1]]).tolist():
        assert rank(plate[i].tolist(), aside[i].tolist()) == i
        p, a = [0] * 7, [0] * 7
        unrank(i, p, a)
        assert p == plate[i].tolist() and a == aside[i].tolist()


def test_every_state_is_reachable():
    """Every state but the start has a predecessor one legal move away (a plate chip taken, the
    top plate chip set aside, or two chips taken after a Kniffel).  Moves lower the level
    2 * plate + aside, so by induction from the start every state is reached."""
    plate, aside = all_states()
    mine = CHIPS_PER_TYPE - plate - aside
    found = np.zeros(N_STATES, dtype=bool)
    eye = np.eye(len(TYPES), dtype=np.int8)
    for t in range(len(TYPES)):
        # take a plate chip of type t (every type has rolls that earn it)
        found |= (mine[:, t] > 0) & _valid(plate + eye[t], aside)
        # set aside type t, which must have been the top plate chip before
        before_plate, before_aside = plate + eye[t], aside - eye[t]
        top = (plate[:, t + 1:].sum(axis=1) == 0)
        found |= (aside[:, t] > 0) & top & _valid(before_plate, before_aside)
    found[START] = True
    rest = np.flatnonzero(~found)  # the states only a Kniffel leads to (none, it turns out)
    plate, aside, mine = plate[rest], aside[rest], mine[rest]
    sources = [(t, s) for t in range(len(TYPES)) for s in (0, 1)]
    for i, (t, s) in enumerate(sources):  # a Kniffel: two chips, from the plate or set aside
        for u, r in sources[i:]:
            before_plate = plate + (eye[t] if s == 0 else 0) + (eye[u] if r == 0 else 0)
            before_aside = aside + (eye[t] if s == 1 else 0) + (eye[u] if r == 1 else 0)
            held = mine - eye[t] - eye[u]
            found[rest] |= (held >= 0).all(axis=1) & (before_plate.sum(axis=1) > 0) & \
                _valid(before_plate, before_aside)
    assert found.all(), f"{int((~found).sum())} states without a predecessor"


def test_parse_chips_and_its_errors():
    chips = parse_chips("ls=0/1/3, 40=2/0/2")
    assert chips.plate == (4, 4, 4, 4, 4, 2, 0) and chips.aside == (0,) * 6 + (1,)
    assert chips.mine == (0, 0, 0, 0, 0, 2, 3) and chips.chips_value == 2 * 40 + 3 * 50
    assert parse_chips({"large_straight": [0, 1, 3], "four_kind": {"plate": 2, "aside": 0,
                                                                  "mine": 2}}) == chips
    assert parse_chips(chips.spec()) == chips and parse_chips("") == Chips.from_index(START)
    for bad, message in [("ls=1/1/1", "add up to 4"), ("xx=4/0/0", "unknown chip type"),
                         ("ls=4/0", "three counts"), ("ls", "TYPE=PLATE/ASIDE/MINE"),
                         ("2p=0/1/3", "three_kind has 4 on the plate"),
                         ("ls=0/0/4,50=0/0/4", "given twice"), ("ls=a/0/4", "not a count")]:
        with pytest.raises(ValueError, match=message):
            parse_chips(bad)


def test_rules_options_and_presets():
    rules = read_rules("dice-duel")
    assert rules.best_score == 1000 and rules.key == "dice-duel"
    assert get_rules("dice-duel", may_decline_chip=True).key.startswith("dice-duel-")
    with pytest.raises(RulesError, match="does not apply"):
        get_rules("dice-duel", joker="none")
    with pytest.raises(RulesError, match="Dice Duel option"):
        preset_rules("kniffel", may_decline_chip=True)
    with pytest.raises(RulesError, match="true or false"):
        get_rules("dice-duel", four_of_a_kind_two_pairs=1)
    # which rolls earn which chips: 2 4 6 red, 1 3 5 black

    def names(roll, r=rules):
        return {TYPES[t] for t in range(7) if r.roll_types[dice.KEEP_INDEX[roll]] >> t & 1}

    assert names((1, 3, 3, 5, 5)) == {"two_pairs", "flush"}
    assert names((2, 2, 2, 4, 4)) == {"two_pairs", "three_kind", "full_house", "flush"}
    assert names((1, 2, 3, 4, 5)) == {"small_straight", "large_straight"}
    assert names((3, 3, 3, 3, 6)) == {"three_kind", "four_kind"}
    four_pairs = get_rules("dice-duel", four_of_a_kind_two_pairs=True)
    assert "two_pairs" in names((3, 3, 3, 3, 6), four_pairs)
    assert names((6, 6, 6, 6, 6)) == set()  # five of a kind is the Kniffel, handled apart


# --- the solver against hand-worked cases and the reference ------------------------------------

def test_hand_worked_one_roll_end_games():
    """One roll a turn; the other chips all held, so a game ends after this turn."""
    table = solved(get_rules("dice-duel", **ONE_ROLL))

    def value(**given):
        return table.values[chips_of(position(**given)).index]

    # The last large straight: 240 straights + 6 Kniffels of 7776 rolls win it (1000: every
    # chip, gold, 7 full stacks, last chip); else it is set aside (900).
    assert value(large_straight=(1, 0, 3)) == pytest.approx(900 + 100 * 246 / 7776, abs=1e-9)
    # The last two-pairs chip: 1800 two pairs, 300 full houses, 150 fours of a kind (counted
    # here) and 6 Kniffels win it; else 945.
    assert value(two_pairs=(1, 0, 3)) == pytest.approx(945 + 55 * 2256 / 7776, abs=1e-9)
    # Two pairs on the plate, a large straight set aside: a Kniffel takes both (1000), two pairs
    # takes its chip (920: the large straight stays aside), anything else sets two pairs aside
    # (865).
    expected = (6 * 1000 + 2250 * 920 + (7776 - 2256) * 865) / 7776
    assert value(two_pairs=(1, 0, 3), large_straight=(0, 1, 3)) == pytest.approx(expected, abs=1e-9)
    assert expected == pytest.approx(881.0185185185185, abs=1e-12)


END_GAMES = [
    dict(large_straight=(1, 0, 3)),
    dict(two_pairs=(2, 0, 2)),
    dict(flush=(1, 0, 3), large_straight=(0, 1, 3)),
    dict(three_kind=(1, 1, 2), four_kind=(0, 2, 2)),
    dict(small_straight=(2, 0, 2), large_straight=(0, 4, 0)),
    dict(two_pairs=(1, 0, 3), full_house=(1, 0, 3)),
    dict(two_pairs=(2, 0, 2), full_house=(1, 0, 3)),
]


@pytest.mark.parametrize("options", [{}, DECLINE, ONE_ROLL], ids=["default", "decline", "one-roll"])
@pytest.mark.parametrize("given", END_GAMES,
                         ids=lambda g: ",".join(f"{k}={v}" for k, v in g.items()))
def test_solver_equals_reference_on_end_games(given, options):
    table = solved(get_rules("dice-duel", **options))
    pos = position(**given)
    assert table.values[chips_of(pos).index] == pytest.approx(reference.value(pos, **options),
                                                               abs=1e-9)


@pytest.mark.slow
def test_options_change_the_game():
    base = solved("dice-duel")
    decline = solved(get_rules("dice-duel", **DECLINE))
    no_decline = solved(get_rules("dice-duel", **{**DECLINE, "may_decline_chip": False}))
    pos = chips_of(position(two_pairs=(1, 0, 3), full_house=(1, 0, 3))).index
    assert decline.values[pos] > no_decline.values[pos] + 1  # worth declining with these bonuses
    assert solved(get_rules("dice-duel", **ONE_ROLL)).expected_score < base.expected_score
    assert not np.isnan(base.values).any() and base.states == N_STATES
    assert np.nanmax(base.values) <= 1000 and base.values.min() >= 0
    assert 800 < base.expected_score < 1000


@pytest.mark.slow
def test_values_do_not_depend_on_threads():
    from solver.duel.solo.solve import solve
    one_thread = solve("dice-duel", progress=False, threads=1)
    assert np.array_equal(one_thread.values, solved("dice-duel").values)


# --- advice ------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["", "ls=0/1/3,4k=2/0/2,fh=1/0/3"])
def test_best_choices_average_to_the_table_value(spec):
    """The turn-start value is the mean, over the first roll, of the best choice's value."""
    table = solved("dice-duel")
    chips = parse_chips(spec)
    mean = sum(p * advise(chips, table, roll, 2).expected_final_score
               for roll, p in zip(dice.KEEPS, dice.ROLL_PROB))
    assert mean == pytest.approx(table.values[chips.index], abs=1e-9)
    assert advise(chips, table).expected_final_score == table.values[chips.index]


def test_advice_lists_every_move_best_first():
    table = solved("dice-duel")
    start = advise("", table, (4, 4, 4, 4, 4), 0)
    values = [o["expected_final_score"] for o in start.options]
    assert values == sorted(values, reverse=True)
    assert len(start.options) == 28  # any two of the 7 types: 7 same-type pairs + 21 mixed
    assert all(o["action"] == "take" and len(o["chips"]) == 2 for o in start.options)
    # rolls left: stop (with the best move) and the 31 distinct keeps of 1 2 3 4 6
    advice = advise("", table, (1, 2, 3, 4, 6), 2)
    assert len(advice.options) == 32
    stop = next(o for o in advice.options if o["action"] == "stop")
    assert stop["then"] == {"action": "take",
                            "chips": [{"type": "small_straight", "from": "plate"}],
                            "last_chip_bonus": 0}
    # nothing earned, nothing to take: the top plate chip is set aside
    nothing = advise("ls=0/0/4,4k=1/0/3", table, (1, 2, 2, 5, 6), 0)
    assert [o["action"] for o in nothing.options] == ["no_chip"]
    assert nothing.options[0]["set_aside"] == "four_kind"
    last = advise(",".join(f"{t}=0/0/4" for t in TYPES[1:]) + ",2p=1/0/3", table,
                  (2, 2, 3, 3, 5), 0)
    assert last.options[0]["last_chip_bonus"] == 20
    assert last.options[0]["expected_final_score"] == 1000


def test_advice_errors():
    table = solved("dice-duel")
    over = ",".join(f"{t}=0/0/4" for t in TYPES)
    with pytest.raises(ValueError, match="game is over"):
        advise(over, table, (1, 2, 3, 4, 5), 0)
    assert advise(over, table).expected_final_score == 980  # the last-chip bonus is the move's
    with pytest.raises(ValueError, match="rolls left must be 0-2"):
        advise("", table, (1, 2, 3, 4, 5), 3)


# --- simulation --------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("options, games", [({}, 20_000), (DECLINE, 5_000)],
                         ids=["default", "decline"])
def test_simulated_mean_matches_solved_value(options, games, seed=20261129):
    rules = get_rules("dice-duel", **options)
    table = solved(rules)
    sim = simulate(table, games, seed=seed)
    z = (sim.mean - table.expected_score) / sim.standard_error
    assert abs(z) < 4, (f"seed {seed}: mean {sim.mean:.3f} vs {table.expected_score:.3f} "
                        f"(z = {z:.2f})")
    # every game ended (each turn lowers 2 * plate + aside, 56 at the start) and scored what its
    # chips say, by the reference's own scoring
    assert sim.turns.max() <= 2 * 28 and sim.scores.max() <= rules.best_score
    for g in range(0, games, 97):
        held = {name: (0, CHIPS_PER_TYPE - int(m), int(m)) for name, m in zip(TYPES, sim.mine[g])}
        rules_dict = dict(reference.DEFAULTS, **options)
        expected = (reference.final_score(held, rules_dict)
                    + sim.last_chip[g] * rules.last_chip_bonus)
        assert sim.scores[g] == expected
    assert (sim.scores == rules.best_score).any() and sim.kniffels.sum() > 0


def test_simulation_is_reproducible():
    table = solved("dice-duel")
    a, b = simulate(table, 300, seed=3), simulate(table, 300, seed=3)
    c = simulate(table, 300, seed=4)
    assert (a.scores == b.scores).all() and (a.scores != c.scores).any()
    assert math.isfinite(a.mean)
