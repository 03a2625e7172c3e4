"""The web app of `kniffel serve`: the page, its static files and a JSON API (docs/reference.md,
"The web app").

The server keeps no game: every request carries what it needs (a batch line, or a game record
with the dice in hand), is checked by the same code as the command line (solver/advice/batch.py,
solver/game/), and is answered from tables loaded once and shared by all requests.  Nothing in a
request names a file: rules are a preset name plus inline options.
"""
import asyncio
import contextlib
import hmac
from pathlib import Path

import orjson
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import Tables as StoreTables, __version__
from ..advice import objective_batch
from ..engine.store import TableError
from ..engine.table_cache import mark_used
from ..duel.solo import advice as duel_advice
from ..game import session
from ..duel.rules import PRESETS as DUEL_PRESETS
from .duel import duel_routes
from ..game.card import GameError
from ..lang import LANGUAGES, Words, box_name, pad_language, web_words
from ..presets import all_presets, get_rules
from ..rules import OPTION_PRESETS, PRESET_DESCRIPTIONS, PRESETS, RulesError
from . import guard, work, worker
from .checks import (GAME_FIELDS, MAX_PLAYERS, NEW_FIELDS, BadRequest, check_fields,
                     check_objective, checked_record, new_record)

STATIC = Path(__file__).parent / "static"
MAX_BODY = 256 * 1024  # a finished game of 8 players is about 40 KiB
TOKEN_HEADER = "x-kniffel-token"
TOKEN_COOKIE = "kniffel_token"


class Tables(StoreTables):
    """solver.Tables, but a missing expected-score table is never solved here: it raises
    work.TableMissing (a background job solves it, web/work.py)."""

    def __init__(self, directory=None, preloaded=()):
        super().__init__(directory, preloaded, announce=_missing)

    def _get(self, kind, rules):
        try:
            table = super()._get(kind, rules)
        except _Missing:
            raise work.TableMissing(rules) from None
        if kind == "expected":  # the cache of house rules' tables keeps the ones used last
            mark_used(rules, self.directory)
        return table


class _Missing(Exception):
    pass


def _missing(reason):
    raise _Missing(reason)


def objectives():
    """The objectives the advice can take: the expected score, and winning (batch lines with the
    other players' positions, "opponents")."""
    return ["expected"] + (["win"] if "opponents" in objective_batch.FIELDS else [])


def scorecard_advice(query, tables, default=PRESETS["kniffel"], language=None):
    """The advice dict of a scorecard query (a `kniffel advise --batch` line, parsed), asked of
    the advice directly: the same answer as the batch gives for that line, or {"error": ...}
    with its words; `default`: the rules of a query that names none; with `language`, "why":
    the error in that language (a budget's, advice/cost.OverBudget, has words of its own)."""
    try:
        return objective_batch.answer_query(query, default, tables, tables.target).as_dict()
    except (ValueError, TypeError, RulesError, TableError, OSError) as exc:
        answer = {"error": f"line 1: {exc}"}  # as the batch names a request's one line
        if language is not None:
            answer["why"] = exc.text(language) if hasattr(exc, "text") else str(exc)
        return answer


def answer_request(body, tables):
    """One `kniffel advise --batch` line (bytes) -> (status, the JSON bytes the batch prints)."""
    query = json_object(body, "the body must be one JSON object, a line of kniffel advise --batch")
    # a line with chips or players is the Dice Duel's unless it names its rules
    name = query.get("rules", "dice-duel" if {"chips", "players"} & set(query) else "kniffel")
    if not isinstance(name, str) or name not in all_presets():
        raise BadRequest(f"rules must be a preset name: {', '.join(all_presets())}")
    rules = all_presets()[name]
    if rules.game == "dice-duel":
        line = body.decode("utf-8", "replace").replace("\n", " ")
        answer = next(iter(duel_advice.answer_lines([line], rules, tables)))
        answer = answer.encode() if isinstance(answer, str) else answer
        return (400 if answer.startswith(b'{"error"') else 200), answer
    answer = scorecard_advice(query, tables)
    return (400 if "error" in answer else 200), orjson.dumps(answer)


