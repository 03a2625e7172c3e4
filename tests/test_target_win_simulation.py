"""Seeded two-player games from late positions (6 open boxes each, 8,000 games): the player of
the win objective wins as often as its computed P(win) says (within 4 standard errors) and more
often than expected-score play does from the same position against the same opponent (exact,
from the distributions).

The opponent plays for points (the expected-score optimum), independently of us: their final
score is drawn from its exact distribution, which is how that play ends.  Our player solves the
win objective once, at the start, and then plays its table without looking at the opponent's
card (looking, as `kniffel advise --opponent` does each turn, can only add to the chance), so
its win rate is the computed P(win) itself."""
import numpy as np
import pytest
from conftest import solved
from helpers import random_card

from solver import advise, win_goal
from solver.advice.target_player import TargetPlayer
from solver.advice.win.sub_game import opponent_distribution, win_utility
from solver.engine.states import Position, position_state
from solver.engine.target.solve import solve_target
from solver.stats.distribution import score_distribution

pytestmark = pytest.mark.slow  # every test here plays thousands of games

GAMES = 8000  # the objective's gain over expected-score play is about 5 standard errors


def chance_of_winning(x, low, probs):
    """A final score x against one opponent's distribution, a tie shared."""
    below = probs[:max(0, min(len(probs), x - low))].sum()
    tie = probs[x - low] if 0 <= x - low < len(probs) else 0.0
    return below + tie / 2


@pytest.mark.parametrize("seed", [13, 15])  # positions where the objective matters
def test_the_win_objective_player_wins_as_computed_and_more_than_expected_play(seed):
    table = solved("kniffel")
    rules = table.rules
    rng = np.random.default_rng(seed)
    mine = random_card(rules, rng, 6)[0]
    theirs = random_card(rules, rng, 6)[0]
    computed = advise(Position(mine), table, objective=win_goal([{"card": theirs}])).probability

    low, probs = opponent_distribution(table, {"card": theirs})
    M, u = win_utility([(low, probs)])
    state = position_state(Position(mine), rules)
    sub = solve_target(rules, progress=False, expected=table.values, within=state.filled,
                       terminal=u)
    assert sub.probability(state, M) == pytest.approx(computed, abs=1e-12)

    player = TargetPlayer(sub)
    ours = np.array([state.card_total + player.play(state, M - state.card_total, rng)
                     for _ in range(GAMES)])
    rivals = low + rng.choice(len(probs), size=GAMES, p=probs / probs.sum())
    outcome = np.where(ours > rivals, 1.0, np.where(ours == rivals, 0.5, 0.0))
    rate, se = outcome.mean(), outcome.std() / np.sqrt(GAMES)
    assert abs(rate - computed) < 4 * se, (rate, computed, se)

    plain = score_distribution(table, Position(mine))
    expected_play = sum(p * chance_of_winning(plain.offset + i, low, probs)
                        for i, p in enumerate(plain.probs) if p > 0)
    assert computed > expected_play + 4 * se  # the positions are ones where the objective matters
    assert rate > expected_play, (rate, expected_play)
