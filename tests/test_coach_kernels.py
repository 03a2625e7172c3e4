"""The compiled win coach of the tournaments (stats/coach_kernels.py) plays what the coach's own
approximation advises (win_advice(force="approximate")): every option's value the same to 1e-12,
and whole turns with the same dice end with the same cards."""
import numpy as np
import pytest
from helpers import late, random_card, target_table

import solver
from solver import dice
from solver.advice.goal import WinGoal
from solver.advice.win.approximation import utility_of_score
from solver.advice.win.coach import opponent_distributions, win_advice
from solver.advice.win.sub_game import win_utility
from solver.engine.seeded_dice import complete_roll
from solver.engine.states import Position, State, card_total, position_state
from solver.rules.bounds import score_bound
from solver.stats import coach_kernels as ck
from solver.stats import opponents as opp
from solver.stats.simulate import sub_keep_table
from solver.stats.tournament import Players, RiskDial, coach_turns


def _store_of(table, states):
    """A StateDistributions holding exactly the turn starts `states` (still open)."""
    values = table.values
    found = {}
    for s in states:
        if s.n_open:
            flat = (s.filled * values.shape[1] + s.aux) * values.shape[2] + s.upper
            found[flat] = opp.points_to_come(table, s)
    keys = np.array(sorted(found), dtype=np.int64)
    low = np.array([found[k][0] for k in keys], dtype=np.int64)
    start = np.concatenate([[0], np.cumsum([len(found[k][1]) for k in keys])]).astype(np.int64)
    probs = np.concatenate([found[k][1] for k in keys] or [np.zeros(0)])
    return opp.StateDistributions(table.rules, keys, low, start, probs, 1, table.expected_score)


def _plan(table, target, state, others, store):
    """The kernel's U and turn plan for the coach at `state` against the states `others`."""
    values = table.values
    flats = np.array([(o.filled * values.shape[1] + o.aux) * values.shape[2] + o.upper
                      for o in others], dtype=np.int64)
    U = np.empty(score_bound(table.rules) + 2)
    M = ck.utility(np.array([o.card_total for o in others], dtype=np.int64), flats,
                   np.array([o.n_open == 0 for o in others]), store.keys, store.low, store.start,
                   store.probs, U)
    fin_w, fin_e = np.empty(dice.N_ROLLS), np.empty(dice.N_ROLLS)
    fin_box = np.empty(dice.N_ROLLS, dtype=np.int64)
    rolls = table.rules.rolls_per_turn
    stage_w, stage_e = np.empty((rolls, dice.N_KEEPS)), np.empty((rolls, dice.N_KEEPS))
    ck.turn_plan(state.filled, state.aux, state.upper, state.card_total, U, M, target.row_of,
                 target.base, target.span, target.offset, target.w, target.expected,
                 table.rules.kernel_arrays(), dice.kernel_arrays(), sub_keep_table(), rolls,
                 fin_w, fin_e, fin_box, stage_w, stage_e)
    return U[:M + 1], fin_w, fin_e, fin_box, stage_w, stage_e


