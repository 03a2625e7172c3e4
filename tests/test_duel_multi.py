"""The Dice Duel for 2 or more players: the exact solver against a plain-Python reference on tiny
endgames, hand-worked positions, the kernels' rules against multi_game's, rollouts against exact
values, and the contract (batch lines, CLI, web) with hostile input."""
import inspect
import json
import random
import sys

import numpy as np
import orjson
import pytest
from conftest import run
from duel_multi_reference import Reference
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.ask.batch import answer_lines
from solver.ask.tables import Tables
from solver.duel.multiplayer import advice as ma
from solver.duel.multiplayer import game as mg
from solver.duel.multiplayer import kernels as mk
from solver.duel.multiplayer.exact import solve_exact
from solver.duel.multiplayer.rollout import game_arrays
from solver.duel.rules import get_rules

EMPTY = (0,) * 7


def table(plate, seats, aside=EMPTY, to_move=0, taken=False):
    return mg.Table(tuple(plate), tuple(aside), tuple(map(tuple, seats)), to_move, taken)


def ref_rules(rules):
    return {"last_chip_bonus": rules.last_chip_bonus, "ties": rules.ties,
            "set_aside": rules.set_aside, "may_decline_chip": rules.may_decline_chip}


def endgames():
    """Tiny endgames (1 or 2 chips in play) with close scores, 2 and 3 seats."""
    cases = []
    # 2 players: one large straight left, seat 1 leads by 30 (the chip + last bonus decide)
    cases.append(table((0, 0, 0, 0, 0, 0, 1), [(2, 2, 2, 2, 2, 2, 1), (2, 2, 2, 2, 2, 2, 2)]))
    # 2 players: a flush and a two-pairs chip on the plate, seat 1 to move, a chip taken
    cases.append(table((1, 0, 0, 1, 0, 0, 0), [(2, 2, 2, 2, 2, 2, 2), (1, 2, 2, 1, 2, 2, 2)],
                       to_move=1, taken=True))
    # 2 players: one plate chip and one set aside (only a Kniffel takes that)
    cases.append(table((0, 0, 0, 0, 1, 0, 0), [(2, 2, 2, 2, 1, 2, 2), (2, 2, 2, 2, 2, 2, 1)],
                       aside=(0, 0, 0, 0, 0, 0, 1)))
    # 3 players: a four of a kind chip and a small straight, scores close
    cases.append(table((0, 0, 1, 0, 0, 1, 0), [(2, 1, 1, 2, 1, 1, 1), (1, 2, 1, 1, 2, 1, 2),
                                               (1, 1, 1, 1, 1, 1, 1)], to_move=2))
    return cases


@pytest.mark.parametrize("options", [{}, {"ties": "lose"}, {"set_aside": "turn"},
                                     {"may_decline_chip": True}])
@pytest.mark.parametrize("case", range(4))
def test_exact_solver_matches_the_plain_python_reference(case, options):
    rules = get_rules("dice-duel", **options)
    position = endgames()[case]
    if options.get("set_aside") == "turn" and position.taken:
        position = mg.Table(position.plate, position.aside, position.seats, position.to_move)
    exact = solve_exact(position, rules).start(position)
    reference = Reference(ref_rules(rules)).value(position.key())
    np.testing.assert_allclose(exact, reference, rtol=0, atol=1e-12)


def test_one_plate_chip_and_a_roll_that_takes_it_wins_outright():
    rules = get_rules()
    position = table((0, 0, 0, 0, 0, 0, 1), [(2, 2, 2, 2, 2, 2, 1), (2, 2, 2, 2, 2, 2, 2)])
    answer = ma.win_chances(position, rules, [2, 3, 4, 5, 6], 0).as_dict()
    assert answer["exact"] and answer["probability"] == 1.0
    assert answer["options"] == [{"action": "take", "chip": "large_straight", "from": "plate",
                                  "last_chip_bonus": 20, "probability": 1.0, "chances": [1.0, 0.0]}]
    # a Kniffel takes it as well; a roll that earns nothing leaves it: seat 1 then takes it or,
    # failing that, the round sets it aside and seat 1 wins on points
    assert ma.win_chances(position, rules, [4, 4, 4, 4, 4], 0).as_dict()["probability"] == 1.0
    assert ma.win_chances(position, rules, [1, 1, 2, 2, 6], 0).as_dict()["probability"] == 0.0


