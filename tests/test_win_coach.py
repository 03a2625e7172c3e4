"""Win advice within a budget (advice/win/coach.py, win_approx.py): where the exact sub-game is
affordable it is today's answer; elsewhere every option's exact chance lies in the interval;
the lower end is the chance of playing for points (checked against a seeded simulation); with
every opponent finished and ties lost the answer is the target table's, exactly."""
import re

import numpy as np
import pytest
from conftest import solved
from helpers import late, target_table

from solver import win_goal
from solver.advice.goal import WinGoal
from solver.advice.position import checked_query, ranked  # the exact sub-game for a win
from solver.advice.win.coach import check_budget, win_advice
from solver.engine.states import Position, position_state
from solver.presets import get_rules

DICE = (2, 3, 3, 5, 6)


def key(option):
    return (option["action"], tuple(option.get("keep", ())), option.get("box"))


def cases():
    for name in ("kniffel", "yatzy"):
        for n_open, rolls_left, seed in ((2, 2, 1), (3, 1, 2), (3, 0, 3), (2, None, 4)):
            yield name, n_open, rolls_left, seed


@pytest.mark.parametrize("name,n_open,rolls_left,seed", list(cases()))
def test_exact_where_affordable_and_interval_holds_the_exact_chance(name, n_open, rolls_left, seed):
    rules = get_rules(name)
    table = solved(rules)
    position = Position(late(rules, n_open, seed))
    rival = Position(late(rules, n_open + 1, seed + 100))
    opponents = [{"card": rival.card}, {"final": position_state(position, rules).card_total + 60}]
    dice = None if rolls_left is None else DICE
    goal = win_goal(opponents)
    exact = ranked(checked_query(position, table.rules, dice, rolls_left), table, goal)
    chosen = win_advice(position, table, goal, dice, rolls_left, budget=600)
    assert chosen.method == "exact" and chosen.as_dict()["method"] == "exact"
    assert chosen.probability == pytest.approx(exact.probability, abs=1e-9)
    assert [key(o) for o in chosen.options] == [key(o) for o in exact.options]
    for a, b in zip(chosen.options, exact.options):
        assert a["probability"] == pytest.approx(b["probability"], abs=1e-9)
    filled = position_state(position, rules).filled
    approx = win_advice(position, table, goal, dice, rolls_left,
                        target_table=target_table(rules, filled), force="approximate")
    assert approx.method == "approximate"
    low, high = approx.as_dict()["interval"]
    assert low - 1e-12 <= exact.probability <= high + 1e-12
    exact_of = {key(o): o["probability"] for o in exact.options}
    assert len(approx.options) == len(exact_of)
    for option in approx.options:
        low, high = option["interval"]
        assert low - 1e-12 <= exact_of[key(option)] <= high + 1e-12
        assert low <= option["probability"] <= high


@pytest.mark.parametrize("name", ["kniffel", "yatzy"])
def test_finished_opponents_ties_lost_is_exact_from_the_target_table(name):
    rules = get_rules(name)
    table = solved(rules)
    position = Position(late(rules, 3, 7))
    total = position_state(position, rules).card_total
    opponents = [{"final": total + 30}, {"final": total + 45}]
    targets = target_table(rules, position_state(position, rules).filled)
    goal = win_goal(opponents, "lose")
    for dice, rolls_left in ((DICE, 2), (DICE, 0), (None, None)):
        exact = ranked(checked_query(position, table.rules, dice, rolls_left), table, goal)
        answer = win_advice(position, table, goal, dice, rolls_left, target_table=targets,
                            budget=1e-3)
        assert answer.method == "exact" and "interval" not in answer.as_dict()
        assert answer.probability == pytest.approx(exact.probability, abs=1e-9)
        exact_of = {key(o): o["probability"] for o in exact.options}
        for option in answer.options:
            assert option["probability"] == pytest.approx(exact_of[key(option)], abs=1e-9)


def test_without_a_target_table_ranked_for_points_with_the_exact_low_end():
    rules = get_rules("kniffel")
    table = solved(rules)
    position = Position(late(rules, 3, 11))
    opponents = [{"card": late(rules, 3, 12)}]
    answer = win_advice(position, table, win_goal(opponents), DICE, 1, target_table=None,
                        force="approximate")
    assert answer.method == "approximate" and "kniffel solve --objective target" in answer.note
    scores = [o["expected_final_score"] for o in answer.options]
    assert scores == sorted(scores, reverse=True)
    assert all(o["interval"][1] == 1.0 and o["probability"] == o["interval"][0]
               for o in answer.options)


@pytest.mark.parametrize("bad", [0, -1, float("nan"), 1e9, "x", None])
def test_bad_budget(bad):
    with pytest.raises(ValueError, match="budget"):
        check_budget(bad)


def test_bad_opponents():
    rules = get_rules("kniffel")
    table = solved(rules)
    with pytest.raises(ValueError, match="at most 7"):
        win_advice(Position(), table, win_goal([{"final": 200}] * 8))
    with pytest.raises(ValueError):
        win_advice(Position(), table, win_goal([{"card": {"ones": 7}}]))
    with pytest.raises(ValueError):
        win_advice(Position(), table, win_goal([{"final": 100000}]))
    with pytest.raises(ValueError):
        win_advice(Position(), table, WinGoal())