@pytest.mark.parametrize("preset,players", [("kniffel", 2), ("yatzy", 4)])
def test_every_option_as_the_coach_values_it(preset, players):
    table = solver.get_table(preset)
    rules = table.rules
    rng = np.random.default_rng(7)
    for seed in range(3):
        card = late(rules, 4, seed)
        position = Position(card)
        state = position_state(position, rules)
        target = target_table(rules, state.filled)
        others = []
        for i in range(players - 1):
            their, bonuses, _ = random_card(rules, rng, int(rng.integers(1, 5)))
            other = position_state(Position(their, bonuses), rules)
            if i == 1:  # a player who has finished, 10 points later
                other = State((1 << rules.n_boxes) - 1, other.aux, other.upper,
                              other.upper_total, other.card_total + 10, 0)
            others.append(other)
        store = _store_of(table, others)
        U, fin_w, fin_e, fin_box, stage_w, stage_e = _plan(table, target, state, others, store)
        expected_U = utility_of_score(*win_utility(opponent_distributions(
            table, [{"state": o} for o in others], store), "share"))
        np.testing.assert_allclose(U, expected_U, rtol=0, atol=1e-15)
        goal = WinGoal(tuple({"state": o} for o in others), "share")
        for left in (2, 1, 0):
            roll = int(rng.integers(dice.N_ROLLS))
            advice = win_advice(position, table, goal, list(dice.KEEPS[roll]), left, 1.0, target,
                                store, force="approximate", low=False)
            for option in advice.options:
                if option["action"] == "keep":
                    k = dice.KEEP_INDEX[tuple(sorted(option["keep"]))]
                    w, e = stage_w[left, k], stage_e[left, k]
                else:  # a box now: the final roll's value when it is the best box
                    if option["box"] != rules.boxes[fin_box[roll]]:
                        continue
                    w, e = fin_w[roll], fin_e[roll]
                assert w == pytest.approx(option["probability"], abs=1e-12)
                assert e + state.card_total == pytest.approx(option["expected_final_score"],
                                                             abs=1e-9)
            best = advice.options[0]
            if left == 0:
                assert fin_w[roll] == pytest.approx(best["probability"], abs=1e-12)
            else:
                k = ck.best_keep.py_func(roll, left, sub_keep_table(), stage_w, stage_e)
                assert stage_w[left, k] == pytest.approx(best["probability"], abs=1e-12)


def _start_players(rules, first, games, seed=5, n=2):
    """n players in `games` games, every one at the turn start `first` (a State)."""
    p = Players(rules, n, games, seed=seed)
    for name, value in (("filled", first.filled), ("aux", first.aux), ("upper", first.upper),
                        ("upper_sum", first.upper_total), ("total", first.card_total)):
        getattr(p, name)[:] = value
    return p


def _python_turn(table, target, store, position, others, rng_state):
    """One turn of the coach through win_advice, with the kernel's dice (complete_roll from
    `rng_state`): (the Position after, the generator state after)."""
    rules = table.rules
    moves = dice.kernel_arrays()
    goal = WinGoal(tuple({"state": o} for o in others), "share")
    roll, rng_state = complete_roll(dice.EMPTY_KEEP, np.uint64(rng_state), moves.add_die,
                                    moves.keep_size)
    left = rules.rolls_per_turn - 1
    while True:
        best = win_advice(position, table, goal, list(dice.KEEPS[roll]), left, 1.0, target, store,
                          force="approximate", low=False).options[0]
        if best["action"] != "keep":
            break
        keep = dice.KEEP_INDEX[tuple(sorted(best["keep"]))]
        if keep == roll:
            left = 0
            continue
        roll, rng_state = complete_roll(keep, np.uint64(rng_state), moves.add_die, moves.keep_size)
        left -= 1
    card = dict(position.card)
    card[best["box"]] = best["points"]
    paid = best.get("extra_bonus", 0) // rules.extra_bonus if rules.extra_bonus else 0
    return Position(card, position.kniffel_bonuses + paid), rng_state


@pytest.mark.parametrize("preset", ["kniffel", "yatzy"])
def test_whole_turns_with_the_same_dice(preset):
    table = solver.get_table(preset)
    rules = table.rules
    start = Position(late(rules, 3, 4))
    first = position_state(start, rules)
    target = target_table(rules, first.filled)
    store = opp.build(table, min_open=1, start=start)
    games, seat = 12, 1
    compiled, replayed = _start_players(rules, first, games), _start_players(rules, first, games)
    coach = [start] * games
    for turn in range(rules.n_boxes - first.n_open, rules.n_boxes):
        compiled.turn(table, 0)
        replayed.turn(table, 0)
        before = compiled.filled[seat].copy()
        coach_turns(compiled, seat, turn, table, target, store, threads=2)
        assert all(bin(int(a ^ b)).count("1") == 1 for a, b in zip(compiled.filled[seat], before))
        for g in range(games):
            coach[g], replayed.rng[seat, g] = _python_turn(
                table, target, store, coach[g], [replayed.state(rules, 0, g)],
                replayed.rng[seat, g])
    assert ([card_total(p.card, p.kniffel_bonuses, rules) for p in coach]
            == compiled.total[seat].tolist())
    assert replayed.rng[seat].tolist() == compiled.rng[seat].tolist()  # the same dice thrown