def game_state(record, hand, tables, language=None, objective="expected"):
    """Everything the page shows of a game: the card, the turn, the legal boxes and the advice."""
    game, turn = session.rebuild(record, hand)
    rules = game.rules
    if not (isinstance(language, str) and language in LANGUAGES):
        language = pad_language(rules)
    state = {"record": game.record(), "hand": list(turn.dice) if turn and turn.dice else None,
             "rules": {"key": rules.key, "preset": rules.preset, "description": rules.description,
                       "rolls_per_turn": rules.rolls_per_turn, "jokers": rules.jokers,
                       "upper_bonus_threshold": rules.upper_bonus_threshold,
                       "upper_bonus": rules.upper_bonus, "extra_bonus": rules.extra_bonus,
                       "joker": rules.joker},
             "language": language,
             "boxes": [{"key": b, "label": box_name(b, rules, language)} for b in rules.boxes],
             "columns": session.summary(game), "over": game.over, "turn": None,
             "advice": None, "advice_line": None, "objective": "expected"}
    if turn is not None:
        options = turn.options() if turn.dice is not None else {}
        state["turn"] = {"player": turn.player, "name": game.players[turn.player],
                         "round": turn.record["round"], "rolls_left": turn.rolls_left,
                         "roll_number": rules.rolls_per_turn - turn.rolls_left + (turn.dice is None),
                         "kept": list(turn.kept), "n_to_roll": turn.n_to_roll,
                         "jokers_left": turn.column.jokers_left,
                         "boxes": [{"box": b, "points": p, "bonus": paid * rules.extra_bonus}
                                   for b, (p, paid) in options.items()],
                         "write": session.write_options(game, turn)}
        line = session.advice_line(game, turn)
        if line is not None:
            if rules.key in PRESETS:
                line = {"rules": rules.key, **line}  # a line `kniffel advise --batch` takes as is
            if objective == "win" and "win" in objectives() and len(game.columns) > 1:
                line["opponents"] = game.opponents(turn.player)
                state["objective"] = "win"
            state["advice"], state["advice_line"] = scorecard_advice(line, tables, rules, language), line
            building = (state["advice"] or {}).get("building") if isinstance(state["advice"], dict) else None
            if building is not None:  # no target table yet: how far its background build is
                from ..advice.win.prepare import building_text
                state["notice"] = building_text(Words(language, rules), building)
    return state


def server_info():
    """GET /api/info: the version, objectives, languages with every word of the page (solver/lang),
    and the presets with their options, pad language and the name of their Kniffel box (and the
    Dice Duel's pad language)."""
    return {"version": __version__, "objectives": objectives(), "max_players": MAX_PLAYERS,
            "languages": list(LANGUAGES), "words": {lang: web_words(lang) for lang in LANGUAGES},
            "duel_language": pad_language(DUEL_PRESETS["dice-duel"]),
            "presets": [{"name": name, "description": PRESET_DESCRIPTIONS[name],
                         "language": pad_language(rules),
                         "kniffel": {lang: box_name(rules.boxes[rules.kniffel_box], rules, lang)
                                     for lang in LANGUAGES},
                         "options": {k: getattr(rules, k) for k in OPTION_PRESETS if name in OPTION_PRESETS[k]}}
                        for name, rules in PRESETS.items()]}


def in_language(data, function, *args):
    """function(*args); a GameError (a move the player made) becomes a 400 in the request's
    language."""
    try:
        return function(*args)
    except GameError as exc:
        language = data.get("language") if data.get("language") in LANGUAGES else "en"
        raise BadRequest(exc.text(language)) from None


