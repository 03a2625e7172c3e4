"""What the workers of `kniffel serve` compute (web/work.py runs it, web/worker.py around it):
a game's state with the advice for its goal, asked of the one door (ask/answer.py), an advice
line, an analysis, the jobs a request starts (a missing table solved, a feature's kernels
compiled, the win coach's tables built); the app's table cache, which never solves or compiles
inside a request."""
import json

import orjson

from ..ask.answer import answer, fallback_text
from ..ask.batch import ERRORS, read_line
from ..ask.request import read_request
from ..ask.tables import Tables as StoreTables
from ..engine.table_cache import mark_used
from ..game import session
from ..game.card import GameError
from ..lang import LANGUAGES, Words, box_name, pad_language
from ..rules import RulesError
from . import work, worker
from .checks import GOALS, BadRequest


class ServerTables(StoreTables):
    """solver.Tables, but a missing expected-score table is never solved here: it raises
    work.TableMissing (a job solves it, web/work.py).  (Nor are a feature's kernels compiled in
    a worker process: web/worker.py turns ask/warm.COMPILES off there.)"""

    def __init__(self, directory=None, preloaded=()):
        super().__init__(directory, preloaded, announce=_missing)

    def get(self, kind, rules):
        try:
            table = super().get(kind, rules)
        except _Missing:
            raise work.TableMissing(rules) from None
        if kind == "expected":  # the cache of house rules' tables keeps the ones used last
            mark_used(rules, self.directory)
        return table


class _Missing(Exception):
    pass


def _missing(rules, reason):
    raise _Missing(reason)




def answer_request(body, tables):
    """POST /api/advise: one `kniffel advise --batch` line (bytes) -> (status, the JSON bytes
    the batch prints for it, the feature whose kernels the answer waits for or None); nothing
    in it may name a file."""
    try:
        request = read_line(body, None, files=False)
        advice = answer(request, tables)
        return 200, orjson.dumps(advice.as_dict()), advice.preparing
    except ERRORS as exc:  # as the batch names its one line
        return 400, orjson.dumps({"error": f"line 1: {exc}"}), None


def game_state(record, hand, tables, language=None, goal="points", why=False):
    """Everything the page shows of a game: the card, the turn, the legal boxes and the advice
    for `goal` ("points", or "win" against the other players on the card), with `why` what each
    option plays for (advice/why.py)."""
    game, turn = session.rebuild(record, hand)
    rules = game.rules
    if not (isinstance(language, str) and language in LANGUAGES):
        language = pad_language(rules)
    state = {"record": game.record(), "hand": list(turn.dice) if turn and turn.dice else None,
             "rules": {"key": rules.key, "preset": rules.preset,
                       "description": Words(language, rules).description(rules),
                       "rolls_per_turn": rules.rolls_per_turn, "jokers": rules.jokers,
                       "upper_bonus_threshold": rules.upper_bonus_threshold,
                       "upper_bonus": rules.upper_bonus, "extra_bonus": rules.extra_bonus,
                       "joker": rules.joker},
             "language": language,
             "boxes": [{"key": b, "label": box_name(b, rules, language)} for b in rules.boxes],
             "columns": session.summary(game), "over": game.over, "turn": None,
             "advice": None, "advice_line": None, "goal": "points"}
    if turn is not None:
        state["turn"] = _turn_state(game, turn)
        fields = session.advice_fields(game, turn)
        if fields is not None:
            if why:
                fields = {**fields, "why": True}
            _advice_state(state, game, turn, fields, tables, goal)
    return state


def _turn_state(game, turn):
    rules = game.rules
    options = turn.options() if turn.dice is not None else {}
    return {"player": turn.player, "name": game.players[turn.player],
            "round": turn.record["round"], "rolls_left": turn.rolls_left,
            "roll_number": rules.rolls_per_turn - turn.rolls_left + (turn.dice is None),
            "kept": list(turn.kept), "n_to_roll": turn.n_to_roll,
            "jokers_left": turn.column.jokers_left,
            "boxes": [{"box": b, "points": p, "bonus": paid * rules.extra_bonus}
                      for b, (p, paid) in options.items()],
            "write": session.write_options(game, turn)}


