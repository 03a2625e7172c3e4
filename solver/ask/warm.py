"""The kernels of a feature compiled when a person first asks for that feature, never before:
the advice for points reads a saved table with numpy alone, so the first game starts at once;
the win coach's kernels (the sub-game, the opponents' distributions) and the Dice Duel's
compile the first time their advice is asked for, once per version (engine/kernel_cache.py
keeps them, and a marker that says they are all there).

The command line compiles in the asking process and says so first (tables.announce_warm); a
server never compiles inside a request (its time guard would stop it half done): the one door
(ask/answer.py) then answers for points, says why, and the server compiles in a job of its own
(web/work.py) that the page follows.

    ready("win")              whether the win coach's kernels are compiled
    warm("win", tables)       compile them (each step a small question), then mark them ready
"""
from ..engine import kernel_cache
from ..presets import read_rules

FEATURES = ("win", "duel", "why")
# Whether a question may compile here: a server's worker processes say no (web/worker.py), as
# their time limit would stop a compile half done; everyone else compiles when first asked.
COMPILES = [True]


class NotReady(Exception):
    """The kernels of `feature` are not compiled, and this asker does not compile them."""

    def __init__(self, feature):
        super().__init__(f"the {feature} coach's kernels are not compiled yet")
        self.feature = feature

    def __reduce__(self):
        return NotReady, (self.feature,)


def ready(feature):
    """Whether the kernels of `feature` (FEATURES) are all compiled into the cache."""
    return kernel_cache.compiled(feature)


def need(feature, tables=None, compiling=None):
    """Make sure the kernels of `feature` are compiled: here (compiling(feature) says so first)
    unless this process does not compile in a question (COMPILES): then NotReady."""
    if ready(feature):
        return
    if not COMPILES[0]:
        raise NotReady(feature)
    if compiling is not None:
        compiling(feature)
    warm(feature, tables)


def steps(feature):
    """The small questions that compile the kernels of `feature`, in order: functions of the
    cache of tables (ask/tables.Tables)."""
    if feature == "win":
        return [_win_against_a_final_score, _win_against_a_card]
    if feature == "duel":
        from ..duel.warm import warm_steps
        return warm_steps()
    if feature == "why":
        return [_why_upper_bonus]
    raise ValueError(f"a feature is one of {', '.join(FEATURES)}, got {feature!r}")


def warm(feature, tables, progress=None):
    """Compile the kernels of `feature` (or load them from the cache), then mark them ready;
    progress(done, of) after each step."""
    todo = steps(feature)
    for done, step in enumerate(todo, 1):
        step(tables)
        if progress is not None:
            progress(done, len(todo))
    kernel_cache.mark_compiled(feature)


def _win_question(opponents, rolls_left):
    """A win question with one open box: the sub-game is one level, the kernels all the same."""
    from ..advice.position import checked_query
    from .request import read_request
    rules = read_rules("kniffel")
    card = {box: 0 for box in rules.boxes[:-1]}
    request = read_request({"card": card, "dice": [1, 2, 3, 4, 5], "rolls_left": rolls_left,
                            "goal": "win", "opponents": opponents}, files=False)
    return request.goal, checked_query(card, rules, [1, 2, 3, 4, 5], rolls_left)


def _win_against_a_final_score(tables):
    """The win sub-game's kernels (engine/target/)."""
    goal, query = _win_question([{"final": 10}], 0)
    goal.ranked(query, tables)


def _win_against_a_card(tables):
    """The kernels of an opponent's final-score distribution (stats/distribution_kernels.py),
    which a finished opponent never needs; one open box each, milliseconds once compiled."""
    rules = read_rules("kniffel")
    goal, query = _win_question([{"card": {box: 0 for box in rules.boxes[1:]}}], 1)
    goal.ranked(query, tables)


def _why_upper_bonus(tables):
    """The kernels of the upper bonus's chance after a turn (stats/distribution.py's forward
    pass, advice/why.py): two boxes open, the bonus still open, one turn followed."""
    from ..advice.goal import POINTS
    from ..advice.why import explain
    from .request import read_request
    card = {"twos": 6, "threes": 12, "fours": 16, "fives": 15, "sixes": 12, "three_kind": 20,
            "four_kind": 0, "full_house": 25, "small_straight": 30, "large_straight": 40,
            "kniffel": 0}  # the upper boxes hold 61: the ones decide the bonus
    request = read_request({"card": card, "dice": [1, 1, 2, 3, 6], "rolls_left": 2, "why": True},
                           files=False)
    explain(request.query, POINTS.ranked(request.query, tables), tables(request.rules))