def analysis_goal(data, record):
    """(goal, None, from_round) for analysis.analyze: with "goal": "win" (a game of several), the
    chance to win from round `from_round` on, for the decisions the page took playing to win."""
    if data.get("goal") != "win" or len(record.get("players", [])) < 2:
        return None, None, 1
    from ..advice.goal import WinGoal
    from_round = data.get("from_round", 1)
    if not isinstance(from_round, int) or isinstance(from_round, bool) or from_round < 1:
        raise BadRequest("from_round must be a whole number >= 1")
    return WinGoal(), None, from_round


async def _json_body(request):
    try:
        return await guard.read_body(request, MAX_BODY)
    except guard.BodyError as exc:
        raise BadRequest(str(exc), exc.status) from None


async def _json_object(request):
    return json_object(await _json_body(request), "the body must be a JSON object")


def json_object(body, not_an_object):
    """The JSON object of a request body; BadRequest for text that is not JSON or another value
    (`not_an_object` says what was wanted)."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise BadRequest(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BadRequest(not_an_object)
    return data


def _json(data, status=200):
    return Response(orjson.dumps(data), status, media_type="application/json")


async def _on_pool(pool, request, name, *args):
    """TASKS[name] on the pool, cancelled if the client disconnects first."""
    watch = asyncio.ensure_future(guard.disconnected(request))
    try:
        return await pool.run(name, args, watch)
    finally:
        watch.cancel()


async def _state_or_points(run, request, data, name, *args):
    """The state of a game request (`run`: the app's work on its pool); a win advice stopped at
    the budget (the work ran past it, no prediction refused it) is asked again for points, with
    a notice, as a refused one is (_task_state): the move itself must not fail for the advice."""
    try:
        return await run(request, name, data, *args)
    except work.Stopped as exc:
        if data.get("objective") != "win" or exc.status != 422:
            raise
        state = await run(request, name, {**data, "objective": "expected"}, *args)
        words = Words(data.get("language") if data.get("language") in LANGUAGES else "en")
        why = words(exc.words[0], **exc.words[1]) if exc.words else str(exc)
        return {**state, "notice": words("web.points_instead", why=why)}


def _lifespan(pool):
    @contextlib.asynccontextmanager
    async def lifespan(app):
        pool.start()  # the workers warm up while the server starts
        try:
            yield
        finally:
            pool.stop()
    return lifespan


def _error(exc, **more):
    """{"error": English, "words": {key, fields} of solver/lang where it has them (the page's)}."""
    words = getattr(exc, "words", None)
    return {"error": str(exc), **more, **({"words": {"key": words[0], "fields": words[1]}} if words else {})}


async def _busy(request, exc):
    return Response(orjson.dumps(_error(exc, retry_after=exc.retry_after)), 503,
                    {"retry-after": str(exc.retry_after)}, media_type="application/json")


async def _failed(request, exc):
    return _json(_error(exc), exc.status)


async def _client_gone(request, exc):
    guard.quiet_disconnect(request)
    return Response(status_code=400)


def create_app(tables_dir=None, token=None, preloaded=(), host="127.0.0.1", pool=None, budget=None):
    """The Starlette app; `token`, when set, is required on every request (query, header or
    cookie); `preloaded`: tables already in memory; `host`: the address it listens on (the
    Host header must name it, web/guard.py); `pool`: the work.Pool that computes (default: one
    worker thread sharing `preloaded`, with `budget` seconds a request: the test client)."""
    tables = Tables(tables_dir, preloaded)
    pool = pool or work.Pool(1, 8, budget, SERVICE, tables=tables, processes=False)

    async def index(request):
        # read here, not by FileResponse on a thread: the page must come at once, whatever
        # the threads and workers are doing (a few KiB from the OS's cache)
        response = Response((STATIC / "index.html").read_bytes(), media_type="text/html",
                            headers={"cache-control": "no-cache"})
        if token and request.query_params.get("token"):
            response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict")
        return response

    async def info(request):
        return _json(server_info())

    async def advise(request):
        status, answer = await _work(request, "advise", await _json_body(request))
        return Response(answer, status, media_type="application/json")

    def _work(request, name, *args):
        return _on_pool(pool, request, name, *args)

    async def new_game(request):
        data = await _json_object(request)
        check_fields(data, NEW_FIELDS, "a new game")
        return _json(await _state_or_points(_work, request, data, "new", new_record(data)))

    async def game(request):
        data = await _json_object(request)
        check_fields(data, GAME_FIELDS, "a game request")
        check_objective(data)
        record, hand = checked_record(data.get("record")), data.get("hand")
        return _json(await _state_or_points(_work, request, data, "game", record, hand, data.get("move")))

    async def analyze(request):
        data = await _json_object(request)
        check_fields(data, {"record", "goal", "from_round"}, "an analysis")
        record = checked_record(data.get("record"))
        return _json(await _work(request, "analyze", record, analysis_goal(data, record)))

    async def jobs(request):
        return _json(pool.status())

    routes = [Route("/", index), Route("/api/info", info), Route("/api/advise", advise, methods=["POST"]),
              Route("/api/new", new_game, methods=["POST"]), Route("/api/game", game, methods=["POST"]),
              Route("/api/analyze", analyze, methods=["POST"]), Route("/api/jobs", jobs),
              *duel_routes(_json_object, _json,
                           lambda request, function, *args: _work(request, "call", function, args)),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    middleware = [Middleware(guard.Guard, host=host)]
    middleware += [Middleware(_TokenGate, token=token)] if token else []
    app = Starlette(routes=routes, middleware=middleware, lifespan=_lifespan(pool),
                    exception_handlers=handlers())
    app.state.tables, app.state.pool = tables, pool
    return app


async def bad_request(request, exc):
    return _json({"error": str(exc)}, exc.status)


async def game_error(request, exc):
    return _json({"error": str(exc)}, 400)


async def http_error(request, exc):
    return _json({"error": exc.detail}, exc.status_code)


async def server_error(request, exc):
    return _json({"error": f"internal error ({type(exc).__name__})"}, 500)


def handlers():
    """The app's exception handlers: each error a JSON {"error": ...} with its status."""
    return {BadRequest: bad_request, GameError: game_error, RulesError: game_error,
            HTTPException: http_error, work.Busy: _busy, work.Stopped: _failed, work.Failed: _failed,
            ClientDisconnect: _client_gone, Exception: server_error}


class _TokenGate:
    """ASGI middleware: refuse every request without the access token (query, header or cookie)."""

    def __init__(self, app, token):
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        response = JSONResponse({"error": "access token missing or wrong: open the URL kniffel serve printed"},
                                403)
        await response(scope, receive, send)

    def _allowed(self, scope):
        from urllib.parse import parse_qs
        given = parse_qs(scope.get("query_string", b"").decode()).get("token", [""])[0].encode()
        headers = dict(scope.get("headers", []))
        given = given or headers.get(TOKEN_HEADER.encode(), b"")
        if not given:
            for part in headers.get(b"cookie", b"").decode("latin-1").split(";"):
                name, _, value = part.strip().partition("=")
                if name == TOKEN_COOKIE:
                    given = value.encode()
        return hmac.compare_digest(given, self.token)


# --- what the workers compute (web/work.py runs it, web/worker.py around it) ---------------------

def _task_state(tables, data, record, hand, move, budget, check=True):
    """POST /api/new and /api/game: the state after `move` (a bad one: a 400 in the request's
    language); a win advice refused (over the budget) is the advice for points instead, with a
    "notice" saying why."""
    if check:  # a record from the client: every field as its moves give it, the seed's dice
        in_language(data, session.check_record, record, hand)
    if move is not None:
        record, hand = in_language(data, session.apply_move, record, hand, move)
    objective = data.get("objective", "expected")
    state = in_language(data, game_state, record, hand, tables, data.get("language"), objective)
    advice = state.get("advice")
    if objective == "win" and isinstance(advice, dict) and "error" in advice:
        state = game_state(record, hand, tables, data.get("language"), "expected")
        words = Words(state["language"])
        from ..advice.win.prepare import building_text, status
        building = status(session.rebuild(record, hand)[0].rules, tables.directory)
        if building is None:
            state["notice"] = words("web.points_instead", why=advice["why"])
        else:  # the opponents' store comes with the target table's build: say when, not how
            state["notice"] = words("web.points_while_building",
                                    building=building_text(words, building))
    return state


def _task_analyze(tables, record, goal, budget):
    """POST /api/analyze: `goal` is analysis_goal's (goal, None, from_round)."""
    from ..game import analysis
    from ..game.record import record_rules
    table = tables(record_rules(record["rules"]))
    return {**analysis.analyze(record, table, *goal), "expected_start": session.start_expectation(table)}


def _task_solve(tables, rules, budget):
    from .. import get_table
    from ..engine.table_cache import prune_house_rules
    table = tables.loaded["expected", rules] = get_table(rules, tables.directory, progress=False)
    # the store of a server is a cache of house rules: each new set of options in /api/new
    # solves a table (8.4 MB), so the least recently used beyond HOUSE_RULES_KEPT go
    prune_house_rules(tables.directory)
    return {"rules": rules.key, "expected_score": table.expected_score}


TASKS = {"advise": lambda tables, body, budget: answer_request(body, tables),
         "call": lambda tables, function, args, budget: function(*args),  # web/duel.py's
         "new": lambda tables, data, record, budget: _task_state(tables, data, record, None, None, budget,
                                                               check=False),
         "game": _task_state, "analyze": _task_analyze, "solve": _task_solve}


def error_of(exc):
    """The exception a request raises for the error of its task (work.Failed with its status)."""
    from ..advice.cost import OverBudget
    from ..engine.backward import Cancelled
    from ..engine.store import TableError
    if isinstance(exc, (work.TableMissing, work.Stopped, work.Failed)):
        return exc
    if isinstance(exc, Cancelled):
        return work.Stopped(f"cancelled ({exc})")
    if isinstance(exc, (OverBudget, BadRequest)):
        return work.Failed(str(exc), getattr(exc, "status", 422))
    if isinstance(exc, (GameError, RulesError, TableError, ValueError)):
        return work.Failed(str(exc), 400)
    import traceback
    traceback.print_exc()  # a bug: its traceback in the server's log, one line to the page
    return work.Failed(f"internal error ({type(exc).__name__})", 500)


def warm_up(tables):
    """Load the kniffel table and the kernels of the advice and of the win sub-game, so that no
    request pays for them (or is cancelled while a kernel compiles)."""
    rules = PRESETS["kniffel"]
    answer_request(b'{"dice": [1, 2, 3, 4, 5], "rolls_left": 1}', tables)
    card = {box: 0 for box in rules.boxes[:-1]}
    answer_request(orjson.dumps({"card": card, "dice": [1, 2, 3, 4, 5], "rolls_left": 0,
                              "opponents": [{"final": 10}]}), tables)
    # an opponent with a card: the kernels of its distribution (stats/distribution_kernels.py),
    # which a final score never needs; one open box each, so it takes milliseconds once compiled
    answer_request(orjson.dumps({"card": card, "dice": [1, 2, 3, 4, 5], "rolls_left": 1,
                              "opponents": [{"card": {box: 0 for box in rules.boxes[1:]}}]}), tables)
    from .duel import warm_up as duel_warm_up
    duel_warm_up()


def worker_main(connection, cancel, levels, tables_dir):
    """A worker process of `kniffel serve` (work.ProcessWorker)."""
    worker.serve(connection, cancel, levels, Tables(tables_dir), TASKS, error_of, warm_up)


def job_main(connection, rules, tables_dir, levels):
    """A process that solves and saves a missing table (work.Job)."""
    worker.solve_job(connection, Tables(tables_dir), TASKS, error_of, rules, levels)


SERVICE = (TASKS, error_of, worker_main, job_main)