def test_one_roll_left_for_the_last_straight_is_a_third():
    """Seat 0 must take the last large straight to win: holding 2-3-4-5 with one roll left
    wins with a 1 or a 6 (1/3); nothing else comes close, and seat 1 wins otherwise."""
    rules = get_rules()
    position = table((0, 0, 0, 0, 0, 0, 1), [(2, 2, 2, 2, 2, 2, 1), (2, 2, 2, 2, 2, 2, 2)])
    answer = ma.win_chances(position, rules, [2, 3, 4, 5, 5], 1).as_dict()
    assert answer["options"][0]["keep"] == [2, 3, 4, 5]
    assert answer["probability"] == pytest.approx(1 / 3, abs=1e-14)


def test_a_tie_for_first_is_shared_or_lost():
    """Without the last-chip bonus, seat 0 taking the last large straight ends level with
    seat 1 (310 + 50 + 50 gold = 360 + 50 gold): a shared win, or nobody's."""
    position = table((0, 0, 0, 0, 0, 0, 1), [(2, 2, 2, 2, 2, 2, 1), (2, 2, 2, 2, 2, 2, 2)])
    for ties, expected in (("share", 0.5), ("lose", 0.0)):
        rules = get_rules(last_chip_bonus=0, ties=ties)
        final = mg.after_move(position, ("take", 6, "plate"), False, rules)
        assert mg.scores(final, rules) == [410, 410]
        answer = ma.win_chances(position, rules, [2, 3, 4, 5, 6], 0).as_dict()
        assert answer["probability"] == expected
        assert answer["options"][0]["chances"] == [expected, expected]


def test_round_without_a_chip_sets_the_top_chip_aside_and_kniffel_plays_again():
    rules = get_rules()
    start = mg.new_table(3)
    after = mg.after_move(start, ("no_chip",), False, rules)
    assert after.to_move == 1 and after.aside == EMPTY
    last = mg.after_move(mg.Table(start.plate, start.aside, start.seats, 2), ("no_chip",), False,
                         rules)
    assert last.to_move == 0 and last.aside == (0, 0, 0, 0, 0, 0, 1) and last.plate[6] == 3
    taken = mg.Table(start.plate, start.aside, start.seats, 2, True)
    assert mg.after_move(taken, ("no_chip",), False, rules).aside == EMPTY
    kniffel = mg.after_move(start, ("take", 6, "plate"), True, rules)
    assert kniffel.to_move == 0 and kniffel.taken and kniffel.seats[0][6] == 1
    turn = mg.after_move(start, ("no_chip",), False, get_rules(set_aside="turn"))
    assert turn.aside == (0, 0, 0, 0, 0, 0, 1) and turn.to_move == 1


def test_kernel_moves_follow_the_python_rules():
    """Random games played through multi_game.after_move and multi_kernels.apply_move agree."""
    rng = random.Random(5)
    for options in ({}, {"set_aside": "turn"}):
        rules = get_rules(**options)
        for _ in range(30):
            n = rng.randint(2, 4)
            position = mg.new_table(n)
            plate, aside, seats = (np.array(a, dtype=np.int64) for a in
                                   (position.plate, position.aside, position.seats))
            to_move, taken = 0, False
            while position.last is None:
                kniffel = rng.random() < 0.1
                moves = mg.end_moves(position, rng.randrange(128), kniffel, rules)
                move = rng.choice(moves)
                position = mg.after_move(position, move, kniffel, rules)
                t, s = ((mk.NO_CHIP, 0) if move[0] == "no_chip"
                        else (move[1], int(move[2] == "aside")))
                to_move, taken, last = mk.apply_move(plate, aside, seats, to_move, taken, t, s,
                                                     kniffel, rules.set_aside == "turn")
                assert (tuple(plate), tuple(aside), tuple(map(tuple, seats.tolist()))) == \
                    (position.plate, position.aside, position.seats)
                if position.last is None:
                    assert (to_move, taken, last) == (position.to_move, position.taken, -2)
                else:
                    assert last == position.last
            out = np.empty(n)
            mk.shares(seats, last, game_arrays(rules).params, game_arrays(rules).values, out)
            assert out.tolist() == mg.win_shares(position, rules)


