"""A Request answered: its goal's ranking (advice/goal.py and the Dice Duel's goals), and the
one place that decides what happens when a goal cannot be answered here (its work over the
budget, a table it needs missing, its kernels not compiled in a server, the server's guard
stopping it): the advice for points instead, its `fallback` saying which goal was asked and
why, in words of both languages.

A win or target answer made without the win coach's tables says what building them would cost
(`offer`, ask/build.py), or how far their build is when one is under way (`building`): the
person decides, nothing is built unasked."""
from ..advice.goal import POINTS
from ..advice.limits import Unanswerable
from ..engine.cancel import Cancelled
from ..lang import LANGUAGES
from . import build
from .warm import NotReady, need


def answer(request, tables):
    """The Advice of `request` (ask/request.py) from the cache `tables` (ask/tables.py): its
    goal's, or for points with a `fallback` (fallback()) when a scorecard goal cannot be
    answered here; `preparing` names the feature whose kernels it waits for (a server compiles
    them in a job).  A Dice Duel goal has no fallback: its error goes to the asker."""
    goal, query = request.goal, request.query
    try:
        feature = goal.kernels(query, tables)
        if feature is not None and tables is not None:
            tables.warm(feature)
        elif feature is not None:  # the Dice Duel of several players reads no table: no cache
            need(feature)
        advice = goal.ranked(query, tables)
    except (Unanswerable, Cancelled, NotReady) as why:
        if goal is POINTS or request.rules.game != "scorecard":
            raise
        advice = POINTS.ranked(query, tables)
        advice.fallback = fallback(goal, why)
        if isinstance(why, NotReady):
            advice.preparing = why.feature
    if goal.kind in ("win", "target") and request.rules.game == "scorecard":
        _with_tables_to_build(advice, goal, request.rules, tables)
    if request.why is not None:
        _with_why(advice, query, tables, request.why)
    return advice


def _with_why(advice, query, tables, budget):
    """advice.why and each option's: what the turn plays for under the play the advice ranked
    by (advice/why.py); the upper bonus's chance for points play only, when its work fits
    `budget` (reference seconds) and once the kernels of the distribution are compiled (a
    server answers without it meanwhile, `preparing`).  An estimate (the win's approximation)
    has no why: its play is not known exactly."""
    from ..advice.why import explain
    if advice.method == "approximate" or advice.view is None:
        advice.why = {"play": str(advice.goal), "available": False, "reason": "approximate"}
        return
    table = None
    if advice.goal.kind == "points":
        try:
            tables.warm("why")
            table = tables.points(query.rules)
        except NotReady as exc:
            advice.preparing = exc.feature
    explain(query, advice, table, tables.options["progress"], budget)


def _with_tables_to_build(advice, goal, rules, tables):
    """advice.building (a build under way) or advice.offer (what one would cost) when the win
    coach's tables that `goal` reads are missing and the answer is not exact without them."""
    # a target reads the target table alone
    missing = build.missing(rules, tables, ("target",) if goal.kind == "target" else build.PARTS)
    if not missing:
        return
    advice.building = build.status(rules, tables.directory)
    # offered only where the tables would change this answer: an exact one needs none
    if advice.building is None and (advice.fallback is not None or advice.method == "approximate"):
        advice.offer = build.offer(rules, tables, missing)


def fallback(goal, why):
    """{"goal": what was asked, "reason": {language: why it was not answered}}: the reason in
    every language, so that each asker says it in its own."""
    if isinstance(why, Cancelled):
        why = Unanswerable(f"the work was stopped ({why})", "fallback.stopped")
    elif isinstance(why, NotReady):
        why = Unanswerable(f"the {why.feature} coach's kernels are being compiled (once)",
                           f"fallback.compiling_{why.feature}")
    return {"goal": str(goal), "reason": {lang: why.text(lang) for lang in LANGUAGES}}


def fallback_text(advice, words):
    """The line that says why the advice is for points, in `words`' language (a lang.Words),
    or None when it is the goal's own."""
    if advice.fallback is None:
        return None
    return words("fallback.points", why=advice.fallback["reason"][words.lang])
