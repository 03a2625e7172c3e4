"""The Dice Duel's advice as solver.advise (the one door) answers it: one player's chips (the
expected final score, duel/solo/advice.py) or a game of several (each option's chance to win,
duel/multiplayer/advice.py)."""
from .multiplayer.game import Table


def duel_advice(position, table, dice=None, rolls_left=None, objective=None):
    """The Advice of `position`: a multiplayer game Table (the seat to move's chance to win of
    each option; `table` is the solved table or the Dice Duel's rules: only its rules are read),
    else the chips of one player (a Chips or its text) from the solved `table` (the expected
    final score).  objective: None or "points" for one player (its one objective); for several
    players None, "win" or a SeatWinGoal carrying the rollouts' budget, seed and the opponents'
    model (several players always play to win)."""
    if isinstance(position, Table):
        from .multiplayer.advice import SEAT_WIN, SeatWinGoal
        goal = SEAT_WIN if objective in (None, "win") else objective
        if not isinstance(goal, SeatWinGoal):
            raise ValueError(f"a Dice Duel of several players is advised to win, got {objective!r}")
        return goal.ranked(position, getattr(table, "rules", table), dice, rolls_left)
    if objective not in (None, "points"):
        raise ValueError(f"the Dice Duel is advised for its own objective, got {objective!r}")
    from .solo.advice import solo_advice
    return solo_advice(position, table, dice, rolls_left)
