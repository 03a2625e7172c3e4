"""kniffel: exact optimal strategy for Kniffel, Yahtzee and their relatives.

    >>> import solver
    >>> table = solver.get_table("yahtzee")          # loads, or solves and saves
    >>> table.expected_score                          # 254.5877...
    >>> solver.advise({"ones": 3}, table, dice=[1, 1, 3, 5, 6]).options[0]

The Python face of the one door (solver/ask/): every question is read into a Request and
answered with one fallback.  An objective is None or "points" (the expected final score), a
target ("target:250", TargetGoal(250)) or a win (solver.win_goal([{"final": 231}])).  Tables
is the one cache of loaded tables that the command line, the batch, the coach and the web app
share.

numba is imported only when something is solved, so advising from a saved table stays fast.
"""
from .version import __version__  # noqa: F401 - the public version


def solve(rules=None, progress=None, *, objective="expected", **sub_game):
    """Solve the table of `objective` ("expected" or "target") for `rules` (a preset name,
    rules file or Rules): every reachable state's expected score (the Dice Duel's for its
    rules), or the target table (sub_game: `within`, `expected`, ... of a sub-game, see
    engine/target/solve.py), which reads the expected-score table first."""
    from .ask.tables import solve as run
    return run(_rules(rules), progress, kind=objective, **sub_game)


def load_table(rules=None, directory=None, *, objective="expected"):
    """The saved table of `objective` ("expected" or "target") for `rules`; TableError if it
    is missing or fails a check (for the target table, naming the command that builds it)."""
    from .ask.tables import load_table as load
    return load(_rules(rules), directory, kind=objective)


def get_table(rules=None, directory=None, progress=None, announce=None, warn=None, *,
              objective="expected"):
    """Load the saved table of `objective` for `rules`, solving and saving it first when it is
    missing or invalid (ask/tables.get_table: announce and warn)."""
    from .ask.tables import get_table as get
    return get(_rules(rules), directory, progress, announce, warn, kind=objective)


def advise(position, table, dice=None, rolls_left=None, objective=None, why=False):
    """The ranked options for `position` as an Advice, for every objective and both games.

    A scorecard game: `position` a card {box: points} or a Position; `table` a table of its
    rules (any kind: the others are loaded from the store as the goal needs them); objective
    None/"points", "target:T", "win" with a WinGoal's opponents, or a Goal.  The Dice Duel:
    `position` the chips (a Chips or "ls=0/1/3,...") and `table` the solved table; or a game
    of several players (a duel.multiplayer.game.Table) with `table` its rules, objective None
    or a SeatWinGoal (the rollouts' games, seed and the opponents' model).
    dice: five faces, or None for the turn's start; rolls_left: default the most there can be.
    why: also what the turn plays for (a scorecard game: advice.why and each option's "why",
    advice/why.py).  ValueError (ask/request.RequestError) naming bad input."""
    from .ask.answer import answer
    from .ask.request import read_request
    from .ask.tables import Tables
    rules, preloaded = _rules_of(table)
    fields = {"rules": rules, "dice": dice, "rolls_left": rolls_left}
    fields["chips" if rules.game == "dice-duel" else "card"] = position
    if objective is not None:
        fields["goal"] = objective
    if why:
        fields["why"] = True
    request = read_request({k: v for k, v in fields.items() if v is not None}, files=False)
    return answer(request, Tables(preloaded=preloaded))


def win_goal(opponents, ties="share", budget=1.0):
    """The win objective against `opponents` ([{"final": S} | {"card": {...}}, ...]), its advice
    within `budget` seconds (the exact sub-game where it fits, else the approximation); its
    opponents are read when it is asked (advise)."""
    from .advice.goal import WinGoal
    from .advice.limits import check_budget
    return WinGoal(tuple(opponents), ties, check_budget(budget))


def _rules(rules):
    from .presets import read_rules
    return read_rules(rules)


def _rules_of(table):
    """(rules, the tables to preload) of what advise's `table` is: a table, or rules alone."""
    from .duel.rules import DuelRules
    from .rules import Rules
    if isinstance(table, (Rules, DuelRules)):
        return table, ()
    return table.rules, (table,)


def __getattr__(name):
    if name == "Tables":  # the one cache (ask/tables.py), imported when it is asked for
        from .ask.tables import Tables
        return Tables
    raise AttributeError(f"module 'solver' has no attribute {name!r}")
