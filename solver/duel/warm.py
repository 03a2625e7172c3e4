"""The Dice Duel coach's kernels compiled as ask/warm.py asks: each step a question as small as
it gets (a few games), together every kernel a duel advice can reach."""
from ..presets import read_rules
from .multiplayer import game as mg


def warm_steps():
    """The steps for ask/warm.warm("duel"): functions of the cache of tables (unused here: the
    steps make the little they read themselves, so that nothing is built unasked)."""
    return [lambda tables: _rollouts(2), lambda tables: _rollouts(3),
            lambda tables: _exact(2), lambda tables: _exact(3),
            lambda tables: _dense_above_a_table()]


def _rollouts(players):
    """The rollouts of an early position, at a turn's start and with dice in hand."""
    from .multiplayer.advice import win_chances
    rules, table = read_rules("dice-duel"), mg.new_table(players)
    win_chances(table, rules, None, None, games=2)
    win_chances(table, rules, [1, 2, 3, 4, 5], 2, games=2)


def _late(players, left=1):
    """A late position: one chip on the plate in each of the first `left` types, every other
    chip in front of a seat."""
    n = len(mg.new_table(players).plate)
    plate = tuple(int(t < left) for t in range(n))
    seats = tuple(tuple((4 - plate[t]) * (t % players == seat) for t in range(n))
                  for seat in range(players))
    return mg.Table(plate, (0,) * n, seats)


def _exact(players):
    """The exact answer of a late position: with 2 players the dense solve from one chip up,
    with 3 the search of exact.py; each seat's best and the greedy model."""
    from .multiplayer.advice import win_chances
    rules, late = read_rules("dice-duel"), _late(players)
    for model in ("best", "greedy"):
        win_chances(late, rules, [2, 2, 3, 3, 5], 1, model=model)
        win_chances(late, rules, None, None, model=model)


def _dense_above_a_table():
    """The 2-player dense solve above a horizon table: its kernels read the table's values
    (read-only float32, as mapped from the store), a compiled version of their own.  The
    table is made here in memory from a late position's own lowest level, never built in the
    store: that is `kniffel solve --objective horizon`'s, when a person asks."""
    from .multiplayer.dense import DenseSolver
    from .multiplayer.horizon import HorizonTable
    rules, late = read_rules("dice-duel"), _late(2, left=2)
    plain = DenseSolver(late, rules)
    lowest = plain.levels[1].astype("float32")
    lowest.flags.writeable = False
    table = HorizonTable(rules, plain.universe, [lowest])
    DenseSolver(late, rules, table).turn(late)
