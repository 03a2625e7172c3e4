"""The Dice Duel advice where it estimates (estimate.py): the gate (the greedy choice unless
another option beats it on common dice), the chance shown played afresh, the answer fixed by
the seed at any number of threads, the budget in games."""
import pytest

from solver.dice import KEEP_INDEX
from solver.duel.multiplayer import advice as ma
from solver.duel.multiplayer import estimate as me
from solver.duel.multiplayer import game as mg
from solver.duel.multiplayer.rollout import Rollouts
from solver.duel.rules import get_rules


def table(plate, seats, aside=(0,) * 7, to_move=0, taken=False):
    return mg.Table(tuple(plate), tuple(aside), tuple(map(tuple, seats)), to_move, taken)


# Seat 0 holds 3 of every type but two pairs and leads by far: every option wins.
DECIDED = table((2, 0, 0, 0, 0, 0, 0), [(1, 3, 3, 3, 3, 3, 3), (1, 1, 1, 1, 1, 1, 1)])
# A full house earns two pairs and three of a kind: the greedy choice takes three of a kind
# (10 points) and leaves seat 1 the two-pairs chip that wins it the game (gold, last chip);
# two pairs completes seat 0's stack (5 + 30) and wins whatever follows.
STACK = table((1, 1, 0, 0, 0, 0, 0), [(3, 1, 2, 2, 2, 2, 2), (0, 2, 2, 2, 2, 2, 2)])


def _first_move(answer):
    first = answer["options"][0]
    return first["then"] if first["action"] == "stop" else first


def test_options_that_tie_answer_the_greedy_choice_too_close_to_call():
    rules = get_rules()
    labels, _, greedy = me.options_of(DECIDED, rules, KEEP_INDEX[(1, 1, 2, 2, 3)], 1)
    answer = ma.win_chances(DECIDED, rules, [1, 1, 2, 2, 3], 1, games=64, limit=0).as_dict()
    assert answer["probability"] == 1.0 and answer["close_call"] is True
    first = answer["options"][0]
    chosen = first["keep"] if first["action"] == "keep" else ("take", 0, "plate")
    assert chosen == labels[greedy]
    assert all(o["probability"] == 1.0 for o in answer["options"])


def test_an_option_that_beats_the_greedy_choice_measurably_is_advised():
    rules = get_rules()
    assert ma.win_chances(STACK, rules, [2, 2, 3, 3, 3], 0).as_dict()["probability"] == 1.0
    labels, _, greedy = me.options_of(STACK, rules, KEEP_INDEX[(2, 2, 3, 3, 3)], 0)
    assert labels[greedy] == ("take", 1, "plate")  # three of a kind, the most valuable
    answer = ma.win_chances(STACK, rules, [2, 2, 3, 3, 3], 0, games=128, limit=0).as_dict()
    assert _first_move(answer)["chip"] == "two_pairs" and answer["close_call"] is False
    assert answer["probability"] == 1.0 and not answer["exact"]
    greedy_option = next(o for o in answer["options"] if o.get("chip") == "three_kind")
    assert greedy_option["probability"] < 0.8 and greedy_option["games"] == 128


def test_the_chance_shown_is_the_advised_option_played_on_fresh_dice():
    """Not the decision stage's mean (the best of several noisy means): the chosen option's own
    games, numbered apart from the screen's and the decision's."""
    rules = get_rules()
    start = mg.new_table(2)
    answer = ma.win_chances(start, rules, [2, 3, 4, 5, 5], 2, games=128, limit=0).as_dict()
    first = answer["options"][0]
    assert first["keep"] and first["games"] == 128
    option = (KEEP_INDEX[(2, 3, 4, 5, 5)], 2, KEEP_INDEX[tuple(first["keep"])], 0, 0)
    runner = Rollouts(start, rules, seed=0, horizon=None)
    fresh = runner.games([option], 128, first=me.CHANCE)[0][:, 0]
    decided = runner.games([option], 128, first=me.DECIDE)[0][:, 0]
    assert answer["probability"] == pytest.approx(fresh.mean(), abs=1e-15)
    assert fresh.mean() != decided.mean()
    lo, hi = answer["interval"]
    assert lo < answer["probability"] < hi and hi - lo > 2 * me.MARGIN
    assert "fresh" in answer["method"] and answer["play"] == "greedy"


def test_the_same_question_gets_the_same_answer_on_any_number_of_threads(monkeypatch):
    from solver.duel.multiplayer import rollout
    rules = get_rules()
    start = mg.new_table(2)
    answers = []
    for threads in (1, 2, 3):
        monkeypatch.setattr(rollout, "default_threads", lambda n=threads: n)
        answers.append(ma.win_chances(start, rules, [1, 1, 4, 6, 6], 1, games=64,
                                      limit=0).as_dict())
    assert answers[0] == answers[1] == answers[2]


@pytest.mark.parametrize("games", [0, 1, -5, True, 2.5, "64", 1 << 20])
def test_a_budget_is_a_whole_number_of_games(games):
    with pytest.raises(ValueError, match="games must be"):
        ma.win_chances(mg.new_table(2), get_rules(), [1, 1, 4, 6, 6], 1, games=games)