def _advice_state(state, game, turn, fields, tables, goal):
    """The advice of the decision in hand for `goal`, asked of the one door: its answer, the
    goal it answers (points when the win could not be answered here, with the notice why) and
    the line `kniffel advise --batch` takes for the same question."""
    words = Words(state["language"], game.rules)
    if goal == "win" and len(game.columns) > 1:
        fields = {**fields, "goal": "win", "opponents": game.opponents(turn.player)}
    elif goal not in GOALS:
        raise BadRequest(f"goal must be points or win, got {goal!r}"[:200])
    advice = answer(read_request(fields, files=False), tables)
    state["advice"], state["goal"] = advice.as_dict(), advice.goal.kind
    state["advice_line"] = session.advice_line(game, turn, fields.get("opponents"))
    if "why" in fields and state["advice_line"] is not None:
        state["advice_line"]["why"] = True
    said = fallback_text(advice, words)
    if said is not None:
        state["notice"] = said
    if advice.building is not None:  # the win tables' build under way: how far it is
        from ..ask.build import building_text
        building = building_text(words, advice.building)
        state["notice"] = (words("web.points_while_building", building=building) if said
                           else building)
    if advice.offer is not None:  # the win tables missing: what building them would cost
        from ..ask.build import duration_text, size_text
        offer = advice.offer
        state["offer"] = {"rules": offer["rules"], "text": words(
            "web.build_offer", title=offer["title"][words.lang],
            size=size_text(words, offer["disk_bytes"]),
            time=duration_text(words, offer["seconds"]))}


def in_language(data, function, *args):
    """function(*args); a GameError (a move the player made) becomes a 400 in the request's
    language."""
    try:
        return function(*args)
    except GameError as exc:
        language = data.get("language") if data.get("language") in LANGUAGES else "en"
        raise BadRequest(exc.text(language)) from None


# The work (reference seconds, advice/cost.py) of an analysis's chances to win and its whys' upper
# bonus chances in all (the chances first, the whys what is left): the whole game's chances are
# about a minute, past the server's time limit (default 10 s: half of it, for a machine slower
# than the reference); the same on every server and machine, so the same answer.
ANALYSIS_WORK = 5.0


def analysis_goal(data, record):
    """(goal, from_round) for analysis.analyze: with "goal": "win" (a game of several), the
    chance to win from round `from_round` on, for the decisions the page took playing to win."""
    goal = data.get("goal", "points")
    if goal not in GOALS:
        raise BadRequest(f"goal must be points or win, got {goal!r}"[:200])
    from_round = data.get("from_round", 1)
    from ..game.record import record_rules
    rounds = record_rules(record["rules"]).n_boxes
    if not isinstance(from_round, int) or isinstance(from_round, bool) \
            or not 1 <= from_round <= rounds:
        raise BadRequest(f"from_round must be a round of the game, 1-{rounds}, got "
                         f"{json.dumps(from_round, default=str)[:40]}")
    if goal != "win" or len(record.get("players", [])) < 2:
        return None, 1
    fields = {"goal": "win", "opponents": [{"final": 0}]}  # the opponents come at each decision
    return read_request(fields, files=False).goal, from_round


def _task_state(tables, data, record, hand, move, budget, check=True):
    """POST /api/new and /api/game: the state after `move` (a bad one: a 400 in the request's
    language), with the advice for the request's goal (points instead, and why, where the one
    door could not answer it here)."""
    if check:  # a record from the client: every field as its moves give it, the seed's dice
        in_language(data, session.check_record, record, hand)
    if move is not None:
        record, hand = in_language(data, session.apply_move, record, hand, move)
    return in_language(data, game_state, record, hand, tables, data.get("language"),
                       data.get("goal", "points"), data.get("why", False))


def _task_analyze(tables, record, goal, why, history, budget):
    """POST /api/analyze: `goal` is analysis_goal's (goal, from_round); its chances within
    ANALYSIS_WORK (the latest rounds that fit; the answer says from which round on, and why),
    with `why` the whys of each player's costliest decisions, their upper bonus chances within
    what is left of it; a finished game is kept in `history` (a path, None: the default place,
    False: no history), at most once (the page asks again at every reload): "kept" says so, or
    why not."""
    from ..ask import analysis
    from ..game.record import record_rules
    result = analysis.analyze(record, tables, *goal, work_budget=ANALYSIS_WORK, why=why)
    result["expected_start"] = session.start_expectation(tables(record_rules(record["rules"])))
    if history is not False and record.get("finished") is True:
        from ..history.games import keep_game
        from ..history.store import HistoryError
        try:
            keep_game(history, record, result, "web")
            result["kept"] = True
        except HistoryError as exc:
            result["kept"] = str(exc)
    return result