SYMMETRIC = "ones=3,twos=6,threes=9,fours=12,fives=15"  # both cards: 8 boxes open


@pytest.fixture
def nothing_saved(table_dir, monkeypatch):
    """A fresh install: an empty table store, and no target table or opponents' store kept in
    this process from another test."""
    from solver.advice.win import coach
    from solver.stats import opponents
    monkeypatch.setattr(coach, "_TARGETS", {})
    monkeypatch.setattr(opponents, "_STORES", {})
    return table_dir


def test_many_turn_starts_in_one_pass_as_each_alone():
    from solver.stats import opponents
    from solver.stats.distribution import points_to_come_of
    rules = get_rules("kniffel")
    table = solved(rules)
    states = [position_state(Position(late(rules, 3, seed)), rules) for seed in (1, 2, 3, 4)]
    together = points_to_come_of(table, states)
    n_aux, n_upper = table.values.shape[1], table.values.shape[2]
    for state in states:
        flat = (state.filled * n_aux + state.aux) * n_upper + state.upper
        low, probs = opponents.points_to_come(table, state)
        mine = together[flat]
        np.testing.assert_allclose(mine[low:low + len(probs)], probs, rtol=0, atol=1e-15)
        assert mine[:low].sum() == 0 and mine[low + len(probs):].sum() == 0


def test_fresh_install_symmetric_position_holds_the_exact_chance(nothing_saved):
    # both players on the same card, 8 boxes open, no target table and no opponents' store: the
    # low end is the exact chance of playing for points (the successors' distributions computed
    # afresh within the budget), so the interval holds the exact sub-game's chance, and the
    # estimate shown is that low end
    from solver.rules.cards import parse_card
    from solver.stats.distribution import score_distribution
    rules = get_rules("kniffel")
    table = solved(rules)
    card = parse_card(SYMMETRIC, rules)
    goal = win_goal([{"card": dict(card)}])
    answer = win_advice(Position(card), table, goal, [1, 3, 3, 5, 6], 2)
    assert answer.method == "approximate" and answer.note
    exact = win_advice(Position(card), table, goal, [1, 3, 3, 5, 6], 2, budget=600, force="exact")
    low, high = answer.interval
    assert low <= exact.probability + 1e-12 and high == 1.0
    assert abs(answer.probability - exact.probability) < 0.10
    exact_of = {key(o): o["probability"] for o in exact.options}
    for option in answer.options:
        assert option["interval"][0] - 1e-12 <= exact_of[key(option)]
    # the turn start's low end, by hand: our final score against theirs, both for points
    theirs = score_distribution(table, Position(card))
    start = win_advice(Position(card), table, goal)
    share = sum(p * (sum(theirs.probs[:x - theirs.offset].tolist()) +
                     0.5 * (theirs.probs[x - theirs.offset]
                            if 0 <= x - theirs.offset < len(theirs.probs) else 0))
                for x, p in zip(theirs.scores.tolist(), theirs.probs.tolist()))
    assert start.interval[0] == pytest.approx(share, abs=1e-9)
    assert start.interval[0] == pytest.approx(0.5, abs=1e-9)  # the same strategy, ties shared


def test_nothing_known_within_the_budget_says_so(nothing_saved, capsys):
    from conftest import run
    rules = get_rules("kniffel")
    table = solved(rules)
    card = late(rules, 9, 5)
    answer = win_advice(Position(card), table, win_goal([{"final": 200}]), DICE, 2, budget=0.05,
                        force="approximate")
    assert answer.probability is None and answer.interval[0] is None
    assert all(o["probability"] is None and o["interval"] == [None, 1.0] for o in answer.options)
    code, out, err = run(capsys, "advise", "--card", ",".join(f"{b}={p}" for b, p in card.items()),
                         "--dice", "23356", "--rolls-left", "2", "--opponent", "final=200",
                         "--budget", "0.05", "--lang", "en", "--all")
    assert code == 0, err
    assert "P(win) unknown" in out and not re.search(r"(?<![\d.])0%", out)
    rows = [line for line in out.splitlines() if "reroll" in line or "keep" in line]
    assert sum(line.rstrip().endswith("best") for line in rows) == 1  # no tie of unknowns


def test_fresh_install_symmetric_position_on_the_web(nothing_saved):
    pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
    pytest.importorskip("httpx", reason="starlette's test client needs httpx")
    import json

    from starlette.testclient import TestClient

    from solver.rules.cards import parse_card
    from solver.web.app import create_app
    rules = get_rules("kniffel")
    table = solved(rules)
    card = parse_card(SYMMETRIC, rules)
    client = TestClient(create_app(nothing_saved, preloaded=[table]), base_url="http://127.0.0.1",
                        headers={"content-type": "application/json"})
    body = {"card": card, "dice": [1, 3, 3, 5, 6], "rolls_left": 2, "opponents": [{"card": card}]}
    answer = client.post("/api/advise", content=json.dumps(body).encode()).json()
    exact = win_advice(Position(card), table, win_goal([{"card": dict(card)}]), [1, 3, 3, 5, 6], 2,
                       budget=600, force="exact")
    assert answer["method"] == "approximate"
    assert answer["interval"][0] <= exact.probability + 1e-12 <= answer["interval"][1] + 1e-12
    assert abs(answer["probability"] - exact.probability) < 0.10
