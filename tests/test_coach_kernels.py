"""The compiled win coach of the tournaments (stats/coach_kernels.py) plays what the coach's own
approximation advises (advise_win(force="approximate")): every option's value the same to 1e-12,
and whole turns with the same dice end with the same cards."""
import numpy as np
import pytest

import solver
from solver import dice
from solver.advice.goal import Goal
from solver.advice.win import win_utility
from solver.advice.win_approx import utility_of_score
from solver.advice.win_coach import advise_win, opponent_distributions
from solver.engine.rolls import complete_roll
from solver.engine.states import Position, State, card_total, position_state
from solver.rules.bounds import score_bound
from solver.stats import coach_kernels as ck
from solver.stats import opponents as opp
from solver.stats.simulate import sub_keep_table
from solver.stats.tournament import Players, coach_turns

from helpers import late, random_card, target_table


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
        goal = Goal("win", ties="share", opponents=tuple({"state": o} for o in others))
        for left in (2, 1, 0):
            roll = int(rng.integers(dice.N_ROLLS))
            advice = advise_win(position, table, goal, list(dice.KEEPS[roll]), left, 1.0, target,
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
                assert e + state.card_total == pytest.approx(option["expected_final_score"], abs=1e-9)
            best = advice.options[0]
            if left == 0:
                assert fin_w[roll] == pytest.approx(best["probability"], abs=1e-12)
            else:
                k = ck.best_keep.py_func(roll, left, sub_keep_table(), stage_w, stage_e)
                assert stage_w[left, k] == pytest.approx(best["probability"], abs=1e-12)


def _python_turn(table, target, store, position, others, rng_state):
    """One turn of the coach through advise_win, with the kernel's dice (complete_roll from
    `rng_state`): (the Position after, the generator state after)."""
    rules = table.rules
    moves = dice.kernel_arrays()
    goal = Goal("win", ties="share", opponents=tuple({"state": o} for o in others))
    roll, rng_state = complete_roll(dice.EMPTY_KEEP, np.uint64(rng_state), moves.add_die,
                                    moves.keep_size)
    left = rules.rolls_per_turn - 1
    while True:
        best = advise_win(position, table, goal, list(dice.KEEPS[roll]), left, 1.0, target, store,
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

    def players():
        p = Players(rules, 2, games, seed=5)
        for name, value in (("filled", first.filled), ("aux", first.aux), ("upper", first.upper),
                            ("upper_sum", first.upper_total), ("total", first.card_total)):
            getattr(p, name)[:] = value
        return p

    compiled, replayed = players(), players()
    coach = [start] * games
    for _ in range(first.n_open):
        compiled.turn(table, 0)
        replayed.turn(table, 0)
        before = compiled.filled[seat].copy()
        coach_turns(compiled, seat, table, target, store, threads=2)
        assert all(bin(int(a ^ b)).count("1") == 1 for a, b in zip(compiled.filled[seat], before))
        for g in range(games):
            coach[g], replayed.rng[seat, g] = _python_turn(
                table, target, store, coach[g], [replayed.state(rules, 0, g)],
                replayed.rng[seat, g])
    assert [card_total(p.card, p.kniffel_bonuses, rules) for p in coach] == compiled.total[seat].tolist()
    assert replayed.rng[seat].tolist() == compiled.rng[seat].tolist()  # the same dice thrown
