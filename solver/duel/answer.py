"""The Dice Duel's advice as solver.advise (the one door) answers it: one player's chips (the
expected final score, duel/solo/advice.py) or a game of several (each option's chance to win,
duel/multiplayer/advice.py)."""
from .multiplayer.game import Table


def duel_advice(position, table, dice=None, rolls_left=None, objective=None):
    """The Advice of `position`: a multiplayer game Table (the seat to move's chance to win of
    each option; `table` gives the rules), else the chips of one player (a Chips or its text)
    from the solved `table` (the expected final score).  objective: None or "points" (the solo
    game's one objective; several players always play to win)."""
    if objective not in (None, "points"):
        raise ValueError(f"the Dice Duel is advised for its own objective, got {objective!r}")
    if isinstance(position, Table):
        from .multiplayer.advice import win_chances
        return win_chances(position, table.rules, dice, rolls_left)
    from .solo.advice import solo_advice
    return solo_advice(position, table, dice, rolls_left)
