"""The Dice Duel coach's kernels compiled as ask/warm.py asks: each step a question as small as
it gets (a few games), together every kernel a duel advice can reach."""
from ..presets import read_rules
from .multiplayer import game as mg


def warm_steps():
    """The steps for ask/warm.warm("duel"): functions of the cache of tables (unused here: the
    Dice Duel coach of several players reads no table)."""
    return [lambda tables: _rollouts(2), lambda tables: _rollouts(3),
            lambda tables: _exact(2), lambda tables: _exact(3)]


def _rollouts(players):
    """The rollouts of an early position, at a turn's start and with dice in hand."""
    from .multiplayer.advice import win_chances
    rules, table = read_rules("dice-duel"), mg.new_table(players)
    win_chances(table, rules, None, None, games=2)
    win_chances(table, rules, [1, 2, 3, 4, 5], 2, games=2)


def _exact(players):
    """The exact search of a late position: one chip left on the plate, the rest taken."""
    from .multiplayer.advice import win_chances
    rules = read_rules("dice-duel")
    n = len(mg.new_table(players).plate)
    seats = tuple(tuple(3 if (t, seat) == (0, 0) else 4 * (t > 0 and t % players == seat)
                        for t in range(n)) for seat in range(players))
    late = mg.Table((1,) + (0,) * (n - 1), (0,) * n, seats)
    for model in ("best", "greedy"):
        win_chances(late, rules, [2, 2, 3, 3, 5], 1, model=model)
        win_chances(late, rules, None, None, model=model)