def test_rollouts_estimate_a_small_endgame_within_their_interval():
    """Forced to estimate (limit 0), the greedy play-outs of a one-chip endgame (where the most
    valuable chip is the only aim) land on the exact chance; the interval shown is the
    rollouts' own widened by the calibration's margin."""
    from solver.duel.multiplayer.estimate import MARGIN
    rules = get_rules()
    position = table((0, 0, 0, 0, 0, 0, 1), [(2, 2, 2, 2, 2, 2, 1), (2, 2, 2, 2, 2, 2, 2)])
    exact = ma.win_chances(position, rules).as_dict()["probability"]
    estimate = ma.win_chances(position, rules, games=4096, limit=0).as_dict()
    assert not estimate["exact"] and estimate["games"] == 4096
    lo, hi = estimate["interval"]
    rollout_half = (hi - lo) / 2 - MARGIN  # 1.96 standard errors of 4096 games
    assert 0.005 < rollout_half < 0.015
    # a 95% interval misses one time in 20; 1.5 half-widths (a 1 in 300 miss) for a fixed test
    assert abs(estimate["probability"] - exact) <= 1.5 * rollout_half


def test_estimates_are_reproducible_and_cover_every_option():
    from solver.advice.position import sub_keep_indices
    from solver.dice import KEEP_INDEX
    rules = get_rules()
    position = mg.new_table(2)
    one = ma.win_chances(position, rules, [2, 3, 4, 5, 5], 2, games=128).as_dict()
    two = ma.win_chances(position, rules, [2, 3, 4, 5, 5], 2, games=128).as_dict()
    keeps = sub_keep_indices(KEEP_INDEX[(2, 3, 4, 5, 5)])[0]
    assert one == two and len(one["options"]) == 1 + len(keeps)
    assert all(lo <= o["probability"] <= hi for o in one["options"] for lo, hi in [o["interval"]])
    stop = next(o for o in one["options"] if o["action"] == "stop")
    assert [o["chip"] for o in stop["ends"]] == ["small_straight"]
    assert one["probability"] == one["options"][0]["probability"] and one["seed"] == 0
    other = ma.win_chances(position, rules, [2, 3, 4, 5, 5], 2, games=128, seed=1).as_dict()
    assert other["options"] != one["options"]


def test_the_one_door_carries_the_seat_goal_to_the_rollouts_and_the_exact_search():
    """solver.advise with a SeatWinGoal answers what win_chances answers with its settings: the
    rollouts' games and seed (an estimate), the opponents' model (exact); and a game of several
    players is only advised to win."""
    import solver
    rules = get_rules()
    start = mg.new_table(2)
    door = solver.advise(start, rules, [2, 3, 4, 5, 5], 2,
                         objective=ma.SeatWinGoal(games=64, seed=5))
    direct = ma.win_chances(start, rules, [2, 3, 4, 5, 5], 2, games=64, seed=5)
    assert door.as_dict() == direct.as_dict()
    assert not door.exact and door.games == 64
    late = endgames()[0]
    for model in ("best", "greedy"):
        door = solver.advise(late, rules, [2, 3, 4, 5, 6], 0, objective=ma.SeatWinGoal(model=model))
        assert door.exact and door.as_dict() == ma.win_chances(late, rules, [2, 3, 4, 5, 6], 0,
                                                                model=model).as_dict()
    with pytest.raises(ValueError, match="advised to win"):
        solver.advise(start, rules, [2, 3, 4, 5, 5], 2, objective="points")


def batch(lines):
    texts = b"\n".join(answer_lines(lines, get_rules(), Tables())).decode().splitlines()
    return [orjson.loads(text) for text in texts]


def test_batch_lines_answer_the_contract():
    line = {"players": 2, "to_move": 1, "round_chip_taken": True, "dice": [2, 3, 4, 5, 6],
            "rolls_left": 0, "chips": {"ls": [1, 0, 2, 1], "2p": [0, 0, 2, 2], "3k": [0, 0, 2, 2],
                                       "ss": [0, 0, 2, 2], "fl": [0, 0, 2, 2], "fh": [0, 0, 2, 2],
                                       "4k": [0, 0, 2, 2]}}
    [answer] = batch([json.dumps(line)])
    assert answer["exact"] is True and answer["probability"] == 1.0
    assert answer["options"][0]["action"] == "take" and answer["options"][0]["from"] == "plate"