def _task_history(tables, history, language, budget):
    """GET /api/history: what the games kept say (history/summary.py), per player its lines in
    `language` besides the figures; no history: {"players": []}."""
    from ..history.store import HistoryError, default_path, open_history
    from ..history.summary import history_lines, summary
    if history is False:
        return {"players": [], "kept": False}
    path = history or default_path()
    try:
        with open_history(path, write=False) as kept:
            result = summary(kept)
    except HistoryError:  # none kept yet (or refused: the server said so when it started)
        return {"players": []}
    words = Words(language if language in LANGUAGES else "en", page=True)
    for player in result["players"]:
        player["lines"] = history_lines({"players": [player]}, words, path)
    return result


def _task_solve(tables, rules, budget):
    """Solve and save the value table of `rules` (a job); where the store cannot save it (read
    only, a full disk) the table itself comes back in "table", with the reason in "unsaved":
    the server keeps it in memory (work.Pool.keep), so that it is used all the same."""
    from .. import get_table
    from ..engine.table_cache import prune_house_rules
    unsaved = []
    table = tables.loaded["expected", rules] = get_table(rules, tables.directory, progress=False,
                                                         warn=unsaved.append)
    # the store of a server is a cache of house rules: each new set of options in /api/new
    # solves a table (8.4 MB), so the least recently used beyond HOUSE_RULES_KEPT go
    prune_house_rules(tables.directory)
    result = {"rules": rules.key, "expected_score": table.expected_score}
    if unsaved:
        result.update(unsaved=unsaved[0], table=table)
    return result


def _task_keep(tables, table, budget):
    """Hold `table` (solved by a job, not saved: the store cannot be written) in this worker."""
    tables.loaded["expected", table.rules] = table
    return table.rules.key


def _task_job(tables, kind, subject, progress, guard):
    """A job (web/work.Job): ("table", rules) solve and save a value table, ("warm", feature)
    compile a feature's kernels, ("win", rules) build the win coach's tables; each reports
    into `progress` ([fraction, eta seconds, levels]; -1 where not known)."""
    if kind == "table":
        return _task_solve(tables, subject, guard)
    if kind == "warm":
        from ..ask.warm import warm

        def steps(done, of):
            progress[0] = done / of

        warm(subject, StoreTables(tables.directory), steps)
        return {"feature": subject}
    if kind == "win":
        from ..ask.build import build

        def report(stage, fraction, eta):
            progress[0], progress[1] = fraction, -1.0 if eta is None else eta

        return {"rules": subject.key, "result": build(subject, StoreTables(tables.directory),
                                                      report=report)}
    raise ValueError(f"no job of kind {kind!r}")


TASKS = {"advise": lambda tables, body, budget: answer_request(body, tables),
         # web/duel.py's: the worker's tables, whose store may hold the Dice Duel's horizon table
         "call": lambda tables, function, args, budget: function(*args, tables=tables),
         "new": lambda tables, data, record, budget: _task_state(tables, data, record, None, None,
                                                               budget, check=False),
         "game": _task_state, "analyze": _task_analyze, "history": _task_history,
         "solve": _task_solve, "job": _task_job, "keep": _task_keep}


def error_of(exc):
    """The exception a request raises for the error of its task (work.Failed with its status)."""
    from ..advice.cost import OverBudget
    from ..ask.warm import NotReady
    from ..engine.cancel import Cancelled
    from ..engine.store import TableError
    if isinstance(exc, (work.TableMissing, NotReady, work.Stopped, work.Failed)):
        return exc  # a missing table or kernels: the pool starts their job
    if isinstance(exc, Cancelled):
        return work.Stopped(f"cancelled ({exc})")
    if isinstance(exc, BadRequest):
        return work.Failed(str(exc), exc.status)
    if isinstance(exc, OverBudget):
        return work.Failed(str(exc), 422)
    if isinstance(exc, (GameError, RulesError, TableError, ValueError)):
        return work.Failed(str(exc), 400)
    if isinstance(exc, OSError):  # the store or the disk (full, read-only): one line, no trace
        reason = exc.strerror or next((str(a) for a in exc.args if a), type(exc).__name__)
        return work.Failed(f"{reason}: {exc.filename}" if exc.filename else reason, 503)
    import traceback
    traceback.print_exc()  # a bug: its traceback in the server's log, one line to the page
    return work.Failed(f"internal error ({type(exc).__name__})", 500)


def worker_main(connection, cancel, levels, tables_dir):
    """A worker process of `kniffel serve` (work.ProcessWorker)."""
    worker.serve(connection, cancel, levels, ServerTables(tables_dir), TASKS, error_of)


def job_main(connection, kind, subject, tables_dir, progress):
    """A process that runs one job (work.Job)."""
    worker.job_main(connection, ServerTables(tables_dir), TASKS, error_of, kind, subject,
                    progress)


SERVICE = (TASKS, error_of, worker_main, job_main)
