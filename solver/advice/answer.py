"""The advice of any objective, as the CLI, the batch reader, the coach and the web app ask for
it: position.advise, except the win, which is answered within its goal's time budget
(win_coach.py: the exact sub-game where it fits, else the approximation with its interval)."""
from .goal import as_goal
from .position import advise as advise_position


def advise(position, table, dice=None, rolls_left=None, objective=None):
    """position.advise's Advice for `objective` (a Goal or what goal.as_goal reads); a win goal
    through win_coach.advise_win, with the target table saved beside `table` when there is one."""
    goal = as_goal(objective)
    if goal.kind == "win":
        from .win.coach import advise_win
        return advise_win(position, table, goal, dice, rolls_left)
    return advise_position(position, table, dice, rolls_left, goal)