BAD = [
    ({"players": 2, "chips": {"ls": [1, 0, 2, 0]}}, "add up to 4"),
    ({"players": 2, "chips": {"2p": [3, 1, 0, 0]}}, "set aside only once"),
    ({"players": 2, "to_move": 2}, "seat 0-1"),
    ({"players": 5}, "max_players"),
    ({"players": 2, "chips": {"xx": [4, 0, 0, 0]}}, "unknown chip type"),
    ({"players": 2, "chips": {"ls": [4, 0, 0]}}, "4 counts"),
    ({"players": 2, "round_chip_taken": 1}, "true or false"),
    ({"players": "2"}, "whole number"),
    ({"players": 2, "dice": [1, 2, 3], "rolls_left": 0}, "5 dice"),
    ({"to_move": 1}, "needs players"),
    ({"players": 3, "to_move": 1, "round_chip_taken": True}, "no seat that has played"),
    ({"players": 2, "opponent_model": "silly"}, "opponent_model"),
]


@pytest.mark.parametrize("line, message", BAD)
def test_bad_lines_get_one_clear_error(line, message):
    [answer] = batch([json.dumps(line)])
    assert list(answer) == ["error"] and message in answer["error"], answer


def test_a_multiplayer_line_for_a_scorecard_preset_is_refused():
    from click.testing import CliRunner

    from solver.cli import cli
    result = CliRunner().invoke(cli, ["advise", "--rules", "yahtzee", "--batch", "-"],
                                input='{"players": 2, "card": {}}\n{"card": {}, "dice": 12}\n')
    first, second = [json.loads(line) for line in result.output.splitlines()]
    assert "only the Dice Duel" in first["error"] and "error" in second


count = st.one_of(st.integers(-2, 6), st.text(max_size=3), st.none(), st.booleans())
chips_strategy = st.one_of(
    st.dictionaries(st.sampled_from(["ls", "4k", "fh", "fl", "ss", "3k", "2p", "xx", "50"]),
                    st.one_of(st.lists(count, max_size=7), count), max_size=7),
    st.text(max_size=40), st.none(), st.integers())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.one_of(st.integers(-1, 7), st.booleans(), st.text(max_size=2)),
       chips=chips_strategy, to_move=st.one_of(st.integers(-1, 5), st.none(), st.text(max_size=2)),
       taken=st.one_of(st.booleans(), st.integers(0, 2)))
def test_parse_table_raises_only_value_errors(players, chips, to_move, taken):
    try:
        position = ma.parse_table(get_rules(), players, chips, to_move, taken)
    except ValueError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert sum(position.plate) > 0 and 2 <= position.players <= 4


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(line=st.dictionaries(st.sampled_from(["players", "chips", "to_move", "round_chip_taken",
                                             "dice", "rolls_left", "rules", "other"]),
                            st.one_of(count, st.lists(count, max_size=6), chips_strategy),
                            max_size=6))
def test_any_batch_line_gets_an_answer_or_one_error(line, monkeypatch_budget):
    line.setdefault("players", 2)
    [answer] = batch([json.dumps(line)])
    assert "error" in answer or 0 <= answer["probability"] <= 1


@pytest.fixture
def monkeypatch_budget(monkeypatch):
    monkeypatch.setattr(ma, "GAMES", 8)  # a few games per option: fast


def test_cli_advises_and_refuses_bad_input(capsys):
    code, out, _ = run(capsys, "advise", "--rules", "dice-duel", "--players", "2", "--chips",
                       "2p=0/0/2/2,3k=0/0/2/2,ss=0/0/2/2,fl=0/0/2/2,fh=0/0/2/2,4k=0/0/2/2,"
                       "ls=1/0/2/1", "--to-move", "1", "--dice", "23456", "--rolls-left", "0",
                       "--json")
    assert code == 0 and json.loads(out)["options"][0]["chip"] == "large_straight"
    for args in (["--players", "5"], ["--players", "2", "--chips", "ls=1/0/2/0"],
                 ["--players", "2", "--to-move", "3"], ["--players", "2", "--dice", "1234"]):
        code, out, err = run(capsys, "advise", "--rules", "dice-duel", *args)
        assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    code, out, err = run(capsys, "advise", "--rules", "kniffel", "--players", "2")
    assert code == 2 and "Dice Duel" in err


