"""The limits of an objective's input, shared by the goals (goal.py) and the win advice
(win/coach.py): how a tie counts, the opponents' fields and number, the time budget."""
TIES = ("share", "lose")
OPPONENT_FIELDS = {"card", "final", "kniffel_bonuses", "jokers_left"}
MAX_OPPONENTS = 7  # eight players, as the card has columns for
DEFAULT_BUDGET = 1.0  # the work a win advice may take, in reference seconds (advice/cost.py)
MAX_BUDGET = 3600.0  # more is a mistake: an hour for one decision
# The work the why's upper bonus chances may take when the question names no budget, in
# reference seconds (advice/cost.py): every position but a game's first turn (advice/why.py)
WHY_BUDGET = 10.0


def check_budget(budget):
    """A time budget in seconds as a float; ValueError unless 0 < budget <= MAX_BUDGET."""
    if isinstance(budget, bool):
        budget = None
    try:
        seconds = float(budget)
    except (TypeError, ValueError):
        raise ValueError(f"the budget must be a number of seconds, got {budget!r}") from None
    if not 0 < seconds <= MAX_BUDGET:
        raise ValueError(f"the budget must be more than 0 and at most {MAX_BUDGET:g} seconds, "
                         f"got {budget!r}")
    return seconds


class Unanswerable(ValueError):
    """A goal that cannot be answered here and now (its work over the budget, a table it needs
    missing): the one door (ask/answer.py) answers for points instead and says why.  `key` and
    `fields` name its words in solver/lang, so that text(lang) says it in the player's
    language; without them the English message is all there is."""

    def __init__(self, message, key=None, **fields):
        super().__init__(message)
        self.key, self.fields = key, fields

    def text(self, lang="en"):
        """The reason in `lang`: from the words of `key`, else the message as given."""
        if self.key is None:
            return str(self)
        from ..lang import Words
        return Words(lang)(self.key, **self.fields)
