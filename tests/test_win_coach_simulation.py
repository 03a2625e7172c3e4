"""The lower end of the win interval (advice/win/approximation.py) is the exact chance of playing
for points: seeded games in which both sides play for points from their cards (the simulation's
kernel) win as often, within 4 standard errors."""
import math

import pytest
from conftest import solved
from helpers import late

from solver import win_goal
from solver.advice.win.coach import win_advice
from solver.engine.states import Position, position_state
from solver.presets import get_rules
from solver.stats.tournament import Players, summarise


@pytest.mark.slow
def test_low_end_is_the_chance_of_playing_for_points_by_simulation():
    """Both sides play for points from their cards (the simulation's kernel); the share of
    games we win (ties shared) must equal the low end at the turn start within 4 standard
    errors."""
    rules = get_rules("kniffel")
    table = solved(rules)
    ours, theirs = Position(late(rules, 4, 21)), Position(late(rules, 5, 22))
    low = win_advice(ours, table, win_goal([{"card": theirs.card}]),
                     force="approximate").interval[0]
    games = 40000
    players = Players(rules, 2, games, seed=5)
    for seat, position in enumerate((ours, theirs)):
        s = position_state(position, rules)
        players.filled[seat], players.aux[seat], players.upper[seat] = s.filled, s.aux, s.upper
        players.upper_sum[seat], players.total[seat] = s.upper_total, s.card_total
    for _ in range(5):
        for seat in (0, 1):
            if players.filled[seat, 0] != (1 << rules.n_boxes) - 1:
                players.turn(table, seat)
    share = summarise(players.total.T.copy(), 0)
    se = (share["ci95"][1] - share["win_share"]) / 1.96
    assert abs(share["win_share"] - low) <= 4 * se
    assert se < 0.003 and not math.isnan(low)