def test_multiplayer_options_are_checked():
    from solver.rules import RulesError
    assert get_rules(max_players=6, set_aside="turn", ties="lose").max_players == 6
    for bad in ({"max_players": 7}, {"max_players": 1}, {"set_aside": "never"}, {"ties": True},
                {"max_players": "4"}):
        with pytest.raises(RulesError):
            get_rules(**bad)
    assert get_rules().key == "dice-duel"  # the preset's own tables keep their name
    with pytest.raises(ValueError, match="max_players"):
        ma.parse_table(get_rules(max_players=2), 3)
    assert ma.parse_table(get_rules(max_players=6), 6).players == 6


def test_seat_points_are_the_solo_final_score():
    from solver.duel.rules import final_score
    rng = random.Random(3)
    for rules in (get_rules(), get_rules(gold_bonus=7, silver_bonus=3, full_stack_bonus=11)):
        for _ in range(300):
            seat = tuple(rng.randint(0, 4) for _ in range(7))
            assert mg.seat_points(seat, rules) == int(final_score(seat, rules))


def test_the_exact_search_answers_deep_positions_on_a_shallow_stack(monkeypatch):
    """An endgame whose paths run some twelve turns deep (a recursion took 4 frames a turn, 52
    in all) is solved with 25 frames to spare and the recursion limit left alone: the same
    positions in the same order, the same chances to the bit."""
    rules = get_rules()
    position = table((1, 1, 1, 0, 1, 0, 1), [(2, 2, 1, 2, 1, 2, 1), (1, 1, 2, 2, 2, 2, 2)])
    roomy = solve_exact(position, rules)  # the kernels compile on the usual stack
    limit, set_limit = sys.getrecursionlimit(), sys.setrecursionlimit
    set_limit(len(inspect.stack(0)) + 25)
    monkeypatch.setattr(sys, "setrecursionlimit", lambda depth: pytest.fail("limit changed"))
    try:
        shallow = solve_exact(position, rules)
    finally:
        set_limit(limit)
    assert len(roomy.memo) > 1000 and list(shallow.memo) == list(roomy.memo)
    assert all(shallow.memo[key].tobytes() == value.tobytes() for key, value in roomy.memo.items())


def test_greedy_opponents_in_the_exact_solver():
    """With the opponents modelled as greedy, the exact chance of a one-chip endgame in which the
    opponent moves first is the rollouts' (every seat greedy, which is best play here), and a
    bad model name is one clear error."""
    rules = get_rules()
    position = table((0, 0, 0, 0, 0, 0, 1), [(2, 2, 2, 2, 2, 2, 2), (2, 2, 2, 2, 2, 2, 1)],
                     to_move=1)
    exact = solve_exact(position, rules, model="greedy")
    assert exact.advised == 1
    seat0 = mg.Table(position.plate, position.aside, position.seats, 1)
    greedy = ma.win_chances(seat0, rules, model="greedy").as_dict()
    best = ma.win_chances(seat0, rules).as_dict()
    assert greedy["exact"] and "most valuable" in greedy["method"]
    assert greedy["probability"] == pytest.approx(best["probability"], abs=1e-12)
    estimate = ma.win_chances(seat0, rules, games=8192, limit=0).as_dict()
    assert abs(estimate["probability"] - greedy["probability"]) <= 1.5 * (
        estimate["interval"][1] - estimate["interval"][0])
    # 2 players, zero-sum: against opponents that do not play their best, the advised seat's
    # best reply wins at least as often as against the best opponent
    gains = []
    for position in endgames()[:3] + [table((1, 0, 1, 0, 0, 1, 0), [(2, 1, 2, 2, 2, 1, 2),
                                                                   (1, 3, 1, 2, 2, 2, 2)])]:
        for seat in (0, 1):
            position = mg.Table(position.plate, position.aside, position.seats, seat,
                                position.taken)
            best = solve_exact(position, rules).start(position)[seat]
            greedy = solve_exact(position, rules, model="greedy").start(position)[seat]
            assert greedy >= best - 1e-12
            gains.append(greedy - best)
    assert max(gains) > 1e-3  # and the model matters somewhere
    [answer] = batch([json.dumps({"players": 2, "opponent_model": "silly"})])
    assert "opponent_model" in answer["error"]