@pytest.mark.parametrize("preset", ["kniffel", "yatzy"])
def test_risk_dial_at_zero_plays_for_points(preset):
    # candidate (c) with its dial held at theta = 0 is the expected-score strategy: the same
    # dice give the same games as the simulation's kernel in that seat
    table = solver.get_table(preset)
    rules = table.rules
    start = Position(late(rules, 5, 2))
    first = position_state(start, rules)
    risk = RiskDial(table, within=first.filled, low=0.0, high=0.0)
    coach, points = _start_players(rules, first, 400), _start_players(rules, first, 400)
    for turn in range(rules.n_boxes - first.n_open, rules.n_boxes):
        for p in (coach, points):
            p.turn(table, 0)
        coach_turns(coach, 1, turn, table, risk=risk, threads=2)
        points.turn(table, 1)
    assert coach.total.tolist() == points.total.tolist()


@pytest.mark.parametrize("theta", [-0.03, 0.05])
def test_risk_plan_starts_at_the_certainty_equivalent(theta):
    # the turn risk_plan plays (its box and keep values) is the one the backward pass of the
    # certainty equivalent solved: the turn's start value is the table's
    table = solver.get_table("kniffel")
    rules = table.rules
    first = position_state(Position(late(rules, 4, 3)), rules)
    risk = RiskDial(table, within=first.filled)
    k = RiskDial.THETAS.index(theta)
    fin_w, fin_e = np.empty(dice.N_ROLLS), np.empty(dice.N_ROLLS)
    fin_box = np.empty(dice.N_ROLLS, dtype=np.int64)
    stage_w, stage_e = np.empty((3, dice.N_KEEPS)), np.empty((3, dice.N_KEEPS))
    top = ck.risk_plan(first.filled, first.aux, first.upper, risk.ce[k], theta,
                       rules.kernel_arrays(), dice.kernel_arrays(), sub_keep_table(), 3, fin_w,
                       fin_e, fin_box, stage_w, stage_e)
    sub = sub_keep_table()
    first_roll = [max(stage_e[2, j] for j in sub[r] if j >= 0) for r in range(dice.N_ROLLS)]
    start = top + np.log(abs(np.dot(dice.ROLL_PROB, first_roll))) / theta
    assert start == pytest.approx(risk.ce[k][first.filled, first.aux, first.upper], abs=1e-9)


def test_risk_dial_by_hand():
    # theta = (E_other - E_mine) / (V_mine + V_other), V = 2 (CE_0.01 - E) / 0.01, the
    # nearest of the grid, clamped; 0 before the third turn
    thetas = np.array(RiskDial.THETAS)
    ce = np.zeros((len(thetas), 1, 1, 3))
    zero, hundredth = RiskDial.THETAS.index(0.0), RiskDial.THETAS.index(0.01)
    ce[zero, 0, 0] = [100.0, 90.0, 0.0]  # E of the points to come: me, the other, a spare
    ce[hundredth, 0, 0] = [105.0, 93.0, 0.0]  # V: 1000 and 600
    done = np.array([False])

    def dial(turn, totals, others=(1,), done=done):
        return thetas[ck.risk_dial(turn, 0, np.array(others), done, np.array(totals), ce, thetas,
                                   zero, hundredth, -0.05, 0.07, 2)]

    assert dial(5, [100, 126]) == 0.01  # (216 - 200) / 1600 = 0.01
    assert dial(5, [100, 134]) == 0.015  # 24 / 1600 = 0.015
    assert dial(5, [100, 116]) == 0.005  # 6 / 1600 = 0.00375: the nearest is 0.005
    assert dial(5, [100, 300]) == 0.07  # clamped
    assert dial(5, [200, 100]) == -0.05
    assert dial(1, [100, 300]) == 0.0  # too early
    # a finished other: its total, no variance: 26 / 1000 = 0.026, the nearest 0.03
    assert dial(5, [100, 226], others=(2,), done=np.array([True])) == 0.03
